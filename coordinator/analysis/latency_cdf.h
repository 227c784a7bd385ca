/* latency_cdf.h -- a merged latency histogram as the short cumulative
 * distribution the emulated engine draws from (struct sc_emulate_point). */
#ifndef SC_LATENCY_CDF_H
#define SC_LATENCY_CDF_H

#include <stdint.h>

#include "histogram.h"
#include "plan.h"

/* The distribution of h into out (room for max >= SC_EMULATE_CDF_MAX
 * points); returns the number of points, 0 when h is empty.  Each
 * non-empty bucket spreads its count evenly over [low, high + 1) (within
 * h's min and max), so a draw is linear within a bucket.  When every
 * bucket cannot be kept, a bucket edge is kept each time the cumulative
 * share passes the next 1/160 (below 99%) or the next quarter-decade of
 * the tail (99%, 99.44%, 99.68%, 99.82%, 99.9%, ...), plus the last edge:
 * at most about 230 points. */
uint32_t sc_lat_cdf(const struct sc_hist *h, struct sc_emulate_point *out, uint32_t max);

#endif
