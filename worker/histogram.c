/* histogram.c -- log-linear latency histogram: record, merge, percentiles. */
#include "histogram.h"

#include <math.h>
#include <string.h>

/* Values below this are counted exactly, one bucket per nanosecond. */
#define EXACT_LIMIT 256u
/* log2(EXACT_LIMIT): the first octave split into linear buckets. */
#define FIRST_OCTAVE 8u
/* Linear buckets per octave, and its log2 (the bits kept after the top bit). */
#define SUB_BITS  7u
#define SUB_COUNT (1u << SUB_BITS)
/* Octaves resolved: 2^8 .. 2^40 - 1; larger values share the last bucket. */
#define LAST_OCTAVE 39u
#define LAST_BUCKET (SC_HIST_NBUCKETS - 1u)
/* The first value past the resolved range (2^40 ns). */
#define RESOLVED_END (UINT64_C(1) << (LAST_OCTAVE + 1u))

/* Percentiles are turned into ranks with integer arithmetic on p scaled by
 * this, so that 99.9 % of 1000 values is rank 999 and not 1000 (p/100*count
 * in doubles can land a hair above a whole number). */
#define PCT_SCALE 1000000000.0

_Static_assert(SC_HIST_NBUCKETS == EXACT_LIMIT + (LAST_OCTAVE - FIRST_OCTAVE + 1u) * SUB_COUNT,
	       "bucket count does not match the layout");
/* bucket_of's one formula for exact and linear buckets needs the exact ones
 * to end where the first split octave starts at SUB_COUNT per octave. */
_Static_assert(EXACT_LIMIT == 2u * SUB_COUNT && FIRST_OCTAVE == SUB_BITS + 1u,
	       "exact range does not join the first octave");

const double sc_pct_points[SC_NPCT] = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
const char *const sc_pct_names[SC_NPCT] = {"p50",    "p90",     "p99",     "p99.9",
					   "p99.99", "p99.999", "p99.9999"};

/* Bucket of v, without a data-dependent branch.  With shift = octave -
 * SUB_BITS (0 below EXACT_LIMIT: the OR with SUB_COUNT keeps the octave at
 * SUB_BITS or above), the index is shift * SUB_COUNT + (v >> shift): v's top
 * SUB_BITS + 1 bits, its top bit counting the octave.  Below EXACT_LIMIT that
 * is v itself; values past the resolved range are first clamped to its last
 * value, which the last bucket holds. */
static inline uint32_t bucket_of(uint64_t v)
{
	uint64_t c = v < RESOLVED_END ? v : RESOLVED_END - 1u; /* a conditional move */
	uint32_t shift = (63u - SUB_BITS) - (uint32_t)__builtin_clzll(c | SUB_COUNT);

	return (shift << SUB_BITS) + (uint32_t)(c >> shift);
}

uint32_t sc_hist_index(uint64_t value_ns)
{
	return bucket_of(value_ns);
}

uint64_t sc_hist_bucket_low(uint32_t index)
{
	if (index < EXACT_LIMIT)
		return index;
	if (index >= SC_HIST_NBUCKETS)
		return 0;
	uint32_t e = FIRST_OCTAVE + (index - EXACT_LIMIT) / SUB_COUNT;
	uint64_t sub = (index - EXACT_LIMIT) % SUB_COUNT;
	return (UINT64_C(1) << e) | (sub << (e - SUB_BITS));
}

/* Highest value the bucket resolves: for the last bucket, 2^40 - 1, not the
 * UINT64_MAX it also collects. */
static uint64_t resolved_high(uint32_t index)
{
	if (index < EXACT_LIMIT)
		return index;
	uint32_t e = FIRST_OCTAVE + (index - EXACT_LIMIT) / SUB_COUNT;
	return sc_hist_bucket_low(index) + (UINT64_C(1) << (e - SUB_BITS)) - 1u;
}

uint64_t sc_hist_bucket_high(uint32_t index)
{
	if (index >= SC_HIST_NBUCKETS)
		return 0;
	if (index == LAST_BUCKET)
		return UINT64_MAX;
	return resolved_high(index);
}

void sc_hist_init(struct sc_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

/* Branch-free: the sum saturates through a mask of the carry, min and max
 * are selects, so a mix of latencies costs no mispredicted jump. */
void sc_hist_record(struct sc_hist *h, uint64_t value_ns)
{
	uint64_t sum;
	uint64_t carry = __builtin_add_overflow(h->sum_ns, value_ns, &sum);

	h->buckets[bucket_of(value_ns)]++;
	h->count++;
	h->sum_ns = sum | (0u - carry); /* all ones on overflow */
	h->min_ns = value_ns < h->min_ns ? value_ns : h->min_ns;
	h->max_ns = value_ns > h->max_ns ? value_ns : h->max_ns;
}

void sc_hist_add(struct sc_hist *dst, const struct sc_hist *src)
{
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (__builtin_add_overflow(dst->sum_ns, src->sum_ns, &dst->sum_ns))
		dst->sum_ns = UINT64_MAX;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/* ceil(p/100 * count), in [1, count]. */
static uint64_t rank_of(double p, uint64_t count)
{
	if (!(p > 0))
		return 1;
	if (p >= 100)
		return count;
	unsigned __int128 scaled = (unsigned __int128)llround(p * PCT_SCALE);
	unsigned __int128 denom = (unsigned __int128)llround(100 * PCT_SCALE);
	unsigned __int128 r = (scaled * count + denom - 1u) / denom;
	if (r < 1)
		return 1;
	return r > count ? count : (uint64_t)r;
}

uint64_t sc_hist_percentile(const struct sc_hist *h, double p)
{
	if (h->count == 0)
		return 0;
	uint64_t rank = rank_of(p, h->count);
	if (rank == h->count)
		return h->max_ns; /* the largest value is known exactly */

	uint64_t seen = 0;
	uint32_t i;
	for (i = 0; i < SC_HIST_NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	if (i == SC_HIST_NBUCKETS) /* buckets hold fewer values than count */
		return h->max_ns;

	uint64_t low = sc_hist_bucket_low(i);
	uint64_t mid = low + (resolved_high(i) - low) / 2u;
	if (mid < h->min_ns)
		return h->min_ns;
	if (mid > h->max_ns)
		return h->max_ns;
	return mid;
}

void sc_hist_summarize(const struct sc_hist *h, struct sc_lat_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (h->count == 0)
		return;
	out->count = h->count;
	out->min_ns = h->min_ns;
	out->max_ns = h->max_ns;
	out->mean_ns = (double)h->sum_ns / (double)h->count;
	for (int i = 0; i < SC_NPCT; i++)
		out->pct_ns[i] = sc_hist_percentile(h, sc_pct_points[i]);
}
