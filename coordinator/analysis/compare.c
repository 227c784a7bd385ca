/* compare.c -- run B against run A: phases, sweep cells and checkpoint
 * groups paired, each figure's change and which run is better
 * (compare.h). */
#include "compare.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "figures.h"
#include "pct_support.h"
#include "units.h"
#include "workload_figures.h"

/* Ns per microsecond. */
#define NS_PER_US 1e3
/* Largest differences listed at most. */
#define COMPARE_DIFFS_MAX 4096u

static const struct sc_compare_fig_info fig_infos[SC_CMP_NFIGS] = {
    [SC_CMP_BW] = {"bandwidth", "MB/s", SC_BYTES_PER_MB, false},
    [SC_CMP_IOPS] = {"IOPS", "IOPS", 1, false},
#define LAT_INFOS(d, dir)                                                                          \
	[SC_CMP_LAT + (d)*SC_CMP_NSTATS +                                                          \
	    SC_CMP_MEAN] = {dir " mean", "us", NS_PER_US, true},                                   \
	    [SC_CMP_LAT + (d)*SC_CMP_NSTATS + SC_CMP_P50] = {dir " p50", "us", NS_PER_US, true},   \
	    [SC_CMP_LAT + (d)*SC_CMP_NSTATS + SC_CMP_P99] = {dir " p99", "us", NS_PER_US, true},   \
	    [SC_CMP_LAT + (d)*SC_CMP_NSTATS +                                                      \
		SC_CMP_P9999] = {dir " p99.99", "us", NS_PER_US, true}
    LAT_INFOS(SC_DIR_READ, "read"),
    LAT_INFOS(SC_DIR_WRITE, "write"),
    LAT_INFOS(SC_CMP_DIR_ALL, "latency"),
#undef LAT_INFOS
};

static const struct sc_compare_fig_info ckpt_infos[2] = {
    {"checkpoint write (mean)", "s", 1e9, true},
    {"checkpoint restore (mean)", "s", 1e9, true},
};

const struct sc_compare_fig_info *sc_compare_fig_info(int fig)
{
	return &fig_infos[fig];
}

void sc_compare_value_runs(struct sc_compare_value *v, const double *xa, uint32_t na,
			   const double *xb, uint32_t nb, bool lower_better)
{
	double a, b;

	sc_welch_side_of(xa, na, &v->side[0]);
	sc_welch_side_of(xb, nb, &v->side[1]);
	v->a = a = v->side[0].mean;
	v->b = b = v->side[1].mean;
	v->change = b - a;
	v->change_pct = v->ci_lo_pct = v->ci_hi_pct = NAN;
	sc_welch_interval(&v->side[0], &v->side[1], SC_WELCH_CONFIDENCE, &v->ci_lo, &v->ci_hi,
			  &v->ci_df);
	v->verdict = SC_CMP_UNKNOWN;
	if (!isfinite(a) || !isfinite(b))
		return;
	if (a == 0) {
		if (b == 0) {
			v->change_pct = 0;
			v->verdict = SC_CMP_SAME;
		}
		return;
	}
	v->change_pct = (b - a) / a * 100.0;
	v->ci_lo_pct = v->ci_lo / a * 100.0;
	v->ci_hi_pct = v->ci_hi / a * 100.0;
	if (sc_compare_has_interval(v) ? v->ci_lo <= 0 && v->ci_hi >= 0
				       : fabs(v->change_pct) < SC_COMPARE_SAME_PCT)
		v->verdict = SC_CMP_SAME;
	else
		v->verdict = (v->change_pct < 0) == lower_better ? SC_CMP_BETTER : SC_CMP_WORSE;
}

void sc_compare_value_set(struct sc_compare_value *v, double a, double b, bool lower_better)
{
	sc_compare_value_runs(v, &a, 1, &b, 1, lower_better);
}

const char *sc_compare_verdict_name(enum sc_compare_verdict v)
{
	switch (v) {
	case SC_CMP_SAME:
		return "no difference";
	case SC_CMP_BETTER:
		return "better";
	case SC_CMP_WORSE:
		return "worse";
	default:
		return "unknown";
	}
}

/* Whether latency direction d of p has a value in A or B. */
static bool has_dir(const struct sc_compare_phase *p, int d)
{
	const struct sc_compare_value *v = &p->v[sc_compare_lat_fig(d, SC_CMP_MEAN)];

	return isfinite(v->a) || isfinite(v->b);
}

bool sc_compare_fig_own(const struct sc_compare_phase *p, int fig)
{
	if (!isfinite(p->v[fig].a) && !isfinite(p->v[fig].b))
		return false;
	if (fig >= sc_compare_lat_fig(SC_CMP_DIR_ALL, 0))
		return has_dir(p, SC_DIR_READ) && has_dir(p, SC_DIR_WRITE);
	return true;
}

/* One run's figures of one phase (its figures f), NAN where it has none. */
static void phase_values(const struct sc_phase_figures *f, double out[SC_CMP_NFIGS])
{
	static const double pct[SC_CMP_NSTATS] = {0, 50, 99, 99.99};

	out[SC_CMP_BW] = f->lastdone_bw_bytes_per_s;
	out[SC_CMP_IOPS] = f->iops_total;
	for (int d = 0; d <= SC_CMP_DIR_ALL; d++) {
		const struct sc_lat_summary *s = d == SC_CMP_DIR_ALL ? &f->lat_all : &f->lat[d];

		for (int st = 0; st < SC_CMP_NSTATS; st++) {
			uint64_t ns = 0; /* a percentile too few samples support: NAN */
			bool shown = st == SC_CMP_MEAN || sc_lat_pct(s, sc_pct_index(pct[st]), &ns);
			double v = st == SC_CMP_MEAN ? s->mean_ns : shown ? (double)ns : NAN;

			out[sc_compare_lat_fig(d, st)] = s->count ? v : NAN;
		}
	}
}

/* The record of plan phase p in rec, or -1. */
static int32_t record_of(const struct sc_run_record *rec, uint32_t p)
{
	for (uint32_t i = 0; i < rec->nphases; i++)
		if (rec->phases[i].phase == p)
			return (int32_t)i;
	return -1;
}

static void axis_value(char *buf, size_t len, int axis, uint64_t v)
{
	if (axis == SC_SWEEP_RW)
		snprintf(buf, len, "%s", sc_rw_name((enum sc_rw)v));
	else if (axis == SC_SWEEP_BS)
		sc_compare_size_label(buf, len, v);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* Pairs axis a of sa with sb's: map[i] is B's index of A's value i, or -1;
 * labels[i] A's value, or "A->B" when paired by position.  0 or -ENOMEM. */
static int pair_axis(const struct sc_sweep *sa, const struct sc_sweep *sb, int a, int32_t *map,
		     char **labels)
{
	bool same = sa->naxis[a] == sb->naxis[a];
	char va[32], vb[32], buf[72];

	for (uint32_t i = 0; same && i < sa->naxis[a]; i++)
		same = sa->axis[a][i] == sb->axis[a][i];
	for (uint32_t i = 0; i < sa->naxis[a]; i++) {
		axis_value(va, sizeof(va), a, sa->axis[a][i]);
		snprintf(buf, sizeof(buf), "%s", va);
		map[i] = -1;
		if (sa->naxis[a] == sb->naxis[a]) {
			map[i] = (int32_t)i;
			if (!same && sa->axis[a][i] != sb->axis[a][i]) {
				axis_value(vb, sizeof(vb), a, sb->axis[a][i]);
				snprintf(buf, sizeof(buf), "%s->%s", va, vb);
			}
		} else {
			for (uint32_t j = 0; j < sb->naxis[a]; j++)
				if (sb->axis[a][j] == sa->axis[a][i])
					map[i] = (int32_t)j;
		}
		labels[i] = strdup(buf);
		if (!labels[i])
			return -ENOMEM;
	}
	return 0;
}

/* The place of A's axis indexes at in s->pair. */
static uint32_t grid_index(const struct sc_compare_sweep *s, const uint32_t at[SC_SWEEP_AXES])
{
	return (at[SC_SWEEP_RW] * s->naxis[SC_SWEEP_BS] + at[SC_SWEEP_BS]) *
		   s->naxis[SC_SWEEP_IODEPTH] +
	       at[SC_SWEEP_IODEPTH];
}

/* Working state while pairing. */
struct pairing {
	const struct sc_run_record *a, *b;
	int32_t *pair_b;   /* per A record: B's record, or -1 */
	int32_t *sweep_of; /* per A record: index into c->sweeps, or -1 */
	uint32_t *grid_at; /* per A record: its place in that sweep's pair */
	char **label;	   /* per A record: a sweep cell's label, or NULL */
	bool *used_b;	   /* per B record */
};

/* The label of a paired cell: "group[rw=..,bs=..,iodepth=16->4]" on the
 * axes either sweep varies. */
static char *cell_label(const struct sc_sweep *sa, const struct sc_sweep *sb,
			const struct sc_compare_sweep *cs, const struct sc_sweep_cell *cell)
{
	static const char *const keys[SC_SWEEP_AXES] = {"rw", "bs", "iodepth"};
	char buf[512];
	size_t len;
	bool first = true;

	snprintf(buf, sizeof(buf), "%s[", sa->name);
	for (int a = 0; a < SC_SWEEP_AXES; a++) {
		if (sa->naxis[a] < 2 && sb->naxis[a] < 2 && !strstr(cs->labels[a][0], "->"))
			continue;
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "%s%s=%s", first ? "" : ",", keys[a],
			 cs->labels[a][cell->at[a]]);
		first = false;
	}
	len = strlen(buf);
	snprintf(buf + len, sizeof(buf) - len, "]");
	return strdup(buf);
}

/* Pairs the measured cells of sweep sa (A) with sb's (B), as sweep k of c.
 * 0 or -ENOMEM. */
static int pair_sweep(struct sc_compare *c, struct pairing *pg, uint32_t k,
		      const struct sc_sweep *sa, const struct sc_sweep *sb)
{
	struct sc_compare_sweep *cs = &c->sweeps[k];
	int32_t *map[SC_SWEEP_AXES] = {NULL};
	uint32_t ncells = 1;
	int rc = -ENOMEM;

	cs->name = sa->name;
	for (int a = 0; a < SC_SWEEP_AXES; a++) {
		cs->naxis[a] = sa->naxis[a];
		ncells *= sa->naxis[a];
		map[a] = calloc(sa->naxis[a] + 1, sizeof(*map[a]));
		cs->labels[a] = calloc(sa->naxis[a] + 1, sizeof(*cs->labels[a]));
		if (!map[a] || !cs->labels[a] || pair_axis(sa, sb, a, map[a], cs->labels[a]))
			goto out;
	}
	cs->pair = malloc((ncells + 1) * sizeof(*cs->pair));
	if (!cs->pair)
		goto out;
	for (uint32_t i = 0; i < ncells; i++)
		cs->pair[i] = -1;
	for (uint32_t i = 0; i < sa->ncells; i++) {
		const struct sc_sweep_cell *ca = &sa->cells[i], *cb;
		uint32_t at_b[SC_SWEEP_AXES];
		int32_t ra = record_of(pg->a, ca->phase), rb;
		bool mapped = ra >= 0;

		for (int a = 0; a < SC_SWEEP_AXES && mapped; a++) {
			mapped = map[a][ca->at[a]] >= 0;
			at_b[a] = (uint32_t)map[a][ca->at[a]];
		}
		cb = mapped ? sc_sweep_cell_at(sb, at_b) : NULL;
		rb = cb ? record_of(pg->b, cb->phase) : -1;
		if (rb < 0 || pg->used_b[rb])
			continue;
		pg->pair_b[ra] = rb;
		pg->used_b[rb] = true;
		pg->sweep_of[ra] = (int32_t)k;
		pg->grid_at[ra] = grid_index(cs, ca->at);
		pg->label[ra] = cell_label(sa, sb, cs, ca);
		if (!pg->label[ra])
			goto out;
	}
	rc = 0;
out:
	for (int a = 0; a < SC_SWEEP_AXES; a++)
		free(map[a]);
	return rc;
}

/* Sweeps of the same name in both runs, their cells paired.  0 or -ENOMEM. */
static int pair_sweeps(struct sc_compare *c, struct pairing *pg)
{
	int rc;

	c->sweeps_a = &c->figs[0][0].sweeps; /* pg->a is side A's first run */
	c->sweeps_b = &c->figs[1][0].sweeps;
	c->sweeps = calloc(c->sweeps_a->n + 1, sizeof(*c->sweeps));
	if (!c->sweeps)
		return -ENOMEM;
	for (uint32_t k = 0; k < c->sweeps_a->n; k++) {
		const struct sc_sweep *sa = &c->sweeps_a->s[k];
		const struct sc_sweep *sb = sc_sweeps_find(c->sweeps_b, sa->name);

		if (!sb)
			continue;
		rc = pair_sweep(c, pg, c->nsweeps++, sa, sb);
		if (rc)
			return rc;
	}
	return 0;
}

/* The phases not paired in a sweep: paired by name. */
static void pair_by_name(struct pairing *pg)
{
	for (uint32_t i = 0; i < pg->a->nphases; i++) {
		const char *name = pg->a->plan.phases[pg->a->phases[i].phase].name;

		if (pg->pair_b[i] >= 0)
			continue;
		for (uint32_t j = 0; j < pg->b->nphases; j++) {
			if (pg->used_b[j] ||
			    strcmp(pg->b->plan.phases[pg->b->phases[j].phase].name, name) != 0)
				continue;
			pg->pair_b[i] = (int32_t)j;
			pg->used_b[j] = true;
			break;
		}
	}
}

/* The index of the phase named name in rec->phases, or -1. */
static int64_t record_named(const struct sc_run_record *rec, const char *name)
{
	for (uint32_t i = 0; i < rec->nphases; i++)
		if (strcmp(rec->plan.phases[rec->phases[i].phase].name, name) == 0)
			return i;
	return -1;
}

/* Each run of side s's figures of the phase named name: x[fig * nruns +
 * run], NAN for a run without it.  0 or -ENOMEM. */
static int side_values(const struct sc_compare *c, int s, const char *name, double *x)
{
	uint32_t n = c->nruns[s];
	double v[SC_CMP_NFIGS];

	for (uint32_t r = 0; r < n; r++) {
		int64_t i = record_named(c->runs[s][r], name);

		for (int k = 0; k < SC_CMP_NFIGS; k++)
			v[k] = NAN;
		if (i >= 0)
			phase_values(&c->figs[s][r].phases[i], v);
		for (int k = 0; k < SC_CMP_NFIGS; k++)
			x[k * n + r] = v[k];
	}
	return 0;
}

/* Each figure of p over the runs of both sides, the phases named na in A
 * and nb in B.  0 or -ENOMEM. */
static int pair_values(const struct sc_compare *c, struct sc_compare_phase *p, const char *na,
		       const char *nb)
{
	double *x[2];
	int rc = -ENOMEM;

	x[0] = calloc((size_t)c->nruns[0] * SC_CMP_NFIGS, sizeof(double));
	x[1] = calloc((size_t)c->nruns[1] * SC_CMP_NFIGS, sizeof(double));
	if (x[0] && x[1] && !side_values(c, 0, na, x[0]) && !side_values(c, 1, nb, x[1])) {
		for (int k = 0; k < SC_CMP_NFIGS; k++)
			sc_compare_value_runs(&p->v[k], x[0] + k * c->nruns[0], c->nruns[0],
					      x[1] + k * c->nruns[1], c->nruns[1],
					      fig_infos[k].lower_better);
		rc = 0;
	}
	free(x[0]);
	free(x[1]);
	return rc;
}

/* One pair of phase records, A's ra and B's rb, as c's next phase.  0 or
 * -ENOMEM. */
static int add_phase(struct sc_compare *c, struct pairing *pg, uint32_t ra, uint32_t rb)
{
	struct sc_compare_phase *p = &c->phases[c->nphases];
	const struct sc_phase_record *pa = &pg->a->phases[ra], *pb = &pg->b->phases[rb];
	int n;

	p->phase_a = pa->phase;
	p->phase_b = pb->phase;
	p->sweep = pg->sweep_of[ra];
	p->label = pg->label[ra] ? pg->label[ra] : strdup(pg->a->plan.phases[pa->phase].name);
	pg->label[ra] = NULL;
	if (!p->label)
		return -ENOMEM;
	c->nphases++;
	if (pair_values(c, p, pg->a->plan.phases[pa->phase].name,
			pg->b->plan.phases[pb->phase].name))
		return -ENOMEM;
	n = sc_compare_settings(pg->a, pa->phase, pg->b, pb->phase, &p->settings);
	if (n < 0)
		return n;
	p->nsettings = (uint32_t)n;
	if (p->sweep >= 0)
		c->sweeps[p->sweep].pair[pg->grid_at[ra]] = (int32_t)(c->nphases - 1);
	return 0;
}

/* A name to the list of one run's phases. */
static int add_only(const char ***list, uint32_t *n, const char *name)
{
	const char **more = realloc(*list, (*n + 1) * sizeof(**list));

	if (!more)
		return -ENOMEM;
	more[(*n)++] = name;
	*list = more;
	return 0;
}

/* c's phases from the pairing, and the phases of one run only.  0 or
 * -ENOMEM. */
static int collect_phases(struct sc_compare *c, struct pairing *pg)
{
	c->phases = calloc(pg->a->nphases + 1, sizeof(*c->phases));
	if (!c->phases)
		return -ENOMEM;
	for (uint32_t i = 0; i < pg->a->nphases; i++) {
		int rc = pg->pair_b[i] >= 0
			     ? add_phase(c, pg, i, (uint32_t)pg->pair_b[i])
			     : add_only(&c->only_a, &c->nonly_a,
					pg->a->plan.phases[pg->a->phases[i].phase].name);

		if (rc)
			return rc;
	}
	for (uint32_t j = 0; j < pg->b->nphases; j++)
		if (!pg->used_b[j] && add_only(&c->only_b, &c->nonly_b,
					       pg->b->plan.phases[pg->b->phases[j].phase].name))
			return -ENOMEM;
	return 0;
}

/* One run's durations of group g's writes (restore false) or restores. */
static int ckpt_series(const struct sc_ckpt_group *g, bool restore, double **out, uint32_t *n)
{
	*out = calloc(g->ncells + 1, sizeof(**out));
	*n = 0;
	if (!*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < g->ncells; i++)
		if (g->cells[i].restore == restore)
			(*out)[(*n)++] = (double)g->cells[i].duration_ns;
	return 0;
}

/* Every run's checkpoint groups, side by side: g[s][r], ng[s][r]. */
struct ckpt_runs {
	struct sc_ckpt_group **g[2];
	uint32_t *ng[2];
};

/* The group named name among run r of side s's, or NULL. */
static const struct sc_ckpt_group *group_named(const struct ckpt_runs *cr, int s, uint32_t r,
					       const char *name)
{
	for (uint32_t j = 0; j < cr->ng[s][r]; j++)
		if (strcmp(cr->g[s][r][j].name, name) == 0)
			return &cr->g[s][r][j];
	return NULL;
}

/* The mean write (restore true: restore) durations of group name over each
 * side's runs into k. */
static int ckpt_means(const struct sc_compare *c, const struct ckpt_runs *cr, const char *name,
		      struct sc_compare_ckpt *k)
{
	double *x[2][2];
	int rc = -ENOMEM;

	for (int s = 0; s < 2; s++) {
		x[s][0] = calloc(c->nruns[s], sizeof(double));
		x[s][1] = calloc(c->nruns[s], sizeof(double));
	}
	if (!x[0][0] || !x[0][1] || !x[1][0] || !x[1][1])
		goto out;
	for (int s = 0; s < 2; s++)
		for (uint32_t r = 0; r < c->nruns[s]; r++) {
			const struct sc_ckpt_group *g = group_named(cr, s, r, name);

			x[s][0][r] = g && g->write.n ? g->write.mean_ns : NAN;
			x[s][1][r] = g && g->restore.n ? g->restore.mean_ns : NAN;
		}
	sc_compare_value_runs(&k->write_mean, x[0][0], c->nruns[0], x[1][0], c->nruns[1], true);
	sc_compare_value_runs(&k->restore_mean, x[0][1], c->nruns[0], x[1][1], c->nruns[1], true);
	rc = 0;
out:
	for (int s = 0; s < 2; s++) {
		free(x[s][0]);
		free(x[s][1]);
	}
	return rc;
}

/* Checkpoint groups of the first runs paired by name.  0 or -ENOMEM. */
static int pair_ckpt(struct sc_compare *c, const struct ckpt_runs *cr)
{
	uint32_t na = cr->ng[0][0];

	c->ckpt = calloc(na + 1, sizeof(*c->ckpt));
	if (!c->ckpt)
		return -ENOMEM;
	for (uint32_t i = 0; i < na; i++) {
		const struct sc_ckpt_group *g[2] = {&cr->g[0][0][i], NULL};
		struct sc_compare_ckpt *k = &c->ckpt[c->nckpt];

		g[1] = group_named(cr, 1, 0, g[0]->name);
		if (!g[1])
			continue;
		c->nckpt++;
		k->name = g[0]->name;
		for (int r = 0; r < 2; r++)
			if (ckpt_series(g[r], false, &k->write_ns[r], &k->nwrite[r]) ||
			    ckpt_series(g[r], true, &k->restore_ns[r], &k->nrestore[r]))
				return -ENOMEM;
		if (ckpt_means(c, cr, k->name, k))
			return -ENOMEM;
	}
	return 0;
}

static int compare_ckpt(struct sc_compare *c)
{
	struct ckpt_runs cr;
	int rc = -ENOMEM;

	memset(&cr, 0, sizeof(cr));
	for (int s = 0; s < 2; s++) {
		cr.g[s] = calloc(c->nruns[s], sizeof(*cr.g[s]));
		cr.ng[s] = calloc(c->nruns[s], sizeof(*cr.ng[s]));
		if (!cr.g[s] || !cr.ng[s])
			goto out;
	}
	for (int s = 0; s < 2; s++)
		for (uint32_t r = 0; r < c->nruns[s]; r++) {
			cr.g[s][r] = c->figs[s][r].ckpt;
			cr.ng[s][r] = c->figs[s][r].nckpt;
		}
	rc = pair_ckpt(c, &cr);
out:
	for (int s = 0; s < 2; s++) {
		free(cr.g[s]);
		free(cr.ng[s]);
	}
	return rc;
}

static int by_change(const void *x, const void *y)
{
	double a = fabs(((const struct sc_compare_diff *)x)->v->change_pct);
	double b = fabs(((const struct sc_compare_diff *)y)->v->change_pct);

	return a < b ? 1 : a > b ? -1 : 0;
}

static void add_diff(struct sc_compare *c, const char *label,
		     const struct sc_compare_fig_info *info, const struct sc_compare_value *v)
{
	if (c->ndiffs >= COMPARE_DIFFS_MAX ||
	    (v->verdict != SC_CMP_BETTER && v->verdict != SC_CMP_WORSE))
		return;
	c->diffs[c->ndiffs++] = (struct sc_compare_diff){
	    .label = label, .fig = info->name, .unit = info->unit, .scale = info->scale, .v = v};
}

/* Every better or worse figure, largest |change| first.  0 or -ENOMEM. */
static int collect_diffs(struct sc_compare *c)
{
	c->diffs = calloc(COMPARE_DIFFS_MAX, sizeof(*c->diffs));
	if (!c->diffs)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->nphases; i++)
		for (int k = 0; k < SC_CMP_NFIGS; k++)
			if (sc_compare_fig_own(&c->phases[i], k))
				add_diff(c, c->phases[i].label, &fig_infos[k], &c->phases[i].v[k]);
	for (uint32_t i = 0; i < c->nckpt; i++) {
		add_diff(c, c->ckpt[i].name, &ckpt_infos[0], &c->ckpt[i].write_mean);
		add_diff(c, c->ckpt[i].name, &ckpt_infos[1], &c->ckpt[i].restore_mean);
	}
	qsort(c->diffs, c->ndiffs, sizeof(*c->diffs), by_change);
	return 0;
}

static void pairing_exit(struct pairing *pg)
{
	for (uint32_t i = 0; pg->label && i < pg->a->nphases; i++)
		free(pg->label[i]);
	free(pg->label);
	free(pg->pair_b);
	free(pg->sweep_of);
	free(pg->grid_at);
	free(pg->used_b);
}

/* Pairs the phases of c's runs.  0 or -ENOMEM. */
static int pair_phases(struct sc_compare *c)
{
	struct pairing pg = {.a = c->a, .b = c->b};
	uint32_t na = c->a->nphases + 1;
	int rc = -ENOMEM;

	pg.pair_b = malloc(na * sizeof(*pg.pair_b));
	pg.sweep_of = malloc(na * sizeof(*pg.sweep_of));
	pg.grid_at = calloc(na, sizeof(*pg.grid_at));
	pg.label = calloc(na, sizeof(*pg.label));
	pg.used_b = calloc(c->b->nphases + 1, sizeof(*pg.used_b));
	if (!pg.pair_b || !pg.sweep_of || !pg.grid_at || !pg.label || !pg.used_b)
		goto out;
	for (uint32_t i = 0; i < na; i++)
		pg.pair_b[i] = pg.sweep_of[i] = -1;
	rc = pair_sweeps(c, &pg);
	if (rc)
		goto out;
	pair_by_name(&pg);
	rc = collect_phases(c, &pg);
out:
	pairing_exit(&pg);
	return rc;
}

/* Whether setting x reads as y. */
static bool same_setting(const struct sc_compare_setting *x, const struct sc_compare_setting *y)
{
	return strcmp(x->name, y->name) == 0 && strcmp(x->a, y->a) == 0 && strcmp(x->b, y->b) == 0;
}

/* Each setting that differs, once per setting and pair of values, with
 * the pairs it differs in.  0 or -ENOMEM. */
static int collect_warnings(struct sc_compare *c)
{
	for (uint32_t i = 0; i < c->nphases; i++)
		for (uint32_t j = 0; j < c->phases[i].nsettings; j++) {
			const struct sc_compare_setting *s = &c->phases[i].settings[j];
			struct sc_compare_warning *w = NULL, *more;

			for (uint32_t k = 0; k < c->nwarnings && !w; k++)
				if (same_setting(c->warnings[k].s, s))
					w = &c->warnings[k];
			if (!w) {
				more = realloc(c->warnings, (c->nwarnings + 1) * sizeof(*more));
				if (!more)
					return -ENOMEM;
				c->warnings = more;
				w = &more[c->nwarnings++];
				*w = (struct sc_compare_warning){.s = s,
								 .first = c->phases[i].label};
			}
			w->npairs++;
			w->last = c->phases[i].label;
		}
	return 0;
}

int sc_compare_runs(const struct sc_run_record *a, const struct sc_run_record *b,
		    struct sc_compare *out, char *err, size_t errlen)
{
	const struct sc_run_record *ra[1] = {a}, *rb[1] = {b};
	int rc = sc_compare_sides(ra, 1, rb, 1, out, err, errlen);

	if (!rc) { /* the arrays above end here: out keeps its own */
		out->one[0] = a;
		out->one[1] = b;
		out->runs[0] = &out->one[0];
		out->runs[1] = &out->one[1];
	}
	return rc;
}

/* Each run's figures, once: c->figs.  0 or -ENOMEM. */
static int build_figs(struct sc_compare *c)
{
	for (int s = 0; s < 2; s++) {
		c->figs[s] = calloc(c->nruns[s], sizeof(*c->figs[s]));
		if (!c->figs[s])
			return -ENOMEM;
		for (uint32_t r = 0; r < c->nruns[s]; r++)
			if (sc_run_figures_update(&c->figs[s][r], c->runs[s][r]))
				return -ENOMEM;
	}
	return 0;
}

int sc_compare_sides(const struct sc_run_record *const *a, uint32_t na,
		     const struct sc_run_record *const *b, uint32_t nb, struct sc_compare *out,
		     char *err, size_t errlen)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->a = a[0];
	out->b = b[0];
	out->runs[0] = a;
	out->runs[1] = b;
	out->nruns[0] = na;
	out->nruns[1] = nb;
	rc = build_figs(out);
	if (!rc)
		rc = pair_phases(out);
	if (!rc)
		rc = compare_ckpt(out);
	if (!rc)
		rc = collect_diffs(out);
	if (!rc)
		rc = collect_warnings(out);
	if (rc) {
		snprintf(err, errlen, "out of memory");
		sc_compare_exit(out);
		return rc;
	}
	if (out->nphases == 0) {
		snprintf(err, errlen,
			 "the runs share no phase (A has %u, B has %u; phases pair by name, "
			 "sweep cells by rw, bs and iodepth)",
			 a[0]->nphases, b[0]->nphases);
		sc_compare_exit(out);
		return -ENOENT;
	}
	return 0;
}

void sc_compare_exit(struct sc_compare *c)
{
	for (uint32_t i = 0; c->phases && i < c->nphases; i++) {
		free(c->phases[i].label);
		free(c->phases[i].settings);
	}
	free(c->phases);
	free(c->warnings);
	for (uint32_t k = 0; c->sweeps && k < c->sweeps_a->n; k++) {
		for (int a = 0; a < SC_SWEEP_AXES; a++) {
			for (uint32_t i = 0; c->sweeps[k].labels[a] && i < c->sweeps[k].naxis[a];
			     i++)
				free(c->sweeps[k].labels[a][i]);
			free(c->sweeps[k].labels[a]);
		}
		free(c->sweeps[k].pair);
	}
	free(c->sweeps);
	for (uint32_t k = 0; c->ckpt && k < c->nckpt + 1; k++)
		for (int r = 0; r < 2; r++) {
			free(c->ckpt[k].write_ns[r]);
			free(c->ckpt[k].restore_ns[r]);
		}
	free(c->ckpt);
	free(c->only_a);
	free(c->only_b);
	free(c->diffs);
	for (int s = 0; s < 2; s++) {
		for (uint32_t r = 0; c->figs[s] && r < c->nruns[s]; r++)
			sc_run_figures_exit(&c->figs[s][r]);
		free(c->figs[s]);
	}
	memset(c, 0, sizeof(*c));
}

const struct sc_compare_phase *sc_compare_cell(const struct sc_compare *c,
					       const struct sc_compare_sweep *s,
					       const uint32_t at[SC_SWEEP_AXES])
{
	int32_t i;

	for (int a = 0; a < SC_SWEEP_AXES; a++)
		if (at[a] >= s->naxis[a])
			return NULL;
	i = s->pair[grid_index(s, at)];
	return i >= 0 ? &c->phases[i] : NULL;
}
