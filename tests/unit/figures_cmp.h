/* figures_cmp.h -- exact comparison of two sets of a phase's figures
 * (struct sc_phase_figures, struct sc_node_series) and of per-second
 * series, for the tests that pin issue 13's aggregation: figures read
 * from the reduced series against those summed from the ranks' own.
 *
 * Every number is compared exactly (doubles bit for bit, NaN equal to
 * NaN); each difference is printed on out as "what: field: a != b".
 * Header only, shared by tests/unit/coordinator/test_series.c and
 * tests/cluster/series_check.c.
 */
#ifndef SC_TEST_FIGURES_CMP_H
#define SC_TEST_FIGURES_CMP_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/node_series.h"
#include "result.h"

/* Where differences are printed and how many there were. */
struct cmp {
	FILE *out;
	const char *what;
	unsigned diffs;
};

static inline void cmp_u64(struct cmp *c, const char *field, uint64_t a, uint64_t b)
{
	if (a == b)
		return;
	c->diffs++;
	fprintf(c->out, "%s: %s: %" PRIu64 " != %" PRIu64 "\n", c->what, field, a, b);
}

static inline void cmp_i64(struct cmp *c, const char *field, int64_t a, int64_t b)
{
	if (a == b)
		return;
	c->diffs++;
	fprintf(c->out, "%s: %s: %" PRId64 " != %" PRId64 "\n", c->what, field, a, b);
}

static inline void cmp_f64(struct cmp *c, const char *field, double a, double b)
{
	if (memcmp(&a, &b, sizeof(a)) == 0 || (a != a && b != b))
		return;
	c->diffs++;
	fprintf(c->out, "%s: %s: %.17g != %.17g\n", c->what, field, a, b);
}

static inline void cmp_str(struct cmp *c, const char *field, const char *a, const char *b)
{
	if ((!a && !b) || (a && b && strcmp(a, b) == 0))
		return;
	c->diffs++;
	fprintf(c->out, "%s: %s: \"%s\" != \"%s\"\n", c->what, field, a ? a : "(null)",
		b ? b : "(null)");
}

/* field[i] names an element: "nodes[2].bytes[0]". */
#define CMP_AT(buf, ...) (snprintf(buf, sizeof(buf), __VA_ARGS__), buf)

static inline void cmp_lat(struct cmp *c, const char *field, const struct sc_lat_summary *a,
			   const struct sc_lat_summary *b)
{
	char f[96];

	cmp_u64(c, CMP_AT(f, "%s.count", field), a->count, b->count);
	cmp_u64(c, CMP_AT(f, "%s.min_ns", field), a->min_ns, b->min_ns);
	cmp_u64(c, CMP_AT(f, "%s.max_ns", field), a->max_ns, b->max_ns);
	cmp_f64(c, CMP_AT(f, "%s.mean_ns", field), a->mean_ns, b->mean_ns);
	for (int i = 0; i < SC_NPCT; i++)
		cmp_u64(c, CMP_AT(f, "%s.pct_ns[%d]", field, i), a->pct_ns[i], b->pct_ns[i]);
}

/* Two series of seconds, member by member. */
static inline void cmp_seconds(struct cmp *c, const char *field, const struct sc_second *a,
			       uint32_t na, const struct sc_second *b, uint32_t nb)
{
	char f[96];

	cmp_u64(c, CMP_AT(f, "%s.nseconds", field), na, nb);
	for (uint32_t k = 0; k < na && k < nb; k++) {
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			cmp_u64(c, CMP_AT(f, "%s[%u].bytes[%d]", field, k, d), a[k].bytes[d],
				b[k].bytes[d]);
			cmp_u64(c, CMP_AT(f, "%s[%u].ios[%d]", field, k, d), a[k].ios[d],
				b[k].ios[d]);
			cmp_u64(c, CMP_AT(f, "%s[%u].max_lat_ns[%d]", field, k, d),
				a[k].max_lat_ns[d], b[k].max_lat_ns[d]);
		}
		cmp_u64(c, CMP_AT(f, "%s[%u].max_temp_mk", field, k), a[k].max_temp_mk,
			b[k].max_temp_mk);
	}
}

/* The members node rows and target rows share, of rows[i]: a and b are
 * either two struct sc_node_row or two struct sc_target_row. */
#define CMP_ROW_COMMON(c, rows, i, a, b)                                                           \
	do {                                                                                       \
		char f_[96];                                                                       \
                                                                                                   \
		cmp_u64(c, CMP_AT(f_, "%s[%u].node", rows, i), (a)->node, (b)->node);              \
		cmp_str(c, CMP_AT(f_, "%s[%u].host", rows, i), (a)->host, (b)->host);              \
		cmp_u64(c, CMP_AT(f_, "%s[%u].nranks", rows, i), (a)->nranks, (b)->nranks);        \
		for (int d_ = 0; d_ < SC_DIR_COUNT; d_++) {                                        \
			cmp_u64(c, CMP_AT(f_, "%s[%u].bytes[%d]", rows, i, d_), (a)->bytes[d_],    \
				(b)->bytes[d_]);                                                   \
			cmp_u64(c, CMP_AT(f_, "%s[%u].ios[%d]", rows, i, d_), (a)->ios[d_],        \
				(b)->ios[d_]);                                                     \
			cmp_f64(c, CMP_AT(f_, "%s[%u].iops[%d]", rows, i, d_), (a)->iops[d_],      \
				(b)->iops[d_]);                                                    \
		}                                                                                  \
		cmp_u64(c, CMP_AT(f_, "%s[%u].errors", rows, i), (a)->errors, (b)->errors);        \
		cmp_i64(c, CMP_AT(f_, "%s[%u].start_ns", rows, i), (a)->start_ns, (b)->start_ns);  \
		cmp_i64(c, CMP_AT(f_, "%s[%u].end_ns", rows, i), (a)->end_ns, (b)->end_ns);        \
		cmp_u64(c, CMP_AT(f_, "%s[%u].total_bytes", rows, i), (a)->total_bytes,            \
			(b)->total_bytes);                                                         \
		cmp_f64(c, CMP_AT(f_, "%s[%u].bw_bytes_per_s", rows, i), (a)->bw_bytes_per_s,      \
			(b)->bw_bytes_per_s);                                                      \
	} while (0)

static inline void cmp_node_row(struct cmp *c, uint32_t i, const struct sc_node_row *a,
				const struct sc_node_row *b)
{
	char f[96];

	CMP_ROW_COMMON(c, "nodes", i, a, b);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		cmp_lat(c, CMP_AT(f, "nodes[%u].lat[%d]", i, d), &a->lat[d], &b->lat[d]);
	cmp_i64(c, CMP_AT(f, "nodes[%u].clock_offset_ns", i), a->clock_offset_ns,
		b->clock_offset_ns);
	cmp_u64(c, CMP_AT(f, "nodes[%u].samples", i), a->samples, b->samples);
	cmp_f64(c, CMP_AT(f, "nodes[%u].samples_per_s", i), a->samples_per_s, b->samples_per_s);
}

static inline void cmp_target_row(struct cmp *c, uint32_t i, const struct sc_target_row *a,
				  const struct sc_target_row *b)
{
	char f[96];

	CMP_ROW_COMMON(c, "targets", i, a, b);
	cmp_u64(c, CMP_AT(f, "targets[%u].target", i), a->target, b->target);
}

/* The cluster's totals and times of two figures. */
static inline void cmp_totals(struct cmp *c, const struct sc_phase_figures *a,
			      const struct sc_phase_figures *b)
{
	char f[96];

	cmp_u64(c, "nranks", a->nranks, b->nranks);
	cmp_u64(c, "nnodes", a->nnodes, b->nnodes);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		cmp_u64(c, CMP_AT(f, "bytes[%d]", d), a->bytes[d], b->bytes[d]);
		cmp_u64(c, CMP_AT(f, "ios[%d]", d), a->ios[d], b->ios[d]);
		cmp_f64(c, CMP_AT(f, "iops[%d]", d), a->iops[d], b->iops[d]);
		cmp_lat(c, CMP_AT(f, "lat[%d]", d), &a->lat[d], &b->lat[d]);
		cmp_f64(c, CMP_AT(f, "volatility[%d]", d), a->volatility[d], b->volatility[d]);
	}
	cmp_u64(c, "total_bytes", a->total_bytes, b->total_bytes);
	cmp_u64(c, "planned_bytes", a->planned_bytes, b->planned_bytes);
	cmp_u64(c, "fsyncs", a->fsyncs, b->fsyncs);
	cmp_u64(c, "errors", a->errors, b->errors);
	cmp_u64(c, "ranks_with_errors", a->ranks_with_errors, b->ranks_with_errors);
	cmp_i64(c, "window_start_ns", a->window_start_ns, b->window_start_ns);
	cmp_i64(c, "lastdone_ns", a->lastdone_ns, b->lastdone_ns);
	cmp_i64(c, "firstdone_ns", a->firstdone_ns, b->firstdone_ns);
	cmp_i64(c, "start_skew_ns", a->start_skew_ns, b->start_skew_ns);
	cmp_u64(c, "firstdone_bytes", a->firstdone_bytes, b->firstdone_bytes);
	cmp_f64(c, "lastdone_bw_bytes_per_s", a->lastdone_bw_bytes_per_s,
		b->lastdone_bw_bytes_per_s);
	cmp_f64(c, "firstdone_bw_bytes_per_s", a->firstdone_bw_bytes_per_s,
		b->firstdone_bw_bytes_per_s);
	cmp_f64(c, "iops_total", a->iops_total, b->iops_total);
	cmp_lat(c, "lat_all", &a->lat_all, &b->lat_all);
	cmp_u64(c, "slowest_rank", a->slowest_rank, b->slowest_rank);
	cmp_u64(c, "slowest_node", a->slowest_node, b->slowest_node);
	cmp_str(c, "slowest_host", a->slowest_host, b->slowest_host);
	cmp_str(c, "slowest_node_host", a->slowest_node_host, b->slowest_node_host);
}

/* Every number of two phase figures: totals, rows and the cluster's
 * seconds.  Returns the differences found. */
static inline unsigned cmp_figures(FILE *out, const char *what, const struct sc_phase_figures *a,
				   const struct sc_phase_figures *b)
{
	struct cmp c = {.out = out, .what = what};
	char f[96];

	cmp_totals(&c, a, b);
	for (uint32_t i = 0; i < a->nranks && i < b->nranks; i++) {
		cmp_u64(&c, CMP_AT(f, "rank_rows[%u].total_bytes", i), a->rank_rows[i].total_bytes,
			b->rank_rows[i].total_bytes);
		cmp_f64(&c, CMP_AT(f, "rank_rows[%u].bw_bytes_per_s", i),
			a->rank_rows[i].bw_bytes_per_s, b->rank_rows[i].bw_bytes_per_s);
		cmp_f64(&c, CMP_AT(f, "rank_rows[%u].iops", i), a->rank_rows[i].iops,
			b->rank_rows[i].iops);
	}
	cmp_u64(&c, "nodes_len", a->nodes_len, b->nodes_len);
	for (uint32_t i = 0; i < a->nodes_len && i < b->nodes_len; i++)
		cmp_node_row(&c, i, &a->nodes[i], &b->nodes[i]);
	cmp_u64(&c, "targets_len", a->targets_len, b->targets_len);
	for (uint32_t i = 0; i < a->targets_len && i < b->targets_len; i++)
		cmp_target_row(&c, i, &a->targets[i], &b->targets[i]);
	cmp_seconds(&c, "seconds", a->seconds, a->nseconds, b->seconds, b->nseconds);
	cmp_u64(&c, "nerrnos", a->nerrnos, b->nerrnos);
	for (uint32_t i = 0; i < a->nerrnos && i < b->nerrnos; i++) {
		cmp_i64(&c, CMP_AT(f, "errnos[%u].err", i), a->errnos[i].err, b->errnos[i].err);
		cmp_u64(&c, CMP_AT(f, "errnos[%u].count", i), a->errnos[i].count,
			b->errnos[i].count);
	}
	cmp_u64(&c, "nfirst_failures", a->nfirst_failures, b->nfirst_failures);
	return c.diffs;
}

static inline void cmp_rate_series(struct cmp *c, const char *name, const struct sc_rate_series *a,
				   const struct sc_rate_series *b)
{
	char f[96];

	cmp_u64(c, CMP_AT(f, "%s.node", name), a->node, b->node);
	cmp_str(c, CMP_AT(f, "%s.host", name), a->host, b->host);
	cmp_i64(c, CMP_AT(f, "%s.end_ns", name), a->end_ns, b->end_ns);
	cmp_seconds(c, CMP_AT(f, "%s.seconds", name), a->seconds, a->nseconds, b->seconds,
		    b->nseconds);
	cmp_u64(c, CMP_AT(f, "%s.n", name), a->n, b->n);
	for (uint32_t k = 0; k < a->n && k < b->n; k++) {
		cmp_f64(c, CMP_AT(f, "%s.t_s[%u]", name, k), a->t_s[k], b->t_s[k]);
		cmp_f64(c, CMP_AT(f, "%s.bw_bytes_per_s[%u]", name, k), a->bw_bytes_per_s[k],
			b->bw_bytes_per_s[k]);
		cmp_f64(c, CMP_AT(f, "%s.iops[%u]", name, k), a->iops[k], b->iops[k]);
	}
}

/* Every node's and the cluster's series and rates.  Returns the
 * differences found. */
static inline unsigned cmp_node_series(FILE *out, const char *what, const struct sc_node_series *a,
				       const struct sc_node_series *b)
{
	struct cmp c = {.out = out, .what = what};
	char name[32];

	cmp_u64(&c, "nnodes", a->nnodes, b->nnodes);
	for (uint32_t n = 0; n < a->nnodes && n < b->nnodes; n++)
		cmp_rate_series(&c, CMP_AT(name, "node[%u]", n), &a->nodes[n], &b->nodes[n]);
	cmp_rate_series(&c, "cluster", &a->cluster, &b->cluster);
	return c.diffs;
}

/* The seconds of every rank of rec on node (UINT32_MAX: every rank)
 * summed by sc_seconds_add, as long as the longest: *n seconds, heap
 * (NULL when none).  -ENOMEM or 0. */
static inline int cmp_sum_ranks(const struct sc_phase_record *rec, uint32_t node,
				struct sc_second **out, uint32_t *n)
{
	uint32_t len = 0;

	*out = NULL;
	*n = 0;
	for (uint32_t i = 0; i < rec->nranks; i++)
		if ((node == UINT32_MAX || rec->ranks[i].node == node) && rec->ranks[i].seconds &&
		    rec->ranks[i].nseconds > len)
			len = rec->ranks[i].nseconds;
	if (!len)
		return 0;
	*out = calloc(len, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	*n = len;
	for (uint32_t i = 0; i < rec->nranks; i++)
		if ((node == UINT32_MAX || rec->ranks[i].node == node) && rec->ranks[i].seconds)
			sc_seconds_add(*out, rec->ranks[i].seconds, rec->ranks[i].nseconds);
	return 0;
}

#endif
