/* engine_priv.h -- the checks every engine makes on its conf and on each
 * I/O, so that all of them refuse the same things.  Only for engine_*.c.
 */
#ifndef SC_ENGINE_PRIV_H
#define SC_ENGINE_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "engine.h"

/* Whether create accepts conf: a depth, and fds/bufs wherever their counts
 * say there are some. */
static inline bool engine_conf_valid(const struct sc_engine_conf *conf)
{
	return conf && conf->depth != 0 && (!conf->nfds || conf->fds) &&
	       (!conf->nbufs || conf->bufs);
}

/* Whether queue accepts io against nfds files and the nbufs buffers bufs:
 * a known op on a file that exists, and for read/write a buffer that exists
 * and holds len (at most 2 GiB).  The null engine checks the same, so that a
 * job is not "fast" on null only because it gets no errors. */
static inline bool engine_io_valid(const struct sc_io *io, uint32_t nfds, const struct iovec *bufs,
				   uint32_t nbufs)
{
	if (io->file >= nfds)
		return false;
	if (io->op == SC_OP_FSYNC)
		return true;
	return (io->op == SC_OP_READ || io->op == SC_OP_WRITE) && io->buf < nbufs &&
	       io->len <= bufs[io->buf].iov_len && io->len <= INT32_MAX;
}

#endif
