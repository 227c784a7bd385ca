/* live.h -- rank 0's own figures while a phase runs, for the progress lines. */
#ifndef SC_LIVE_H
#define SC_LIVE_H

#include <stdint.h>

#include "plan.h"

/* What rank 0 had moved by an instant (CLOCK_MONOTONIC ns): measured
 * bytes and I/Os (reads and writes) of the phase so far. */
struct sc_live_count {
	uint64_t ns, bytes, ios;
};

struct sc_live_figures {
	double elapsed_s;	 /* since the phase began; 0 before */
	double rate_bytes_per_s; /* since the previous count; 0 when no time
				  * has passed */
	double rate_iops;	 /* likewise, I/Os per second */
	uint64_t expected_ns;	 /* ramp + runtime of a timed phase, else 0 */
};

/* The figures at now of a phase of io that began at start_ns, the
 * previous count having been taken at prev. */
void sc_live_figures(const struct sc_io_spec *io, uint64_t start_ns,
		     const struct sc_live_count *prev, const struct sc_live_count *now,
		     struct sc_live_figures *out);

#endif
