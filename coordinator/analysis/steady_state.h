/* steady_state.h -- steady state as SNIA PTS defines it (../shared/DESIGN.md
 * "Definitions"): the detector on a series of per-round figures, and the
 * result of a steady-state group (config steady_state:) from a run
 * record, per drive and for the cluster.
 *
 * A window of w rounds is steady when max - min <= 20% of its mean and
 * |slope x (w - 1)| <= 10% of its mean, slope being that of the
 * least-squares line through (round index, figure).  A window whose mean
 * is not positive (no I/O) is never steady.  Everything here is computed
 * from the record alone, so `ssdcluster report results.pb` gives the same
 * result as the run did. */
#ifndef SC_STEADY_STATE_H
#define SC_STEADY_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "result.h"

struct sc_phase_figures;

#define SC_STEADY_RANGE_PCT 20.0 /* largest max - min, % of the mean */
#define SC_STEADY_SLOPE_PCT 10.0 /* largest |slope x (w - 1)|, % of the mean */

/* One window of a series. */
struct sc_steady_window {
	uint32_t first_round, last_round; /* 1-based, inclusive; 0, 0: none */
	double mean, min, max;
	double range;	  /* max - min */
	double range_pct; /* range / mean x 100 */
	double slope;	  /* per round */
	double slope_pct; /* |slope x (rounds - 1)| / mean x 100 */
	bool steady;
};

/* The window of the `window` values v[end - window .. end - 1] (rounds
 * end - window + 1 .. end).  0, or -EINVAL when window < 2 or end <
 * window (then *out says nothing steady). */
int sc_steady_window(const double *v, uint32_t end, uint32_t window, struct sc_steady_window *out);

/* The first round r (1-based) whose window (ending at r) is steady, or 0
 * when no window of the n values is. */
uint32_t sc_steady_first(const double *v, uint32_t n, uint32_t window);

/* One drive (a rank's row: each rank drives one drive), or the cluster. */
struct sc_steady_series {
	uint32_t rank, node, target; /* a drive's; the cluster's are 0 */
	char host[SC_HOST_MAX];
	double *values;		     /* heap: the figure of each round run */
	uint32_t first_round;	     /* first round whose window was steady; 0: never */
	bool steady;		     /* steady in the group's final window */
	struct sc_steady_window win; /* the final window (steady false and
				      * rounds 0 when fewer rounds than window) */
};

/* A steady-state group: every round of config phase config_index in the
 * record, in order. */
struct sc_steady_group {
	uint32_t config_index;
	const char *name; /* the group's name, in the record's plan */
	enum sc_steady_metric metric;
	uint32_t window, max_rounds;
	uint64_t round_ns;
	uint32_t rounds; /* rounds run (in the record) */
	uint32_t cap;	 /* room in each series' values */
	bool steady;	 /* every drive steady in one window ... */
	uint32_t round;	 /* ... ending at this round (0: never); the
			  * final window ends here, else at the last
			  * round run */
	uint32_t ndrives;
	struct sc_steady_series *drives; /* heap, by rank */
	uint32_t nunsteady;		 /* drives not steady in the final window */
	struct sc_steady_series cluster; /* the cluster's figure per round */
};

/* The figure round record pr (its figures fig, from
 * analysis/aggregate.h) gives for each of its first nranks rank rows
 * (into ranks) and for the cluster (*cluster): I/Os per second and bytes
 * per second over the measured time, or the mean service time in ns.  NAN
 * when the round has no such row.  0. */
int sc_steady_round_values(const struct sc_phase_record *pr, const struct sc_phase_figures *fig,
			   enum sc_steady_metric m, double *ranks, uint32_t nranks, double *cluster);

/* For the verdict: whether the group of config phase config_index reached
 * steady state, per drive (g->drives[i].steady, its rank, node, host and
 * target beside it) and for the cluster (g->cluster.steady), with the
 * figures of the final window, from pf (the figures of every phase of
 * rec, by index in rec->phases).  Fills *g (free with sc_steady_group_exit).
 * 0; -ENOENT when that config phase has no steady-state round in rec (no
 * steady_state, or none of its rounds ran); -ENOMEM. */
int sc_steady_group_of(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		       uint32_t config_index, struct sc_steady_group *g);
void sc_steady_group_exit(struct sc_steady_group *g);

/* Adds record phase pr (its figures fig) to the groups (*groups, heap,
 * *n of them, in the order their first rounds came) when it is a round of
 * one: a group is begun with its first round, its drives' identities
 * copied from that round's rows, so the groups never point into the
 * record; each round appends its figures and judges the group again on
 * the rounds so far.  Rounds come in record order.  0 or -ENOMEM (the
 * groups as they were). */
int sc_steady_groups_add(struct sc_steady_group **groups, uint32_t *n, const struct sc_plan *plan,
			 const struct sc_phase_record *pr, const struct sc_phase_figures *fig);

/* Every steady-state group with a round in rec (pf as for
 * sc_steady_group_of), by config index, into
 * *out (heap, *n of them; free with sc_steady_groups_free).  0 or
 * -ENOMEM. */
int sc_steady_groups(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		     struct sc_steady_group **out, uint32_t *n);
void sc_steady_groups_free(struct sc_steady_group *g, uint32_t n);

#endif
