/* deadline.h -- how long the ranks wait for each other in a phase before
 * they call a rank lost (dead or hung) and end the run.
 *
 * Pure arithmetic, no MPI: on the plan (every rank computes the same
 * figures for the same place, and the phase turns them into instants), and
 * on the cluster's deadline and stop (when one wait gives up). */
#ifndef SC_DEADLINE_H
#define SC_DEADLINE_H

#include <stdint.h>

#include "layout.h"
#include "plan.h"
#include "units.h"
#include "cluster.h"

/* The grace added to a planned duration: this much, or GRACE_PCT percent
 * of the duration when that is more. */
#define SC_DEADLINE_GRACE_MIN_NS (30 * SC_NS_PER_S)
#define SC_DEADLINE_GRACE_PCT	 10
/* A phase without a runtime (io_size, checkpoint cells, ingest epochs) has
 * no planned duration; it is planned at the slower of this floor rate per
 * rank and its own rate limit, and at least BYTES_MIN_NS. */
#define SC_DEADLINE_FLOOR_BYTES_PER_S UINT64_C(10000000)
#define SC_DEADLINE_BYTES_MIN_NS      (60 * SC_NS_PER_S)
/* Steps between the collective waits of a phase (clock sync and start,
 * merging the results): this long, plus a little per rank. */
#define SC_DEADLINE_STEP_NS	     (30 * SC_NS_PER_S)
#define SC_DEADLINE_STEP_PER_RANK_NS UINT64_C(10000000)

/* The grace for a planned duration: max(SC_DEADLINE_GRACE_MIN_NS,
 * SC_DEADLINE_GRACE_PCT % of it).  Saturates at UINT64_MAX. */
uint64_t sc_deadline_grace_ns(uint64_t planned_ns);

/* How long phase p planned to run on the rank at place, from the common
 * start: ramp + runtime for time-based phases; otherwise the longest of
 * SC_DEADLINE_BYTES_MIN_NS, the rank's planned bytes at
 * SC_DEADLINE_FLOOR_BYTES_PER_S and its I/Os at the phase's rate (open
 * loop), plus, for ingest and training, its steps' emulated compute.  (A
 * checkpoint cell's compute_before comes before the common start.)
 * Saturates. */
uint64_t sc_deadline_planned_ns(const struct sc_plan *plan, uint32_t p,
				const struct sc_place *place);

/* How long phase p may run on the rank at place before the run gives up
 * on it, from the common start: the phase's timeout when set, else its
 * planned duration plus its grace.  Saturates. */
uint64_t sc_deadline_run_ns(const struct sc_plan *plan, uint32_t p, const struct sc_place *place);

/* How long preparing phase p may take on any rank (opening and creating
 * files, laying out data the phase reads, creating an ingest or training
 * dataset, the whole of it):
 * the bytes it may have to write at SC_DEADLINE_FLOOR_BYTES_PER_S, at
 * least SC_DEADLINE_BYTES_MIN_NS, plus the grace.  Saturates. */
uint64_t sc_deadline_setup_ns(const struct sc_plan *plan, uint32_t p);

/* How long a step between collective waits may take with nranks ranks
 * (clock sync and start; reducing and gathering the results). */
uint64_t sc_deadline_step_ns(uint32_t nranks);

/* The instant (CLOCK_MONOTONIC) at which a wait on other ranks that began
 * at begin_ns gives up, by cluster.h's "Deadlines" and "Stops": at
 * c->deadline_ns, or SC_CLUSTER_WAIT_DEFAULT_NS after begin_ns when none is
 * set; after a stop, no later than its grace from the stop or begin_ns,
 * whichever is later (SC_CLUSTER_STOP_GRACE_FINISH_NS while
 * c->finishing, unless the launcher sent it: the run's last steps finish).  Ranks other than 0 give up a margin later, so that
 * rank 0, which knows who is late, normally speaks first. */
uint64_t sc_deadline_wait_end_ns(const struct sc_cluster *c, uint64_t begin_ns);

#endif
