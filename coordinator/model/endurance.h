/* endurance.h -- the drive writes a run consumed, per drive, against the
 * drive's rated endurance (endurance.c).
 *
 * A drive is an NVMe namespace a rank's target lives on (struct sc_drive,
 * by node and device), or, for a target with no NVMe telemetry, the target
 * itself on its node.  Its writes are the SMART data units written (x
 * 512,000 bytes) after the last phase it was in minus before the first,
 * when both logs were read; else the bytes the run's ranks wrote to that
 * target (counted; all of a target's bytes for each drive of a dm or md
 * target).  The rating: dwpd and warranty from the config's model:
 * section (defaults 1 and 5 years), capacity its drive_capacity when
 * given, else the drive's own (else unknown).  Rated lifetime writes =
 * dwpd x 365 x warranty years x capacity.
 */
#ifndef SC_MODEL_ENDURANCE_H
#define SC_MODEL_ENDURANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/drive_writes.h"
#include "drive.h"
#include "result.h"

/* Days a rated year counts, as the DWPD rating does. */
#define SC_ENDURANCE_DAYS_PER_YEAR 365.0

/* Where a drive's written bytes come from. */
enum sc_endurance_source {
	SC_ENDURANCE_SMART = 0, /* data units written, after - before */
	SC_ENDURANCE_COUNTED,	/* bytes the run wrote to the target */
};

struct sc_endurance_drive {
	uint32_t node;
	char host[SC_HOST_MAX];
	uint32_t target;     /* index into plan.targets */
	uint32_t first_rank; /* the lowest rank on it */
	uint32_t nranks;     /* ranks that wrote through it */
	bool nvme;	     /* device, model, serial known */
	char device[SC_DRIVE_NAME_MAX];
	char model[SC_DRIVE_MODEL_MAX];
	char serial[SC_DRIVE_SERIAL_MAX];
	enum sc_endurance_source source;
	uint64_t written_bytes;	 /* consumed by the run */
	uint64_t counted_bytes;	 /* what the ranks wrote (always) */
	uint64_t capacity_bytes; /* 0: unknown */
	bool capacity_from_config;
	double drive_writes;	  /* written / capacity; NAN unknown */
	double rated_bytes;	  /* lifetime writes; NAN unknown */
	double life_used_pct;	  /* written / rated x 100; NAN unknown */
	bool pct_known;		  /* SMART percentage used read */
	uint32_t pct_used_before; /* before the first phase, % */
	uint32_t pct_used_after;  /* after the last, % */
};

struct sc_endurance {
	double dwpd;
	double warranty_years;
	bool rating_from_config; /* dwpd or warranty given */
	uint32_t ndrives;
	struct sc_endurance_drive *drives; /* heap, by node then first rank */
};

/* The endurance of every drive of w (drive_writes.h: what a run of plan
 * wrote, phase by phase), rated by plan's model: section.  0, -ENOMEM, or
 * -EINVAL when the model: section cannot be read (why in err); out is
 * left empty on an error, to be freed with sc_endurance_exit either way. */
int sc_endurance_of_writes(const struct sc_drive_writes *w, const struct sc_plan *plan,
			   struct sc_endurance *out, char *err, size_t errlen);

/* sc_endurance_of_writes of rec's phases, all added at once. */
int sc_endurance_of_run(const struct sc_run_record *rec, struct sc_endurance *out, char *err,
			size_t errlen);

void sc_endurance_exit(struct sc_endurance *e);

#endif
