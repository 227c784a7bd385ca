/* emulated.c -- an emulated drive: touches no data and completes each I/O
 * when a parametric drive model says (engine.h, sc_engine_emulated).
 *
 * Submit gives every I/O its completion time at once: its transfer waits
 * for the instance's link (one transfer at a time at the bandwidth cap),
 * then the service latency plus an exponential spread.  Reap hands back
 * the I/Os whose time has come, sleeping until the next one otherwise.
 */
#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine_priv.h"
#include "pattern.h"
#include "units.h"

/* Resolution of the uniform draw under the exponential spread. */
#define UNIFORM_BITS 53

struct slot {
	struct sc_io *io;
	uint64_t done_ns;     /* when it completes (in flight only) */
};

struct sc_engine {
	struct engine_res res; /* first: engine_alloc fills it */
	struct sc_emulate_state *st;
	uint64_t link_free_ns; /* when the last transfer submitted ends */
	uint64_t last_done_ns; /* latest completion submitted so far */
	uint32_t nflight;      /* slots[0..nflight): submitted, not reaped,
				* in order of completion */
	uint32_t nqueued;      /* then nqueued queued, not yet submitted */
	struct slot slots[];   /* depth slots */
};

static int emu_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	int rc;
	struct sc_engine *e;

	if (!conf || !conf->emulate)
		return -EINVAL;
	e = engine_alloc(conf, sizeof(*e), sizeof(e->slots[0]), &rc);
	if (!e)
		return rc;
	e->st = conf->emulate;
	*out = e;
	return 0;
}

static int emu_queue(struct sc_engine *e, struct sc_io *io)
{
	if (!engine_io_valid(io, e->res.nfds, e->res.bufs, e->res.nbufs))
		return -EINVAL;
	if (e->nflight + e->nqueued == e->res.depth)
		return -EBUSY;
	e->slots[e->nflight + e->nqueued++] = (struct slot){.io = io};
	return 0;
}

/* Latency plus an exponential draw of mean spread (0: none). */
static uint64_t service_ns(struct sc_emulate_state *st)
{
	double u;

	if (!st->model.spread_ns)
		return st->model.latency_ns;
	/* in (0, 1): never log(0) */
	u = ((double)sc_pattern_below(&st->rng, UINT64_C(1) << UNIFORM_BITS) + 0.5) /
	    (double)(UINT64_C(1) << UNIFORM_BITS);
	return st->model.latency_ns + (uint64_t)(-(double)st->model.spread_ns * log(u));
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* When io, submitted at now, completes; moves the link on. */
static uint64_t complete_at(struct sc_engine *e, const struct sc_io *io, uint64_t now)
{
	uint64_t delay = service_ns(e->st);
	uint64_t bw = e->st->model.bandwidth;
	uint64_t done;

	if (io->op == SC_OP_FSYNC) {
		done = max_u64(now + delay, e->last_done_ns);
	} else {
		uint64_t start = max_u64(now, e->link_free_ns);
		/* len <= 2 GiB: len x 10^9 stays below 2^64 */
		uint64_t xfer = bw ? (uint64_t)io->len * SC_NS_PER_S / bw : 0;

		e->link_free_ns = start + xfer;
		done = e->link_free_ns + delay;
	}
	e->last_done_ns = max_u64(e->last_done_ns, done);
	return done;
}

/* Puts the first queued I/O, done at done_ns, among those in flight,
 * which stay in order of completion (after any done at the same time). */
static void insert_flight(struct sc_engine *e, uint64_t done_ns)
{
	struct slot s = e->slots[e->nflight];
	uint32_t pos = e->nflight;

	s.done_ns = done_ns;
	while (pos > 0 && e->slots[pos - 1].done_ns > done_ns)
		pos--;
	memmove(&e->slots[pos + 1], &e->slots[pos], (e->nflight - pos) * sizeof(s));
	e->slots[pos] = s;
	e->nflight++;
}

static int emu_submit(struct sc_engine *e)
{
	uint32_t n = e->nqueued;
	uint64_t now = sc_now_ns();

	for (uint32_t i = 0; i < n; i++) {
		struct sc_io *io = e->slots[e->nflight].io;

		io->res = io->op == SC_OP_FSYNC ? 0 : (int32_t)io->len;
		insert_flight(e, complete_at(e, io, now));
		e->nqueued--;
	}
	return (int)n;
}

/* How many in flight have completed by now (the first ones); *next: the
 * earliest completion still to come (UINT64_MAX: none). */
static uint32_t count_done(const struct sc_engine *e, uint64_t now, uint64_t *next)
{
	uint32_t n = 0;

	while (n < e->nflight && e->slots[n].done_ns <= now)
		n++;
	*next = n < e->nflight ? e->slots[n].done_ns : UINT64_MAX;
	return n;
}

/* Moves up to max completed by now into done[], oldest completion first;
 * returns how many. */
static int take_done(struct sc_engine *e, struct sc_io **done, uint32_t max, uint64_t now)
{
	uint64_t next;
	uint32_t n = count_done(e, now, &next);

	if (n > max)
		n = max;
	for (uint32_t i = 0; i < n; i++)
		done[i] = e->slots[i].io;
	memmove(&e->slots[0], &e->slots[n], (e->nflight - n + e->nqueued) * sizeof(e->slots[0]));
	e->nflight -= n;
	return (int)n;
}

/* Sleeps until want have completed or deadline_ns passes, then takes up to
 * max completed. */
static int wait_take(struct sc_engine *e, struct sc_io **done, uint32_t max, uint32_t want,
		     uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now = sc_now_ns();
		uint64_t next;

		/* nothing in flight: reap_until sleeps out its deadline */
		if (count_done(e, now, &next) >= want || now >= deadline_ns ||
		    (next == UINT64_MAX && deadline_ns == UINT64_MAX))
			return take_done(e, done, max, now);
		sc_sleep_until(next < deadline_ns ? next : deadline_ns);
	}
}

static int emu_reap(struct sc_engine *e, struct sc_io **done, uint32_t max, uint32_t min_wait)
{
	uint32_t want = min_wait < e->nflight ? min_wait : e->nflight;

	return wait_take(e, done, max, want < max ? want : max, UINT64_MAX);
}

static int emu_reap_until(struct sc_engine *e, struct sc_io **done, uint32_t max,
			  uint64_t deadline_ns)
{
	return wait_take(e, done, max, 1, deadline_ns);
}

static void emu_destroy(struct sc_engine *e)
{
	free(e); /* nothing really in flight */
}

const struct sc_engine_ops sc_engine_emulated = {
    .name = "emulated",
    .flags = SC_ENGINE_F_NO_FILES,
    .create = emu_create,
    .queue = emu_queue,
    .submit = emu_submit,
    .reap = emu_reap,
    .reap_until = emu_reap_until,
    .destroy = emu_destroy,
};
