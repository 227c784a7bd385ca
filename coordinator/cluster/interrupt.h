/* interrupt.h -- SIGINT and SIGTERM: a handler notes the first one, the
 * coordinator's wait loops act on it (see cluster.h, "Stops"). */
#ifndef SC_INTERRUPT_H
#define SC_INTERRUPT_H

#include <stdbool.h>

/* Installs the handler for SIGINT and SIGTERM in this process.  It only
 * notes the first signal; a later one is ignored (the launcher's SIGKILL
 * ends a rank that does not stop).  0 or -errno. */
int sc_interrupt_install(void);

/* The first SIGINT or SIGTERM this process caught, 0 for none. */
int sc_interrupt_signal(void);

/* True when that signal came from this process's parent: the launcher
 * (mpirun, orted, slurmstepd) ending the job, which kills the process a
 * moment later (Open MPI 4.1: SIGKILL 1 s after SIGTERM). */
bool sc_interrupt_from_launcher(void);

/* "SIGINT", "SIGTERM" or "signal N". */
const char *sc_interrupt_name(int sig);

/* The exit status of a run a signal stopped: 128 + sig, as a shell shows
 * a process that signal ended (130 for SIGINT, 143 for SIGTERM). */
int sc_interrupt_exit_code(int sig);

/* The exit status of a run that would end with status (0 or an enum
 * sc_exit_status, cli.h) after sig was caught (0: none): 128 + sig, as
 * for a run cut short, whenever the run went past its checks, even when
 * the signal came after the last phase, during the cleanup and the last
 * results (which still finish); status itself with no signal, or when
 * the input was refused (SC_EXIT_BAD_INPUT: nothing ran, and that is
 * what the user must know). */
int sc_interrupt_status(int status, int sig);

#endif
