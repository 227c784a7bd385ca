/* engine_priv.h -- the checks every engine makes on its conf and on each
 * I/O, so that all of them refuse the same things.  Only for engine_*.c.
 */
#ifndef SC_ENGINE_PRIV_H
#define SC_ENGINE_PRIV_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine.h"

/* What an engine keeps of its conf: the caller's files and buffers (they
 * outlive it), and its depth. */
struct engine_res {
	const int *fds;
	const struct iovec *bufs;
	uint32_t nfds;
	uint32_t nbufs;
	uint32_t depth;
};

/* Whether create accepts conf: a depth, and fds/bufs wherever their counts
 * say there are some. */
static inline bool engine_conf_valid(const struct sc_engine_conf *conf)
{
	return conf && conf->depth != 0 && (!conf->nfds || conf->fds) &&
	       (!conf->nbufs || conf->bufs);
}

/* Checks conf and allocates a zeroed engine: its struct of hdr bytes,
 * whose first member is a struct engine_res (filled from conf), then depth
 * slots of slot bytes.  The engine, or NULL with *rc = -EINVAL or -ENOMEM. */
static inline void *engine_alloc(const struct sc_engine_conf *conf, size_t hdr, size_t slot,
				 int *rc)
{
	struct engine_res *res;

	*rc = -EINVAL;
	if (!engine_conf_valid(conf))
		return NULL;
	*rc = -ENOMEM;
	res = calloc(1, hdr + (size_t)conf->depth * slot);
	if (!res)
		return NULL;
	*res = (struct engine_res){.fds = conf->fds, .bufs = conf->bufs, .nfds = conf->nfds,
				   .nbufs = conf->nbufs, .depth = conf->depth};
	*rc = 0;
	return res;
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
