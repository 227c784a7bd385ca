/* results_workloads.c -- what the AI workloads add to results.json: a
 * checkpoint cell, every checkpoint group with its trend and projection,
 * an ingest phase, and the response times of an open-loop phase. */
#include <json-c/json.h>

#include "analysis/workload_figures.h"
#include "mlperf.h"
#include "report_priv.h"

/* Write path of a checkpoint cell, as results must say: the two differ
 * several-fold on the same drive. */
static const char *ckpt_path_name(const struct sc_phase *ph)
{
	if (ph->ckpt.restore && ph->ckpt.procedure == SC_PROCEDURE_MLPERF && !ph->io.direct)
		return "buffered reads, the page cache dropped before the first (procedure: "
		       "mlperf, as DLIO reads)";
	if (ph->ckpt.restore)
		return "O_DIRECT reads (page cache bypassed)";
	if (ph->io.direct)
		return ph->ckpt.fsync ? "O_DIRECT writes, then fsync" : "O_DIRECT writes";
	if (ph->ckpt.serialize == SC_SERIALIZE_TORCH)
		return ph->ckpt.fsync ? "torch.save's zip container (CRC-32), buffered writes, "
					"then fsync (serialize: torch)"
				      : "torch.save's zip container (CRC-32), buffered writes, no fsync";
	return ph->ckpt.fsync ? "buffered writes, then fsync (as torch.save + os.fsync)"
			      : "buffered writes, no fsync";
}

/* What a cell's row and a group's cells share. */
static void ckpt_cell_sums(struct jb *b, struct json_object *o, const struct sc_ckpt_cell *c)
{
	sc_json_put_u64(b, o, "bytes", c->bytes);
	sc_json_put_u64(b, o, "files", c->files);
	sc_json_put_i64(b, o, "duration_ns", c->duration_ns);
	sc_json_put_dbl(b, o, "throughput_bytes_per_s", c->throughput_bytes_per_s);
	sc_json_put_mbps(b, o, "throughput_MBps", c->throughput_bytes_per_s);
	sc_json_put_u64(b, o, "slowest_rank", c->slowest_rank);
	if (c->delete_ns)
		sc_json_put_u64(b, o, "delete_ns", c->delete_ns);
	if (c->async) {
		struct json_object *a = sc_json_new(b, json_object_new_object());

		sc_json_put_u64(b, a, "blocking_ns", c->blocking_ns);
		sc_json_put_u64(b, a, "drain_ns", c->drain_ns);
		sc_json_put_u64(b, a, "stall_ns", c->stall_ns);
		sc_json_put_u64(b, a, "ranks_stalled", c->ranks_stalled);
		sc_json_put_dbl(b, a, "host_copy_bytes_per_s", c->host_copy_bytes_per_s);
		sc_json_put(b, o, "async", a);
	}
}

struct json_object *sc_report_json_ckpt_cell(struct jb *b, const struct sc_phase *ph,
					     const struct sc_phase_figures *f,
					     const struct sc_ckpt_cell *c)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "index", ph->ckpt.index);
	sc_json_put_bool(b, o, "restore", ph->ckpt.restore);
	sc_json_put_str(b, o, "path", ckpt_path_name(ph));
	ckpt_cell_sums(b, o, c);
	sc_json_put_str(b, o, "slowest_host", f->slowest_node_host);
	sc_json_put_dbl(b, o, "scale", ph->ckpt.scale);
	return o;
}

/* Each rank of an ingest or training phase: its steps, compute, AU and
 * barrier wait, in the record's order. */
static struct json_object *step_ranks(struct jb *b, const struct sc_phase_record *pr,
					const double *rank_au)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		struct json_object *o = sc_json_new(b, json_object_new_object());

		sc_json_put_u64(b, o, "rank", r->rank);
		sc_json_put_u64(b, o, "steps", r->steps);
		sc_json_put_u64(b, o, "compute_ns", r->compute_ns);
		sc_json_put_dbl(b, o, "au", rank_au ? rank_au[i] : 0);
		sc_json_put_u64(b, o, "barrier_wait_ns", r->barrier_wait_ns);
		sc_json_push(b, a, o);
	}
	return a;
}

/* What an ingest or training phase's object ends with: the batch waits,
 * a row per node (with its AU and potential caching when given) and a
 * row per rank. */
static void put_step_rows(struct jb *b, struct json_object *o, const struct sc_phase_figures *f,
			  const struct sc_lat_summary *batch_wait, const struct sc_phase_record *pr,
			  const double *rank_au, const double *node_au, const bool *node_caching)
{
	struct json_object *nodes = sc_json_new(b, json_object_new_array());

	if (batch_wait)
		sc_json_put(b, o, "batch_wait_ns", sc_report_json_lat(b, batch_wait));
	else
		sc_json_put_null(b, o, "batch_wait_ns");
	for (uint32_t n = 0; n < f->nodes_len; n++) {
		const struct sc_node_row *row = &f->nodes[n];
		struct json_object *no = sc_json_new(b, json_object_new_object());

		sc_report_json_node_host(b, no, row->node, row->host);
		sc_json_put_u64(b, no, "samples", row->samples);
		sc_json_put_dbl(b, no, "samples_per_s", row->samples_per_s);
		sc_json_put_mbps(b, no, "MBps", row->bw_bytes_per_s);
		if (node_au)
			sc_json_put_dbl(b, no, "au", node_au[n]);
		if (node_caching)
			sc_json_put_bool(b, no, "potential_caching", node_caching[n]);
		sc_json_push(b, nodes, no);
	}
	sc_json_put(b, o, "nodes", nodes);
	if (sc_report_json_ranks_kept(pr->nranks))
		sc_json_put(b, o, "ranks", step_ranks(b, pr, rank_au));
	else
		sc_report_json_put_omitted(b, o, "ranks", pr->nranks);
}

struct json_object *sc_report_json_ingest(struct jb *b, const struct sc_phase_figures *f,
					  const struct sc_ingest_figures *g,
					  const struct sc_phase_record *pr, const double *rank_au)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "samples", g->samples);
	sc_json_put_u64(b, o, "steps", g->steps);
	sc_json_put_dbl(b, o, "samples_per_s", g->samples_per_s);
	sc_json_put_dbl(b, o, "bytes_per_s", f->lastdone_bw_bytes_per_s);
	sc_json_put_mbps(b, o, "MBps", f->lastdone_bw_bytes_per_s);
	sc_json_put_dbl(b, o, "volatility", f->volatility[SC_DIR_READ]);
	sc_json_put_u64(b, o, "compute_ns", g->compute_ns);
	sc_json_put_u64(b, o, "wall_ns", g->wall_ns);
	sc_json_put_dbl(b, o, "au", g->au);
	sc_json_put_dbl(b, o, "au_min", g->au_min);
	sc_json_put_u64(b, o, "au_min_rank", g->au_min_rank);
	sc_json_put_bool(b, o, "au_meets_90_pct", g->au_meets_90);
	sc_json_put_u64(b, o, "barrier_wait_ns", g->barrier_wait_ns);
	sc_json_put_u64(b, o, "barrier_wait_max_ns", g->barrier_wait_max_ns);
	sc_json_put_u64(b, o, "barrier_wait_max_rank", g->barrier_wait_max_rank);
	put_step_rows(b, o, f, g->has_batch_wait ? &g->batch_wait : NULL, pr, rank_au, NULL, NULL);
	return o;
}

/* A training phase's row per accelerator. */
static struct json_object *accel_rows(struct jb *b, const struct sc_phase_record *pr)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		for (uint32_t k = 0; k < sc_rank_accels(r); k++) {
			struct sc_accel_row x = sc_rank_accel(r, k);
			struct json_object *o = sc_json_new(b, json_object_new_object());

			sc_json_put_u64(b, o, "accelerator", x.index);
			sc_json_put_u64(b, o, "rank", r->rank);
			sc_json_put_u64(b, o, "node", r->node);
			sc_json_put_u64(b, o, "samples", x.samples);
			sc_json_put_u64(b, o, "steps", x.steps);
			sc_json_put_u64(b, o, "au_steps", x.au_steps);
			sc_json_put_dbl(b, o, "au", sc_accel_au(&x));
			sc_json_put_u64(b, o, "barrier_wait_ns", x.barrier_wait_ns);
			sc_json_push(b, a, o);
		}
	}
	return a;
}

struct json_object *sc_report_json_training(struct jb *b, const struct sc_phase *ph,
					    const struct sc_phase_figures *f,
					    const struct sc_workload_figures *w,
					    const struct sc_phase_record *pr)
{
	const struct sc_training_figures *g = &w->training;
	const struct sc_training_spec *t = &ph->training;
	struct json_object *caching = sc_json_new(b, json_object_new_array());
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *m = sc_json_new(b, json_object_new_object());

	/* MLPerf Storage's summary.json names, as DLIO computes them */
	if (t->benchmark < SC_MLPERF_BENCHMARK_COUNT)
		sc_json_put_str(b, m, "benchmark", sc_mlperf_benchmark_name(t->benchmark));
	else
		sc_json_put_null(b, m, "benchmark");
	if (t->accelerator < SC_MLPERF_ACCELERATOR_COUNT)
		sc_json_put_str(b, m, "accelerator", sc_mlperf_accelerator_name(t->accelerator));
	else
		sc_json_put_null(b, m, "accelerator");
	sc_json_put_u64(b, m, "num_accelerators", g->accelerators);
	sc_json_put_u64(b, m, "num_hosts", g->hosts);
	sc_json_put_u64(b, m, "num_files_train", t->files);
	sc_json_put_u64(b, m, "num_samples_per_file", t->samples_per_file);
	sc_json_put_u64(b, m, "epochs", t->epochs);
	if (g->au_measured)
		sc_json_put_dbl(b, m, "train_au_mean_percentage", g->au * 100.0);
	else /* every epoch one step, which AU leaves out */
		sc_json_put_null(b, m, "train_au_mean_percentage");
	sc_json_put_str(b, m, "train_au_meet_expectation", g->au_meets ? "success" : "fail");
	sc_json_put_dbl(b, m, "train_throughput_mean_samples_per_second", g->samples_per_s);
	sc_json_put_dbl(b, m, "train_io_mean_MB_per_second", g->mlperf_io_MiBps);
	/* DLIO's, GiB named GB: each host's share of the dataset and whether
	 * it fits in the host's memory (ours: and the reads are buffered) */
	sc_json_put_dbl(b, m, "data_size_per_host_GB",
			(double)g->data_per_host_bytes / (1024.0 * 1024.0 * 1024.0));
	for (uint32_t n = 0; w->node_caching && n < f->nodes_len; n++)
		sc_json_push(b, caching, json_object_new_int(w->node_caching[n] ? 1 : 0));
	sc_json_put(b, m, "potential_caching", caching);
	sc_json_put(b, o, "mlperf", m);
	sc_json_put_u64(b, o, "samples", g->samples);
	sc_json_put_u64(b, o, "steps", g->steps);
	sc_json_put_dbl(b, o, "au", g->au);
	sc_json_put_dbl(b, o, "au_threshold", g->au_threshold);
	sc_json_put_dbl(b, o, "au_min", g->au_min);
	sc_json_put_u64(b, o, "au_min_rank", g->au_min_rank);
	sc_json_put_dbl(b, o, "au_max", g->au_max);
	sc_json_put_u64(b, o, "au_min_accelerator", g->au_min_accel);
	sc_json_put_u64(b, o, "accelerators_below_threshold", g->accels_below);
	sc_json_put_u64(b, o, "accelerators_per_host", g->per_host);
	sc_json_put_u64(b, o, "accelerators_per_rank", sc_training_per_rank(t));
	if (g->hosts_measured) {
		sc_json_put_dbl(b, o, "host_au_min", g->host_au_min);
		sc_json_put_u64(b, o, "host_au_min_node", g->host_au_min_node);
		sc_json_put_u64(b, o, "hosts_below_threshold", g->hosts_below);
	}
	sc_json_put_dbl(b, o, "bytes_per_s", f->lastdone_bw_bytes_per_s);
	sc_json_put_mbps(b, o, "MBps", f->lastdone_bw_bytes_per_s);
	put_step_rows(b, o, f, g->has_batch_wait ? &g->batch_wait : NULL, pr, w->rank_au,
		      w->node_au, w->node_caching);
	if (sc_report_json_ranks_kept(g->accelerators))
		sc_json_put(b, o, "accelerators", accel_rows(b, pr));
	else
		sc_report_json_put_omitted(b, o, "accelerators", g->accelerators);
	return o;
}

struct json_object *sc_report_json_open_loop(struct jb *b, const struct sc_open_loop_figures *ol)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *resp = sc_json_new(b, json_object_new_object());

	for (int d = 0; d < SC_DIR_COUNT; d++) {
		const char *key = d == SC_DIR_READ ? "read" : "write";

		if (ol->has_resp[d])
			sc_json_put(b, resp, key, sc_report_json_lat(b, &ol->resp[d]));
		else
			sc_json_put_null(b, resp, key);
	}
	sc_json_put(b, o, "response_latency_ns", resp);
	sc_json_put_u64(b, o, "late_ios", ol->late_ios);
	sc_json_put_u64(b, o, "unissued_ios", ol->unissued_ios);
	return o;
}

static struct json_object *trend_json(struct jb *b, const struct sc_ckpt_trend *t)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "checkpoints", t->n);
	sc_json_put_dbl(b, o, "mean_duration_ns", t->mean_ns);
	sc_json_put_dbl(b, o, "p50_duration_ns", t->p50_ns);
	sc_json_put_dbl(b, o, "max_duration_ns", t->max_ns);
	sc_json_put_dbl(b, o, "slope_ns_per_checkpoint", t->slope_ns_per_ckpt);
	sc_json_put_dbl(b, o, "last_first_ratio", t->last_first_ratio);
	sc_json_put_dbl(b, o, "throughput_bytes_per_s", t->throughput_bytes_per_s);
	sc_json_put_mbps(b, o, "throughput_MBps", t->throughput_bytes_per_s);
	return o;
}

/* A mean and a standard deviation, in seconds. */
static struct json_object *mean_stdev_json(struct jb *b, double mean, double stdev)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_dbl(b, o, "mean", mean);
	sc_json_put_dbl(b, o, "stdev", stdev);
	return o;
}

/* A procedure: mlperf group in MLPerf Storage's terms (docs/results.md). */
static struct json_object *mlperf_json(struct jb *b, const struct sc_ckpt_group *g)
{
	const struct sc_ckpt_mlperf *m = &g->mlperf;
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "checkpoints_saved", m->nsave);
	sc_json_put_u64(b, o, "checkpoints_loaded", m->nload);
	sc_json_put(b, o, "save_duration_s", mean_stdev_json(b, m->save_mean_s, m->save_stdev_s));
	sc_json_put(b, o, "load_duration_s", mean_stdev_json(b, m->load_mean_s, m->load_stdev_s));
	sc_json_put_dbl(b, o, "save_throughput_GBps", m->save_GBps);
	sc_json_put_dbl(b, o, "load_throughput_GBps", m->load_GBps);
	sc_json_put_dbl(b, o, "save_throughput_GiBps", m->save_GiBps);
	sc_json_put_dbl(b, o, "load_throughput_GiBps", m->load_GiBps);
	sc_json_put_u64(b, o, "ranks", m->ranks);
	sc_json_put_u64(b, o, "layout_ranks", m->layout_ranks);
	sc_json_put_bool(b, o, "subset", m->ranks < m->layout_ranks);
	sc_json_put_dbl(b, o, "size_GiB", m->size_GiB);
	sc_json_put_dbl(b, o, "full_size_GiB", m->full_size_GiB);
	sc_json_put_dbl(b, o, "projected_full_size_save_s", g->projected_write_ns / SC_NS_PER_S_F);
	sc_json_put_dbl(b, o, "projected_full_size_load_s",
			g->projected_restore_ns / SC_NS_PER_S_F);
	sc_json_put_str(b, o, "cache_drop", sc_ckpt_cache_drop_name(m));
	sc_json_put_u64(b, o, "cache_drop_files", m->cache_drop_files);
	return o;
}

/* A checkpoint group: its cells, the trend of its writes and restores, and
 * the full-size projection. */
static struct json_object *ckpt_group_json(struct jb *b, const struct sc_run_record *rec,
					   const struct sc_ckpt_group *g)
{
	const struct sc_phase *ph = &rec->plan.phases[g->first_phase];
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *cells = sc_json_new(b, json_object_new_array());

	sc_json_put_str(b, o, "name", g->name);
	sc_json_put_str(b, o, "model", ph->ckpt.model.name);
	sc_json_put_dbl(b, o, "scale", ph->ckpt.scale);
	sc_json_put_str(
	    b, o, "write_path",
	    ckpt_path_name(&(struct sc_phase){
		.io = ph->io, .ckpt = {.fsync = ph->ckpt.fsync, .serialize = ph->ckpt.serialize}}));
	for (uint32_t i = 0; i < g->ncells; i++) {
		const struct sc_ckpt_cell *c = &g->cells[i];
		struct json_object *co = sc_json_new(b, json_object_new_object());

		sc_json_put_u64(b, co, "index", c->index);
		sc_json_put_bool(b, co, "restore", c->restore);
		ckpt_cell_sums(b, co, c);
		sc_json_put_u64(b, co, "slowest_node", c->slowest_node);
		sc_json_push(b, cells, co);
	}
	sc_json_put(b, o, "cells", cells);
	sc_json_put(b, o, "write", trend_json(b, &g->write));
	if (g->restore.n)
		sc_json_put(b, o, "restore", trend_json(b, &g->restore));
	else
		sc_json_put_null(b, o, "restore");
	sc_json_put_u64(b, o, "full_size_bytes", g->full_size_bytes);
	sc_json_put_dbl(b, o, "projected_full_size_write_ns", g->projected_write_ns);
	sc_json_put_dbl(b, o, "projected_full_size_restore_ns", g->projected_restore_ns);
	if (g->mlperf.on)
		sc_json_put(b, o, "mlperf", mlperf_json(b, g));
	return o;
}

struct json_object *sc_report_json_checkpoints(struct jb *b, const struct sc_run_record *rec,
					       const struct sc_run_figures *fg)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t k = 0; k < fg->nckpt; k++)
		sc_json_push(b, a, ckpt_group_json(b, rec, &fg->ckpt[k]));
	return a;
}

static struct json_object *spread_json(struct jb *b, const struct sc_training_spread *s,
				       double scale)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_dbl(b, o, "mean", s->mean * scale);
	sc_json_put_dbl(b, o, "stdev", s->stdev * scale);
	sc_json_put_dbl(b, o, "min", s->min * scale);
	sc_json_put_dbl(b, o, "max", s->max * scale);
	return o;
}

static struct json_object *training_group_json(struct jb *b, const struct sc_run_record *rec,
					       const struct sc_training_group *g)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *cells = sc_json_new(b, json_object_new_array());

	sc_json_put_str(b, o, "group", g->name);
	sc_json_put_u64(b, o, "config_index", g->config_index);
	sc_json_put_str(b, o, "kind", g->search ? "search" : "runs");
	sc_json_put_dbl(b, o, "au_threshold", g->au_threshold);
	for (uint32_t i = 0; i < g->ncells; i++) {
		const struct sc_training_cell *c = &g->cells[i];
		const struct sc_phase_record *pr =
		    c->rec_phase < rec->nphases ? &rec->phases[c->rec_phase] : NULL;
		struct json_object *x = sc_json_new(b, json_object_new_object());

		if (pr && pr->phase < rec->plan.nphases)
			sc_json_put_str(b, x, "phase", rec->plan.phases[pr->phase].name);
		else
			sc_json_put_null(b, x, "phase");
		sc_json_put_u64(b, x, "accelerators_per_rank", c->per_rank);
		sc_json_put_u64(b, x, "accelerators_per_host", c->per_host);
		sc_json_put_u64(b, x, "num_accelerators", c->accelerators);
		if (!g->search)
			sc_json_put_bool(b, x, "warmup", c->warmup);
		if (c->measured) {
			sc_json_put_dbl(b, x, "train_au_mean_percentage", c->au * 100.0);
			sc_json_put_dbl(b, x, "host_au_min_percentage", c->host_au_min * 100.0);
		} else {
			sc_json_put_null(b, x, "train_au_mean_percentage");
			sc_json_put_null(b, x, "host_au_min_percentage");
		}
		sc_json_put_dbl(b, x, "train_throughput_mean_samples_per_second",
				c->samples_per_s);
		sc_json_put_dbl(b, x, "train_io_mean_MB_per_second", c->io_MiBps);
		sc_json_put_bool(b, x, "pass", c->pass);
		sc_json_push(b, cells, x);
	}
	sc_json_put(b, o, g->search ? "trials" : "runs", cells);
	if (g->search) {
		sc_json_put_u64(b, o, "search_max_per_rank", g->search_max);
		sc_json_put_bool(b, o, "done", g->done);
		if (g->done) {
			sc_json_put_u64(b, o, "answer_accelerators_per_host", g->answer_per_host);
			sc_json_put_u64(b, o, "answer_accelerators_per_rank", g->answer_per_rank);
			sc_json_put_bool(b, o, "answer_is_search_max",
					 g->answer_per_rank >= g->search_max);
		} else {
			sc_json_put_null(b, o, "answer_accelerators_per_host");
			sc_json_put_null(b, o, "answer_accelerators_per_rank");
		}
		return o;
	}
	sc_json_put_u64(b, o, "warmup_runs", g->warmups);
	sc_json_put_u64(b, o, "measured_runs_planned", g->runs);
	sc_json_put_u64(b, o, "measured_runs", g->measured);
	sc_json_put_u64(b, o, "runs_below_threshold", g->runs_failed);
	/* MLPerf's result: the mean of the measured runs */
	sc_json_put_dbl(b, o, "train_au_mean_percentage", g->au.mean * 100.0);
	sc_json_put_str(b, o, "train_au_meet_expectation", g->meets ? "success" : "fail");
	sc_json_put_dbl(b, o, "train_throughput_mean_samples_per_second", g->samples_per_s.mean);
	sc_json_put_dbl(b, o, "train_io_mean_MB_per_second", g->io_MiBps.mean);
	sc_json_put(b, o, "au_percentage", spread_json(b, &g->au, 100.0));
	sc_json_put(b, o, "samples_per_second", spread_json(b, &g->samples_per_s, 1.0));
	sc_json_put(b, o, "io_MB_per_second", spread_json(b, &g->io_MiBps, 1.0));
	return o;
}

struct json_object *sc_report_json_training_groups(struct jb *b, const struct sc_run_record *rec,
						   const struct sc_run_figures *fg)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t k = 0; k < fg->ntraining; k++)
		sc_json_push(b, a, training_group_json(b, rec, &fg->training[k]));
	return a;
}
