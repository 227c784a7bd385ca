/* clock.c -- sleeping on the worker's clock (clock.h). */
#include "clock.h"

#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

void sc_sleep_until(uint64_t when_ns)
{
	struct timespec ts = {.tv_sec = (time_t)(when_ns / SC_NS_PER_S),
			      .tv_nsec = (long)(when_ns % SC_NS_PER_S)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Per sleep, the lead moves toward the lateness seen by 1/LEAD_GAIN of the
 * difference, at most LEAD_STEP_MAX_NS: a step of the same size either way
 * settles on the median lateness, not the worst (a descheduled thread's,
 * milliseconds under load), which would have the caller poll for long. */
#define LEAD_GAIN	 4u
#define LEAD_STEP_MAX_NS 1000ull

void sc_clock_set_precise(void)
{
	(void)prctl(PR_SET_TIMERSLACK, 1ul, 0ul, 0ul, 0ul);
}

void sc_clock_wait_until(uint64_t *lead_ns, uint64_t when_ns, uint64_t lead_max_ns)
{
	uint64_t wake = when_ns > *lead_ns ? when_ns - *lead_ns : 0;
	uint64_t now = sc_now_ns();

	if (wake > now) {
		uint64_t late, step;

		sc_sleep_until(wake);
		now = sc_now_ns();
		late = now - wake;
		step = (late > *lead_ns ? late - *lead_ns : *lead_ns - late) / LEAD_GAIN;
		if (step > LEAD_STEP_MAX_NS)
			step = LEAD_STEP_MAX_NS;
		*lead_ns = late > *lead_ns ? *lead_ns + step : *lead_ns - step;
		if (*lead_ns > lead_max_ns)
			*lead_ns = lead_max_ns;
	}
	while (now < when_ns)
		now = sc_now_ns();
}
