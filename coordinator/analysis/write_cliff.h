/* write_cliff.h -- where a drive's write cache runs out: from the
 * per-second write series of a full-capacity sequential write (a fill
 * phase's sequential passes), the initial rate, the estimated cache size
 * and the rate after the cliff, per drive (rank row) and for the cluster.
 *
 * Definitions (docs/acceptance.md states them):
 * - the series is the seconds of the sequential passes only, each whole:
 *   the second in which the sequential bytes were reached (it holds the
 *   switch to random writes or the end) and, when they never were, the
 *   last (cut short) second are left out;
 * - initial rate = median of the first SC_CLIFF_INITIAL_SECONDS seconds
 *   (all of them when fewer);
 * - the cliff = the first second s >= 1 from which the rate stays below
 *   fraction x initial rate for SC_CLIFF_HOLD_SECONDS seconds in a row (or
 *   to the series' end, when fewer remain): a dip of a second or two is
 *   not a cliff;
 * - estimated cache size = bytes written in the seconds before s;
 * - rate after the cliff = median of the seconds from s on;
 * - no cliff: the rate never stays below the threshold (a cache larger
 *   than the region, a drive without one, or a series too short).
 * A cache used up within the first SC_CLIFF_INITIAL_SECONDS / 2 seconds
 * pulls the median down with it and is not told apart.
 */
#ifndef SC_WRITE_CLIFF_H
#define SC_WRITE_CLIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate.h"
#include "plan.h"
#include "result.h"

/* Seconds whose median is the initial rate. */
#define SC_CLIFF_INITIAL_SECONDS 3u
/* Seconds in a row below the threshold that make a cliff. */
#define SC_CLIFF_HOLD_SECONDS 3u

struct sc_write_cliff {
	uint32_t nseconds;	    /* whole seconds analysed */
	double fraction;	    /* of the initial rate: the threshold */
	double initial_bytes_per_s; /* 0 when nseconds is 0 */
	bool found;		    /* the rest is 0 when not */
	uint32_t second;	    /* the cliff's second, from the phase start */
	uint64_t cache_bytes;	    /* written before it */
	double after_bytes_per_s;
	bool unknown;		    /* a drive whose own series the record
				     * does not hold (rank_series.h): no
				     * figure, found false */
};

/* The cliff of the series bytes[0..n) (bytes written in each whole
 * second) at fraction f of the initial rate, into out. */
void sc_write_cliff_find(const uint64_t *bytes, uint32_t n, double f, struct sc_write_cliff *out);

/* The cliff of a per-second series s[0..n) whose first seq_bytes of
 * writes are the sequential passes (the seconds kept as defined above).
 * 0 or -ENOMEM. */
int sc_write_cliff_of_seconds(const struct sc_second *s, uint32_t n, uint64_t seq_bytes, double f,
			      struct sc_write_cliff *out);

/* A fill phase's cliffs: every drive's and the cluster's. */
struct sc_fill_cliffs {
	uint32_t nranks;
	struct sc_write_cliff *ranks;  /* heap, in the record's rank order */
	struct sc_write_cliff cluster; /* of the cluster's summed series */
	uint32_t ranks_with_cliff;
	uint32_t ranks_unknown;	       /* drives without their own series */
	uint64_t min_cache_bytes; /* over the drives with a cliff; 0: none */
	uint32_t min_cache_rank;  /* index into the record's ranks */
	uint64_t max_cache_bytes;
};

/* The cliffs of fill phase pr of plan, whose cluster figures are fig;
 * every drive's unknown when the record holds no rank's own series
 * (rank_series.h), the cluster's then from its reduced series.
 * 0, -EINVAL when pr is not a fill phase, or -ENOMEM. */
int sc_fill_cliffs(const struct sc_plan *plan, const struct sc_phase_record *pr,
		   const struct sc_phase_figures *fig, struct sc_fill_cliffs *out);
void sc_fill_cliffs_exit(struct sc_fill_cliffs *c);

#endif
