/* test_fio_options.c -- the first check of a fio job's options: each one
 * ssdcluster does not run refused by name at its file:line, an engine it
 * does not map refused by name, rw patterns and their :N suffixes; and,
 * with fio's examples/ at SC_FIO_EXAMPLES, how many of fio's own example
 * jobs use only options it runs (printed). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fio/jobfile.h"
#include "fio/options.h"

static char tmpdir[256];

/* Reads text as a job file and checks its first job: the check's rc, its
 * message in err. */
static int check_text(const char *text, char *err, size_t errlen)
{
	struct sc_fio_jobfile f;
	char path[512];
	FILE *out;
	int rc;

	snprintf(path, sizeof(path), "%s/j.fio", tmpdir);
	out = fopen(path, "w");
	if (!out)
		return -errno;
	fputs(text, out);
	fclose(out);
	rc = sc_fio_jobfile_read(path, &f, err, errlen);
	CHECK(rc == 0, "read: %s", err);
	if (rc)
		return rc;
	rc = sc_fio_job_check(&f.jobs[0], err, errlen);
	sc_fio_jobfile_exit(&f);
	return rc;
}

static void test_rw(void)
{
	enum sc_fio_rw rw;
	uint32_t every;

	CHECK(sc_fio_rw_parse("randrw:8", &rw, &every) == 0 && rw == SC_FIO_RANDRW && every == 8,
	      "randrw:8");
	CHECK(sc_fio_rw_parse("readwrite", &rw, &every) == 0 && rw == SC_FIO_RW && every == 1,
	      "readwrite is rw");
	CHECK(sc_fio_rw_parse("read", &rw, &every) == 0 && rw == SC_FIO_READ, "read");
	CHECK(sc_fio_rw_parse("randread:", &rw, &every) == -EINVAL, "a : without N");
	CHECK(sc_fio_rw_parse("randread:0", &rw, &every) == -EINVAL, ":0");
	CHECK(sc_fio_rw_parse("trim", &rw, &every) == -EINVAL, "trim is not run");
	CHECK(sc_fio_rw_parse("reads", &rw, &every) == -EINVAL, "a prefix is not a pattern");
}

static void test_check(void)
{
	char err[512];
	int rc;

	rc = check_text("[global]\nioengine=libaio\ndirect=1\n[j]\nrw=randrw:8\nrwmixread=70\n"
			"bs=4k\niodepth=32\nnumjobs=2\nsize=1g\nruntime=10\ntime_based\n"
			"group_reporting\nfilename=/tmp/x\n",
			err, sizeof(err));
	CHECK(rc == 0, "supported options: %s", err);
	rc = check_text("[j]\nrw=read\nzonemode=zbd\n", err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:3: job j: zonemode: an option ssdcluster fio "
					   "does not run"),
	      "an unknown option: %s", err);
	rc = check_text("[global]\nioengine=posixaio\n[j]\nrw=read\n", err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:2: job j: ioengine=posixaio: not an engine"),
	      "an engine not run: %s", err);
	rc = check_text("[j]\nrw=trim\n", err, sizeof(err));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:2: job j: rw=trim: not a pattern"), "trim: %s",
	      err);
}

static void test_examples(void)
{
	const char *dir = getenv("SC_FIO_EXAMPLES");
	uint32_t n = 0, runs = 0;
	struct dirent *e;
	DIR *d;

	if (!dir || !(d = opendir(dir))) {
		printf("test_fio_options: no SC_FIO_EXAMPLES: fio's examples not checked\n");
		return;
	}
	while ((e = readdir(d))) {
		struct sc_fio_jobfile f;
		char path[1024], err[512];
		size_t len = strlen(e->d_name);
		bool all = true;

		if (len < 5 || strcmp(e->d_name + len - 4, ".fio") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (sc_fio_jobfile_read(path, &f, err, sizeof(err)))
			continue;
		n++;
		for (uint32_t i = 0; i < f.njobs && all; i++)
			all = sc_fio_job_check(&f.jobs[i], err, sizeof(err)) == 0;
		if (all) {
			runs++;
			printf("  runs: %s\n", e->d_name);
		}
		sc_fio_jobfile_exit(&f);
	}
	closedir(d);
	printf("test_fio_options: %u of fio's %u example files use only options it runs\n", runs,
	       n);
}

int main(void)
{
	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_fio_options");
	test_rw();
	test_check();
	test_examples();
	check_rmtree(tmpdir);
	return check_exit("test_fio_options");
}
