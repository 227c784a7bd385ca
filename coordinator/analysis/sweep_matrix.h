/* sweep_matrix.h -- a sweep as a matrix: the cells an io or kvcache phase
 * with lists in rw, bs or iodepth expanded into (config/build.c: rw, then
 * bs, then iodepth varying fastest), each with its bandwidth, IOPS and
 * latency (mean, p99, p99.99 per direction) for the cluster and for every
 * node.  The figures are the phase figures of aggregate.h, taken as they
 * are: results.json, sweep.csv and the printed grid only format them.
 */
#ifndef SC_SWEEP_MATRIX_H
#define SC_SWEEP_MATRIX_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate.h"
#include "result.h"

/* The swept keys, in the order the cells vary (the last fastest). */
enum sc_sweep_axis { SC_SWEEP_RW = 0, SC_SWEEP_BS, SC_SWEEP_IODEPTH, SC_SWEEP_AXES };

/* Names of the axes as results.json spells them: "rw", "bs_bytes", "iodepth". */
extern const char *const sc_sweep_axis_names[SC_SWEEP_AXES];

/* One scope's figures of a cell (the cluster, or one node). */
struct sc_sweep_figures {
	double bw_bytes_per_s;			 /* last-done bandwidth (node: its own window) */
	double iops;				 /* reads and writes per second */
	struct sc_lat_summary lat[SC_DIR_COUNT]; /* service times; count 0: none */
};

struct sc_sweep_node {
	uint32_t node;
	char host[SC_HOST_MAX];
	struct sc_sweep_figures f;
};

struct sc_sweep_cell {
	uint32_t phase;		     /* index into plan.phases */
	uint32_t cell;		     /* its cell number in the sweep */
	uint64_t v[SC_SWEEP_AXES];   /* its rw (an enum sc_rw), bs_bytes, iodepth */
	uint32_t at[SC_SWEEP_AXES];  /* index of each value in its axis */
	bool measured;		     /* the run has the phase's record */
	enum sc_phase_status status; /* when measured */
	struct sc_sweep_figures cluster;
	uint32_t nnodes;
	struct sc_sweep_node *nodes; /* heap, by node index */
};

struct sc_sweep {
	const char *name; /* the group's (plan-owned) */
	uint32_t config_index;
	uint32_t naxis[SC_SWEEP_AXES];
	uint64_t *axis[SC_SWEEP_AXES]; /* heap: each axis's values in the order
					* of the cells (config order) */
	uint32_t ncells;	       /* the plan's cells of the sweep (all of
					* them in a plan built from a config) */
	struct sc_sweep_cell *cells;   /* heap, in expansion (plan) order */
};

struct sc_sweeps {
	const struct sc_plan *plan;
	uint32_t n;
	struct sc_sweep *s; /* heap, in plan order */
};

/* The sweeps of plan (io and kvcache groups of more than one cell), every
 * cell unmeasured; valid while the plan is.  0 or -ENOMEM (out then
 * empty). */
int sc_sweeps_init(struct sc_sweeps *out, const struct sc_plan *plan);

/* Records phase record pr (with its figures fig) in the cell it is, if it
 * is a sweep's.  0 or -ENOMEM. */
int sc_sweeps_add(struct sc_sweeps *s, const struct sc_phase_record *pr,
		  const struct sc_phase_figures *fig);

/* sc_sweeps_init and sc_sweeps_add for every phase record of rec, with
 * pf its figures (by index in rec->phases).  0 or -ENOMEM. */
int sc_sweeps_of(struct sc_sweeps *out, const struct sc_run_record *rec,
		 const struct sc_phase_figures *pf);

/* The sweep of group name, or NULL. */
const struct sc_sweep *sc_sweeps_find(const struct sc_sweeps *s, const char *name);

/* The cell of sw at the axis indexes at (NULL when sw has none there). */
const struct sc_sweep_cell *sc_sweep_cell_at(const struct sc_sweep *sw,
					     const uint32_t at[SC_SWEEP_AXES]);

void sc_sweeps_exit(struct sc_sweeps *s);

#endif
