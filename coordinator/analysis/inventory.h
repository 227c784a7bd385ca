/* inventory.h -- the drives of a run as results list them (inventory.c):
 * each NVMe drive once per node with the ranks that used it, and each
 * target without NVMe telemetry once per node with the reason. */
#ifndef SC_ANALYSIS_INVENTORY_H
#define SC_ANALYSIS_INVENTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "result.h"

struct sc_inventory_entry {
	uint32_t node;
	const char *host;	      /* the first rank's, in rec */
	uint32_t target;	      /* index into plan.targets */
	const struct sc_drive *drive; /* in rec; NULL: no NVMe, see none */
	const char *none;	      /* "no NVMe telemetry: ...", in rec */
	uint32_t nranks;
	uint32_t *ranks; /* heap, increasing */
};

struct sc_inventory {
	uint32_t n;
	struct sc_inventory_entry *entries; /* heap, in order of first rank */
	uint32_t nlisted;
	bool *listed; /* heap, nlisted: by rank, its drives are in entries */
};

/* The inventory of rec from each rank's first row that looked at its
 * drives (entries point into rec: keep it while inv is used).  0 or
 * -ENOMEM. */
int sc_inventory_of_run(const struct sc_run_record *rec, struct sc_inventory *inv);

/* Adds phase record pr of a run of nranks ranks to inv (zeroed, or built
 * by these calls from the run's earlier phases, in order): what sc_inventory_of_run
 * gives for the phases so far, the new phase costing its ranks alone.  0
 * or -ENOMEM. */
int sc_inventory_add(struct sc_inventory *inv, uint32_t nranks, const struct sc_phase_record *pr);

void sc_inventory_exit(struct sc_inventory *inv);

#endif
