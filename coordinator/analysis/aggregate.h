/* aggregate.h -- cluster figures of a phase, computed from its record.
 *
 * Every figure follows ../shared/DESIGN.md: percentiles from the merged
 * histogram (never averaged), last-done bandwidth = all bytes / (latest end
 * - earliest start), first-done bandwidth = bytes moved by every rank until
 * the first rank finished / that time.  Times are ns relative to the
 * phase's common start on rank 0's clock.  The report files and the
 * printed rows only format these figures; none is derived again there.
 */
#ifndef SC_AGGREGATE_H
#define SC_AGGREGATE_H

#include <stdint.h>

#include "names.h"
#include "result.h"

struct sc_node_row {
	uint32_t node;
	char host[SC_HOST_MAX];
	uint32_t nranks;
	uint64_t bytes[SC_DIR_COUNT];
	uint64_t ios[SC_DIR_COUNT];
	uint64_t errors;
	int64_t start_ns;           /* earliest start (after ramp) of its ranks */
	int64_t end_ns;             /* latest end of its ranks */
	int64_t clock_offset_ns;    /* rank 0's clock minus this node's (from
				     * its lowest rank) */
	struct sc_lat_summary lat[SC_DIR_COUNT]; /* the node's merged service
				     * times (from its leader's row) */
	uint64_t total_bytes;       /* read + write */
	double bw_bytes_per_s;      /* node bytes / (end - start) */
	double iops[SC_DIR_COUNT];  /* I/Os / (end - start) */
	uint64_t samples;           /* ingest: samples its ranks read */
	double samples_per_s;       /* samples / (end - start) */
};

/* The ranks of one node that used one target. */
struct sc_target_row {
	uint32_t node;
	uint32_t target;            /* index into plan.targets */
	char host[SC_HOST_MAX];
	uint32_t nranks;
	uint64_t bytes[SC_DIR_COUNT];
	uint64_t ios[SC_DIR_COUNT];
	uint64_t errors;
	int64_t start_ns, end_ns;
	uint64_t total_bytes;       /* read + write */
	double bw_bytes_per_s;      /* bytes / (end - start) */
	double iops[SC_DIR_COUNT];  /* I/Os / (end - start) */
};

/* What a rank's row shows beyond its own counters. */
struct sc_rank_row {
	uint64_t total_bytes;       /* read + write */
	double bw_bytes_per_s;      /* bytes / its own measured time: from its
				     * start, or the end of the ramp when it
				     * started before that, to its end */
	double iops;                /* read + write I/Os over the same time */
};

/* A kept failed I/O and the rank that kept it (both in the phase record). */
struct sc_failure_ref {
	const struct sc_rank_result *rank;
	const struct sc_io_failure *failure;
};

struct sc_phase_figures {
	uint32_t nranks, nnodes;
	uint64_t bytes[SC_DIR_COUNT];
	uint64_t ios[SC_DIR_COUNT];
	uint64_t total_bytes;       /* read + write */
	uint64_t planned_bytes;     /* sum over ranks; 0 for time-based */
	uint64_t fsyncs;
	uint64_t time_capped_jobs;  /* jobs runtime_max stopped before their bytes */
	uint64_t errors;            /* failed I/Os over all ranks */
	uint32_t ranks_with_errors;
	int64_t window_start_ns;    /* earliest start (after ramp) */
	int64_t lastdone_ns;        /* latest end */
	int64_t firstdone_ns;       /* the first rank's end: the record's
				     * firstdone_ns, or in records without it
				     * the earliest end */
	int64_t start_skew_ns;      /* latest start - earliest start */
	uint64_t firstdone_bytes;   /* sum of ranks' bytes at first done */
	double lastdone_bw_bytes_per_s;
	double firstdone_bw_bytes_per_s;
	double iops[SC_DIR_COUNT];  /* over the last-done window */
	double iops_total;
	struct sc_lat_summary lat[SC_DIR_COUNT]; /* from the merged histograms */
	struct sc_lat_summary lat_all; /* both directions' histograms merged */
	uint32_t slowest_rank;      /* latest end */
	uint32_t slowest_node;      /* node of the latest end */
	const char *slowest_host;   /* host of slowest_rank, in the record;
				     * NULL when there are no ranks */
	const char *slowest_node_host; /* host of node row slowest_node (rows
				     * are by node index), NULL past the rows */
	struct sc_rank_row *rank_rows; /* heap: one per rank of the record, in
				     * its order */
	uint32_t nodes_len;
	struct sc_node_row *nodes;  /* heap, by node index */
	uint32_t targets_len;
	struct sc_target_row *targets; /* heap, by node then target index */
	uint32_t lowest_bw_node;       /* the node row with the lowest bandwidth,
					* the first of equals; nodes_len: none */
	uint32_t lowest_bw_target;     /* the same of the target rows (the slowest
					* drive); targets_len: none */
	uint32_t nseconds;
	struct sc_second *seconds;  /* heap: cluster sum per second */
	uint32_t ntemp;		    /* points of the temperature line; 0: no
				     * temperature read */
	double *temp_xy;	    /* heap: the hottest drive's temperature per
				     * second reduced to SC_TEMP_SPANS spans of
				     * the phase (analysis/extremes.h), for a
				     * chart of many phases: ntemp seconds into
				     * the phase, then ntemp deg C (NAN: the
				     * line breaks) */
	double volatility[SC_DIR_COUNT]; /* stddev/mean of per-second bytes, over
					  * full seconds; NAN (undefined) when < 2
					  * of them or no bytes in the direction */
	uint32_t nerrnos;
	struct sc_errno_count *errnos; /* heap: failed I/Os of all ranks by
					* errno, increasing errno */
	uint32_t nfirst_failures;
	struct sc_failure_ref *first_failures; /* heap: the first
					* SC_IO_FAILURES_KEPT the ranks kept, by
					* time (then rank); valid while the
					* record is */
};

/* The spans of a phase's seconds its temperature line is reduced to. */
#define SC_TEMP_SPANS 128

/* What the figures of a thinned phase (sc_phase_record_thin) keep: its
 * slowest host copied into names, its rank rows, target rows and first
 * failures freed (rank_rows and targets NULL, targets_len and
 * nfirst_failures 0), the rest (the node rows, the cluster's seconds) as
 * it was.  0 or
 * -ENOMEM (f as it was). */
int sc_phase_figures_thin(struct sc_phase_figures *f, struct sc_names *names);

/* Computes the figures of rec (ranks sorted by rank).  0 or -ENOMEM.
 * slowest_host and first_failures point into rec: valid while it is. */
int sc_aggregate_phase(const struct sc_phase_record *rec, struct sc_phase_figures *out);
void sc_phase_figures_exit(struct sc_phase_figures *f);

/* For tests: how many times sc_aggregate_phase has run in this process
 * (the results write aggregates each phase once: analysis/figures.h). */
uint64_t sc_aggregate_phase_calls(void);

/* amount (bytes, I/Os) per second over [start_ns, end_ns]; 0 for an empty
 * window. */
double sc_per_second(uint64_t amount, int64_t start_ns, int64_t end_ns);

/* The summary of the bucket-wise sum of the non-NULL histograms of h (one
 * per direction); all zero when every one is NULL.  0 or -ENOMEM. */
int sc_lat_merged(struct sc_hist *const h[SC_DIR_COUNT], struct sc_lat_summary *out);

/* Index of percentile p in sc_pct_points (and sc_lat_summary.pct_ns); 0
 * when p is not one of them. */
int sc_pct_index(double p);

#endif
