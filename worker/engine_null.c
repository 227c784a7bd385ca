/* engine_null.c -- completes every I/O at once and touches no data.
 *
 * It does what the other engines do minus the I/O itself (res = len, 0 for
 * fsync), so running a job on it measures the cost of the tool alone.
 */
#include "engine.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

struct sc_engine {
	const struct iovec *bufs;
	uint32_t nfds;
	uint32_t nbufs;
	uint32_t depth;
	uint32_t head;	      /* fifo slot of the oldest I/O held */
	uint32_t nheld;	      /* queued or completed, not yet reaped */
	uint32_t ndone;	      /* the oldest ndone of those have completed */
	struct sc_io *fifo[]; /* depth slots */
};

static int null_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	struct sc_engine *e;

	if (!conf || conf->depth == 0 || (conf->nfds && !conf->fds) || (conf->nbufs && !conf->bufs))
		return -EINVAL;
	e = calloc(1, sizeof(*e) + (size_t)conf->depth * sizeof(e->fifo[0]));
	if (!e)
		return -ENOMEM;
	e->nfds = conf->nfds;
	e->bufs = conf->bufs;
	e->nbufs = conf->nbufs;
	e->depth = conf->depth;
	*out = e;
	return 0;
}

/* The same checks as the real engines, so that a job is not "fast" on null
 * only because it gets no errors. */
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

static int null_queue(struct sc_engine *e, struct sc_io *io)
{
	if (!io_valid(e, io))
		return -EINVAL;
	if (e->nheld == e->depth)
		return -EBUSY;
	e->fifo[slot(e, e->nheld++)] = io;
	return 0;
}

static int null_submit(struct sc_engine *e)
{
	uint32_t n = e->nheld - e->ndone;

	for (uint32_t i = e->ndone; i < e->nheld; i++) {
		struct sc_io *io = e->fifo[slot(e, i)];

		io->res = io->op == SC_OP_FSYNC ? 0 : (int32_t)io->len;
	}
	e->ndone = e->nheld;
	return (int)n;
}

static int null_reap(struct sc_engine *e, struct sc_io **done, uint32_t max, uint32_t min_wait)
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

static void null_destroy(struct sc_engine *e)
{
	free(e);
}

const struct sc_engine_ops sc_engine_null = {
    .name = "null",
    .create = null_create,
    .queue = null_queue,
    .submit = null_submit,
    .reap = null_reap,
    .destroy = null_destroy,
};
