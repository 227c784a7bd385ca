/* model_inputs.c -- the cluster model's measured inputs out of a run record (results.pb). */
#include "model/project.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "mlperf.h"
#include "result.h"
#include "units.h"

/* Allocates n drives with room for cap checkpoints each.  NULL on -ENOMEM. */
static struct sc_model_drive *drives_new(uint32_t n, uint32_t cap)
{
	struct sc_model_drive *d = calloc(n ? n : 1, sizeof(*d));

	for (uint32_t i = 0; d && i < n; i++) {
		uint64_t *p = calloc(2 * (size_t)(cap ? cap : 1), sizeof(*p));

		if (!p) {
			for (uint32_t j = 0; j < i; j++)
				free((void *)d[j].bytes);
			free(d);
			return NULL;
		}
		d[i].bytes = p;
		d[i].dur_ns = p + (cap ? cap : 1);
	}
	return d;
}

static void drives_free(struct sc_model_drive *d, uint32_t n)
{
	for (uint32_t i = 0; d && i < n; i++)
		free((void *)d[i].bytes); /* dur_ns shares the block */
	free(d);
}

/* Copies series v into drive d (room for v's cells). */
static void series_copy(const struct sc_ckpt_drive_series *v, struct sc_model_drive *d)
{
	uint64_t *bytes = (uint64_t *)d->bytes, *dur = (uint64_t *)d->dur_ns;

	for (uint32_t c = 0; c < v->n; c++) {
		bytes[c] = v->cells[c].bytes;
		dur[c] = v->cells[c].dur_ns;
	}
	d->nckpts = v->n;
}

/* Fills m's checkpoint inputs from group g of plan: its drives that wrote
 * in some checkpoint (the others, e.g. ranks of ZeRO-0 that hold nothing,
 * say nothing of a drive's speed), in the group's order, each with its
 * writes and restores.  Replaces what an earlier group without writers
 * left in m.  0 or -ENOMEM. */
static int fill_ckpt(const struct sc_plan *plan, const struct sc_ckpt_group *g,
		     struct sc_model_measured *m)
{
	const struct sc_ckpt_spec *ck = &plan->phases[g->first_phase].ckpt;
	uint32_t n = 0, k = 0, run = 0, node = 0;

	for (uint32_t i = 0; i < g->ndrives; i++)
		n += g->drives[i].write.n > 0;
	drives_free(m->drives, m->ndrives);
	drives_free(m->restore_drives, m->ndrives);
	m->ndrives = 0;
	m->drives = drives_new(n, g->write.n);
	m->restore_drives = drives_new(n, g->restore.n);
	if (!m->drives || !m->restore_drives) {
		drives_free(m->drives, n);
		drives_free(m->restore_drives, n);
		m->drives = m->restore_drives = NULL;
		return -ENOMEM;
	}
	m->ndrives = n;
	m->drives_per_node = 0;
	for (uint32_t i = 0; i < g->ndrives; i++) {
		const struct sc_ckpt_drive *d = &g->drives[i];

		if (!d->write.n)
			continue;
		series_copy(&d->write, &m->drives[k]);
		series_copy(&d->restore, &m->restore_drives[k]);
		m->has_restore |= d->restore.n > 0;
		run = k && d->node == node ? run + 1 : 1; /* the node's drives so far */
		if (run > m->drives_per_node)
			m->drives_per_node = run;
		node = d->node;
		k++;
	}
	m->has_ckpt = n > 0;
	m->nckpts = g->write.n;
	m->async = false;
	m->host_copy_bytes_per_s = 0;
	m->blocking_ns = 0;
	for (uint32_t c = 0; c < g->ncells; c++) {
		const struct sc_ckpt_cell *cell = &g->cells[c];

		if (!cell->async)
			continue;
		m->async = true;
		if (cell->host_copy_bytes_per_s > 0 &&
		    (!m->host_copy_bytes_per_s ||
		     cell->host_copy_bytes_per_s < m->host_copy_bytes_per_s))
			m->host_copy_bytes_per_s = cell->host_copy_bytes_per_s;
		if (cell->blocking_ns > m->blocking_ns)
			m->blocking_ns = cell->blocking_ns;
	}
	snprintf(m->ckpt_group, sizeof(m->ckpt_group), "%s", g->name);
	m->model = ck->model;
	m->layout = ck->layout;
	m->keep_last = ck->keep_last;
	m->scale = ck->scale;
	return 0;
}

/* The first checkpoint group with writes, if any, into m.  0 or -ENOMEM. */
static int find_ckpt(const struct sc_plan *plan, const struct sc_run_figures *fg,
		     struct sc_model_measured *m)
{
	int ret = 0;

	for (uint32_t k = 0; k < fg->nckpt && !m->has_ckpt && !ret; k++)
		if (fg->ckpt[k].write.n)
			ret = fill_ckpt(plan, &fg->ckpt[k], m);
	return ret;
}

/* Ingest figures of phase record pr (its figures fig, its ingest
 * figures ing) into m.  0 or -ENOMEM. */
static int fill_ingest(const struct sc_run_record *rec, const struct sc_phase_record *pr,
		       const struct sc_phase_figures *fig, const struct sc_ingest_figures *ing,
		       struct sc_model_measured *m)
{
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];
	double bw = 0;

	m->batch_wait = malloc(sizeof(*m->batch_wait));
	if (!m->batch_wait)
		return -ENOMEM;
	*m->batch_wait = *pr->batch_wait;
	for (uint32_t i = 0; i < fig->nodes_len; i++) {
		const struct sc_node_row *nr = &fig->nodes[i];
		int64_t t = nr->end_ns - nr->start_ns;

		if (nr->nranks > m->ingest_ranks_per_node)
			m->ingest_ranks_per_node = nr->nranks;
		if (t > 0)
			bw += (double)nr->bytes[SC_DIR_READ] * SC_NS_PER_S_F / (double)t;
	}
	m->node_read_bytes_per_s = fig->nodes_len ? bw / fig->nodes_len : 0;
	m->measured_au = ing->au;
	m->compute_per_batch_ns = ph->ingest.compute_per_batch_ns;
	m->batch_bytes = (uint64_t)ph->ingest.batch * ph->ingest.sample_bytes;
	snprintf(m->ingest_phase, sizeof(m->ingest_phase), "%s", ph->name ? ph->name : "");
	m->has_ingest = true;
	return 0;
}

/* What training phase ph's step asks of storage. */
static struct sc_model_train_step train_step(const struct sc_training_spec *t)
{
	uint64_t file = sc_mlperf_mean_file_bytes(t->record_bytes, t->record_stdev_bytes,
						  t->samples_per_file);

	return (struct sc_model_train_step){
	    .batch = t->batch,
	    .sample_bytes = t->samples_per_file ? (double)file / t->samples_per_file : 0,
	    .computation_ns = t->computation_ns,
	    .au = t->au};
}

/* The capacity-measured nodes of m as drives for the slowest-of-N
 * projection: one sample each, the time to read SC_MODEL_TRAIN_REF_BYTES
 * at the node's capacity (the spread is the one between nodes).  0 or
 * -ENOMEM. */
static int train_drives(struct sc_model_measured *m)
{
	uint32_t n = 0;
	uint64_t *v;

	for (uint32_t i = 0; i < m->ntrain_nodes; i++)
		n += m->train_nodes[i].capacity_measured && m->train_nodes[i].supply_bytes_per_s > 0;
	m->train_drives = calloc(n ? n : 1, sizeof(*m->train_drives));
	v = calloc(2 * (size_t)(n ? n : 1), sizeof(*v)); /* bytes, then times */
	if (!m->train_drives || !v) {
		free(m->train_drives);
		free(v);
		m->train_drives = NULL;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < m->ntrain_nodes; i++) {
		const struct sc_model_train_node *t = &m->train_nodes[i];
		uint32_t k = m->ntrain_drives;

		if (!t->capacity_measured || !(t->supply_bytes_per_s > 0))
			continue;
		v[k] = SC_MODEL_TRAIN_REF_BYTES;
		v[n + k] = (uint64_t)ceil((double)SC_MODEL_TRAIN_REF_BYTES * SC_NS_PER_S_F /
					  t->supply_bytes_per_s);
		m->train_drives[k] = (struct sc_model_drive){
		    .nckpts = 1, .bytes = v + k, .dur_ns = v + n + k};
		m->ntrain_drives++;
	}
	m->train_values = v;
	return 0;
}

/* Training phase record pr into m: the step, each node's figures
 * (sc_model_train_node) and the capacity-measured nodes' drives.  A
 * phase without rank rows or AU steps is left out (m untouched but for
 * what it frees).  0 or -ENOMEM. */
static int fill_training(const struct sc_run_record *rec, const struct sc_phase_record *pr,
			 const struct sc_training_figures *tf, struct sc_model_measured *m)
{
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];
	struct sc_model_train_rank *r;
	uint32_t nodes = 0, k = 0, n = 0;
	int ret = 0;

	if (!pr->ranks || !pr->nranks || !tf->au_measured)
		return 0;
	if (!ph->training.computation_ns) {
		m->train_no_compute = true;
		return 0;
	}
	r = calloc(tf->accelerators ? tf->accelerators : 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	/* one entry an accelerator (its row: a rank without rows is one),
	 * so that a node's accelerators are the sum over its entries */
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *x = &pr->ranks[i];

		for (uint32_t a = 0; a < sc_rank_accels(x) && n < tf->accelerators; a++) {
			struct sc_accel_row row = sc_rank_accel(x, a);

			r[n++] = (struct sc_model_train_rank){.node = x->node,
							      .accelerators = 1,
							      .au_steps = row.au_steps,
							      .au_compute_ns = row.au_compute_ns,
							      .au_wall_ns = row.au_wall_ns,
							      .barrier_wait_ns = row.barrier_wait_ns};
		}
		if (x->node + 1 > nodes)
			nodes = x->node + 1;
	}
	m->train_step = train_step(&ph->training);
	m->train_nodes = calloc(nodes, sizeof(*m->train_nodes));
	if (!m->train_nodes) {
		free(r);
		return -ENOMEM;
	}
	for (uint32_t node = 0; node < nodes; node++) {
		struct sc_model_train_node *t = &m->train_nodes[k];

		if (sc_model_train_node(&m->train_step, r, n, node, t))
			continue; /* no rank of it with AU steps */
		for (uint32_t i = 0; i < pr->nranks; i++)
			if (pr->ranks[i].node == node) {
				snprintf(t->host, sizeof(t->host), "%s", pr->ranks[i].host);
				break;
			}
		k++;
	}
	free(r);
	m->ntrain_nodes = k;
	if (!k)
		return 0;
	m->train_ranks = pr->nranks;
	m->train_accelerators = tf->accelerators;
	m->train_au = tf->au;
	snprintf(m->training_phase, sizeof(m->training_phase), "%s", ph->name ? ph->name : "");
	ret = train_drives(m);
	m->has_training = !ret;
	return ret;
}

int sc_model_measured_from_record(const struct sc_run_record *rec,
				  const struct sc_run_figures *fg, struct sc_model_measured *m,
				  char *err, size_t errlen)
{
	const char *id = rec->plan.run_id ? rec->plan.run_id : "?";
	int ret;

	memset(m, 0, sizeof(*m));
	snprintf(m->run_id, sizeof(m->run_id), "%s", id);
	ret = find_ckpt(&rec->plan, fg, m);
	for (uint32_t i = 0; !ret && i < rec->nphases && !m->has_ingest; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];

		/* a failed or cut-short phase would skew the figures */
		if (rec->plan.phases[pr->phase].workload == SC_WORKLOAD_INGEST &&
		    pr->status == SC_PHASE_OK && pr->batch_wait)
			ret = fill_ingest(rec, pr, &fg->phases[i], &fg->work[i].ingest, m);
	}
	for (uint32_t i = 0; !ret && i < rec->nphases && !m->has_training; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];

		if (rec->plan.phases[pr->phase].workload == SC_WORKLOAD_TRAINING &&
		    pr->status == SC_PHASE_OK)
			ret = fill_training(rec, pr, &fg->work[i].training, m);
	}
	if (ret) {
		sc_model_measured_free(m);
		snprintf(err, errlen, "results of run %s: out of memory reading the model's inputs",
			 id);
		return ret;
	}
	if (!m->has_ckpt && !m->has_ingest && !m->has_training && m->train_no_compute) {
		sc_model_measured_free(m);
		snprintf(err, errlen,
			 "results of run %s: model: nothing to project: the training phase emulates "
			 "no compute (computation_time: 0), and an accelerator's demand is its batch "
			 "every computation_time / au; no checkpoint or ingest phase either",
			 id);
		return -ENOENT;
	}
	if (!m->has_ckpt && !m->has_ingest && !m->has_training) {
		sc_model_measured_free(m);
		snprintf(err, errlen,
			 "results of run %s have no checkpoint, ingest or training phase that ended "
			 "ok (a training phase needs epochs of 2 steps or more: AU leaves out each "
			 "epoch's first): the model needs a run with workload: checkpoint "
			 "(configs/llm_ckpt.yaml), workload: ingest (configs/ingest.yaml) or "
			 "workload: training (configs/mlperf_training.yaml)",
			 id);
		return -ENOENT;
	}
	return 0;
}

void sc_model_measured_free(struct sc_model_measured *m)
{
	if (!m)
		return;
	drives_free(m->drives, m->ndrives);
	drives_free(m->restore_drives, m->ndrives);
	free(m->batch_wait);
	free(m->train_nodes);
	free(m->train_drives);
	free(m->train_values);
	memset(m, 0, sizeof(*m));
}
