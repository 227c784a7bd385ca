/* test_clock.c -- waiting on the worker's clock: sc_clock_wait_until never
 * returns before its time, keeps its lead within the bound, and returns at
 * once for a time already passed; sc_clock_set_precise sets the calling
 * thread's timer slack to 1 ns.  Only bounds a busy machine cannot break
 * (it makes waits later, never earlier). */
#include <stdint.h>
#include <sys/prctl.h>

#include "check.h"
#include "clock.h"

#define US	    UINT64_C(1000)
#define WAITS	    200
#define LEAD_MAX_NS (50 * US)

/* Waits of 1 to 200 us: none ends before its time, the lead stays within
 * its bound (however late the sleeps), and a lead of 0 bound stays 0. */
static void check_never_early(void)
{
	uint64_t lead = 0, none = 0;

	for (int i = 0; i < WAITS; i++) {
		uint64_t when = sc_now_ns() + (uint64_t)(1 + i % 200) * US, now;

		sc_clock_wait_until(&lead, when, LEAD_MAX_NS);
		now = sc_now_ns();
		CHECK(now >= when, "wait %d returned %llu ns early", i,
		      (unsigned long long)(when - now));
		CHECK(lead <= LEAD_MAX_NS, "lead %llu ns above its bound",
		      (unsigned long long)lead);
		sc_clock_wait_until(&none, sc_now_ns() + 20 * US, 0);
		CHECK(none == 0, "a bound of 0 keeps the lead at 0: %llu ns",
		      (unsigned long long)none);
	}
}

/* A time already passed, or one within the lead: no sleep, so nothing
 * learnt (the lead untouched), and still no return before the time. */
static void check_past(void)
{
	uint64_t lead = 7 * US, t0 = sc_now_ns();

	sc_clock_wait_until(&lead, t0 > 1000 * US ? t0 - 1000 * US : 0, LEAD_MAX_NS);
	CHECK(lead == 7 * US, "a passed time leaves the lead: %llu ns", (unsigned long long)lead);
	lead = 2 * SC_NS_PER_S;
	t0 = sc_now_ns();
	sc_clock_wait_until(&lead, t0 + 100 * US, 4 * SC_NS_PER_S);
	CHECK(lead == 2 * SC_NS_PER_S, "a wait within the lead does not sleep or learn: %llu ns",
	      (unsigned long long)lead);
	CHECK(sc_now_ns() >= t0 + 100 * US, "the polled wait ends at its time, not before");
}

static void check_precise(void)
{
	sc_clock_set_precise();
	CHECK(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == 1, "timer slack %d ns, want 1",
	      prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
}

int main(void)
{
	check_never_early();
	check_past();
	check_precise();
	return check_exit("test_clock");
}
