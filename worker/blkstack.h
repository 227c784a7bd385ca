/* blkstack.h -- which block devices and files share the bytes of a block
 * device: the stack of partitions, loop devices, device-mapper and md
 * around it, in both directions.
 *
 * Writing a block device writes what lies under it (a partition's disk, a
 * loop device's backing file or device, a dm or md device's members) and
 * changes what is built over those bytes (partitions that overlap them,
 * loop devices backed by them, dm and md devices that hold them).  The
 * destroy guard (guard.h) asks this module for that whole stack and
 * refuses a target when anything in it is in use.
 *
 * Everything is read from sysfs under a root ("" for the real one; tests
 * give a fake tree): /sys/class/block/NAME with dev, size, partition and
 * start (partitions, whose parent is the directory above), loop/
 * (backing_file, offset), holders/ and slaves/.  A loop device's backing
 * file is identified by the LOOP_GET_STATUS64 ioctl on /dev/NAME when the
 * root is the real one and that node is the loop device, else by stat of
 * loop/backing_file.
 */
#ifndef SC_BLKSTACK_H
#define SC_BLKSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Objects one stack holds at the most; a larger stack is an error. */
#define SC_BLKSTACK_MAX 256u
/* Bytes of a name or path kept for messages. */
#define SC_BLKSTACK_NAME_MAX 256u

/* How an object of the stack was reached from the one before it. */
enum sc_blkstack_rel {
	SC_BLKSTACK_TARGET = 0, /* the target itself */
	SC_BLKSTACK_DISK,	/* the disk a partition is on (down) */
	SC_BLKSTACK_BACKING,	/* a loop device's backing file or device (down) */
	SC_BLKSTACK_MEMBER,	/* a member of a dm or md device (down) */
	SC_BLKSTACK_PARTITION,	/* a partition overlapping those bytes (up) */
	SC_BLKSTACK_LOOP,	/* a loop device backed by those bytes (up) */
	SC_BLKSTACK_HOLDER,	/* a dm or md device holding it (up) */
};

/* One object whose bytes [start, end) are the target's, or lie under them. */
struct sc_blkstack_obj {
	bool file;  /* a regular file (a loop's backing), else a block device */
	dev_t rdev; /* block device: its number */
	dev_t dev;  /* file: its filesystem and inode */
	ino_t ino;
	uint64_t start_bytes;	  /* the bytes of it that the target shares */
	uint64_t end_bytes;	  /* UINT64_MAX: unknown, taken as all of it */
	uint64_t size_bytes;	  /* block device: its size; 0 unknown */
	bool up;		  /* built over the target's bytes: another user of them */
	bool whole_partitioned;	  /* a whole disk with partitions (block only) */
	uint64_t table_end_bytes; /* such a disk: where its first partition starts */
	enum sc_blkstack_rel rel;
	int from;			 /* index of the object it was reached from, -1 */
	char name[SC_BLKSTACK_NAME_MAX]; /* loop3, nvme0n1p2, or a file's path */
};

/* The stack of a target (caller-owned; heap it: it is large). */
struct sc_blkstack {
	uint32_t n;
	struct sc_blkstack_obj obj[SC_BLKSTACK_MAX]; /* obj[0] is the target */
};

/* Fills s with the block device or regular file st describes (obj[0]:
 * all of it) and every device and file that shares its bytes, as sysfs
 * under root says now (a file's stack is what is built over it: loop
 * devices backed by it, and so on up).  0; -ENOENT when a block device is
 * not in sysfs; -EINVAL when st is neither; -E2BIG when the stack holds
 * more than SC_BLKSTACK_MAX objects; -EIO when a loop device's backing
 * cannot be identified; another -errno when sysfs cannot be read.  why
 * says what, on every error. */
int sc_blkstack_read(const char *root, const struct stat *st, struct sc_blkstack *s, char *why,
		     size_t len);

/* "loop5, a loop device over loop3 (bytes 1048576..9437184 of it)": how
 * object i is reached from the target, for messages. */
const char *sc_blkstack_describe(const struct sc_blkstack *s, uint32_t i, char *buf, size_t len);

/* Formats root + fmt into buf (a path under a sysfs or procfs root);
 * false when it does not fit. */
bool sc_blkstack_rooted(char *buf, size_t len, const char *root, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
