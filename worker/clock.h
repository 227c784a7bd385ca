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

/* Makes the calling thread's sleeps end when asked rather than up to the
 * kernel's default timer slack (50 us) later: its slack becomes 1 ns.
 * Threads it starts afterwards inherit that.  If the kernel refuses, its
 * sleeps only end later. */
void sc_clock_set_precise(void);

/* Waits until when_ns: sleeps until *lead_ns before it, then reads the
 * clock until when_ns (at once when it has passed).  *lead_ns (start it at
 * 0) follows how late the caller's sleeps end, up to lead_max_ns, so the
 * reading stays short where sleeps end on time and the wait no later than
 * its sleeps where they do not.  For waits on a time a model set (an
 * emulated completion), never on other threads or ranks. */
void sc_clock_wait_until(uint64_t *lead_ns, uint64_t when_ns, uint64_t lead_max_ns);

#endif
