/* progress_mode.c -- where rank 0's progress goes: is a person watching? */
#include "progress_mode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "units.h"

/* Processes looked at from the rank's parent up: the rank, under Open
 * MPI 4 the launcher itself or its orted, under Open MPI 5 prted. */
#define LAUNCHER_DEPTH 4
/* Plain progress lines: one every 10 s. */
#define LINES_INTERVAL_NS (10 * SC_NS_PER_S)
/* The longest interval SSDCLUSTER_PROGRESS_INTERVAL_MS may set: 1 h. */
#define INTERVAL_MS_MAX 3600000UL
#define NS_PER_MS	UINT64_C(1000000)

static const char *const mode_words[] = {
    [SC_PROGRESS_AUTO] = "auto",
    [SC_PROGRESS_LIVE] = "live",
    [SC_PROGRESS_LINES] = "lines",
    [SC_PROGRESS_NONE] = "none",
};

int sc_progress_mode_parse(const char *word, enum sc_progress_mode *out)
{
	for (size_t i = 0; i < sizeof(mode_words) / sizeof(mode_words[0]); i++) {
		if (strcmp(word, mode_words[i]) == 0) {
			*out = (enum sc_progress_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* A process's name and parent from proc/PID/stat ("pid (comm) state
 * ppid ...").  0, or -1 when it cannot be read. */
static int read_stat(const char *proc, pid_t pid, char *comm, size_t len, pid_t *ppid)
{
	char path[256], buf[512];
	const char *open_paren, *close_paren;
	FILE *f;
	size_t n;
	int parent;

	snprintf(path, sizeof(path), "%s/%d/stat", proc, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name may hold spaces and parentheses: it ends at the last ')' */
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren ||
	    sscanf(close_paren + 1, " %*c %d", &parent) != 1)
		return -1;
	snprintf(comm, len, "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);
	*ppid = parent;
	return 0;
}

static bool launcher_name(const char *comm)
{
	static const char *const names[] = {"mpirun", "mpiexec", "prterun", "orterun"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(comm, names[i]) == 0)
			return true;
	return false;
}

/* What the file at path (a /proc fd link) is: 1 a terminal, 0 not, -1
 * cannot tell.  Only a character device is opened, without becoming
 * anyone's controlling terminal and without waiting for a carrier. */
static int path_is_tty(const char *path)
{
	struct stat st;
	int fd, tty;

	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISCHR(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	tty = isatty(fd);
	close(fd);
	return tty;
}

int sc_progress_launcher_tty(const char *proc, pid_t pid)
{
	char comm[64], path[256];
	pid_t parent;

	for (int depth = 0; depth < LAUNCHER_DEPTH && pid > 1; depth++) {
		if (read_stat(proc, pid, comm, sizeof(comm), &parent))
			return -1;
		if (launcher_name(comm)) {
			snprintf(path, sizeof(path), "%s/%d/fd/1", proc, (int)pid);
			return path_is_tty(path);
		}
		pid = parent;
	}
	return -1;
}

/* True when an MPI launcher started this process. */
static bool under_launcher(void)
{
	const char *ompi = getenv("OMPI_COMM_WORLD_RANK"), *pmix = getenv("PMIX_RANK");

	return (ompi && *ompi) || (pmix && *pmix);
}

enum sc_progress_mode sc_progress_mode_choose(enum sc_progress_mode asked, bool quiet)
{
	if (quiet)
		return SC_PROGRESS_NONE;
	if (asked != SC_PROGRESS_AUTO)
		return asked;
	if (!isatty(STDOUT_FILENO))
		return SC_PROGRESS_LINES;
	if (!under_launcher())
		return SC_PROGRESS_LIVE;
	/* a rank's stdout is the launcher's pseudo-terminal even when the
	 * launcher's own output goes to a file */
	return sc_progress_launcher_tty("/proc", getppid()) == 1 ? SC_PROGRESS_LIVE
								 : SC_PROGRESS_LINES;
}

uint64_t sc_progress_lines_interval_ns(void)
{
	const char *v = getenv("SSDCLUSTER_PROGRESS_INTERVAL_MS");
	unsigned long ms;
	char *end;

	if (!v || !*v)
		return LINES_INTERVAL_NS;
	errno = 0;
	ms = strtoul(v, &end, 10);
	if (errno || *end || ms == 0 || ms > INTERVAL_MS_MAX)
		return LINES_INTERVAL_NS;
	return (uint64_t)ms * NS_PER_MS;
}
