/* steady.h -- steady-state rounds in the phase loop: after each round,
 * rank 0 judges its group and every rank learns whether the rest of the
 * group's rounds are skipped. */
#ifndef SC_STEADY_H
#define SC_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/figures.h"
#include "cluster/cluster.h"
#include "plan.h"
#include "result.h"

/* Every rank, after plan phase p ran and was kept (rank 0: in rec, its
 * figures fg brought up to it).  When p is a steady-state round, rank 0
 * judges the group from fg (analysis/steady_state.h) and, when every drive is steady or this was
 * the last round, prints the group's line (unless quiet); the decision
 * reaches every rank.  Returns the last phase index done: p, or the
 * group's last round when the rounds after p are skipped. */
uint32_t sc_steady_after_round(struct sc_cluster *c, const struct sc_plan *plan,
			       const struct sc_run_record *rec, const struct sc_run_figures *fg,
			       uint32_t p, bool quiet);

#endif
