/* cluster_priv.h -- what cluster.c and cluster_state.c share; no other
 * file includes it. */
#ifndef SC_CLUSTER_PRIV_H
#define SC_CLUSTER_PRIV_H

#include <mpi.h>

#include "cluster.h"

/* Notes the stop by sig (0: none) unless one is noted already: sets
 * c->stop_sig and c->stop_ns. */
void sc_cluster_note_stop(struct sc_cluster *c, int sig);

/* Adds rank r to c->late, the ranks a wait that gave up names (left out
 * when there is no memory for the list). */
void sc_cluster_add_late(struct sc_cluster *c, int r);

/* Waits for n non-blocking requests by testing them, until the deadline
 * (see cluster.c).  peer: the one rank waited for, or -1 for a collective;
 * quiet: nap between tests. */
void sc_cluster_wait_reqs(struct sc_cluster *c, MPI_Request *reqs, int n, int peer, int quiet);

/* The clock ping-pong's messages (cluster_clock.c); cluster.c's other
 * tags follow it. */
#define SC_TAG_CLOCK 101

/* One collective request, waited for quietly (sc_cluster_wait_reqs). */
void sc_cluster_wait_quietly(struct sc_cluster *c, MPI_Request *req);

/* A wait on other ranks passed its deadline (why: -ETIMEDOUT, or -EINTR
 * after a stop): names peer (>= 0) or, on rank 0 in a collective (-1),
 * the ranks that did not get as far, and ends the process (c->on_lost). */
void sc_cluster_give_up(struct sc_cluster *c, int peer, int why) __attribute__((noreturn));

/* The communicator of this node's ranks; of every node's leader (local
 * rank 0), MPI_COMM_NULL on other ranks: its rank i is node i's leader. */
MPI_Comm sc_cluster_node_comm(const struct sc_cluster *c);
MPI_Comm sc_cluster_leader_comm(const struct sc_cluster *c);

#endif
