/* workload_figures.c -- what the AI workloads report beyond the io figures. */
#include "workload_figures.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ckpt_model.h"
#include "units.h"

/* MLPerf Storage's bar: every accelerator busy at least 90% of the time. */
#define AU_BAR 0.9

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sc_ckpt_cell_figures(const struct sc_plan *plan, const struct sc_phase_record *pr,
			  struct sc_ckpt_cell *c)
{
	const struct sc_ckpt_spec *ck = &plan->phases[pr->phase].ckpt;

	memset(c, 0, sizeof(*c));
	c->phase = pr->phase;
	c->index = ck->index;
	c->restore = ck->restore;
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		c->bytes += r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE];
		c->files += r->files;
		/* from the common start (0), fsync included */
		if (i == 0 || r->end_ns > c->duration_ns ||
		    (r->end_ns == c->duration_ns && r->rank < c->slowest_rank)) {
			c->duration_ns = r->end_ns;
			c->slowest_rank = r->rank;
			c->slowest_node = r->node;
		}
	}
	c->throughput_bytes_per_s =
		c->duration_ns > 0 ? (double)c->bytes * SC_NS_PER_S_F / (double)c->duration_ns : 0;
}

static void trend_of(const struct sc_ckpt_cell *cells, uint32_t n, bool restore,
		     struct sc_ckpt_trend *t)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));
	double sx = 0, sy = 0, sxx = 0, sxy = 0, bytes = 0, dur = 0, first = 0, last = 0;
	uint32_t m = 0;

	memset(t, 0, sizeof(*t));
	if (!d)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const struct sc_ckpt_cell *c = &cells[i];
		double x = c->index, y = (double)c->duration_ns;

		if (c->restore != restore)
			continue;
		if (m == 0)
			first = y;
		last = y;
		d[m++] = y;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		bytes += (double)c->bytes;
		dur += y;
		if (y > t->max_ns)
			t->max_ns = y;
	}
	t->n = m;
	if (m) {
		t->mean_ns = sy / m;
		qsort(d, m, sizeof(*d), cmp_double);
		t->p50_ns = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
		t->throughput_bytes_per_s = dur > 0 ? bytes * SC_NS_PER_S_F / dur : 0;
	}
	if (m >= 2) {
		double den = m * sxx - sx * sx;

		t->slope_ns_per_ckpt = den != 0 ? (m * sxy - sx * sy) / den : 0;
		t->last_first_ratio = first > 0 ? last / first : NAN;
	} else {
		t->last_first_ratio = NAN; /* one checkpoint: no trend to show */
	}
	if (m)
		t->intercept_ns = (sy - t->slope_ns_per_ckpt * sx) / m;
	free(d);
}

/* The record of plan phase p in rec, or NULL. */
static const struct sc_phase_record *record_of(const struct sc_run_record *rec, uint32_t p)
{
	for (uint32_t i = 0; i < rec->nphases; i++)
		if (rec->phases[i].phase == p)
			return &rec->phases[i];
	return NULL;
}

static void node_durations_exit(struct sc_ckpt_node_durations *d)
{
	free(d->host);
	free(d->duration_ns);
	memset(d, 0, sizeof(*d));
}

/* Each node's durations in the cells of group g of rec.  0 or -ENOMEM
 * (out then empty). */
static int node_durations(const struct sc_run_record *rec, const struct sc_ckpt_group *g,
			  struct sc_ckpt_node_durations *out)
{
	uint32_t nn = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t c = 0; c < g->ncells; c++) {
		const struct sc_phase_record *pr = record_of(rec, g->cells[c].phase);

		for (uint32_t i = 0; pr && i < pr->nranks; i++)
			if (pr->ranks[i].node + 1 > nn)
				nn = pr->ranks[i].node + 1;
	}
	out->host = calloc(nn ? nn : 1, sizeof(*out->host));
	out->duration_ns = malloc(((size_t)g->ncells * nn + 1) * sizeof(int64_t));
	if (!out->host || !out->duration_ns) {
		node_durations_exit(out);
		return -ENOMEM;
	}
	out->ncells = g->ncells;
	out->nnodes = nn;
	for (uint32_t c = 0; c < g->ncells; c++) {
		const struct sc_phase_record *pr = record_of(rec, g->cells[c].phase);
		int64_t *d = &out->duration_ns[c * nn];

		for (uint32_t n = 0; n < nn; n++)
			d[n] = -1;
		for (uint32_t i = 0; pr && i < pr->nranks; i++) {
			const struct sc_rank_result *r = &pr->ranks[i];

			/* from the common start (0), fsync included */
			if (r->end_ns > d[r->node])
				d[r->node] = r->end_ns;
			if (!out->host[r->node])
				out->host[r->node] = r->host;
		}
	}
	return 0;
}

int sc_ckpt_groups(const struct sc_run_record *rec, const struct sc_workload_figures *work,
		   struct sc_ckpt_group **groups, uint32_t *ngroups)
{
	struct sc_ckpt_group *g = NULL;
	uint32_t n = 0;

	*groups = NULL;
	*ngroups = 0;
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];
		const struct sc_phase *ph = &rec->plan.phases[pr->phase];
		struct sc_ckpt_group *cur = NULL;
		struct sc_ckpt_cell *cells;

		/* a cell cut short would skew the group's trend */
		if (ph->workload != SC_WORKLOAD_CHECKPOINT || pr->status != SC_PHASE_OK)
			continue;
		for (uint32_t k = 0; k < n; k++)
			if (strcmp(g[k].name, ph->group ? ph->group : "") == 0)
				cur = &g[k];
		if (!cur) {
			struct sc_ckpt_group *more = realloc(g, (n + 1) * sizeof(*g));

			if (!more)
				goto out_nomem;
			g = more;
			cur = &g[n++];
			memset(cur, 0, sizeof(*cur));
			cur->name = ph->group ? ph->group : "";
			cur->first_phase = pr->phase;
		}
		cells = realloc(cur->cells, (cur->ncells + 1) * sizeof(*cells));
		if (!cells)
			goto out_nomem;
		cur->cells = cells;
		cur->cells[cur->ncells++] = work[i].ckpt;
	}
	for (uint32_t k = 0; k < n; k++) {
		const struct sc_ckpt_spec *ck = &rec->plan.phases[g[k].first_phase].ckpt;

		trend_of(g[k].cells, g[k].ncells, false, &g[k].write);
		trend_of(g[k].cells, g[k].ncells, true, &g[k].restore);
		g[k].full_size_bytes = sc_ckpt_total_bytes(&ck->model, &ck->layout);
		if (g[k].write.throughput_bytes_per_s > 0)
			g[k].projected_write_ns = (double)g[k].full_size_bytes * SC_NS_PER_S_F /
						  g[k].write.throughput_bytes_per_s;
		if (g[k].restore.throughput_bytes_per_s > 0)
			g[k].projected_restore_ns = (double)g[k].full_size_bytes * SC_NS_PER_S_F /
						    g[k].restore.throughput_bytes_per_s;
		if (node_durations(rec, &g[k], &g[k].nodes))
			goto out_nomem;
	}
	*groups = g;
	*ngroups = n;
	return 0;

out_nomem:
	sc_ckpt_groups_free(g, n);
	return -ENOMEM;
}

void sc_ckpt_groups_free(struct sc_ckpt_group *groups, uint32_t ngroups)
{
	for (uint32_t k = 0; k < ngroups; k++) {
		free(groups[k].cells);
		node_durations_exit(&groups[k].nodes);
	}
	free(groups);
}

double sc_rank_au(const struct sc_rank_result *r)
{
	int64_t wall = r->end_ns - r->start_ns;

	return wall > 0 ? (double)r->compute_ns / (double)wall : 0;
}

void sc_ingest_figures(const struct sc_phase_record *rec, const struct sc_phase_figures *fig,
		       struct sc_ingest_figures *out)
{
	double window_s = (double)(fig->lastdone_ns - fig->window_start_ns) / SC_NS_PER_S_F;

	memset(out, 0, sizeof(*out));
	out->au_meets_90 = rec->nranks > 0;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		int64_t wall = r->end_ns - r->start_ns;
		double au = sc_rank_au(r);

		out->samples += r->samples;
		out->steps += r->steps;
		out->compute_ns += r->compute_ns;
		out->wall_ns += wall > 0 ? (uint64_t)wall : 0;
		if (i == 0 || au < out->au_min) {
			out->au_min = au;
			out->au_min_rank = r->rank;
		}
		if (au < AU_BAR)
			out->au_meets_90 = false;
	}
	out->au = out->wall_ns ? (double)out->compute_ns / (double)out->wall_ns : 0;
	out->samples_per_s = window_s > 0 ? (double)out->samples / window_s : 0;
	if (rec->batch_wait) {
		out->has_batch_wait = true;
		sc_hist_summarize(rec->batch_wait, &out->batch_wait);
	}
}

int sc_open_loop_figures(const struct sc_phase_record *rec, struct sc_open_loop_figures *out)
{
	memset(out, 0, sizeof(*out));
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		out->has_resp[d] = rec->resp[d] != NULL;
		if (rec->resp[d])
			sc_hist_summarize(rec->resp[d], &out->resp[d]);
	}
	for (uint32_t i = 0; i < rec->nranks; i++) {
		out->late_ios += rec->ranks[i].late_ios;
		out->unissued_ios += rec->ranks[i].unissued_ios;
	}
	if (!out->has_resp[SC_DIR_READ] && !out->has_resp[SC_DIR_WRITE])
		return 0; /* resp_all: the empty summary */
	return sc_lat_merged(rec->resp, &out->resp_all);
}

int sc_workload_figures_of(const struct sc_plan *plan, const struct sc_phase_record *pr,
			   const struct sc_phase_figures *fig, struct sc_workload_figures *out)
{
	const struct sc_phase *ph = pr->phase < plan->nphases ? &plan->phases[pr->phase] : NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if (ph && ph->workload == SC_WORKLOAD_CHECKPOINT)
		sc_ckpt_cell_figures(plan, pr, &out->ckpt);
	if (ph && ph->workload == SC_WORKLOAD_INGEST) {
		sc_ingest_figures(pr, fig, &out->ingest);
		out->rank_au = calloc(pr->nranks ? pr->nranks : 1, sizeof(*out->rank_au));
		if (!out->rank_au)
			return -ENOMEM;
		for (uint32_t i = 0; i < pr->nranks; i++)
			out->rank_au[i] = sc_rank_au(&pr->ranks[i]);
	}
	err = sc_open_loop_figures(pr, &out->open_loop);
	if (!err && ph && ph->workload == SC_WORKLOAD_FILL)
		err = sc_fill_cliffs(plan, pr, fig, &out->cliffs);
	sc_verify_figures(pr, &out->verify);
	if (ph)
		sc_stage_row(ph, fig, &out->stage);
	if (err)
		sc_workload_figures_exit(out);
	return err;
}

void sc_workload_figures_exit(struct sc_workload_figures *w)
{
	free(w->rank_au);
	sc_fill_cliffs_exit(&w->cliffs);
	memset(w, 0, sizeof(*w));
}

void sc_verify_figures(const struct sc_phase_record *rec, struct sc_verify_figures *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];

		out->checked += r->verify_checked;
		out->mismatches += r->verify_mismatches;
		out->ranks_with_mismatches += r->verify_mismatches != 0;
		out->listed += r->verify_nkept;
	}
}

const struct sc_verify_mismatch *sc_verify_listed(const struct sc_phase_record *rec, uint32_t i,
						  const struct sc_rank_result **rank)
{
	for (uint32_t k = 0; k < rec->nranks; k++) {
		const struct sc_rank_result *r = &rec->ranks[k];

		if (i < r->verify_nkept) {
			*rank = r;
			return &r->verify_kept[i];
		}
		i -= r->verify_nkept;
	}
	return NULL;
}
