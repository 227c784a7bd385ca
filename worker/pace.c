/* pace.c -- open-loop schedules: intended starts, backlog, and waiting for
 * the next start; the throttle's service queue (pace.h). */
#include "pace.h"

#include "clock.h"
#include "units.h"

/* Faster than one I/O per nanosecond a job's I/Os are all due at once
 * anyway; the cap keeps the schedule's arithmetic within 64 bits. */
#define RATE_MAX_PER_JOB SC_NS_PER_S
/* A sleep ends late by the timer slack and the wakeup latency (a few us on
 * bare metal, tens of us in a VM).  A job wakes this much before an
 * intended start and polls the rest of the way; the lead follows the
 * lateness its sleeps see, up to this bound, so a low rate never spins long. */
#define WAKE_LEAD_MAX_NS 200000ull
/* Per sleep, the lead sheds 1/WAKE_LEAD_DECAY of its excess over the
 * lateness seen (it jumps up at once). */
#define WAKE_LEAD_DECAY 16u

/* This job's share of the rank's rate, in I/Os per second. */
static uint64_t job_rate(const struct sc_io_spec *io, uint32_t index)
{
	uint64_t rate = io->rate_iops / io->jobs + (index < io->rate_iops % io->jobs);

	return rate < RATE_MAX_PER_JOB ? rate : RATE_MAX_PER_JOB;
}

bool sc_pace_init(struct sc_pace *p, const struct sc_io_spec *io, uint32_t index,
		  uint64_t start_ns)
{
	uint64_t rate = job_rate(io, index);

	if (rate == 0)
		return false;
	start_ns += SC_NS_PER_S / rate * index / io->jobs;
	*p = (struct sc_pace){.start_ns = start_ns, .rate = rate, .next_ns = start_ns};
	return true;
}

/* I/Os intended before t: I/O k is when k < ceil((t - start) * rate / 1e9). */
static uint64_t intended_before(const struct sc_pace *p, uint64_t t)
{
	if (t <= p->start_ns)
		return 0;
	return (uint64_t)(((unsigned __int128)(t - p->start_ns) * p->rate + SC_NS_PER_S - 1) /
			  SC_NS_PER_S);
}

uint64_t sc_pace_backlog(const struct sc_pace *p, uint64_t from_ns, uint64_t to_ns)
{
	uint64_t next = p->sec * p->rate + p->nth, before_to, before_from;

	if (to_ns <= p->start_ns)
		return 0;
	before_to = intended_before(p, to_ns);
	before_from = intended_before(p, from_ns);
	if (next < before_from)
		next = before_from;
	return before_to > next ? before_to - next : 0;
}

void sc_pace_advance(struct sc_pace *p)
{
	if (++p->nth == p->rate) {
		p->nth = 0;
		p->sec++;
	}
	p->next_ns = p->start_ns + p->sec * SC_NS_PER_S + p->nth * SC_NS_PER_S / p->rate;
}

/* When to wake for the next intended start: just before it, or cap_ns
 * from now or the deadline if earlier.  0 when there is no time to wait
 * (the intended start is within the lead). */
static uint64_t pace_wake(const struct sc_pace *p, uint64_t cap_ns, uint64_t deadline)
{
	uint64_t now = sc_now_ns(), wake;

	if (p->next_ns <= now + p->lead_ns)
		return 0;
	wake = p->next_ns - p->lead_ns;
	if (wake > now + cap_ns)
		wake = now + cap_ns;
	if (deadline && wake > deadline)
		wake = deadline;
	return wake > now ? wake : 0;
}

/* Follows the lateness of a wait that was meant to end at wake. */
static void pace_learn(struct sc_pace *p, uint64_t wake)
{
	uint64_t late = sc_now_ns() - wake;

	if (late > p->lead_ns)
		p->lead_ns = late < WAKE_LEAD_MAX_NS ? late : WAKE_LEAD_MAX_NS;
	else
		p->lead_ns -= (p->lead_ns - late) / WAKE_LEAD_DECAY;
}

void sc_pace_sleep(struct sc_pace *p, uint32_t inflight, uint64_t deadline_ns)
{
	uint64_t wake = pace_wake(p, inflight ? SC_POLL_INFLIGHT_NS : SC_STOP_POLL_NS, deadline_ns);

	if (!wake)
		return;
	sc_sleep_until(wake);
	pace_learn(p, wake);
}

int sc_pace_reap(struct sc_pace *p, const struct sc_engine_ops *ops, struct sc_engine *e,
		 struct sc_io **done, uint32_t max, uint64_t deadline_ns)
{
	uint64_t wake = pace_wake(p, SC_STOP_POLL_NS, deadline_ns);
	int n = ops->reap_until(e, done, max, wake);

	if (n == 0 && wake)
		pace_learn(p, wake);
	return n;
}

void sc_throttle_init(struct sc_throttle *t, uint64_t bytes_per_s)
{
	*t = (struct sc_throttle){.bytes_per_s = bytes_per_s};
}

uint64_t sc_throttle_admit(struct sc_throttle *t, uint64_t arrival_ns, uint64_t len_bytes)
{
	unsigned __int128 work = (unsigned __int128)len_bytes * SC_NS_PER_S + t->carry;
	uint64_t start = arrival_ns > t->last_ns ? arrival_ns : t->last_ns;

	t->carry = (uint64_t)(work % t->bytes_per_s);
	t->last_ns = start + (uint64_t)(work / t->bytes_per_s);
	return t->last_ns;
}
