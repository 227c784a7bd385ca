/* step_sync.c -- the readers' and consumer's sleeping and waking
 * (step_sync.h). */
#include "step_sync.h"

#include <time.h>

#include "clock.h"
#include "job_priv.h"

void sc_step_sync_init(struct sc_step_sync *s)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->batch_cond, &ca);
	pthread_cond_init(&s->room_cond, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&s->room_seq, 0);
	atomic_init(&s->quit, 0);
	s->ready = true;
}

void sc_step_sync_exit(struct sc_step_sync *s)
{
	if (!s->ready)
		return;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->batch_cond);
	pthread_cond_destroy(&s->room_cond);
	s->ready = false;
}

void sc_step_sync_wake(struct sc_step_sync *s, pthread_cond_t *c)
{
	pthread_mutex_lock(&s->lock);
	if (c == &s->room_cond)
		atomic_fetch_add_explicit(&s->room_seq, 1, memory_order_relaxed);
	pthread_cond_broadcast(c);
	pthread_mutex_unlock(&s->lock);
}

void sc_step_sync_quit(struct sc_step_sync *s)
{
	atomic_store(&s->quit, 1);
	pthread_mutex_lock(&s->lock);
	atomic_fetch_add_explicit(&s->room_seq, 1, memory_order_relaxed);
	pthread_cond_broadcast(&s->batch_cond);
	pthread_cond_broadcast(&s->room_cond);
	pthread_mutex_unlock(&s->lock);
}

bool sc_step_sync_over(struct sc_step_sync *s, const struct sc_run *run, uint64_t deadline)
{
	return atomic_load_explicit(&run->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&s->quit, memory_order_relaxed) ||
	       (deadline && sc_now_ns() >= deadline);
}

void sc_step_sync_nap(pthread_cond_t *c, pthread_mutex_t *m, uint64_t deadline)
{
	uint64_t until = sc_now_ns() + SC_STOP_POLL_NS;
	struct timespec ts;

	if (deadline && deadline < until)
		until = deadline;
	ts.tv_sec = (time_t)(until / SC_NS_PER_S);
	ts.tv_nsec = (long)(until % SC_NS_PER_S);
	pthread_cond_timedwait(c, m, &ts);
}
