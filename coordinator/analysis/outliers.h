/* outliers.h -- drives and nodes whose figures lie far from their peers',
 * found without any threshold.
 *
 * For each finished phase, each drive's (rank's) bandwidth and IOPS are
 * compared with the other drives' of that phase, and each node's with the
 * other nodes': a value more than k median absolute deviations (MAD) from
 * the median of its peers is flagged, low or high.  The MAD is floored at
 * mad_floor x the median, so that among identical drives (a MAD near 0) a
 * tiny difference is never flagged: with the defaults a drive is flagged
 * only when it differs from the median by more than 3.5 x 5% = 17.5%.
 * Fewer than SC_OUTLIER_MIN_PEERS drives (or nodes) give no verdict; a
 * median of 0 flags nothing; with no floor (mad_floor 0: the API only, a
 * config's is above 0) a MAD of 0 flags every value not equal to the
 * median.  Figures come from aggregate.c.
 */
#ifndef SC_OUTLIERS_H
#define SC_OUTLIERS_H

#include <stdbool.h>
#include <stdint.h>

#include "result.h"
#include "verdict.h"

#define SC_OUTLIER_K_DEFAULT	     3.5
#define SC_OUTLIER_MAD_FLOOR_DEFAULT 0.05 /* of the median */
#define SC_OUTLIER_MIN_PEERS	     3u	  /* drives or nodes needed to judge */

/* What an outlier's figure is. */
enum sc_outlier_figure {
	SC_OUTLIER_BW = 0, /* bytes per second */
	SC_OUTLIER_IOPS,   /* I/Os per second */
};

struct sc_outlier {
	uint32_t phase;		/* index into plan.phases */
	const char *phase_name; /* plan-owned */
	enum sc_outlier_figure figure;
	struct sc_where at; /* SC_SCOPE_NODE or SC_SCOPE_DRIVE */
	double value;	    /* its figure */
	double median;	    /* its peers' (all drives or nodes of the phase) */
	double mad;	    /* the MAD used, after the floor */
	double deviations;  /* (value - median) / mad: below 0 is low */
	uint32_t peers;	    /* drives or nodes compared */
};

struct sc_outliers {
	double k, mad_floor; /* as used */
	uint32_t judged;     /* comparisons made: (phase, figure, scope) with
			      * at least SC_OUTLIER_MIN_PEERS */
	uint32_t n, cap;
	struct sc_outlier *v; /* heap, by phase, figure, scope, rank/node */
	struct sc_names names; /* their hosts, devices and serials */
};

/* The outliers of every finished phase of rec, from pf (its phases'
 * figures, by index in rec->phases), with the plan's k and mad_floor (0:
 * the defaults).  0 or -ENOMEM; free with sc_outliers_exit.  Points into
 * rec's plan (phase names): valid while it is; hosts, devices and serials
 * are its own copies. */
int sc_outliers_of_run(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		       struct sc_outliers *out);
void sc_outliers_exit(struct sc_outliers *o);

/* No outliers yet, with plan's k and mad_floor (0: the defaults). */
void sc_outliers_init(struct sc_outliers *o, const struct sc_plan *plan);

/* Adds the outliers of phase record pr of rec (its figures fig) to o
 * (sc_outliers_init, then these calls for rec's earlier phases, in
 * order): what sc_outliers_of_run gives for the phases so far, the new
 * phase costing its ranks alone.  0 or -ENOMEM (o then holds part of the
 * phase's). */
int sc_outliers_add(struct sc_outliers *o, const struct sc_run_record *rec,
		    const struct sc_phase_record *pr, const struct sc_phase_figures *fig);

/* The indices among values[0..n) more than k MADs (floored at mad_floor x
 * median) from their median, into flagged (room for n), their count
 * returned; the median and the MAD used in *median and *mad.  n below
 * SC_OUTLIER_MIN_PEERS: 0.  -ENOMEM when out of memory. */
int sc_outliers_flag(const double *values, uint32_t n, double k, double mad_floor,
		     uint32_t *flagged, double *median, double *mad);

const char *sc_outlier_figure_name(enum sc_outlier_figure f);

#endif
