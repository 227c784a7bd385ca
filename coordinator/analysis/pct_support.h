/* pct_support.h -- the one rule for which percentiles a sample count
 * supports, and the summaries' percentiles under it.
 *
 * Percentile p (in percent) is supported by n samples when n >= 1 / (1 -
 * p/100): p50 needs 2, p90 10, p99 100, p99.9 1,000, p99.99 10^4, p99.9999
 * 10^6.  With fewer, the "percentile" is only one of the largest samples
 * (from 756 samples p99.9 and p99.99 are both the maximum), so it is not a
 * number: JSON null with "<name>_basis": "max of 756 samples", an empty
 * CSV cell, "n/a" in the text, no point in the nines chart.  Every figure
 * shown from a struct sc_lat_summary goes through sc_lat_pct. */
#ifndef SC_PCT_SUPPORT_H
#define SC_PCT_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"

/* The fewest samples that support percentile p (0 < p < 100, percent):
 * ceil(1 / (1 - p/100)); UINT64_MAX for p >= 100, 1 for p <= 0. */
uint64_t sc_pct_min_samples(double p);

/* Whether n samples support percentile p: n >= sc_pct_min_samples(p). */
bool sc_pct_supported(double p, uint64_t n);

/* Percentile index i (into sc_pct_points) of s: true and *ns set when s's
 * count supports it, false (*ns untouched) otherwise or for i out of range. */
bool sc_lat_pct(const struct sc_lat_summary *s, int i, uint64_t *ns);

/* What a percentile that count samples do not support rests on, into buf
 * (len bytes): "max of 756 samples", "max of 1 sample", or "no samples"
 * for 0.  Returns buf. */
const char *sc_pct_basis(uint64_t count, char *buf, size_t len);

#endif
