/* test_histogram.c -- bucket geometry, known percentiles, merging, extremes,
 * and the branch-free record against the plain formula it replaced. */
#include "histogram.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hist_ref.h"

static struct sc_hist *hist_new(void)
{
	struct sc_hist *h = malloc(sizeof(*h));
	if (!h) {
		perror("malloc");
		exit(1);
	}
	sc_hist_init(h);
	return h;
}

/* Deterministic 64-bit generator (splitmix64), so failures reproduce. */
static uint64_t rng_state = 0x5eed5eedULL;
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rel_err(uint64_t got, uint64_t want)
{
	return fabs((double)got - (double)want) / (double)want;
}

static void test_geometry(void)
{
	const uint64_t top = UINT64_C(1) << 40;

	CHECK(sc_hist_bucket_low(0) == 0, "first bucket starts at 0");
	CHECK(sc_hist_bucket_high(SC_HIST_NBUCKETS - 1) == UINT64_MAX,
	      "last bucket ends at %" PRIu64, sc_hist_bucket_high(SC_HIST_NBUCKETS - 1));
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		uint64_t lo = sc_hist_bucket_low(i), hi = sc_hist_bucket_high(i);
		CHECK(lo <= hi, "bucket %u: low %" PRIu64 " > high %" PRIu64, i, lo, hi);
		CHECK(sc_hist_index(lo) == i, "index(low(%u)) = %u", i, sc_hist_index(lo));
		CHECK(sc_hist_index(hi) == i, "index(high(%u)) = %u", i, sc_hist_index(hi));
		if (i < 256)
			CHECK(lo == i && hi == i, "bucket %u is not exact", i);
		if (i + 1 < SC_HIST_NBUCKETS) {
			CHECK(hi + 1 == sc_hist_bucket_low(i + 1),
			      "buckets %u and %u not contiguous", i, i + 1);
			/* every resolved bucket is at most 1/128 of its low wide */
			CHECK(lo == 0 || (double)(hi - lo) / (double)lo <= 1.0 / 128,
			      "bucket %u [%" PRIu64 ", %" PRIu64 "] too wide", i, lo, hi);
		}
	}
	/* the last bucket starts inside the resolved range, below 2^40 */
	CHECK(sc_hist_bucket_low(SC_HIST_NBUCKETS - 1) == top - (top >> 8),
	      "last bucket low %" PRIu64, sc_hist_bucket_low(SC_HIST_NBUCKETS - 1));
	CHECK(sc_hist_index(top - 1) == SC_HIST_NBUCKETS - 1, "2^40-1 in last bucket");
	CHECK(sc_hist_index(top) == SC_HIST_NBUCKETS - 1, "2^40 in last bucket");
	CHECK(sc_hist_index(UINT64_MAX) == SC_HIST_NBUCKETS - 1, "UINT64_MAX in last bucket");
	CHECK(sc_hist_index(255) == 255 && sc_hist_index(256) == 256, "255 | 256 boundary");
	CHECK(sc_hist_index(257) == 256 && sc_hist_index(258) == 257, "256..257 share a bucket");
	CHECK(sc_hist_index(511) == 383 && sc_hist_index(512) == 384, "octave boundary");
	CHECK(sc_hist_bucket_low(SC_HIST_NBUCKETS) == 0 &&
		  sc_hist_bucket_high(SC_HIST_NBUCKETS) == 0,
	      "out-of-range index gives 0");
}

/* Every value, recorded alone, is reported within 1% (0.4% by design). */
static void test_relative_error(void)
{
	struct sc_hist *h = hist_new();
	const uint64_t max_v = UINT64_C(60000000000); /* 60 s */
	double worst = 0;

	for (int n = 0; n < 200000; n++) {
		/* log-uniform across 1 ns .. 60 s */
		double x =
		    exp(log((double)max_v) * (double)(rng_next() >> 11) / 9007199254740992.0);
		uint64_t v = (uint64_t)x;
		if (v < 1)
			v = 1;
		uint32_t i = sc_hist_index(v);
		uint64_t lo = sc_hist_bucket_low(i), hi = sc_hist_bucket_high(i);
		if (v < lo || v > hi) {
			CHECK(0, "value %" PRIu64 " outside its bucket %u", v, i);
			break;
		}
		uint64_t mid = lo + (hi - lo) / 2;
		double e = rel_err(mid, v);
		if (e > worst)
			worst = e;

		/* through the public path too: one value, p50 clamps to it */
		sc_hist_init(h);
		sc_hist_record(h, v);
		if (sc_hist_percentile(h, 50) != v) {
			CHECK(0, "single value %" PRIu64 " p50 %" PRIu64, v,
			      sc_hist_percentile(h, 50));
			break;
		}
	}
	CHECK(worst <= 0.01, "worst midpoint error %.5f", worst);
	CHECK(worst <= 1.0 / 256 + 1e-12, "worst midpoint error %.5f above 1/256", worst);

	/* two values in one bucket: p50 is the midpoint, within 1% of both */
	/* bucket [2^23 + 24 * 2^16, 2^23 + 25 * 2^16 - 1] holds 10 ms */
	uint64_t a = 9961472, b = 10027007;
	CHECK(sc_hist_index(a) == sc_hist_index(10000000) &&
		  sc_hist_bucket_low(sc_hist_index(a)) == a &&
		  sc_hist_bucket_high(sc_hist_index(a)) == b,
	      "10 ms bucket is [%" PRIu64 ", %" PRIu64 "]", a, b);
	sc_hist_init(h);
	sc_hist_record(h, a);
	sc_hist_record(h, b);
	uint64_t p50 = sc_hist_percentile(h, 50);
	CHECK(p50 == a + (b - a) / 2 && rel_err(p50, a) <= 0.01 && rel_err(p50, b) <= 0.01,
	      "p50 of bucket ends = %" PRIu64, p50);
	free(h);
}

static void test_uniform(void)
{
	struct sc_hist *h = hist_new();
	for (uint64_t v = 1; v <= 100000; v++)
		sc_hist_record(h, v);

	static const struct {
		double p;
		uint64_t want;
	} cases[] = {
		{50, 50000}, {90, 90000}, {99, 99000}, {99.9, 99900}, {99.99, 99990}, {1, 1000},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = sc_hist_percentile(h, cases[i].p);
		CHECK(rel_err(got, cases[i].want) <= 0.01,
		      "uniform 1..100000: p%g = %" PRIu64 " want %" PRIu64 " +-1%%", cases[i].p,
		      got, cases[i].want);
	}
	CHECK(sc_hist_percentile(h, 100) == 100000, "p100 = %" PRIu64, sc_hist_percentile(h, 100));
	CHECK(h->count == 100000 && h->min_ns == 1 && h->max_ns == 100000, "count/min/max");
	CHECK(h->sum_ns == UINT64_C(5000050000), "sum %" PRIu64, h->sum_ns);

	struct sc_lat_summary s;
	sc_hist_summarize(h, &s);
	CHECK(s.count == 100000 && s.min_ns == 1 && s.max_ns == 100000, "summary count/min/max");
	CHECK(fabs(s.mean_ns - 50000.5) < 1e-6, "summary mean %f", s.mean_ns);
	for (int i = 0; i < SC_NPCT; i++) {
		uint64_t want = (uint64_t)ceil(sc_pct_points[i] / 100 * 100000 - 1e-9);
		CHECK(rel_err(s.pct_ns[i], want) <= 0.01, "summary %s = %" PRIu64, sc_pct_names[i],
		      s.pct_ns[i]);
		CHECK(s.pct_ns[i] == sc_hist_percentile(h, sc_pct_points[i]), "summary %s matches",
		      sc_pct_names[i]);
	}
	free(h);
}

/* Below 256 ns every value is exact, and the rank is ceil(p/100 * count). */
static void test_exact_small(void)
{
	struct sc_hist *h = hist_new();
	for (uint64_t v = 1; v <= 200; v++)
		sc_hist_record(h, v);
	CHECK(sc_hist_percentile(h, 50) == 100, "1..200 p50 = %" PRIu64, sc_hist_percentile(h, 50));
	CHECK(sc_hist_percentile(h, 90) == 180, "1..200 p90");
	CHECK(sc_hist_percentile(h, 99) == 198, "1..200 p99");
	CHECK(sc_hist_percentile(h, 99.5) == 199, "1..200 p99.5");
	CHECK(sc_hist_percentile(h, 99.9) == 200, "1..200 p99.9 (rank 199.8 -> 200)");
	CHECK(sc_hist_percentile(h, 0.5) == 1, "1..200 p0.5");
	CHECK(sc_hist_percentile(h, 1e-9) == 1, "tiny p gives the smallest");

	/* 1000 values: p99.9 is rank 999 exactly, not 1000 (no float drift) */
	sc_hist_init(h);
	for (int i = 0; i < 999; i++)
		sc_hist_record(h, 10);
	sc_hist_record(h, 200);
	CHECK(sc_hist_percentile(h, 99.9) == 10, "p99.9 of 999x10 + 1x200 = %" PRIu64,
	      sc_hist_percentile(h, 99.9));
	CHECK(sc_hist_percentile(h, 99.99) == 200, "p99.99 of 999x10 + 1x200");

	/* 10^6 values, one outlier: p99.9999 is rank 999999, not the outlier */
	sc_hist_init(h);
	for (int i = 0; i < 999999; i++)
		sc_hist_record(h, 100);
	sc_hist_record(h, 250);
	CHECK(sc_hist_percentile(h, 99.9999) == 100, "p99.9999 of 10^6 = %" PRIu64,
	      sc_hist_percentile(h, 99.9999));
	CHECK(sc_hist_percentile(h, 100) == 250, "p100 of 10^6");
	free(h);
}

static void test_merge(void)
{
	struct sc_hist *a = hist_new(), *b = hist_new(), *all = hist_new();

	for (int n = 0; n < 100000; n++) {
		uint64_t v = rng_next() >> (rng_next() & 63); /* all magnitudes */
		sc_hist_record(n % 3 ? a : b, v);
		sc_hist_record(all, v);
	}
	sc_hist_record(b, 0);
	sc_hist_record(all, 0);
	sc_hist_add(a, b);
	CHECK(memcmp(a->buckets, all->buckets, sizeof(a->buckets)) == 0, "merged buckets differ");
	CHECK(a->count == all->count, "merged count %" PRIu64 " vs %" PRIu64, a->count, all->count);
	CHECK(a->min_ns == all->min_ns && a->min_ns == 0, "merged min");
	CHECK(a->max_ns == all->max_ns, "merged max");
	CHECK(a->sum_ns == all->sum_ns, "merged sum");
	for (int i = 0; i < SC_NPCT; i++)
		CHECK(sc_hist_percentile(a, sc_pct_points[i]) ==
			  sc_hist_percentile(all, sc_pct_points[i]),
		      "merged %s", sc_pct_names[i]);

	/* small sums (no saturation) add exactly; empty into full is a no-op */
	sc_hist_init(a);
	sc_hist_init(b);
	sc_hist_init(all);
	for (uint64_t v = 1; v <= 1000; v++) {
		sc_hist_record(v & 1 ? a : b, v * 1000);
		sc_hist_record(all, v * 1000);
	}
	sc_hist_add(a, b);
	CHECK(a->sum_ns == 500500000 && a->sum_ns == all->sum_ns, "merged sum %" PRIu64, a->sum_ns);
	CHECK(memcmp(a, all, sizeof(*a)) == 0, "merged struct differs from recorded");
	sc_hist_init(b);
	sc_hist_add(a, b);
	CHECK(memcmp(a, all, sizeof(*a)) == 0, "adding an empty histogram changed it");
	sc_hist_init(a);
	sc_hist_add(a, all);
	CHECK(memcmp(a, all, sizeof(*a)) == 0, "full into empty differs");
	free(a);
	free(b);
	free(all);
}

static void test_extremes(void)
{
	struct sc_hist *h = hist_new();
	const uint64_t top = UINT64_C(1) << 40;
	struct sc_lat_summary s;

	/* empty */
	CHECK(h->count == 0 && h->min_ns == UINT64_MAX && h->max_ns == 0 && h->sum_ns == 0,
	      "init state");
	CHECK(sc_hist_percentile(h, 50) == 0 && sc_hist_percentile(h, 100) == 0, "empty pct");
	memset(&s, 0xff, sizeof(s));
	sc_hist_summarize(h, &s);
	CHECK(s.count == 0 && s.min_ns == 0 && s.max_ns == 0 && s.mean_ns == 0, "empty summary");
	for (int i = 0; i < SC_NPCT; i++)
		CHECK(s.pct_ns[i] == 0, "empty summary %s", sc_pct_names[i]);

	/* 0 ns and 1 ns are exact */
	sc_hist_record(h, 0);
	CHECK(h->buckets[0] == 1 && sc_hist_percentile(h, 50) == 0, "0 ns");
	sc_hist_record(h, 1);
	CHECK(h->buckets[1] == 1 && sc_hist_percentile(h, 100) == 1 &&
		  sc_hist_percentile(h, 50) == 0,
	      "0 and 1 ns");

	/* 2^40 and above: last bucket, max exact, sum saturates */
	sc_hist_init(h);
	sc_hist_record(h, top);
	CHECK(h->buckets[SC_HIST_NBUCKETS - 1] == 1, "2^40 in last bucket");
	CHECK(sc_hist_percentile(h, 50) == top && sc_hist_percentile(h, 100) == top,
	      "single 2^40 reported exactly");
	sc_hist_record(h, UINT64_MAX);
	CHECK(h->buckets[SC_HIST_NBUCKETS - 1] == 2, "UINT64_MAX in last bucket");
	CHECK(h->max_ns == UINT64_MAX && h->min_ns == top, "min/max exact");
	CHECK(h->sum_ns == UINT64_MAX, "sum saturates: %" PRIu64, h->sum_ns);
	CHECK(sc_hist_percentile(h, 100) == UINT64_MAX, "p100 = UINT64_MAX");
	uint64_t p50 = sc_hist_percentile(h, 50);
	CHECK(p50 >= top && p50 <= UINT64_MAX, "p50 within [min, max]");
	sc_hist_record(h, 5);
	CHECK(h->sum_ns == UINT64_MAX, "saturated sum stays saturated");

	/* saturation on merge */
	struct sc_hist *g = hist_new();
	sc_hist_record(g, UINT64_MAX - 1);
	sc_hist_add(g, h);
	CHECK(g->sum_ns == UINT64_MAX && g->count == 4, "merge saturates sum");

	/* p100 is max exactly even when the bucket midpoint is below it */
	sc_hist_init(h);
	sc_hist_record(h, 1000);
	sc_hist_record(h, 1003); /* bucket [1000, 1003] */
	CHECK(sc_hist_index(1000) == sc_hist_index(1003), "same bucket");
	CHECK(sc_hist_percentile(h, 100) == 1003, "p100 = max = %" PRIu64,
	      sc_hist_percentile(h, 100));
	CHECK(sc_hist_percentile(h, 50) >= 1000 && sc_hist_percentile(h, 50) <= 1003, "p50");
	CHECK(sc_hist_percentile(h, 150) == 1003, "p > 100 treated as p100");

	/* values just below 2^40 are resolved even when bigger ones share the bucket */
	sc_hist_init(h);
	uint64_t near = top - 1000;
	for (int i = 0; i < 10; i++)
		sc_hist_record(h, near);
	sc_hist_record(h, UINT64_MAX);
	CHECK(rel_err(sc_hist_percentile(h, 50), near) <= 0.01, "p50 near 2^40 = %" PRIu64,
	      sc_hist_percentile(h, 50));
	free(g);
	free(h);
}

/* Checks sc_hist_index(v) against hist_ref_index; 1 when they differ. */
static int index_differs(uint64_t v)
{
	uint32_t got = sc_hist_index(v), want = hist_ref_index(v);
	if (got == want)
		return 0;
	FAIL("sc_hist_index(%" PRIu64 ") = %u, the reference formula gives %u", v, got, want);
	return 1;
}

/* Every value up to 2^20, every power of two and its neighbours, and four
 * million values of every magnitude land where the old formula put them. */
static void test_index_reference(void)
{
	int bad = 0;

	for (uint64_t v = 0; v <= (UINT64_C(1) << 20) && bad < 10; v++)
		bad += index_differs(v);
	for (uint32_t b = 0; b < 64 && bad < 10; b++) {
		uint64_t p = UINT64_C(1) << b;
		bad += index_differs(p - 1) + index_differs(p) + index_differs(p + 1);
	}
	bad += index_differs(UINT64_MAX) + index_differs(UINT64_MAX - 1);
	for (int n = 0; n < 4000000 && bad < 10; n++) {
		uint64_t r = rng_next();
		bad += index_differs(r >> (r & 63)); /* a random magnitude */
	}
	CHECK(bad == 0, "%d values off the reference layout", bad);
}

/* Recorded through sc_hist_record and through the old record, the same
 * values give the same struct: buckets, count, min, max, and a sum that
 * saturates at UINT64_MAX and stays there. */
static void test_record_reference(void)
{
	struct sc_hist *h = hist_new(), *ref = hist_new();

	for (int n = 0; n < 1000000; n++) {
		uint64_t r = rng_next();
		uint64_t v = (r >> 8) % 2000000 + (r & 255); /* 0 .. 2 ms */
		sc_hist_record(h, v);
		hist_ref_record(ref, v);
	}
	CHECK(memcmp(h, ref, sizeof(*h)) == 0, "latency-like values: struct differs");
	CHECK(h->sum_ns < UINT64_MAX && h->min_ns < 256 && h->max_ns > 1000000,
	      "sum %" PRIu64 " min %" PRIu64 " max %" PRIu64, h->sum_ns, h->min_ns, h->max_ns);

	sc_hist_init(h);
	sc_hist_init(ref);
	for (int n = 0; n < 1000000; n++) {
		uint64_t r = rng_next();
		uint64_t v = r >> (r & 63); /* every magnitude: the sum saturates early */
		sc_hist_record(h, v);
		hist_ref_record(ref, v);
	}
	CHECK(memcmp(h, ref, sizeof(*h)) == 0, "all magnitudes: struct differs");
	CHECK(h->sum_ns == UINT64_MAX && h->count == 1000000, "sum %" PRIu64 " count %" PRIu64,
	      h->sum_ns, h->count);

	/* one short of the top, then exactly to it, then one past it */
	sc_hist_init(h);
	sc_hist_record(h, UINT64_MAX - 10);
	sc_hist_record(h, 9);
	CHECK(h->sum_ns == UINT64_MAX - 1, "sum just below the top %" PRIu64, h->sum_ns);
	sc_hist_record(h, 1);
	CHECK(h->sum_ns == UINT64_MAX, "sum exactly at the top %" PRIu64, h->sum_ns);
	sc_hist_record(h, 0);
	CHECK(h->sum_ns == UINT64_MAX && h->min_ns == 0 && h->max_ns == UINT64_MAX - 10 &&
		  h->count == 4,
	      "after the top: sum %" PRIu64 " min %" PRIu64 " max %" PRIu64, h->sum_ns, h->min_ns,
	      h->max_ns);
	free(h);
	free(ref);
}

static void test_names(void)
{
	static const double pts[SC_NPCT] = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
	static const char *const names[SC_NPCT] = {"p50",    "p90",     "p99",     "p99.9",
						   "p99.99", "p99.999", "p99.9999"};
	for (int i = 0; i < SC_NPCT; i++) {
		CHECK(sc_pct_points[i] == pts[i], "point %d = %g", i, sc_pct_points[i]);
		CHECK(strcmp(sc_pct_names[i], names[i]) == 0, "name %d = %s", i, sc_pct_names[i]);
	}
}

int main(void)
{
	test_geometry();
	test_relative_error();
	test_uniform();
	test_exact_small();
	test_merge();
	test_extremes();
	test_names();
	test_index_reference();
	test_record_reference();
	return check_exit("test_histogram");
}
