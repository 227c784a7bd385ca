/* test_aggregate.c -- cluster figures of hand-made phase records with known answers. */
#include "analysis/aggregate.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define GB UINT64_C(1000000000)
#define S  INT64_C(1000000000)

static struct sc_hist *hist_new(void)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	sc_hist_init(h);
	return h;
}

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
}

/* Three ranks on two nodes, interleaved and uneven: ranks 0 and 2 on node 0
 * ("alpha"), rank 1 on node 1 ("beta").  The ramp ends at 1 s; rank 0
 * started before that, ranks 1 and 2 after it.
 *
 *   rank node start  end   read  write  read ios  write ios  firstdone
 *   0    0    0.5 s  5 s   4 GB  0      1000      0          4 GB
 *   1    1    1.2 s  11 s  2 GB  1 GB   500       250        1 GB
 *   2    0    1.1 s  9 s   3 GB  2 GB   750       500        1 GB
 *
 * Window: 1 s .. 11 s (10 s), first done at 5 s (4 s after the window
 * opened).  Read latencies: rank 0 100 x 100 ns, rank 1 100 x 200 ns,
 * rank 2 2 x 10000 ns; the merged p50 is 200 ns, the average of the
 * per-rank p50s is 3433 ns. */
static void make_record(struct sc_phase_record *rec)
{
	static const struct {
		uint32_t node;
		const char *host;
		int64_t start, end;
		uint64_t rd, wr, rios, wios, fd, fsyncs, errors;
		const char *error;
		uint64_t lat_ns, nlat;
	} rows[3] = {
	    {0, "alpha", S / 2, 5 * S, 4 * GB, 0, 1000, 0, 4 * GB, 0, 0, "", 100, 100},
	    {1, "beta", S + S / 5, 11 * S, 2 * GB, 1 * GB, 500, 250, 1 * GB, 3, 2,
	     "write of 4096 B at offset 0 in /x: Input/output error", 200, 100},
	    {0, "alpha", S + S / 10, 9 * S, 3 * GB, 2 * GB, 750, 500, 1 * GB, 5, 0, "", 10000, 2},
	};
	/* per-second read bytes of each rank; the cluster sum is checked */
	static const uint64_t sec_rd[3][5] = {
	    {100, 200, 300, 0, 0},
	    {10, 20, 30, 40, 50},
	    {1, 2, 0, 0, 0},
	};
	static const uint32_t nsec[3] = {3, 5, 2};

	memset(rec, 0, sizeof(*rec));
	rec->phase = 0;
	rec->measure_start_ns = S;
	rec->nranks = 3;
	rec->ranks = xcalloc(3, sizeof(*rec->ranks));
	for (int d = 0; d < SC_DIR_COUNT; d++)
		rec->lat[d] = hist_new();
	for (uint32_t i = 0; i < 3; i++) {
		struct sc_rank_result *r = &rec->ranks[i];
		struct sc_hist *h = hist_new();

		r->rank = i;
		r->node = rows[i].node;
		snprintf(r->host, sizeof(r->host), "%s", rows[i].host);
		r->start_ns = rows[i].start;
		r->end_ns = rows[i].end;
		r->planned_bytes = rows[i].rd + rows[i].wr;
		r->bytes[SC_DIR_READ] = rows[i].rd;
		r->bytes[SC_DIR_WRITE] = rows[i].wr;
		r->ios[SC_DIR_READ] = rows[i].rios;
		r->ios[SC_DIR_WRITE] = rows[i].wios;
		r->firstdone_bytes = rows[i].fd;
		r->fsyncs = rows[i].fsyncs;
		r->errors = rows[i].errors;
		snprintf(r->error, sizeof(r->error), "%s", rows[i].error);
		for (uint64_t k = 0; k < rows[i].nlat; k++)
			sc_hist_record(h, rows[i].lat_ns);
		sc_hist_summarize(h, &r->lat[SC_DIR_READ]);
		sc_hist_add(rec->lat[SC_DIR_READ], h);
		free(h);

		r->nseconds = nsec[i];
		r->seconds = xcalloc(nsec[i], sizeof(*r->seconds));
		for (uint32_t k = 0; k < nsec[i]; k++) {
			r->seconds[k].bytes[SC_DIR_READ] = sec_rd[i][k];
			r->seconds[k].ios[SC_DIR_READ] = sec_rd[i][k] / 10;
			r->seconds[k].max_lat_ns[SC_DIR_READ] = 1000 * (i + 1) + k;
		}
	}
}

static void test_totals_and_bandwidth(void)
{
	struct sc_phase_record rec;
	struct sc_phase_figures f;

	make_record(&rec);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.nranks == 3 && f.nnodes == 2, "%u ranks, %u nodes", f.nranks, f.nnodes);
	CHECK(f.bytes[SC_DIR_READ] == 9 * GB, "read bytes %" PRIu64, f.bytes[SC_DIR_READ]);
	CHECK(f.bytes[SC_DIR_WRITE] == 3 * GB, "write bytes %" PRIu64, f.bytes[SC_DIR_WRITE]);
	CHECK(f.total_bytes == 12 * GB, "total bytes %" PRIu64, f.total_bytes);
	CHECK(f.planned_bytes == 12 * GB, "planned bytes %" PRIu64, f.planned_bytes);
	CHECK(f.ios[SC_DIR_READ] == 2250 && f.ios[SC_DIR_WRITE] == 750, "ios %" PRIu64 "/%" PRIu64,
	      f.ios[SC_DIR_READ], f.ios[SC_DIR_WRITE]);
	CHECK(f.fsyncs == 8, "fsyncs %" PRIu64, f.fsyncs);
	CHECK(f.errors == 2 && f.ranks_with_errors == 1, "errors %" PRIu64 " in %u ranks", f.errors,
	      f.ranks_with_errors);

	/* window opens at the ramp's end (rank 0 started before it) */
	CHECK(f.window_start_ns == S, "window start %" PRId64, f.window_start_ns);
	CHECK(f.lastdone_ns == 11 * S, "last done %" PRId64, f.lastdone_ns);
	CHECK(f.firstdone_ns == 5 * S, "first done %" PRId64, f.firstdone_ns);
	/* skew uses the real starts: 1.2 s - 0.5 s */
	CHECK(f.start_skew_ns == 7 * S / 10, "skew %" PRId64, f.start_skew_ns);

	/* 12 GB over 10 s; 6 GB over 4 s */
	CHECK(f.lastdone_bw_bytes_per_s == 1.2e9, "last-done bw %.17g", f.lastdone_bw_bytes_per_s);
	CHECK(f.firstdone_bytes == 6 * GB, "first-done bytes %" PRIu64, f.firstdone_bytes);
	CHECK(f.firstdone_bw_bytes_per_s == 1.5e9, "first-done bw %.17g",
	      f.firstdone_bw_bytes_per_s);
	CHECK(f.iops[SC_DIR_READ] == 225 && f.iops[SC_DIR_WRITE] == 75 && f.iops_total == 300,
	      "iops %g/%g/%g", f.iops[SC_DIR_READ], f.iops[SC_DIR_WRITE], f.iops_total);

	/* slowest: rank 1 on node 1 */
	CHECK(f.slowest_rank == 1 && f.slowest_node == 1, "slowest rank %u node %u", f.slowest_rank,
	      f.slowest_node);
	sc_phase_figures_exit(&f);
	CHECK(f.nodes == NULL && f.seconds == NULL, "exit clears");

	/* a tie at the latest end goes to the lowest rank; here node 0 */
	rec.ranks[2].end_ns = 11 * S;
	rec.ranks[0].end_ns = 11 * S;
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.slowest_rank == 0 && f.slowest_node == 0, "tie: rank %u node %u", f.slowest_rank,
	      f.slowest_node);
	sc_phase_figures_exit(&f);
	rec.ranks[0].end_ns = 5 * S;
	rec.ranks[2].end_ns = 12 * S;
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.slowest_rank == 2 && f.slowest_node == 0, "rank 2 last: rank %u node %u",
	      f.slowest_rank, f.slowest_node);
	CHECK(f.lastdone_bw_bytes_per_s == 12e9 / 11, "bw over 11 s %.17g",
	      f.lastdone_bw_bytes_per_s);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

static void test_nodes(void)
{
	struct sc_phase_record rec;
	struct sc_phase_figures f;

	make_record(&rec);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.nodes_len == 2, "%u node rows", f.nodes_len);
	if (f.nodes_len != 2)
		goto out;
	for (uint32_t n = 0; n < 2; n++) {
		const struct sc_node_row *row = &f.nodes[n];
		uint64_t bytes[SC_DIR_COUNT] = {0}, ios[SC_DIR_COUNT] = {0}, errors = 0;
		uint32_t nranks = 0;

		CHECK(row->node == n, "row %u is node %u", n, row->node);
		for (uint32_t i = 0; i < rec.nranks; i++) {
			if (rec.ranks[i].node != n)
				continue;
			nranks++;
			errors += rec.ranks[i].errors;
			for (int d = 0; d < SC_DIR_COUNT; d++) {
				bytes[d] += rec.ranks[i].bytes[d];
				ios[d] += rec.ranks[i].ios[d];
			}
		}
		CHECK(row->nranks == nranks, "node %u: %u ranks", n, row->nranks);
		CHECK(row->errors == errors, "node %u errors", n);
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			CHECK(row->bytes[d] == bytes[d], "node %u dir %d bytes %" PRIu64, n, d,
			      row->bytes[d]);
			CHECK(row->ios[d] == ios[d], "node %u dir %d ios", n, d);
		}
	}
	/* node 0: ranks 0 and 2, 9 GB from 1 s (ramp end) to 9 s */
	CHECK(strcmp(f.nodes[0].host, "alpha") == 0, "node 0 host %s", f.nodes[0].host);
	CHECK(f.nodes[0].nranks == 2, "node 0 has 2 ranks");
	CHECK(f.nodes[0].bytes[SC_DIR_READ] == 7 * GB, "node 0 read");
	CHECK(f.nodes[0].start_ns == S && f.nodes[0].end_ns == 9 * S,
	      "node 0 window %" PRId64 "..%" PRId64, f.nodes[0].start_ns, f.nodes[0].end_ns);
	CHECK(f.nodes[0].bw_bytes_per_s == 1.125e9, "node 0 bw %.17g", f.nodes[0].bw_bytes_per_s);
	/* node 1: rank 1 alone, 3 GB from 1.2 s to 11 s */
	CHECK(strcmp(f.nodes[1].host, "beta") == 0, "node 1 host %s", f.nodes[1].host);
	CHECK(f.nodes[1].nranks == 1, "node 1 has 1 rank");
	CHECK(f.nodes[1].start_ns == 12 * S / 10 && f.nodes[1].end_ns == 11 * S, "node 1 window");
	CHECK(near(f.nodes[1].bw_bytes_per_s, 3e9 / 9.8), "node 1 bw %.17g",
	      f.nodes[1].bw_bytes_per_s);
	/* the slowest node and drive: node 1's, at 3 GB / 9.8 s */
	CHECK(f.lowest_bw_node == 1, "lowest-bandwidth node row %u, want 1", f.lowest_bw_node);
	CHECK(f.targets_len == 2 && f.lowest_bw_target == 1,
	      "lowest-bandwidth target row %u of %u, want 1 of 2", f.lowest_bw_target,
	      f.targets_len);
out:
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

static void test_percentiles_merged(void)
{
	struct sc_phase_record rec;
	struct sc_phase_figures f;
	const struct sc_lat_summary *l;
	uint64_t avg_p50 = 0;

	make_record(&rec);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	l = &f.lat[SC_DIR_READ];
	CHECK(l->count == 202, "count %" PRIu64, l->count);
	CHECK(l->min_ns == 100 && l->max_ns == 10000, "min %" PRIu64 " max %" PRIu64, l->min_ns,
	      l->max_ns);
	CHECK(near(l->mean_ns, (100.0 * 100 + 100.0 * 200 + 2 * 10000.0) / 202), "mean %g",
	      l->mean_ns);
	for (int i = 0; i < SC_NPCT; i++)
		CHECK(l->pct_ns[i] == sc_hist_percentile(rec.lat[SC_DIR_READ], sc_pct_points[i]),
		      "%s = %" PRIu64, sc_pct_names[i], l->pct_ns[i]);
	/* 101st of 202 sorted values is 200 ns; averaging per-rank p50s gives 3433 */
	for (uint32_t i = 0; i < rec.nranks; i++)
		avg_p50 += rec.ranks[i].lat[SC_DIR_READ].pct_ns[0];
	avg_p50 /= rec.nranks;
	CHECK(l->pct_ns[0] == 200, "merged p50 %" PRIu64, l->pct_ns[0]);
	CHECK(avg_p50 == 3433, "average of rank p50s %" PRIu64, avg_p50);
	CHECK(l->pct_ns[0] != avg_p50, "p50 is not an average of per-rank p50s");
	CHECK(l->pct_ns[2] == 200, "p99 (rank 200 of 202) %" PRIu64, l->pct_ns[2]);
	CHECK(l->pct_ns[3] == 10000, "p99.9 (rank 202) %" PRIu64, l->pct_ns[3]);
	/* no writes timed: empty summary */
	CHECK(f.lat[SC_DIR_WRITE].count == 0 && f.lat[SC_DIR_WRITE].pct_ns[0] == 0,
	      "empty write summary");
	sc_phase_figures_exit(&f);

	/* the per-rank summaries are not read at all: spoil them */
	for (uint32_t i = 0; i < rec.nranks; i++)
		memset(&rec.ranks[i].lat, 0xff, sizeof(rec.ranks[i].lat));
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.lat[SC_DIR_READ].pct_ns[0] == 200 && f.lat[SC_DIR_READ].count == 202,
	      "figures ignore per-rank summaries");
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

static void test_seconds(void)
{
	static const uint64_t want[5] = {111, 222, 330, 40, 50};
	/* each rank's I/Os are its bytes / 10, rounded down per rank */
	static const uint64_t want_ios[5] = {11, 22, 33, 4, 5};
	struct sc_phase_record rec;
	struct sc_phase_figures f;

	make_record(&rec);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.nseconds == 5, "longest series: %u seconds", f.nseconds);
	for (uint32_t k = 0; k < f.nseconds && k < 5; k++) {
		uint64_t max_lat = 0;

		CHECK(f.seconds[k].bytes[SC_DIR_READ] == want[k], "second %u: %" PRIu64 " B", k,
		      f.seconds[k].bytes[SC_DIR_READ]);
		CHECK(f.seconds[k].bytes[SC_DIR_WRITE] == 0, "second %u: no writes", k);
		for (uint32_t i = 0; i < rec.nranks; i++)
			if (k < rec.ranks[i].nseconds &&
			    rec.ranks[i].seconds[k].max_lat_ns[SC_DIR_READ] > max_lat)
				max_lat = rec.ranks[i].seconds[k].max_lat_ns[SC_DIR_READ];
		CHECK(f.seconds[k].max_lat_ns[SC_DIR_READ] == max_lat,
		      "second %u: max latency %" PRIu64, k, f.seconds[k].max_lat_ns[SC_DIR_READ]);
		CHECK(f.seconds[k].ios[SC_DIR_READ] == want_ios[k], "second %u: %" PRIu64 " ios", k,
		      f.seconds[k].ios[SC_DIR_READ]);
	}
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

/* A one-rank record whose write series is given. */
static void make_series(struct sc_phase_record *rec, uint32_t nranks, const uint64_t *series,
			uint32_t n)
{
	memset(rec, 0, sizeof(*rec));
	rec->nranks = nranks;
	rec->ranks = xcalloc(nranks, sizeof(*rec->ranks));
	for (uint32_t i = 0; i < nranks; i++) {
		struct sc_rank_result *r = &rec->ranks[i];

		r->rank = i;
		r->node = i;
		r->end_ns = (int64_t)n * S;
		r->nseconds = n;
		r->seconds = xcalloc(n ? n : 1, sizeof(*r->seconds));
		for (uint32_t k = 0; k < n; k++)
			r->seconds[k].bytes[SC_DIR_WRITE] = series[i * n + k];
	}
}

static void test_volatility(void)
{
	/* complete seconds 2,4,4,4,5,5,7,9: mean 5, population stddev 2;
	 * the last, partial second (1) is left out */
	static const uint64_t known[9] = {2, 4, 4, 4, 5, 5, 7, 9, 1};
	/* two ranks that alternate: each is volatile, their sum is flat */
	static const uint64_t alt[2][4] = {{1, 3, 1, 7}, {3, 1, 3, 0}};
	static const uint64_t two[2] = {5, 9};
	static const uint64_t three[3] = {5, 9, 1};
	static const uint64_t zeros[4] = {0, 0, 0, 0};
	struct sc_phase_record rec;
	struct sc_phase_figures f;

	make_series(&rec, 1, known, 9);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(near(f.volatility[SC_DIR_WRITE], 0.4), "volatility %.17g",
	      f.volatility[SC_DIR_WRITE]);
	CHECK(isnan(f.volatility[SC_DIR_READ]), "no reads: volatility undefined, not %g",
	      f.volatility[SC_DIR_READ]);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);

	make_series(&rec, 2, &alt[0][0], 4);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.volatility[SC_DIR_WRITE] == 0, "sum of alternating ranks is flat: %g",
	      f.volatility[SC_DIR_WRITE]);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);

	/* a 1.5 s phase: one complete second and a partial one, too few for
	 * a stddev: undefined (null), not 0% */
	make_series(&rec, 1, two, 2);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(isnan(f.volatility[SC_DIR_WRITE]), "one complete second: %g",
	      f.volatility[SC_DIR_WRITE]);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);

	/* two complete seconds 5, 9 (and a partial 1): mean 7, stddev 2 */
	make_series(&rec, 1, three, 3);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(near(f.volatility[SC_DIR_WRITE], 2.0 / 7.0), "two complete seconds: %.17g",
	      f.volatility[SC_DIR_WRITE]);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);

	make_series(&rec, 1, zeros, 4);
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(isnan(f.volatility[SC_DIR_WRITE]), "mean 0: %g", f.volatility[SC_DIR_WRITE]);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

/* Stonewall: rank 1 was stopped by the first-done signal, but its last
 * completion (3 s) came before rank 0 finished (5 s, the instant every
 * rank was told of, kept in the record): the first-done figures use the
 * record's instant, not the earliest end; a record without it (0) falls
 * back to the earliest end. */
static void test_firstdone_of_record(void)
{
	struct sc_phase_record rec;
	struct sc_phase_figures f;

	make_record(&rec);
	rec.ranks[1].end_ns = 3 * S;
	rec.firstdone_ns = 5 * S;
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.firstdone_ns == 5 * S, "first done %" PRId64 ", want the record's 5 s",
	      f.firstdone_ns);
	CHECK(f.firstdone_bw_bytes_per_s == 1.5e9, "first-done bw %.17g (6 GB over 4 s)",
	      f.firstdone_bw_bytes_per_s);
	CHECK(f.lastdone_ns == 9 * S, "last done %" PRId64, f.lastdone_ns);
	sc_phase_figures_exit(&f);
	rec.firstdone_ns = 0;
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.firstdone_ns == 3 * S, "no instant kept: the earliest end, %" PRId64,
	      f.firstdone_ns);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

static void test_degenerate(void)
{
	struct sc_phase_record rec;
	struct sc_phase_figures f;

	/* no ranks at all */
	memset(&rec, 0, sizeof(rec));
	rec.measure_start_ns = S;
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate of nothing");
	CHECK(f.nranks == 0 && f.nnodes == 0 && f.nodes_len == 0 && f.total_bytes == 0 &&
		  f.lastdone_bw_bytes_per_s == 0 && f.nseconds == 0,
	      "empty figures");
	CHECK(f.lowest_bw_node == 0 && f.lowest_bw_target == 0, "a slowest row among none");
	sc_phase_figures_exit(&f);

	/* the first rank finished inside the ramp: no first-done window */
	make_record(&rec);
	rec.ranks[0].end_ns = S / 2;
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.firstdone_ns == S / 2, "first done %" PRId64, f.firstdone_ns);
	CHECK(f.firstdone_bw_bytes_per_s == 0, "first-done bw %g", f.firstdone_bw_bytes_per_s);
	CHECK(f.lastdone_bw_bytes_per_s == 1.2e9, "last-done bw unaffected");
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

/* Six ranks, two per node on three nodes, each node's ranks on targets 0
 * and 1: every row groups the right ranks (the row lookup must not
 * depend on rank and node numbers coinciding), and the per-rank, merged
 * latency and slowest-host figures are those of the record.
 *
 *   rank i: node i / 2, host "n<node>", target i % 2, window 1 s .. 3 s
 *   (rank 5: .. 5 s), (i + 1) GB read with 1000 (i + 1) I/Os, 10 (i + 1)
 *   samples.  Read latencies 100 x 100 ns, write 100 x 300 ns. */
static void test_rows_of_many_ranks(void)
{
	struct sc_phase_record rec;
	struct sc_phase_figures f;
	struct sc_hist *h;

	memset(&rec, 0, sizeof(rec));
	rec.measure_start_ns = S;
	rec.nranks = 6;
	rec.ranks = xcalloc(6, sizeof(*rec.ranks));
	for (uint32_t i = 0; i < 6; i++) {
		struct sc_rank_result *r = &rec.ranks[i];

		r->rank = i;
		r->node = i / 2;
		r->target = i % 2;
		snprintf(r->host, sizeof(r->host), "n%u", i / 2);
		r->start_ns = S;
		r->end_ns = i == 5 ? 5 * S : 3 * S;
		r->bytes[SC_DIR_READ] = (i + 1) * GB;
		r->ios[SC_DIR_READ] = 1000 * (i + 1);
		r->samples = 10 * (i + 1);
	}
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		h = rec.lat[d] = hist_new();
		for (int k = 0; k < 100; k++)
			sc_hist_record(h, d == SC_DIR_READ ? 100 : 300);
	}
	CHECK(sc_aggregate_phase(&rec, &f) == 0, "aggregate");
	CHECK(f.nodes_len == 3 && f.targets_len == 6, "%u node rows, %u target rows", f.nodes_len,
	      f.targets_len);
	for (uint32_t n = 0; n < f.nodes_len && n < 3; n++) {
		const struct sc_node_row *row = &f.nodes[n];
		uint64_t gb = (2 * n + 1) + (2 * n + 2);
		char host[8];
		/* the last node's window runs to rank 5's end */
		double secs = n == 2 ? 4 : 2;

		snprintf(host, sizeof(host), "n%u", n);
		CHECK(row->node == n && row->nranks == 2 && !strcmp(row->host, host),
		      "node row %u: node %u, %u ranks, host %s", n, row->node, row->nranks, row->host);
		CHECK(row->bytes[SC_DIR_READ] == gb * GB && row->total_bytes == gb * GB,
		      "node %u bytes %" PRIu64, n, row->bytes[SC_DIR_READ]);
		CHECK(near(row->bw_bytes_per_s, (double)(gb * GB) / secs), "node %u bw %.17g", n,
		      row->bw_bytes_per_s);
		CHECK(near(row->iops[SC_DIR_READ], 1000.0 * (double)gb / secs), "node %u iops %g", n,
		      row->iops[SC_DIR_READ]);
		CHECK(row->samples == 10 * gb && near(row->samples_per_s, 10.0 * (double)gb / secs),
		      "node %u samples %" PRIu64 " at %g/s", n, row->samples, row->samples_per_s);
	}
	for (uint32_t t = 0; t < f.targets_len && t < 6; t++)
		CHECK(f.targets[t].node == t / 2 && f.targets[t].target == t % 2 &&
			  f.targets[t].nranks == 1 && f.targets[t].bytes[SC_DIR_READ] == (t + 1) * GB,
		      "target row %u: node %u target %u", t, f.targets[t].node, f.targets[t].target);
	for (uint32_t i = 0; i < 6; i++)
		CHECK(f.rank_rows[i].total_bytes == (i + 1) * GB &&
			  near(f.rank_rows[i].bw_bytes_per_s,
			       (double)((i + 1) * GB) / (i == 5 ? 4.0 : 2.0)),
		      "rank %u row: %" PRIu64 " B at %.17g B/s", i, f.rank_rows[i].total_bytes,
		      f.rank_rows[i].bw_bytes_per_s);
	CHECK(f.slowest_rank == 5 && f.slowest_host && !strcmp(f.slowest_host, "n2") &&
		  f.slowest_node_host && !strcmp(f.slowest_node_host, "n2"),
	      "slowest rank %u on %s", f.slowest_rank, f.slowest_host ? f.slowest_host : "NULL");
	CHECK(f.lat_all.count == 200 && f.lat_all.pct_ns[sc_pct_index(50)] == 100 &&
		  f.lat_all.pct_ns[sc_pct_index(99)] == 300,
	      "merged latency: %" PRIu64 " I/Os, p50 %" PRIu64 " p99 %" PRIu64, f.lat_all.count,
	      f.lat_all.pct_ns[sc_pct_index(50)], f.lat_all.pct_ns[sc_pct_index(99)]);
	sc_phase_figures_exit(&f);
	sc_phase_record_exit(&rec);
}

int main(void)
{
	test_totals_and_bandwidth();
	test_nodes();
	test_percentiles_merged();
	test_seconds();
	test_volatility();
	test_firstdone_of_record();
	test_degenerate();
	test_rows_of_many_ranks();
	return check_exit("test_aggregate");
}
