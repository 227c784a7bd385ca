/* workload_figures.c -- what the AI workloads report beyond the io figures. */
#include "workload_figures.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckpt_model.h"
#include "mlperf.h"
#include "units.h"

/* MLPerf Storage's bar: every accelerator busy at least 90% of the time. */
#define AU_BAR 0.9

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void sc_ckpt_cell_figures(const struct sc_plan *plan, const struct sc_phase_record *pr,
			  struct sc_ckpt_cell *c)
{
	const struct sc_ckpt_spec *ck = &plan->phases[pr->phase].ckpt;

	memset(c, 0, sizeof(*c));
	c->phase = pr->phase;
	c->index = ck->index;
	c->restore = ck->restore;
	c->ranks = pr->nranks;
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		c->bytes += r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE];
		c->files += r->files;
		if (r->delete_ns > c->delete_ns)
			c->delete_ns = r->delete_ns;
		c->cache_drop = i == 0 ? r->cache_drop : c->cache_drop & r->cache_drop;
		c->cache_drop_any |= r->cache_drop;
		c->cache_drop_files += r->cache_drop_files;
		/* from the common start (0), fsync included */
		if (i == 0 || r->end_ns > c->duration_ns ||
		    (r->end_ns == c->duration_ns && r->rank < c->slowest_rank)) {
			c->duration_ns = r->end_ns;
			c->slowest_rank = r->rank;
			c->slowest_node = r->node;
		}
	}
	c->throughput_bytes_per_s =
		c->duration_ns > 0 ? (double)c->bytes * SC_NS_PER_S_F / (double)c->duration_ns : 0;
	c->async = ck->async && !ck->restore;
	for (uint32_t i = 0; c->async && i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		double rate = r->blocking_ns ? (double)r->bytes[SC_DIR_WRITE] * SC_NS_PER_S_F /
						   (double)r->blocking_ns
					     : 0;

		c->blocking_ns = r->blocking_ns > c->blocking_ns ? r->blocking_ns : c->blocking_ns;
		c->drain_ns = r->drain_ns > c->drain_ns ? r->drain_ns : c->drain_ns;
		c->stall_ns = r->stall_ns > c->stall_ns ? r->stall_ns : c->stall_ns;
		c->ranks_stalled += r->stall_ns > 0;
		if (r->bytes[SC_DIR_WRITE] &&
		    (!c->host_copy_bytes_per_s || rate < c->host_copy_bytes_per_s))
			c->host_copy_bytes_per_s = rate;
	}
}

static void trend_of(const struct sc_ckpt_cell *cells, uint32_t n, bool restore,
		     struct sc_ckpt_trend *t)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));
	double sx = 0, sy = 0, sxx = 0, sxy = 0, bytes = 0, dur = 0, first = 0, last = 0;
	uint32_t m = 0;

	memset(t, 0, sizeof(*t));
	if (!d)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const struct sc_ckpt_cell *c = &cells[i];
		double x = c->index, y = (double)c->duration_ns;

		if (c->restore != restore)
			continue;
		if (m == 0)
			first = y;
		last = y;
		d[m++] = y;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		bytes += (double)c->bytes;
		dur += y;
		if (y > t->max_ns)
			t->max_ns = y;
	}
	t->n = m;
	if (m) {
		t->mean_ns = sy / m;
		qsort(d, m, sizeof(*d), cmp_double);
		t->p50_ns = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
		t->throughput_bytes_per_s = dur > 0 ? bytes * SC_NS_PER_S_F / dur : 0;
	}
	if (m >= 2) {
		double den = m * sxx - sx * sx;

		t->slope_ns_per_ckpt = den != 0 ? (m * sxy - sx * sy) / den : 0;
		t->last_first_ratio = first > 0 ? last / first : NAN;
	} else {
		t->last_first_ratio = NAN; /* one checkpoint: no trend to show */
	}
	if (m)
		t->intercept_ns = (sy - t->slope_ns_per_ckpt * sx) / m;
	free(d);
}

static void node_durations_exit(struct sc_ckpt_node_durations *d)
{
	free(d->host);
	free(d->duration_ns);
	memset(d, 0, sizeof(*d));
}

/* d with room for nn nodes (its cells' rows widened, the new nodes' -1)
 * and a cell more.  0 or -ENOMEM (d unchanged). */
static int node_durations_grow(struct sc_ckpt_node_durations *d, uint32_t nn)
{
	int64_t *dur = malloc(((size_t)(d->ncells + 1) * nn + 1) * sizeof(*dur));
	char(*host)[SC_HOST_MAX] = nn > d->nnodes ? calloc(nn, sizeof(*host)) : d->host;

	if (!dur || (nn > d->nnodes && !host)) {
		free(dur);
		if (host != d->host)
			free(host);
		return -ENOMEM;
	}
	for (uint32_t c = 0; c < d->ncells; c++)
		for (uint32_t n = 0; n < nn; n++)
			dur[(size_t)c * nn + n] =
			    n < d->nnodes ? d->duration_ns[(size_t)c * d->nnodes + n] : -1;
	if (host != d->host) {
		if (d->nnodes)
			memcpy(host, d->host, d->nnodes * sizeof(*host));
		free(d->host);
		d->host = host;
	}
	free(d->duration_ns);
	d->duration_ns = dur;
	d->nnodes = nn;
	return 0;
}

/* Adds cell pr's row to d: each node's duration, the max over its ranks of
 * end - common start (fsync included), -1 where it has none; a node's host
 * from the first cell it is in.  0 or -ENOMEM (d unchanged). */
static int node_durations_add(struct sc_ckpt_node_durations *d, const struct sc_phase_record *pr)
{
	uint32_t nn = d->nnodes;
	int64_t *row;

	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].node + 1 > nn)
			nn = pr->ranks[i].node + 1;
	if (node_durations_grow(d, nn))
		return -ENOMEM;
	row = &d->duration_ns[(size_t)d->ncells * nn];
	for (uint32_t n = 0; n < nn; n++)
		row[n] = -1;
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		if (r->end_ns > row[r->node])
			row[r->node] = r->end_ns;
		if (!d->host[r->node][0])
			snprintf(d->host[r->node], sizeof(d->host[r->node]), "%s", r->host);
	}
	d->ncells++;
	return 0;
}

/* Which drive a rank's share belongs to. */
struct drive_key {
	uint32_t node;
	uint32_t id; /* target, or rank when per_rank */
	bool per_rank;
};

/* A rank's share of a cell, then (summed) a drive's. */
struct share {
	struct drive_key key;
	uint64_t bytes;
	int64_t end_ns; /* from the measured start; 0 when not after it */
};

/* The drives' order: node, then targets before ranks, then id. */
static int key_cmp(struct drive_key a, struct drive_key b)
{
	if (a.node != b.node)
		return a.node < b.node ? -1 : 1;
	if (a.per_rank != b.per_rank)
		return a.per_rank ? 1 : -1;
	return (a.id > b.id) - (a.id < b.id);
}

static int share_cmp(const void *a, const void *b)
{
	return key_cmp(((const struct share *)a)->key, ((const struct share *)b)->key);
}

static struct drive_key drive_key(const struct sc_ckpt_drive *d)
{
	return (struct drive_key){.node = d->node, .id = d->id, .per_rank = d->per_rank};
}

/* Cell pr's shares into s (room for its ranks), one a drive in the
 * drives' order: the bytes its ranks moved in the cell's direction and
 * the latest end of them.  Returns how many. */
static uint32_t cell_shares(const struct sc_plan *plan, const struct sc_phase_record *pr,
			    struct share *s)
{
	const struct sc_phase *ph = &plan->phases[pr->phase];
	bool per_rank = ph->io.engine == SC_ENGINE_EMULATED;
	int dir = ph->ckpt.restore ? SC_DIR_READ : SC_DIR_WRITE;
	uint32_t n = 0;

	for (uint32_t r = 0; r < pr->nranks; r++) {
		const struct sc_rank_result *rr = &pr->ranks[r];
		/* async: the drive's time is the drain, the host copy before it
		 * is memory's */
		int64_t t = rr->end_ns - pr->measure_start_ns - (int64_t)rr->blocking_ns;

		s[r] = (struct share){.key = {.node = rr->node,
					      .id = per_rank ? rr->rank : rr->target,
					      .per_rank = per_rank},
				      .bytes = rr->bytes[dir],
				      .end_ns = t > 0 ? t : 0};
	}
	qsort(s, pr->nranks, sizeof(*s), share_cmp);
	for (uint32_t r = 0; r < pr->nranks; r++) {
		if (n && !key_cmp(s[n - 1].key, s[r].key)) {
			s[n - 1].bytes += s[r].bytes;
			if (s[r].end_ns > s[n - 1].end_ns)
				s[n - 1].end_ns = s[r].end_ns;
		} else {
			s[n++] = s[r];
		}
	}
	return n;
}

/* g's drives and those of the n sorted shares s new to it, in order.
 * 0 or -ENOMEM (g unchanged). */
static int drives_merge(struct sc_ckpt_group *g, const struct share *s, uint32_t n)
{
	struct sc_ckpt_drive *d;
	uint32_t fresh = 0, i = 0, j = 0, k = 0;

	for (; i < n; i++) {
		while (j < g->ndrives && key_cmp(drive_key(&g->drives[j]), s[i].key) < 0)
			j++;
		fresh += j == g->ndrives || key_cmp(drive_key(&g->drives[j]), s[i].key);
	}
	if (!fresh)
		return 0;
	d = malloc(((size_t)g->ndrives + fresh) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0, j = 0; i < n || j < g->ndrives;) {
		int cmp;

		if (i == n)
			cmp = -1;
		else if (j == g->ndrives)
			cmp = 1;
		else
			cmp = key_cmp(drive_key(&g->drives[j]), s[i].key);
		if (cmp <= 0) {
			d[k++] = g->drives[j++];
			i += !cmp;
		} else {
			d[k++] = (struct sc_ckpt_drive){.node = s[i].key.node,
							.id = s[i].key.id,
							.per_rank = s[i].key.per_rank};
			i++;
		}
	}
	free(g->drives);
	g->drives = d;
	g->ndrives = k;
	return 0;
}

/* Appends c to series v.  0 or -ENOMEM (v unchanged). */
static int series_append(struct sc_ckpt_drive_series *v, struct sc_ckpt_drive_cell c)
{
	if (v->n == v->cap) {
		uint32_t cap = v->cap ? 2 * v->cap : 4;
		struct sc_ckpt_drive_cell *more = realloc(v->cells, cap * sizeof(*more));

		if (!more)
			return -ENOMEM;
		v->cells = more;
		v->cap = cap;
	}
	v->cells[v->n++] = c;
	return 0;
}

/* Adds cell pr's drives to g: a drive new to g in its place, and to each
 * drive that moved bytes and ended after the measured start its share,
 * as a write or a restore.  0 or -ENOMEM. */
static int drives_add(struct sc_ckpt_group *g, const struct sc_plan *plan,
		      const struct sc_phase_record *pr)
{
	bool restore = plan->phases[pr->phase].ckpt.restore;
	struct share *s = malloc((pr->nranks ? pr->nranks : 1) * sizeof(*s));
	uint32_t n, j = 0;
	int ret;

	if (!s)
		return -ENOMEM;
	n = cell_shares(plan, pr, s);
	ret = drives_merge(g, s, n);
	for (uint32_t i = 0; !ret && i < n; i++) {
		struct sc_ckpt_drive_cell c = {.bytes = s[i].bytes,
					       .dur_ns = (uint64_t)s[i].end_ns};
		struct sc_ckpt_drive *d;

		while (key_cmp(drive_key(&g->drives[j]), s[i].key) < 0)
			j++; /* s[i]'s drive is in g: merged */
		d = &g->drives[j];
		if (c.bytes && c.dur_ns)
			ret = series_append(restore ? &d->restore : &d->write, c);
	}
	free(s);
	return ret;
}

static void drives_free(struct sc_ckpt_drive *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(d[i].write.cells);
		free(d[i].restore.cells);
	}
	free(d);
}

/* Mean and population standard deviation of v[0..n), as numpy's mean
 * and std (ddof 0) give them. */
static void mean_stdev(const double *v, uint32_t n, double *mean, double *stdev)
{
	double sum = 0, sq = 0;

	*mean = *stdev = 0;
	if (!n)
		return;
	for (uint32_t i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	for (uint32_t i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*stdev = sqrt(sq / n);
}

const char *sc_ckpt_cache_drop_name(const struct sc_ckpt_mlperf *m)
{
	if (m->cache_drop & SC_CACHE_DROP_PROC)
		return "drop_caches";
	return m->cache_drop_any ? "fadvise" : "none";
}

/* Group g's figures in MLPerf's terms, when its procedure is mlperf. */
static void mlperf_figures(struct sc_ckpt_group *g, const struct sc_ckpt_spec *ck)
{
	struct sc_ckpt_mlperf *m = &g->mlperf;
	double *v = malloc((size_t)(g->ncells ? g->ncells : 1) * 3 * sizeof(*v));
	double *gb = v + g->ncells, *gib = gb + g->ncells, unused;
	double save_bytes = 0;

	memset(m, 0, sizeof(*m));
	if (ck->procedure != SC_PROCEDURE_MLPERF || !v) {
		free(v);
		return;
	}
	m->on = true;
	m->ranks = g->ncells ? g->cells[0].ranks : 0;
	m->layout_ranks = (uint64_t)ck->layout.tp * ck->layout.pp * ck->layout.dp;
	m->full_size_GiB = (double)g->full_size_bytes / (double)SC_GIB;
	for (int restore = 0; restore < 2; restore++) {
		uint32_t n = 0;

		for (uint32_t i = 0; i < g->ncells; i++) {
			const struct sc_ckpt_cell *c = &g->cells[i];
			double s = (double)c->duration_ns / SC_NS_PER_S_F;

			if (c->restore != (restore != 0) || s <= 0)
				continue;
			v[n] = s;
			gb[n] = (double)c->bytes / 1e9 / s;
			gib[n++] = (double)c->bytes / (double)SC_GIB / s;
			if (!restore)
				save_bytes += (double)c->bytes;
			if (restore && c->index == 1) {
				m->cache_drop = c->cache_drop;
				m->cache_drop_any = c->cache_drop_any;
				m->cache_drop_files = c->cache_drop_files;
			}
		}
		if (!restore) {
			m->nsave = n;
			mean_stdev(v, n, &m->save_mean_s, &m->save_stdev_s);
			mean_stdev(gb, n, &m->save_GBps, &unused);
			mean_stdev(gib, n, &m->save_GiBps, &unused);
			m->size_GiB = n ? save_bytes / n / (double)SC_GIB : 0;
		} else {
			m->nload = n;
			mean_stdev(v, n, &m->load_mean_s, &m->load_stdev_s);
			mean_stdev(gb, n, &m->load_GBps, &unused);
			mean_stdev(gib, n, &m->load_GiBps, &unused);
		}
	}
	free(v);
}

/* Group g's trends and projections from its cells. */
static void group_figures(struct sc_ckpt_group *g, const struct sc_plan *plan)
{
	const struct sc_ckpt_spec *ck = &plan->phases[g->first_phase].ckpt;

	trend_of(g->cells, g->ncells, false, &g->write);
	trend_of(g->cells, g->ncells, true, &g->restore);
	g->full_size_bytes = sc_ckpt_total_bytes(&ck->model, &ck->layout);
	g->projected_write_ns = 0;
	g->projected_restore_ns = 0;
	if (g->write.throughput_bytes_per_s > 0)
		g->projected_write_ns = (double)g->full_size_bytes * SC_NS_PER_S_F /
					g->write.throughput_bytes_per_s;
	if (g->restore.throughput_bytes_per_s > 0)
		g->projected_restore_ns = (double)g->full_size_bytes * SC_NS_PER_S_F /
					  g->restore.throughput_bytes_per_s;
	mlperf_figures(g, ck);
}

int sc_ckpt_groups_add(struct sc_ckpt_group **groups, uint32_t *ngroups,
		       const struct sc_plan *plan, const struct sc_phase_record *pr,
		       const struct sc_workload_figures *w)
{
	const struct sc_phase *ph = &plan->phases[pr->phase];
	struct sc_ckpt_group *g = *groups, *cur = NULL;
	struct sc_ckpt_cell *cells;

	/* a cell cut short would skew the group's trend */
	if (ph->workload != SC_WORKLOAD_CHECKPOINT || pr->status != SC_PHASE_OK)
		return 0;
	for (uint32_t k = 0; k < *ngroups; k++)
		if (strcmp(g[k].name, ph->group ? ph->group : "") == 0)
			cur = &g[k];
	if (!cur) {
		struct sc_ckpt_group *more = realloc(g, (*ngroups + 1) * sizeof(*g));

		if (!more)
			return -ENOMEM;
		*groups = g = more;
		cur = &g[(*ngroups)++];
		memset(cur, 0, sizeof(*cur));
		cur->name = ph->group ? ph->group : "";
		cur->first_phase = pr->phase;
	}
	cells = realloc(cur->cells, (cur->ncells + 1) * sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	cur->cells = cells;
	if (node_durations_add(&cur->nodes, pr) || drives_add(cur, plan, pr))
		return -ENOMEM;
	cur->cells[cur->ncells++] = w->ckpt;
	group_figures(cur, plan);
	return 0;
}

void sc_ckpt_groups_free(struct sc_ckpt_group *groups, uint32_t ngroups)
{
	for (uint32_t k = 0; k < ngroups; k++) {
		free(groups[k].cells);
		node_durations_exit(&groups[k].nodes);
		drives_free(groups[k].drives, groups[k].ndrives);
	}
	free(groups);
}

double sc_rank_au(const struct sc_rank_result *r)
{
	int64_t wall = r->end_ns - r->start_ns;

	return wall > 0 ? (double)r->compute_ns / (double)wall : 0;
}

void sc_ingest_figures(const struct sc_phase_record *rec, const struct sc_phase_figures *fig,
		       struct sc_ingest_figures *out)
{
	double window_s = (double)(fig->lastdone_ns - fig->window_start_ns) / SC_NS_PER_S_F;

	memset(out, 0, sizeof(*out));
	out->au_meets_90 = rec->nranks > 0;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		int64_t wall = r->end_ns - r->start_ns;
		double au = sc_rank_au(r);

		out->samples += r->samples;
		out->steps += r->steps;
		out->compute_ns += r->compute_ns;
		out->wall_ns += wall > 0 ? (uint64_t)wall : 0;
		out->barrier_wait_ns += r->barrier_wait_ns;
		if (i == 0 || r->barrier_wait_ns > out->barrier_wait_max_ns) {
			out->barrier_wait_max_ns = r->barrier_wait_ns;
			out->barrier_wait_max_rank = r->rank;
		}
		if (i == 0 || au < out->au_min) {
			out->au_min = au;
			out->au_min_rank = r->rank;
		}
		if (au < AU_BAR)
			out->au_meets_90 = false;
	}
	out->au = out->wall_ns ? (double)out->compute_ns / (double)out->wall_ns : 0;
	out->samples_per_s = window_s > 0 ? (double)out->samples / window_s : 0;
	if (rec->batch_wait) {
		out->has_batch_wait = true;
		sc_hist_summarize(rec->batch_wait, &out->batch_wait);
	}
}

double sc_rank_training_au(const struct sc_rank_result *r)
{
	return r->au_wall_ns ? (double)r->au_compute_ns / (double)r->au_wall_ns : 0;
}

uint32_t sc_rank_accels(const struct sc_rank_result *r)
{
	return r->naccels ? r->naccels : 1;
}

struct sc_accel_row sc_rank_accel(const struct sc_rank_result *r, uint32_t a)
{
	if (r->naccels)
		return r->accels[a];
	return (struct sc_accel_row){.index = r->rank,
				     .samples = r->samples,
				     .steps = r->steps,
				     .au_steps = r->au_steps,
				     .au_compute_ns = r->au_compute_ns,
				     .au_wall_ns = r->au_wall_ns,
				     .barrier_wait_ns = r->barrier_wait_ns};
}

double sc_accel_au(const struct sc_accel_row *x)
{
	return x->au_wall_ns ? (double)x->au_compute_ns / (double)x->au_wall_ns : 0;
}

void sc_training_figures(const struct sc_phase *ph, const struct sc_phase_record *rec,
			 const struct sc_phase_figures *fig, struct sc_training_figures *out)
{
	const struct sc_training_spec *t = &ph->training;
	double sum = 0;

	memset(out, 0, sizeof(*out));
	out->hosts = fig->nodes_len;
	out->au_threshold = t->au;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];

		out->samples += r->samples;
		out->steps += r->steps;
		for (uint32_t a = 0; a < sc_rank_accels(r); a++) {
			struct sc_accel_row x = sc_rank_accel(r, a);
			double au = sc_accel_au(&x);

			sum += au;
			if (!out->accelerators || au < out->au_min) {
				out->au_min = au;
				out->au_min_rank = r->rank;
				out->au_min_accel = x.index;
			}
			if (!out->accelerators || au > out->au_max)
				out->au_max = au;
			out->accelerators++;
			if (sc_training_au_below(out, au))
				out->accels_below++;
			if (x.au_wall_ns) {
				out->au_measured = true;
				out->samples_per_s += (double)x.au_steps * t->batch *
						      SC_NS_PER_S_F / (double)x.au_wall_ns;
			}
		}
	}
	out->au = out->accelerators ? sum / out->accelerators : 0;
	out->au_meets = out->au_measured && !sc_training_au_below(out, out->au);
	out->sample_bytes = out->samples ? (double)fig->total_bytes / (double)out->samples : 0;
	out->mlperf_io_MiBps = out->samples_per_s * (double)t->record_bytes / (1024.0 * 1024.0);
	if (rec->batch_wait) {
		out->has_batch_wait = true;
		sc_hist_summarize(rec->batch_wait, &out->batch_wait);
	}
}

bool sc_training_au_below(const struct sc_training_figures *g, double au)
{
	return au < g->au_threshold;
}

void sc_training_samples_per_s(const struct sc_training_figures *g, const double *bytes_per_s,
			       uint32_t n, double *out)
{
	for (uint32_t k = 0; k < n; k++)
		out[k] = g->sample_bytes > 0 ? bytes_per_s[k] / g->sample_bytes : NAN;
}

/* The bytes of the dataset a host of n of the run's accelerators reads an
 * epoch (DLIO's data_size_per_host): n x each one's block of samples x the
 * mean sample, saturating. */
static uint64_t host_data_bytes(const struct sc_training_spec *t, uint32_t accelerators,
				uint32_t n)
{
	unsigned __int128 samples, bytes;

	if (!accelerators || !t->samples_per_file)
		return 0;
	samples = (unsigned __int128)t->files * t->samples_per_file / accelerators;
	bytes = samples * n *
		(sc_mlperf_mean_file_bytes(t->record_bytes, t->record_stdev_bytes,
					   t->samples_per_file) /
		 t->samples_per_file);
	return bytes > UINT64_MAX ? UINT64_MAX : (uint64_t)bytes;
}

/* Each node row's AU into w->node_au (fig's rows): the mean of the AUs of
 * its accelerators, NAN for a row with none; its potential caching into
 * w->node_caching; the lowest AU, how many are below the threshold, the
 * accelerators and data of the first and the hosts caching into
 * w->training.  0 or -ENOMEM. */
static int training_node_au(const struct sc_phase *ph, const struct sc_phase_record *pr,
			    const struct sc_phase_figures *fig, struct sc_workload_figures *w)
{
	struct sc_training_figures *g = &w->training;
	uint32_t n = fig->nodes_len, *count = calloc(n ? n : 1, sizeof(*count));
	double *au = calloc(n ? n : 1, sizeof(*au));
	uint64_t *mem = calloc(n ? n : 1, sizeof(*mem));

	w->node_caching = calloc(n ? n : 1, sizeof(*w->node_caching));
	if (!count || !au || !mem || !w->node_caching) {
		free(count);
		free(au);
		free(mem);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		uint32_t lo = 0, hi = n, node = r->node;

		while (lo < hi) { /* the rows are in increasing node order */
			uint32_t mid = lo + (hi - lo) / 2;

			if (fig->nodes[mid].node < node)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo >= n || fig->nodes[lo].node != node)
			continue;
		if (r->host_memory_bytes > mem[lo])
			mem[lo] = r->host_memory_bytes;
		for (uint32_t a = 0; a < sc_rank_accels(r); a++) {
			struct sc_accel_row x = sc_rank_accel(r, a);

			au[lo] += sc_accel_au(&x);
			count[lo]++;
		}
	}
	g->per_host = n ? count[0] : 0;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t data = host_data_bytes(&ph->training, g->accelerators, count[k]);

		if (k == 0)
			g->data_per_host_bytes = data;
		/* DLIO: memory above the host's share, and (ours) buffered reads */
		w->node_caching[k] = count[k] && !ph->io.direct && mem[k] > data;
		g->hosts_caching += w->node_caching[k];
		au[k] = count[k] ? au[k] / count[k] : NAN;
		if (!count[k])
			continue;
		if (!g->hosts_measured || au[k] < g->host_au_min) {
			g->host_au_min = au[k];
			g->host_au_min_node = fig->nodes[k].node;
		}
		g->hosts_measured = true;
		if (sc_training_au_below(g, au[k]))
			g->hosts_below++;
	}
	free(count);
	free(mem);
	w->node_au = au;
	return 0;
}

int sc_open_loop_figures(const struct sc_phase_record *rec, struct sc_open_loop_figures *out)
{
	memset(out, 0, sizeof(*out));
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		out->has_resp[d] = rec->resp[d] != NULL;
		if (rec->resp[d])
			sc_hist_summarize(rec->resp[d], &out->resp[d]);
	}
	for (uint32_t i = 0; i < rec->nranks; i++) {
		out->late_ios += rec->ranks[i].late_ios;
		out->unissued_ios += rec->ranks[i].unissued_ios;
	}
	if (!out->has_resp[SC_DIR_READ] && !out->has_resp[SC_DIR_WRITE])
		return 0; /* resp_all: the empty summary */
	return sc_lat_merged(rec->resp, &out->resp_all);
}

int sc_workload_figures_of(const struct sc_plan *plan, const struct sc_phase_record *pr,
			   const struct sc_phase_figures *fig, struct sc_workload_figures *out)
{
	const struct sc_phase *ph = pr->phase < plan->nphases ? &plan->phases[pr->phase] : NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if (ph && ph->workload == SC_WORKLOAD_CHECKPOINT)
		sc_ckpt_cell_figures(plan, pr, &out->ckpt);
	if (ph && ph->workload == SC_WORKLOAD_INGEST) {
		sc_ingest_figures(pr, fig, &out->ingest);
		out->rank_au = calloc(pr->nranks ? pr->nranks : 1, sizeof(*out->rank_au));
		if (!out->rank_au)
			return -ENOMEM;
		for (uint32_t i = 0; i < pr->nranks; i++)
			out->rank_au[i] = sc_rank_au(&pr->ranks[i]);
	}
	if (ph && ph->workload == SC_WORKLOAD_TRAINING) {
		sc_training_figures(ph, pr, fig, &out->training);
		out->rank_au = calloc(pr->nranks ? pr->nranks : 1, sizeof(*out->rank_au));
		if (!out->rank_au)
			return -ENOMEM;
		for (uint32_t i = 0; i < pr->nranks; i++)
			out->rank_au[i] = sc_rank_training_au(&pr->ranks[i]);
		out->accel_au = calloc(out->training.accelerators ? out->training.accelerators : 1,
				       sizeof(*out->accel_au));
		if (!out->accel_au) {
			sc_workload_figures_exit(out);
			return -ENOMEM;
		}
		for (uint32_t i = 0, k = 0; i < pr->nranks; i++)
			for (uint32_t a = 0; a < sc_rank_accels(&pr->ranks[i]); a++) {
				struct sc_accel_row x = sc_rank_accel(&pr->ranks[i], a);

				out->accel_au[k++] = sc_accel_au(&x);
			}
		if (training_node_au(ph, pr, fig, out)) {
			sc_workload_figures_exit(out);
			return -ENOMEM;
		}
	}
	err = sc_open_loop_figures(pr, &out->open_loop);
	if (!err && ph && ph->workload == SC_WORKLOAD_FILL)
		err = sc_fill_cliffs(plan, pr, fig, &out->cliffs);
	sc_verify_figures(pr, &out->verify);
	if (ph)
		sc_stage_row(ph, fig, &out->stage);
	if (err)
		sc_workload_figures_exit(out);
	return err;
}

void sc_workload_figures_exit(struct sc_workload_figures *w)
{
	free(w->rank_au);
	free(w->node_au);
	free(w->accel_au);
	free(w->node_caching);
	sc_fill_cliffs_exit(&w->cliffs);
	memset(w, 0, sizeof(*w));
}

void sc_verify_figures(const struct sc_phase_record *rec, struct sc_verify_figures *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];

		out->checked += r->verify_checked;
		out->mismatches += r->verify_mismatches;
		out->ranks_with_mismatches += r->verify_mismatches != 0;
		out->listed += r->verify_nkept;
	}
}

const struct sc_verify_mismatch *sc_verify_listed(const struct sc_phase_record *rec, uint32_t i,
						  const struct sc_rank_result **rank)
{
	for (uint32_t k = 0; k < rec->nranks; k++) {
		const struct sc_rank_result *r = &rec->ranks[k];

		if (i < r->verify_nkept) {
			*rank = r;
			return &r->verify_kept[i];
		}
		i -= r->verify_nkept;
	}
	return NULL;
}
