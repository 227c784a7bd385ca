/* placement.c -- CPU lists, the NUMA node of a target's drive, and the
 * pinning and memory binding of job threads (placement.h). */
#include "placement.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "telemetry.h"

/* A sysfs attribute read whole (a cpulist of 1024 CPUs fits). */
#define ATTR_MAX 4096
/* Bits of the node mask given to mbind(2): nodes 0..NODE_BITS-2. */
#define NODE_BITS  1024u
#define ULONG_BITS (8u * sizeof(unsigned long))

/* ---- cpulists ---- */

/* A CPU number at *s (moved past it) into *cpu.  0, -EINVAL or -ERANGE. */
static int parse_cpu(const char **s, unsigned *cpu)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	errno = 0;
	v = strtoul(*s, &end, 10);
	*s = end;
	if (errno || v >= CPU_SETSIZE)
		return -ERANGE;
	*cpu = (unsigned)v;
	return 0;
}

int sc_placement_parse_cpulist(const char *s, cpu_set_t *set, char *err, size_t errlen)
{
	const char *p = s;
	unsigned a, b;
	int rc;

	CPU_ZERO(set);
	if (!*p) {
		snprintf(err, errlen, "an empty CPU list");
		return -EINVAL;
	}
	for (;;) {
		const char *item = p;

		rc = parse_cpu(&p, &a);
		b = a;
		if (!rc && *p == '-') {
			p++;
			rc = parse_cpu(&p, &b);
		}
		if (rc == -ERANGE) {
			snprintf(err, errlen, "\"%s\": a CPU beyond the %d a list may name", s,
				 CPU_SETSIZE);
			return rc;
		}
		if (rc || (*p && *p != ',') || b < a) {
			snprintf(err, errlen,
				 "\"%s\" is not a CPU list at \"%s\" (CPUs and ranges "
				 "joined by commas: 0-3,8)",
				 s, item);
			return -EINVAL;
		}
		for (unsigned c = a; c <= b; c++) {
			if (CPU_ISSET(c, set)) {
				snprintf(err, errlen, "\"%s\" lists CPU %u twice", s, c);
				return -EINVAL;
			}
			CPU_SET(c, set);
		}
		if (!*p)
			return 0;
		p++;
	}
}

const char *sc_placement_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned c = 0; c < CPU_SETSIZE; c++) {
		unsigned end = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		if (n < len)
			n += (size_t)(end == c ? snprintf(buf + n, len - n, "%s%u", n ? "," : "", c)
					       : snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "",
							  c, end));
		c = end;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

/* ---- the drive's node ---- */

/* Reads dir/name into buf, trailing blanks cut.  0 or -errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return 0;
}

/* What the disks met so far say. */
struct node_walk {
	const char *sysfs;
	int node;		  /* the node of every disk so far; -1 none yet */
	bool unknown;		  /* some disk has none, or disks differ: why says */
	char first[NAME_MAX + 1]; /* the disk that gave node */
	char *why;
	size_t len;
};

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The numa_node of disk directory disk: that of the nearest directory at
 * or above it that has one, below SYSFS/devices.  -2 when none has. */
static int disk_node(const struct node_walk *w, const char *disk)
{
	char dir[PATH_MAX], devices[PATH_MAX], top[PATH_MAX], val[ATTR_MAX];
	size_t toplen;

	snprintf(dir, sizeof(dir), "%s", disk);
	if ((size_t)snprintf(devices, sizeof(devices), "%s/devices", w->sysfs) >= sizeof(devices) ||
	    !realpath(devices, top))
		return -2;
	toplen = strlen(top);
	while (strncmp(dir, top, toplen) == 0 && strlen(dir) > toplen) {
		if (read_attr(dir, "numa_node", val, sizeof(val)) == 0)
			return atoi(val) < 0 ? -1 : atoi(val);
		*strrchr(dir, '/') = '\0';
	}
	return -2;
}

/* Records what disk directory disk (a whole disk, not stacked) says. */
static void note_disk(void *arg, const char *disk)
{
	struct node_walk *w = arg;
	const char *name = base_of(disk);
	int node = disk_node(w, disk);

	if (w->unknown)
		return;
	w->unknown = true;
	if (node == -2)
		snprintf(w->why, w->len, "%s has no NUMA node (a virtual device)", name);
	else if (node < 0)
		snprintf(w->why, w->len, "%s has no NUMA node (numa_node -1)", name);
	else if (w->node >= 0 && node != w->node)
		snprintf(w->why, w->len, "its drives are on NUMA nodes %d (%s) and %d (%s)",
			 w->node, w->first, node, name);
	else
		w->unknown = false;
	if (!w->unknown && w->node < 0) {
		w->node = node;
		snprintf(w->first, sizeof(w->first), "%.*s", (int)sizeof(w->first) - 1, name);
	}
}

int sc_placement_dev_node(const char *sysfs, dev_t dev, char *why, size_t len)
{
	struct node_walk w = {.sysfs = sysfs, .node = -1, .why = why, .len = len};
	char link[PATH_MAX], dir[PATH_MAX];

	why[0] = '\0';
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs, major(dev), minor(dev));
	if (!realpath(link, dir)) {
		snprintf(why, len, "block device %u:%u is not in %s/dev/block", major(dev),
			 minor(dev), sysfs);
		return -1;
	}
	sc_telemetry_walk_disks(dir, note_disk, &w);
	if (w.unknown || w.node < 0) {
		if (!why[0])
			snprintf(why, len, "%s has no disk below it", base_of(dir));
		return -1;
	}
	return w.node;
}

int sc_placement_path_node(const char *sysfs, const char *path, char *why, size_t len)
{
	struct stat st;

	if (stat(path, &st)) {
		snprintf(why, len, "cannot look at %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode) && major(st.st_dev) == 0) {
		snprintf(why, len, "%s is on a filesystem without a block device", path);
		return -1;
	}
	return sc_placement_dev_node(sysfs, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, why, len);
}

/* The nodeN directories under SYSFS/devices/system/node. */
static int count_nodes(const char *sysfs)
{
	char dir[PATH_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/devices/system/node", sysfs);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += strncmp(e->d_name, "node", 4) == 0 && isdigit((unsigned char)e->d_name[4]);
	closedir(d);
	return n;
}

int sc_placement_node_cpus(const char *sysfs, int node, cpu_set_t *set, int *nnodes, char *why,
			   size_t len)
{
	char dir[PATH_MAX], val[ATTR_MAX], err[128];
	int rc;

	CPU_ZERO(set);
	*nnodes = count_nodes(sysfs);
	snprintf(dir, sizeof(dir), "%s/devices/system/node/node%d", sysfs, node);
	rc = read_attr(dir, "cpulist", val, sizeof(val));
	if (rc) {
		snprintf(why, len, "cannot read the CPUs of NUMA node %d: %s", node, strerror(-rc));
		return rc;
	}
	if (!val[0]) {
		snprintf(why, len, "NUMA node %d has no CPUs", node);
		return -ENOENT;
	}
	rc = sc_placement_parse_cpulist(val, set, err, sizeof(err));
	if (rc)
		snprintf(why, len, "NUMA node %d: %s", node, err);
	return rc;
}

/* ---- a phase's placement ---- */

/* cpus: the list within allowed, into pl. */
static void decide_cpus(const char *cpus, const cpu_set_t *allowed, struct sc_placement *pl,
			struct sc_io_opts *opts)
{
	char err[160], a[128], b[128], c[128];
	cpu_set_t want, dropped;

	sc_io_opts_ask(opts, SC_IO_OPT_CPUS);
	if (sc_placement_parse_cpulist(cpus, &want, err, sizeof(err))) {
		sc_io_opts_unavailable(opts, SC_IO_OPT_CPUS, "%s", err);
		return;
	}
	CPU_XOR(&dropped, &want, allowed);
	CPU_AND(&dropped, &dropped, &want);
	CPU_AND(&want, &want, allowed);
	if (!CPU_COUNT(&want)) {
		sc_io_opts_unavailable(opts, SC_IO_OPT_CPUS,
				       "none of CPUs %s is this rank's (it may use %s); job "
				       "threads not pinned",
				       cpus, sc_placement_format(allowed, a, sizeof(a)));
		return;
	}
	if (CPU_COUNT(&dropped))
		sc_io_opts_unavailable(
		    opts, SC_IO_OPT_CPUS,
		    "%s %s %s not this rank's (it may use %s); job threads on %s",
		    CPU_COUNT(&dropped) > 1 ? "CPUs" : "CPU",
		    sc_placement_format(&dropped, a, sizeof(a)),
		    CPU_COUNT(&dropped) > 1 ? "are" : "is",
		    sc_placement_format(allowed, b, sizeof(b)),
		    sc_placement_format(&want, c, sizeof(c)));
	pl->pin = true;
	pl->cpus = want;
}

/* numa: drive: pl narrowed to the drive's node. */
static void decide_numa(const char *sysfs, const char *path, const cpu_set_t *allowed,
			struct sc_placement *pl, struct sc_io_opts *opts)
{
	char why[SC_IO_OPT_NOTE_MAX], a[128], b[128];
	cpu_set_t node_cpus, base = pl->pin ? pl->cpus : *allowed;
	int node, nnodes;

	sc_io_opts_ask(opts, SC_IO_OPT_NUMA);
	node = sc_placement_path_node(sysfs, path, why, sizeof(why));
	if (node < 0) {
		sc_io_opts_unavailable(opts, SC_IO_OPT_NUMA, "%s", why);
		return;
	}
	if (sc_placement_node_cpus(sysfs, node, &node_cpus, &nnodes, why, sizeof(why))) {
		sc_io_opts_unavailable(opts, SC_IO_OPT_NUMA, "%s", why);
		return;
	}
	if (nnodes < 2) {
		sc_io_opts_unavailable(opts, SC_IO_OPT_NUMA, "this machine has one NUMA node");
		return;
	}
	CPU_AND(&node_cpus, &node_cpus, &base);
	if (!CPU_COUNT(&node_cpus)) {
		sc_io_opts_unavailable(opts, SC_IO_OPT_NUMA,
				       "the drive is on NUMA node %d, and none of CPUs %s is on "
				       "it (node %d: %s)",
				       node, sc_placement_format(&base, a, sizeof(a)), node,
				       sc_placement_format(&node_cpus, b, sizeof(b)));
		return;
	}
	pl->pin = true;
	pl->cpus = node_cpus;
	pl->mem_node = node < (int)NODE_BITS - 1 ? node : -1;
}

void sc_placement_decide(const char *sysfs, const struct sc_io_spec *io, const char *target_path,
			 const cpu_set_t *allowed, struct sc_placement *pl, struct sc_io_opts *opts)
{
	memset(pl, 0, sizeof(*pl));
	pl->mem_node = -1;
	if (io->cpus[0])
		decide_cpus(io->cpus, allowed, pl, opts);
	if (io->numa == SC_NUMA_DRIVE)
		decide_numa(sysfs, target_path, allowed, pl, opts);
}

int sc_placement_pin(const struct sc_placement *pl)
{
	if (!pl->pin)
		return 0;
	return sched_setaffinity(0, sizeof(pl->cpus), &pl->cpus) ? -errno : 0;
}

int sc_placement_bind(const struct sc_placement *pl, void *addr, size_t len)
{
	unsigned long mask[NODE_BITS / ULONG_BITS] = {0};

	if (pl->mem_node < 0 || !len)
		return 0;
	mask[(unsigned)pl->mem_node / ULONG_BITS] = 1ul << ((unsigned)pl->mem_node % ULONG_BITS);
	if (syscall(SYS_mbind, addr, len, MPOL_BIND, mask, (unsigned long)NODE_BITS, MPOL_MF_MOVE))
		return -errno;
	return 0;
}
