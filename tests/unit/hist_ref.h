/* hist_ref.h -- the histogram record as first written, with a branch per
 * decision: the reference that test_histogram holds the branch-free
 * sc_hist_record and sc_hist_index to (same layout, same struct), and that
 * bench/hist_bench times it against.  Header only.
 */
#ifndef SC_TEST_HIST_REF_H
#define SC_TEST_HIST_REF_H

#include <stdint.h>

#include "histogram.h"

/* Bucket of v: exact below 256 ns, then 128 linear buckets per power of
 * two up to 2^40 ns, the last bucket above. */
static inline uint32_t hist_ref_index(uint64_t v)
{
	if (v < 256)
		return (uint32_t)v;
	uint32_t e = 63u - (uint32_t)__builtin_clzll(v);
	if (e > 39)
		return SC_HIST_NBUCKETS - 1;
	uint32_t sub = (uint32_t)(v >> (e - 7)) & 127u;
	return 256 + (e - 8) * 128 + sub;
}

/* Bucket, count, sum saturating at UINT64_MAX, min, max. */
static inline void hist_ref_record(struct sc_hist *h, uint64_t v)
{
	h->buckets[hist_ref_index(v)]++;
	h->count++;
	if (__builtin_add_overflow(h->sum_ns, v, &h->sum_ns))
		h->sum_ns = UINT64_MAX;
	if (v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
}

#endif
