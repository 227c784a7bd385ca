/* workload_figures.h -- what the workloads report beyond the io figures:
 * checkpoint durations, throughput and their trend, ingestion samples/s
 * and accelerator utilisation, open-loop response versus service time,
 * a fill phase's write cliffs (write_cliff.h) and verification counts.
 * Computed from phase records at rank 0 (and from results.pb alike); a
 * phase's are built once into the run's figures (sc_workload_figures,
 * figures.h). */
#ifndef SC_WORKLOAD_FIGURES_H
#define SC_WORKLOAD_FIGURES_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate.h"
#include "result.h"
#include "stages.h"
#include "write_cliff.h"

struct sc_workload_figures;

/* One checkpoint cell (write or restore). */
struct sc_ckpt_cell {
	uint32_t phase;             /* index into plan.phases */
	uint32_t index;             /* 1-based checkpoint */
	bool restore;
	uint64_t bytes;             /* moved by every rank */
	uint64_t files;
	int64_t duration_ns;        /* max over ranks of end - common start */
	uint64_t delete_ns;         /* keep_last: max over ranks of deleting
				     * the checkpoint no longer kept */
	double throughput_bytes_per_s; /* bytes / duration */
	uint32_t slowest_rank;
	uint32_t slowest_node;
	/* async: true (a write cell): over the ranks, the longest host copy
	 * (training blocked), drain (the writes after it) and stall (drain
	 * past the training beside it), how many ranks stalled, and the
	 * slowest rank's copy rate (its bytes / its copy; 0: none copied) */
	bool async;
	uint64_t blocking_ns, drain_ns, stall_ns;
	uint32_t ranks_stalled;
	double host_copy_bytes_per_s;
	uint32_t cache_drop;	   /* SC_CACHE_DROP_* bits every rank did */
	uint32_t cache_drop_any;   /* bits at least one rank did */
	uint64_t cache_drop_files; /* files posix_fadvise dropped, all ranks */
	uint32_t ranks;		   /* ranks in the cell */
};

/* Durations of a series of cells (the writes, or the restores). */
struct sc_ckpt_trend {
	uint32_t n;
	double mean_ns, p50_ns, max_ns;
	double slope_ns_per_ckpt;   /* least-squares slope of duration vs index */
	double intercept_ns;        /* that line's duration at index 0 */
	double last_first_ratio;    /* last duration / first; NAN (undefined)
				     * when n < 2 or the first is 0 */
	double throughput_bytes_per_s; /* all bytes / all durations */
};

/* Each node's durations in the cells of a checkpoint group: the max over
 * the node's ranks of end - common start, as a cell's duration is over
 * all ranks. */
struct sc_ckpt_node_durations {
	uint32_t ncells;      /* the group's */
	uint32_t nnodes;      /* 1 + the highest node index in the cells */
	char (*host)[SC_HOST_MAX]; /* heap, nnodes: each node's host; "" for
			       * a node in no cell */
	int64_t *duration_ns; /* heap, ncells x nnodes, by cell then node;
			       * -1 where the node had no rank in the cell */
};

/* A drive's share of one checkpoint cell. */
struct sc_ckpt_drive_cell {
	uint64_t bytes;       /* its ranks moved in the cell's direction */
	uint64_t dur_ns;      /* the slowest of them: end - measured start,
			       * fsync included */
};

/* A drive's cells of one direction (writes, or restores), in cell order:
 * those in which it moved bytes and its slowest rank ended after the
 * measured start. */
struct sc_ckpt_drive_series {
	uint32_t n, cap;
	struct sc_ckpt_drive_cell *cells; /* heap, n (room for cap) */
};

/* A drive of a checkpoint group, the model's measured drive
 * (model/model_inputs.c): one target on one node, or one rank when the
 * cell's engine is emulated (one emulated drive per rank).  Holds no
 * pointer into the record. */
struct sc_ckpt_drive {
	uint32_t node;
	uint32_t id;                /* target index, or rank when per_rank */
	bool per_rank;
	struct sc_ckpt_drive_series write, restore;
};

/* A procedure: mlperf group in MLPerf Storage's terms, as DLIO's
 * statscounter reports a run: each checkpoint's duration (here the
 * cell's: max over ranks from the common start, fsync included) and
 * throughput (its bytes / duration), then the mean and the population
 * standard deviation (numpy's std) over the checkpoints of each kind. */
struct sc_ckpt_mlperf {
	bool on;	       /* the group's procedure is mlperf */
	uint32_t nsave, nload; /* write and restore cells counted */
	double save_mean_s, save_stdev_s;
	double load_mean_s, load_stdev_s;
	double save_GBps, load_GBps;   /* mean of bytes / 1e9 / duration */
	double save_GiBps, load_GiBps; /* mean of bytes / 2^30 / duration
					* (DLIO's unit, though it prints GB) */
	uint32_t ranks;		       /* ranks that ran */
	uint64_t layout_ranks;	       /* tp x pp x dp: more than ranks in
					* MLPerf's subset mode (the first ranks
					* of the layout run) */
	double size_GiB;	       /* one checkpoint as written / 2^30 */
	double full_size_GiB;	       /* at scale 1 */
	uint32_t cache_drop;	       /* SC_CACHE_DROP_* bits every rank did
					* before the first restore */
	uint32_t cache_drop_any;       /* bits at least one rank did */
	uint64_t cache_drop_files;     /* files posix_fadvise dropped */
};

/* "drop_caches" (every rank wrote /proc/sys/vm/drop_caches), "fadvise"
 * (not all could: the files were dropped one by one) or "none". */
const char *sc_ckpt_cache_drop_name(const struct sc_ckpt_mlperf *m);

/* A checkpoint group: the cells of one config phase. */
struct sc_ckpt_group {
	const char *name;           /* the group's name (plan-owned) */
	uint32_t first_phase;       /* a phase of the group, for its spec */
	uint32_t ncells;
	struct sc_ckpt_cell *cells; /* heap, in phase order */
	struct sc_ckpt_trend write, restore;
	uint64_t full_size_bytes;   /* one checkpoint at scale 1 */
	double projected_write_ns;  /* full size / measured write throughput */
	double projected_restore_ns;
	struct sc_ckpt_mlperf mlperf;	     /* procedure: mlperf only (.on) */
	struct sc_ckpt_node_durations nodes; /* each node's, by cell */
	uint32_t ndrives;
	struct sc_ckpt_drive *drives; /* heap, ndrives: every drive of the
				       * group's cells (restores' too), by
				       * node, then targets before ranks,
				       * then id */
};

/* The cell of checkpoint phase pr of plan: its bytes and files, its
 * duration from the common start (fsync included) and throughput, its
 * slowest rank. */
void sc_ckpt_cell_figures(const struct sc_plan *plan, const struct sc_phase_record *pr,
			  struct sc_ckpt_cell *c);

/* Adds phase record pr of plan (its workload figures w) to the groups
 * (*groups, *ngroups: NULL and 0, or built by these calls from the run's
 * earlier phases, in order) when it is a checkpoint cell that ended ok:
 * its cell, its nodes' durations, its drives' shares, its group's trends
 * and projections again: the groups of the phases so far, the new phase
 * costing its ranks and its group's cells and drives alone.  The groups
 * hold no pointer into pr's rank rows.  0 or -ENOMEM (free the groups:
 * they may hold part of the cell). */
int sc_ckpt_groups_add(struct sc_ckpt_group **groups, uint32_t *ngroups,
		       const struct sc_plan *plan, const struct sc_phase_record *pr,
		       const struct sc_workload_figures *w);
void sc_ckpt_groups_free(struct sc_ckpt_group *groups, uint32_t ngroups);

/* Ingestion figures of one phase. */
struct sc_ingest_figures {
	uint64_t samples, steps;
	double samples_per_s;       /* samples / last-done window */
	uint64_t compute_ns;        /* over all ranks */
	uint64_t wall_ns;           /* over all ranks: end - start each */
	double au;                  /* accelerator utilisation: compute / wall */
	double au_min;              /* the lowest rank's */
	uint32_t au_min_rank;
	bool au_meets_90;           /* every rank's AU >= 90% (MLPerf's bar) */
	bool has_batch_wait;        /* the record has a batch-wait histogram */
	struct sc_lat_summary batch_wait; /* time a step waited for its batch */
	uint64_t barrier_wait_ns;   /* step_barrier: time the ranks' consumers
				     * waited at the barrier, over all ranks
				     * (in wall_ns, not in compute_ns) */
	uint64_t barrier_wait_max_ns; /* the longest rank's */
	uint32_t barrier_wait_max_rank;
};

/* Accelerator utilisation of one rank: its compute time / its wall time
 * (end - start); 0 when it has no wall time. */
double sc_rank_au(const struct sc_rank_result *r);

/* The ingestion figures of phase rec, whose cluster figures are fig. */
void sc_ingest_figures(const struct sc_phase_record *rec, const struct sc_phase_figures *fig,
		       struct sc_ingest_figures *out);

/* Training figures, MLPerf Storage's (DLIO's statscounter) beside ours.
 * An accelerator's AU is its compute over its wall time, each epoch's
 * first step left out of both (result.h struct sc_accel_row; a rank of a
 * record without rows is one accelerator, its au_*); the run's is their
 * mean over accelerators, a host's the mean over its accelerators. */
struct sc_training_figures {
	uint32_t accelerators;      /* that ran it, over every rank */
	uint32_t hosts;             /* nodes they ran on */
	uint32_t per_host;          /* accelerators on each host (the same on
				     * every host: the rules'; the first's) */
	uint64_t samples, steps;
	bool au_measured;           /* some accelerator had AU steps (an epoch
				     * of one step has none: its first is left
				     * out) */
	double au;                  /* mean over accelerators */
	double au_min, au_max;
	uint32_t au_min_rank;       /* the rank of the lowest accelerator */
	uint32_t au_min_accel;      /* that accelerator, in the run */
	double au_threshold;        /* the plan's, (0, 1] */
	bool au_meets;              /* au >= au_threshold (MLPerf's test) */
	uint32_t accels_below;      /* accelerators whose own AU is below it */
	/* per host (sc_workload_figures node_au, set with it) */
	bool hosts_measured;        /* the per-host figures below were computed */
	double host_au_min;         /* the lowest host's mean AU */
	uint32_t host_au_min_node;
	uint32_t hosts_below;       /* hosts whose mean AU is below the threshold */
	uint64_t data_per_host_bytes; /* the first host's share of the dataset:
				     * its accelerators x each one's block x
				     * the mean sample (DLIO's data_size_per_host) */
	uint32_t hosts_caching;     /* hosts whose share fits in their memory,
				     * read buffered (node_caching) */
	double samples_per_s;       /* sum over accelerators: AU steps x batch /
				     * AU wall */
	double sample_bytes;	    /* bytes moved per sample: the phase's bytes
				     * (all read) / its samples; 0 when none; the
				     * divisor of samples/s over time
				     * (sc_training_samples_per_s) */
	double mlperf_io_MiBps;     /* samples_per_s x record_bytes / MiB, as
				     * DLIO's train_io_mean_MB_per_second */
	bool has_batch_wait;
	struct sc_lat_summary batch_wait; /* time a step waited for its batch */
};

/* Accelerator a (< sc_rank_accels(r)) of training rank r: its row, or
 * for a record without rows the rank's own figures as one. */
struct sc_accel_row sc_rank_accel(const struct sc_rank_result *r, uint32_t a);

/* The accelerators of training rank r (1 in a record without rows). */
uint32_t sc_rank_accels(const struct sc_rank_result *r);

/* AU of accelerator row x (0 when it has no AU wall time). */
double sc_accel_au(const struct sc_accel_row *x);

/* AU of one training rank (0 when it has no AU wall time). */
double sc_rank_training_au(const struct sc_rank_result *r);

/* True when au (a rank's, a node's, the run's) is below g's threshold:
 * the one test every count and mark of "below" uses. */
bool sc_training_au_below(const struct sc_training_figures *g, double au);

/* Samples per second over time of a training phase (figures g): each of
 * the n rates bytes_per_s (a series of node_series.h, reads + writes) /
 * g->sample_bytes, into out; NAN each when g->sample_bytes is 0.  The
 * series count bytes as each read completes and a sample when its last
 * read does: a point is the samples whose bytes that second read. */
void sc_training_samples_per_s(const struct sc_training_figures *g, const double *bytes_per_s,
			       uint32_t n, double *out);

/* The training figures of phase rec (of plan phase ph). */
void sc_training_figures(const struct sc_phase *ph, const struct sc_phase_record *rec,
			 const struct sc_phase_figures *fig, struct sc_training_figures *out);

/* Open-loop figures: response time (from each I/O's intended start) next
 * to the service time of the cluster figures. */
struct sc_open_loop_figures {
	bool has_resp[SC_DIR_COUNT]; /* the record has that direction's histogram */
	struct sc_lat_summary resp[SC_DIR_COUNT];
	struct sc_lat_summary resp_all; /* both directions merged */
	uint64_t late_ios;          /* started after their intended start */
	uint64_t unissued_ios;      /* due before the phase ended, never started */
};

/* The open-loop figures of rec.  0 or -ENOMEM. */
int sc_open_loop_figures(const struct sc_phase_record *rec, struct sc_open_loop_figures *out);

/* Verification figures of one phase (verify: crc32c; zero otherwise). */
struct sc_verify_figures {
	uint64_t checked;           /* blocks read and checked, all ranks */
	uint64_t mismatches;        /* of them, blocks that failed a check */
	uint32_t ranks_with_mismatches;
	uint32_t listed;            /* mismatches kept in detail, all ranks */
};

void sc_verify_figures(const struct sc_phase_record *rec, struct sc_verify_figures *out);

/* The i-th mismatch kept in detail over the ranks in rank order (i <
 * listed), and in *rank its rank's row; NULL past the end. */
const struct sc_verify_mismatch *sc_verify_listed(const struct sc_phase_record *rec, uint32_t i,
						  const struct sc_rank_result **rank);

/* What a recorded phase's workload adds to its cluster figures, and its
 * stage row, built once with them (figures.h). */
struct sc_workload_figures {
	struct sc_ckpt_cell ckpt;	       /* a checkpoint phase's cell; zero for any
						* other */
	struct sc_ingest_figures ingest;       /* an ingest phase's; zero for any other */
	struct sc_training_figures training;   /* a training phase's; zero for any other */
	double *rank_au;		       /* heap, an ingest or training phase's: each
						* rank's AU (sc_rank_au, sc_rank_training_au)
						* in the record's order; NULL for any other */
	double *accel_au;		       /* heap, a training phase's: each accelerator's
						* AU (sc_accel_au), ranks in the record's
						* order, each rank's rows in order
						* (training.accelerators of them); NULL for
						* any other */
	bool *node_caching;		       /* heap, a training phase's: node row k's
						* potential caching (DLIO's): its share of
						* the dataset fits in its memory and the
						* reads are buffered; NULL for any other */
	double *node_au;		       /* heap, a training phase's: node row k's AU
						* (fig->nodes[k], nodes_len of them), the
						* mean of its accelerators' AU as the run's
						* is of every accelerator's; NAN for a row
						* with none; NULL for any other */
	struct sc_open_loop_figures open_loop; /* every phase's (has_resp false, resp_all
						* empty: no response times recorded) */
	struct sc_fill_cliffs cliffs;	       /* a fill phase's write cliffs; zero (no
						* ranks) for any other */
	struct sc_verify_figures verify;       /* every phase's (zero without verify) */
	struct sc_stage_row stage;	       /* its row of the stages side by side
						* (stages.h); zero for a phase beyond
						* the plan */
};

/* The workload figures of phase pr of plan, whose cluster figures are fig.
 * 0 or -ENOMEM (out then empty). */
int sc_workload_figures_of(const struct sc_plan *plan, const struct sc_phase_record *pr,
			   const struct sc_phase_figures *fig, struct sc_workload_figures *out);
void sc_workload_figures_exit(struct sc_workload_figures *w);

#endif
