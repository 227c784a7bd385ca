/* test_series.c -- issue 13's aggregation without MPI: the column form of
 * a second series reduces (sums and maxes) to exactly what sc_seconds_add
 * makes; the caps on kept series hold at their bounds without overflow;
 * figures drawn from a record's reduced series (the cluster's and each
 * node's) equal, number for number, those summed from its ranks' own
 * seconds as before the change, also when the ranks' or the nodes' series
 * were not kept; such a record survives results.pb; node series without
 * the cluster's are refused; and the heap a phase record holds grows with
 * ranks only by their rows and with nodes by their series. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/node_series.h"
#include "results_file.h"
#include "check.h"
#include "codec.h"
#include "figures_cmp.h"
#include "result.h"
#include "valid.h"

#define S INT64_C(1000000000)
/* Per-second amounts stay under this, so that sums of many never wrap. */
#define AMOUNT_MAX (UINT64_C(1) << 48)
#define HOUR_S	   3600u

static uint64_t rng_state;

/* splitmix64: a fixed sequence from each seed. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static void random_seconds(struct sc_second *s, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			s[k].bytes[d] = rnd() % AMOUNT_MAX;
			s[k].ios[d] = rnd() % (AMOUNT_MAX >> 12);
			s[k].max_lat_ns[d] = rnd() % AMOUNT_MAX;
		}
		/* a temperature in most seconds, none in some */
		s[k].max_temp_mk = rnd_below(4) ? SC_TEMP_MK_OFFSET + rnd_below(90000) : 0;
	}
}

/* ---------------------------------------------------------- columns */

static void test_columns_roundtrip(void)
{
	enum { N = 5, LEN = 8 };
	struct sc_second in[N], out[LEN];
	uint64_t sums[LEN * SC_SECOND_SUMS], maxes[LEN * SC_SECOND_MAXES];
	struct sc_second zero = {0};

	rng_state = 1;
	random_seconds(in, N);
	memset(sums, 0xa5, sizeof(sums)); /* whatever was there before */
	memset(maxes, 0xa5, sizeof(maxes));
	memset(out, 0x5a, sizeof(out));
	sc_seconds_to_columns(in, N, LEN, sums, maxes);
	for (uint32_t k = N * SC_SECOND_SUMS; k < LEN * SC_SECOND_SUMS; k++)
		CHECK(sums[k] == 0, "sum column %u past n: %llu", k, (unsigned long long)sums[k]);
	for (uint32_t k = N * SC_SECOND_MAXES; k < LEN * SC_SECOND_MAXES; k++)
		CHECK(maxes[k] == 0, "max column %u past n: %llu", k, (unsigned long long)maxes[k]);
	sc_seconds_from_columns(out, LEN, sums, maxes);
	CHECK(memcmp(out, in, sizeof(in)) == 0, "columns: seconds 0..%d do not come back", N - 1);
	for (uint32_t k = N; k < LEN; k++)
		CHECK(memcmp(&out[k], &zero, sizeof(zero)) == 0, "second %u past n is not zero", k);
}

/* The n[i] seconds of in[i], i < count, reduced as MPI does with the
 * column form: each padded to the longest, SUM columns summed, MAX
 * columns maxed.  out: heap, the longest's length (NULL when 0). */
static void reduce_columns(struct sc_series *out, struct sc_second *const *in, const uint32_t *n,
			   uint32_t count)
{
	uint32_t len = 0;

	for (uint32_t i = 0; i < count; i++)
		if (n[i] > len)
			len = n[i];
	memset(out, 0, sizeof(*out));
	if (!len)
		return;

	uint64_t *sums = xcalloc((size_t)len * SC_SECOND_SUMS, sizeof(*sums));
	uint64_t *maxes = xcalloc((size_t)len * SC_SECOND_MAXES, sizeof(*maxes));
	uint64_t *s1 = xcalloc((size_t)len * SC_SECOND_SUMS, sizeof(*s1));
	uint64_t *m1 = xcalloc((size_t)len * SC_SECOND_MAXES, sizeof(*m1));

	for (uint32_t i = 0; i < count; i++) {
		sc_seconds_to_columns(in[i], n[i], len, s1, m1);
		for (size_t k = 0; k < (size_t)len * SC_SECOND_SUMS; k++)
			sums[k] += s1[k];
		for (size_t k = 0; k < (size_t)len * SC_SECOND_MAXES; k++)
			if (m1[k] > maxes[k])
				maxes[k] = m1[k];
	}
	out->nseconds = len;
	out->seconds = xcalloc(len, sizeof(*out->seconds));
	sc_seconds_from_columns(out->seconds, len, sums, maxes);
	free(sums);
	free(maxes);
	free(s1);
	free(m1);
}

static void test_columns_reduce(void)
{
	enum { COUNT = 7 };

	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct sc_second *in[COUNT];
		uint32_t n[COUNT], len = 0;
		struct sc_series red;

		rng_state = seed * 7919;
		for (uint32_t i = 0; i < COUNT; i++) {
			n[i] = 1 + rnd_below(12);
			len = n[i] > len ? n[i] : len;
			in[i] = xcalloc(n[i], sizeof(*in[i]));
			random_seconds(in[i], n[i]);
		}
		struct sc_second *want = xcalloc(len, sizeof(*want));

		for (uint32_t i = 0; i < COUNT; i++)
			sc_seconds_add(want, in[i], n[i]);
		reduce_columns(&red, in, n, COUNT);
		CHECK(red.nseconds == len, "seed %llu: %u seconds, want %u",
		      (unsigned long long)seed, red.nseconds, len);
		CHECK(red.nseconds == len && memcmp(red.seconds, want, len * sizeof(*want)) == 0,
		      "seed %llu: columns summed and maxed differ from sc_seconds_add",
		      (unsigned long long)seed);
		sc_series_exit(&red);
		free(want);
		for (uint32_t i = 0; i < COUNT; i++)
			free(in[i]);
	}
}

/* ------------------------------------------------------------- caps */

static void test_kept(void)
{
	CHECK(sc_series_kept(1024, 1024, 1u << 20), "1024 x 1024 == the cap: kept");
	CHECK(!sc_series_kept(1025, 1024, 1u << 20), "1025 x 1024: past the cap");
	CHECK(!sc_series_kept(1024, 1025, 1u << 20), "1024 x 1025: past the cap");
	CHECK(sc_series_kept(1u << 20, 1, 1u << 20) && sc_series_kept(1, 1u << 20, 1u << 20),
	      "cap x 1 and 1 x cap: kept");
	CHECK(!sc_series_kept(1, (1u << 20) + 1, 1u << 20), "1 x (cap + 1): past the cap");
	/* the header's example: every rank of a 291-rank run for an hour */
	CHECK(sc_series_kept(291, HOUR_S, SC_RANK_SERIES_MAX), "291 ranks x 1 h: rank series kept");
	CHECK(!sc_series_kept(292, HOUR_S, SC_RANK_SERIES_MAX), "292 ranks x 1 h: past the cap");
	/* the size: products past 32 bits neither wrap nor pass */
	CHECK(!sc_series_kept(32768, HOUR_S, SC_RANK_SERIES_MAX), "32768 ranks x 1 h: not kept");
	CHECK(!sc_series_kept(4096, HOUR_S, SC_NODE_SERIES_MAX), "4096 nodes x 1 h: not kept");
	CHECK(sc_series_kept(4096, 256, SC_NODE_SERIES_MAX), "4096 nodes x 256 s == the cap");
	CHECK(!sc_series_kept(4096, 257, SC_NODE_SERIES_MAX), "4096 nodes x 257 s: past the cap");
	/* 65536 x 65536 is 2^32: 0 in 32 bits */
	CHECK(!sc_series_kept(65536, 65536, 1u << 20), "65536 x 65536 wraps to 0 in 32 bits");
	CHECK(!sc_series_kept(UINT32_MAX, UINT32_MAX, UINT32_MAX), "UINT32_MAX^2: past the cap");
	CHECK(sc_series_kept(UINT32_MAX, 1, UINT32_MAX) &&
		  sc_series_kept(1, UINT32_MAX, UINT32_MAX),
	      "UINT32_MAX x 1 == the cap UINT32_MAX: kept");
	CHECK(!sc_series_kept(UINT32_MAX, 2, UINT32_MAX), "UINT32_MAX x 2: past UINT32_MAX");
	CHECK(sc_series_kept(0, UINT32_MAX, 0) && sc_series_kept(UINT32_MAX, 0, 0),
	      "nothing to keep fits under any cap");
}

/* ------------------------------------------------------------ records */

/* A phase record of nodes with per_node[n] ranks each (rank order by
 * node), ranks of 1..max_s seconds ending at different points of their
 * last second (whole, under a quarter, mid-way), random amounts.  The
 * ranks hold their seconds; cluster and node series are not made. */
static void make_record(struct sc_phase_record *rec, const uint32_t *per_node, uint32_t nnodes,
			uint32_t max_s, uint64_t seed)
{
	static const int64_t tails[] = {S, S / 10, S / 2, S / 4, S - 1, 1};
	uint32_t nranks = 0, i = 0;

	rng_state = seed;
	for (uint32_t n = 0; n < nnodes; n++)
		nranks += per_node[n];
	memset(rec, 0, sizeof(*rec));
	rec->phase = 0;
	rec->measure_start_ns = S / 10; /* a 100 ms ramp */
	rec->nranks = nranks;
	rec->ranks = xcalloc(nranks, sizeof(*rec->ranks));
	for (uint32_t n = 0; n < nnodes; n++)
		for (uint32_t j = 0; j < per_node[n]; j++, i++) {
			struct sc_rank_result *r = &rec->ranks[i];
			int64_t tail = tails[rnd_below(sizeof(tails) / sizeof(tails[0]))];

			r->rank = i;
			r->node = n;
			r->target = j % 2;
			snprintf(r->host, sizeof(r->host), "node%02u", n);
			r->clock_offset_ns = (int64_t)rnd_below(2000000) - 1000000;
			r->start_ns = rnd_below(S / 5); /* some before the ramp's end */
			r->nseconds = 1 + rnd_below(max_s);
			r->end_ns = rec->measure_start_ns + (int64_t)(r->nseconds - 1) * S + tail;
			r->busy_end_ns = r->end_ns;
			r->seconds = xcalloc(r->nseconds, sizeof(*r->seconds));
			random_seconds(r->seconds, r->nseconds);
			for (uint32_t k = 0; k < r->nseconds; k++)
				for (int d = 0; d < SC_DIR_COUNT; d++) {
					r->bytes[d] += r->seconds[k].bytes[d];
					r->ios[d] += r->seconds[k].ios[d];
				}
			r->planned_bytes = r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE];
			r->firstdone_bytes = r->planned_bytes / 2;
			r->fsyncs = rnd_below(100);
			r->samples = rnd_below(1000);
		}
	rec->firstdone_ns = rec->ranks[0].end_ns;
}

/* rec's cluster and node series reduced from its ranks' seconds as the
 * cluster does: on each node's ranks, then across the nodes' series. */
static void reduce_record(struct sc_phase_record *rec)
{
	uint32_t nnodes = 0;

	for (uint32_t i = 0; i < rec->nranks; i++)
		if (rec->ranks[i].node + 1 > nnodes)
			nnodes = rec->ranks[i].node + 1;
	struct sc_second **in = xcalloc(rec->nranks + nnodes, sizeof(*in));
	uint32_t *n = xcalloc(rec->nranks + nnodes, sizeof(*n));

	rec->nnode_series = nnodes;
	rec->node_series = xcalloc(nnodes, sizeof(*rec->node_series));
	for (uint32_t node = 0; node < nnodes; node++) {
		uint32_t count = 0;

		for (uint32_t i = 0; i < rec->nranks; i++)
			if (rec->ranks[i].node == node) {
				in[count] = rec->ranks[i].seconds;
				n[count++] = rec->ranks[i].nseconds;
			}
		reduce_columns(&rec->node_series[node], in, n, count);
	}
	for (uint32_t node = 0; node < nnodes; node++) {
		in[node] = rec->node_series[node].seconds;
		n[node] = rec->node_series[node].nseconds;
	}
	rec->cluster = xcalloc(1, sizeof(*rec->cluster));
	reduce_columns(rec->cluster, in, n, nnodes);
	free(in);
	free(n);
}

/* A shallow copy of rec whose ranks (a copy of the array, freed by the
 * caller) hold no seconds: what rank 0 keeps past SC_RANK_SERIES_MAX. */
static struct sc_phase_record without_rank_series(const struct sc_phase_record *rec)
{
	struct sc_phase_record out = *rec;

	out.ranks = xcalloc(rec->nranks, sizeof(*out.ranks));
	memcpy(out.ranks, rec->ranks, rec->nranks * sizeof(*out.ranks));
	for (uint32_t i = 0; i < out.nranks; i++) {
		out.ranks[i].seconds = NULL;
		out.ranks[i].nseconds = 0;
	}
	return out;
}

/* The figures and series of a and b, each compared in full. */
static void check_same_figures(const struct sc_phase_record *a, const struct sc_phase_record *b,
			       const char *what)
{
	struct sc_phase_figures fa, fb;
	struct sc_node_series na, nb;

	CHECK(sc_aggregate_phase(a, &fa) == 0 && sc_aggregate_phase(b, &fb) == 0,
	      "%s: sc_aggregate_phase failed", what);
	CHECK(cmp_figures(stderr, what, &fa, &fb) == 0, "%s: figures differ (above)", what);
	CHECK(fa.nseconds >= 1, "%s: no seconds to compare", what);
	sc_phase_figures_exit(&fa);
	sc_phase_figures_exit(&fb);
	CHECK(sc_node_series_init(&na, a) == 0 && sc_node_series_init(&nb, b) == 0,
	      "%s: sc_node_series_init failed", what);
	CHECK(cmp_node_series(stderr, what, &na, &nb) == 0, "%s: node series differ (above)", what);
	sc_node_series_exit(&na);
	sc_node_series_exit(&nb);
}

/* The reduced series themselves: the sums of their ranks' seconds. */
static void check_reduced_sums(const struct sc_phase_record *rec, const char *what)
{
	struct cmp c = {.out = stderr, .what = what};
	struct sc_second *want;
	uint32_t n;

	cmp_sum_ranks(rec, UINT32_MAX, &want, &n);
	cmp_seconds(&c, "cluster", rec->cluster->seconds, rec->cluster->nseconds, want, n);
	free(want);
	for (uint32_t node = 0; node < rec->nnode_series; node++) {
		char name[32];

		cmp_sum_ranks(rec, node, &want, &n);
		snprintf(name, sizeof(name), "node_series[%u]", node);
		cmp_seconds(&c, name, rec->node_series[node].seconds,
			    rec->node_series[node].nseconds, want, n);
		free(want);
	}
	CHECK(c.diffs == 0, "%s: reduced series differ from their ranks' sums (above)", what);
}

/* Layouts of ranks on nodes: uneven, one node, many. */
static const uint32_t layout_a[] = {3, 1, 4};
static const uint32_t layout_b[] = {2, 2, 2, 2, 2};
static const uint32_t layout_c[] = {1};
static const uint32_t layout_d[] = {5, 3};
static const struct {
	const uint32_t *per_node;
	uint32_t nnodes;
} layouts[] = {
    {layout_a, 3},
    {layout_b, 5},
    {layout_c, 1},
    {layout_d, 2},
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

/* Reduced series (with and without the ranks' own) against the ranks'
 * seconds summed: the computation before issue 13. */
static void test_reduced_equals_fallback(void)
{
	for (uint32_t l = 0; l < NLAYOUTS; l++)
		for (uint64_t seed = 1; seed <= 5; seed++) {
			struct sc_phase_record rec, red, bare;
			char what[96];

			make_record(&rec, layouts[l].per_node, layouts[l].nnodes, 6,
				    1000 * l + seed);
			red = rec;
			reduce_record(&red);
			snprintf(what, sizeof(what), "layout %u seed %llu", l,
				 (unsigned long long)seed);
			check_reduced_sums(&red, what);
			check_same_figures(&red, &rec, what);

			/* past SC_RANK_SERIES_MAX: the rows go without */
			bare = without_rank_series(&red);
			snprintf(what, sizeof(what), "layout %u seed %llu, no rank series", l,
				 (unsigned long long)seed);
			check_same_figures(&bare, &rec, what);
			free(bare.ranks);

			rec.cluster = red.cluster;
			rec.nnode_series = red.nnode_series;
			rec.node_series = red.node_series;
			sc_phase_record_exit(&rec);
		}
}

/* Past SC_NODE_SERIES_MAX and SC_RANK_SERIES_MAX: only the cluster's
 * series.  Its figures are whole; the nodes have no rates. */
static void test_no_node_series(void)
{
	struct sc_phase_record rec, red, bare;
	struct sc_phase_figures want, got;
	struct sc_node_series nwant, ngot;

	make_record(&rec, layout_a, 3, 6, 77);
	red = rec;
	reduce_record(&red);
	bare = without_rank_series(&red);
	bare.nnode_series = 0;
	bare.node_series = NULL;

	CHECK(sc_aggregate_phase(&rec, &want) == 0 && sc_aggregate_phase(&bare, &got) == 0,
	      "sc_aggregate_phase failed");
	CHECK(cmp_figures(stderr, "no node series", &got, &want) == 0,
	      "no node series: cluster figures differ (above)");
	sc_phase_figures_exit(&want);
	sc_phase_figures_exit(&got);

	CHECK(sc_node_series_init(&nwant, &rec) == 0 && sc_node_series_init(&ngot, &bare) == 0,
	      "sc_node_series_init failed");
	struct cmp c = {.out = stderr, .what = "no node series"};

	cmp_rate_series(&c, "cluster", &ngot.cluster, &nwant.cluster);
	CHECK(c.diffs == 0, "no node series: the cluster's rates differ (above)");
	CHECK(ngot.nnodes == 3, "no node series: %u nodes, want 3", ngot.nnodes);
	for (uint32_t n = 0; n < ngot.nnodes && n < 3; n++) {
		CHECK(ngot.nodes[n].n == 0 && ngot.nodes[n].nseconds == 0,
		      "node %u: %u rates from %u seconds, want none", n, ngot.nodes[n].n,
		      ngot.nodes[n].nseconds);
		CHECK(ngot.nodes[n].end_ns == nwant.nodes[n].end_ns && ngot.nodes[n].host &&
			  strcmp(ngot.nodes[n].host, nwant.nodes[n].host) == 0,
		      "node %u: end and host still known", n);
	}
	sc_node_series_exit(&nwant);
	sc_node_series_exit(&ngot);
	free(bare.ranks);
	rec.cluster = red.cluster;
	rec.nnode_series = red.nnode_series;
	rec.node_series = red.node_series;
	sc_phase_record_exit(&rec);
}

/* ------------------------------------------------------------- codec */

/* A run of 3 nodes (layout_a) and two io phases: phase 0 keeps the node
 * series and no rank's seconds, phase 1 the cluster's alone and every
 * rank's. */
static void make_run(struct sc_run_record *run)
{
	struct sc_plan *p = &run->plan;

	memset(run, 0, sizeof(*run));
	run->version = xstrdup("0.1.0-test");
	run->nranks = 8;
	run->nnodes = 3;
	run->startup_ns = INT64_C(123456789);
	p->run_id = xstrdup("run-series");
	p->ntargets = 1;
	p->targets = xcalloc(1, sizeof(*p->targets));
	p->targets[0] = (struct sc_target_spec){.path = xstrdup("/mnt/nvme0"),
						.kind = SC_TARGET_DIR,
						.capacity_bytes = UINT64_C(1) << 40};
	p->nphases = 2;
	p->phases = xcalloc(2, sizeof(*p->phases));
	run->nphases = 2;
	run->phases = xcalloc(2, sizeof(*run->phases));
	for (uint32_t i = 0; i < 2; i++) {
		struct sc_phase_record *ph = &run->phases[i];

		p->phases[i].name = xstrdup(i ? "mixed" : "read");
		p->phases[i].group = xstrdup(p->phases[i].name);
		p->phases[i].ncells = 1;
		make_record(ph, layout_a, 3, 6, 500 + i);
		for (uint32_t r = 0; r < ph->nranks; r++)
			ph->ranks[r].target = 0;
		ph->phase = i;
		ph->start_cost_ns = INT64_C(4567) + i;
		reduce_record(ph);
		/* the largest varint in a reduced column */
		ph->cluster->seconds[0].bytes[SC_DIR_WRITE] = UINT64_MAX;
	}
	for (uint32_t r = 0; r < run->phases[0].nranks; r++)
		sc_rank_result_exit(&run->phases[0].ranks[r]);
	for (uint32_t n = 0; n < run->phases[1].nnode_series; n++)
		sc_series_exit(&run->phases[1].node_series[n]);
	free(run->phases[1].node_series);
	run->phases[1].node_series = NULL;
	run->phases[1].nnode_series = 0;
}

static void compare_decoded(const struct sc_run_record *a, const struct sc_run_record *b,
			    const char *how)
{
	CHECK(b->startup_ns == a->startup_ns, "%s: startup_ns", how);
	CHECK(b->nnodes == a->nnodes && b->nphases == a->nphases, "%s: nnodes, nphases", how);
	for (uint32_t i = 0; i < a->nphases && i < b->nphases; i++) {
		const struct sc_phase_record *x = &a->phases[i], *y = &b->phases[i];
		struct cmp c = {.out = stderr, .what = how};
		char f[64];

		CHECK(y->start_cost_ns == x->start_cost_ns, "%s: phase %u start_cost_ns", how, i);
		CHECK(y->cluster && y->nnode_series == x->nnode_series && y->nranks == x->nranks,
		      "%s: phase %u: cluster, %u node series, %u ranks", how, i, y->nnode_series,
		      y->nranks);
		if (!y->cluster || y->nnode_series != x->nnode_series || y->nranks != x->nranks)
			continue;
		cmp_seconds(&c, CMP_AT(f, "phases[%u].cluster", i), y->cluster->seconds,
			    y->cluster->nseconds, x->cluster->seconds, x->cluster->nseconds);
		for (uint32_t n = 0; n < x->nnode_series; n++)
			cmp_seconds(&c, CMP_AT(f, "phases[%u].nodes[%u]", i, n),
				    y->node_series[n].seconds, y->node_series[n].nseconds,
				    x->node_series[n].seconds, x->node_series[n].nseconds);
		for (uint32_t r = 0; r < x->nranks; r++)
			cmp_seconds(&c, CMP_AT(f, "phases[%u].ranks[%u]", i, r),
				    y->ranks[r].seconds, y->ranks[r].nseconds, x->ranks[r].seconds,
				    x->ranks[r].nseconds);
		CHECK(c.diffs == 0, "%s: phase %u: series differ (above)", how, i);
		CHECK(i || !y->ranks[0].seconds, "%s: rank without seconds came back with", how);
		CHECK(i == 0 || !y->node_series, "%s: node series came back from none", how);
		check_same_figures(y, x, how);
	}
}

static void test_codec(void)
{
	struct sc_run_record a, b;
	uint8_t *buf = NULL;
	size_t len = 0;
	char dir[256], path[300], err[256];
	FILE *f;

	make_run(&a);
	CHECK(sc_valid_run_record(&a), "a record with reduced series is refused");
	CHECK(sc_run_record_pack(&a, &buf, &len) == 0, "pack failed");
	CHECK(sc_run_record_unpack(buf, len, &b) == 0, "unpack failed");
	compare_decoded(&a, &b, "unpacked");
	sc_run_record_exit(&b);

	/* as the report writes results.pb and the commands read it back */
	check_mkdtemp(dir, sizeof(dir), "test_series");
	snprintf(path, sizeof(path), "%s/results.pb", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(buf, 1, len, f) == len && fclose(f) == 0, "cannot write %s", path);
	CHECK(sc_results_read(path, &b, err, sizeof(err)) == 0, "%s: %s", path, err);
	compare_decoded(&a, &b, "results.pb");
	sc_run_record_exit(&b);
	check_rmtree(dir);
	free(buf);

	/* node series without the cluster's: refused */
	struct sc_series *cluster = a.phases[0].cluster;

	a.phases[0].cluster = NULL;
	CHECK(!sc_valid_run_record(&a), "node series without a cluster series pass validation");
	buf = NULL;
	CHECK(sc_run_record_pack(&a, &buf, &len) == -EINVAL,
	      "node series without a cluster series: packed");
	free(buf);
	a.phases[0].cluster = cluster;
	sc_run_record_exit(&a);
}

/* ------------------------------------------------------------ memory */

/* The heap a phase record owns for its rows and series: its ranks' rows,
 * their own seconds, the cluster's series and the nodes' (histograms,
 * errnos and failures are fixed or bounded per rank and left out). */
struct record_heap {
	uint64_t rows, rank_seconds, cluster, nodes;
};

static struct record_heap record_heap(const struct sc_phase_record *rec)
{
	struct record_heap h = {.rows = (uint64_t)rec->nranks * sizeof(*rec->ranks)};

	for (uint32_t i = 0; i < rec->nranks; i++)
		if (rec->ranks[i].seconds)
			h.rank_seconds +=
			    (uint64_t)rec->ranks[i].nseconds * sizeof(struct sc_second);
	if (rec->cluster)
		h.cluster = sizeof(*rec->cluster) +
			    (uint64_t)rec->cluster->nseconds * sizeof(struct sc_second);
	h.nodes = (uint64_t)rec->nnode_series * sizeof(*rec->node_series);
	for (uint32_t n = 0; n < rec->nnode_series; n++)
		h.nodes += (uint64_t)rec->node_series[n].nseconds * sizeof(struct sc_second);
	return h;
}

/* A record as rank 0 keeps it: nnodes x per_node ranks for nseconds
 * seconds; each series kept as the caps say, unless keep_ranks is false
 * (then the ranks' never are).  Amounts do not matter here: all zero. */
static void make_scaled(struct sc_phase_record *rec, uint32_t nnodes, uint32_t per_node,
			uint32_t nseconds, bool keep_ranks)
{
	uint32_t nranks = nnodes * per_node;
	bool ranks_kept = keep_ranks && sc_series_kept(nranks, nseconds, SC_RANK_SERIES_MAX);

	memset(rec, 0, sizeof(*rec));
	rec->nranks = nranks;
	rec->ranks = xcalloc(nranks, sizeof(*rec->ranks));
	for (uint32_t i = 0; i < nranks; i++) {
		rec->ranks[i].rank = i;
		rec->ranks[i].node = i / per_node;
		rec->ranks[i].end_ns = (int64_t)nseconds * S;
		if (ranks_kept) {
			rec->ranks[i].nseconds = nseconds;
			rec->ranks[i].seconds = xcalloc(nseconds, sizeof(struct sc_second));
		}
	}
	rec->cluster = xcalloc(1, sizeof(*rec->cluster));
	rec->cluster->nseconds = nseconds;
	rec->cluster->seconds = xcalloc(nseconds, sizeof(struct sc_second));
	if (!sc_series_kept(nnodes, nseconds, SC_NODE_SERIES_MAX))
		return;
	rec->nnode_series = nnodes;
	rec->node_series = xcalloc(nnodes, sizeof(*rec->node_series));
	for (uint32_t n = 0; n < nnodes; n++) {
		rec->node_series[n].nseconds = nseconds;
		rec->node_series[n].seconds = xcalloc(nseconds, sizeof(struct sc_second));
	}
}

static void test_memory(void)
{
	static const uint32_t per_node[] = {8, 64, 512};
	struct record_heap h[3], wide;
	struct sc_phase_record rec;

	for (int i = 0; i < 3; i++) {
		make_scaled(&rec, 4, per_node[i], HOUR_S, false);
		h[i] = record_heap(&rec);
		sc_phase_record_exit(&rec);
		CHECK(h[i].rank_seconds == 0, "%u ranks/node: rank seconds held", per_node[i]);
		CHECK(h[i].rows == 4 * per_node[i] * sizeof(struct sc_rank_result),
		      "%u ranks/node: %llu bytes of rows", per_node[i],
		      (unsigned long long)h[i].rows);
	}
	for (int i = 1; i < 3; i++)
		CHECK(h[i].cluster == h[0].cluster && h[i].nodes == h[0].nodes,
		      "series: %llu + %llu bytes at %u ranks/node, %llu + %llu at %u",
		      (unsigned long long)h[i].cluster, (unsigned long long)h[i].nodes, per_node[i],
		      (unsigned long long)h[0].cluster, (unsigned long long)h[0].nodes,
		      per_node[0]);
	CHECK(h[0].cluster == sizeof(struct sc_series) + HOUR_S * sizeof(struct sc_second),
	      "cluster series: %llu bytes", (unsigned long long)h[0].cluster);
	CHECK(h[0].nodes == 4 * (sizeof(struct sc_series) + HOUR_S * sizeof(struct sc_second)),
	      "node series: %llu bytes", (unsigned long long)h[0].nodes);

	make_scaled(&rec, 8, 8, HOUR_S, false);
	wide = record_heap(&rec);
	sc_phase_record_exit(&rec);
	CHECK(wide.nodes == 2 * h[0].nodes, "8 nodes: %llu bytes of node series, 4 nodes: %llu",
	      (unsigned long long)wide.nodes, (unsigned long long)h[0].nodes);
	CHECK(wide.cluster == h[0].cluster, "8 nodes: the cluster series grew");

	/* as the caps keep them: a rank's seconds at 8 ranks a node (32 x 1 h
	 * fits), none at 512; never more than SC_RANK_SERIES_MAX seconds */
	for (int i = 0; i < 3; i++) {
		make_scaled(&rec, 4, per_node[i], HOUR_S, true);
		h[i] = record_heap(&rec);
		sc_phase_record_exit(&rec);
		CHECK(h[i].rank_seconds <= SC_RANK_SERIES_MAX * sizeof(struct sc_second),
		      "%u ranks/node: %llu bytes of rank seconds, past the cap", per_node[i],
		      (unsigned long long)h[i].rank_seconds);
	}
	CHECK(h[0].rank_seconds == 32 * HOUR_S * sizeof(struct sc_second),
	      "32 ranks x 1 h: rank seconds not kept");
	CHECK(h[2].rank_seconds == 0, "2048 ranks x 1 h: rank seconds kept");
}

int main(void)
{
	test_columns_roundtrip();
	test_columns_reduce();
	test_kept();
	test_reduced_equals_fallback();
	test_no_node_series();
	test_codec();
	test_memory();
	return check_exit("test_series");
}
