/* fifo.h -- the engine the synchronous backends (psync, null) share:
 * queued I/Os wait in a FIFO, submit completes every one of them in the
 * calling thread, and reap hands them back oldest first without blocking.
 *
 * Only for psync.c and null.c, which put fifo_create,
 * fifo_queue, fifo_reap and fifo_destroy in their ops tables and pass
 * fifo_submit the function that does one I/O.
 */
#ifndef SC_ENGINE_FIFO_H
#define SC_ENGINE_FIFO_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "engine.h"
#include "engine_priv.h"

struct sc_engine {
	struct engine_res res; /* first: engine_alloc fills it */
	uint32_t head;	      /* fifo slot of the oldest I/O held */
	uint32_t nheld;	      /* queued or completed, not yet reaped */
	uint32_t ndone;	      /* the oldest ndone of those have completed */
	struct sc_io *fifo[]; /* depth slots */
};

static inline int fifo_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	int rc;
	struct sc_engine *e = engine_alloc(conf, sizeof(*e), sizeof(e->fifo[0]), &rc);

	if (e)
		*out = e;
	return rc;
}

/* The fifo slot of the i-th oldest I/O held. */
static inline uint32_t fifo_slot(const struct sc_engine *e, uint32_t i)
{
	uint32_t s = e->head + i;

	return s >= e->res.depth ? s - e->res.depth : s;
}

static inline int fifo_queue(struct sc_engine *e, struct sc_io *io)
{
	if (!engine_io_valid(io, e->res.nfds, e->res.bufs, e->res.nbufs))
		return -EINVAL;
	if (e->nheld == e->res.depth)
		return -EBUSY;
	e->fifo[fifo_slot(e, e->nheld++)] = io;
	return 0;
}

/* Completes every queued I/O, oldest first, with res = run_one(e, io); returns
 * how many.  Inlined into each engine's submit, so run_one is a direct call. */
static inline int fifo_submit(struct sc_engine *e,
			      int32_t (*run_one)(const struct sc_engine *, const struct sc_io *))
{
	uint32_t n = e->nheld - e->ndone;

	for (uint32_t i = e->ndone; i < e->nheld; i++) {
		struct sc_io *io = e->fifo[fifo_slot(e, i)];

		io->res = run_one(e, io);
	}
	e->ndone = e->nheld;
	return (int)n;
}

static inline int fifo_reap(struct sc_engine *e, struct sc_io **done, uint32_t max,
			    uint32_t min_wait)
{
	uint32_t n = e->ndone < max ? e->ndone : max;

	(void)min_wait; /* submit completed everything: nothing to wait for */
	for (uint32_t i = 0; i < n; i++)
		done[i] = e->fifo[fifo_slot(e, i)];
	e->head = fifo_slot(e, n);
	e->ndone -= n;
	e->nheld -= n;
	return (int)n;
}

static inline void fifo_destroy(struct sc_engine *e)
{
	free(e);
}

#endif
