/* test_guard.c -- the destroy guard: which phases write, devices in use
 * (on a fake /sys and /proc), libblkid signatures on image files, the
 * opt-ins for file targets, and the last check at open. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "guard.h"

static char tmp[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* mkdir -p of tmp/rel */
static void mkdirs(const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	for (char *p = path + strlen(tmp) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void put(const char *rel, const char *text)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	write_file(path, text);
}

static void test_phase_writes(void)
{
	struct sc_phase ph;

	memset(&ph, 0, sizeof(ph));
	ph.workload = SC_WORKLOAD_IO;
	ph.io.engine = SC_ENGINE_URING;
	ph.io.rw = SC_RW_RANDREAD;
	CHECK(!sc_guard_phase_writes(&ph), "randread writes nothing");
	ph.io.rw = SC_RW_RANDRW;
	CHECK(sc_guard_phase_writes(&ph), "randrw writes");
	ph.io.rw = SC_RW_WRITE;
	CHECK(sc_guard_phase_writes(&ph), "write writes");
	ph.io.verify_only = true;
	CHECK(!sc_guard_phase_writes(&ph), "verify_only only reads");
	ph.io.verify_only = false;
	ph.io.engine = SC_ENGINE_NULL;
	CHECK(!sc_guard_phase_writes(&ph), "the null engine writes nothing");
	ph.io.engine = SC_ENGINE_PSYNC;
	ph.workload = SC_WORKLOAD_CHECKPOINT;
	ph.io.rw = SC_RW_READ;
	CHECK(sc_guard_phase_writes(&ph), "a checkpoint writes");
	ph.ckpt.restore = true;
	CHECK(!sc_guard_phase_writes(&ph), "a restore reads");
	ph.workload = SC_WORKLOAD_INGEST;
	CHECK(sc_guard_phase_writes(&ph), "ingest lays out its dataset");
}

/* sc_guard_device_in_use on the fake tree for device ma:mi: want 0 or
 * -EBUSY with `want` in the message. */
static void expect_use(unsigned ma, unsigned mi, const char *want)
{
	char why[2048] = "";
	int rc = sc_guard_device_in_use(tmp, makedev(ma, mi), "/dev/fake", why, sizeof(why));

	if (!want)
		CHECK(rc == 0, "%u:%u is free, got %d: %s", ma, mi, rc, why);
	else
		CHECK(rc == -EBUSY && strstr(why, want), "%u:%u: want -EBUSY and \"%s\", got %d: %s",
		      ma, mi, want, rc, why);
}

/* ---- a fake sysfs laid out as the kernel does it ---- */

static void link_at(const char *target, const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	CHECK(symlink(target, path) == 0, "symlink %s", path);
}

/* The sysfs directory (relative to tmp) of a device: a disk under
 * sys/devices/virtual/block, a partition inside its disk's. */
static void dev_dir(char *buf, size_t len, const char *disk, const char *name)
{
	if (disk)
		snprintf(buf, len, "sys/devices/virtual/block/%s/%s", disk, name);
	else
		snprintf(buf, len, "sys/devices/virtual/block/%s", name);
}

/* A block device: NAME (partition of disk when disk is set, starting at
 * start sectors), ma:mi, sectors long, with /sys/class/block and
 * /sys/dev/block links. */
static void fake_dev(const char *disk, const char *name, unsigned ma, unsigned mi,
		     uint64_t sectors, uint64_t start)
{
	char dir[512], rel[640], text[64], target[640];

	dev_dir(dir, sizeof(dir), disk, name);
	snprintf(rel, sizeof(rel), "%s/holders", dir);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "%s/dev", dir);
	snprintf(text, sizeof(text), "%u:%u\n", ma, mi);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%s/size", dir);
	snprintf(text, sizeof(text), "%ju\n", (uintmax_t)sectors);
	put(rel, text);
	if (disk) {
		snprintf(rel, sizeof(rel), "%s/partition", dir);
		put(rel, "1\n");
		snprintf(rel, sizeof(rel), "%s/start", dir);
		snprintf(text, sizeof(text), "%ju\n", (uintmax_t)start);
		put(rel, text);
	}
	mkdirs("sys/class/block");
	mkdirs("sys/dev/block");
	snprintf(target, sizeof(target), "../../%s", dir + 4);
	snprintf(rel, sizeof(rel), "sys/class/block/%s", name);
	link_at(target, rel);
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", ma, mi);
	link_at(target, rel);
}

/* Disk `name` is a loop device over `backing` at offset bytes. */
static void fake_loop(const char *name, const char *backing, uint64_t offset)
{
	char dir[512], rel[640], text[600];

	dev_dir(dir, sizeof(dir), NULL, name);
	snprintf(rel, sizeof(rel), "%s/loop", dir);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "%s/loop/backing_file", dir);
	snprintf(text, sizeof(text), "%s\n", backing);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%s/loop/offset", dir);
	snprintf(text, sizeof(text), "%ju\n", (uintmax_t)offset);
	put(rel, text);
}

/* holder (a dm or md disk) holds device `name` (of disk, or a disk). */
static void fake_hold(const char *disk, const char *name, const char *holder)
{
	char dir[512], rel[640];

	dev_dir(dir, sizeof(dir), disk, name);
	snprintf(rel, sizeof(rel), "%s/holders/%s", dir, holder);
	mkdirs(rel);
	dev_dir(dir, sizeof(dir), NULL, holder);
	snprintf(rel, sizeof(rel), "%s/slaves/%s", dir, name);
	mkdirs(rel);
}

/* A regular file of bytes under tmp, for loop backings; its path in buf. */
static void fake_image(char *buf, size_t len, const char *name, uint64_t bytes)
{
	snprintf(buf, len, "%s/%s", tmp, name);
	write_file(buf, "");
	CHECK(truncate(buf, (off_t)bytes) == 0, "truncate %s", buf);
}

#define MIB (1024ull * 1024ull)
#define SECTORS(bytes) ((bytes) / 512u)

/* Mounts, partitions, holders: what is built on a device itself. */
static void test_in_use_direct(void)
{
	mkdirs("proc/self");
	put("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	put("proc/self/mountinfo",
	    "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	    "30 22 7:98 / /mnt/with\\040space rw shared:2 - ext4 /dev/loop98 rw\n"
	    "31 22 259:99 /sub /data rw shared:3 - xfs /dev/loop99p1 rw\n");
	/* loop90 free; loop98 mounted; loop99's partition mounted */
	fake_dev(NULL, "loop90", 7, 90, SECTORS(64 * MIB), 0);
	fake_dev(NULL, "loop98", 7, 98, SECTORS(64 * MIB), 0);
	fake_dev(NULL, "loop99", 7, 99, SECTORS(64 * MIB), 0);
	fake_dev("loop99", "loop99p1", 259, 99, SECTORS(32 * MIB), 2048);
	/* loop97's partition held by dm-3; loop96 partitioned only */
	fake_dev(NULL, "loop97", 7, 97, SECTORS(64 * MIB), 0);
	fake_dev("loop97", "loop97p2", 259, 97, SECTORS(32 * MIB), 2048);
	fake_dev(NULL, "dm-3", 253, 3, SECTORS(32 * MIB), 0);
	fake_hold("loop97", "loop97p2", "dm-3");
	fake_dev(NULL, "loop96", 7, 96, SECTORS(64 * MIB), 0);
	fake_dev("loop96", "loop96p1", 259, 96, SECTORS(32 * MIB), 2048);

	expect_use(7, 90, NULL);
	expect_use(7, 98, "it (7:98) is mounted on /mnt/with space");
	expect_use(7, 99, "its partition loop99p1 (259:99) is mounted on /data");
	expect_use(7, 97,
		   "dm-3 (253:3), a device-mapper or md device holding its partition loop97p2 "
		   "(259:97) is built on its bytes");
	expect_use(7, 96, "it has partitions (loop96p1)");
	/* a dm device: its members are under it, and their holder is itself;
	 * another holder of a member is another user of its bytes */
	expect_use(253, 3, NULL);
	fake_dev(NULL, "dm-4", 253, 4, SECTORS(32 * MIB), 0);
	fake_hold("loop97", "loop97p2", "dm-4");
	expect_use(253, 3,
		   "dm-4 (253:4), a device-mapper or md device holding loop97p2 (259:97), a "
		   "member of it (253:3)");
}

/* The stack both ways: partitions that overlap, the disk's table, loop
 * devices over files and devices, at offsets. */
static void test_in_use_stack(void)
{
	char img[512], dev[512], text[1024];

	/* overlapping partitions on loop80: p1 [1, 17) MiB, p2 [9, 25) MiB
	 * mounted, p3 [32, 48) MiB free; loop81's p1 starts at sector 1 */
	fake_dev(NULL, "loop80", 7, 80, SECTORS(64 * MIB), 0);
	fake_dev("loop80", "loop80p1", 259, 81, SECTORS(16 * MIB), SECTORS(1 * MIB));
	fake_dev("loop80", "loop80p2", 259, 82, SECTORS(16 * MIB), SECTORS(9 * MIB));
	fake_dev("loop80", "loop80p3", 259, 83, SECTORS(16 * MIB), SECTORS(32 * MIB));
	fake_dev(NULL, "loop81", 7, 81, SECTORS(64 * MIB), 0);
	fake_dev("loop81", "loop81p1", 259, 84, SECTORS(16 * MIB), 1);
	put("proc/self/mountinfo",
	    "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	    "32 22 259:82 / /ovl rw - ext4 /dev/loop80p2 rw\n"
	    "33 22 7:71 / /x rw - ext4 /dev/loop71 rw\n");
	expect_use(259, 81,
		   "loop80p2 (259:82), a partition overlapping loop80 (7:80), the disk holding "
		   "it (259:81) is mounted on /ovl");
	expect_use(259, 83, NULL);
	expect_use(259, 84, "its bytes include the partition table of loop81 (7:81)");

	/* loop70 over img [0, 8) MiB; loop71 over [4, 6) MiB of it, mounted;
	 * loop72 over [6, 8) MiB; loop75 over [8, 16) MiB: nothing else there */
	fake_image(img, sizeof(img), "stack.img", 16 * MIB);
	fake_dev(NULL, "loop70", 7, 70, SECTORS(8 * MIB), 0);
	fake_loop("loop70", img, 0);
	fake_dev(NULL, "loop71", 7, 71, SECTORS(2 * MIB), 0);
	fake_loop("loop71", img, 4 * MIB);
	fake_dev(NULL, "loop72", 7, 72, SECTORS(2 * MIB), 0);
	fake_loop("loop72", img, 6 * MIB);
	fake_dev(NULL, "loop75", 7, 75, SECTORS(8 * MIB), 0);
	fake_loop("loop75", img, 8 * MIB);
	snprintf(text, sizeof(text),
		 "loop71 (7:71), a loop device over the file %s, the backing of it (7:70) is "
		 "mounted on /x",
		 img);
	expect_use(7, 70, text);
	expect_use(7, 72, "loop70 (7:70), a loop device over the file");
	expect_use(7, 75, NULL);
	/* the image file itself, as a file target: loops are built on it */
	{
		struct stat ist;
		char why[1024] = "";

		CHECK(stat(img, &ist) == 0, "stat %s", img);
		CHECK(sc_guard_file_in_use(tmp, &ist, why, sizeof(why)) == -EBUSY &&
			  strstr(why, "loop71 (7:71), a loop device over it is mounted on /x"),
		      "a file under a mounted loop: %s", why);
	}
	/* the same file as active swap */
	snprintf(text, sizeof(text), "Filename\tType\tSize\tUsed\tPriority\n%s file 16384 0 -2\n",
		 img);
	put("proc/swaps", text);
	expect_use(7, 75, "is active swap");
	put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");

	/* a mount in another mount namespace, seen through a process in it */
	mkdirs("proc/self/ns");
	mkdirs("proc/4242/ns");
	link_at("mnt:[4026531841]", "proc/self/ns/mnt");
	link_at("mnt:[4026532999]", "proc/4242/ns/mnt");
	put("proc/4242/mountinfo", "50 40 7:75 / /elsewhere rw - ext4 /dev/loop75 rw\n");
	expect_use(7, 75,
		   "it (7:75) is mounted on /elsewhere in another mount namespace (that of "
		   "process 4242)");
	put("proc/4242/mountinfo", "50 40 254:1 / / rw - ext4 /dev/vda1 rw\n");
	expect_use(7, 75, NULL);

	/* a loop device over a block device (a node of ours): loop76 over
	 * loop98, which is mounted */
	if (geteuid() == 0) {
		mkdirs("dev");
		snprintf(dev, sizeof(dev), "%s/dev/loop98", tmp);
		CHECK(mknod(dev, S_IFBLK | 0600, makedev(7, 98)) == 0, "mknod %s", dev);
		put("proc/self/mountinfo", "30 22 7:98 / /m98 rw - ext4 /dev/loop98 rw\n");
		fake_dev(NULL, "loop76", 7, 76, SECTORS(8 * MIB), 0);
		fake_loop("loop76", dev, 1 * MIB);
		expect_use(7, 76, "loop98 (7:98), the backing of it (7:76) is mounted on /m98");
		put("proc/self/mountinfo", "22 1 254:1 / / rw - ext4 /dev/vda1 rw\n");
		expect_use(7, 98, "loop76 (7:76), a loop device over it (7:98) is built on its bytes");
	} else {
		printf("SKIP part: a loop over a device node needs root (mknod)\n");
	}

	/* a loop whose backing cannot be identified: nothing can be said */
	fake_dev(NULL, "loop77", 7, 77, SECTORS(8 * MIB), 0);
	snprintf(img, sizeof(img), "%s/gone.img (deleted)", tmp);
	fake_loop("loop77", img, 0);
	text[0] = '\0';
	CHECK(sc_guard_device_in_use(tmp, makedev(7, 90), "/dev/x", text, sizeof(text)) == -EIO &&
		  strstr(text, "cannot tell what loop77 is backed by"),
	      "an unknown backing: -EIO and a message, got %s", text);
}

static void test_in_use(void)
{
	struct stat st;
	char why[1024], rel[512], mi[512], mi2[512];

	test_in_use_direct();
	CHECK(sc_guard_mounted(tmp, makedev(7, 99), why, sizeof(why)) == 1 &&
		  strcmp(why, "/data") == 0,
	      "sc_guard_mounted sees the mounted partition: %s", why);
	CHECK(sc_guard_mounted(tmp, makedev(7, 90), why, sizeof(why)) == 0, "7:90 not mounted");

	/* the root filesystem: the fake root's own device number */
	CHECK(stat(tmp, &st) == 0, "stat %s", tmp);
	snprintf(rel, sizeof(rel), "rootdev%u", minor(st.st_dev));
	fake_dev(NULL, rel, major(st.st_dev), minor(st.st_dev), SECTORS(64 * MIB), 0);
	expect_use(major(st.st_dev), minor(st.st_dev), "holds the root filesystem");

	/* no sysfs entry: nothing can be said, so it is not free */
	why[0] = '\0';
	CHECK(sc_guard_device_in_use(tmp, makedev(7, 91), "/dev/x", why, sizeof(why)) == -ENOENT &&
		  strstr(why, "7:91 is not in"),
	      "no sysfs: -ENOENT and a message, got %s", why);

	/* no mountinfo: nothing is known either */
	snprintf(mi, sizeof(mi), "%s/proc/self/mountinfo", tmp);
	snprintf(mi2, sizeof(mi2), "%s/proc/self/mountinfo.away", tmp);
	CHECK(rename(mi, mi2) == 0, "rename %s", mi);
	why[0] = '\0';
	CHECK(sc_guard_device_in_use(tmp, makedev(7, 90), "/dev/x", why, sizeof(why)) == -ENOENT &&
		  strstr(why, "cannot read /proc/self/mountinfo"),
	      "no mountinfo: -ENOENT and a message, got %s", why);
	CHECK(sc_guard_mounted(tmp, makedev(7, 90), why, sizeof(why)) == -ENOENT,
	      "sc_guard_mounted without mountinfo");
	CHECK(rename(mi2, mi) == 0, "rename back %s", mi2);

	/* swap and mount sources name device nodes: needs mknod (root) */
	if (geteuid() != 0) {
		printf("SKIP part: swap and mount-source checks need root (mknod)\n");
	} else {
		char node[512], text[1024];

		fake_dev(NULL, "loop95", 7, 95, SECTORS(64 * MIB), 0);
		fake_dev(NULL, "loop94", 7, 94, SECTORS(64 * MIB), 0);
		mkdirs("dev");
		snprintf(node, sizeof(node), "%s/dev/swapdev", tmp);
		CHECK(mknod(node, S_IFBLK | 0600, makedev(7, 95)) == 0, "mknod %s", node);
		snprintf(text, sizeof(text),
			 "Filename\tType\tSize\tUsed\tPriority\n%s partition 1024 0 -2\n", node);
		put("proc/swaps", text);
		expect_use(7, 95, "it (7:95) is active swap");
		put("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n");
		/* a mount whose device number is not the device's (btrfs, say)
		 * but whose source is */
		snprintf(node, sizeof(node), "%s/dev/btrdev", tmp);
		CHECK(mknod(node, S_IFBLK | 0600, makedev(7, 94)) == 0, "mknod %s", node);
		snprintf(text, sizeof(text), "40 22 0:51 / /btr rw - btrfs %s rw\n", node);
		put("proc/self/mountinfo", text);
		expect_use(7, 94, "it (7:94) is mounted on /btr");
	}
	test_in_use_stack();
}

/* Runs a shell command; 0 when it succeeded. */
static int sh(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, arg, arg);
	return system(cmd);
}

static void expect_sigs(const char *path, int want_rc, const char *want)
{
	char found[512] = "";
	int fd = open(path, O_RDONLY);
	int rc = fd < 0 ? -errno : sc_guard_signatures(fd, found, sizeof(found));

	CHECK(rc == want_rc && (!want || strstr(found, want)), "%s: want %d \"%s\", got %d \"%s\"",
	      path, want_rc, want ? want : "", rc, found);
	if (fd >= 0)
		close(fd);
}

static void test_signatures(void)
{
	char img[512];

	snprintf(img, sizeof(img), "%s/blank.img", tmp);
	CHECK(sh("truncate -s 16M %s", img) == 0, "truncate");
	expect_sigs(img, 0, NULL);
	if (sh("command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F %s >/dev/null 2>&1", img) == 0)
		expect_sigs(img, 1, "ext4 (filesystem)");
	else
		printf("SKIP part: no mkfs.ext4\n");
	snprintf(img, sizeof(img), "%s/pt.img", tmp);
	if (sh("truncate -s 16M %s && printf 'label: dos\\nstart=2048, type=83\\n' | "
	       "sfdisk -q %s >/dev/null 2>&1",
	       img) == 0)
		expect_sigs(img, 1, "a dos partition table");
	else
		printf("SKIP part: no sfdisk\n");
	snprintf(img, sizeof(img), "%s/swap.img", tmp);
	if (sh("truncate -s 16M %s && mkswap %s >/dev/null 2>&1", img) == 0)
		expect_sigs(img, 1, "swap");
	else
		printf("SKIP part: no mkswap\n");
}

/* A plan of one target at path and one phase. */
static void plan_init(struct sc_plan *plan, struct sc_target_spec *t, struct sc_phase *ph,
		      const char *path, enum sc_rw rw)
{
	memset(plan, 0, sizeof(*plan));
	memset(t, 0, sizeof(*t));
	memset(ph, 0, sizeof(*ph));
	t->path = (char *)path;
	t->kind = SC_TARGET_FILE;
	ph->name = (char *)"wr";
	ph->workload = SC_WORKLOAD_IO;
	ph->io.rw = rw;
	ph->io.engine = SC_ENGINE_PSYNC;
	plan->ntargets = 1;
	plan->targets = t;
	plan->nphases = 1;
	plan->phases = ph;
}

static void expect_check(const struct sc_plan *plan, int want_rc, const char *want)
{
	char why[2048] = "";
	int claim = 7;
	int rc = sc_guard_check(plan, 0, &claim, why, sizeof(why));

	CHECK(rc == want_rc && (!want || strstr(why, want)), "want %d \"%s\", got %d: %s",
	      want_rc, want ? want : "", rc, why);
	CHECK(claim == -1, "no claim for a file (got %d)", claim);
}

static void test_file_target(void)
{
	struct sc_plan plan;
	struct sc_target_spec t;
	struct sc_phase ph;
	char file[512], other[512], missing[512], why[1024];
	int fd;

	snprintf(file, sizeof(file), "%s/target.dat", tmp);
	snprintf(other, sizeof(other), "%s/other.dat", tmp);
	snprintf(missing, sizeof(missing), "%s/nothing-here", tmp);
	write_file(file, "data");
	write_file(other, "data");

	plan_init(&plan, &t, &ph, file, SC_RW_WRITE);
	expect_check(&plan, -EPERM,
		     "phase wr writes to it, which destroys what it holds; refused: set "
		     "allow_destroy: true on that target and add --allow-destroy");
	plan.allow_destroy = true;
	expect_check(&plan, -EPERM, "set allow_destroy: true on that target");
	plan.allow_destroy = false;
	t.allow_destroy = true;
	expect_check(&plan, -EPERM,
		     "targets.0 (" /* the head names target, path and kind */);
	expect_check(&plan, -EPERM, "the command line lacks --allow-destroy");

	/* nothing approved yet: a job may not write the file */
	fd = open(file, O_RDWR);
	CHECK(sc_guard_check_fd(fd, SC_TARGET_FILE, file, why, sizeof(why)) == -EPERM &&
		  strstr(why, "not the file the destroy guard approved"),
	      "unapproved file refused: %s", why);
	close(fd);

	plan.allow_destroy = true;
	expect_check(&plan, 0, NULL);
	fd = open(file, O_RDWR);
	CHECK(sc_guard_check_fd(fd, SC_TARGET_FILE, file, why, sizeof(why)) == 0,
	      "the approved file may be written: %s", why);
	close(fd);
	fd = open(other, O_RDWR);
	CHECK(sc_guard_check_fd(fd, SC_TARGET_FILE, other, why, sizeof(why)) == -EPERM,
	      "another file is refused");
	CHECK(sc_guard_check_fd(fd, SC_TARGET_DIR, other, why, sizeof(why)) == 0,
	      "a regular file of a directory target passes");
	snprintf(missing, sizeof(missing), "%s/other.link", tmp);
	CHECK(link(other, missing) == 0, "link %s", missing);
	CHECK(sc_guard_check_fd(fd, SC_TARGET_DIR, other, why, sizeof(why)) == -EPERM &&
		  strstr(why, "2 hard links"),
	      "a file with another name is not only the run's: %s", why);
	unlink(missing);
	snprintf(missing, sizeof(missing), "%s/nothing-here", tmp);
	close(fd);
	/* a file bind-mounted over a name of the run's (root) */
	snprintf(missing, sizeof(missing), "%s/victim.dat", tmp);
	write_file(missing, "victim");
	if (mount(missing, other, NULL, MS_BIND, NULL) == 0) {
		fd = open(other, O_RDWR);
		CHECK(sc_guard_check_fd(fd, SC_TARGET_DIR, other, why, sizeof(why)) == -EPERM &&
			  strstr(why, "a file is mounted over it"),
		      "a bind-mounted file is not the run's: %s", why);
		close(fd);
		CHECK(umount(other) == 0, "umount %s", other);
	} else {
		printf("SKIP part: cannot bind-mount a file here (%s)\n", strerror(errno));
	}
	snprintf(missing, sizeof(missing), "%s/nothing-here", tmp);
	fd = open(other, O_RDWR);
	CHECK(sc_guard_check_fd(fd, SC_TARGET_DIR, other, why, sizeof(why)) == 0,
	      "unmounted, the run's file passes again: %s", why);
	close(fd);
	fd = open(other, O_RDONLY);
	CHECK(sc_guard_check_fd(fd, SC_TARGET_FILE, other, why, sizeof(why)) == 0,
	      "a read-only descriptor passes");
	close(fd);

	/* reading, the null engine, a directory, nothing there: no opt-in */
	plan_init(&plan, &t, &ph, file, SC_RW_RANDREAD);
	expect_check(&plan, 0, NULL);
	plan_init(&plan, &t, &ph, file, SC_RW_WRITE);
	ph.io.engine = SC_ENGINE_NULL;
	expect_check(&plan, 0, NULL);
	plan_init(&plan, &t, &ph, tmp, SC_RW_WRITE);
	expect_check(&plan, 0, NULL);
	plan_init(&plan, &t, &ph, missing, SC_RW_WRITE);
	expect_check(&plan, 0, NULL);
	CHECK(sc_guard_first_writer(&plan) == 0, "phase 0 writes");
	ph.io.rw = SC_RW_READ;
	CHECK(sc_guard_first_writer(&plan) == -1, "no phase writes");
}

int main(void)
{
	check_mkdtemp(tmp, sizeof(tmp), "test_guard");
	test_phase_writes();
	test_in_use();
	test_signatures();
	test_file_target();
	check_rmtree(tmp);
	return check_exit("test_guard");
}
