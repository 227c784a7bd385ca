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

/* The communicator of this node's ranks; of every node's leader (local
 * rank 0), MPI_COMM_NULL on other ranks: its rank i is node i's leader. */
MPI_Comm sc_cluster_node_comm(const struct sc_cluster *c);
MPI_Comm sc_cluster_leader_comm(const struct sc_cluster *c);

#endif
