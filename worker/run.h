/* run.h -- runs one phase on this rank: job threads, each with an engine
 * (run.c; the workloads in workload/, their one I/O loop in ioloop.c).
 *
 * Lifecycle: _create (opens files, lays out missing data, allocates, starts
 * threads that wait) -> _start (threads begin at an instant) -> poll _done /
 * _bytes, maybe _stop -> _finish (joins, fills the result) -> _destroy.
 */
#ifndef SC_RUN_H
#define SC_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "io_opts.h"
#include "layout.h"
#include "plan.h"
#include "result.h"

struct sc_run;
struct sc_rundir;

/* Prepares phase for the rank at place.  Files of directory targets are
 * created in the run directory dir (open, see rundir.h; NULL or unused for
 * other targets and for ingest) and filled once, untimed, when a phase
 * reads data that is not there yet.  0 or -errno, with a message a user
 * can act on in err. */
int sc_run_create(struct sc_run **out, const struct sc_plan *plan,
		  uint32_t phase, const struct sc_place *place,
		  const struct sc_rundir *dir, char *err, size_t errlen);

/* Lets the job threads begin at start_ns on CLOCK_MONOTONIC. */
int sc_run_start(struct sc_run *run, uint64_t start_ns);

/* True once every job thread has finished. */
bool sc_run_done(struct sc_run *run);

/* Bytes completed so far inside the measured window (after ramp). */
uint64_t sc_run_bytes(struct sc_run *run);

/* After sc_run_done: when the run's last job ended (its last completion
 * or, with none, its start; CLOCK_MONOTONIC ns). */
uint64_t sc_run_end_ns(struct sc_run *run);

/* Reads and writes completed so far inside the measured window. */
uint64_t sc_run_ios(struct sc_run *run);

/* Asks every job to stop issuing I/O (stonewall); in-flight I/Os complete. */
void sc_run_stop(struct sc_run *run);

/* Failed I/Os so far (all jobs; a live count). */
uint64_t sc_run_failed_ios(struct sc_run *run);

/* True once a job failed under on_error abort: the rank has stopped its
 * phase and every other rank must stop theirs (sc_run_stop). */
bool sc_run_aborted(struct sc_run *run);

/* Waits for the threads and fills out (times relative to start_ns on this
 * rank's clock; rank, node, host and offsets are the caller's).  0, or the
 * first -errno that stopped a job (out is filled either way); I/Os that
 * failed under on_error continue are only counted in out. */
int sc_run_finish(struct sc_run *run, struct sc_rank_result *out);

/* The rank's histogram of kind k (enum sc_hist_kind), merged over its
 * jobs; valid after _finish until _destroy. */
const struct sc_hist *sc_run_hist(const struct sc_run *run, int k);

/* The I/O options the phase asked for and those this rank's jobs ran
 * without, with why (io_opts.h); read it after the jobs ended. */
const struct sc_io_opts *sc_run_opts(const struct sc_run *run);

void sc_run_destroy(struct sc_run *run);

/* Process-wide: fn(arg) is called on the thread that runs _create between
 * chunks of untimed preparation (laying out data, creating an ingest
 * dataset); when it returns nonzero, _create gives up with -EINTR.  NULL
 * for none.  Job threads take no signals: they block all of them. */
void sc_run_set_cancel(int (*fn)(void *arg), void *arg);

/*
 * The step gate (gate.h): a barrier across ranks after every training
 * step, as DLIO ends each step with comm.barrier().  A workload's setup
 * turns it on for the run (ingest with step_barrier); the rank's main
 * thread then runs one agreement with every other rank per round
 * (sc_cluster_wait_run) and answers.
 */

/* A job thread (one per run) after each step: blocks until every rank
 * has reached the same round; 1 when every rank goes on (do the next
 * step), 0 when some rank has ended its steps (end too: every rank ends
 * at the same round), 0 at once when the run is stopped.  With the gate
 * off, returns going at once. */
int sc_run_step_gate(struct sc_run *run, bool going);

/* The job thread ends its steps without a last sc_run_step_gate
 * (deadline, error, epochs done): from then on this rank answers every
 * round with "not going".  Idempotent; a run whose jobs have all ended
 * counts as left. */
void sc_run_step_gate_leave(struct sc_run *run);

/* The main thread: whether the run's gate is on (fixed once created). */
bool sc_run_gate_on(const struct sc_run *run);

/* The main thread: true when the local side has asked for round (the
 * next one to answer; its going in *going) or has left (*going 0). */
bool sc_run_gate_want(struct sc_run *run, uint64_t round, int *going);

/* The main thread: round's result over every rank (nonzero: every rank
 * goes on); wakes the waiting job thread. */
void sc_run_gate_answer(struct sc_run *run, uint64_t round, int all_going);

/* The main thread sleeps up to ns, waking as soon as the local side asks
 * for round or leaves. */
void sc_run_gate_nap(struct sc_run *run, uint64_t round, uint64_t ns);

/* This process's peak resident memory so far, in bytes (0 if unknown). */
uint64_t sc_peak_rss_bytes(void);

#endif
