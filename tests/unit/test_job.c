/* test_job.c -- the phase runner: exact byte counts, files where the layout
 * says, data laid out before reads, fsync counts, stop, errors; and the
 * layout's placement and capacity arithmetic. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "job.h"
#include "layout.h"
#include "pattern.h"
#include "plan.h"

static char tmpdir[256];

static void plan_one(struct sc_plan *plan, enum sc_rw rw, enum sc_engine_kind engine,
		     uint32_t jobs, uint64_t bs, uint32_t depth, uint64_t size, uint64_t io_bytes)
{
	memset(plan, 0, sizeof(*plan));
	plan->run_id = strdup("test");
	plan->ntargets = 1;
	plan->targets = calloc(1, sizeof(*plan->targets));
	plan->targets[0].path = strdup(tmpdir);
	plan->targets[0].kind = SC_TARGET_DIR;
	plan->targets[0].capacity_bytes = 1ull << 30;
	plan->nphases = 1;
	plan->phases = calloc(1, sizeof(*plan->phases));
	plan->phases[0].name = strdup("p");
	plan->phases[0].group = strdup("p");
	plan->phases[0].ncells = 1;
	struct sc_io_spec *io = &plan->phases[0].io;
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

/* Runs phase 0 of plan as rank 3 and returns sc_run_finish's code. */
static int run_phase(const struct sc_plan *plan, struct sc_rank_result *res, int stop_early)
{
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};
	struct sc_run *run = NULL;
	char err[512];
	int rc = sc_run_create(&run, plan, 0, &place, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "sc_run_create: %s\n", err);
		return rc;
	}
	sc_run_start(run, sc_now_ns() + 1000000);
	if (stop_early)
		sc_run_stop(run);
	while (!sc_run_done(run))
		usleep(1000);
	rc = sc_run_finish(run, res);
	CHECK(sc_run_hist(run, 0) != NULL, "histogram after finish");
	if (sc_run_hist(run, 0))
		CHECK(sc_run_hist(run, 0)->count == res->ios[0], "read histogram holds every read");
	sc_run_destroy(run);
	return rc;
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

	CHECK(sc_run_cleanup(&plan, &place) == 0, "cleanup");
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
	CHECK(run_phase(&plan, &res, 0) == 0, "read of a new file: %s", res.error);
	CHECK(res.bytes[0] == 256u << 10, "read all 256 KiB");
	sc_layout_job_file(&plan, &place, 0, 0, path, sizeof(path), &off);
	CHECK(stat(path, &st) == 0 && st.st_size == 256 << 10, "file laid out to 256 KiB");
	sc_rank_result_exit(&res);
	sc_run_cleanup(&plan, &place);
	sc_plan_exit(&plan);
}

static void test_mix_and_stop(void)
{
	struct sc_plan plan;
	struct sc_rank_result res;
	struct sc_place place = {.rank = 3, .target = 0, .slot = 0, .nslots = 1};

	plan_one(&plan, SC_RW_RANDRW, SC_ENGINE_NULL, 1, 4096, 16, 1 << 20, 40000ull * 4096);
	CHECK(run_phase(&plan, &res, 0) == 0, "null randrw");
	CHECK(res.bytes[0] + res.bytes[1] == 40000ull * 4096, "randrw moves exactly io_size");
	double share = (double)res.ios[0] / (double)(res.ios[0] + res.ios[1]);
	CHECK(share > 0.68 && share < 0.72, "read share %.3f not near 70%%", share);
	sc_rank_result_exit(&res);

	/* a time-based phase stopped at once ends early */
	plan.phases[0].io.runtime_ns = 60ull * 1000000000ull;
	plan.phases[0].io.io_bytes = 0;
	CHECK(run_phase(&plan, &res, 1) == 0, "stopped run");
	CHECK(res.end_ns < 5ll * 1000000000ll, "stop ends a 60 s phase early");
	sc_rank_result_exit(&res);
	sc_run_cleanup(&plan, &place);
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

static void test_layout(void)
{
	struct sc_plan plan;
	struct sc_place pl;
	char path[512];
	uint64_t off, rd, wr;

	plan_one(&plan, SC_RW_RANDRW, SC_ENGINE_NULL, 4, 4096, 1, 1 << 20, 1 << 20);
	/* two targets: local ranks alternate, slots count per target */
	plan.ntargets = 2;
	plan.targets = realloc(plan.targets, 2 * sizeof(*plan.targets));
	plan.targets[1] = plan.targets[0];
	plan.targets[1].path = strdup("/dev/fake");
	plan.targets[1].kind = SC_TARGET_BLOCK;
	plan.targets[1].hosts = NULL;
	CHECK(sc_layout_place(&plan, "h", 5, 3, 5, &pl) == 0, "place");
	CHECK(pl.target == 1 && pl.slot == 1 && pl.nslots == 2, "local 3 of 5: target 1 slot 1 of 2"
	      " (got %u %u %u)", pl.target, pl.slot, pl.nslots);
	CHECK(sc_layout_place(&plan, "h", 4, 2, 5, &pl) == 0 && pl.target == 0 && pl.slot == 1 &&
		      pl.nslots == 3,
	      "local 2 of 5: target 0 slot 1 of 3");
	sc_layout_place(&plan, "h", 5, 3, 5, &pl);
	sc_layout_job_file(&plan, &pl, 0, 2, path, sizeof(path), &off);
	CHECK(strcmp(path, "/dev/fake") == 0 && off == (1 * 4 + 2) * (1ull << 20),
	      "block region of slot 1 job 2: %s @ %llu", path, (unsigned long long)off);
	CHECK(sc_layout_need_bytes(&plan, 1, 2) == 2 * 4 * (1ull << 20), "block need");
	CHECK(sc_layout_need_bytes(&plan, 0, 3) == 3 * 4 * (1ull << 20), "dir need");
	sc_layout_rank_bytes(&plan, 0, &pl, &rd, &wr);
	CHECK(rd + wr == 4 * (1ull << 20) && rd == 179 * 4096 * 4, "randrw split %llu/%llu",
	      (unsigned long long)rd, (unsigned long long)wr);
	/* a host pattern that matches nothing */
	free(plan.targets[0].hosts);
	plan.targets[0].hosts = strdup("gpu*");
	plan.targets[1].hosts = strdup("gpu*");
	CHECK(sc_layout_place(&plan, "cpu1", 0, 0, 1, &pl) == -ENOENT, "no target for cpu1");
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
		return 77;
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

	char rundir[400];
	snprintf(rundir, sizeof(rundir), "%s/ssdcluster-test", tmpdir);
	rmdir(rundir);
	CHECK(rmdir(tmpdir) == 0, "temp dir %s not empty after cleanup", tmpdir);
	return check_exit("test_job");
}
