/* cluster_clock.c -- each rank's clock offset to rank 0, one estimate per
 * node, and the common start of a phase on every rank's own clock. */
#include "cluster.h"
#include "cluster_priv.h"

#include <errno.h>
#include <stdint.h>

#include "deadline.h"

/* Ping-pong rounds per node when estimating clock offsets. */
#define CLOCK_ROUNDS 16
/* Leaders rank 0 ping-pongs with at once, and how many more it tells to
 * get ready beforehand (they wake from a nap of up to 8 ms to answer):
 * a round trip slowed by another leader's message is simply not the
 * fastest of its 16. */
#define CLOCK_WINDOW 32
#define CLOCK_AHEAD  32

/* The first node leader (local rank 0) at or after world rank r, or nranks. */
static int next_leader(const struct sc_cluster *c, int r)
{
	while (r < c->nranks && c->local_rank_of[r] != 0)
		r++;
	return r;
}

/* Rank 0's ping-pongs with the leaders, CLOCK_WINDOW at a time. */
struct serve {
	int peer[CLOCK_WINDOW];
	int rounds[CLOCK_WINDOW];
	uint64_t t1[CLOCK_WINDOW];
	MPI_Request req[CLOCK_WINDOW];
	int next;      /* the next leader to take a slot */
	int told;      /* leaders before it have been told to start */
	int busy;      /* slots in use */
};

/* Tells the leaders up to CLOCK_AHEAD past the next one to start (each
 * waits for its "go" asleep). */
static void tell_ahead(struct sc_cluster *c, struct serve *s)
{
	static const int go = 1;
	int until = s->next, n = 0;

	while (until < c->nranks && n < CLOCK_AHEAD) {
		until = next_leader(c, until + 1);
		n++;
	}
	while (s->told < until && s->told < c->nranks) {
		s->told = next_leader(c, s->told);
		if (s->told >= c->nranks)
			break;
		MPI_Send(&go, 1, MPI_INT, s->told, SC_TAG_CLOCK, MPI_COMM_WORLD);
		s->told++;
	}
}

/* Gives the free slots to the next leaders. */
static void fill_slots(struct sc_cluster *c, struct serve *s)
{
	for (int i = 0; i < CLOCK_WINDOW && s->next < c->nranks; i++) {
		if (s->req[i] != MPI_REQUEST_NULL)
			continue;
		s->peer[i] = s->next;
		s->rounds[i] = 0;
		MPI_Irecv(&s->t1[i], 1, MPI_UINT64_T, s->next, SC_TAG_CLOCK, MPI_COMM_WORLD,
			  &s->req[i]);
		s->busy++;
		s->next = next_leader(c, s->next + 1);
	}
	tell_ahead(c, s);
}

/* The deadline passed: the leaders still in a slot are late. */
static void serve_give_up(struct sc_cluster *c, struct serve *s)
{
	int first = -1;

	for (int i = 0; i < CLOCK_WINDOW; i++) {
		if (s->req[i] == MPI_REQUEST_NULL)
			continue;
		if (first < 0)
			first = s->peer[i];
		else
			sc_cluster_add_late(c, s->peer[i]);
	}
	sc_cluster_give_up(c, first, c->stop_sig ? -EINTR : -ETIMEDOUT);
}

/* Rank 0: answers each leader's CLOCK_ROUNDS pings with its clock, read
 * as the ping is seen. */
static void clock_serve(struct sc_cluster *c)
{
	struct serve s = {.next = next_leader(c, 1), .told = 1};
	uint64_t begin = sc_now_ns(), next_poll = 0;

	for (int i = 0; i < CLOCK_WINDOW; i++)
		s.req[i] = MPI_REQUEST_NULL;
	for (fill_slots(c, &s); s.busy;) {
		int i = MPI_UNDEFINED, flag = 0;
		uint64_t now;

		MPI_Testany(CLOCK_WINDOW, s.req, &i, &flag, MPI_STATUS_IGNORE);
		if (flag && i != MPI_UNDEFINED) {
			uint64_t t0 = sc_now_ns();

			MPI_Send(&t0, 1, MPI_UINT64_T, s.peer[i], SC_TAG_CLOCK, MPI_COMM_WORLD);
			if (++s.rounds[i] < CLOCK_ROUNDS)
				MPI_Irecv(&s.t1[i], 1, MPI_UINT64_T, s.peer[i], SC_TAG_CLOCK,
					  MPI_COMM_WORLD, &s.req[i]);
			else if (--s.busy, s.next < c->nranks)
				fill_slots(c, &s);
			continue;
		}
		now = sc_now_ns();
		if (now >= next_poll) {
			sc_cluster_poll(c);
			next_poll = now + SC_NS_PER_S / 1000;
		}
		if (now >= sc_deadline_wait_end_ns(c, begin))
			serve_give_up(c, &s);
	}
}

/* A leader's side: its offset from the round with the lowest round trip. */
static int64_t clock_ask(struct sc_cluster *c)
{
	uint64_t best_rtt = UINT64_MAX;
	int64_t offset = 0;
	MPI_Request turn;
	int go;

	MPI_Irecv(&go, 1, MPI_INT, 0, SC_TAG_CLOCK, MPI_COMM_WORLD, &turn);
	sc_cluster_wait_reqs(c, &turn, 1, 0, 1);
	for (int i = 0; i < CLOCK_ROUNDS; i++) {
		uint64_t t1 = sc_now_ns(), t0, t2;
		MPI_Request req;

		MPI_Irecv(&t0, 1, MPI_UINT64_T, 0, SC_TAG_CLOCK, MPI_COMM_WORLD, &req);
		MPI_Send(&t1, 1, MPI_UINT64_T, 0, SC_TAG_CLOCK, MPI_COMM_WORLD);
		sc_cluster_wait_reqs(c, &req, 1, 0, 0);
		t2 = sc_now_ns();
		if (t2 - t1 < best_rtt) {
			best_rtt = t2 - t1;
			/* rank 0 read t0 halfway through the round trip */
			offset = (int64_t)t0 - (int64_t)(t1 + (t2 - t1) / 2);
		}
	}
	return offset;
}

int sc_cluster_sync_clocks(struct sc_cluster *c)
{
	int64_t offset = 0;
	MPI_Request req;

	sc_cluster_barrier(c);
	if (c->rank == 0)
		clock_serve(c); /* node 0's ranks share rank 0's clock */
	else if (c->local_rank == 0)
		offset = clock_ask(c);
	/* the ranks of a node read one clock: their leader's offset is theirs */
	MPI_Ibcast(&offset, 1, MPI_INT64_T, 0, sc_cluster_node_comm(c), &req);
	sc_cluster_wait_quietly(c, &req);
	c->clock_offset_ns = offset;
	return 0;
}

uint64_t sc_cluster_common_start(struct sc_cluster *c, uint64_t lead_ns)
{
	uint64_t start0 = 0;
	MPI_Request req;

	sc_cluster_barrier(c);
	if (c->rank == 0)
		start0 = sc_now_ns() + lead_ns;
	MPI_Ibcast(&start0, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
	sc_cluster_wait_quietly(c, &req);
	return (uint64_t)((int64_t)start0 - c->clock_offset_ns);
}
