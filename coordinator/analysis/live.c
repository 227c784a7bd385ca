/* live.c -- rank 0's own figures while a phase runs. */
#include "live.h"

#include "aggregate.h"
#include "plan_figures.h"
#include "units.h"

void sc_live_figures(const struct sc_io_spec *io, uint64_t start_ns,
		     const struct sc_live_count *prev, const struct sc_live_count *now,
		     struct sc_live_figures *out)
{
	out->elapsed_s = now->ns > start_ns ? (double)(now->ns - start_ns) / SC_NS_PER_S_F : 0;
	out->rate_bytes_per_s =
	    sc_per_second(now->bytes - prev->bytes, (int64_t)prev->ns, (int64_t)now->ns);
	out->rate_iops = sc_per_second(now->ios - prev->ios, (int64_t)prev->ns, (int64_t)now->ns);
	out->expected_ns = sc_phase_expected_ns(io);
}
