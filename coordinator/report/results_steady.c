/* results_steady.c -- steady state as results.json ("steady_state": one
 * object per steady-state group) and the printed text say it; the figures
 * are analysis/steady_state.c's, only formatted here. */
#include <json-c/json.h>
#include <stdio.h>

#include "report_priv.h"
#include "steady_text.h"

#define PERCENT	   100.0
#define NS_PER_US  1e3
#define KEY_MAX	   64u /* a key with its unit */
#define MAX_LISTED 8u  /* unsteady drives the printed line names */

/* The unit results.json's keys carry for metric m. */
static const char *metric_unit(enum sc_steady_metric m)
{
	return m == SC_STEADY_IOPS ? "iops" : m == SC_STEADY_BW ? "bytes_per_s" : "ns";
}

/* key_<unit> into buf. */
static const char *unit_key(char *buf, const char *key, enum sc_steady_metric m)
{
	snprintf(buf, KEY_MAX, "%s_%s", key, metric_unit(m));
	return buf;
}

static struct json_object *window_json(struct jb *b, const struct sc_steady_window *w,
				       enum sc_steady_metric m)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	char k[KEY_MAX];

	if (!w->last_round) {
		json_object_put(o);
		return NULL;
	}
	sc_json_put_u64(b, o, "first_round", w->first_round);
	sc_json_put_u64(b, o, "last_round", w->last_round);
	sc_json_put_dbl(b, o, unit_key(k, "mean", m), w->mean);
	sc_json_put_dbl(b, o, unit_key(k, "min", m), w->min);
	sc_json_put_dbl(b, o, unit_key(k, "max", m), w->max);
	sc_json_put_dbl(b, o, unit_key(k, "range", m), w->range);
	sc_json_put_dbl(b, o, "range_pct", w->range_pct);
	sc_json_put_dbl(b, o, unit_key(k, "slope_per_round", m), w->slope);
	sc_json_put_dbl(b, o, "slope_pct", w->slope_pct);
	sc_json_put_bool(b, o, "steady", w->steady);
	return o;
}

/* A drive (with its rank, node, host and target) or the cluster. */
static struct json_object *series_json(struct jb *b, const struct sc_run_record *rec,
				       const struct sc_steady_group *g,
				       const struct sc_steady_series *s, bool drive)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *v = sc_json_new(b, json_object_new_array());
	struct json_object *w = window_json(b, &s->win, g->metric);
	char k[KEY_MAX];

	if (drive) {
		sc_json_put_u64(b, o, "rank", s->rank);
		sc_report_json_node_host(b, o, s->node, s->host);
		sc_json_put_u64(b, o, "target", s->target);
		sc_json_put_str(b, o, "target_path",
				s->target < rec->plan.ntargets ? rec->plan.targets[s->target].path
							       : NULL);
	}
	sc_json_put_bool(b, o, "steady", s->steady);
	if (s->first_round)
		sc_json_put_u64(b, o, "first_steady_round", s->first_round);
	else
		sc_json_put_null(b, o, "first_steady_round");
	if (drive)
		sc_json_put_bool(b, o, "flagged", !s->steady);
	for (uint32_t r = 0; r < g->rounds; r++)
		sc_json_push_dbl(b, v, s->values[r]);
	sc_json_put(b, o, unit_key(k, "rounds", g->metric), v);
	if (w)
		sc_json_put(b, o, "window", w);
	else
		sc_json_put_null(b, o, "window");
	return o;
}

static struct json_object *group_json(struct jb *b, const struct sc_run_record *rec,
				      const struct sc_steady_group *g)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *drives;
	struct json_object *crit = sc_json_new(b, json_object_new_object());

	sc_json_put_str(b, o, "group", g->name);
	sc_json_put_u64(b, o, "config_index", g->config_index);
	sc_json_put_str(b, o, "metric", sc_steady_metric_name(g->metric));
	sc_json_put_str(b, o, "unit", metric_unit(g->metric));
	sc_json_put_u64(b, o, "window_rounds", g->window);
	sc_json_put_u64(b, o, "max_rounds", g->max_rounds);
	sc_json_put_u64(b, o, "round_ns", g->round_ns);
	sc_json_put_dbl(b, crit, "range_pct_max", SC_STEADY_RANGE_PCT);
	sc_json_put_dbl(b, crit, "slope_pct_max", SC_STEADY_SLOPE_PCT);
	sc_json_put(b, o, "criteria", crit);
	sc_json_put_u64(b, o, "rounds_run", g->rounds);
	sc_json_put_bool(b, o, "steady", g->steady);
	if (g->steady)
		sc_json_put_u64(b, o, "steady_round", g->round);
	else
		sc_json_put_null(b, o, "steady_round");
	sc_json_put_u64(b, o, "drives_not_steady", g->nunsteady);
	sc_json_put(b, o, "cluster", series_json(b, rec, g, &g->cluster, false));
	if (!sc_report_json_ranks_kept(g->ndrives)) { /* each round's rows: ranks.csv */
		sc_report_json_put_omitted(b, o, "drives", g->ndrives);
		return o;
	}
	drives = sc_json_new(b, json_object_new_array());
	for (uint32_t i = 0; i < g->ndrives; i++)
		sc_json_push(b, drives, series_json(b, rec, g, &g->drives[i], true));
	sc_json_put(b, o, "drives", drives);
	return o;
}

struct json_object *sc_report_json_steady(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_run_figures *fg)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t k = 0; k < fg->nsteady; k++)
		sc_json_push(b, a, group_json(b, rec, &fg->steady[k]));
	return a;
}

/* A figure of metric m with its unit: "104.9 MB/s", "2500 IOPS", "81.2 us". */
static const char *fmt_figure(char *buf, size_t len, double v, enum sc_steady_metric m)
{
	if (m == SC_STEADY_BW)
		snprintf(buf, len, "%.1f MB/s", v / SC_BYTES_PER_MB);
	else if (m == SC_STEADY_IOPS)
		snprintf(buf, len, "%.0f IOPS", v);
	else
		snprintf(buf, len, "%.1f us", v / NS_PER_US);
	return buf;
}

/* " mean X, range R% and slope S% of it over rounds A..B" of window w. */
static void print_window(FILE *f, const struct sc_steady_window *w, enum sc_steady_metric m)
{
	char fig[48];

	if (!w->last_round) {
		fprintf(f, " (fewer rounds than the window)");
		return;
	}
	fprintf(f, " mean %s, range %.1f%% and slope %.1f%% of the mean over rounds %u..%u",
		fmt_figure(fig, sizeof(fig), w->mean, m), w->range_pct, w->slope_pct,
		w->first_round, w->last_round);
}

void sc_report_steady_text(FILE *f, const struct sc_run_record *rec,
			   const struct sc_steady_group *g)
{
	uint32_t listed = 0;

	if (g->steady)
		fprintf(f,
			"steady state: %s: steady at round %u of at most %u (%s, window %u rounds "
			"of %.3g s; every drive steady); cluster%s:",
			g->name, g->round, g->max_rounds, sc_steady_metric_name(g->metric),
			g->window, (double)g->round_ns / SC_NS_PER_S,
			g->cluster.steady ? "" : " not steady");
	else
		fprintf(f,
			"steady state: %s: NOT steady after %u round(s) (%s, window %u rounds "
			"of %.3g s); cluster%s:",
			g->name, g->rounds, sc_steady_metric_name(g->metric), g->window,
			(double)g->round_ns / SC_NS_PER_S,
			g->cluster.steady ? " steady" : " not steady");
	print_window(f, &g->cluster.win, g->metric);
	fputc('\n', f);
	if (!g->nunsteady)
		return;
	fprintf(f, "  %u of %u drive(s) not steady:\n", g->nunsteady, g->ndrives);
	for (uint32_t i = 0; i < g->ndrives && listed < MAX_LISTED; i++) {
		const struct sc_steady_series *s = &g->drives[i];

		if (s->steady)
			continue;
		listed++;
		fprintf(f, "    rank %u (host %s, node %u, target %u %s):", s->rank, s->host,
			s->node, s->target,
			s->target < rec->plan.ntargets ? rec->plan.targets[s->target].path : "?");
		print_window(f, &s->win, g->metric);
		fputc('\n', f);
	}
	if (listed < g->nunsteady)
		fprintf(f, "    ... and %u more (%s)\n", g->nunsteady - listed,
			sc_report_json_ranks_kept(g->ndrives) ? "results.json: steady_state"
							      : "ranks.csv: each round's rows");
}
