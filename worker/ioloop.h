/* ioloop.h -- the one I/O loop every workload drives (io, checkpoint,
 * ingest): free slots, queue, submit, reap, account, fsync every N, stop;
 * open-loop pacing when asked.
 *
 * A workload chooses what each I/O does (sc_ioloop_ops.next: op, file,
 * offset, length) and may say how many may start and what to do when it
 * is idle; the loop owns the rest: the job's slots (sc_job_alloc), the
 * engine calls, accounting (bytes, latency histograms, the per-second
 * series), failed I/Os
 * (sc_job_io_failed, so on_error applies), the verify hooks (j->vfy),
 * fsyncs, when to stop, the pace, and a throttled target's service queue
 * (an I/O the engine completed is reported no earlier than its departure
 * from it: sc_throttle).  Its hot path allocates nothing and takes no
 * lock.  Not for use outside worker/.
 */
#ifndef SC_IOLOOP_H
#define SC_IOLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "pace.h"

struct job;

/* What a workload decides.  next is required; NULL leaves the others out. */
struct sc_ioloop_ops {
	/* Sets x's op (read or write), file, offset and len for the next I/O
	 * (x->buf, its buffer, is also its slot's index: next leaves it as
	 * sc_job_alloc set it).  Returns the bytes it must move
	 * to count as done (1 to len; fewer is a failed I/O), or a negative
	 * value when no I/O can start now: the loop reaps and asks again. */
	int (*next)(struct job *j, struct sc_io *x);
	/* How many I/Os may start now, at most nfree (NULL: nfree).  Each one
	 * it grants is started unless the loop must stop first. */
	uint32_t (*claim)(struct job *j, uint32_t nfree);
	/* After each reap: ok I/Os moved their bytes, failed ones did not
	 * but the job goes on (on_error continue). */
	void (*reaped)(struct job *j, uint32_t ok, uint32_t failed);
	/* Nothing in flight and nothing started: true ends the loop, false
	 * looks again (after waiting for what it needs).  NULL: looks again. */
	bool (*idle)(struct job *j);
	/* The path of x's file, into buf, for a failed I/O's report (NULL:
	 * j->path, the job's one file). */
	void (*path)(const struct job *j, const struct sc_io *x, char *buf, size_t cap);
};

/* One run of the loop: when it counts, when it stops, when it syncs. */
struct sc_ioloop {
	uint64_t measure_start_ns; /* I/Os submitted earlier are not counted (ramp) */
	uint64_t deadline_ns;      /* nothing is issued from here on; 0: none */
	uint64_t budget_bytes;     /* nothing is issued once next's bytes add up
				    * to this; UINT64_MAX: no budget */
	uint64_t fsync_every;      /* an fsync after every this many writes, and
				    * one after the last ones; 0: none */
	bool fsync_when_stopped;   /* that last fsync also once the phase is
				    * stopped (sc_run_stop); false: only when the
				    * loop ends at its budget or deadline */
	uint32_t acct_bytes;       /* bytes each done I/O counts for; 0: what
				    * next returned */
	struct sc_pace *pace;      /* open loop: I/Os start on this schedule
				    * (response times, late and unissued I/Os
				    * counted); NULL: closed loop */
};

/* At setup: room for n seconds of j's per-second series, so that a timed
 * phase does not grow it while it runs. */
void sc_ioloop_reserve_seconds(struct job *j, uint64_t n);

/* Accounts one read or write (dir: SC_DIR_READ or SC_DIR_WRITE) that a
 * workload made itself, outside the loop: len bytes, service latency lat,
 * done at now; ignored before measure_start (ramp), as the loop's own. */
void sc_ioloop_account(struct job *j, int dir, uint32_t len, uint64_t lat, uint64_t now,
		       uint64_t measure_start);

/* How many I/Os the loop hands to the engine in one submission at most
 * (submit_batch): what the phase says, else, where the engine batches
 * them into one kernel call (io_uring), a quarter of depth, else all;
 * never more than depth nor less than 1.  On a virtio disk whose host
 * returns completions in bursts, a whole queue resubmitted in one call
 * comes back as one burst again and the disk idles between; a quarter
 * at a time keeps it busy (docs/performance.md). */
uint32_t sc_ioloop_batch(const struct sc_io_spec *io, uint32_t depth, bool kernel_batches);

/* Runs job j's I/O until the budget is issued, the deadline passes, the
 * phase stops, the job fails, or ops->idle ends it; returns once nothing
 * is in flight (or the engine failed: sc_job_fail reported it).  The slots
 * all start free. */
void sc_ioloop_run(struct job *j, const struct sc_ioloop_ops *ops, const struct sc_ioloop *lp);

#endif
