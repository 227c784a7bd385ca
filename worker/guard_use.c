/* guard_use.c -- whether a block device or file is in use: its stack
 * (blkstack.h) against the mounts of every mount namespace, swap and the
 * root filesystem, and what is built over its bytes. */
#include "guard.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkstack.h"

/* Partitions a device may have that we name in messages; one more than
 * this is still refused as "has partitions". */
#define MAX_PARTS 256

/* Bytes at the start of a partitioned disk that its table may use (GPT:
 * the protective MBR, the header and 128 entries of 128 bytes). */
#define GPT_BYTES (34u * 512u)

/* ---- sysfs and procfs ---- */

/* A device and its partitions, as sysfs lists them. */
struct devset {
	uint32_t n;          /* entries in dev[]; dev[0] is the device */
	bool more;           /* more partitions than fit */
	dev_t dev[MAX_PARTS + 1];
	char name[MAX_PARTS + 1][64];
};

/* Reads "MAJ:MIN" from file; 0 or -errno. */
static int read_devno(const char *file, dev_t *out)
{
	FILE *f = fopen(file, "re");
	unsigned ma, mi;
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

/* Fills s with rdev and the partitions under its sysfs directory.  0 or
 * -errno (sysfs not readable: nothing can be said about the device). */
static int devset_read(const char *root, dev_t rdev, const char *path, struct devset *s)
{
	char dir[512], file[1024];
	struct dirent *e;
	DIR *d;
	const char *base = strrchr(path, '/');

	s->n = 1;
	s->more = false;
	s->dev[0] = rdev;
	snprintf(s->name[0], sizeof(s->name[0]), "%s", base ? base + 1 : path);
	if (!sc_blkstack_rooted(dir, sizeof(dir), root, "/sys/dev/block/%u:%u", major(rdev),
				minor(rdev)))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		dev_t pd = 0;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(s->name[0]))
			continue;
		snprintf(file, sizeof(file), "%s/%s/partition", dir, e->d_name);
		if (access(file, F_OK) != 0)
			continue;
		snprintf(file, sizeof(file), "%s/%s/dev", dir, e->d_name);
		if (read_devno(file, &pd) != 0)
			continue;
		if (s->n > MAX_PARTS) {
			s->more = true;
			continue;
		}
		s->dev[s->n] = pd;
		memcpy(s->name[s->n], e->d_name, strlen(e->d_name) + 1); /* length checked above */
		s->n++;
	}
	closedir(d);
	return 0;
}

/* The index in s of dev, or -1. */
static int devset_find(const struct devset *s, dev_t dev)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->dev[i] == dev)
			return (int)i;
	return -1;
}

/* Undoes the octal escapes (\040 for a space) of /proc mount and swap
 * fields, in place. */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* The index in s of the block device a path names, or -1. */
static int devset_find_path(const struct devset *s, const char *path)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) != 0 || !S_ISBLK(st.st_mode))
		return -1;
	return devset_find(s, st.st_rdev);
}

/* Reads root + rel line by line, calling match(line, s, ctx) until it
 * gives an index of s.  1 with that index in *idx, 0 when no line
 * matched, -errno when the file cannot be read (then nothing is known). */
static int scan_lines(const char *root, const char *rel, const struct devset *s,
		      int (*match)(char *line, const struct devset *s, void *ctx), void *ctx,
		      int *idx)
{
	char file[512], *line = NULL;
	size_t cap = 0;
	FILE *f;

	*idx = -1;
	if (!sc_blkstack_rooted(file, sizeof(file), root, "%s", rel))
		return -ENAMETOOLONG;
	f = fopen(file, "re");
	if (!f)
		return -errno;
	while (*idx < 0 && getline(&line, &cap, f) > 0)
		*idx = match(line, s, ctx);
	free(line);
	fclose(f);
	return *idx >= 0;
}

struct where {
	char *buf;
	size_t len;
};

/* A /proc/self/mountinfo line of a device in s (by its device number or
 * by its source: btrfs and others show an anonymous number): its index,
 * the mount point in ctx (a struct where); else -1. */
static int mount_line(char *line, const struct devset *s, void *ctx)
{
	/* id parent MAJ:MIN root mountpoint options... - fstype source opts */
	struct where *w = ctx;
	unsigned ma, mi;
	char mnt[4096], src[4096];
	const char *sep = strstr(line, " - ");
	int i;

	if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mnt) != 3)
		return -1;
	i = devset_find(s, makedev(ma, mi));
	if (i < 0 && sep && sscanf(sep + 3, "%*s %4095s", src) == 1) {
		unescape(src);
		i = devset_find_path(s, src);
	}
	if (i >= 0) {
		unescape(mnt);
		snprintf(w->buf, w->len, "%s", mnt);
	}
	return i;
}

/* A /proc/swaps line of a device in s: its index, else -1. */
static int swap_line(char *line, const struct devset *s, void *ctx)
{
	char name[4096];

	(void)ctx;
	if (sscanf(line, "%4095s", name) != 1 || strcmp(name, "Filename") == 0)
		return -1;
	unescape(name);
	return devset_find_path(s, name);
}

int sc_guard_mounted(const char *root, dev_t rdev, char *where, size_t len)
{
	struct devset *s = malloc(sizeof(*s));
	struct where w = {where, len};
	int i, rc;

	if (!s)
		return -ENOMEM;
	if (devset_read(root, rdev, "", s) != 0)
		s->n = 1; /* no sysfs: the device itself at least */
	rc = scan_lines(root, "/proc/self/mountinfo", s, mount_line, &w, &i);
	free(s);
	return rc;
}

/* Mount namespaces whose mountinfo one look reads at the most (each is
 * read once, through the first process found in it). */
#define MOUNT_NS_MAX 4096

/* Like scan_lines over /proc/self/mountinfo, then over the mountinfo of
 * every other mount namespace a process of /proc is in (a mount made in a
 * container or by unshare -m is not in ours).  Where a mount in another
 * namespace was found, w says which process's.  1 with *idx, 0, or
 * -errno when our own mountinfo cannot be read. */
static int scan_mounts(const char *root, const struct devset *s, struct where *w, int *idx)
{
	char dir[512], rel[600], (*seen)[64] = NULL;
	uint32_t nseen = 0;
	struct dirent *e;
	DIR *d;
	int rc = scan_lines(root, "/proc/self/mountinfo", s, mount_line, w, idx);

	if (rc || !sc_blkstack_rooted(dir, sizeof(dir), root, "/proc") || !(d = opendir(dir)))
		return rc;
	seen = calloc(MOUNT_NS_MAX, sizeof(*seen));
	if (seen && sc_blkstack_rooted(rel, sizeof(rel), root, "/proc/self/ns/mnt") &&
	    readlink(rel, seen[0], sizeof(seen[0]) - 1) > 0)
		nseen = 1;
	while (rc == 0 && seen && (e = readdir(d)) != NULL) {
		char ns[64] = "", link[1024];
		uint32_t k;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    strspn(e->d_name, "0123456789") != strlen(e->d_name))
			continue;
		snprintf(link, sizeof(link), "%s/%s/ns/mnt", dir, e->d_name);
		if (readlink(link, ns, sizeof(ns) - 1) <= 0)
			continue; /* gone, or a kernel thread */
		for (k = 0; k < nseen && strcmp(seen[k], ns) != 0; k++)
			;
		if (k < nseen || nseen == MOUNT_NS_MAX)
			continue;
		memcpy(seen[nseen++], ns, sizeof(ns));
		snprintf(rel, sizeof(rel), "/proc/%.20s/mountinfo", e->d_name);
		if (scan_lines(root, rel, s, mount_line, w, idx) == 1) {
			size_t used = strlen(w->buf);

			snprintf(w->buf + used, w->len - used,
				 " in another mount namespace (that of process %s)", e->d_name);
			rc = 1;
		}
	}
	closedir(d);
	free(seen);
	return rc;
}

/* A /proc/swaps line of a file in the stack (ctx): its stack index, else -1. */
static int swap_file_line(char *line, const struct devset *s, void *ctx)
{
	const struct sc_blkstack *st = ctx;
	char name[4096];
	struct stat fst;

	(void)s;
	if (sscanf(line, "%4095s", name) != 1 || strcmp(name, "Filename") == 0)
		return -1;
	unescape(name);
	if (stat(name, &fst) != 0 || !S_ISREG(fst.st_mode))
		return -1;
	for (uint32_t i = 0; i < st->n; i++)
		if (st->obj[i].file && st->obj[i].dev == fst.st_dev && st->obj[i].ino == fst.st_ino)
			return (int)i;
	return -1;
}

/* The block devices of stack st as a devset (for the mount and swap
 * scans); map[k] is the stack index of s->dev[k]. */
static void stack_devset(const struct sc_blkstack *st, struct devset *s, uint32_t *map)
{
	s->n = 0;
	s->more = false;
	for (uint32_t i = 0; i < st->n && s->n <= MAX_PARTS; i++) {
		if (st->obj[i].file)
			continue;
		map[s->n] = i;
		s->dev[s->n] = st->obj[i].rdev;
		snprintf(s->name[s->n], sizeof(s->name[0]), "%s", st->obj[i].name);
		s->n++;
	}
}

/* Index of the first object of st that is built over the target's bytes
 * (a partition, loop, dm or md device), or -1; the target's own partitions
 * come last: what is built on them says more. */
static int first_up(const struct sc_blkstack *st)
{
	int part = -1;

	for (uint32_t i = 1; i < st->n; i++) {
		if (!st->obj[i].up)
			continue;
		if (st->obj[i].rel != SC_BLKSTACK_PARTITION || st->obj[i].from != 0)
			return (int)i;
		if (part < 0)
			part = (int)i;
	}
	return part;
}

/* Index of a disk under the target whose partition table the target's
 * bytes reach (a partition that starts at the table), or -1. */
static int table_reached(const struct sc_blkstack *st)
{
	for (uint32_t i = 1; i < st->n; i++) {
		const struct sc_blkstack_obj *o = &st->obj[i];

		if (!o->up && !o->file && o->whole_partitioned &&
		    (o->start_bytes < o->table_end_bytes || o->start_bytes < GPT_BYTES))
			return (int)i;
	}
	return -1;
}

/* What to do about an object built over the target's bytes. */
static const char *undo_hint(const struct sc_blkstack_obj *o)
{
	switch (o->rel) {
	case SC_BLKSTACK_LOOP:
		return "detach it first (losetup -d)";
	case SC_BLKSTACK_HOLDER:
		return "remove that first (dmsetup remove, mdadm --stop, vgchange -an)";
	default:
		return "name a partition that no other overlaps, or fix the partition table";
	}
}

/* The verdict on stack st once nothing in it is mounted, swap or the root
 * filesystem: 0 or -EBUSY with why. */
static int stack_verdict(const struct sc_blkstack *st, char *why, size_t len)
{
	char what[1024];
	int i = first_up(st);

	if (i > 0 && st->obj[i].rel == SC_BLKSTACK_PARTITION && st->obj[i].from == 0) {
		uint32_t nparts = 0;

		for (uint32_t k = 1; k < st->n; k++)
			nparts += st->obj[k].rel == SC_BLKSTACK_PARTITION && st->obj[k].from == 0;
		snprintf(why, len,
			 "it has partitions (%s%s): name a partition as the target, or "
			 "remove the partition table first (wipefs, then partx -d)",
			 st->obj[i].name, nparts > 1 ? ", ..." : "");
		return -EBUSY;
	}
	if (i > 0) {
		snprintf(why, len, "%s is built on its bytes, which a run would corrupt: %s",
			 sc_blkstack_describe(st, (uint32_t)i, what, sizeof(what)),
			 undo_hint(&st->obj[i]));
		return -EBUSY;
	}
	i = table_reached(st);
	if (i > 0) {
		snprintf(why, len,
			 "its bytes include the partition table of %s (they start at byte %" PRIu64
			 " of it; its first partition starts at %" PRIu64 ")",
			 sc_blkstack_describe(st, (uint32_t)i, what, sizeof(what)),
			 st->obj[i].start_bytes, st->obj[i].table_end_bytes);
		return -EBUSY;
	}
	return 0;
}

/* sc_guard_device_in_use for the block device or file st describes. */
static int stack_in_use(const char *root, const struct stat *target, char *why, size_t len)
{
	struct sc_blkstack *st = malloc(sizeof(*st));
	struct devset *s = malloc(sizeof(*s));
	uint32_t map[MAX_PARTS + 1];
	char what[1024], other[4096] = "";
	struct where w = {other, sizeof(other)};
	struct stat rst;
	int i = -1, mounted, swap = 0, rc = -ENOMEM;

	if (!st || !s)
		goto out;
	rc = sc_blkstack_read(root, target, st, what, sizeof(what));
	if (rc) {
		snprintf(why, len, "cannot see what shares its bytes: %s", what);
		goto out;
	}
	stack_devset(st, s, map);
	mounted = scan_mounts(root, s, &w, &i);
	if (mounted == 0)
		swap = scan_lines(root, "/proc/swaps", s, swap_line, NULL, &i);
	if (mounted == 0 && swap == 0) {
		swap = scan_lines(root, "/proc/swaps", s, swap_file_line, st, &i);
		if (swap == 1)
			i = -1 - i; /* a stack index, not a devset one */
	}
	rc = -EBUSY;
	if (mounted < 0 || swap < 0) {
		rc = mounted < 0 ? mounted : swap;
		snprintf(why, len, "cannot read /proc/%s to see who uses it (%s)",
			 mounted < 0 ? "self/mountinfo" : "swaps", strerror(-rc));
	} else if (mounted) {
		snprintf(why, len, "%s is mounted on %s (unmount it first)",
			 sc_blkstack_describe(st, map[i], what, sizeof(what)), other);
	} else if (swap) {
		snprintf(why, len, "%s is active swap (swapoff it first)",
			 sc_blkstack_describe(st, i < 0 ? (uint32_t)(-1 - i) : map[i], what,
					      sizeof(what)));
	} else if (stat(root[0] ? root : "/", &rst) == 0 && (i = devset_find(s, rst.st_dev)) >= 0) {
		snprintf(why, len, "%s holds the root filesystem",
			 sc_blkstack_describe(st, map[i], what, sizeof(what)));
	} else {
		rc = stack_verdict(st, why, len);
	}
out:
	free(s);
	free(st);
	return rc;
}

int sc_guard_device_in_use(const char *root, dev_t rdev, const char *path, char *why, size_t len)
{
	struct stat st = {.st_mode = S_IFBLK, .st_rdev = rdev};

	(void)path;
	return stack_in_use(root, &st, why, len);
}

int sc_guard_file_in_use(const char *root, const struct stat *st, char *why, size_t len)
{
	return stack_in_use(root, st, why, len);
}
