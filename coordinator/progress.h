/* progress.h -- what rank 0 prints while a run goes: one row per phase. */
#ifndef SC_PROGRESS_H
#define SC_PROGRESS_H

#include <stdio.h>

#include "../worker/plan.h"
#include "../worker/result.h"
#include "aggregate.h"

void sc_progress_header(FILE *f);
/* One summary row: last-done MB/s, IOPS, p50/p99/p99.99 over all I/O of
 * the phase (both directions merged), and the slowest rank. */
void sc_progress_row(FILE *f, const struct sc_phase *phase, const struct sc_phase_record *rec,
		     const struct sc_phase_figures *fig);

#endif
