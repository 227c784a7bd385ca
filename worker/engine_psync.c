/* engine_psync.c -- the portable baseline: pread/pwrite/fsync at submit time.
 *
 * Queued I/Os wait in a FIFO; submit performs them one after another in the
 * calling thread, so every submitted I/O has completed when submit returns
 * and reap never blocks.
 */
#include "engine.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

struct sc_engine {
	const int *fds;
	const struct iovec *bufs;
	uint32_t nfds;
	uint32_t nbufs;
	uint32_t depth;
	uint32_t head;	      /* fifo slot of the oldest I/O held */
	uint32_t nheld;	      /* queued or completed, not yet reaped */
	uint32_t ndone;	      /* the oldest ndone of those have completed */
	struct sc_io *fifo[]; /* depth slots */
};

static int psync_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	struct sc_engine *e;

	if (!conf || conf->depth == 0 || (conf->nfds && !conf->fds) || (conf->nbufs && !conf->bufs))
		return -EINVAL;
	e = calloc(1, sizeof(*e) + (size_t)conf->depth * sizeof(e->fifo[0]));
	if (!e)
		return -ENOMEM;
	e->fds = conf->fds;
	e->nfds = conf->nfds;
	e->bufs = conf->bufs;
	e->nbufs = conf->nbufs;
	e->depth = conf->depth;
	*out = e;
	return 0;
}

static bool io_valid(const struct sc_engine *e, const struct sc_io *io)
{
	if (io->file >= e->nfds)
		return false;
	if (io->op == SC_OP_FSYNC)
		return true;
	return (io->op == SC_OP_READ || io->op == SC_OP_WRITE) && io->buf < e->nbufs &&
	       io->len <= e->bufs[io->buf].iov_len && io->len <= INT32_MAX;
}

static uint32_t slot(const struct sc_engine *e, uint32_t i)
{
	uint32_t s = e->head + i;

	return s >= e->depth ? s - e->depth : s;
}

static int psync_queue(struct sc_engine *e, struct sc_io *io)
{
	if (!io_valid(e, io))
		return -EINVAL;
	if (e->nheld == e->depth)
		return -EBUSY;
	e->fifo[slot(e, e->nheld++)] = io;
	return 0;
}

/* Bytes moved (short only at end of file or after an error part-way), or
 * -errno when nothing was moved. */
static int32_t rw_all(int fd, const struct sc_io *io, char *buf)
{
	uint32_t done = 0;

	while (done < io->len) {
		ssize_t n;

		if (io->op == SC_OP_WRITE)
			n = pwrite(fd, buf + done, io->len - done, (off_t)(io->offset + done));
		else
			n = pread(fd, buf + done, io->len - done, (off_t)(io->offset + done));
		if (n > 0) {
			done += (uint32_t)n;
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		return done ? (int32_t)done : -errno;
	}
	return (int32_t)done;
}

static int32_t do_io(const struct sc_engine *e, const struct sc_io *io)
{
	int fd = e->fds[io->file];

	if (io->op == SC_OP_FSYNC) {
		while (fsync(fd) < 0)
			if (errno != EINTR)
				return -errno;
		return 0;
	}
	return rw_all(fd, io, e->bufs[io->buf].iov_base);
}

static int psync_submit(struct sc_engine *e)
{
	uint32_t n = e->nheld - e->ndone;

	for (uint32_t i = e->ndone; i < e->nheld; i++) {
		struct sc_io *io = e->fifo[slot(e, i)];

		io->res = do_io(e, io);
	}
	e->ndone = e->nheld;
	return (int)n;
}

static int psync_reap(struct sc_engine *e, struct sc_io **done, uint32_t max, uint32_t min_wait)
{
	uint32_t n = e->ndone < max ? e->ndone : max;

	(void)min_wait; /* submit completed everything: nothing to wait for */
	for (uint32_t i = 0; i < n; i++)
		done[i] = e->fifo[slot(e, i)];
	e->head = slot(e, n);
	e->ndone -= n;
	e->nheld -= n;
	return (int)n;
}

static void psync_destroy(struct sc_engine *e)
{
	free(e);
}

const struct sc_engine_ops sc_engine_psync = {
    .name = "psync",
    .create = psync_create,
    .queue = psync_queue,
    .submit = psync_submit,
    .reap = psync_reap,
    .destroy = psync_destroy,
};
