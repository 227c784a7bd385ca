/* idle.c -- an idle step (workload idle): no I/O; every rank waits the
 * phase's io.runtime_ns from the common start (or until the phase is
 * stopped), its per-second series kept (all zero) for the seconds it
 * waited, so that what is sampled per second lines up with other phases.
 */
#include <stdatomic.h>

#include "clock.h"
#include "ioloop.h"
#include "job_priv.h"

int sc_idle_job_setup(struct job *j, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	/* the series, grown now rather than while the step runs */
	sc_ioloop_reserve_seconds(j, (j->run->io->runtime_ns + SC_NS_PER_S - 1) / SC_NS_PER_S + 2);
	return 0;
}

void sc_idle_job_run(struct job *j)
{
	const struct sc_run *run = j->run;
	uint64_t end = run->start_ns + run->io->runtime_ns, now = sc_now_ns(), secs;

	while (!atomic_load(&j->run->stop) && now < end) {
		uint64_t step = now + SC_STOP_POLL_NS;

		sc_sleep_until(step < end ? step : end);
		now = sc_now_ns();
	}
	/* one (empty) entry per second waited, to the nearest */
	secs = now > run->start_ns ? (now - run->start_ns + SC_NS_PER_S / 2) / SC_NS_PER_S : 0;
	j->nsec = (uint32_t)(secs < j->capsec ? secs : j->capsec);
	j->last_ns = now;
}
