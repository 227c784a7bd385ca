/* uring_target.c -- whether a target can poll or take NVMe commands, and
 * those commands (uring_target.h). */
#include "uring_target.h"

#include <errno.h>
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
		snprintf(buf, len, "the character device %u:%u, not an NVMe namespace",
			 major(st->st_rdev), minor(st->st_rdev));
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

/* ns from sysfs block/nvmeXnY for the generic device named ng ("ng0n1"). */
static int ng_namespace(const char *sysfs, const char *ng, struct sc_nvme_ns *ns)
{
	char path[PATH_MAX];
	uint64_t nsid, lbs;

	if (strncmp(ng, "ng", 2) != 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/block/nvme%s/nsid", sysfs, ng + 2);
	if (read_u64(path, &nsid) || !nsid || nsid > UINT32_MAX)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/block/nvme%s/queue/logical_block_size", sysfs, ng + 2);
	if (read_u64(path, &lbs) || lbs & (lbs - 1) || lbs < (1u << LBA_SHIFT_MIN) ||
	    lbs > (1u << LBA_SHIFT_MAX))
		return -ENODEV;
	ns->nsid = (uint32_t)nsid;
	ns->lba_shift = (uint32_t)__builtin_ctzll(lbs);
	return 0;
}

int sc_uring_ng_probe(const char *sysfs, int fd, struct sc_nvme_ns *ns, char *why, size_t len)
{
	char what[128], name[64], path[PATH_MAX], link[PATH_MAX];
	struct stat st;
	ssize_t n = -1;

	if (fd < 0) {
		snprintf(why, len, "passthrough needs /dev/ngXnY; target is %s", FILES_LATER);
		return -ENODEV;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, len, "passthrough needs /dev/ngXnY; target: %s", strerror(errno));
		return -ENODEV;
	}
	describe(sysfs, &st, what, sizeof(what));
	if (S_ISCHR(st.st_mode)) {
		snprintf(path, sizeof(path), "%s/dev/char/%u:%u/subsystem", sysfs,
			 major(st.st_rdev), minor(st.st_rdev));
		n = readlink(path, link, sizeof(link) - 1);
	}
	if (n > 0) {
		link[n] = '\0';
		if (!strstr(link, "nvme-generic"))
			n = -1;
	}
	if (n <= 0) {
		snprintf(why, len, "passthrough needs /dev/ngXnY; target is %s", what);
		return -ENODEV;
	}
	if (dev_name(sysfs, "char", st.st_rdev, name, sizeof(name)) ||
	    ng_namespace(sysfs, name, ns)) {
		snprintf(why, len,
			 "passthrough needs /dev/ngXnY with its namespace in sysfs; "
			 "%s/block/nvme%s has no nsid or logical_block_size",
			 sysfs, strncmp(name, "ng", 2) == 0 ? name + 2 : name);
		return -ENODEV;
	}
	return 0;
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
