/* cluster.c -- every MPI call: nodes, plan broadcast, clocks, lockstep
 * starts, the first-done signal, histogram reduction and result gathering.
 */
#include "cluster.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Ping-pong rounds per rank when estimating clock offsets. */
#define CLOCK_ROUNDS 16
/* How often a waiting rank looks for the first-done signal: also the
 * bound on how late a rank notes its first-done byte count. */
#define POLL_NS 1000000L

/* How often rank 0's progress callback runs while a phase goes. */
#define TICK_NS 1000000000ull

enum { TAG_CLOCK = 101, TAG_DONE = 102 };

static void nap(void)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = POLL_NS};

	nanosleep(&ts, NULL);
}

/*
 * Waits for a non-blocking collective by testing it between naps.  Open
 * MPI's blocking calls poll the network without sleeping, so ranks that
 * finish early would take CPU from the ranks (and kernel writeback
 * threads) still doing I/O: measured here as minute-long stalls with 16
 * ranks on 2 cores.  Collectives that may wait on another rank's work go
 * through this.
 */
static void wait_quietly(MPI_Request *req)
{
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nap();
	}
}

int sc_cluster_init(struct sc_cluster *c, int *argc, char ***argv)
{
	int provided, is_leader;
	int *leader_of = NULL;
	MPI_Comm *comm;

	memset(c, 0, sizeof(*c));
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return -EIO;
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->nranks);
	comm = malloc(sizeof(*comm));
	c->hosts = calloc((size_t)c->nranks, sizeof(*c->hosts));
	c->node_of = calloc((size_t)c->nranks, sizeof(*c->node_of));
	c->local_rank_of = calloc((size_t)c->nranks, sizeof(*c->local_rank_of));
	c->local_nranks_of = calloc((size_t)c->nranks, sizeof(*c->local_nranks_of));
	leader_of = calloc((size_t)c->nranks, sizeof(*leader_of));
	if (!comm || !c->hosts || !c->node_of || !c->local_rank_of || !c->local_nranks_of ||
	    !leader_of) {
		free(comm);
		free(leader_of);
		return -ENOMEM;
	}
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, comm);
	c->shm_comm = comm;
	MPI_Comm_rank(*comm, &c->local_rank);
	MPI_Comm_size(*comm, &c->local_nranks);
	if (gethostname(c->host, sizeof(c->host)) != 0)
		snprintf(c->host, sizeof(c->host), "rank%d", c->rank);
	c->host[sizeof(c->host) - 1] = '\0';

	/* The node's leader is its lowest world rank (local rank 0). */
	int leader = c->rank;

	MPI_Bcast(&leader, 1, MPI_INT, 0, *comm);
	MPI_Allgather(&leader, 1, MPI_INT, leader_of, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Allgather(c->host, SC_HOST_MAX, MPI_CHAR, c->hosts, SC_HOST_MAX, MPI_CHAR,
		      MPI_COMM_WORLD);
	uint32_t mine[2] = {(uint32_t)c->local_rank, (uint32_t)c->local_nranks};
	uint32_t *all = malloc(sizeof(mine) * (size_t)c->nranks);

	if (!all) {
		free(leader_of);
		return -ENOMEM;
	}
	MPI_Allgather(mine, 2, MPI_UINT32_T, all, 2, MPI_UINT32_T, MPI_COMM_WORLD);
	for (int r = 0; r < c->nranks; r++) {
		c->local_rank_of[r] = all[2 * r];
		c->local_nranks_of[r] = all[2 * r + 1];
	}
	free(all);
	/* Node indices in the order of their leaders. */
	c->nnodes = 0;
	for (int r = 0; r < c->nranks; r++) {
		is_leader = leader_of[r] == r;
		if (is_leader)
			c->node_of[r] = c->nnodes++;
	}
	for (int r = 0; r < c->nranks; r++)
		c->node_of[r] = c->node_of[leader_of[r]];
	c->node = c->node_of[c->rank];
	free(leader_of);
	return 0;
}

void sc_cluster_exit(struct sc_cluster *c)
{
	if (c->shm_comm) {
		MPI_Comm_free((MPI_Comm *)c->shm_comm);
		free(c->shm_comm);
	}
	free(c->hosts);
	free(c->node_of);
	free(c->local_rank_of);
	free(c->local_nranks_of);
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

int sc_cluster_bcast(struct sc_cluster *c, uint8_t **buf, size_t *len)
{
	uint64_t n = c->rank == 0 ? *len : 0;

	MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (n > INT_MAX)
		return -EMSGSIZE;
	if (c->rank != 0) {
		*buf = malloc(n ? n : 1);
		if (!*buf)
			return -ENOMEM; /* the collective below would hang: abort */
		*len = n;
	}
	MPI_Bcast(*buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
	return 0;
}

int sc_cluster_bcast_int(struct sc_cluster *c, int v)
{
	MPI_Request req;

	(void)c;
	MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
	return v;
}

int sc_cluster_all_ok(struct sc_cluster *c, int ok)
{
	int in = ok ? 1 : 0, out = 0;
	MPI_Request req;

	(void)c;
	MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req);
	wait_quietly(&req);
	return out;
}

int sc_cluster_gather_strings(struct sc_cluster *c, const char *msg, char ***out)
{
	uint8_t **bufs = NULL;
	size_t *lens = NULL;
	int rc = sc_cluster_gather(c, (const uint8_t *)msg, strlen(msg) + 1, &bufs, &lens);

	if (rc)
		return rc;
	if (c->rank == 0) {
		*out = (char **)bufs;
		free(lens);
	}
	return 0;
}

void sc_cluster_free_strings(struct sc_cluster *c, char **v)
{
	sc_cluster_free_gathered(c, (uint8_t **)v, NULL);
}

void sc_cluster_barrier(struct sc_cluster *c)
{
	MPI_Request req;

	(void)c;
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	wait_quietly(&req);
}

int sc_cluster_sync_clocks(struct sc_cluster *c)
{
	sc_cluster_barrier(c);
	if (c->rank == 0) {
		c->clock_offset_ns = 0;
		for (int r = 1; r < c->nranks; r++) {
			int go = 1;

			/* rank r waits for its turn asleep (see wait_quietly) */
			MPI_Send(&go, 1, MPI_INT, r, TAG_CLOCK, MPI_COMM_WORLD);
			for (int i = 0; i < CLOCK_ROUNDS; i++) {
				uint64_t t0;

				MPI_Recv(&t0, 1, MPI_UINT64_T, r, TAG_CLOCK, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				t0 = sc_now_ns();
				MPI_Send(&t0, 1, MPI_UINT64_T, r, TAG_CLOCK, MPI_COMM_WORLD);
			}
		}
		return 0;
	}
	uint64_t best_rtt = UINT64_MAX;
	MPI_Request turn;
	int go;

	MPI_Irecv(&go, 1, MPI_INT, 0, TAG_CLOCK, MPI_COMM_WORLD, &turn);
	wait_quietly(&turn);
	for (int i = 0; i < CLOCK_ROUNDS; i++) {
		uint64_t t1 = sc_now_ns(), t0, t2;

		MPI_Send(&t1, 1, MPI_UINT64_T, 0, TAG_CLOCK, MPI_COMM_WORLD);
		MPI_Recv(&t0, 1, MPI_UINT64_T, 0, TAG_CLOCK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t2 = sc_now_ns();
		if (t2 - t1 < best_rtt) {
			best_rtt = t2 - t1;
			/* rank 0 read t0 halfway through the round trip */
			c->clock_offset_ns = (int64_t)t0 - (int64_t)(t1 + (t2 - t1) / 2);
		}
	}
	return 0;
}

uint64_t sc_cluster_common_start(struct sc_cluster *c, uint64_t lead_ns)
{
	uint64_t start0 = 0;

	sc_cluster_barrier(c);
	if (c->rank == 0)
		start0 = sc_now_ns() + lead_ns;
	MPI_Bcast(&start0, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	return (uint64_t)((int64_t)start0 - c->clock_offset_ns);
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
 */
void sc_cluster_set_tick(struct sc_cluster *c, const struct sc_cluster_tick *tick)
{
	if (tick)
		c->tick = *tick;
	else
		memset(&c->tick, 0, sizeof(c->tick));
}

int sc_cluster_wait_run(struct sc_cluster *c, struct sc_run *run, int stonewall,
			uint64_t *firstdone_bytes)
{
	uint64_t next_tick = sc_now_ns() + TICK_NS;
	MPI_Request bcast = MPI_REQUEST_NULL, recv = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;
	int first = 0, bcast_started = 0, bcast_done = 0, sent = 0, done_msgs = 0;
	int have_first = 0, token = 0, flag;
	MPI_Request abort_req = MPI_REQUEST_NULL;
	int abort_flag = 0, abort_started = 0, abort_done = 0;

	if (c->rank != 0) {
		MPI_Ibcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD, &bcast), bcast_started = 1;
		MPI_Ibcast(&abort_flag, 1, MPI_INT, 0, MPI_COMM_WORLD, &abort_req);
		abort_started = 1;
	} else if (c->nranks > 1)
		MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &recv);
	for (;;) {
		int local_done = sc_run_done(run);

		if (c->rank != 0 && local_done && !sent) {
			token = sc_run_aborted(run);
			MPI_Isend(&token, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, &send);
			sent = 1;
		}
		if (c->rank == 0) {
			while (done_msgs < c->nranks - 1) {
				MPI_Test(&recv, &flag, MPI_STATUS_IGNORE);
				if (!flag)
					break;
				abort_flag |= token;
				if (++done_msgs < c->nranks - 1)
					MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DONE,
						  MPI_COMM_WORLD, &recv);
			}
			if (!bcast_started && (local_done || done_msgs > 0)) {
				first = 1;
				*firstdone_bytes = sc_run_bytes(run);
				have_first = 1;
				if (stonewall)
					sc_run_stop(run);
				MPI_Ibcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD, &bcast);
				bcast_started = 1;
			}
			abort_flag |= sc_run_aborted(run);
			if (bcast_started && !abort_started &&
			    (abort_flag || (local_done && done_msgs == c->nranks - 1))) {
				MPI_Ibcast(&abort_flag, 1, MPI_INT, 0, MPI_COMM_WORLD, &abort_req);
				abort_started = 1;
			}
		}
		if (abort_started && !abort_done) {
			MPI_Test(&abort_req, &abort_done, MPI_STATUS_IGNORE);
			if (abort_done && abort_flag)
				sc_run_stop(run);
		}
		if (bcast_started && !bcast_done) {
			MPI_Test(&bcast, &bcast_done, MPI_STATUS_IGNORE);
			if (bcast_done && !have_first) {
				*firstdone_bytes = sc_run_bytes(run);
				have_first = 1;
				if (stonewall)
					sc_run_stop(run);
			}
		}
		if (sent)
			MPI_Test(&send, &flag, MPI_STATUS_IGNORE);
		if (local_done && bcast_done && abort_done &&
		    (c->rank != 0 ? send == MPI_REQUEST_NULL : done_msgs == c->nranks - 1))
			break;
		if (c->rank == 0 && c->tick.fn && sc_now_ns() >= next_tick) {
			c->tick.fn(c->tick.arg, (uint32_t)done_msgs + (local_done ? 1u : 0u), run);
			next_tick += TICK_NS;
		}
		nap();
	}
	/* every rank is done once all pass this; wait without spinning */
	sc_cluster_barrier(c);
	return 0;
}

static void reduce_hist_on(MPI_Comm comm, int root, const struct sc_hist *local,
			   struct sc_hist *out)
{
	uint64_t sums[2] = {local->count, local->sum_ns}, tot[2] = {0, 0};
	uint64_t mn = local->min_ns, mx = local->max_ns, gmn = 0, gmx = 0;

	MPI_Reduce(local->buckets, root ? out->buckets : NULL, SC_HIST_NBUCKETS, MPI_UINT64_T,
		   MPI_SUM, 0, comm);
	MPI_Reduce(sums, tot, 2, MPI_UINT64_T, MPI_SUM, 0, comm);
	MPI_Reduce(&mn, &gmn, 1, MPI_UINT64_T, MPI_MIN, 0, comm);
	MPI_Reduce(&mx, &gmx, 1, MPI_UINT64_T, MPI_MAX, 0, comm);
	if (root) {
		out->count = tot[0];
		out->sum_ns = tot[1]; /* a wrapped sum only skews the mean */
		out->min_ns = gmn;
		out->max_ns = gmx;
	}
}

int sc_cluster_reduce_node_hist(struct sc_cluster *c, const struct sc_hist *local,
				struct sc_hist *out)
{
	reduce_hist_on(*(MPI_Comm *)c->shm_comm, c->local_rank == 0, local, out);
	return 0;
}

int sc_cluster_reduce_hist(struct sc_cluster *c, const struct sc_hist *local, struct sc_hist *out)
{
	reduce_hist_on(MPI_COMM_WORLD, c->rank == 0, local, out);
	return 0;
}

int sc_cluster_gather(struct sc_cluster *c, const uint8_t *buf, size_t len, uint8_t ***bufs,
		      size_t **lens)
{
	int n = (int)len, *counts = NULL, *displs = NULL;
	uint8_t *all = NULL;
	int root = c->rank == 0, total = 0;

	if (len > INT_MAX)
		return -EMSGSIZE;
	if (root) {
		counts = calloc((size_t)c->nranks, sizeof(int));
		displs = calloc((size_t)c->nranks, sizeof(int));
		if (!counts || !displs)
			sc_cluster_abort(c, 1);
	}
	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (root) {
		for (int r = 0; r < c->nranks; r++) {
			displs[r] = total;
			if (counts[r] > INT_MAX - total)
				sc_cluster_abort(c, 1);
			total += counts[r];
		}
		all = malloc(total ? (size_t)total : 1);
		if (!all)
			sc_cluster_abort(c, 1);
	}
	MPI_Gatherv(buf, n, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (root) {
		*bufs = calloc((size_t)c->nranks, sizeof(**bufs));
		*lens = calloc((size_t)c->nranks, sizeof(**lens));
		if (!*bufs || !*lens)
			sc_cluster_abort(c, 1);
		for (int r = 0; r < c->nranks; r++) {
			(*bufs)[r] = malloc(counts[r] ? (size_t)counts[r] : 1);
			if (!(*bufs)[r])
				sc_cluster_abort(c, 1);
			memcpy((*bufs)[r], all + displs[r], (size_t)counts[r]);
			(*lens)[r] = (size_t)counts[r];
		}
	}
	free(all);
	free(counts);
	free(displs);
	return 0;
}

void sc_cluster_free_gathered(struct sc_cluster *c, uint8_t **bufs, size_t *lens)
{
	if (!bufs)
		return;
	for (int r = 0; r < c->nranks; r++)
		free(bufs[r]);
	free(bufs);
	free(lens);
}
