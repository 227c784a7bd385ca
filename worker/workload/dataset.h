/* dataset.h -- the datasets that reading workloads (ingest, training) lay
 * out once below a directory target and reuse across runs: the directory,
 * one file written in full, and (for the coordinator's space checks) the
 * room a plan's datasets already take. */
#ifndef SC_DATASET_H
#define SC_DATASET_H

#include <stddef.h>
#include <stdint.h>

/* The dataset directory target/sub, made when missing (the target too,
 * when its parent exists).  The target is the user's path: a symlink there
 * is their choice; below it nothing is followed.  A descriptor or -errno. */
int sc_dataset_open_dir(const char *target, const char *sub);

/* Writes file `name` of the directory dirfd (path: the same, for
 * messages) in full: bytes of buf's pattern (buf holds LAYOUT_CHUNK bytes),
 * every 4 KiB stamped with (key, offset) so that no two blocks of the
 * dataset are alike, then fsync, and drops it from the page cache.  An
 * existing file is rewritten only when it is a regular file of this user's,
 * never through a symlink.  0 or -errno, with err set. */
int sc_dataset_write(int dirfd, const char *name, const char *path, uint64_t key, uint64_t bytes,
		     char *buf, char *err, size_t errlen);

struct sc_plan;

/* Bytes the files already in the dataset directories of plan's ingest and
 * training phases take below target (allocated blocks of their regular
 * files; each directory once): room the run reuses, since a file of the
 * right size is kept and one of another is truncated before it is
 * written.  0 when there are none or they cannot be read. */
uint64_t sc_dataset_present_bytes(const struct sc_plan *plan, uint32_t target);

#endif
