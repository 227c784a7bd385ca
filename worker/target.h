/* target.h -- what a target path is: kind, size, alignment, free space. */
#ifndef SC_TARGET_H
#define SC_TARGET_H

#include <stdint.h>

#include "plan.h"

struct sc_target_info {
	enum sc_target_kind kind;
	uint64_t size_bytes;    /* file or device size; dir: filesystem size */
	uint64_t avail_bytes;   /* dir: free space for us; else size_bytes */
	uint32_t align_bytes;   /* O_DIRECT offset/length alignment (logical
				 * block size), at least 512 */
	int mounted;            /* block: 1 if it or a partition is mounted */
	char mounted_on[256];	/* then one mount point of it */
};

/* Looks at path without changing anything.  0, or -errno (-ENOENT when it
 * does not exist, -EINVAL when it is neither a directory, a regular file
 * nor a block device). */
int sc_target_probe(const char *path, struct sc_target_info *info);

#endif
