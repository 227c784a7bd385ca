/* telemetry.h -- which NVMe drives a target lives on, found through sysfs
 * (telemetry.c), their temperature from hwmon, and what the verdict asks
 * of a rank's drive telemetry.
 *
 * The walk: the target's device number (st_rdev for a block device,
 * st_dev otherwise) -> SYSFS/dev/block/MAJ:MIN -> the whole disk of a
 * partition -> the members of a dm or md device (slaves/) -> NVMe
 * namespaces, each with its controller (for a native multipath head
 * nvmeXnY, the first controller of its nvme-subsystem; for a hidden path
 * nvmeXcYnZ, controller nvmeY).  Only reads sysfs; no device is opened.
 */
#ifndef SC_TELEMETRY_H
#define SC_TELEMETRY_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "drive.h"
#include "result.h"

/* The default root of sysfs; tests pass a fake tree instead. */
#define SC_TELEMETRY_SYSFS "/sys"

/* What the walk found behind one target. */
struct sc_telemetry {
	uint32_t ndrives;			 /* 0: none, see none */
	struct sc_drive drives[SC_DRIVES_MAX];	 /* identity only (health
						  * fields zero) */
	char temp_path[SC_DRIVES_MAX][PATH_MAX]; /* each drive's hwmon
						  * temp1_input, "" when none */
	char none[SC_DRIVE_REASON_MAX];		 /* ndrives 0: "no NVMe
						  * telemetry: <why>" */
};

/* Finds the NVMe drives behind target path under the sysfs tree sysfs
 * (SC_TELEMETRY_SYSFS, or a fake tree).  Returns the number of drives
 * found (t->drives), or 0 with t->none saying why there are none (not
 * NVMe, no block device, a path that cannot be looked at): never an
 * error, the run goes on without telemetry. */
int sc_telemetry_probe(const char *sysfs, const char *path, struct sc_telemetry *t);

/* The walk itself from block device directory dev (resolved, under
 * SYSFS/devices): fn(arg, disk) for each whole disk at its bottom (the
 * disk of a partition, the members of dm and md devices, down a few
 * levels), disk a resolved directory. */
void sc_telemetry_walk_disks(const char *dev, void (*fn)(void *arg, const char *disk), void *arg);

/* The same from a block device number: what the walk does after stat.
 * what names the target in t->none. */
int sc_telemetry_probe_dev(const char *sysfs, dev_t dev, const char *what, struct sc_telemetry *t);

/* The hottest of t's drives now, from hwmon: millidegrees C +
 * SC_TEMP_MK_OFFSET (milli-kelvin, as struct sc_second keeps it), or 0
 * when no drive has a temperature that can be read. */
uint64_t sc_telemetry_temp_mk(const struct sc_telemetry *t);

/* For the verdict: the media errors a rank's drives added during its
 * phase (after - before, summed over its drives) in *added.  0 when
 * known; -ENODATA when the rank has no NVMe drive, or a drive's health
 * log was not read both before and after (then *added is 0). */
int sc_telemetry_media_errors(const struct sc_rank_result *r, uint64_t *added);

/* For messages: the rank's first drive ("nvme0n1", its model and serial),
 * or NULL when it has none. */
const struct sc_drive *sc_telemetry_identity(const struct sc_rank_result *r);

#endif
