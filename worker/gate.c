/* gate.c -- the step gate's local half: one job thread's asks, answered by
 * the rank's main thread (gate.h). */
#include "gate.h"

#include <errno.h>
#include <time.h>

#include "clock.h"

int sc_gate_init(struct sc_gate *g)
{
	pthread_condattr_t ca;
	int rc;

	*g = (struct sc_gate){0};
	rc = pthread_condattr_init(&ca);
	if (rc)
		return -rc;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_mutex_init(&g->lock, NULL);
	if (rc)
		goto out_attr;
	rc = pthread_cond_init(&g->answered_cond, &ca);
	if (rc)
		goto out_lock;
	rc = pthread_cond_init(&g->asked_cond, &ca);
	if (rc)
		goto out_answered;
	pthread_condattr_destroy(&ca);
	return 0;

out_answered:
	pthread_cond_destroy(&g->answered_cond);
out_lock:
	pthread_mutex_destroy(&g->lock);
out_attr:
	pthread_condattr_destroy(&ca);
	return -rc;
}

void sc_gate_exit(struct sc_gate *g)
{
	pthread_cond_destroy(&g->asked_cond);
	pthread_cond_destroy(&g->answered_cond);
	pthread_mutex_destroy(&g->lock);
}

/* Waits on c (g->lock held) until the instant until_ns at most. */
static void wait_until(struct sc_gate *g, pthread_cond_t *c, uint64_t until_ns)
{
	struct timespec ts = {.tv_sec = (time_t)(until_ns / SC_NS_PER_S),
			      .tv_nsec = (long)(until_ns % SC_NS_PER_S)};

	pthread_cond_timedwait(c, &g->lock, &ts);
}

int sc_gate_step(struct sc_gate *g, bool going, const _Atomic int *stop)
{
	uint64_t round, t0;
	int answer;

	if (!g->on)
		return going ? 1 : 0;
	pthread_mutex_lock(&g->lock);
	if (g->left || atomic_load(stop)) {
		g->left = true;
		pthread_cond_broadcast(&g->asked_cond);
		pthread_mutex_unlock(&g->lock);
		return 0;
	}
	round = g->asked++;
	g->going = going ? 1 : 0;
	pthread_cond_broadcast(&g->asked_cond);
	t0 = sc_now_ns();
	/* sliced: a stop is noticed even if no one wakes us for it */
	while (g->answered <= round && !atomic_load(stop))
		wait_until(g, &g->answered_cond, sc_now_ns() + SC_STOP_POLL_NS);
	g->wait_ns += sc_now_ns() - t0;
	answer = g->answered > round ? g->all_going : 0;
	if (!answer)
		g->left = true;
	pthread_mutex_unlock(&g->lock);
	return answer;
}

void sc_gate_leave(struct sc_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->left = true;
	pthread_cond_broadcast(&g->asked_cond);
	pthread_mutex_unlock(&g->lock);
}

/* g->lock held: what sc_gate_want says. */
static bool want_locked(const struct sc_gate *g, uint64_t round, int *going)
{
	if (round != g->answered)
		return false;
	if (g->asked > round) {
		*going = g->going;
		return true;
	}
	if (g->left) {
		*going = 0;
		return true;
	}
	return false;
}

bool sc_gate_want(struct sc_gate *g, uint64_t round, int *going)
{
	bool want;

	pthread_mutex_lock(&g->lock);
	want = want_locked(g, round, going);
	pthread_mutex_unlock(&g->lock);
	return want;
}

void sc_gate_answer(struct sc_gate *g, uint64_t round, int all_going)
{
	pthread_mutex_lock(&g->lock);
	if (round == g->answered) {
		g->answered = round + 1;
		g->all_going = all_going ? 1 : 0;
		pthread_cond_broadcast(&g->answered_cond);
	}
	pthread_mutex_unlock(&g->lock);
}

void sc_gate_nap(struct sc_gate *g, uint64_t round, uint64_t ns)
{
	uint64_t until = sc_now_ns() + ns;
	int going;

	pthread_mutex_lock(&g->lock);
	while (!want_locked(g, round, &going) && sc_now_ns() < until)
		wait_until(g, &g->asked_cond, until);
	pthread_mutex_unlock(&g->lock);
}

void sc_gate_wake(struct sc_gate *g)
{
	pthread_mutex_lock(&g->lock);
	pthread_cond_broadcast(&g->answered_cond);
	pthread_mutex_unlock(&g->lock);
}

uint64_t sc_gate_wait_ns(struct sc_gate *g)
{
	uint64_t ns;

	pthread_mutex_lock(&g->lock);
	ns = g->wait_ns;
	pthread_mutex_unlock(&g->lock);
	return ns;
}
