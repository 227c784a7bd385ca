/* plan.c -- plan.json and the readable plan --dry-run prints. */
#include "report.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "units.h"

#ifndef SC_VERSION
#define SC_VERSION "unknown"
#endif

/* Per-rank lines in the printed plan stop above this many ranks. */
#define PLAN_PRINT_RANKS_MAX 64

/* Distinct node indices of the dry-run ranks, increasing; returns the count
 * or -ENOMEM.  *nodes is malloc'd (NULL when there are no ranks). */
static int distinct_nodes(const struct sc_dry_rank *ranks, uint32_t nranks, uint32_t **nodes)
{
	uint32_t n = 0, *v;

	*nodes = NULL;
	if (!nranks)
		return 0;
	v = malloc(nranks * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < nranks; i++) {
		uint32_t j = n;

		while (j > 0 && v[j - 1] > ranks[i].node)
			j--;
		if (j > 0 && v[j - 1] == ranks[i].node)
			continue;
		memmove(&v[j + 1], &v[j], (n - j) * sizeof(*v));
		v[j] = ranks[i].node;
		n++;
	}
	*nodes = v;
	return (int)n;
}

/* Ranks of node on target, and the host of the node's lowest rank. */
static uint32_t node_slots(const struct sc_dry_rank *ranks, uint32_t nranks, uint32_t node,
			   uint32_t target, const char **host)
{
	uint32_t n = 0, low = UINT32_MAX;

	*host = "";
	for (uint32_t i = 0; i < nranks; i++) {
		if (ranks[i].node != node)
			continue;
		if (ranks[i].place.rank < low) {
			low = ranks[i].place.rank;
			*host = ranks[i].host ? ranks[i].host : "";
		}
		if (ranks[i].place.target == target)
			n++;
	}
	return n;
}

/* The files a rank writes (or reads back) in a checkpoint cell. */
static void ckpt_files_json(struct jb *b, const struct sc_plan *plan, uint32_t p,
			    const struct sc_place *pl, struct json_object *files, int *err)
{
	struct sc_ckpt_file *f = NULL;
	uint32_t n = 0;
	char dir[PATH_MAX], path[PATH_MAX + SC_CKPT_FILE_NAME_MAX];
	int rc = sc_layout_ckpt_dir(plan, pl->target, p, dir, sizeof(dir));

	if (!rc)
		rc = sc_layout_ckpt_files(plan, p, sc_layout_ckpt_source(plan, p, pl), &f, &n);
	if (rc) {
		*err = rc;
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct json_object *fo = jnew(b, json_object_new_object());

		snprintf(path, sizeof(path), "%s/%s", dir, f[i].name);
		jput_u64(b, fo, "phase", p);
		jput_str(b, fo, "path", path);
		jput_u64(b, fo, "offset_bytes", 0);
		jput_u64(b, fo, "size_bytes", f[i].bytes);
		jpush(b, files, fo);
	}
	free(f);
}

static struct json_object *plan_rank_json(struct jb *b, const struct sc_plan *plan,
					  const struct sc_dry_rank *dr, int *err)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *files = jnew(b, json_object_new_array());
	struct json_object *planned = jnew(b, json_object_new_array());
	const struct sc_place *pl = &dr->place;
	const struct sc_target_spec *t =
	    pl->target < plan->ntargets ? &plan->targets[pl->target] : NULL;

	jput_u64(b, o, "rank", pl->rank);
	jput_str(b, o, "host", dr->host);
	jput_u64(b, o, "node", dr->node);
	jput_u64(b, o, "target", pl->target);
	jput_str(b, o, "target_path", t ? t->path : NULL);
	jput_str(b, o, "target_kind", t ? sc_target_kind_name(t->kind) : NULL);
	jput_u64(b, o, "slot", pl->slot);
	jput_u64(b, o, "nslots", pl->nslots);
	for (uint32_t p = 0; t && p < plan->nphases; p++) {
		const struct sc_io_spec *io = &plan->phases[p].io;
		enum sc_workload w = plan->phases[p].workload;
		uint64_t rd, wr;

		if (w == SC_WORKLOAD_CHECKPOINT)
			ckpt_files_json(b, plan, p, pl, files, err);
		for (uint32_t j = 0; j < io->jobs && (w == SC_WORKLOAD_IO || w == SC_WORKLOAD_KVCACHE);
		     j++) {
			struct json_object *fo = jnew(b, json_object_new_object());
			char path[PATH_MAX];
			uint64_t off = 0;
			int rc = sc_layout_job_file(plan, pl, p, j, path, sizeof(path), &off);

			if (rc) {
				*err = rc;
				json_object_put(fo);
				continue;
			}
			jput_u64(b, fo, "phase", p);
			jput_u64(b, fo, "job", j);
			jput_str(b, fo, "path", path);
			jput_u64(b, fo, "offset_bytes", off);
			jput_u64(b, fo, "size_bytes", io->size_bytes);
			jpush(b, files, fo);
		}
		sc_layout_rank_bytes(plan, p, pl, &rd, &wr);
		struct json_object *po = jnew(b, json_object_new_object());

		jput_u64(b, po, "phase", p);
		jput_u64(b, po, "read_bytes", rd);
		jput_u64(b, po, "write_bytes", wr);
		jpush(b, planned, po);
	}
	jput(b, o, "files", files);
	jput(b, o, "planned", planned);
	return o;
}

/* Cluster totals of the bytes phase p plans to read and write. */
static void phase_bytes(const struct sc_plan *plan, uint32_t p, const struct sc_dry_rank *ranks,
			uint32_t nranks, uint64_t *rd, uint64_t *wr)
{
	*rd = *wr = 0;
	for (uint32_t i = 0; i < nranks; i++) {
		uint64_t r, w;

		sc_layout_rank_bytes(plan, p, &ranks[i].place, &r, &w);
		*rd += r;
		*wr += w;
	}
}

static struct json_object *plan_phases_json(struct jb *b, const struct sc_plan *plan,
					    const struct sc_dry_rank *ranks, uint32_t nranks)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_io_spec *io = &plan->phases[p].io;
		struct json_object *o = jnew(b, json_object_new_object());
		uint64_t rd, wr;

		phase_bytes(plan, p, ranks, nranks, &rd, &wr);
		jput_str(b, o, "name", plan->phases[p].name);
		jput_u64(b, o, "index", p);
		if (io->runtime_ns) {
			jput_u64(b, o, "expected_duration_ns", io->ramp_ns + io->runtime_ns);
			jput_null(b, o, "ends_after_bytes");
			jput_null(b, o, "bytes_read_planned");
			jput_null(b, o, "bytes_written_planned");
		} else {
			jput_null(b, o, "expected_duration_ns");
			jput_u64(b, o, "ends_after_bytes", io->io_bytes);
			jput_u64(b, o, "bytes_read_planned", rd);
			jput_u64(b, o, "bytes_written_planned", wr);
		}
		jpush(b, a, o);
	}
	return a;
}

static struct json_object *plan_targets_json(struct jb *b, const struct sc_plan *plan,
					     const struct sc_dry_rank *ranks, uint32_t nranks,
					     const uint32_t *nodes, uint32_t nnodes)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t t = 0; t < plan->ntargets; t++) {
		const struct sc_target_spec *ts = &plan->targets[t];
		struct json_object *o = jnew(b, json_object_new_object());
		struct json_object *per_node = jnew(b, json_object_new_array());

		jput_u64(b, o, "index", t);
		jput_str(b, o, "path", ts->path);
		jput_str(b, o, "kind", sc_target_kind_name(ts->kind));
		jput_u64(b, o, "capacity_bytes", ts->capacity_bytes);
		for (uint32_t n = 0; n < nnodes; n++) {
			const char *host;
			uint32_t slots = node_slots(ranks, nranks, nodes[n], t, &host);
			struct json_object *no;
			uint64_t need;

			if (!slots)
				continue;
			need = sc_layout_need_bytes(plan, t, slots);
			no = jnew(b, json_object_new_object());
			jput_u64(b, no, "node", nodes[n]);
			jput_str(b, no, "host", host);
			jput_u64(b, no, "nranks", slots);
			jput_u64(b, no, "needed_bytes", need);
			jput_bool(b, no, "fits", !ts->capacity_bytes || need <= ts->capacity_bytes);
			jpush(b, per_node, no);
		}
		jput(b, o, "nodes", per_node);
		jpush(b, a, o);
	}
	return a;
}

static void print_plan(const struct sc_plan *plan, const struct sc_dry_rank *ranks, uint32_t nranks,
		       const uint32_t *nodes, uint32_t nnodes)
{
	char b1[32], b2[32], b3[32], b4[32];

	printf("plan %s: %u ranks on %u nodes, %u targets, %u phases (config %s)\n",
	       plan->run_id ? plan->run_id : "-", nranks, nnodes, plan->ntargets, plan->nphases,
	       plan->config_path ? plan->config_path : "-");
	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *ph = &plan->phases[p];
		const struct sc_io_spec *io = &ph->io;
		uint64_t rd, wr;
		char mix[24] = "";

		phase_bytes(plan, p, ranks, nranks, &rd, &wr);
		if (ph->workload == SC_WORKLOAD_CHECKPOINT) {
			const struct sc_ckpt_spec *ck = &ph->ckpt;

			printf("  phase %u %s: %s checkpoint %u of %u, %s TP%u x PP%u x DP%u ZeRO-%u, "
			       "scale %g, %s %s%s; cluster %s %s\n",
			       p, ph->name, ck->restore ? "restore" : "write", ck->index,
			       ck->checkpoints, ck->model.name, ck->layout.tp, ck->layout.pp,
			       ck->layout.dp, ck->layout.zero_stage, ck->scale,
			       ck->restore ? "O_DIRECT" : (io->direct ? "O_DIRECT" : "buffered"),
			       sc_fmt_bytes(b1, sizeof(b1), io->bs_bytes),
			       !ck->restore && ck->fsync ? " + fsync" : "",
			       ck->restore ? "read" : "write",
			       sc_fmt_bytes(b2, sizeof(b2), ck->restore ? rd : wr));
			continue;
		}
		if (ph->workload == SC_WORKLOAD_INGEST) {
			const struct sc_ingest_spec *in = &ph->ingest;

			printf("  phase %u %s: ingest %u files x %s per node, samples %s, batch %u, "
			       "compute %s per batch, %u readers x QD%u; ",
			       p, ph->name, in->files, sc_fmt_bytes(b1, sizeof(b1), in->file_bytes),
			       sc_fmt_bytes(b2, sizeof(b2), in->sample_bytes), in->batch,
			       sc_fmt_duration(b3, sizeof(b3), in->compute_per_batch_ns), io->jobs,
			       io->iodepth);
			if (io->runtime_ns)
				printf("runtime %s\n", sc_fmt_duration(b4, sizeof(b4), io->runtime_ns));
			else
				printf("%u epoch(s), cluster read %s\n", in->epochs,
				       sc_fmt_bytes(b4, sizeof(b4), rd));
			continue;
		}
		if (io->rw == SC_RW_RANDRW)
			snprintf(mix, sizeof(mix), " %u%% reads", io->rwmixread_pct);
		printf("  phase %u %s: %s%s, bs %s, QD %u, %u jobs x %s, ", p, ph->name,
		       sc_rw_name(io->rw), mix, sc_fmt_bytes(b1, sizeof(b1), io->bs_bytes),
		       io->iodepth, io->jobs, sc_fmt_bytes(b2, sizeof(b2), io->size_bytes));
		if (io->runtime_ns)
			printf("runtime %s + ramp %s; planned bytes: time-based\n",
			       sc_fmt_duration(b3, sizeof(b3), io->runtime_ns),
			       sc_fmt_duration(b4, sizeof(b4), io->ramp_ns));
		else
			printf("ends after %s per job; planned cluster read %s, write %s\n",
			       sc_fmt_bytes(b3, sizeof(b3), io->io_bytes),
			       sc_fmt_bytes(b1, sizeof(b1), rd),
			       sc_fmt_bytes(b4, sizeof(b4), wr));
	}
	for (uint32_t t = 0; t < plan->ntargets; t++) {
		const struct sc_target_spec *ts = &plan->targets[t];

		for (uint32_t n = 0; n < nnodes; n++) {
			const char *host;
			uint32_t slots = node_slots(ranks, nranks, nodes[n], t, &host);
			uint64_t need;

			if (!slots)
				continue;
			need = sc_layout_need_bytes(plan, t, slots);
			printf("  target %u %s (%s) on node %u (%s), %u ranks: needs %s of %s%s\n",
			       t, ts->path, sc_target_kind_name(ts->kind), nodes[n], host, slots,
			       sc_fmt_bytes(b1, sizeof(b1), need),
			       sc_fmt_bytes(b2, sizeof(b2), ts->capacity_bytes),
			       ts->capacity_bytes && need > ts->capacity_bytes ? "  TOO SMALL"
									       : "");
		}
	}
	if (nranks > PLAN_PRINT_RANKS_MAX)
		return;
	for (uint32_t i = 0; i < nranks; i++) {
		const struct sc_place *pl = &ranks[i].place;

		printf("  rank %u: host %s, node %u, target %u (%s)\n", pl->rank,
		       ranks[i].host ? ranks[i].host : "?", ranks[i].node, pl->target,
		       pl->target < plan->ntargets ? plan->targets[pl->target].path : "?");
	}
}

int sc_report_plan(const char *dir, const struct sc_plan *plan, const struct sc_dry_rank *ranks,
		   uint32_t nranks, char *err, size_t errlen)
{
	struct jb b = {0};
	struct json_object *root, *ra;
	uint32_t *nodes = NULL;
	int nnodes, rc = 0, file_err = 0;
	size_t text_len;
	char *text;

	if (!dir || !dir[0])
		dir = ".";
	nnodes = distinct_nodes(ranks, nranks, &nodes);
	if (nnodes < 0) {
		report_set_err(err, errlen, "%s/plan.json: out of memory", dir);
		return nnodes;
	}

	root = jnew(&b, json_object_new_object());
	jput_str(&b, root, "tool", "ssdcluster");
	jput_str(&b, root, "version", SC_VERSION);
	jput_str(&b, root, "config", plan->config_path);
	jput_str(&b, root, "run_id", plan->run_id);
	jput_u64(&b, root, "nranks", nranks);
	jput_u64(&b, root, "nnodes", (uint64_t)nnodes);
	jput(&b, root, "plan", sc_report_plan_echo(&b, plan));
	ra = jnew(&b, json_object_new_array());
	for (uint32_t i = 0; i < nranks; i++)
		jpush(&b, ra, plan_rank_json(&b, plan, &ranks[i], &file_err));
	jput(&b, root, "ranks", ra);
	jput(&b, root, "phases", plan_phases_json(&b, plan, ranks, nranks));
	jput(&b, root, "targets",
	     plan_targets_json(&b, plan, ranks, nranks, nodes, (uint32_t)nnodes));

	if (file_err) {
		rc = file_err;
		report_set_err(err, errlen, "%s/plan.json: a job file path is too long: %s", dir,
			       strerror(-rc));
		goto out_free;
	}
	text = report_json_text(&b, root, &text_len);
	if (!text) {
		rc = -ENOMEM;
		report_set_err(err, errlen, "%s/plan.json: out of memory", dir);
		goto out_free;
	}
	rc = report_write_named(dir, "plan.json", text, text_len, err, errlen);
	free(text);
	if (!rc) {
		print_plan(plan, ranks, nranks, nodes, (uint32_t)nnodes);
		fflush(stdout);
	}
out_free:
	json_object_put(root);
	free(nodes);
	return rc;
}
