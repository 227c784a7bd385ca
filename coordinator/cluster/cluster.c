/* cluster.c -- every MPI call: nodes, plan broadcast, clocks, lockstep
 * starts, the first-done signal, and the deadlines and stops of every
 * wait on other ranks (cluster_merge.c: reductions and gathers;
 * cluster_clock.c: clock offsets and the common start). */
#include "cluster.h"
#include "mlperf.h"
#include "cluster_priv.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "units.h"
#include "byte_samples.h"
#include "deadline.h"
#include "interrupt.h"

/* How often a waiting rank first looks for what it waits for. */
#define POLL_NS 1000000L
/* Waits look less and less often, up to this: each look runs Open MPI's
 * progress engine, and 16 ranks looking every 1 ms on 2 cores take CPU
 * from the ranks still doing I/O (16 x 256 MiB QD1 reads from a loop
 * device over tmpfs: 6.7-9.5 GB/s with 1 ms looks while I/O went,
 * 9.6-11.2 GB/s with these). */
#define NAP_MAX_NS 8000000L

/* While a step-gate round is posted (wait_run), how often a rank looks
 * at it: steps can be 40 ms, and every look at a rank that arrived early
 * is latency added to every rank's step (an 8 ms nap would be 20% of
 * it), since the round's messages move only when a rank looks.
 * GATE_NAP_MIN_NS for the first GATE_NAP_FAST_LOOKS looks of a round,
 * then 1/GATE_NAP_WAITED_DIV of the time the round has waited so far,
 * from GATE_NAP_MAX_NS up to GATE_NAP_CAP_NS: a rank that waits long at
 * the barrier waits for a slower one, and looking every 50 us through
 * seconds of it cost a storage-bound training run half its CPU, while the
 * latency a nap adds stays below 1/16 of the wait and 1 ms.  The kernel's
 * timer slack (50 us) adds to each. */
#define GATE_NAP_MIN_NS	     20000L
#define GATE_NAP_MAX_NS	     50000L
#define GATE_NAP_CAP_NS	     1000000L
#define GATE_NAP_WAITED_DIV  16u
#define GATE_NAP_FAST_LOOKS  8u

/* How often rank 0's progress callback runs while a phase goes, unless
 * it says otherwise. */
#define TICK_NS SC_NS_PER_S

/* (SC_TAG_CLOCK = 101: cluster_priv.h.)  TAG_WHO: rank 0, whose collective wait gave up, asks every rank how
 * many collective waits it has entered; TAG_HERE: the answer (to rank 0).
 * TAG_STOP: a rank caught a signal {signal, rank} (to rank 0, which sends
 * it on).  TAG_END: rank 0 ends the run after a wait gave up; TAG_ENDED: a
 * rank removed its files and waits to be ended (to rank 0). */
enum { TAG_DONE = 102, TAG_WHO = 103, TAG_STOP = 104, TAG_END = 105,
       TAG_ENDED = 106, TAG_HERE = 107 };
/* How long rank 0 waits for the answers to TAG_WHO: every rank in a wait
 * looks at least every NAP_MAX_NS. */
#define WHO_WAIT_NS (2 * SC_NS_PER_S)
/* How long a rank told to end waits for rank 0's MPI_Abort. */
#define END_LINGER_NS (10 * SC_NS_PER_S)

/* What cluster.c keeps for deadlines and stops (c->watch). */
struct watch {
	uint64_t waits;         /* collective waits this rank has entered */
	uint64_t *arrived;      /* rank 0, after a wait gave up: collective
				 * waits each rank said it had entered */
	int stop_msg[2];        /* {signal, rank} this rank sends; never changed
				 * once sent (the sends are not waited for) */
	int stop_sent;          /* this rank sent its stop (rank 0: to all) */
	int relayed;            /* rank 0 sent a received stop on to all */
	uint64_t first;         /* wait_run's first-done broadcast: when the
				 * first rank finished, on rank 0's clock */
	uint64_t token[2];      /* a "done": {aborted, end on rank 0's clock};
				 * with the abort flag, kept here: see */
	int abort_flag;         /* give_up */
	int gate_in, gate_out;  /* wait_run's step-gate round: this rank's
				 * "going", and the minimum over ranks */
};

static const int who_token = 1;

static void nap_ns(long ns)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = ns};

	nanosleep(&ts, NULL);
}

static void nap(void)
{
	nap_ns(POLL_NS);
}

/* The nap of a wait that has looked n times already: POLL_NS four times,
 * then doubling to NAP_MAX_NS (a wait that ends at once costs no more than
 * before; a long one looks about 125 times a second). */
static long backoff_ns(uint64_t n)
{
	uint64_t shift = n / 4;

	return shift >= 3 ? NAP_MAX_NS : POLL_NS << shift;
}

static struct watch *watch_of(struct sc_cluster *c)
{
	return c->watch;
}

/* Sends buf (never changed afterwards) without waiting for the send. */
static void send_detached(const int *buf, int n, int to, int tag)
{
	MPI_Request req;

	MPI_Isend(buf, n, MPI_INT, to, tag, MPI_COMM_WORLD, &req);
	MPI_Request_free(&req);
}

/* Rank 0: sends a stop it caught or received on to every other rank, once. */
static void relay_stop(struct sc_cluster *c)
{
	struct watch *w = watch_of(c);

	if (c->rank != 0 || w->relayed || !w->stop_msg[0])
		return;
	for (int r = 1; r < c->nranks; r++)
		send_detached(w->stop_msg, 2, r, TAG_STOP);
	w->relayed = 1;
}

/* Receives the stops other ranks sent.  Returns how many. */
static int drain_stops(struct sc_cluster *c)
{
	struct watch *w = watch_of(c);
	MPI_Status st;
	int flag = 0, n = 0;

	for (;;) {
		int msg[2];

		MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag, &st);
		if (!flag)
			return n;
		MPI_Recv(msg, 2, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		sc_cluster_note_stop(c, msg[0]);
		if (!w->stop_msg[0]) {
			w->stop_msg[0] = msg[0];
			w->stop_msg[1] = msg[1];
		}
		n++;
	}
}

static void give_up(struct sc_cluster *c, int peer, int why) __attribute__((noreturn));
static void answer_who(struct sc_cluster *c);

int sc_cluster_poll(struct sc_cluster *c)
{
	struct watch *w = watch_of(c);
	int sig = sc_interrupt_signal(), flag = 0;

	if (!w || c->lost)
		return c->stop_sig;
	if (c->rank != 0)
		answer_who(c);
	if (c->rank != 0) {
		MPI_Iprobe(0, TAG_END, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		if (flag) {
			int token;

			MPI_Recv(&token, 1, MPI_INT, 0, TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			give_up(c, -1, -ECONNABORTED);
		}
	}
	if (sig && !w->stop_sent) {
		sc_cluster_note_stop(c, sig);
		c->stop_launcher = sc_interrupt_from_launcher();
		if (!w->stop_msg[0]) {
			w->stop_msg[0] = sig;
			w->stop_msg[1] = c->rank;
		}
		w->stop_sent = 1;
		if (c->rank != 0)
			send_detached(w->stop_msg, 2, 0, TAG_STOP);
	}
	drain_stops(c);
	relay_stop(c);
	return c->stop_sig;
}

/* This rank enters a collective wait: counted, so that it can tell rank
 * 0 where it is should a wait give up (nothing is sent: rank 0 would
 * otherwise receive a message per rank per collective). */
static void arrive(struct sc_cluster *c)
{
	watch_of(c)->waits++;
}

/* Rank 0 asks where this rank is (TAG_WHO): the collective waits it has
 * entered.  The answer is small: a standard send returns at once. */
static void answer_who(struct sc_cluster *c)
{
	int flag = 0, token;
	uint64_t waits;

	MPI_Iprobe(0, TAG_WHO, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	if (!flag)
		return;
	MPI_Recv(&token, 1, MPI_INT, 0, TAG_WHO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	waits = watch_of(c)->waits;
	MPI_Send(&waits, 1, MPI_UINT64_T, 0, TAG_HERE, MPI_COMM_WORLD);
}

/* Rank 0, its collective wait given up: asks every rank how many waits it
 * entered and gathers the answers for up to WHO_WAIT_NS in w->arrived (0
 * for a rank that does not answer: dead, or busy outside any wait). */
static void ask_who(struct sc_cluster *c)
{
	struct watch *w = watch_of(c);
	uint64_t until = sc_now_ns() + WHO_WAIT_NS;
	int answered = 1;

	for (int r = 1; r < c->nranks; r++)
		send_detached(&who_token, 1, r, TAG_WHO);
	w->arrived[0] = w->waits;
	while (answered < c->nranks && sc_now_ns() < until) {
		MPI_Status st;
		uint64_t waits;
		int flag = 0;

		MPI_Iprobe(MPI_ANY_SOURCE, TAG_HERE, MPI_COMM_WORLD, &flag, &st);
		if (!flag) {
			nap();
			continue;
		}
		MPI_Recv(&waits, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_HERE, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		w->arrived[st.MPI_SOURCE] = waits;
		answered++;
	}
}

/*
 * A wait passed its deadline.  Names the late ranks (peer >= 0: that one;
 * rank 0 in a collective: those that have not entered it) and hands over
 * to c->on_lost, which ends the process.  Requests still pending are
 * abandoned with their buffers, which stay valid because this never
 * returns.
 */
static void give_up(struct sc_cluster *c, int peer, int why)
{
	struct watch *w = watch_of(c);

	c->lost = why;
	if (peer >= 0) {
		sc_cluster_add_late(c, peer);
	} else if (c->rank == 0 && c->nlate == 0) {
		ask_who(c);
		for (int r = 1; r < c->nranks; r++)
			if (w->arrived[r] < w->waits)
				sc_cluster_add_late(c, r);
	}
	if (c->on_lost.fn)
		c->on_lost.fn(c, c->on_lost.arg);
	sc_cluster_abort(c, 1);
}

void sc_cluster_give_up(struct sc_cluster *c, int peer, int why)
{
	give_up(c, peer, why);
}

/*
 * Waits for n non-blocking requests by testing them, until the deadline.
 * quiet: nap between tests (backoff_ns).  Open MPI's blocking calls poll the network
 * without sleeping, so ranks that finish early would take CPU from the
 * ranks (and kernel writeback threads) still doing I/O: measured here as
 * minute-long stalls with 16 ranks on 2 cores.  Waits that may wait on
 * another rank's work are quiet; the clock ping-pong is not.  peer: the
 * one rank waited for, or -1 for a collective (rank 0 then learns that
 * this rank entered it).
 */
void sc_cluster_wait_reqs(struct sc_cluster *c, MPI_Request *reqs, int n, int peer, int quiet)
{
	uint64_t begin = sc_now_ns(), next_poll = 0, naps = 0;
	int done = 0;

	if (peer < 0)
		arrive(c);
	for (;;) {
		MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
		if (done)
			return;
		uint64_t now = sc_now_ns();

		if (now >= next_poll) {
			sc_cluster_poll(c);
			next_poll = now + POLL_NS;
		}
		if (now >= sc_deadline_wait_end_ns(c, begin))
			give_up(c, peer, c->stop_sig ? -EINTR : -ETIMEDOUT);
		if (quiet)
			nap_ns(backoff_ns(naps++));
	}
}

void sc_cluster_wait_quietly(struct sc_cluster *c, MPI_Request *req)
{
	sc_cluster_wait_reqs(c, req, 1, -1, 1);
}

/* What each rank tells every other at start-up: one allgather. */
struct who {
	int32_t leader;             /* its node's lowest world rank */
	uint32_t local_rank, local_nranks;
	uint64_t mem_bytes;         /* its host's MemTotal, 0: unknown */
	char host[SC_HOST_MAX];
};

/* Node indices in the order of their leaders; c->node_of, local_rank_of,
 * local_nranks_of and hosts from everyone's who. */
static void index_nodes(struct sc_cluster *c, const struct who *all)
{
	c->nnodes = 0;
	for (int r = 0; r < c->nranks; r++) {
		memcpy(c->hosts[r], all[r].host, SC_HOST_MAX);
		c->local_rank_of[r] = all[r].local_rank;
		c->local_nranks_of[r] = all[r].local_nranks;
		c->mem_of[r] = all[r].mem_bytes;
		if (all[r].leader == r)
			c->node_of[r] = c->nnodes++;
	}
	for (int r = 0; r < c->nranks; r++)
		c->node_of[r] = c->node_of[all[r].leader];
	c->node = c->node_of[c->rank];
}

/* The leaders' communicator, ranked by world rank (its rank i leads node
 * i), made by the leaders alone (MPI_Comm_create_group): MPI_COMM_NULL
 * elsewhere.  0 or -ENOMEM. */
static int leaders_comm(struct sc_cluster *c)
{
	MPI_Comm *lead = malloc(sizeof(*lead));
	int *ranks = malloc(sizeof(int) * (c->nnodes ? c->nnodes : 1));
	MPI_Group world, group;
	uint32_t n = 0;

	if (!lead || !ranks) {
		free(lead);
		free(ranks);
		return -ENOMEM;
	}
	*lead = MPI_COMM_NULL;
	for (int r = 0; r < c->nranks; r++)
		if (c->local_rank_of[r] == 0)
			ranks[n++] = r;
	if (c->local_rank == 0) {
		MPI_Comm_group(MPI_COMM_WORLD, &world);
		MPI_Group_incl(world, (int)n, ranks, &group);
		MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, lead);
		MPI_Group_free(&group);
		MPI_Group_free(&world);
	}
	free(ranks);
	c->leader_comm = lead;
	return 0;
}

/* Who is on which node: the node communicator, one allgather of every
 * rank's host and place, the leaders' communicator.  0 or -ENOMEM. */
static int discover_nodes(struct sc_cluster *c)
{
	MPI_Comm *comm = malloc(sizeof(*comm));
	struct who mine = {0}, *all = calloc((size_t)c->nranks, sizeof(*all));

	c->hosts = calloc((size_t)c->nranks, sizeof(*c->hosts));
	c->node_of = calloc((size_t)c->nranks, sizeof(*c->node_of));
	c->local_rank_of = calloc((size_t)c->nranks, sizeof(*c->local_rank_of));
	c->local_nranks_of = calloc((size_t)c->nranks, sizeof(*c->local_nranks_of));
	c->mem_of = calloc((size_t)c->nranks, sizeof(*c->mem_of));
	if (!comm || !all || !c->hosts || !c->node_of || !c->local_rank_of ||
	    !c->local_nranks_of || !c->mem_of) {
		free(comm);
		free(all);
		return -ENOMEM;
	}
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, comm);
	c->shm_comm = comm;
	MPI_Comm_rank(*comm, &c->local_rank);
	MPI_Comm_size(*comm, &c->local_nranks);
	if (gethostname(c->host, sizeof(c->host)) != 0)
		snprintf(c->host, sizeof(c->host), "rank%d", c->rank);
	c->host[sizeof(c->host) - 1] = '\0';
	/* the node's leader is its lowest world rank (local rank 0) */
	mine.leader = c->rank;
	MPI_Bcast(&mine.leader, 1, MPI_INT32_T, 0, *comm);
	mine.local_rank = (uint32_t)c->local_rank;
	mine.local_nranks = (uint32_t)c->local_nranks;
	mine.mem_bytes = sc_mlperf_host_memory_bytes();
	memcpy(mine.host, c->host, SC_HOST_MAX);
	/* every rank runs this binary: the struct's bytes are the same layout */
	MPI_Allgather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine), MPI_BYTE,
		      MPI_COMM_WORLD);
	index_nodes(c, all);
	free(all);
	return leaders_comm(c);
}

int sc_cluster_init(struct sc_cluster *c, int *argc, char ***argv)
{
	int provided;

	memset(c, 0, sizeof(*c));
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return -EIO;
	c->mpi_ready_ns = sc_now_ns();
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->nranks);
	if (discover_nodes(c))
		return -ENOMEM;
	/* the step gate's rounds are posted when each rank's job thread
	 * asks, not in step with wait_run's broadcasts: a communicator of
	 * their own keeps the two orders apart */
	c->gate_comm = malloc(sizeof(MPI_Comm));
	if (!c->gate_comm)
		return -ENOMEM;
	MPI_Comm_dup(MPI_COMM_WORLD, (MPI_Comm *)c->gate_comm);
	c->watch = calloc(1, sizeof(struct watch));
	if (!c->watch)
		return -ENOMEM;
	if (c->rank == 0) {
		watch_of(c)->arrived = calloc((size_t)c->nranks, sizeof(uint64_t));
		if (!watch_of(c)->arrived)
			return -ENOMEM;
	}
	return 0;
}

MPI_Comm sc_cluster_node_comm(const struct sc_cluster *c)
{
	return *(MPI_Comm *)c->shm_comm;
}

MPI_Comm sc_cluster_leader_comm(const struct sc_cluster *c)
{
	return *(MPI_Comm *)c->leader_comm;
}

void sc_cluster_exit(struct sc_cluster *c)
{
	if (c->watch) {
		drain_stops(c); /* stops sent late */
		free(watch_of(c)->arrived);
		free(c->watch);
	}
	free(c->late);
	if (c->shm_comm) {
		MPI_Comm_free((MPI_Comm *)c->shm_comm);
		free(c->shm_comm);
	}
	if (c->leader_comm) {
		if (*(MPI_Comm *)c->leader_comm != MPI_COMM_NULL)
			MPI_Comm_free((MPI_Comm *)c->leader_comm);
		free(c->leader_comm);
	}
	if (c->gate_comm) {
		MPI_Comm_free((MPI_Comm *)c->gate_comm);
		free(c->gate_comm);
	}
	free(c->hosts);
	free(c->node_of);
	free(c->local_rank_of);
	free(c->local_nranks_of);
	free(c->mem_of);
	MPI_Finalize();
	memset(c, 0, sizeof(*c));
}

void sc_cluster_abort(struct sc_cluster *c, int code)
{
	(void)c;
	fflush(stdout);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}

void sc_cluster_end_others(struct sc_cluster *c, uint64_t wait_ns)
{
	static const int token = 1;
	uint64_t until = sc_now_ns() + wait_ns;
	char *answered = calloc((size_t)c->nranks, 1);
	int waiting = 0, flag = 0, got;
	MPI_Status st;

	if (c->rank != 0 || !answered) {
		free(answered);
		return;
	}
	for (int r = 1; r < c->nranks; r++)
		send_detached(&token, 1, r, TAG_END);
	/* the late ranks may be dead: do not wait for them */
	for (uint32_t i = 0; i < c->nlate; i++)
		answered[c->late[i]] = 1;
	for (int r = 1; r < c->nranks; r++)
		waiting += !answered[r];
	while (waiting > 0 && sc_now_ns() < until) {
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_ENDED, MPI_COMM_WORLD, &flag, &st);
		if (!flag) {
			nap();
			continue;
		}
		MPI_Recv(&got, 1, MPI_INT, st.MPI_SOURCE, TAG_ENDED, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		if (!answered[st.MPI_SOURCE]) {
			answered[st.MPI_SOURCE] = 1;
			waiting--;
		}
	}
	free(answered);
}

void sc_cluster_answer_end(struct sc_cluster *c, int code)
{
	static const int token = 1;
	uint64_t until = sc_now_ns() + END_LINGER_NS;
	MPI_Request req;
	int done = 0;

	MPI_Isend(&token, 1, MPI_INT, 0, TAG_ENDED, MPI_COMM_WORLD, &req);
	/* rank 0's MPI_Abort ends this process; if it does not come, end */
	while (sc_now_ns() < until) {
		if (!done)
			MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		nap();
	}
	sc_cluster_quit(c, code);
}

void sc_cluster_quit(struct sc_cluster *c, int code)
{
	(void)c;
	fflush(stdout);
	fflush(stderr);
	_exit(code);
}

int sc_cluster_bcast(struct sc_cluster *c, uint8_t **buf, size_t *len)
{
	uint64_t n = c->rank == 0 ? *len : 0;
	MPI_Request req;

	MPI_Ibcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
	sc_cluster_wait_quietly(c, &req);
	if (n > INT_MAX)
		return -EMSGSIZE;
	if (c->rank != 0) {
		*buf = malloc(n ? n : 1);
		if (!*buf)
			return -ENOMEM; /* the collective below would hang: abort */
		*len = n;
	}
	MPI_Ibcast(*buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	sc_cluster_wait_quietly(c, &req);
	return 0;
}

int sc_cluster_bcast_int(struct sc_cluster *c, int v)
{
	MPI_Request req;

	MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	sc_cluster_wait_quietly(c, &req);
	return v;
}

int sc_cluster_all_ok_max(struct sc_cluster *c, int ok, uint64_t *val)
{
	/* the largest over ranks of: not ok, the stop signal, *val */
	uint64_t in[3] = {ok ? 0 : 1, 0, val ? *val : 0}, out[3] = {0, 0, 0};
	MPI_Request req;

	in[1] = (uint64_t)sc_cluster_poll(c);
	MPI_Iallreduce(in, out, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &req);
	sc_cluster_wait_quietly(c, &req);
	sc_cluster_note_stop(c, (int)out[1]);
	if (val)
		*val = out[2];
	return out[0] == 0;
}

int sc_cluster_all_ok(struct sc_cluster *c, int ok)
{
	return sc_cluster_all_ok_max(c, ok, NULL);
}

void sc_cluster_barrier(struct sc_cluster *c)
{
	MPI_Request req;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	sc_cluster_wait_quietly(c, &req);
}


/* Rank 0 after the deadline in wait_run: the ranks not done yet. */
static void late_runs(struct sc_cluster *c, const char *done_of, int local_done)
{
	if (!local_done)
		sc_cluster_add_late(c, 0);
	for (int r = 1; r < c->nranks; r++)
		if (!done_of[r])
			sc_cluster_add_late(c, r);
}

/*
 * Every rank other than 0 tells rank 0 when its run is done.  Rank 0, at
 * the first "done" (its own or another's), starts a non-blocking broadcast
 * that every rank has posted from the beginning; a rank that sees it
 * complete notes its byte count (and stops its run under stonewall).
 * A "done" carries whether the rank stopped on on_error abort; rank 0
 * then (or when its own run aborted) starts a second broadcast, also
 * posted by every rank from the beginning, that stops every run; else it
 * starts it, saying no, once every rank is done.  The loop ends when the
 * local run is done, both broadcasts have completed and, on rank 0, every
 * "done" message has been received.
 *
 * With the run's step gate on, rounds besides: round r is an Iallreduce
 * (MIN) of the local side's "going" on c->gate_comm, posted once the local
 * side asks for round r or has left (then "not going"), and answered to it
 * when it completes.  Every rank gets the same answers, so every rank
 * stops posting after the same round, the first that says no; the loop
 * does not end before that round.  A rank whose run is done keeps saying
 * no until then.  While a round is posted the loop looks every
 * GATE_NAP_*_NS; else it sleeps on the gate, which wakes it when the
 * local side asks.
 */

/* wait_run's own state (the buffers its requests use live in c->watch). */
struct wait_run {
	struct sc_run *run;
	int stonewall;
	uint64_t *firstdone_bytes;
	uint64_t *firstdone_at;         /* the first-done instant, this rank's
					 * clock */
	MPI_Request bcast, abort_req;   /* the first-done and abort broadcasts */
	MPI_Request recv, send;         /* rank 0: the next "done"; others: theirs */
	int bcast_started, bcast_done, abort_started, abort_done;
	int sent, done_msgs, have_first, stopped;
	char *done_of;                  /* rank 0: the ranks whose "done" came */
	uint64_t first_end;             /* rank 0: the earliest end a "done"
					 * carried (its clock), 0: none yet */
	int64_t offset;                 /* rank 0's clock minus this rank's */
	struct sc_byte_samples moved;   /* (now, bytes moved) at each look,
					 * this rank's clock */
	int gate_on, gate_over;         /* the run's step gate; a round said no */
	int gate_posted;                /* round gate_round is posted */
	uint64_t gate_round, gate_looks; /* looks at the posted round */
	uint64_t gate_posted_ns;	 /* when it was posted */
	MPI_Request gate_req;
	uint64_t next_look;             /* gate on: the next sample and poll
					 * (at most every POLL_NS, however
					 * fast the loop looks at a round) */
};

/* Takes a sample of the bytes this rank moved, at now. */
static void sample(struct wait_run *s, uint64_t now)
{
	sc_byte_samples_add(&s->moved, now, sc_run_bytes(s->run));
}

/* The first "done" reached this rank: first is when that rank finished,
 * on rank 0's clock.  Notes the bytes this rank had moved then: all of
 * them when its own run had ended by then (the first rank's own count is
 * exact), else read off its samples, so a late look does not count bytes
 * moved after it.  Under stonewall, stops the run. */
static void note_first(struct wait_run *s, uint64_t first)
{
	uint64_t t = (uint64_t)((int64_t)first - s->offset);

	sample(s, sc_now_ns());
	*s->firstdone_at = t;
	if (sc_run_done(s->run) && t >= sc_run_end_ns(s->run))
		*s->firstdone_bytes = sc_run_bytes(s->run);
	else
		*s->firstdone_bytes = sc_byte_samples_at(&s->moved, t);
	s->have_first = 1;
	if (s->stonewall)
		sc_run_stop(s->run);
}

/* Rank 0: takes the "done" messages that came, starts the first-done
 * broadcast at the first "done", and the abort broadcast once a run
 * aborted or every rank is done. */
static void rank0_step(struct sc_cluster *c, struct watch *w, struct wait_run *s, int local_done)
{
	MPI_Status st;
	int flag;

	while (s->done_msgs < c->nranks - 1) {
		MPI_Test(&s->recv, &flag, &st);
		if (!flag)
			break;
		s->done_of[st.MPI_SOURCE] = 1;
		w->abort_flag |= (int)w->token[0];
		if (!s->first_end || w->token[1] < s->first_end)
			s->first_end = w->token[1];
		if (++s->done_msgs < c->nranks - 1)
			MPI_Irecv(w->token, 2, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_DONE,
				  MPI_COMM_WORLD, &s->recv);
	}
	if (!s->bcast_started && (local_done || s->done_msgs > 0)) {
		uint64_t mine = local_done ? sc_run_end_ns(s->run) : 0;

		w->first = s->first_end && (!mine || s->first_end < mine) ? s->first_end : mine;
		note_first(s, w->first);
		MPI_Ibcast(&w->first, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &s->bcast);
		s->bcast_started = 1;
	}
	w->abort_flag |= sc_run_aborted(s->run);
	if (s->bcast_started && !s->abort_started &&
	    (w->abort_flag || (local_done && s->done_msgs == c->nranks - 1))) {
		MPI_Ibcast(&w->abort_flag, 1, MPI_INT, 0, MPI_COMM_WORLD, &s->abort_req);
		s->abort_started = 1;
	}
}

/* Every rank: acts on the broadcasts that completed (abort: stop the run;
 * first done: note_first). */
static void test_broadcasts(struct watch *w, struct wait_run *s)
{
	if (s->abort_started && !s->abort_done) {
		MPI_Test(&s->abort_req, &s->abort_done, MPI_STATUS_IGNORE);
		if (s->abort_done && w->abort_flag)
			sc_run_stop(s->run);
	}
	if (s->bcast_started && !s->bcast_done) {
		MPI_Test(&s->bcast, &s->bcast_done, MPI_STATUS_IGNORE);
		if (s->bcast_done && !s->have_first)
			note_first(s, w->first);
	}
}

/* The step gate's next round: posted once the local side wants it,
 * answered to it once it completes; after a round that said no, none. */
static void gate_step(struct sc_cluster *c, struct watch *w, struct wait_run *s)
{
	int going, flag = 0;

	if (!s->gate_on || s->gate_over)
		return;
	if (!s->gate_posted) {
		if (!sc_run_gate_want(s->run, s->gate_round, &going))
			return;
		w->gate_in = going;
		MPI_Iallreduce(&w->gate_in, &w->gate_out, 1, MPI_INT, MPI_MIN,
			       *(MPI_Comm *)c->gate_comm, &s->gate_req);
		s->gate_posted = 1;
		s->gate_looks = 0;
		s->gate_posted_ns = sc_now_ns();
	}
	MPI_Test(&s->gate_req, &flag, MPI_STATUS_IGNORE);
	if (!flag)
		return;
	sc_run_gate_answer(s->run, s->gate_round, w->gate_out);
	s->gate_posted = 0;
	s->gate_over = w->gate_out == 0;
	s->gate_round++;
}

/* The nap before the next look at a posted gate round (see GATE_NAP_*). */
static long gate_nap_ns(struct wait_run *s)
{
	uint64_t waited = sc_now_ns() - s->gate_posted_ns;
	uint64_t ns = waited / GATE_NAP_WAITED_DIV;

	if (s->gate_looks++ < GATE_NAP_FAST_LOOKS)
		return GATE_NAP_MIN_NS;
	if (ns < (uint64_t)GATE_NAP_MAX_NS)
		return GATE_NAP_MAX_NS;
	return ns > (uint64_t)GATE_NAP_CAP_NS ? GATE_NAP_CAP_NS : (long)ns;
}

/* Between looks in wait_run: backoff_ns (counted in *naps), never past
 * rank 0's next progress tick.  Nothing measured hangs on how often a
 * rank looks: its first-done byte count comes from its samples at the
 * instant the first rank finished, not from when it heard of it.  With
 * the step gate on: while a round is posted, GATE_NAP_*_NS; else on the
 * gate, woken at once when the local side asks. */
static void wait_run_nap(const struct sc_cluster *c, struct wait_run *s, uint64_t next_tick,
			 uint64_t *naps)
{
	long ns = backoff_ns((*naps)++);

	if (c->rank == 0 && c->tick.fn) {
		uint64_t now = sc_now_ns();
		uint64_t left = next_tick > now ? next_tick - now : 0;

		if ((uint64_t)ns > left)
			ns = left > POLL_NS ? (long)left : POLL_NS;
	}
	if (!s->gate_on || s->gate_over)
		nap_ns(ns);
	else if (s->gate_posted)
		nap_ns(gate_nap_ns(s));
	else
		sc_run_gate_nap(s->run, s->gate_round, (uint64_t)ns);
}

int sc_cluster_wait_run(struct sc_cluster *c, struct sc_run *run, int stonewall,
			uint64_t *firstdone_bytes, uint64_t *firstdone_at)
{
	uint64_t tick_ns = c->tick.interval_ns ? c->tick.interval_ns : TICK_NS;
	uint64_t next_tick = sc_now_ns() + tick_ns, begin = sc_now_ns(), naps = 0;
	struct wait_run s = {.run = run, .stonewall = stonewall,
			     .firstdone_bytes = firstdone_bytes, .firstdone_at = firstdone_at,
			     .bcast = MPI_REQUEST_NULL, .abort_req = MPI_REQUEST_NULL,
			     .recv = MPI_REQUEST_NULL, .send = MPI_REQUEST_NULL,
			     .gate_on = sc_run_gate_on(run), .gate_req = MPI_REQUEST_NULL};
	struct watch *w = watch_of(c);
	int flag;

	s.done_of = c->rank == 0 ? calloc((size_t)c->nranks, 1) : NULL;
	if (c->rank == 0 && !s.done_of)
		sc_cluster_abort(c, 1);
	/* the buffers of requests that a deadline may abandon live in w */
	*firstdone_at = 0;
	w->first = 0;
	w->token[0] = w->token[1] = 0;
	w->abort_flag = 0;
	if (c->rank != 0) {
		MPI_Ibcast(&w->first, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &s.bcast), s.bcast_started = 1;
		MPI_Ibcast(&w->abort_flag, 1, MPI_INT, 0, MPI_COMM_WORLD, &s.abort_req);
		s.abort_started = 1;
	} else if (c->nranks > 1)
		MPI_Irecv(w->token, 2, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &s.recv);
	s.offset = c->clock_offset_ns;
	for (;;) {
		int local_done = sc_run_done(run);
		uint64_t now = sc_now_ns();
		/* the gate's fast looks sample and poll no more often than
		 * the naps of a wait without it */
		int look = !s.gate_on || now >= s.next_look;

		if (look)
			s.next_look = now + POLL_NS;
		if (look && !s.have_first)
			sample(&s, now);

		if (look && !s.stopped && sc_cluster_poll(c)) {
			sc_run_stop(run);
			s.stopped = 1;
		}
		gate_step(c, w, &s);
		if (c->rank != 0 && local_done && !s.sent) {
			w->token[0] = (uint64_t)sc_run_aborted(run);
			w->token[1] = (uint64_t)((int64_t)sc_run_end_ns(run) + c->clock_offset_ns);
			MPI_Isend(w->token, 2, MPI_UINT64_T, 0, TAG_DONE, MPI_COMM_WORLD, &s.send);
			s.sent = 1;
		}
		if (c->rank == 0)
			rank0_step(c, w, &s, local_done);
		test_broadcasts(w, &s);
		if (s.sent)
			MPI_Test(&s.send, &flag, MPI_STATUS_IGNORE);
		if (local_done && s.bcast_done && s.abort_done &&
		    (c->rank != 0 ? s.send == MPI_REQUEST_NULL : s.done_msgs == c->nranks - 1) &&
		    (!s.gate_on || s.gate_over))
			break;
		if (c->rank == 0 && c->tick.fn && sc_now_ns() >= next_tick) {
			c->tick.fn(c->tick.arg, (uint32_t)s.done_msgs + (local_done ? 1u : 0u), run);
			next_tick += tick_ns;
		}
		if (sc_now_ns() >= sc_deadline_wait_end_ns(c, begin)) {
			if (c->rank == 0)
				late_runs(c, s.done_of, local_done);
			give_up(c, -1, c->stop_sig ? -EINTR : -ETIMEDOUT);
		}
		wait_run_nap(c, &s, next_tick, &naps);
	}
	free(s.done_of);
	/* every rank is done once all pass this; wait without spinning */
	sc_cluster_all_ok(c, 1);
	return 0;
}

