/* sizing.c -- the drives per node that keep checkpoint overhead under a target. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* A node's bytes spread evenly over d drives, rounded up. */
static uint64_t per_drive(uint64_t node_bytes, uint32_t d)
{
	return node_bytes / d + (node_bytes % d != 0);
}

/* Checkpoint, policy and overhead with d drives per node into out; cl
 * holds nnode_classes drive classes of scratch. */
static int size_at(const struct sc_model_sizing_in *in, uint32_t d, struct sc_model_class *cl,
		   struct sc_model_sizing *out)
{
	struct sc_model_ckpt_in ck = {
	    .drives = in->drives,
	    .ndrives = in->ndrives,
	    .nodes = in->nodes,
	    .drives_per_node = d,
	    .bytes_per_drive = per_drive(in->bytes_per_node, d),
	    .trials = 0, /* no band: sizing takes E[max] only */
	    .seed = in->seed,
	};
	struct sc_model_policy_in pol = {
	    .node_mtbf_ns = in->node_mtbf_ns,
	    .nodes = in->nodes,
	    .restart_ns = in->restart_ns,
	    .async = in->async,
	    .blocking_ns = in->blocking_ns,
	};
	int ret;

	if (in->node_classes) {
		for (uint32_t j = 0; j < in->nnode_classes; j++) {
			cl[j].bytes = per_drive(in->node_classes[j].bytes, d);
			cl[j].count = in->node_classes[j].count * d;
		}
		ck.classes = cl;
		ck.nclasses = in->nnode_classes;
	}
	ret = sc_model_ckpt(&ck, &out->ckpt);
	if (ret)
		return ret;
	if (in->restore_drives) { /* each node reads back what it wrote */
		struct sc_model_ckpt rs;

		ck.drives = in->restore_drives;
		ret = sc_model_ckpt(&ck, &rs);
		if (ret)
			return ret;
		pol.restart_ns += (uint64_t)ceil(rs.mean_ns);
	}
	/* A checkpoint under 1 ns still takes time: round up. */
	pol.ckpt_ns = (uint64_t)ceil(out->ckpt.mean_ns);
	if (!pol.ckpt_ns && !in->async)
		pol.ckpt_ns = 1;
	ret = sc_model_policy(&pol, &out->policy);
	if (ret)
		return ret;
	out->overhead = 1 - out->policy.goodput;
	return 0;
}

/* The cluster's nodes, for the policy; 0 when the classes are bad. */
static uint64_t nodes_of(const struct sc_model_sizing_in *in)
{
	uint64_t n = 0;

	if (!in->node_classes)
		return in->bytes_per_node ? in->nodes : 0;
	for (uint32_t j = 0; j < in->nnode_classes; j++) {
		if (!in->node_classes[j].bytes || !in->node_classes[j].count)
			return 0;
		n += in->node_classes[j].count;
	}
	return n <= UINT32_MAX ? n : 0;
}

int sc_model_size(const struct sc_model_sizing_in *in, struct sc_model_sizing *out)
{
	struct sc_model_sizing at;
	struct sc_model_sizing_in use;
	struct sc_model_class *cl = NULL;
	int ret = 0;

	if (!in || !out || !in->max_drives_per_node || isnan(in->overhead_target) ||
	    in->overhead_target <= 0 || in->overhead_target >= 1 || !nodes_of(in) ||
	    (in->node_classes && !in->nnode_classes))
		return -EINVAL;
	use = *in;
	if (in->node_classes) {
		use.nodes = (uint32_t)nodes_of(in);
		cl = calloc(in->nnode_classes, sizeof(*cl));
		if (!cl)
			return -ENOMEM;
	}
	/* zeroed: *out is compared byte for byte by callers */
	memset(&at, 0, sizeof(at));
	for (uint32_t d = 1; d <= in->max_drives_per_node; d++) {
		ret = size_at(&use, d, cl, &at);
		if (ret || at.overhead <= in->overhead_target) {
			at.drives_per_node = d;
			break;
		}
		at.drives_per_node = 0;
	}
	/* async: the fewest drives whose drain the interval hides */
	for (uint32_t d = 1; !ret && in->async && d <= in->max_drives_per_node; d++) {
		struct sc_model_sizing fit;

		ret = size_at(&use, d, cl, &fit);
		if (!ret && fit.policy.stall_ns == 0) {
			at.drain_fit_drives_per_node = d;
			break;
		}
	}
	if (!ret)
		*out = at;
	free(cl);
	return ret;
}
