/* test_outdir.c -- the results folder against the targets: paths made
 * clean and compared by text; a folder that is, lies in or holds a target
 * or a run directory refused, also through a symlink and (as root) a bind
 * mount; a target not there yet or on other hosts compared by path; the
 * folder made with its parents and proved writable, what was made removed
 * again when the run leaves it empty or it cannot be used. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "outdir.h"
#include "plan.h"

static char tmp[256];
static char err[8192];

static void check_lexical(const char *path, const char *cwd, const char *want)
{
	char buf[256];
	int rc = sc_outdir_lexical(path, cwd, buf, sizeof(buf));

	CHECK(rc == 0 && strcmp(buf, want) == 0, "lexical(%s, %s): rc %d, \"%s\", want \"%s\"",
	      path, cwd, rc, rc ? "" : buf, want);
}

static void test_lexical(void)
{
	char small[8];

	check_lexical("a/b", "/cwd", "/cwd/a/b");
	check_lexical("/a/./b//c/", "/cwd", "/a/b/c");
	check_lexical("/a/../../b", "/cwd", "/b");
	check_lexical("..", "/", "/");
	check_lexical("/", "/cwd", "/");
	check_lexical(".", "/x/y", "/x/y");
	check_lexical("../z", "/x/y", "/x/z");
	check_lexical("ssdcluster-results/ID", "/x", "/x/ssdcluster-results/ID");
	CHECK(sc_outdir_lexical("/abcdefgh", "/", small, sizeof(small)) == -ENAMETOOLONG,
	      "a path longer than the buffer is refused");
}

static void test_relation(void)
{
	CHECK(sc_outdir_relation("/a/b", "/a/b") == SC_OUTDIR_SAME, "same");
	CHECK(sc_outdir_relation("/a/b/c", "/a/b") == SC_OUTDIR_INSIDE, "inside");
	CHECK(sc_outdir_relation("/a", "/a/b") == SC_OUTDIR_AROUND, "around");
	CHECK(sc_outdir_relation("/a/bc", "/a/b") == SC_OUTDIR_APART, "a longer name is apart");
	CHECK(sc_outdir_relation("/a/b", "/a/bc") == SC_OUTDIR_APART, "a shorter name is apart");
	CHECK(sc_outdir_relation("/x", "/") == SC_OUTDIR_INSIDE, "everything is inside /");
	CHECK(sc_outdir_relation("/", "/x") == SC_OUTDIR_AROUND, "/ holds everything");
	CHECK(sc_outdir_relation("/", "/") == SC_OUTDIR_SAME, "/ is /");
	CHECK(sc_outdir_relation("/p/q", "/r/s") == SC_OUTDIR_APART, "apart");
}

/* A plan of n targets: paths[i], kinds[i], hosts[i] (NULL: every host),
 * run id "rid". */
static void plan_targets(struct sc_plan *plan, uint32_t n, const char *const *paths,
			 const enum sc_target_kind *kinds, const char *const *hosts)
{
	check_plan_dir(plan, paths[0], "rid", "p", 1);
	free(plan->targets[0].path);
	free(plan->targets);
	plan->ntargets = n;
	plan->targets = xcalloc(n, sizeof(*plan->targets));
	for (uint32_t i = 0; i < n; i++) {
		plan->targets[i].path = xstrdup(paths[i]);
		plan->targets[i].kind = kinds[i];
		plan->targets[i].hosts = hosts && hosts[i] ? xstrdup(hosts[i]) : NULL;
	}
}

/* The check of out against plan on host "here": want 0 or -EEXIST, and
 * then err holding each of the words (NULL-terminated). */
static void expect(const struct sc_plan *plan, const char *out, int want, ...)
{
	struct sc_outdir od;
	va_list ap;
	const char *w;
	int rc;

	err[0] = '\0';
	rc = sc_outdir_check(&od, out, true, plan, "here", err, sizeof(err));
	CHECK(rc == want, "%s: rc %d, want %d (%s)", out, rc, want, err);
	va_start(ap, want);
	while ((w = va_arg(ap, const char *)))
		CHECK(strstr(err, w), "%s: message without \"%s\": %s", out, w, err);
	va_end(ap);
}

/* buf = "dir/name", which must fit. */
static void join(char *buf, size_t len, const char *dir, const char *name)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		FAIL("%s/%s: path too long", dir, name);
}

static void path(char *buf, size_t len, const char *name)
{
	join(buf, len, tmp, name);
}

/* A directory target, by path, by symlink, around, and not there yet. */
static void test_dir_target(void)
{
	char t[512], o[600], l[512], gone[512];
	struct sc_plan plan;
	const char *paths[2];
	const enum sc_target_kind kinds[2] = {SC_TARGET_DIR, SC_TARGET_DIR};

	path(t, sizeof(t), "target");
	path(l, sizeof(l), "link");
	path(gone, sizeof(gone), "later");
	CHECK(mkdir(t, 0755) == 0 && symlink(t, l) == 0, "set up %s", t);
	paths[0] = t;
	paths[1] = gone;
	plan_targets(&plan, 2, paths, kinds, NULL);

	expect(&plan, t, -EEXIST, "is the target directory", t, "targets.0", "outside", NULL);
	join(o, sizeof(o), t, "sub/dir");
	expect(&plan, o, -EEXIST, "is inside the target directory", NULL);
	join(o, sizeof(o), t, "ssdcluster-rid/out");
	expect(&plan, o, -EEXIST, "inside the run directory", "ssdcluster-rid", "removes", NULL);
	join(o, sizeof(o), t, "ssdcluster-rid");
	expect(&plan, o, -EEXIST, "inside the run directory", NULL);
	expect(&plan, tmp, -EEXIST, "holds the target directory", NULL);
	join(o, sizeof(o), l, "x");
	expect(&plan, o, -EEXIST, "inside the target directory", "through a symlink", NULL);
	join(o, sizeof(o), tmp, "target/../target/y");
	expect(&plan, o, -EEXIST, "inside the target directory", NULL);
	/* the target directory the run will make: by its text */
	join(o, sizeof(o), gone, "out");
	expect(&plan, o, -EEXIST, "inside the target directory", gone, "targets.1", NULL);
	join(o, sizeof(o), tmp, "results");
	expect(&plan, o, 0, NULL);
	join(o, sizeof(o), tmp, "targetx");
	expect(&plan, o, 0, NULL);
	sc_plan_exit(&plan);
}

/* A file target: the folder cannot be it or lie below it, nor hold it. */
static void test_file_target(void)
{
	char f[512], o[600], d[512];
	struct sc_plan plan;
	const char *paths[1];
	const enum sc_target_kind kinds[1] = {SC_TARGET_FILE};
	FILE *fp;

	path(d, sizeof(d), "files");
	join(f, sizeof(f), d, "data.img");
	CHECK(mkdir(d, 0755) == 0 && (fp = fopen(f, "w")) && fclose(fp) == 0, "set up %s", f);
	paths[0] = f;
	plan_targets(&plan, 1, paths, kinds, NULL);
	expect(&plan, f, -EEXIST, "is the target file", "can hold no folder", NULL);
	join(o, sizeof(o), f, "sub");
	expect(&plan, o, -EEXIST, "is inside the target file", NULL);
	expect(&plan, d, -EEXIST, "holds the target file", NULL);
	join(o, sizeof(o), d, "out");
	expect(&plan, o, 0, NULL);
	sc_plan_exit(&plan);
}

/* A target on other hosts: rank 0 cannot see it, its path text decides;
 * one on this host is reached. */
static void test_remote_target(void)
{
	const char *paths[2] = {"/remote/nvme", "/remote/here"};
	const char *hosts[2] = {"node[1-4]", "here"};
	const enum sc_target_kind kinds[2] = {SC_TARGET_DIR, SC_TARGET_DIR};
	struct sc_plan plan;

	plan_targets(&plan, 2, paths, kinds, hosts);
	expect(&plan, "/remote/nvme/out", -EEXIST, "compared by path", "node[1-4]", NULL);
	expect(&plan, "/remote/./nvme/../nvme", -EEXIST, "is the target directory", NULL);
	expect(&plan, "/remote", -EEXIST, "holds the target directory", "/remote/nvme", NULL);
	expect(&plan, "/remote/here/x", -EEXIST, "targets.1", NULL);
	expect(&plan, "/remote/other", 0, NULL);
	sc_plan_exit(&plan);
}

/* As root: through a bind mount of the folder holding the target, the
 * target is the same directory, and the mount holds it. */
static void test_bind_mount(void)
{
	char outer[512], t[1024], b[512], o[1100];
	struct sc_plan plan;
	const char *paths[1];
	const enum sc_target_kind kinds[1] = {SC_TARGET_DIR};

	path(outer, sizeof(outer), "outer");
	join(t, sizeof(t), outer, "tgt");
	path(b, sizeof(b), "mnt");
	CHECK(mkdir(outer, 0755) == 0 && mkdir(t, 0755) == 0 && mkdir(b, 0755) == 0, "set up %s",
	      t);
	if (mount(outer, b, NULL, MS_BIND, NULL) != 0) {
		printf("bind mount: skipped (%s)\n", strerror(errno));
		return;
	}
	paths[0] = t;
	plan_targets(&plan, 1, paths, kinds, NULL);
	join(o, sizeof(o), b, "tgt/out");
	expect(&plan, o, -EEXIST, "inside the target directory", t, "under another name", NULL);
	join(o, sizeof(o), b, "tgt");
	expect(&plan, o, -EEXIST, "is the target directory", NULL);
	expect(&plan, b, -EEXIST, "holds the target directory", t, NULL);
	join(o, sizeof(o), b, "other");
	expect(&plan, o, 0, NULL);
	sc_plan_exit(&plan);
	CHECK(umount2(b, MNT_DETACH) == 0, "umount %s", b);
}

/* Made with its parents and writable; removed again while empty; what is
 * no directory refused with nothing made. */
static void test_create(void)
{
	const char *paths[1] = {"/nonexistent-target-of-test-outdir"};
	const enum sc_target_kind kinds[1] = {SC_TARGET_DIR};
	char base[512], o[600], f[512];
	struct sc_outdir od;
	struct sc_plan plan;
	struct stat st;
	FILE *fp;

	plan_targets(&plan, 1, paths, kinds, NULL);
	path(base, sizeof(base), "made");
	CHECK(mkdir(base, 0755) == 0, "mkdir %s", base);
	join(o, sizeof(o), base, "a/b/c");
	CHECK(sc_outdir_check(&od, o, true, &plan, "here", err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_outdir_create(&od, err, sizeof(err)) == 0, "create: %s", err);
	CHECK(stat(o, &st) == 0 && S_ISDIR(st.st_mode), "%s made", o);
	CHECK(!sc_outdir_has_results(o), "no results.json yet");
	join(f, sizeof(f), o, "results.json");
	CHECK((fp = fopen(f, "w")) && fclose(fp) == 0, "write %s", f);
	CHECK(sc_outdir_has_results(o), "results.json is there");
	sc_outdir_discard(&od);
	CHECK(stat(o, &st) == 0, "a folder holding results stays");
	CHECK(unlink(f) == 0, "unlink %s", f);
	sc_outdir_discard(&od);
	join(o, sizeof(o), base, "a");
	CHECK(stat(o, &st) != 0 && errno == ENOENT, "the folders made, once empty, are gone");
	CHECK(stat(base, &st) == 0, "the folder that was there stays");

	/* an existing folder: used, never removed */
	CHECK(sc_outdir_check(&od, base, true, &plan, "here", err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_outdir_create(&od, err, sizeof(err)) == 0, "create: %s", err);
	sc_outdir_discard(&od);
	CHECK(stat(base, &st) == 0, "an existing folder is never removed");

	/* a regular file, and a folder below one */
	join(f, sizeof(f), base, "results.json");
	CHECK((fp = fopen(f, "w")) && fclose(fp) == 0, "write %s", f);
	CHECK(sc_outdir_check(&od, f, true, &plan, "here", err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_outdir_create(&od, err, sizeof(err)) == -ENOTDIR, "a file: %s", err);
	CHECK(strstr(err, "not a directory (it is a regular file)"), "%s", err);
	join(o, sizeof(o), f, "sub/dir");
	CHECK(sc_outdir_check(&od, o, true, &plan, "here", err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_outdir_create(&od, err, sizeof(err)) == -ENOTDIR, "below a file: %s", err);
	CHECK(strstr(err, f) && strstr(err, "is not a directory (it is a regular file)"), "%s",
	      err);
	sc_plan_exit(&plan);
}

int main(void)
{
	check_mkdtemp(tmp, sizeof(tmp), "test_outdir");
	test_lexical();
	test_relation();
	test_dir_target();
	test_file_target();
	test_remote_target();
	if (geteuid() == 0)
		test_bind_mount();
	test_create();
	check_rmtree(tmp);
	return check_exit("test_outdir");
}
