/* live.h -- rank 0's own figures while a phase runs, for the live line. */
#ifndef SC_LIVE_H
#define SC_LIVE_H

#include <stdint.h>

#include "plan.h"

struct sc_live_figures {
	double elapsed_s;           /* since the phase began; 0 before */
	double rate_bytes_per_s;    /* since the previous tick; 0 when no time
				     * has passed */
	uint64_t expected_ns;       /* ramp + runtime of a timed phase, else 0 */
};

/* The figures at now_ns of a phase of io that began at start_ns, having
 * moved bytes by now and last_bytes by the previous tick at last_ns (all
 * CLOCK_MONOTONIC ns). */
void sc_live_figures(const struct sc_io_spec *io, uint64_t start_ns, uint64_t last_ns,
		     uint64_t last_bytes, uint64_t now_ns, uint64_t bytes,
		     struct sc_live_figures *out);

#endif
