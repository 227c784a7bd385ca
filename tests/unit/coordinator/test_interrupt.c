/* test_interrupt.c -- the exit status of a run that caught SIGINT or
 * SIGTERM: 128 + signal whenever the run went past its checks, also when
 * the signal came after the last phase (the cleanup and the results
 * finished, and the run still says it was stopped); a refused input keeps
 * its 2. */
#include <signal.h>

#include "check.h"
#include "cli.h"
#include "cluster/interrupt.h"

int main(void)
{
	CHECK(sc_interrupt_status(0, 0) == 0, "no signal: the run's own status");
	CHECK(sc_interrupt_status(SC_EXIT_VERDICT_FAILED, 0) == SC_EXIT_VERDICT_FAILED,
	      "no signal: a failed verdict stays");
	CHECK(sc_interrupt_status(0, SIGTERM) == 143,
	      "SIGTERM after the last phase of a good run: 143, not 0");
	CHECK(sc_interrupt_status(0, SIGINT) == 130, "SIGINT: 130");
	CHECK(sc_interrupt_status(SC_EXIT_VERDICT_FAILED, SIGTERM) == 143,
	      "a signal outranks the verdict, as for a run cut short");
	CHECK(sc_interrupt_status(SC_EXIT_RUN_FAILED, SIGINT) == 130,
	      "a signal outranks a failure, as for a run cut short");
	CHECK(sc_interrupt_status(130, SIGINT) == 130, "a run cut short keeps its code");
	CHECK(sc_interrupt_status(SC_EXIT_BAD_INPUT, SIGTERM) == SC_EXIT_BAD_INPUT,
	      "a refused input (nothing ran) keeps 2");
	return check_exit("test_interrupt");
}
