/* test_key_table.c -- key_table.h, checked where the compiler cannot:
 * every row is whole, every built-in default is a value of its key in each
 * workload that takes it, and each row's plan member is the field this
 * test names by hand (a config setting the key to a value of its own is
 * loaded, and the field read by name).  A new row with a plan member fails
 * here until this test names its field. */
#include "config/config.h"
#include "config/schema.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mlperf.h"
#include "plan.h"

static char dir[256];

/* ---- the rows ---- */

static void check_rows(void)
{
	for (int k = 0; k < PK_COUNT; k++) {
		const struct cfg_keyrow *r = &sc_cfg_keys[k];

		CHECK(r->name && *r->name, "row %d has a name", k);
		if (!r->name)
			continue;
		CHECK(strcmp(sc_cfg_phase_keys[k], r->name) == 0, "%s: the name table agrees",
		      r->name);
		CHECK(r->takes != 0, "%s: some workload takes it", r->name);
		CHECK(r->help && *r->help && !strchr(r->help, '\n') && strlen(r->help) <= 100,
		      "%s: one line of help, at most 100 characters", r->name);
		CHECK(r->dflt && *r->dflt, "%s: a default column (\"-\" for none)", r->name);
		CHECK(r->plan_bytes == 0 || r->plan_bytes == 1 || r->plan_bytes == 4 ||
			  r->plan_bytes == 8,
		      "%s: a plan member of 1, 4 or 8 bytes, not %zu", r->name, r->plan_bytes);
		CHECK(r->u64 || r->plan_bytes == 0,
		      "%s: only a U64 row is copied into the plan by the table", r->name);
		for (int j = 0; j < k; j++)
			CHECK(strcmp(sc_cfg_keys[j].name, r->name) != 0, "%s: one row", r->name);
	}
	for (int k = 0; k < TK_COUNT; k++)
		CHECK(sc_cfg_target_help[k] && *sc_cfg_target_help[k] && sc_cfg_target_dflt[k],
		      "target key %s: help and default", sc_cfg_target_keys[k]);
}

/* ---- the defaults ---- */

/* Every default the table gives, parsed as the config's value would be
 * (the parser reports the first that is not a value of its key). */
static void check_defaults(void)
{
	for (int k = 0; k < PK_COUNT; k++) {
		for (int w = 0; w < SC_WORKLOAD_COUNT; w++) {
			char text[96], err[512] = "";
			struct cfg_doc d = {
			    .file = "key_table.h", .err = err, .errlen = sizeof(err)};
			struct cfg_check c = {.d = &d};
			struct cfg_node n = {.kind = CFG_SCALAR, .plain = true, .path = "default"};
			int rc;

			if (!sc_cfg_takes((uint64_t)w, (enum pkey)k))
				continue;
			n.str = (char *)sc_cfg_default_text((enum pkey)k, (uint64_t)w, text,
							    sizeof(text));
			if (!n.str)
				continue;
			rc = sc_cfg_parse_key_alone(&c, (uint64_t)w, (enum pkey)k, &n);
			CHECK(rc == 0, "%s in workload %s: default \"%s\" parses (%s)",
			      sc_cfg_keys[k].name, sc_workload_name((enum sc_workload)w), text,
			      err);
		}
	}
	{
		char b[64];

		/* the syntax: the first value, unless the workload has its own */
		CHECK(strcmp(sc_cfg_default_said(PK_IODEPTH, SC_WORKLOAD_FILL, b, sizeof(b)),
			     "32") == 0,
		      "iodepth's fill default is 32, got %s", b);
		CHECK(strcmp(sc_cfg_default_said(PK_IODEPTH, SC_WORKLOAD_IO, b, sizeof(b)), "1") ==
			  0,
		      "iodepth's io default is 1, got %s", b);
		CHECK(sc_cfg_default_text(PK_RW, SC_WORKLOAD_IO, b, sizeof(b)) == NULL,
		      "rw has no default in io");
		CHECK(sc_cfg_default_text(PK_SIZE, SC_WORKLOAD_FILL, b, sizeof(b)) == NULL,
		      "a fill's size is worked out by the code");
	}
}

/* ---- plan members ---- */

/* One key set in a config of one workload, and the field it must reach. */
struct member_case {
	enum pkey key;
	const char *value;
	uint64_t want;
	uint64_t (*field)(const struct sc_phase *ph);
};

#define FIELD(fn, expr)                                                                            \
	static uint64_t fn(const struct sc_phase *ph)                                              \
	{                                                                                          \
		return (uint64_t)(expr);                                                           \
	}
FIELD(f_workload, ph->workload)
FIELD(f_jobs, ph->io.jobs)
FIELD(f_size, ph->io.size_bytes)
FIELD(f_runtime, ph->io.runtime_ns)
FIELD(f_io_size, ph->io.io_bytes)
FIELD(f_ramp, ph->io.ramp_ns)
FIELD(f_direct, ph->io.direct)
FIELD(f_engine, ph->io.engine)
FIELD(f_seed, ph->io.seed)
FIELD(f_stonewall, ph->stonewall)
FIELD(f_rate, ph->io.rate_iops)
FIELD(f_tp, ph->ckpt.layout.tp)
FIELD(f_pp, ph->ckpt.layout.pp)
FIELD(f_dp, ph->ckpt.layout.dp)
FIELD(f_zero, ph->ckpt.layout.zero_stage)
FIELD(f_checkpoints, ph->ckpt.checkpoints)
FIELD(f_bs, ph->io.bs_bytes)
FIELD(f_files, ph->ingest.files)
FIELD(f_file_size, ph->ingest.file_bytes)
FIELD(f_sample_size, ph->ingest.sample_bytes)
FIELD(f_batch, ph->ingest.batch)
FIELD(f_cpb, ph->ingest.compute_per_batch_ns)
FIELD(f_epochs, ph->ingest.epochs)
FIELD(f_prefetch, ph->ingest.prefetch)
FIELD(f_step_barrier, ph->ingest.step_barrier)
FIELD(f_verify, ph->io.verify)
FIELD(f_verify_only, ph->io.verify_only)
FIELD(f_on_error, ph->io.on_error)
FIELD(f_timeout, ph->io.timeout_ns)
FIELD(f_serialize, ph->ckpt.serialize)
FIELD(f_layout, ph->ckpt.layout.kind)
FIELD(f_keep_last, ph->ckpt.keep_last)
FIELD(f_procedure, ph->ckpt.procedure)
FIELD(f_passes, ph->fill.passes)
FIELD(f_random_passes, ph->fill.random_passes)
FIELD(f_random_bs, ph->fill.random_bs_bytes)
FIELD(f_sqpoll, ph->io.sqpoll)
FIELD(f_hipri, ph->io.hipri)
FIELD(f_huge_buffers, ph->io.huge_buffers)
FIELD(f_submit_batch, ph->io.submit_batch)
FIELD(f_preallocate, ph->io.preallocate)
FIELD(f_passthrough, ph->io.passthrough)
FIELD(f_numa, ph->io.numa)
FIELD(f_offset, ph->io.offset_bytes)
FIELD(f_end_fsync, ph->io.end_fsync)
FIELD(f_invalidate, ph->io.invalidate)
FIELD(f_fadvise_hint, ph->io.fadvise_hint)
FIELD(f_runtime_max, ph->io.runtime_max_ns)
FIELD(f_benchmark, ph->training.benchmark)
FIELD(f_accelerator, ph->training.accelerator)
FIELD(f_samples_per_file, ph->training.samples_per_file)
FIELD(f_record_size, ph->training.record_bytes)
FIELD(f_record_size_stdev, ph->training.record_stdev_bytes)
FIELD(f_prefetch_size, ph->training.prefetch_size)
FIELD(f_computation_time, ph->training.computation_ns)
FIELD(f_transfer_size, ph->training.transfer_bytes)
FIELD(f_client_memory, ph->training.client_memory_bytes)
FIELD(f_accelerators_per_rank, ph->training.accelerators_per_rank)

#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define NS  UINT64_C(1000000000)

/* The config each case's key is set in (its workload's keys besides). */
static const char *base_of(enum pkey k)
{
	if (k == PK_OFFSET) /* on a file target: check_member makes one */
		return "workload: io\n    rw: read\n    size: 64KiB\n";
	if (sc_cfg_takes(SC_WORKLOAD_IO, k) && k != PK_VERIFY_ONLY && k != PK_RUNTIME &&
	    k != PK_RAMP)
		return "workload: io\n    rw: write\n    bs: 4KiB\n    size: 1MiB\n";
	if (k == PK_RAMP)
		return "workload: io\n    rw: read\n    size: 1MiB\n    runtime: 5s\n";
	if (k == PK_RUNTIME)
		return "workload: io\n    rw: read\n    size: 1MiB\n";
	if (k == PK_VERIFY_ONLY)
		return "workload: io\n    rw: read\n    size: 1MiB\n";
	if (sc_cfg_takes(SC_WORKLOAD_CHECKPOINT, k))
		return "workload: checkpoint\n    model: {layers: 4, hidden: 64, ffn_hidden: 128,"
		       " heads: 4, vocab: 256}\n    scale: 0.001\n    dp: 1\n";
	if (sc_cfg_takes(SC_WORKLOAD_INGEST, k))
		return "workload: ingest\n    files: 2\n    file_size: 1MiB\n"
		       "    sample_size: 64KiB\n";
	if (sc_cfg_takes(SC_WORKLOAD_FILL, k))
		return "workload: fill\n    size: 1MiB\n";
	if (sc_cfg_takes(SC_WORKLOAD_TRAINING, k))
		return "workload: training\n    benchmark: retinanet\n    accelerator: b200\n";
	return "workload: idle\n";
}

static const struct member_case cases[] = {
    {PK_WORKLOAD, "kvcache", SC_WORKLOAD_KVCACHE, f_workload},
    {PK_JOBS, "3", 3, f_jobs},
    {PK_SIZE, "2MiB", 2 * MIB, f_size},
    {PK_RUNTIME, "7s", 7 * NS, f_runtime},
    {PK_IO_SIZE, "3MiB", 3 * MIB, f_io_size},
    {PK_RAMP, "2s", 2 * NS, f_ramp},
    {PK_DIRECT, "false", 0, f_direct},
    {PK_ENGINE, "psync", SC_ENGINE_PSYNC, f_engine},
    {PK_SEED, "4242", 4242, f_seed},
    {PK_STONEWALL, "first_done", SC_STONEWALL_FIRST_DONE, f_stonewall},
    {PK_RATE, "700/s", 700, f_rate},
    {PK_TP, "2", 2, f_tp},
    {PK_PP, "2", 2, f_pp},
    {PK_DP, "5", 5, f_dp},
    {PK_ZERO, "2", 2, f_zero},
    {PK_CHECKPOINTS, "3", 3, f_checkpoints},
    {PK_BLOCK_SIZE, "2MiB", 2 * MIB, f_bs},
    {PK_FILES, "5", 5, f_files},
    {PK_FILE_SIZE, "2MiB", 2 * MIB, f_file_size},
    {PK_SAMPLE_SIZE, "32KiB", 32 * KIB, f_sample_size},
    {PK_BATCH, "9", 9, f_batch},
    {PK_COMPUTE_PER_BATCH, "3ms", 3000000, f_cpb},
    {PK_EPOCHS, "4", 4, f_epochs},
    {PK_PREFETCH, "6", 6, f_prefetch},
    {PK_STEP_BARRIER, "false", 0, f_step_barrier},
    {PK_VERIFY, "crc32c", SC_VERIFY_CRC32C, f_verify},
    {PK_VERIFY_ONLY, "true", 1, f_verify_only},
    {PK_ON_ERROR, "continue", SC_ON_ERROR_CONTINUE, f_on_error},
    {PK_TIMEOUT, "1h", 3600 * NS, f_timeout},
    {PK_SERIALIZE, "torch", SC_SERIALIZE_TORCH, f_serialize},
    {PK_LAYOUT, "sharded", SC_CKPT_LAYOUT_SHARDED, f_layout},
    {PK_KEEP_LAST, "2", 2, f_keep_last},
    {PK_PROCEDURE, "mlperf", SC_PROCEDURE_MLPERF, f_procedure},
    {PK_PASSES, "3", 3, f_passes},
    {PK_RANDOM_PASSES, "2", 2, f_random_passes},
    {PK_RANDOM_BS, "8KiB", 8 * KIB, f_random_bs},
    {PK_IDLE, "9s", 9 * NS, f_runtime},
    {PK_SQPOLL, "true", 1, f_sqpoll},
    {PK_HIPRI, "true", 1, f_hipri},
    {PK_HUGE_BUFFERS, "true", 1, f_huge_buffers},
    {PK_SUBMIT_BATCH, "6", 6, f_submit_batch},
    {PK_PREALLOCATE, "fallocate", SC_PREALLOC_FALLOCATE, f_preallocate},
    {PK_PASSTHROUGH, "true", 1, f_passthrough},
    {PK_NUMA, "drive", SC_NUMA_DRIVE, f_numa},
    {PK_OFFSET, "8KiB", 8 * KIB, f_offset},
    {PK_END_FSYNC, "true", 1, f_end_fsync},
    {PK_INVALIDATE, "true", 1, f_invalidate},
    {PK_FADVISE_HINT, "true", 1, f_fadvise_hint},
    {PK_RUNTIME_MAX, "7s", 7 * NS, f_runtime_max},
    {PK_BENCHMARK, "unet3d", SC_MLPERF_UNET3D, f_benchmark},
    {PK_ACCELERATOR, "mi355", SC_MLPERF_MI355, f_accelerator},
    {PK_SAMPLES_PER_FILE, "3", 3, f_samples_per_file},
    {PK_RECORD_SIZE, "300KB", 300000, f_record_size},
    {PK_RECORD_SIZE_STDEV, "1KB", 1000, f_record_size_stdev},
    {PK_PREFETCH_SIZE, "9", 9, f_prefetch_size},
    {PK_COMPUTATION_TIME, "25ms", 25000000, f_computation_time},
    {PK_TRANSFER_SIZE, "256KiB", 256 * KIB, f_transfer_size},
    {PK_CLIENT_MEMORY, "64GiB", 64 * 1024 * MIB, f_client_memory},
    {PK_ACCELERATORS_PER_RANK, "3", 3, f_accelerators_per_rank},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* A file of len zero bytes at path.  0 or -1. */
static int truncate_file(const char *path, off_t len)
{
	FILE *f = fopen(path, "w");
	int rc = f && ftruncate(fileno(f), len) == 0 ? 0 : -1;

	if (f)
		fclose(f);
	return rc;
}

static void check_member(const struct member_case *mc)
{
	const char *key = sc_cfg_keys[mc->key].name;
	char path[512], text[1024], err[1024] = "", set[128];
	const char *const sets[] = {set};
	struct sc_config *cfg = NULL;
	FILE *f;
	int rc;

	/* the key by --set: it replaces what the base says; offset places
	 * regions in a file (a directory target refuses it) */
	snprintf(path, sizeof(path), "%s/t%s", dir, mc->key == PK_OFFSET ? ".img" : "");
	if (mc->key == PK_OFFSET && truncate_file(path, MIB))
		FAIL("cannot make %s", path);
	snprintf(text, sizeof(text), "targets:\n  - path: %s\nphases:\n  - %s", path,
		 mc->key == PK_IDLE ? "idle: 1s\n" : base_of(mc->key));
	snprintf(set, sizeof(set), "phases.0.%s=%s", key, mc->value);
	if (mc->key == PK_WORKLOAD) /* a kvcache phase of its own */
		snprintf(text, sizeof(text),
			 "targets:\n  - path: %s/t\nphases:\n  - workload: %s\n", dir, mc->value);
	snprintf(path, sizeof(path), "%s/%s.yaml", dir, key);
	f = fopen(path, "w");
	if (!f) {
		FAIL("cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
	rc = sc_config_load(&cfg, path, sets, mc->key == PK_WORKLOAD ? 0 : 1, err, sizeof(err));
	CHECK(rc == 0, "%s: %s: the config loads (%s)\n%s--set %s", key, mc->value, err, text, set);
	if (rc == 0) {
		const struct sc_plan *plan = sc_config_plan(cfg);
		uint64_t got = plan->nphases ? mc->field(&plan->phases[0]) : UINT64_MAX;

		CHECK(got == mc->want, "%s: %s reaches its plan field: %" PRIu64 ", want %" PRIu64,
		      key, mc->value, got, mc->want);
	}
	sc_config_destroy(cfg);
}

static void check_members(void)
{
	for (int k = 0; k < PK_COUNT; k++) {
		size_t i = 0;

		while (i < NCASES && cases[i].key != (enum pkey)k)
			i++;
		if (sc_cfg_keys[k].plan_bytes)
			CHECK(i < NCASES, "%s has a plan member: name its field in cases[]",
			      sc_cfg_keys[k].name);
		if (i < NCASES)
			check_member(&cases[i]);
	}
}

int main(void)
{
	check_mkdtemp(dir, sizeof(dir), "key_table");
	check_rows();
	check_defaults();
	check_members();
	check_rmtree(dir);
	return check_exit("test_key_table");
}
