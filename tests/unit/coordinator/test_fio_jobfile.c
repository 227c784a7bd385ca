/* test_fio_jobfile.c -- fio job files read as fio reads them: [global]
 * options inherited by the jobs after them (a later [global] adds to what
 * the jobs after it start from), a job's own option winning over a global
 * one, flags, comments, ${VAR}, include relative to the including file;
 * every option's file and line; the errors a bad file gets, each at its
 * file:line.  And, when fio's sources are at SC_FIO_EXAMPLES (their
 * examples/ folder), every example file reads without error. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fio/jobfile.h"

static char tmpdir[256];

static void put(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	CHECK(f != NULL, "cannot write %s", path);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static const char *val(const struct sc_fio_job *j, const char *key)
{
	const struct sc_fio_opt *o = sc_fio_job_opt(j, key);

	return !o ? "(none)" : o->value ? o->value : "(flag)";
}

static void test_sections(void)
{
	struct sc_fio_jobfile f;
	char path[512], err[512];
	int rc;

	setenv("SC_TEST_DEV", "/dev/nvme9n1", 1);
	put("inc.fio", "; included\nbs = 64k\n");
	put("a.fio", "# a comment\n"
		     "[global]\n"
		     "ioengine=libaio\n"
		     "direct=1\n"
		     "bs=4k\n"
		     "\n"
		     "[seq-read]\n"
		     "rw=read\n"
		     "filename=${SC_TEST_DEV}\n"
		     "bs=1m\n"
		     "time_based\n"
		     "\n"
		     "[global]\n"
		     "iodepth=32\n"
		     "[rand-read]\n"
		     "  rw = randread  \n"
		     "include inc.fio\n");
	snprintf(path, sizeof(path), "%s/a.fio", tmpdir);
	rc = sc_fio_jobfile_read(path, &f, err, sizeof(err));
	CHECK(rc == 0, "read: %d %s", rc, err);
	if (rc)
		return;
	CHECK(f.njobs == 2, "%u jobs", f.njobs);
	CHECK(strcmp(f.jobs[0].name, "seq-read") == 0 && strcmp(f.jobs[1].name, "rand-read") == 0,
	      "job names");
	CHECK(strcmp(val(&f.jobs[0], "ioengine"), "libaio") == 0, "global inherited");
	CHECK(strcmp(val(&f.jobs[0], "bs"), "1m") == 0, "the job's own bs wins: %s",
	      val(&f.jobs[0], "bs"));
	CHECK(strcmp(val(&f.jobs[0], "filename"), "/dev/nvme9n1") == 0, "${VAR}: %s",
	      val(&f.jobs[0], "filename"));
	CHECK(strcmp(val(&f.jobs[0], "time_based"), "(flag)") == 0, "a flag");
	CHECK(strcmp(val(&f.jobs[0], "iodepth"), "(none)") == 0,
	      "a later [global] does not reach back: %s", val(&f.jobs[0], "iodepth"));
	CHECK(strcmp(val(&f.jobs[1], "iodepth"), "32") == 0, "the second [global] reaches on");
	CHECK(strcmp(val(&f.jobs[1], "direct"), "1") == 0, "the first [global] too");
	CHECK(strcmp(val(&f.jobs[1], "rw"), "randread") == 0, "spaces around = and the value");
	CHECK(strcmp(val(&f.jobs[1], "bs"), "64k") == 0, "include: %s", val(&f.jobs[1], "bs"));
	{
		const struct sc_fio_opt *o = sc_fio_job_opt(&f.jobs[1], "bs");

		CHECK(o && strstr(o->file, "inc.fio") && o->line == 2, "bs from inc.fio:2: %s:%u",
		      o ? o->file : "?", o ? o->line : 0);
		o = sc_fio_job_opt(&f.jobs[0], "rw");
		CHECK(o && strstr(o->file, "a.fio") && o->line == 8, "rw at a.fio:8");
	}
	CHECK(f.jobs[1].line == 15, "[rand-read] at line %u", f.jobs[1].line);
	sc_fio_jobfile_exit(&f);
}

/* text must be refused, its message holding want (and the line). */
static void refused(const char *name, const char *text, const char *want)
{
	struct sc_fio_jobfile f;
	char path[512], err[512];
	int rc;

	put(name, text);
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	rc = sc_fio_jobfile_read(path, &f, err, sizeof(err));
	CHECK(rc != 0 && strstr(err, want), "%s: %d \"%s\", want \"%s\"", name, rc, err, want);
	CHECK(f.njobs == 0 && f.jobs == NULL, "%s: nothing kept", name);
}

static void test_errors(void)
{
	unsetenv("SC_TEST_NOPE");
	refused("e1.fio", "rw=read\n[j]\n", "e1.fio:1: rw: an option before any [section]");
	refused("e2.fio", "[j]\nfilename=${SC_TEST_NOPE}\n",
		"e2.fio:2: ${SC_TEST_NOPE}: not in the environment");
	refused("e3.fio", "[j\nrw=read\n", "e3.fio:1: [j: a section is [name]");
	refused("e4.fio", "[global]\nrw=read\n", "no job");
	refused("e5.fio", "[j]\ninclude nothere.fio\n", "e5.fio:2: include");
	refused("e6.fio", "[j]\ninclude e6.fio\n", "deep (does it include itself?)");
	refused("e7.fio", "[j]\nr w=read\n", "e7.fio:2: r w: not an option name");
	refused("e8.fio", "[j]\n=3\n", "e8.fio:2: =3: an option without its name");
}

/* fio's own examples (their sources' examples/): each reads. */
static void test_examples(void)
{
	const char *dir = getenv("SC_FIO_EXAMPLES");
	struct dirent *e;
	uint32_t n = 0;
	DIR *d;

	if (!dir || !(d = opendir(dir))) {
		printf("test_fio_jobfile: no SC_FIO_EXAMPLES: fio's examples not read\n");
		return;
	}
	while ((e = readdir(d))) {
		struct sc_fio_jobfile f;
		char path[1024], err[512];
		size_t len = strlen(e->d_name);
		int rc;

		if (len < 5 || strcmp(e->d_name + len - 4, ".fio") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc = sc_fio_jobfile_read(path, &f, err, sizeof(err));
		/* some examples name variables their users set */
		CHECK(rc == 0 || strstr(err, "not in the environment"), "%s: %s", e->d_name, err);
		if (!rc)
			sc_fio_jobfile_exit(&f);
		n++;
	}
	closedir(d);
	printf("test_fio_jobfile: %u of fio's example files read\n", n);
	CHECK(n > 0, "no example file in %s", dir);
}

int main(void)
{
	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_fio_jobfile");
	test_sections();
	test_errors();
	test_examples();
	check_rmtree(tmpdir);
	return check_exit("test_fio_jobfile");
}
