/* cluster_state.c -- the part of the cluster module that needs no MPI:
 * the hooks and deadline the phase sets, the stop this rank learned of,
 * and the late ranks a wait that gave up names.  (cluster.c holds every
 * MPI call.) */
#include "cluster.h"
#include "cluster_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sc_cluster_set_deadline(struct sc_cluster *c, uint64_t deadline_ns, const char *doing,
			     const char *why)
{
	c->deadline_ns = deadline_ns;
	snprintf(c->doing, sizeof(c->doing), "%s", doing ? doing : "");
	snprintf(c->deadline_why, sizeof(c->deadline_why), "%s", why ? why : "");
}

void sc_cluster_set_lost(struct sc_cluster *c, const struct sc_cluster_lost *lost)
{
	if (lost)
		c->on_lost = *lost;
	else
		memset(&c->on_lost, 0, sizeof(c->on_lost));
}

void sc_cluster_set_tick(struct sc_cluster *c, const struct sc_cluster_tick *tick)
{
	if (tick)
		c->tick = *tick;
	else
		memset(&c->tick, 0, sizeof(c->tick));
}

void sc_cluster_note_stop(struct sc_cluster *c, int sig)
{
	if (c->stop_sig || !sig)
		return;
	c->stop_sig = sig;
	c->stop_ns = sc_now_ns();
}

void sc_cluster_add_late(struct sc_cluster *c, int r)
{
	if (!c->late)
		c->late = calloc((size_t)c->nranks, sizeof(*c->late));
	if (c->late)
		c->late[c->nlate++] = r;
}
