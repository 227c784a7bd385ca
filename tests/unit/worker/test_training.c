/* test_training.c -- the training workload on one rank: the dataset of its
 * block (DLIO's file sizes), exact step, sample and byte counts per epoch,
 * whole samples read in transfer-size reads, each epoch's order a
 * permutation of the block, and AU where the answer is known: compute-bound
 * (about 1) and a drive that takes a known time per batch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "layout.h"
#include "mlperf.h"
#include "plan.h"
#include "run.h"

#define MS  1000000ull
#define KIB 1024ull

static char tmpdir[256];

/* 12 files of 64 KiB (stdev 0: 256^2 B each), one sample a file, batch 2,
 * 2 epochs, rank 0 of `accs` accelerators, 2 readers, 32 KiB reads 2 deep. */
static void plan_training(struct sc_plan *plan, const char *target, enum sc_engine_kind engine,
			  uint32_t accs)
{
	struct sc_phase *ph = check_plan_dir(plan, target, "test", "train", 1);

	ph->workload = SC_WORKLOAD_TRAINING;
	ph->io.rw = SC_RW_READ;
	ph->io.iodepth = 2;
	ph->io.jobs = 2;
	ph->io.engine = engine;
	ph->io.seed = 5;
	ph->training = (struct sc_training_spec){.benchmark = SC_MLPERF_BENCHMARK_COUNT,
						 .accelerator = SC_MLPERF_ACCELERATOR_COUNT,
						 .files = 12,
						 .samples_per_file = 1,
						 .record_bytes = 64 * KIB,
						 .batch = 2,
						 .prefetch_size = 2,
						 .epochs = 2,
						 .au = 0.9,
						 .transfer_bytes = 32 * KIB,
						 .accelerators = accs};
}

/* The drive-bound case: accs accelerators, per_rank of them on this rank,
 * 12 steps an epoch each; the emulated drive takes 15 ms a read, one
 * 64 KiB read a sample, one reader an accelerator a batch ahead, 10 ms of
 * compute a step: AU = 10 / 30. */
static void plan_drive_bound(struct sc_plan *plan, uint32_t accs, uint32_t per_rank)
{
	struct sc_phase *ph;

	plan_training(plan, tmpdir, SC_ENGINE_EMULATED, accs);
	ph = &plan->phases[0];
	ph->training.accelerators_per_rank = per_rank;
	ph->io.jobs = 1;
	ph->io.iodepth = 1;
	ph->training.transfer_bytes = 64 * KIB;
	ph->training.prefetch_size = 1;
	ph->training.computation_ns = 10 * MS;
	ph->training.files = 24 * accs;
	ph->io.emulate.latency_ns = 15 * MS;
}

/* Runs phase 0 at place as one rank whose main thread (this one) answers
 * the step barrier's rounds as a cluster of this rank alone would: the
 * local side's going; no round after a "not going". */
static int run_phase(const struct sc_plan *plan, const struct sc_place *place,
		     struct sc_rank_result *res, char *err, size_t errlen)
{
	struct sc_run *run = NULL;
	uint64_t round = 0, until = sc_now_ns() + 120 * SC_NS_PER_S;
	bool ended = false;
	int rc, going;

	memset(res, 0, sizeof(*res));
	rc = sc_run_create(&run, plan, 0, place, NULL, err, errlen);
	if (rc)
		return rc;
	CHECK(sc_run_gate_on(run), "training: the step barrier is on");
	sc_run_start(run, sc_now_ns() + MS);
	while (!sc_run_done(run) && sc_now_ns() < until) {
		if (ended || !sc_run_gate_want(run, round, &going)) {
			sc_run_gate_nap(run, round, MS);
			continue;
		}
		ended = !going;
		sc_run_gate_answer(run, round++, going);
	}
	CHECK(sc_run_done(run), "the run hangs");
	if (!sc_run_done(run))
		sc_run_stop(run);
	rc = sc_run_finish(run, res);
	sc_run_destroy(run);
	return rc;
}

static int64_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Exact counts: steps = floor(12 x 1 / 2 / accs) a epoch, every sample of
 * a step read whole in 32 KiB reads; the dataset holds the block's files. */
static void test_counts(enum sc_engine_kind engine, bool direct, uint32_t accs, uint32_t rank)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {
	    .rank = rank, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	char dir[512], path[700], err[512];
	uint64_t steps = 12 / 2 / accs, first, count, files = 0;
	int rc;

	plan_training(&plan, tmpdir, engine, accs);
	plan.phases[0].io.direct = direct;
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc == 0, "run: %d %s", rc, err);
	CHECK(res.steps == 2 * steps, "%llu steps, want %llu", (unsigned long long)res.steps,
	      (unsigned long long)(2 * steps));
	CHECK(res.samples == 2 * steps * 2, "%llu samples", (unsigned long long)res.samples);
	CHECK(res.bytes[SC_DIR_READ] == 2 * steps * 2 * 64 * KIB, "%llu B read",
	      (unsigned long long)res.bytes[SC_DIR_READ]);
	CHECK(res.ios[SC_DIR_READ] == 2 * steps * 2 * 2, "%llu reads: two 32 KiB reads a sample",
	      (unsigned long long)res.ios[SC_DIR_READ]);
	CHECK(res.au_steps == 2 * (steps - 1), "AU over %llu steps: each epoch's first out",
	      (unsigned long long)res.au_steps);
	CHECK(res.batch_wait.count == 2 * steps, "a batch wait a step");
	CHECK(res.errors == 0 && !res.error[0], "no error: %s", res.error);
	/* the files of this rank's block, and no other */
	sc_mlperf_block(12, 1, accs, rank, &first, &count);
	sc_layout_training_dir(&plan, 0, 0, dir, sizeof(dir));
	for (uint64_t f = 0; f < 12; f++) {
		snprintf(path, sizeof(path), "%s/file_%llu.dat", dir, (unsigned long long)f);
		if (size_of(path) >= 0) {
			files++;
			CHECK(f >= first && f < first + count, "file %llu is not rank %u's",
			      (unsigned long long)f, rank);
			CHECK(size_of(path) == 65536, "file %llu: %lld B", (unsigned long long)f,
			      (long long)size_of(path));
		}
	}
	CHECK(files == count, "%llu files, want the block's %llu", (unsigned long long)files,
	      (unsigned long long)count);
	check_rmtree(dir);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* Each file a different size (DLIO's distribution), spf 3: every sample's
 * share read whole, bytes = the sum of the shares of the samples read. */
static void test_sizes(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	struct sc_training_spec *t;
	char dir[512], err[512];
	uint64_t want = 0;
	int rc;

	plan_training(&plan, tmpdir, SC_ENGINE_URING, 1);
	t = &plan.phases[0].training;
	t->samples_per_file = 3;
	t->record_bytes = 40000;
	t->record_stdev_bytes = 20000;
	t->files = 4;
	t->batch = 4; /* 12 samples: 3 steps an epoch */
	t->epochs = 1;
	t->transfer_bytes = 16 * KIB;
	for (uint64_t f = 0; f < 4; f++)
		want += sc_mlperf_file_bytes(40000, 20000, 3, 5, f) / 3 * 3;
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc == 0, "run: %d %s", rc, err);
	CHECK(res.steps == 3 && res.samples == 12, "%llu steps, %llu samples",
	      (unsigned long long)res.steps, (unsigned long long)res.samples);
	CHECK(res.bytes[SC_DIR_READ] == want, "%llu B read, want every sample's share: %llu",
	      (unsigned long long)res.bytes[SC_DIR_READ], (unsigned long long)want);
	sc_layout_training_dir(&plan, 0, 0, dir, sizeof(dir));
	check_rmtree(dir);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* AU where the answer is known.  Compute-bound: reads from the page cache
 * take microseconds, compute 100 ms a step (long beside a busy machine's
 * scheduling delays of the readers): AU near 1.  Drive-bound: the
 * emulated drive takes 15 ms a read, one read a sample, one reader reads a
 * batch of 2 in 30 ms; with 10 ms of compute a step the step takes 30 ms
 * (the reader runs a batch ahead): AU = 10 / 30. */
static void test_au(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	char dir[512], err[512];
	double au;
	int rc;

	plan_training(&plan, tmpdir, SC_ENGINE_PSYNC, 1);
	plan.phases[0].training.computation_ns = 100 * MS;
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc == 0, "run: %d %s", rc, err);
	au = (double)res.au_compute_ns / (double)res.au_wall_ns;
	CHECK(au > 0.85 && au <= 1.0, "compute-bound AU %.3f", au);
	CHECK(res.au_compute_ns >= res.au_steps * 100 * MS, "compute %llu ns over %llu steps",
	      (unsigned long long)res.au_compute_ns, (unsigned long long)res.au_steps);
	sc_layout_training_dir(&plan, 0, 0, dir, sizeof(dir));
	check_rmtree(dir);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);

	plan_drive_bound(&plan, 1, 1); /* 12 steps an epoch */
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc == 0, "run: %d %s", rc, err);
	au = (double)res.au_compute_ns / (double)res.au_wall_ns;
	/* late wake-ups only lengthen the steps: a busy machine lowers AU */
	CHECK(au > 0.20 && au < 0.36, "drive-bound AU %.3f, want about 10 / 30 = 0.333", au);
	CHECK(res.steps == 24, "%llu steps", (unsigned long long)res.steps);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* accelerators_per_rank 3, rank 1 of 2: the rank runs accelerators 3, 4
 * and 5 of 6 (jobs 2 readers each), each its own block and row, in
 * lockstep at the rank's barrier; drive-bound, each one's AU is the one
 * accelerator's closed form (its readers are its own). */
static void test_per_rank(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 1, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	struct sc_phase *ph;
	char dir[512], path[700], err[512];
	uint64_t first, count, files = 0;
	int rc;

	plan_training(&plan, tmpdir, SC_ENGINE_PSYNC, 6);
	ph = &plan.phases[0];
	ph->training.accelerators_per_rank = 3;
	ph->training.files = 24; /* 24 / 2 / 6: 2 steps an epoch */
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc == 0, "run: %d %s", rc, err);
	CHECK(res.naccels == 3, "%u accelerator rows", res.naccels);
	for (uint32_t a = 0; a < res.naccels && a < 3; a++) {
		const struct sc_accel_row *x = &res.accels[a];

		CHECK(x->index == 3 + a, "row %u: accelerator %u, want %u", a, x->index, 3 + a);
		CHECK(x->steps == 4 && x->samples == 8 && x->au_steps == 2,
		      "accelerator %u: %llu steps, %llu samples, %llu AU steps", x->index,
		      (unsigned long long)x->steps, (unsigned long long)x->samples,
		      (unsigned long long)x->au_steps);
	}
	CHECK(res.steps == 12 && res.samples == 24, "the rank: %llu steps, %llu samples",
	      (unsigned long long)res.steps, (unsigned long long)res.samples);
	sc_mlperf_block(24, 1, 6, 3, &first, &count);
	sc_layout_training_dir(&plan, 0, 0, dir, sizeof(dir));
	for (uint64_t f = 0; f < 24; f++) {
		snprintf(path, sizeof(path), "%s/file_%llu.dat", dir, (unsigned long long)f);
		if (size_of(path) < 0)
			continue;
		files++;
		CHECK(f >= first && f < first + 3 * count, "file %llu is not of accelerators 3-5",
		      (unsigned long long)f);
	}
	CHECK(files == 3 * count, "%llu files, want the 3 blocks' %llu",
	      (unsigned long long)files, (unsigned long long)(3 * count));
	check_rmtree(dir);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);

	plan_drive_bound(&plan, 2, 2); /* 12 steps an epoch each */
	place.rank = 0;
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc == 0, "run: %d %s", rc, err);
	for (uint32_t a = 0; a < res.naccels; a++) {
		double au = (double)res.accels[a].au_compute_ns / (double)res.accels[a].au_wall_ns;

		CHECK(au > 0.20 && au < 0.36, "accelerator %u: drive-bound AU %.3f, want about "
		      "10 / 30 = 0.333", a, au);
		CHECK(res.accels[a].steps == 24, "%llu steps",
		      (unsigned long long)res.accels[a].steps);
	}
	CHECK(res.naccels == 2, "%u rows", res.naccels);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* An accelerator whose epoch is more samples than its order can hold in
 * memory is refused at setup, saying what to change. */
static void test_too_many_samples(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	char err[512] = "";
	int rc;

	plan_training(&plan, tmpdir, SC_ENGINE_NULL, 1);
	plan.phases[0].training.files = 1u << 20;
	plan.phases[0].training.samples_per_file = 1u << 9; /* 2^29 samples */
	rc = run_phase(&plan, &place, &res, err, sizeof(err));
	CHECK(rc != 0 && strstr(err, "more than the 268435456") && strstr(err, "more accelerators"),
	      "refused: %d %s", rc, err);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

int main(void)
{
	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_training");
	test_counts(SC_ENGINE_PSYNC, false, 1, 0);
	test_counts(SC_ENGINE_URING, true, 1, 0);
	test_counts(SC_ENGINE_URING, false, 3, 1);
	test_counts(SC_ENGINE_URING, true, 3, 2);
	test_sizes();
	test_au();
	test_per_rank();
	test_too_many_samples();
	check_rmtree(tmpdir);
	return check_exit("test_training");
}
