/* test_model.c -- the cluster model's arithmetic (coordinator/model/): order
 * statistics (the fitted tail), Young/Daly, tail at scale, endurance, sizing. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "model/model.h"

#define NS_PER_S 1000000000ull
#define GB	 1000000000ull

/* Samples that stand for an exponential distribution: its quantiles. */
#define EXP_SAMPLES 100000u
#define EXP_MEAN_NS 1e9

/* n drives of one checkpoint each, drive i taking dur[i] for bytes[i]. */
static struct sc_model_drive *one_ckpt_drives(uint32_t n, const uint64_t *bytes,
					      const uint64_t *dur)
{
	struct sc_model_drive *d = xcalloc(n, sizeof(*d));

	for (uint32_t i = 0; i < n; i++) {
		d[i].nckpts = 1;
		d[i].bytes = bytes ? &bytes[i] : NULL;
		d[i].dur_ns = &dur[i];
	}
	return d;
}

static double harmonic(uint32_t n)
{
	double h = 0;

	for (uint32_t k = 1; k <= n; k++)
		h += 1.0 / k;
	return h;
}

static int rel_close(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

/* E[max of N exponential(m)] = H_N m; a constant gives the constant. */
static void test_order_statistics(void)
{
	uint64_t *dur = xcalloc(EXP_SAMPLES, sizeof(*dur));
	struct sc_model_drive *d;
	uint32_t ns[] = {8, 64};

	for (uint32_t i = 0; i < EXP_SAMPLES; i++)
		dur[i] = (uint64_t)(-EXP_MEAN_NS * log1p(-(i + 0.5) / EXP_SAMPLES));
	d = one_ckpt_drives(EXP_SAMPLES, NULL, dur);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct sc_model_ckpt_in in = {.drives = d,
					      .ndrives = EXP_SAMPLES,
					      .nodes = ns[i],
					      .drives_per_node = 1,
					      .seed = 42};
		struct sc_model_ckpt out;
		double want = harmonic(ns[i]) * EXP_MEAN_NS;

		CHECK(sc_model_ckpt(&in, &out) == 0, "N=%u", ns[i]);
		CHECK(rel_close(out.mean_ns, want, 0.05), "N=%u: E[max] %.4g ns, H_N m = %.4g ns",
		      ns[i], out.mean_ns, want);
		CHECK(out.p90_ns > out.mean_ns, "N=%u: p90 %.4g <= mean %.4g", ns[i], out.p90_ns,
		      out.mean_ns);
		CHECK(!out.beyond_samples && out.nsamples == EXP_SAMPLES, "N=%u", ns[i]);
		printf("exponential N=%u: E[max] %.4f s (H_N m %.4f s) p90 %.4f s\n", ns[i],
		       out.mean_ns / 1e9, want / 1e9, out.p90_ns / 1e9);
	}
	for (uint32_t i = 0; i < EXP_SAMPLES; i++)
		dur[i] = 7 * NS_PER_S;
	for (uint32_t n = 1; n <= 4096; n *= 8) {
		struct sc_model_ckpt_in in = {
		    .drives = d, .ndrives = 50, .nodes = n, .drives_per_node = 8, .seed = 1};
		struct sc_model_ckpt out;

		CHECK(sc_model_ckpt(&in, &out) == 0, "constant N=%u", n);
		CHECK(rel_close(out.mean_ns, 7e9, 1e-9) && rel_close(out.p90_ns, 7e9, 1e-9),
		      "constant N=%u: mean %.17g p90 %.17g", n, out.mean_ns, out.p90_ns);
	}
	free(d);
	free(dur);
}

/* What moves with the checkpoint index is the trend, not spread: 4 drives
 * x 8 checkpoints, each 1.1^c s (filling slows every drive alike).  The
 * trend is found (+10 % a checkpoint), no spread is left, and the slowest
 * of 4096 drives is the mean over c of 1.1^c s; its p90 the 8th index's
 * (7 of 8 indices lie under 90 %). */
static void test_trend_not_spread(void)
{
	enum { S = 4, C = 8 };
	uint64_t dur[S][C];
	struct sc_model_drive d[S];
	struct sc_model_ckpt out;
	double want = 0;

	for (int c = 0; c < C; c++)
		want += pow(1.1, c) * 1e9 / C;
	for (int i = 0; i < S; i++) {
		for (int c = 0; c < C; c++)
			dur[i][c] = (uint64_t)llround(pow(1.1, c) * 1e9);
		d[i] = (struct sc_model_drive){.nckpts = C, .dur_ns = dur[i]};
	}
	struct sc_model_ckpt_in in = {
	    .drives = d, .ndrives = S, .nodes = 512, .drives_per_node = 8, .trials = 50, .seed = 3};
	CHECK(sc_model_ckpt(&in, &out) == 0, "trend");
	CHECK(rel_close(out.trend_per_ckpt, 0.1, 1e-6), "trend %.6g a checkpoint, want 0.1",
	      out.trend_per_ckpt);
	CHECK(rel_close(out.mean_ns, want, 1e-6) && rel_close(out.p90_ns, pow(1.1, 7) * 1e9, 1e-6),
	      "trend: E[max] %.6g ns (want %.6g), p90 %.6g", out.mean_ns, want, out.p90_ns);
	CHECK(rel_close(out.mean_low_ns, want, 1e-6) && rel_close(out.mean_high_ns, want, 1e-6),
	      "no spread, no band: %.6g..%.6g", out.mean_low_ns, out.mean_high_ns);
}

/* Ten samples of an exponential's quantiles, 1 s mean: the fitted tail
 * goes past the slowest sample (resampling could not), and the choice is
 * the exponential (nothing says the tail is heavier or lighter). */
static void test_beyond_largest(void)
{
	enum { N = 40 };
	uint64_t dur[N];
	struct sc_model_drive *d;
	struct sc_model_ckpt out;

	for (uint32_t i = 0; i < N; i++)
		dur[i] = (uint64_t)(-EXP_MEAN_NS * log1p(-(i + 0.5) / N));
	d = one_ckpt_drives(N, NULL, dur);
	struct sc_model_ckpt_in in = {
	    .drives = d, .ndrives = N, .nodes = 4096, .drives_per_node = 1, .trials = 200};
	CHECK(sc_model_ckpt(&in, &out) == 0, "beyond");
	CHECK(out.mean_ns > out.max_sample_ns && !out.tail[0].gpd && !out.tail[1].gpd &&
		  out.tail[0].exceedances == 10 && out.tail[1].exceedances == 10 &&
		  out.beyond_samples,
	      "beyond: E[max] %.4g, largest sample %.4g, gpd %d %d, k %llu %llu", out.mean_ns,
	      out.max_sample_ns, out.tail[0].gpd, out.tail[1].gpd,
	      (unsigned long long)out.tail[0].exceedances,
	      (unsigned long long)out.tail[1].exceedances);
	CHECK(rel_close(out.mean_ns, harmonic(4096) * EXP_MEAN_NS, 0.10) &&
		  out.mean_low_ns < out.mean_ns && out.mean_ns < out.mean_high_ns,
	      "beyond: E[max] %.4g (%.4g..%.4g), H_M m %.4g", out.mean_ns, out.mean_low_ns,
	      out.mean_high_ns, harmonic(4096) * EXP_MEAN_NS);
	printf("40 exponential quantiles -> 4096 drives: E[max] %.3f s (%.3f..%.3f), H_M m "
	       "%.3f s, largest sample %.3f s\n",
	       out.mean_ns / 1e9, out.mean_low_ns / 1e9, out.mean_high_ns / 1e9, harmonic(4096),
	       out.max_sample_ns / 1e9);
	free(d);
}

/* A drive brings its whole series: every drive 1 s then 3 s (fills up) gives
 * checkpoints of 1 s or 3 s, mean 2 s at any N (drawn independently per
 * checkpoint, the slowest of 64 would be 3 s nearly always); rescaling by
 * throughput; the support flag. */
static void test_series_and_scale(void)
{
	enum { S = 1000 };
	uint64_t *dur = xcalloc(2 * S, sizeof(*dur)), *bytes = xcalloc(2 * S, sizeof(*bytes));
	struct sc_model_drive *d = xcalloc(S, sizeof(*d));
	struct sc_model_ckpt out;

	for (uint32_t i = 0; i < S; i++) {
		dur[2 * i] = 1 * NS_PER_S;
		dur[2 * i + 1] = 3 * NS_PER_S;
		bytes[2 * i] = 1 * GB;	   /* 1 GB in 1 s: 1 GB/s */
		bytes[2 * i + 1] = 3 * GB; /* 3 GB in 3 s: 1 GB/s */
		d[i] = (struct sc_model_drive){
		    .nckpts = 2, .bytes = &bytes[2 * i], .dur_ns = &dur[2 * i]};
	}
	struct sc_model_ckpt_in in = {
	    .drives = d, .ndrives = S, .nodes = 64, .drives_per_node = 1, .seed = 9};
	CHECK(sc_model_ckpt(&in, &out) == 0, "series");
	CHECK(rel_close(out.mean_ns, 2e9, 0.03), "series kept together: mean %.4g, want 2e9",
	      out.mean_ns);
	CHECK(rel_close(out.p90_ns, 3e9, 1e-9) && out.max_sample_ns == 3e9, "p90 %.4g max %.4g",
	      out.p90_ns, out.max_sample_ns);
	/* 1 GB/s throughout: 2 GB per drive takes 2 s at any size. */
	in.bytes_per_drive = 2 * GB;
	in.nodes = 4096;
	in.drives_per_node = 8;
	CHECK(sc_model_ckpt(&in, &out) == 0, "rescaled");
	CHECK(rel_close(out.mean_ns, 2e9, 1e-9) && rel_close(out.p90_ns, 2e9, 1e-9),
	      "rescaled: mean %.17g p90 %.17g", out.mean_ns, out.p90_ns);
	/* 2000 independent samples: 2000 drives rest on them, 2008 on the tail */
	in.nodes = 250;
	CHECK(sc_model_ckpt(&in, &out) == 0 && out.ndrives_total == 2000 && !out.beyond_samples,
	      "2000 drives flagged");
	in.nodes = 251;
	CHECK(sc_model_ckpt(&in, &out) == 0 && out.beyond_samples, "2008 drives not flagged");
	free(d);
	free(bytes);
	free(dur);
}

/* The same input and seed give the same output; another seed another. */
static void test_seed(void)
{
	enum { S = 500 };
	uint64_t dur[S];
	struct sc_model_drive *d;
	struct sc_model_ckpt a, b, c;

	for (uint32_t i = 0; i < S; i++)
		dur[i] = NS_PER_S + (uint64_t)i * i * 1000;
	d = one_ckpt_drives(S, NULL, dur);
	struct sc_model_ckpt_in in = {.drives = d,
				      .ndrives = S,
				      .nodes = 16,
				      .drives_per_node = 4,
				      .trials = 200,
				      .seed = 1234};
	memset(&a, 0, sizeof(a));
	memset(&b, 0xff, sizeof(b));
	CHECK(sc_model_ckpt(&in, &a) == 0 && sc_model_ckpt(&in, &b) == 0, "seed runs");
	CHECK(!memcmp(&a, &b, sizeof(a)), "same seed: mean %.17g vs %.17g, band %.17g vs %.17g",
	      a.mean_ns, b.mean_ns, a.mean_low_ns, b.mean_low_ns);
	in.seed = 4321;
	CHECK(sc_model_ckpt(&in, &c) == 0 && c.mean_ns == a.mean_ns &&
		  c.mean_low_ns != a.mean_low_ns,
	      "another seed: the same figure (not drawn), another band");
	free(d);
}

/* Worked by hand: delta = 50 s, node MTBF 80000 s, N = 8, R = 100 s.
 *   M = 80000 / 8 = 10000 s;  tau = sqrt(2 * 50 * 10000) = sqrt(1e6) = 1000 s
 *   period = 1050 s;  write share = 50 / 1050 = 0.0476190476
 *   lost = 1050 / (2 * 10000) + 100 / 10000 = 0.0525 + 0.01 = 0.0625
 *   goodput = 1 - 0.0476190476 - 0.0625 = 0.8898809524 */
static void test_policy(void)
{
	struct sc_model_policy_in in = {.ckpt_ns = 50 * NS_PER_S,
					.node_mtbf_ns = 80000 * NS_PER_S,
					.nodes = 8,
					.restart_ns = 100 * NS_PER_S};
	struct sc_model_policy p;

	CHECK(sc_model_policy(&in, &p) == 0, "policy");
	CHECK(rel_close(p.mtbf_ns, 1e13, 1e-12), "M %.17g", p.mtbf_ns);
	CHECK(rel_close(p.tau_ns, 1e12, 1e-12), "tau %.17g", p.tau_ns);
	CHECK(rel_close(p.period_ns, 1.05e12, 1e-12), "period %.17g", p.period_ns);
	CHECK(fabs(p.write_share - 0.0476190476) < 1e-9, "write share %.10f", p.write_share);
	CHECK(fabs(p.lost_share - 0.0625) < 1e-12, "lost share %.10f", p.lost_share);
	CHECK(fabs(p.goodput - 0.8898809524) < 1e-9, "goodput %.10f", p.goodput);
	CHECK(!p.outside_first_order, "inside first order");
	/* delta 1000 s against M 1000 s: tau 1414 s, period > M. */
	in.ckpt_ns = 1000 * NS_PER_S;
	in.node_mtbf_ns = 8000 * NS_PER_S;
	CHECK(sc_model_policy(&in, &p) == 0 && p.outside_first_order && p.goodput == 0,
	      "outside first order: goodput %.4f", p.goodput);
}

/* The async checkpoint's cost delta, found by bisection of the increasing
 * f(delta) = delta - B - max(0, D - sqrt(2 delta M)) (seconds): an answer
 * computed apart from the model's closed form. */
static double async_cost_bisect(double b, double d, double m)
{
	double lo = 0, hi = b + d + 1;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (mid - b - fmax(0, d - sqrt(2 * mid * m)) < 0)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* async: training waits for the host copy B and the stall, the drain D
 * beyond the interval tau = sqrt(2 delta M).  M = 80000 s / 8 = 10000 s,
 * B = 2 s: the drain hides while D <= sqrt(2 B M) = 200 s.
 *   D = 150 s: delta = B = 2 s, no stall; tau = 200 s, overhead 2/202 +
 *     202/20000 + R/M.
 *   D = 500 s: s^2 + sqrt(20000) s - 502 = 0, s = 3.46479..., delta =
 *     12.0048 s, stall 10.0048 s (tau 489.995 s, D - tau the same).
 * The same D + B written synchronously costs all of it. */
static void test_policy_async(void)
{
	const double m = 10000, b = 2, r = 100;
	const double drains[] = {150, 500};
	struct sc_model_policy_in in = {.node_mtbf_ns = 80000 * NS_PER_S,
					.nodes = 8,
					.restart_ns = 100 * NS_PER_S,
					.async = true,
					.blocking_ns = 2 * NS_PER_S};
	struct sc_model_policy p, sync;

	for (size_t i = 0; i < sizeof(drains) / sizeof(drains[0]); i++) {
		double want = async_cost_bisect(b, drains[i], m), tau = sqrt(2 * want * m);
		double overhead = want / (tau + want) + (tau + want) / (2 * m) + r / m;

		in.async = true;
		in.ckpt_ns = (uint64_t)drains[i] * NS_PER_S;
		CHECK(sc_model_policy(&in, &p) == 0, "async policy D %g s", drains[i]);
		CHECK(rel_close(p.cost_ns, want * 1e9, 1e-9), "D %g s: delta %.17g, want %.17g s",
		      drains[i], p.cost_ns, want);
		CHECK(rel_close(p.stall_ns + b * 1e9, want * 1e9, 1e-9) &&
			  (drains[i] <= 200 ? p.stall_ns == 0 : p.stall_ns > 0),
		      "D %g s: stall %.17g", drains[i], p.stall_ns);
		CHECK(rel_close(p.tau_ns, tau * 1e9, 1e-9), "D %g s: tau %.17g", drains[i],
		      p.tau_ns);
		CHECK(rel_close(1 - p.goodput, overhead, 1e-9),
		      "D %g s: overhead %.10f, want %.10f", drains[i], 1 - p.goodput, overhead);
		/* synchronous, the copy and the drain in a row: the whole of them */
		in.async = false;
		in.ckpt_ns = (uint64_t)(drains[i] + b) * NS_PER_S;
		CHECK(sc_model_policy(&in, &sync) == 0 && sync.goodput < p.goodput &&
			  rel_close(sync.cost_ns, (drains[i] + b) * 1e9, 1e-12),
		      "D %g s: sync goodput %.6f not under async %.6f", drains[i], sync.goodput,
		      p.goodput);
	}
	CHECK(rel_close(async_cost_bisect(b, 500, m), 12.0048, 1e-4), "hand figure %.6f",
	      async_cost_bisect(b, 500, m));
}

/* 1 - (1 - p)^N; for p = 1e-9, N = 4096 the series
 * Np - C(N,2) p^2 + C(N,3) p^3 = 4.096e-6 - 8.38656e-12 + 1.1e-17. */
static void test_stall(void)
{
	struct {
		double p;
		uint64_t n;
		double want;
	} cases[] = {
	    {1e-9, 4096, 4.096e-6 - 4096.0 * 4095 / 2 * 1e-18 + 4096.0 * 4095 * 4094 / 6 * 1e-27},
	    {0.01, 8, 1 - 0.9227446944279201}, /* 0.99^8 */
	    {0.5, 1, 0.5},
	    {0.5, 2, 0.75},
	    {0, 4096, 0},
	    {1, 3, 1},
	    {1e-15, 1000000, 1e-9 - 1e6 * (1e6 - 1) / 2 * 1e-30},
	};
	double got;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(sc_model_stall(cases[i].p, cases[i].n, &got) == 0, "p %g", cases[i].p);
		CHECK(got == cases[i].want || rel_close(got, cases[i].want, 1e-12),
		      "p %g N %llu: %.17g, want %.17g", cases[i].p, (unsigned long long)cases[i].n,
		      got, cases[i].want);
	}
}

/* 1e11 B per checkpoint on a 1e12 B drive every hour: 24 x 0.1 = 2.4 drive
 * writes a day; a 1 DWPD 5-year rating lasts 5 / 2.4 = 2.0833 years. */
static void test_endurance(void)
{
	struct sc_model_endurance_in in = {.bytes_per_drive = 100000000000ull,
					   .interval_ns = 3600 * NS_PER_S,
					   .capacity_bytes = 1000000000000ull,
					   .dwpd = 1,
					   .warranty_years = 5};
	struct sc_model_endurance e;

	CHECK(sc_model_endurance(&in, &e) == 0, "endurance");
	CHECK(rel_close(e.writes_per_day, 2.4, 1e-12), "writes/day %.17g", e.writes_per_day);
	CHECK(rel_close(e.years, 5 / 2.4, 1e-12), "years %.17g", e.years);
	in.bytes_per_drive = 0;
	CHECK(sc_model_endurance(&in, &e) == 0 && e.writes_per_day == 0 && isinf(e.years),
	      "nothing written");
}

/* Drives of 1 GB/s, 800 GB a node, N = 8, node MTBF 8e6 s (M = 1e6 s), no
 * restart; overhead(D) = delta/(tau+delta) + (tau+delta)/(2M), delta = 800/D s:
 *   D=2: delta 400, tau = sqrt(8e8) = 28284, 400/28684 + 28684/2e6 = 0.02829
 *   D=3: delta 266.7, tau = sqrt(5.333e8) = 23094, 266.7/23361 + 23361/2e6 = 0.02310
 * so a 2.5% target needs 3 drives; with at most 2 there is no answer. */
/* SIZING_DRIVES drives of 1 GB/s (1 GB in 1 s), and the sizing of 8
 * nodes of 800 GB on them, node MTBF 8e6 s, target 2.5%, up to 16. */
#define SIZING_DRIVES 16u
static const uint64_t sizing_dur[SIZING_DRIVES] = {[0 ... SIZING_DRIVES - 1] = NS_PER_S};
static const uint64_t sizing_bytes[SIZING_DRIVES] = {[0 ... SIZING_DRIVES - 1] = GB};

static struct sc_model_sizing_in sizing_in(const struct sc_model_drive *d)
{
	return (struct sc_model_sizing_in){.drives = d,
					   .ndrives = SIZING_DRIVES,
					   .nodes = 8,
					   .bytes_per_node = 800000000000ull,
					   .node_mtbf_ns = 8000000 * NS_PER_S,
					   .overhead_target = 0.025,
					   .max_drives_per_node = 16,
					   .seed = 5};
}

static void test_sizing(void)
{
	struct sc_model_drive *d = one_ckpt_drives(SIZING_DRIVES, sizing_bytes, sizing_dur);
	struct sc_model_sizing_in in = sizing_in(d);
	struct sc_model_sizing out;

	CHECK(sc_model_size(&in, &out) == 0, "sizing");
	CHECK(out.drives_per_node == 3, "drives per node %u, want 3", out.drives_per_node);
	CHECK(fabs(out.overhead - 0.02310) < 1e-4, "overhead %.5f", out.overhead);
	CHECK(rel_close(out.ckpt.mean_ns, 266.666666667e9, 1e-9), "delta %.17g", out.ckpt.mean_ns);
	in.max_drives_per_node = 2;
	CHECK(sc_model_size(&in, &out) == 0 && out.drives_per_node == 0, "bound 2: %u",
	      out.drives_per_node);
	CHECK(fabs(out.overhead - 0.02829) < 1e-4, "overhead at the bound %.5f", out.overhead);
	free(d);
}

/* async sizing on test_sizing's drives (1 GB/s, 800 GB a node, M = 1e6
 * s): the drain at D drives is 800/D s, the host copy B = 10 ms, so the
 * drain hides inside tau while 800/D <= sqrt(2 B M) = 141.42 s: D >= 6. */
static void test_sizing_async(void)
{
	struct sc_model_drive *d = one_ckpt_drives(SIZING_DRIVES, sizing_bytes, sizing_dur);
	struct sc_model_sizing_in in = sizing_in(d);
	struct sc_model_sizing out;
	uint32_t want = 0;

	for (uint32_t k = 1; !want && k <= 16; k++)
		want = 800.0 / k <= sqrt(2 * 0.01 * 1e6) ? k : 0;
	in.async = true;
	in.blocking_ns = NS_PER_S / 100;
	CHECK(want == 6, "hand figure %u", want);
	CHECK(sc_model_size(&in, &out) == 0, "async sizing");
	CHECK(out.drain_fit_drives_per_node == want, "drain fits at %u drives, want %u",
	      out.drain_fit_drives_per_node, want);
	/* the overhead answer: the first D whose cost (copy + stall) meets it */
	for (uint32_t k = 1; k <= 16; k++) {
		double c = async_cost_bisect(0.01, 800.0 / k, 1e6), tau = sqrt(2 * c * 1e6);

		if (c / (tau + c) + (tau + c) / 2e6 <= 0.025) {
			CHECK(out.drives_per_node == k, "overhead answer %u, want %u",
			      out.drives_per_node, k);
			break;
		}
	}
	in.max_drives_per_node = 5;
	CHECK(sc_model_size(&in, &out) == 0 && out.drain_fit_drives_per_node == 0,
	      "bound 5: drain fits at %u", out.drain_fit_drives_per_node);
	free(d);
}

/* Bad inputs: -EINVAL, out untouched, no crash. */
static void test_bad_input(void)
{
	uint64_t dur[2] = {NS_PER_S, NS_PER_S}, zero[2] = {0, 0};
	struct sc_model_drive d[2] = {{.nckpts = 1, .dur_ns = dur, .bytes = zero},
				      {.nckpts = 0, .dur_ns = dur}};
	struct sc_model_ckpt_in ck = {.drives = d, .ndrives = 1, .nodes = 1, .drives_per_node = 1};
	struct sc_model_ckpt out;
	struct sc_model_policy pol;
	struct sc_model_endurance e;
	struct sc_model_sizing sz;
	double p = -1;

	memset(&out, 0x5a, sizeof(out));
	ck.nodes = 0;
	CHECK(sc_model_ckpt(&ck, &out) == -EINVAL, "N = 0");
	ck.nodes = 1, ck.drives_per_node = 0;
	CHECK(sc_model_ckpt(&ck, &out) == -EINVAL, "D = 0");
	ck.drives_per_node = 1, ck.ndrives = 0;
	CHECK(sc_model_ckpt(&ck, &out) == -EINVAL, "no drives");
	ck.ndrives = 2;
	CHECK(sc_model_ckpt(&ck, &out) == -EINVAL, "a drive without checkpoints");
	ck.ndrives = 1, ck.bytes_per_drive = 1;
	CHECK(sc_model_ckpt(&ck, &out) == -EINVAL, "0 bytes to rescale");
	ck.drives = NULL;
	CHECK(sc_model_ckpt(&ck, &out) == -EINVAL, "drives NULL");
	CHECK(sc_model_ckpt(NULL, &out) == -EINVAL, "in NULL");
	CHECK(out.trials == 0x5a5a5a5a, "out written on error");
	CHECK(sc_model_policy(&(struct sc_model_policy_in){.ckpt_ns = 1, .node_mtbf_ns = 1},
			      &pol) == -EINVAL,
	      "policy N = 0");
	CHECK(sc_model_policy(&(struct sc_model_policy_in){.node_mtbf_ns = 1, .nodes = 1}, &pol) ==
		  -EINVAL,
	      "policy delta = 0");
	CHECK(sc_model_stall(NAN, 8, &p) == -EINVAL && p == -1, "stall NaN");
	CHECK(sc_model_stall(1.5, 8, &p) == -EINVAL, "stall p > 1");
	CHECK(sc_model_stall(-0.1, 8, &p) == -EINVAL, "stall p < 0");
	CHECK(sc_model_stall(0.1, 0, &p) == -EINVAL, "stall N = 0");
	struct sc_model_endurance_in en = {.bytes_per_drive = 1,
					   .interval_ns = 1,
					   .capacity_bytes = 1,
					   .dwpd = NAN,
					   .warranty_years = 5};
	CHECK(sc_model_endurance(&en, &e) == -EINVAL, "endurance dwpd NaN");
	en.dwpd = 1, en.warranty_years = INFINITY;
	CHECK(sc_model_endurance(&en, &e) == -EINVAL, "endurance warranty infinite");
	en.warranty_years = 5, en.interval_ns = 0;
	CHECK(sc_model_endurance(&en, &e) == -EINVAL, "endurance interval 0");
	struct sc_model_sizing_in si = {.drives = d,
					.ndrives = 1,
					.nodes = 1,
					.bytes_per_node = 1,
					.node_mtbf_ns = 1,
					.overhead_target = NAN,
					.max_drives_per_node = 4};
	CHECK(sc_model_size(&si, &sz) == -EINVAL, "sizing target NaN");
	si.overhead_target = 1;
	CHECK(sc_model_size(&si, &sz) == -EINVAL, "sizing target 1");
	si.overhead_target = 0.05, si.nodes = 0;
	CHECK(sc_model_size(&si, &sz) == -EINVAL, "sizing N = 0");
	si.nodes = 1, si.ndrives = 0;
	CHECK(sc_model_size(&si, &sz) == -EINVAL, "sizing no drives");
}

/* The exponential-tail alternative: from exponential samples its E[max of
 * N] is H_N m (memoryless: the slowest tenth's mean excess is m); a
 * constant gives its constant. */
static void test_tail_exp(void)
{
	uint64_t *dur = xcalloc(EXP_SAMPLES, sizeof(*dur));
	struct sc_model_drive *d;
	uint32_t ns[] = {8, 64, 4096};
	double got;

	for (uint32_t i = 0; i < EXP_SAMPLES; i++)
		dur[i] = (uint64_t)(-EXP_MEAN_NS * log1p(-(i + 0.5) / EXP_SAMPLES));
	d = one_ckpt_drives(EXP_SAMPLES, NULL, dur);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct sc_model_ckpt_in in = {
		    .drives = d, .ndrives = EXP_SAMPLES, .nodes = ns[i], .drives_per_node = 1};
		double want = harmonic(ns[i]) * EXP_MEAN_NS;

		CHECK(sc_model_ckpt_tail_exp(&in, &got) == 0, "N=%u", ns[i]);
		CHECK(rel_close(got, want, 0.05), "tail N=%u: %.4g ns, H_N m = %.4g ns", ns[i], got,
		      want);
		printf("exponential tail N=%u: E[max] %.4f s (H_N m %.4f s)\n", ns[i], got / 1e9,
		       want / 1e9);
	}
	for (uint32_t i = 0; i < 50; i++)
		dur[i] = 7 * NS_PER_S;
	struct sc_model_ckpt_in in = {
	    .drives = d, .ndrives = 50, .nodes = 4096, .drives_per_node = 8};
	CHECK(sc_model_ckpt_tail_exp(&in, &got) == 0 && rel_close(got, 7e9, 1e-9),
	      "constant: %.17g", got);
	in.ndrives = 0;
	CHECK(sc_model_ckpt_tail_exp(&in, &got) == -EINVAL, "no drives");
	free(d);
	free(dur);
}

/* Byte classes: the busiest class sets a constant drive's time; two
 * classes of equal bytes behave as one class of all their drives; sizing
 * by node classes takes the busiest node's time and all nodes' failures. */
static void test_classes(void)
{
	enum { S = 400 };
	uint64_t dur[S], bytes[S];
	struct sc_model_drive *d;
	struct sc_model_ckpt one, two;
	struct sc_model_sizing sz;

	for (uint32_t i = 0; i < S; i++)
		dur[i] = NS_PER_S, bytes[i] = GB;
	d = one_ckpt_drives(S, bytes, dur);
	struct sc_model_class cl[] = {{4 * GB, 2}, {GB, 1000}};
	struct sc_model_ckpt_in in = {
	    .drives = d, .ndrives = S, .classes = cl, .nclasses = 2, .seed = 3};
	CHECK(sc_model_ckpt(&in, &one) == 0 && rel_close(one.mean_ns, 4e9, 1e-9) &&
		  rel_close(one.p90_ns, 4e9, 1e-9) && one.ndrives_total == 1002 &&
		  one.max_sample_ns == 4e9,
	      "busiest class: mean %.17g, %llu drives", one.mean_ns,
	      (unsigned long long)one.ndrives_total);
	for (uint32_t i = 0; i < S; i++)
		dur[i] = NS_PER_S + (uint64_t)i * 10000000; /* 1 .. 5 s for 1 GB */
	struct sc_model_class same[] = {{GB, 30}, {GB, 34}};
	in.classes = same;
	struct sc_model_ckpt_in flat = {.drives = d,
					.ndrives = S,
					.nodes = 64,
					.drives_per_node = 1,
					.bytes_per_drive = GB,
					.seed = 3};
	CHECK(sc_model_ckpt(&in, &one) == 0 && sc_model_ckpt(&flat, &two) == 0 &&
		  rel_close(one.mean_ns, two.mean_ns, 0.02),
	      "two equal classes %.4g vs one class %.4g", one.mean_ns, two.mean_ns);
	struct sc_model_class bad[] = {{GB, 0}};
	in.classes = bad;
	in.nclasses = 1;
	CHECK(sc_model_ckpt(&in, &one) == -EINVAL, "a class of no drives");
	/* as test_sizing, but only one node of 8 writes 800 GB (the others
	 * 100 GB): the busiest node sets delta, so again 3 drives */
	for (uint32_t i = 0; i < S; i++)
		dur[i] = NS_PER_S;
	struct sc_model_class nodes[] = {{800 * GB, 1}, {100 * GB, 7}};
	struct sc_model_sizing_in si = {.drives = d,
					.ndrives = S,
					.node_classes = nodes,
					.nnode_classes = 2,
					.node_mtbf_ns = 8000000 * NS_PER_S,
					.overhead_target = 0.025,
					.max_drives_per_node = 16,
					.seed = 5};
	CHECK(sc_model_size(&si, &sz) == 0 && sz.drives_per_node == 3 &&
		  fabs(sz.overhead - 0.02310) < 1e-4 && sz.ckpt.ndrives_total == 24,
	      "sizing by node classes: %u drives, overhead %.5f", sz.drives_per_node, sz.overhead);
	free(d);
}

int main(void)
{
	test_order_statistics();
	test_series_and_scale();
	test_trend_not_spread();
	test_beyond_largest();
	test_seed();
	test_policy();
	test_policy_async();
	test_stall();
	test_endurance();
	test_sizing();
	test_sizing_async();
	test_bad_input();
	test_tail_exp();
	test_classes();
	return check_exit("test_model");
}
