/* test_outliers.c -- median absolute deviation outliers on known values: one
 * drive at a third of its peers' rate is the only one flagged; identical or
 * nearly identical peers flag none (the MAD floor); too few peers judge
 * nothing; over a run, the flagged drive is named by host and target. */
#include "analysis/outliers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "check.h"
#include "xorshift.h"

#define N8	 8u
#define K	 SC_OUTLIER_K_DEFAULT
#define FLOOR	 SC_OUTLIER_MAD_FLOOR_DEFAULT
#define RATE	 300e6 /* bytes per second of a healthy drive */
#define S_NS	 INT64_C(1000000000)
#define THIRD_AT 5u /* index of the slow drive */

/* sc_outliers_of_run on rec's figures, built here. */
static int outliers_of(const struct sc_run_record *rec, struct sc_outliers *o)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, rec);

	if (!rc)
		rc = sc_outliers_of_run(rec, fg.phases, o);
	sc_run_figures_exit(&fg);
	return rc;
}

/* Flags among v, checks the count and, when want_idx >= 0, which one. */
static void expect_flags(const char *what, const double *v, uint32_t n, double floor, int want_n,
			 int want_idx)
{
	uint32_t idx[N8 + 1];
	double median, mad;
	int got = sc_outliers_flag(v, n, K, floor, idx, &median, &mad);

	CHECK(got == want_n, "%s: %d flagged, want %d (median %g, MAD %g)", what, got, want_n,
	      median, mad);
	if (got == 1 && want_idx >= 0)
		CHECK(idx[0] == (uint32_t)want_idx, "%s: flagged %u, want %d", what, idx[0],
		      want_idx);
}

static void test_flag(void)
{
	double third[N8], same[N8], tiny[N8];
	const double noisy[N8] = {290e6, 310e6, 305e6, 295e6, 300e6, 302e6, 100e6, 298e6};
	const double fast[N8] = {290e6, 310e6, 305e6, 295e6, 900e6, 302e6, 300e6, 298e6};

	for (uint32_t i = 0; i < N8; i++) {
		third[i] = i == THIRD_AT ? RATE / 3 : RATE;
		same[i] = RATE;
		tiny[i] = RATE * (1 + (i % 3 == 0 ? 0.001 : i % 3 == 1 ? -0.002 : 0.003));
	}
	expect_flags("one at a third among 8", third, N8, FLOOR, 1, THIRD_AT);
	expect_flags("one at a third, no floor", third, N8, 0, 1, THIRD_AT);
	expect_flags("identical peers", same, N8, FLOOR, 0, -1);
	expect_flags("identical peers, no floor (MAD 0)", same, N8, 0, 0, -1);
	expect_flags("0.3% apart", tiny, N8, FLOOR, 0, -1);
	expect_flags("one slow among noisy peers", noisy, N8, FLOOR, 1, 6);
	expect_flags("one fast (high) among peers", fast, N8, FLOOR, 1, 4);
	expect_flags("two peers only", third + 4, 2, FLOOR, 0, -1);
	expect_flags("three peers, one at a third", third + 3, 3, FLOOR, 1, 2);
}

static int cmp_ref(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) by sorting a copy: the textbook's. */
static double ref_median(const double *v, uint32_t n)
{
	double *s = xcalloc(n, sizeof(*s)), m;

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_ref);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* The median and MAD sc_outliers_flag gives, and what it flags, are the
 * sorted copy's on random peers: odd and even counts, many ties (a few
 * distinct rates), sorted, reversed and all but one equal. */
static void test_median_exact(void)
{
	uint64_t st = 0x9e3779b97f4a7c15ull;

	for (uint32_t t = 0; t < 3000; t++) {
		uint32_t n = 3 + (uint32_t)(xs_unit(&st) * (t < 2000 ? 40 : 5000));
		double *v = xcalloc(n, sizeof(*v)), *dev = xcalloc(n, sizeof(*dev));
		uint32_t *idx = xcalloc(n, sizeof(*idx)), want = 0;
		unsigned shape = t % 5;
		double median, mad, rm, rmad;
		int got;

		for (uint32_t i = 0; i < n; i++) {
			double u = xs_unit(&st);

			v[i] = shape == 0   ? RATE * (0.5 + u)
			       : shape == 1 ? RATE * (1 + (double)(uint32_t)(u * 4) / 10)
			       : shape == 2 ? RATE + i
			       : shape == 3 ? RATE * 2 - i
					    : (i == n / 3 ? RATE / 3 : RATE);
		}
		rm = ref_median(v, n);
		for (uint32_t i = 0; i < n; i++)
			dev[i] = fabs(v[i] - rm);
		rmad = ref_median(dev, n);
		if (rmad < FLOOR * rm)
			rmad = FLOOR * rm;
		for (uint32_t i = 0; i < n; i++)
			want += fabs(v[i] - rm) > K * rmad;
		got = sc_outliers_flag(v, n, K, FLOOR, idx, &median, &mad);
		CHECK(median == rm && mad == rmad && got == (int)want,
		      "%u peers (shape %u): median %.17g MAD %.17g, %d flagged; sorted: %.17g, "
		      "%.17g, %u",
		      n, shape, median, mad, got, rm, rmad, want);
		free(v);
		free(dev);
		free(idx);
	}
}

/* A run of one phase: 8 ranks on host "h" (one node), rank r on target r
 * (/d<r>), rank THIRD_AT at a third of the others' rate. */
static void make_run(struct sc_run_record *rec)
{
	struct sc_phase_record *pr;

	memset(rec, 0, sizeof(*rec));
	rec->nranks = N8;
	rec->nnodes = 1;
	rec->plan.ntargets = N8;
	rec->plan.targets = xcalloc(N8, sizeof(*rec->plan.targets));
	rec->plan.nphases = 1;
	rec->plan.phases = xcalloc(1, sizeof(*rec->plan.phases));
	rec->plan.phases[0].name = xstrdup("seqread");
	rec->plan.phases[0].group = xstrdup("seqread");
	rec->nphases = 1;
	rec->phases = pr = xcalloc(1, sizeof(*rec->phases));
	pr->nranks = N8;
	pr->ranks = xcalloc(N8, sizeof(*pr->ranks));
	for (uint32_t i = 0; i < N8; i++) {
		char path[16];

		snprintf(path, sizeof(path), "/d%u", i);
		rec->plan.targets[i].path = xstrdup(path);
		pr->ranks[i].rank = i;
		pr->ranks[i].target = i;
		snprintf(pr->ranks[i].host, sizeof(pr->ranks[i].host), "h");
		pr->ranks[i].end_ns = S_NS;
		pr->ranks[i].bytes[SC_DIR_READ] = (uint64_t)(i == THIRD_AT ? RATE / 3 : RATE);
		pr->ranks[i].ios[SC_DIR_READ] = pr->ranks[i].bytes[SC_DIR_READ] / 4096;
	}
}

static void test_run(void)
{
	struct sc_run_record rec;
	struct sc_outliers o;

	make_run(&rec);
	CHECK(outliers_of(&rec, &o) == 0, "outliers");
	/* the outliers keep their own hosts: the rows may go once judged */
	for (uint32_t i = 0; i < rec.phases[0].nranks; i++)
		memset(rec.phases[0].ranks[i].host, 0xAA, sizeof(rec.phases[0].ranks[i].host) - 1);
	CHECK(o.k == K && o.mad_floor == FLOOR, "defaults used: k %g, floor %g", o.k, o.mad_floor);
	/* drives compared for bandwidth and IOPS; one node is no comparison */
	CHECK(o.judged == 2, "%u comparisons, want 2", o.judged);
	/* bandwidth and IOPS each flag the slow drive; one node has no peers */
	CHECK(o.n == 2, "%u outliers, want 2 (bandwidth and IOPS of rank %u)", o.n, THIRD_AT);
	for (uint32_t i = 0; i < o.n; i++) {
		const struct sc_outlier *x = &o.v[i];

		CHECK(x->at.scope == SC_SCOPE_DRIVE && x->at.rank == THIRD_AT,
		      "outlier %u: rank %u", i, x->at.rank);
		CHECK(x->at.host && !strcmp(x->at.host, "h") && x->at.target_path &&
			  !strcmp(x->at.target_path, "/d5"),
		      "outlier %u named by host and target", i);
		CHECK(x->deviations < -K && x->peers == N8, "outlier %u: %g MADs of %u peers", i,
		      x->deviations, x->peers);
	}
	CHECK(o.n < 1 || o.v[0].figure == SC_OUTLIER_BW, "bandwidth first");
	CHECK(o.n < 1 || o.v[0].median == RATE, "median %g", o.n ? o.v[0].median : 0);
	sc_outliers_exit(&o);
	/* the config's k: a k this large flags nothing */
	rec.plan.outlier_k = 50;
	CHECK(outliers_of(&rec, &o) == 0 && o.n == 0 && o.k == 50, "k 50 flags none");
	sc_outliers_exit(&o);
	sc_run_record_exit(&rec);
}

int main(void)
{
	test_flag();
	test_median_exact();
	test_run();
	return check_exit("test_outliers");
}
