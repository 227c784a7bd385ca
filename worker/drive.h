/* drive.h -- what a rank knows of the NVMe drives behind its target:
 * identity (telemetry.c, from sysfs) and the SMART / health log before and
 * after a phase (nvme_health.c).  Plain data carried in struct
 * sc_rank_result (result.h) and RankResult (ssdcluster.proto).
 */
#ifndef SC_DRIVE_H
#define SC_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#define SC_DRIVE_NAME_MAX     32  /* "nvme0n1", "nvme0": a sysfs entry's name */
#define SC_DRIVE_MODEL_MAX    48  /* NVMe: 40 characters, blanks trimmed */
#define SC_DRIVE_SERIAL_MAX   24  /* NVMe: 20 */
#define SC_DRIVE_FIRMWARE_MAX 16  /* NVMe: 8 */
#define SC_DRIVE_REASON_MAX   200 /* why something is not known */
/* Most NVMe drives recorded behind one target (dm or md over several). */
#define SC_DRIVES_MAX 16u

/* An NVMe data unit: 1000 units of 512 bytes (NVMe base spec, SMART log). */
#define SC_NVME_DATA_UNIT_BYTES UINT64_C(512000)

/* The SMART / health log page (log id 2) as decoded (nvme_health.h).
 * valid false: the log could not be read, reason says why (never zeros
 * passed off as a reading); every other field is then 0. */
struct sc_drive_health {
	bool valid;
	char reason[SC_DRIVE_REASON_MAX];
	int32_t temperature_c;	     /* composite temperature, Kelvin - 273 */
	uint64_t data_units_read;    /* units of 512,000 bytes; saturated at
				      * UINT64_MAX (the page's field is 128 bits) */
	uint64_t data_units_written; /* the same */
	uint64_t media_errors;	     /* unrecovered data integrity errors, saturated */
	uint64_t power_on_hours;     /* saturated */
	uint32_t critical_warning;   /* bit field, 0 = none */
	uint32_t percentage_used;    /* of the rated life, may exceed 100 */
	uint32_t available_spare;    /* percent */
	uint32_t spare_threshold;    /* percent: available spare below it warns */
};

/* One NVMe namespace behind a target and its controller. */
struct sc_drive {
	char device[SC_DRIVE_NAME_MAX];	    /* namespace block device: "nvme0n1" */
	char controller[SC_DRIVE_NAME_MAX]; /* its controller: "nvme0" */
	char model[SC_DRIVE_MODEL_MAX];
	char serial[SC_DRIVE_SERIAL_MAX];
	char firmware[SC_DRIVE_FIRMWARE_MAX];
	uint64_t capacity_bytes;       /* the namespace's size */
	struct sc_drive_health before; /* health log at the phase's start */
	struct sc_drive_health after;  /* and at its end */
};

#endif
