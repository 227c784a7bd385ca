/* pace.h -- open-loop schedules (rate_iops > 0): when each I/O of a job is
 * intended to start, and how the job waits for that instant.
 *
 * Each job gets rate_iops / jobs I/Os per second (the first rate_iops % jobs
 * one more), and its I/O k is intended to start at the common start +
 * k / rate seconds, ramp included.  An I/O is issued once that time has come
 * and a slot is free; none is skipped, so a stalled device builds a backlog
 * whose response times grow.
 *
 * Also a target's throttle (sc_throttle): the service queue a throttled
 * job's I/Os pass through, which makes the target a slow drive.
 */
#ifndef SC_PACE_H
#define SC_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "plan.h"

/* An I/O submitted more than this after its intended start counts as late
 * (its slot was busy or the loop was behind). */
#define SC_PACE_LATE_NS 10000ull
/* Longest sleep while I/Os are in flight on an engine without reap_until
 * (or whose reap_until is unsupported) and a wait has a bound (the pace, a
 * throttled I/O's departure): it cannot wait for a completion with a
 * timeout, so one that lands while the job sleeps is noticed (and its
 * service and response time stamped) up to this late. */
#define SC_POLL_INFLIGHT_NS 100000ull

/* One job's schedule (the job's own; no locking). */
struct sc_pace {
	uint64_t start_ns; /* I/O 0 is intended to start here */
	uint64_t rate;	   /* this job's I/Os per second, > 0 */
	uint64_t sec, nth; /* the next I/O is number sec * rate + nth */
	uint64_t next_ns;  /* its intended start */
	uint64_t lead_ns;  /* wake this long before next_ns */
};

/* Starts p for job index of a rank running io (rate_iops > 0) from
 * start_ns: its share of the rate, its schedule shifted by index / jobs of
 * an interval so that jobs do not all wake at the same instants.  Also
 * makes the calling thread's sleeps end as close to their time as the
 * kernel allows (timer slack).  False when the job gets no I/Os (fewer I/Os
 * per second than jobs): p is then unused. */
bool sc_pace_init(struct sc_pace *p, const struct sc_io_spec *io, uint32_t index,
		  uint64_t start_ns);

/* Moves to the next I/O: exact, so a rate that does not divide a second
 * does not drift. */
void sc_pace_advance(struct sc_pace *p);

/* Scheduled I/Os intended in [from_ns, to_ns) that were not issued by the
 * time the phase stopped: the backlog a stalled drive left behind, which
 * would otherwise vanish from the figures. */
uint64_t sc_pace_backlog(const struct sc_pace *p, uint64_t from_ns, uint64_t to_ns);

/* Sleeps until just before the next intended start, or until the poll
 * bound (inflight: I/Os to notice) or the deadline (0: none) if earlier;
 * returns at once when the intended start is within the lead. */
void sc_pace_sleep(struct sc_pace *p, uint32_t inflight, uint64_t deadline_ns);

/* With I/Os in flight on engine e: reaps into done (at most max) what
 * completes before the job must wake for the next intended start (or look
 * for a stop, or end at the deadline); without waiting when the start is
 * within the lead.  The engine's reap_until (required): a count or -errno. */
int sc_pace_reap(struct sc_pace *p, const struct sc_engine_ops *ops, struct sc_engine *e,
		 struct sc_io **done, uint32_t max, uint64_t deadline_ns);

/* A target's throttle as a slow drive: one FIFO server working at a job's
 * share of the rate.  An I/O of len bytes that arrives (is submitted) at a
 * departs at max(a, the previous I/O's departure) + len / rate; the I/O
 * loop reports it done no earlier than that (nor than the engine says), so
 * at queue depth Q its latency is about Q x len / rate (Little's law) and
 * the job moves rate bytes per second.  The job's own; no locking, no
 * allocation. */
struct sc_throttle {
	uint64_t bytes_per_s; /* the server's rate, > 0 */
	uint64_t carry;	      /* of len x 1e9 / bytes_per_s, the remainder the
			       * service times so far left over: over a busy
			       * period they add up exactly */
	uint64_t last_ns;     /* the last I/O admitted departs then; 0: none */
};

/* Starts t empty, serving bytes_per_s (> 0). */
void sc_throttle_init(struct sc_throttle *t, uint64_t bytes_per_s);

/* Queues an I/O of len_bytes (0: an fsync, which takes no service time
 * but leaves no earlier than the I/Os before it) arriving at arrival_ns:
 * its departure instant. */
uint64_t sc_throttle_admit(struct sc_throttle *t, uint64_t arrival_ns, uint64_t len_bytes);

#endif
