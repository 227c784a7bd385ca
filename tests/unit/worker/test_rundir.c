/* test_rundir.c -- the run directory and what the run opens below it: made
 * exclusively, refused when it exists or is a symlink, joined only with
 * the run's key; files and directories below it (and in the ingest
 * dataset) never reached through a symlink, planted even between two
 * phases, and victims left byte for byte; removal takes only what the run
 * made, unlinking symlinks without following them, and stays on the run
 * directory's own mount: a bind mount (of a directory or of one file) or a
 * tmpfs mounted in it is left with every byte, and named. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ckpt_model.h"
#include "run.h"
#include "layout.h"
#include "plan.h"
#include "rundir.h"

#define VICTIM_TEXT "precious bytes that no run may touch\n"
/* Room for a path below a run directory (struct sc_rundir's path). */
#define BELOW_RUN_MAX 4400

static char tmpdir[256];

/* A directory target, one phase (io write of 2 x 256 KiB, or the workload
 * the caller sets), run id "t". */
static void plan_dir(struct sc_plan *plan, const char *target)
{
	struct sc_io_spec *io = &check_plan_dir(plan, target, "t", "p", 1)->io;

	io->rw = SC_RW_WRITE;
	io->bs_bytes = 65536;
	io->iodepth = 2;
	io->jobs = 2;
	io->size_bytes = 256 << 10;
	io->io_bytes = 256 << 10;
	io->direct = false;
	io->engine = SC_ENGINE_PSYNC;
	io->seed = 3;
}

static const struct sc_place rank0 = {
    .rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};

/* A fresh target directory under tmpdir. */
static void target_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
	CHECK(mkdir(buf, 0755) == 0, "mkdir %s", buf);
}

/* A victim file with known content; victim_ok says it is untouched. */
static void victim_make(const char *path)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(VICTIM_TEXT, f) >= 0, "make victim %s", path);
	if (f)
		fclose(f);
}

static int victim_ok(const char *path)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	struct stat st;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return strcmp(buf, VICTIM_TEXT) == 0 && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_symlink(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* Runs phase 0 at rank0 in dir to the end; sc_run_create's or
 * sc_run_finish's code, err holding the message. */
static int run_once(const struct sc_plan *plan, const struct sc_rundir *dir, char *err,
		    size_t errlen)
{
	struct sc_rank_result res;
	struct sc_run *run = NULL;
	int rc = sc_run_create(&run, plan, 0, &rank0, dir, err, errlen);

	if (rc)
		return rc;
	sc_run_start(run, sc_now_ns());
	while (!sc_run_done(run))
		usleep(1000);
	rc = sc_run_finish(run, &res);
	if (rc)
		snprintf(err, errlen, "%s", res.error);
	sc_rank_result_exit(&res);
	sc_run_destroy(run);
	return rc;
}

/* Made once: a second create fails with -EEXIST and changes nothing; a
 * rank with the key joins, one without it (or a planted directory) is
 * refused; the marker is gone once unmarked; the directory is 0700. */
static void test_create_join(void)
{
	struct sc_plan plan;
	struct sc_rundir a, b;
	char target[400], run[500], marker[600], err[1024];
	struct stat st;

	target_dir(target, sizeof(target), "create");
	plan_dir(&plan, target);
	snprintf(run, sizeof(run), "%s/ssdcluster-t", target);
	snprintf(marker, sizeof(marker), "%s/.ssdcluster-run", run);
	sc_rundir_init(&a);
	sc_rundir_init(&b);
	CHECK(sc_rundir_create(&a, &plan, &rank0, "k1", err, sizeof(err)) == 0, "%s", err);
	CHECK(a.created && a.fd >= 0, "the creator holds the directory");
	CHECK(stat(run, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	      "%s is a 0700 directory (mode %o)", run, (unsigned)(st.st_mode & 0777));
	CHECK(sc_rundir_create(&b, &plan, &rank0, "k1", err, sizeof(err)) == -EEXIST,
	      "a second create of one run directory fails");
	CHECK(!b.created && b.fd < 0, "and holds nothing");
	CHECK(sc_rundir_join(&b, &plan, &rank0, "k2", err, sizeof(err)) == -EEXIST,
	      "joining without the run's key is refused");
	CHECK(strstr(err, run) && strstr(err, "not this run's directory") &&
		  strstr(err, "--run-id"),
	      "the message names the directory and what to do: %s", err);
	CHECK(sc_rundir_join(&b, &plan, &rank0, "k1", err, sizeof(err)) == 0, "join: %s", err);
	CHECK(!b.created, "a rank that joined did not create");
	CHECK(sc_rundir_remove(&b) == 0 && stat(run, &st) == 0, "nor does it remove");
	CHECK(sc_rundir_unmark(&a) == 0 && stat(marker, &st) != 0, "the marker is removed");
	CHECK(sc_rundir_remove(&a) == 0 && stat(run, &st) != 0, "the creator removes it");
	sc_rundir_exit(&a);
	sc_rundir_exit(&b);

	/* a directory someone made beforehand: nobody creates, nobody joins,
	 * nothing is removed */
	CHECK(mkdir(run, 0700) == 0, "plant %s", run);
	sc_rundir_init(&a);
	CHECK(sc_rundir_create(&a, &plan, &rank0, "k1", err, sizeof(err)) == -EEXIST, "planted");
	CHECK(sc_rundir_join(&a, &plan, &rank0, "k1", err, sizeof(err)) == -EEXIST,
	      "a planted directory without the marker is refused");
	CHECK(sc_rundir_remove(&a) == 0 && stat(run, &st) == 0, "and not removed");
	sc_rundir_exit(&a);
	CHECK(rmdir(run) == 0, "unplant");

	/* the run directory itself a symlink to a victim's directory */
	char vdir[500], vfile[600];

	snprintf(vdir, sizeof(vdir), "%s/victim_dir", target);
	snprintf(vfile, sizeof(vfile), "%s/victim", vdir);
	CHECK(mkdir(vdir, 0700) == 0, "mkdir %s", vdir);
	victim_make(vfile);
	CHECK(symlink(vdir, run) == 0, "plant a symlink as %s", run);
	sc_rundir_init(&a);
	CHECK(sc_rundir_create(&a, &plan, &rank0, "k1", err, sizeof(err)) == -EEXIST, "link");
	CHECK(sc_rundir_join(&a, &plan, &rank0, "k1", err, sizeof(err)) == -ELOOP,
	      "a symlinked run directory is refused (-ELOOP)");
	CHECK(strstr(err, "symbolic link"), "and said so: %s", err);
	CHECK(sc_rundir_remove(&a) == 0 && is_symlink(run) && victim_ok(vfile),
	      "the link and its victim stay");
	sc_rundir_exit(&a);
	sc_plan_exit(&plan);
}

/* sc_rundir_openat and _subdir never follow a symlink, never open a FIFO
 * or someone else's file to write, and take one plain component. */
static void test_open_below(void)
{
	char dir[400], victim[500], path[600], err[256];
	int dfd, fd;

	target_dir(dir, sizeof(dir), "below");
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	victim_make(victim);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK(symlink(victim, path) == 0, "plant %s", path);
	CHECK(sc_rundir_openat(dfd, "link", O_WRONLY, SC_RUNDIR_NEW) == -ELOOP, "new: -ELOOP");
	CHECK(sc_rundir_openat(dfd, "link", O_RDWR, SC_RUNDIR_ANY) == -ELOOP, "any: -ELOOP");
	CHECK(sc_rundir_openat(dfd, "link", O_RDONLY, SC_RUNDIR_OLD) == -ELOOP, "old: -ELOOP");
	CHECK(victim_ok(victim), "the victim is unchanged");
	snprintf(err, sizeof(err), "%s", sc_rundir_strerror(-ELOOP));
	CHECK(strstr(err, "symbolic link"), "the reason says symbolic link: %s", err);

	/* a FIFO: refused at once, not waited on */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo");
	CHECK(sc_rundir_openat(dfd, "fifo", O_WRONLY, SC_RUNDIR_ANY) == -EPERM, "FIFO: -EPERM");
	CHECK(sc_rundir_openat(dfd, "fifo", O_RDONLY, SC_RUNDIR_OLD) == -EPERM, "FIFO: -EPERM");

	/* new, then reopened; NEW refuses what exists */
	fd = sc_rundir_openat(dfd, "f", O_WRONLY, SC_RUNDIR_NEW);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1, "create f");
	close(fd);
	CHECK(sc_rundir_openat(dfd, "f", O_WRONLY, SC_RUNDIR_NEW) == -EEXIST, "new: -EEXIST");
	fd = sc_rundir_openat(dfd, "f", O_RDWR, SC_RUNDIR_ANY);
	CHECK(fd >= 0 && (fcntl(fd, F_GETFL) & O_NONBLOCK) == 0, "reopened, blocking");
	close(fd);
	CHECK(sc_rundir_openat(dfd, "missing", O_RDONLY, SC_RUNDIR_OLD) == -ENOENT, "old: -ENOENT");
	CHECK(sc_rundir_openat(dfd, "..", O_RDONLY, SC_RUNDIR_OLD) == -EINVAL, "..: -EINVAL");
	CHECK(sc_rundir_openat(dfd, "a/b", O_RDONLY, SC_RUNDIR_ANY) == -EINVAL, "a/b: -EINVAL");

	/* someone else's file is not reopened to write (root can tell) */
	if (geteuid() == 0) {
		snprintf(path, sizeof(path), "%s/f", dir);
		CHECK(chown(path, 65534, 65534) == 0, "chown");
		CHECK(sc_rundir_openat(dfd, "f", O_WRONLY, SC_RUNDIR_ANY) == -EPERM,
		      "someone else's file to write: -EPERM");
		fd = sc_rundir_openat(dfd, "f", O_RDONLY, SC_RUNDIR_OLD);
		CHECK(fd >= 0, "but read");
		close(fd);
	}

	/* subdirectories: made and opened one component at a time */
	fd = sc_rundir_subdir(dfd, "x/y", true, 0700);
	CHECK(fd >= 0, "x/y made");
	close(fd);
	snprintf(path, sizeof(path), "%s/dlink", dir);
	CHECK(symlink(tmpdir, path) == 0, "plant %s", path);
	CHECK(sc_rundir_subdir(dfd, "dlink/z", true, 0700) == -ELOOP, "a symlinked dir: -ELOOP");
	snprintf(path, sizeof(path), "%s/z", tmpdir);
	CHECK(access(path, F_OK) != 0, "nothing made through the link");
	CHECK(sc_rundir_subdir(dfd, "../escape", true, 0700) == -EINVAL, "..: -EINVAL");
	CHECK(sc_rundir_subdir(dfd, "x/./y", true, 0700) == -EINVAL, ".: -EINVAL");
	snprintf(path, sizeof(path), "%s/escape", tmpdir);
	CHECK(access(path, F_OK) != 0, "nothing made outside");
	close(dfd);
	unlink(victim);
}

/* A symlink planted in the run directory between two phases: the next
 * phase's job cannot open its file (write, or read that lays out data)
 * and the victim keeps every byte. */
static void test_planted_between_phases(void)
{
	struct sc_plan plan;
	struct sc_rundir rd;
	char target[400], victim[500], job0[600], err[1024];
	int rc;

	target_dir(target, sizeof(target), "between");
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	victim_make(victim);
	plan_dir(&plan, target);
	sc_rundir_init(&rd);
	CHECK(sc_rundir_create(&rd, &plan, &rank0, "k", err, sizeof(err)) == 0, "%s", err);
	rc = run_once(&plan, &rd, err, sizeof(err));
	CHECK(rc == 0, "phase 1: %s", err);
	snprintf(job0, sizeof(job0), "%s/ssdcluster-t/r0.j0.dat", target);
	CHECK(unlink(job0) == 0 && symlink(victim, job0) == 0, "plant %s -> victim", job0);
	for (int p = 0; p < 2; p++) {
		/* phase 2 writes; phase 3 reads a bigger file (lays it out first) */
		plan.phases[0].io.rw = p == 0 ? SC_RW_WRITE : SC_RW_READ;
		plan.phases[0].io.size_bytes = p == 0 ? 256 << 10 : 512 << 10;
		err[0] = '\0';
		rc = run_once(&plan, &rd, err, sizeof(err));
		CHECK(rc == -ELOOP, "phase %d through a planted symlink: rc %d, want -ELOOP", p + 2,
		      rc);
		CHECK(strstr(err, job0) && strstr(err, "symbolic link"),
		      "the message names the file and the reason: %s", err);
		CHECK(victim_ok(victim), "phase %d left the victim unchanged", p + 2);
	}
	/* the same for a checkpoint: its group directory planted as a link */
	char cdir[600], vdir[500], *dot;
	struct sc_phase *ph = &plan.phases[0];

	snprintf(vdir, sizeof(vdir), "%s/victim_dir", tmpdir);
	CHECK(mkdir(vdir, 0755) == 0, "mkdir %s", vdir);
	snprintf(cdir, sizeof(cdir), "%s/ssdcluster-t/p", target);
	CHECK(symlink(vdir, cdir) == 0, "plant %s", cdir);
	ph->workload = SC_WORKLOAD_CHECKPOINT;
	CHECK(sc_ckpt_model_lookup("llama3-8b", &ph->ckpt.model) == 0, "model");
	ph->ckpt.layout = (struct sc_ckpt_layout){.tp = 1, .pp = 1, .dp = 1};
	ph->ckpt.checkpoints = 1;
	ph->ckpt.index = 1;
	ph->ckpt.scale = 0.000001;
	ph->io.jobs = 1;
	rc = run_once(&plan, &rd, err, sizeof(err));
	CHECK(rc == -ELOOP, "a checkpoint into a planted symlink: rc %d, want -ELOOP", rc);
	CHECK(strstr(err, "symbolic link"), "message: %s", err);
	CHECK(rmdir(vdir) == 0, "nothing was written in the victim directory");
	/* and with the real directory there, the run writes, then removal
	 * unlinks a symlink inside without following it */
	CHECK(unlink(cdir) == 0, "unplant");
	rc = run_once(&plan, &rd, err, sizeof(err));
	CHECK(rc == 0, "checkpoint: %s", err);
	dot = strrchr(cdir, '/');
	snprintf(dot, sizeof(cdir) - (size_t)(dot - cdir), "/p/global_epoch1_step1/link");
	CHECK(symlink(victim, cdir) == 0, "plant %s", cdir);
	CHECK(sc_rundir_remove(&rd) == 0, "remove");
	snprintf(cdir, sizeof(cdir), "%s/ssdcluster-t", target);
	CHECK(access(cdir, F_OK) != 0, "the run directory is gone");
	CHECK(victim_ok(victim), "the victim of a link inside survives removal");
	sc_rundir_exit(&rd);
	sc_plan_exit(&plan);
	unlink(victim);
}

/* Removal: only what this run made; a run directory swapped for another
 * is left alone. */
static void test_remove(void)
{
	struct sc_plan plan;
	struct sc_rundir rd;
	char target[400], run[500], moved[500], sib[500], err[512];
	struct stat st;

	target_dir(target, sizeof(target), "remove");
	plan_dir(&plan, target);
	snprintf(run, sizeof(run), "%s/ssdcluster-t", target);
	snprintf(moved, sizeof(moved), "%s/moved", target);
	snprintf(sib, sizeof(sib), "%s/sibling", target);
	victim_make(sib);
	sc_rundir_init(&rd);
	CHECK(sc_rundir_create(&rd, &plan, &rank0, "k", err, sizeof(err)) == 0, "%s", err);
	/* swapped: ours renamed away, another directory in its place */
	CHECK(rename(run, moved) == 0 && mkdir(run, 0700) == 0, "swap");
	CHECK(sc_rundir_remove(&rd) == -ESTALE, "a swapped run directory is not removed");
	CHECK(stat(run, &st) == 0, "the directory in its place stays");
	CHECK(victim_ok(sib), "the sibling stays");
	sc_rundir_exit(&rd);
	CHECK(rmdir(run) == 0 && rmdir(moved) == 0, "tidy");
	sc_plan_exit(&plan);
}

/* Mounts for the tests below go in a mount namespace of this process's
 * own (private: nothing reaches the rest of the machine, and they are
 * gone when it exits).  False, with the reason printed, when there is
 * none (not root, no namespaces): those tests are skipped. */
static bool own_mount_ns(void)
{
	static int ok = -1;

	if (ok < 0) {
		ok = geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
		     mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
		if (!ok)
			printf("skip: mounts in the run directory (need root and a mount "
			       "namespace: %s)\n",
			       geteuid() == 0 ? strerror(errno) : "not root");
	}
	return ok;
}

/* Puts the victims dir/a and dir/sub/b in directory dir (made if new). */
static void victim_tree(const char *dir)
{
	char path[BELOW_RUN_MAX];

	CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s", dir);
	snprintf(path, sizeof(path), "%s/a", dir);
	victim_make(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	CHECK(mkdir(path, 0755) == 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/sub/b", dir);
	victim_make(path);
}

/* Whether dir/a and dir/sub/b keep their bytes. */
static int victim_tree_ok(const char *dir)
{
	char a[BELOW_RUN_MAX], b[BELOW_RUN_MAX];

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/sub/b", dir);
	return victim_ok(a) && victim_ok(b);
}

/* Whether rd's last removal names path with a reason that holds why. */
static bool left_names(const struct sc_rundir *rd, const char *path, const char *why)
{
	for (unsigned i = 0; i < rd->left.named; i++)
		if (strcmp(rd->left.entry[i].path, path) == 0 && rd->left.entry[i].why &&
		    strstr(rd->left.entry[i].why, why))
			return true;
	return false;
}

/* What a test mounts in a run directory. */
enum mount_kind {
	BIND_DIR,  /* a victim directory, bind mounted on a directory */
	BIND_FILE, /* a victim file, bind mounted over a file */
	TMPFS,	   /* a tmpfs holding victims */
};

/* One mount in a run directory: where (relative to it), what, and the
 * reason removal gives for leaving it. */
struct mount_case {
	const char *at; /* "x", "d/y" */
	enum mount_kind kind;
	const char *why;
};

/* A fresh run directory holding the run's files f0, d/g and the mount
 * point m->at, with m mounted there; victim: where the victims are (a
 * bind mount's source, made here: it is victim_NAME in tmpdir; or the
 * mount point of a tmpfs, which gets them).  False when the mount fails. */
static bool mount_in_run_dir(struct sc_rundir *rd, const struct sc_plan *plan,
			     const struct mount_case *m, const char *name, char *victim, size_t len)
{
	bool bind = m->kind != TMPFS;

	char err[1024], path[BELOW_RUN_MAX];

	sc_rundir_init(rd);
	CHECK(sc_rundir_create(rd, plan, &rank0, "k", err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_rundir_unmark(rd) == 0, "unmark");
	snprintf(path, sizeof(path), "%s/f0", rd->path);
	victim_make(path);
	snprintf(path, sizeof(path), "%s/d", rd->path);
	CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/d/g", rd->path);
	victim_make(path);
	snprintf(path, sizeof(path), "%s/%s", rd->path, m->at);
	if (m->kind == BIND_FILE)
		victim_make(path); /* the run's own file, mounted over */
	else
		CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
	if (bind) {
		snprintf(victim, len, "%s/victim_%s", tmpdir, name);
		if (m->kind == BIND_FILE)
			victim_make(victim);
		else
			victim_tree(victim);
	}
	if (mount(bind ? victim : "sc-test", path, bind ? NULL : "tmpfs", bind ? MS_BIND : 0,
		  bind ? NULL : "size=1m") != 0) {
		printf("skip: mount at %s: %s\n", path, strerror(errno));
		return false;
	}
	if (!bind) {
		snprintf(victim, len, "%s", path);
		victim_tree(victim);
	}
	return true;
}

/* Removal stays on the run directory's mount: a victim directory bind
 * mounted on a directory in it (at the top, one level down), a victim
 * file bind mounted over a file in it, a tmpfs mounted in it.  Each is
 * left, neither unlinked nor entered: every victim keeps its bytes, the
 * entry is named with its reason, the run directory stays (-EXDEV), and
 * the run's own files around it are gone. */
static void test_remove_mounts(void)
{
	const struct mount_case cases[] = {
	    {"x", BIND_DIR, "another mount of this filesystem"},
	    {"d/y", BIND_DIR, "another mount of this filesystem"},
	    {"f", BIND_FILE, "another mount of this filesystem"},
	    {"t", TMPFS, "another filesystem"},
	};

	if (!own_mount_ns())
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mount_case *m = &cases[i];
		char name[32], target[400], victim[BELOW_RUN_MAX], at[BELOW_RUN_MAX];
		char path[BELOW_RUN_MAX], text[4096];
		struct sc_plan plan;
		struct sc_rundir rd;
		int rc;

		check_context = m->at;
		snprintf(name, sizeof(name), "mounts%zu", i);
		target_dir(target, sizeof(target), name);
		plan_dir(&plan, target);
		if (!mount_in_run_dir(&rd, &plan, m, name, victim, sizeof(victim))) {
			sc_rundir_exit(&rd);
			sc_plan_exit(&plan);
			continue;
		}
		snprintf(at, sizeof(at), "%s/%s", rd.path, m->at);
		rc = sc_rundir_remove(&rd);
		CHECK(rc == -EXDEV, "removal with a mount inside: rc %d, want -EXDEV", rc);
		CHECK(m->kind == BIND_FILE ? victim_ok(victim) : victim_tree_ok(victim),
		      "every victim byte survives removal (%s)", victim);
		CHECK(rd.left.n == 1 && rd.left.elsewhere == 1, "one entry left: %u (%u elsewhere)",
		      rd.left.n, rd.left.elsewhere);
		CHECK(left_names(&rd, m->at, m->why), "named with why: %s: %s",
		      rd.left.entry[0].path,
		      rd.left.entry[0].why ? rd.left.entry[0].why : "(none)");
		sc_rundir_left_text(&rd, rc, text, sizeof(text));
		snprintf(path, sizeof(path),
			 "left 1 entry in %s that is on another mount (%s: a mount point", rd.path,
			 m->at);
		CHECK(strstr(text, path) && strstr(text, "unmount it, then remove the directory") &&
			  strstr(text, "nothing on it was removed"),
		      "the message says what, why, what to do: %s", text);
		snprintf(path, sizeof(path), "%s/f0", rd.path);
		CHECK(access(path, F_OK) != 0, "the run's own file is removed");
		snprintf(path, sizeof(path), "%s/d/g", rd.path);
		CHECK(access(path, F_OK) != 0, "and the one in its subdirectory");
		CHECK(umount(at) == 0, "umount %s: %s", at, strerror(errno));
		CHECK(m->kind == BIND_FILE ? victim_ok(victim)
					   : m->kind == TMPFS || victim_tree_ok(victim),
		      "the victim keeps its bytes after the unmount");
		/* nothing but the mount point and the directories holding it */
		CHECK((m->kind == BIND_FILE ? unlink(at) : rmdir(at)) == 0,
		      "the mount point stays: %s", at);
		if (strchr(m->at, '/')) {
			*strrchr(at, '/') = '\0';
			CHECK(rmdir(at) == 0, "so does its directory %s", at);
		}
		CHECK(rmdir(rd.path) == 0, "and the run directory, holding nothing else");
		sc_rundir_exit(&rd);
		sc_plan_exit(&plan);
	}
	check_context = NULL;
}

/* A victim directory bind mounted on the run directory's own name: the
 * run's files (below its descriptor) go, the name now means the victim,
 * which is left as it is (-ESTALE). */
static void test_mount_on_run_dir(void)
{
	char target[400], vdir[500], path[BELOW_RUN_MAX], err[1024], text[4096];
	struct sc_plan plan;
	struct sc_rundir rd;
	int rc;

	if (!own_mount_ns())
		return;
	target_dir(target, sizeof(target), "mounted_on");
	plan_dir(&plan, target);
	snprintf(vdir, sizeof(vdir), "%s/victim_over", tmpdir);
	victim_tree(vdir);
	sc_rundir_init(&rd);
	CHECK(sc_rundir_create(&rd, &plan, &rank0, "k", err, sizeof(err)) == 0, "%s", err);
	if (mount(vdir, rd.path, NULL, MS_BIND, NULL) != 0) {
		printf("skip: mount on %s: %s\n", rd.path, strerror(errno));
	} else {
		rc = sc_rundir_remove(&rd);
		CHECK(rc == -ESTALE, "a run directory mounted over: rc %d, want -ESTALE", rc);
		CHECK(victim_tree_ok(vdir), "the victim mounted on its name keeps every byte");
		sc_rundir_left_text(&rd, rc, text, sizeof(text));
		CHECK(strstr(text, rd.path) && strstr(text, "mounted on it"), "message: %s", text);
		CHECK(umount(rd.path) == 0, "umount %s", rd.path);
		snprintf(path, sizeof(path), "%s/.ssdcluster-run", rd.path);
		CHECK(access(path, F_OK) != 0, "the run's own marker below it is removed");
		CHECK(rmdir(rd.path) == 0, "the run directory is left, empty");
	}
	CHECK(victim_tree_ok(vdir), "the victim is whole");
	sc_rundir_exit(&rd);
	sc_plan_exit(&plan);
}

/* The ingest dataset outlives runs: a symlink anywhere below the target
 * is refused; someone else's file is not truncated; victims unchanged. */
static void test_dataset(void)
{
	struct sc_plan plan;
	struct sc_phase *ph;
	char target[400], victim[500], vdir[500], path[700], dir[600], err[1024];
	int rc;

	target_dir(target, sizeof(target), "dataset");
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	victim_make(victim);
	plan_dir(&plan, target);
	ph = &plan.phases[0];
	ph->workload = SC_WORKLOAD_INGEST;
	ph->io.rw = SC_RW_RANDREAD;
	ph->io.bs_bytes = 4096;
	ph->ingest = (struct sc_ingest_spec){
	    .files = 2, .file_bytes = 65536, .sample_bytes = 4096, .batch = 2, .epochs = 1};
	CHECK(sc_layout_ingest_dir(&plan, 0, 0, dir, sizeof(dir)) == 0, "dataset dir");

	/* ssdcluster-datasets a symlink to a victim's directory */
	snprintf(vdir, sizeof(vdir), "%s/victim_dir", tmpdir);
	CHECK(mkdir(vdir, 0755) == 0, "mkdir %s", vdir);
	snprintf(path, sizeof(path), "%s/ssdcluster-datasets", target);
	CHECK(symlink(vdir, path) == 0, "plant %s", path);
	rc = run_once(&plan, NULL, err, sizeof(err));
	CHECK(rc == -ELOOP && strstr(err, "symbolic link"), "linked datasets dir: %d %s", rc, err);
	CHECK(rmdir(vdir) == 0, "nothing made in the victim directory");
	CHECK(unlink(path) == 0, "unplant");

	/* a dataset file planted as a symlink to a victim file */
	CHECK(run_once(&plan, NULL, err, sizeof(err)) == 0, "dataset made: %s", err);
	snprintf(path, sizeof(path), "%s/file_1.dat", dir);
	CHECK(unlink(path) == 0 && symlink(victim, path) == 0, "plant %s", path);
	rc = run_once(&plan, NULL, err, sizeof(err));
	CHECK(rc == -ELOOP && strstr(err, path), "linked dataset file: %d %s", rc, err);
	CHECK(victim_ok(victim), "the victim is unchanged");
	CHECK(is_symlink(path), "the link stays");

	/* someone else's file of the wrong size: not truncated, not rewritten */
	if (geteuid() == 0) {
		CHECK(unlink(path) == 0, "unplant");
		victim_make(path);
		CHECK(chown(path, 65534, 65534) == 0, "chown");
		rc = run_once(&plan, NULL, err, sizeof(err));
		CHECK(rc == -EPERM && strstr(err, path), "someone else's file: %d %s", rc, err);
		CHECK(victim_ok(path), "someone else's dataset file is unchanged");
	}
	sc_plan_exit(&plan);
	unlink(victim);
}

int main(void)
{
	char hex[2][2 * 8 + 1];

	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_rundir");
	CHECK(sc_rundir_random_hex(hex[0], 8) == 0 && sc_rundir_random_hex(hex[1], 8) == 0,
	      "random bits");
	CHECK(strlen(hex[0]) == 16 && strspn(hex[0], "0123456789abcdef") == 16, "hex: %s", hex[0]);
	CHECK(strcmp(hex[0], hex[1]) != 0, "two draws of 64 bits differ");
	test_create_join();
	test_open_below();
	test_planted_between_phases();
	test_remove();
	test_remove_mounts();
	test_mount_on_run_dir();
	test_dataset();
	check_rmtree(tmpdir);
	return check_exit("test_rundir");
}
