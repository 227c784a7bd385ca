/* test_model_training.c -- the accelerators a node's drives feed
 * (model/training_feed.c), every figure worked by hand:
 *  - demand: batch 4 x 64 KiB every 30 ms / 0.9 = 7,864,320 B/s;
 *  - a node of 4 storage-bound ranks, each 10 AU steps in 533.3 ms (a
 *    4800 KiB/s drive: 256 KiB in 53.3 ms) with no barrier wait: B = 4 x
 *    10 x 262144 B / 0.5333 s = 19,660,800 B/s, capacity measured, feeds
 *    floor(2.5) = 2;
 *  - a node whose ranks fed their accelerators in time (10 steps of 32
 *    ms, 1 ms of each at the barrier: AU 0.9375, without the barrier
 *    0.968): "at least" floor(2 x 0.9375 / 0.9) = 2, the 2 it ran;
 *  - a node held at AU 0.3 by the barrier (69 ms of each 100 ms step),
 *    its batches in time: what it read is all that is known, at least
 *    floor(2 x 0.3 / 0.9) = 0 (the barrier's waits gave its reader time);
 *  - a mixed node (rank 1 storage-bound at AU 0.3, ranks 0 and 2 held to
 *    0.3 by the barrier): at least floor(3 x 0.3 / 0.9) = 1;
 *  - at N nodes, every node alike and constant: the per-host answer is
 *    the node's at every N (no spread, no band);
 *  - bad input: no compute, no rank of the node. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "model/project.h"
#include "model/project_parts.h"

#define MS 1000000ull

static const struct sc_model_train_step step = {
    .batch = 4, .sample_bytes = 65536, .computation_ns = 30 * MS, .au = 0.9};

/* A rank of one accelerator: 10 AU steps of compute 30 ms each. */
static struct sc_model_train_rank rank(uint32_t node, uint64_t wall_ns, uint64_t barrier_ns)
{
	return (struct sc_model_train_rank){.node = node,
					    .accelerators = 1,
					    .au_steps = 10,
					    .au_compute_ns = 300 * MS,
					    .au_wall_ns = wall_ns,
					    .barrier_wait_ns = barrier_ns};
}

static void test_demand(void)
{
	struct sc_model_train_step none = step;

	CHECK(fabs(sc_model_train_demand(&step) - 7864320.0) < 1e-6, "%.3f B/s",
	      sc_model_train_demand(&step));
	none.computation_ns = 0;
	CHECK(sc_model_train_demand(&none) == 0, "no compute: no demand");
}

static void test_storage_bound(void)
{
	/* 256 KiB at 4800 KiB/s = 53.33 ms a step: 10 steps 533.33 ms */
	uint64_t wall = 1600 * MS / 3;
	struct sc_model_train_rank r[4] = {rank(0, wall, 0), rank(0, wall, 0), rank(0, wall, 0),
					   rank(0, wall, 0)};
	struct sc_model_train_node n;

	CHECK(sc_model_train_node(&step, r, 4, 0, &n) == 0, "node 0");
	CHECK(n.accels == 4 && n.accels_storage_bound == 4 && n.capacity_measured,
	      "%u accelerators, %u storage-bound", n.accels, n.accels_storage_bound);
	CHECK(fabs(n.read_bytes_per_s - 19660800.0) < 1, "B %.1f B/s", n.read_bytes_per_s);
	CHECK(n.supply_bytes_per_s == n.read_bytes_per_s, "capacity = B");
	CHECK(n.feeds == 2, "feeds %u, want floor(2.5) = 2", n.feeds);
	CHECK(fabs(n.au - 0.5625) < 1e-9 && fabs(n.au_own - 0.5625) < 1e-9, "AU %.4f / %.4f",
	      n.au, n.au_own);
	CHECK(n.accelerators == 4, "%g accelerators", n.accelerators);
}

static void test_compute_bound(void)
{
	struct sc_model_train_rank r[2] = {rank(1, 320 * MS, 10 * MS), rank(1, 320 * MS, 10 * MS)};
	struct sc_model_train_node n;

	CHECK(sc_model_train_node(&step, r, 2, 1, &n) == 0, "node 1");
	CHECK(n.node == 1 && !n.capacity_measured && n.accels_storage_bound == 0, "not bound");
	CHECK(n.feeds == 2, "at least %u, want at least the 2 it ran", n.feeds);
	CHECK(fabs(n.au - 0.9375) < 1e-9, "AU %.4f", n.au);
}

static void test_held_by_barrier(void)
{
	struct sc_model_train_rank r[2] = {rank(1, 1000 * MS, 690 * MS),
					   rank(1, 1000 * MS, 690 * MS)};
	struct sc_model_train_node n;

	CHECK(sc_model_train_node(&step, r, 2, 1, &n) == 0, "node 1");
	CHECK(!n.capacity_measured && n.accels_storage_bound == 0, "not bound");
	CHECK(n.feeds == 0, "at least %u, want at least 0: not the 2 it ran", n.feeds);
	CHECK(fabs(n.au - 0.3) < 1e-9, "AU %.4f", n.au);
}

static void test_mixed(void)
{
	/* rank 1 storage-bound at 100 ms a step (AU 0.3, no barrier wait);
	 * ranks 0 and 2 wait 69 ms of each 100 ms step at the barrier */
	struct sc_model_train_rank r[3] = {rank(0, 1000 * MS, 690 * MS), rank(0, 1000 * MS, 0),
					   rank(0, 1000 * MS, 690 * MS)};
	struct sc_model_train_node n;

	CHECK(sc_model_train_node(&step, r, 3, 0, &n) == 0, "node 0");
	CHECK(n.accels_storage_bound == 1 && !n.capacity_measured, "%u bound",
	      n.accels_storage_bound);
	CHECK(n.feeds == 1, "at least %u, want floor(3 x 0.3 / 0.9) = 1", n.feeds);
}

static void test_at_n(void)
{
	static struct sc_model_measured m;
	static struct sc_model_params p;
	static struct sc_model_row row;
	uint64_t bytes[3], dur[3];
	struct sc_model_drive d = {.nckpts = 3, .bytes = bytes, .dur_ns = dur};
	struct sc_model_train_node node = {.capacity_measured = true,
					   .supply_bytes_per_s = 19660800.0,
					   .feeds = 2};

	for (int i = 0; i < 3; i++) {
		bytes[i] = SC_MODEL_TRAIN_REF_BYTES;
		dur[i] = (uint64_t)ceil((double)SC_MODEL_TRAIN_REF_BYTES * 1e9 / 19660800.0);
	}
	sc_model_params_default(&p);
	p.trials = 50;
	m.has_training = true;
	m.train_step = step;
	m.ntrain_nodes = 1;
	m.train_nodes = &node;
	m.ntrain_drives = 1;
	m.train_drives = &d;
	for (uint32_t nodes = 1; nodes <= 4096; nodes *= 8) {
		memset(&row, 0, sizeof(row));
		row.nodes = nodes;
		CHECK(sc_model_training_at(&m, &p, &row) == 0, "at %u nodes", nodes);
		CHECK(row.train_exact && row.train_per_host == 2, "at %u nodes: %u per host",
		      nodes, row.train_per_host);
		CHECK(fabs(row.train_node_bytes_per_s / 19660800.0 - 1) < 1e-6,
		      "at %u nodes: capacity %.1f B/s", nodes, row.train_node_bytes_per_s);
	}
	/* no node measured: the least lower bound */
	node.capacity_measured = false;
	node.feeds = 3;
	m.ntrain_drives = 0;
	memset(&row, 0, sizeof(row));
	row.nodes = 64;
	CHECK(sc_model_training_at(&m, &p, &row) == 0 && !row.train_exact &&
		  row.train_per_host == 3,
	      "at least %u", row.train_per_host);
}

static void test_bad(void)
{
	struct sc_model_train_step none = step;
	struct sc_model_train_rank r = rank(0, 1000 * MS, 0);
	struct sc_model_train_node n;

	none.computation_ns = 0;
	CHECK(sc_model_train_node(&none, &r, 1, 0, &n) == -EINVAL, "no compute");
	CHECK(sc_model_train_node(&step, &r, 1, 5, &n) == -EINVAL, "no rank on node 5");
	r.au_wall_ns = 0;
	CHECK(sc_model_train_node(&step, &r, 1, 0, &n) == -EINVAL, "no AU steps");
}

int main(void)
{
	test_demand();
	test_storage_bound();
	test_compute_bound();
	test_held_by_barrier();
	test_mixed();
	test_at_n();
	test_bad();
	return check_exit("test_model_training");
}
