/* stages.c -- a phase's row among the stages of a run (stages.h). */
#include "stages.h"

#include <string.h>

#include "pct_support.h"

void sc_stage_row(const struct sc_phase *ph, const struct sc_phase_figures *f,
		  struct sc_stage_row *out)
{
	memset(out, 0, sizeof(*out));
	out->name = ph->name;
	out->workload = ph->workload;
	out->idle = ph->workload == SC_WORKLOAD_IDLE;
	out->duration_ns = f->lastdone_ns - f->window_start_ns;
	out->bw_bytes_per_s = f->lastdone_bw_bytes_per_s;
	out->iops = f->iops_total;
	out->p99_ok = sc_lat_pct(&f->lat_all, sc_pct_index(99.0), &out->p99_ns);
	out->p9999_ok = sc_lat_pct(&f->lat_all, sc_pct_index(99.99), &out->p9999_ns);
	out->nsamples = f->lat_all.count;
	out->dir = f->bytes[SC_DIR_READ] > f->bytes[SC_DIR_WRITE] ? SC_DIR_READ : SC_DIR_WRITE;
	out->volatility = f->volatility[out->dir];
}

bool sc_stages_shown(const struct sc_plan *plan)
{
	for (uint32_t p = 0; p < plan->nphases; p++)
		if (plan->phases[p].workload == SC_WORKLOAD_IDLE ||
		    plan->phases[p].workload == SC_WORKLOAD_FILL)
			return true;
	return false;
}
