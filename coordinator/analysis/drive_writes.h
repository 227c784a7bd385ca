/* drive_writes.h -- what a run wrote to each drive, gathered phase by
 * phase (drive_writes.c): the drive's identity, its SMART / health log
 * before the first phase it was in and after the latest, the bytes the
 * ranks wrote to it and the most rank rows of one phase on it.
 * model/endurance.h rates it.
 *
 * A drive is an NVMe namespace a rank's target lives on (struct sc_drive,
 * by node and device), or, for a row with no NVMe telemetry, the target
 * itself on its node.  A row of a dm or md target counts all its bytes on
 * each of its drives.  Everything is copied out of the phase records: a
 * phase's rank rows may be freed once it is added.
 */
#ifndef SC_ANALYSIS_DRIVE_WRITES_H
#define SC_ANALYSIS_DRIVE_WRITES_H

#include <stdbool.h>
#include <stdint.h>

#include "drive.h"
#include "drive_index.h"
#include "result.h"

struct sc_drive_writes_drive {
	uint32_t node;
	char host[SC_HOST_MAX]; /* its first row's */
	uint32_t target;	/* its first row's, index into plan.targets */
	uint32_t first_rank;	/* the lowest rank of its rows */
	bool nvme;		/* device, model, serial, capacity, logs known */
	char device[SC_DRIVE_NAME_MAX];
	char model[SC_DRIVE_MODEL_MAX];
	char serial[SC_DRIVE_SERIAL_MAX];
	uint64_t capacity_bytes;       /* the namespace's; 0 without NVMe */
	struct sc_drive_health before; /* its first row's, of the first phase
					* it was in; zeros without NVMe */
	struct sc_drive_health after;  /* its latest row's */
	uint64_t counted_bytes;	       /* written by its rows, saturated */
	uint32_t nranks;	       /* the most rows of one phase on it */
	uint32_t phase_rows;	       /* its rows in the phase of seq_added */
	uint32_t seq_added;	       /* 1 + nphases at the last add that met it */
};

struct sc_drive_writes {
	uint32_t nphases; /* phase records added */
	uint32_t n, cap;
	struct sc_drive_writes_drive *drives; /* heap, in order of first row */
	struct sc_drive_index index;	      /* into drives, room for cap */
};

/* No drive yet. */
void sc_drive_writes_init(struct sc_drive_writes *w);

/* Adds phase record pr's rank rows to w (sc_drive_writes_init, then these
 * calls for the run's earlier phases, in order).  A row no rank filled (a
 * phase that timed out: no drive, no reason, no bytes written) is passed
 * over.  Costs pr's rows alone (a row finds its drive by hash) and keeps
 * no pointer into pr.  0 or -ENOMEM (w then holds part of pr's rows: only
 * sc_drive_writes_exit is left to do). */
int sc_drive_writes_add(struct sc_drive_writes *w, const struct sc_phase_record *pr);

void sc_drive_writes_exit(struct sc_drive_writes *w);

#endif
