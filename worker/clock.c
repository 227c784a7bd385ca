/* clock.c -- sleeping on the worker's clock (clock.h). */
#include "clock.h"

#include <errno.h>
#include <time.h>

void sc_sleep_until(uint64_t when_ns)
{
	struct timespec ts = {.tv_sec = (time_t)(when_ns / SC_NS_PER_S),
			      .tv_nsec = (long)(when_ns % SC_NS_PER_S)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}
