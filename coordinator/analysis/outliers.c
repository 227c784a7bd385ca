/* outliers.c -- drives and nodes far from their peers' median, in median
 * absolute deviations (outliers.h). */
#include "outliers.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"

const char *sc_outlier_figure_name(enum sc_outlier_figure f)
{
	return f == SC_OUTLIER_BW ? "bandwidth" : "IOPS";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Partitions past this many rounds sort what is left: the median of
 * three makes it rare, a bound makes it certain. */
#define SELECT_ROUNDS 64

/* The value sorting v[0..n) (n > 0, no NaN) puts at k, v reordered so that
 * every value before k is at most it and every one after at least it: a
 * median's cost without sorting (at 32K drives each phase's median was
 * most of the outliers' time). */
static double select_kth(double *v, uint32_t n, uint32_t k)
{
	int64_t lo = 0, hi = (int64_t)n - 1;

	for (unsigned round = 0; lo < hi; round++) {
		double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi], p, t;
		int64_t i = lo, j = hi;

		if (round == SELECT_ROUNDS) {
			qsort(v + lo, (size_t)(hi - lo + 1), sizeof(*v), cmp_double);
			break;
		}
		p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		/* v[lo..j] <= p, v[i..hi] >= p, and p between */
		if ((int64_t)k <= j)
			hi = j;
		else if ((int64_t)k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* The median of v[0..n) (n > 0), v reordered. */
static double median_of(double *v, uint32_t n)
{
	double hi, lo;

	for (uint32_t i = 0; i < n; i++)
		if (isnan(v[i])) { /* no order to select by: sorted as before */
			qsort(v, n, sizeof(*v), cmp_double);
			return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		}
	hi = select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	lo = v[0]; /* the largest of the values before n / 2 */
	for (uint32_t i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2;
}

int sc_outliers_flag(const double *values, uint32_t n, double k, double mad_floor,
		     uint32_t *flagged, double *median, double *mad)
{
	double *tmp;
	uint32_t nflag = 0;

	*median = 0;
	*mad = 0;
	if (n < SC_OUTLIER_MIN_PEERS)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, values, n * sizeof(*tmp));
	*median = median_of(tmp, n);
	for (uint32_t i = 0; i < n; i++)
		tmp[i] = fabs(values[i] - *median);
	*mad = median_of(tmp, n);
	free(tmp);
	if (*mad < mad_floor * *median)
		*mad = mad_floor * *median;
	if (!(*median > 0))
		return 0; /* nothing moved */
	/* MAD 0 (more than half the peers identical, no floor): any value
	 * apart from them is flagged */
	for (uint32_t i = 0; i < n; i++)
		if (fabs(values[i] - *median) > k * *mad)
			flagged[nflag++] = i;
	return (int)nflag;
}

/* A phase's outliers while they are found. */
struct found {
	const struct sc_run_record *rec;
	const struct sc_phase_record *pr;
	const struct sc_phase_figures *fig;
	struct sc_outliers *o;
};

static struct sc_outlier *add(struct found *f)
{
	struct sc_outliers *o = f->o;

	if (o->n == o->cap) {
		uint32_t cap = o->cap ? 2 * o->cap : 8;
		struct sc_outlier *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		o->v = v;
		o->cap = cap;
	}
	memset(&o->v[o->n], 0, sizeof(o->v[0]));
	return &o->v[o->n++];
}

/* Flags among values (one per rank of the phase, or per node row in
 * rows) and adds what is flagged. */
static int flag_among(struct found *f, const double *values, const uint32_t *rows, uint32_t n,
		      enum sc_check_scope scope, enum sc_outlier_figure fig)
{
	uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	double median, mad;
	int nflag;

	if (!idx)
		return -ENOMEM;
	nflag = sc_outliers_flag(values, n, f->o->k, f->o->mad_floor, idx, &median, &mad);
	f->o->judged += n >= SC_OUTLIER_MIN_PEERS;
	for (int i = 0; i < nflag; i++) {
		struct sc_outlier *o = add(f);

		if (!o) {
			free(idx);
			return -ENOMEM;
		}
		o->phase = f->pr->phase;
		o->phase_name = f->rec->plan.phases[f->pr->phase].name;
		o->at.scope = scope;
		o->figure = fig;
		o->value = values[idx[i]];
		o->median = median;
		o->mad = mad;
		o->deviations = (o->value - median) / mad;
		o->peers = n;
		if (scope == SC_SCOPE_DRIVE) {
			sc_verdict_drive_where(&f->rec->plan, &f->pr->ranks[idx[i]], &o->at);
		} else {
			o->at.node = f->fig->nodes[rows[idx[i]]].node;
			o->at.host = sc_verdict_node_host(f->pr, o->at.node);
		}
		if (sc_where_keep(&o->at, &f->o->names)) {
			free(idx);
			return -ENOMEM;
		}
	}
	free(idx);
	return nflag < 0 ? nflag : 0;
}

/* The drive and node outliers of one phase, bandwidth then IOPS. */
static int phase_outliers(struct found *f)
{
	const struct sc_phase_figures *fig = f->fig;
	uint32_t nr = f->pr->nranks, nn = 0;
	uint32_t cap = nr > fig->nodes_len ? nr : fig->nodes_len;
	double *v = malloc((cap ? cap : 1) * sizeof(*v));
	uint32_t *rows = malloc((cap ? cap : 1) * sizeof(*rows));
	int err = 0;

	if (!v || !rows) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < fig->nodes_len; i++)
		if (fig->nodes[i].nranks)
			rows[nn++] = i;
	for (int g = SC_OUTLIER_BW; !err && g <= SC_OUTLIER_IOPS; g++) {
		for (uint32_t i = 0; i < nr; i++)
			v[i] = g == SC_OUTLIER_BW ? fig->rank_rows[i].bw_bytes_per_s
						  : fig->rank_rows[i].iops;
		err = flag_among(f, v, NULL, nr, SC_SCOPE_DRIVE, (enum sc_outlier_figure)g);
		for (uint32_t i = 0; !err && i < nn; i++) {
			const struct sc_node_row *row = &fig->nodes[rows[i]];

			v[i] = g == SC_OUTLIER_BW
				   ? row->bw_bytes_per_s
				   : row->iops[SC_DIR_READ] + row->iops[SC_DIR_WRITE];
		}
		if (!err)
			err = flag_among(f, v, rows, nn, SC_SCOPE_NODE, (enum sc_outlier_figure)g);
	}
out:
	free(v);
	free(rows);
	return err;
}

void sc_outliers_init(struct sc_outliers *o, const struct sc_plan *plan)
{
	memset(o, 0, sizeof(*o));
	o->k = plan->outlier_k > 0 ? plan->outlier_k : SC_OUTLIER_K_DEFAULT;
	o->mad_floor = plan->outlier_mad_floor > 0 ? plan->outlier_mad_floor
						   : SC_OUTLIER_MAD_FLOOR_DEFAULT;
}

int sc_outliers_add(struct sc_outliers *o, const struct sc_run_record *rec,
		    const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	struct found f = {.rec = rec, .pr = pr, .fig = fig, .o = o};

	if (pr->phase >= rec->plan.nphases || pr->status == SC_PHASE_TIMED_OUT)
		return 0;
	return phase_outliers(&f);
}

int sc_outliers_of_run(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		       struct sc_outliers *out)
{
	int err = 0;

	sc_outliers_init(out, &rec->plan);
	for (uint32_t i = 0; !err && i < rec->nphases; i++)
		err = sc_outliers_add(out, rec, &rec->phases[i], &pf[i]);
	if (err)
		sc_outliers_exit(out);
	return err;
}

void sc_outliers_exit(struct sc_outliers *o)
{
	sc_names_exit(&o->names);
	free(o->v);
	memset(o, 0, sizeof(*o));
}
