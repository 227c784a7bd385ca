/* progress.h -- what rank 0 shows while a phase runs (the rows after each
 * phase: report/phase_rows.h). */
#ifndef SC_PROGRESS_H
#define SC_PROGRESS_H

#include <stdio.h>

#include "analysis/live.h"
#include "plan.h"
#include "run.h"

/* Rank 0's progress while phase p runs (sc_progress_mode_choose says
 * which kind): elapsed time, ranks done, rank 0's own MB/s and IOPS since
 * the previous tick, and its failed I/Os.  The ticks are cluster ticks
 * (sc_cluster_set_tick) with a struct sc_progress_live as their arg. */
struct sc_progress_live {
	FILE *f;
	const struct sc_plan *plan;
	uint32_t phase;
	uint32_t nranks;
	uint64_t start_ns;          /* CLOCK_MONOTONIC */
	struct sc_live_count prev;  /* at the previous tick (start: zero bytes) */
	int shown;                  /* columns of the live line on screen */
};
/* Live: one line rewritten in place ("\r"), erased by the phase's row
 * (sc_progress_live_clear). */
void sc_progress_live_tick(void *arg, uint32_t ranks_done, struct sc_run *run);
void sc_progress_live_clear(struct sc_progress_live *live);
/* Lines: the same facts as a plain line ending in "\n" ("  running
 * PHASE: ..."), nothing to erase. */
void sc_progress_lines_tick(void *arg, uint32_t ranks_done, struct sc_run *run);

#endif
