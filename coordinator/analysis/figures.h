/* figures.h -- every figure of a run, built once per results write.
 *
 * The run's figures object: each finished phase's figures (aggregate.h)
 * and what its workload adds (workload_figures.h), its checkpoint groups,
 * sweeps, steady-state groups, verdict, outliers and drive inventory.
 * Analysis builds it from the run record; results.json, the CSV files,
 * report.html, the printed rows, the record and the model only read it.
 * The record keeps one across the run: each results write aggregates only
 * the phases added since the last (a phase's figures never change once it
 * is recorded), and each figure that spans phases (checkpoint groups,
 * sweeps, steady state, verdict, outliers, inventory, drive writes) grows by the phase
 * added alone.
 */
#ifndef SC_FIGURES_H
#define SC_FIGURES_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate.h"
#include "drive_writes.h"
#include "inventory.h"
#include "outliers.h"
#include "result.h"
#include "steady_state.h"
#include "sweep_matrix.h"
#include "training_groups.h"
#include "verdict.h"
#include "workload_figures.h"

struct sc_run_figures {
	uint32_t nphases;		 /* phases of the record aggregated */
	uint32_t cap;			 /* room in phases */
	struct sc_phase_figures *phases; /* heap: phases[i] of rec->phases[i] */
	struct sc_workload_figures *work; /* heap: what rec->phases[i]'s workload
					   * adds, beside phases[i] */
	uint32_t nspanned;		 /* phases of the record in the figures
					  * that span phases (ckpt ... inventory),
					  * which grow by a phase */
	uint32_t nckpt;
	struct sc_ckpt_group *ckpt; /* heap: the checkpoint groups */
	struct sc_sweeps sweeps;    /* the sweep matrices */
	uint32_t nsteady;
	struct sc_steady_group *steady; /* heap: the steady-state groups */
	uint32_t ntraining;
	struct sc_training_group *training; /* heap: the training phases with
				 * a search or runs, their cells together */
	struct sc_verdict verdict;	/* the expect: checks */
	struct sc_outliers outliers;	/* the drives and nodes apart */
	struct sc_inventory inventory;	/* each drive once per node */
	struct sc_drive_writes writes;	/* what the run wrote to each drive */
	struct sc_names names;		/* hosts the thinned phases' figures keep */
	bool stages_shown;		/* the plan shows its stages side by
					 * side at its end (stages.h) */
};

/* An empty figures object (no phase). */
void sc_run_figures_init(struct sc_run_figures *f);

/* Brings f up to rec: aggregates rec's phases from f->nphases on (all of
 * them when rec has fewer phases than f, which means another record) and
 * adds them to the figures that span phases (checkpoint groups, sweeps,
 * outliers, inventory, drive writes, steady-state groups, verdict).  rec may only have grown
 * since the last call (phases appended, none changed; phases thinned
 * after being added, sc_run_figures_thin).  The figures point into rec's
 * plan, and a phase's figures into its record until it is thinned (its
 * slowest host, its first failures): valid while they are.  The figures
 * that span phases keep their own names.  0 or -ENOMEM (f then empty; a
 * record with thinned phases cannot be aggregated again). */
int sc_run_figures_update(struct sc_run_figures *f, const struct sc_run_record *rec);

/* sc_run_figures_init and sc_run_figures_update: the figures of rec from
 * nothing (a record read back, or one compared).  0 or -ENOMEM. */
int sc_run_figures_of(struct sc_run_figures *f, const struct sc_run_record *rec);

/* Once rank 0 thinned rec's phase i (sc_phase_record_thin), thins its
 * figures too (sc_phase_figures_thin): the figures that span phases hold
 * it already.  0 or -ENOMEM (f as it was). */
int sc_run_figures_thin(struct sc_run_figures *f, uint32_t i);

void sc_run_figures_exit(struct sc_run_figures *f);

#endif
