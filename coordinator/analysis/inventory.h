/* inventory.h -- the drives of a run as results list them (inventory.c):
 * each NVMe drive once per node with the ranks that used it, and each
 * target without NVMe telemetry once per node with the reason.
 *
 * Built phase by phase; everything an entry shows is copied out of the
 * phase records (into text the inventory owns), so a phase's rank rows may
 * be freed once it is added. */
#ifndef SC_ANALYSIS_INVENTORY_H
#define SC_ANALYSIS_INVENTORY_H

#include <stdbool.h>
#include <stdint.h>

#include "drive_index.h"
#include "result.h"

/* An NVMe drive as the inventory lists it: its first row's identity. */
struct sc_inventory_drive {
	const char *device;	/* namespace block device: "nvme0n1" */
	const char *controller; /* "nvme0" */
	const char *model;
	const char *serial;
	const char *firmware;
	uint64_t capacity_bytes;
};

/* A drive (or target without NVMe) on a node.  host, drive and none (and
 * drive's strings) are copies in the inventory's text, kept until
 * sc_inventory_exit. */
struct sc_inventory_entry {
	uint32_t node;
	uint32_t target; /* its first rank's, index into plan.targets */
	uint32_t nranks;
	const char *host;			/* its first rank's */
	const struct sc_inventory_drive *drive; /* NULL: no NVMe, see none */
	const char *none;			/* "no NVMe telemetry: ...", or NULL */
	uint32_t *ranks;			/* heap, in the order listed: by phase, then rank */
};

struct sc_inventory {
	uint32_t n, cap;
	struct sc_inventory_entry *entries; /* heap, in order of first rank */
	struct sc_drive_index index;	    /* into entries, room for cap */
	struct sc_inventory_text *text;	    /* heap: the entries' strings and drives */
	uint32_t nlisted;
	bool *listed; /* heap, nlisted: by rank, its drives are in entries */
};

/* The inventory of rec from each rank's first row that looked at its
 * drives.  0 or -ENOMEM. */
int sc_inventory_of_run(const struct sc_run_record *rec, struct sc_inventory *inv);

/* Adds phase record pr of a run of nranks ranks to inv (zeroed, or built
 * by these calls from the run's earlier phases, in order): what sc_inventory_of_run
 * gives for the phases so far, the new phase costing its ranks alone (a
 * row finds its entry by hash).  Keeps no pointer into pr.  0 or -ENOMEM
 * (inv then holds part of pr's rows: only sc_inventory_exit is left to
 * do). */
int sc_inventory_add(struct sc_inventory *inv, uint32_t nranks, const struct sc_phase_record *pr);

void sc_inventory_exit(struct sc_inventory *inv);

#endif
