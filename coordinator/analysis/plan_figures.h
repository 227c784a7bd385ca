/* plan_figures.h -- what a plan will do before it runs: the bytes each rank
 * and each phase plans to move, how long a timed phase lasts, and what
 * each target must hold on each node.  --dry-run formats these. */
#ifndef SC_PLAN_FIGURES_H
#define SC_PLAN_FIGURES_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "mlperf.h"
#include "plan.h"

/* A rank as --dry-run places it: its host, node, target and slot, and
 * what its target holds there. */
struct sc_dry_rank {
	const char *host;
	uint32_t node;
	struct sc_place place;
	uint64_t avail_bytes;       /* free space of a directory, size of a
				     * file or device, at most the capacity;
				     * 0 when not known */
};

/* Bytes planned to be read and written (0 and 0 for a time-based phase). */
struct sc_planned_bytes {
	uint64_t read_bytes;
	uint64_t write_bytes;
};

/* The ranks of one node on one target, and the space they need there. */
struct sc_plan_slot {
	uint32_t target;            /* index into plan.targets */
	uint32_t node;
	const char *host;           /* host of the node's lowest rank, "" when
				     * unknown; owned by the dry-run ranks */
	uint32_t nranks;
	uint64_t need_bytes;
	uint64_t avail_bytes;       /* least any of its ranks found there; 0
				     * when none knows */
	bool fits;                  /* need <= capacity and <= avail (each
				     * when known, not 0) */
};

struct sc_plan_figures {
	uint32_t nnodes;
	uint32_t *nodes;            /* heap: distinct node indices, increasing */
	uint32_t nphases;
	struct sc_planned_bytes *rank_bytes;  /* heap: [rank i * nphases + phase] */
	struct sc_planned_bytes *phase_bytes; /* heap: [phase], summed over ranks */
	uint32_t nslots;
	struct sc_plan_slot *slots; /* heap: by target, then node; pairs without
				     * ranks left out */
};

/* Computes the figures of plan placed as ranks[0..nranks).  0 or -ENOMEM. */
int sc_plan_figures(const struct sc_plan *plan, const struct sc_dry_rank *ranks, uint32_t nranks,
		    struct sc_plan_figures *out);
void sc_plan_figures_exit(struct sc_plan_figures *f);

/* What a training phase's plan says (worker/mlperf.h), for the dry run and
 * the plan echo. */
struct sc_training_plan_figures {
	bool pair;		      /* benchmark and accelerator name a v3.0
				       * workload file */
	enum sc_mlperf_status status; /* that file's, with pair */
	char changed[160];	      /* with pair: the config keys whose values
				       * differ from the file's ("batch, epochs");
				       * "" when none */
	uint64_t mean_file_bytes;     /* sc_mlperf_mean_file_bytes */
	uint64_t dataset_bytes;	      /* files x that (saturating) */
	uint64_t steps_per_epoch;     /* each accelerator's */
	uint64_t samples_read;	      /* of an epoch, every accelerator:
				       * steps x batch x accelerators */
	uint32_t most_accelerators;   /* the most that run it: a search's largest
				       * trial's, else t->accelerators */
	uint64_t min_files;	      /* the rules' minimum (at most_accelerators);
				       * 0 when the clients'
				       * memory is not known */
	uint64_t files_short;	      /* min_files - files when below it, else 0 */
};

/* The figures of training phase ph (its spec resolved by the ranks). */
void sc_training_plan_figures(const struct sc_phase *ph, struct sc_training_plan_figures *out);

/* How long a timed phase of io is expected to last: ramp + runtime; 0 for
 * a phase that ends after a byte count. */
uint64_t sc_phase_expected_ns(const struct sc_io_spec *io);

#endif
