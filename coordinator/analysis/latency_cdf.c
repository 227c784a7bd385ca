/* latency_cdf.c -- a merged latency histogram as a short cumulative
 * distribution: every bucket edge when they fit, else the edges where the
 * cumulative share passes a grid dense in the tail. */
#include "latency_cdf.h"

#include <math.h>
#include <stdbool.h>

/* The body's grid: a kept edge per 1/BODY_STEPS of the I/Os below
 * BODY_END; then TAIL_STEPS per decade of 1 - share. */
#define BODY_STEPS 160.0
#define BODY_END   0.99
#define TAIL_START 2.0 /* -log10(1 - BODY_END) */
#define TAIL_STEPS 4.0

/* Which cell of the grid cumulative count cum of total falls in. */
static uint32_t level(uint64_t cum, uint64_t total)
{
	double share = (double)cum / (double)total;

	if (share < BODY_END)
		return (uint32_t)(share * BODY_STEPS);
	if (cum >= total)
		return UINT32_MAX;
	return (uint32_t)(BODY_END * BODY_STEPS) +
	       (uint32_t)((-log10(1.0 - share) - TAIL_START) * TAIL_STEPS);
}

/* The span bucket b of h holds: [*lo, return), within h's min and max. */
static uint64_t bucket_span(const struct sc_hist *h, uint32_t b, uint64_t *lo)
{
	uint64_t low = sc_hist_bucket_low(b), high = sc_hist_bucket_high(b);

	*lo = low < h->min_ns ? h->min_ns : low;
	high = high > h->max_ns ? h->max_ns : high;
	return high >= *lo ? high + 1 : *lo + 1;
}

/* The points of h.  Not thin (max >= 2 x its non-empty buckets): each
 * bucket's high edge, and its low edge when it is the first or follows a
 * gap.  Thin: the first low edge, then the high edge of each bucket that
 * enters a new cell of the grid (the last always does). */
static uint32_t edges(const struct sc_hist *h, struct sc_emulate_point *out, uint32_t max,
		      bool thin)
{
	uint64_t cum = 0, lo, hi;
	uint32_t n = 0;

	for (uint32_t b = 0; b < SC_HIST_NBUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		hi = bucket_span(h, b, &lo);
		if (!n || (!thin && lo > out[n - 1].latency_ns))
			out[n++] = (struct sc_emulate_point){lo, cum};
		cum += h->buckets[b];
		if (thin && level(cum, h->count) == level(out[n - 1].count, h->count))
			continue;
		/* never past max: the last point moves on instead */
		out[n < max ? n++ : n - 1] = (struct sc_emulate_point){hi, cum};
	}
	return n;
}

uint32_t sc_lat_cdf(const struct sc_hist *h, struct sc_emulate_point *out, uint32_t max)
{
	uint32_t nb = 0;

	if (!h || !h->count || max < SC_EMULATE_CDF_MAX)
		return 0;
	for (uint32_t b = 0; b < SC_HIST_NBUCKETS; b++)
		nb += h->buckets[b] != 0;
	/* every edge, and a low edge per gap: at most two points a bucket */
	return edges(h, out, max, 2 * nb > max);
}
