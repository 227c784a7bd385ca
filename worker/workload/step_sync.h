/* step_sync.h -- what the reader threads and the consumer of a stepping
 * workload (ingest, training) sleep and wake on: a lock, a condition for
 * "a batch is read" and one for "there is room to read more", a quit flag
 * that ends the phase for all of them, and a count of the room
 * condition's broadcasts (a reader that saw the count go up since it last
 * looked does not sleep).  Waits are sliced (SC_STOP_POLL_NS) so that a
 * stop is seen even when no one signals.  Not for use outside worker/. */
#ifndef SC_STEP_SYNC_H
#define SC_STEP_SYNC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct sc_run;

struct sc_step_sync {
	pthread_mutex_t lock;	   /* only to sleep on the conditions */
	pthread_cond_t batch_cond; /* a batch is read, or a reader left */
	pthread_cond_t room_cond;  /* room to read more, or quit */
	_Atomic uint64_t room_seq; /* room_cond's broadcasts so far */
	_Atomic int quit;	   /* the phase ended for every thread */
	bool ready;		   /* initialised (sc_step_sync_exit frees) */
};

/* Lock and conditions on CLOCK_MONOTONIC (sc_now_ns's clock). */
void sc_step_sync_init(struct sc_step_sync *s);
void sc_step_sync_exit(struct sc_step_sync *s);

/* Broadcasts c (one of s's), counting it when it is room_cond. */
void sc_step_sync_wake(struct sc_step_sync *s, pthread_cond_t *c);

/* Sets quit and wakes every sleeper. */
void sc_step_sync_quit(struct sc_step_sync *s);

/* The phase is over for this thread: the run stopped, s quit, or the
 * deadline (0: none) passed. */
bool sc_step_sync_over(struct sc_step_sync *s, const struct sc_run *run, uint64_t deadline);

/* With m held: sleeps on c (on CLOCK_MONOTONIC) for one slice at most,
 * and not past deadline (0: none). */
void sc_step_sync_nap(pthread_cond_t *c, pthread_mutex_t *m, uint64_t deadline);

#endif
