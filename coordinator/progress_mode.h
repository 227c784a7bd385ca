/* progress_mode.h -- where rank 0's progress goes while a phase runs: one
 * updating line for a person watching a terminal, plain lines for a file
 * or a batch log, or none. */
#ifndef SC_PROGRESS_MODE_H
#define SC_PROGRESS_MODE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum sc_progress_mode {
	SC_PROGRESS_AUTO,  /* live or lines, chosen by sc_progress_mode_choose */
	SC_PROGRESS_LIVE,  /* one line rewritten in place ("\r") every second */
	SC_PROGRESS_LINES, /* a plain line ("\n" only) every 10 s */
	SC_PROGRESS_NONE,  /* no progress lines; the phase rows still print */
};

/* "auto", "live", "lines" or "none" into *out.  0, or -EINVAL for any
 * other word. */
int sc_progress_mode_parse(const char *word, enum sc_progress_mode *out);

/* The words sc_progress_mode_parse takes, for messages. */
#define SC_PROGRESS_MODE_WORDS "auto, live, lines or none"

/* The mode rank 0 uses when asked for asked: none with quiet; asked
 * unless it is auto.  Auto is live only when stdout is a terminal and,
 * under mpirun (OMPI_COMM_WORLD_RANK or PMIX_RANK set), the launcher's
 * own stdout is a terminal too (sc_progress_launcher_tty); lines
 * otherwise, and whenever that cannot be told. */
enum sc_progress_mode sc_progress_mode_choose(enum sc_progress_mode asked, bool quiet);

/* Whether the launcher's stdout is a terminal.  Looks at pid and up to
 * three of its ancestors in the proc tree under proc ("/proc") for the
 * first one named mpirun, mpiexec, prterun or orterun, and at what its
 * fd 1 is.  1 a terminal, 0 something else (a file, a pipe, /dev/null),
 * -1 cannot tell (no launcher found, or its fd 1 unreadable). */
int sc_progress_launcher_tty(const char *proc, pid_t pid);

/* Nanoseconds between plain progress lines: 10 s, or what
 * SSDCLUSTER_PROGRESS_INTERVAL_MS says (1 ms to 1 h; for tests). */
uint64_t sc_progress_lines_interval_ns(void);

#endif
