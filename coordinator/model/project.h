/* project.h -- the cluster model end to end: from what a run measured (or
 * per-drive figures stated by hand) and the cluster's parameters to the
 * projected figures at each cluster size, each naming what it rests on.
 *
 * Three parts, three homes:
 *   params.c     sc_model_params_default / sc_model_params_set: the
 *                parameters from key=value text, one parser shared by the
 *                command line (--node-mtbf 50000h) and a config's
 *                model: section (node_mtbf: 50000h);
 *   model/model_inputs.c     sc_model_measured_from_record: the measured
 *                inputs out of a run record (results.pb);
 *   project.c    sc_model_project: the figures at every size.
 * report/projection.c formats a projection (text table, JSON); it computes
 * nothing.  No MPI, no I/O on targets.
 */
#ifndef SC_MODEL_PROJECT_H
#define SC_MODEL_PROJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ckpt_model.h"
#include "model.h"

struct sc_run_figures;

struct sc_hist;
struct sc_run_record;

/* Cluster sizes one projection holds at most. */
#define SC_MODEL_MAX_SIZES 32u
/* Longest text of one basis line (inputs or assumptions), NUL included. */
#define SC_MODEL_TEXT_MAX 1024u

/* ---- parameters ---------------------------------------------------- */

struct sc_model_params {
	uint32_t nsizes;
	uint32_t nodes[SC_MODEL_MAX_SIZES]; /* N, strictly increasing, >= 1;
					     * default 8,64,512,4096 */
	uint32_t gpus_per_node;		    /* accelerators (ranks of the
					     * layout) per node; default 8 */
	uint32_t drives_per_node;	    /* D; 0 = as measured (1 when
					     * parameters only) */
	uint64_t node_mtbf_ns;		    /* default 50000 h */
	uint64_t restart_ns;		    /* R after a failure, to which the
					     * projected restore is added when
					     * there is one; default 10 min */
	double overhead_target;		    /* largest 1 - goodput, in (0, 1);
					     * default 0.05 */
	double dwpd;			    /* rated drive writes per day; 1 */
	double warranty_years;		    /* the rating's term; 5 */
	uint64_t drive_capacity_bytes;	    /* 30.72 TB */
	uint32_t max_drives_per_node;	    /* sizing search bound; 64 */
	/* The checkpoint at full size: a catalogue model and a layout.
	 * "" / 0 = the measured run's (its first checkpoint group); with
	 * parameters only, llama3.1-405b and its MLPerf layout.  A model
	 * other than the run's brings its MLPerf layout: tp, pp and zero
	 * not given are that layout's, not the run's. */
	char model[SC_CKPT_MODEL_NAME_MAX];
	uint32_t tp, pp;		    /* 0 = the run's */
	int32_t zero_stage;		    /* -1 = the run's */
	int32_t layout;			    /* enum sc_ckpt_layout_kind; -1 = the run's */
	uint32_t keep_last;		    /* checkpoints kept; 0 = the run's (none) */
	double scale;			    /* fraction of the real bytes the
					     * projected checkpoint has, (0, 1];
					     * default 1 (full size).  Below 1
					     * only to check the model against a
					     * scaled run of N ranks. */
	/* Stated per-drive figures: with no results file they are the
	 * drive; with one they are left 0 (measured figures are used). */
	double drive_write_bytes_per_s;
	double drive_read_bytes_per_s;
	uint64_t seed;			    /* default 1 */
	uint32_t trials;		    /* 0 = SC_MODEL_TRIALS_DEFAULT */
	bool json;			    /* the command prints JSON */
	bool restart_given;		    /* restart was set (else the
					     * default), for the Basis */
};

/* The defaults above. */
void sc_model_params_default(struct sc_model_params *p);

/* Sets one parameter from text.  Keys (the command line spells them with
 * "--" and "-" for "_"): nodes ("8,64,512,4096"), gpus_per_node,
 * drives_per_node, node_mtbf (duration, "50000h"), restart (duration),
 * overhead_target ("5%" or "0.05"), dwpd, warranty (duration or years:
 * "5y"), drive_capacity (size, "30.72TB"), max_drives_per_node, model,
 * tp, pp, zero, scale, drive_write / drive_read (rate, "7GB/s"), seed,
 * trials.
 * 0, or -EINVAL with a message naming the key, the value and what is
 * expected in err (0 nodes, an unknown key or model, a share outside
 * (0, 1), sizes not increasing, more than SC_MODEL_MAX_SIZES, ...). */
int sc_model_params_set(struct sc_model_params *p, const char *key, const char *value, char *err,
			size_t errlen);

/* ---- measured inputs ------------------------------------------------ */

/* ---- training: the accelerators a node's drives feed -------------- */

/* Largest share of a rank's AU wall time its measured AU may be off (the
 * floor of a count of accelerators is taken on the measured figure times
 * 1 + this, so that exact counts do not drop by rounding alone). */
#define SC_MODEL_TRAIN_ROUND 1e-9
/* Bytes of the nominal read the slowest of N nodes is timed on (any size:
 * the projection is linear in it). */
#define SC_MODEL_TRAIN_REF_BYTES (UINT64_C(1) << 30)
/* Nodes a projection lists one by one (the slowest first). */
#define SC_MODEL_TRAIN_NODES_MAX 32u

/* What a training step asks of storage (TrainingSpec). */
struct sc_model_train_step {
	uint32_t batch;		  /* samples per step of one accelerator */
	double sample_bytes;	  /* a sample's mean bytes */
	uint64_t computation_ns;  /* compute per step, > 0 */
	double au;		  /* the AU threshold, (0, 1] */
};

/* One emulated accelerator's AU steps (result.h struct sc_accel_row; a
 * rank without rows is one). */
struct sc_model_train_rank {
	uint32_t node;
	double accelerators; /* the accelerators it stands for (1) */
	uint64_t au_steps, au_compute_ns, au_wall_ns, barrier_wait_ns;
};

/* A node's figures (sc_model_train_node). */
struct sc_model_train_node {
	uint32_t node;
	char host[64];
	double accelerators;	    /* sum over its entries */
	uint32_t accels;	    /* entries (accelerators) with AU steps */
	uint32_t accels_storage_bound; /* of them, those whose batches came late */
	double au;		    /* sum of compute / sum of AU wall */
	double au_own;		    /* without the barrier's waits: sum of
				     * compute / sum of (AU wall - barrier wait) */
	double read_bytes_per_s;    /* B: sum over entries of accelerators x
				     * AU steps x batch x sample / AU wall */
	double supply_bytes_per_s;  /* B: the capacity when capacity_measured,
				     * else a lower bound of it */
	bool capacity_measured;	    /* every rank storage-bound */
	uint32_t feeds;		    /* floor(C / demand); "at least" when
				     * !capacity_measured */
};

/* Demand of one accelerator at the threshold: batch x sample bytes every
 * computation / au, in bytes/s; 0 when computation_ns or au is 0. */
double sc_model_train_demand(const struct sc_model_train_step *s);

/* The node figures of node from its n ranks (those of other nodes and
 * those without AU steps are skipped).  A rank is storage-bound when its
 * AU without the barrier's waits, au_compute / (au_wall - barrier_wait),
 * is below the threshold: its own batches came late, whatever the other
 * ranks did, so its reader was the limit and B_r its supply.  When every
 * rank of the node is, the node's capacity is measured (C = B, the sum);
 * otherwise B is only a lower bound of C (a rank whose batches came in
 * time may have had the barrier's waits to read them in), and feeds is
 * "at least" floor(B / demand), or the accelerators it ran when the
 * node's AU (sum of compute / sum of AU wall) met the threshold (B /
 * demand is accelerators x AU / au when a step's compute is the nominal
 * one; a busy machine lengthens the measured one).  0, or
 * -EINVAL (no demand, no rank of node with AU steps). */
int sc_model_train_node(const struct sc_model_train_step *s, const struct sc_model_train_rank *r,
			uint32_t n, uint32_t node, struct sc_model_train_node *out);

/* What a run measured that the model uses.  Owned: free with
 * sc_model_measured_free. */
struct sc_model_measured {
	char run_id[72];
	/* Checkpoint writes of the first checkpoint group with writes.  A
	 * drive is one target on one node: per checkpoint, the bytes its
	 * ranks wrote and the time the slowest of them took from the common
	 * start (fsync included). */
	bool has_ckpt;
	char ckpt_group[64];
	uint32_t ndrives;
	struct sc_model_drive *drives; /* heap, with their arrays */
	uint32_t nckpts;	       /* checkpoints of the group */
	uint32_t nnodes;	       /* nodes of the run */
	uint32_t drives_per_node;      /* most drives any node used */
	struct sc_llm model;	       /* the group's model and layout */
	struct sc_ckpt_layout layout;
	uint32_t keep_last;	       /* the group's keep_last, 0: all kept */
	double scale;
	/* async: true: the drives' times above are the drains (from each
	 * rank's host copy on); the slowest copy rate of any rank in any
	 * write cell (its bytes / its copy) and the longest copy. */
	bool async;
	double host_copy_bytes_per_s;
	uint64_t blocking_ns;
	/* Restores of the same group (read side), when it has them. */
	bool has_restore;
	struct sc_model_drive *restore_drives; /* heap; ndrives of them */
	/* Ingestion: the first ingest phase. */
	bool has_ingest;
	char ingest_phase[64];
	uint32_t ingest_ranks_per_node;	  /* accelerators per node measured */
	uint64_t compute_per_batch_ns;
	uint64_t batch_bytes;		  /* one rank's step: batch x sample */
	struct sc_hist *batch_wait;	  /* heap: merged over every rank */
	double measured_au;
	double node_read_bytes_per_s;	  /* mean over nodes, measured */
	/* Training: the first training phase that ended ok with AU steps. */
	bool has_training;
	char training_phase[64];
	struct sc_model_train_step train_step;
	uint32_t train_ranks;		  /* ranks of the phase */
	double train_accelerators;	  /* TrainingSpec accelerators */
	double train_au;		  /* the run's AU (mean over ranks) */
	uint32_t ntrain_nodes;
	struct sc_model_train_node *train_nodes; /* heap, by node index */
	/* The capacity-measured nodes as drives for sc_model_ckpt, one
	 * sample each: the time to read SC_MODEL_TRAIN_REF_BYTES at the
	 * node's capacity (the spread between nodes). */
	uint32_t ntrain_drives;
	struct sc_model_drive *train_drives; /* heap */
	uint64_t *train_values;		  /* heap: their bytes and times */
	bool train_no_compute;		  /* a training phase with
					   * computation_time 0 was left out */
};

/* Fills *m from rec and fg, its figures (analysis/figures.h): the
 * checkpoint inputs from fg's checkpoint groups alone (rec's rank rows
 * are not read for them: a phase's may be freed once fg holds it), the
 * ingest inputs from the ingest phase's record and figures.  A run
 * without a checkpoint write group and without an ingest phase gives
 * -ENOENT and a message saying which phase kind is missing and how to
 * produce it (a config with workload: checkpoint, as
 * configs/llm_ckpt.yaml).  0, -ENOENT, -ENOMEM. */
int sc_model_measured_from_record(const struct sc_run_record *rec,
				  const struct sc_run_figures *fg, struct sc_model_measured *m,
				  char *err, size_t errlen);
void sc_model_measured_free(struct sc_model_measured *m);

/* ---- the projection ------------------------------------------------- */

/* The figures a projection gives; each names its basis. */
enum sc_model_figure {
	SC_MODEL_FIG_CKPT,	/* checkpoint time, E[max] and p90 */
	SC_MODEL_FIG_POLICY,	/* tau, write share, lost share, goodput */
	SC_MODEL_FIG_SIZING,	/* drives per node for the overhead target */
	SC_MODEL_FIG_ENDURANCE, /* drive writes per day, years of rating */
	SC_MODEL_FIG_INGEST,	/* step I/O wait, P(stall), AU at N */
	SC_MODEL_FIG_READ_BW,	/* per-node read bandwidth for AU >= 90% */
	SC_MODEL_FIG_RESTORE,	/* restore time after a failure, E[max], p90 */
	SC_MODEL_FIG_TRAINING,	/* accelerators per host at the AU threshold */
	SC_MODEL_FIG_COUNT
};

/* What one figure rests on: the measured inputs (or the stated figures)
 * by name and count, and the assumptions, in words. */
struct sc_model_basis {
	bool present; /* the figure is given (its inputs exist) */
	char inputs[SC_MODEL_TEXT_MAX];
	char assumptions[SC_MODEL_TEXT_MAX];
};

/* The figures at one cluster size N. */
struct sc_model_row {
	uint32_t nodes;		  /* N */
	bool layout_fits;	  /* N x gpus_per_node is a multiple of tp x
				   * pp; when not, only the ingest figures
				   * are given and why_not says so */
	char why_not[128];
	uint32_t dp;		  /* data parallel at N */
	uint32_t drives_per_node; /* D used for ckpt/policy/endurance */
	uint64_t ckpt_bytes;	  /* one checkpoint of the whole cluster */
	uint64_t node_bytes_max;  /* the busiest node's share (nodes_busiest
				   * nodes write it) */
	uint64_t drive_bytes_max; /* the busiest drive's share */
	struct sc_model_ckpt ckpt;
	double ckpt_tail_exp_ns;  /* E[max] under an exponential tail fitted
				   * to the slowest tenth of the samples
				   * (the alternative tail assumption) */
	/* The restore of one checkpoint by the whole cluster, as the
	 * checkpoint time but from the measured restores (FIG_RESTORE). */
	bool has_restore;
	struct sc_model_ckpt restore;
	/* async (measured async checkpoints): ckpt is the drain, and the
	 * host copy at N is one rank's share of the busiest node's bytes at
	 * the measured copy rate: node_bytes_max / gpus_per_node / rate */
	bool async;
	uint64_t blocking_ns;
	struct sc_model_policy policy; /* restart R = params' restart + the
					* restore's E[max] when measured */
	struct sc_model_sizing sizing; /* sizing.drives_per_node 0 = none up
					* to max_drives_per_node */
	struct sc_model_endurance endurance; /* at drives_per_node (the run's
					      * count, or as given), one
					      * checkpoint a policy period */
	/* Ingestion (SC_MODEL_FIG_INGEST / READ_BW present). */
	double step_wait_p50_ns, step_wait_p90_ns, step_wait_p99_ns;
	double step_wait_mean_ns;
	double p_node_stall;	  /* a node stalls a step */
	double p_step_stall;	  /* 1 - (1 - p_node)^N */
	double au;		  /* compute / (compute + E[step wait]) */
	double read_bytes_per_s_node_au90; /* per node, for AU >= 90% */
	/* The sizing answer's figures (given where the layout fits). */
	uint64_t restart_ns;	       /* R the policy used: params' restart +
					* the restore's E[max] when projected */
	uint64_t node_bytes_median;    /* the median node's (the ceil(N/2)-th
					* smallest of the N nodes, a node
					* writing nothing counting 0) */
	uint64_t nodes_busiest;	       /* nodes that write node_bytes_max */
	uint64_t keep_bytes_per_node;  /* keep_last K: the busiest node's bytes
					* for K + 1 checkpoints (the oldest goes
					* once the newest is written); 0: none */
	uint32_t sized_drives_per_node; /* D of endurance_sized: sizing's answer,
					 * max_drives_per_node when none meets
					 * the target */
	uint64_t sized_drive_bytes_max; /* the busiest drive's bytes at that D */
	struct sc_model_endurance endurance_sized; /* at that D, one checkpoint
						    * a period of sizing.policy:
						    * the headline endurance */
	/* Training (SC_MODEL_FIG_TRAINING present): accelerators per host
	 * that keep AU >= the threshold at N nodes, from the slowest of N
	 * nodes' capacity (train_exact), else at least the measured nodes'
	 * least lower bound. */
	bool train_exact;
	uint32_t train_per_host;
	uint32_t train_per_host_low, train_per_host_high; /* from the band */
	double train_node_bytes_per_s;	 /* the slowest of N nodes' capacity */
	double train_node_low_bytes_per_s, train_node_high_bytes_per_s;
};

struct sc_model_projection {
	struct sc_model_params params; /* as used, run's values filled in */
	bool measured;		       /* from a results file (else stated) */
	char source[256];	       /* "results.pb of run ID", or
					* "stated per-drive figures" */
	char drives_per_node_from[16]; /* params.drives_per_node is
					* "measured", "given" or "default" */
	struct sc_model_basis basis[SC_MODEL_FIG_COUNT];
	uint32_t nrows;
	struct sc_model_row rows[SC_MODEL_MAX_SIZES];
	/* Training (SC_MODEL_FIG_TRAINING present): the phase, its demand
	 * and its measured nodes, the slowest (fewest fed) first. */
	char training_phase[64];
	struct sc_model_train_step train_step;
	double train_demand_bytes_per_s;	/* one accelerator at the threshold */
	double train_accelerators;		/* TrainingSpec accelerators */
	uint32_t train_ranks;
	double train_au;			/* the run's */
	uint32_t ntrain_nodes;			/* measured */
	uint32_t ntrain_nodes_measured;		/* of them, capacity measured */
	uint32_t ntrain_nodes_listed;		/* in train_nodes */
	struct sc_model_train_node train_nodes[SC_MODEL_TRAIN_NODES_MAX];
};

/* Projects m (NULL: parameters only, from p's stated drive figures) to
 * every size of p.  0; -EINVAL with a message in err (no inputs for any
 * figure: neither measured drives nor drive_write; a layout that fits no
 * size; a model/layout the byte model refuses); -ENOMEM.  Same inputs and
 * seed, same output, byte for byte. */
int sc_model_project(const struct sc_model_measured *m, const struct sc_model_params *p,
		     struct sc_model_projection *out, char *err, size_t errlen);

/* The projection a run's config asked for (plan.model, its model:
 * section), from the run's own record and its figures fg; from_run.c.  0; -ENOENT when the
 * plan has no model: section (nothing to do); -EINVAL with a message in
 * err when the record gives the model nothing to project (no checkpoint or
 * ingest phase finished) or a kept setting no longer parses; -ENOMEM. */
int sc_model_project_run(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 struct sc_model_projection *out, char *err, size_t errlen);

/* sc_model_project_run with the projection malloc'd (free it): NULL when
 * the plan has no model: section or no checkpoint or ingest phase (its
 * model: then holds only the endurance rating; why left empty both ways)
 * or when it cannot be made (why says why, "out of memory" included). */
struct sc_model_projection *sc_model_of_run(const struct sc_run_record *rec,
					    const struct sc_run_figures *fg, char *why,
					    size_t whylen);

#endif
