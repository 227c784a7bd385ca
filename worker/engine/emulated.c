/* emulated.c -- an emulated drive: touches no data and completes each I/O
 * when a drive model says (engine.h, sc_engine_emulated): parametric, or
 * a latency distribution measured in an earlier run.
 *
 * Submit gives every I/O its completion time at once: its transfer waits
 * for the instance's link (one transfer at a time at the bandwidth cap,
 * scaled by the drive's speed this phase cell and, for writes, by how full
 * the drive is), then the service latency plus an exponential spread (or
 * a draw from the measured distribution), and now and then a stall.  Reap
 * hands back the I/Os whose time has come, sleeping until the next one
 * otherwise.
 */
#include "emulated.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine_priv.h"
#include "pattern.h"
#include "units.h"

/* Resolution of the uniform draws. */
#define UNIFORM_BITS 53
/* The drive's own stream: a job index no job has. */
#define DRIVE_STREAM UINT32_MAX
/* Mixes the cell into the seed of the drive's speed draw. */
#define CELL_MIX UINT64_C(0x9e3779b97f4a7c15)
/* A job wakes up to this much before a completion and reads the clock the
 * rest of the way (sc_clock_wait_until): a VM's wakeup takes tens of us
 * (about 50 us on a 2-vCPU Firecracker guest), bare metal a few. */
#define WAKE_LEAD_MAX_NS 100000ull

/* The rank's drive: bytes written through emulated engines in this
 * process (one rank) since it began, across phases. */
static _Atomic uint64_t rank_fill_bytes;

/* A uniform draw in (0, 1): never 0, never 1. */
static double uniform(struct sc_pattern *rng)
{
	return ((double)sc_pattern_below(rng, UINT64_C(1) << UNIFORM_BITS) + 0.5) /
	       (double)(UINT64_C(1) << UNIFORM_BITS);
}

/* The seed of cell's draws: each cell (a checkpoint) draws afresh. */
static uint64_t cell_seed(uint64_t seed, uint32_t cell)
{
	return seed ^ ((uint64_t)cell + 1) * CELL_MIX;
}

double sc_emulate_speed(uint64_t seed, uint32_t cell, uint32_t rank, double spread)
{
	struct sc_io_spec io = {.seed = cell_seed(seed, cell)};
	struct sc_pattern rng;

	if (!(spread > 0))
		return 1.0;
	sc_pattern_init(&rng, &io, rank, DRIVE_STREAM);
	return 1.0 + spread * (2.0 * uniform(&rng) - 1.0);
}

void sc_emulate_state_init(struct sc_emulate_state *st, const struct sc_emulate *model,
			   uint64_t seed, uint32_t cell, uint32_t rank, uint32_t job)
{
	struct sc_io_spec io = {.seed = cell_seed(seed, cell)};

	st->model = *model;
	sc_pattern_init(&st->rng, &io, rank, job);
	st->speed = sc_emulate_speed(seed, cell, rank, model->speed_spread);
	st->fill = &rank_fill_bytes;
}

uint64_t sc_emulate_bandwidth(const struct sc_emulate *m, double speed, uint64_t fill)
{
	double bw = (double)m->bandwidth * speed;

	if (!m->bandwidth)
		return 0;
	if (m->fill_slowdown > 1 && m->fill_capacity) {
		double full = fill >= m->fill_capacity ? 1.0 : (double)fill / (double)m->fill_capacity;

		bw *= 1.0 - (1.0 - 1.0 / m->fill_slowdown) * full;
	}
	return bw < 1 ? 1 : (uint64_t)bw;
}

int sc_emulate_check(const struct sc_emulate *m)
{
	/* written so that NaN fails every test */
	if (!(m->speed_spread >= 0 && m->speed_spread <= SC_EMULATE_SPREAD_MAX))
		return -EINVAL;
	if (!(m->fill_slowdown == 0 ||
	      (m->fill_slowdown >= 1 && m->fill_slowdown <= SC_EMULATE_SLOWDOWN_MAX)))
		return -EINVAL;
	if (m->fill_slowdown > 1 && !m->fill_capacity)
		return -EINVAL;
	if (!(m->stall_probability >= 0 && m->stall_probability <= 1))
		return -EINVAL;
	if (sc_emulate_cdf_check(m->read_cdf, m->nread_cdf) ||
	    sc_emulate_cdf_check(m->write_cdf, m->nwrite_cdf))
		return -EINVAL;
	return 0;
}

struct slot {
	struct sc_io *io;
	uint64_t done_ns;     /* when it completes (in flight only) */
};

struct sc_engine {
	struct engine_res res; /* first: engine_alloc fills it */
	struct sc_emulate_state *st;
	uint64_t link_free_ns; /* when the last transfer submitted ends */
	uint64_t last_done_ns; /* latest completion submitted so far */
	uint64_t lead_ns;      /* how early reap wakes (sc_clock_wait_until) */
	uint32_t nflight;      /* slots[0..nflight): submitted, not reaped,
				* in order of completion */
	uint32_t nqueued;      /* then nqueued queued, not yet submitted */
	struct slot slots[];   /* depth slots */
};

static int emu_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	int rc;
	struct sc_engine *e;

	if (!conf || !conf->emulate || sc_emulate_check(&conf->emulate->model) ||
	    !(conf->emulate->speed > 0))
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

double sc_emulate_cdf_ns(const struct sc_emulate_point *p, uint32_t n, double u)
{
	double want, part;
	uint32_t lo = 1, hi;

	if (n < SC_EMULATE_CDF_MIN)
		return 0;
	want = u * (double)p[n - 1].count;
	/* the first point at or above want, past the first (count 0) */
	hi = n - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if ((double)p[mid].count >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	part = (want - (double)p[lo - 1].count) / (double)(p[lo].count - p[lo - 1].count);
	return (double)p[lo - 1].latency_ns +
	       part * (double)(p[lo].latency_ns - p[lo - 1].latency_ns);
}

int sc_emulate_cdf_check(const struct sc_emulate_point *p, uint32_t n)
{
	if (!n)
		return 0;
	if (!p || n < SC_EMULATE_CDF_MIN || n > SC_EMULATE_CDF_MAX || p[0].count || !p[n - 1].count)
		return -EINVAL;
	for (uint32_t i = 1; i < n; i++)
		if (p[i].count < p[i - 1].count || p[i].latency_ns <= p[i - 1].latency_ns)
			return -EINVAL;
	return 0;
}

/* The measured distribution an I/O of op draws from, or NULL: none. */
static const struct sc_emulate_point *cdf_of(const struct sc_emulate *m, uint8_t op, uint32_t *n)
{
	*n = op == SC_OP_READ ? m->nread_cdf : m->nwrite_cdf;
	return *n ? (op == SC_OP_READ ? m->read_cdf : m->write_cdf) : NULL;
}

uint64_t sc_emulate_service_ns(struct sc_emulate_state *st, uint8_t op)
{
	const struct sc_emulate *m = &st->model;
	uint32_t n;
	const struct sc_emulate_point *cdf = cdf_of(m, op, &n);
	double ns = (double)m->latency_ns;

	/* one draw for the service time either way: the sequence stays fixed */
	if (cdf)
		ns = sc_emulate_cdf_ns(cdf, n, uniform(&st->rng));
	else if (m->spread_ns)
		ns -= (double)m->spread_ns * log(uniform(&st->rng));
	ns /= st->speed;
	/* a draw per I/O whenever stalls are on: the sequence stays fixed */
	if (op != SC_OP_FSYNC && m->stall_probability > 0 &&
	    uniform(&st->rng) < m->stall_probability)
		ns += (double)m->stall_ns;
	return (uint64_t)ns;
}

/* The transfer time of io: at the drive's bandwidth, writes at its fill
 * before them (and adding to it). */
static uint64_t transfer_ns(struct sc_engine *e, const struct sc_io *io)
{
	struct sc_emulate_state *st = e->st;
	uint64_t fill = 0, bw;

	if (io->op == SC_OP_WRITE && st->fill)
		fill = atomic_fetch_add_explicit(st->fill, io->len, memory_order_relaxed);
	bw = sc_emulate_bandwidth(&st->model, st->speed, fill);
	/* len <= 2 GiB: len x 10^9 stays below 2^64 */
	return bw ? (uint64_t)io->len * SC_NS_PER_S / bw : 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* When io, submitted at now, completes; moves the link on. */
static uint64_t complete_at(struct sc_engine *e, const struct sc_io *io, uint64_t now)
{
	uint64_t delay = sc_emulate_service_ns(e->st, io->op);
	uint64_t done;

	if (io->op == SC_OP_FSYNC) {
		done = max_u64(now + delay, e->last_done_ns);
	} else {
		e->link_free_ns = max_u64(now, e->link_free_ns) + transfer_ns(e, io);
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
		sc_clock_wait_until(&e->lead_ns, next < deadline_ns ? next : deadline_ns,
				    WAKE_LEAD_MAX_NS);
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
    .flags = SC_ENGINE_F_NO_FILES | SC_ENGINE_F_NO_DATA,
    .create = emu_create,
    .queue = emu_queue,
    .submit = emu_submit,
    .reap = emu_reap,
    .reap_until = emu_reap_until,
    .destroy = emu_destroy,
};
