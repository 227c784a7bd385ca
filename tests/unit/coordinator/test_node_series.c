/* test_node_series.c -- bandwidth over time per node: a node's seconds are
 * exactly the sum of its ranks' seconds and the cluster's the sum of all;
 * the rate of a last second the phase ended part-way through is its amount
 * over the time it covered, or it is left out under a quarter second; a
 * phase that ends on a whole second keeps every second as it is (the
 * slowest node and drive rows: test_aggregate.c). */
#include "analysis/node_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define S      INT64_C(1000000000)
#define NRANKS 3u
#define NSEC   3u

/* Ranks 0 and 1 on node 0 ("alpha"), rank 2 on node 1 ("beta"), each with
 * NSEC seconds of distinct amounts; measured start 0.5 s; every rank ends
 * end_after_ns after the measured start. */
static void make_record(struct sc_phase_record *pr, struct sc_rank_result *r, int64_t end_after_ns)
{
	memset(pr, 0, sizeof(*pr));
	memset(r, 0, NRANKS * sizeof(*r));
	pr->measure_start_ns = S / 2;
	pr->nranks = NRANKS;
	pr->ranks = r;
	for (uint32_t i = 0; i < NRANKS; i++) {
		r[i].rank = i;
		r[i].node = i / 2;
		snprintf(r[i].host, sizeof(r[i].host), "%s", i < 2 ? "alpha" : "beta");
		r[i].start_ns = 0;
		r[i].end_ns = pr->measure_start_ns + end_after_ns;
		r[i].nseconds = NSEC;
		r[i].seconds = xcalloc(NSEC, sizeof(*r[i].seconds));
		for (uint32_t k = 0; k < NSEC; k++) {
			struct sc_second *s = &r[i].seconds[k];

			s->bytes[SC_DIR_READ] = 1000000 * (i + 1) + 1000 * k + 7;
			s->bytes[SC_DIR_WRITE] = 300000 * (i + 1) + k;
			s->ios[SC_DIR_READ] = 100 * (i + 1) + k;
			s->ios[SC_DIR_WRITE] = 10 * (i + 1) + 3 * k;
			s->max_lat_ns[SC_DIR_READ] = 5000 + 10 * i + k;
		}
	}
}

static void free_record(struct sc_rank_result *r)
{
	for (uint32_t i = 0; i < NRANKS; i++)
		free(r[i].seconds);
}

/* bytes (ios when !bytes) of second k summed over the ranks of node
 * (UINT32_MAX: all). */
static uint64_t sum_of(const struct sc_rank_result *r, uint32_t node, uint32_t k, int d, bool bytes)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < NRANKS; i++)
		if (node == UINT32_MAX || r[i].node == node)
			sum += bytes ? r[i].seconds[k].bytes[d] : r[i].seconds[k].ios[d];
	return sum;
}

/* s's seconds against the sums of its ranks'. */
static void check_sums(const struct sc_rate_series *s, const struct sc_rank_result *r)
{
	CHECK(s->nseconds == NSEC, "node %u: %u seconds", s->node, s->nseconds);
	for (uint32_t k = 0; k < s->nseconds && k < NSEC; k++)
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			CHECK(s->seconds[k].bytes[d] == sum_of(r, s->node, k, d, true),
			      "node %u second %u dir %d: bytes %llu", s->node, k, d,
			      (unsigned long long)s->seconds[k].bytes[d]);
			CHECK(s->seconds[k].ios[d] == sum_of(r, s->node, k, d, false),
			      "node %u second %u dir %d: ios %llu", s->node, k, d,
			      (unsigned long long)s->seconds[k].ios[d]);
		}
}

/* The rates of s when the last second covered last_s seconds (dropped:
 * not there at all). */
static void check_rates(const struct sc_rate_series *s, const struct sc_rank_result *r,
			double last_s, bool dropped)
{
	uint32_t want = dropped ? NSEC - 1 : NSEC;

	CHECK(s->n == want, "node %u: %u points, want %u", s->node, s->n, want);
	for (uint32_t k = 0; k < s->n && k < want; k++) {
		double covered = k == NSEC - 1 ? last_s : 1.0;
		double bytes = (double)(sum_of(r, s->node, k, SC_DIR_READ, true) +
					sum_of(r, s->node, k, SC_DIR_WRITE, true));
		double ios = (double)(sum_of(r, s->node, k, SC_DIR_READ, false) +
				      sum_of(r, s->node, k, SC_DIR_WRITE, false));

		CHECK(fabs(s->bw_bytes_per_s[k] - bytes / covered) <= 1e-9 * bytes / covered,
		      "node %u second %u: %.1f B/s, want %.1f", s->node, k, s->bw_bytes_per_s[k],
		      bytes / covered);
		CHECK(fabs(s->iops[k] - ios / covered) <= 1e-9 * ios / covered,
		      "node %u second %u: %.3f IOPS, want %.3f", s->node, k, s->iops[k],
		      ios / covered);
		CHECK(fabs(s->t_s[k] - (k + covered)) < 1e-9, "node %u second %u at %.3f s",
		      s->node, k, s->t_s[k]);
	}
}

/* A phase that ends end_after_ns after its measured start. */
static void check_phase(int64_t end_after_ns, double last_s, bool dropped)
{
	struct sc_rank_result r[NRANKS];
	struct sc_phase_record pr;
	struct sc_node_series ns;
	char ctx[64];

	snprintf(ctx, sizeof(ctx), "phase ending at %.2f s", (double)end_after_ns / S);
	check_context = ctx;
	make_record(&pr, r, end_after_ns);
	CHECK(sc_node_series_init(&ns, &pr) == 0, "sc_node_series_init failed");
	CHECK(ns.nnodes == 2, "%u nodes", ns.nnodes);
	for (uint32_t n = 0; n < ns.nnodes && n < 2; n++) {
		CHECK(ns.nodes[n].node == n && strcmp(ns.nodes[n].host, n ? "beta" : "alpha") == 0,
		      "node %u is %s", n, ns.nodes[n].host);
		check_sums(&ns.nodes[n], r);
		check_rates(&ns.nodes[n], r, last_s, dropped);
	}
	CHECK(ns.cluster.node == UINT32_MAX && !ns.cluster.host, "the cluster named as a node");
	check_sums(&ns.cluster, r);
	check_rates(&ns.cluster, r, last_s, dropped);
	for (uint32_t k = 0; k < ns.cluster.nseconds; k++)
		CHECK(ns.cluster.seconds[k].max_lat_ns[SC_DIR_READ] == 5020 + k,
		      "second %u: max latency %llu, want the largest", k,
		      (unsigned long long)ns.cluster.seconds[k].max_lat_ns[SC_DIR_READ]);
	sc_node_series_exit(&ns);
	free_record(r);
	check_context = NULL;
}

/* Node 1 ends earlier than node 0: each node's last second is scaled to its
 * own end, the cluster's to the latest. */
static void check_own_ends(void)
{
	struct sc_rank_result r[NRANKS];
	struct sc_phase_record pr;
	struct sc_node_series ns;

	check_context = "nodes ending apart";
	make_record(&pr, r, 2 * S + S / 2);
	r[2].end_ns = pr.measure_start_ns + 2 * S + S / 2 - S / 5; /* 0.3 s covered */
	CHECK(sc_node_series_init(&ns, &pr) == 0, "sc_node_series_init failed");
	if (ns.nnodes == 2) {
		check_rates(&ns.nodes[0], r, 0.5, false);
		check_rates(&ns.nodes[1], r, 0.3, false);
		check_rates(&ns.cluster, r, 0.5, false);
	}
	sc_node_series_exit(&ns);
	free_record(r);
	check_context = NULL;
}

int main(void)
{
	check_phase(2 * S + S / 2, 0.5, false); /* half a second: doubled */
	check_phase(2 * S + S / 10, 0.1, true); /* a tenth: left out */
	check_phase(3 * S, 1.0, false);		/* whole seconds: as they are */
	check_phase(4 * S, 1.0, false);		/* ended after its last second */
	check_own_ends();
	return check_exit("test_node_series");
}
