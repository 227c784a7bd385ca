/* test_guard.c -- the destroy guard: which phases write, devices in use
 * (on a fake /sys and /proc), libblkid signatures on image files, the
 * opt-ins for file targets, and the last check at open. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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
	char why[1024] = "";
	int rc = sc_guard_device_in_use(tmp, makedev(ma, mi), "/dev/fake", why, sizeof(why));

	if (!want)
		CHECK(rc == 0, "%u:%u is free, got %d: %s", ma, mi, rc, why);
	else
		CHECK(rc == -EBUSY && strstr(why, want), "%u:%u: want -EBUSY and \"%s\", got %d: %s",
		      ma, mi, want, rc, why);
}

static void test_in_use(void)
{
	struct stat st;
	char why[1024], rel[512];

	mkdirs("proc/self");
	put("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	put("proc/self/mountinfo",
	    "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	    "30 22 7:98 / /mnt/with\\040space rw shared:2 - ext4 /dev/loop98 rw\n"
	    "31 22 259:99 /sub /data rw shared:3 - xfs /dev/loop99p1 rw\n");
	/* 7:90 free; 7:98 mounted; 7:99 has partition 259:99, mounted */
	mkdirs("sys/dev/block/7:90/holders");
	mkdirs("sys/dev/block/7:98/holders");
	mkdirs("sys/dev/block/7:99/holders");
	mkdirs("sys/dev/block/7:99/loop99p1/holders");
	put("sys/dev/block/7:99/loop99p1/partition", "1\n");
	put("sys/dev/block/7:99/loop99p1/dev", "259:99\n");
	/* 7:97 held by dm-3 through its partition; 7:96 partitioned only */
	mkdirs("sys/dev/block/7:97/holders");
	mkdirs("sys/dev/block/7:97/loop97p2/holders/dm-3");
	put("sys/dev/block/7:97/loop97p2/partition", "2\n");
	put("sys/dev/block/7:97/loop97p2/dev", "259:97\n");
	snprintf(rel, sizeof(rel), "%s/sys/dev/block/259:97", tmp);
	CHECK(symlink("7:97/loop97p2", rel) == 0, "symlink %s", rel); /* as sysfs links them */
	mkdirs("sys/dev/block/7:96/holders");
	mkdirs("sys/dev/block/7:96/loop96p1");
	put("sys/dev/block/7:96/loop96p1/partition", "1\n");
	put("sys/dev/block/7:96/loop96p1/dev", "259:96\n");
	/* a directory named like a partition but without a partition file */
	mkdirs("sys/dev/block/7:90/queue");
	put("sys/dev/block/7:90/queue/dev", "259:90\n");

	expect_use(7, 90, NULL);
	expect_use(7, 98, "it (7:98) is mounted on /mnt/with space");
	expect_use(7, 99, "its partition loop99p1 (259:99) is mounted on /data");
	expect_use(7, 97, "its partition loop97p2 (259:97) is held by dm-3");
	expect_use(7, 96, "it has partitions (loop96p1)");
	CHECK(sc_guard_mounted(tmp, makedev(7, 99), why, sizeof(why)) == 1 &&
		  strcmp(why, "/data") == 0,
	      "sc_guard_mounted sees the mounted partition: %s", why);
	CHECK(sc_guard_mounted(tmp, makedev(7, 90), why, sizeof(why)) == 0, "7:90 not mounted");

	/* the root filesystem: the fake root's own device number */
	CHECK(stat(tmp, &st) == 0, "stat %s", tmp);
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u/holders", major(st.st_dev),
		 minor(st.st_dev));
	mkdirs(rel);
	expect_use(major(st.st_dev), minor(st.st_dev), "holds the root filesystem");

	/* no sysfs entry: nothing can be said, so it is not free */
	why[0] = '\0';
	CHECK(sc_guard_device_in_use(tmp, makedev(7, 91), "/dev/x", why, sizeof(why)) == -ENOENT &&
		  strstr(why, "cannot read /sys/dev/block/7:91"),
	      "no sysfs: -ENOENT and a message, got %s", why);

	/* no mountinfo: nothing is known either */
	char mi[512], mi2[512];

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
		return;
	}
	char node[512], text[1024];

	mkdirs("sys/dev/block/7:95/holders");
	mkdirs("sys/dev/block/7:94/holders");
	mkdirs("dev");
	snprintf(node, sizeof(node), "%s/dev/swapdev", tmp);
	CHECK(mknod(node, S_IFBLK | 0600, makedev(7, 95)) == 0, "mknod %s", node);
	snprintf(text, sizeof(text), "Filename\tType\tSize\tUsed\tPriority\n%s partition 1024 0 -2\n",
		 node);
	put("proc/swaps", text);
	expect_use(7, 95, "it (7:95) is active swap");
	/* a mount whose device number is not the device's (btrfs, say) but
	 * whose source is */
	snprintf(node, sizeof(node), "%s/dev/btrdev", tmp);
	CHECK(mknod(node, S_IFBLK | 0600, makedev(7, 94)) == 0, "mknod %s", node);
	snprintf(text, sizeof(text), "40 22 0:51 / /btr rw - btrfs %s rw\n", node);
	put("proc/self/mountinfo", text);
	expect_use(7, 94, "it (7:94) is mounted on /btr");
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
