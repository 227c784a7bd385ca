/* steady_text.h -- steady state as the printed text says it (results_steady.c;
 * results.json's "steady_state" is built there too). */
#ifndef SC_REPORT_STEADY_TEXT_H
#define SC_REPORT_STEADY_TEXT_H

#include <stdio.h>

#include "analysis/steady_state.h"
#include "result.h"

/* Prints group g of rec: "steady state: NAME: steady at round R of at
 * most M (...)" or "... NOT steady after N round(s) (...)", the cluster's
 * final window (mean with its unit, range and slope in % of the mean),
 * then each drive not steady (at most 8) by rank, host, node and target. */
void sc_report_steady_text(FILE *f, const struct sc_run_record *rec,
			   const struct sc_steady_group *g);

#endif
