/* test_uring_opts.c -- the io_uring options: SQPOLL really set up (its
 * kernel thread running, submissions after it slept still complete) or
 * reported refused; polled completions and NVMe passthrough reported
 * unavailable on a file; a block device's /dev/ngXnY found on the fake
 * sysfs tree (tests/data/sysfs);
 * the NVMe commands; and the notes a rank keeps (worker/io_opts.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "analysis/io_options.h"
#include "check.h"
#include "engine/engine.h"
#include "engine/uring_target.h"
#include "io_opts.h"

#define DEPTH	 8u
#define BS	 4096u
#define FILE_LEN (1u << 20)
/* Longer than the SQ thread's default idle time (1 s): it sleeps. */
#define SQ_IDLE_WAIT_US 1300000u

static char dir[256];
static char file[300];
static char file_used[300]; /* the rig's target instead of file when set */
static char sysfs[4096];    /* tests/data/sysfs */

/* Whether this process has a thread named iou-sqp-<pid> (an SQPOLL ring's). */
static int has_sqpoll_thread(void)
{
	char want[32], path[300], comm[64];
	struct dirent *de;
	DIR *d = opendir("/proc/self/task");
	int found = 0;

	snprintf(want, sizeof(want), "iou-sqp-%d", (int)getpid());
	while (d && (de = readdir(d))) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "re");
		if (f && fgets(comm, sizeof(comm), f) && strncmp(comm, want, strlen(want)) == 0)
			found = 1;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

/* DEPTH reads through e, all completed with BS bytes. */
static void reads_complete(struct sc_engine *e, struct sc_io *ios, const char *what)
{
	struct sc_io *done[DEPTH];
	uint32_t got = 0;
	int n;

	for (uint32_t i = 0; i < DEPTH; i++) {
		ios[i] = (struct sc_io){
		    .offset = (uint64_t)i * BS, .len = BS, .op = SC_OP_READ, .buf = i};
		CHECK(sc_engine_uring.queue(e, &ios[i]) == 0, "%s: queue %u", what, i);
	}
	n = sc_engine_uring.submit(e);
	CHECK(n == (int)DEPTH, "%s: submitted %d", what, n);
	while (got < DEPTH && n > 0) {
		n = sc_engine_uring.reap(e, done, DEPTH, 1);
		for (int i = 0; i < n; i++)
			CHECK(done[i]->res == (int32_t)BS, "%s: res %d", what, done[i]->res);
		got += n > 0 ? (uint32_t)n : 0;
	}
	CHECK(got == DEPTH, "%s: %u of %u reads completed", what, got, DEPTH);
}

/* What rig_init gives the engine besides the options (rig_conf sets them). */
static const char *rig_sys, *rig_dev;
static uint64_t rig_align = BS;

struct rig {
	int fd;
	void *mem;
	struct iovec iov[DEPTH];
	struct sc_io ios[DEPTH];
	struct sc_io_opts opts;
	struct sc_engine_conf conf;
	struct sc_engine *e; /* NULL when create failed */
};

/* A uring engine on the file with the options asked (cpu -1: any), its
 * options reported to r->opts. */
static void rig_init(struct rig *r, bool sqpoll, int32_t cpu, bool hipri, bool passthrough)
{
	const char *target = file_used[0] ? file_used : file;

	memset(r, 0, sizeof(*r));
	r->fd = open(target, O_RDONLY | O_DIRECT);
	CHECK(r->fd >= 0, "open %s: %s", target, strerror(errno));
	CHECK(posix_memalign(&r->mem, BS, (size_t)DEPTH * BS) == 0, "buffers");
	for (uint32_t i = 0; i < DEPTH; i++)
		r->iov[i] = (struct iovec){(char *)r->mem + (size_t)i * BS, BS};
	sc_io_opts_init(&r->opts);
	r->conf = (struct sc_engine_conf){.depth = DEPTH,
					  .fds = &r->fd,
					  .nfds = 1,
					  .bufs = r->iov,
					  .nbufs = DEPTH,
					  .sqpoll = sqpoll,
					  .sqpoll_cpu = cpu,
					  .hipri = hipri,
					  .passthrough = passthrough,
					  .io_align_bytes = rig_align,
					  .sysfs_root = rig_sys,
					  .dev_root = rig_dev,
					  .opts = &r->opts};
	CHECK(sc_engine_uring.create(&r->e, &r->conf) == 0,
	      "create: sqpoll %d cpu %d hipri %d passthrough %d", sqpoll, cpu, hipri, passthrough);
}

/* A passthrough rig on file_used with sysfs and /dev trees sys and dev,
 * its I/Os aligned to align bytes. */
static void rig_conf(struct rig *r, const char *sys, const char *dev, uint64_t align)
{
	rig_sys = sys;
	rig_dev = dev;
	rig_align = align;
	rig_init(r, false, -1, false, true);
	rig_sys = rig_dev = NULL;
	rig_align = BS;
}

static void rig_exit(struct rig *r)
{
	sc_engine_uring.destroy(r->e);
	sc_io_opts_destroy(&r->opts);
	free(r->mem);
	close(r->fd);
}

/* sqpoll: a ring with SQPOLL and its kernel thread, whose reads complete
 * also after the thread went to sleep (submit wakes it); or, where the
 * kernel refuses it, the reason and a plain ring that works. */
static void test_sqpoll(void)
{
	uint64_t before = sc_engine_uring_sqpoll_rings();
	char why[SC_IO_OPT_NOTE_MAX];
	struct rig r;

	rig_init(&r, true, -1, false, false);
	if (!r.e)
		goto out;
	if (r.opts.unavailable & (1u << SC_IO_OPT_SQPOLL)) {
		sc_io_opts_why(r.opts.note, SC_IO_OPT_SQPOLL, why, sizeof(why));
		CHECK(strncmp(why, "kernel refused IORING_SETUP_SQPOLL: ", 36) == 0, "why: %s",
		      why);
		CHECK(sc_engine_uring_sqpoll_rings() == before, "no SQPOLL ring counted");
		printf("sqpoll unavailable here: %s\n", why);
	} else {
		CHECK(sc_engine_uring_sqpoll_rings() == before + 1, "one SQPOLL ring counted");
		CHECK(r.opts.note[0] == '\0', "no note: %s", r.opts.note);
	}
	reads_complete(r.e, r.ios, "sqpoll, first batch");
	if (sc_engine_uring_sqpoll_rings() > before)
		CHECK(has_sqpoll_thread(), "an iou-sqp-%d thread runs", (int)getpid());
	usleep(SQ_IDLE_WAIT_US);
	reads_complete(r.e, r.ios, "sqpoll, after the SQ thread slept");
out:
	rig_exit(&r);
}

/* sqpoll on a CPU the machine does not have: the kernel refuses, the ring
 * is a plain one and the note names the CPU. */
static void test_sqpoll_bad_cpu(void)
{
	uint64_t rings = sc_engine_uring_rings(), sq = sc_engine_uring_sqpoll_rings();
	char why[SC_IO_OPT_NOTE_MAX];
	struct rig r;

	rig_init(&r, true, 8191, false, false);
	sc_io_opts_why(r.opts.note, SC_IO_OPT_SQPOLL, why, sizeof(why));
	CHECK(r.opts.unavailable == 1u << SC_IO_OPT_SQPOLL, "sqpoll unavailable: %#x",
	      r.opts.unavailable);
	CHECK(strncmp(why, "kernel refused IORING_SETUP_SQPOLL on CPU 8191: ", 48) == 0, "why: %s",
	      why);
	CHECK(sc_engine_uring_rings() == rings + 1 && sc_engine_uring_sqpoll_rings() == sq,
	      "one plain ring");
	if (r.e)
		reads_complete(r.e, r.ios, "after sqpoll refused");
	rig_exit(&r);
}

/* hipri and passthrough on a file: both unavailable with their reasons,
 * before the ring is set up; the reads go through the normal path. */
static void test_file_target(void)
{
	uint64_t iopoll = sc_engine_uring_iopoll_rings(), pt = sc_engine_uring_passthru_rings();
	char why[SC_IO_OPT_NOTE_MAX];
	struct rig r;

	rig_init(&r, false, -1, true, true);
	CHECK(r.opts.unavailable == ((1u << SC_IO_OPT_HIPRI) | (1u << SC_IO_OPT_PASSTHRU)),
	      "both unavailable: %#x", r.opts.unavailable);
	sc_io_opts_why(r.opts.note, SC_IO_OPT_HIPRI, why, sizeof(why));
	CHECK(strncmp(why, "hipri needs a block device with poll queues (target is a file on ",
		      65) == 0 &&
		  strstr(why, "?") == NULL,
	      "hipri: %s", why);
	sc_io_opts_why(r.opts.note, SC_IO_OPT_PASSTHRU, why, sizeof(why));
	CHECK(
	    strncmp(why,
		    "passthrough needs a block device that is an NVMe namespace; target is a file "
		    "on ",
		    80) == 0,
	    "passthrough: %s", why);
	CHECK(sc_engine_uring_iopoll_rings() == iopoll && sc_engine_uring_passthru_rings() == pt,
	      "neither ring set up");
	if (r.e)
		reads_complete(r.e, r.ios, "file, options left out");
	rig_exit(&r);
}

/* mkdir -p path.  0 or -1. */
static int mkdir_p(const char *path)
{
	char p[400];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0, "write %s", path);
	if (f)
		fclose(f);
}

/* Passthrough's namespace for block device maj:min of the fake sysfs
 * (tests/data/sysfs) with /dev as devroot: the generic device's
 * descriptor or -errno, its reason in why. */
static int ng_open(const char *devroot, unsigned maj, unsigned min, struct sc_nvme_ns *ns,
		   char *why, size_t len)
{
	struct stat st = {.st_mode = S_IFBLK | 0600, .st_rdev = makedev(maj, min)};

	why[0] = '\0';
	return sc_uring_ng_open_stat(sysfs, devroot, &st, O_RDONLY, ns, why, len);
}

/* A whole namespace's generic device found beside it in sysfs (a plain
 * one and a multipath head), opened from devroot and checked against the
 * numbers sysfs gives; everything else refused with a reason naming the
 * target: a partition, one path of a multipath namespace, a virtio disk,
 * a loop device, a namespace without a generic device, a device node of
 * other numbers, no device node. */
static void test_ng_open(void)
{
	char dev[300], dev2[300], p[400], why[SC_URING_WHY_MAX];
	struct sc_nvme_ns ns;
	int fd;

	snprintf(dev, sizeof(dev), "%s/dev", dir);
	snprintf(dev2, sizeof(dev2), "%s/dev2", dir);
	CHECK(mkdir(dev, 0700) == 0 && mkdir(dev2, 0700) == 0, "mkdir %s", dev);
	snprintf(p, sizeof(p), "%s/ng0n1", dev);
	CHECK(symlink("/dev/null", p) == 0, "link %s", p);
	snprintf(p, sizeof(p), "%s/ng4n1", dev);
	CHECK(symlink("/dev/zero", p) == 0, "link %s", p);
	snprintf(p, sizeof(p), "%s/ng0n1", dev2);
	CHECK(symlink("/dev/zero", p) == 0, "link %s", p);

	fd = ng_open(dev, 259, 0, &ns, why, sizeof(why));
	CHECK(fd >= 0, "nvme0n1: %s", why);
	CHECK(ns.nsid == 1 && ns.lba_shift == 12 && !strcmp(ns.block, "nvme0n1") &&
		  !strcmp(ns.ng, "ng0n1"),
	      "nvme0n1: nsid %u, lba_shift %u, %s, %s", ns.nsid, ns.lba_shift, ns.block, ns.ng);
	if (fd >= 0)
		close(fd);
	fd = ng_open(dev, 259, 4, &ns, why, sizeof(why));
	CHECK(fd >= 0 && ns.nsid == 2 && ns.lba_shift == 9 && !strcmp(ns.ng, "ng4n1"),
	      "multipath head nvme4n1: %d %s nsid %u shift %u %s", fd, why, ns.nsid, ns.lba_shift,
	      ns.ng);
	if (fd >= 0)
		close(fd);

	static const struct {
		unsigned maj, min;
		const char *why;
	} refused[] = {
	    {259, 1, "passthrough needs a whole namespace; target is a partition nvme0n1p1"},
	    {259, 9,
	     "passthrough needs the multipath namespace nvme4n1; target nvme4c5n1 is one "
	     "path of it"},
	    {254, 0,
	     "passthrough needs a block device that is an NVMe namespace; target is a "
	     "block device (vda)"},
	    {254, 1,
	     "passthrough needs a block device that is an NVMe namespace; target is a "
	     "block device (vda1)"},
	    {7, 0,
	     "passthrough needs a block device that is an NVMe namespace; target is a block "
	     "device (loop0)"},
	    {259, 2,
	     "passthrough needs the generic device of nvme1n1; sysfs has no ng1n1 of class "
	     "nvme-generic next to it"},
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		fd = ng_open(dev, refused[i].maj, refused[i].min, &ns, why, sizeof(why));
		CHECK(fd == -ENODEV && !strcmp(why, refused[i].why), "%u:%u: %d %s", refused[i].maj,
		      refused[i].min, fd, why);
	}
	fd = ng_open(dev2, 259, 0, &ns, why, sizeof(why));
	CHECK(fd == -ENODEV && strstr(why, "/dev2/ng0n1 (of nvme0n1) is not the character device "
					   "1:3 sysfs names"),
	      "another device node: %d %s", fd, why);
	snprintf(p, sizeof(p), "%s/ng0n1", dev2);
	unlink(p);
	fd = ng_open(dev2, 259, 0, &ns, why, sizeof(why));
	CHECK(fd == -ENOENT && strstr(why, "passthrough: cannot open ") &&
		  strstr(why, "/dev2/ng0n1 (of nvme0n1): No such file or directory"),
	      "no device node: %d %s", fd, why);

	/* I/Os in whole blocks of the namespace, known before the run */
	ns = (struct sc_nvme_ns){.nsid = 1, .lba_shift = 12, .block = "nvme0n1"};
	CHECK(sc_uring_ng_align(&ns, 8192, why, sizeof(why)) == 0, "8 KiB I/Os on 4 KiB blocks");
	CHECK(sc_uring_ng_align(&ns, 512, why, sizeof(why)) == -EINVAL &&
		  !strcmp(why,
			  "passthrough needs I/Os in whole logical blocks of nvme0n1 (4096 B); "
			  "this phase's offsets and lengths are multiples of 512 B"),
	      "512 B I/Os: %s", why);
	CHECK(sc_uring_ng_align(&ns, 0, why, sizeof(why)) == -EINVAL, "unknown offsets");
}

/* A loop device over file into loop (len bytes): 0, or -1 when none can
 * be made here (not root, no losetup), said as what is skipped. */
static int loop_attach(char *loop, size_t len, const char *what)
{
	char cmd[400];
	FILE *f;

	loop[0] = '\0';
	snprintf(cmd, sizeof(cmd), "losetup --find --show %s 2>/dev/null", file);
	f = popen(cmd, "r");
	if (f && fgets(loop, (int)len, f))
		loop[strcspn(loop, "\n")] = '\0';
	if (f)
		pclose(f);
	if (strncmp(loop, "/dev/loop", 9) != 0) {
		printf("skipped %s: no loop device here\n", what);
		return -1;
	}
	return 0;
}

/* hipri on a block device: a loop device (here, no poll queues) is
 * refused with its name and io_poll; the same device in a sysfs tree whose
 * queue polls is taken.  Skipped without losetup or root. */
static void test_poll_block(void)
{
	char cmd[400], loop[64] = "", sys[300], p[400], why[SC_URING_WHY_MAX];
	struct stat st;
	int fd;

	if (loop_attach(loop, sizeof(loop), "the block-device check") != 0)
		return;
	fd = open(loop, O_RDONLY);
	CHECK(fd >= 0 && fstat(fd, &st) == 0, "open %s", loop);
	if (fd >= 0) {
		char want[128];

		snprintf(want, sizeof(want),
			 "(target is a block device (%s), whose queue/io_poll is 0)", loop + 5);
		CHECK(sc_uring_poll_check("/sys", fd, why, sizeof(why)) == -EOPNOTSUPP &&
			  strstr(why, want),
		      "%s: %s", loop, why);
		snprintf(sys, sizeof(sys), "%s/sysblk", dir);
		snprintf(p, sizeof(p), "%s/devices/virtual/block/%s/queue", sys, loop + 5);
		CHECK(mkdir_p(p) == 0, "mkdir %s", p);
		snprintf(p, sizeof(p), "%s/dev/block", sys);
		CHECK(mkdir_p(p) == 0, "mkdir %s", p);
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u", sys, major(st.st_rdev),
			 minor(st.st_rdev));
		snprintf(cmd, sizeof(cmd), "../../devices/virtual/block/%s", loop + 5);
		CHECK(symlink(cmd, p) == 0, "link %s", p);
		snprintf(p, sizeof(p), "%s/devices/virtual/block/%s/queue/io_poll", sys, loop + 5);
		write_text(p, "1\n");
		CHECK(sc_uring_poll_check(sys, fd, why, sizeof(why)) == 0, "a queue that polls: %s",
		      why);
		close(fd);
	}
	snprintf(cmd, sizeof(cmd), "losetup -d %s", loop);
	CHECK(system(cmd) == 0, "%s", cmd);
}

/* Whether the running kernel is at least major.minor. */
static bool kernel_at_least(unsigned major_v, unsigned minor_v)
{
	struct utsname u;
	unsigned a = 0, b = 0;

	if (uname(&u) != 0 || sscanf(u.release, "%u.%u", &a, &b) != 2)
		return false;
	return a > major_v || (a == major_v && b >= minor_v);
}

/* A tree standing in for /sys in which block device st (a loop device) is
 * nvme0n1 (nsid 1, 4 KiB blocks) beside ng0n1, whose numbers are
 * /dev/null's, and a /dev in which ng0n1 is /dev/null. */
static void pt_tree(const struct stat *st, char *sys, char *dev, size_t len)
{
	const char *ctrl = "devices/pci0000:00/0000:00:04.0/nvme/nvme0";
	char p[600];

	snprintf(sys, len, "%s/ptsys", dir);
	snprintf(dev, len, "%s/ptdev", dir);
	snprintf(p, sizeof(p), "%s/%s/nvme0n1/queue", sys, ctrl);
	CHECK(mkdir_p(p) == 0, "mkdir %s", p);
	snprintf(p, sizeof(p), "%s/%s/nvme0n1/nsid", sys, ctrl);
	write_text(p, "1\n");
	snprintf(p, sizeof(p), "%s/%s/nvme0n1/queue/logical_block_size", sys, ctrl);
	write_text(p, "4096\n");
	snprintf(p, sizeof(p), "%s/%s/ng0n1", sys, ctrl);
	CHECK(mkdir_p(p) == 0, "mkdir %s", p);
	snprintf(p, sizeof(p), "%s/%s/ng0n1/dev", sys, ctrl);
	write_text(p, "1:3\n");
	snprintf(p, sizeof(p), "%s/%s/ng0n1/subsystem", sys, ctrl);
	CHECK(symlink("../../../../../../class/nvme-generic", p) == 0, "link %s", p);
	snprintf(p, sizeof(p), "%s/dev/block", sys);
	CHECK(mkdir_p(p) == 0 && mkdir(dev, 0700) == 0, "mkdir %s", p);
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u", sys, major(st->st_rdev), minor(st->st_rdev));
	CHECK(symlink("../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", p) == 0,
	      "link %s", p);
	snprintf(p, sizeof(p), "%s/ng0n1", dev);
	CHECK(symlink("/dev/null", p) == 0, "link %s", p);
}

/* The engine's passthrough path, as far as it runs without NVMe: a loop
 * device that the tree says is nvme0n1 gets a ring with SQE128|CQE32 (or
 * the kernel's refusal, naming ng0n1) whose reads go as NVMe commands to
 * "ng0n1" (/dev/null, which completes a command with 0 where the kernel
 * gives it a uring_cmd; the loop device would refuse one); an I/O not in whole blocks is refused at
 * queue; I/Os of 512 B alignment leave passthrough out before the run and read the loop device the
 * normal way.  Skipped without losetup or root. */
static void test_pt_engine(void)
{
	char loop[64] = "", cmd[400], sys[300], dev[300], why[SC_IO_OPT_NOTE_MAX];
	uint64_t pt = sc_engine_uring_passthru_rings();
	struct sc_io *done[DEPTH];
	struct stat st;
	struct rig r;
	int n;

	if (loop_attach(loop, sizeof(loop), "the passthrough engine check") != 0)
		return;
	CHECK(stat(loop, &st) == 0, "stat %s", loop);
	pt_tree(&st, sys, dev, sizeof(sys));
	snprintf(file_used, sizeof(file_used), "%s", loop);
	rig_conf(&r, sys, dev, BS);
	sc_io_opts_why(r.opts.note, SC_IO_OPT_PASSTHRU, why, sizeof(why));
	if (r.opts.unavailable) {
		CHECK(strstr(why, "kernel refused IORING_SETUP_SQE128|IORING_SETUP_CQE32 for ng0n1 "
				  "(of nvme0n1): ") == why,
		      "refused: %s", why);
		printf("passthrough ring refused here: %s\n", why);
	} else if (r.e) {
		CHECK(sc_engine_uring_passthru_rings() == pt + 1, "one passthrough ring");
		r.ios[0] = (struct sc_io){.offset = 512, .len = BS, .op = SC_OP_READ};
		CHECK(sc_engine_uring.queue(r.e, &r.ios[0]) == -EINVAL, "512 B offset refused");
		for (uint32_t i = 0; i < 2; i++) {
			r.ios[i] = (struct sc_io){
			    .offset = (uint64_t)i * BS, .len = BS, .op = SC_OP_READ, .buf = i};
			CHECK(sc_engine_uring.queue(r.e, &r.ios[i]) == 0, "queue %u", i);
		}
		CHECK(sc_engine_uring.submit(r.e) == 2, "submitted");
		n = sc_engine_uring.reap(r.e, done, DEPTH, 2);
		CHECK(n == 2, "reaped %d", n);
		/* /dev/null takes any command and completes it with 0 on
		 * kernels that give it a uring_cmd (seen on 6.18; required from
		 * there), which the engine counts as the I/O's bytes; older
		 * ones refuse it.  A command sent to the loop device instead
		 * would be refused. */
		for (int i = 0; i < n; i++)
			CHECK(done[i]->res == (int32_t)BS ||
				  (done[i]->res == -EOPNOTSUPP && !kernel_at_least(6, 18)),
			      "a command to ng0n1 (/dev/null): res %d", done[i]->res);
		if (n > 0)
			printf("passthrough: 2 NVMe reads to ng0n1 (/dev/null) completed with %d\n",
			       done[0]->res);
	}
	rig_exit(&r);

	rig_conf(&r, sys, dev, 512);
	sc_io_opts_why(r.opts.note, SC_IO_OPT_PASSTHRU, why, sizeof(why));
	CHECK(!strcmp(why, "passthrough needs I/Os in whole logical blocks of nvme0n1 (4096 B); "
			   "this phase's offsets and lengths are multiples of 512 B"),
	      "512 B alignment: %s", why);
	if (r.e)
		reads_complete(r.e, r.ios, "loop device, passthrough left out");
	rig_exit(&r);
	file_used[0] = '\0';
	snprintf(cmd, sizeof(cmd), "losetup -d %s", loop);
	CHECK(system(cmd) == 0, "%s", cmd);
}

/* The NVMe commands: fields, blocks, and what is refused. */
static void test_nvme_cmd(void)
{
	const struct sc_nvme_ns ns = {.nsid = 7, .lba_shift = 12};
	struct nvme_uring_cmd c;
	char buf[16];
	uint64_t far = (UINT64_C(5) << 32) * 4096 + 3 * 4096;

	CHECK(sc_nvme_cmd_build(&c, sizeof(c), &ns, SC_OP_READ, buf, 8192, 40960) == 0, "read");
	CHECK(c.opcode == 0x02 && c.nsid == 7 && c.addr == (uint64_t)(uintptr_t)buf &&
		  c.data_len == 8192 && c.cdw10 == 10 && c.cdw11 == 0 && c.cdw12 == 1,
	      "read: op %u nsid %u len %u slba %u/%u nlb-1 %u", c.opcode, c.nsid, c.data_len,
	      c.cdw10, c.cdw11, c.cdw12);
	CHECK(sc_nvme_cmd_build(&c, sizeof(c), &ns, SC_OP_WRITE, buf, 4096, far) == 0, "write");
	CHECK(c.opcode == 0x01 && c.cdw10 == 3 && c.cdw11 == 5 && c.cdw12 == 0,
	      "write past 2^32 blocks: op %u slba %u/%u nlb-1 %u", c.opcode, c.cdw10, c.cdw11,
	      c.cdw12);
	CHECK(sc_nvme_cmd_build(&c, sizeof(c), &ns, SC_OP_FSYNC, NULL, 0, 0) == 0 &&
		  c.opcode == 0x00 && c.nsid == 7 && c.data_len == 0,
	      "fsync is a flush");
	CHECK(sc_nvme_cmd_build(&c, sizeof(c), &ns, SC_OP_READ, buf, 4096, 512) == -EINVAL,
	      "offset not whole blocks");
	CHECK(sc_nvme_cmd_build(&c, sizeof(c), &ns, SC_OP_READ, buf, 6144, 0) == -EINVAL,
	      "length not whole blocks");
	CHECK(sc_nvme_cmd_build(&c, sizeof(c), &ns, SC_OP_READ, buf, 0, 0) == -EINVAL, "no blocks");
	CHECK(sc_nvme_cmd_build(&c, sizeof(c) - 1, &ns, SC_OP_READ, buf, 4096, 0) == -EINVAL,
	      "short command buffer");
}

/* A rank's note: the first reason per option, options joined with "; ",
 * each read back alone, cut to fit. */
static void test_notes(void)
{
	struct sc_io_opts o;
	char why[SC_IO_OPT_NOTE_MAX], big[400];

	sc_io_opts_init(&o);
	sc_io_opts_ask(&o, SC_IO_OPT_SQPOLL);
	sc_io_opts_ask(&o, SC_IO_OPT_HIPRI);
	sc_io_opts_ask(&o, SC_IO_OPT_NUMA);
	CHECK(o.asked == 0x13 && !o.unavailable, "asked %#x", o.asked);
	sc_io_opts_unavailable(&o, SC_IO_OPT_HIPRI, "no poll queues on %s", "vda");
	sc_io_opts_unavailable(&o, SC_IO_OPT_HIPRI, "a second job's reason");
	sc_io_opts_unavailable(&o, SC_IO_OPT_NUMA, "cpus: 0-1; node 1 has none");
	CHECK(strcmp(o.note, "hipri: no poll queues on vda; numa: cpus: 0-1; node 1 has none") == 0,
	      "note: %s", o.note);
	CHECK(o.unavailable == ((1u << SC_IO_OPT_HIPRI) | (1u << SC_IO_OPT_NUMA)),
	      "unavailable %#x", o.unavailable);
	CHECK(strcmp(sc_io_opts_why(o.note, SC_IO_OPT_HIPRI, why, sizeof(why)),
		     "no poll queues on vda") == 0,
	      "hipri's: %s", why);
	CHECK(strcmp(sc_io_opts_why(o.note, SC_IO_OPT_NUMA, why, sizeof(why)),
		     "cpus: 0-1; node 1 has none") == 0,
	      "numa's, with a \"; \" and a colon of its own: %s", why);
	CHECK(strcmp(sc_io_opts_why(o.note, SC_IO_OPT_SQPOLL, why, sizeof(why)), "") == 0,
	      "sqpoll has none: %s", why);
	CHECK(strcmp(sc_io_opts_why(o.note, SC_IO_OPT_HIPRI, why, 8), "no poll") == 0,
	      "cut to the buffer: %s", why);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	sc_io_opts_unavailable(&o, SC_IO_OPT_SQPOLL, "%s", big);
	CHECK(strlen(o.note) == SC_IO_OPT_NOTE_MAX - 1, "the note is cut to fit: %zu",
	      strlen(o.note));
	CHECK(strlen(sc_io_opts_why(o.note, SC_IO_OPT_SQPOLL, why, sizeof(why))) > 100,
	      "the cut reason is still read back");
	sc_io_opts_destroy(&o);
}

/* Over a phase's ranks: asked and unavailable counted per option, the
 * lowest unavailable rank's reason kept. */
static void test_figures(void)
{
	struct sc_rank_result r[3];
	struct sc_phase_record pr = {.nranks = 3, .ranks = r};
	struct sc_io_opt_figures f[SC_IO_OPT_COUNT];

	memset(r, 0, sizeof(r));
	CHECK(!sc_io_opts_any_asked(&pr), "nothing asked");
	for (int i = 0; i < 3; i++) {
		r[i].rank = (uint32_t)i;
		r[i].opts_asked = (1u << SC_IO_OPT_SQPOLL) | (1u << SC_IO_OPT_HIPRI);
	}
	r[1].opts_unavailable = (1u << SC_IO_OPT_SQPOLL) | (1u << SC_IO_OPT_HIPRI);
	snprintf(r[1].opts_note, sizeof(r[1].opts_note),
		 "sqpoll: kernel refused IORING_SETUP_SQPOLL: Operation not permitted; "
		 "hipri: no poll queues");
	r[2].opts_unavailable = 1u << SC_IO_OPT_HIPRI;
	snprintf(r[2].opts_note, sizeof(r[2].opts_note), "hipri: another reason");
	sc_io_opt_figures(&pr, f);
	CHECK(sc_io_opts_any_asked(&pr), "asked");
	CHECK(f[SC_IO_OPT_SQPOLL].asked_ranks == 3 && f[SC_IO_OPT_SQPOLL].unavailable_ranks == 1 &&
		  !strcmp(f[SC_IO_OPT_SQPOLL].why,
			  "kernel refused IORING_SETUP_SQPOLL: Operation not permitted"),
	      "sqpoll: %u %u %s", f[SC_IO_OPT_SQPOLL].asked_ranks,
	      f[SC_IO_OPT_SQPOLL].unavailable_ranks, f[SC_IO_OPT_SQPOLL].why);
	CHECK(f[SC_IO_OPT_HIPRI].asked_ranks == 3 && f[SC_IO_OPT_HIPRI].unavailable_ranks == 2 &&
		  !strcmp(f[SC_IO_OPT_HIPRI].why, "no poll queues"),
	      "hipri: %u %u %s", f[SC_IO_OPT_HIPRI].asked_ranks,
	      f[SC_IO_OPT_HIPRI].unavailable_ranks, f[SC_IO_OPT_HIPRI].why);
	CHECK(f[SC_IO_OPT_NUMA].asked_ranks == 0 && f[SC_IO_OPT_NUMA].why[0] == '\0',
	      "numa not asked");
}

int main(void)
{
	int fd;
	char *zero = calloc(1, FILE_LEN);

	const char *src = getenv("SC_SOURCE_DIR");

	if (!src) {
		fprintf(stderr, "test_uring_opts: SC_SOURCE_DIR is not set (run it with ctest)\n");
		return 1;
	}
	snprintf(sysfs, sizeof(sysfs), "%s/tests/data/sysfs", src);
	check_mkdtemp(dir, sizeof(dir), "test_uring_opts");
	snprintf(file, sizeof(file), "%s/data", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0 || !zero || write(fd, zero, FILE_LEN) != (ssize_t)FILE_LEN) {
		perror(file);
		return 1;
	}
	close(fd);
	free(zero);

	test_notes();
	test_figures();
	test_nvme_cmd();
	test_ng_open();
	test_poll_block();
	test_pt_engine();
	test_file_target();
	test_sqpoll_bad_cpu();
	test_sqpoll();

	check_rmtree(dir);
	return check_exit("test_uring_opts");
}
