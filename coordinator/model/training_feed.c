/* training_feed.c -- how many accelerators a node's drives feed at the AU
 * threshold (MLPerf Storage training), per measured node and at N nodes.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "project_parts.h"

#define NS_PER_S 1e9

double sc_model_train_demand(const struct sc_model_train_step *s)
{
	if (!s->computation_ns || !(s->au > 0) || !(s->sample_bytes > 0) || !s->batch)
		return 0;
	return (double)s->batch * s->sample_bytes * s->au * NS_PER_S / (double)s->computation_ns;
}

/* A count of accelerators from a share: floor, forgiving rounding alone. */
static uint32_t whole(double x)
{
	double f = floor(x * (1 + SC_MODEL_TRAIN_ROUND));

	return f <= 0 ? 0 : f >= UINT32_MAX ? UINT32_MAX : (uint32_t)f;
}

int sc_model_train_node(const struct sc_model_train_step *s, const struct sc_model_train_rank *r,
			uint32_t n, uint32_t node, struct sc_model_train_node *out)
{
	double d = sc_model_train_demand(s), compute = 0, wall = 0, own = 0;

	memset(out, 0, sizeof(*out));
	out->node = node;
	if (!(d > 0))
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		const struct sc_model_train_rank *k = &r[i];
		double b, own_wall;
		bool bound;

		if (k->node != node || !k->au_wall_ns || !k->au_steps || !(k->accelerators > 0))
			continue;
		/* the rank's AU fields are one accelerator's (or sums over
		 * its accelerators: the ratios below are the same) */
		b = k->accelerators * (double)k->au_steps * s->batch * s->sample_bytes * NS_PER_S /
		    (double)k->au_wall_ns;
		own_wall = k->au_wall_ns > k->barrier_wait_ns
			       ? (double)(k->au_wall_ns - k->barrier_wait_ns)
			       : 0;
		bound = own_wall > 0 && (double)k->au_compute_ns < s->au * own_wall;
		out->accels++;
		out->accels_storage_bound += bound;
		out->accelerators += k->accelerators;
		out->read_bytes_per_s += b;
		compute += (double)k->au_compute_ns;
		wall += (double)k->au_wall_ns;
		own += own_wall;
	}
	if (!out->accels)
		return -EINVAL;
	out->au = compute / wall;
	out->au_own = own > 0 ? compute / own : 1;
	out->capacity_measured = out->accels_storage_bound == out->accels;
	/* not every rank waited for its batches: what the node read is all
	 * that is known of its drives (a rank fed in time only because the
	 * barrier gave its reader more time proves nothing more) */
	out->supply_bytes_per_s = out->read_bytes_per_s;
	out->feeds = whole(out->read_bytes_per_s / d);
	/* the run itself showed its accelerators at AU >= the threshold (its
	 * measured compute, which a busy machine's late wake-ups lengthen,
	 * against the nominal one in the demand) */
	if (!out->capacity_measured && out->au >= s->au && whole(out->accelerators) > out->feeds)
		out->feeds = whole(out->accelerators);
	return 0;
}

int sc_model_training_at(const struct sc_model_measured *m, const struct sc_model_params *p,
			 struct sc_model_row *row)
{
	double d = m ? sc_model_train_demand(&m->train_step) : 0;
	double ref = (double)SC_MODEL_TRAIN_REF_BYTES;
	struct sc_model_ckpt_in in;
	struct sc_model_ckpt c;
	int ret;

	if (!m || !m->has_training || !m->ntrain_nodes || !(d > 0))
		return -EINVAL;
	row->train_exact = m->ntrain_drives > 0;
	if (!row->train_exact) {
		/* no node's capacity measured: the least lower bound, at every N */
		row->train_per_host = UINT32_MAX;
		for (uint32_t i = 0; i < m->ntrain_nodes; i++)
			if (m->train_nodes[i].feeds < row->train_per_host) {
				row->train_per_host = m->train_nodes[i].feeds;
				row->train_node_bytes_per_s = m->train_nodes[i].supply_bytes_per_s;
			}
		row->train_per_host_low = row->train_per_host_high = row->train_per_host;
		row->train_node_low_bytes_per_s = row->train_node_high_bytes_per_s =
		    row->train_node_bytes_per_s;
		return 0;
	}
	in = (struct sc_model_ckpt_in){.drives = m->train_drives,
				       .ndrives = m->ntrain_drives,
				       .nodes = row->nodes,
				       .drives_per_node = 1,
				       .trials = p->trials,
				       .seed = p->seed};
	ret = sc_model_ckpt(&in, &c);
	if (ret)
		return ret;
	/* the step waits for the slowest node: its time to read the same
	 * bytes sets the capacity every node must be sized by */
	row->train_node_bytes_per_s = ref * NS_PER_S / c.mean_ns;
	row->train_node_low_bytes_per_s = ref * NS_PER_S / c.mean_high_ns;
	row->train_node_high_bytes_per_s = ref * NS_PER_S / c.mean_low_ns;
	row->train_per_host = whole(row->train_node_bytes_per_s / d);
	row->train_per_host_low = whole(row->train_node_low_bytes_per_s / d);
	row->train_per_host_high = whole(row->train_node_high_bytes_per_s / d);
	return 0;
}
