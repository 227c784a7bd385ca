/* uring_target.c -- whether a target can poll or take NVMe commands, and
 * those commands (uring_target.h). */
#include "uring_target.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine.h"

/* What a phase whose jobs open their files as they run has as a target. */
#define FILES_LATER "files opened as the phase runs"
/* A read or write command counts its blocks - 1 in 16 bits (cdw12). */
#define NVME_MAX_BLOCKS 65536u
/* Room for a path under a sysfs directory of PATH_MAX bytes. */
#define SUBPATH_MAX (PATH_MAX + 64)
/* Logical block sizes NVMe namespaces have: 512 B .. 64 KiB. */
#define LBA_SHIFT_MIN 9u
#define LBA_SHIFT_MAX 16u

/* The first line of a sysfs file, newline cut.  0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

static int read_u64(const char *path, uint64_t *v)
{
	char line[32], *end;
	int err = read_line(path, line, sizeof(line));

	if (err)
		return err;
	*v = strtoull(line, &end, 10);
	return end == line ? -EINVAL : 0;
}

/* The kernel's name of device dev ("loop0"), from sysfs dev/<kind>/M:m. */
static int dev_name(const char *sysfs, const char *kind, dev_t dev, char *name, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/dev/%s/%u:%u", sysfs, kind, major(dev), minor(dev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(name, base, strlen(base) + 1);
	return 0;
}

/* The type of the filesystem on dev ("ext4"), from /proc/self/mountinfo;
 * "?" when it is not mounted here. */
static void fs_type(dev_t dev, char *type, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024], want[32];

	snprintf(type, len, "?");
	if (!f)
		return;
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	while (fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (!sep || !strstr(line, want) || strstr(line, want) > sep)
			continue;
		sscanf(sep + 3, "%31s", want);
		snprintf(type, len, "%s", want);
		break;
	}
	fclose(f);
}

/* What fd is, for a reason: "a file on ext4", "a block device (loop0)". */
static void describe(const char *sysfs, const struct stat *st, char *buf, size_t len)
{
	char name[64];

	if (S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)) {
		fs_type(st->st_dev, name, sizeof(name));
		snprintf(buf, len, "a %s on %s", S_ISREG(st->st_mode) ? "file" : "directory", name);
	} else if (S_ISBLK(st->st_mode)) {
		if (dev_name(sysfs, "block", st->st_rdev, name, sizeof(name)))
			snprintf(name, sizeof(name), "%u:%u", major(st->st_rdev),
				 minor(st->st_rdev));
		snprintf(buf, len, "a block device (%s)", name);
	} else if (S_ISCHR(st->st_mode)) {
		snprintf(buf, len, "a character device (%u:%u)", major(st->st_rdev),
			 minor(st->st_rdev));
	} else {
		snprintf(buf, len, "neither a file nor a device");
	}
}

int sc_uring_poll_check(const char *sysfs, int fd, char *why, size_t len)
{
	char what[128], path[PATH_MAX], part[PATH_MAX];
	struct stat st;
	uint64_t poll = 0;

	if (fd < 0) {
		snprintf(why, len, "hipri needs a block device with poll queues (target is %s)",
			 FILES_LATER);
		return -EOPNOTSUPP;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, len, "hipri needs a block device with poll queues (target: %s)",
			 strerror(errno));
		return -EOPNOTSUPP;
	}
	describe(sysfs, &st, what, sizeof(what));
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, len, "hipri needs a block device with poll queues (target is %s)",
			 what);
		return -EOPNOTSUPP;
	}
	/* a partition's queue is its disk's */
	snprintf(part, sizeof(part), "%s/dev/block/%u:%u/partition", sysfs, major(st.st_rdev),
		 minor(st.st_rdev));
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/%squeue/io_poll", sysfs, major(st.st_rdev),
		 minor(st.st_rdev), access(part, F_OK) == 0 ? "../" : "");
	if (read_u64(path, &poll) != 0 || poll != 1) {
		snprintf(why, len,
			 "hipri needs a block device with poll queues (target is %s, whose "
			 "queue/io_poll is %s)",
			 what, poll == 0 && access(path, R_OK) == 0 ? "0" : "missing");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* What passthrough needs that the target lacks, named: the reason. */
#define PT_NEEDS "passthrough needs a block device that is an NVMe namespace"

/* The sysfs directory of block device dev (realpath of dev/block/M:m) into
 * dir.  0 or -errno. */
static int block_dir(const char *sysfs, dev_t dev, char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs, major(dev), minor(dev));
	return realpath(path, dir) ? 0 : -errno;
}

/* ns->nsid and ns->lba_shift from the namespace's sysfs directory dir
 * (nsid, queue/logical_block_size).  0 or -ENODEV. */
static int ns_geometry(const char *dir, struct sc_nvme_ns *ns)
{
	char path[SUBPATH_MAX];
	uint64_t nsid, lbs;

	snprintf(path, sizeof(path), "%s/nsid", dir);
	if (read_u64(path, &nsid) || !nsid || nsid > UINT32_MAX)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/queue/logical_block_size", dir);
	if (read_u64(path, &lbs) || lbs & (lbs - 1) || lbs < (1u << LBA_SHIFT_MIN) ||
	    lbs > (1u << LBA_SHIFT_MAX))
		return -ENODEV;
	ns->nsid = (uint32_t)nsid;
	ns->lba_shift = (uint32_t)__builtin_ctzll(lbs);
	return 0;
}

/* The generic device of the namespace whose sysfs directory is dir: the
 * kernel makes ng<I>n<N> for nvme<I>n<N> a sibling of it, under the same
 * controller (or, for a multipath head, the same subsystem), of class
 * nvme-generic.  Its name into ns->ng and its number (sysfs dev) into
 * *rdev.  0 or -ENODEV. */
static int ng_sibling(const char *dir, struct sc_nvme_ns *ns, dev_t *rdev)
{
	char path[SUBPATH_MAX], link[PATH_MAX], line[32];
	const char *base = strrchr(dir, '/');
	unsigned maj, min;
	size_t plen = (size_t)(base - dir);
	ssize_t n;

	snprintf(ns->ng, sizeof(ns->ng), "ng%s", ns->block + 4);
	snprintf(path, sizeof(path), "%.*s/%s/subsystem", (int)plen, dir, ns->ng);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -ENODEV;
	link[n] = '\0';
	if (strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 : link, "nvme-generic") != 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "%.*s/%s/dev", (int)plen, dir, ns->ng);
	if (read_line(path, line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return -ENODEV;
	*rdev = makedev(maj, min);
	return 0;
}

/* Whether block device st is a whole NVMe namespace (nvmeXnY, a multipath
 * head too; not a partition nor one path of a multipath namespace): its
 * sysfs directory into dir (PATH_MAX) and name into ns->block.  0, or
 * -ENODEV and why, naming the target. */
static int whole_namespace(const char *sysfs, const struct stat *st, struct sc_nvme_ns *ns,
			   char *dir, char *why, size_t len)
{
	char what[128], path[SUBPATH_MAX];
	unsigned a, b, c;
	int end = 0;
	const char *base;

	describe(sysfs, st, what, sizeof(what));
	if (!S_ISBLK(st->st_mode) || block_dir(sysfs, st->st_rdev, dir) != 0) {
		snprintf(why, len, PT_NEEDS "; target is %s", what);
		return -ENODEV;
	}
	base = strrchr(dir, '/') + 1;
	snprintf(ns->block, sizeof(ns->block), "%s", base);
	if (sscanf(base, "nvme%uc%un%u%n", &a, &b, &c, &end) == 3 && !base[end]) {
		snprintf(why, len,
			 "passthrough needs the multipath namespace nvme%un%u; target %s is one "
			 "path of it",
			 a, c, base);
		return -ENODEV;
	}
	end = 0;
	if (sscanf(base, "nvme%un%u%n", &a, &b, &end) == 2 && !base[end] &&
	    strlen(base) < sizeof(ns->block))
		return 0;
	snprintf(path, sizeof(path), "%s/partition", dir);
	if (!strncmp(base, "nvme", 4) && access(path, F_OK) == 0)
		snprintf(why, len, "passthrough needs a whole namespace; target is a partition %s",
			 base);
	else
		snprintf(why, len, PT_NEEDS "; target is %s", what);
	return -ENODEV;
}

/* The namespace of block device st with its generic device's number in
 * *rdev.  0, or -ENODEV and why. */
static int ng_find(const char *sysfs, const struct stat *st, struct sc_nvme_ns *ns, dev_t *rdev,
		   char *why, size_t len)
{
	char dir[PATH_MAX];
	const char *base;

	if (whole_namespace(sysfs, st, ns, dir, why, len) != 0)
		return -ENODEV;
	base = ns->block;
	if (ng_sibling(dir, ns, rdev) != 0) {
		snprintf(why, len,
			 "passthrough needs the generic device of %s; sysfs has no %s of "
			 "class nvme-generic next to it",
			 base, ns->ng);
		return -ENODEV;
	}
	if (ns_geometry(dir, ns) != 0) {
		snprintf(why, len,
			 "passthrough needs the namespace of %s; sysfs gives it no nsid or "
			 "logical_block_size",
			 base);
		return -ENODEV;
	}
	return 0;
}

int sc_uring_ng_open_stat(const char *sysfs, const char *devroot, const struct stat *st, int flags,
			  struct sc_nvme_ns *ns, char *why, size_t len)
{
	char path[SUBPATH_MAX];
	struct stat ngst;
	dev_t rdev;
	int ng;

	memset(ns, 0, sizeof(*ns));
	if (ng_find(sysfs, st, ns, &rdev, why, len) != 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/%s", devroot, ns->ng);
	ng = open(path, (flags & O_ACCMODE) | O_CLOEXEC);
	if (ng < 0) {
		int err = errno;

		snprintf(why, len, "passthrough: cannot open %s (of %s): %s", path, ns->block,
			 strerror(err));
		return -err;
	}
	if (fstat(ng, &ngst) != 0 || !S_ISCHR(ngst.st_mode) || ngst.st_rdev != rdev) {
		snprintf(why, len,
			 "passthrough: %s (of %s) is not the character device %u:%u sysfs names",
			 path, ns->block, major(rdev), minor(rdev));
		close(ng);
		return -ENODEV;
	}
	return ng;
}

int sc_uring_ng_open(const char *sysfs, const char *devroot, int fd, struct sc_nvme_ns *ns,
		     char *why, size_t len)
{
	struct stat st;
	int flags;

	memset(ns, 0, sizeof(*ns));
	if (fd < 0) {
		snprintf(why, len, PT_NEEDS "; target is %s", FILES_LATER);
		return -ENODEV;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, len, PT_NEEDS "; target: %s", strerror(errno));
		return -ENODEV;
	}
	/* the same access as the target: a read-only run cannot write */
	flags = fcntl(fd, F_GETFL);
	return sc_uring_ng_open_stat(sysfs, devroot, &st, flags < 0 ? O_RDONLY : flags, ns, why,
				     len);
}

int sc_uring_ng_align(const struct sc_nvme_ns *ns, uint64_t align_bytes, char *why, size_t len)
{
	uint64_t lbs = UINT64_C(1) << ns->lba_shift;

	if (align_bytes && align_bytes % lbs == 0)
		return 0;
	if (!align_bytes) {
		snprintf(why, len,
			 "passthrough needs I/Os in whole logical blocks of %s (%" PRIu64
			 " B); this phase's offsets are not known before it runs",
			 ns->block, lbs);
		return -EINVAL;
	}
	snprintf(why, len,
		 "passthrough needs I/Os in whole logical blocks of %s (%" PRIu64
		 " B); this phase's offsets and lengths are multiples of %" PRIu64 " B",
		 ns->block, lbs, align_bytes);
	return -EINVAL;
}

int sc_nvme_cmd_build(void *cmd, size_t cmd_len, const struct sc_nvme_ns *ns, uint8_t op, void *buf,
		      uint32_t len, uint64_t offset)
{
	struct nvme_uring_cmd *c = cmd;
	uint64_t mask = (UINT64_C(1) << ns->lba_shift) - 1, slba, nlb;

	if (cmd_len < sizeof(*c))
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->nsid = ns->nsid;
	if (op == SC_OP_FSYNC) {
		c->opcode = SC_NVME_CMD_FLUSH;
		return 0;
	}
	if (op != SC_OP_READ && op != SC_OP_WRITE)
		return -EINVAL;
	nlb = (uint64_t)len >> ns->lba_shift;
	if ((offset & mask) || (len & mask) || nlb == 0 || nlb > NVME_MAX_BLOCKS)
		return -EINVAL;
	slba = offset >> ns->lba_shift;
	c->opcode = op == SC_OP_READ ? SC_NVME_CMD_READ : SC_NVME_CMD_WRITE;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (uint32_t)(nlb - 1);
	return 0;
}
