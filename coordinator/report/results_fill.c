/* results_fill.c -- results.json's sections of the preconditioning and
 * consistency stages: a fill phase's "write_cliff" (per drive and for the
 * cluster, from analysis/write_cliff.h) and a phase's row of "stages"
 * (analysis/stages.h).  Formatting only. */
#include <json-c/json.h>
#include <string.h>

#include "analysis/rank_series.h"
#include "analysis/stages.h"
#include "analysis/write_cliff.h"
#include "report_priv.h"
#include "units.h"

/* Every figure of a cliff null: its drive's series not kept. */
static void put_cliff_unknown(struct jb *b, struct json_object *o)
{
	static const char *const keys[] = {
	    "seconds_analysed", "initial_bw_bytes_per_s", "initial_bw_MBps", "cliff",
	    "cliff_start_ns",	"cache_bytes",		  "after_bw_bytes_per_s", "after_bw_MBps"};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		sc_json_put_null(b, o, keys[k]);
}

/* One cliff's figures into o; the cliff's own null when there is none. */
static void put_cliff(struct jb *b, struct json_object *o, const struct sc_write_cliff *w)
{
	if (w->unknown) {
		put_cliff_unknown(b, o);
		return;
	}
	sc_json_put_u64(b, o, "seconds_analysed", w->nseconds);
	if (w->nseconds) {
		sc_json_put_dbl(b, o, "initial_bw_bytes_per_s", w->initial_bytes_per_s);
		sc_json_put_mbps(b, o, "initial_bw_MBps", w->initial_bytes_per_s);
	} else { /* no whole second: no rate */
		sc_json_put_null(b, o, "initial_bw_bytes_per_s");
		sc_json_put_null(b, o, "initial_bw_MBps");
	}
	sc_json_put_bool(b, o, "cliff", w->found);
	if (!w->found) {
		sc_json_put_null(b, o, "cliff_start_ns");
		sc_json_put_null(b, o, "cache_bytes");
		sc_json_put_null(b, o, "after_bw_bytes_per_s");
		sc_json_put_null(b, o, "after_bw_MBps");
		return;
	}
	sc_json_put_u64(b, o, "cliff_start_ns", (uint64_t)w->second * SC_NS_PER_S);
	sc_json_put_u64(b, o, "cache_bytes", w->cache_bytes);
	sc_json_put_dbl(b, o, "after_bw_bytes_per_s", w->after_bytes_per_s);
	sc_json_put_mbps(b, o, "after_bw_MBps", w->after_bytes_per_s);
}

static struct json_object *drive_json(struct jb *b, const struct sc_run_record *rec,
				      const struct sc_phase_record *pr,
				      const struct sc_rank_result *r,
				      const struct sc_write_cliff *w)
{
	struct json_object *o = sc_json_new(b, json_object_new_object()), *curve;
	char why[SC_SERIES_WHY_MAX];

	sc_json_put_u64(b, o, "rank", r->rank);
	sc_report_json_node_host(b, o, r->node, r->host);
	sc_json_put_u64(b, o, "target", r->target);
	sc_json_put_str(b, o, "path",
			r->target < rec->plan.ntargets ? rec->plan.targets[r->target].path : NULL);
	put_cliff(b, o, w);
	if (w->unknown) { /* its curve unknown, not empty */
		sc_json_put_null(b, o, "write_bytes_per_s");
		sc_json_put_str(b, o, "series_not_kept", sc_rank_series_why(pr, why, sizeof(why)));
		return o;
	}
	curve = sc_json_new(b, json_object_new_array());
	for (uint32_t k = 0; k < r->nseconds; k++)
		sc_json_push(b, curve, json_object_new_uint64(r->seconds[k].bytes[SC_DIR_WRITE]));
	sc_json_put(b, o, "write_bytes_per_s", curve);
	return o;
}

static struct json_object *cluster_json(struct jb *b, const struct sc_phase_record *pr,
					const struct sc_fill_cliffs *c)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	put_cliff(b, o, &c->cluster);
	sc_json_put_u64(b, o, "drives", c->nranks);
	sc_json_put_u64(b, o, "drives_with_cliff", c->ranks_with_cliff);
	sc_json_put_u64(b, o, "drives_without_series", c->ranks_unknown);
	if (!c->ranks_with_cliff) {
		sc_json_put_null(b, o, "min_cache_bytes");
		sc_json_put_null(b, o, "min_cache_rank");
		sc_json_put_null(b, o, "max_cache_bytes");
		return o;
	}
	sc_json_put_u64(b, o, "min_cache_bytes", c->min_cache_bytes);
	sc_json_put_u64(b, o, "min_cache_rank", pr->ranks[c->min_cache_rank].rank);
	sc_json_put_str(b, o, "min_cache_host", pr->ranks[c->min_cache_rank].host);
	sc_json_put_u64(b, o, "max_cache_bytes", c->max_cache_bytes);
	return o;
}

struct json_object *sc_report_json_write_cliff(struct jb *b, const struct sc_run_record *rec,
					       const struct sc_phase_record *pr,
					       const struct sc_fill_cliffs *c)
{
	struct json_object *o, *drives;

	o = sc_json_new(b, json_object_new_object());
	sc_json_put_dbl(b, o, "cliff_fraction", c->cluster.fraction);
	sc_json_put_u64(b, o, "initial_window_ns", SC_CLIFF_INITIAL_SECONDS * SC_NS_PER_S);
	sc_json_put_u64(b, o, "hold_window_ns", SC_CLIFF_HOLD_SECONDS * SC_NS_PER_S);
	sc_json_put(b, o, "cluster", cluster_json(b, pr, c));
	if (sc_report_json_ranks_kept(c->nranks)) {
		drives = sc_json_new(b, json_object_new_array());
		for (uint32_t r = 0; r < c->nranks; r++)
			sc_json_push(b, drives,
				     drive_json(b, rec, pr, &pr->ranks[r], &c->ranks[r]));
		sc_json_put(b, o, "drives", drives);
	} else {
		sc_report_json_put_omitted(b, o, "drives", c->nranks);
	}
	return o;
}

/* A stage's percentile under key, or null with "<key minus _ns>_basis":
 * "max of N samples" when its n samples do not support it. */
static void stage_pct(struct jb *b, struct json_object *o, const char *key, bool ok, uint64_t ns,
		      uint64_t n)
{
	char k[32], why[48];
	size_t len = strlen(key) - strlen("_ns");

	if (ok) {
		sc_json_put_u64(b, o, key, ns);
		return;
	}
	sc_json_put_null(b, o, key);
	snprintf(k, sizeof(k), "%.*s_basis", (int)len, key);
	sc_json_put_str(b, o, k, sc_pct_basis(n, why, sizeof(why)));
}

struct json_object *sc_report_json_stage(struct jb *b, const struct sc_stage_row *st)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_str(b, o, "name", st->name);
	sc_json_put_str(b, o, "workload", sc_workload_name(st->workload));
	sc_json_put_i64(b, o, "duration_ns", st->duration_ns);
	if (st->idle) { /* no I/O: no bandwidth, no latency */
		static const char *const none[] = {"bw_bytes_per_s", "bw_MBps",	  "iops",
						   "p99_ns",	     "p99.99_ns", "volatility",
						   "volatility_of"};

		for (size_t k = 0; k < sizeof(none) / sizeof(none[0]); k++)
			sc_json_put_null(b, o, none[k]);
		return o;
	}
	sc_json_put_dbl(b, o, "bw_bytes_per_s", st->bw_bytes_per_s);
	sc_json_put_mbps(b, o, "bw_MBps", st->bw_bytes_per_s);
	sc_json_put_dbl(b, o, "iops", st->iops);
	stage_pct(b, o, "p99_ns", st->p99_ok, st->p99_ns, st->nsamples);
	stage_pct(b, o, "p99.99_ns", st->p9999_ok, st->p9999_ns, st->nsamples);
	sc_json_put_dbl(b, o, "volatility", st->volatility);
	sc_json_put_str(b, o, "volatility_of", st->dir == SC_DIR_READ ? "read" : "write");
	return o;
}
