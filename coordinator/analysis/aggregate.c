/* aggregate.c -- cluster figures of a phase, from its ranks and merged histograms. */
#include "aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "extremes.h"
#include "units.h"

double sc_per_second(uint64_t amount, int64_t start_ns, int64_t end_ns)
{
	if (end_ns <= start_ns)
		return 0;
	return (double)amount * SC_NS_PER_S_F / (double)(end_ns - start_ns);
}

/* amount over the window [start_ns, end_ns] taken in seconds first: the
 * node and target rows' IOPS and samples/s have always divided this way
 * (rounding differs from sc_per_second's in the last bit); 0 for an empty
 * window. */
static double over_window_s(uint64_t amount, int64_t start_ns, int64_t end_ns)
{
	double secs = (double)(end_ns - start_ns) / SC_NS_PER_S_F;

	return secs > 0 ? (double)amount / secs : 0;
}

int sc_pct_index(double p)
{
	for (int i = 0; i < SC_NPCT; i++)
		if (sc_pct_points[i] == p)
			return i;
	return 0;
}

int sc_lat_merged(struct sc_hist *const h[SC_DIR_COUNT], struct sc_lat_summary *out)
{
	struct sc_hist *all = malloc(sizeof(*all)); /* 35 KB: not on the stack */

	if (!all)
		return -ENOMEM;
	sc_hist_init(all);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		if (h[d])
			sc_hist_add(all, h[d]);
	sc_hist_summarize(all, out);
	free(all);
	return 0;
}

/* Where a rank's measured time begins: its own start, or the end of the
 * ramp when it started before that. */
static int64_t measured_start(const struct sc_phase_record *rec, const struct sc_rank_result *r)
{
	return r->start_ns > rec->measure_start_ns ? r->start_ns : rec->measure_start_ns;
}

/* Coefficient of variation of the complete seconds of d: every second but
 * the last, which the phase's end cuts short.  NAN (undefined) with fewer
 * than 2 complete seconds or a mean of 0 (nothing moved in d). */
static double volatility(const struct sc_second *s, uint32_t nseconds, int d)
{
	uint32_t n = nseconds ? nseconds - 1 : 0;
	double mean = 0, var = 0;

	if (n < 2)
		return NAN;
	for (uint32_t k = 0; k < n; k++)
		mean += (double)s[k].bytes[d];
	mean /= n;
	if (mean <= 0)
		return NAN;
	for (uint32_t k = 0; k < n; k++) {
		double dev = (double)s[k].bytes[d] - mean;

		var += dev * dev;
	}
	return sqrt(var / n) / mean;
}

/* Host of rank in rec, "" when rec has no such rank. */
static const char *host_of_rank(const struct sc_phase_record *rec, uint32_t rank)
{
	for (uint32_t i = 0; i < rec->nranks; i++)
		if (rec->ranks[i].rank == rank)
			return rec->ranks[i].host;
	return "";
}

static void copy_host(char dst[SC_HOST_MAX], const char *src)
{
	memcpy(dst, src, SC_HOST_MAX);
	dst[SC_HOST_MAX - 1] = '\0';
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* What groups the ranks into rows: the node, or the node and target. */
static uint64_t node_key(const struct sc_rank_result *r)
{
	return r->node;
}

static uint64_t target_key(const struct sc_rank_result *r)
{
	return (uint64_t)r->node << 32 | r->target;
}

/* Rows for rec's ranks grouped by key_of: returns n zeroed rows of
 * row_size bytes (calloc'd), one per distinct key, with the keys in *keys
 * (malloc'd, increasing) and their count in *n; NULL when out of memory.
 * rec has ranks. */
static void *rows_by_key(const struct sc_phase_record *rec,
			 uint64_t (*key_of)(const struct sc_rank_result *), size_t row_size,
			 uint64_t **keys, uint32_t *n)
{
	uint64_t *k = malloc(rec->nranks * sizeof(*k));
	uint32_t m = 0;
	void *rows;

	if (!k)
		return NULL;
	for (uint32_t i = 0; i < rec->nranks; i++)
		k[i] = key_of(&rec->ranks[i]);
	qsort(k, rec->nranks, sizeof(*k), cmp_u64);
	for (uint32_t i = 0; i < rec->nranks; i++)
		if (i == 0 || k[i] != k[m - 1])
			k[m++] = k[i];
	rows = calloc(m, row_size);
	if (!rows) {
		free(k);
		return NULL;
	}
	*keys = k;
	*n = m;
	return rows;
}

/* Row of key among the n sorted distinct keys (it is one of them). */
static uint32_t row_of(const uint64_t *keys, uint32_t n, uint64_t key)
{
	const uint64_t *hit = bsearch(&key, keys, n, sizeof(*keys), cmp_u64);

	return (uint32_t)(hit - keys);
}

/* Adds rank r (measured from start) to a row's sums: node and target rows
 * alike. */
static void sum_rank(const struct sc_rank_result *r, int64_t start, uint32_t *nranks,
		     uint64_t *bytes, uint64_t *ios, uint64_t *errors, int64_t *start_ns,
		     int64_t *end_ns)
{
	if (*nranks == 0 || start < *start_ns)
		*start_ns = start;
	if (*nranks == 0 || r->end_ns > *end_ns)
		*end_ns = r->end_ns;
	(*nranks)++;
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		bytes[d] += r->bytes[d];
		ios[d] += r->ios[d];
	}
	*errors += r->errors;
}

/* A row's rates over its window, once its sums are complete. */
static void row_rates(const uint64_t *bytes, const uint64_t *ios, int64_t start_ns, int64_t end_ns,
		      uint64_t *total_bytes, double *bw_bytes_per_s, double *iops)
{
	*total_bytes = bytes[SC_DIR_READ] + bytes[SC_DIR_WRITE];
	*bw_bytes_per_s = sc_per_second(*total_bytes, start_ns, end_ns);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		iops[d] = over_window_s(ios[d], start_ns, end_ns);
}

/* One row per distinct node index, in increasing order. */
static int build_nodes(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint64_t *key;
	uint32_t n, *leader;

	if (!rec->nranks)
		return 0;
	f->nodes = rows_by_key(rec, node_key, sizeof(*f->nodes), &key, &n);
	if (!f->nodes)
		return -ENOMEM;
	f->nodes_len = f->nnodes = n;
	leader = malloc(n * sizeof(*leader)); /* the lowest rank of each row */
	if (!leader) {
		free(key);
		return -ENOMEM;
	}
	for (uint32_t j = 0; j < n; j++)
		f->nodes[j].node = (uint32_t)key[j];
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		uint32_t j = row_of(key, n, node_key(r));
		struct sc_node_row *row = &f->nodes[j];

		for (int d = 0; d < SC_DIR_COUNT; d++)
			if (r->node_lat[d].count)
				row->lat[d] = r->node_lat[d];
		/* the node's lowest rank names it and gives its clock offset */
		if (row->nranks == 0 || r->rank < leader[j]) {
			leader[j] = r->rank;
			row->clock_offset_ns = r->clock_offset_ns;
			copy_host(row->host, r->host);
		}
		row->samples += r->samples;
		sum_rank(r, measured_start(rec, r), &row->nranks, row->bytes, row->ios, &row->errors,
			 &row->start_ns, &row->end_ns);
	}
	free(leader);
	free(key);
	for (uint32_t j = 0; j < n; j++) {
		struct sc_node_row *row = &f->nodes[j];

		row_rates(row->bytes, row->ios, row->start_ns, row->end_ns, &row->total_bytes,
			  &row->bw_bytes_per_s, row->iops);
		row->samples_per_s = over_window_s(row->samples, row->start_ns, row->end_ns);
	}
	return 0;
}

/* One row per (node, target) pair that some rank used. */
static int build_targets(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint64_t *key;
	uint32_t n;

	if (!rec->nranks)
		return 0;
	f->targets = rows_by_key(rec, target_key, sizeof(*f->targets), &key, &n);
	if (!f->targets)
		return -ENOMEM;
	f->targets_len = n;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		struct sc_target_row *row = &f->targets[row_of(key, n, target_key(r))];

		if (row->nranks == 0) {
			row->node = r->node;
			row->target = r->target;
			copy_host(row->host, r->host);
		}
		sum_rank(r, measured_start(rec, r), &row->nranks, row->bytes, row->ios, &row->errors,
			 &row->start_ns, &row->end_ns);
	}
	free(key);
	for (uint32_t j = 0; j < n; j++) {
		struct sc_target_row *row = &f->targets[j];

		row_rates(row->bytes, row->ios, row->start_ns, row->end_ns, &row->total_bytes,
			  &row->bw_bytes_per_s, row->iops);
	}
	return 0;
}

/* Each rank's total and its bandwidth over its own measured time. */
static int build_rank_rows(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	if (!rec->nranks)
		return 0;
	f->rank_rows = calloc(rec->nranks, sizeof(*f->rank_rows));
	if (!f->rank_rows)
		return -ENOMEM;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		struct sc_rank_row *row = &f->rank_rows[i];

		row->total_bytes = r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE];
		row->bw_bytes_per_s =
		    sc_per_second(row->total_bytes, measured_start(rec, r), r->end_ns);
		row->iops = sc_per_second(r->ios[SC_DIR_READ] + r->ios[SC_DIR_WRITE],
					  measured_start(rec, r), r->end_ns);
	}
	return 0;
}

/* The cluster's per-second series: as reduced in the cluster, or in
 * records from before that, the element-wise sum of the ranks' series
 * (max for latency and temperature). */
static int build_seconds(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint32_t n = 0;

	if (rec->cluster) {
		n = rec->cluster->nseconds;
		if (!n || !rec->cluster->seconds)
			return 0;
		f->seconds = malloc(n * sizeof(*f->seconds));
		if (!f->seconds)
			return -ENOMEM;
		memcpy(f->seconds, rec->cluster->seconds, n * sizeof(*f->seconds));
		f->nseconds = n;
		return 0;
	}
	for (uint32_t i = 0; i < rec->nranks; i++)
		if (rec->ranks[i].seconds && rec->ranks[i].nseconds > n)
			n = rec->ranks[i].nseconds;
	if (!n)
		return 0;
	f->seconds = calloc(n, sizeof(*f->seconds));
	if (!f->seconds)
		return -ENOMEM;
	f->nseconds = n;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];

		if (r->seconds)
			sc_seconds_add(f->seconds, r->seconds, r->nseconds);
	}
	return 0;
}

/* The temperature of second k of f, deg C, or NAN: none read. */
static double temp_of(const struct sc_phase_figures *f, uint32_t k)
{
	return sc_temp_c(f->seconds[k].max_temp_mk);
}

/* What temp_span reads: the phase, its temperatures and span width. */
struct temp_spans {
	const double *c;
	uint32_t width;
};

static double temp_span(const void *ctx, uint32_t k)
{
	const struct temp_spans *t = ctx;

	return isnan(t->c[k]) ? NAN : (double)(k / t->width);
}

/* f's temperature line, reduced (SC_TEMP_SPANS). */
static int build_temps(struct sc_phase_figures *f)
{
	double *c;
	uint32_t *keep, n;
	struct temp_spans t = {NULL, f->nseconds / SC_TEMP_SPANS + 1};
	bool any = false;

	for (uint32_t k = 0; k < f->nseconds && !any; k++)
		any = f->seconds[k].max_temp_mk != 0;
	if (!any)
		return 0;
	c = malloc(f->nseconds * sizeof(*c));
	keep = malloc(f->nseconds * sizeof(*keep));
	if (!c || !keep)
		goto out_nomem;
	for (uint32_t k = 0; k < f->nseconds; k++)
		c[k] = temp_of(f, k);
	t.c = c;
	n = sc_extremes_pick(c, f->nseconds, temp_span, &t, keep);
	f->temp_xy = malloc(2 * n * sizeof(*f->temp_xy));
	if (!f->temp_xy)
		goto out_nomem;
	for (uint32_t i = 0; i < n; i++) {
		bool brk = keep[i] == SC_EXTREMES_BREAK;

		/* a break sits just after the point before it */
		f->temp_xy[i] = brk ? (i ? f->temp_xy[i - 1] : 0) : keep[i];
		f->temp_xy[n + i] = brk ? NAN : c[keep[i]];
	}
	f->ntemp = n;
	free(c);
	free(keep);
	return 0;

out_nomem:
	free(c);
	free(keep);
	return -ENOMEM;
}

static int cmp_failure_ref(const void *a, const void *b)
{
	const struct sc_failure_ref *x = a, *y = b;

	if (x->failure->time_ns != y->failure->time_ns)
		return (x->failure->time_ns > y->failure->time_ns) -
		       (x->failure->time_ns < y->failure->time_ns);
	if (x->rank->rank != y->rank->rank)
		return (x->rank->rank > y->rank->rank) - (x->rank->rank < y->rank->rank);
	return (x->failure > y->failure) - (x->failure < y->failure);
}

/* The cluster's failed I/Os by errno, and its first kept failures. */
static int build_failures(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint64_t by_errno[SC_ERRNO_SLOTS] = {0};
	uint32_t n = 0, kept = 0;

	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];

		for (uint32_t k = 0; k < r->nerrnos; k++)
			if (r->errnos[k].err >= 0 && r->errnos[k].err < SC_ERRNO_SLOTS)
				by_errno[r->errnos[k].err] += r->errnos[k].count;
		kept += r->nfailures;
	}
	for (int e = 0; e < SC_ERRNO_SLOTS; e++)
		n += by_errno[e] != 0;
	if (!n && !kept)
		return 0;
	f->errnos = calloc(n ? n : 1, sizeof(*f->errnos));
	f->first_failures = calloc(kept ? kept : 1, sizeof(*f->first_failures));
	if (!f->errnos || !f->first_failures)
		return -ENOMEM;
	for (int e = 0; e < SC_ERRNO_SLOTS; e++)
		if (by_errno[e])
			f->errnos[f->nerrnos++] =
			    (struct sc_errno_count){.err = e, .count = by_errno[e]};
	for (uint32_t i = 0; i < rec->nranks; i++)
		for (uint32_t k = 0; k < rec->ranks[i].nfailures; k++)
			f->first_failures[f->nfirst_failures++] = (struct sc_failure_ref){
			    .rank = &rec->ranks[i], .failure = &rec->ranks[i].failures[k]};
	qsort(f->first_failures, f->nfirst_failures, sizeof(*f->first_failures),
	      cmp_failure_ref);
	if (f->nfirst_failures > SC_IO_FAILURES_KEPT)
		f->nfirst_failures = SC_IO_FAILURES_KEPT;
	return 0;
}

/* The cluster sums over the ranks, the window and the slowest rank. */
static void sum_ranks(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	int64_t min_start = 0, max_start = 0;

	f->nranks = rec->nranks;
	f->window_start_ns = rec->measure_start_ns;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		int64_t start = measured_start(rec, r);

		for (int d = 0; d < SC_DIR_COUNT; d++) {
			f->bytes[d] += r->bytes[d];
			f->ios[d] += r->ios[d];
		}
		f->planned_bytes += r->planned_bytes;
		f->fsyncs += r->fsyncs;
		f->time_capped_jobs += r->time_capped_jobs;
		f->errors += r->errors;
		f->firstdone_bytes += r->firstdone_bytes;
		if (r->errors || r->error[0])
			f->ranks_with_errors++;
		if (i == 0 || start < f->window_start_ns)
			f->window_start_ns = start;
		if (i == 0 || r->start_ns < min_start)
			min_start = r->start_ns;
		if (i == 0 || r->start_ns > max_start)
			max_start = r->start_ns;
		if (i == 0 || r->end_ns < f->firstdone_ns)
			f->firstdone_ns = r->end_ns;
		/* latest end; on a tie the lowest rank stays */
		if (i == 0 || r->end_ns > f->lastdone_ns ||
		    (r->end_ns == f->lastdone_ns && r->rank < f->slowest_rank)) {
			f->lastdone_ns = r->end_ns;
			f->slowest_rank = r->rank;
			f->slowest_node = r->node;
		}
	}
	/* the instant the ranks were told of (a rank stopped by stonewall may
	 * have ended before it); records without it: the earliest end */
	if (rec->firstdone_ns > 0)
		f->firstdone_ns = rec->firstdone_ns;
	f->total_bytes = f->bytes[SC_DIR_READ] + f->bytes[SC_DIR_WRITE];
	f->start_skew_ns = max_start - min_start;
	if (rec->nranks)
		f->slowest_host = host_of_rank(rec, f->slowest_rank);
}

/* sc_aggregate_phase_calls: rank 0 aggregates on one thread */
static uint64_t aggregate_calls;

uint64_t sc_aggregate_phase_calls(void)
{
	return aggregate_calls;
}

/* The first of the n rows (size bytes each) whose double at off (the
 * bandwidth) is the lowest; n when there is none. */
static uint32_t lowest_bw(const void *rows, size_t size, size_t off, uint32_t n)
{
	const char *at = rows;
	uint32_t slow = n;
	double low = 0;

	for (uint32_t i = 0; i < n; i++) {
		double bw = *(const double *)(at + i * size + off);

		if (slow == n || bw < low) {
			slow = i;
			low = bw;
		}
	}
	return slow;
}

int sc_aggregate_phase(const struct sc_phase_record *rec, struct sc_phase_figures *out)
{
	struct sc_phase_figures f;
	int err;

	aggregate_calls++;

	memset(&f, 0, sizeof(f));
	sum_ranks(rec, &f);
	f.lastdone_bw_bytes_per_s = sc_per_second(f.total_bytes, f.window_start_ns, f.lastdone_ns);
	f.firstdone_bw_bytes_per_s =
	    sc_per_second(f.firstdone_bytes, f.window_start_ns, f.firstdone_ns);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		f.iops[d] = sc_per_second(f.ios[d], f.window_start_ns, f.lastdone_ns);
		f.iops_total += f.iops[d];
		if (rec->lat[d])
			sc_hist_summarize(rec->lat[d], &f.lat[d]);
	}

	err = sc_lat_merged(rec->lat, &f.lat_all);
	if (!err)
		err = build_nodes(rec, &f);
	if (!err)
		err = build_targets(rec, &f);
	if (!err)
		err = build_rank_rows(rec, &f);
	if (!err)
		err = build_seconds(rec, &f);
	if (!err)
		err = build_temps(&f);
	if (!err)
		err = build_failures(rec, &f);
	if (err) {
		sc_phase_figures_exit(&f);
		return err;
	}
	if (f.slowest_node < f.nodes_len)
		f.slowest_node_host = f.nodes[f.slowest_node].host;
	f.lowest_bw_node = lowest_bw(f.nodes, sizeof(*f.nodes),
				     offsetof(struct sc_node_row, bw_bytes_per_s), f.nodes_len);
	f.lowest_bw_target =
	    lowest_bw(f.targets, sizeof(*f.targets), offsetof(struct sc_target_row, bw_bytes_per_s),
		      f.targets_len);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		f.volatility[d] = volatility(f.seconds, f.nseconds, d);
	*out = f;
	return 0;
}

int sc_phase_figures_thin(struct sc_phase_figures *f, struct sc_names *names)
{
	const char *host = sc_names_keep(names, f->slowest_host);

	if (f->slowest_host && !host)
		return -ENOMEM;
	f->slowest_host = host;
	free(f->rank_rows);
	f->rank_rows = NULL;
	free(f->targets);
	f->targets = NULL;
	f->targets_len = 0;
	free(f->first_failures);
	f->first_failures = NULL;
	f->nfirst_failures = 0;
	return 0;
}

void sc_phase_figures_exit(struct sc_phase_figures *f)
{
	if (!f)
		return;
	free(f->nodes);
	free(f->targets);
	free(f->rank_rows);
	free(f->seconds);
	free(f->temp_xy);
	free(f->errnos);
	free(f->first_failures);
	memset(f, 0, sizeof(*f));
}
