/* plan.c -- plan lifetime and the names of its enums. */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const rw_names[SC_RW_COUNT] = {
	[SC_RW_READ] = "read",           [SC_RW_WRITE] = "write",
	[SC_RW_RANDREAD] = "randread",   [SC_RW_RANDWRITE] = "randwrite",
	[SC_RW_RANDRW] = "randrw",
};

static const char *const engine_names[SC_ENGINE_COUNT] = {
	[SC_ENGINE_URING] = "io_uring",
	[SC_ENGINE_PSYNC] = "psync",
	[SC_ENGINE_NULL] = "null",
};

static const char *const target_kind_names[SC_TARGET_COUNT] = {
	[SC_TARGET_DIR] = "directory",
	[SC_TARGET_FILE] = "file",
	[SC_TARGET_BLOCK] = "block device",
};

static const char *const workload_names[SC_WORKLOAD_COUNT] = {
	[SC_WORKLOAD_IO] = "io",
	[SC_WORKLOAD_CHECKPOINT] = "checkpoint",
	[SC_WORKLOAD_INGEST] = "ingest",
	[SC_WORKLOAD_KVCACHE] = "kvcache",
};

static const char *const stonewall_names[SC_STONEWALL_COUNT] = {
	[SC_STONEWALL_ALL_DONE] = "all_done",
	[SC_STONEWALL_FIRST_DONE] = "first_done",
};

static const char *const verify_names[SC_VERIFY_COUNT] = {
	[SC_VERIFY_NONE] = "none",
	[SC_VERIFY_CRC32C] = "crc32c",
};

static const char *const on_error_names[SC_ON_ERROR_COUNT] = {
	[SC_ON_ERROR_STOP_PHASE] = "stop-phase",
	[SC_ON_ERROR_CONTINUE] = "continue",
	[SC_ON_ERROR_ABORT] = "abort",
};

static int find_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (s && strcmp(names[i], s) == 0)
			return i;
	return -EINVAL;
}

static const char *name_of(const char *const *names, int n, int v)
{
	return (v >= 0 && v < n) ? names[v] : "?";
}

const char *sc_rw_name(enum sc_rw rw)
{
	return name_of(rw_names, SC_RW_COUNT, (int)rw);
}

int sc_rw_parse(const char *s)
{
	return find_name(rw_names, SC_RW_COUNT, s);
}

const char *sc_engine_name(enum sc_engine_kind e)
{
	return name_of(engine_names, SC_ENGINE_COUNT, (int)e);
}

int sc_engine_parse(const char *s)
{
	return find_name(engine_names, SC_ENGINE_COUNT, s);
}

const char *sc_target_kind_name(enum sc_target_kind k)
{
	return name_of(target_kind_names, SC_TARGET_COUNT, (int)k);
}

const char *sc_workload_name(enum sc_workload w)
{
	return name_of(workload_names, SC_WORKLOAD_COUNT, (int)w);
}

int sc_workload_parse(const char *s)
{
	return find_name(workload_names, SC_WORKLOAD_COUNT, s);
}

const char *sc_stonewall_name(enum sc_stonewall s)
{
	return name_of(stonewall_names, SC_STONEWALL_COUNT, (int)s);
}

int sc_stonewall_parse(const char *s)
{
	return find_name(stonewall_names, SC_STONEWALL_COUNT, s);
}

bool sc_rw_reads(enum sc_rw rw)
{
	return rw == SC_RW_READ || rw == SC_RW_RANDREAD || rw == SC_RW_RANDRW;
}

bool sc_rw_writes(enum sc_rw rw)
{
	return rw == SC_RW_WRITE || rw == SC_RW_RANDWRITE || rw == SC_RW_RANDRW;
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
	}
	free(plan->targets);
	free(plan->phases);
	free(plan->run_id);
	free(plan->config_path);
	memset(plan, 0, sizeof(*plan));
}

const char *sc_verify_name(enum sc_verify v)
{
	return name_of(verify_names, SC_VERIFY_COUNT, (int)v);
}

int sc_verify_parse(const char *s)
{
	return find_name(verify_names, SC_VERIFY_COUNT, s);
}

const char *sc_on_error_name(enum sc_on_error e)
{
	return name_of(on_error_names, SC_ON_ERROR_COUNT, (int)e);
}

int sc_on_error_parse(const char *s)
{
	return find_name(on_error_names, SC_ON_ERROR_COUNT, s);
}
