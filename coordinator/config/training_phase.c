/* training_phase.c -- the training phases of the config (MLPerf Storage v3.0
 * as DLIO runs it, worker/mlperf.h): each value from the benchmark and
 * accelerator's workload file unless the phase gives it, their plan phase,
 * and what the ranks decide (accelerators, the clients' memory, the
 * rules' minimum of files) once they are placed. */
#include "schema.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "mlperf.h"
#include "units.h"
#include "validate.h"

/* DLIO's prefetch_size where a workload file sets none (mlperf.c's table
 * takes it too). */
#define DLIO_PREFETCH_DEFAULT 2u

/* The values a workload file gives; without one, the phase gives them
 * all (record_size_stdev, prefetch_size and transfer_size have defaults
 * of their own, and files the rules' minimum only with a pair). */
static const enum pkey pair_keys[] = {PK_SAMPLES_PER_FILE, PK_RECORD_SIZE, PK_BATCH, PK_JOBS,
				      PK_COMPUTATION_TIME, PK_EPOCHS,	   PK_AU,    PK_FILES};
#define NPAIR_KEYS (sizeof(pair_keys) / sizeof(pair_keys[0]))

/* Key k (a U64 row) of pv, unless the phase or defaults: gave it. */
static void take(struct cfg_phase *pv, enum pkey k, uint64_t v)
{
	if (!pv->src[k])
		*(uint64_t *)((char *)pv + sc_cfg_keys[k].pv_off) = v;
}

/* pv's values not given from workload file w. */
static void take_pair(struct cfg_phase *pv, const struct sc_mlperf_workload *w)
{
	take(pv, PK_SAMPLES_PER_FILE, w->samples_per_file);
	take(pv, PK_RECORD_SIZE, w->record_bytes);
	take(pv, PK_RECORD_SIZE_STDEV, w->record_stdev_bytes);
	take(pv, PK_BATCH, w->batch);
	take(pv, PK_JOBS, w->read_threads);
	take(pv, PK_PREFETCH_SIZE, w->prefetch_size);
	take(pv, PK_COMPUTATION_TIME, w->computation_ns);
	take(pv, PK_EPOCHS, w->epochs);
	if (!pv->src[PK_AU]) /* an OWN row: a double of its own */
		pv->au = w->au;
}

/* What v3.0 has, into buf: with benchmark b (>= 0) its accelerators
 * ("unet3d on b200, h100, a100"), with accelerator a its benchmarks
 * ("unet3d, resnet50, cosmoflow on h100"), with neither every benchmark's
 * ("unet3d on b200, h100, a100; retinanet on b200, mi355; ..."). */
static const char *pairs_text(int b, int a, char *buf, size_t len)
{
	const struct sc_mlperf_workload *all;
	uint32_t n;
	size_t at = 0;
	int last = -1;

	buf[0] = '\0';
	all = sc_mlperf_all(&n);
	for (uint32_t i = 0; i < n && at < len; i++) {
		const char *bn = sc_mlperf_benchmark_name(all[i].benchmark);
		const char *an = sc_mlperf_accelerator_name(all[i].accelerator);

		if ((b >= 0 && (int)all[i].benchmark != b) ||
		    (a >= 0 && (int)all[i].accelerator != a))
			continue;
		if (a >= 0)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", bn);
		else if ((int)all[i].benchmark != last)
			at += (size_t)snprintf(buf + at, len - at, "%s%s on %s", at ? "; " : "", bn,
					       an);
		else
			at += (size_t)snprintf(buf + at, len - at, ", %s", an);
		last = (int)all[i].benchmark;
	}
	if (a >= 0 && at < len)
		snprintf(buf + at, len - at, " on %s",
			 sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)a));
	return buf;
}

/* No workload file for pv: every value of pair_keys given, or an error
 * at the accelerator (else benchmark, else workload) key naming what v3.0
 * has and what is missing. */
static int check_custom(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	const struct cfg_node *bn = pv->src[PK_BENCHMARK], *an = pv->src[PK_ACCELERATOR];
	const char *bname = sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)pv->benchmark);
	const char *aname = sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)pv->accelerator);
	char missing[256] = "", has[512];
	size_t at = 0;

	for (size_t k = 0; k < NPAIR_KEYS; k++)
		if (!pv->src[pair_keys[k]])
			at += (size_t)snprintf(missing + at, sizeof(missing) - at, "%s%s",
					       at ? ", " : "", sc_cfg_phase_keys[pair_keys[k]]);
	if (!at)
		return 0;
	if (bn && an)
		return sc_cfg_fail_value(
		    c, pv, i, an, PK_ACCELERATOR,
		    "MLPerf Storage v3.0 has no workload file for %s on %s "
		    "(it has %s): pick one of those, or give every value "
		    "(missing: %s)",
		    bname, aname, pairs_text((int)pv->benchmark, -1, has, sizeof(has)), missing);
	if (bn)
		return sc_cfg_fail_value(
		    c, pv, i, bn, PK_BENCHMARK,
		    "no accelerator: MLPerf Storage v3.0 has no workload file "
		    "for %s without one (it has %s): add accelerator:, or give "
		    "every value (missing: %s)",
		    bname, pairs_text((int)pv->benchmark, -1, has, sizeof(has)), missing);
	if (an)
		return sc_cfg_fail_value(
		    c, pv, i, an, PK_ACCELERATOR,
		    "no benchmark: MLPerf Storage v3.0 has no workload file "
		    "for %s without one (it has %s): add benchmark:, or give "
		    "every value (missing: %s)",
		    aname, pairs_text(-1, (int)pv->accelerator, has, sizeof(has)), missing);
	return sc_cfg_fail_value(c, pv, i, pv->src[PK_WORKLOAD], PK_WORKLOAD,
				 "no benchmark and accelerator: MLPerf Storage v3.0 takes a "
				 "training phase's values from their workload file (it has %s): "
				 "add both, or give every value (missing: %s)",
				 pairs_text(-1, -1, has, sizeof(has)), missing);
}

/* The phase's cells: a search's trials, or runs' warm-ups and measured
 * runs, or one. */
static int set_cells(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	uint64_t w = pv->runs / RUNS_SCALE, m = pv->runs % RUNS_SCALE;

	pv->ncells = 1;
	if (pv->search && pv->src[PK_RUNS] && w + m > 1)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_RUNS], PK_RUNS,
					 "runs and search: accelerators together: a search's "
					 "trials are single runs (run the answer with runs: %" PRIu64
					 "+%" PRIu64 " in a phase of its own, accelerators_per_rank "
					 "set to it)",
					 w, m);
	if (pv->search && pv->src[PK_ACCELERATORS_PER_RANK])
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_ACCELERATORS_PER_RANK],
					 PK_ACCELERATORS_PER_RANK,
					 "accelerators_per_rank with search: accelerators: the "
					 "search sets it for each trial (give search_max, the most "
					 "it may try)");
	if (!pv->search && pv->src[PK_SEARCH_MAX])
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_SEARCH_MAX], PK_SEARCH_MAX,
					 "search_max without search: accelerators (add it, or "
					 "drop search_max)");
	{
		enum pkey k = pv->search ? PK_SEARCH_MAX : PK_ACCELERATORS_PER_RANK;
		uint64_t most = pv->search ? pv->search_max : pv->accelerators_per_rank;

		if (pv->jobs * most > MAX_JOBS)
			return sc_cfg_fail_value(c, pv, i, pv->src[k] ? pv->src[k] : pv->src[PK_JOBS],
						 k,
						 "%" PRIu64 " accelerators a rank x jobs %" PRIu64
						 " readers each are %" PRIu64 " threads, more than "
						 "the %u a rank may run (fewer accelerators a rank, "
						 "more ranks)",
						 most, pv->jobs, most * pv->jobs, MAX_JOBS);
	}
	if (pv->search)
		pv->ncells = sc_mlperf_search_trials_max((uint32_t)pv->search_max);
	else if (w + m > 1)
		pv->ncells = (uint32_t)(w + m);
	return 0;
}

int sc_cfg_check_training_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	const struct sc_mlperf_workload *w = NULL;
	uint64_t file, mean;
	char a1[32];
	int err;

	if (pv->src[PK_BENCHMARK] && pv->src[PK_ACCELERATOR])
		w = sc_mlperf_find((enum sc_mlperf_benchmark)pv->benchmark,
				   (enum sc_mlperf_accelerator)pv->accelerator);
	if (w) {
		take_pair(pv, w);
	} else {
		err = check_custom(c, i, pv);
		if (err)
			return err;
		if (!pv->src[PK_PREFETCH_SIZE])
			pv->prefetch_size = DLIO_PREFETCH_DEFAULT;
		/* record_size_stdev: 0, every file one size */
	}
	if (!pv->src[PK_BENCHMARK])
		pv->benchmark = SC_MLPERF_BENCHMARK_COUNT;
	if (!pv->src[PK_ACCELERATOR])
		pv->accelerator = SC_MLPERF_ACCELERATOR_COUNT;
	if (__builtin_mul_overflow(pv->record_size, pv->samples_per_file, &file))
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_RECORD_SIZE], PK_RECORD_SIZE,
					 "samples_per_file %" PRIu64 " x record_size %s is more "
					 "than 2^64 bytes a file",
					 pv->samples_per_file,
					 sc_cfg_fmt_size(a1, sizeof(a1), pv->record_size));
	mean = sc_mlperf_mean_file_bytes(pv->record_size, pv->record_size_stdev,
					 (uint32_t)pv->samples_per_file);
	if (pv->files && __builtin_mul_overflow(pv->files, mean, &file))
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_FILES], PK_FILES,
					 "%" PRIu64 " files of %" PRIu64 " B on average are more "
					 "than 2^64 bytes",
					 pv->files, mean);
	pv->runtime = 0;
	pv->io_size = 0;
	return set_cells(c, i, pv);
}

char *sc_cfg_training_cell_name(const struct cfg_phase *pv, uint32_t cell)
{
	uint64_t w = pv->runs / RUNS_SCALE;
	char buf[CFG_MAX_NAME_LEN + 32];

	if (pv->ncells <= 1)
		snprintf(buf, sizeof(buf), "%s", pv->name);
	else if (pv->search)
		snprintf(buf, sizeof(buf), "%s[trial=%u]", pv->name, cell + 1);
	else if (cell < w)
		snprintf(buf, sizeof(buf), "%s[warmup=%u]", pv->name, cell + 1);
	else
		snprintf(buf, sizeof(buf), "%s[run=%u]", pv->name, (uint32_t)(cell - w + 1));
	return strdup(buf);
}

void sc_cfg_build_training(const struct cfg_phase *pv, uint32_t cell, struct sc_phase *ph)
{
	uint64_t w = pv->runs / RUNS_SCALE, m = pv->runs % RUNS_SCALE;

	ph->io.rw = SC_RW_RANDREAD;
	ph->io.rwmixread_pct = 100;
	ph->io.bs_bytes = pv->transfer_size;
	ph->training.files = pv->files; /* 0: the rules' minimum, once placed */
	ph->training.batch = (uint32_t)pv->batch;
	ph->training.epochs = (uint32_t)pv->epochs;
	ph->training.au = pv->au;
	if (pv->search) {
		ph->training.search_max = (uint32_t)pv->search_max;
		ph->training.trial = cell + 1;
		ph->training.accelerators_per_rank = 1; /* the first trial's */
	} else if (w + m > 1) {
		ph->training.warmups = (uint32_t)w;
		ph->training.runs = (uint32_t)m;
		ph->training.run = cell + 1;
	}
}

/* "file:line:col: phases.I.KEY: " of training phase ph's key into buf. */
static const char *where_key(const struct sc_config *cfg, const struct sc_phase *ph,
			     const char *key, char *buf, size_t len)
{
	char path[64], where[512];

	snprintf(path, sizeof(path), "phases.%u.%s", ph->config_index, key);
	snprintf(buf, len, "%s: %s", sc_config_where(cfg, path, where, sizeof(where)), path);
	return buf;
}

/* The ranks' share of training phase ph: accelerators, the clients'
 * memory, files (the rules' minimum when not given) and at least one step
 * an epoch.  0 or -EINVAL with the message in err. */
static int resolve_training(const struct sc_config *cfg, struct sc_phase *ph,
			    const struct sc_cluster *c, char *err, size_t errlen)
{
	struct sc_training_spec *t = &ph->training;
	uint32_t nranks = (uint32_t)c->nranks;
	uint64_t min, mem = 0, dataset;
	char at[640], a1[32];

	/* the clients' memory: the sum of every host's (its leader's) */
	for (int r = 0; r < c->nranks && mem != UINT64_MAX; r++)
		if (c->local_rank_of[r] == 0 && !c->mem_of[r])
			mem = UINT64_MAX; /* a host that does not say */
		else if (c->local_rank_of[r] == 0 && __builtin_add_overflow(mem, c->mem_of[r], &mem))
			mem = UINT64_MAX - 1;
	if (mem == UINT64_MAX)
		mem = 0;

	/* a search's dataset is sized for its largest trial (the fewest
	 * steps, the most files), then its first trial runs one a rank */
	t->accelerators = nranks * (t->search_max ? t->search_max : sc_training_per_rank(t));
	if (!t->client_memory_bytes && mem)
		t->client_memory_bytes = mem; /* every host's MemTotal, summed */
	if (!t->client_memory_bytes && !t->files) {
		snprintf(err, errlen,
			 "%s: no files given, and the rules' minimum needs the clients' memory, "
			 "which /proc/meminfo does not say here (give client_memory or files)",
			 where_key(cfg, ph, "workload", at, sizeof(at)));
		return -EINVAL;
	}
	min = sc_mlperf_min_files(t->client_memory_bytes, t->accelerators, t->batch,
				  t->samples_per_file, t->record_bytes);
	if (!t->files && min > MAX_TRAINING_FILES) {
		snprintf(err, errlen,
			 "%s: the rules' minimum for %s of client memory and %u accelerator(s) is "
			 "%" PRIu64 " files, more than 2^32-1 (give files, or a smaller "
			 "client_memory)",
			 where_key(cfg, ph, "client_memory", at, sizeof(at)),
			 sc_fmt_bytes(a1, sizeof(a1), t->client_memory_bytes), t->accelerators,
			 min);
		return -EINVAL;
	}
	if (!t->files)
		t->files = min;
	if (!sc_layout_training_steps(t)) {
		/* the fewest files that give every accelerator one batch */
		uint64_t need = ((uint64_t)t->batch * t->accelerators + t->samples_per_file - 1) /
				t->samples_per_file;

		snprintf(err, errlen,
			 "%s: %" PRIu64 " files x %u samples are less than one step of batch %u "
			 "for each of %u accelerator(s), so an epoch has no step (give at least "
			 "%" PRIu64 " files, or a smaller batch)",
			 where_key(cfg, ph, "files", at, sizeof(at)), t->files, t->samples_per_file,
			 t->batch, t->accelerators, need);
		return -EINVAL;
	}
	if (t->search_max)
		t->accelerators = nranks * sc_training_per_rank(t);
	dataset = sc_layout_training_dataset_bytes(t);
	if (dataset == UINT64_MAX) {
		snprintf(err, errlen,
			 "%s: %" PRIu64 " files of %" PRIu64 " B on average are 2^64 bytes or more",
			 where_key(cfg, ph, "files", at, sizeof(at)), t->files,
			 sc_layout_training_mean_file_bytes(t));
		return -EINVAL;
	}
	return 0;
}

/* MLPerf's rule: as many accelerators on every host, so as many ranks.
 * 0, or -EINVAL with the first two hosts that differ in err. */
static int same_ranks_per_host(const struct sc_config *cfg, const struct sc_phase *ph,
			       const struct sc_cluster *c, char *err, size_t errlen)
{
	char at[640];

	for (int r = 1; r < c->nranks; r++) {
		if (c->local_nranks_of[r] == c->local_nranks_of[0])
			continue;
		snprintf(err, errlen,
			 "%s: training needs as many accelerators on every host (MLPerf Storage's "
			 "rule), but host %s runs %u rank(s) and host %s %u: launch as many ranks "
			 "on each host (mpirun --map-by ppr:N:node)",
			 where_key(cfg, ph, "workload", at, sizeof(at)), c->hosts[0],
			 c->local_nranks_of[0], c->hosts[r], c->local_nranks_of[r]);
		return -EINVAL;
	}
	return 0;
}

int sc_validate_training(const struct sc_config *cfg, struct sc_plan *plan,
			 const struct sc_cluster *c, char *err, size_t errlen)
{
	for (uint32_t p = 0; p < plan->nphases; p++) {
		struct sc_phase *ph = &plan->phases[p];

		if (ph->workload != SC_WORKLOAD_TRAINING)
			continue;
		if (same_ranks_per_host(cfg, ph, c, err, errlen) ||
		    resolve_training(cfg, ph, c, err, errlen))
			return -EINVAL;
	}
	return 0;
}
