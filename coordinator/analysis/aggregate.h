/* aggregate.h -- cluster figures of a phase, computed from its record.
 *
 * Every figure follows ../shared/DESIGN.md: percentiles from the merged
 * histogram (never averaged), last-done bandwidth = all bytes / (latest end
 * - earliest start), first-done bandwidth = bytes moved by every rank until
 * the first rank finished / that time.  Times are ns relative to the
 * phase's common start on rank 0's clock.
 */
#ifndef SC_AGGREGATE_H
#define SC_AGGREGATE_H

#include <stdint.h>

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
	double bw_bytes_per_s;      /* node bytes / (end - start) */
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
	double bw_bytes_per_s;
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
	uint64_t errors;            /* failed I/Os over all ranks */
	uint32_t ranks_with_errors;
	int64_t window_start_ns;    /* earliest start (after ramp) */
	int64_t lastdone_ns;        /* latest end */
	int64_t firstdone_ns;       /* earliest end */
	int64_t start_skew_ns;      /* latest start - earliest start */
	uint64_t firstdone_bytes;   /* sum of ranks' bytes at first done */
	double lastdone_bw_bytes_per_s;
	double firstdone_bw_bytes_per_s;
	double iops[SC_DIR_COUNT];  /* over the last-done window */
	double iops_total;
	struct sc_lat_summary lat[SC_DIR_COUNT]; /* from the merged histograms */
	uint32_t slowest_rank;      /* latest end */
	uint32_t slowest_node;      /* node of the latest end */
	uint32_t nodes_len;
	struct sc_node_row *nodes;  /* heap, by node index */
	uint32_t targets_len;
	struct sc_target_row *targets; /* heap, by node then target index */
	uint32_t nseconds;
	struct sc_second *seconds;  /* heap: cluster sum per second */
	double volatility[SC_DIR_COUNT]; /* stddev/mean of per-second bytes, over
					  * full seconds; 0 when < 2 seconds */
	uint32_t nerrnos;
	struct sc_errno_count *errnos; /* heap: failed I/Os of all ranks by
					* errno, increasing errno */
	uint32_t nfirst_failures;
	struct sc_failure_ref *first_failures; /* heap: the first
					* SC_IO_FAILURES_KEPT the ranks kept, by
					* time (then rank); valid while the
					* record is */
};

/* Computes the figures of rec (ranks sorted by rank).  0 or -ENOMEM. */
int sc_aggregate_phase(const struct sc_phase_record *rec, struct sc_phase_figures *out);
void sc_phase_figures_exit(struct sc_phase_figures *f);

#endif
