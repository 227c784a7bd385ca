/* test_ckpt_rings.c -- a checkpoint keeps one io_uring ring per job thread
 * for all its files, set up before the timed window.
 *
 * Two job threads write a checkpoint of 64 small files through io_uring,
 * read it back, and read it back again through the fault-injecting wrapper
 * around io_uring: each phase sets up exactly two rings, both while it is
 * prepared (sc_run_create) and none while it runs; every file is whole, and
 * the counts (files, bytes, fsyncs) are exact.
 *
 * Exit 0 pass, 1 fail, 77 skip (io_uring not available).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ckpt_model.h"
#include "engine/engine.h"
#include "run.h"
#include "layout.h"
#include "plan.h"
#include "rundir.h"

#define JOBS	      2u
#define FILES	      64u	  /* the checkpoint of rank 0 */
/* Layers such that stage 0 of 2 holds 63 of them (with the embedding):
 * 63 model-state files and one optimizer file. */
#define LAYERS	      124u
#define SCALE	      1e-6	  /* a few KiB per file */
#define BS	      (64u << 10)
#define DEPTH	      4u
#define NEVER_FAILS   (1ull << 40) /* inject: every so many I/Os, none here */
#define PHASE_WRITE   0u
#define PHASE_RESTORE 1u
#define PHASE_INJECT  2u
#define NPHASES	      3u

static char tmpdir[256];

/* Phase p: checkpoint 1 of the model, written (p 0) or read back. */
static void fill_phase(struct sc_phase *ph, uint32_t p)
{
	ph->workload = SC_WORKLOAD_CHECKPOINT;
	ph->io.bs_bytes = BS;
	ph->io.iodepth = DEPTH;
	ph->io.jobs = JOBS;
	ph->io.engine = SC_ENGINE_URING;
	ph->io.seed = 11;
	CHECK(sc_ckpt_model_lookup("llama3-8b", &ph->ckpt.model) == 0, "llama3-8b is known");
	ph->ckpt.model.layers = LAYERS;
	ph->ckpt.layout = (struct sc_ckpt_layout){.tp = 1, .pp = 2, .dp = 1, .zero_stage = 1};
	ph->ckpt.checkpoints = 1;
	ph->ckpt.index = 1;
	ph->ckpt.scale = SCALE;
	ph->ckpt.fsync = true;
	ph->ckpt.restore = p != PHASE_WRITE;
	if (p == PHASE_INJECT)
		ph->io.inject = (struct sc_inject){.every = NEVER_FAILS, .errno_val = EIO};
}

/* Runs phase p as rank 0; checks the rings it set up and its counts. */
static void run_phase(const struct sc_plan *plan, uint32_t p, const struct sc_rundir *rd,
		      uint64_t files_bytes)
{
	struct sc_place place = {.rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	const char *names[NPHASES] = {"write", "restore", "restore through inject"};
	uint64_t rings = sc_engine_uring_rings(), set_up;
	struct sc_rank_result res;
	struct sc_run *run = NULL;
	int dir = plan->phases[p].ckpt.restore ? 0 : 1;
	char err[512];
	int rc;

	check_context = names[p];
	rc = sc_run_create(&run, plan, p, &place, rd, err, sizeof(err));
	if (rc) {
		FAIL("sc_run_create: %s", err);
		return;
	}
	set_up = sc_engine_uring_rings() - rings;
	CHECK(set_up == JOBS, "%llu rings set up before the start, want one per job (%u)",
	      (unsigned long long)set_up, JOBS);
	sc_run_start(run, sc_now_ns());
	while (!sc_run_done(run))
		usleep(1000);
	rc = sc_run_finish(run, &res);
	CHECK(rc == 0, "phase failed: %s", res.error);
	set_up = sc_engine_uring_rings() - rings;
	CHECK(set_up == JOBS, "%llu rings set up in all, want %u: none in the timed window",
	      (unsigned long long)set_up, JOBS);
	CHECK(res.files == FILES, "%llu files done, want %u", (unsigned long long)res.files, FILES);
	CHECK(res.bytes[dir] == files_bytes && res.bytes[!dir] == 0,
	      "%llu B moved, want %llu", (unsigned long long)res.bytes[dir],
	      (unsigned long long)files_bytes);
	CHECK(res.fsyncs == (dir ? FILES : 0), "%llu fsyncs", (unsigned long long)res.fsyncs);
	CHECK(res.errors == 0, "%llu failed I/Os", (unsigned long long)res.errors);
	sc_rank_result_exit(&res);
	sc_run_destroy(run);
	check_context = NULL;
}

/* Every file of the checkpoint is there, at its size. */
static void check_files(const struct sc_plan *plan, const struct sc_ckpt_file *files, uint32_t n)
{
	char dir[4096], path[4400];
	struct stat st;

	CHECK(sc_layout_ckpt_dir(plan, 0, PHASE_WRITE, dir, sizeof(dir)) == 0, "checkpoint dir");
	for (uint32_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		CHECK(stat(path, &st) == 0 && (uint64_t)st.st_size == files[i].bytes,
		      "%s: not %llu B", path, (unsigned long long)files[i].bytes);
	}
}

/* 0, or why io_uring cannot be used here (compiled out, sysctl). */
static int uring_missing(void)
{
	struct sc_engine *e;
	int ret = sc_engine_uring.create(&e, &(struct sc_engine_conf){.depth = 1});

	if (!ret)
		sc_engine_uring.destroy(e);
	return ret;
}

int main(void)
{
	struct sc_place place = {.rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};
	struct sc_ckpt_file *files = NULL;
	struct sc_rundir rd;
	struct sc_plan plan;
	uint64_t bytes = 0;
	uint32_t n = 0;
	char err[512];
	int rc = uring_missing();

	if (rc) {
		printf("SKIP io_uring: %s\n", strerror(-rc));
		return CHECK_SKIP;
	}
	check_mkdtemp(tmpdir, sizeof(tmpdir), "sc_test_ckpt_rings");
	check_plan_dir(&plan, tmpdir, "rings", "ckpt", NPHASES);
	for (uint32_t p = 0; p < NPHASES; p++)
		fill_phase(&plan.phases[p], p);
	CHECK(sc_layout_ckpt_files(&plan, PHASE_WRITE, 0, &files, &n) == 0 && n == FILES,
	      "rank 0's checkpoint has %u files, want %u", n, FILES);
	for (uint32_t i = 0; i < n; i++)
		bytes += files[i].bytes;

	sc_rundir_init(&rd);
	if (sc_rundir_create(&rd, &plan, &place, "key", err, sizeof(err)) == 0) {
		run_phase(&plan, PHASE_WRITE, &rd, bytes);
		check_files(&plan, files, n);
		run_phase(&plan, PHASE_RESTORE, &rd, bytes);
		run_phase(&plan, PHASE_INJECT, &rd, bytes);
		CHECK(sc_rundir_remove(&rd) == 0, "removing the run directory");
	} else {
		FAIL("run directory: %s", err);
	}
	sc_rundir_exit(&rd);
	free(files);
	sc_plan_exit(&plan);
	check_rmtree(tmpdir);
	return check_exit("test_ckpt_rings");
}
