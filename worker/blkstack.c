/* blkstack.c -- the stack of partitions, loop devices, dm and md around a
 * block device, read from sysfs, in both directions. */
#include "blkstack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* sysfs counts sizes and starts in 512-byte sectors, whatever the device. */
#define SECTOR_BYTES 512u
/* Block devices one host may have that we read (each a few hundred bytes). */
#define BDEVS_MAX 65536u
/* Holders or members of one device we follow; more is an error. */
#define LINKS_MAX 64u
/* How deep a description of a chain goes before it says "...". */
#define DESCRIBE_DEPTH 6
/* Bytes of a sysfs path. */
#define SYSPATH_MAX 1024

/* One block device as sysfs describes it. */
struct bdev {
	char name[64];
	dev_t dev;
	uint64_t size_bytes;
	bool partition;
	uint64_t start_bytes; /* partition: where it starts on its disk */
	dev_t parent;	      /* partition: its disk */
	bool loop;	      /* a bound loop device */
	bool loop_known;      /* its backing was identified */
	bool loop_file;	      /* backed by a regular file (else a block device) */
	dev_t backing_rdev;
	dev_t backing_dev;
	ino_t backing_ino;
	uint64_t loop_offset_bytes;
	char backing[SC_BLKSTACK_NAME_MAX];
	uint32_t nholders, nslaves;
	char (*holders)[64];
	char (*slaves)[64];
};

struct table {
	uint32_t n;
	struct bdev *d;
};

bool sc_blkstack_rooted(char *buf, size_t len, const char *root, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s", root), m;

	if (n < 0 || (size_t)n >= len)
		return false;
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return m >= 0 && (size_t)m < len - (size_t)n;
}

/* The first line of file dir/rel, without its newline.  0 or -errno. */
static int read_line(const char *dir, const char *rel, char *buf, size_t len)
{
	char file[SYSPATH_MAX];
	FILE *f;
	bool ok;

	snprintf(file, sizeof(file), "%s/%s", dir, rel);
	f = fopen(file, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EINVAL;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_u64(const char *dir, const char *rel, uint64_t *out)
{
	char line[64], *end;
	int rc = read_line(dir, rel, line, sizeof(line));

	if (rc)
		return rc;
	errno = 0;
	*out = strtoull(line, &end, 10);
	return errno || end == line ? -EINVAL : 0;
}

static int read_devno(const char *dir, const char *rel, dev_t *out)
{
	char line[64];
	unsigned ma, mi;
	int rc = read_line(dir, rel, line, sizeof(line));

	if (rc)
		return rc;
	if (sscanf(line, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

/* The names in directory dir/rel (holders/, slaves/) into *names.  0 or
 * -errno; a missing directory is none. */
static int read_names(const char *dir, const char *rel, char (**names)[64], uint32_t *n)
{
	char path[SYSPATH_MAX];
	struct dirent *e;
	DIR *d;

	*n = 0;
	*names = NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(**names))
			continue;
		if (*n == LINKS_MAX) {
			closedir(d);
			return -E2BIG;
		}
		if (*n % 8 == 0) {
			void *more = realloc(*names, (*n + 8) * sizeof(**names));

			if (!more) {
				closedir(d);
				return -ENOMEM;
			}
			*names = more;
		}
		/* its length was checked above */
		memcpy((*names)[(*n)++], e->d_name, strlen(e->d_name) + 1);
	}
	closedir(d);
	return 0;
}

/* The kernel's encoding of a device number in struct loop_info64. */
static dev_t kernel_dev(uint64_t v)
{
	return makedev((unsigned)((v >> 8) & 0xfff),
		       (unsigned)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

/* A loop device's backing by LOOP_GET_STATUS64 on /dev/NAME, when that
 * node is the device.  True when identified. */
static bool loop_by_ioctl(struct bdev *b)
{
	char node[128];
	struct loop_info64 info;
	struct stat st;
	bool ok = false;
	int fd;

	snprintf(node, sizeof(node), "/dev/%s", b->name);
	fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == b->dev &&
	    ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
		b->loop_file = info.lo_rdevice == 0;
		b->backing_rdev = kernel_dev(info.lo_rdevice);
		b->backing_dev = kernel_dev(info.lo_device);
		b->backing_ino = (ino_t)info.lo_inode;
		b->loop_offset_bytes = info.lo_offset;
		ok = true;
	}
	close(fd);
	return ok;
}

/* A loop device's backing by stat of the path sysfs gives.  True when
 * identified. */
static bool loop_by_path(struct bdev *b)
{
	struct stat st;

	if (stat(b->backing, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return false;
	b->loop_file = S_ISREG(st.st_mode);
	b->backing_rdev = st.st_rdev;
	b->backing_dev = st.st_dev;
	b->backing_ino = st.st_ino;
	return true;
}

/* The loop/ part of block device b at sysfs directory dir, if bound. */
static int read_loop(const char *root, const char *dir, struct bdev *b)
{
	int rc = read_line(dir, "loop/backing_file", b->backing, sizeof(b->backing));

	if (rc == -ENOENT)
		return 0; /* not a loop device, or one not bound */
	if (rc)
		return rc;
	b->loop = true;
	rc = read_u64(dir, "loop/offset", &b->loop_offset_bytes);
	if (rc)
		return rc;
	b->loop_known = (!root[0] && loop_by_ioctl(b)) || loop_by_path(b);
	return 0;
}

/* Block device NAME at root/sys/class/block/NAME into b.  0 or -errno. */
static int read_bdev(const char *root, const char *name, struct bdev *b)
{
	char dir[SYSPATH_MAX];
	uint64_t sectors = 0, start = 0;
	int rc;

	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%.63s", name);
	if (!sc_blkstack_rooted(dir, sizeof(dir), root, "/sys/class/block/%s", name))
		return -ENAMETOOLONG;
	rc = read_devno(dir, "dev", &b->dev);
	if (!rc)
		rc = read_u64(dir, "size", &sectors);
	if (rc)
		return rc;
	b->size_bytes = sectors * SECTOR_BYTES;
	if (read_u64(dir, "partition", &start) == 0) {
		b->partition = true;
		rc = read_u64(dir, "start", &start);
		if (!rc)
			rc = read_devno(dir, "../dev", &b->parent);
		if (rc)
			return rc;
		b->start_bytes = start * SECTOR_BYTES;
	}
	rc = read_loop(root, dir, b);
	if (!rc)
		rc = read_names(dir, "holders", &b->holders, &b->nholders);
	if (!rc)
		rc = read_names(dir, "slaves", &b->slaves, &b->nslaves);
	return rc;
}

static void table_free(struct table *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		free(t->d[i].holders);
		free(t->d[i].slaves);
	}
	free(t->d);
}

/* Every block device under root/sys/class/block.  0 or -errno, with why. */
static int table_read(const char *root, struct table *t, char *why, size_t len)
{
	char dir[SYSPATH_MAX];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (!sc_blkstack_rooted(dir, sizeof(dir), root, "/sys/class/block"))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d) {
		rc = -errno;
		snprintf(why, len, "cannot read %s (%s)", dir, strerror(-rc));
		return rc;
	}
	while (!rc && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (t->n == BDEVS_MAX) {
			rc = -E2BIG;
			snprintf(why, len, "more than %u block devices in %s", BDEVS_MAX, dir);
			break;
		}
		if (t->n % 64 == 0) {
			void *more = realloc(t->d, (t->n + 64) * sizeof(*t->d));

			if (!more) {
				rc = -ENOMEM;
				break;
			}
			t->d = more;
		}
		rc = read_bdev(root, e->d_name, &t->d[t->n]);
		if (rc == -ENOENT) {
			rc = 0; /* gone meanwhile */
			continue;
		}
		t->n++;
		if (rc)
			snprintf(why, len, "cannot read %s/%s (%s)", dir, e->d_name, strerror(-rc));
	}
	closedir(d);
	if (rc)
		table_free(t);
	return rc;
}

static const struct bdev *by_dev(const struct table *t, dev_t dev)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->d[i].dev == dev)
			return &t->d[i];
	return NULL;
}

static const struct bdev *by_name(const struct table *t, const char *name)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (strcmp(t->d[i].name, name) == 0)
			return &t->d[i];
	return NULL;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static bool same_obj(const struct sc_blkstack_obj *a, const struct sc_blkstack_obj *b)
{
	return a->file == b->file &&
	       (a->file ? a->dev == b->dev && a->ino == b->ino : a->rdev == b->rdev);
}

/* Adds o to s, or widens the bytes of the same object there; *grew says
 * whether s changed.  0 or -E2BIG. */
static int stack_add(struct sc_blkstack *s, const struct sc_blkstack_obj *o, bool *grew,
		     bool *dirty)
{
	for (uint32_t i = 0; i < s->n; i++) {
		struct sc_blkstack_obj *x = &s->obj[i];

		if (!same_obj(x, o))
			continue;
		if (o->start_bytes < x->start_bytes || o->end_bytes > x->end_bytes) {
			x->start_bytes =
			    o->start_bytes < x->start_bytes ? o->start_bytes : x->start_bytes;
			x->end_bytes = o->end_bytes > x->end_bytes ? o->end_bytes : x->end_bytes;
			dirty[i] = true;
			*grew = true;
		}
		return 0;
	}
	if (s->n == SC_BLKSTACK_MAX)
		return -E2BIG;
	dirty[s->n] = true;
	s->obj[s->n++] = *o;
	*grew = true;
	return 0;
}

/* An object for block device b reached from index from by rel, holding
 * bytes [start, end) of b. */
static struct sc_blkstack_obj block_obj(const struct table *t, const struct bdev *b, int from,
					enum sc_blkstack_rel rel, bool up, uint64_t start,
					uint64_t end)
{
	struct sc_blkstack_obj o = {.rdev = b->dev,
				    .start_bytes = start,
				    .end_bytes = end,
				    .size_bytes = b->size_bytes,
				    .up = up,
				    .rel = rel,
				    .from = from};

	snprintf(o.name, sizeof(o.name), "%s", b->name);
	o.table_end_bytes = UINT64_MAX;
	for (uint32_t i = 0; i < t->n; i++) {
		if (!t->d[i].partition || t->d[i].parent != b->dev)
			continue;
		o.whole_partitioned = true;
		if (t->d[i].start_bytes < o.table_end_bytes)
			o.table_end_bytes = t->d[i].start_bytes;
	}
	return o;
}

/* The overlap of [a0, a1) and [b0, b1), false when empty. */
static bool overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1, uint64_t *o0, uint64_t *o1)
{
	*o0 = a0 > b0 ? a0 : b0;
	*o1 = a1 < b1 ? a1 : b1;
	return *o0 < *o1;
}

/* Whether loop device l is backed by object o. */
static bool backs(const struct bdev *l, const struct sc_blkstack_obj *o)
{
	if (!l->loop || !l->loop_known || l->loop_file != o->file)
		return false;
	return o->file ? l->backing_dev == o->dev && l->backing_ino == o->ino
		       : l->backing_rdev == o->rdev;
}

/* Adds what object i is built on (down: a partition's disk, a loop's
 * backing, a dm or md device's members).  0 or -E2BIG. */
static int step_down(const struct table *t, struct sc_blkstack *s, uint32_t i, bool *grew,
		     bool *dirty)
{
	const struct sc_blkstack_obj o = s->obj[i];
	const struct bdev *b = o.file ? NULL : by_dev(t, o.rdev), *x;
	int rc = 0;

	if (!b)
		return 0;
	if (b->partition && (x = by_dev(t, b->parent)) != NULL) {
		struct sc_blkstack_obj d = block_obj(t, x, (int)i, SC_BLKSTACK_DISK, false,
						     add_sat(o.start_bytes, b->start_bytes),
						     add_sat(o.end_bytes, b->start_bytes));

		rc = stack_add(s, &d, grew, dirty);
	}
	if (!rc && b->loop && b->loop_known) {
		uint64_t s0 = add_sat(o.start_bytes, b->loop_offset_bytes);
		uint64_t s1 = add_sat(o.end_bytes, b->loop_offset_bytes);
		struct sc_blkstack_obj d = {.file = true,
					    .dev = b->backing_dev,
					    .ino = b->backing_ino,
					    .start_bytes = s0,
					    .end_bytes = s1,
					    .rel = SC_BLKSTACK_BACKING,
					    .from = (int)i};

		if (!b->loop_file && (x = by_dev(t, b->backing_rdev)) != NULL)
			d = block_obj(t, x, (int)i, SC_BLKSTACK_BACKING, false, s0, s1);
		else if (!b->loop_file)
			d = (struct sc_blkstack_obj){.rdev = b->backing_rdev,
						     .start_bytes = s0,
						     .end_bytes = s1,
						     .rel = SC_BLKSTACK_BACKING,
						     .from = (int)i};
		if (d.file || !d.name[0])
			snprintf(d.name, sizeof(d.name), "%s", b->backing);
		rc = stack_add(s, &d, grew, dirty);
	}
	for (uint32_t k = 0; !rc && k < b->nslaves; k++) {
		struct sc_blkstack_obj d;

		if (!(x = by_name(t, b->slaves[k])))
			continue;
		d = block_obj(t, x, (int)i, SC_BLKSTACK_MEMBER, false, 0, UINT64_MAX);
		rc = stack_add(s, &d, grew, dirty);
	}
	return rc;
}

/* Adds what is built over the bytes of object i (up: overlapping
 * partitions, loop devices backed by them, holders).  0 or -E2BIG. */
static int step_up(const struct table *t, struct sc_blkstack *s, uint32_t i, bool *grew,
		   bool *dirty)
{
	const struct sc_blkstack_obj o = s->obj[i];
	const struct bdev *b = o.file ? NULL : by_dev(t, o.rdev);
	uint64_t o0, o1;
	int rc = 0;

	for (uint32_t k = 0; !rc && k < t->n; k++) {
		const struct bdev *x = &t->d[k];
		struct sc_blkstack_obj u;

		if (!o.file && x->partition && x->parent == o.rdev &&
		    overlap(o.start_bytes, o.end_bytes, x->start_bytes,
			    add_sat(x->start_bytes, x->size_bytes), &o0, &o1)) {
			u = block_obj(t, x, (int)i, SC_BLKSTACK_PARTITION, true,
				      o0 - x->start_bytes, o1 - x->start_bytes);
			rc = stack_add(s, &u, grew, dirty);
		} else if (backs(x, &o) &&
			   overlap(o.start_bytes, o.end_bytes, x->loop_offset_bytes,
				   add_sat(x->loop_offset_bytes, x->size_bytes), &o0, &o1)) {
			u = block_obj(t, x, (int)i, SC_BLKSTACK_LOOP, true,
				      o0 - x->loop_offset_bytes, o1 - x->loop_offset_bytes);
			rc = stack_add(s, &u, grew, dirty);
		}
	}
	for (uint32_t k = 0; b && !rc && k < b->nholders; k++) {
		const struct bdev *x = by_name(t, b->holders[k]);
		struct sc_blkstack_obj u;

		if (!x)
			continue;
		u = block_obj(t, x, (int)i, SC_BLKSTACK_HOLDER, true, 0, UINT64_MAX);
		rc = stack_add(s, &u, grew, dirty);
	}
	return rc;
}

/* The first loop device whose backing is not known, or NULL. */
static const struct bdev *unknown_loop(const struct table *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->d[i].loop && !t->d[i].loop_known)
			return &t->d[i];
	return NULL;
}

int sc_blkstack_read(const char *root, const struct stat *st, struct sc_blkstack *s, char *why,
		     size_t len)
{
	struct table t;
	const struct bdev *b = NULL;
	bool dirty[SC_BLKSTACK_MAX] = {false}, grew = true;
	int rc = table_read(root, &t, why, len);

	s->n = 0;
	if (rc)
		return rc;
	if (S_ISBLK(st->st_mode) && !(b = by_dev(&t, st->st_rdev))) {
		snprintf(why, len, "%u:%u is not in %s/sys/class/block", major(st->st_rdev),
			 minor(st->st_rdev), root);
		rc = -ENOENT;
		goto out;
	}
	if (!S_ISBLK(st->st_mode) && !S_ISREG(st->st_mode)) {
		snprintf(why, len, "neither a block device nor a regular file");
		rc = -EINVAL;
		goto out;
	}
	if (unknown_loop(&t)) {
		const struct bdev *u = unknown_loop(&t);

		snprintf(why, len,
			 "cannot tell what %s is backed by (%s), so not whether it shares "
			 "these bytes (detach it with losetup -d /dev/%s if it is not in use)",
			 u->name, u->backing, u->name);
		rc = -EIO;
		goto out;
	}
	if (b)
		s->obj[0] = block_obj(&t, b, -1, SC_BLKSTACK_TARGET, false, 0, b->size_bytes);
	else
		s->obj[0] = (struct sc_blkstack_obj){.file = true, .dev = st->st_dev,
						     .ino = st->st_ino, .start_bytes = 0,
						     .end_bytes = UINT64_MAX, .from = -1};
	s->n = 1;
	dirty[0] = true;
	while (!rc && grew) {
		grew = false;
		for (uint32_t i = 0; !rc && i < s->n; i++) {
			if (!dirty[i])
				continue;
			dirty[i] = false;
			/* over an up object lies the target's bytes: nothing new */
			if (!s->obj[i].up)
				rc = step_down(&t, s, i, &grew, dirty);
			if (!rc)
				rc = step_up(&t, s, i, &grew, dirty);
		}
	}
	if (rc == -E2BIG)
		snprintf(why, len, "more than %u devices and files share its bytes",
			 SC_BLKSTACK_MAX);
out:
	table_free(&t);
	return rc;
}

static const char *const rel_words[] = {
    [SC_BLKSTACK_TARGET] = "",
    [SC_BLKSTACK_DISK] = "the disk holding",
    [SC_BLKSTACK_BACKING] = "the backing of",
    [SC_BLKSTACK_MEMBER] = "a member of",
    [SC_BLKSTACK_PARTITION] = "a partition overlapping",
    [SC_BLKSTACK_LOOP] = "a loop device over",
    [SC_BLKSTACK_HOLDER] = "a device-mapper or md device holding",
};

/* Appends the description of object i to buf at *used, depth levels in. */
static void describe_into(const struct sc_blkstack *s, uint32_t i, char *buf, size_t len,
			  size_t *used, int depth)
{
	const struct sc_blkstack_obj *o = &s->obj[i];
	int n;

	if (*used >= len)
		return;
	if (i == 0 && o->file) {
		n = snprintf(buf + *used, len - *used, "it");
	} else if (i == 0) {
		n = snprintf(buf + *used, len - *used, "it (%u:%u)", major(o->rdev),
			     minor(o->rdev));
	} else if (o->file) {
		n = snprintf(buf + *used, len - *used, "the file %s, %s ", o->name,
			     rel_words[o->rel]);
	} else if (o->rel == SC_BLKSTACK_PARTITION && o->from == 0) {
		n = snprintf(buf + *used, len - *used, "its partition %s (%u:%u)", o->name,
			     major(o->rdev), minor(o->rdev));
	} else {
		n = snprintf(buf + *used, len - *used, "%s (%u:%u), %s ", o->name, major(o->rdev),
			     minor(o->rdev), rel_words[o->rel]);
	}
	if (n < 0)
		return;
	*used += (size_t)n;
	if (i == 0 || (o->rel == SC_BLKSTACK_PARTITION && o->from == 0) || o->from < 0)
		return;
	if (depth >= DESCRIBE_DEPTH) {
		snprintf(buf + *used, *used < len ? len - *used : 0, "...");
		*used += 3;
		return;
	}
	describe_into(s, (uint32_t)o->from, buf, len, used, depth + 1);
}

const char *sc_blkstack_describe(const struct sc_blkstack *s, uint32_t i, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (i < s->n)
		describe_into(s, i, buf, len, &used, 0);
	return buf;
}
