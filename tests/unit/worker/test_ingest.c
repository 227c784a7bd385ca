/* test_ingest.c -- the ingest workload: a dataset made once and reused,
 * exact sample and byte counts in epochs mode, compute-bound accelerator
 * utilisation, batch waits, the prefetch bound, time mode, node ranks sharing
 * one dataset, the step barrier's rounds, and errors that name the path. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "layout.h"
#include "plan.h"
#include "run.h"
#include "rundir.h"

#define MS  1000000ull
#define KIB 1024ull
#define MIB (1024ull * 1024ull)

static char tmpdir[256];

/* One ingest phase on a directory target: 4 files x 1 MiB, 64 KiB samples,
 * batch 4, one epoch, no compute, 2 readers at depth 4, prefetch 2. */
static void plan_ingest(struct sc_plan *plan, const char *target, enum sc_engine_kind engine)
{
	struct sc_phase *ph = check_plan_dir(plan, target, "test", "train", 1);

	ph->workload = SC_WORKLOAD_INGEST;
	ph->io.rw = SC_RW_RANDREAD;
	ph->io.bs_bytes = 64 * KIB;
	ph->io.iodepth = 4;
	ph->io.jobs = 2;
	ph->io.direct = true;
	ph->io.engine = engine;
	ph->io.seed = 11;
	ph->ingest = (struct sc_ingest_spec){.files = 4,
					     .file_bytes = MIB,
					     .sample_bytes = 64 * KIB,
					     .batch = 4,
					     .epochs = 1,
					     .prefetch = 2};
}

static const struct sc_place one_rank = {
    .rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};

/* The total of the batch waits of the last run_ingest. */
static uint64_t batch_wait_ns;

/* Runs phase 0 at place; fills res and the batch-wait count of the rank's
 * histogram (their total in batch_wait_ns).  Returns sc_run_finish's code
 * (or sc_run_create's, err set). */
static int run_ingest(const struct sc_plan *plan, const struct sc_place *place,
		      struct sc_rank_result *res, uint64_t *batch_waits, char *err, size_t errlen)
{
	struct sc_run *run = NULL;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = sc_run_create(&run, plan, 0, place, NULL, err, errlen);
	if (rc)
		return rc;
	sc_run_start(run, sc_now_ns() + MS);
	while (!sc_run_done(run))
		usleep(1000);
	rc = sc_run_finish(run, res);
	if (batch_waits)
		*batch_waits = sc_run_hist(run, SC_HK_BATCH_WAIT)->count;
	batch_wait_ns = sc_run_hist(run, SC_HK_BATCH_WAIT)->sum_ns;
	CHECK(sc_run_hist(run, SC_HK_LAT_READ)->count == res->ios[SC_DIR_READ],
	      "read latency histogram holds every read");
	sc_run_destroy(run);
	return rc;
}

static uint64_t seconds_sum(const struct sc_rank_result *r)
{
	uint64_t s = 0;

	for (uint32_t k = 0; k < r->nseconds; k++)
		s += r->seconds[k].bytes[SC_DIR_READ];
	return s;
}

/* Checks what an epochs run of steps steps must have read, exactly. */
static void check_exact(const struct sc_plan *plan, const struct sc_rank_result *res,
			uint64_t steps, uint64_t batch_waits, const char *what)
{
	const struct sc_ingest_spec *in = &plan->phases[0].ingest;
	uint64_t samples = steps * in->batch;

	CHECK(res->steps == steps, "%s: %llu steps, want %llu", what,
	      (unsigned long long)res->steps, (unsigned long long)steps);
	CHECK(res->samples == samples, "%s: %llu samples, want %llu", what,
	      (unsigned long long)res->samples, (unsigned long long)samples);
	CHECK(res->ios[SC_DIR_READ] == samples, "%s: %llu reads, want %llu", what,
	      (unsigned long long)res->ios[SC_DIR_READ], (unsigned long long)samples);
	CHECK(res->bytes[SC_DIR_READ] == samples * in->sample_bytes, "%s: %llu B read, want %llu",
	      what, (unsigned long long)res->bytes[SC_DIR_READ],
	      (unsigned long long)(samples * in->sample_bytes));
	CHECK(res->bytes[SC_DIR_WRITE] == 0, "%s: nothing written in the phase", what);
	CHECK(res->planned_bytes == samples * in->sample_bytes, "%s: planned %llu B", what,
	      (unsigned long long)res->planned_bytes);
	CHECK(seconds_sum(res) == res->bytes[SC_DIR_READ], "%s: per-second series sums to bytes",
	      what);
	CHECK(batch_waits == steps && res->batch_wait.count == steps,
	      "%s: %llu batch waits (summary %llu), want one per step (%llu)", what,
	      (unsigned long long)batch_waits, (unsigned long long)res->batch_wait.count,
	      (unsigned long long)steps);
	CHECK(res->errors == 0 && res->error[0] == '\0', "%s: no error: %s", what, res->error);
}

static int64_t mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static int64_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Created once with the right sizes, reused untouched, a damaged file
 * rewritten; every run reads exactly steps x batch samples. */
static void test_dataset(enum sc_engine_kind engine, const char *target)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char dir[512], path[600], err[512];
	int64_t mt[4];
	uint64_t steps, waits = 0;
	int rc;

	check_context = sc_engine_name(engine);
	plan_ingest(&plan, target, engine);
	steps = sc_layout_ingest_steps(&plan, 0, &one_rank);
	CHECK(steps == 16, "64 samples per node in batches of 4: 16 steps, got %llu",
	      (unsigned long long)steps);
	CHECK(sc_layout_ingest_dir(&plan, 0, 0, dir, sizeof(dir)) == 0, "dataset dir");
	snprintf(path, sizeof(path), "%s/ssdcluster-datasets/train-4x1048576B", target);
	CHECK(strcmp(dir, path) == 0, "dataset dir %s, want %s", dir, path);

	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	CHECK(rc == 0, "first run: rc %d (%s%s)", rc, err, res.error);
	check_exact(&plan, &res, steps, waits, "first run");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/file_%d.dat", dir, i);
		CHECK(size_of(path) == (int64_t)MIB, "%s is 1 MiB: %lld", path,
		      (long long)size_of(path));
		mt[i] = mtime_ns(path);
	}
	snprintf(path, sizeof(path), "%s/file_4.dat", dir);
	CHECK(size_of(path) < 0, "no fifth file");
	sc_rank_result_exit(&res);

	/* a second run reuses the dataset as it is: the files keep an mtime
	 * set in the past (a rewrite would set it to now, however soon) */
	for (int i = 0; i < 4; i++) {
		const struct timespec old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};

		snprintf(path, sizeof(path), "%s/file_%d.dat", dir, i);
		CHECK(utimensat(AT_FDCWD, path, old, 0) == 0, "set the mtime of %s", path);
		mt[i] = mtime_ns(path);
	}
	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	CHECK(rc == 0, "second run: rc %d (%s%s)", rc, err, res.error);
	check_exact(&plan, &res, steps, waits, "second run");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/file_%d.dat", dir, i);
		CHECK(mtime_ns(path) == mt[i], "%s reused, not rewritten", path);
	}
	sc_rank_result_exit(&res);

	/* a file of the wrong size is written again; the others stay */
	snprintf(path, sizeof(path), "%s/file_1.dat", dir);
	CHECK(truncate(path, 1000) == 0, "damage file_1");
	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	CHECK(rc == 0, "run after damage: rc %d (%s%s)", rc, err, res.error);
	CHECK(size_of(path) == (int64_t)MIB, "damaged %s rewritten to 1 MiB: %lld", path,
	      (long long)size_of(path));
	snprintf(path, sizeof(path), "%s/file_0.dat", dir);
	CHECK(mtime_ns(path) == mt[0], "intact file_0 left alone");
	check_exact(&plan, &res, steps, waits, "run after damage");
	sc_rank_result_exit(&res);

	/* the dataset is not in the run directory: it outlives its removal */
	struct sc_rundir rd;

	sc_rundir_init(&rd);
	CHECK(sc_rundir_create(&rd, &plan, &one_rank, "key", err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_rundir_remove(&rd) == 0, "cleanup");
	sc_rundir_exit(&rd);
	CHECK(size_of(path) == (int64_t)MIB, "dataset kept after cleanup");
	sc_plan_exit(&plan);
	check_context = NULL;
}

/* 20 ms of compute per step: compute is exactly steps x 20 ms, and the
 * rank's wall time, from which AU = compute / wall, holds every compute and
 * every batch wait (the consumer does one after the other).  How much the
 * reads hide behind the compute is the machine's: test_prefetch_bound
 * checks that readers run ahead while the consumer computes. */
static void test_compute_bound(enum sc_engine_kind engine, const char *target)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char err[512];
	uint64_t steps, waits = 0;
	double au;
	int rc;

	check_context = sc_engine_name(engine);
	plan_ingest(&plan, target, engine);
	plan.phases[0].ingest.compute_per_batch_ns = 20 * MS;
	steps = sc_layout_ingest_steps(&plan, 0, &one_rank);
	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	CHECK(rc == 0, "compute run: rc %d (%s%s)", rc, err, res.error);
	check_exact(&plan, &res, steps, waits, "compute run");
	CHECK(res.compute_ns == steps * 20 * MS, "compute %llu ns, want %llu x 20 ms",
	      (unsigned long long)res.compute_ns, (unsigned long long)steps);
	au = (double)res.compute_ns / (double)(res.end_ns - res.start_ns);
	CHECK(au > 0 && au <= 1.0, "AU %.3f (compute %llu ns, wall %lld ns)", au,
	      (unsigned long long)res.compute_ns, (long long)(res.end_ns - res.start_ns));
	CHECK(res.end_ns - res.start_ns >= (int64_t)(res.compute_ns + batch_wait_ns),
	      "wall %lld ns holds compute %llu ns and batch waits %llu ns",
	      (long long)(res.end_ns - res.start_ns), (unsigned long long)res.compute_ns,
	      (unsigned long long)batch_wait_ns);
	CHECK(res.busy_end_ns > 0 && res.busy_end_ns <= res.end_ns &&
		  res.busy_end_ns >= (int64_t)(steps * 20 * MS),
	      "last compute ends at %lld ns, within the rank's end %lld ns",
	      (long long)res.busy_end_ns, (long long)res.end_ns);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
	check_context = NULL;
}

/* Step 0's compute: the readers reach their bound during it unless the
 * machine holds them most of it (then the try gives no verdict). */
#define PREFETCH_COMPUTE_NS (1000 * MS)
/* The longest wait for the readers to reach the bound, within step 0. */
#define PREFETCH_WAIT_NS (900 * MS)
/* How long past the bound a reader that ignored it would have to show. */
#define PREFETCH_SETTLE_US 20000
/* Tries of test_prefetch_bound before a missing verdict is a failure. */
#define PREFETCH_TRIES 3

/* What one try of test_prefetch_bound saw. */
enum prefetch_seen {
	PREFETCH_SAMPLED, /* in step 0's compute, the readers at the bound or past it */
	PREFETCH_SHORT,	  /* in step 0, the readers short of the bound */
	PREFETCH_LATE,	  /* the sample missed step 0 (this thread was held) */
};

/* One try of test_prefetch_bound: the bytes read during step 0's compute
 * once the readers have settled (*got) and whether that sample tells. */
static enum prefetch_seen prefetch_try(uint32_t prefetch, uint64_t want, uint64_t *got)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_run *run = NULL;
	char err[512];
	uint64_t start, t_stop;
	bool in_step0;

	*got = 0;
	plan_ingest(&plan, tmpdir, SC_ENGINE_NULL);
	plan.phases[0].ingest.prefetch = prefetch;
	plan.phases[0].ingest.compute_per_batch_ns = PREFETCH_COMPUTE_NS;
	if (sc_run_create(&run, &plan, 0, &one_rank, NULL, err, sizeof(err)) != 0) {
		FAIL("prefetch %u: %s", prefetch, err);
		sc_plan_exit(&plan);
		return PREFETCH_SAMPLED;
	}
	start = sc_now_ns() + MS;
	sc_run_start(run, start);
	while (sc_run_bytes(run) < want && sc_now_ns() < start + PREFETCH_WAIT_NS)
		usleep(1000);
	usleep(PREFETCH_SETTLE_US);
	*got = sc_run_bytes(run);
	sc_run_stop(run);
	t_stop = sc_now_ns() - start;
	while (!sc_run_done(run))
		usleep(1000);
	CHECK(sc_run_finish(run, &res) == 0, "prefetch %u: %s", prefetch, res.error);
	/* the stop lets the step under way finish, no more: step k starts
	 * k computes after the start at the earliest */
	CHECK(res.steps <= t_stop / PREFETCH_COMPUTE_NS + 1,
	      "prefetch %u: %llu steps, the stop came at %.0f ms", prefetch,
	      (unsigned long long)res.steps, t_stop / 1e6);
	CHECK(res.compute_ns == res.steps * PREFETCH_COMPUTE_NS,
	      "prefetch %u: compute %llu ns for %llu whole steps", prefetch,
	      (unsigned long long)res.compute_ns, (unsigned long long)res.steps);
	in_step0 = res.steps == 1;
	sc_rank_result_exit(&res);
	sc_run_destroy(run);
	sc_plan_exit(&plan);
	if (!in_step0)
		return PREFETCH_LATE;
	return *got >= want ? PREFETCH_SAMPLED : PREFETCH_SHORT;
}

/* Readers stay at most `prefetch` batches ahead of the consumer: during
 * step 0's long compute exactly (1 + prefetch) batches have been read.  A
 * try whose sample missed step 0 (a held thread), or came before the
 * readers reached the bound (held readers), is tried again; readers short
 * of the bound in every try fail, as a bound too tight would. */
static void test_prefetch_bound(void)
{
	for (uint32_t prefetch = 0; prefetch <= 2; prefetch++) {
		uint64_t got = 0, want = (1 + prefetch) * 4 * 64 * KIB;
		enum prefetch_seen seen = PREFETCH_LATE;
		bool short_seen = false;

		for (int k = 0; k < PREFETCH_TRIES && seen != PREFETCH_SAMPLED; k++) {
			seen = prefetch_try(prefetch, want, &got);
			short_seen |= seen == PREFETCH_SHORT;
			if (seen != PREFETCH_SAMPLED)
				printf("test_prefetch_bound: prefetch %u try %d: %s (%llu B)\n",
				       prefetch, k + 1,
				       seen == PREFETCH_SHORT ? "readers short of the bound"
							      : "sample missed step 0",
				       (unsigned long long)got);
		}
		if (seen == PREFETCH_SAMPLED)
			CHECK(got == want,
			      "prefetch %u: %llu B read during step 0's compute, want %llu", prefetch,
			      (unsigned long long)got, (unsigned long long)want);
		else if (short_seen)
			FAIL("prefetch %u: readers short of %llu B during step 0 in %d tries "
			     "(last %llu B)",
			     prefetch, (unsigned long long)want, PREFETCH_TRIES,
			     (unsigned long long)got);
		else
			SKIP_CHECK("test_prefetch_bound: prefetch %u: no verdict, every sample missed "
				   "step 0 in %d tries",
				   prefetch, PREFETCH_TRIES);
	}
}

/* Two ranks of a node share one dataset: each writes its half, reads
 * whole batches of its own share of the samples, exactly. */
static void test_two_ranks(void)
{
	struct sc_plan plan;
	struct sc_place pl[2];
	struct sc_run *run[2] = {NULL, NULL};
	struct sc_rank_result res[2];
	char err[512], dir[512], path[600];
	uint64_t steps[2];

	plan_ingest(&plan, tmpdir, SC_ENGINE_URING);
	plan.phases[0].ingest.files = 6;
	plan.phases[0].ingest.epochs = 2;
	for (uint32_t r = 0; r < 2; r++) {
		pl[r] = (struct sc_place){
		    .rank = r, .target = 0, .slot = r, .nslots = 2, .local_nranks = 2};
		steps[r] = sc_layout_ingest_steps(&plan, 0, &pl[r]);
	}
	/* 96 samples per node, 2 ranks x batch 4: 12 steps per epoch each */
	CHECK(steps[0] == 24 && steps[1] == 24, "steps %llu %llu, want 24 each",
	      (unsigned long long)steps[0], (unsigned long long)steps[1]);
	/* both set up (slot 0 opens slot 1's files before they exist), then start */
	for (int r = 0; r < 2; r++)
		if (sc_run_create(&run[r], &plan, 0, &pl[r], NULL, err, sizeof(err)) != 0)
			FAIL("rank %d setup: %s", r, err);
	if (run[0] && run[1]) {
		uint64_t start = sc_now_ns() + MS;

		for (int r = 0; r < 2; r++)
			sc_run_start(run[r], start);
		for (int r = 0; r < 2; r++) {
			while (!sc_run_done(run[r]))
				usleep(1000);
			CHECK(sc_run_finish(run[r], &res[r]) == 0, "rank %d: %s", r, res[r].error);
			check_exact(&plan, &res[r], steps[r],
				    sc_run_hist(run[r], SC_HK_BATCH_WAIT)->count, "two ranks");
			sc_rank_result_exit(&res[r]);
		}
	}
	for (int r = 0; r < 2; r++)
		sc_run_destroy(run[r]);
	sc_layout_ingest_dir(&plan, 0, 0, dir, sizeof(dir));
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "%s/file_%d.dat", dir, i);
		CHECK(size_of(path) == (int64_t)MIB, "%s is 1 MiB", path);
	}
	sc_plan_exit(&plan);
}

/* Samples that are not multiples of the block size, with O_DIRECT: every
 * sample is read whole and counted at its own size. */
static void test_unaligned_samples(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char err[512];
	uint64_t steps, waits = 0;
	int rc;

	plan_ingest(&plan, tmpdir, SC_ENGINE_URING);
	plan.phases[0].ingest.sample_bytes = 100000;
	plan.phases[0].ingest.file_bytes = MIB + 12345;
	steps = sc_layout_ingest_steps(&plan, 0, &one_rank);
	CHECK(steps == 10, "4 files x 10 samples in batches of 4: 10 steps, got %llu",
	      (unsigned long long)steps);
	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	CHECK(rc == 0, "unaligned samples: rc %d (%s%s)", rc, err, res.error);
	check_exact(&plan, &res, steps, waits, "unaligned samples");
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* Time mode's runtimes: a try in which the readers had no batch ready
 * within the runtime (a held machine) is run again, longer. */
static const uint64_t time_mode_runtime_ns[] = {300 * MS, 3000 * MS, 3000 * MS};
#define TIME_MODE_STEP_NS (5 * MS)

/* Time mode: the phase ends at its runtime, not before; no step starts
 * after it (the steps' exact compute fits in the runtime and one step);
 * the consumer's figures hold whole steps only; steps are taken.  The null
 * engine needs no dataset. */
static void test_time_mode(enum sc_engine_kind engine)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char err[512];
	uint64_t waits = 0, steps = 0;
	int rc;

	check_context = sc_engine_name(engine);
	plan_ingest(&plan, tmpdir, engine);
	plan.phases[0].ingest.compute_per_batch_ns = TIME_MODE_STEP_NS;
	for (size_t k = 0; k < sizeof(time_mode_runtime_ns) / sizeof(time_mode_runtime_ns[0]) &&
			   steps == 0;
	     k++) {
		uint64_t runtime = time_mode_runtime_ns[k];

		plan.phases[0].io.runtime_ns = runtime;
		CHECK(sc_layout_ingest_steps(&plan, 0, &one_rank) == 0,
		      "time mode has no planned steps");
		rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
		CHECK(rc == 0, "time mode: rc %d (%s%s)", rc, err, res.error);
		CHECK(res.end_ns >= (int64_t)runtime, "ends after its %.0f ms runtime: %lld ns",
		      runtime / 1e6, (long long)res.end_ns);
		CHECK(res.steps <= runtime / TIME_MODE_STEP_NS + 1,
		      "5 ms steps in %.0f ms: %llu (none started past the runtime)", runtime / 1e6,
		      (unsigned long long)res.steps);
		CHECK(res.compute_ns == res.steps * TIME_MODE_STEP_NS,
		      "compute %llu ns for %llu whole steps", (unsigned long long)res.compute_ns,
		      (unsigned long long)res.steps);
		CHECK(waits == res.steps, "one batch wait per step: %llu",
		      (unsigned long long)waits);
		CHECK(res.samples >= res.steps * 4 && res.samples <= (res.steps + 1 + 2) * 4,
		      "samples %llu: the steps' batches, at most prefetch + 1 batches more",
		      (unsigned long long)res.samples);
		CHECK(res.bytes[SC_DIR_READ] == res.samples * 64 * KIB, "bytes follow samples");
		CHECK(res.planned_bytes == 0, "no planned bytes in time mode");
		steps = res.steps;
		if (steps == 0)
			printf("test_time_mode: no step in %.0f ms (the machine held the readers?)\n",
			       runtime / 1e6);
		sc_rank_result_exit(&res);
	}
	CHECK(steps >= 1, "time mode took no step in runtimes up to 3 s");
	sc_plan_exit(&plan);
	check_context = NULL;
}

/* Runs phase 0 of plan (step_barrier on) as one rank whose main thread
 * (this one) holds each gate round for hold_ns, then answers it as the
 * cluster would: 0 when the local side is not going or at round no_round
 * (another rank ended: so must this one), else 1; no round after a 0.
 * stop_round: stops the run there instead of answering.  The local side's
 * last "going" in *last_going, the rounds answered in *rounds. */
static int run_gated(const struct sc_plan *plan, uint64_t no_round, uint64_t stop_round,
		     uint64_t hold_ns, struct sc_rank_result *res, int *last_going,
		     uint64_t *rounds)
{
	struct sc_run *run = NULL;
	uint64_t round = 0, until = sc_now_ns() + 60 * SC_NS_PER_S;
	char err[512];
	int rc, going;
	bool said_no = false;

	memset(res, 0, sizeof(*res));
	rc = sc_run_create(&run, plan, 0, &one_rank, NULL, err, sizeof(err));
	if (rc)
		return rc;
	CHECK(sc_run_gate_on(run), "step_barrier: the gate is on");
	sc_run_start(run, sc_now_ns() + MS);
	*last_going = -1;
	/* as sc_cluster_wait_run: the minimum of every rank's going (the
	 * others' is round < no_round), no round after one that said no */
	while (!sc_run_done(run) && sc_now_ns() < until) {
		if (said_no || !sc_run_gate_want(run, round, &going)) {
			sc_run_gate_nap(run, round, MS);
			continue;
		}
		*last_going = going;
		if (round == stop_round) {
			sc_run_stop(run);
			continue;
		}
		sc_sleep_until(sc_now_ns() + hold_ns);
		said_no = !going || round >= no_round;
		sc_run_gate_answer(run, round, !said_no);
		round++;
	}
	CHECK(sc_run_done(run), "the gated run hangs");
	*rounds = round;
	rc = sc_run_finish(run, res);
	sc_run_destroy(run);
	return rc;
}

/* step_barrier: after each step the consumer waits at the gate for the
 * main thread's answer.  A "no" at round 5 ends the rank after 6 of its 48
 * steps; its barrier wait holds every answer held back, its wall time
 * holds the wait, its compute does not; answered yes throughout, the last
 * step asks "not going" (48 rounds); a stop frees a consumer held at the
 * gate.  Null engine: no dataset. */
static void test_step_barrier(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	uint64_t compute = MS, hold = 10 * MS, rounds = 0;
	int last = -1;

	plan_ingest(&plan, tmpdir, SC_ENGINE_NULL);
	plan.phases[0].ingest.epochs = 3; /* 48 steps */
	plan.phases[0].ingest.compute_per_batch_ns = compute;
	plan.phases[0].ingest.step_barrier = true;
	CHECK(run_gated(&plan, 5, UINT64_MAX, hold, &res, &last, &rounds) == 0, "gated: %s",
	      res.error);
	CHECK(res.steps == 6 && rounds == 6, "a no at round 5: %llu steps, %llu rounds, want 6",
	      (unsigned long long)res.steps, (unsigned long long)rounds);
	CHECK(last == 1, "steps 0..5 of 48 ask going: %d", last);
	CHECK(res.compute_ns == 6 * compute, "compute %llu ns: 6 steps, not the barrier",
	      (unsigned long long)res.compute_ns);
	CHECK(res.barrier_wait_ns >= 6 * hold, "barrier wait %llu ns, 6 answers held %llu ns",
	      (unsigned long long)res.barrier_wait_ns, (unsigned long long)(6 * hold));
	CHECK(res.end_ns - res.start_ns >= (int64_t)(res.compute_ns + res.barrier_wait_ns),
	      "wall %lld ns holds compute and barrier wait", (long long)(res.end_ns - res.start_ns));
	sc_rank_result_exit(&res);

	CHECK(run_gated(&plan, UINT64_MAX, UINT64_MAX, 0, &res, &last, &rounds) == 0, "gated: %s",
	      res.error);
	CHECK(res.steps == 48 && rounds == 48, "yes throughout: %llu steps, %llu rounds, want 48",
	      (unsigned long long)res.steps, (unsigned long long)rounds);
	CHECK(last == 0, "the last step asks not going: %d", last);
	check_exact(&plan, &res, 48, res.batch_wait.count, "gated, yes throughout");
	sc_rank_result_exit(&res);

	CHECK(run_gated(&plan, UINT64_MAX, 2, 0, &res, &last, &rounds) >= 0, "stopped");
	CHECK(res.steps == 3, "stopped at round 2: %llu steps, want 3",
	      (unsigned long long)res.steps);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* The null engine measures the tool alone: exact counts, no dataset. */
static void test_null_engine(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char base[300], dir[512], err[512];
	uint64_t waits = 0;
	struct stat st;

	snprintf(base, sizeof(base), "%s/null", tmpdir);
	plan_ingest(&plan, base, SC_ENGINE_NULL);
	plan.phases[0].ingest.epochs = 3;
	CHECK(run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err)) == 0, "null: %s%s", err,
	      res.error);
	check_exact(&plan, &res, 48, waits, "null engine");
	sc_layout_ingest_dir(&plan, 0, 0, dir, sizeof(dir));
	CHECK(stat(dir, &st) != 0, "null engine writes no dataset (%s)", dir);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

/* Targets the dataset cannot go to: the message names the path. */
static void test_errors(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_run *run = NULL;
	char blocker[320], target[400], blocker2[450], err[1024];
	int fd, rc;

	/* a target below a regular file cannot exist */
	snprintf(blocker, sizeof(blocker), "%s/plainfile", tmpdir);
	fd = open(blocker, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0, "make %s", blocker);
	close(fd);
	snprintf(target, sizeof(target), "%s/target", blocker);
	plan_ingest(&plan, target, SC_ENGINE_PSYNC);
	err[0] = '\0';
	rc = sc_run_create(&run, &plan, 0, &one_rank, NULL, err, sizeof(err));
	CHECK(rc == -ENOTDIR, "missing target: rc %d, want -ENOTDIR", rc);
	CHECK(strstr(err, target) != NULL, "message names the target path: %s", err);
	sc_plan_exit(&plan);

	/* the run directory can be made, the dataset directory cannot */
	snprintf(target, sizeof(target), "%s/blocked", tmpdir);
	CHECK(mkdir(target, 0755) == 0, "mkdir %s", target);
	snprintf(blocker2, sizeof(blocker2), "%s/ssdcluster-datasets", target);
	fd = open(blocker2, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0, "make %s", blocker2);
	close(fd);
	plan_ingest(&plan, target, SC_ENGINE_URING);
	err[0] = '\0';
	rc = sc_run_create(&run, &plan, 0, &one_rank, NULL, err, sizeof(err));
	CHECK(rc == -ENOTDIR, "blocked dataset dir: rc %d, want -ENOTDIR", rc);
	CHECK(strstr(err, blocker2) && strstr(err, "dataset"), "message names the dataset path: %s",
	      err);
	if (rc == 0) {
		sc_run_start(run, sc_now_ns());
		sc_run_finish(run, &res);
		sc_rank_result_exit(&res);
		sc_run_destroy(run);
	}
	sc_plan_exit(&plan);

	/* a read-only dataset file of the wrong size cannot be fixed */
	if (geteuid() != 0) {
		char dir[512], path[600];

		plan_ingest(&plan, tmpdir, SC_ENGINE_PSYNC);
		plan.phases[0].ingest.files = 2;
		sc_layout_ingest_dir(&plan, 0, 0, dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/file_0.dat", dir);
		CHECK(run_ingest(&plan, &one_rank, &res, NULL, err, sizeof(err)) == 0, "%s", err);
		sc_rank_result_exit(&res);
		CHECK(truncate(path, 10) == 0 && chmod(path, 0444) == 0, "make %s read-only", path);
		rc = run_ingest(&plan, &one_rank, &res, NULL, err, sizeof(err));
		CHECK(rc == -EACCES && strstr(err, path), "read-only damaged file: %d %s", rc, err);
		sc_plan_exit(&plan);
	}
}

/* on_error continue: a sample whose read fails is dropped from its batch,
 * so every step still completes; stop-phase ends the rank's phase. */
static void test_inject(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	uint64_t waits = 0;
	char err[512] = "";
	int rc;

	plan_ingest(&plan, tmpdir, SC_ENGINE_PSYNC);
	plan.phases[0].io.inject = (struct sc_inject){.every = 5, .errno_val = ENODATA};
	plan.phases[0].io.on_error = SC_ON_ERROR_CONTINUE;
	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	{
		uint64_t steps = sc_layout_ingest_steps(&plan, 0, &one_rank);
		uint64_t total = steps * plan.phases[0].ingest.batch;

		CHECK(rc == 0 && res.error[0] == '\0', "continue: rc %d %s %s", rc, err, res.error);
		CHECK(res.steps == steps, "continue: %llu of %llu steps",
		      (unsigned long long)res.steps, (unsigned long long)steps);
		CHECK(res.errors > 0 && res.samples + res.errors == total,
		      "continue: %llu samples + %llu failed = %llu",
		      (unsigned long long)res.samples, (unsigned long long)res.errors,
		      (unsigned long long)total);
		CHECK(res.nerrnos == 1 && res.errnos[0].err == ENODATA, "counted under ENODATA");
		CHECK(res.nfailures &&
			  strncmp(res.failures[0].file, "ssdcluster-datasets", 19) == 0 &&
			  strstr(res.failures[0].file, "/file_"),
		      "the dataset file, relative to the target: %s",
		      res.nfailures ? res.failures[0].file : "");
	}
	sc_rank_result_exit(&res);
	plan.phases[0].io.on_error = SC_ON_ERROR_STOP_PHASE;
	rc = run_ingest(&plan, &one_rank, &res, &waits, err, sizeof(err));
	CHECK(rc == -ENODATA && strstr(res.error, "file_"), "stop-phase: rc %d, %s", rc, res.error);
	CHECK(res.steps < sc_layout_ingest_steps(&plan, 0, &one_rank), "stop-phase: ends early");
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

int main(void)
{
	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_ingest");
	test_dataset(SC_ENGINE_PSYNC, tmpdir);
	test_dataset(SC_ENGINE_URING, tmpdir);
	test_compute_bound(SC_ENGINE_PSYNC, tmpdir);
	test_compute_bound(SC_ENGINE_URING, tmpdir);
	test_prefetch_bound();
	test_two_ranks();
	test_unaligned_samples();
	test_time_mode(SC_ENGINE_URING);
	test_time_mode(SC_ENGINE_NULL);
	test_null_engine();
	test_step_barrier();
	test_errors();
	test_inject();
	check_rmtree(tmpdir);
	return check_exit("test_ingest");
}
