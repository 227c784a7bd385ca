/* live.c -- rank 0's own figures while a phase runs. */
#include "live.h"

#include "aggregate.h"
#include "plan_figures.h"
#include "units.h"

void sc_live_figures(const struct sc_io_spec *io, uint64_t start_ns, uint64_t last_ns,
		     uint64_t last_bytes, uint64_t now_ns, uint64_t bytes,
		     struct sc_live_figures *out)
{
	out->elapsed_s = now_ns > start_ns ? (double)(now_ns - start_ns) / SC_NS_PER_S_F : 0;
	out->rate_bytes_per_s =
	    sc_per_second(bytes - last_bytes, (int64_t)last_ns, (int64_t)now_ns);
	out->expected_ns = sc_phase_expected_ns(io);
}
