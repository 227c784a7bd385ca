/* project.c -- sc_model_project: the figures at every cluster size, from measured or stated drives.
 */
#include "project.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "project_parts.h"

/* The model and layout of a projection with parameters only. */
#define DEFAULT_MODEL "llama3.1-405b"
/* A stated drive is one sample: this many bytes at the stated rate. */
#define STATED_BYTES (1ull << 40)
#define NS_PER_S     1e9

/* Everything a row is computed from. */
struct ctx {
	const struct sc_model_params *p; /* as used (out->params) */
	struct sc_llm model;
	const struct sc_model_drive *drives; /* NULL: no checkpoint figures */
	uint32_t ndrives;
	const struct sc_model_drive *restore; /* NULL: no restore figures */
	struct sc_model_drive stated; /* the stated drive, when used */
	uint64_t stated_bytes, stated_ns;
	struct sc_model_drive stated_read; /* its stated reads, when given */
	uint64_t stated_read_ns;
	const struct sc_model_measured *m;
	bool ingest;
	bool training;
};

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
						      ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The parameters sc_model_params_set would refuse, checked again here. */
static int check_params(const struct sc_model_params *p, char *err, size_t errlen)
{
	if (!p->nsizes || p->nsizes > SC_MODEL_MAX_SIZES)
		return fail(err, errlen, "model: %u cluster sizes; expected 1..%u", p->nsizes,
			    SC_MODEL_MAX_SIZES);
	for (uint32_t i = 0; i < p->nsizes; i++)
		if (!p->nodes[i] || (i && p->nodes[i] <= p->nodes[i - 1]))
			return fail(err, errlen,
				    "model: nodes must be >= 1 and strictly increasing (size %u is "
				    "%u)",
				    i + 1, p->nodes[i]);
	if (!p->gpus_per_node || !p->node_mtbf_ns || !p->max_drives_per_node ||
	    !p->drive_capacity_bytes)
		return fail(err, errlen,
			    "model: gpus_per_node, node_mtbf, max_drives_per_node and "
			    "drive_capacity must be > 0");
	if (!(p->overhead_target > 0 && p->overhead_target < 1))
		return fail(err, errlen, "model: overhead_target %g is outside (0, 1)",
			    p->overhead_target);
	if (!(p->scale >= 0 && p->scale <= 1) || !(p->dwpd > 0) || !(p->warranty_years > 0))
		return fail(err, errlen,
			    "model: scale must be in (0, 1], dwpd and warranty > 0 (got %g, %g, "
			    "%g)",
			    p->scale, p->dwpd, p->warranty_years);
	return 0;
}

/* The model and layout: the run's, or a catalogue model's MLPerf layout
 * when another model is asked for (or none was measured); tp, pp, zero
 * as given override.  Fills the used parameters.  0 or -EINVAL. */
static int resolve_layout(struct ctx *x, struct sc_model_params *use, char *err, size_t errlen)
{
	const struct sc_model_measured *m = x->m;
	struct sc_ckpt_layout l;
	const char *name = use->model[0] ? use->model : DEFAULT_MODEL;

	if (m && m->has_ckpt && (!use->model[0] || !strcmp(use->model, m->model.name))) {
		x->model = m->model;
		l = m->layout;
	} else if (sc_ckpt_model_lookup(name, &x->model) || sc_ckpt_layout_mlperf(name, &l)) {
		return fail(err, errlen,
			    "model: unknown model \"%s\"; expected one of llama3-8b, "
			    "llama3-70b, llama3.1-405b, llama3-1t",
			    name);
	}
	if (!use->keep_last && m && m->has_ckpt)
		use->keep_last = m->keep_last;
	use->tp = use->tp ? use->tp : l.tp;
	use->pp = use->pp ? use->pp : l.pp;
	/* a layout given without zero: FSDP's full shard when sharded */
	if (use->layout >= 0 && use->zero_stage < 0 && (uint32_t)use->layout != l.kind)
		use->zero_stage = use->layout == SC_CKPT_LAYOUT_SHARDED ? 3 : (int32_t)l.zero_stage;
	use->layout = use->layout >= 0 ? use->layout : (int32_t)l.kind;
	use->zero_stage = use->zero_stage >= 0 ? use->zero_stage : (int32_t)l.zero_stage;
	snprintf(use->model, sizeof(use->model), "%s", x->model.name);
	l = (struct sc_ckpt_layout){.tp = use->tp,
				    .pp = use->pp,
				    .dp = 1,
				    .zero_stage = (uint32_t)use->zero_stage,
				    .kind = (enum sc_ckpt_layout_kind)use->layout};
	if (sc_ckpt_layout_check(&x->model, &l, err, errlen))
		return -EINVAL;
	return 0;
}

/* One constant drive: STATED_BYTES at rate bytes/s, into *d (*ns its time). */
static void stated_drive(struct sc_model_drive *d, const uint64_t *bytes, uint64_t *ns,
			 double rate)
{
	*ns = (uint64_t)llround((double)STATED_BYTES * NS_PER_S / rate);
	if (!*ns)
		*ns = 1;
	*d = (struct sc_model_drive){.nckpts = 1, .bytes = bytes, .dur_ns = ns};
}

/* The drives the checkpoint figures rest on: measured, else the stated
 * write rate as one constant drive (and the stated read rate as its
 * restores), else none. */
static void choose_drives(struct ctx *x, struct sc_model_params *use, char *from, size_t fromlen)
{
	const struct sc_model_measured *m = x->m;

	if (use->drives_per_node)
		snprintf(from, fromlen, "given");
	else
		snprintf(from, fromlen, m && m->has_ckpt && m->ndrives ? "measured" : "default");

	if (m && m->has_ckpt && m->ndrives) {
		x->drives = m->drives;
		x->ndrives = m->ndrives;
		x->restore = m->has_restore ? m->restore_drives : NULL;
		for (uint32_t i = 0; x->restore && i < m->ndrives; i++)
			if (!m->restore_drives[i].nckpts)
				x->restore = NULL; /* a drive without restores: none */
		if (!use->drives_per_node)
			use->drives_per_node = m->drives_per_node ? m->drives_per_node : 1;
		return;
	}
	if (!use->drives_per_node)
		use->drives_per_node = 1;
	if (use->drive_write_bytes_per_s > 0) {
		x->stated_bytes = STATED_BYTES;
		stated_drive(&x->stated, &x->stated_bytes, &x->stated_ns,
			     use->drive_write_bytes_per_s);
		x->drives = &x->stated;
		x->ndrives = 1;
		if (use->drive_read_bytes_per_s > 0) {
			stated_drive(&x->stated_read, &x->stated_bytes, &x->stated_read_ns,
				     use->drive_read_bytes_per_s);
			x->restore = &x->stated_read;
		}
	}
}

/* Whether the layout fits row's size; sets dp or why_not. */
static bool layout_fits(const struct sc_model_params *p, struct sc_model_row *row)
{
	uint64_t ranks = (uint64_t)row->nodes * p->gpus_per_node, mp = (uint64_t)p->tp * p->pp;

	if (ranks % mp || ranks / mp > UINT32_MAX) {
		snprintf(row->why_not, sizeof(row->why_not),
			 "%u nodes x %u accelerators = %llu ranks is not a multiple of tp x pp = "
			 "%u x %u = %llu",
			 row->nodes, p->gpus_per_node, (unsigned long long)ranks, p->tp, p->pp,
			 (unsigned long long)mp);
		return false;
	}
	row->dp = (uint32_t)(ranks / mp);
	return true;
}

/* A node's bytes spread evenly over d drives: the busiest drive's, rounded up. */
static uint64_t per_drive(uint64_t node_bytes, uint32_t d)
{
	return node_bytes / d + (node_bytes % d != 0);
}

/* Endurance at d drives a node, one checkpoint every period_ns: the
 * busiest node's bytes spread over its d drives. */
static int endurance_at(const struct sc_model_params *p, const struct sc_model_bytes *b, uint32_t d,
			double period_ns, struct sc_model_endurance *out)
{
	struct sc_model_endurance_in en = {.bytes_per_drive = per_drive(b->node_bytes_max, d),
					   .interval_ns = (uint64_t)ceil(period_ns),
					   .capacity_bytes = p->drive_capacity_bytes,
					   .dwpd = p->dwpd,
					   .warranty_years = p->warranty_years};

	return sc_model_endurance(&en, out);
}

/* async: the host copy at row's size, one rank's share of the busiest
 * node's bytes at the measured copy rate (the measured copy when no rank
 * copied bytes). */
static void row_async(const struct ctx *x, const struct sc_model_bytes *b, struct sc_model_row *row)
{
	const struct sc_model_measured *m = x->m;

	row->async = m && m->async && x->drives == m->drives;
	if (!row->async)
		return;
	if (m->host_copy_bytes_per_s > 0)
		row->blocking_ns = (uint64_t)ceil((double)b->node_bytes_max / x->p->gpus_per_node *
						  NS_PER_S / m->host_copy_bytes_per_s);
	else
		row->blocking_ns = m->blocking_ns;
}

/* Policy, sizing and endurance of row from its checkpoint time: the
 * endurance at the row's D and at the sizing's answer (the headline). */
static int row_policy(const struct ctx *x, const struct sc_model_bytes *b, struct sc_model_row *row)
{
	const struct sc_model_params *p = x->p;
	uint64_t restart = p->restart_ns + (row->has_restore ? (uint64_t)ceil(row->restore.mean_ns) : 0);
	struct sc_model_policy_in pol = {.ckpt_ns = (uint64_t)ceil(row->ckpt.mean_ns),
					 .node_mtbf_ns = p->node_mtbf_ns,
					 .nodes = row->nodes,
					 .restart_ns = restart};
	struct sc_model_sizing_in si = {.drives = x->drives,
					.ndrives = x->ndrives,
					.nodes = row->nodes,
					.bytes_per_node = b->node_bytes_max,
					.node_classes = b->classes,
					.nnode_classes = b->nclasses,
					.node_mtbf_ns = p->node_mtbf_ns,
					.restart_ns = p->restart_ns,
					.restore_drives = row->has_restore ? x->restore : NULL,
					.overhead_target = p->overhead_target,
					.max_drives_per_node = p->max_drives_per_node,
					.trials = p->trials,
					.seed = p->seed};
	int ret;

	row_async(x, b, row);
	pol.async = si.async = row->async;
	pol.blocking_ns = si.blocking_ns = row->blocking_ns;
	row->restart_ns = restart;
	if (!pol.ckpt_ns && !pol.async)
		pol.ckpt_ns = 1;
	ret = sc_model_policy(&pol, &row->policy);
	if (!ret)
		ret = sc_model_size(&si, &row->sizing);
	if (!ret)
		ret = endurance_at(p, b, row->drives_per_node, row->policy.period_ns,
				   &row->endurance);
	if (ret)
		return ret;
	/* sizing's figures describe max_drives_per_node when none meets the target */
	row->sized_drives_per_node =
	    row->sizing.drives_per_node ? row->sizing.drives_per_node : p->max_drives_per_node;
	row->sized_drive_bytes_max = per_drive(b->node_bytes_max, row->sized_drives_per_node);
	return endurance_at(p, b, row->sized_drives_per_node, row->sizing.policy.period_ns,
			    &row->endurance_sized);
}

/* The checkpoint figures of row: bytes by class, E[max], the tail
 * alternative, then policy, sizing and endurance. */
static int row_ckpt(const struct ctx *x, struct sc_model_row *row)
{
	const struct sc_model_params *p = x->p;
	struct sc_ckpt_layout l = {.tp = p->tp,
				   .pp = p->pp,
				   .dp = row->dp,
				   .zero_stage = (uint32_t)p->zero_stage,
				   .kind = (enum sc_ckpt_layout_kind)p->layout};
	struct sc_model_ckpt_in ck = {
	    .drives = x->drives, .ndrives = x->ndrives, .trials = p->trials, .seed = p->seed};
	struct sc_model_class *cl = NULL;
	struct sc_model_bytes b;
	uint32_t d = p->drives_per_node;
	int ret = sc_model_node_bytes(&x->model, &l, row->nodes, p->gpus_per_node, p->scale, &b);

	if (ret)
		return ret;
	row->ckpt_bytes = b.ckpt_bytes;
	row->node_bytes_max = b.node_bytes_max;
	row->node_bytes_median = b.node_bytes_median;
	row->nodes_busiest = b.nodes_busiest;
	if (p->keep_last &&
	    __builtin_mul_overflow(b.node_bytes_max, (uint64_t)p->keep_last + 1,
				   &row->keep_bytes_per_node))
		row->keep_bytes_per_node = UINT64_MAX;
	row->drive_bytes_max = per_drive(b.node_bytes_max, d);
	cl = calloc(b.nclasses ? b.nclasses : 1, sizeof(*cl));
	if (!cl) {
		ret = -ENOMEM;
		goto out;
	}
	if (!b.nclasses) { /* nothing written: no checkpoint figures */
		ret = -EINVAL;
		goto out;
	}
	for (uint32_t j = 0; j < b.nclasses; j++) {
		cl[j].bytes = per_drive(b.classes[j].bytes, d);
		cl[j].count = b.classes[j].count * d;
	}
	ck.classes = cl;
	ck.nclasses = b.nclasses;
	ret = sc_model_ckpt(&ck, &row->ckpt);
	if (!ret)
		ret = sc_model_ckpt_tail_exp(&ck, &row->ckpt_tail_exp_ns);
	if (!ret && x->restore) {
		ck.drives = x->restore; /* each drive reads back what it wrote */
		ret = sc_model_ckpt(&ck, &row->restore);
		row->has_restore = !ret;
	}
	if (!ret)
		ret = row_policy(x, &b, row);
out:
	free(cl);
	sc_model_bytes_free(&b);
	return ret;
}

/* One row; 0, -EINVAL with a message, -ENOMEM. */
static int project_row(const struct ctx *x, uint32_t nodes, struct sc_model_row *row, char *err,
		       size_t errlen)
{
	int ret;

	row->nodes = nodes;
	row->drives_per_node = x->p->drives_per_node;
	if (!x->drives)
		snprintf(row->why_not, sizeof(row->why_not),
			 "no checkpoint inputs: neither a measured checkpoint nor a stated "
			 "drive write rate (--drive-write)");
	else if (layout_fits(x->p, row)) {
		ret = row_ckpt(x, row);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return fail(err, errlen,
				    "model: the checkpoint of %s TP%u PP%u ZeRO-%d at %u nodes "
				    "cannot be projected (no bytes, or the byte model refuses it)",
				    x->model.name, x->p->tp, x->p->pp, x->p->zero_stage, nodes);
		row->layout_fits = true;
	}
	if (x->ingest && sc_model_ingest_at(x->m, x->p->gpus_per_node, row))
		return fail(err, errlen, "model: the ingest figures at %u nodes cannot be computed",
			    nodes);
	if (x->training) {
		ret = sc_model_training_at(x->m, x->p, row);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return fail(err, errlen,
				    "model: the training figures at %u nodes cannot be computed",
				    nodes);
	}
	return 0;
}

/* The measured drives the estimator cannot use, named: a drive without
 * checkpoint samples or with a checkpoint of 0 bytes (nothing to rescale).
 * 0 or -EINVAL with a message. */
static int check_drives(const struct ctx *x, char *err, size_t errlen)
{
	const char *run = x->m ? x->m->run_id : "";

	for (uint32_t i = 0; x->drives && x->drives != &x->stated && i < x->ndrives; i++) {
		const struct sc_model_drive *d = &x->drives[i];

		if (!d->nckpts || !d->dur_ns || !d->bytes)
			return fail(err, errlen,
				    "model: results of run %s: measured drive %u has no checkpoint "
				    "samples",
				    run, i);
		for (uint32_t c = 0; c < d->nckpts; c++)
			if (!d->bytes[c])
				return fail(err, errlen,
					    "model: results of run %s: measured drive %u wrote 0 "
					    "bytes in checkpoint %u: its time cannot be rescaled",
					    run, i, c);
	}
	return 0;
}

/* Fills the parameters as used and the context; 0 or -EINVAL. */
static int resolve(const struct sc_model_measured *m, struct ctx *x,
		   struct sc_model_projection *out, char *err, size_t errlen)
{
	struct sc_model_params *use = &out->params;
	int ret = check_params(use, err, errlen);

	if (ret)
		return ret;
	x->p = use;
	x->m = m;
	use->trials = use->trials ? use->trials : SC_MODEL_TRIALS_DEFAULT;
	use->scale = use->scale > 0 ? use->scale : 1;
	choose_drives(x, use, out->drives_per_node_from, sizeof(out->drives_per_node_from));
	if (check_drives(x, err, errlen))
		return -EINVAL;
	x->ingest =
	    m && m->has_ingest && m->batch_wait && m->batch_wait->count && m->compute_per_batch_ns;
	x->training = m && m->has_training && m->ntrain_nodes;
	if (!x->drives && !x->ingest && !x->training && m && m->has_ingest &&
	    !m->compute_per_batch_ns)
		return fail(err, errlen,
			    "model: nothing to project: the ingest phase emulates no compute "
			    "(compute_per_batch: 0), and a step's wait at scale is weighed "
			    "against the compute it hides behind; no checkpoint phase either");
	if (!x->drives && !x->ingest && !x->training)
		return fail(err, errlen,
			    "model: nothing to project: no measured checkpoint, ingest or training "
			    "phase and "
			    "no stated drive write rate (--drive-write, e.g. 7GB/s)");
	/* the layout as used is shown even when only ingest is projected */
	return resolve_layout(x, use, err, errlen);
}

/* Orders nodes by the accelerators they feed, then by supply. */
static int by_feeds(const void *a, const void *b)
{
	const struct sc_model_train_node *x = a, *y = b;

	if (x->feeds != y->feeds)
		return x->feeds < y->feeds ? -1 : 1;
	if (x->supply_bytes_per_s != y->supply_bytes_per_s)
		return x->supply_bytes_per_s < y->supply_bytes_per_s ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The training phase's figures that do not depend on N: its step, its
 * demand and its nodes, the slowest first (at most
 * SC_MODEL_TRAIN_NODES_MAX listed).  0 or -ENOMEM. */
static int training_nodes(const struct sc_model_measured *m, struct sc_model_projection *out)
{
	struct sc_model_train_node *v = malloc(m->ntrain_nodes * sizeof(*v));

	if (!v)
		return -ENOMEM;
	memcpy(v, m->train_nodes, m->ntrain_nodes * sizeof(*v));
	qsort(v, m->ntrain_nodes, sizeof(*v), by_feeds);
	snprintf(out->training_phase, sizeof(out->training_phase), "%s", m->training_phase);
	out->train_step = m->train_step;
	out->train_demand_bytes_per_s = sc_model_train_demand(&m->train_step);
	out->train_accelerators = m->train_accelerators;
	out->train_ranks = m->train_ranks;
	out->train_au = m->train_au;
	out->ntrain_nodes = m->ntrain_nodes;
	for (uint32_t i = 0; i < m->ntrain_nodes; i++)
		out->ntrain_nodes_measured += v[i].capacity_measured;
	out->ntrain_nodes_listed =
	    m->ntrain_nodes < SC_MODEL_TRAIN_NODES_MAX ? m->ntrain_nodes : SC_MODEL_TRAIN_NODES_MAX;
	memcpy(out->train_nodes, v, out->ntrain_nodes_listed * sizeof(*v));
	free(v);
	return 0;
}

int sc_model_project(const struct sc_model_measured *m, const struct sc_model_params *p,
		     struct sc_model_projection *out, char *err, size_t errlen)
{
	struct sc_model_used u;
	struct ctx x;
	bool any_fits = false;
	int ret;

	if (!p || !out)
		return fail(err, errlen, "model: no parameters");
	memset(out, 0, sizeof(*out));
	memset(&x, 0, sizeof(x));
	out->params = *p;
	ret = resolve(m, &x, out, err, errlen);
	if (ret)
		return ret;
	out->measured = m != NULL;
	if (m)
		snprintf(out->source, sizeof(out->source), "results.pb of run %s", m->run_id);
	else
		snprintf(out->source, sizeof(out->source), "stated per-drive figures");
	for (uint32_t i = 0; i < out->params.nsizes; i++) {
		ret = project_row(&x, out->params.nodes[i], &out->rows[i], err, errlen);
		if (ret)
			return ret;
		any_fits |= out->rows[i].layout_fits;
	}
	out->nrows = out->params.nsizes;
	if (x.training) {
		ret = training_nodes(m, out);
		if (ret)
			return ret;
	}
	if (x.drives && !any_fits)
		return fail(err, errlen,
			    "model: the layout tp x pp = %u x %u fits none of the cluster sizes "
			    "with %u accelerators a node: N x %u must be a multiple of %u (set nodes, "
			    "gpus_per_node, tp or pp)",
			    out->params.tp, out->params.pp, out->params.gpus_per_node,
			    out->params.gpus_per_node, out->params.tp * out->params.pp);
	u = (struct sc_model_used){.m = m,
				   .ckpt_measured = x.drives && x.drives != &x.stated,
				   .ckpt = x.drives != NULL,
				   .restore = x.restore != NULL,
				   .ingest = x.ingest,
				   .training = x.training};
	for (uint32_t i = out->nrows; x.drives && i-- > 0;)
		if (out->rows[i].layout_fits)
			u.fit = &out->rows[i].ckpt;
	for (uint32_t i = 0; i < x.ndrives; i++) {
		u.nsamples += x.drives[i].nckpts;
		u.nrestore_samples += x.restore ? x.restore[i].nckpts : 0;
	}
	sc_model_basis_fill(&u, out);
	return 0;
}
