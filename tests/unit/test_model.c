/* test_model.c -- the cluster model's arithmetic (coordinator/model/): order
 * statistics by resampling, Young/Daly, tail at scale, endurance, sizing. */
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
		CHECK(out.mean_ns == 7e9 && out.p90_ns == 7e9,
		      "constant N=%u: mean %.17g p90 %.17g", n, out.mean_ns, out.p90_ns);
	}
	free(d);
	free(dur);
}

/* E[max of k draws] from a row whose values v[i] have counts cnt[i] of
 * total, ascending: sum over i of v[i] (F_i^k - F_(i-1)^k). */
static double row_emax(const double *v, const double *cnt, int n, double total, double k)
{
	double below = 0, e = 0;

	for (int i = 0; i < n; i++) {
		e += v[i] * (pow((below + cnt[i]) / total, k) - pow(below / total, k));
		below += cnt[i];
	}
	return e;
}

/* Fewer than SC_MODEL_ROW_MIN_SAMPLES drives: a row pools the neighbouring
 * checkpoints, each moved to the row's trend.  4 drives x 8 checkpoints, all
 * 1 s but drive 0 at checkpoint 0, 3 s.  The trend is 1.5 s at checkpoint
 * 0, 1 s elsewhere, and every row holds all 32 samples:
 *   row 0:  3 x 1 s, 28 x 1.5 s (1 s moved x 1.5), 1 x 3 s
 *   rows 1-7: 3 x 2/3 s (checkpoint 0's 1 s moved / 1.5), 28 x 1 s, 1 x 2 s
 * and E[max of 64] is the mean over the rows of their exact maxima, where
 * one index per trial over the 4 drives only would give (3 + 7 x 1) / 8. */
static void test_row_pools_neighbours(void)
{
	enum { S = 4, C = 8 };
	uint64_t dur[S][C];
	struct sc_model_drive d[S];
	struct sc_model_ckpt out;
	const double v0[] = {1, 1.5, 3}, n0[] = {3, 28, 1};
	const double v1[] = {2.0 / 3, 1, 2}, n1[] = {3, 28, 1};
	double want;

	for (int i = 0; i < S; i++) {
		for (int c = 0; c < C; c++)
			dur[i][c] = NS_PER_S;
		d[i] = (struct sc_model_drive){.nckpts = C, .dur_ns = dur[i]};
	}
	dur[0][0] = 3 * NS_PER_S;
	want = (row_emax(v0, n0, 3, 32, 64) + 7 * row_emax(v1, n1, 3, 32, 64)) / C * 1e9;
	struct sc_model_ckpt_in in = {.drives = d,
				      .ndrives = S,
				      .nodes = 64,
				      .drives_per_node = 1,
				      .trials = 200000,
				      .seed = 3};
	CHECK(sc_model_ckpt(&in, &out) == 0, "pooled rows");
	CHECK(rel_close(out.mean_ns, want, 0.01), "pooled rows: E[max] %.5g ns, by hand %.5g ns",
	      out.mean_ns, want);
	CHECK(out.max_sample_ns == 3e9, "pooled rows: max sample %.17g", out.max_sample_ns);
	printf("pooled rows, 4 drives x 8 checkpoints, N=64: E[max] %.4f s (by hand %.4f s)\n",
	       out.mean_ns / 1e9, want / 1e9);
}

/* SC_MODEL_ROW_MIN_SAMPLES drives or more: a row is one checkpoint, so a
 * drive that slows alone stays slow where it slowed.  40 drives x 10
 * checkpoints of 1 s, but drive 0 takes 5 s from checkpoint 5 on: the
 * first five checkpoints are 1 s; in the last five the slowest of 64 is
 * 5 s when drive 0 is drawn (1 - (39/40)^64), else 1 s. */
static void test_drive_slows_alone(void)
{
	enum { S = 40, C = 10 };
	uint64_t *dur = xcalloc(S * C, sizeof(*dur));
	struct sc_model_drive d[S];
	struct sc_model_ckpt out;
	double hit = 1 - pow(39.0 / 40, 64), want = (1 + (5 * hit + (1 - hit))) / 2 * 1e9;

	for (int i = 0; i < S * C; i++)
		dur[i] = NS_PER_S;
	for (int c = 5; c < C; c++)
		dur[c] = 5 * NS_PER_S;
	for (int i = 0; i < S; i++)
		d[i] = (struct sc_model_drive){.nckpts = C, .dur_ns = &dur[i * C]};
	struct sc_model_ckpt_in in = {.drives = d,
				      .ndrives = S,
				      .nodes = 64,
				      .drives_per_node = 1,
				      .trials = 200000,
				      .seed = 5};
	CHECK(sc_model_ckpt(&in, &out) == 0, "slows alone");
	CHECK(rel_close(out.mean_ns, want, 0.01), "slows alone: E[max] %.5g ns, by hand %.5g ns",
	      out.mean_ns, want);
	free(dur);
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
	CHECK(out.p90_ns == 3e9 && out.max_sample_ns == 3e9, "p90 %.4g max %.4g", out.p90_ns,
	      out.max_sample_ns);
	/* 1 GB/s throughout: 2 GB per drive takes 2 s at any size. */
	in.bytes_per_drive = 2 * GB;
	in.nodes = 4096;
	in.drives_per_node = 8;
	CHECK(sc_model_ckpt(&in, &out) == 0, "rescaled");
	CHECK(out.mean_ns == 2e9 && out.p90_ns == 2e9, "rescaled: mean %.17g p90 %.17g",
	      out.mean_ns, out.p90_ns);
	/* 2000 samples support up to 20 x 2000 = 40000 drives. */
	CHECK(out.ndrives_total == 32768 && !out.beyond_samples, "32768 drives flagged");
	in.nodes = 5001;
	CHECK(sc_model_ckpt(&in, &out) == 0 && out.beyond_samples, "40008 drives not flagged");
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
				      .trials = 5000,
				      .seed = 1234};
	memset(&a, 0, sizeof(a));
	memset(&b, 0xff, sizeof(b));
	CHECK(sc_model_ckpt(&in, &a) == 0 && sc_model_ckpt(&in, &b) == 0, "seed runs");
	CHECK(a.mean_ns == b.mean_ns && a.p90_ns == b.p90_ns && a.trials == b.trials,
	      "same seed: mean %.17g vs %.17g, p90 %.17g vs %.17g", a.mean_ns, b.mean_ns, a.p90_ns,
	      b.p90_ns);
	in.seed = 4321;
	CHECK(sc_model_ckpt(&in, &c) == 0 && c.mean_ns != a.mean_ns, "another seed, same mean");
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
static void test_sizing(void)
{
	enum { S = 16 };
	uint64_t dur[S], bytes[S];
	struct sc_model_drive *d;
	struct sc_model_sizing out;

	for (uint32_t i = 0; i < S; i++)
		dur[i] = NS_PER_S, bytes[i] = GB;
	d = one_ckpt_drives(S, bytes, dur);
	struct sc_model_sizing_in in = {.drives = d,
					.ndrives = S,
					.nodes = 8,
					.bytes_per_node = 800000000000ull,
					.node_mtbf_ns = 8000000 * NS_PER_S,
					.overhead_target = 0.025,
					.max_drives_per_node = 16,
					.seed = 5};
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
	CHECK(sc_model_ckpt(&in, &one) == 0 && one.mean_ns == 4e9 && one.p90_ns == 4e9 &&
		  one.ndrives_total == 1002 && one.max_sample_ns == 4e9,
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
	test_row_pools_neighbours();
	test_drive_slows_alone();
	test_seed();
	test_policy();
	test_stall();
	test_endurance();
	test_sizing();
	test_bad_input();
	test_tail_exp();
	test_classes();
	return check_exit("test_model");
}
