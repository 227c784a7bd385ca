/* progress.h -- what rank 0 prints while a run goes: one row per phase. */
#ifndef SC_PROGRESS_H
#define SC_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "plan.h"
#include "result.h"
#include "run.h"
#include "analysis/aggregate.h"
#include "analysis/live.h"

void sc_progress_header(FILE *f);
/* False for a phase record in which nothing was measured (a phase a stop
 * or a deadline cut short before an I/O completed): its row says so. */
bool sc_progress_measured(const struct sc_phase_record *rec);
/* One summary row: last-done and first-done bandwidth, IOPS, p50/p99/p99.99
 * over all I/O of the phase (both directions merged), the slowest rank,
 * and what failed or was verified.  A percentile too few I/Os support
 * (analysis/pct_support.h) reads "n/a", and a line under the row gives the
 * maximum of the samples instead. */
void sc_progress_row(FILE *f, const struct sc_phase *phase, const struct sc_phase_record *rec,
		     const struct sc_phase_figures *fig);

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

/* After the row: the phase's failed I/Os by errno and the first one, if
 * any; then what the phase's workload adds.  Ingest: samples/s and
 * accelerator utilisation; open loop: response-time p99 and late I/Os;
 * the last cell of a checkpoint group: the group's trend and full-size
 * projection. */
void sc_progress_workload(FILE *f, const struct sc_run_record *rec,
			  const struct sc_phase_record *pr, const struct sc_phase_figures *fig);

/* A phase whose reads found verify mismatches: how many, and the first
 * ones (rank, host, file, offset, what failed, expected vs found).  Prints
 * nothing and returns 0 when there were none; else the mismatch count. */
uint64_t sc_progress_verify(FILE *f, const struct sc_run_record *rec,
			    const struct sc_phase_record *pr);

/* One line per I/O option of the phase that some rank ran without:
 * "ssdcluster: phase P: note: sqpoll unavailable on 16 of 16 ranks: why"
 * (the first rank's reason).  Not a failure: the phase ran without it.
 * Returns how many lines it printed. */
int sc_progress_io_opts(FILE *f, const struct sc_run_record *rec,
			const struct sc_phase_record *pr);

#endif
