/* guard.h -- whether a target may be written: the destroy guard.
 *
 * A phase that writes runs on an existing regular file or a block device
 * only when the target says allow_destroy: true and the command line says
 * --allow-destroy.  A block device is refused even then when it is in use
 * (anything in its stack of partitions, loop devices, dm and md devices,
 * under it or over its bytes, mounted, swap or the root filesystem; has
 * partitions; anything built over its bytes), or when it carries a filesystem,
 * RAID, LVM or partition-table signature and the target does not also say
 * wipe_signatures_ok: true.  Reading needs no opt-in.  Directory targets are
 * not this module's business (the run creates its own files in them).
 *
 * Every rank checks its own target on its own host before any I/O, and a
 * job checks the file it opened for writing against what was approved
 * here, so a path that changed in between is refused too.
 */
#ifndef SC_GUARD_H
#define SC_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "plan.h"

/* True when phase ph writes to its target: an io phase whose rw writes
 * (not verify_only, not the null engine), a checkpoint cell that is not a
 * restore, and an ingest or training phase (it lays out its dataset). */
bool sc_guard_phase_writes(const struct sc_phase *ph);

/* The index of the first phase of plan that writes, or -1 when none does. */
int sc_guard_first_writer(const struct sc_plan *plan);

/* The destroy guard for target `target` of plan, on this host, as it is
 * now.  A path that does not exist or is a directory passes (the run makes
 * its own files there); so does a file or device that no phase writes.
 * Otherwise both opt-ins are needed, and a block device must not be in use
 * nor (without wipe_signatures_ok) carry a signature.  On success the file
 * or device is recorded as approved for sc_guard_check_fd.
 *
 * claim: when non-NULL and the target is a block device that a phase
 * writes, the device is also opened O_EXCL -- so that nothing can mount or
 * claim it until that descriptor is closed -- and *claim gets the
 * descriptor (the caller closes it when the run ends); else *claim = -1.
 * Linux lets one opener at a time hold a device O_EXCL, even within one
 * process, so only one rank per host and device may ask for the claim.
 *
 * 0; -EPERM when an opt-in is missing or a signature was found; -EBUSY when
 * the device is in use or already claimed; another -errno when it cannot
 * be examined.  why gets a message naming the target, its path, the reason
 * and what to do. */
int sc_guard_check(const struct sc_plan *plan, uint32_t target, int *claim, char *why,
		   size_t len);

/* The last check before a job writes through fd, opened from `path` of a
 * target of kind `kind`: a block device must be one sc_guard_check approved
 * in this process, the file of a file target the very file it approved,
 * and a file in a directory target a regular file with no other name (one
 * hard link) and nothing mounted over it.  A descriptor not open for writing passes.  0, or -EPERM with
 * a message naming path. */
int sc_guard_check_fd(int fd, enum sc_target_kind kind, const char *path, char *why, size_t len);

/* Whether block device rdev (opened as path, for messages) is in use,
 * decided on its whole stack (blkstack.h), both directions: nothing under
 * it (a partition's disk, a loop device's backing file or device, a dm or
 * md device's members) and nothing built over its bytes (partitions that
 * overlap them, loop devices backed by them, holders) may be mounted, in
 * this or any other mount namespace a process is in, be active swap (a
 * device or a file) or hold the root filesystem; anything built over its
 * bytes is in use even unmounted (the target's own partitions: "it has
 * partitions"); and a partition may not reach into its disk's partition
 * table.  /proc and /sys are read under root ("" for the real ones; tests
 * give a fake tree).  0 when free; -EBUSY with the reason (the chain from
 * the target to what is in use) in why; another -errno, also with a
 * message, when sysfs or procfs cannot be read or a loop device's backing
 * cannot be identified (nothing is known then). */
int sc_guard_device_in_use(const char *root, dev_t rdev, const char *path, char *why, size_t len);

/* sc_guard_device_in_use for regular file st (a file target): in use when
 * anything is built over its bytes (a loop device backed by it, mounted or
 * not, and what is over that) or it is active swap.  Same returns. */
int sc_guard_file_in_use(const char *root, const struct stat *st, char *why, size_t len);

/* 1 when block device rdev or one of its partitions is mounted (the
 * mount point in where), 0 when not, -errno when /proc/self/mountinfo
 * cannot be read.  root as for sc_guard_device_in_use. */
int sc_guard_mounted(const char *root, dev_t rdev, char *where, size_t len);

/* The signatures libblkid finds on the device or image open as fd
 * (filesystems, RAID and LVM members, partition tables), read-only.
 * 0 when there is none; 1 with a list such as "ext4 (filesystem)" in
 * found; -errno when it cannot be read. */
int sc_guard_signatures(int fd, char *found, size_t len);

#endif
