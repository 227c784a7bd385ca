/* results_rows.c -- the rows of a phase in results.json: cluster, nodes,
 * (node, target) pairs, ranks, latencies and the per-second series. */
#include <json-c/json.h>
#include <stddef.h>

#include "report_priv.h"

/* A value per direction, as "<read_key>" then "<write_key>". */
static void put_rw_u64(struct jb *b, struct json_object *o, const char *read_key,
		       const char *write_key, const uint64_t v[SC_DIR_COUNT])
{
	sc_json_put_u64(b, o, read_key, v[SC_DIR_READ]);
	sc_json_put_u64(b, o, write_key, v[SC_DIR_WRITE]);
}

static void put_rw_dbl(struct jb *b, struct json_object *o, const char *read_key,
		       const char *write_key, const double v[SC_DIR_COUNT])
{
	sc_json_put_dbl(b, o, read_key, v[SC_DIR_READ]);
	sc_json_put_dbl(b, o, write_key, v[SC_DIR_WRITE]);
}

/* A rate as bytes/s and as MB/s, under "<key>_bytes_per_s" and "<key>_MBps". */
static void put_rate(struct jb *b, struct json_object *o, const char *key, double bytes_per_s)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_bytes_per_s", key);
	sc_json_put_dbl(b, o, k, bytes_per_s);
	snprintf(k, sizeof(k), "%s_MBps", key);
	sc_json_put_mbps(b, o, k, bytes_per_s);
}

struct json_object *sc_report_json_lat(struct jb *b, const struct sc_lat_summary *s)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "count", s->count);
	if (!s->count) {
		sc_json_put_null(b, o, "min");
		sc_json_put_null(b, o, "mean");
		sc_json_put_null(b, o, "max");
		for (int i = 0; i < SC_NPCT; i++)
			sc_json_put_null(b, o, sc_pct_names[i]);
		return o;
	}
	sc_json_put_u64(b, o, "min", s->min_ns);
	sc_json_put_dbl(b, o, "mean", s->mean_ns);
	sc_json_put_u64(b, o, "max", s->max_ns);
	for (int i = 0; i < SC_NPCT; i++) {
		char key[32], why[48];
		uint64_t ns;

		if (sc_lat_pct(s, i, &ns)) {
			sc_json_put_u64(b, o, sc_pct_names[i], ns);
			continue;
		}
		sc_json_put_null(b, o, sc_pct_names[i]); /* too few samples */
		snprintf(key, sizeof(key), "%s_basis", sc_pct_names[i]);
		sc_json_put_str(b, o, key, sc_pct_basis(s->count, why, sizeof(why)));
	}
	return o;
}

static struct json_object *lat_pair_json(struct jb *b,
					 const struct sc_lat_summary lat[SC_DIR_COUNT])
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put(b, o, "read", sc_report_json_lat(b, &lat[SC_DIR_READ]));
	sc_json_put(b, o, "write", sc_report_json_lat(b, &lat[SC_DIR_WRITE]));
	return o;
}

struct json_object *sc_report_json_cluster(struct jb *b, const struct sc_phase_figures *f)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "nranks", f->nranks);
	sc_json_put_u64(b, o, "nnodes", f->nnodes);
	put_rw_u64(b, o, "bytes_read", "bytes_written", f->bytes);
	sc_json_put_u64(b, o, "total_bytes", f->total_bytes);
	sc_json_put_u64(b, o, "planned_bytes", f->planned_bytes);
	put_rw_u64(b, o, "ios_read", "ios_written", f->ios);
	sc_json_put_u64(b, o, "fsyncs", f->fsyncs);
	sc_json_put_u64(b, o, "errors", f->errors);
	sc_json_put_u64(b, o, "ranks_with_errors", f->ranks_with_errors);
	sc_json_put_i64(b, o, "window_start_ns", f->window_start_ns);
	sc_json_put_i64(b, o, "lastdone_ns", f->lastdone_ns);
	sc_json_put_i64(b, o, "firstdone_ns", f->firstdone_ns);
	sc_json_put_i64(b, o, "start_skew_ns", f->start_skew_ns);
	put_rate(b, o, "lastdone_bw", f->lastdone_bw_bytes_per_s);
	sc_json_put_u64(b, o, "firstdone_bytes", f->firstdone_bytes);
	put_rate(b, o, "firstdone_bw", f->firstdone_bw_bytes_per_s);
	sc_json_put_dbl(b, o, "iops", f->iops_total);
	put_rw_dbl(b, o, "iops_read", "iops_write", f->iops);
	put_rw_dbl(b, o, "volatility_read", "volatility_write", f->volatility);
	sc_json_put(b, o, "latency_ns", lat_pair_json(b, f->lat));
	if (f->nranks) {
		sc_json_put_u64(b, o, "slowest_rank", f->slowest_rank);
		sc_json_put_u64(b, o, "slowest_node", f->slowest_node);
	} else {
		sc_json_put_null(b, o, "slowest_rank");
		sc_json_put_null(b, o, "slowest_node");
	}
	sc_json_put_str(b, o, "slowest_host", f->slowest_host);
	return o;
}

/* What node and target rows share: their ranks' sums and rates over their
 * window. */
struct row_sums {
	uint32_t nranks;
	const uint64_t *bytes, *ios;
	uint64_t errors, total_bytes;
	int64_t start_ns, end_ns;
	double bw_bytes_per_s;
	const double *iops;
};

static void row_sums_json(struct jb *b, struct json_object *o, const struct row_sums *s)
{
	sc_json_put_u64(b, o, "nranks", s->nranks);
	put_rw_u64(b, o, "bytes_read", "bytes_written", s->bytes);
	sc_json_put_u64(b, o, "total_bytes", s->total_bytes);
	put_rw_u64(b, o, "ios_read", "ios_written", s->ios);
	sc_json_put_u64(b, o, "errors", s->errors);
	sc_json_put_i64(b, o, "start_ns", s->start_ns);
	sc_json_put_i64(b, o, "end_ns", s->end_ns);
	put_rate(b, o, "bw", s->bw_bytes_per_s);
	put_rw_dbl(b, o, "iops_read", "iops_write", s->iops);
}

struct json_object *sc_report_json_node(struct jb *b, const struct sc_phase_figures *f,
					uint32_t k)
{
	const struct sc_node_row *n = &f->nodes[k];
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_report_json_node_host(b, o, n->node, n->host);
	row_sums_json(b, o,
		      &(struct row_sums){n->nranks, n->bytes, n->ios, n->errors, n->total_bytes,
					 n->start_ns, n->end_ns, n->bw_bytes_per_s, n->iops});
	sc_json_put_i64(b, o, "clock_offset_ns", n->clock_offset_ns);
	sc_json_put(b, o, "latency_ns", lat_pair_json(b, n->lat));
	return o;
}

struct json_object *sc_report_json_nodes(struct jb *b, const struct sc_phase_figures *f)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < f->nodes_len; i++)
		sc_json_push(b, a, sc_report_json_node(b, f, i));
	return a;
}

struct json_object *sc_report_json_target(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_phase_figures *f, uint32_t k)
{
	const struct sc_target_row *t = &f->targets[k];
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_report_json_node_host(b, o, t->node, t->host);
	sc_json_put_u64(b, o, "target", t->target);
	sc_json_put_str(b, o, "path",
			t->target < rec->plan.ntargets ? rec->plan.targets[t->target].path : NULL);
	row_sums_json(b, o,
		      &(struct row_sums){t->nranks, t->bytes, t->ios, t->errors, t->total_bytes,
					 t->start_ns, t->end_ns, t->bw_bytes_per_s, t->iops});
	return o;
}

struct json_object *sc_report_json_targets(struct jb *b, const struct sc_run_record *rec,
					   const struct sc_phase_figures *f)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < f->targets_len; i++)
		sc_json_push(b, a, sc_report_json_target(b, rec, f, i));
	return a;
}

static struct json_object *rank_json(struct jb *b, const struct sc_run_record *rec,
				     const struct sc_rank_result *r, const struct sc_rank_row *row)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *kept = sc_json_new(b, json_object_new_array());

	sc_json_put_u64(b, o, "rank", r->rank);
	sc_report_json_node_host(b, o, r->node, r->host);
	sc_json_put_u64(b, o, "target", r->target);
	sc_json_put_i64(b, o, "clock_offset_ns", r->clock_offset_ns);
	sc_json_put_i64(b, o, "start_ns", r->start_ns);
	sc_json_put_i64(b, o, "end_ns", r->end_ns);
	sc_json_put_u64(b, o, "planned_bytes", r->planned_bytes);
	put_rw_u64(b, o, "bytes_read", "bytes_written", r->bytes);
	put_rw_u64(b, o, "ios_read", "ios_written", r->ios);
	sc_json_put_u64(b, o, "fsyncs", r->fsyncs);
	sc_json_put_u64(b, o, "files", r->files);
	if (r->time_capped_jobs)
		sc_json_put_u64(b, o, "jobs_ended_by_runtime_max", r->time_capped_jobs);
	if (r->delete_ns)
		sc_json_put_u64(b, o, "delete_ns", r->delete_ns);
	if (r->blocking_ns) { /* an async checkpoint cell */
		sc_json_put_u64(b, o, "blocking_ns", r->blocking_ns);
		sc_json_put_u64(b, o, "drain_ns", r->drain_ns);
		sc_json_put_u64(b, o, "stall_ns", r->stall_ns);
	}
	sc_json_put_u64(b, o, "peak_rss_bytes", r->peak_rss_bytes);
	sc_json_put_u64(b, o, "firstdone_bytes", r->firstdone_bytes);
	put_rate(b, o, "bw", row->bw_bytes_per_s);
	sc_json_put_u64(b, o, "errors", r->errors);
	sc_json_put_str(b, o, "error", r->error[0] ? r->error : NULL);
	if (r->opts_note[0]) /* I/O options this rank ran without, and why */
		sc_json_put_str(b, o, "io_options_note", r->opts_note);
	sc_json_put(b, o, "latency_ns", lat_pair_json(b, r->lat));
	sc_json_put(b, o, "errors_by_errno", sc_report_json_errnos(b, r->errnos, r->nerrnos));
	for (uint32_t i = 0; i < r->nfailures; i++)
		sc_json_push(b, kept, sc_report_json_failure(b, rec, NULL, &r->failures[i]));
	sc_json_put(b, o, "failures", kept);
	sc_json_put_u64(b, o, "verify_blocks_checked", r->verify_checked);
	sc_json_put_u64(b, o, "verify_mismatches", r->verify_mismatches);
	return o;
}

struct json_object *sc_report_json_ranks(struct jb *b, const struct sc_run_record *rec,
					 const struct sc_phase_record *pr,
					 const struct sc_phase_figures *f)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < pr->nranks; i++)
		sc_json_push(b, a, rank_json(b, rec, &pr->ranks[i], &f->rank_rows[i]));
	return a;
}

struct json_object *sc_report_json_timeseries(struct jb *b, const struct sc_phase_record *pr,
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
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "second_ns", SC_NS_PER_S);
	sc_json_put_i64(b, o, "start_ns", pr->measure_start_ns);
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		struct json_object *a = sc_json_new(b, json_object_new_array());

		for (uint32_t k = 0; k < f->nseconds; k++) {
			const uint64_t *v =
			    (const uint64_t *)((const char *)&f->seconds[k] + cols[c].off);

			sc_json_push(b, a, json_object_new_uint64(v[cols[c].dir]));
		}
		sc_json_put(b, o, cols[c].key, a);
	}
	sc_report_json_put_temps(b, o, "max_temperature_c", f->seconds, f->nseconds);
	return o;
}
