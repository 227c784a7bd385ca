/* placement.h -- where a rank's job threads run: a CPU list in the
 * kernel's cpulist syntax, and the NUMA node of the drive a target lives
 * on, read from sysfs.
 *
 * A phase's cpus: pins every job thread of the rank to the listed CPUs as
 * one set (the scheduler moves each thread within it); numa: drive narrows
 * that set (or the rank's allowed CPUs) to the CPUs of the drive's node and
 * binds the job buffers' memory there (mbind(2), no library).  What a rank
 * cannot do is reported as unavailable through io_opts.h, never a failure:
 * its threads then run where the rest of the request allows, or anywhere.
 *
 * The drive's node: the target's device number (st_rdev of a block device,
 * st_dev of the filesystem otherwise) -> SYSFS/dev/block/MAJ:MIN -> the
 * whole disk of a partition -> the members of a dm or md device (slaves/)
 * -> for each disk, the numa_node of the nearest device above it (the
 * NVMe controller or PCI function).  Members on different nodes, a node
 * of -1 (virtio, most VMs) or no numa_node at all (loop, a multipath head)
 * leave it unknown.  Only reads sysfs.
 */
#ifndef SC_PLACEMENT_H
#define SC_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "io_opts.h"
#include "plan.h"

/* The default root of sysfs; tests pass a fake tree instead. */
#define SC_PLACEMENT_SYSFS "/sys"

/* Where a phase's job threads run on this rank. */
struct sc_placement {
	bool pin;	/* pin every job thread to cpus */
	cpu_set_t cpus; /* pin: the set, never empty */
	int mem_node;	/* >= 0: job buffers bound to this node; -1: not */
};

/* Parses s, a cpulist ("0-3,8": CPUs and ranges a-b with a <= b, joined
 * by commas, no blanks), into set.  0; -EINVAL for bad syntax, an empty
 * list or a CPU listed twice (overlapping ranges too); -ERANGE for a CPU
 * at or above CPU_SETSIZE.  The reason, for a message, in err. */
int sc_placement_parse_cpulist(const char *s, cpu_set_t *set, char *err, size_t errlen);

/* set as a cpulist ("0-3,8"; "none" when empty) in buf.  Returns buf. */
const char *sc_placement_format(const cpu_set_t *set, char *buf, size_t len);

/* The NUMA node of the drive(s) behind block device dev under the sysfs
 * tree sysfs: >= 0, or -1 with why it is unknown in why ("vda has no
 * NUMA node (numa_node -1)"). */
int sc_placement_dev_node(const char *sysfs, dev_t dev, char *why, size_t len);

/* The same for target path (a block device, or a file or directory on a
 * filesystem). */
int sc_placement_path_node(const char *sysfs, const char *path, char *why, size_t len);

/* The CPUs of NUMA node `node` (SYSFS/devices/system/node/nodeN/cpulist)
 * into set, and the number of nodes the machine has in *nnodes.  0, or
 * -errno with why in why (no such node, a node without CPUs). */
int sc_placement_node_cpus(const char *sysfs, int node, cpu_set_t *set, int *nnodes, char *why,
			   size_t len);

/* Decides pl for the phase io on this rank: its target at target_path,
 * its allowed CPUs allowed (sched_getaffinity).  Marks cpus and numa as
 * asked in opts when io asks for them, and unavailable, with why, where
 * this rank cannot place its threads as asked: CPUs of the list that are
 * not among allowed are left out (the rest are used); none left, a drive
 * without a node, a machine of one node or a node without any of the
 * CPUs leave the threads unpinned (or on cpus alone). */
void sc_placement_decide(const char *sysfs, const struct sc_io_spec *io, const char *target_path,
			 const cpu_set_t *allowed, struct sc_placement *pl,
			 struct sc_io_opts *opts);

/* Pins the calling thread to pl->cpus when pl->pin.  0 or -errno. */
int sc_placement_pin(const struct sc_placement *pl);

/* Binds the memory of [addr, addr + len) (addr page-aligned) to
 * pl->mem_node, moving pages already there; nothing when mem_node < 0.
 * 0 or -errno. */
int sc_placement_bind(const struct sc_placement *pl, void *addr, size_t len);

#endif
