/* histogram.h -- log-linear latency histogram: mergeable, fixed buckets.
 *
 * Values are nanoseconds.  Values below 256 ns are counted exactly; above,
 * each power of two is split into 128 linear buckets, so a bucket is at most
 * 1/128 of its lower bound wide and the reported midpoint is within 0.4% of
 * any value in it.  Values up to 2^40 ns (about 18 minutes) are resolved;
 * larger ones land in the last bucket (min/max stay exact).
 *
 * The bucket layout is the same for every histogram, so merging is a
 * bucket-wise sum of counts (what MPI_Reduce(MPI_SUM) does on the array).
 */
#ifndef SC_HISTOGRAM_H
#define SC_HISTOGRAM_H

#include <stdint.h>

#define SC_HIST_NBUCKETS 4352u   /* 256 exact + 32 octaves x 128 */

/* The percentiles every report shows, in this order. */
#define SC_NPCT 7
extern const double sc_pct_points[SC_NPCT]; /* 50, 90, 99, 99.9, 99.99, 99.999, 99.9999 */
extern const char *const sc_pct_names[SC_NPCT]; /* "p50", ..., "p99.9999" */

struct sc_hist {
	uint64_t count;
	uint64_t sum_ns;     /* saturates at UINT64_MAX */
	uint64_t min_ns;     /* UINT64_MAX when empty */
	uint64_t max_ns;     /* 0 when empty */
	uint64_t buckets[SC_HIST_NBUCKETS];
};

struct sc_lat_summary {
	uint64_t count;
	uint64_t min_ns, max_ns;   /* 0 when count == 0 */
	double mean_ns;
	uint64_t pct_ns[SC_NPCT];  /* 0 when count == 0 */
};

/* Caller-owned lifecycle (the struct is ~34 KiB: heap or static, not stack
 * in hot threads).  _init empties it. */
void sc_hist_init(struct sc_hist *h);

/* Records one value.  No allocation, no lock. */
void sc_hist_record(struct sc_hist *h, uint64_t value_ns);

/* dst += src, bucket-wise. */
void sc_hist_add(struct sc_hist *dst, const struct sc_hist *src);

/* Value at percentile p (0 < p <= 100): the midpoint of the bucket holding
 * the ceil(p/100 * count)-th smallest value, clamped to [min, max].
 * 0 when empty. */
uint64_t sc_hist_percentile(const struct sc_hist *h, double p);

void sc_hist_summarize(const struct sc_hist *h, struct sc_lat_summary *out);

/* Bucket geometry, for codecs and tests. */
uint32_t sc_hist_index(uint64_t value_ns);
uint64_t sc_hist_bucket_low(uint32_t index);   /* smallest value in bucket */
uint64_t sc_hist_bucket_high(uint32_t index);  /* largest value in bucket */

#endif
