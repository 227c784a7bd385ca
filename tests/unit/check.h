/* check.h -- what every unit test uses: CHECK and FAIL, a failure count,
 * check_exit for main's result, and temp-dir and allocation helpers.
 *
 * A failure prints "FAIL file:line: [context: ][condition: ]message" on
 * stderr and counts; the test goes on, so one run shows every failure.
 * A check the machine left without a verdict (held by other load in every
 * try) is a skip: SKIP_CHECK prints "SKIP file:line: message" and counts,
 * and check_exit then returns CHECK_SKIP unless something failed.
 * Header only: each test is one executable of one file.
 */
#ifndef SC_TEST_CHECK_H
#define SC_TEST_CHECK_H

#include <dirent.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "plan.h"

/* The exit code of a test that could not judge (ctest's
 * SKIP_RETURN_CODE, as the integration tests' skip). */
#define CHECK_SKIP 77

/* Failures and skipped checks so far. */
static int check_failures, check_skips;

/* When set, printed after file:line in every failure (e.g. which engine). */
static const char *check_context;

static inline void check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Records a failure at file:line; cond (the failed expression) may be NULL. */
static inline void check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL %s:%d: ", file, line);
	if (check_context)
		fprintf(stderr, "%s: ", check_context);
	if (cond)
		fprintf(stderr, "%s: ", cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	check_failures++;
}

/* Counts a failure, with a printf-style message, unless cond holds. */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			check_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                        \
	} while (0)

/* Counts a failure where the test has already decided there is one. */
#define FAIL(...) check_fail(__FILE__, __LINE__, NULL, __VA_ARGS__)

/* main's verdict: prints "name: all checks passed" (stdout) or
 * "name: N check(s) failed" (stderr); returns 0 or 1. */
static inline void check_skip(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline void check_skip(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("SKIP %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	check_skips++;
}

/* A check this run cannot judge (say why). */
#define SKIP_CHECK(...) check_skip(__FILE__, __LINE__, __VA_ARGS__)

static inline int check_exit(const char *name)
{
	if (check_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
		return 1;
	}
	if (check_skips) {
		printf("%s: %d check(s) without a verdict (skipped), every other passed\n", name,
		       check_skips);
		return CHECK_SKIP;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}

/* Creates a fresh directory $TMPDIR/name.XXXXXX into dir (/var/tmp when
 * TMPDIR is unset or empty: disk-backed, so O_DIRECT works there where /tmp
 * is a tmpfs).  Exits 1 with a message when it cannot. */
static inline void check_mkdtemp(char *dir, size_t len, const char *name)
{
	const char *base = getenv("TMPDIR");

	if (!base || !*base)
		base = "/var/tmp";
	if ((size_t)snprintf(dir, len, "%s/%s.XXXXXX", base, name) >= len) {
		fprintf(stderr, "temp dir under %s: path too long (set a shorter TMPDIR)\n", base);
		exit(1);
	}
	if (!mkdtemp(dir)) {
		perror(dir);
		exit(1);
	}
}

static inline int check_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0; /* go on with the rest */
}

/* The names in dir (not . and ..), sorted, space-separated, into out (len
 * bytes; "" when dir cannot be read). */
static inline void check_list_dir(const char *dir, char *out, size_t len)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			if (out[0])
				strncat(out, " ", len - strlen(out) - 1);
			strncat(out, ents[i]->d_name, len - strlen(out) - 1);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

/* Removes path and everything below it, as much as it can. */
static inline void check_rmtree(const char *path)
{
	nftw(path, check_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* calloc and strdup that end the test (exit 1) when memory runs out.
 * xcalloc never returns NULL, not even for n == 0. */
static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror("calloc");
		exit(1);
	}
	return p;
}

static inline char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		perror("strdup");
		exit(1);
	}
	return d;
}

/* A plan with one directory target (capacity 1 GiB) and nphases phases,
 * each named phase (group too, one cell, everything else zero), run id
 * run_id; the caller fills the phases from the first one it gets back.
 * Free with sc_plan_exit. */
static inline struct sc_phase *check_plan_dir(struct sc_plan *plan, const char *target,
					      const char *run_id, const char *phase,
					      uint32_t nphases)
{
	memset(plan, 0, sizeof(*plan));
	plan->run_id = xstrdup(run_id);
	plan->ntargets = 1;
	plan->targets = xcalloc(1, sizeof(*plan->targets));
	plan->targets[0].path = xstrdup(target);
	plan->targets[0].kind = SC_TARGET_DIR;
	plan->targets[0].capacity_bytes = 1ull << 30;
	plan->nphases = nphases;
	plan->phases = xcalloc(nphases, sizeof(*plan->phases));
	for (uint32_t p = 0; p < nphases; p++) {
		plan->phases[p].name = xstrdup(phase);
		plan->phases[p].group = xstrdup(phase);
		plan->phases[p].ncells = 1;
	}
	return &plan->phases[0];
}

/* CHECK_UNDER_ASAN: 1 in a build with AddressSanitizer (gcc or clang),
 * whose shadow memory rules out an address-space limit. */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECK_UNDER_ASAN 1
#endif
#endif
#ifndef CHECK_UNDER_ASAN
#define CHECK_UNDER_ASAN 0
#endif

/* CPU seconds, user and system, in ru. */
static inline double check_cpu_s(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6 +
	       (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
}

/* Calls fn(path, arg) for every entry of dir whose name ends in suffix, in
 * name order.  Returns how many, or -1 (a failure counted) when dir
 * cannot be read. */
static inline int check_each_file(const char *dir, const char *suffix,
				  void (*fn)(const char *path, void *arg), void *arg)
{
	struct dirent **names;
	size_t ls = strlen(suffix);
	int n = scandir(dir, &names, NULL, alphasort), count = 0;

	if (n < 0) {
		check_fail(__FILE__, __LINE__, NULL, "%s: cannot read the directory", dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		size_t ln = strlen(names[i]->d_name);

		if (ln > ls && strcmp(names[i]->d_name + ln - ls, suffix) == 0) {
			char *path = xcalloc(strlen(dir) + ln + 2, 1);

			sprintf(path, "%s/%s", dir, names[i]->d_name);
			fn(path, arg);
			free(path);
			count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

#endif
