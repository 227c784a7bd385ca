/* test_bad_configs.c -- every malformed config in tests/data/bad_configs/ is
 * refused with its expected "FILE:LINE:COL: key.path: message", and so are
 * hostile documents made here (too large for the repository): each load
 * runs in a child process with bounded CPU time and memory.
 *
 * A data file's first line says what it expects:
 *   # expect: @P:6:11: phases.0.size: jobs 2 x size 8EiB is more than ...
 * The message must begin with that text, @P standing for the file's path
 * and @D for $SC_TEST_DIR, a temp directory the configs name as their
 * target (path: ${SC_TEST_DIR}). */
#include "config/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* Bounds every load must keep, hostile or not: generous for a loaded
 * 2-core machine and a sanitizer build (a load takes milliseconds and a
 * few MiB), far below what the alias bombs and quadratic inputs cost
 * before the loader checked its limits (minutes, or gigabytes). */
#define LOAD_CPU_LIMIT_S 20		     /* the child is killed past this */
#define LOAD_CPU_MAX_S	 5.0		     /* a load taking longer fails the test */
#define LOAD_AS_LIMIT	 (UINT64_C(1) << 30) /* address space, without ASan */
#define LOAD_RSS_MAX_KIB (CHECK_UNDER_ASAN ? 512 * 1024L : 128 * 1024L)
#define MIN_BAD_CONFIGS	 25

static char tmp[256];

/* Replaces @P by path and @D by the temp dir. */
static void expand(const char *in, const char *path, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = in; *p && o + 1 < len; p++) {
		const char *sub = NULL;

		if (p[0] == '@' && p[1] == 'P')
			sub = path;
		else if (p[0] == '@' && p[1] == 'D')
			sub = tmp;
		if (sub) {
			o += (size_t)snprintf(out + o, len - o, "%s", sub);
			if (o >= len)
				o = len - 1;
			p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
}

/* Loads path in a child with bounded CPU time and memory; checks that the
 * load fails with -EINVAL and a message starting with want, within the
 * bounds. */
static void expect_refused(const char *path, const char *want)
{
	char err[4096] = "", got[4096 + 16] = "";
	int fds[2], status = 0;
	struct rusage ru;
	ssize_t n, off = 0;
	pid_t pid;

	if (pipe(fds) != 0) {
		FAIL("pipe: %s", strerror(errno));
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		FAIL("fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		struct rlimit cpu = {LOAD_CPU_LIMIT_S, LOAD_CPU_LIMIT_S};
		struct rlimit as = {LOAD_AS_LIMIT, LOAD_AS_LIMIT};
		struct sc_config *cfg = NULL;
		int ret;

		close(fds[0]);
		setrlimit(RLIMIT_CPU, &cpu);
		if (!CHECK_UNDER_ASAN) /* ASan reserves terabytes of address space */
			setrlimit(RLIMIT_AS, &as);
		ret = sc_config_load(&cfg, path, NULL, 0, err, sizeof(err));
		snprintf(got, sizeof(got), "%d %s", ret, err);
		if (write(fds[1], got, strlen(got)) < 0)
			_exit(3);
		sc_config_destroy(cfg);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], got + off, sizeof(got) - 1 - (size_t)off)) > 0)
		off += n;
	got[off] = '\0';
	close(fds[0]);
	if (wait4(pid, &status, 0, &ru) != pid) {
		FAIL("%s: wait4: %s", path, strerror(errno));
		return;
	}
	double cpu_s = check_cpu_s(&ru);

	if (getenv("SC_TEST_VERBOSE"))
		printf("%s: %.3f s CPU, %ld KiB peak RSS: %s\n", path, cpu_s, ru.ru_maxrss, got);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		FAIL("%s: the load %s %d (CPU %.1f s)", path,
		     WIFSIGNALED(status) ? "was killed by signal" : "exited",
		     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), cpu_s);
		return;
	}
	CHECK(cpu_s <= LOAD_CPU_MAX_S, "%s: the load took %.1f s of CPU", path, cpu_s);
	CHECK(ru.ru_maxrss <= LOAD_RSS_MAX_KIB, "%s: the load peaked at %ld KiB", path,
	      ru.ru_maxrss);
	if (strncmp(got, "-22 ", 4) != 0 || strncmp(got + 4, want, strlen(want)) != 0)
		FAIL("%s:\n  got:      %s\n  expected: -22 %s...", path, got, want);
}

/* A file of tests/data/bad_configs/: its first line says what to expect. */
static void data_file(const char *path, void *arg)
{
	char line[2048], want[4096];
	FILE *f = fopen(path, "r");

	(void)arg;
	if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "# expect: ", 10) != 0) {
		FAIL("%s: no first line \"# expect: MESSAGE\"", path);
	} else {
		line[strcspn(line, "\n")] = '\0';
		expand(line + 10, path, want, sizeof(want));
		expect_refused(path, want);
	}
	if (f)
		fclose(f);
}

/* Hostile documents too large to keep in the repository: after the
 * targets and phases, prefix, then unit (a printf format of the index)
 * count times, then unit2 as often.  Before the loader checked its limits
 * event by event, the anchors took minutes (libyaml's loader looks each
 * one up in a list), the keys 25 s (a duplicate check per key), the deep
 * nesting never finished and the scalars took 680 MiB. */
static const struct generated {
	const char *name, *prefix, *unit, *unit2;
	int count;
	const char *want; /* after the path */
} generated[] = {
    {"too_large.yaml", "# ", "x", "", 1 << 20, ": the config is larger than 1 MiB"},
    {"anchors.yaml", "x:\n", "- &a%d 1\n", "", 60000, ":1028:3: x.1024: more than 1024 anchors"},
    {"keys.yaml", "x:\n", "  k%d: 1\n", "", 80000,
     ":1028:3: x: more than 1024 keys in one mapping"},
    {"deep.yaml", "x: ", "[", "]", 400000, ":3:36: x.0.0.0"},
    {"scalars.yaml", "x:\n", "- 1\n", "", 250000, ":19991:3: x.19987: more than 20000 values"},
};

static void test_generated(void)
{
	for (size_t g = 0; g < sizeof(generated) / sizeof(generated[0]); g++) {
		const struct generated *gen = &generated[g];
		char path[512], want[1024];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", tmp, gen->name);
		f = fopen(path, "w");
		if (!f) {
			FAIL("%s: %s", path, strerror(errno));
			continue;
		}
		fprintf(f, "targets: [{path: %s}]\nphases: [{rw: read}]\n%s", tmp, gen->prefix);
		for (int i = 0; i < gen->count; i++)
			fprintf(f, gen->unit, i);
		for (int i = 0; *gen->unit2 && i < gen->count; i++)
			fputs(gen->unit2, f);
		fputc('\n', f);
		fclose(f);
		snprintf(want, sizeof(want), "%s%s", path, gen->want);
		expect_refused(path, want);
	}
}

int main(void)
{
	const char *src = getenv("SC_SOURCE_DIR");
	char dir[1024];
	int n;

	if (!src) {
		fprintf(stderr, "test_bad_configs: SC_SOURCE_DIR is not set (run it with ctest)\n");
		return CHECK_SKIP;
	}
	check_mkdtemp(tmp, sizeof(tmp), "test_bad_configs");
	setenv("SC_TEST_DIR", tmp, 1);
	snprintf(dir, sizeof(dir), "%s/tests/data/bad_configs", src);
	n = check_each_file(dir, ".yaml", data_file, NULL);
	CHECK(n >= MIN_BAD_CONFIGS, "%d bad configs in %s, want at least %d", n, dir,
	      MIN_BAD_CONFIGS);
	test_generated();
	check_rmtree(tmp);
	return check_exit("test_bad_configs");
}
