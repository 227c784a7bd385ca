/* test_emulated.c -- the emulated-drive engine (sc_engine_emulated).
 *
 * A fixed latency with no spread: no I/O completes before it; a bandwidth
 * cap bounds throughput (64 MiB at 256 MiB/s takes >= 250 ms); the same
 * seed gives the same completion delays, another seed others; reap_until
 * gives up at its deadline; fsync completes after the writes before it;
 * create refuses a conf without a model, or a model out of range.
 * The drive model: speed factors stay within [1 - s, 1 + s], cover it, and
 * are the same for the same (seed, cell, rank) and every job of a rank;
 * the fill slowdown follows its formula, writes (not reads) add to a
 * drive's fill across engine instances and a full drive is no faster than
 * its slowed bandwidth; stalls come at their rate for a fixed seed (within
 * a binomial bound).
 *
 * Exit 0 pass, 1 fail.
 */
#include "engine/emulated.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "clock.h"
#include "pattern.h"
#include "units.h"

#define NS_PER_MS    UINT64_C(1000000)
#define DEPTH	     8u
#define BLOCK	     (1u << 20)
#define LATENCY_NS   (2u * NS_PER_MS)
#define NLAT_IOS     40u
#define CAP_BYTES    (UINT64_C(256) << 20) /* bytes per second */
#define CAP_TOTAL    (UINT64_C(64) << 20)
#define CAP_MIN_NS   (250u * NS_PER_MS)
#define SPREAD_NS    (1u * NS_PER_MS)
#define NSEQ	     32u
#define SEED_A	     7u
#define SEED_B	     8u
#define DEADLINE_NS  (5u * NS_PER_MS)
/* An I/O this far away never completes while reap_until waits for its
 * deadline; only a hang waits out HANG_NS */
#define FAR_NS	     (UINT64_C(60) * SC_NS_PER_S)
#define HANG_NS	     (UINT64_C(30) * SC_NS_PER_S)
/* 1 MiB at 10 MiB/s: a write 100 ms on the link, an fsync after it none */
#define SLOW_BW	     (UINT64_C(10) << 20)
/* The drive model's draws */
#define SPREAD	     0.3
#define SPREAD_NEAR  0.02  /* the draws come this near both ends */
#define NCELLS	     1000u
#define NRANKS	     64u
#define MEAN_NEAR    0.005 /* mean factor within 1 +- this (> 7 sigma) */
#define NJOBS	     4u
#define FILL_BW	     (UINT64_C(1000) * 1000 * 1000)
#define FILL_CAP     (UINT64_C(1) << 30)
#define SLOWDOWN     4.0
#define FULL_TOTAL   (UINT64_C(16) << 20)
#define FULL_MIN_NS  (250u * NS_PER_MS) /* 16 MiB at 256 MiB/s / 4 */
#define STALL_P	     0.005
#define STALL_IOS    4000u
#define STALL_DEPTH  96u
#define STALL_NS     (UINT64_C(3600) * SC_NS_PER_S) /* never within the test */
#define STALL_MIN    5u  /* expected 20, sd 4.5: >3 sigma either side */
#define STALL_MAX    40u

struct rig {
	int fd;
	struct iovec buf;
	struct sc_io ios[DEPTH];
	struct sc_io *done[DEPTH];
	struct sc_emulate_state st;
	_Atomic uint64_t fill;
	struct sc_engine_conf conf;
	struct sc_engine *e;
};

static void *mem;

/* An engine on model m (job 0 of rank 0, cell 0) with its own fill. */
static void rig_init_model(struct rig *g, const struct sc_emulate *m, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->fd = -1;
	g->buf = (struct iovec){.iov_base = mem, .iov_len = BLOCK};
	sc_emulate_state_init(&g->st, m, seed, 0, 0, 0);
	g->st.fill = &g->fill;
	g->conf = (struct sc_engine_conf){.depth = DEPTH, .fds = &g->fd, .nfds = 1,
					  .bufs = &g->buf, .nbufs = 1, .emulate = &g->st};
	CHECK(sc_engine_emulated.create(&g->e, &g->conf) == 0, "create");
}

static void rig_init(struct rig *g, uint64_t latency, uint64_t spread, uint64_t bw,
		     uint64_t seed)
{
	struct sc_emulate m = {.latency_ns = latency, .spread_ns = spread, .bandwidth = bw};

	rig_init_model(g, &m, seed);
}

/* Queues and submits io number i (a write of len at 0). */
static void submit_one(struct rig *g, uint32_t slot, uint8_t op, uint32_t len)
{
	struct sc_io *io = &g->ios[slot];

	*io = (struct sc_io){.len = len, .op = op, .buf = 0, .file = 0};
	io->submit_ns = sc_now_ns();
	CHECK(sc_engine_emulated.queue(g->e, io) == 0, "queue");
	CHECK(sc_engine_emulated.submit(g->e) == 1, "submit");
}

/* Runs n I/Os of len at depth DEPTH; the time it took. *min_ns: the least
 * delay of one; delays[i] (when not NULL): each one's, in completion order. */
static uint64_t run(struct rig *g, uint32_t n, uint32_t len, uint64_t *min_ns,
		    uint64_t *delays)
{
	uint64_t t0 = sc_now_ns();
	uint32_t free_slots[DEPTH];
	uint32_t nfree = DEPTH;
	uint32_t sent = 0;
	uint32_t got = 0;

	for (uint32_t i = 0; i < DEPTH; i++)
		free_slots[i] = i;
	*min_ns = UINT64_MAX;
	while (got < n) {
		int r;

		while (sent < n && nfree)
			submit_one(g, free_slots[--nfree], SC_OP_WRITE, len), sent++;
		r = sc_engine_emulated.reap(g->e, g->done, DEPTH, 1);
		CHECK(r >= 1, "reap returned %d", r);
		if (r < 1)
			break;
		for (int k = 0; k < r; k++) {
			uint64_t d = sc_now_ns() - g->done[k]->submit_ns;

			CHECK(g->done[k]->res == (int32_t)len, "res %d", g->done[k]->res);
			if (d < *min_ns)
				*min_ns = d;
			if (delays)
				delays[got] = d;
			got++;
			free_slots[nfree++] = (uint32_t)(g->done[k] - g->ios);
		}
	}
	return sc_now_ns() - t0;
}

static void test_latency(void)
{
	struct rig g;
	uint64_t min_ns;

	rig_init(&g, LATENCY_NS, 0, 0, SEED_A);
	run(&g, NLAT_IOS, BLOCK, &min_ns, NULL);
	CHECK(min_ns >= LATENCY_NS, "an I/O completed after %llu ns, before its latency",
	      (unsigned long long)min_ns);
	sc_engine_emulated.destroy(g.e);
}

static void test_bandwidth(void)
{
	struct rig g;
	uint64_t min_ns;
	uint64_t took;

	rig_init(&g, 0, 0, CAP_BYTES, SEED_A);
	took = run(&g, (uint32_t)(CAP_TOTAL / BLOCK), BLOCK, &min_ns, NULL);
	CHECK(took >= CAP_MIN_NS, "64 MiB at 256 MiB/s took %llu ns",
	      (unsigned long long)took);
	sc_engine_emulated.destroy(g.e);
}

/* Same seed, same draws: the state's generator after the run. */
static void test_seed(void)
{
	struct rig ga;
	struct rig gb;
	struct rig gc;

	/* timing is blurred by load: compare the draws themselves */
	rig_init(&ga, 0, SPREAD_NS, 0, SEED_A);
	rig_init(&gb, 0, SPREAD_NS, 0, SEED_A);
	rig_init(&gc, 0, SPREAD_NS, 0, SEED_B);
	for (uint32_t i = 0; i < NSEQ; i++) {
		submit_one(&ga, 0, SC_OP_WRITE, BLOCK);
		submit_one(&gb, 0, SC_OP_WRITE, BLOCK);
		submit_one(&gc, 0, SC_OP_WRITE, BLOCK);
		sc_engine_emulated.reap(ga.e, ga.done, DEPTH, 1);
		sc_engine_emulated.reap(gb.e, gb.done, DEPTH, 1);
		sc_engine_emulated.reap(gc.e, gc.done, DEPTH, 1);
	}
	CHECK(memcmp(ga.st.rng.s, gb.st.rng.s, sizeof(ga.st.rng.s)) == 0,
	      "same seed, different draws");
	CHECK(memcmp(ga.st.rng.s, gc.st.rng.s, sizeof(ga.st.rng.s)) != 0,
	      "different seeds, same draws");
	sc_engine_emulated.destroy(ga.e);
	sc_engine_emulated.destroy(gb.e);
	sc_engine_emulated.destroy(gc.e);
}

/* The delay sequence itself, from the model: a second engine on the same
 * seed completes its I/Os in the same order of draws as the first. */
static void test_sequence(void)
{
	struct rig g[2];
	uint32_t order[2][DEPTH];

	for (int k = 0; k < 2; k++) {
		uint32_t got = 0;

		rig_init(&g[k], 0, SPREAD_NS, 0, SEED_A);
		for (uint32_t i = 0; i < DEPTH; i++) {
			g[k].ios[i] = (struct sc_io){.len = BLOCK, .op = SC_OP_WRITE};
			CHECK(sc_engine_emulated.queue(g[k].e, &g[k].ios[i]) == 0, "queue");
		}
		CHECK(sc_engine_emulated.submit(g[k].e) == (int)DEPTH, "submit");
		while (got < DEPTH) {
			int r = sc_engine_emulated.reap(g[k].e, g[k].done, 1, 1);

			if (r != 1) {
				FAIL("reap returned %d", r);
				break;
			}
			order[k][got++] = (uint32_t)(g[k].done[0] - g[k].ios);
		}
		sc_engine_emulated.destroy(g[k].e);
	}
	CHECK(memcmp(order[0], order[1], sizeof(order[0])) == 0,
	      "same seed, different completion order");
}

/* reap_until gives up at its deadline with an I/O far from done: no
 * earlier (it returns 0 only once the deadline has passed) and not as late
 * as the I/O. */
static void test_deadline(void)
{
	struct rig g;
	uint64_t t0, took;
	int r;

	rig_init(&g, FAR_NS, 0, 0, SEED_A);
	submit_one(&g, 0, SC_OP_WRITE, BLOCK);
	t0 = sc_now_ns();
	r = sc_engine_emulated.reap_until(g.e, g.done, DEPTH, t0 + DEADLINE_NS);
	took = sc_now_ns() - t0;
	CHECK(r == 0, "reap_until before the completion returned %d", r);
	CHECK(took >= DEADLINE_NS, "reap_until gave up %llu ns before its deadline",
	      (unsigned long long)(DEADLINE_NS - took));
	CHECK(took < HANG_NS, "reap_until slept %.1f s past its deadline of 5 ms", took / 1e9);
	CHECK(sc_engine_emulated.reap(g.e, g.done, DEPTH, 0) == 0, "reap without waiting");
	sc_engine_emulated.destroy(g.e);

	g.conf.emulate = NULL;
	CHECK(sc_engine_emulated.create(&g.e, &g.conf) == -EINVAL, "create without a model");
	CHECK(sc_engine_uses_files(SC_ENGINE_EMULATED) == false, "emulated uses no files");
	CHECK(sc_engine_get(SC_ENGINE_EMULATED) == &sc_engine_emulated, "sc_engine_get");
}

/* An fsync completes after the write before it, though its own service
 * time (no transfer) would end first. */
static void test_fsync_order(void)
{
	struct rig g;
	int r;

	rig_init(&g, LATENCY_NS, 0, SLOW_BW, SEED_A);
	submit_one(&g, 0, SC_OP_WRITE, BLOCK);
	submit_one(&g, 1, SC_OP_FSYNC, 0);
	r = sc_engine_emulated.reap(g.e, g.done, DEPTH, 2);
	CHECK(r == 2 && g.done[0] == &g.ios[0] && g.done[1] == &g.ios[1] && g.ios[1].res == 0,
	      "write then fsync: %d", r);
	sc_engine_emulated.destroy(g.e);
}

/* Speed factors: within [1 - s, 1 + s], near both ends, mean 1; the same
 * inputs give the same factor, another cell another; no spread, 1. */
static void test_speed(void)
{
	double lo = 2, hi = 0, sum = 0;

	for (uint32_t c = 0; c < NCELLS; c++) {
		for (uint32_t r = 0; r < NRANKS; r++) {
			double f = sc_emulate_speed(SEED_A, c, r, SPREAD);

			lo = f < lo ? f : lo;
			hi = f > hi ? f : hi;
			sum += f;
		}
	}
	CHECK(lo >= 1 - SPREAD && hi <= 1 + SPREAD, "factors %.4f..%.4f outside 0.7..1.3", lo,
	      hi);
	CHECK(lo < 1 - SPREAD + SPREAD_NEAR && hi > 1 + SPREAD - SPREAD_NEAR,
	      "factors %.4f..%.4f do not cover 0.7..1.3", lo, hi);
	sum /= (double)NCELLS * NRANKS;
	CHECK(sum > 1 - MEAN_NEAR && sum < 1 + MEAN_NEAR, "mean factor %.4f", sum);
	CHECK(sc_emulate_speed(SEED_A, 3, 5, SPREAD) == sc_emulate_speed(SEED_A, 3, 5, SPREAD),
	      "same inputs, another factor");
	CHECK(sc_emulate_speed(SEED_A, 3, 5, SPREAD) != sc_emulate_speed(SEED_A, 4, 5, SPREAD),
	      "another cell, the same factor");
	CHECK(sc_emulate_speed(SEED_A, 3, 5, SPREAD) != sc_emulate_speed(SEED_B, 3, 5, SPREAD),
	      "another seed, the same factor");
	CHECK(sc_emulate_speed(SEED_A, 3, 5, 0) == 1.0, "no spread, factor not 1");
}

/* Every job of a rank is one drive: one speed factor. */
static void test_speed_jobs(void)
{
	struct sc_emulate m = {.bandwidth = FILL_BW, .speed_spread = SPREAD};
	struct sc_emulate_state st[NJOBS];

	for (uint32_t j = 0; j < NJOBS; j++)
		sc_emulate_state_init(&st[j], &m, SEED_A, 2, 7, j);
	for (uint32_t j = 1; j < NJOBS; j++) {
		CHECK(st[j].speed == st[0].speed, "job %u speed %.4f, job 0 %.4f", j, st[j].speed,
		      st[0].speed);
		CHECK(memcmp(st[j].rng.s, st[0].rng.s, sizeof(st[0].rng.s)) != 0,
		      "job %u draws the same as job 0", j);
	}
	CHECK(st[0].speed == sc_emulate_speed(SEED_A, 2, 7, SPREAD), "state speed");
	CHECK(st[0].fill != NULL, "no fill counter");
}

/* bandwidth x speed x (1 - (1 - 1/k) min(fill / C, 1)). */
static void test_fill_formula(void)
{
	struct sc_emulate m = {.bandwidth = FILL_BW, .fill_slowdown = 2, .fill_capacity = FILL_CAP};
	struct sc_emulate none = {.bandwidth = FILL_BW};
	struct sc_emulate nocap = {.fill_slowdown = 2, .fill_capacity = FILL_CAP};

	CHECK(sc_emulate_bandwidth(&m, 1, 0) == FILL_BW, "empty drive");
	CHECK(sc_emulate_bandwidth(&m, 1, FILL_CAP / 2) == FILL_BW * 3 / 4, "half full: %llu",
	      (unsigned long long)sc_emulate_bandwidth(&m, 1, FILL_CAP / 2));
	CHECK(sc_emulate_bandwidth(&m, 1, FILL_CAP) == FILL_BW / 2, "full");
	CHECK(sc_emulate_bandwidth(&m, 1, 3 * FILL_CAP) == FILL_BW / 2, "beyond full");
	CHECK(sc_emulate_bandwidth(&m, 1.25, FILL_CAP) == FILL_BW * 5 / 8, "full, faster drive");
	CHECK(sc_emulate_bandwidth(&none, 1, 3 * FILL_CAP) == FILL_BW, "no slowdown");
	CHECK(sc_emulate_bandwidth(&nocap, 1, FILL_CAP) == 0, "no cap stays none");
}

/* Writes fill the drive across instances, reads do not; a full drive is
 * no faster than bandwidth / slowdown. */
static void test_fill_engine(void)
{
	struct sc_emulate m = {.bandwidth = CAP_BYTES, .fill_slowdown = SLOWDOWN,
			       .fill_capacity = FILL_CAP};
	struct rig g;
	uint64_t min_ns, took;

	rig_init_model(&g, &m, SEED_A);
	submit_one(&g, 0, SC_OP_WRITE, BLOCK);
	submit_one(&g, 1, SC_OP_READ, BLOCK);
	CHECK(sc_engine_emulated.reap(g.e, g.done, DEPTH, 2) == 2, "reap two");
	CHECK(atomic_load(&g.fill) == BLOCK, "fill %llu after a write and a read",
	      (unsigned long long)atomic_load(&g.fill));
	sc_engine_emulated.destroy(g.e);
	/* the next phase's instance: the same drive, now full */
	atomic_store(&g.fill, FILL_CAP);
	CHECK(sc_engine_emulated.create(&g.e, &g.conf) == 0, "create again");
	took = run(&g, (uint32_t)(FULL_TOTAL / BLOCK), BLOCK, &min_ns, NULL);
	CHECK(took >= FULL_MIN_NS, "16 MiB on a full drive (256 MiB/s / 4) took %llu ns",
	      (unsigned long long)took);
	CHECK(atomic_load(&g.fill) == FILL_CAP + FULL_TOTAL, "fill after");
	sc_engine_emulated.destroy(g.e);
}

/* Stalls at their rate: each write either completes at once or (stalled)
 * an hour later; a fixed seed's count lies within a binomial bound. */
static void test_stalls(void)
{
	struct sc_emulate m = {.stall_probability = STALL_P, .stall_ns = STALL_NS};
	struct sc_emulate_state st;
	_Atomic uint64_t fill = 0;
	static struct sc_io ios[STALL_DEPTH];
	struct sc_io *done[STALL_DEPTH];
	struct iovec buf = {.iov_base = mem, .iov_len = BLOCK};
	int fd = -1;
	struct sc_engine_conf conf = {.depth = STALL_DEPTH, .fds = &fd, .nfds = 1, .bufs = &buf,
				      .nbufs = 1, .emulate = &st};
	struct sc_engine *e;
	uint32_t stalled = 0;

	sc_emulate_state_init(&st, &m, SEED_A, 0, 0, 0);
	st.fill = &fill;
	CHECK(sc_engine_emulated.create(&e, &conf) == 0, "create");
	for (uint32_t i = 0; i < STALL_IOS && stalled < STALL_DEPTH; i++) {
		struct sc_io *io = &ios[stalled];

		*io = (struct sc_io){.len = BLOCK, .op = SC_OP_WRITE};
		CHECK(sc_engine_emulated.queue(e, io) == 0 && sc_engine_emulated.submit(e) == 1,
		      "queue and submit");
		/* a deadline passed: reaps what is done, without waiting */
		if (sc_engine_emulated.reap_until(e, done, STALL_DEPTH, 0) == 0)
			stalled++; /* it keeps its slot */
	}
	CHECK(stalled >= STALL_MIN && stalled <= STALL_MAX,
	      "%u of %u writes stalled at p = %.3f (expected about %.0f)", stalled, STALL_IOS,
	      STALL_P, STALL_P * STALL_IOS);
	sc_engine_emulated.destroy(e);
}

/* Models the engine cannot run. */
static void test_bad_models(void)
{
	const struct sc_emulate bad[] = {
	    {.speed_spread = 0.95},
	    {.speed_spread = -0.1},
	    {.speed_spread = NAN},
	    {.fill_slowdown = 0.5, .fill_capacity = FILL_CAP},
	    {.fill_slowdown = 2},
	    {.stall_probability = 1.5},
	};
	struct rig g;

	rig_init(&g, 0, 0, 0, SEED_A);
	sc_engine_emulated.destroy(g.e);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		g.st.model = bad[i];
		CHECK(sc_emulate_check(&bad[i]) == -EINVAL, "model %zu passed the check", i);
		CHECK(sc_engine_emulated.create(&g.e, &g.conf) == -EINVAL, "created model %zu", i);
	}
}

int main(void)
{
	mem = calloc(1, BLOCK);
	if (!mem)
		return 1;
	test_latency();
	test_bandwidth();
	test_seed();
	test_sequence();
	test_deadline();
	test_fsync_order();
	test_speed();
	test_speed_jobs();
	test_fill_formula();
	test_fill_engine();
	test_stalls();
	test_bad_models();
	free(mem);
	return check_exit("test_emulated");
}
