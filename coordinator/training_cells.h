/* training_cells.h -- a training phase's cells in the phase loop: after
 * each trial of a search, rank 0 judges it and every rank learns the next
 * trial's accelerators per rank, or that the search is over (its trials
 * left are skipped); after each of runs: W+M, rank 0 prints the run and,
 * after the last, their mean. */
#ifndef SC_TRAINING_CELLS_H
#define SC_TRAINING_CELLS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/figures.h"
#include "cluster/cluster.h"
#include "plan.h"
#include "result.h"

/* Every rank, after plan phase p ran and was kept (rank 0: in rec, its
 * figures fg brought up to it).  Returns the last phase index done: p, or
 * the search's last trial when the trials after p are skipped.  Before
 * returning p for a search that goes on, sets the next trial's
 * accelerators in every rank's plan (rank 0's is rec's). */
uint32_t sc_training_after_cell(struct sc_cluster *c, struct sc_plan *plan,
				const struct sc_run_record *rec, const struct sc_run_figures *fg,
				uint32_t p, bool quiet);

#endif
