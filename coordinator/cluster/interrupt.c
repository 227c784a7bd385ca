/* interrupt.c -- SIGINT and SIGTERM noted by an async-signal-safe handler. */
#include "interrupt.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Lock-free atomics (checked below): safe to set in a handler and to read
 * from any thread. */
static atomic_int caught;
static atomic_int from_parent;
static pid_t parent_pid;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomic int");

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	if (atomic_load(&caught))
		return;
	atomic_store(&from_parent, info && info->si_pid == parent_pid && parent_pid > 1);
	atomic_store(&caught, sig);
}

int sc_interrupt_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	/* SA_RESTART: a signal does not fail the system calls it interrupts */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	parent_pid = getppid();
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL) != 0)
			return -errno;
	return 0;
}

int sc_interrupt_signal(void)
{
	return atomic_load(&caught);
}

bool sc_interrupt_from_launcher(void)
{
	return atomic_load(&caught) && atomic_load(&from_parent);
}

const char *sc_interrupt_name(int sig)
{
	static char buf[32];

	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

int sc_interrupt_exit_code(int sig)
{
	return 128 + sig;
}

int sc_interrupt_status(int status, int sig)
{
	if (!sig || status == SC_EXIT_BAD_INPUT)
		return status;
	return sc_interrupt_exit_code(sig);
}
