/* json.c -- results.json, and the JSON builder and plan echo that
 * plan.json shares. */
#include "report.h"

#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "verify.h"
#include "analysis/aggregate.h"
#include "report_priv.h"
#include "analysis/workload_figures.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

/* ------------------------------------------------------------ JSON helpers */

struct json_object *jnew(struct jb *b, struct json_object *o)
{
	if (!o)
		b->nomem = 1;
	return o;
}

void jput(struct jb *b, struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void jput_null(struct jb *b, struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL))
		b->nomem = 1;
}

void jpush(struct jb *b, struct json_object *a, struct json_object *v)
{
	if (!a || !v || json_object_array_add(a, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void jput_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v)
{
	jput(b, o, key, json_object_new_uint64(v));
}

void jput_i64(struct jb *b, struct json_object *o, const char *key, int64_t v)
{
	jput(b, o, key, json_object_new_int64(v));
}

void jput_bool(struct jb *b, struct json_object *o, const char *key, int v)
{
	jput(b, o, key, json_object_new_boolean(v));
}

void jput_str(struct jb *b, struct json_object *o, const char *key, const char *s)
{
	if (s)
		jput(b, o, key, json_object_new_string(s));
	else
		jput_null(b, o, key);
}

/* The shortest of %.15g / %.17g that reads back as v (json-c would print
 * 1.2e9/7 with 17 digits of noise); non-finite values become null. */
static struct json_object *new_double(double v)
{
	char s[40];

	snprintf(s, sizeof(s), "%.15g", v);
	if (strtod(s, NULL) != v)
		snprintf(s, sizeof(s), "%.17g", v);
	return json_object_new_double_s(v, s);
}

void jput_dbl(struct jb *b, struct json_object *o, const char *key, double v)
{
	if (isfinite(v))
		jput(b, o, key, new_double(v));
	else
		jput_null(b, o, key);
}

/* MB/s, rounded to whole bytes per second so that it prints short. */
static void jput_mbps(struct jb *b, struct json_object *o, const char *key, double bytes_per_s)
{
	jput_dbl(b, o, key, round(bytes_per_s) / BYTES_PER_MB);
}

static void jpush_u64(struct jb *b, struct json_object *a, uint64_t v)
{
	jpush(b, a, json_object_new_uint64(v));
}

char *report_json_text(struct jb *b, struct json_object *root, size_t *len)
{
	const char *json;
	size_t json_len;
	char *text;

	json = b->nomem ? NULL : json_object_to_json_string_length(root, JSON_FLAGS, &json_len);
	if (!json)
		return NULL;
	/* json-c's buffer ends in a NUL where the newline goes */
	text = malloc(json_len + 1);
	if (!text)
		return NULL;
	memcpy(text, json, json_len);
	text[json_len] = '\n';
	*len = json_len + 1;
	return text;
}

/* ------------------------------------------------------------ results.json */

static const char *const definitions[][2] = {
    {"lastdone_bw", "all bytes of all ranks / (latest rank end - earliest rank start after "
		    "ramp), as IOR reports"},
    {"firstdone_bw", "bytes moved by all ranks until the first rank finished / (that instant - "
		     "earliest rank start after ramp), the stonewall figure as elbencho "
		     "reports"},
    {"iops", "I/Os of all ranks / the last-done window"},
    {"percentiles", "cluster latency percentiles come from the bucket-wise sum of every "
		    "rank's histogram (log-linear, <=0.4% error); per-rank percentiles are "
		    "never averaged"},
    {"volatility", "population stddev / mean of the cluster's per-second bytes over the "
		   "complete seconds (the last, partial second excluded)"},
    {"times", "nanoseconds relative to the phase's common start instant on rank 0's "
	      "clock"},
    {"units", "MB = 10^6 bytes, MiB = 2^20 bytes; every key names its unit"},
    {"verify", "verify: crc32c: every block written (one I/O of bs) starts with a 48 B header "
	       "(magic, offset, run id hash, write sequence, length, phase, rank, CRC32C of the "
	       "whole block) followed by a pattern seeded from the header; every block read is "
	       "checked for its magic, offset, run id, length and CRC32C; the sequence is "
	       "reported, not checked"},
};

static struct json_object *definitions_json(struct jb *b)
{
	struct json_object *o = jnew(b, json_object_new_object());

	for (size_t i = 0; i < sizeof(definitions) / sizeof(definitions[0]); i++)
		jput_str(b, o, definitions[i][0], definitions[i][1]);
	return o;
}

/* Latency figures of one direction; null values when it has no I/Os. */
static struct json_object *lat_json(struct jb *b, const struct sc_lat_summary *s)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "count", s->count);
	if (!s->count) {
		jput_null(b, o, "min");
		jput_null(b, o, "mean");
		jput_null(b, o, "max");
		for (int i = 0; i < SC_NPCT; i++)
			jput_null(b, o, sc_pct_names[i]);
		return o;
	}
	jput_u64(b, o, "min", s->min_ns);
	jput_dbl(b, o, "mean", s->mean_ns);
	jput_u64(b, o, "max", s->max_ns);
	for (int i = 0; i < SC_NPCT; i++)
		jput_u64(b, o, sc_pct_names[i], s->pct_ns[i]);
	return o;
}

static struct json_object *lat_pair_json(struct jb *b,
					 const struct sc_lat_summary lat[SC_DIR_COUNT])
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput(b, o, "read", lat_json(b, &lat[SC_DIR_READ]));
	jput(b, o, "write", lat_json(b, &lat[SC_DIR_WRITE]));
	return o;
}

static struct json_object *cluster_json(struct jb *b, const struct sc_phase_record *pr,
					const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "nranks", f->nranks);
	jput_u64(b, o, "nnodes", f->nnodes);
	jput_u64(b, o, "bytes_read", f->bytes[SC_DIR_READ]);
	jput_u64(b, o, "bytes_written", f->bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "total_bytes", f->total_bytes);
	jput_u64(b, o, "planned_bytes", f->planned_bytes);
	jput_u64(b, o, "ios_read", f->ios[SC_DIR_READ]);
	jput_u64(b, o, "ios_written", f->ios[SC_DIR_WRITE]);
	jput_u64(b, o, "fsyncs", f->fsyncs);
	jput_u64(b, o, "errors", f->errors);
	jput_u64(b, o, "ranks_with_errors", f->ranks_with_errors);
	jput_i64(b, o, "window_start_ns", f->window_start_ns);
	jput_i64(b, o, "lastdone_ns", f->lastdone_ns);
	jput_i64(b, o, "firstdone_ns", f->firstdone_ns);
	jput_i64(b, o, "start_skew_ns", f->start_skew_ns);
	jput_dbl(b, o, "lastdone_bw_bytes_per_s", f->lastdone_bw_bytes_per_s);
	jput_mbps(b, o, "lastdone_bw_MBps", f->lastdone_bw_bytes_per_s);
	jput_u64(b, o, "firstdone_bytes", f->firstdone_bytes);
	jput_dbl(b, o, "firstdone_bw_bytes_per_s", f->firstdone_bw_bytes_per_s);
	jput_mbps(b, o, "firstdone_bw_MBps", f->firstdone_bw_bytes_per_s);
	jput_dbl(b, o, "iops", f->iops_total);
	jput_dbl(b, o, "iops_read", f->iops[SC_DIR_READ]);
	jput_dbl(b, o, "iops_write", f->iops[SC_DIR_WRITE]);
	jput_dbl(b, o, "volatility_read", f->volatility[SC_DIR_READ]);
	jput_dbl(b, o, "volatility_write", f->volatility[SC_DIR_WRITE]);
	jput(b, o, "latency_ns", lat_pair_json(b, f->lat));
	if (f->nranks) {
		jput_u64(b, o, "slowest_rank", f->slowest_rank);
		jput_u64(b, o, "slowest_node", f->slowest_node);
		jput_str(b, o, "slowest_host", report_host_of_rank(pr, f->slowest_rank));
	} else {
		jput_null(b, o, "slowest_rank");
		jput_null(b, o, "slowest_node");
		jput_null(b, o, "slowest_host");
	}
	return o;
}

/* What node and target rows share: their ranks' sums over their window. */
static void row_sums_json(struct jb *b, struct json_object *o, uint32_t nranks,
			  const uint64_t *bytes, const uint64_t *ios, uint64_t errors,
			  int64_t start_ns, int64_t end_ns, double bw)
{
	double secs = (double)(end_ns - start_ns) / 1e9;

	jput_u64(b, o, "nranks", nranks);
	jput_u64(b, o, "bytes_read", bytes[SC_DIR_READ]);
	jput_u64(b, o, "bytes_written", bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "total_bytes", bytes[SC_DIR_READ] + bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "ios_read", ios[SC_DIR_READ]);
	jput_u64(b, o, "ios_written", ios[SC_DIR_WRITE]);
	jput_u64(b, o, "errors", errors);
	jput_i64(b, o, "start_ns", start_ns);
	jput_i64(b, o, "end_ns", end_ns);
	jput_dbl(b, o, "bw_bytes_per_s", bw);
	jput_mbps(b, o, "bw_MBps", bw);
	jput_dbl(b, o, "iops_read", secs > 0 ? (double)ios[SC_DIR_READ] / secs : 0);
	jput_dbl(b, o, "iops_write", secs > 0 ? (double)ios[SC_DIR_WRITE] / secs : 0);
}

static struct json_object *node_json(struct jb *b, const struct sc_node_row *n)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "node", n->node);
	jput_str(b, o, "host", n->host);
	row_sums_json(b, o, n->nranks, n->bytes, n->ios, n->errors, n->start_ns, n->end_ns,
		      n->bw_bytes_per_s);
	jput_i64(b, o, "clock_offset_ns", n->clock_offset_ns);
	jput(b, o, "latency_ns", lat_pair_json(b, n->lat));
	return o;
}

static struct json_object *target_row_json(struct jb *b, const struct sc_run_record *rec,
					   const struct sc_target_row *t)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "node", t->node);
	jput_str(b, o, "host", t->host);
	jput_u64(b, o, "target", t->target);
	jput_str(b, o, "path",
		 t->target < rec->plan.ntargets ? rec->plan.targets[t->target].path : NULL);
	row_sums_json(b, o, t->nranks, t->bytes, t->ios, t->errors, t->start_ns, t->end_ns,
		      t->bw_bytes_per_s);
	return o;
}

/* [{"errno": "EIO", "count": n}, ...], increasing errno. */
static struct json_object *errnos_json(struct jb *b, const struct sc_errno_count *e, uint32_t n)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t i = 0; i < n; i++) {
		struct json_object *o = jnew(b, json_object_new_object());
		char name[32];

		jput_str(b, o, "errno", sc_errno_name(e[i].err, name, sizeof(name)));
		jput_u64(b, o, "count", e[i].count);
		jpush(b, a, o);
	}
	return a;
}

static const char *const failure_ops[] = {"read", "write", "fsync"};

/* One kept failed I/O; with its rank, host and target when r is given. */
static struct json_object *failure_json(struct jb *b, const struct sc_run_record *rec,
					const struct sc_rank_result *r,
					const struct sc_io_failure *f)
{
	struct json_object *o = jnew(b, json_object_new_object());
	char name[32];

	if (r) {
		jput_u64(b, o, "rank", r->rank);
		jput_str(b, o, "host", r->host);
		jput_u64(b, o, "target", r->target);
		jput_str(b, o, "path",
			 r->target < rec->plan.ntargets ? rec->plan.targets[r->target].path : NULL);
	}
	jput_str(b, o, "file", f->file);
	jput_u64(b, o, "job", f->job);
	jput_str(b, o, "op", f->op < 3 ? failure_ops[f->op] : "?");
	jput_str(b, o, "errno", sc_errno_name(f->err, name, sizeof(name)));
	jput_u64(b, o, "offset_bytes", f->offset_bytes);
	jput_u64(b, o, "len_bytes", f->len_bytes);
	jput_i64(b, o, "time_ns", f->time_ns);
	return o;
}

/* The phase's failed I/Os over all ranks: counts by errno and the first
 * ones the ranks kept, each naming its rank, host and target. */
static struct json_object *io_errors_json(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *first = jnew(b, json_object_new_array());

	jput_u64(b, o, "failed_ios", f->errors);
	jput_u64(b, o, "kept_per_rank", SC_IO_FAILURES_KEPT);
	jput(b, o, "by_errno", errnos_json(b, f->errnos, f->nerrnos));
	for (uint32_t i = 0; i < f->nfirst_failures; i++)
		jpush(b, first,
		      failure_json(b, rec, f->first_failures[i].rank, f->first_failures[i].failure));
	jput(b, o, "first_failures", first);
	return o;
}

static struct json_object *rank_json(struct jb *b, const struct sc_run_record *rec,
				     const struct sc_phase_record *pr,
				     const struct sc_rank_result *r)
{
	struct json_object *o = jnew(b, json_object_new_object());
	double bw = report_rank_bw(pr, r);

	jput_u64(b, o, "rank", r->rank);
	jput_u64(b, o, "node", r->node);
	jput_str(b, o, "host", r->host);
	jput_u64(b, o, "target", r->target);
	jput_i64(b, o, "clock_offset_ns", r->clock_offset_ns);
	jput_i64(b, o, "start_ns", r->start_ns);
	jput_i64(b, o, "end_ns", r->end_ns);
	jput_u64(b, o, "planned_bytes", r->planned_bytes);
	jput_u64(b, o, "bytes_read", r->bytes[SC_DIR_READ]);
	jput_u64(b, o, "bytes_written", r->bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "ios_read", r->ios[SC_DIR_READ]);
	jput_u64(b, o, "ios_written", r->ios[SC_DIR_WRITE]);
	jput_u64(b, o, "fsyncs", r->fsyncs);
	jput_u64(b, o, "files", r->files);
	jput_u64(b, o, "peak_rss_bytes", r->peak_rss_bytes);
	jput_u64(b, o, "firstdone_bytes", r->firstdone_bytes);
	jput_dbl(b, o, "bw_bytes_per_s", bw);
	jput_mbps(b, o, "bw_MBps", bw);
	jput_u64(b, o, "errors", r->errors);
	jput_str(b, o, "error", r->error[0] ? r->error : NULL);
	jput(b, o, "latency_ns", lat_pair_json(b, r->lat));
	jput(b, o, "errors_by_errno", errnos_json(b, r->errnos, r->nerrnos));
	{
		struct json_object *kept = jnew(b, json_object_new_array());

		for (uint32_t i = 0; i < r->nfailures; i++)
			jpush(b, kept, failure_json(b, rec, NULL, &r->failures[i]));
		jput(b, o, "failures", kept);
	}
	jput_u64(b, o, "verify_blocks_checked", r->verify_checked);
	jput_u64(b, o, "verify_mismatches", r->verify_mismatches);
	return o;
}

static struct json_object *timeseries_json(struct jb *b, const struct sc_phase_record *pr,
					   const struct sc_phase_figures *f)
{
	static const struct {
		const char *key;
		size_t off;
		int dir;
	} cols[] = {
	    {"bytes_read", offsetof(struct sc_second, bytes), SC_DIR_READ},
	    {"bytes_written", offsetof(struct sc_second, bytes), SC_DIR_WRITE},
	    {"ios_read", offsetof(struct sc_second, ios), SC_DIR_READ},
	    {"ios_written", offsetof(struct sc_second, ios), SC_DIR_WRITE},
	    {"max_latency_read_ns", offsetof(struct sc_second, max_lat_ns), SC_DIR_READ},
	    {"max_latency_write_ns", offsetof(struct sc_second, max_lat_ns), SC_DIR_WRITE},
	};
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "second_ns", SC_NS_PER_S);
	jput_i64(b, o, "start_ns", pr->measure_start_ns);
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		struct json_object *a = jnew(b, json_object_new_array());

		for (uint32_t k = 0; k < f->nseconds; k++) {
			const uint64_t *v =
			    (const uint64_t *)((const char *)&f->seconds[k] + cols[c].off);

			jpush_u64(b, a, v[cols[c].dir]);
		}
		jput(b, o, cols[c].key, a);
	}
	return o;
}

/* "rank 3 (host): message", one per rank that failed. */
static struct json_object *errors_json(struct jb *b, const struct sc_phase_record *pr)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		char line[SC_HOST_MAX + SC_ERROR_MAX + 96];

		if (!r->errors && !r->error[0])
			continue;
		if (r->error[0] && r->errors)
			snprintf(line, sizeof(line), "rank %u (%s): %s (%" PRIu64 " failed I/Os)",
				 r->rank, r->host, r->error, r->errors);
		else if (r->error[0])
			snprintf(line, sizeof(line), "rank %u (%s): %s", r->rank, r->host,
				 r->error);
		else
			snprintf(line, sizeof(line), "rank %u (%s): %" PRIu64 " failed I/Os",
				 r->rank, r->host, r->errors);
		jpush(b, a, json_object_new_string(line));
	}
	return a;
}

/* Write path of a checkpoint cell, as results must say: the two differ
 * several-fold on the same drive. */
static const char *ckpt_path_name(const struct sc_phase *ph)
{
	if (ph->ckpt.restore)
		return "O_DIRECT reads (page cache bypassed)";
	if (ph->io.direct)
		return ph->ckpt.fsync ? "O_DIRECT writes, then fsync" : "O_DIRECT writes";
	return ph->ckpt.fsync ? "buffered writes, then fsync (as torch.save + os.fsync)"
			      : "buffered writes, no fsync";
}

static struct json_object *ckpt_cell_json(struct jb *b, const struct sc_phase_record *pr,
					  const struct sc_phase *ph,
					  const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());
	int64_t dur = f->lastdone_ns; /* from the common start, fsync included */
	double tput = dur > 0 ? (double)f->total_bytes * 1e9 / (double)dur : 0;
	uint64_t files = 0;

	for (uint32_t i = 0; i < pr->nranks; i++)
		files += pr->ranks[i].files;
	jput_u64(b, o, "index", ph->ckpt.index);
	jput_bool(b, o, "restore", ph->ckpt.restore);
	jput_str(b, o, "path", ckpt_path_name(ph));
	jput_u64(b, o, "bytes", f->total_bytes);
	jput_u64(b, o, "files", files);
	jput_i64(b, o, "duration_ns", dur);
	jput_dbl(b, o, "throughput_bytes_per_s", tput);
	jput_mbps(b, o, "throughput_MBps", tput);
	jput_u64(b, o, "slowest_rank", f->slowest_rank);
	jput_str(b, o, "slowest_host",
		 f->slowest_node < f->nodes_len ? f->nodes[f->slowest_node].host : NULL);
	jput_dbl(b, o, "scale", ph->ckpt.scale);
	return o;
}

static struct json_object *ingest_json(struct jb *b, const struct sc_phase_record *pr,
				       const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *nodes = jnew(b, json_object_new_array());
	double window_s = (double)(f->lastdone_ns - f->window_start_ns) / 1e9;
	struct sc_ingest_figures g;

	sc_ingest_figures(pr, window_s, &g);
	jput_u64(b, o, "samples", g.samples);
	jput_u64(b, o, "steps", g.steps);
	jput_dbl(b, o, "samples_per_s", g.samples_per_s);
	jput_dbl(b, o, "bytes_per_s", f->lastdone_bw_bytes_per_s);
	jput_mbps(b, o, "MBps", f->lastdone_bw_bytes_per_s);
	jput_dbl(b, o, "volatility", f->volatility[SC_DIR_READ]);
	jput_u64(b, o, "compute_ns", g.compute_ns);
	jput_u64(b, o, "wall_ns", g.wall_ns);
	jput_dbl(b, o, "au", g.au);
	jput_dbl(b, o, "au_min", g.au_min);
	jput_u64(b, o, "au_min_rank", g.au_min_rank);
	jput_bool(b, o, "au_meets_90_pct", g.au_meets_90);
	if (pr->batch_wait) {
		struct sc_lat_summary s;

		sc_hist_summarize(pr->batch_wait, &s);
		jput(b, o, "batch_wait_ns", lat_json(b, &s));
	} else {
		jput_null(b, o, "batch_wait_ns");
	}
	for (uint32_t n = 0; n < f->nodes_len; n++) {
		struct json_object *no = jnew(b, json_object_new_object());
		uint64_t samples = 0;
		double secs = (double)(f->nodes[n].end_ns - f->nodes[n].start_ns) / 1e9;

		for (uint32_t i = 0; i < pr->nranks; i++)
			if (pr->ranks[i].node == f->nodes[n].node)
				samples += pr->ranks[i].samples;
		jput_u64(b, no, "node", f->nodes[n].node);
		jput_str(b, no, "host", f->nodes[n].host);
		jput_u64(b, no, "samples", samples);
		jput_dbl(b, no, "samples_per_s", secs > 0 ? (double)samples / secs : 0);
		jput_mbps(b, no, "MBps", f->nodes[n].bw_bytes_per_s);
		jpush(b, nodes, no);
	}
	jput(b, o, "nodes", nodes);
	return o;
}

/* Response time (from each I/O's intended start) next to service time. */
static struct json_object *open_loop_json(struct jb *b, const struct sc_phase_record *pr)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *resp = jnew(b, json_object_new_object());

	for (int d = 0; d < SC_DIR_COUNT; d++) {
		struct sc_lat_summary s;

		if (!pr->resp[d]) {
			jput_null(b, resp, d == SC_DIR_READ ? "read" : "write");
			continue;
		}
		sc_hist_summarize(pr->resp[d], &s);
		jput(b, resp, d == SC_DIR_READ ? "read" : "write", lat_json(b, &s));
	}
	jput(b, o, "response_latency_ns", resp);
	jput_u64(b, o, "late_ios", sc_late_ios(pr));
	jput_u64(b, o, "unissued_ios", sc_unissued_ios(pr));
	return o;
}

/* A 64- or 32-bit value as hex text ("0x..."): run id hashes and CRCs. */
static void jput_hex(struct jb *b, struct json_object *o, const char *key, uint64_t v, int digits)
{
	char hex[24];

	snprintf(hex, sizeof(hex), "0x%0*" PRIx64, digits, v);
	jput_str(b, o, key, hex);
}

/* One block that failed its check: where, what failed, expected vs found. */
static struct json_object *mismatch_json(struct jb *b, const struct sc_run_record *rec,
					 uint32_t phase, uint64_t bs_bytes,
					 const struct sc_rank_result *r,
					 const struct sc_verify_mismatch *m)
{
	static const char *const names[] = {"magic", "offset", "run_id", "length", "crc"};
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *failed = jnew(b, json_object_new_array());
	struct json_object *exp = jnew(b, json_object_new_object());
	struct json_object *found = jnew(b, json_object_new_object());
	struct sc_place place = {.rank = r->rank, .target = r->target};
	char file[4096];
	uint64_t base;
	bool tgt = r->target < rec->plan.ntargets;

	jput_u64(b, o, "rank", r->rank);
	jput_str(b, o, "host", r->host);
	jput_u64(b, o, "node", r->node);
	jput_u64(b, o, "target", r->target);
	jput_str(b, o, "target_path", tgt ? rec->plan.targets[r->target].path : NULL);
	jput_str(b, o, "file",
		 tgt && sc_layout_job_file(&rec->plan, &place, phase, m->job, file, sizeof(file),
					   &base) == 0
			 ? file
			 : NULL);
	jput_u64(b, o, "job", m->job);
	jput_u64(b, o, "offset_bytes", m->offset);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (m->failed & (1u << i))
			jpush(b, failed, json_object_new_string(names[i]));
	jput(b, o, "failed", failed);
	jput_u64(b, exp, "offset_bytes", m->offset);
	jput_hex(b, exp, "run_id", sc_verify_run_hash(rec->plan.run_id), 16);
	jput_u64(b, exp, "length_bytes", bs_bytes);
	jput(b, o, "expected", exp);
	jput_hex(b, found, "magic", m->found.magic, 16);
	jput_u64(b, found, "offset_bytes", m->found.offset);
	jput_hex(b, found, "run_id", m->found.run_id, 16);
	jput_u64(b, found, "seq", m->found.seq);
	jput_u64(b, found, "length_bytes", m->found.len);
	jput_u64(b, found, "phase", m->found.phase);
	jput_u64(b, found, "rank", m->found.rank);
	jput_hex(b, found, "crc", m->found.crc, 8);
	jput_hex(b, found, "crc_of_data", m->crc_data, 8);
	jput(b, o, "found", found);
	jput_u64(b, o, "bad_bytes", m->bad_bytes);
	jput_u64(b, o, "first_bad_offset_bytes", m->first_bad_byte);
	return o;
}

/* The phase's verification: totals, and the first mismatches of all ranks
 * (at most SC_VERIFY_KEEP) in rank order. */
static struct json_object *verify_json(struct jb *b, const struct sc_run_record *rec,
				       const struct sc_phase_record *pr, const struct sc_phase *ph)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *first = jnew(b, json_object_new_array());
	struct sc_verify_figures v;
	const struct sc_rank_result *r;
	const struct sc_verify_mismatch *m;

	sc_verify_figures(pr, &v);
	jput_str(b, o, "mode", sc_verify_name(ph->io.verify));
	jput_bool(b, o, "verify_only", ph->io.verify_only);
	jput_u64(b, o, "blocks_checked", v.checked);
	jput_u64(b, o, "mismatches", v.mismatches);
	jput_u64(b, o, "ranks_with_mismatches", v.ranks_with_mismatches);
	for (uint32_t i = 0; i < SC_VERIFY_KEEP && (m = sc_verify_listed(pr, i, &r)); i++)
		jpush(b, first, mismatch_json(b, rec, pr->phase, ph->io.bs_bytes, r, m));
	jput(b, o, "first_mismatches", first);
	return o;
}

static struct json_object *phase_json(struct jb *b, const struct sc_run_record *rec,
				      const struct sc_phase_record *pr,
				      const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *nodes = jnew(b, json_object_new_array());
	struct json_object *ranks = jnew(b, json_object_new_array());
	struct json_object *targets = jnew(b, json_object_new_array());
	const struct sc_phase *ph = report_phase_of(rec, pr->phase);

	jput_str(b, o, "name", ph ? ph->name : NULL);
	jput_u64(b, o, "index", pr->phase);
	jput_str(b, o, "rw", ph ? sc_rw_name(ph->io.rw) : NULL);
	jput_u64(b, o, "bs_bytes", ph ? ph->io.bs_bytes : 0);
	jput_u64(b, o, "iodepth", ph ? ph->io.iodepth : 0);
	jput_u64(b, o, "jobs", ph ? ph->io.jobs : 0);
	jput_i64(b, o, "measure_start_ns", pr->measure_start_ns);
	jput_str(b, o, "stonewall", ph ? sc_stonewall_name(ph->stonewall) : NULL);
	jput_i64(b, o, "merge_ns", pr->merge_ns);
	jput(b, o, "cluster", cluster_json(b, pr, f));
	for (uint32_t n = 0; n < f->nodes_len; n++)
		jpush(b, nodes, node_json(b, &f->nodes[n]));
	jput(b, o, "nodes", nodes);
	for (uint32_t t = 0; t < f->targets_len; t++)
		jpush(b, targets, target_row_json(b, rec, &f->targets[t]));
	jput(b, o, "targets", targets);
	for (uint32_t i = 0; i < pr->nranks; i++)
		jpush(b, ranks, rank_json(b, rec, pr, &pr->ranks[i]));
	jput(b, o, "ranks", ranks);
	jput(b, o, "timeseries", timeseries_json(b, pr, f));
	jput(b, o, "errors", errors_json(b, pr));
	jput_str(b, o, "status", sc_phase_status_name(pr->status));
	jput(b, o, "io_errors", io_errors_json(b, rec, f));
	if (ph && ph->workload == SC_WORKLOAD_CHECKPOINT)
		jput(b, o, "checkpoint", ckpt_cell_json(b, pr, ph, f));
	if (ph && ph->workload == SC_WORKLOAD_INGEST)
		jput(b, o, "ingest", ingest_json(b, pr, f));
	if (ph && ph->io.rate_iops)
		jput(b, o, "open_loop", open_loop_json(b, pr));
	if (ph && ph->io.verify != SC_VERIFY_NONE)
		jput(b, o, "verify", verify_json(b, rec, pr, ph));
	return o;
}

static struct json_object *results_root(struct jb *b, const struct sc_run_record *rec)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_str(b, o, "tool", "ssdcluster");
	jput_str(b, o, "version", rec->version);
	jput_i64(b, o, "started_unix_ns", rec->started_unix_ns);
	jput_str(b, o, "config", rec->plan.config_path);
	jput_str(b, o, "run_id", rec->plan.run_id);
	jput_u64(b, o, "nranks", rec->nranks);
	jput_u64(b, o, "nnodes", rec->nnodes);
	jput_u64(b, o, "rank0_peak_rss_bytes", rec->rank0_peak_rss_bytes);
	jput(b, o, "definitions", definitions_json(b));
	jput(b, o, "plan", sc_report_plan_echo(b, &rec->plan));
	return o;
}

void report_results_init(struct report_results *r, const struct sc_run_record *rec)
{
	r->rec = rec;
	r->b.nomem = 0;
	r->root = results_root(&r->b, rec);
	r->phases = jnew(&r->b, json_object_new_array());
}

void report_results_phase(struct report_results *r, const struct sc_run_record *rec,
			  const struct sc_phase_record *pr, const struct sc_phase_figures *f)
{
	jpush(&r->b, r->phases, phase_json(&r->b, rec, pr, f));
}

static struct json_object *trend_json(struct jb *b, const struct sc_ckpt_trend *t)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "checkpoints", t->n);
	jput_dbl(b, o, "mean_duration_ns", t->mean_ns);
	jput_dbl(b, o, "p50_duration_ns", t->p50_ns);
	jput_dbl(b, o, "max_duration_ns", t->max_ns);
	jput_dbl(b, o, "slope_ns_per_checkpoint", t->slope_ns_per_ckpt);
	jput_dbl(b, o, "last_first_ratio", t->last_first_ratio);
	jput_dbl(b, o, "throughput_bytes_per_s", t->throughput_bytes_per_s);
	jput_mbps(b, o, "throughput_MBps", t->throughput_bytes_per_s);
	return o;
}

/* Every checkpoint group: per-checkpoint rows, the trend, the projection. */
static struct json_object *checkpoints_json(struct jb *b, const struct sc_run_record *rec)
{
	struct json_object *a = jnew(b, json_object_new_array());
	struct sc_ckpt_group *g;
	uint32_t n;

	if (sc_ckpt_groups(rec, &g, &n)) {
		b->nomem = 1;
		return a;
	}
	for (uint32_t k = 0; k < n; k++) {
		const struct sc_phase *ph = &rec->plan.phases[g[k].first_phase];
		struct json_object *o = jnew(b, json_object_new_object());
		struct json_object *cells = jnew(b, json_object_new_array());

		jput_str(b, o, "name", g[k].name);
		jput_str(b, o, "model", ph->ckpt.model.name);
		jput_dbl(b, o, "scale", ph->ckpt.scale);
		jput_str(b, o, "write_path", ckpt_path_name(&(struct sc_phase){
						  .io = ph->io, .ckpt = {.fsync = ph->ckpt.fsync}}));
		for (uint32_t i = 0; i < g[k].ncells; i++) {
			const struct sc_ckpt_cell *c = &g[k].cells[i];
			struct json_object *co = jnew(b, json_object_new_object());

			jput_u64(b, co, "index", c->index);
			jput_bool(b, co, "restore", c->restore);
			jput_u64(b, co, "bytes", c->bytes);
			jput_u64(b, co, "files", c->files);
			jput_i64(b, co, "duration_ns", c->duration_ns);
			jput_dbl(b, co, "throughput_bytes_per_s", c->throughput_bytes_per_s);
			jput_mbps(b, co, "throughput_MBps", c->throughput_bytes_per_s);
			jput_u64(b, co, "slowest_rank", c->slowest_rank);
			jput_u64(b, co, "slowest_node", c->slowest_node);
			jpush(b, cells, co);
		}
		jput(b, o, "cells", cells);
		jput(b, o, "write", trend_json(b, &g[k].write));
		if (g[k].restore.n)
			jput(b, o, "restore", trend_json(b, &g[k].restore));
		else
			jput_null(b, o, "restore");
		jput_u64(b, o, "full_size_bytes", g[k].full_size_bytes);
		jput_dbl(b, o, "projected_full_size_write_ns", g[k].projected_write_ns);
		jput_dbl(b, o, "projected_full_size_restore_ns", g[k].projected_restore_ns);
		jpush(b, a, o);
	}
	sc_ckpt_groups_free(g, n);
	return a;
}

char *report_results_text(struct report_results *r, size_t *len)
{
	jput(&r->b, r->root, "checkpoints", checkpoints_json(&r->b, r->rec));
	jput(&r->b, r->root, "phases", r->phases);
	r->phases = NULL; /* the root owns it now */
	return report_json_text(&r->b, r->root, len);
}

void report_results_exit(struct report_results *r)
{
	json_object_put(r->phases);
	json_object_put(r->root);
	r->phases = NULL;
	r->root = NULL;
}
