/* results.c -- results.json: the run's header, the definitions of its
 * figures, the plan echo, then per phase its rows and sections (built by
 * results_rows.c, results_errors.c and results_workloads.c). */
#include <errno.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "projection.h"
#include "analysis/io_options.h"
#include "report_priv.h"
#include "verdict_table.h"

static const char *const definitions[][2] = {
    {"lastdone_bw", "all bytes of all ranks / (latest rank end - earliest rank start after "
		    "ramp), as IOR reports"},
    {"firstdone_bw", "bytes moved by all ranks until the first rank finished / (that instant - "
		     "earliest rank start after ramp), the stonewall figure as elbencho "
		     "reports"},
    {"iops", "I/Os of all ranks / the last-done window"},
    {"percentiles", "cluster latency percentiles come from the bucket-wise sum of every "
		    "rank's histogram (log-linear, <=0.4% error); per-rank percentiles are "
		    "never averaged; percentile p is shown only from at least 1 / (1 - p) "
		    "samples (p50 2, p90 10, p99 100, p99.9 1000, p99.99 10^4, p99.9999 10^6): "
		    "with fewer it is null, with <name>_basis \"max of N samples\" (CSV: an "
		    "empty cell)"},
    {"volatility", "population stddev / mean of the cluster's per-second bytes over the "
		   "complete seconds (the last, partial second excluded); null with fewer "
		   "than 2 complete seconds or no bytes in the direction"},
    {"last_first_ratio", "a checkpoint group's last duration / its first; null with a "
			 "single checkpoint"},
    {"mlperf", "a procedure: mlperf checkpoint group in MLPerf Storage's terms, as DLIO "
	       "reports a run: each checkpoint's duration is its cell's (max over ranks from "
	       "the common start, fsync included), its throughput bytes / 1e9 / duration "
	       "(GBps; GiBps: / 2^30, DLIO's unit); mean over the checkpoints, stdev the "
	       "population standard deviation (numpy std); size_GiB one checkpoint as written; "
	       "cache_drop: drop_caches (every rank wrote /proc/sys/vm/drop_caches), fadvise "
	       "(posix_fadvise DONTNEED on each file written) or none"},
    {"times", "nanoseconds relative to the phase's common start instant on rank 0's "
	      "clock"},
    {"units", "MB = 10^6 bytes, MiB = 2^20 bytes; every key names its unit"},
    {"verify", "verify: crc32c: every block written (one I/O of bs) starts with a 48 B header "
	       "(magic, offset, run id hash, write sequence, length, phase, rank, CRC32C of the "
	       "whole block) followed by a pattern seeded from the header; every block read is "
	       "checked for its magic, offset, run id, length and CRC32C; the sequence is "
	       "reported, not checked"},
    {"steady_state", "SNIA PTS: a window of the last window_rounds rounds is steady when max - "
		     "min <= 20% of its mean and |slope x (rounds - 1)| <= 10% of its mean, slope "
		     "of the least-squares line of the figure over round index; per drive (rank) "
		     "and for the cluster; a group stops at the first round whose window is "
		     "steady for every drive"},
    {"temperature", "max_temperature_c: the hottest NVMe drive's hwmon temperature read in "
		    "the second (read 4 times a second), deg C; null: none read (no NVMe "
		    "telemetry, or no hwmon)"},
    {"write_cliff", "a fill phase's sequential passes, each whole second: initial rate = median "
		    "of the first initial_window_ns; the cliff = the first second from which the "
		    "rate stays below cliff_fraction x the initial rate for hold_window_ns in a "
		    "row; cache = bytes written before it; after = median rate from it on"},
    {"stages", "one row per phase, side by side: last-done bandwidth, IOPS, p99 and p99.99 of "
	       "both directions merged, volatility of the direction that moved more bytes"},
    {"verdict", "each expect: threshold of a phase against the figure the results hold: a "
		"minimum is met when measured >= required, a maximum when measured <= "
		"required; a drive is one rank's row, a node the ranks of one host; a check "
		"the run could not measure is neither pass nor fail"},
    {"per_rank_rows", "a phase's ranks, drives and write_cliff.drives, a steady-state "
		      "group's drives and an inventory entry's ranks hold one row per rank while "
		      "the run has at most 256 ranks; past that each is null, with <key>_file "
		      "(ranks.csv: every rank's row) and <key>_omitted (the rows left out); "
		      "errors then lists the first 256 failed ranks and verdict.checks the "
		      "first 256 drives that did not pass (errors_omitted, checks_omitted)"},
    {"series_not_kept", "rank 0 keeps each rank's own per-second series while ranks x seconds "
			"<= 2^20, each node's while nodes x seconds <= 2^20, the cluster's always; "
			"what is drawn from a series not kept is null, with series_not_kept "
			"giving the reason, never an empty series"},
    {"startup", "startup_ns: rank 0, from MPI ready to the plan checked in every rank's "
		"hands; a phase's start_cost_ns: from preparing's end to the common start's "
		"broadcast; merge_ns: reducing histograms and series, gathering and unpacking "
		"the ranks' rows"},
    {"outliers", "a drive's (or node's) bandwidth or IOPS more than k median absolute "
		 "deviations from the median of the phase's drives (or nodes), the MAD "
		 "floored at mad_floor x the median; at least 3 drives (or nodes)"},
};

static struct json_object *definitions_json(struct jb *b)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	for (size_t i = 0; i < sizeof(definitions) / sizeof(definitions[0]); i++)
		sc_json_put_str(b, o, definitions[i][0], definitions[i][1]);
	return o;
}

/* The arrays of a phase rendered a row at a time (phase_text): in the
 * phase's skeleton each is two tokens, first and second element. */
enum streamed {
	STREAM_NODES = 1u << 0,	  /* "nodes": tokens 2 and 3 */
	STREAM_TARGETS = 1u << 1, /* "targets": tokens 4 and 5 */
};
#define TOKEN_NODES 2
#define TOKEN_TARGETS 4

/* The array [token k, token k + 1]: where a streamed array goes. */
static struct json_object *token_pair(struct jb *b, unsigned k)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	sc_json_push(b, a, sc_json_token(b, k));
	sc_json_push(b, a, sc_json_token(b, k + 1));
	return a;
}

static struct json_object *phase_json(struct jb *b, const struct sc_run_record *rec,
				      const struct sc_phase_record *pr,
				      const struct sc_phase_figures *f,
				      const struct sc_workload_figures *w, unsigned streamed)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	const struct sc_phase *ph = sc_report_phase_of(rec, pr->phase);
	uint32_t omitted;

	sc_json_put_str(b, o, "name", ph ? ph->name : NULL);
	sc_json_put_u64(b, o, "index", pr->phase);
	sc_json_put_str(b, o, "rw", ph ? sc_rw_name(ph->io.rw) : NULL);
	sc_json_put_u64(b, o, "bs_bytes", ph ? ph->io.bs_bytes : 0);
	sc_json_put_u64(b, o, "iodepth", ph ? ph->io.iodepth : 0);
	sc_json_put_u64(b, o, "jobs", ph ? ph->io.jobs : 0);
	sc_json_put_i64(b, o, "measure_start_ns", pr->measure_start_ns);
	sc_json_put_str(b, o, "stonewall", ph ? sc_stonewall_name(ph->stonewall) : NULL);
	if (ph && ph->io.runtime_max_ns) { /* what ended a phase of bytes with a cap */
		sc_json_put_str(b, o, "ended_by", f->time_capped_jobs ? "runtime_max" : "bytes");
		sc_json_put_u64(b, o, "jobs_ended_by_runtime_max", f->time_capped_jobs);
	}
	sc_json_put_i64(b, o, "merge_ns", pr->merge_ns);
	sc_json_put_i64(b, o, "start_cost_ns", pr->start_cost_ns);
	sc_json_put(b, o, "cluster", sc_report_json_cluster(b, f));
	sc_json_put(b, o, "nodes",
		    streamed & STREAM_NODES ? token_pair(b, TOKEN_NODES) : sc_report_json_nodes(b, f));
	sc_json_put(b, o, "targets",
		    streamed & STREAM_TARGETS ? token_pair(b, TOKEN_TARGETS)
					      : sc_report_json_targets(b, rec, f));
	if (sc_report_json_ranks_kept(pr->nranks))
		sc_json_put(b, o, "ranks", sc_report_json_ranks(b, rec, pr, f));
	else
		sc_report_json_put_omitted(b, o, "ranks", pr->nranks);
	sc_json_put(b, o, "timeseries", sc_report_json_timeseries(b, pr, f));
	sc_json_put(b, o, "errors", sc_report_json_rank_errors(b, pr, &omitted));
	if (omitted) { /* every rank's "error" is in ranks.csv */
		sc_json_put_str(b, o, "errors_file", "ranks.csv");
		sc_json_put_u64(b, o, "errors_omitted", omitted);
	}
	sc_json_put_str(b, o, "status", sc_phase_status_name(pr->status));
	sc_json_put(b, o, "io_errors", sc_report_json_io_errors(b, rec, f));
	if (sc_io_opts_any_asked(pr))
		sc_json_put(b, o, "io_options", sc_report_json_io_options(b, pr));
	if (ph && ph->workload == SC_WORKLOAD_CHECKPOINT)
		sc_json_put(b, o, "checkpoint", sc_report_json_ckpt_cell(b, ph, f, &w->ckpt));
	if (ph && ph->workload == SC_WORKLOAD_INGEST)
		sc_json_put(b, o, "ingest", sc_report_json_ingest(b, f, &w->ingest, pr, w->rank_au));
	if (ph && ph->workload == SC_WORKLOAD_TRAINING)
		sc_json_put(
		    b, o, "training",
		    sc_report_json_training(b, ph, f, w, pr));
	if (ph && ph->io.rate_iops)
		sc_json_put(b, o, "open_loop", sc_report_json_open_loop(b, &w->open_loop));
	if (ph && ph->io.verify != SC_VERIFY_NONE)
		sc_json_put(b, o, "verify", sc_report_json_verify(b, rec, pr, ph, &w->verify));
	if (sc_report_json_ranks_kept(pr->nranks))
		sc_json_put(b, o, "drives", sc_report_json_phase_drives(b, pr));
	else
		sc_report_json_put_omitted(b, o, "drives", pr->nranks);
	if (ph && ph->workload == SC_WORKLOAD_FILL)
		sc_json_put(b, o, "write_cliff",
			    sc_report_json_write_cliff(b, rec, pr, &w->cliffs));
	return o;
}

static struct json_object *results_root(struct jb *b, const struct sc_run_record *rec)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_str(b, o, "tool", "ssdcluster");
	sc_json_put_str(b, o, "version", rec->version);
	sc_json_put_i64(b, o, "started_unix_ns", rec->started_unix_ns);
	sc_json_put_str(b, o, "config", rec->plan.config_path);
	sc_json_put_str(b, o, "run_id", rec->plan.run_id);
	sc_json_put_u64(b, o, "nranks", rec->nranks);
	sc_json_put_u64(b, o, "nnodes", rec->nnodes);
	sc_json_put_u64(b, o, "rank0_peak_rss_bytes", rec->rank0_peak_rss_bytes);
	sc_json_put_i64(b, o, "startup_ns", rec->startup_ns);
	sc_json_put(b, o, "definitions", definitions_json(b));
	sc_json_put(b, o, "plan", sc_report_plan_echo(b, &rec->plan));
	return o;
}

void sc_report_results_init(struct report_results *r, const struct sc_run_record *rec,
			    const struct sc_run_figures *fg)
{
	r->rec = rec;
	r->fg = fg;
	r->b.nomem = 0;
	r->root = results_root(&r->b, rec);
	r->nphases = 0;
	r->stages = sc_json_new(&r->b, json_object_new_array());
}

void sc_report_results_phase(struct report_results *r, const struct sc_run_record *rec,
			     const struct sc_run_figures *fg, uint32_t i)
{
	const struct sc_phase *ph = sc_report_phase_of(rec, rec->phases[i].phase);

	r->nphases++;
	if (ph)
		sc_json_push(&r->b, r->stages, sc_report_json_stage(&r->b, &fg->work[i].stage));
}

struct json_object *sc_report_results_phase_json(struct jb *b, const struct sc_run_record *rec,
						 const struct sc_run_figures *fg, uint32_t i)
{
	return phase_json(b, rec, &rec->phases[i], &fg->phases[i], &fg->work[i], 0);
}

/* What node_row and target_row read. */
struct rows_of {
	const struct sc_run_record *rec;
	const struct sc_phase_figures *f;
};

static struct json_object *node_row(struct jb *b, const void *ctx, uint32_t k)
{
	return sc_report_json_node(b, ((const struct rows_of *)ctx)->f, k);
}

static struct json_object *target_row(struct jb *b, const void *ctx, uint32_t k)
{
	const struct rows_of *r = ctx;

	return sc_report_json_target(b, r->rec, r->f, k);
}

/* Rows a chunk of a streamed array holds: enough that taking one costs
 * nothing beside rendering it, few enough that two threads finish
 * together. */
#define CHUNK_ROWS 64u

/* A streamed array of the skeleton: where its tokens are, how its rows
 * are printed there, and its chunks' first index in the job's. */
struct streamed_array {
	const char *t0, *t1; /* its first and second token in the skeleton */
	size_t pad;	     /* the first token's indentation */
	uint32_t n;	     /* rows */
	uint32_t first_chunk, nchunks;
	struct json_object *(*row)(struct jb *, const void *, uint32_t);
};

struct sc_phase_text_job {
	struct rows_of rows;
	char head[32]; /* what the text starts with */
	size_t head_len;
	char *skel;
	size_t slen;
	struct streamed_array arr[2]; /* nodes, then targets */
	uint32_t narr, nchunks;
	_Atomic uint32_t next; /* the next chunk to take */
	_Atomic int nomem;
	char **text; /* each chunk's rows, as printed in their place */
	size_t *len;
};

/* Renders chunk c of job's array a: its rows, each after the separator
 * of two but the array's first. */
static void render_chunk(struct sc_phase_text_job *job, const struct streamed_array *a,
			 uint32_t c)
{
	uint32_t from = (c - a->first_chunk) * CHUNK_ROWS;
	uint32_t to = from + CHUNK_ROWS < a->n ? from + CHUNK_ROWS : a->n;
	const char *sep = a->t0 + SC_JSON_TOKEN_LEN;
	size_t sep_len = (size_t)(a->t1 - sep), rlen;
	struct jb b = {0};
	char *out = NULL, *text;
	size_t olen = 0;
	FILE *m = open_memstream(&out, &olen);
	bool bad = !m;

	for (uint32_t k = from; !bad && k < to; k++) {
		if (k)
			fwrite(sep, 1, sep_len, m);
		text = sc_json_text_at(&b, a->row(&b, &job->rows, k), a->pad, &rlen);
		bad = !text;
		if (text)
			fwrite(text, 1, rlen, m);
		free(text);
	}
	if (m && (ferror(m) | fclose(m)))
		bad = true;
	if (bad) {
		free(out);
		job->nomem = 1;
		return;
	}
	job->text[c] = out;
	job->len[c] = olen;
}

struct sc_phase_text_job *sc_report_results_phase_begin(const struct sc_run_record *rec,
							const struct sc_run_figures *fg,
							uint32_t i, size_t pad, const char *head,
							size_t head_len)
{
	const struct sc_phase_figures *f = &fg->phases[i];
	unsigned streamed = (f->nodes_len >= 2 ? STREAM_NODES : 0) |
			    (f->targets_len >= 2 ? STREAM_TARGETS : 0);
	struct sc_phase_text_job *job = calloc(1, sizeof(*job));
	struct jb b = {0};

	if (!job)
		return NULL;
	if (head_len > sizeof(job->head)) {
		free(job);
		return NULL;
	}
	if (head_len)
		memcpy(job->head, head, head_len);
	job->head_len = head_len;
	job->rows = (struct rows_of){rec, f};
	job->skel = sc_json_text_at(&b, phase_json(&b, rec, &rec->phases[i], f, &fg->work[i],
						   streamed),
				    pad, &job->slen);
	if (!job->skel) {
		free(job);
		return NULL;
	}
	for (unsigned s = 0; s < 2; s++) {
		struct streamed_array *a = &job->arr[job->narr];
		unsigned k0 = s ? TOKEN_TARGETS : TOKEN_NODES;

		if (!(streamed & (s ? STREAM_TARGETS : STREAM_NODES)))
			continue;
		a->t0 = sc_json_token_in(job->skel, job->slen, k0);
		a->t1 = sc_json_token_in(job->skel, job->slen, k0 + 1);
		if (!a->t0 || !a->t1 || a->t1 < a->t0) {
			sc_report_results_phase_end(job, NULL);
			return NULL;
		}
		a->pad = sc_json_indent_before(job->skel, a->t0);
		a->n = s ? f->targets_len : f->nodes_len;
		a->row = s ? target_row : node_row;
		a->first_chunk = job->nchunks;
		a->nchunks = (a->n + CHUNK_ROWS - 1) / CHUNK_ROWS;
		job->nchunks += a->nchunks;
		job->narr++;
	}
	job->text = calloc(job->nchunks ? job->nchunks : 1, sizeof(*job->text));
	job->len = calloc(job->nchunks ? job->nchunks : 1, sizeof(*job->len));
	if (!job->text || !job->len) {
		sc_report_results_phase_end(job, NULL);
		return NULL;
	}
	return job;
}

void sc_report_results_phase_help(struct sc_phase_text_job *job)
{
	for (uint32_t c; !job->nomem && (c = job->next++) < job->nchunks;)
		render_chunk(job, &job->arr[c < job->arr[0].nchunks ? 0 : 1], c);
}

/* The bytes the skeleton gives between the streamed arrays' rows (its
 * text but their tokens). */
static size_t skeleton_bytes(const struct sc_phase_text_job *job)
{
	size_t n = job->slen;

	for (uint32_t s = 0; s < job->narr; s++)
		n -= (size_t)(job->arr[s].t1 - job->arr[s].t0) + SC_JSON_TOKEN_LEN;
	return n;
}

char *sc_report_results_phase_end(struct sc_phase_text_job *job, size_t *len)
{
	const char *at;
	char *out = NULL, *q;
	size_t total;

	if (!job)
		return NULL;
	if (len) {
		sc_report_results_phase_help(job); /* what no thread took */
		total = job->head_len + skeleton_bytes(job);
		for (uint32_t c = 0; c < job->nchunks; c++)
			total += job->len[c];
		out = job->nomem ? NULL : malloc(total + 1);
	}
	if (out) {
		q = mempcpy(out, job->head, job->head_len);
		at = job->skel;
		for (uint32_t s = 0; s < job->narr; s++) {
			const struct streamed_array *a = &job->arr[s];

			q = mempcpy(q, at, (size_t)(a->t0 - at));
			for (uint32_t c = a->first_chunk; c < a->first_chunk + a->nchunks; c++)
				q = mempcpy(q, job->text[c], job->len[c]);
			at = a->t1 + SC_JSON_TOKEN_LEN;
		}
		q = mempcpy(q, at, job->slen - (size_t)(at - job->skel));
		*q = '\0';
		*len = total;
	}
	for (uint32_t c = 0; job->text && c < job->nchunks; c++)
		free(job->text[c]);
	free(job->text);
	free(job->len);
	free(job->skel);
	free(job);
	return out;
}

char *sc_report_results_phase_text(const struct sc_run_record *rec,
				   const struct sc_run_figures *fg, uint32_t i, size_t pad,
				   size_t *len)
{
	return sc_report_results_phase_end(sc_report_results_phase_begin(rec, fg, i, pad, NULL, 0),
					   len);
}

/* "phases": see sc_report_results_text. */
static void put_phases(struct report_results *r)
{
	struct json_object *a;

	if (r->index) {
		sc_json_put_null(&r->b, r->root, "phases");
		sc_json_put_str(&r->b, r->root, "phases_file", SC_REPORT_JSON_PART);
		sc_json_put_u64(&r->b, r->root, "phases_omitted", r->nphases);
		return;
	}
	a = sc_json_new(&r->b, json_object_new_array());
	for (unsigned k = 0; k < r->nphases && k < 2; k++)
		sc_json_push(&r->b, a, sc_json_token(&r->b, k));
	sc_json_put(&r->b, r->root, "phases", a);
}

/* {"error": why}: the run's model: section could not be projected. */
static struct json_object *model_error_json(struct jb *b, const char *why)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_str(b, o, "error", why);
	return o;
}

char *sc_report_results_text(struct report_results *r, size_t *len)
{
	sc_json_put(&r->b, r->root, "checkpoints", sc_report_json_checkpoints(&r->b, r->rec, r->fg));
	if (r->sweeps)
		sc_json_put(&r->b, r->root, "sweeps", sc_report_json_sweeps(&r->b, r->sweeps));
	put_phases(r);
	sc_json_put(&r->b, r->root, "steady_state", sc_report_json_steady(&r->b, r->rec, r->fg));
	if (r->fg->ntraining) /* absent without a search or runs */
		sc_json_put(&r->b, r->root, "training_groups",
			    sc_report_json_training_groups(&r->b, r->rec, r->fg));
	sc_json_put(&r->b, r->root, "inventory", sc_report_json_inventory(&r->b, r->rec, &r->fg->inventory));
	sc_json_put(&r->b, r->root, "endurance", sc_report_json_endurance(&r->b, r->rec, r->fg));
	sc_json_put(&r->b, r->root, "stages", r->stages);
	r->stages = NULL;
	if (r->model)
		sc_json_put(&r->b, r->root, "model", sc_report_json_model(&r->b, r->model));
	else if (r->model_error && r->model_error[0])
		sc_json_put(&r->b, r->root, "model", model_error_json(&r->b, r->model_error));
	sc_report_results_verdict(r);
	return sc_json_text(&r->b, r->root, len);
}

void sc_report_results_verdict(struct report_results *r)
{
	sc_json_put(&r->b, r->root, "verdict",
		    sc_report_json_verdict(&r->b, &r->fg->verdict, &r->fg->outliers,
					   r->rec->nranks));
}

void sc_report_results_exit(struct report_results *r)
{
	json_object_put(r->stages);
	json_object_put(r->root);
	r->stages = NULL;
	r->root = NULL;
}
