/* ingest_tail.c -- tail at scale for ingestion: a step waits for the slowest of N x G accelerators.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "histogram.h"
#include "project_parts.h"

/* MLPerf Storage's bar: accelerators busy at least 90% of the time.  A
 * step whose wait w exceeds compute x (1/AU_BAR - 1) has AU below it. */
#define AU_BAR	 0.9
#define NS_PER_S 1e9

/* Below this (K + 1) x (F1 - F0) a bucket's closed form loses its digits
 * to cancellation; its midpoint is used instead. */
#define FLAT_BUCKET 1e-9

/* The values of bucket i spread uniformly over [lo, hi): the bucket's
 * range, within [min, max + 1] of h (the last bucket is open-ended).
 * False when that is empty (a bucket outside [min, max]). */
static bool edges(const struct sc_hist *h, uint32_t i, double *lo, double *hi)
{
	*lo = fmax((double)sc_hist_bucket_low(i), (double)h->min_ns);
	*hi = fmin((double)sc_hist_bucket_high(i) + 1, (double)h->max_ns + 1);
	return *hi > *lo;
}

/* P(wait <= x), linear within a bucket. */
static double hist_cdf(const struct sc_hist *h, double x)
{
	uint64_t below = 0;
	double lo, hi;

	for (uint32_t i = 0; i < SC_HIST_NBUCKETS && below < h->count; i++) {
		if (!edges(h, i, &lo, &hi))
			continue;
		if (x < lo)
			break;
		if (x < hi)
			return ((double)below + (double)h->buckets[i] * (x - lo) / (hi - lo)) /
			       (double)h->count;
		below += h->buckets[i];
	}
	return (double)below / (double)h->count;
}

/* The wait with P(wait <= x) = q, linear within a bucket. */
static double hist_quantile(const struct sc_hist *h, double q)
{
	double want = q * (double)h->count, below = 0, lo, hi;

	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		double c = (double)h->buckets[i];

		if (!c || !edges(h, i, &lo, &hi))
			continue;
		if (below + c >= want)
			return lo + (hi - lo) * (want - below) / c;
		below += c;
	}
	return (double)h->max_ns + 1;
}

/* E[max of k waits] = integral of 1 - F(x)^k: min (F is 0 below it),
 * then per bucket, where F runs linearly from f0 to f1,
 * width x (1 - (f1^(k+1) - f0^(k+1)) / ((k + 1)(f1 - f0))). */
static double hist_mean_max(const struct sc_hist *h, double k)
{
	double below = 0, sum = (double)h->min_ns, lo, hi;

	for (uint32_t i = 0; i < SC_HIST_NBUCKETS && below < (double)h->count; i++) {
		double f0 = below / (double)h->count;
		double f1 = (below + (double)h->buckets[i]) / (double)h->count;
		double w;

		if (!edges(h, i, &lo, &hi))
			continue;
		w = hi - lo;
		if ((k + 1) * (f1 - f0) < FLAT_BUCKET)
			sum += w * -expm1(k * log((f0 + f1) / 2));
		else
			sum += w * (1 - (exp((k + 1) * log(f1)) - exp((k + 1) * log(f0))) /
					    ((k + 1) * (f1 - f0)));
		below += (double)h->buckets[i];
	}
	return sum;
}

int sc_model_ingest_at(const struct sc_model_measured *m, uint32_t gpus_per_node,
		       struct sc_model_row *row)
{
	const struct sc_hist *h = m ? m->batch_wait : NULL;
	double k, c, p_rank;

	if (!h || !h->count || !m->compute_per_batch_ns || !gpus_per_node || !row->nodes)
		return -EINVAL;
	k = (double)row->nodes * gpus_per_node;
	c = (double)m->compute_per_batch_ns;
	row->step_wait_p50_ns = hist_quantile(h, exp(log(0.50) / k));
	row->step_wait_p90_ns = hist_quantile(h, exp(log(0.90) / k));
	row->step_wait_p99_ns = hist_quantile(h, exp(log(0.99) / k));
	row->step_wait_mean_ns = hist_mean_max(h, k);
	p_rank = 1 - hist_cdf(h, c * (1 / AU_BAR - 1));
	if (p_rank < 0)
		p_rank = 0;
	if (sc_model_stall(p_rank, gpus_per_node, &row->p_node_stall) ||
	    sc_model_stall(row->p_node_stall, row->nodes, &row->p_step_stall))
		return -EINVAL;
	row->au = c / (c + row->step_wait_mean_ns);
	row->read_bytes_per_s_node_au90 =
	    (double)gpus_per_node * (double)m->batch_bytes * NS_PER_S / (c / AU_BAR);
	return 0;
}
