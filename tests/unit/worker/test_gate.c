/* test_gate.c -- the step gate's local half (gate.h): off, it never
 * blocks; on, a job thread's asks are seen round by round with their
 * "going", each answer wakes it with the answer, a "no" ends its steps and
 * leaves the gate, a thread that left is answered "not going" at once, a
 * stop frees a blocked thread, the answering thread's nap ends at an ask,
 * and the blocked time is counted. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "check.h"
#include "clock.h"
#include "gate.h"

#define MS UINT64_C(1000000)
/* Long enough that only a gate that never wakes fails it, on any load. */
#define HANG_NS (20 * SC_NS_PER_S)

/* The job thread's side: steps until the gate says no (or max). */
struct asker {
	struct sc_gate *g;
	_Atomic int stop;
	uint32_t max;            /* steps at most */
	uint32_t last_not_going; /* from this step on it asks with going 0 */
	_Atomic uint32_t steps;  /* gate calls that returned */
	int answers[16];
	_Atomic int done;
	pthread_t t;
};

static void *ask_main(void *arg)
{
	struct asker *a = arg;

	for (uint32_t k = 0; k < a->max; k++) {
		int r = sc_gate_step(a->g, k < a->last_not_going, &a->stop);

		a->answers[k] = r;
		atomic_fetch_add(&a->steps, 1);
		if (!r)
			break;
	}
	atomic_store(&a->done, 1);
	return NULL;
}

static void ask_start(struct asker *a, struct sc_gate *g, uint32_t max, uint32_t last)
{
	*a = (struct asker){.g = g, .max = max, .last_not_going = last};
	pthread_create(&a->t, NULL, ask_main, a);
}

/* Waits (as the main thread would) until the asking side wants round;
 * false after HANG_NS. */
static bool await_want(struct sc_gate *g, uint64_t round, int *going)
{
	uint64_t until = sc_now_ns() + HANG_NS;

	while (!sc_gate_want(g, round, going)) {
		if (sc_now_ns() >= until)
			return false;
		sc_gate_nap(g, round, 10 * MS);
	}
	return true;
}

/* Waits until a's thread ended; false after HANG_NS (it hangs). */
static bool await_done(struct asker *a)
{
	uint64_t until = sc_now_ns() + HANG_NS;

	while (!atomic_load(&a->done)) {
		if (sc_now_ns() >= until)
			return false;
		sc_sleep_until(sc_now_ns() + MS);
	}
	pthread_join(a->t, NULL);
	return true;
}

/* Off: a step returns its own going at once, nothing is asked. */
static void check_off(void)
{
	struct sc_gate g;
	_Atomic int stop = 0;
	int going = -1;

	CHECK(sc_gate_init(&g) == 0, "init");
	CHECK(sc_gate_step(&g, true, &stop) == 1, "off, going: 1");
	CHECK(sc_gate_step(&g, false, &stop) == 0, "off, not going: 0");
	CHECK(g.asked == 0, "off: nothing asked (%llu)", (unsigned long long)g.asked);
	CHECK(sc_gate_wait_ns(&g) == 0, "off: no wait");
	CHECK(!sc_gate_want(&g, 0, &going), "off: nothing wanted");
	sc_gate_exit(&g);
}

/* Rounds 0..2 answered yes, round 3 no: the thread steps 4 times, gets
 * 1, 1, 1, 0 and has left; each round is wanted only once asked, only as
 * the next round; an answer to another round changes nothing. */
static void check_rounds(void)
{
	struct sc_gate g;
	struct asker a;
	int going = -1;

	sc_gate_init(&g);
	g.on = true;
	CHECK(!sc_gate_want(&g, 0, &going), "round 0 wanted before any ask");
	ask_start(&a, &g, 10, 10);
	for (uint64_t r = 0; r < 4; r++) {
		going = -1;
		if (!await_want(&g, r, &going)) {
			FAIL("round %llu never asked for", (unsigned long long)r);
			break;
		}
		CHECK(going == 1, "round %llu: going %d", (unsigned long long)r, going);
		CHECK(!sc_gate_want(&g, r + 1, &going), "round %llu wanted before %llu answered",
		      (unsigned long long)r + 1, (unsigned long long)r);
		sc_gate_answer(&g, r + 1, 1); /* not the next round: ignored */
		CHECK(atomic_load(&a.steps) == r, "an answer to another round woke the thread");
		sc_gate_answer(&g, r, r < 3);
	}
	CHECK(await_done(&a), "the thread hangs after a no");
	CHECK(atomic_load(&a.steps) == 4, "steps %u, want 4", atomic_load(&a.steps));
	CHECK(a.answers[0] == 1 && a.answers[1] == 1 && a.answers[2] == 1 && a.answers[3] == 0,
	      "answers %d %d %d %d, want 1 1 1 0", a.answers[0], a.answers[1], a.answers[2],
	      a.answers[3]);
	/* after the no, the gate is left: every later round is "not going" */
	going = -1;
	CHECK(sc_gate_want(&g, 4, &going) && going == 0, "round 4 after a no: want, going %d",
	      going);
	sc_gate_exit(&g);
}

/* A step asked with going false carries it; the answer still decides. */
static void check_not_going(void)
{
	struct sc_gate g;
	struct asker a;
	int going = -1;

	sc_gate_init(&g);
	g.on = true;
	ask_start(&a, &g, 4, 1); /* step 0 going, steps 1.. not */
	CHECK(await_want(&g, 0, &going) && going == 1, "round 0: going %d, want 1", going);
	sc_gate_answer(&g, 0, 1);
	CHECK(await_want(&g, 1, &going) && going == 0, "round 1: going %d, want 0", going);
	sc_gate_answer(&g, 1, 0);
	CHECK(await_done(&a), "the thread hangs");
	CHECK(atomic_load(&a.steps) == 2, "steps %u, want 2", atomic_load(&a.steps));
	sc_gate_exit(&g);
}

/* Left before asking: round 0 is wanted at once, "not going"; a step
 * after leaving returns 0 without blocking or counting a round. */
static void check_leave(void)
{
	struct sc_gate g;
	_Atomic int stop = 0;
	int going = -1;

	sc_gate_init(&g);
	g.on = true;
	CHECK(!sc_gate_want(&g, 0, &going), "round 0 wanted before an ask or a leave");
	sc_gate_leave(&g);
	sc_gate_leave(&g); /* idempotent */
	CHECK(sc_gate_want(&g, 0, &going) && going == 0, "left: round 0 wanted, going %d", going);
	CHECK(sc_gate_step(&g, true, &stop) == 0, "a step after leaving: 0");
	CHECK(g.asked == 0, "a step after leaving asked a round");
	sc_gate_answer(&g, 0, 0);
	CHECK(sc_gate_want(&g, 1, &going) && going == 0, "left: round 1 wanted, going %d", going);
	sc_gate_exit(&g);
}

/* A stop frees a thread blocked at the gate with 0 (and it has left);
 * a stop set before the step returns 0 at once. */
static void check_stop(void)
{
	struct sc_gate g;
	struct asker a;
	int going = -1;

	sc_gate_init(&g);
	g.on = true;
	ask_start(&a, &g, 4, 4);
	CHECK(await_want(&g, 0, &going), "round 0 never asked for");
	atomic_store(&a.stop, 1);
	sc_gate_wake(&g);
	CHECK(await_done(&a), "a stopped thread stays blocked at the gate");
	CHECK(a.answers[0] == 0 && atomic_load(&a.steps) == 1, "stopped: answer %d, steps %u",
	      a.answers[0], atomic_load(&a.steps));
	/* the round it asked is still the next to answer; then it has left */
	CHECK(sc_gate_want(&g, 0, &going), "round 0 after a stop: not wanted");
	sc_gate_answer(&g, 0, 1);
	CHECK(sc_gate_want(&g, 1, &going) && going == 0, "after a stop: round 1 going %d",
	      going);
	sc_gate_exit(&g);

	_Atomic int stop = 1;

	sc_gate_init(&g);
	g.on = true;
	CHECK(sc_gate_step(&g, true, &stop) == 0, "stop before the step: 0");
	CHECK(sc_gate_want(&g, 0, &going) && going == 0, "stopped: left, going %d", going);
	sc_gate_exit(&g);
}

/* The thread's blocked time holds the time its answer was held back; the
 * answering thread's nap ends at the ask, and at once when it is there. */
static void check_wait_and_nap(void)
{
	struct sc_gate g;
	struct asker a;
	uint64_t t0, held = 50 * MS;
	int going = -1;

	sc_gate_init(&g);
	g.on = true;
	ask_start(&a, &g, 1, 1);
	t0 = sc_now_ns();
	sc_gate_nap(&g, 0, HANG_NS);
	CHECK(sc_now_ns() - t0 < HANG_NS, "the nap did not end at the ask");
	CHECK(sc_gate_want(&g, 0, &going), "the nap ended, round 0 not asked");
	t0 = sc_now_ns();
	sc_gate_nap(&g, 0, HANG_NS);
	CHECK(sc_now_ns() - t0 < HANG_NS, "the nap did not end at once with the ask there");
	sc_sleep_until(sc_now_ns() + held);
	sc_gate_answer(&g, 0, 0);
	CHECK(await_done(&a), "the thread hangs");
	CHECK(sc_gate_wait_ns(&g) >= held, "blocked %llu ns, the answer was held %llu ns",
	      (unsigned long long)sc_gate_wait_ns(&g), (unsigned long long)held);
	sc_gate_exit(&g);
}

int main(void)
{
	check_off();
	check_rounds();
	check_not_going();
	check_leave();
	check_stop();
	check_wait_and_nap();
	return check_exit("test_gate");
}
