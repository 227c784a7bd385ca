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

/* Whether record phase pr is a round of config phase ci. */
static const struct sc_phase *round_of(const struct sc_run_record *rec,
				       const struct sc_phase_record *pr, uint32_t ci)
{
	const struct sc_phase *ph =
	    pr->phase < rec->plan.nphases ? &rec->plan.phases[pr->phase] : NULL;

	return ph && ph->config_index == ci && ph->steady.max_rounds ? ph : NULL;
}

/* The group's header from its first round ph, and room for its series. */
static int group_begin(const struct sc_phase_record *first, const struct sc_phase *ph,
		       uint32_t rounds, struct sc_steady_group *g)
{
	g->config_index = ph->config_index;
	g->name = ph->group;
	g->metric = ph->steady.metric;
	g->window = ph->steady.window;
	g->max_rounds = ph->steady.max_rounds;
	g->round_ns = ph->steady.round_ns;
	g->rounds = rounds;
	g->ndrives = first->nranks;
	g->drives = calloc(g->ndrives ? g->ndrives : 1, sizeof(*g->drives));
	g->cluster.values = calloc(rounds, sizeof(double));
	if (!g->drives || !g->cluster.values)
		return -ENOMEM;
	for (uint32_t i = 0; i < g->ndrives; i++) {
		struct sc_steady_series *s = &g->drives[i];
		const struct sc_rank_result *r = &first->ranks[i];

		s->rank = r->rank;
		s->node = r->node;
		s->target = r->target;
		snprintf(s->host, sizeof(s->host), "%s", r->host);
		s->values = calloc(rounds, sizeof(double));
		if (!s->values)
			return -ENOMEM;
	}
	return 0;
}

/* The rounds' figures into the group's series (round k at index k). */
static int group_values(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
			struct sc_steady_group *g)
{
	double *row = malloc((g->ndrives ? g->ndrives : 1) * sizeof(double));
	uint32_t k = 0;
	int err = row ? 0 : -ENOMEM;

	for (uint32_t p = 0; !err && p < rec->nphases; p++) {
		const struct sc_phase_record *pr = &rec->phases[p];

		if (!round_of(rec, pr, g->config_index))
			continue;
		err = sc_steady_round_values(pr, &pf[p], g->metric, row, g->ndrives,
					     &g->cluster.values[k]);
		for (uint32_t i = 0; !err && i < g->ndrives; i++)
			g->drives[i].values[k] = row[i];
		k++;
	}
	free(row);
	return err;
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

int sc_steady_group_of(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		       uint32_t config_index, struct sc_steady_group *g)
{
	const struct sc_phase_record *first = NULL;
	const struct sc_phase *ph = NULL;
	uint32_t rounds = 0, end;
	int err;

	memset(g, 0, sizeof(*g));
	for (uint32_t p = 0; p < rec->nphases; p++) {
		const struct sc_phase *r = round_of(rec, &rec->phases[p], config_index);

		if (r && !first) {
			first = &rec->phases[p];
			ph = r;
		}
		rounds += r != NULL;
	}
	if (!first)
		return -ENOENT;
	err = group_begin(first, ph, rounds, g);
	if (!err)
		err = group_values(rec, pf, g);
	if (err) {
		sc_steady_group_exit(g);
		return err;
	}
	g->round = all_steady_round(g);
	g->steady = g->round != 0;
	end = g->steady ? g->round : g->rounds;
	for (uint32_t i = 0; i < g->ndrives; i++) {
		series_judge(&g->drives[i], end, g->window);
		g->nunsteady += !g->drives[i].steady;
	}
	series_judge(&g->cluster, end, g->window);
	return 0;
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
	uint32_t ngroups = 0;
	struct sc_steady_group *g;

	*out = NULL;
	*n = 0;
	for (uint32_t p = 0; p < rec->plan.nphases; p++)
		ngroups += rec->plan.phases[p].steady.round == 1;
	if (!ngroups)
		return 0;
	g = calloc(ngroups, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (uint32_t p = 0; p < rec->plan.nphases; p++) {
		const struct sc_phase *ph = &rec->plan.phases[p];
		int err;

		if (ph->steady.round != 1)
			continue;
		err = sc_steady_group_of(rec, pf, ph->config_index, &g[*n]);
		if (err == -ENOENT)
			continue;
		if (err) {
			sc_steady_groups_free(g, *n);
			*n = 0;
			return err;
		}
		(*n)++;
	}
	*out = g;
	return 0;
}

void sc_steady_groups_free(struct sc_steady_group *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		sc_steady_group_exit(&g[i]);
	free(g);
}
