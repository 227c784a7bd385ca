/* sizing.c -- the drives per node that keep checkpoint overhead under a target. */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "model.h"

/* Checkpoint, policy and overhead with d drives per node into out. */
static int size_at(const struct sc_model_sizing_in *in, uint32_t d, struct sc_model_sizing *out)
{
	struct sc_model_ckpt_in ck = {
	    .drives = in->drives,
	    .ndrives = in->ndrives,
	    .nodes = in->nodes,
	    .drives_per_node = d,
	    .bytes_per_drive = in->bytes_per_node / d + (in->bytes_per_node % d != 0),
	    .trials = in->trials,
	    .seed = in->seed,
	};
	struct sc_model_policy_in pol = {
	    .node_mtbf_ns = in->node_mtbf_ns,
	    .nodes = in->nodes,
	    .restart_ns = in->restart_ns,
	};
	int ret = sc_model_ckpt(&ck, &out->ckpt);

	if (ret)
		return ret;
	/* A checkpoint under 1 ns still takes time: round up. */
	pol.ckpt_ns = (uint64_t)ceil(out->ckpt.mean_ns);
	if (!pol.ckpt_ns)
		pol.ckpt_ns = 1;
	ret = sc_model_policy(&pol, &out->policy);
	if (ret)
		return ret;
	out->overhead = 1 - out->policy.goodput;
	return 0;
}

int sc_model_size(const struct sc_model_sizing_in *in, struct sc_model_sizing *out)
{
	struct sc_model_sizing at;
	int ret;

	if (!in || !out || !in->bytes_per_node || !in->max_drives_per_node ||
	    isnan(in->overhead_target) || in->overhead_target <= 0 || in->overhead_target >= 1)
		return -EINVAL;
	for (uint32_t d = 1; d <= in->max_drives_per_node; d++) {
		ret = size_at(in, d, &at);
		if (ret)
			return ret;
		if (at.overhead <= in->overhead_target) {
			at.drives_per_node = d;
			*out = at;
			return 0;
		}
	}
	at.drives_per_node = 0;
	*out = at;
	return 0;
}
