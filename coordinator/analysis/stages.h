/* stages.h -- one row per phase for showing the stages of a run side by
 * side (a consistency test: initial, degraded, steady, idle, recovery):
 * duration, bandwidth, IOPS, p99, p99.99 and volatility, taken from the
 * phase's cluster figures (aggregate.h), none derived again. */
#ifndef SC_STAGES_H
#define SC_STAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate.h"
#include "plan.h"

struct sc_stage_row {
	const char *name; /* the phase's (plan-owned) */
	enum sc_workload workload;
	bool idle;		   /* an idle step: no I/O, only a duration */
	int64_t duration_ns;	   /* latest end - earliest start */
	double bw_bytes_per_s;	   /* last-done bandwidth */
	double iops;		   /* both directions */
	uint64_t p99_ns, p9999_ns; /* both directions' merged histogram; 0
				    * when not supported: */
	bool p99_ok, p9999_ok;	   /* supported by its count (pct_support.h) */
	uint64_t nsamples;	   /* that histogram's count */
	int dir;		   /* SC_DIR_READ or SC_DIR_WRITE: the one that
				    * moved more bytes (writes on a tie) */
	double volatility;	   /* that direction's (DESIGN.md: stddev /
				    * mean of the per-second bytes); NAN
				    * when undefined (aggregate.h) */
};

/* The stage row of phase ph, whose cluster figures are f. */
void sc_stage_row(const struct sc_phase *ph, const struct sc_phase_figures *f,
		  struct sc_stage_row *out);

/* Whether a run of plan shows its stages side by side at its end: when
 * it has an idle step or a fill phase. */
bool sc_stages_shown(const struct sc_plan *plan);

#endif
