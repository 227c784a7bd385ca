/* phase_rows.h -- the text rows of a run's phases (phase_rows.c). */
#ifndef SC_REPORT_PHASE_ROWS_H
#define SC_REPORT_PHASE_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/aggregate.h"
#include "analysis/figures.h"
#include "plan.h"
#include "result.h"

void sc_rows_header(FILE *f);
/* False for a phase record in which nothing was measured (a phase a stop
 * or a deadline cut short before an I/O completed): its row says so. */
bool sc_rows_measured(const struct sc_phase_record *rec);
/* One summary row: last-done and first-done bandwidth, IOPS, p50/p99/p99.99
 * over all I/O of the phase (both directions merged), the slowest rank,
 * and what failed or was verified.  A percentile too few I/Os support
 * (analysis/pct_support.h) reads "n/a", and a line under the row gives the
 * maximum of the samples instead.  Of run->phases[i], with fg run's
 * figures (analysis/figures.h). */
void sc_rows_phase(FILE *f, const struct sc_run_record *run, const struct sc_run_figures *fg,
		   uint32_t i);

/* After the row: the phase's failed I/Os by errno and the first one, if
 * any; then what the phase's workload adds.  Ingest: samples/s and
 * accelerator utilisation; open loop: response-time p99 and late I/Os;
 * the last cell of a checkpoint group: the group's trend and full-size
 * projection.  Of rec->phases[i], with fg rec's figures
 * (analysis/figures.h). */
void sc_rows_workload(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      uint32_t i);

/* A phase whose reads found verify mismatches: how many, and the first
 * ones (rank, host, file, offset, what failed, expected vs found).  Prints
 * nothing and returns 0 when there were none; else the mismatch count.
 * Of rec->phases[at], with fg rec's figures (analysis/figures.h). */
uint64_t sc_rows_verify(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
			uint32_t at);

/* One line per I/O option of the phase that some rank ran without:
 * "ssdcluster: phase P: note: sqpoll unavailable on 16 of 16 ranks: why"
 * (the first rank's reason).  Not a failure: the phase ran without it.
 * Returns how many lines it printed. */
int sc_rows_io_opts(FILE *f, const struct sc_run_record *rec, const struct sc_phase_record *pr);

#endif
