/* lost.h -- ending the run when a wait on other ranks gave up (cluster.h,
 * "Deadlines"): name the late ranks and the phase, keep the cut phase,
 * remove the run files, end every rank. */
#ifndef SC_LOST_H
#define SC_LOST_H

#include <stdint.h>

#include "layout.h"
#include "plan.h"
#include "result.h"
#include "rundir.h"
#include "cli.h"
#include "cluster/cluster.h"
#include "progress.h"

struct sc_run_figures;
struct sc_record_pace;

/* What sc_lost_end_run needs to end the run; the phase driver keeps it
 * current. */
struct sc_lost_ctx {
	struct sc_run_record *rec;      /* rank 0 while phases run, else NULL */
	struct sc_run_figures *fg;      /* rec's figures, while rec is set */
	struct sc_record_pace *pace;    /* when rec's formatted files are rewritten */
	const struct sc_plan *plan;     /* NULL before every rank has it */
	const struct sc_place *place;   /* this rank's */
	const struct sc_place *places;  /* rank 0: every rank's */
	struct sc_rundir *rd;           /* this rank's run directory */
	const char *outdir;
	const struct sc_cli *cli;
	int64_t phase;                  /* the phase under way; -1 between phases */
	struct sc_progress_live *live;  /* rank 0's live line, or NULL */
};

/*
 * The cluster's on_lost (arg: a struct sc_lost_ctx): a rank died or hangs,
 * or did not answer after a stop.  Rank 0 names the late ranks and the
 * phase, keeps the phase as timed_out (or interrupted) next to the
 * finished ones, removes its node's run files and ends every rank (exit
 * SC_EXIT_RANK_LOST, or 128 + signal after a stop).  Another rank removes
 * its own run files and ends; it speaks only when its own deadline passed
 * (rank 0 did not end the run).  Never returns.
 */
void sc_lost_end_run(struct sc_cluster *c, void *arg) __attribute__((noreturn));

#endif
