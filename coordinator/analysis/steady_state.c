/* steady_state.c -- the SNIA PTS steady-state detector on per-round series,
 * and a steady-state group's result per drive and for the cluster, from a
 * run record. */
#include "steady_state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"

#define PERCENT 100.0

int sc_steady_window(const double *v, uint32_t end, uint32_t window, struct sc_steady_window *out)
{
	double sx = 0, sxy = 0, sxx = 0, xm = (window - 1) / 2.0;
	const double *w;

	memset(out, 0, sizeof(*out));
	if (window < 2 || end < window)
		return -EINVAL;
	w = v + (end - window);
	out->first_round = end - window + 1;
	out->last_round = end;
	out->min = out->max = w[0];
	for (uint32_t i = 0; i < window; i++) {
		sx += w[i];
		out->min = w[i] < out->min ? w[i] : out->min;
		out->max = w[i] > out->max ? w[i] : out->max;
	}
	out->mean = sx / window;
	for (uint32_t i = 0; i < window; i++) {
		sxy += (i - xm) * (w[i] - out->mean);
		sxx += (i - xm) * (i - xm);
	}
	out->range = out->max - out->min;
	out->slope = sxy / sxx;
	out->range_pct = out->range / out->mean * PERCENT;
	out->slope_pct = fabs(out->slope * (window - 1)) / out->mean * PERCENT;
	/* written so that NaN (a missing round) is never steady */
	out->steady = out->mean > 0 && out->range_pct <= SC_STEADY_RANGE_PCT &&
		      out->slope_pct <= SC_STEADY_SLOPE_PCT;
	return 0;
}

uint32_t sc_steady_first(const double *v, uint32_t n, uint32_t window)
{
	struct sc_steady_window w;

	for (uint32_t end = window; end <= n; end++)
		if (sc_steady_window(v, end, window, &w) == 0 && w.steady)
			return end;
	return 0;
}

/* A rank's mean service time over both directions, in ns. */
static double rank_mean_lat(const struct sc_rank_result *r)
{
	uint64_t n = r->lat[SC_DIR_READ].count + r->lat[SC_DIR_WRITE].count;

	if (!n)
		return NAN;
	return (r->lat[SC_DIR_READ].mean_ns * (double)r->lat[SC_DIR_READ].count +
		r->lat[SC_DIR_WRITE].mean_ns * (double)r->lat[SC_DIR_WRITE].count) /
	       (double)n;
}

int sc_steady_round_values(const struct sc_phase_record *pr, const struct sc_phase_figures *fig,
			   enum sc_steady_metric m, double *ranks, uint32_t nranks, double *cluster)
{
	const struct sc_phase_figures *f = fig;

	for (uint32_t i = 0; i < nranks; i++) {
		if (i >= pr->nranks || !f->rank_rows) {
			ranks[i] = NAN;
			continue;
		}
		ranks[i] = m == SC_STEADY_IOPS ? f->rank_rows[i].iops
			   : m == SC_STEADY_BW ? f->rank_rows[i].bw_bytes_per_s
					       : rank_mean_lat(&pr->ranks[i]);
	}
	*cluster = m == SC_STEADY_IOPS ? f->iops_total
		   : m == SC_STEADY_BW ? f->lastdone_bw_bytes_per_s
				       : (f->lat_all.count ? f->lat_all.mean_ns : NAN);
	return 0;
}

/* The round of a steady-state group that record phase pr is, or NULL. */
static const struct sc_phase *round_of(const struct sc_plan *plan,
				       const struct sc_phase_record *pr)
{
	const struct sc_phase *ph = pr->phase < plan->nphases ? &plan->phases[pr->phase] : NULL;

	return ph && ph->steady.max_rounds ? ph : NULL;
}

/* The group's header from its first round ph (record phase first), its
 * drives' identities copied from first's rows, and room for cap rounds. */
static int group_begin(const struct sc_phase_record *first, const struct sc_phase *ph,
		       uint32_t cap, struct sc_steady_group *g)
{
	memset(g, 0, sizeof(*g));
	g->config_index = ph->config_index;
	g->name = ph->group;
	g->metric = ph->steady.metric;
	g->window = ph->steady.window;
	g->max_rounds = ph->steady.max_rounds;
	g->round_ns = ph->steady.round_ns;
	g->cap = cap;
	g->ndrives = first->nranks;
	g->drives = calloc(g->ndrives ? g->ndrives : 1, sizeof(*g->drives));
	g->cluster.values = calloc(cap, sizeof(double));
	if (!g->drives || !g->cluster.values)
		return -ENOMEM;
	for (uint32_t i = 0; i < g->ndrives; i++) {
		struct sc_steady_series *s = &g->drives[i];
		const struct sc_rank_result *r = &first->ranks[i];

		s->rank = r->rank;
		s->node = r->node;
		s->target = r->target;
		snprintf(s->host, sizeof(s->host), "%s", r->host);
		s->values = calloc(cap, sizeof(double));
		if (!s->values)
			return -ENOMEM;
	}
	return 0;
}

/* Room in every series of g for one more round.  0 or -ENOMEM. */
static int group_room(struct sc_steady_group *g)
{
	uint32_t cap = 2 * g->cap;
	double *v;

	if (g->rounds < g->cap)
		return 0;
	for (uint32_t i = 0; i <= g->ndrives; i++) {
		struct sc_steady_series *s = i < g->ndrives ? &g->drives[i] : &g->cluster;

		v = realloc(s->values, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->values = v;
	}
	g->cap = cap;
	return 0;
}

/* The first round whose window is steady for every drive, or 0. */
static uint32_t all_steady_round(const struct sc_steady_group *g)
{
	struct sc_steady_window w;

	for (uint32_t end = g->window; end <= g->rounds; end++) {
		uint32_t i = 0;

		for (; i < g->ndrives; i++)
			if (sc_steady_window(g->drives[i].values, end, g->window, &w) || !w.steady)
				break;
		if (g->ndrives && i == g->ndrives)
			return end;
	}
	return 0;
}

/* A series' first steady round and its final window, ending at end. */
static void series_judge(struct sc_steady_series *s, uint32_t end, uint32_t window)
{
	s->first_round = sc_steady_first(s->values, end, window);
	sc_steady_window(s->values, end, window, &s->win);
	s->steady = s->win.steady;
}

/* Appends round pr (its figures fig) to g's series and judges the group
 * on the rounds it has.  0 or -ENOMEM. */
static int group_add(struct sc_steady_group *g, const struct sc_phase_record *pr,
		     const struct sc_phase_figures *fig)
{
	double *row;
	uint32_t end;
	int err = group_room(g);

	row = err ? NULL : malloc((g->ndrives ? g->ndrives : 1) * sizeof(double));
	if (!row) {
		free(row);
		return -ENOMEM;
	}
	sc_steady_round_values(pr, fig, g->metric, row, g->ndrives, &g->cluster.values[g->rounds]);
	for (uint32_t i = 0; i < g->ndrives; i++)
		g->drives[i].values[g->rounds] = row[i];
	free(row);
	g->rounds++;
	g->round = all_steady_round(g);
	g->steady = g->round != 0;
	end = g->steady ? g->round : g->rounds;
	g->nunsteady = 0;
	for (uint32_t i = 0; i < g->ndrives; i++) {
		series_judge(&g->drives[i], end, g->window);
		g->nunsteady += !g->drives[i].steady;
	}
	series_judge(&g->cluster, end, g->window);
	return 0;
}

int sc_steady_groups_add(struct sc_steady_group **groups, uint32_t *n, const struct sc_plan *plan,
			 const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	const struct sc_phase *ph = round_of(plan, pr);
	struct sc_steady_group *g = NULL, *grown;
	int err;

	if (!ph)
		return 0;
	for (uint32_t i = 0; i < *n && !g; i++)
		if ((*groups)[i].config_index == ph->config_index)
			g = &(*groups)[i];
	if (!g) {
		grown = realloc(*groups, (*n + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		*groups = grown;
		g = &grown[*n];
		err = group_begin(pr, ph, ph->steady.max_rounds ? ph->steady.max_rounds : 1, g);
		if (err) {
			sc_steady_group_exit(g);
			return err;
		}
		(*n)++;
	}
	return group_add(g, pr, fig);
}

int sc_steady_group_of(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		       uint32_t config_index, struct sc_steady_group *g)
{
	struct sc_steady_group *groups = NULL;
	uint32_t n = 0;
	int err = 0;

	memset(g, 0, sizeof(*g));
	for (uint32_t p = 0; p < rec->nphases && !err; p++) {
		const struct sc_phase *ph = round_of(&rec->plan, &rec->phases[p]);

		if (ph && ph->config_index == config_index)
			err = sc_steady_groups_add(&groups, &n, &rec->plan, &rec->phases[p], &pf[p]);
	}
	if (!err && n)
		*g = groups[0];
	else
		sc_steady_groups_free(groups, n);
	if (!err && n)
		free(groups);
	return err ? err : n ? 0 : -ENOENT;
}

void sc_steady_group_exit(struct sc_steady_group *g)
{
	for (uint32_t i = 0; g->drives && i < g->ndrives; i++)
		free(g->drives[i].values);
	free(g->drives);
	free(g->cluster.values);
	memset(g, 0, sizeof(*g));
}

int sc_steady_groups(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		     struct sc_steady_group **out, uint32_t *n)
{
	int err = 0;

	*out = NULL;
	*n = 0;
	for (uint32_t p = 0; p < rec->nphases && !err; p++)
		err = sc_steady_groups_add(out, n, &rec->plan, &rec->phases[p], &pf[p]);
	if (err) {
		sc_steady_groups_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return err;
}

void sc_steady_groups_free(struct sc_steady_group *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		sc_steady_group_exit(&g[i]);
	free(g);
}
