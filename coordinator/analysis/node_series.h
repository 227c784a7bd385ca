/* node_series.h -- bandwidth and IOPS over time of a phase, per node and
 * for the cluster, for charts that must not mislead.
 *
 * A node's per-second series is the second-by-second sum of its ranks'
 * seconds (second k covers [k s, k+1 s) after the phase's measured start,
 * sc_second); the cluster's is the sum over every rank.  Both come from
 * the record's reduced series (summed in the cluster, result.h), or in
 * records from before those, from the ranks' own seconds; a node whose
 * series the record did not keep has none (n == 0).  The rate of a
 * second is its amount per second, except the series' last second: when
 * the series' ranks ended part-way through it (their latest end), its
 * amount is divided by the time it covered, and it is left out when that
 * is under SC_SERIES_MIN_LAST_NS, so that the end of a phase never shows a
 * drop toward 0 that did not happen.
 */
#ifndef SC_NODE_SERIES_H
#define SC_NODE_SERIES_H

#include <stdint.h>

#include "aggregate.h"
#include "result.h"

/* A last second that covered less than this is left out of the rates. */
#define SC_SERIES_MIN_LAST_NS (INT64_C(1000000000) / 4)

/* One series: a node's, or the cluster's. */
struct sc_rate_series {
	uint32_t node;	  /* node index; UINT32_MAX for the cluster */
	const char *host; /* the node's host (in the record); NULL for
			   * the cluster */
	int64_t end_ns;	  /* latest end of its ranks (common start = 0) */
	uint32_t nseconds;
	struct sc_second *seconds; /* heap: sum of its ranks' seconds */
	uint32_t n;		   /* rate points: nseconds, or one less when
				    * the last second was left out */
	double *t_s;		   /* heap, n: where each point's second ends,
				    * s after the measured start (the last:
				    * where its ranks ended) */
	double *bw_bytes_per_s;	   /* heap, n: reads + writes */
	double *iops;		   /* heap, n: reads + writes */
};

struct sc_node_series {
	uint32_t nnodes;	      /* 1 + the highest node index of a rank */
	struct sc_rate_series *nodes; /* heap, by node index */
	struct sc_rate_series cluster;
};

/* The series of phase record pr.  0 or -ENOMEM (out then empty). */
int sc_node_series_init(struct sc_node_series *out, const struct sc_phase_record *pr);
void sc_node_series_exit(struct sc_node_series *s);

#endif
