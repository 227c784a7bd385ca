/* training_groups.h -- a training phase's cells taken together: a search's
 * trials and its answer (search: accelerators), or runs' warm-ups and
 * measured runs with their mean and spread (runs: W+M).  Built once per
 * record as its cells come (sc_run_figures), for every formatter. */
#ifndef SC_TRAINING_GROUPS_H
#define SC_TRAINING_GROUPS_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "result.h"
#include "workload_figures.h"

/* Most cells a training group holds: runs' W + M (config key_table.h). */
#define SC_TRAINING_CELLS_MAX 200u

/* One cell: a trial, a warm-up or a measured run. */
struct sc_training_cell {
	uint32_t rec_phase;     /* its index in the record */
	uint32_t per_rank;      /* accelerators each rank ran */
	uint32_t per_host;      /* accelerators on each host */
	uint32_t accelerators;
	bool measured;          /* AU had steps */
	bool pass;              /* measured, and every host's AU >= threshold */
	bool warmup;            /* runs: a warm-up, out of the mean */
	double au;              /* mean over accelerators */
	double host_au_min;     /* the lowest host's */
	double samples_per_s;
	double io_MiBps;
};

/* A spread: mean, sample standard deviation, least and most. */
struct sc_training_spread {
	double mean, stdev, min, max;
};

struct sc_training_group {
	uint32_t config_index;
	const char *name;       /* the config phase's (the plan's group) */
	bool search;            /* else runs */
	double au_threshold;
	uint32_t ncells;        /* recorded so far */
	struct sc_training_cell cells[SC_TRAINING_CELLS_MAX];
	/* search: accelerators */
	uint32_t search_max;    /* per rank */
	bool done;              /* the answer is known */
	uint32_t next_per_rank; /* not done: the next trial's */
	uint32_t answer_per_rank; /* done: the most that passed (0: even one
				   * failed; search_max: the most tried passed) */
	uint32_t answer_per_host;
	/* runs: W+M */
	uint32_t warmups, runs; /* planned */
	uint32_t measured;      /* measured runs recorded */
	uint32_t runs_failed;   /* of them, runs whose AU is below the threshold */
	struct sc_training_spread au, samples_per_s, io_MiBps; /* over measured runs */
	bool meets;             /* mean AU >= threshold (MLPerf's result) */
};

/* Adds phase record pr (the record's rec_index-th; its training figures
 * tf) to the group of its
 * config phase in *groups (*n of them), when it is a search trial or a
 * run of runs: W+M.  0 or -ENOMEM (the groups as they were). */
int sc_training_groups_add(struct sc_training_group **groups, uint32_t *n,
			   const struct sc_plan *plan, const struct sc_phase_record *pr,
			   uint32_t rec_index, const struct sc_training_figures *tf);

/* The group of config phase config_index, or NULL. */
const struct sc_training_group *sc_training_group_find(const struct sc_training_group *groups,
						       uint32_t n, uint32_t config_index);

void sc_training_groups_free(struct sc_training_group *groups, uint32_t n);

#endif
