/* inject.c -- a fault-injecting wrapper around another engine (tests).
 *
 * Reads and writes are counted as they are queued; the chosen ones (every
 * N-th, or each with a seeded probability) never reach the inner engine:
 * they complete at the next submit with res = -errno and are handed back by
 * reap ahead of the inner engine's completions.  Everything else, fsyncs
 * included, goes to the inner engine unchanged.
 */
#include "engine.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine_priv.h"

/* ppm is parts per million. */
#define PPM_SCALE 1000000u

struct sc_engine {
	const struct sc_engine_ops *ops; /* the inner engine's */
	struct sc_engine *inner;
	struct sc_inject_state *st;
	const struct iovec *bufs;
	uint32_t nfds, nbufs;
	uint32_t depth;
	uint32_t outstanding;   /* queued here and not yet reaped, either kind */
	uint32_t head;          /* ring slot of the oldest failed I/O held */
	uint32_t nheld;         /* failed I/Os queued or completed, not reaped */
	uint32_t ndone;         /* the oldest ndone of those are completed */
	struct sc_io *failed[]; /* depth slots */
};

static int inject_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	struct sc_engine *e;
	int rc;

	if (!engine_conf_valid(conf) || !conf->inject || !conf->inject->inner ||
	    conf->inject->inner == &sc_engine_inject || conf->inject->errno_val <= 0)
		return -EINVAL;
	e = calloc(1, sizeof(*e) + (size_t)conf->depth * sizeof(e->failed[0]));
	if (!e)
		return -ENOMEM;
	e->ops = conf->inject->inner;
	e->st = conf->inject;
	e->bufs = conf->bufs;
	e->nfds = conf->nfds;
	e->nbufs = conf->nbufs;
	e->depth = conf->depth;
	rc = e->ops->create(&e->inner, conf);
	if (rc) {
		free(e);
		return rc;
	}
	*out = e;
	return 0;
}

/* Counts one read or write; whether it is to fail. */
static bool inject_choose(struct sc_inject_state *st)
{
	st->queued++;
	if (st->every)
		return st->queued % st->every == 0;
	return st->ppm && sc_pattern_below(&st->rng, PPM_SCALE) < st->ppm;
}

static uint32_t ring_slot(const struct sc_engine *e, uint32_t i)
{
	uint32_t s = e->head + i;

	return s >= e->depth ? s - e->depth : s;
}

static int inject_queue(struct sc_engine *e, struct sc_io *io)
{
	bool rw = io->op == SC_OP_READ || io->op == SC_OP_WRITE;
	int rc;

	if (!engine_io_valid(io, e->nfds, e->bufs, e->nbufs))
		return -EINVAL;
	if (e->outstanding == e->depth)
		return -EBUSY;
	if (rw && inject_choose(e->st)) {
		io->res = -e->st->errno_val;
		e->failed[ring_slot(e, e->nheld++)] = io;
		e->outstanding++;
		return 0;
	}
	rc = e->ops->queue(e->inner, io);
	if (rc) {
		if (rw)
			e->st->queued--; /* queued again later: the same number */
		return rc;
	}
	e->outstanding++;
	return 0;
}

static int inject_submit(struct sc_engine *e)
{
	int n = e->ops->submit(e->inner);
	uint32_t failed = e->nheld - e->ndone;

	if (n < 0)
		return n;
	e->ndone = e->nheld;
	return n + (int)failed;
}

/* Hands back up to max completed failed I/Os, oldest first. */
static uint32_t take_failed(struct sc_engine *e, struct sc_io **done, uint32_t max)
{
	uint32_t n = e->ndone < max ? e->ndone : max;

	for (uint32_t i = 0; i < n; i++)
		done[i] = e->failed[ring_slot(e, i)];
	e->head = ring_slot(e, n);
	e->ndone -= n;
	e->nheld -= n;
	e->outstanding -= n;
	return n;
}

/* The inner engine's reap into done[k..max) (k failed I/Os already there). */
static int reap_inner(struct sc_engine *e, struct sc_io **done, uint32_t k, uint32_t max,
		      uint32_t min_wait)
{
	int n = k < max ? e->ops->reap(e->inner, done + k, max - k, min_wait) : 0;

	if (n < 0)
		return k ? (int)k : n; /* the inner error shows again on the next reap */
	e->outstanding -= (uint32_t)n;
	return (int)k + n;
}

static int inject_reap(struct sc_engine *e, struct sc_io **done, uint32_t max, uint32_t min_wait)
{
	uint32_t k = take_failed(e, done, max);

	return reap_inner(e, done, k, max, k >= min_wait ? 0 : min_wait - k);
}

static int inject_reap_until(struct sc_engine *e, struct sc_io **done, uint32_t max,
			     uint64_t deadline_ns)
{
	uint32_t k;
	int n;

	if (!e->ops->reap_until)
		return -EOPNOTSUPP;
	k = take_failed(e, done, max);
	if (k)
		return reap_inner(e, done, k, max, 0);
	n = e->ops->reap_until(e->inner, done, max, deadline_ns);
	if (n > 0)
		e->outstanding -= (uint32_t)n;
	return n;
}

static void inject_destroy(struct sc_engine *e)
{
	e->ops->destroy(e->inner);
	free(e);
}

const struct sc_engine_ops sc_engine_inject = {
    .name = "inject",
    .create = inject_create,
    .queue = inject_queue,
    .submit = inject_submit,
    .reap = inject_reap,
    .reap_until = inject_reap_until,
    .destroy = inject_destroy,
};
