/* clock.h -- the clock the worker measures with (CLOCK_MONOTONIC, in
 * nanoseconds) and sleeps on.
 */
#ifndef SC_CLOCK_H
#define SC_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "units.h"

/* Longest a waiting thread goes without looking at the stop flag, which
 * sc_run_stop sets without waking anyone: how soon a stop is noticed. */
#define SC_STOP_POLL_NS 10000000ull

/* CLOCK_MONOTONIC now, in nanoseconds.  Inline: the I/O loop reads it
 * twice per batch. */
static inline uint64_t sc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SC_NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Sleeps until when_ns on CLOCK_MONOTONIC (at once when it has passed);
 * signals do not cut it short. */
void sc_sleep_until(uint64_t when_ns);

#endif
