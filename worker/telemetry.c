/* telemetry.c -- the NVMe drives behind a target through a sysfs walk,
 * their hwmon temperature, and the media-error and identity look-ups of
 * the verdict (telemetry.h). */
#include "telemetry.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Levels of stacking followed (dm over md over partitions ...). */
#define WALK_DEPTH_MAX 8
/* sysfs gives a block device's size in units of 512 bytes, whatever its
 * logical block size. */
#define SYSFS_SECTOR_BYTES 512u
/* An attribute read whole: sysfs values are short. */
#define ATTR_MAX 256
/* The longest a path or device list is shown in a reason (the rest is cut). */
#define SHOWN_MAX 80
/* The non-NVMe devices named in the reason, at most. */
#define LEAVES_MAX 160

struct walk {
	const char *sysfs;
	struct sc_telemetry *t;
	char leaves[LEAVES_MAX]; /* non-NVMe devices met: "vda", "loop0" */
};

/* Reads dir/name (dir itself when name is NULL) into buf without leading
 * or trailing blanks (NVMe pads model and serial).  0 or -errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], raw[ATTR_MAX];
	ssize_t n;
	size_t a = 0;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", dir, name ? "/" : "",
			     name ? name : "") >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, raw, sizeof(raw) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && isspace((unsigned char)raw[n - 1]))
		n--;
	raw[n] = '\0';
	while (isspace((unsigned char)raw[a]))
		a++;
	snprintf(buf, len, "%s", raw + a);
	return 0;
}

static bool has_attr(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* realpath of dir/name into out (PATH_MAX).  0 or -errno. */
static int resolve(const char *dir, const char *name, char *out)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	return realpath(path, out) ? 0 : -errno;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "nvme3" (a controller): its number in *n. */
static bool is_controller(const char *name, unsigned *n)
{
	int end = 0;

	return sscanf(name, "nvme%u%n", n, &end) == 1 && name[end] == '\0';
}

/* "nvme0n1" (a namespace or multipath head) or "nvme0c2n1" (a hidden
 * multipath path, controller 2). */
static bool is_namespace(const char *name)
{
	unsigned a, b, c;
	int end = 0;

	if (sscanf(name, "nvme%un%u%n", &a, &b, &end) == 2 && name[end] == '\0')
		return true;
	end = 0;
	return sscanf(name, "nvme%uc%un%u%n", &a, &b, &c, &end) == 3 && name[end] == '\0';
}

/* The lowest-numbered controller linked from subsystem directory subsys,
 * resolved into out.  0 or -ENOENT. */
static int first_controller(const char *subsys, char *out)
{
	unsigned best = 0, n;
	char name[SC_DRIVE_NAME_MAX] = "";
	struct dirent *e;
	DIR *d = opendir(subsys);

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (is_controller(e->d_name, &n) && (!name[0] || n < best) &&
		    strlen(e->d_name) < sizeof(name)) {
			best = n;
			snprintf(name, sizeof(name), "%.*s", (int)sizeof(name) - 1, e->d_name);
		}
	}
	closedir(d);
	return name[0] ? resolve(subsys, name, out) : -ENOENT;
}

/* The controller directory of namespace directory ns into out: its
 * parent when that is a controller (plain namespace, hidden path), else
 * the first controller of the subsystem it sits in (multipath head).
 * 0 or -ENOENT. */
static int controller_of(const char *ns, char *out)
{
	char parent[PATH_MAX];
	unsigned n;

	if (resolve(ns, "..", parent))
		return -ENOENT;
	if (is_controller(base_of(parent), &n) && has_attr(parent, "serial")) {
		snprintf(out, PATH_MAX, "%s", parent);
		return 0;
	}
	if (has_attr(parent, "subsysnqn"))
		return first_controller(parent, out);
	return -ENOENT;
}

/* The file a controller's hwmon keeps temp1_input in, into out ("" when
 * none): CTRL/hwmonN/ or CTRL/hwmon/hwmonN/ or CTRL/device/hwmon/hwmonN/. */
static void find_hwmon(const char *ctrl, char *out)
{
	static const char *const under[] = {"", "/hwmon", "/device/hwmon"};
	char dir[PATH_MAX], path[PATH_MAX];
	struct dirent *e;

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(under) / sizeof(under[0]) && !out[0]; i++) {
		DIR *d;

		if ((size_t)snprintf(dir, sizeof(dir), "%s%s", ctrl, under[i]) >= sizeof(dir) ||
		    !(d = opendir(dir)))
			continue;
		while (!out[0] && (e = readdir(d))) {
			if (strncmp(e->d_name, "hwmon", strlen("hwmon")) || !e->d_name[5])
				continue;
			if ((size_t)snprintf(path, sizeof(path), "%s/%s/temp1_input", dir,
					     e->d_name) < sizeof(path) &&
			    access(path, R_OK) == 0)
				snprintf(out, PATH_MAX, "%s", path);
		}
		closedir(d);
	}
}

/* An identity attribute from the controller, else from the namespace's
 * nvme-subsystem (a multipath head's parent), else "?". */
static void identity_attr(const char *ctrl, const char *ns, const char *name, char *buf, size_t len)
{
	char subsys[PATH_MAX];

	if (read_attr(ctrl, name, buf, len) == 0 && buf[0])
		return;
	if (resolve(ns, "..", subsys) == 0 && has_attr(subsys, "subsysnqn") &&
	    read_attr(subsys, name, buf, len) == 0 && buf[0])
		return;
	snprintf(buf, len, "?");
}

/* Records NVMe namespace directory ns (once). */
static void add_namespace(struct walk *w, const char *ns)
{
	struct sc_telemetry *t = w->t;
	const char *name = base_of(ns);
	char ctrl[PATH_MAX], size[ATTR_MAX];
	struct sc_drive *d;

	for (uint32_t i = 0; i < t->ndrives; i++)
		if (!strcmp(t->drives[i].device, name))
			return;
	if (t->ndrives == SC_DRIVES_MAX || strlen(name) >= SC_DRIVE_NAME_MAX)
		return;
	d = &t->drives[t->ndrives];
	memset(d, 0, sizeof(*d));
	snprintf(d->device, sizeof(d->device), "%s", name);
	if (read_attr(ns, "size", size, sizeof(size)) == 0)
		d->capacity_bytes = strtoull(size, NULL, 10) * SYSFS_SECTOR_BYTES;
	if (controller_of(ns, ctrl) == 0) {
		snprintf(d->controller, sizeof(d->controller), "%.*s",
			 (int)sizeof(d->controller) - 1, base_of(ctrl));
		identity_attr(ctrl, ns, "model", d->model, sizeof(d->model));
		identity_attr(ctrl, ns, "serial", d->serial, sizeof(d->serial));
		identity_attr(ctrl, ns, "firmware_rev", d->firmware, sizeof(d->firmware));
		find_hwmon(ctrl, t->temp_path[t->ndrives]);
	} else {
		snprintf(d->model, sizeof(d->model), "?");
		snprintf(d->serial, sizeof(d->serial), "?");
		snprintf(d->firmware, sizeof(d->firmware), "?");
	}
	t->ndrives++;
}

static void note_leaf(struct walk *w, const char *name)
{
	size_t n = strlen(w->leaves);

	if (strstr(w->leaves, name))
		return;
	snprintf(w->leaves + n, sizeof(w->leaves) - n, "%s%s", n ? ", " : "", name);
}

/* Walks block device directory dev (resolved) down to its disks. */
static void walk_stack(const char *dev, int depth, void (*fn)(void *arg, const char *disk),
		       void *arg)
{
	char disk[PATH_MAX], member[PATH_MAX], slaves[PATH_MAX];
	struct dirent *e;
	bool stacked = false;
	DIR *d;

	if (depth > WALK_DEPTH_MAX)
		return;
	snprintf(disk, sizeof(disk), "%s", dev);
	if (has_attr(dev, "partition") && resolve(dev, "..", disk))
		return;
	if ((size_t)snprintf(slaves, sizeof(slaves), "%s/slaves", disk) < sizeof(slaves) &&
	    (d = opendir(slaves))) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.' || resolve(slaves, e->d_name, member))
				continue;
			stacked = true;
			walk_stack(member, depth + 1, fn, arg);
		}
		closedir(d);
	}
	if (!stacked)
		fn(arg, disk);
}

void sc_telemetry_walk_disks(const char *dev, void (*fn)(void *arg, const char *disk), void *arg)
{
	walk_stack(dev, 0, fn, arg);
}

/* A disk of the walk: an NVMe namespace, or a device noted by name. */
static void walk_disk(void *arg, const char *disk)
{
	struct walk *w = arg;

	if (is_namespace(base_of(disk)))
		add_namespace(w, disk);
	else
		note_leaf(w, base_of(disk));
}

int sc_telemetry_probe_dev(const char *sysfs, dev_t dev, const char *what, struct sc_telemetry *t)
{
	struct walk w = {.sysfs = sysfs ? sysfs : SC_TELEMETRY_SYSFS, .t = t};
	char link[PATH_MAX], dir[PATH_MAX];

	memset(t, 0, sizeof(*t));
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", w.sysfs, major(dev), minor(dev));
	if (!realpath(link, dir)) {
		snprintf(t->none, sizeof(t->none),
			 "no NVMe telemetry: %s: block device %u:%u is not in %s/dev/block", what,
			 major(dev), minor(dev), w.sysfs);
		return 0;
	}
	sc_telemetry_walk_disks(dir, walk_disk, &w);
	if (!t->ndrives)
		snprintf(t->none, sizeof(t->none), "no NVMe telemetry: %.*s is on %.*s (not NVMe)",
			 SHOWN_MAX, what, SHOWN_MAX, w.leaves[0] ? w.leaves : base_of(dir));
	return (int)t->ndrives;
}

int sc_telemetry_probe(const char *sysfs, const char *path, struct sc_telemetry *t)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	if (stat(path, &st)) {
		snprintf(t->none, sizeof(t->none), "no NVMe telemetry: cannot look at %s: %s", path,
			 strerror(errno));
		return 0;
	}
	if (!S_ISBLK(st.st_mode) && major(st.st_dev) == 0) {
		snprintf(t->none, sizeof(t->none),
			 "no NVMe telemetry: %s is on a filesystem without a block device "
			 "(tmpfs, overlay, btrfs, a network filesystem: not followed)",
			 path);
		return 0;
	}
	return sc_telemetry_probe_dev(sysfs, S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, path, t);
}

uint64_t sc_telemetry_temp_mk(const struct sc_telemetry *t)
{
	uint64_t best = 0;
	char buf[ATTR_MAX];

	for (uint32_t i = 0; i < t->ndrives; i++) {
		char *end;
		long long mc;

		if (!t->temp_path[i][0] || read_attr(t->temp_path[i], NULL, buf, sizeof(buf)))
			continue;
		errno = 0;
		mc = strtoll(buf, &end, 10);
		if (end == buf || *end || errno || mc <= -SC_TEMP_MK_OFFSET)
			continue;
		if ((uint64_t)(mc + SC_TEMP_MK_OFFSET) > best)
			best = (uint64_t)(mc + SC_TEMP_MK_OFFSET);
	}
	return best;
}

int sc_telemetry_media_errors(const struct sc_rank_result *r, uint64_t *added)
{
	uint64_t sum = 0;

	*added = 0;
	if (!r->ndrives || !r->drives)
		return -ENODATA;
	for (uint32_t i = 0; i < r->ndrives; i++) {
		const struct sc_drive *d = &r->drives[i];

		if (!d->before.valid || !d->after.valid)
			return -ENODATA;
		if (d->after.media_errors > d->before.media_errors &&
		    __builtin_add_overflow(sum, d->after.media_errors - d->before.media_errors,
					   &sum))
			sum = UINT64_MAX;
	}
	*added = sum;
	return 0;
}

const struct sc_drive *sc_telemetry_identity(const struct sc_rank_result *r)
{
	return r->ndrives && r->drives ? &r->drives[0] : NULL;
}
