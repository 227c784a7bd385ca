/* build.c -- the plan from the checked config: the target specs, and one
 * plan phase per cell (an io sweep's product, a checkpoint's writes and
 * read-backs, an ingest, fill, idle or training phase as it is). */
#include "schema.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cell_name(const struct cfg_phase *pv, uint32_t r, uint32_t b, uint32_t q)
{
	char buf[CFG_MAX_NAME_LEN + 96], a[32];
	size_t len;

	snprintf(buf, sizeof(buf), "%s", pv->name);
	if (!pv->rw.list && !pv->bs.list && !pv->iodepth.list)
		return strdup(buf);
	strcat(buf, "[");
	if (pv->rw.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "rw=%s,",
			 sc_rw_name((enum sc_rw)pv->rw.v[r]));
	}
	if (pv->bs.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "bs=%s,",
			 sc_cfg_fmt_size(a, sizeof(a), pv->bs.v[b]));
	}
	if (pv->iodepth.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "iodepth=%" PRIu64 ",", pv->iodepth.v[q]);
	}
	buf[strlen(buf) - 1] = ']';
	return strdup(buf);
}

/* Copies v into the plan member of key k's row (1, 4 or 8 bytes: a bool,
 * a 32-bit number or enum, a 64-bit number). */
static void store_plan(struct sc_phase *ph, enum pkey k, uint64_t v)
{
	char *at = (char *)ph + sc_cfg_keys[k].plan_off;
	uint32_t v32 = (uint32_t)v;
	bool b = v != 0;

	switch (sc_cfg_keys[k].plan_bytes) {
	case sizeof(bool):
		memcpy(at, &b, sizeof(b));
		break;
	case sizeof(uint32_t):
		memcpy(at, &v32, sizeof(v32));
		break;
	case sizeof(uint64_t):
		memcpy(at, &v, sizeof(v));
		break;
	default:
		break;
	}
}

/* What every cell of config phase i has in common: each key it takes whose
 * row names a plan member, then what build.c works out. */
static int fill_common(const struct cfg_phase *pv, uint32_t i, uint32_t cell, char *name,
		       struct sc_phase *ph)
{
	ph->name = name;
	ph->group = strdup(pv->name);
	if (!ph->name || !ph->group)
		return -ENOMEM;
	ph->config_index = i;
	ph->cell = cell;
	ph->ncells = pv->ncells;
	for (int k = 0; k < PK_COUNT; k++)
		if (sc_cfg_keys[k].u64 && sc_cfg_keys[k].plan_bytes &&
		    sc_cfg_takes(pv->workload, (enum pkey)k))
			store_plan(ph, (enum pkey)k,
				   *(const uint64_t *)((const char *)pv + sc_cfg_keys[k].pv_off));
	ph->io.iodepth = (uint32_t)pv->iodepth.v[0];
	ph->io.inject = pv->inject;
	ph->io.emulate = pv->emulate;
	ph->io.sqpoll_cpu = pv->src[PK_SQPOLL_CPU] ? (int32_t)pv->sqpoll_cpu : -1;
	snprintf(ph->io.cpus, sizeof(ph->io.cpus), "%s", pv->cpus);
	return 0;
}

/* One io or kvcache plan phase: cell (rw index r, bs index b, iodepth
 * index q) of config phase i. */
static int fill_cell(const struct cfg_phase *pv, uint32_t i, uint32_t cell, uint32_t r, uint32_t b,
		     uint32_t q, struct sc_phase *ph)
{
	enum sc_rw rw = (enum sc_rw)pv->rw.v[r];
	int err = fill_common(pv, i, cell, cell_name(pv, r, b, q), ph);

	if (err)
		return err;
	ph->io.rw = rw;
	/* The share of reads: what rwmixread says for randrw, else implied. */
	if (sc_rw_mixed(rw))
		ph->io.rwmixread_pct = (uint32_t)pv->rwmixread;
	else
		ph->io.rwmixread_pct = sc_rw_reads(rw) ? 100 : 0;
	ph->io.bs_bytes = pv->bs.v[b];
	ph->io.iodepth = (uint32_t)pv->iodepth.v[q];
	ph->io.fsync_every = sc_rw_writes(rw) ? (uint32_t)pv->fsync : 0;
	ph->io.end_fsync = sc_rw_writes(rw) && pv->end_fsync;
	ph->io.offset_increment_given = pv->src[PK_OFFSET_INCREMENT] != NULL;
	ph->io.offset_increment_bytes = pv->offset_increment;
	if (sc_rw_random(rw)) { /* how random cells pick their blocks */
		ph->io.rand_dist = pv->rand_dist;
		ph->io.rand_param = pv->rand_param;
		ph->io.random_every = pv->random_every > 1 ? (uint32_t)pv->random_every : 0;
		ph->io.randommap = pv->randommap;
		memcpy(ph->io.zone_access_pct, pv->zone_access_pct, sizeof(pv->zone_access_pct));
		memcpy(ph->io.zone_size_pct, pv->zone_size_pct, sizeof(pv->zone_size_pct));
	}
	if (pv->bs_max > pv->bs.v[b]) { /* bssplit, bsrange: bs is the smallest */
		ph->io.bs_max_bytes = pv->bs_max;
		memcpy(ph->io.bssplit_bytes, pv->bssplit_bytes, sizeof(pv->bssplit_bytes));
		memcpy(ph->io.bssplit_pct, pv->bssplit_pct, sizeof(pv->bssplit_pct));
	}
	return 0;
}

uint32_t sc_cfg_ckpt_restores(const struct cfg_phase *pv)
{
	return pv->keep_last && pv->keep_last < pv->checkpoints ? (uint32_t)pv->keep_last
								 : (uint32_t)pv->checkpoints;
}

/* Cell `cell` of checkpoint phase i: checkpoints 1..N written, then (with
 * restore) read back the ones kept (N-K+1..N with keep_last K, else 1..N).
 * The file list decides the bytes. */
static int fill_ckpt_cell(const struct cfg_phase *pv, uint32_t i, uint32_t cell,
			  struct sc_phase *ph)
{
	uint32_t n = (uint32_t)pv->checkpoints;
	bool restore = cell >= n;
	uint32_t k = restore ? n - sc_cfg_ckpt_restores(pv) + (cell - n) + 1 : cell + 1;
	char buf[CFG_MAX_NAME_LEN + 32];
	int err;

	snprintf(buf, sizeof(buf), "%s[%s=%u]", pv->name, restore ? "restore" : "ckpt", k);
	err = fill_common(pv, i, cell, strdup(buf), ph);
	if (err)
		return err;
	ph->io.rw = restore ? SC_RW_READ : SC_RW_WRITE;
	ph->io.rwmixread_pct = restore ? 100 : 0;
	ph->ckpt.model = pv->model;
	ph->ckpt.index = k;
	ph->ckpt.restore = restore;
	ph->ckpt.restore_shift = restore ? (uint32_t)pv->restore_shift : 0;
	/* async: the training between checkpoints runs inside the cell,
	 * beside the drain (every write cell's, the last one's too) */
	ph->ckpt.async = !restore && pv->async;
	ph->ckpt.compute_after_ns = ph->ckpt.async ? pv->compute_between : 0;
	ph->ckpt.compute_before_ns =
	    !restore && !ph->ckpt.async && k >= 2 ? pv->compute_between : 0;
	ph->ckpt.scale = pv->scale;
	ph->ckpt.fsync = !restore && pv->fsync;
	return 0;
}

static int fill_ingest(const struct cfg_phase *pv, uint32_t i, struct sc_phase *ph)
{
	int err = fill_common(pv, i, 0, strdup(pv->name), ph);

	if (err)
		return err;
	ph->io.rw = SC_RW_RANDREAD;
	ph->io.rwmixread_pct = 100;
	ph->io.bs_bytes = pv->sample_size;
	/* files, batch and epochs: keys training takes too, into its spec */
	ph->ingest.files = (uint32_t)pv->files;
	ph->ingest.batch = (uint32_t)pv->batch;
	ph->ingest.epochs = (uint32_t)pv->epochs;
	return 0;
}

/* The target specs of the plan, one a target. */
static int fill_targets(const struct cfg_check *c, struct sc_plan *plan)
{
	plan->targets = calloc(c->ntg, sizeof(*plan->targets));
	if (!plan->targets)
		return -ENOMEM;
	for (uint32_t t = 0; t < c->ntg; t++) {
		struct sc_target_spec *ts = &plan->targets[t];
		const struct cfg_target *tg = &c->tg[t];

		plan->ntargets++;
		ts->path = strdup(tg->path);
		ts->hosts = tg->hosts ? strdup(tg->hosts) : NULL;
		if (!ts->path || (tg->hosts && !ts->hosts))
			return -ENOMEM;
		ts->kind = tg->info.kind;
		ts->capacity_bytes = tg->capacity;
		ts->capacity_given = tg->capacity_given;
		ts->keep = tg->keep;
		ts->allow_destroy = tg->allow_destroy;
		ts->wipe_signatures_ok = tg->wipe_signatures_ok;
		ts->throttle_bytes_per_s = tg->throttle;
	}
	return 0;
}

/* Plan phase ph: cell `cell` of config phase i. */
static int fill_phase(const struct cfg_phase *pv, uint32_t i, uint32_t cell, struct sc_phase *ph)
{
	uint32_t q, b, r;

	if (pv->workload == SC_WORKLOAD_CHECKPOINT)
		return fill_ckpt_cell(pv, i, cell, ph);
	if (pv->workload == SC_WORKLOAD_INGEST)
		return fill_ingest(pv, i, ph);
	if (pv->workload == SC_WORKLOAD_TRAINING) {
		int err = fill_common(pv, i, cell, sc_cfg_training_cell_name(pv, cell), ph);

		if (!err)
			sc_cfg_build_training(pv, cell, ph);
		return err;
	}
	if (pv->workload == SC_WORKLOAD_FILL || pv->workload == SC_WORKLOAD_IDLE) {
		int err = fill_common(pv, i, 0, strdup(pv->name), ph);

		if (!err && pv->workload == SC_WORKLOAD_FILL)
			sc_cfg_build_fill(pv, ph);
		else if (!err)
			sc_cfg_build_idle(pv, ph);
		return err;
	}
	/* Cartesian product: rw, then bs, then iodepth varying fastest. */
	q = cell % pv->iodepth.n;
	b = (cell / pv->iodepth.n) % pv->bs.n;
	r = cell / (pv->iodepth.n * pv->bs.n);
	if (pv->steady.max_rounds) { /* a steady-state round sweeps nothing */
		int err = fill_cell(pv, i, cell, 0, 0, 0, ph);

		return err ? err : sc_cfg_build_round(pv, cell, ph);
	}
	return fill_cell(pv, i, cell, r, b, q, ph);
}

/* A copy of n points from (NULL when n is 0) into *to.  0 or -ENOMEM. */
static int copy_cdf(struct sc_emulate_point **to, const struct sc_emulate_point *from, uint32_t n)
{
	*to = NULL;
	if (!n)
		return 0;
	*to = malloc(n * sizeof(*from));
	if (!*to)
		return -ENOMEM;
	memcpy(*to, from, n * sizeof(*from));
	return 0;
}

/* The plan phases of config phase i from plan->phases[*at] on, each with
 * its own copy of the latency distributions latency_from gives. */
static int fill_cells(struct cfg_check *c, uint32_t i, struct sc_plan *plan, uint32_t *at)
{
	const struct cfg_phase *pv = &c->pv[i];
	struct sc_emulate em = {0};
	int err = pv->emulate_from ? sc_cfg_emulate_from(c, pv, &em) : 0;

	for (uint32_t cell = 0; !err && cell < pv->ncells; cell++) {
		struct sc_emulate *to = &plan->phases[*at].io.emulate;

		plan->nphases++;
		err = fill_phase(pv, i, cell, &plan->phases[(*at)++]);
		if (!err)
			sc_cfg_build_write_data(pv, &plan->phases[*at - 1]);
		to->nread_cdf = em.nread_cdf;
		to->nwrite_cdf = em.nwrite_cdf;
		if (!err)
			err = copy_cdf(&to->read_cdf, em.read_cdf, em.nread_cdf);
		if (!err)
			err = copy_cdf(&to->write_cdf, em.write_cdf, em.nwrite_cdf);
		if (!err)
			err = sc_cfg_build_expect(c, pv, &plan->phases[*at - 1]);
	}
	free(em.read_cdf);
	free(em.write_cdf);
	return err;
}

int sc_cfg_build_plan(struct cfg_check *c, const char *path, struct sc_plan *plan)
{
	uint64_t ncells = 0;
	uint32_t at = 0;
	int err;

	plan->config_path = strdup(path);
	if (!plan->config_path)
		return -ENOMEM;
	err = fill_targets(c, plan);
	if (err)
		return err;
	for (uint32_t i = 0; i < c->npv; i++)
		ncells += c->pv[i].ncells;
	plan->phases = calloc(ncells, sizeof(*plan->phases));
	if (!plan->phases)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->npv; i++) {
		err = fill_cells(c, i, plan, &at);
		if (err)
			return err;
	}
	sc_cfg_build_outliers(c, plan);
	return sc_cfg_build_model_section(c, plan);
}
