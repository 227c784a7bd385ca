/* fio_figures.h -- a phase's cluster figures in fio's terms (what fio's
 * json+ output holds of a group-reported job), for report/fio_json.c.
 *
 * From the phase's merged histograms (every rank's, bucket-wise) and its
 * figures (aggregate.h): fio's default percentile list, the non-empty
 * histogram buckets as json+ "bins" (keyed by the bucket's midpoint, the
 * value sc_hist_percentile reports for it), a latency stddev from those
 * buckets, the per-second bandwidth and IOPS statistics of the cluster's
 * series, and the share of I/Os in fio's latency_ns/us/ms ranges.  Built
 * on demand (only fio.json shows them), never in the formatter.
 */
#ifndef SC_FIO_FIGURES_H
#define SC_FIO_FIGURES_H

#include <stdint.h>

#include "aggregate.h"
#include "result.h"

/* fio's default percentile_list, in percent (fio's HOWTO). */
#define SC_FIO_NPCT 17
extern const double sc_fio_pct_points[SC_FIO_NPCT];

/* fio's latency ranges (upper bounds, exclusive) of latency_ns,
 * latency_us and latency_ms; latency_ms's last is ">=2000". */
#define SC_FIO_LAT_NS 10
#define SC_FIO_LAT_US 10
#define SC_FIO_LAT_MS 12
extern const uint32_t sc_fio_lat_bounds[SC_FIO_LAT_MS]; /* 2, 4, 10, ... 2000 */

/* One json+ bin: the I/Os of one histogram bucket. */
struct sc_fio_bin {
	uint64_t value_ns; /* the bucket's midpoint */
	uint64_t count;
};

/* One direction's latency, as fio's clat_ns. */
struct sc_fio_lat {
	uint64_t n;		      /* I/Os; the rest is 0 when none */
	uint64_t min_ns, max_ns;      /* exact */
	double mean_ns;		      /* exact (sum / n) */
	double stddev_ns;	      /* sample stddev (n - 1) of the bucket
				       * midpoints around mean_ns: within a
				       * bucket's width (<= 1/128) of the true */
	uint64_t pct_ns[SC_FIO_NPCT]; /* sc_hist_percentile at each point */
	uint32_t nbins;
	struct sc_fio_bin *bins; /* heap, increasing value; NULL when none */
};

/* min, max, mean, sample stddev of a per-second series over the phase's
 * complete seconds (all but the last, which its end cuts short, as
 * volatility in aggregate.h); all 0 with fewer than one. */
struct sc_fio_samples {
	uint32_t n;
	double min, max, mean, dev;
};

struct sc_fio_dir {
	uint64_t io_bytes, total_ios;
	double bw_bytes_per_s; /* io_bytes over the last-done window */
	double iops;	       /* figures' iops[d] */
	uint64_t runtime_ms;   /* the window, rounded; 0 without I/Os */
	struct sc_fio_lat lat;
	struct sc_fio_samples bw_kib; /* per-second KiB/s */
	struct sc_fio_samples iops_per_s;
};

struct sc_fio_phase {
	struct sc_fio_dir dir[SC_DIR_COUNT];
	uint64_t runtime_ms; /* last-done window, rounded */
	/* percent of all I/Os (both directions) in each of fio's ranges,
	 * a bucket counted where its midpoint falls */
	double lat_ns_pct[SC_FIO_LAT_NS];
	double lat_us_pct[SC_FIO_LAT_US];
	double lat_ms_pct[SC_FIO_LAT_MS];
};

/* The fio figures of phase record pr, whose figures are f.  0 or -ENOMEM
 * (out then empty).  Free with sc_fio_phase_exit. */
int sc_fio_phase_of(const struct sc_phase_record *pr, const struct sc_phase_figures *f,
		    struct sc_fio_phase *out);
void sc_fio_phase_exit(struct sc_fio_phase *p);

#endif
