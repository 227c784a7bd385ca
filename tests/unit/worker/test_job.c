/* test_job.c -- the phase runner: exact byte counts, files where the layout
 * says, data laid out before reads, fsync counts, stop, errors; open loop
 * (rate, response time, late I/Os); a throttled target's latency; and the
 * layout's placement and capacity arithmetic. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "histogram.h"
#include "layout.h"
#include "pattern.h"
#include "plan.h"
#include "run.h"
#include "rundir.h"

static char tmpdir[256];

static void plan_one(struct sc_plan *plan, enum sc_rw rw, enum sc_engine_kind engine, uint32_t jobs,
		     uint64_t bs, uint32_t depth, uint64_t size, uint64_t io_bytes)
{
	struct sc_io_spec *io = &check_plan_dir(plan, tmpdir, "test", "p", 1)->io;

	io->rw = rw;
	io->rwmixread_pct = 70;
	io->bs_bytes = bs;
	io->iodepth = depth;
	io->jobs = jobs;
	io->size_bytes = size;
	io->io_bytes = io_bytes;
	io->direct = true;
	io->engine = engine;
	io->seed = 7;
}

/* The run directory the phases of one test share (as a run's phases do). */
static struct sc_rundir run_dir;

/* Makes the run directory of plan, as the coordinator does before phase 0. */
static void open_run(const struct sc_plan *plan)
{
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	char err[512];

	sc_rundir_init(&run_dir);
	CHECK(sc_rundir_create(&run_dir, plan, &place, "key", err, sizeof(err)) == 0, "%s", err);
}

/* Removes it with everything in it.  0 or -errno. */
static int close_run(void)
{
	int rc = sc_rundir_remove(&run_dir);

	sc_rundir_exit(&run_dir);
	return rc;
}

/* run_phase_keep's stop_ms: let the phase end by itself. */
#define NO_STOP (-1)

/* Runs phase 0 of plan as rank 3 and returns sc_run_finish's code.  With
 * stop_ms >= 0 the run is stopped that many ms after the start call; with
 * keep (SC_HK_COUNT histograms) the rank's histograms are copied there;
 * with aborted, whether the run reported an on_error abort.  Every run
 * checks what holds for any phase: the read histogram holds every read;
 * closed loop records no response time and no late I/O, open loop a
 * response time for every measured I/O; the live failed-I/O count is the
 * result's. */
static int run_phase_full(const struct sc_plan *plan, struct sc_rank_result *res, int stop_ms,
			  struct sc_hist *keep, bool *aborted)
{
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	const struct sc_hist *h;
	struct sc_run *run = NULL;
	char err[512];
	int rc = sc_run_create(&run, plan, 0, &place, &run_dir, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "sc_run_create: %s\n", err);
		return rc;
	}
	sc_run_start(run, sc_now_ns() + 1000000);
	if (stop_ms > 0)
		usleep((useconds_t)stop_ms * 1000);
	if (stop_ms >= 0)
		sc_run_stop(run);
	while (!sc_run_done(run))
		usleep(1000);
	rc = sc_run_finish(run, res);
	if (aborted)
		*aborted = sc_run_aborted(run);
	CHECK(sc_run_failed_ios(run) == res->errors, "live count of failed I/Os %llu, result %llu",
	      (unsigned long long)sc_run_failed_ios(run), (unsigned long long)res->errors);
	CHECK(sc_run_hist(run, 0) != NULL, "histogram after finish");
	if (sc_run_hist(run, 0))
		CHECK(sc_run_hist(run, 0)->count == res->ios[0], "read histogram holds every read");
	for (int d = 0; d < 2 && sc_run_hist(run, 0); d++) {
		h = sc_run_hist(run, SC_HK_RESP_READ + d);
		if (plan->phases[0].io.rate_iops == 0)
			CHECK(h->count == 0 && res->resp[d].count == 0,
			      "closed loop records no response time (%llu)",
			      (unsigned long long)h->count);
		else
			CHECK(h->count == res->ios[d] && res->resp[d].count == res->ios[d],
			      "open loop: %llu response times for %llu I/Os (dir %d)",
			      (unsigned long long)h->count, (unsigned long long)res->ios[d], d);
	}
	if (plan->phases[0].io.rate_iops == 0)
		CHECK(res->late_ios == 0 && res->unissued_ios == 0,
		      "closed loop counts no late or unissued I/O");
	if (keep && sc_run_hist(run, 0))
		for (int k = 0; k < SC_HK_COUNT; k++)
			keep[k] = *sc_run_hist(run, k);
	sc_run_destroy(run);
	return rc;
}

static int run_phase_keep(const struct sc_plan *plan, struct sc_rank_result *res, int stop_ms,
			  struct sc_hist *keep)
{
	return run_phase_full(plan, res, stop_ms, keep, NULL);
}

static int run_phase(const struct sc_plan *plan, struct sc_rank_result *res, int stop_early)
{
	return run_phase_keep(plan, res, stop_early ? 0 : NO_STOP, NULL);
}

static uint64_t seconds_sum(const struct sc_rank_result *r)
{
	uint64_t s = 0;

	for (uint32_t k = 0; k < r->nseconds; k++)
		s += r->seconds[k].bytes[0] + r->seconds[k].bytes[1];
	return s;
}

static void test_write_then_read(enum sc_engine_kind engine)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	char path[512];
	uint64_t off;
	struct stat st;
	int rc;

	/* sequential write: 2 jobs x 1 MiB in 64 KiB blocks, fsync every 4 */
	plan_one(&plan, SC_RW_WRITE, engine, 2, 65536, 4, 1 << 20, 1 << 20);
	open_run(&plan);
	plan.phases[0].io.fsync_every = 4;
	rc = run_phase(&plan, &res, 0);
	CHECK(rc == 0, "%s write: rc %d (%s)", sc_engine_name(engine), rc, res.error);
	CHECK(res.bytes[1] == 2u << 20, "%s write: %llu bytes written, want 2 MiB",
	      sc_engine_name(engine), (unsigned long long)res.bytes[1]);
	CHECK(res.ios[1] == 32, "%s write: %llu writes, want 32", sc_engine_name(engine),
	      (unsigned long long)res.ios[1]);
	CHECK(res.bytes[0] == 0, "write phase read nothing");
	CHECK(res.fsyncs == 8, "%s: fsyncs %llu, want 8 (16 writes / 4, per job)",
	      sc_engine_name(engine), (unsigned long long)res.fsyncs);
	CHECK(res.planned_bytes == 2u << 20, "planned bytes");
	CHECK(seconds_sum(&res) == 2u << 20, "per-second series sums to the bytes");
	CHECK(res.lat[1].count == 32, "write latency count");
	CHECK(res.end_ns >= res.start_ns, "end after start");
	sc_layout_job_file(&plan, &place, 0, 1, path, sizeof(path), &off);
	if (engine != SC_ENGINE_NULL) {
		CHECK(stat(path, &st) == 0 && st.st_size == 1 << 20, "%s: job 1 file is 1 MiB",
		      path);
	} else {
		CHECK(stat(path, &st) != 0, "null engine creates no file");
	}
	sc_rank_result_exit(&res);

	/* random reads of what was written: bytes exact, offsets in range */
	plan.phases[0].io.rw = SC_RW_RANDREAD;
	plan.phases[0].io.fsync_every = 0;
	plan.phases[0].io.io_bytes = 256 << 10;
	rc = run_phase(&plan, &res, 0);
	CHECK(rc == 0, "%s randread: rc %d (%s)", sc_engine_name(engine), rc, res.error);
	CHECK(res.bytes[0] == 512u << 10, "randread bytes %llu", (unsigned long long)res.bytes[0]);
	CHECK(res.ios[0] == 8, "randread ios %llu", (unsigned long long)res.ios[0]);
	sc_rank_result_exit(&res);

	CHECK(close_run() == 0, "cleanup");
	CHECK(stat(path, &st) != 0, "cleanup removed %s", path);
	sc_plan_exit(&plan);
}

static void test_layout_before_read(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	char path[512];
	uint64_t off;
	struct stat st;

	/* reading a file that does not exist yet: laid out first, untimed */
	plan_one(&plan, SC_RW_READ, SC_ENGINE_PSYNC, 1, 4096, 1, 256 << 10, 256 << 10);
	open_run(&plan);
	CHECK(run_phase(&plan, &res, 0) == 0, "read of a new file: %s", res.error);
	CHECK(res.bytes[0] == 256u << 10, "read all 256 KiB");
	sc_layout_job_file(&plan, &place, 0, 0, path, sizeof(path), &off);
	CHECK(stat(path, &st) == 0 && st.st_size == 256 << 10, "file laid out to 256 KiB");
	sc_rank_result_exit(&res);
	close_run();
	sc_plan_exit(&plan);
}

static void test_mix_and_stop(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;

	plan_one(&plan, SC_RW_RANDRW, SC_ENGINE_NULL, 1, 4096, 16, 1 << 20, 40000ull * 4096);
	open_run(&plan);
	CHECK(run_phase(&plan, &res, 0) == 0, "null randrw");
	CHECK(res.bytes[0] + res.bytes[1] == 40000ull * 4096, "randrw moves exactly io_size");
	double share = (double)res.ios[0] / (double)(res.ios[0] + res.ios[1]);
	CHECK(share > 0.68 && share < 0.72, "read share %.3f not near 70%%", share);
	sc_rank_result_exit(&res);

	/* a time-based phase stopped at once ends early */
	plan.phases[0].io.runtime_ns = 60ull * 1000000000ull;
	plan.phases[0].io.io_bytes = 0;
	CHECK(run_phase(&plan, &res, 1) == 0, "stopped run");
	CHECK(res.end_ns < (int64_t)plan.phases[0].io.runtime_ns / 2,
	      "stop ends a 60 s phase early: %lld ns", (long long)res.end_ns);
	sc_rank_result_exit(&res);
	close_run();
	sc_plan_exit(&plan);
}

/* CPU time (user + system) of the threads other than the caller, ended
 * ones included: the job threads'. */
static uint64_t others_cpu_ns(void)
{
	struct rusage all, self;
	int64_t us;

	getrusage(RUSAGE_SELF, &all);
	getrusage(RUSAGE_THREAD, &self);
	us = ((int64_t)all.ru_utime.tv_sec - self.ru_utime.tv_sec +
	      (int64_t)all.ru_stime.tv_sec - self.ru_stime.tv_sec) * 1000000 +
	     (all.ru_utime.tv_usec - self.ru_utime.tv_usec) +
	     (all.ru_stime.tv_usec - self.ru_stime.tv_usec);
	return us > 0 ? (uint64_t)us * 1000 : 0;
}

/* Open loop at a rate the engine meets easily: the I/Os due after the ramp
 * follow the schedule exactly (done ones plus those due but never
 * started), ramp I/Os are not measured, response time includes service
 * time, and the jobs sleep rather than spin.  How many start late is the
 * machine's (test_open_loop_saturated checks they are counted). */
static void test_open_loop_rate(enum sc_engine_kind engine)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_hist *h = xcalloc(SC_HK_COUNT, sizeof(*h));
	uint64_t n, cpu_ns, wall_ns;

	check_context = sc_engine_name(engine);
	/* 201/s over 2 jobs (101 + 100: an interval that does not divide a
	 * second), 100 ms ramp then 500 ms measured: 100 I/Os */
	plan_one(&plan, SC_RW_RANDRW, engine, 2, 4096, 16, 1 << 20, 0);
	open_run(&plan);
	plan.phases[0].io.rate_iops = 201;
	plan.phases[0].io.ramp_ns = 100000000ull;
	plan.phases[0].io.runtime_ns = 500000000ull;
	cpu_ns = others_cpu_ns();
	wall_ns = sc_now_ns();
	CHECK(run_phase_keep(&plan, &res, NO_STOP, h) == 0, "open loop: %s", res.error);
	wall_ns = sc_now_ns() - wall_ns;
	cpu_ns = others_cpu_ns() - cpu_ns;
	n = res.ios[0] + res.ios[1];
	CHECK(n > 0 && n + res.unissued_ios >= 99 && n + res.unissued_ios <= 101,
	      "201 IOPS for 0.5 s after the ramp: %llu done + %llu never started, want 100",
	      (unsigned long long)n, (unsigned long long)res.unissued_ios);
	CHECK(res.ios[0] > 0 && res.ios[1] > 0, "randrw reads and writes");
	CHECK(res.bytes[0] + res.bytes[1] == n * 4096, "bytes match the I/O count");
	CHECK(seconds_sum(&res) == res.bytes[0] + res.bytes[1], "per-second series sums to bytes");
	CHECK(res.late_ios <= n, "%llu of %llu I/Os late", (unsigned long long)res.late_ios,
	      (unsigned long long)n);
	for (int d = 0; d < 2; d++)
		CHECK(h[SC_HK_RESP_READ + d].sum_ns >= h[SC_HK_LAT_READ + d].sum_ns,
		      "response time includes service time (dir %d)", d);
	/* a job sleeps before each I/O and polls at most the last 200 us of
	 * its 10 ms interval, so the jobs use a few % of one CPU; jobs that
	 * polled throughout use one CPU each while they get one.  A busy
	 * machine takes CPU time away from the jobs, never adds it (the
	 * count of sleeps, checked before, fell short on a loaded VM where
	 * wake-ups came a whole interval late and the jobs had no time to
	 * sleep) */
	CHECK(cpu_ns < wall_ns / 4,
	      "a low rate sleeps: the jobs used %.0f ms of CPU in %.0f ms (want under a quarter)",
	      cpu_ns / 1e6, wall_ns / 1e6);
	sc_rank_result_exit(&res);
	close_run();
	sc_plan_exit(&plan);
	free(h);
	check_context = NULL;
}

/* A byte budget at a rate: exact bytes, fsyncs as in closed loop. */
static void test_open_loop_budget(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;

	plan_one(&plan, SC_RW_WRITE, SC_ENGINE_PSYNC, 1, 4096, 4, 1 << 20, 64 * 4096);
	open_run(&plan);
	plan.phases[0].io.fsync_every = 4;
	plan.phases[0].io.rate_iops = 20000;
	CHECK(run_phase(&plan, &res, 0) == 0, "open loop psync write: %s", res.error);
	CHECK(res.bytes[1] == 64 * 4096 && res.ios[1] == 64,
	      "open loop moves exactly io_size: %llu", (unsigned long long)res.bytes[1]);
	CHECK(res.fsyncs == 16, "open loop fsyncs %llu, want 16", (unsigned long long)res.fsyncs);
	CHECK(res.planned_bytes == 64 * 4096, "planned bytes");
	sc_rank_result_exit(&res);
	close_run();
	sc_plan_exit(&plan);
}

/* A rate far beyond a psync engine at iodepth 1: every I/O waits for the
 * one before, the backlog grows, and response time leaves service time
 * behind (what a closed loop would hide). */
static void test_open_loop_saturated(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_hist *h = xcalloc(SC_HK_COUNT, sizeof(*h));
	uint64_t resp99, lat99, n;

	plan_one(&plan, SC_RW_RANDREAD, SC_ENGINE_PSYNC, 1, 4096, 1, 1 << 20, 0);
	open_run(&plan);
	plan.phases[0].io.rate_iops = 10000000;
	plan.phases[0].io.runtime_ns = 300000000ull;
	CHECK(run_phase_keep(&plan, &res, NO_STOP, h) == 0, "saturated psync: %s", res.error);
	n = res.ios[0];
	resp99 = sc_hist_percentile(&h[SC_HK_RESP_READ], 99);
	lat99 = sc_hist_percentile(&h[SC_HK_LAT_READ], 99);
	CHECK(n > 0, "saturated psync did I/O");
	CHECK(resp99 > lat99, "response p99 %llu ns not above service p99 %llu ns",
	      (unsigned long long)resp99, (unsigned long long)lat99);
	CHECK(res.late_ios > 0 && res.late_ios * 10 >= n * 9,
	      "at 10M IOPS nearly every I/O starts late: %llu of %llu",
	      (unsigned long long)res.late_ios, (unsigned long long)n);
	CHECK(h[SC_HK_RESP_READ].max_ns > 150000000ull,
	      "the backlog grows over the 300 ms phase: response max %llu ns",
	      (unsigned long long)h[SC_HK_RESP_READ].max_ns);
	/* 10M/s for 300 ms is 3M I/Os due; psync at QD1 starts a tiny share:
	 * the rest is reported as due but never started, not dropped */
	CHECK(res.unissued_ios > 1000000 && res.unissued_ios + n <= 3000000 + 2,
	      "backlog at the end: %llu unissued + %llu done of 3000000 due",
	      (unsigned long long)res.unissued_ios, (unsigned long long)n);
	sc_rank_result_exit(&res);
	close_run();
	sc_plan_exit(&plan);
	free(h);
}

/* A throttled target is a slow drive (pace.h, sc_throttle): 32 writes of
 * 64 KiB at iodepth 4 on a target throttled to 16 MB/s a rank (jobs share
 * it), through engine.  An I/O of 64 KiB takes s = 4.096 ms of the job's
 * share (2 jobs: 8.192 ms) and leaves the service queue no earlier, so no
 * latency is below s; the first 4 go in together, so the 4th waits for
 * the 3 before it: some latency is at least 4 s; and a job's 16 or 32
 * I/Os leave one after another: the rank's time is at least that many s.
 * Bounds a loaded machine cannot break (it only makes I/Os later). */
static void test_throttled_drive(enum sc_engine_kind engine, uint32_t jobs)
{
	const uint64_t bs = 64 << 10, rate = 16000000, n = 32;
	const uint64_t s = bs * 1000000000ull * jobs / rate;
	struct sc_plan plan;
	struct sc_rank_result res;

	check_context = sc_engine_name(engine);
	plan_one(&plan, SC_RW_WRITE, engine, jobs, bs, 4, n * bs, n * bs / jobs);
	plan.targets[0].throttle_bytes_per_s = rate;
	open_run(&plan);
	CHECK(run_phase(&plan, &res, 0) == 0, "throttled write: %s", res.error);
	CHECK(res.bytes[1] == n * bs && res.ios[1] == n, "throttled: %llu bytes, %llu writes",
	      (unsigned long long)res.bytes[1], (unsigned long long)res.ios[1]);
	CHECK(res.lat[1].min_ns >= s, "%u job(s): latency min %llu ns, below one service %llu ns",
	      jobs, (unsigned long long)res.lat[1].min_ns, (unsigned long long)s);
	CHECK(res.lat[1].max_ns >= 4 * s, "%u job(s): latency max %llu ns, below 4 services %llu",
	      jobs, (unsigned long long)res.lat[1].max_ns, (unsigned long long)(4 * s));
	CHECK(res.end_ns - res.start_ns >= (int64_t)(n / jobs * s),
	      "%u job(s): %llu writes in %lld ns, faster than the 16 MB/s throttle (%llu ns)", jobs,
	      (unsigned long long)n, (long long)(res.end_ns - res.start_ns),
	      (unsigned long long)(n / jobs * s));
	sc_rank_result_exit(&res);
	close_run();
	sc_plan_exit(&plan);
	check_context = NULL;
}

/* I/Os the open-loop schedule has started before t_ns after the start:
 * job i runs at its share of rate and begins i/jobs of its interval late
 * (pace.h). */
static uint64_t due_before(uint64_t rate, uint32_t jobs, uint64_t t_ns)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < jobs; i++) {
		uint64_t r = rate / jobs + (i < rate % jobs), off;

		if (!r)
			continue;
		off = 1000000000ull / r * i / jobs;
		if (t_ns > off)
			n += ((t_ns - off) * r + 1000000000ull - 1) / 1000000000ull;
	}
	return n;
}

/* Runs a 60 s open-loop phase of 3 jobs at rate, stopped once min_ios
 * are done and not before stop_at_ns after the start.  Fills res; after
 * the start: *t_stop, when the stop had been sent; *t_seen, the last time
 * a job was seen running (the jobs ended after it); *t_done, when they
 * were seen ended (they had ended by then). */
static void run_open_stopped(struct sc_plan *plan, uint64_t rate, uint64_t min_ios,
			     uint64_t stop_at_ns, struct sc_rank_result *res, uint64_t *t_stop,
			     uint64_t *t_seen, uint64_t *t_done)
{
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	struct sc_run *run = NULL;
	char err[512];
	uint64_t start, now;

	plan->phases[0].io.rate_iops = rate;
	memset(res, 0, sizeof(*res));
	if (sc_run_create(&run, plan, 0, &place, &run_dir, err, sizeof(err))) {
		FAIL("sc_run_create: %s", err);
		return;
	}
	start = sc_now_ns() + 1000000;
	sc_run_start(run, start);
	/* a held machine only moves the stop later */
	while (sc_run_bytes(run) < min_ios * 4096 || sc_now_ns() < start + stop_at_ns)
		usleep(1000);
	sc_run_stop(run);
	/* read after the stop: every I/O started before it was due by then */
	*t_stop = sc_now_ns() - start;
	*t_seen = *t_stop;
	for (;;) {
		now = sc_now_ns();
		if (sc_run_done(run))
			break;
		*t_seen = now - start;
		usleep(1000);
	}
	*t_done = sc_now_ns() - start;
	CHECK(sc_run_finish(run, res) == 0, "stopped open loop: %s", res->error);
	sc_run_destroy(run);
}

/* Tries of the stop of a sleeping job before the machine is held to have
 * been too slow to tell. */
#define STOP_TRIES 3
/* The stop of a sleeping job is prompt when the jobs end this soon after
 * the start: half the 1 s to the job's next I/O, 50 times the longest
 * sleep between its looks at the stop (SC_STOP_POLL_NS). */
#define STOP_PROMPT_NS 500000000ull

/* A stop reaches an open-loop job asleep between I/Os: it ends before the
 * job's next I/O is due, and no I/O starts after it; a job whose share of
 * the rate is 0 does nothing. */
static void test_open_loop_stop(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	uint64_t t_stop = 0, t_seen = 0, t_done = 0;
	bool prompt = false, overslept = false;

	plan_one(&plan, SC_RW_RANDREAD, SC_ENGINE_NULL, 3, 4096, 4, 1 << 20, 0);
	plan.phases[0].io.runtime_ns = 60ull * 1000000000ull;
	/* 1/s over 3 jobs: job 0 alone, at 0 s then 1 s; stopped after its
	 * first I/O, the run ends long before the second is due.  A try is
	 * prompt when the jobs were seen ended within STOP_PROMPT_NS; one
	 * where a job was seen running STOP_PROMPT_NS after the stop (sent
	 * before the next I/O was due) overslept; any other try, the test or
	 * the job thread was held and cannot tell: it is tried again */
	for (int k = 0; k < STOP_TRIES && !prompt; k++) {
		run_open_stopped(&plan, 1, 1, 0, &res, &t_stop, &t_seen, &t_done);
		CHECK(res.ios[0] >= 1 && res.ios[0] <= due_before(1, 3, t_stop),
		      "stopped at %.0f ms: %llu I/Os, want 1 to %llu", t_stop / 1e6,
		      (unsigned long long)res.ios[0], (unsigned long long)due_before(1, 3, t_stop));
		prompt = t_done < STOP_PROMPT_NS;
		if (t_stop < 1000000000ull && t_seen >= t_stop + STOP_PROMPT_NS)
			overslept = true;
		if (!prompt)
			printf("test_open_loop_stop: try %d stopped at %.0f ms, jobs seen running "
			       "at %.0f ms, ended by %.0f ms\n",
			       k + 1, t_stop / 1e6, t_seen / 1e6, t_done / 1e6);
		sc_rank_result_exit(&res);
	}
	CHECK(prompt || !overslept,
	      "a stop ends a sleeping 60 s open-loop phase: in none of %d tries did the jobs end "
	      "within %.0f ms, and they ran on %.0f ms after the stop",
	      STOP_TRIES, STOP_PROMPT_NS / 1e6, STOP_PROMPT_NS / 1e6);
	if (!prompt && !overslept)
		SKIP_CHECK("test_open_loop_stop: no verdict on a prompt stop (the machine was held "
			   "in all %d tries)",
			   STOP_TRIES);

	/* fewer I/Os per second than jobs: the jobs without a share do none
	 * (job 0 at 0 ms, job 1 at 333 ms, job 2 none; a share for job 2
	 * would start it at 667 ms, before the stop at 700 ms) */
	run_open_stopped(&plan, 2, 2, 700000000ull, &res, &t_stop, &t_seen, &t_done);
	CHECK(res.ios[0] >= 2 && res.ios[0] <= due_before(2, 3, t_stop),
	      "2/s over 3 jobs, stopped at %.0f ms: %llu I/Os, want 2 to %llu", t_stop / 1e6,
	      (unsigned long long)res.ios[0], (unsigned long long)due_before(2, 3, t_stop));
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
}

static void test_io_error(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	char path[300];
	int rc;

	/* an existing file target shorter than the region: reads past its
	 * end come back short, and the job reports it */
	snprintf(path, sizeof(path), "%s/short.dat", tmpdir);
	int fd = open(path, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0 && ftruncate(fd, 8192) == 0, "make short file");
	close(fd);
	plan_one(&plan, SC_RW_READ, SC_ENGINE_PSYNC, 1, 4096, 1, 64 << 10, 64 << 10);
	free(plan.targets[0].path);
	plan.targets[0].path = strdup(path);
	plan.targets[0].kind = SC_TARGET_FILE;
	plan.phases[0].io.direct = false;
	rc = run_phase(&plan, &res, 0);
	CHECK(rc == -EIO, "short read gives -EIO, got %d", rc);
	CHECK(res.errors >= 1, "error counted");
	CHECK(strstr(res.error, "short transfer") && strstr(res.error, "short.dat"),
	      "message names the file and the problem: %s", res.error);
	CHECK(res.bytes[0] == 8192, "the two good blocks still count: %llu",
	      (unsigned long long)res.bytes[0]);
	sc_rank_result_exit(&res);
	sc_plan_exit(&plan);
	unlink(path);
}

/* A directory target with an offset (a target rank 0 did not probe):
 * the rank refuses the phase before any I/O, naming the target and keys. */
static void test_offset_on_dir(void)
{
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	struct sc_plan plan;
	struct sc_run *run = NULL;
	char err[512] = "";
	int rc;

	plan_one(&plan, SC_RW_READ, SC_ENGINE_PSYNC, 1, 4096, 1, 64 << 10, 64 << 10);
	plan.phases[0].io.offset_bytes = 1 << 20;
	rc = sc_run_create(&run, &plan, 0, &place, &run_dir, err, sizeof(err));
	CHECK(rc == -EINVAL, "offset on a directory target: %d, want -EINVAL", rc);
	CHECK(strstr(err, "directory target") && strstr(err, "offset_increment"),
	      "the message names the target kind and the keys: %s", err);
	if (!rc)
		sc_run_destroy(run);
	sc_plan_exit(&plan);
}

static void test_layout(void)
{
	struct sc_plan plan;
	struct sc_place pl;
	char path[512];
	uint64_t off, rd, wr;

	plan_one(&plan, SC_RW_RANDRW, SC_ENGINE_PSYNC, 4, 4096, 1, 1 << 20, 1 << 20);
	/* two targets: local ranks alternate, slots count per target */
	plan.ntargets = 2;
	plan.targets = realloc(plan.targets, 2 * sizeof(*plan.targets));
	plan.targets[1] = plan.targets[0];
	plan.targets[1].path = strdup("/dev/fake");
	plan.targets[1].kind = SC_TARGET_BLOCK;
	plan.targets[1].hosts = NULL;
	CHECK(sc_layout_place(&plan, "h", 5, 3, 5, &pl) == 0, "place");
	CHECK(pl.target == 1 && pl.slot == 1 && pl.nslots == 2,
	      "local 3 of 5: target 1 slot 1 of 2"
	      " (got %u %u %u)",
	      pl.target, pl.slot, pl.nslots);
	CHECK(sc_layout_place(&plan, "h", 4, 2, 5, &pl) == 0 && pl.target == 0 && pl.slot == 1 &&
		  pl.nslots == 3,
	      "local 2 of 5: target 0 slot 1 of 3");
	sc_layout_place(&plan, "h", 5, 3, 5, &pl);
	sc_layout_job_file(&plan, &pl, 0, 2, path, sizeof(path), &off);
	CHECK(strcmp(path, "/dev/fake") == 0 && off == (1 * 4 + 2) * (1ull << 20),
	      "block region of slot 1 job 2: %s @ %llu", path, (unsigned long long)off);
	CHECK(sc_layout_need_bytes(&plan, 1, 2) == 2 * 4 * (1ull << 20), "block need");
	CHECK(sc_layout_need_bytes(&plan, 0, 3) == 3 * 4 * (1ull << 20), "dir need");
	plan.phases[0].io.engine = SC_ENGINE_NULL;
	CHECK(sc_layout_need_bytes(&plan, 0, 3) == 0, "the null engine stores nothing");
	plan.phases[0].io.engine = SC_ENGINE_PSYNC;
	sc_layout_rank_bytes(&plan, 0, &pl, &rd, &wr);
	CHECK(rd + wr == 4 * (1ull << 20) && rd == 179 * 4096 * 4, "randrw split %llu/%llu",
	      (unsigned long long)rd, (unsigned long long)wr);
	/* Past 2^64 bytes, sums saturate instead of wrapping: 2 jobs of 2^63 B
	 * once planned "needs 0 B" and hit ENOSPC mid-phase. */
	plan.phases[0].io.jobs = 2;
	plan.phases[0].io.size_bytes = UINT64_C(1) << 63;
	plan.phases[0].io.io_bytes = UINT64_C(1) << 63;
	CHECK(sc_layout_need_bytes(&plan, 0, 1) == UINT64_MAX, "dir need saturates: %llu",
	      (unsigned long long)sc_layout_need_bytes(&plan, 0, 1));
	CHECK(sc_layout_need_bytes(&plan, 1, 1) == UINT64_MAX, "block need saturates");
	CHECK(sc_layout_need_bytes(&plan, 0, 3) == UINT64_MAX, "3 slots saturate");
	sc_layout_rank_bytes(&plan, 0, &pl, &rd, &wr);
	CHECK(rd + wr == UINT64_MAX && rd == UINT64_MAX / 4096 * 70 / 100 * 4096,
	      "randrw split of a saturated total: %llu/%llu", (unsigned long long)rd,
	      (unsigned long long)wr);
	/* a host pattern that matches nothing */
	free(plan.targets[0].hosts);
	plan.targets[0].hosts = strdup("gpu*");
	plan.targets[1].hosts = strdup("gpu*");
	CHECK(sc_layout_place(&plan, "cpu1", 0, 0, 1, &pl) == -ENOENT, "no target for cpu1");
	sc_plan_exit(&plan);
}

#define INJ_JOBS   3u
#define INJ_EVERY  7u
#define INJ_IOS	   700u /* per job: 100 failures each */
#define INJ_BLOCKS 16u	/* region of each job, in 4 KiB blocks */

/* Injected failures in the job loop: continue counts each by errno and goes
 * on, the rank keeping the first 100 of all its jobs' by time; stop-phase
 * stops every job of the rank at the first; abort also says so. */
static void test_inject_on_error(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	bool aborted = true;
	int rc;

	plan_one(&plan, SC_RW_WRITE, SC_ENGINE_PSYNC, INJ_JOBS, 4096, 2, INJ_BLOCKS * 4096,
		 INJ_IOS * 4096);
	plan.phases[0].io.inject = (struct sc_inject){.every = INJ_EVERY, .errno_val = EIO};
	plan.phases[0].io.on_error = SC_ON_ERROR_CONTINUE;
	open_run(&plan);
	rc = run_phase_full(&plan, &res, NO_STOP, NULL, &aborted);
	CHECK(rc == 0 && !aborted && res.error[0] == '\0', "continue: rc %d, error \"%s\"", rc,
	      res.error);
	CHECK(res.errors == INJ_JOBS * INJ_IOS / INJ_EVERY, "continue: %llu failed",
	      (unsigned long long)res.errors);
	CHECK(res.nerrnos == 1 && res.errnos[0].err == EIO &&
		  res.errnos[0].count == INJ_JOBS * INJ_IOS / INJ_EVERY,
	      "continue: all counted under EIO");
	CHECK(res.bytes[SC_DIR_WRITE] == INJ_JOBS * (INJ_IOS - INJ_IOS / INJ_EVERY) * 4096ull,
	      "continue: %llu B written", (unsigned long long)res.bytes[SC_DIR_WRITE]);
	CHECK(res.nfailures == SC_IO_FAILURES_KEPT, "continue: %u kept", res.nfailures);
	for (uint32_t job = 0; job < INJ_JOBS; job++) {
		uint32_t k = 0;

		for (uint32_t i = 0; i < res.nfailures; i++) {
			const struct sc_io_failure *f = &res.failures[i];
			uint64_t m = (uint64_t)(k + 1) * INJ_EVERY; /* the job's next failure */
			char want[32];

			if (f->job != job)
				continue;
			snprintf(want, sizeof(want), "/r3.j%u.dat", job);
			CHECK(f->offset_bytes == (m - 1) % INJ_BLOCKS * 4096 && f->err == EIO &&
				  f->op == 1 /* write */ && f->len_bytes == 4096 &&
				  strstr(f->file, want) && f->file[0] != '/',
			      "job %u failure %u: offset %llu file %s", job, k,
			      (unsigned long long)f->offset_bytes, f->file);
			k++;
		}
		CHECK(k > 0, "job %u has kept failures", job);
	}
	for (uint32_t i = 1; i < res.nfailures; i++)
		CHECK(res.failures[i].time_ns >= res.failures[i - 1].time_ns, "kept by time");
	sc_rank_result_exit(&res);

	plan.phases[0].io.on_error = SC_ON_ERROR_STOP_PHASE;
	plan.phases[0].io.iodepth = 1;
	rc = run_phase_full(&plan, &res, NO_STOP, NULL, &aborted);
	CHECK(rc == -EIO && !aborted && strstr(res.error, strerror(EIO)),
	      "stop-phase: rc %d, error \"%s\"", rc, res.error);
	CHECK(res.errors >= 1 && res.errors <= INJ_JOBS && res.nfailures == res.errors,
	      "stop-phase: %llu failed", (unsigned long long)res.errors);
	CHECK(res.ios[SC_DIR_WRITE] <= INJ_JOBS * (INJ_EVERY - 1),
	      "stop-phase: every job stops by its first failure: %llu writes",
	      (unsigned long long)res.ios[SC_DIR_WRITE]);
	sc_rank_result_exit(&res);

	plan.phases[0].io.on_error = SC_ON_ERROR_ABORT;
	rc = run_phase_full(&plan, &res, NO_STOP, NULL, &aborted);
	CHECK(rc == -EIO && aborted, "abort: rc %d, aborted %d", rc, aborted);
	sc_rank_result_exit(&res);
	CHECK(close_run() == 0, "cleanup");
	sc_plan_exit(&plan);
}

int main(void)
{
	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_job");
	int fd = open(tmpdir, O_RDONLY | O_DIRECTORY);
	char probe[300];
	snprintf(probe, sizeof(probe), "%s/probe", tmpdir);
	int pfd = open(probe, O_CREAT | O_RDWR | O_DIRECT, 0644);
	close(fd);
	if (pfd < 0) {
		printf("SKIP: %s does not support O_DIRECT\n", tmpdir);
		rmdir(tmpdir);
		return CHECK_SKIP;
	}
	close(pfd);
	unlink(probe);

	test_layout();
	test_write_then_read(SC_ENGINE_URING);
	test_write_then_read(SC_ENGINE_PSYNC);
	test_write_then_read(SC_ENGINE_NULL);
	test_layout_before_read();
	test_mix_and_stop();
	test_io_error();
	test_offset_on_dir();
	test_open_loop_rate(SC_ENGINE_NULL);
	test_open_loop_rate(SC_ENGINE_URING);
	test_open_loop_budget();
	test_open_loop_saturated();
	test_open_loop_stop();
	test_inject_on_error();
	test_throttled_drive(SC_ENGINE_NULL, 1);
	test_throttled_drive(SC_ENGINE_PSYNC, 1);
	test_throttled_drive(SC_ENGINE_URING, 2);

	char rundir[400];
	snprintf(rundir, sizeof(rundir), "%s/ssdcluster-test", tmpdir);
	rmdir(rundir);
	CHECK(rmdir(tmpdir) == 0, "temp dir %s not empty after cleanup", tmpdir);
	return check_exit("test_job");
}
