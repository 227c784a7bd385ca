/* aggregate.c -- cluster figures of a phase, from its ranks and merged histograms. */
#include "aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* bytes (or I/Os) per second over [start, end]; 0 for an empty window. */
static double per_second(uint64_t amount, int64_t start_ns, int64_t end_ns)
{
	if (end_ns <= start_ns)
		return 0;
	return (double)amount * SC_NS_PER_S_F / (double)(end_ns - start_ns);
}

/* Where a rank's measured time begins: its own start, or the end of the
 * ramp when it started before that. */
static int64_t measured_start(const struct sc_phase_record *rec, const struct sc_rank_result *r)
{
	return r->start_ns > rec->measure_start_ns ? r->start_ns : rec->measure_start_ns;
}

/* Coefficient of variation of the complete seconds of d: every second but
 * the last, which the phase's end cuts short. */
static double volatility(const struct sc_second *s, uint32_t nseconds, int d)
{
	uint32_t n = nseconds ? nseconds - 1 : 0;
	double mean = 0, var = 0;

	if (n < 2)
		return 0;
	for (uint32_t k = 0; k < n; k++)
		mean += (double)s[k].bytes[d];
	mean /= n;
	if (mean <= 0)
		return 0;
	for (uint32_t k = 0; k < n; k++) {
		double dev = (double)s[k].bytes[d] - mean;

		var += dev * dev;
	}
	return sqrt(var / n) / mean;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
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

/* One row per distinct node index, in increasing order. */
static int build_nodes(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint32_t *idx, n = 0;

	if (!rec->nranks)
		return 0;
	idx = malloc(rec->nranks * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (uint32_t i = 0; i < rec->nranks; i++)
		idx[i] = rec->ranks[i].node;
	qsort(idx, rec->nranks, sizeof(*idx), cmp_u32);
	for (uint32_t i = 0; i < rec->nranks; i++)
		if (i == 0 || idx[i] != idx[n - 1])
			idx[n++] = idx[i];

	f->nodes = calloc(n, sizeof(*f->nodes));
	if (!f->nodes) {
		free(idx);
		return -ENOMEM;
	}
	f->nodes_len = n;
	f->nnodes = n;
	for (uint32_t j = 0; j < n; j++)
		f->nodes[j].node = idx[j];
	/* idx[j] now holds the lowest rank seen on row j, whose host names it */

	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		int64_t start = measured_start(rec, r);
		struct sc_node_row *row = NULL;
		uint32_t lo = 0, hi = n;

		while (lo < hi) { /* rows are sorted by node index */
			uint32_t mid = lo + (hi - lo) / 2;

			if (f->nodes[mid].node < r->node)
				lo = mid + 1;
			else
				hi = mid;
		}
		row = &f->nodes[lo];
		for (int d = 0; d < SC_DIR_COUNT; d++)
			if (r->node_lat[d].count)
				row->lat[d] = r->node_lat[d];
		if (row->nranks == 0 || r->rank < idx[lo]) {
			idx[lo] = r->rank;
			row->clock_offset_ns = r->clock_offset_ns;
			memcpy(row->host, r->host, sizeof(row->host));
			row->host[sizeof(row->host) - 1] = '\0';
		}
		sum_rank(r, start, &row->nranks, row->bytes, row->ios, &row->errors, &row->start_ns,
			 &row->end_ns);
	}
	for (uint32_t j = 0; j < n; j++) {
		struct sc_node_row *row = &f->nodes[j];

		row->bw_bytes_per_s = per_second(row->bytes[SC_DIR_READ] + row->bytes[SC_DIR_WRITE],
						 row->start_ns, row->end_ns);
	}
	free(idx);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* One row per (node, target) pair that some rank used. */
static int build_targets(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint64_t *key;
	uint32_t n = 0;

	if (!rec->nranks)
		return 0;
	key = malloc(rec->nranks * sizeof(*key));
	if (!key)
		return -ENOMEM;
	for (uint32_t i = 0; i < rec->nranks; i++)
		key[i] = (uint64_t)rec->ranks[i].node << 32 | rec->ranks[i].target;
	qsort(key, rec->nranks, sizeof(*key), cmp_u64);
	for (uint32_t i = 0; i < rec->nranks; i++)
		if (i == 0 || key[i] != key[n - 1])
			key[n++] = key[i];
	f->targets = calloc(n, sizeof(*f->targets));
	if (!f->targets) {
		free(key);
		return -ENOMEM;
	}
	f->targets_len = n;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		uint64_t k = (uint64_t)r->node << 32 | r->target;
		uint64_t *hit = bsearch(&k, key, n, sizeof(*key), cmp_u64);
		struct sc_target_row *row = &f->targets[hit - key];
		int64_t start = measured_start(rec, r);

		if (row->nranks == 0) {
			row->node = r->node;
			row->target = r->target;
			memcpy(row->host, r->host, sizeof(row->host));
			row->host[sizeof(row->host) - 1] = '\0';
		}
		sum_rank(r, start, &row->nranks, row->bytes, row->ios, &row->errors, &row->start_ns,
			 &row->end_ns);
	}
	for (uint32_t j = 0; j < n; j++) {
		struct sc_target_row *row = &f->targets[j];

		row->bw_bytes_per_s = per_second(row->bytes[SC_DIR_READ] + row->bytes[SC_DIR_WRITE],
						 row->start_ns, row->end_ns);
	}
	free(key);
	return 0;
}

/* Element-wise sum of the ranks' per-second series (max for latency). */
static int build_seconds(const struct sc_phase_record *rec, struct sc_phase_figures *f)
{
	uint32_t n = 0;

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

		if (!r->seconds)
			continue;
		for (uint32_t k = 0; k < r->nseconds; k++) {
			struct sc_second *c = &f->seconds[k];

			for (int d = 0; d < SC_DIR_COUNT; d++) {
				c->bytes[d] += r->seconds[k].bytes[d];
				c->ios[d] += r->seconds[k].ios[d];
				if (r->seconds[k].max_lat_ns[d] > c->max_lat_ns[d])
					c->max_lat_ns[d] = r->seconds[k].max_lat_ns[d];
			}
		}
	}
	return 0;
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

int sc_aggregate_phase(const struct sc_phase_record *rec, struct sc_phase_figures *out)
{
	struct sc_phase_figures f;
	int64_t min_start = 0, max_start = 0;
	int err;

	memset(&f, 0, sizeof(f));
	f.nranks = rec->nranks;
	f.window_start_ns = rec->measure_start_ns;
	for (uint32_t i = 0; i < rec->nranks; i++) {
		const struct sc_rank_result *r = &rec->ranks[i];
		int64_t start = measured_start(rec, r);

		for (int d = 0; d < SC_DIR_COUNT; d++) {
			f.bytes[d] += r->bytes[d];
			f.ios[d] += r->ios[d];
		}
		f.planned_bytes += r->planned_bytes;
		f.fsyncs += r->fsyncs;
		f.errors += r->errors;
		f.firstdone_bytes += r->firstdone_bytes;
		if (r->errors || r->error[0])
			f.ranks_with_errors++;
		if (i == 0 || start < f.window_start_ns)
			f.window_start_ns = start;
		if (i == 0 || r->start_ns < min_start)
			min_start = r->start_ns;
		if (i == 0 || r->start_ns > max_start)
			max_start = r->start_ns;
		if (i == 0 || r->end_ns < f.firstdone_ns)
			f.firstdone_ns = r->end_ns;
		/* latest end; on a tie the lowest rank stays */
		if (i == 0 || r->end_ns > f.lastdone_ns ||
		    (r->end_ns == f.lastdone_ns && r->rank < f.slowest_rank)) {
			f.lastdone_ns = r->end_ns;
			f.slowest_rank = r->rank;
			f.slowest_node = r->node;
		}
	}
	f.total_bytes = f.bytes[SC_DIR_READ] + f.bytes[SC_DIR_WRITE];
	f.start_skew_ns = max_start - min_start;
	f.lastdone_bw_bytes_per_s = per_second(f.total_bytes, f.window_start_ns, f.lastdone_ns);
	f.firstdone_bw_bytes_per_s =
	    per_second(f.firstdone_bytes, f.window_start_ns, f.firstdone_ns);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		f.iops[d] = per_second(f.ios[d], f.window_start_ns, f.lastdone_ns);
		f.iops_total += f.iops[d];
		if (rec->lat[d])
			sc_hist_summarize(rec->lat[d], &f.lat[d]);
	}

	err = build_nodes(rec, &f);
	if (!err)
		err = build_targets(rec, &f);
	if (!err)
		err = build_seconds(rec, &f);
	if (!err)
		err = build_failures(rec, &f);
	if (err) {
		sc_phase_figures_exit(&f);
		return err;
	}
	for (int d = 0; d < SC_DIR_COUNT; d++)
		f.volatility[d] = volatility(f.seconds, f.nseconds, d);
	*out = f;
	return 0;
}

void sc_phase_figures_exit(struct sc_phase_figures *f)
{
	if (!f)
		return;
	free(f->nodes);
	free(f->targets);
	free(f->seconds);
	free(f->errnos);
	free(f->first_failures);
	memset(f, 0, sizeof(*f));
}
