/* cluster.h -- every MPI call: nodes, plan broadcast, clocks, lockstep
 * starts, the first-done signal, histogram reduction, result gathering,
 * and the deadlines and stops of every wait on other ranks. */
#ifndef SC_CLUSTER_H
#define SC_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "run.h"
#include "result.h"
#include "units.h"

/* Rank 0, while it waits: called every interval_ns (0: once a second)
 * with how many ranks have finished the phase so far (set to NULL for
 * none). */
struct sc_cluster_tick {
	void (*fn)(void *arg, uint32_t ranks_done, struct sc_run *run);
	void *arg;
	uint64_t interval_ns;
};

struct sc_cluster;

/* Called once when a wait on other ranks gives up (see "Deadlines"), with
 * c->lost and c->late set.  It must end the process (sc_cluster_abort or
 * sc_cluster_quit): the MPI state is broken, no collective can follow. */
struct sc_cluster_lost {
	void (*fn)(struct sc_cluster *c, void *arg);
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
	uint64_t *mem_of;               /* each rank's host's memory (MemTotal,
					 * 0: unknown), as MLPerf sizes by it */
	int64_t clock_offset_ns;        /* rank 0's clock minus ours */
	uint64_t mpi_ready_ns;          /* when MPI_Init_thread returned, before
					 * node discovery (CLOCK_MONOTONIC) */
	void *shm_comm;                 /* MPI_Comm, opaque to callers */
	void *leader_comm;              /* MPI_Comm of the nodes' leaders
					 * (MPI_COMM_NULL on other ranks) */
	void *gate_comm;                /* MPI_Comm, a copy of the world's for
					 * wait_run's step-gate rounds alone */
	struct sc_cluster_tick tick;    /* rank 0's progress callback, or none */
	/* Deadlines and stops (below) */
	uint64_t deadline_ns;           /* CLOCK_MONOTONIC instant at which waits
					 * give up; 0 = SC_CLUSTER_WAIT_DEFAULT_NS
					 * after each wait begins */
	char doing[160];                /* what the ranks do, for messages:
					 * "running phase x" */
	char deadline_why[160];         /* how the deadline was set, for messages */
	int stop_sig;                   /* the signal stopping the run (caught
					 * here or by another rank), 0 = none */
	bool stop_launcher;             /* caught here, sent by the launcher */
	bool finishing;                 /* after the last phase: a stop that is
					 * not the launcher's gives the waits
					 * SC_CLUSTER_STOP_GRACE_FINISH_NS (the
					 * cleanup and the results finish) */
	uint64_t stop_ns;               /* when this rank learned of the stop */
	int lost;                       /* 0, or why a wait gave up: -ETIMEDOUT
					 * (deadline), -EINTR (after a stop) or
					 * -ECONNABORTED (rank 0 ended the run) */
	uint32_t nlate;                 /* the ranks that wait was missing:   */
	int *late;                      /* exact on rank 0, else only a peer  */
	struct sc_cluster_lost on_lost;
	void *watch;                    /* stop and arrival bookkeeping */
};

/* MPI_Init_thread and node discovery.  0 or -errno. */
int sc_cluster_init(struct sc_cluster *c, int *argc, char ***argv);
/* MPI_Finalize. */
void sc_cluster_exit(struct sc_cluster *c);
/* Ends every rank now with code (MPI_Abort). */
void sc_cluster_abort(struct sc_cluster *c, int code) __attribute__((noreturn));
/* Ends this rank alone now with code, without MPI_Finalize: after a wait
 * gave up, or when the launcher is ending the job anyway. */
void sc_cluster_quit(struct sc_cluster *c, int code) __attribute__((noreturn));
/* Rank 0, after a wait gave up, before sc_cluster_abort: tells every other
 * rank that the run is over (their on_lost runs with c->lost ==
 * -ECONNABORTED: they remove their files and answer) and waits up to
 * wait_ns for the answers of the ranks not in c->late. */
void sc_cluster_end_others(struct sc_cluster *c, uint64_t wait_ns);
/* Another rank told so: answers rank 0 and waits for its sc_cluster_abort
 * (at most 10 s, then ends itself with code). */
void sc_cluster_answer_end(struct sc_cluster *c, int code) __attribute__((noreturn));

/* Rank 0's buffer (*buf, *len) reaches every rank (others get a malloc'd copy). */
int sc_cluster_bcast(struct sc_cluster *c, uint8_t **buf, size_t *len);
/* An int from rank 0 to every rank. */
int sc_cluster_bcast_int(struct sc_cluster *c, int v);
/* 1 when every rank passed ok != 0, else 0.  Also an agreement on stops:
 * afterwards every rank has the same stop_sig (the largest any had). */
int sc_cluster_all_ok(struct sc_cluster *c, int ok);
/* sc_cluster_all_ok that also turns *val into the largest over ranks. */
int sc_cluster_all_ok_max(struct sc_cluster *c, int ok, uint64_t *val);
void sc_cluster_barrier(struct sc_cluster *c);

/* Estimates this rank's clock offset to rank 0: rank 0 ping-pongs with
 * each node's leader in turn (CLOCK_ROUNDS round trips, keeping the one
 * with the lowest round trip) and the leader hands its offset to its
 * node's ranks, which share its clock: O(nodes) round trips at rank 0.
 * Sets c->clock_offset_ns. */
int sc_cluster_sync_clocks(struct sc_cluster *c);

/* After a barrier, rank 0 picks an instant lead_ns ahead on its clock;
 * returns that instant on this rank's CLOCK_MONOTONIC. */
uint64_t sc_cluster_common_start(struct sc_cluster *c, uint64_t lead_ns);

/* Waits for the local run to finish, running the first-done protocol:
 * when the first rank finishes, every rank notes that instant on its own
 * clock (*firstdone_at; 0 when no run finished, e.g. a stop) and how many
 * bytes it had moved by then (*firstdone_bytes), and with stonewall stops
 * its run.
 * When a rank's run stopped on on_error abort (sc_run_aborted), every
 * rank stops its run; so does a stop (signal).  When the run's step gate
 * is on (run.h), runs its rounds: each an agreement of every rank on
 * whether all go on, answered to the local job thread; the wait ends only
 * after a round said no (every rank runs the same rounds).  Ends with an agreement on
 * stops, as sc_cluster_all_ok.  On rank 0, a rank that is not done by the
 * deadline is named in c->late. */
int sc_cluster_wait_run(struct sc_cluster *c, struct sc_run *run, int stonewall,
			uint64_t *firstdone_bytes, uint64_t *firstdone_at);

void sc_cluster_set_tick(struct sc_cluster *c, const struct sc_cluster_tick *tick);

/* Bucket-wise sums of every rank's histograms local[0..n) into out[0..n)
 * at rank 0 (out's members may be NULL on other ranks), in one wait; n at
 * most 8. */
int sc_cluster_reduce_hists(struct sc_cluster *c, const struct sc_hist *const *local,
			    struct sc_hist *const *out, int n);

/* The same over this node's ranks, into out at the node's leader (local
 * rank 0; out's members may be NULL elsewhere). */
int sc_cluster_reduce_node_hists(struct sc_cluster *c, const struct sc_hist *const *local,
				 struct sc_hist *const *out, int n);

/* Gathers every rank's packed bytes at rank 0: *bufs[r], *lens[r]
 * (malloc'd; free with sc_cluster_free_gathered), in pieces of ranks
 * whose bytes add up to at most SC_GATHER_PIECE_MAX (a rank alone may
 * carry up to INT_MAX), so that no gather's int counts overflow and rank
 * 0 never holds more than a piece beside the rows.  0, or -EMSGSIZE (this
 * rank's bytes past INT_MAX: every rank must then abort). */
#define SC_GATHER_PIECE_MAX (64u << 20)
int sc_cluster_gather(struct sc_cluster *c, const uint8_t *buf, size_t len, uint8_t ***bufs,
		      size_t **lens);
void sc_cluster_free_gathered(struct sc_cluster *c, uint8_t **bufs, size_t *lens);

/* Sums every rank's per-second series (n seconds of mine) where they are
 * made: on each node's communicator into its leader, then across the
 * leaders into rank 0's *cluster (MPI_SUM on bytes and I/Os, MPI_MAX on
 * the maxima: sc_seconds_add's rules), every series padded to the longest
 * of any rank, whose length is returned on every rank.  cluster (heap
 * seconds; free with sc_series_exit) may be NULL off rank 0.  While
 * sc_series_kept(nnodes, length, SC_NODE_SERIES_MAX), rank 0 also gets
 * every node's series in *nodes (heap, c->nnodes, by node index, each as
 * long as its node's longest rank); else, and on other ranks, *nodes is
 * NULL.  Out of memory aborts every rank (a collective would hang
 * without this one). */
uint32_t sc_cluster_reduce_series(struct sc_cluster *c, const struct sc_second *mine, uint32_t n,
				  struct sc_series *cluster, struct sc_series **nodes);

/*
 * Deadlines.  Every wait on other ranks gives up at c->deadline_ns (rank 0)
 * or SC_CLUSTER_PEER_MARGIN_NS later (other ranks, so that rank 0, which
 * knows who is late, normally speaks first); with no deadline set, a wait
 * gives up SC_CLUSTER_WAIT_DEFAULT_NS after it began.  Rank 0 learns which
 * ranks have not reached a wait when its own gives up: it asks every rank
 * how far it got, and those that do not answer in time are named late.
 * Giving up sets c->lost and c->late and calls c->on_lost, which ends the
 * process; without one the rank aborts with exit code 1.  A rank that rank
 * 0 tells to end (sc_cluster_end_others) gives up at its next poll with
 * c->lost == -ECONNABORTED.
 *
 * Stops.  A SIGINT or SIGTERM caught by any rank (sc_interrupt) reaches
 * every other rank through rank 0 at their next poll; every wait polls, and
 * sc_cluster_wait_run stops the local run.  From the stop on, every wait
 * gives up SC_CLUSTER_STOP_GRACE_NS after the stop or its own start,
 * whichever is later (SC_CLUSTER_STOP_GRACE_KILL_NS when the launcher sent
 * the signal: it kills the process 1 s later), so a rank that died or
 * hangs cannot keep the others from saving what they have and removing
 * their files.  (sc_deadline_wait_end_ns, deadline.h, computes when a
 * wait gives up.)
 */
#define SC_CLUSTER_WAIT_DEFAULT_NS    (600 * SC_NS_PER_S)
#define SC_CLUSTER_PEER_MARGIN_NS     (10 * SC_NS_PER_S)
#define SC_CLUSTER_STOP_GRACE_NS      (5 * SC_NS_PER_S)
#define SC_CLUSTER_STOP_GRACE_KILL_NS (SC_NS_PER_S / 2)
/* The grace of a stop during the run's last steps (c->finishing): the
 * cleanup of many run files on a busy machine takes more than 5 s. */
#define SC_CLUSTER_STOP_GRACE_FINISH_NS (120 * SC_NS_PER_S)
/* After a stop, ranks other than 0 give up this much later than rank 0. */
#define SC_CLUSTER_STOP_PEER_MARGIN_NS (SC_NS_PER_S / 5)

/* Sets the instant (CLOCK_MONOTONIC, 0 = none) at which waits give up,
 * what the ranks are doing and how the deadline was set (for messages). */
void sc_cluster_set_deadline(struct sc_cluster *c, uint64_t deadline_ns, const char *doing,
			     const char *why);
void sc_cluster_set_lost(struct sc_cluster *c, const struct sc_cluster_lost *lost);

/* Looks for a stop: a signal caught here (sent on to every rank through
 * rank 0) or one another rank caught.  Returns c->stop_sig.  Main thread. */
int sc_cluster_poll(struct sc_cluster *c);

#endif
