/* gate.h -- the step gate: a barrier across ranks after every training
 * step, as DLIO's comm.barrier().  A job thread asks at the gate after
 * each step and blocks; the rank's main thread, the only one that may
 * talk to other ranks, sees the ask, agrees with the other ranks, and
 * answers.  This is the local half (no MPI): one asking thread, one
 * answering thread (run.h's sc_run_step_gate and sc_run_gate_*).
 *
 * Rounds are numbered from 0; round r is the asking thread's (r + 1)-th
 * ask.  An ask carries `going` (the thread would do another step); the
 * answer is 1 when every rank is going on, 0 when some rank is not (every
 * rank then ends at that round).  A thread that ends its steps without a
 * last ask leaves the gate: from then on the rank answers every round with
 * "not going".
 */
#ifndef SC_GATE_H
#define SC_GATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct sc_gate {
	bool on;                       /* the run's workload asked for it */
	pthread_mutex_t lock;
	pthread_cond_t answered_cond;  /* an answer came (or a stop) */
	pthread_cond_t asked_cond;     /* the asking thread asked or left */
	uint64_t asked;                /* rounds asked for so far */
	uint64_t answered;             /* rounds answered so far */
	int going;                     /* the latest ask's */
	int all_going;                 /* the latest answer */
	bool left;                     /* the asking side ended its steps */
	uint64_t wait_ns;              /* the asking thread's time blocked in
					* sc_gate_step (CLOCK_MONOTONIC) */
};

/* Off, nothing asked.  0 or -errno. */
int sc_gate_init(struct sc_gate *g);
void sc_gate_exit(struct sc_gate *g);

/* The asking thread, after a step: with the gate off, returns going at
 * once.  On: asks for the next round and blocks until it is answered;
 * returns the answer (1: every rank goes on, do the next step; 0: end the
 * steps).  Returns 0 at once once *stop is set (also while blocked: see
 * sc_gate_wake) or after the gate was left.  After a 0 the gate is left. */
int sc_gate_step(struct sc_gate *g, bool going, const _Atomic int *stop);

/* The asking side ends its steps without a last ask (deadline, error,
 * nothing to do): every later round is answered "not going".  Idempotent. */
void sc_gate_leave(struct sc_gate *g);

/* The answering thread: true when the asking side has asked for round
 * (its going in *going) or has left (*going 0); false while it has not
 * asked yet, or when round is not the next one to answer. */
bool sc_gate_want(struct sc_gate *g, uint64_t round, int *going);

/* Answers round (the next one to answer) with all_going (nonzero: every
 * rank goes on) and wakes the asking thread. */
void sc_gate_answer(struct sc_gate *g, uint64_t round, int all_going);

/* The answering thread waits up to ns, less when the asking side asks
 * for round or leaves (at once when it has). */
void sc_gate_nap(struct sc_gate *g, uint64_t round, uint64_t ns);

/* Wakes a blocked asking thread to look at its stop flag. */
void sc_gate_wake(struct sc_gate *g);

/* The asking thread's total time blocked at the gate so far, in ns. */
uint64_t sc_gate_wait_ns(struct sc_gate *g);

#endif
