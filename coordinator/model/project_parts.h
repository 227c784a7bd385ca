/* project_parts.h -- the pieces sc_model_project is built from, shared by
 * the files of coordinator/model/ only (project.c, node_bytes.c,
 * ingest_tail.c, basis.c).  Not for other folders: they use project.h. */
#ifndef SC_MODEL_PROJECT_PARTS_H
#define SC_MODEL_PROJECT_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "project.h"

/* One checkpoint of the cluster at one size, as the byte model writes it. */
struct sc_model_bytes {
	uint64_t ckpt_bytes;	 /* all nodes */
	uint64_t node_bytes_max; /* the busiest node's */
	uint64_t node_bytes_median; /* the ceil(nodes/2)-th smallest node's
				     * (nodes writing nothing count 0) */
	uint64_t nodes_busiest;	    /* nodes writing node_bytes_max */
	uint32_t nclasses;
	struct sc_model_class *classes; /* heap: nodes by bytes, busiest first;
					 * nodes that write nothing left out */
};

/* The nodes of a cluster of nodes x gpus_per_node ranks of layout l (dp
 * set) in byte classes: node k holds ranks k G .. k G + G - 1, every file
 * scaled as the checkpoint workload scales it (sc_ckpt_scaled to 4 KiB).
 * A node's bytes repeat with period tp x pp / gcd(tp x pp, G) nodes after
 * the nodes of data-parallel rank 0, so the cost does not grow with the
 * ranks.  0, -EINVAL (model/layout refused), -ENOMEM. */
int sc_model_node_bytes(const struct sc_llm *model, const struct sc_ckpt_layout *l, uint32_t nodes,
			uint32_t gpus_per_node, double scale, struct sc_model_bytes *out);
void sc_model_bytes_free(struct sc_model_bytes *b);

/* The ingest figures of row (N = row->nodes) from m's merged batch-wait
 * histogram with gpus_per_node accelerators a node: step wait quantiles
 * and mean, P(stall) of a node and a step, AU, read bandwidth for AU
 * 90%.  0, or -EINVAL (no histogram or steps, compute per batch 0). */
int sc_model_ingest_at(const struct sc_model_measured *m, uint32_t gpus_per_node,
		       struct sc_model_row *row);

/* The training figures of row (N = row->nodes): with capacity-measured
 * nodes, the slowest of N nodes' capacity (sc_model_ckpt over m's
 * train_drives: E[max] of the time to read SC_MODEL_TRAIN_REF_BYTES,
 * with its band) and the accelerators per host it feeds at the
 * threshold; else the least of the measured nodes' lower bounds.  0,
 * -EINVAL (no training inputs), -ENOMEM. */
int sc_model_training_at(const struct sc_model_measured *m, const struct sc_model_params *p,
			 struct sc_model_row *row);

/* What the projection rests on, as sc_model_project resolved it. */
struct sc_model_used {
	const struct sc_model_measured *m; /* NULL: parameters only */
	bool ckpt_measured;		   /* drives from m (else stated) */
	bool ckpt;			   /* checkpoint figures given */
	bool ingest;			   /* ingest figures given */
	bool restore;			   /* restore figures given */
	bool training;			   /* training figures given */
	uint64_t nsamples;		   /* the drives' samples */
	uint64_t nrestore_samples;	   /* their restores' */
	/* The checkpoint figure of the first size that has one: the trend and
	 * tail it rests on (the same at every size); NULL: none. */
	const struct sc_model_ckpt *fit;
};

/* Fills out->basis from the parameters as used (out->params) and u. */
void sc_model_basis_fill(const struct sc_model_used *u, struct sc_model_projection *out);

#endif
