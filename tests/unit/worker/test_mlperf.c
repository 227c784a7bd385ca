/* test_mlperf.c -- MLPerf Storage v3.0's workloads and DLIO's arithmetic
 * (worker/mlperf.c), against values worked out by hand from the rules and
 * against closed forms of the distributions DLIO draws from. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "mlperf.h"

/* The pairs v3.0 accepts results of are there, closed; every value is in
 * its range. */
static void test_table(void)
{
	uint32_t n;
	const struct sc_mlperf_workload *w = sc_mlperf_all(&n), *u;

	CHECK(n >= 3, "%u workloads", n);
	u = sc_mlperf_find(SC_MLPERF_UNET3D, SC_MLPERF_B200);
	CHECK(u && u->status == SC_MLPERF_CLOSED && u->batch == 7 && u->read_threads == 4 &&
		  u->computation_ns == 162000000 && u->epochs == 5 && fabs(u->au - 0.90) < 1e-9 &&
		  u->record_bytes == 146600628 && u->record_stdev_bytes == 68341808,
	      "unet3d b200 as configs/dlio/workload/unet3d_b200.yaml");
	u = sc_mlperf_find(SC_MLPERF_RETINANET, SC_MLPERF_MI355);
	CHECK(u && u->status == SC_MLPERF_CLOSED && u->batch == 32 &&
		  u->computation_ns == 63400000 && fabs(u->au - 0.85) < 1e-9,
	      "retinanet mi355 as retinanet_mi355.yaml");
	CHECK(sc_mlperf_find(SC_MLPERF_RETINANET, SC_MLPERF_B200) != NULL, "retinanet b200");
	CHECK(sc_mlperf_find(SC_MLPERF_RETINANET, SC_MLPERF_H100) == NULL,
	      "retinanet h100: no v3.0 workload file");
	CHECK(sc_mlperf_find(SC_MLPERF_UNET3D, SC_MLPERF_MI355) == NULL, "unet3d mi355: none");
	for (uint32_t i = 0; i < n; i++) {
		CHECK(w[i].files && w[i].samples_per_file && w[i].record_bytes && w[i].batch &&
			  w[i].read_threads && w[i].computation_ns && w[i].epochs,
		      "%s %s: a zero", sc_mlperf_benchmark_name(w[i].benchmark),
		      sc_mlperf_accelerator_name(w[i].accelerator));
		CHECK(w[i].au > 0 && w[i].au <= 1, "au %g", w[i].au);
		CHECK(sc_mlperf_find(w[i].benchmark, w[i].accelerator) == &w[i], "%s %s twice",
		      sc_mlperf_benchmark_name(w[i].benchmark),
		      sc_mlperf_accelerator_name(w[i].accelerator));
	}
}

/* Worked by hand from DLIO's floor(files x spf / batch / accelerators). */
static void test_steps(void)
{
	CHECK(sc_mlperf_steps_per_epoch(7200, 1, 7, 8) == 128, "7200 / 7 / 8 = 128.57");
	CHECK(sc_mlperf_steps_per_epoch(7200, 1, 7, 1) == 1028, "7200 / 7 = 1028.6");
	CHECK(sc_mlperf_steps_per_epoch(1170301, 1, 24, 16) == 3047, "1170301 / 24 / 16 = 3047.7");
	CHECK(sc_mlperf_steps_per_epoch(1024, 1251, 400, 3) == 1067, "1281024 / 400 / 3 = 1067.5");
	CHECK(sc_mlperf_steps_per_epoch(6, 1, 7, 1) == 0, "fewer samples than a batch");
	CHECK(sc_mlperf_steps_per_epoch(100, 1, 0, 1) == 0, "batch 0");
	CHECK(sc_mlperf_steps_per_epoch(UINT32_MAX, UINT32_MAX, 1, 1) ==
		  (uint64_t)UINT32_MAX * UINT32_MAX,
	      "no overflow");
}

/* Rules.md 3.1.2 worked by hand. */
static void test_min_files(void)
{
	/* one host of 128 GiB, 8 unet3d b200 accelerators: 5 x 128 GiB /
	 * 146,600,628 B = 4,687.5 files by memory; 500 x 8 x 7 = 28,000 by steps */
	CHECK(sc_mlperf_min_files(128ull << 30, 8, 7, 1, 146600628) == 28000, "by steps");
	/* 4 hosts of 1 TiB, 1 accelerator each: 5 x 4 TiB / 146,600,628 B =
	 * 150,000.9 -> 150,001 by memory; 500 x 4 x 7 = 14,000 by steps */
	CHECK(sc_mlperf_min_files(4ull << 40, 4, 7, 1, 146600628) == 150001, "by memory, %llu",
	      (unsigned long long)sc_mlperf_min_files(4ull << 40, 4, 7, 1, 146600628));
	/* resnet50: 1251 samples a file: ceil(500 x 2 x 400 / 1251) = 320 */
	CHECK(sc_mlperf_min_files(1ull << 30, 2, 400, 1251, 114660) == 320, "per file");
	CHECK(sc_mlperf_min_files(0, 8, 7, 1, 1) == 0, "no memory");
	CHECK(sc_mlperf_min_files(UINT64_MAX, 8, 7, 1, 1) == UINT64_MAX, "saturates");
}

static void test_block(void)
{
	uint64_t first, count;

	/* 10 samples over 3 accelerators: 3 each, sample 9 read by none */
	sc_mlperf_block(10, 1, 3, 0, &first, &count);
	CHECK(first == 0 && count == 3, "acc 0: %llu+%llu", (unsigned long long)first,
	      (unsigned long long)count);
	sc_mlperf_block(10, 1, 3, 2, &first, &count);
	CHECK(first == 6 && count == 3, "acc 2: %llu+%llu", (unsigned long long)first,
	      (unsigned long long)count);
	sc_mlperf_block(4, 5, 3, 1, &first, &count);
	CHECK(first == 6 && count == 6, "20 samples, acc 1: %llu+%llu", (unsigned long long)first,
	      (unsigned long long)count);
	sc_mlperf_block(10, 1, 3, 3, &first, &count);
	CHECK(count == 0, "no accelerator 3");
}

static double phi(double z)
{
	return exp(-0.5 * z * z) / sqrt(2.0 * M_PI);
}

static double cdf_normal(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* P(trunc(A) x trunc(B) <= t) for A, B independent N(mu, sd) with mu/sd >> 1,
 * by Simpson's rule over A: P = integral phi(a) P(B <= t / a) da, with the
 * truncations taken as a uniform shift of 1/2 (far below sd). */
static double cdf_product(double t, double mu, double sd)
{
	const int steps = 2000;
	double lo = mu - 9 * sd, hi = mu + 9 * sd, h = (hi - lo) / steps, sum = 0;

	if (lo < 1)
		lo = 1, h = (hi - lo) / steps;
	for (int i = 0; i <= steps; i++) {
		double a = lo + i * h, w = i == 0 || i == steps ? 1 : (i % 2 ? 4 : 2);
		double fa = phi((a - (mu - 0.5)) / sd) / sd;

		sum += w * fa * cdf_normal((t / a - (mu - 0.5)) / sd);
	}
	return sum * h / 3;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* unet3d's file sizes against the distribution DLIO draws them from: its
 * moments in closed form (X, Y iid with mean m, variance v: E[XY] = m^2,
 * Var[XY] = (v + m^2)^2 - m^4) and the Kolmogorov-Smirnov distance to its
 * CDF, integrated numerically. */
static void test_file_sizes(void)
{
	enum { N = 20000 };
	const uint64_t rec = 146600628, sdev = 68341808;
	double root = sqrt((double)rec), mu = floor(root), sd = (double)sdev / 2 / root;
	double m = mu - 0.5, v = sd * sd + 1.0 / 12, mean = 0, var = 0, ks = 0;
	double want_mean = m * m, want_sd = sqrt((v + m * m) * (v + m * m) - m * m * m * m);
	uint64_t *x = malloc(N * sizeof(*x));

	CHECK(x != NULL, "malloc");
	if (!x)
		return;
	for (uint64_t i = 0; i < N; i++) {
		x[i] = sc_mlperf_file_bytes(rec, sdev, 1, 42, i);
		mean += (double)x[i];
	}
	mean /= N;
	for (uint64_t i = 0; i < N; i++)
		var += ((double)x[i] - mean) * ((double)x[i] - mean);
	var /= N - 1;
	/* the mean's standard error is want_sd / sqrt(N), 0.7% of the mean */
	CHECK(fabs(mean - want_mean) < 4 * want_sd / sqrt(N), "mean %.0f B, want %.0f", mean,
	      want_mean);
	CHECK(fabs(sqrt(var) / want_sd - 1) < 0.04, "sd %.0f B, want %.0f", sqrt(var), want_sd);
	CHECK(want_sd > 48.5e6 && want_sd < 49.5e6, "closed form: sd %.0f (about 49.0 MB)",
	      want_sd);
	qsort(x, N, sizeof(*x), cmp_u64);
	for (uint64_t i = 0; i < N; i += 10) {
		double f = cdf_product((double)x[i], mu, sd);
		double d1 = fabs(f - (double)i / N), d2 = fabs(f - (double)(i + 1) / N);

		ks = fmax(ks, fmax(d1, d2));
	}
	/* the 0.1% critical value of the KS distance at N = 20,000 is 0.0138 */
	CHECK(ks < 0.0138, "KS distance %.4f to the product-of-normals CDF", ks);
	free(x);

	CHECK(sc_mlperf_file_bytes(rec, sdev, 1, 42, 7) ==
		  sc_mlperf_file_bytes(rec, sdev, 1, 42, 7),
	      "a function of (seed, file)");
	CHECK(sc_mlperf_file_bytes(322957, 0, 1, 1, 5) == 568 * 568, "no stdev: floor(sqrt)^2");
	CHECK(sc_mlperf_file_bytes(322957, 0, 3, 1, 5) == 3 * 568 * 568, "x samples per file");

	/* the closed form's mean, as the dry run and the capacity check take
	 * it: (12107 - 1/2)^2 = 146,567,342.25 B, within the sample's error */
	CHECK(sc_mlperf_mean_file_bytes(rec, sdev, 1) == 146567342, "unet3d's mean file %" PRIu64,
	      sc_mlperf_mean_file_bytes(rec, sdev, 1));
	CHECK(fabs((double)sc_mlperf_mean_file_bytes(rec, sdev, 1) - want_mean) < 1,
	      "the mean is the moments' m^2");
	CHECK(sc_mlperf_mean_file_bytes(rec, sdev, 3) == 439702026, "x 3 samples: %" PRIu64,
	      sc_mlperf_mean_file_bytes(rec, sdev, 3));
	CHECK(sc_mlperf_mean_file_bytes(322957, 0, 1) == 568 * 568, "no stdev: every file");
	CHECK(sc_mlperf_mean_file_bytes(761, 0, 4718592) == UINT64_C(27) * 27 * 4718592,
	      "dlrm: 27^2 x 4,718,592");
	CHECK(sc_mlperf_mean_file_bytes(UINT64_MAX, 1, UINT32_MAX) == UINT64_MAX, "saturates");
}

/* Names to enum values and back; what is not a name is -1. */
static void test_names(void)
{
	for (int b = 0; b < SC_MLPERF_BENCHMARK_COUNT; b++)
		CHECK(sc_mlperf_benchmark_parse(
			  sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)b)) == b,
		      "benchmark %d", b);
	for (int a = 0; a < SC_MLPERF_ACCELERATOR_COUNT; a++)
		CHECK(sc_mlperf_accelerator_parse(
			  sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)a)) == a,
		      "accelerator %d", a);
	CHECK(sc_mlperf_benchmark_parse("resnet50") == SC_MLPERF_RESNET50, "resnet50");
	CHECK(sc_mlperf_accelerator_parse("h100") == SC_MLPERF_H100, "h100");
	CHECK(sc_mlperf_benchmark_parse("UNET3D") < 0 && sc_mlperf_benchmark_parse("") < 0 &&
		  sc_mlperf_benchmark_parse("b200") < 0 && sc_mlperf_benchmark_parse(NULL) < 0,
	      "not names");
	CHECK(sc_mlperf_accelerator_parse("h200") < 0, "h200 is none of v3.0's");
}

/* Each (seed, epoch) gives a permutation; its first element lands in every
 * position equally often (chi-square, 7 degrees of freedom). */
static void test_shuffle(void)
{
	enum { N = 8, TRIES = 80000 };
	uint64_t count[N] = {0}, a[100], b[100];
	double chi = 0, want = (double)TRIES / N;
	int same = 1;

	for (uint32_t s = 0; s < TRIES; s++) {
		uint64_t idx[N];

		for (int i = 0; i < N; i++)
			idx[i] = (uint64_t)i;
		sc_mlperf_shuffle(idx, N, s * 7919ull, 0);
		for (int i = 0; i < N; i++)
			if (idx[i] == 0)
				count[i]++;
	}
	for (int i = 0; i < N; i++)
		chi += ((double)count[i] - want) * ((double)count[i] - want) / want;
	CHECK(chi < 24.3, "chi-square %.1f (0.1%% critical value 24.3)", chi);

	for (int i = 0; i < 100; i++)
		a[i] = b[i] = (uint64_t)i;
	sc_mlperf_shuffle(a, 100, 123, 1);
	sc_mlperf_shuffle(b, 100, 123, 1);
	for (int i = 0; i < 100; i++)
		same &= a[i] == b[i];
	CHECK(same, "the same seed and epoch: the same order");
	for (int i = 0; i < 100; i++)
		b[i] = (uint64_t)i;
	sc_mlperf_shuffle(b, 100, 123, 2);
	same = 1;
	for (int i = 0; i < 100; i++)
		same &= a[i] == b[i];
	CHECK(!same, "another epoch: another order");
	qsort(a, 100, sizeof(*a), cmp_u64);
	for (int i = 0; i < 100; i++)
		CHECK(a[i] == (uint64_t)i, "a permutation");
}

/* The search on drives whose answer is known: a trials pass exactly when
 * k <= a.  For every a in 0..max (and a beyond max) it answers a (max when
 * a > max), never tries a count twice, never passes max, and takes no
 * more than trials_max trials, which some a needs (the bound is tight);
 * 1 then doubling then bisection: max 8 and a = 3 tries 1, 2, 4, 3. */
static void test_search(void)
{
	static const uint32_t maxes[] = {1, 2, 3, 8, 16, 100, 1024};

	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		uint32_t max = maxes[m], most = sc_mlperf_search_trials_max(max), worst = 0;

		for (uint32_t a = 0; a <= max + 1; a++) {
			uint32_t k[64], n = 0, answer = 99999, next;
			bool pass[64], twice = false;

			next = sc_mlperf_search_next(k, pass, 0, max, &answer);
			while (next && n < 64) {
				for (uint32_t i = 0; i < n; i++)
					twice |= k[i] == next;
				CHECK(next >= 1 && next <= max, "max %u, a %u: tried %u", max, a, next);
				k[n] = next;
				pass[n] = next <= a;
				n++;
				next = sc_mlperf_search_next(k, pass, n, max, &answer);
			}
			CHECK(answer == (a > max ? max : a), "max %u: answered %u, want %u", max,
			      answer, a > max ? max : a);
			CHECK(!twice, "max %u, a %u: a count tried twice", max, a);
			CHECK(n <= most, "max %u, a %u: %u trials, more than %u", max, a, n, most);
			if (n > worst)
				worst = n;
		}
		CHECK(worst == most, "max %u: the most trials %u, trials_max %u", max, worst, most);
	}
	{
		uint32_t k[8], answer, n = 0, next;
		bool pass[8];

		while ((next = sc_mlperf_search_next(k, pass, n, 8, &answer)) && n < 8) {
			k[n] = next;
			pass[n] = next <= 3;
			n++;
		}
		CHECK(n == 4 && k[0] == 1 && k[1] == 2 && k[2] == 4 && k[3] == 3 && answer == 3,
		      "max 8, a 3: %u trials", n);
	}
}

int main(void)
{
	test_table();
	test_steps();
	test_min_files();
	test_block();
	test_file_sizes();
	test_shuffle();
	test_names();
	test_search();
	return check_exit("test_mlperf");
}
