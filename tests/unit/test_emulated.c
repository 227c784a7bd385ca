/* test_emulated.c -- the emulated-drive engine (sc_engine_emulated).
 *
 * A fixed latency with no spread: no I/O completes before it; a bandwidth
 * cap bounds throughput (64 MiB at 256 MiB/s takes >= 250 ms); the same
 * seed gives the same completion delays, another seed others; reap_until
 * gives up at its deadline; fsync completes after the writes before it;
 * create refuses a conf without a model.
 *
 * Exit 0 pass, 1 fail.
 */
#include "engine/engine.h"

#include <errno.h>
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
#define LONG_NS	     (200u * NS_PER_MS)

struct rig {
	int fd;
	struct iovec buf;
	struct sc_io ios[DEPTH];
	struct sc_io *done[DEPTH];
	struct sc_emulate_state st;
	struct sc_engine_conf conf;
	struct sc_engine *e;
};

static void *mem;

static void rig_init(struct rig *g, uint64_t latency, uint64_t spread, uint64_t bw,
		     uint64_t seed)
{
	struct sc_io_spec io = {.seed = seed};

	memset(g, 0, sizeof(*g));
	g->fd = -1;
	g->buf = (struct iovec){.iov_base = mem, .iov_len = BLOCK};
	g->st.model = (struct sc_emulate){.latency_ns = latency, .spread_ns = spread,
					  .bandwidth = bw};
	sc_pattern_init(&g->st.rng, &io, 0, 0);
	g->conf = (struct sc_engine_conf){.depth = DEPTH, .fds = &g->fd, .nfds = 1,
					  .bufs = &g->buf, .nbufs = 1, .emulate = &g->st};
	CHECK(sc_engine_emulated.create(&g->e, &g->conf) == 0, "create");
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

static void test_deadline_and_fsync(void)
{
	struct rig g;
	uint64_t t0;
	int r;

	rig_init(&g, LONG_NS, 0, 0, SEED_A);
	submit_one(&g, 0, SC_OP_WRITE, BLOCK);
	t0 = sc_now_ns();
	r = sc_engine_emulated.reap_until(g.e, g.done, DEPTH, t0 + DEADLINE_NS);
	CHECK(r == 0, "reap_until before the completion returned %d", r);
	CHECK(sc_now_ns() - t0 < LONG_NS, "reap_until slept past its deadline");
	CHECK(sc_engine_emulated.reap(g.e, g.done, DEPTH, 0) == 0, "reap without waiting");
	submit_one(&g, 1, SC_OP_FSYNC, 0);
	r = sc_engine_emulated.reap(g.e, g.done, DEPTH, 2);
	CHECK(r == 2 && g.done[0] == &g.ios[0] && g.done[1] == &g.ios[1] &&
		  g.ios[1].res == 0,
	      "write then fsync: %d", r);
	sc_engine_emulated.destroy(g.e);

	g.conf.emulate = NULL;
	CHECK(sc_engine_emulated.create(&g.e, &g.conf) == -EINVAL, "create without a model");
	CHECK(sc_engine_uses_files(SC_ENGINE_EMULATED) == false, "emulated uses no files");
	CHECK(sc_engine_get(SC_ENGINE_EMULATED) == &sc_engine_emulated, "sc_engine_get");
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
	test_deadline_and_fsync();
	free(mem);
	return check_exit("test_emulated");
}
