/* hist_bench.c -- what one histogram record costs: sc_hist_record against
 * the branchy record it replaced, in ns per record.  A benchmark, not a test.
 *
 *     hist_bench [--count N] [--reps R] [--mix latency|small] [--impl both|new|old]
 *                [--json]
 *
 * Every repetition records N values (default 100 M) into a fresh histogram
 * with each implementation in turn (the order alternating between
 * repetitions), timed with CLOCK_MONOTONIC around the N calls; the values
 * come from a pool of 2^20 drawn before any timing and replayed in order.
 * Mix "latency" (default): 7/8 of the pool log-normal around 100 us (median
 * 100 us, sigma 0.6: most between 30 us and 330 us), then a run of 1/8 of
 * it at a constant 100 us.  Mix "small": uniform 0 .. 1023 ns, astride the
 * exact / linear edge at 256 ns (null-engine latencies), where the old
 * branches are least predictable.  Prints the median and min-max of the R
 * repetitions (default 9) for each, and the ratio of the medians (new over
 * old); --impl new or old times only that one (no ratio); --json prints the
 * same as one JSON object instead.  Exits 1 when the two histograms of a
 * repetition differ.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist_ref.h"
#include "histogram.h"

/* Values in the pool: 8 MiB, more than a core's L2, fewer than a branch
 * predictor could learn. */
#define POOL_LEN (1u << 20)
#define NS_PER_S 1000000000.0
#define MAX_REPS 1000

/* The record as it was before it went branch-free (our own code, kept as
 * the reference in tests/unit/hist_ref.h), behind a call as sc_hist_record. */
static __attribute__((noinline)) void old_record(struct sc_hist *h, uint64_t v)
{
	hist_ref_record(h, v);
}

typedef void (*record_fn)(struct sc_hist *, uint64_t);

/* Read through a volatile so that neither call can be inlined: both cost a
 * call, as sc_hist_record does from the I/O loop. */
static record_fn volatile impls[2] = {sc_hist_record, old_record};
static const char *const impl_names[2] = {"new (sc_hist_record)", "old (branchy copy)"};

static uint64_t rng_state = 0x5eed5eedULL;
static uint64_t rng_next(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_unit(void) /* (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static void fill_pool(uint64_t *pool, int small)
{
	const double median_ns = 100000, sigma = 0.6;
	const uint32_t constant_from = POOL_LEN - POOL_LEN / 8;

	for (uint32_t i = 0; i < POOL_LEN; i++) {
		if (small) {
			pool[i] = rng_next() & 1023u;
		} else if (i < constant_from) {
			/* Box-Muller: one standard normal per pair of uniforms */
			double z = sqrt(-2 * log(rng_unit())) * cos(2 * M_PI * rng_unit());
			pool[i] = (uint64_t)(median_ns * exp(sigma * z));
		} else {
			pool[i] = (uint64_t)median_ns;
		}
	}
}

/* ns per record of count records from pool into h (emptied first). */
static double time_one(record_fn rec, struct sc_hist *h, const uint64_t *pool, uint64_t count)
{
	struct timespec a, b;

	sc_hist_init(h);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (uint64_t n = 0; n < count;) {
		uint64_t chunk = count - n < POOL_LEN ? count - n : POOL_LEN;
		for (uint64_t i = 0; i < chunk; i++)
			rec(h, pool[i]);
		n += chunk;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return ((double)(b.tv_sec - a.tv_sec) * NS_PER_S + (double)(b.tv_nsec - a.tv_nsec)) /
	       (double)count;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: hist_bench [--count N] [--reps R (1..%d)] "
		"[--mix latency|small] [--impl both|new|old] [--json]\n",
		MAX_REPS);
	return 2;
}

struct opts {
	uint64_t count;
	int reps, small, json;
	int first, last; /* the implementations timed: impls[first .. last] */
};

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){.count = 100000000, .reps = 9, .last = 1};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;

		if (!strcmp(a, "--json")) {
			o->json = 1;
			continue;
		}
		if (!v)
			return -1;
		i++;
		if (!strcmp(a, "--count"))
			o->count = strtoull(v, &end, 10);
		else if (!strcmp(a, "--reps"))
			o->reps = (int)strtol(v, &end, 10);
		else if (!strcmp(a, "--mix") && (!strcmp(v, "latency") || !strcmp(v, "small")))
			o->small = !strcmp(v, "small");
		else if (!strcmp(a, "--impl") && (!strcmp(v, "new") || !strcmp(v, "both")))
			o->last = !strcmp(v, "both");
		else if (!strcmp(a, "--impl") && !strcmp(v, "old"))
			o->first = 1;
		else
			return -1;
		if (end && *end)
			return -1;
	}
	return o->count && o->reps >= 1 && o->reps <= MAX_REPS ? 0 : -1;
}

static void report(const struct opts *o, double t[2][MAX_REPS])
{
	double lo[2], hi[2], med[2];

	for (int k = o->first; k <= o->last; k++) {
		med[k] = median(t[k], o->reps); /* sorts: [0] is min, [reps-1] max */
		lo[k] = t[k][0];
		hi[k] = t[k][o->reps - 1];
	}
	if (o->json) {
		printf("{\"count\": %" PRIu64 ", \"reps\": %d, \"mix\": \"%s\"", o->count, o->reps,
		       o->small ? "small" : "latency");
		for (int k = o->first; k <= o->last; k++)
			printf(
			    ", \"%s\": {\"median_ns\": %.4f, \"min_ns\": %.4f, \"max_ns\": %.4f}",
			    k ? "old" : "new", med[k], lo[k], hi[k]);
		if (o->first < o->last)
			printf(", \"ratio\": %.4f", med[0] / med[1]);
		printf("}\n");
		return;
	}
	printf("hist_bench: %" PRIu64 " records x %d repetitions, mix %s, CLOCK_MONOTONIC\n",
	       o->count, o->reps,
	       o->small ? "small (0 .. 1023 ns)" : "latency (log-normal 100 us + constant run)");
	for (int k = o->first; k <= o->last; k++)
		printf("%-22s %.3f ns per record median (min %.3f ns, max %.3f ns)\n",
		       impl_names[k], med[k], lo[k], hi[k]);
	if (o->first < o->last)
		printf("ratio new / old (medians): %.3f\n", med[0] / med[1]);
}

int main(int argc, char **argv)
{
	static double t[2][MAX_REPS];
	struct opts o;
	uint64_t *pool = malloc(POOL_LEN * sizeof(*pool));
	struct sc_hist *h[2] = {malloc(sizeof(struct sc_hist)), malloc(sizeof(struct sc_hist))};

	if (parse(argc, argv, &o))
		return usage();
	if (!pool || !h[0] || !h[1]) {
		perror("hist_bench: malloc");
		return 1;
	}
	fill_pool(pool, o.small);
	for (int r = 0; r < o.reps; r++) {
		for (int i = 0; i < 2; i++) {
			int k = r % 2 ? 1 - i : i; /* odd repetitions: old first */
			if (k >= o.first && k <= o.last)
				t[k][r] = time_one(impls[k], h[k], pool, o.count);
		}
		if (o.first < o.last && memcmp(h[0], h[1], sizeof(*h[0]))) {
			fprintf(stderr, "hist_bench: new and old histograms differ\n");
			return 1;
		}
	}
	report(&o, t);
	free(pool);
	free(h[0]);
	free(h[1]);
	return 0;
}
