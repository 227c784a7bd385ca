/* cluster_priv.h -- what cluster.c and cluster_state.c share; no other
 * file includes it. */
#ifndef SC_CLUSTER_PRIV_H
#define SC_CLUSTER_PRIV_H

#include "cluster.h"

/* Notes the stop by sig (0: none) unless one is noted already: sets
 * c->stop_sig and c->stop_ns. */
void sc_cluster_note_stop(struct sc_cluster *c, int sig);

/* Adds rank r to c->late, the ranks a wait that gave up names (left out
 * when there is no memory for the list). */
void sc_cluster_add_late(struct sc_cluster *c, int r);

#endif
