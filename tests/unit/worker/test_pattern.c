/* test_pattern.c -- random_distribution's block frequencies against their
 * closed forms, computed here apart from the generator: zipf's hottest
 * ranks k^-theta / H(n, theta), pareto's hottest share (m / (n - 1))^(log
 * (1 - h) / log h), normal's share within 1 and 2 sigma (erf); the
 * permutation is a bijection; the hot blocks are scattered; when fio's
 * fio-genzipf is on PATH, its hot shares beside ours.  Tolerances: 6
 * binomial standard deviations of the share at the sample size, plus what
 * sorting sampled counts adds at the edge of a hot set (noted). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pattern.h"

#define NBLOCKS 1000u
#define DRAWS	2000000u
#define BS	4096u
#define SIGMAS	6.0 /* binomial standard deviations a share may stray */

static uint64_t counts[1u << 18];

static int by_count_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Draws `draws` offsets of a randread job over nblocks blocks with dist
 * and param; counts[] then holds each block's hits, sorted hottest first.
 * Returns the number of distinct hot blocks in the first 10 whose block
 * numbers are adjacent (a scattered hot set has few). */
static uint32_t draw(enum sc_rand_dist dist, double param, uint32_t nblocks, uint32_t draws,
		     uint64_t seed)
{
	struct sc_io_spec io = {.rw = SC_RW_RANDREAD, .bs_bytes = BS, .seed = seed,
				.size_bytes = (uint64_t)nblocks * BS, .rand_dist = dist,
				.rand_param = param};
	struct sc_pattern p;
	uint64_t off, hot[10] = {0};
	uint32_t adjacent = 0;

	memset(counts, 0, nblocks * sizeof(counts[0]));
	sc_pattern_init(&p, &io, 3, 1);
	for (uint32_t i = 0; i < draws; i++) {
		sc_pattern_next(&p, &off);
		if (off % BS || off / BS >= nblocks) {
			FAIL("offset %llu outside the region or unaligned", (unsigned long long)off);
			return 0;
		}
		counts[off / BS]++;
	}
	/* the 10 hottest blocks' numbers, before sorting loses them */
	for (uint32_t h = 0; h < 10 && h < nblocks; h++) {
		uint64_t best = UINT64_MAX;

		for (uint32_t b = 0; b < nblocks; b++) {
			bool taken = false;

			for (uint32_t g = 0; g < h; g++)
				taken |= hot[g] == b;
			if (!taken && (best == UINT64_MAX || counts[b] > counts[best]))
				best = b;
		}
		hot[h] = best;
	}
	for (uint32_t a = 0; a < 10 && a < nblocks; a++)
		for (uint32_t b = 0; b < 10 && b < nblocks; b++)
			adjacent += hot[a] + 1 == hot[b];
	qsort(counts, nblocks, sizeof(counts[0]), by_count_desc);
	return adjacent;
}

/* The share of the m hottest blocks in the last draw. */
static double top_share(uint32_t m, uint32_t draws)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < m; i++)
		s += counts[i];
	return (double)s / draws;
}

static double tol(double q, uint32_t draws, double edge)
{
	return SIGMAS * sqrt(q * (1 - q) / draws) + edge;
}

/* Zipf: each of the 10 hottest ranks, then the 100 hottest together. */
static void zipf_case(double theta, uint32_t n)
{
	double h = 0, cum = 0;
	uint32_t adj;

	for (uint32_t k = 1; k <= n; k++)
		h += pow(k, -theta);
	adj = draw(SC_DIST_ZIPF, theta, n, DRAWS, 7);
	for (uint32_t k = 1; k <= 10 && k <= n; k++) {
		double want = pow(k, -theta) / h, got = (double)counts[k - 1] / DRAWS;

		cum += want;
		CHECK(fabs(got - want) <= tol(want, DRAWS, 0),
		      "zipf:%g n %u: rank %u has %.5f of the I/Os, the closed form %.5f", theta, n,
		      k, got, want);
	}
	if (n > 100) {
		cum = 0;
		for (uint32_t k = 1; k <= 100; k++)
			cum += pow(k, -theta) / h;
		/* ranks near 100 are close in heat: sorting sampled counts
		 * overstates the set by a few hundredths of a percent */
		CHECK(fabs(top_share(100, DRAWS) - cum) <= tol(cum, DRAWS, 5e-4),
		      "zipf:%g: the 100 hottest blocks have %.5f, the closed form %.5f", theta,
		      top_share(100, DRAWS), cum);
		CHECK(adj <= 3, "zipf:%g: %u of the 10 hottest blocks sit next to another "
				"(they should be scattered)", theta, adj);
	}
}

/* Pareto: the hottest m blocks take (m / (n - 1))^(log(1 - h) / log h). */
static void pareto_case(double hh)
{
	double e = log(1 - hh) / log(hh);
	static const uint32_t ms[] = {1, 10, 100, NBLOCKS / 5, NBLOCKS / 2};

	draw(SC_DIST_PARETO, hh, NBLOCKS, DRAWS, 11);
	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		double want = pow((double)ms[i] / (NBLOCKS - 1), e), got = top_share(ms[i], DRAWS);

		/* edge: sorting sampled counts, neighbours near-equal in heat */
		CHECK(fabs(got - want) <= tol(want, DRAWS, 1e-3),
		      "pareto:%g: the %u hottest blocks have %.5f, the closed form %.5f", hh, ms[i],
		      got, want);
	}
	if (hh == 0.2)
		CHECK(fabs(top_share(NBLOCKS / 5, DRAWS) - 0.8) < 0.005,
		      "pareto:0.2: the hottest 20%% of the blocks have %.4f, not 80%%",
		      top_share(NBLOCKS / 5, DRAWS));
}

/* Normal: sigma pct % of NBLOCKS; the hottest 2 sigma blocks are those
 * within 1 sigma of the middle (erf(1/sqrt 2) = 68.27%), 4 sigma: 95.45%. */
static void normal_case(double pct)
{
	uint32_t sigma = (uint32_t)(pct / 100 * NBLOCKS);

	draw(SC_DIST_NORMAL, pct, NBLOCKS, DRAWS, 13);
	for (uint32_t z = 1; z <= 2; z++) {
		double want = erf(z / sqrt(2.0)), got = top_share(2 * z * sigma, DRAWS);

		/* edge: the blocks at z sigma are near-equal in heat */
		CHECK(fabs(got - want) <= tol(want, DRAWS, 2e-3),
		      "normal:%g: the %u hottest blocks (within %u sigma) have %.5f, erf gives "
		      "%.5f", pct, 2 * z * sigma, z, got, want);
	}
}

/* sc_perm_map is a bijection of [0, n): every image in range, none twice. */
static void perm_case(uint64_t n, uint64_t key)
{
	static unsigned char seen[1u << 17];
	struct sc_perm pm;
	uint64_t bad = 0, fixed = 0;

	memset(seen, 0, sizeof(seen));
	sc_perm_init(&pm, n, key);
	for (uint64_t x = 0; x < n; x++) {
		uint64_t y = sc_perm_map(&pm, x);

		if (y >= n || seen[y]++)
			bad++;
		fixed += y == x;
	}
	CHECK(bad == 0, "perm n %llu: %llu images out of range or repeated", (unsigned long long)n,
	      (unsigned long long)bad);
	CHECK(n < 100 || fixed < n / 10, "perm n %llu: %llu of its values map to themselves",
	      (unsigned long long)n, (unsigned long long)fixed);
}

/* randommap: each pass of nblocks I/Os touches every block exactly once;
 * two passes differ in order, and neither is the region in order. */
static void map_case(uint32_t nblocks, enum sc_rw rw)
{
	static uint32_t seen[1u << 13], first[1u << 13];
	struct sc_io_spec io = {.rw = rw, .bs_bytes = BS, .seed = 21, .rwmixread_pct = 50,
				.size_bytes = (uint64_t)nblocks * BS, .randommap = true};
	struct sc_pattern p;
	uint64_t off;
	uint32_t same = 0, in_order = 0;

	sc_pattern_init(&p, &io, 1, 2);
	for (uint32_t pass = 0; pass < 3; pass++) {
		uint32_t bad = 0;

		memset(seen, 0, nblocks * sizeof(seen[0]));
		for (uint32_t i = 0; i < nblocks; i++) {
			sc_pattern_next(&p, &off);
			seen[off / BS]++;
			if (pass == 0)
				first[i] = (uint32_t)(off / BS);
			else if (pass == 1)
				same += first[i] == off / BS;
			in_order += pass == 0 && off / BS == i;
		}
		for (uint32_t b = 0; b < nblocks; b++)
			bad += seen[b] != 1;
		CHECK(bad == 0, "randommap %u blocks, pass %u: %u blocks not touched exactly once",
		      nblocks, pass, bad);
	}
	CHECK(nblocks < 100 || same < nblocks / 10,
	      "randommap %u blocks: passes 0 and 1 agree at %u of the I/Os", nblocks, same);
	CHECK(nblocks < 100 || in_order < nblocks / 10,
	      "randommap %u blocks: %u I/Os of pass 0 at their own index", nblocks, in_order);
}

/* random_every N: I/O i with i % N != 0 is the block after I/O i - 1's
 * (wrapping); the others are drawn, rarely the next one (1/nblocks). */
static void every_case(uint32_t n, enum sc_rand_dist dist, double param)
{
	struct sc_io_spec io = {.rw = SC_RW_RANDWRITE, .bs_bytes = BS, .seed = 4,
				.size_bytes = (uint64_t)NBLOCKS * BS, .random_every = n,
				.rand_dist = dist, .rand_param = param};
	struct sc_pattern p;
	uint64_t off, prev = 0, after_run = 0, broken = 0, wraps = 0;
	const uint32_t ios = 100000;

	sc_pattern_init(&p, &io, 0, 0);
	for (uint32_t i = 0; i < ios; i++) {
		uint64_t b;

		sc_pattern_next(&p, &off);
		b = off / BS;
		if (i % n)
			broken += b != (prev + 1) % NBLOCKS;
		else if (i)
			after_run += b == (prev + 1) % NBLOCKS;
		wraps += i % n && b == 0;
		prev = b;
	}
	CHECK(broken == 0, "random_every %u: %llu I/Os not the block after the one before", n,
	      (unsigned long long)broken);
	/* a draw is the next block with probability 1/NBLOCKS (uniform) */
	CHECK(dist != SC_DIST_RANDOM || after_run < 6 * (ios / n) / NBLOCKS + 10,
	      "random_every %u: %llu random I/Os continued the run", n,
	      (unsigned long long)after_run);
	CHECK(wraps > 0 || n < 4, "random_every %u: no run wrapped at the region's end", n);
}

/* fio's fio-genzipf over 1 GiB of 4 KiB blocks (its own draws as many as
 * blocks): the share of its hottest m blocks.  -1 when it is not there. */
static double fio_top(const char *args, uint32_t m)
{
	char cmd[256], line[128];
	uint64_t total = 0, top = 0;
	unsigned long long i, hits;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "fio-genzipf %s -g 1 -b 4096 -c 2>/dev/null", args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu, %llu", &i, &hits) == 2) {
			total += hits;
			top += i < m ? hits : 0;
		}
	return pclose(f) == 0 && total ? (double)top / total : -1;
}

/* Beside fio: the same region and number of draws.  fio's zipf is Gray's
 * approximation and its hash may fold ranks together, so the shares agree
 * to a few hundredths, not to the sampling error. */
static void fio_cases(void)
{
	const uint32_t n = 1u << 18; /* 1 GiB / 4 KiB */
	static const struct {
		const char *args;
		enum sc_rand_dist dist;
		double param;
		uint32_t m;
		double within;
	} cs[] = {
	    {"-t zipf -i 1.2", SC_DIST_ZIPF, 1.2, 1, 0.01},
	    {"-t zipf -i 1.2", SC_DIST_ZIPF, 1.2, 10, 0.04},
	    {"-t pareto -i 0.2", SC_DIST_PARETO, 0.2, 1, 0.01},
	    {"-t pareto -i 0.2", SC_DIST_PARETO, 0.2, 10, 0.02},
	};

	if (system("command -v fio-genzipf >/dev/null 2>&1") != 0) {
		printf("fio-genzipf is not on PATH: not compared with fio\n");
		return;
	}
	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		double f = fio_top(cs[i].args, cs[i].m), ours;

		draw(cs[i].dist, cs[i].param, n, n, 17);
		ours = top_share(cs[i].m, n);
		CHECK(f >= 0, "fio-genzipf %s gave no counts", cs[i].args);
		CHECK(fabs(f - ours) <= cs[i].within,
		      "fio-genzipf %s: the %u hottest blocks have %.4f there, %.4f here",
		      cs[i].args, cs[i].m, f, ours);
		printf("fio-genzipf %s: %u hottest blocks %.4f, ssdcluster %.4f\n", cs[i].args,
		       cs[i].m, f, ours);
	}
}

int main(void)
{
	struct sc_io_spec io = {.rw = SC_RW_RANDREAD, .bs_bytes = BS,
				.size_bytes = (uint64_t)NBLOCKS * BS, .seed = 5,
				.rand_dist = SC_DIST_ZIPF, .rand_param = 1.1};
	struct sc_pattern a, b;
	uint64_t oa, ob, differ = 0;

	zipf_case(0.8, NBLOCKS);
	zipf_case(1.2, NBLOCKS);
	zipf_case(1.0, NBLOCKS); /* fio refuses 1 (its method divides by 1 - theta) */
	zipf_case(1.5, 5);	 /* every rank, the last one too */
	pareto_case(0.2);
	pareto_case(0.3);
	normal_case(5);
	normal_case(10);
	for (uint64_t n = 1; n <= 70000; n = n * 3 + 1)
		perm_case(n, n * 77);
	perm_case(65536, 1);
	perm_case(65537, 2);
	/* the same seed, the same offsets; another job, others */
	sc_pattern_init(&a, &io, 0, 0);
	sc_pattern_init(&b, &io, 0, 0);
	for (int i = 0; i < 1000; i++) {
		sc_pattern_next(&a, &oa);
		sc_pattern_next(&b, &ob);
		CHECK(oa == ob, "draw %d: %llu then %llu from one seed", i,
		      (unsigned long long)oa, (unsigned long long)ob);
	}
	sc_pattern_init(&b, &io, 0, 1);
	for (int i = 0; i < 1000; i++) {
		sc_pattern_next(&a, &oa);
		sc_pattern_next(&b, &ob);
		differ += oa != ob;
	}
	CHECK(differ > 500, "jobs 0 and 1 differ in only %llu of 1000 draws",
	      (unsigned long long)differ);
	CHECK(sc_pattern_dist_check(SC_DIST_PARETO, 1.0) != NULL, "pareto:1 taken");
	CHECK(sc_pattern_dist_check(SC_DIST_NORMAL, 0) != NULL, "normal:0 taken");
	CHECK(sc_pattern_dist_check(SC_DIST_ZIPF, 1.0) == NULL, "zipf:1 refused");
	map_case(1000, SC_RW_RANDREAD);
	map_case(4097, SC_RW_RANDRW);
	map_case(1, SC_RW_RANDWRITE);
	every_case(4, SC_DIST_RANDOM, 0);
	every_case(16, SC_DIST_RANDOM, 0);
	every_case(8, SC_DIST_ZIPF, 1.2);
	fio_cases();
	return check_exit("test_pattern");
}
