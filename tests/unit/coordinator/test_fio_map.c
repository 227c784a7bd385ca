/* test_fio_map.c -- a fio job file turned into a config with fio's
 * meanings, each checked against what fio's HOWTO says the option does
 * (not against the mapper's own rules): psync and buffered I/O by default;
 * libaio's iodepth kept, a synchronous engine's run at depth 1; rate in
 * bytes per second per job, so the rank's I/Os per second are rate / bs x
 * numjobs; rwmixwrite the complement of rwmixread, the later one winning;
 * the jobs of a section sharing filename='s region (offset_increment 0)
 * and the whole file when size is absent; randommap unless norandommap;
 * time_based turning runtime into a time-based run, runtime alone a cap;
 * loops multiplying the bytes; a writing job with verify read back after
 * it; a section without stonewall refused (fio would run it beside the one
 * before).  And: --set wins over a job's own option; an option the job
 * file cannot set (allow_destroy) refused by name; a config check's
 * message naming the job file's line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fio/load.h"
#include "fio/map.h"

static char tmpdir[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "open %s", path);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* text as a job file (its name in path), mapped with the --set options in
 * sets: the config in y, or the refusal in err. */
static int map_text(const char *text, const char *const *sets, uint32_t nsets, bool allow_destroy,
		    struct sc_fio_yaml *y, char *err, size_t errlen, char *path, size_t pathlen)
{
	struct sc_fio_jobfile f;
	int rc;

	snprintf(path, pathlen, "%s/j.fio", tmpdir);
	write_file(path, text);
	rc = sc_fio_jobfile_read(path, &f, err, errlen);
	for (uint32_t i = 0; !rc && i < nsets; i++)
		rc = sc_fio_jobfile_override(&f, sets[i], err, errlen);
	if (!rc)
		rc = sc_fio_map(&f, allow_destroy, y, err, errlen);
	sc_fio_jobfile_exit(&f);
	return rc;
}

/* Whether the config holds line (exactly, as a whole line). */
static bool has_line(const struct sc_fio_yaml *y, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = y->text; p && *p;) {
		size_t len = strcspn(p, "\n");

		if (len == n && strncmp(p, line, n) == 0)
			return true;
		p += len + (p[len] == '\n');
	}
	return false;
}

#define MAP_OK(text, ...)                                                                          \
	do {                                                                                       \
		rc = map_text(text, sets, nsets, false, &y, err, sizeof(err), path, sizeof(path)); \
		CHECK(rc == 0, "%s: %s", #__VA_ARGS__, err);                                       \
	} while (0)

#define HAS(line)                                                                                  \
	CHECK(rc == 0 && has_line(&y, line), "config lacks \"%s\":\n%s", line,                     \
	      rc == 0 ? y.text : "")
#define LACKS(line)                                                                                \
	CHECK(rc == 0 && !has_line(&y, line), "config has \"%s\":\n%s", line, rc == 0 ? y.text : "")

static void test_defaults(void)
{
	struct sc_fio_yaml y;
	const char *const *sets = NULL;
	uint32_t nsets = 0;
	char err[1024], path[512];
	int rc;

	/* fio's defaults: read, 4k, psync, buffered, one job */
	MAP_OK("[j]\nsize=1m\n", "defaults");
	HAS("    rw: read");
	HAS("    bs: 4KiB");
	HAS("    engine: psync");
	HAS("    direct: false");
	HAS("    jobs: 1");
	HAS("    iodepth: 1");
	if (!rc)
		sc_fio_yaml_exit(&y);

	/* a synchronous engine runs at depth 1 whatever iodepth says, and the
	 * notes say so; libaio keeps its depth */
	MAP_OK("[j]\nsize=1m\nioengine=sync\niodepth=32\n", "sync engine");
	HAS("    iodepth: 1");
	CHECK(rc == 0 && strstr(y.notes, "iodepth=32 with ioengine=sync runs at depth 1"),
	      "the note: %s", rc == 0 ? y.notes : "");
	if (!rc)
		sc_fio_yaml_exit(&y);
	MAP_OK("[j]\nsize=1m\nioengine=libaio\niodepth=32\ndirect=1\n", "libaio");
	HAS("    engine: io_uring");
	HAS("    iodepth: 32");
	HAS("    direct: true");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* buffered=0 is direct=1; the later of the two counts */
	MAP_OK("[global]\ndirect=1\n[j]\nsize=1m\nbuffered=1\n", "buffered after direct");
	HAS("    direct: false");
	if (!rc)
		sc_fio_yaml_exit(&y);
	MAP_OK("[j]\nsize=1m\nbuffered=0\n", "buffered=0");
	HAS("    direct: true");
	if (!rc)
		sc_fio_yaml_exit(&y);
}

static void test_mix_rate_time(void)
{
	struct sc_fio_yaml y;
	const char *const *sets = NULL;
	uint32_t nsets = 0;
	char err[1024], path[512];
	int rc;

	MAP_OK("[j]\nsize=1m\nrw=randrw\nrwmixwrite=30\n", "rwmixwrite");
	HAS("    rwmixread: 70");
	if (!rc)
		sc_fio_yaml_exit(&y);
	MAP_OK("[global]\nrwmixread=60\n[j]\nsize=1m\nrw=rw\nrwmixwrite=10\n", "later wins");
	HAS("    rw: readwrite");
	HAS("    rwmixread: 90");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* 1 MiB/s per job of 4 KiB I/Os is 256 a second per job, 4 jobs */
	MAP_OK("[j]\nsize=1m\nrw=randread\nbs=4k\nnumjobs=4\nrate=1m\n", "rate");
	HAS("    rate: 1024");
	HAS("    randommap: true");
	if (!rc)
		sc_fio_yaml_exit(&y);
	MAP_OK("[j]\nsize=1m\nrw=randread\nnumjobs=2\nrate_iops=500\nnorandommap\n", "rate_iops");
	HAS("    rate: 1000");
	LACKS("    randommap: true");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* runtime with time_based: a timed run; alone: a cap on size's bytes */
	MAP_OK("[j]\nsize=1m\nruntime=90\ntime_based\nramp_time=2s\n", "time_based");
	HAS("    runtime: 90s");
	HAS("    ramp: 2s");
	if (!rc)
		sc_fio_yaml_exit(&y);
	MAP_OK("[j]\nsize=1m\ntimeout=1m\n", "runtime alone");
	HAS("    runtime_max: 60s");
	LACKS("    runtime: 60s");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* loops: the region that many times */
	MAP_OK("[j]\nsize=256k\nloops=3\n", "loops");
	HAS("    io_size: 768KiB");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* the same bs for reads and writes, given twice, is one bs */
	MAP_OK("[j]\nsize=1m\nbs=8k,8k\n", "bs twice");
	HAS("    bs: 8KiB");
	if (!rc)
		sc_fio_yaml_exit(&y);
}

static void test_files_and_groups(void)
{
	struct sc_fio_yaml y;
	const char *const *sets = NULL;
	uint32_t nsets = 0;
	char err[1024], path[512], text[2048], file[512];
	int rc;

	/* an existing file: the jobs share its whole length from offset */
	snprintf(file, sizeof(file), "%s/data", tmpdir);
	write_file(file, "");
	CHECK(truncate(file, 1 << 20) == 0, "truncate");
	snprintf(text, sizeof(text), "[j]\nfilename=%s\nnumjobs=4\nrw=randwrite\noffset=64k\n",
		 file);
	MAP_OK(text, "existing file");
	HAS("    size: 960KiB");
	HAS("    offset: 64KiB");
	HAS("    offset_increment: 0B");
	HAS("    allow_destroy: true  # written only with --allow-destroy");
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text(text, NULL, 0, true, &y, err, sizeof(err), path, sizeof(path));
	HAS("    allow_destroy: true  # written only with --allow-destroy");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* as a config's target that says allow_destroy: the file to be written
	 * is not named by --set or ${VAR} */
	{
		char set[600];
		const char *one[] = {set};

		snprintf(set, sizeof(set), "filename=%s", file);
		rc = map_text("[j]\nrw=write\n", one, 1, true, &y, err, sizeof(err), path,
			      sizeof(path));
		CHECK(rc == -EINVAL && strstr(err, "must be named in the job file itself, not by "
						   "--set"),
		      "filename by --set with --allow-destroy: %s", err);
		rc = map_text("[j]\nrw=write\n", one, 1, false, &y, err, sizeof(err), path,
			      sizeof(path));
		CHECK(rc == 0, "filename by --set without --allow-destroy maps: %s", err);
		if (!rc)
			sc_fio_yaml_exit(&y);
		setenv("SC_TEST_FIO_FILE", file, 1);
		rc = map_text("[j]\nrw=write\nfilename=${SC_TEST_FIO_FILE}\n", NULL, 0, true, &y,
			      err, sizeof(err), path, sizeof(path));
		CHECK(rc == -EINVAL && strstr(err, "j.fio:3: job j: filename=") &&
			  strstr(err, "not by ${VAR}"),
		      "filename by ${VAR} with --allow-destroy: %s", err);
	}

	/* stonewall: one phase after another; none: refused */
	MAP_OK("[global]\nsize=1m\n[a]\nrw=write\n[b]\nstonewall\nrw=read\n[c]\nwait_for=b\n",
	       "stonewalled");
	HAS("  - name: \"a\"");
	HAS("  - name: \"b\"");
	HAS("  - name: \"c\"");
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text("[global]\nsize=1m\n[a]\nrw=write\n[b]\nrw=read\n", NULL, 0, false, &y, err,
		      sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:5: job b: fio runs it at the same time as job a"),
	      "concurrent jobs: %s", err);

	/* a writing job that verifies is read back after it */
	MAP_OK("[v]\nsize=1m\nrw=randwrite\nbs=4k\nverify=crc32c\n", "verify");
	HAS("  - name: \"v.verify\"");
	HAS("    verify: crc32c");
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text("[v]\nsize=1m\nrw=randwrite\nnorandommap\nverify=crc32c\n", NULL, 0, false,
		      &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:5: job v: verify needs every block"),
	      "verify with norandommap: %s", err);

	/* a value cannot write config of its own: a path with ':' (a key of
	 * YAML's) is refused as fio's list of files, and quotes and
	 * backslashes stay inside the one quoted path */
	rc = map_text("[j]\nsize=1m\nrw=write\ndirectory=/tmp/a\\\"\nallow_destroy: true\n", NULL,
		      0, false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL, "a line of YAML in the job file: %s", rc ? err : y.text);
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text("[j]\nsize=1m\nrw=write\ndirectory=/tmp/a\\\", allow_destroy: true\n", NULL,
		      0, false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "give one directory"), "a ':' in directory=: %s", err);
	rc = map_text("[j]\nsize=1m\nrw=write\ndirectory=/tmp/a\\\" b\\\\\n", NULL, 0, false, &y,
		      err, sizeof(err), path, sizeof(path));
	HAS("  - path: \"/tmp/a\\\\\\\" b\\\\\\\\\"");
	CHECK(rc == 0 && !strstr(y.text, "allow_destroy"), "no allow_destroy:\n%s",
	      rc == 0 ? y.text : err);
	if (!rc)
		sc_fio_yaml_exit(&y);

	/* two files, or a list of files: refused */
	rc =
	    map_text("[a]\nsize=1m\nstonewall\ndirectory=/tmp\n[b]\nstonewall\ndirectory=/var/tmp\n"
		     "size=1m\n",
		     NULL, 0, false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "job b: its target /var/tmp is not the first job's"),
	      "two targets: %s", err);
	rc = map_text("[a]\nsize=1m\nfilename=x:y\n", NULL, 0, false, &y, err, sizeof(err), path,
		      sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:3: job a: filename=x:y: give one file"),
	      "a list of files: %s", err);
}

static void test_refusals_and_sets(void)
{
	static const char *const shrink[] = {"size=64k", "runtime=1"};
	static const char *const guard[] = {"allow_destroy=1"};
	struct sc_fio_yaml y;
	const char *const *sets = shrink;
	uint32_t nsets = 2;
	char err[1024], path[512];
	int rc;

	/* --set wins over the job's own value */
	MAP_OK("[j]\nsize=10g\nruntime=900\ntime_based\n", "shrunk");
	HAS("    size: 64KiB");
	HAS("    runtime: 1s");
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* the guard's key is no fio option: neither the file nor --set gives it */
	rc = map_text("[j]\nsize=1m\nallow_destroy=1\n", NULL, 0, false, &y, err, sizeof(err), path,
		      sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:3: job j: allow_destroy: an option ssdcluster "
					   "fio does not run"),
	      "allow_destroy in the file: %s", err);
	rc = map_text("[j]\nsize=1m\n", guard, 1, false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "--set allow_destroy=1: allow_destroy is not a fio "
					   "option ssdcluster fio runs"),
	      "allow_destroy by --set: %s", err);
	/* values fio takes that are not run */
	rc = map_text("[j]\nsize=1m\nbs=4k,8k\n", NULL, 0, false, &y, err, sizeof(err), path,
		      sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:3: job j: bs=4k,8k: different values"),
	      "bs for reads and writes: %s", err);
	/* several sizes: the mix itself; fio's random map over them is not
	 * run (a note says so); a rate in bytes is counted in I/Os of the mean
	 * size: 34 KiB here, 1 MiB/s is 30 a second per job */
	rc = map_text("[j]\nsize=1m\nrw=randread\nbssplit=4k/50:64k/50\nrate=1m\n", NULL, 0, false,
		      &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == 0 && has_line(&y, "    bssplit:") && has_line(&y, "      4KiB: 50") &&
		  has_line(&y, "      64KiB: 50") && has_line(&y, "    rate: 30") &&
		  !has_line(&y, "    randommap: true") &&
		  strstr(y.notes, "random map with several I/O sizes is not run"),
	      "a bssplit mix: %s\n%s", err, rc == 0 ? y.text : "");
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text("[j]\nsize=1m\nbsrange=4k-16k\nrw=randread\nnorandommap\n", NULL, 0, false,
		      &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == 0 && has_line(&y, "    bsrange: [4KiB, 16KiB]") &&
		  !strstr(y.notes, "random map"),
	      "a bsrange: %s", err);
	if (!rc)
		sc_fio_yaml_exit(&y);
	/* fio keeps no random map for a non-uniform distribution */
	rc = map_text("[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:50/5:50/95\n", NULL, 0,
		      false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == 0 && !has_line(&y, "    randommap: true") &&
		  has_line(&y, "    random_distribution: \"zoned:50/5:50/95\""),
	      "zoned: %s", err);
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text("[j]\nsize=1m\nbssplit=64k/100\n", NULL, 0, false, &y, err, sizeof(err), path,
		      sizeof(path));
	CHECK(rc == 0 && has_line(&y, "    bs: 64KiB"), "bssplit of one size: %s", err);
	if (!rc)
		sc_fio_yaml_exit(&y);
	rc = map_text("[j]\nsize=50%\n", NULL, 0, false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:2: job j: size=50%"), "size=50%%: %s", err);
	rc = map_text("[j]\nrw=read:8k\nsize=1m\n", NULL, 0, false, &y, err, sizeof(err), path,
		      sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:2: job j: rw=read:8k"), "holes: %s", err);
	rc = map_text("[j]\nrw=read\n", NULL, 0, false, &y, err, sizeof(err), path, sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "job j: no size="), "no size: %s", err);
	rc = map_text("[j]\nsize=1m\ntime_based\n", NULL, 0, false, &y, err, sizeof(err), path,
		      sizeof(path));
	CHECK(rc == -EINVAL && strstr(err, "j.fio:3: job j: time_based without runtime"),
	      "time_based alone: %s", err);
	/* a comment after a value, as fio strips it */
	nsets = 0;
	MAP_OK("[j]\nsize=1m\nnumjobs=4\t; four threads\n", "inline comment");
	HAS("    jobs: 4");
	if (!rc)
		sc_fio_yaml_exit(&y);
}

/* A config check's message names the job file's line the value came from. */
static void test_where(void)
{
	struct sc_config *cfg = NULL;
	struct sc_fio_yaml y;
	char err[2048], path[512], ypath[512], text[512];
	int rc;

	snprintf(path, sizeof(path), "%s/w.fio", tmpdir);
	snprintf(text, sizeof(text),
		 "[global]\ndirectory=%s\n\n[big]\nsize=64k\n# the unit is larger than the "
		 "file\nbs=128k\n",
		 tmpdir);
	write_file(path, text);
	rc = sc_fio_config_load(&cfg, path, NULL, 0, false, &y, ypath, sizeof(ypath), NULL, err,
				sizeof(err));
	CHECK(rc == -EINVAL, "bs past size refused: %d", rc);
	CHECK(strncmp(err, path, strlen(path)) == 0 &&
		  (strncmp(err + strlen(path), ":7: ", 4) == 0 ||
		   strncmp(err + strlen(path), ":5: ", 4) == 0),
	      "the message names bs's or size's line of %s: %s", path, err);
	CHECK(access(ypath, F_OK) != 0, "the config file %s is removed", ypath);
	if (!rc) {
		sc_config_destroy(cfg);
		sc_fio_yaml_exit(&y);
	}

	snprintf(text, sizeof(text), "[global]\ndirectory=%s\n[ok]\nsize=64k\nrw=write\n", tmpdir);
	write_file(path, text);
	rc = sc_fio_config_load(&cfg, path, NULL, 0, false, &y, ypath, sizeof(ypath), NULL, err,
				sizeof(err));
	CHECK(rc == 0, "a good job file loads: %s", err);
	if (!rc) {
		const struct sc_plan *plan = sc_config_plan(cfg);

		CHECK(plan->nphases == 1 && plan->phases[0].io.rw == SC_RW_WRITE &&
			  plan->phases[0].io.size_bytes == 65536 && !plan->phases[0].io.direct &&
			  plan->phases[0].io.engine == SC_ENGINE_PSYNC,
		      "the plan: write, 64 KiB, buffered, psync");
		sc_config_destroy(cfg);
		sc_fio_yaml_exit(&y);
	}
}

int main(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_fio_map.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_defaults();
	test_mix_rate_time();
	test_files_and_groups();
	test_refusals_and_sets();
	test_where();
	check_rmtree(tmpdir);
	return check_exit("test_fio_map");
}
