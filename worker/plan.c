/* plan.c -- plan lifetime and the names of its enums. */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* sc_<enum>_names, sc_<enum>_name and sc_<enum>_parse (plan.h). */
SC_ENUM_NAMES_DEFINE(rw, enum sc_rw, SC_RW_COUNT,
		     [SC_RW_READ] = "read", [SC_RW_WRITE] = "write",
		     [SC_RW_RANDREAD] = "randread", [SC_RW_RANDWRITE] = "randwrite",
		     [SC_RW_RANDRW] = "randrw", [SC_RW_READWRITE] = "readwrite")
SC_ENUM_NAMES_DEFINE(engine, enum sc_engine_kind, SC_ENGINE_COUNT,
		     [SC_ENGINE_URING] = "io_uring", [SC_ENGINE_PSYNC] = "psync",
		     [SC_ENGINE_NULL] = "null", [SC_ENGINE_EMULATED] = "emulated")
SC_ENUM_NAMES_DEFINE(target_kind, enum sc_target_kind, SC_TARGET_COUNT,
		     [SC_TARGET_DIR] = "directory", [SC_TARGET_FILE] = "file",
		     [SC_TARGET_BLOCK] = "block device")
SC_ENUM_NAMES_DEFINE(workload, enum sc_workload, SC_WORKLOAD_COUNT,
		     [SC_WORKLOAD_IO] = "io", [SC_WORKLOAD_CHECKPOINT] = "checkpoint",
		     [SC_WORKLOAD_INGEST] = "ingest", [SC_WORKLOAD_KVCACHE] = "kvcache",
		     [SC_WORKLOAD_FILL] = "fill", [SC_WORKLOAD_IDLE] = "idle",
		     [SC_WORKLOAD_TRAINING] = "training")
SC_ENUM_NAMES_DEFINE(stonewall, enum sc_stonewall, SC_STONEWALL_COUNT,
		     [SC_STONEWALL_ALL_DONE] = "all_done", [SC_STONEWALL_FIRST_DONE] = "first_done")
SC_ENUM_NAMES_DEFINE(verify, enum sc_verify, SC_VERIFY_COUNT,
		     [SC_VERIFY_NONE] = "none", [SC_VERIFY_CRC32C] = "crc32c")
SC_ENUM_NAMES_DEFINE(on_error, enum sc_on_error, SC_ON_ERROR_COUNT,
		     [SC_ON_ERROR_STOP_PHASE] = "stop-phase", [SC_ON_ERROR_CONTINUE] = "continue",
		     [SC_ON_ERROR_ABORT] = "abort")
SC_ENUM_NAMES_DEFINE(serialize, enum sc_serialize, SC_SERIALIZE_COUNT,
		     [SC_SERIALIZE_RAW] = "raw", [SC_SERIALIZE_TORCH] = "torch")
SC_ENUM_NAMES_DEFINE(ckpt_layout, enum sc_ckpt_layout_kind, SC_CKPT_LAYOUT_COUNT,
		     [SC_CKPT_LAYOUT_DLIO] = "dlio", [SC_CKPT_LAYOUT_SHARDED] = "sharded")
SC_ENUM_NAMES_DEFINE(procedure, enum sc_ckpt_procedure, SC_PROCEDURE_COUNT,
		     [SC_PROCEDURE_NONE] = "none", [SC_PROCEDURE_MLPERF] = "mlperf")
SC_ENUM_NAMES_DEFINE(numa, enum sc_numa, SC_NUMA_COUNT, [SC_NUMA_NONE] = "none",
		     [SC_NUMA_DRIVE] = "drive")
SC_ENUM_NAMES_DEFINE(preallocate, enum sc_preallocate, SC_PREALLOC_COUNT,
		     [SC_PREALLOC_NONE] = "none", [SC_PREALLOC_FALLOCATE] = "fallocate",
		     [SC_PREALLOC_WRITTEN] = "written")
SC_ENUM_NAMES_DEFINE(rand_dist, enum sc_rand_dist, SC_DIST_COUNT, [SC_DIST_RANDOM] = "random",
		     [SC_DIST_ZIPF] = "zipf", [SC_DIST_PARETO] = "pareto",
		     [SC_DIST_NORMAL] = "normal", [SC_DIST_ZONED] = "zoned")
SC_ENUM_NAMES_DEFINE(steady_metric, enum sc_steady_metric, SC_STEADY_METRIC_COUNT,
		     [SC_STEADY_IOPS] = "iops", [SC_STEADY_BW] = "bw", [SC_STEADY_LAT] = "lat")
SC_ENUM_NAMES_DEFINE(expect_metric, enum sc_expect_metric, SC_EXPECT_COUNT,
		     [SC_EXPECT_MIN_BW] = "min_bw",
		     [SC_EXPECT_MIN_BW_PER_NODE] = "min_bw_per_node",
		     [SC_EXPECT_MIN_BW_PER_DRIVE] = "min_bw_per_drive",
		     [SC_EXPECT_MIN_IOPS] = "min_iops",
		     [SC_EXPECT_MIN_IOPS_PER_NODE] = "min_iops_per_node",
		     [SC_EXPECT_MIN_IOPS_PER_DRIVE] = "min_iops_per_drive",
		     [SC_EXPECT_MAX_P99] = "max_p99", [SC_EXPECT_MAX_P99_99] = "max_p99_99",
		     [SC_EXPECT_MAX_READ_P99] = "max_read_p99",
		     [SC_EXPECT_MAX_READ_P99_99] = "max_read_p99_99",
		     [SC_EXPECT_MAX_WRITE_P99] = "max_write_p99",
		     [SC_EXPECT_MAX_WRITE_P99_99] = "max_write_p99_99",
		     [SC_EXPECT_MAX_CHECKPOINT_DURATION] = "max_checkpoint_duration",
		     [SC_EXPECT_MIN_AU] = "min_au", [SC_EXPECT_STEADY_STATE] = "steady_state",
		     [SC_EXPECT_NO_MEDIA_ERRORS] = "no_media_errors")

const char *sc_enum_name(const struct sc_enum_names *names, int v)
{
	return (v >= 0 && v < names->count) ? names->names[v] : "?";
}

int sc_enum_parse(const struct sc_enum_names *names, const char *s)
{
	for (int i = 0; s && i < names->count; i++)
		if (strcmp(names->names[i], s) == 0)
			return i;
	return -EINVAL;
}

bool sc_rw_reads(enum sc_rw rw)
{
	return rw == SC_RW_READ || rw == SC_RW_RANDREAD || sc_rw_mixed(rw);
}

bool sc_rw_writes(enum sc_rw rw)
{
	return rw == SC_RW_WRITE || rw == SC_RW_RANDWRITE || sc_rw_mixed(rw);
}

bool sc_rw_mixed(enum sc_rw rw)
{
	return rw == SC_RW_RANDRW || rw == SC_RW_READWRITE;
}

bool sc_rw_random(enum sc_rw rw)
{
	return rw == SC_RW_RANDREAD || rw == SC_RW_RANDWRITE || rw == SC_RW_RANDRW;
}

void sc_plan_exit(struct sc_plan *plan)
{
	if (!plan)
		return;
	for (uint32_t i = 0; i < plan->ntargets; i++) {
		free(plan->targets[i].path);
		free(plan->targets[i].hosts);
	}
	for (uint32_t i = 0; i < plan->nphases; i++) {
		free(plan->phases[i].name);
		free(plan->phases[i].group);
		free(plan->phases[i].io.emulate.read_cdf);
		free(plan->phases[i].io.emulate.write_cdf);
		free(plan->phases[i].expect);
	}
	for (uint32_t i = 0; i < plan->nmodel; i++) {
		free(plan->model[i].key);
		free(plan->model[i].value);
	}
	free(plan->model);
	free(plan->targets);
	free(plan->phases);
	free(plan->run_id);
	free(plan->config_path);
	memset(plan, 0, sizeof(*plan));
}
