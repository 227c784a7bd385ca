/* node_series.c -- per-node and cluster rates per second (node_series.h). */
#include "node_series.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define NS_PER_S ((int64_t)SC_NS_PER_S)

/* Adds n seconds into s, growing them to n.  0 or -ENOMEM. */
static int add_seconds(struct sc_rate_series *s, const struct sc_second *seconds, uint32_t n)
{
	if (!seconds || !n)
		return 0;
	if (n > s->nseconds) {
		struct sc_second *more = realloc(s->seconds, n * sizeof(*more));

		if (!more)
			return -ENOMEM;
		memset(more + s->nseconds, 0, (n - s->nseconds) * sizeof(*more));
		s->seconds = more;
		s->nseconds = n;
	}
	sc_seconds_add(s->seconds, seconds, n);
	return 0;
}

/* Rank r's part of s: its end, and its seconds unless the record holds
 * the series reduced (reduced). */
static int add_rank(struct sc_rate_series *s, const struct sc_rank_result *r, bool reduced)
{
	if (r->end_ns > s->end_ns)
		s->end_ns = r->end_ns;
	return reduced ? 0 : add_seconds(s, r->seconds, r->nseconds);
}

/* The series the record holds reduced: the cluster's, and each node's it
 * kept (a node past them has none: its rates are left out). */
static int add_reduced(struct sc_node_series *out, const struct sc_phase_record *pr)
{
	int err = add_seconds(&out->cluster, pr->cluster->seconds, pr->cluster->nseconds);

	for (uint32_t n = 0; n < pr->nnode_series && n < out->nnodes && !err; n++)
		err = add_seconds(&out->nodes[n], pr->node_series[n].seconds,
				  pr->node_series[n].nseconds);
	return err;
}

/* The rates of s's seconds; its last second scaled to the time it covered
 * up to end (its ranks' latest end), or left out under a quarter second.
 * measure_ns: the phase's measured start.  0 or -ENOMEM. */
static int make_rates(struct sc_rate_series *s, int64_t measure_ns)
{
	uint32_t n = s->nseconds;
	int64_t last_ns = NS_PER_S;

	if (!n)
		return 0;
	if (s->end_ns - measure_ns < (int64_t)n * NS_PER_S)
		last_ns = s->end_ns - measure_ns - (int64_t)(n - 1) * NS_PER_S;
	if (last_ns < SC_SERIES_MIN_LAST_NS)
		n--;
	s->t_s = calloc(n ? n : 1, sizeof(double));
	s->bw_bytes_per_s = calloc(n ? n : 1, sizeof(double));
	s->iops = calloc(n ? n : 1, sizeof(double));
	if (!s->t_s || !s->bw_bytes_per_s || !s->iops)
		return -ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		const struct sc_second *sec = &s->seconds[k];
		int64_t covered = k + 1 == s->nseconds ? last_ns : NS_PER_S;

		s->t_s[k] = (double)((int64_t)k * NS_PER_S + covered) / SC_NS_PER_S_F;
		s->bw_bytes_per_s[k] =
		    sc_per_second(sec->bytes[SC_DIR_READ] + sec->bytes[SC_DIR_WRITE], 0, covered);
		s->iops[k] =
		    sc_per_second(sec->ios[SC_DIR_READ] + sec->ios[SC_DIR_WRITE], 0, covered);
	}
	s->n = n;
	return 0;
}

static void series_exit(struct sc_rate_series *s)
{
	free(s->seconds);
	free(s->t_s);
	free(s->bw_bytes_per_s);
	free(s->iops);
	memset(s, 0, sizeof(*s));
}

int sc_node_series_init(struct sc_node_series *out, const struct sc_phase_record *pr)
{
	uint32_t nnodes = 0;
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->cluster.node = UINT32_MAX;
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].node + 1 > nnodes)
			nnodes = pr->ranks[i].node + 1;
	out->nodes = calloc(nnodes ? nnodes : 1, sizeof(*out->nodes));
	if (!out->nodes)
		return -ENOMEM;
	out->nnodes = nnodes;
	for (uint32_t n = 0; n < nnodes; n++)
		out->nodes[n].node = n;
	for (uint32_t i = 0; i < pr->nranks && !err; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		struct sc_rate_series *node = &out->nodes[r->node];

		if (!node->host)
			node->host = r->host;
		err = add_rank(node, r, pr->cluster != NULL);
		if (!err)
			err = add_rank(&out->cluster, r, pr->cluster != NULL);
	}
	if (!err && pr->cluster)
		err = add_reduced(out, pr);
	for (uint32_t n = 0; n < nnodes && !err; n++)
		err = make_rates(&out->nodes[n], pr->measure_start_ns);
	if (!err)
		err = make_rates(&out->cluster, pr->measure_start_ns);
	if (err)
		sc_node_series_exit(out);
	return err;
}

void sc_node_series_exit(struct sc_node_series *s)
{
	for (uint32_t n = 0; n < s->nnodes; n++)
		series_exit(&s->nodes[n]);
	free(s->nodes);
	series_exit(&s->cluster);
	memset(s, 0, sizeof(*s));
	s->cluster.node = UINT32_MAX;
}
