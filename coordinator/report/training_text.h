/* training_text.h -- the lines of a training group: each trial of a
 * search or run of runs: W+M, then the search's answer or the runs' mean
 * (analysis/training_groups.h). */
#ifndef SC_REPORT_TRAINING_TEXT_H
#define SC_REPORT_TRAINING_TEXT_H

#include <stdio.h>

#include "analysis/training_groups.h"
#include "result.h"

/* Cell i of group g (rec's plan names it). */
void sc_report_training_cell(FILE *f, const struct sc_run_record *rec,
			     const struct sc_training_group *g, uint32_t i);

/* The search's answer (once done) or the runs' mean and spread. */
void sc_report_training_group(FILE *f, const struct sc_training_group *g);

#endif
