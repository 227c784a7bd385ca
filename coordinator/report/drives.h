/* drives.h -- the drives in the run's printed output (drives_text.c): the
 * inventory after the first phase, the endurance at the end. */
#ifndef SC_REPORT_DRIVES_H
#define SC_REPORT_DRIVES_H

#include <stdio.h>

#include "analysis/figures.h"
#include "analysis/inventory.h"
#include "result.h"

/* One line per drive of rec's inventory inv (analysis/inventory.h, in the
 * run's figures): node, host, ranks, target and device, model, serial,
 * firmware and capacity, or why the target has no NVMe telemetry. */
void sc_report_drives_inventory(FILE *f, const struct sc_run_record *rec,
				const struct sc_inventory *inv);

/* One line per drive of rec's endurance (model/endurance.h, from fg's
 * drive writes): bytes
 * written and where from, drive writes, share of the rated lifetime
 * writes, percentage used before and after. */
void sc_report_drives_endurance(FILE *f, const struct sc_run_record *rec,
				const struct sc_run_figures *fg);

#endif
