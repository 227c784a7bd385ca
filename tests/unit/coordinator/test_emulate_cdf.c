/* test_emulate_cdf.c -- a measured latency distribution for the emulated
 * engine: a histogram as a short CDF (analysis/latency_cdf.h) and the
 * engine's inverse-CDF draws from it (sc_emulate_service_ns).
 *
 * A dense three-part histogram (more buckets than the CDF keeps) gives
 * 100k draws whose p50, p99 and p99.9 lie within two of the source's
 * buckets of the source's; a sparse one (two values, a wide gap) is kept
 * edge for edge and no draw falls in the gap; the same seed gives the same
 * sequence, another seed another; writes and fsyncs draw from the write
 * CDF, reads from the read CDF; the speed factor divides the draws;
 * sc_emulate_cdf_check refuses malformed points (accepts a gap) and sc_emulate_check a
 * model holding them.
 *
 * Exit 0 pass, 1 fail.
 */
#include "analysis/latency_cdf.h"
#include "engine/emulated.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "histogram.h"

#define NS_PER_US    UINT64_C(1000)
#define NSOURCE	     200000u
#define NDRAWS	     100000u
#define NSEQ	     1000u
#define SEED_A	     11u
#define SEED_B	     12u
#define LCG_MUL	     UINT64_C(6364136223846793005)
#define LCG_ADD	     UINT64_C(1442695040888963407)
#define LCG_SHIFT    33
#define BUCKETS_NEAR 2u /* draws' percentile within this many buckets */
#define GAP_LOW_NS   (10u * NS_PER_US)
#define GAP_HIGH_NS  (1000u * NS_PER_US)
#define SPEED_SPREAD 0.5

static const double pcts[] = {50.0, 99.0, 99.9};

/* One part of the dense source: share of the values (per mille), uniform
 * in [lo, hi) microseconds. */
static const struct {
	uint32_t permille;
	uint64_t lo_us, hi_us;
} parts[] = {{900, 80, 120}, {80, 150, 400}, {20, 1000, 1200}};

static uint64_t lcg(uint64_t *s)
{
	*s = *s * LCG_MUL + LCG_ADD;
	return *s >> LCG_SHIFT;
}

static struct sc_hist *dense_source(void)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));
	uint64_t s = 1;

	sc_hist_init(h);
	for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
		uint64_t n = (uint64_t)NSOURCE * parts[p].permille / 1000;
		uint64_t span = (parts[p].hi_us - parts[p].lo_us) * NS_PER_US;

		for (uint64_t i = 0; i < n; i++)
			sc_hist_record(h, parts[p].lo_us * NS_PER_US + lcg(&s) % span);
	}
	return h;
}

/* A model drawing writes (and fsyncs) from w, reads from r. */
static struct sc_emulate cdf_model(struct sc_emulate_point *r, uint32_t nr,
				   struct sc_emulate_point *w, uint32_t nw)
{
	return (struct sc_emulate){
	    .read_cdf = r, .nread_cdf = nr, .write_cdf = w, .nwrite_cdf = nw};
}

/* The width of the bucket holding v. */
static uint64_t width_at(uint64_t v)
{
	uint32_t b = sc_hist_index(v);

	return sc_hist_bucket_high(b) - sc_hist_bucket_low(b) + 1;
}

static void test_dense(void)
{
	struct sc_hist *src = dense_source(), *got = xcalloc(1, sizeof(*got));
	struct sc_emulate_point pts[SC_EMULATE_CDF_MAX];
	uint32_t n = sc_lat_cdf(src, pts, SC_EMULATE_CDF_MAX);
	struct sc_emulate m = cdf_model(NULL, 0, pts, n);
	struct sc_emulate_state st;

	/* ~280 non-empty buckets: more than the CDF keeps edge for edge */
	CHECK(n >= SC_EMULATE_CDF_MIN && n < SC_EMULATE_CDF_MAX / 2 + 64, "%u points", n);
	CHECK(sc_emulate_cdf_check(pts, n) == 0, "the CDF of a histogram is well formed");
	CHECK(pts[n - 1].count == src->count, "last count %llu of %llu",
	      (unsigned long long)pts[n - 1].count, (unsigned long long)src->count);
	CHECK(sc_emulate_check(&m) == 0, "a model with the CDF is accepted");
	sc_hist_init(got);
	sc_emulate_state_init(&st, &m, SEED_A, 0, 0, 0);
	for (uint32_t i = 0; i < NDRAWS; i++)
		sc_hist_record(got, sc_emulate_service_ns(&st, SC_OP_WRITE));
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t want = sc_hist_percentile(src, pcts[i]);
		uint64_t have = sc_hist_percentile(got, pcts[i]);
		uint64_t near = BUCKETS_NEAR * width_at(want);

		CHECK(have + near >= want && have <= want + near,
		      "p%g of the draws %llu ns, of the source %llu ns (+- %llu ns)", pcts[i],
		      (unsigned long long)have, (unsigned long long)want, (unsigned long long)near);
	}
	CHECK(got->min_ns >= src->min_ns && got->max_ns <= src->max_ns + 1,
	      "draws %llu..%llu ns within the source's %llu..%llu ns",
	      (unsigned long long)got->min_ns, (unsigned long long)got->max_ns,
	      (unsigned long long)src->min_ns, (unsigned long long)src->max_ns);
	free(src);
	free(got);
}

/* Two values far apart: every edge kept, no draw in the gap, both halves
 * drawn about as often as they were recorded. */
static void test_sparse(void)
{
	struct sc_hist *src = xcalloc(1, sizeof(*src));
	struct sc_emulate_point pts[SC_EMULATE_CDF_MAX];
	struct sc_emulate m;
	struct sc_emulate_state st;
	uint32_t n, low = 0, gap = 0;

	sc_hist_init(src);
	for (uint32_t i = 0; i < NSEQ; i++)
		sc_hist_record(src, i % 4 ? GAP_LOW_NS : GAP_HIGH_NS); /* 3 : 1 */
	n = sc_lat_cdf(src, pts, SC_EMULATE_CDF_MAX);
	CHECK(n == 4, "two buckets and a gap: 4 points, got %u", n);
	CHECK(sc_emulate_cdf_check(pts, n) == 0, "well formed");
	CHECK(pts[0].latency_ns == GAP_LOW_NS, "first point at the smallest value");
	m = cdf_model(pts, n, NULL, 0);
	sc_emulate_state_init(&st, &m, SEED_A, 0, 0, 0);
	for (uint32_t i = 0; i < NDRAWS; i++) {
		uint64_t ns = sc_emulate_service_ns(&st, SC_OP_READ);

		low += ns < GAP_LOW_NS + width_at(GAP_LOW_NS);
		gap += ns >= GAP_LOW_NS + width_at(GAP_LOW_NS) &&
		       ns < GAP_HIGH_NS - width_at(GAP_HIGH_NS);
	}
	CHECK(gap == 0, "%u draws in the gap", gap);
	/* 75%: binomial sd 0.14% of 100k; 2% is far outside it */
	CHECK(low > NDRAWS * 73 / 100 && low < NDRAWS * 77 / 100, "%u of %u low draws", low,
	      NDRAWS);
	free(src);
}

/* The first NSEQ write draws of seed into out. */
static void draws(const struct sc_emulate *m, uint64_t seed, uint64_t *out)
{
	struct sc_emulate_state st;

	sc_emulate_state_init(&st, m, seed, 0, 0, 0);
	for (uint32_t i = 0; i < NSEQ; i++)
		out[i] = sc_emulate_service_ns(&st, SC_OP_WRITE);
}

static void test_seed(void)
{
	struct sc_hist *src = dense_source();
	struct sc_emulate_point pts[SC_EMULATE_CDF_MAX];
	uint32_t n = sc_lat_cdf(src, pts, SC_EMULATE_CDF_MAX), same = 0;
	struct sc_emulate m = cdf_model(NULL, 0, pts, n);
	uint64_t a[NSEQ], b[NSEQ], c[NSEQ];

	draws(&m, SEED_A, a);
	draws(&m, SEED_A, b);
	draws(&m, SEED_B, c);
	for (uint32_t i = 0; i < NSEQ; i++) {
		CHECK(a[i] == b[i], "draw %u: %llu then %llu with the same seed", i,
		      (unsigned long long)a[i], (unsigned long long)b[i]);
		same += a[i] == c[i];
	}
	CHECK(same < NSEQ / 10, "%u of %u draws equal with another seed", same, NSEQ);
	free(src);
}

/* Reads from the read CDF, writes and fsyncs from the write CDF (the two
 * apart), the drive's speed dividing them. */
static void test_directions(void)
{
	struct sc_emulate_point r[] = {{GAP_LOW_NS, 0}, {GAP_LOW_NS + 1, 1}};
	struct sc_emulate_point w[] = {{GAP_HIGH_NS, 0}, {GAP_HIGH_NS + 1, 1}};
	struct sc_emulate m = cdf_model(r, 2, w, 2);
	struct sc_emulate_state st;
	uint64_t rd, wr, fs;

	sc_emulate_state_init(&st, &m, SEED_A, 0, 0, 0);
	rd = sc_emulate_service_ns(&st, SC_OP_READ);
	wr = sc_emulate_service_ns(&st, SC_OP_WRITE);
	fs = sc_emulate_service_ns(&st, SC_OP_FSYNC);
	CHECK(rd == GAP_LOW_NS, "read drew %llu ns", (unsigned long long)rd);
	CHECK(wr == GAP_HIGH_NS && fs == GAP_HIGH_NS, "write, fsync drew %llu, %llu ns",
	      (unsigned long long)wr, (unsigned long long)fs);
	m.speed_spread = SPEED_SPREAD;
	sc_emulate_state_init(&st, &m, SEED_A, 0, 0, 0);
	wr = sc_emulate_service_ns(&st, SC_OP_WRITE);
	/* the draw is in [GAP_HIGH_NS, GAP_HIGH_NS + 1) before the speed */
	CHECK(wr + 1 >= (uint64_t)((double)GAP_HIGH_NS / st.speed) &&
		  wr <= (uint64_t)((double)(GAP_HIGH_NS + 1) / st.speed),
	      "at speed %.3f a write drew %llu ns", st.speed, (unsigned long long)wr);
}

static void test_bad_points(void)
{
	struct sc_emulate_point ok[] = {{1, 0}, {2, 1}, {3, 3}};
	struct sc_emulate_point first[] = {{1, 1}, {2, 2}};
	struct sc_emulate_point down[] = {{1, 0}, {3, 2}, {2, 3}};
	struct sc_emulate_point flat_lat[] = {{1, 0}, {1, 2}};
	struct sc_emulate_point gap[] = {{1, 0}, {2, 1}, {5, 1}, {6, 2}};
	struct sc_emulate_point none[] = {{1, 0}, {2, 0}};
	struct sc_emulate m = cdf_model(down, 3, NULL, 0);

	CHECK(sc_emulate_cdf_check(ok, 3) == 0, "rising points accepted");
	CHECK(sc_emulate_cdf_check(NULL, 0) == 0, "no points: no distribution");
	CHECK(sc_emulate_cdf_check(ok, 1) != 0, "one point refused");
	CHECK(sc_emulate_cdf_check(ok, SC_EMULATE_CDF_MAX + 1) != 0, "too many refused");
	CHECK(sc_emulate_cdf_check(first, 2) != 0, "a first count above 0 refused");
	CHECK(sc_emulate_cdf_check(down, 3) != 0, "falling latency refused");
	CHECK(sc_emulate_cdf_check(flat_lat, 2) != 0, "a repeated latency refused");
	CHECK(sc_emulate_cdf_check(gap, 4) == 0, "a gap (count kept) accepted");
	CHECK(sc_emulate_cdf_check(none, 2) != 0, "no I/Os at all refused");
	CHECK(sc_emulate_check(&m) != 0, "a model with falling points refused");
}

int main(void)
{
	test_dense();
	test_sparse();
	test_seed();
	test_directions();
	test_bad_points();
	return check_exit("test_emulate_cdf");
}
