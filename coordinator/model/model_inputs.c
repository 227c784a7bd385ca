/* model_inputs.c -- the cluster model's measured inputs out of a run record (results.pb). */
#include "model/project.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "result.h"
#include "units.h"

/* A drive of the run: one target on one node, or, when the engine is
 * emulated (one emulated drive per rank), one rank. */
struct drive_key {
	uint32_t node;
	uint32_t id; /* target, or rank when per_rank */
	bool per_rank;
};

/* The drives of one group being collected. */
struct collect {
	uint32_t n, cap;
	struct drive_key *keys;
};

static int key_cmp(const struct drive_key *a, const struct drive_key *b)
{
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->per_rank != b->per_rank)
		return a->per_rank ? 1 : -1;
	return (a->id > b->id) - (a->id < b->id);
}

static int key_qsort(const void *a, const void *b)
{
	return key_cmp(a, b);
}

static struct drive_key key_of(const struct sc_phase *ph, const struct sc_rank_result *r)
{
	bool per_rank = ph->io.engine == SC_ENGINE_EMULATED;

	return (struct drive_key){
	    .node = r->node, .id = per_rank ? r->rank : r->target, .per_rank = per_rank};
}

/* Index of k in the sorted keys, or -1. */
static int64_t key_find(const struct collect *c, const struct drive_key *k)
{
	uint32_t lo = 0, hi = c->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int cmp = key_cmp(&c->keys[mid], k);

		if (!cmp)
			return mid;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Whether phase record pr is a cell of group name that ended ok. */
static bool in_group(const struct sc_run_record *rec, const struct sc_phase_record *pr,
		     const char *name)
{
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];

	return ph->workload == SC_WORKLOAD_CHECKPOINT && pr->status == SC_PHASE_OK &&
	       !strcmp(ph->group ? ph->group : "", name);
}

/* Every drive of group name's cells, sorted.  0 or -ENOMEM. */
static int collect_keys(const struct sc_run_record *rec, const char *name, struct collect *c)
{
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];

		if (!in_group(rec, pr, name))
			continue;
		for (uint32_t r = 0; r < pr->nranks; r++) {
			struct drive_key k = key_of(&rec->plan.phases[pr->phase], &pr->ranks[r]);
			bool seen = false;

			for (uint32_t j = 0; j < c->n && !seen; j++)
				seen = !key_cmp(&c->keys[j], &k);
			if (seen)
				continue;
			if (c->n == c->cap) {
				uint32_t cap = c->cap ? 2 * c->cap : 16;
				struct drive_key *more = realloc(c->keys, cap * sizeof(*more));

				if (!more)
					return -ENOMEM;
				c->keys = more;
				c->cap = cap;
			}
			c->keys[c->n++] = k;
		}
	}
	qsort(c->keys, c->n, sizeof(*c->keys), key_qsort);
	return 0;
}

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

/* Appends cell pr to the drives' series: per drive the bytes its ranks
 * moved in direction dir and the slowest rank's time from the measured
 * start (fsync included); a drive that moved nothing gets no entry.  sum
 * and end are scratch of c->n entries. */
static void add_cell(const struct sc_run_record *rec, const struct sc_phase_record *pr,
		     const struct collect *c, int dir, struct sc_model_drive *d, uint64_t *sum,
		     int64_t *end)
{
	memset(sum, 0, c->n * sizeof(*sum));
	memset(end, 0, c->n * sizeof(*end));
	for (uint32_t r = 0; r < pr->nranks; r++) {
		const struct sc_rank_result *rr = &pr->ranks[r];
		struct drive_key k = key_of(&rec->plan.phases[pr->phase], rr);
		int64_t i = key_find(c, &k), t = rr->end_ns - pr->measure_start_ns;

		if (i < 0)
			continue;
		sum[i] += rr->bytes[dir];
		if (t > end[i])
			end[i] = t;
	}
	for (uint32_t i = 0; i < c->n; i++) {
		uint64_t *bytes = (uint64_t *)d[i].bytes, *dur = (uint64_t *)d[i].dur_ns;

		if (!sum[i] || end[i] <= 0)
			continue;
		bytes[d[i].nckpts] = sum[i];
		dur[d[i].nckpts++] = (uint64_t)end[i];
	}
}

/* Keeps the drives that wrote in some checkpoint (the others, e.g. ranks
 * of ZeRO-0 that hold nothing, say nothing of a drive's speed); sets
 * ndrives and drives_per_node. */
static void keep_writers(struct sc_model_measured *m, struct collect *c)
{
	uint32_t kept = 0, run = 0;

	for (uint32_t i = 0; i < c->n; i++) {
		if (!m->drives[i].nckpts) {
			free((void *)m->drives[i].bytes);
			free((void *)m->restore_drives[i].bytes);
			continue;
		}
		m->drives[kept] = m->drives[i];
		m->restore_drives[kept] = m->restore_drives[i];
		c->keys[kept++] = c->keys[i];
	}
	m->ndrives = kept;
	m->drives_per_node = 0;
	for (uint32_t i = 0; i < kept; i++) {
		run = i && c->keys[i].node == c->keys[i - 1].node ? run + 1 : 1;
		if (run > m->drives_per_node)
			m->drives_per_node = run;
	}
}

/* Fills m's checkpoint inputs from group g of rec.  0 or -ENOMEM. */
static int fill_ckpt(const struct sc_run_record *rec, const struct sc_ckpt_group *g,
		     struct sc_model_measured *m)
{
	const struct sc_ckpt_spec *ck = &rec->plan.phases[g->first_phase].ckpt;
	struct collect c = {0};
	uint64_t *sum = NULL;
	int64_t *end = NULL;
	int ret = collect_keys(rec, g->name, &c);

	if (ret)
		goto out;
	m->drives = drives_new(c.n, g->write.n);
	m->restore_drives = drives_new(c.n, g->restore.n);
	if (!m->drives || !m->restore_drives) {
		drives_free(m->drives, c.n);
		drives_free(m->restore_drives, c.n);
		m->drives = m->restore_drives = NULL;
		ret = -ENOMEM;
		goto out;
	}
	m->ndrives = c.n;
	sum = calloc(c.n ? c.n : 1, sizeof(*sum));
	end = calloc(c.n ? c.n : 1, sizeof(*end));
	if (!sum || !end) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];
		bool restore = rec->plan.phases[pr->phase].ckpt.restore;

		if (in_group(rec, pr, g->name))
			add_cell(rec, pr, &c, restore ? SC_DIR_READ : SC_DIR_WRITE,
				 restore ? m->restore_drives : m->drives, sum, end);
	}
	keep_writers(m, &c);
	for (uint32_t i = 0; i < m->ndrives; i++)
		m->has_restore |= m->restore_drives[i].nckpts > 0;
	m->has_ckpt = m->ndrives > 0;
	m->nckpts = g->write.n;
	snprintf(m->ckpt_group, sizeof(m->ckpt_group), "%s", g->name);
	m->model = ck->model;
	m->layout = ck->layout;
	m->scale = ck->scale;
out:
	free(end);
	free(sum);
	free(c.keys);
	return ret;
}

/* The first checkpoint group with writes, if any, into m.  0 or -ENOMEM. */
static int find_ckpt(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		     struct sc_model_measured *m)
{
	int ret = 0;

	for (uint32_t k = 0; k < fg->nckpt && !m->has_ckpt && !ret; k++)
		if (fg->ckpt[k].write.n)
			ret = fill_ckpt(rec, &fg->ckpt[k], m);
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

int sc_model_measured_from_record(const struct sc_run_record *rec,
				  const struct sc_run_figures *fg, struct sc_model_measured *m,
				  char *err, size_t errlen)
{
	const char *id = rec->plan.run_id ? rec->plan.run_id : "?";
	int ret;

	memset(m, 0, sizeof(*m));
	snprintf(m->run_id, sizeof(m->run_id), "%s", id);
	ret = find_ckpt(rec, fg, m);
	for (uint32_t i = 0; !ret && i < rec->nphases && !m->has_ingest; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];

		/* a failed or cut-short phase would skew the figures */
		if (rec->plan.phases[pr->phase].workload == SC_WORKLOAD_INGEST &&
		    pr->status == SC_PHASE_OK && pr->batch_wait)
			ret = fill_ingest(rec, pr, &fg->phases[i], &fg->work[i].ingest, m);
	}
	if (ret) {
		sc_model_measured_free(m);
		snprintf(err, errlen, "results of run %s: out of memory reading the model's inputs",
			 id);
		return ret;
	}
	if (!m->has_ckpt && !m->has_ingest) {
		sc_model_measured_free(m);
		snprintf(err, errlen,
			 "results of run %s have no checkpoint or ingest phase that ended ok: the "
			 "model needs a run with workload: checkpoint (configs/llm_ckpt.yaml) or "
			 "workload: ingest (configs/ingest.yaml)",
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
	memset(m, 0, sizeof(*m));
}
