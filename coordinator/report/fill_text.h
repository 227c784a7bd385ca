/* fill_text.h -- what rank 0 prints of the preconditioning and
 * consistency stages: a fill phase's write cliff, and the stages of a run
 * side by side at its end.  Formatting only (analysis/write_cliff.h,
 * analysis/stages.h compute the figures). */
#ifndef SC_REPORT_FILL_TEXT_H
#define SC_REPORT_FILL_TEXT_H

#include <stdio.h>

#include "analysis/aggregate.h"
#include "analysis/figures.h"
#include "result.h"

/* Drives whose cliff is printed after a fill phase's row (results.json
 * lists every one). */
#define SC_CLIFF_DRIVES_PRINTED 16u

/* After fill phase pr's row (its cliffs c, analysis/workload_figures.h):
 * the cluster's write cliff and each drive's (the first
 * SC_CLIFF_DRIVES_PRINTED), rates in MB/s, cache sizes in binary units. */
void sc_report_write_cliff_text(FILE *f, const struct sc_run_record *rec,
				const struct sc_phase_record *pr, const struct sc_fill_cliffs *c);

/* At a run's end, when analysis/stages.h says so (an idle step or a fill
 * phase): one row per finished phase with its duration, bandwidth, IOPS,
 * p99, p99.99 and volatility ("n/a" where too few I/Os support a
 * percentile or the volatility is undefined); an idle step shows only its
 * duration.  fg: rec's figures (analysis/figures.h). */
void sc_report_stages_table(FILE *f, const struct sc_run_record *rec,
			    const struct sc_run_figures *fg);

#endif
