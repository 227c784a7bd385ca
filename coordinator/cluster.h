/* cluster.h -- every MPI call: nodes, plan broadcast, clocks, lockstep
 * starts, the first-done signal, histogram reduction and result gathering.
 */
#ifndef SC_CLUSTER_H
#define SC_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "../worker/histogram.h"
#include "../worker/job.h"
#include "../worker/result.h"

/* Rank 0, while it waits: called about once a second with how many ranks
 * have finished the phase so far (set to NULL for none). */
struct sc_cluster_tick {
	void (*fn)(void *arg, uint32_t ranks_done, struct sc_run *run);
	void *arg;
};

struct sc_cluster {
	int rank, nranks;
	int local_rank, local_nranks;   /* on this node (MPI_COMM_TYPE_SHARED) */
	uint32_t node, nnodes;          /* node index: order of its lowest rank */
	char host[SC_HOST_MAX];
	/* every rank's host, node and local rank, indexed by rank (all ranks) */
	char (*hosts)[SC_HOST_MAX];
	uint32_t *node_of;
	uint32_t *local_rank_of;
	uint32_t *local_nranks_of;
	int64_t clock_offset_ns;        /* rank 0's clock minus ours */
	void *shm_comm;                 /* MPI_Comm, opaque to callers */
	struct sc_cluster_tick tick;    /* rank 0's progress callback, or none */
};

/* MPI_Init_thread and node discovery.  0 or -errno. */
int sc_cluster_init(struct sc_cluster *c, int *argc, char ***argv);
/* MPI_Finalize. */
void sc_cluster_exit(struct sc_cluster *c);
/* Ends every rank now with code (MPI_Abort). */
void sc_cluster_abort(struct sc_cluster *c, int code) __attribute__((noreturn));

/* Rank 0's buffer (*buf, *len) reaches every rank (others get a malloc'd copy). */
int sc_cluster_bcast(struct sc_cluster *c, uint8_t **buf, size_t *len);
/* An int from rank 0 to every rank. */
int sc_cluster_bcast_int(struct sc_cluster *c, int v);
/* 1 when every rank passed ok != 0, else 0. */
int sc_cluster_all_ok(struct sc_cluster *c, int ok);
/* Gathers one message per rank at rank 0 ("" for none); rank 0 gets a
 * malloc'd array of nranks strings (free with sc_cluster_free_strings). */
int sc_cluster_gather_strings(struct sc_cluster *c, const char *msg, char ***out);
void sc_cluster_free_strings(struct sc_cluster *c, char **v);
void sc_cluster_barrier(struct sc_cluster *c);

/* Estimates this rank's clock offset to rank 0 by ping-pong, keeping the
 * round with the lowest round trip.  Sets c->clock_offset_ns. */
int sc_cluster_sync_clocks(struct sc_cluster *c);

/* After a barrier, rank 0 picks an instant lead_ns ahead on its clock;
 * returns that instant on this rank's CLOCK_MONOTONIC. */
uint64_t sc_cluster_common_start(struct sc_cluster *c, uint64_t lead_ns);

/* Waits for the local run to finish, running the first-done protocol:
 * when the first rank finishes, every rank notes how many bytes it had
 * moved by then (*firstdone_bytes), and with stonewall stops its run.
 * When a rank's run stopped on on_error abort (sc_run_aborted), every
 * rank stops its run. */
int sc_cluster_wait_run(struct sc_cluster *c, struct sc_run *run, int stonewall,
			uint64_t *firstdone_bytes);

void sc_cluster_set_tick(struct sc_cluster *c, const struct sc_cluster_tick *tick);

/* Bucket-wise sum of every rank's histogram into out at rank 0 (out may be
 * NULL on other ranks). */
int sc_cluster_reduce_hist(struct sc_cluster *c, const struct sc_hist *local, struct sc_hist *out);

/* Bucket-wise sum of the histograms of this node's ranks into out at the
 * node's leader (local rank 0; out may be NULL elsewhere). */
int sc_cluster_reduce_node_hist(struct sc_cluster *c, const struct sc_hist *local,
				struct sc_hist *out);

/* Gathers every rank's packed bytes at rank 0: *bufs[r], *lens[r]
 * (malloc'd; free with sc_cluster_free_gathered). */
int sc_cluster_gather(struct sc_cluster *c, const uint8_t *buf, size_t len, uint8_t ***bufs,
		      size_t **lens);
void sc_cluster_free_gathered(struct sc_cluster *c, uint8_t **bufs, size_t *lens);

#endif
