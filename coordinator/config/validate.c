/* validate.c -- checks that need the cluster's shape or a rank's own host. */
#include "validate.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckpt_model.h"
#include "engine/engine.h"
#include "guard.h"
#include "layout.h"
#include "schema.h"
#include "target.h"
#include "units.h"
#include "workload/dataset.h"

/* A checkpoint cell's layout must cover exactly the ranks that run. */
static int resolve_ckpt(const struct sc_config *cfg, struct sc_phase *ph, uint32_t nranks,
			char *err, size_t errlen)
{
	struct sc_ckpt_layout *l = &ph->ckpt.layout;
	char where[512], key[64], why[512];
	uint64_t tpp = (uint64_t)l->tp * l->pp;

	snprintf(key, sizeof(key), "phases.%u.%s", ph->config_index, l->dp ? "dp" : "tp");
	if (!l->dp && (tpp == 0 || nranks % tpp)) {
		snprintf(err, errlen,
			 "%s: %s: %u rank(s) are not a multiple of tp x pp = %llu (run a multiple "
			 "of %llu ranks, or set dp)",
			 sc_config_where(cfg, key, where, sizeof(where)), key, nranks,
			 (unsigned long long)tpp, (unsigned long long)tpp);
		return -EINVAL;
	}
	if (!l->dp)
		l->dp = nranks / (uint32_t)tpp;
	/* procedure: mlperf runs a subset as MLPerf's subset mode does: the
	 * full layout kept, rank r writing (and reading) rank r's files */
	if (tpp * l->dp > nranks && ph->ckpt.procedure == SC_PROCEDURE_MLPERF) {
		/* another node's shards may be of a rank that does not run */
		if (ph->ckpt.restore_shift) {
			snprintf(key, sizeof(key), "phases.%u.restore_shift", ph->config_index);
			snprintf(err, errlen,
				 "%s: %s: %u rank(s) run a subset of the layout's %llu, whose "
				 "other nodes wrote nothing to read (leave restore_shift out, or "
				 "run all %llu ranks)",
				 sc_config_where(cfg, key, where, sizeof(where)), key, nranks,
				 (unsigned long long)(tpp * l->dp),
				 (unsigned long long)(tpp * l->dp));
			return -EINVAL;
		}
		nranks = (uint32_t)(tpp * l->dp);
	}
	if (tpp * l->dp != nranks) {
		snprintf(err, errlen,
			 "%s: %s: tp x pp x dp = %llu but %u rank(s) run (one rank per GPU: "
			 "leave dp out to use ranks / (tp x pp))",
			 sc_config_where(cfg, key, where, sizeof(where)), key,
			 (unsigned long long)(tpp * l->dp), nranks);
		return -EINVAL;
	}
	if (sc_ckpt_layout_check(&ph->ckpt.model, l, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s: %s", sc_config_where(cfg, key, where, sizeof(where)),
			 key, why);
		return -EINVAL;
	}
	return 0;
}

/* Checkpoint write phases that hold a rank's scaled checkpoint in host
 * memory beside its I/O buffers (async: the host copy; serialize: torch:
 * the files' tensors, as torch.save's caller holds them; both: one copy),
 * within memory_per_rank (or the default budget).  The first write cell of
 * a group speaks for its others. */
static int check_held_memory(const struct sc_config *cfg, const struct sc_plan *plan,
			     const struct sc_place *places, uint32_t nranks, char *err,
			     size_t errlen)
{
	char where[512], key[64], a[32], b[32], t[32], m[32];

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *ph = &plan->phases[p];
		uint64_t bufs = (uint64_t)ph->io.jobs * ph->io.iodepth * ph->io.bs_bytes;
		bool torch = ph->ckpt.serialize == SC_SERIALIZE_TORCH;

		if (ph->workload != SC_WORKLOAD_CHECKPOINT || !(ph->ckpt.async || torch) ||
		    ph->ckpt.restore || ph->ckpt.index != 1)
			continue;
		for (uint32_t r = 0; r < nranks; r++) {
			uint64_t rd, wr, total;

			sc_layout_rank_bytes(plan, p, &places[r], &rd, &wr);
			if (!__builtin_add_overflow(wr, bufs, &total) && total <= cfg->mem_budget)
				continue;
			snprintf(key, sizeof(key), "phases.%u.%s", ph->config_index,
				 ph->ckpt.async ? "async" : "serialize");
			snprintf(
			    err, errlen,
			    "%s: %s: %s a rank's checkpoint in host memory: rank %u's "
			    "%s + jobs %u x iodepth %u x block_size %s of I/O buffers = %s, "
			    "more than %s %s (lower scale, or %s memory_per_rank)",
			    sc_config_where(cfg, key, where, sizeof(where)), key,
			    ph->ckpt.async ? "async holds"
					   : "serialize: torch holds the tensors of",
			    r, sc_cfg_fmt_size(a, sizeof(a), wr), ph->io.jobs, ph->io.iodepth,
			    sc_cfg_fmt_size(b, sizeof(b), ph->io.bs_bytes),
			    total < wr ? "more than 16EiB" : sc_cfg_fmt_size(t, sizeof(t), total),
			    cfg->mem_stated ? "memory_per_rank" : "the default memory budget of",
			    sc_cfg_fmt_size(m, sizeof(m), cfg->mem_budget),
			    cfg->mem_stated ? "raise" : "set");
			return -EINVAL;
		}
	}
	return 0;
}

/* Rank 0, where it can say file:line:col: a file or block device it probed
 * (not one on other hosts) that a phase writes needs --allow-destroy as
 * well as allow_destroy: true, which the config check already asked for.
 * Every rank checks both again on its own host (sc_validate_local). */
static int check_destroy_opt_in(const struct sc_config *cfg, const struct sc_plan *plan,
				const struct sc_place *places, uint32_t nranks, char *err,
				size_t errlen)
{
	int w = sc_guard_first_writer(plan);
	char where[512], key[64];

	for (uint32_t r = 0; r < nranks && w >= 0 && !plan->allow_destroy; r++) {
		const struct sc_target_spec *t = &plan->targets[places[r].target];

		if (t->hosts || t->kind == SC_TARGET_DIR)
			continue;
		snprintf(key, sizeof(key), "targets.%u.allow_destroy", places[r].target);
		snprintf(err, errlen,
			 "%s: %s: phase %s would overwrite the data of the %s %s, and the command "
			 "line lacks --allow-destroy (add it if its data may go; both are needed)",
			 sc_config_where(cfg, key, where, sizeof(where)), key,
			 plan->phases[w].name, sc_target_kind_name(t->kind), t->path);
		return -EINVAL;
	}
	return 0;
}

int sc_validate_layout(const struct sc_config *cfg, struct sc_plan *plan,
		       const struct sc_cluster *c, struct sc_place *places, char *err, size_t errlen)
{
	char where[512];

	for (uint32_t p = 0; p < plan->nphases; p++) {
		if (plan->phases[p].workload == SC_WORKLOAD_CHECKPOINT &&
		    resolve_ckpt(cfg, &plan->phases[p], (uint32_t)c->nranks, err, errlen))
			return -EINVAL;
	}

	for (int r = 0; r < c->nranks; r++) {
		int rc = sc_layout_place(plan, c->hosts[r], (uint32_t)r, c->local_rank_of[r],
					 c->local_nranks_of[r], &places[r]);

		if (rc) {
			snprintf(err, errlen, "%s: host %s (rank %d) matches no target's hosts",
				 sc_config_where(cfg, "targets", where, sizeof(where)),
				 c->hosts[r], r);
			return -EINVAL;
		}
	}
	if (check_destroy_opt_in(cfg, plan, places, (uint32_t)c->nranks, err, errlen))
		return -EINVAL;
	if (check_held_memory(cfg, plan, places, (uint32_t)c->nranks, err, errlen))
		return -EINVAL;
	if (sc_validate_fill(cfg, plan, places, (uint32_t)c->nranks, err, errlen))
		return -EINVAL;
	if (sc_validate_training(cfg, plan, c, err, errlen))
		return -EINVAL;
	for (int r = 0; r < c->nranks; r++) {
		const struct sc_place *p = &places[r];
		const struct sc_target_spec *t = &plan->targets[p->target];

		for (uint32_t ph = 0; ph < plan->nphases && t->kind != SC_TARGET_DIR; ph++) {
			enum sc_workload w = plan->phases[ph].workload;
			char key[64];

			if (w != SC_WORKLOAD_CHECKPOINT && w != SC_WORKLOAD_INGEST &&
			    w != SC_WORKLOAD_TRAINING)
				continue;
			snprintf(key, sizeof(key), "targets.%u.path", p->target);
			snprintf(err, errlen,
				 "%s: %s: %s phases write files, so they need a directory target, "
				 "and %s is a %s",
				 sc_config_where(cfg, key, where, sizeof(where)), key,
				 sc_workload_name(w), t->path, sc_target_kind_name(t->kind));
			return -EINVAL;
		}
	}
	return 0;
}

/* The arithmetic of the training datasets nslots ranks of one node lay out
 * (sc_layout_training_files), after what a capacity message says:
 * "; phase P's dataset here: 8 of 8 accelerators read 7200 of 7200 files x
 * 146567342 B mean = 983 GiB"; "" without a training phase that stores
 * files. */
static const char *training_need_text(const struct sc_plan *plan, uint32_t nslots, char *buf,
				      size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t p = 0; p < plan->nphases && at < len; p++) {
		const struct sc_phase *ph = &plan->phases[p];
		const struct sc_training_spec *t = &ph->training;
		uint64_t files = sc_layout_training_files(t, nslots);
		uint64_t mean = sc_layout_training_mean_file_bytes(t);
		uint64_t bytes;
		char b[32];

		if (ph->workload != SC_WORKLOAD_TRAINING || !sc_engine_uses_files(ph->io.engine) ||
		    ph->cell != 0) /* a group's cells share its dataset */
			continue;
		if (__builtin_mul_overflow(files, mean, &bytes))
			bytes = UINT64_MAX;
		at += (size_t)snprintf(
		    buf + at, len - at,
		    "; phase %s's dataset here: %u of %u accelerators read %" PRIu64 " of %" PRIu64
		    " files x %" PRIu64 " B mean = %s",
		    ph->name, nslots, t->accelerators, files, t->files, mean,
		    sc_fmt_bytes(b, sizeof(b), bytes));
	}
	return buf;
}

int sc_validate_capacity(const struct sc_config *cfg, const struct sc_plan *plan,
			 const struct sc_cluster *c, const struct sc_place *places, char *err,
			 size_t errlen)
{
	char where[512], need_s[32], cap_s[32], why[1024];

	/* Every place on a node records how many of the node's ranks share
	 * its target, so checking each rank's place covers every node. */
	for (int r = 0; r < c->nranks; r++) {
		const struct sc_place *p = &places[r];
		const struct sc_target_spec *t = &plan->targets[p->target];
		uint64_t need;
		int seen = 0;

		/* ranks sharing a target and a slot count need the same space */
		for (int q = 0; q < r && !seen; q++)
			seen = places[q].target == p->target && places[q].nslots == p->nslots;
		if (seen)
			continue;
		need = sc_layout_need_bytes(plan, p->target, p->nslots);
		/* the room rank 0 saw, and what the datasets already there
		 * take (reused or rewritten in place) */
		if (!t->capacity_given && t->kind == SC_TARGET_DIR) {
			uint64_t have = sc_dataset_present_bytes(plan, p->target);

			need = need > have ? need - have : 0;
		}
		if (t->capacity_bytes && need > t->capacity_bytes) {
			char key[64];

			snprintf(key, sizeof(key), "targets.%u.capacity", p->target);
			snprintf(
			    err, errlen,
			    "%s: %s: %s on %s needs %s for %u rank(s) but capacity is %s "
			    "(raise capacity, or plan fewer bytes: size, jobs, scale, files)%s",
			    sc_config_where(cfg, key, where, sizeof(where)), key, t->path,
			    c->hosts[r], sc_fmt_bytes(need_s, sizeof(need_s), need), p->nslots,
			    sc_fmt_bytes(cap_s, sizeof(cap_s), t->capacity_bytes),
			    training_need_text(plan, p->nslots, why, sizeof(why)));
			return -ENOSPC;
		}
	}
	return 0;
}

/* The target's own checks: it exists here as the plan says, and holds what
 * the run needs. */
static int check_local(const struct sc_plan *plan, const struct sc_place *place, const char *host,
		       uint64_t *avail, char *err, size_t errlen)
{
	const struct sc_target_spec *t = &plan->targets[place->target];
	struct sc_target_info info;
	int rc = sc_target_probe(t->path, &info);

	if (rc == -ENOENT && t->kind == SC_TARGET_DIR) {
		char *copy = strdup(t->path);

		if (!copy)
			return -ENOMEM;
		rc = sc_target_probe(dirname(copy), &info);
		free(copy);
		if (rc == 0 && info.kind == SC_TARGET_DIR)
			return 0;
		snprintf(err, errlen, "%s: %s: neither it nor its parent directory exists on %s",
			 host, t->path, host);
		return -ENOENT;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s: %s", host, t->path, strerror(-rc));
		return rc;
	}
	if (info.kind != t->kind) {
		snprintf(err, errlen, "%s: %s is a %s here but a %s on rank 0's host", host,
			 t->path, sc_target_kind_name(info.kind), sc_target_kind_name(t->kind));
		return -EINVAL;
	}
	uint64_t limit = info.kind == SC_TARGET_DIR ? info.avail_bytes : info.size_bytes;
	uint64_t need = sc_layout_need_bytes(plan, place->target, place->nslots);
	char need_s[32], limit_s[32], why[1024];

	/* the free room and what this host's datasets already take there
	 * (reused, or truncated before they are written again) */
	if (info.kind == SC_TARGET_DIR && !t->capacity_given) {
		uint64_t have = sc_dataset_present_bytes(plan, place->target);

		limit = limit > UINT64_MAX - have ? UINT64_MAX : limit + have;
	}
	if (t->capacity_given && t->capacity_bytes < limit)
		limit = t->capacity_bytes;
	*avail = limit;
	if (need > limit) {
		snprintf(err, errlen,
			 "%s: %s: the run needs %s here for %u rank(s) but only %s %s%s", host,
			 t->path, sc_fmt_bytes(need_s, sizeof(need_s), need), place->nslots,
			 sc_fmt_bytes(limit_s, sizeof(limit_s), limit),
			 limit == t->capacity_bytes ? "of capacity is allowed" : "is available",
			 training_need_text(plan, place->nslots, why, sizeof(why)));
		return -ENOSPC;
	}
	return 0;
}

int sc_validate_local(const struct sc_plan *plan, const struct sc_place *place, const char *host,
		      int *claim, uint64_t *avail, char *err, size_t errlen)
{
	char why[2048];
	int rc;

	*claim = -1;
	*avail = 0;
	/* The destroy guard first, on what the path is here (whatever rank 0
	 * guessed): a file or device is never written without both opt-ins.
	 * Only the node's first rank on the target claims a device O_EXCL:
	 * Linux gives that claim to one opener at a time, even within one
	 * process, so the node's other ranks write through plain opens while
	 * the first rank holds it for the whole run. */
	rc = sc_guard_check(plan, place->target, place->slot == 0 ? claim : NULL, why,
			    sizeof(why));
	if (rc) {
		snprintf(err, errlen, "%s: %s", host, why);
		return rc;
	}
	rc = check_local(plan, place, host, avail, err, errlen);
	if (rc && *claim >= 0) {
		close(*claim);
		*claim = -1;
	}
	return rc;
}
