/* fio_figures.c -- a phase's cluster figures in fio's terms (fio.json). */
#include "fio_figures.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const double sc_fio_pct_points[SC_FIO_NPCT] = {1,  5,  10, 20, 30,   40,   50,	  60,	70,
					       80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

const uint32_t sc_fio_lat_bounds[SC_FIO_LAT_MS] = {2,	4,   10,  20,	50,   100,
						   250, 500, 750, 1000, 2000, 2000};

#define NS_PER_US     1000u
#define NS_PER_MS     1000000u
#define NS_PER_MS_F   1e6
#define BYTES_PER_KIB 1024.0

/* The value a bucket's I/Os are shown at: its midpoint, as
 * sc_hist_percentile reports it (the last bucket, unbounded: h's max). */
static uint64_t bin_value(const struct sc_hist *h, uint32_t i)
{
	uint64_t low = sc_hist_bucket_low(i);

	if (i == SC_HIST_NBUCKETS - 1)
		return h->max_ns > low ? h->max_ns : low;
	return low + (sc_hist_bucket_high(i) - low) / 2u;
}

/* Index of the first of n bounds above v, n - 1 when none is. */
static uint32_t range_of(uint64_t v, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (v < sc_fio_lat_bounds[k])
			return k;
	return n - 1;
}

/* Adds count I/Os at v ns to fio's latency ranges. */
static void add_range(struct sc_fio_phase *p, uint64_t v, double count)
{
	if (v < NS_PER_US)
		p->lat_ns_pct[range_of(v, SC_FIO_LAT_NS)] += count;
	else if (v < NS_PER_MS)
		p->lat_us_pct[range_of(v / NS_PER_US, SC_FIO_LAT_US)] += count;
	else
		p->lat_ms_pct[range_of(v / NS_PER_MS, SC_FIO_LAT_MS)] += count;
}

static int lat_of(const struct sc_hist *h, struct sc_fio_lat *l, struct sc_fio_phase *p)
{
	uint32_t n = 0;
	double ss = 0;

	if (!h || h->count == 0)
		return 0;
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++)
		n += h->buckets[i] != 0;
	l->bins = calloc(n, sizeof(*l->bins));
	if (!l->bins)
		return -ENOMEM;
	l->n = h->count;
	l->min_ns = h->min_ns;
	l->max_ns = h->max_ns;
	l->mean_ns = (double)h->sum_ns / (double)h->count;
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		struct sc_fio_bin *b = &l->bins[l->nbins];
		double dev;

		if (!h->buckets[i])
			continue;
		b->value_ns = bin_value(h, i);
		b->count = h->buckets[i];
		dev = (double)b->value_ns - l->mean_ns;
		ss += dev * dev * (double)b->count;
		add_range(p, b->value_ns, (double)b->count);
		l->nbins++;
	}
	l->stddev_ns = l->n > 1 ? sqrt(ss / (double)(l->n - 1)) : 0;
	for (int k = 0; k < SC_FIO_NPCT; k++)
		l->pct_ns[k] = sc_hist_percentile(h, sc_fio_pct_points[k]);
	return 0;
}

/* The statistics of v over the complete seconds of s: v(k) for k < n. */
static void samples_of(const struct sc_second *s, uint32_t nseconds, int d, bool iops,
		       struct sc_fio_samples *out)
{
	uint32_t n = nseconds ? nseconds - 1 : 0;
	double sum = 0, ss = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t k = 0; k < n; k++) {
		double v = iops ? (double)s[k].ios[d] : (double)s[k].bytes[d] / BYTES_PER_KIB;

		out->min = k == 0 || v < out->min ? v : out->min;
		out->max = v > out->max ? v : out->max;
		sum += v;
	}
	if (!n)
		return;
	out->n = n;
	out->mean = sum / n;
	for (uint32_t k = 0; k < n; k++) {
		double v = iops ? (double)s[k].ios[d] : (double)s[k].bytes[d] / BYTES_PER_KIB;

		ss += (v - out->mean) * (v - out->mean);
	}
	out->dev = n > 1 ? sqrt(ss / (n - 1)) : 0;
}

int sc_fio_phase_of(const struct sc_phase_record *pr, const struct sc_phase_figures *f,
		    struct sc_fio_phase *out)
{
	int64_t window = f->lastdone_ns - f->window_start_ns;
	uint64_t all = 0;

	memset(out, 0, sizeof(*out));
	out->runtime_ms = window > 0 ? (uint64_t)llround((double)window / NS_PER_MS_F) : 0;
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		struct sc_fio_dir *x = &out->dir[d];

		x->io_bytes = f->bytes[d];
		x->total_ios = f->ios[d];
		x->bw_bytes_per_s = sc_per_second(f->bytes[d], f->window_start_ns, f->lastdone_ns);
		x->iops = f->iops[d];
		x->runtime_ms = f->ios[d] ? out->runtime_ms : 0;
		if (lat_of(pr->lat[d], &x->lat, out)) {
			sc_fio_phase_exit(out);
			return -ENOMEM;
		}
		all += x->lat.n;
		samples_of(f->seconds, f->nseconds, d, false, &x->bw_kib);
		samples_of(f->seconds, f->nseconds, d, true, &x->iops_per_s);
	}
	for (int k = 0; all && k < SC_FIO_LAT_MS; k++) {
		if (k < SC_FIO_LAT_NS)
			out->lat_ns_pct[k] *= 100.0 / (double)all;
		if (k < SC_FIO_LAT_US)
			out->lat_us_pct[k] *= 100.0 / (double)all;
		out->lat_ms_pct[k] *= 100.0 / (double)all;
	}
	return 0;
}

void sc_fio_phase_exit(struct sc_fio_phase *p)
{
	for (int d = 0; d < SC_DIR_COUNT; d++)
		free(p->dir[d].lat.bins);
	memset(p, 0, sizeof(*p));
}
