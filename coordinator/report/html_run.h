/* html_run.h -- the sections of report.html about the run as a whole
 * (html_run.c, html_checks.c), called by html.c.  Not for other files.
 * fg is rec's figures (analysis/figures.h): the sections format them.
 * Each writes to f (output errors are the caller's: ferror(f)) and
 * returns 0 or -ENOMEM; a section the run has nothing for is left out. */
#ifndef SC_REPORT_HTML_RUN_H
#define SC_REPORT_HTML_RUN_H

#include <stdio.h>

#include "result.h"
#include "analysis/figures.h"

struct sc_model_projection;

/* html_checks.c: the PASS/FAIL table of the expect: thresholds
 * (analysis/verdict.h) with the verdict line, and the outliers
 * (analysis/outliers.h). */
int sc_html_verdict(FILE *f, const struct sc_run_figures *fg);

/* html_run.c: every steady-state group (analysis/steady_state.h): its
 * figure per round per drive and for the cluster as line charts, and the
 * final window of each as a table; past SC_HTML_ROWS_SHOWN drives that
 * many, those not steady first, said so. */
int sc_html_steady(FILE *f, const struct sc_run_figures *fg);

/* html_run.c: the hottest drive's temperature per second of each phase,
 * when any second of any phase has one. */
int sc_html_temperature(FILE *f, const struct sc_run_record *rec,
			const struct sc_run_figures *fg);

/* html_run.c: the model projection's tables (proj), or why there is none
 * (why, when not empty); nothing when neither. */
int sc_html_model(FILE *f, const struct sc_run_record *rec, const struct sc_model_projection *proj,
		  const char *why);

/* html_run.c: the endurance each drive spent (model/endurance.h); past
 * SC_HTML_ROWS_SHOWN drives the most written that many, said so. */
int sc_html_endurance(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg);

#endif
