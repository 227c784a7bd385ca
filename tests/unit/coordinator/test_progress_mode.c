/* test_progress_mode.c -- where progress goes: the mode words, the
 * launcher's stdout found in a fake proc tree, the lines' interval, and
 * --progress against SSDCLUSTER_PROGRESS. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "progress_mode.h"

static char root[4096];

/* root/PID/stat naming comm with parent ppid; fd1, when not NULL, is
 * what root/PID/fd/1 points at. */
static void fake_proc(int pid, const char *comm, int ppid, const char *fd1)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "%d (%s) S %d %d 0 0 -1 4194560 0 0\n", pid, comm, ppid, ppid);
	fclose(f);
	if (!fd1)
		return;
	snprintf(path, sizeof(path), "%s/%d/fd", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/fd/1", root, pid);
	unlink(path);
	if (symlink(fd1, path)) {
		perror(path);
		exit(1);
	}
}

static void test_words(void)
{
	static const char *const words[] = {"auto", "live", "lines", "none"};
	enum sc_progress_mode m;

	for (int i = 0; i < 4; i++) {
		m = (enum sc_progress_mode) - 1;
		CHECK(sc_progress_mode_parse(words[i], &m) == 0 && (int)m == i, "%s", words[i]);
	}
	CHECK(sc_progress_mode_parse("bogus", &m) == -EINVAL, "bogus taken");
	CHECK(sc_progress_mode_parse("", &m) == -EINVAL, "empty word taken");
	CHECK(sc_progress_mode_parse("Live", &m) == -EINVAL, "words are lower case");
}

static void test_launcher(void)
{
	char file[4200];
	int fd;

	check_mkdtemp(root, sizeof(root), "sc-progress");
	snprintf(file, sizeof(file), "%s/run.log", root);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	close(fd);
	/* rank 300 under mpirun 200 (Open MPI 4 on one host) */
	fake_proc(300, "ssdcluster", 200, NULL);
	fake_proc(200, "mpirun", 100, file);
	CHECK(sc_progress_launcher_tty(root, 200) == 0, "mpirun > file is not a terminal");
	fake_proc(200, "mpirun", 100, "/dev/null");
	CHECK(sc_progress_launcher_tty(root, 200) == 0, "/dev/null is not a terminal");
	fake_proc(200, "mpirun", 100, "/dev/ptmx"); /* opening it gives a pseudo-terminal */
	CHECK(sc_progress_launcher_tty(root, 200) == 1, "a pseudo-terminal is a terminal");
	fake_proc(200, "mpirun", 100, "/nonexistent/tty");
	CHECK(sc_progress_launcher_tty(root, 200) == -1, "an unreadable fd cannot be told");
	/* Open MPI 5: rank under prted under prterun, odd names on the way */
	fake_proc(400, "prterun", 1, file);
	fake_proc(410, "prted (x) y", 400, NULL);
	fake_proc(420, "ssdcluster", 410, NULL);
	CHECK(sc_progress_launcher_tty(root, 410) == 0, "prterun two levels up not found");
	fake_proc(400, "prterun", 1, "/dev/ptmx");
	CHECK(sc_progress_launcher_tty(root, 410) == 1, "prterun's terminal not seen");
	/* no launcher within reach: cannot tell */
	fake_proc(500, "mpiexec", 1, "/dev/ptmx");
	fake_proc(510, "a", 500, NULL);
	fake_proc(520, "b", 510, NULL);
	fake_proc(530, "c", 520, NULL);
	fake_proc(540, "d", 530, NULL);
	CHECK(sc_progress_launcher_tty(root, 530) == 1, "mpiexec 3 levels up not found");
	CHECK(sc_progress_launcher_tty(root, 540) == -1, "looked more than 4 levels up");
	fake_proc(600, "slurmstepd", 1, "/dev/ptmx");
	CHECK(sc_progress_launcher_tty(root, 600) == -1, "slurmstepd taken for a launcher");
	CHECK(sc_progress_launcher_tty(root, 999) == -1, "a missing process cannot be told");
	check_rmtree(root);
}

static void test_interval(void)
{
	const uint64_t ten_s = UINT64_C(10000000000);

	unsetenv("SSDCLUSTER_PROGRESS_INTERVAL_MS");
	CHECK(sc_progress_lines_interval_ns() == ten_s, "default not 10 s");
	setenv("SSDCLUSTER_PROGRESS_INTERVAL_MS", "200", 1);
	CHECK(sc_progress_lines_interval_ns() == UINT64_C(200000000), "200 ms not taken");
	setenv("SSDCLUSTER_PROGRESS_INTERVAL_MS", "0", 1);
	CHECK(sc_progress_lines_interval_ns() == ten_s, "0 ms taken");
	setenv("SSDCLUSTER_PROGRESS_INTERVAL_MS", "5s", 1);
	CHECK(sc_progress_lines_interval_ns() == ten_s, "5s taken as milliseconds");
	unsetenv("SSDCLUSTER_PROGRESS_INTERVAL_MS");
}

/* --progress and SSDCLUSTER_PROGRESS: the option wins; bad words are
 * refused with the words that are taken. */
static void test_cli(void)
{
	char a0[] = "ssdcluster", cfg[] = "x.yaml", lines[] = "--progress=lines",
	     bogus[] = "--progress=bogus";
	char *plain[] = {a0, cfg, NULL}, *opt[] = {a0, cfg, lines, NULL},
	     *bad[] = {a0, cfg, bogus, NULL};
	char err[256] = "";
	struct sc_cli cli;

	unsetenv("SSDCLUSTER_PROGRESS");
	CHECK(sc_cli_parse(2, plain, &cli, err, sizeof(err)) == 0 &&
		  cli.progress == SC_PROGRESS_AUTO,
	      "default not auto");
	setenv("SSDCLUSTER_PROGRESS", "none", 1);
	CHECK(sc_cli_parse(2, plain, &cli, err, sizeof(err)) == 0 &&
		  cli.progress == SC_PROGRESS_NONE,
	      "SSDCLUSTER_PROGRESS=none not taken");
	CHECK(sc_cli_parse(3, opt, &cli, err, sizeof(err)) == 0 &&
		  cli.progress == SC_PROGRESS_LINES,
	      "--progress does not win");
	setenv("SSDCLUSTER_PROGRESS", "bogus", 1);
	CHECK(sc_cli_parse(2, plain, &cli, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "SSDCLUSTER_PROGRESS=bogus") && strstr(err, "lines"),
	      "bad environment word: %s", err);
	CHECK(sc_cli_parse(3, opt, &cli, err, sizeof(err)) == 0, "the option overrides a bad word");
	unsetenv("SSDCLUSTER_PROGRESS");
	CHECK(sc_cli_parse(3, bad, &cli, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "--progress=bogus") && strstr(err, "auto, live, lines or none"),
	      "bad option word: %s", err);
}

static void test_choose(void)
{
	CHECK(sc_progress_mode_choose(SC_PROGRESS_LIVE, true) == SC_PROGRESS_NONE,
	      "--quiet still shows progress");
	CHECK(sc_progress_mode_choose(SC_PROGRESS_LIVE, false) == SC_PROGRESS_LIVE, "live");
	CHECK(sc_progress_mode_choose(SC_PROGRESS_NONE, false) == SC_PROGRESS_NONE, "none");
	if (!isatty(STDOUT_FILENO))
		CHECK(sc_progress_mode_choose(SC_PROGRESS_AUTO, false) == SC_PROGRESS_LINES,
		      "auto on a file or pipe is not lines");
}

int main(void)
{
	test_words();
	test_launcher();
	test_interval();
	test_cli();
	test_choose();
	return check_exit("test_progress_mode");
}
