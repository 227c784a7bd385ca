/* agg_bench.c -- what rank 0's aggregation costs at scale, without MPI: N
 * synthetic ranks on M = N / ranks-per-node nodes, each with a per-second
 * series of S seconds per phase, through the path of issue 13 (series
 * reduced where they are made, rows gathered without them, in pieces).
 * A benchmark, not a test.
 *
 *     agg_bench [--ranks N] [--ranks-per-node R] [--seconds S] [--phases P]
 *               [--max-gib G] [--json]
 *
 * Without --ranks it runs N = 1024, 8192 and 32768 in turn, each in its own
 * child process (so that each peak RSS is its own).  Per phase, node by
 * node, each rank's series is made one rank at a time in a scratch buffer
 * (never every rank's at once) and goes through the functions the ranks
 * and rank 0 use:
 *   reduce  the rank's sc_seconds_to_columns, added into its node's
 *           columns (sum columns summed, max columns maxed: what
 *           MPI_Reduce SUM and MAX do on the node's communicator); the
 *           node's columns added into the cluster's (the reduce across
 *           node leaders); sc_seconds_from_columns into rec->cluster, and
 *           into rec->node_series while sc_series_kept(M, S,
 *           SC_NODE_SERIES_MAX).  Timed whole (every rank's and leader's
 *           work, done serially here) and as rank 0's share: its own
 *           columns, its node's adds, every node's add into the cluster's
 *           (a linear reduce at the root: the most rank 0 can do; a tree
 *           does log2 of it) and the conversions back;
 *   pack    each rank's row by sc_rank_result_pack, its own seconds kept
 *           only while sc_series_kept(N, S, SC_RANK_SERIES_MAX) (summed
 *           over the ranks here; each rank packs its own, in parallel);
 *   gather  the packed rows in rank order, in pieces of at most
 *           GATHER_PIECE_BYTES (a memcpy stands for the transfer; not
 *           timed): the largest piece and the total are printed;
 *   unpack  rank 0's sc_phase_record_add_rank of every row of each piece
 *           into rec->ranks (and its bytes kept for results.pb), the
 *           piece's buffer reused for the next;
 *   figures sc_aggregate_phase and sc_node_series_init;
 *   write   sc_run_figures_update (the new phase aggregated), results.pb
 *           (the first phase written whole, each later one appended:
 *           timed alone), the phase's rows appended to phases.csv,
 *           ranks.csv, timeseries.csv and results.json.part, and
 *           sc_report_running into a temporary directory (results.json
 *           as the index, sweep.csv, report.html), as rank 0 does after
 *           a phase of an hour; report.html is timed again alone, and
 *           results.json + CSV is the rest.
 * merge = rank 0's reduce share + unpack + figures, against issue 13's
 * target (1 s per phase at 32K ranks).  The histograms' reduce is not
 * timed (each rank's histograms are summed into the record's beforehand).
 * Memory per phase: the peak resident set (VmHWM, reset between stages
 * with /proc/self/clear_refs) from the phase's start to the figures, and
 * while writing; the RSS and the heap in use (mallinfo2) after the write;
 * unpack's page faults.  The run's peak is getrusage's ru_maxrss (or the
 * largest stage peak; target: 1 GiB at 32K ranks), growth is it less the
 * RSS before the phases.
 *
 * Memory: about EST_BYTES_PER_RANK per rank and phase at rank 0, plus the
 * series kept, for the newest two phases (the others are thinned once
 * written: their node rows and the cluster's seconds stay); above
 * --max-gib (default 8) of estimate the run is refused (exit 2).  Exits 1 when the merged figures disagree with the synthetic
 * inputs: cluster bytes, I/Os, the cluster's series (every member of every
 * second) and per-second bytes, the node count, and one node's series
 * against the sum of its ranks' series made with sc_seconds_add.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/aggregate.h"
#include "analysis/node_series.h"
#include "codec.h"
#include "histogram.h"
#include "plan.h"
#include "record.h"
#include "report/report.h"
#include "results_file.h"
#include "result.h"

#define NS_PER_S   1000000000ll
#define MIB	   (1024.0 * 1024.0)
#define GIB	   (1024.0 * 1024.0 * 1024.0)
#define BS_BYTES   (128u * 1024u)
#define NTEMPLATES 64 /* latency shapes the ranks share */
/* The gather's largest piece, as issue 13's bounded gather sends it. */
#define GATHER_PIECE_BYTES (64u << 20)
/* Issue 13's targets at 32K ranks, one-hour phases. */
#define TARGET_RSS_MIB	1024.0
#define TARGET_MERGE_MS 1000.0
/* Rank 0's bytes per rank and phase: the unpacked row (1664 B), its
 * results.json, CSV and report.html parts while they are built (the
 * write's peak: 18.6-19.1 KB per rank and phase measured at 32K ranks,
 * rounded up). */
#define EST_BYTES_PER_RANK 20480.0

struct opts {
	uint32_t ranks, rpn, seconds, phases;
	double max_gib;
	int json;
	int keep; /* --keep: the results' folder left in place and named */
};

struct times {
	double cols_ms;	       /* every rank's sc_seconds_to_columns */
	double node_add_ms;    /* every leader's adds of its ranks' columns */
	double cluster_add_ms; /* the nodes' columns into the cluster's */
	double from_ms;	       /* sc_seconds_from_columns: cluster, kept nodes */
	double rank0_ms;       /* rank 0's share of all that */
	double pack_ms, unpack_ms, figures_ms, write_ms, html_ms;
	double write_cpu_ms;	/* the process's CPU time (user + system) in the write:
				 * below write_ms when the machine took the CPU away */
	double merge_peak_mib;	/* peak RSS from the phase's start to the figures */
	double write_peak_mib;	/* peak RSS while the results were written */
	double kept_mib;	/* RSS after the write: what rank 0 keeps */
	double heap_mib;	/* malloc'd and not freed then (mallinfo2) */
	uint64_t unpack_faults; /* page faults (first touches) while unpacking */
	uint64_t gather_bytes, piece_max_bytes, node_series_bytes;
	uint32_t pieces;
	uint64_t json_bytes, pb_bytes, html_bytes, ranks_csv_bytes;
};

/* What the synthetic ranks add up to, to check the merge against. */
struct truth {
	uint64_t bytes[SC_DIR_COUNT], ios[SC_DIR_COUNT];
	struct sc_second *cluster; /* S: the ranks' series by sc_seconds_add */
	struct sc_second *node;	   /* S: check_node's ranks' series alike */
	uint32_t check_node;
	int bad_node; /* check_node's columns disagreed with node */
};

/* Two columns of len seconds, as sc_seconds_to_columns writes them. */
struct columns {
	uint64_t *sums, *maxes;
};

/* The gather's current piece: packed rows of ranks first.. back to back. */
struct piece {
	uint8_t *buf;
	size_t len, cap;
	uint32_t first, n;
	size_t *lens; /* per rank (rank 0's counts) */
};

/* What one phase works with besides the record. */
struct work {
	struct sc_hist *tmpl[SC_DIR_COUNT][NTEMPLATES];
	struct sc_second *scratch; /* one rank's series at a time */
	struct columns rank, node, cluster;
	struct piece piece;
	int node_kept, rank_kept;
};

static uint64_t rng_state;
static uint64_t rng_next(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_unit(void) /* [0, 1) */
{
	return (double)(rng_next() >> 11) / 9007199254740992.0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The process's CPU time so far (user + system), ms. */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double rss_now_mib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	if (f)
		fclose(f);
	return (double)rss * (double)sysconf(_SC_PAGESIZE) / MIB;
}

static double peak_rss_mib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0; /* KiB on Linux */
}

static uint64_t minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_minflt;
}

/* The largest peak seen by stage_peak_mib, and whether the kernel let the
 * peak be reset between stages (else each stage's peak is the run's). */
static double peak_seen_mib;
static int peak_resets = 1;

/* The peak resident memory since the last stage_start (VmHWM), in MiB;
 * ru_maxrss when /proc/self/status has none. */
static double stage_peak_mib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");
	double mib;

	while (f && kib < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) != 1)
			kib = -1;
	if (f)
		fclose(f);
	mib = kib < 0 ? peak_rss_mib() : (double)kib / 1024.0;
	if (mib > peak_seen_mib)
		peak_seen_mib = mib;
	return mib;
}

/* A new stage: the peak reset to the resident memory now (Linux's
 * clear_refs 5), the old peak kept in peak_seen_mib first. */
static void stage_start(void)
{
	FILE *f;

	stage_peak_mib();
	f = fopen("/proc/self/clear_refs", "w");
	if (!f || fputs("5", f) < 0)
		peak_resets = 0;
	if (f && fclose(f))
		peak_resets = 0;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "agg_bench: out of memory\n");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p) {
		fprintf(stderr, "agg_bench: out of memory\n");
		exit(2);
	}
	return p;
}

static uint32_t nodes_of(const struct opts *o)
{
	return (o->ranks + o->rpn - 1) / o->rpn;
}

/* Rank 0's bytes by estimate: rows per phase, the series kept. */
static double estimate_gib(const struct opts *o)
{
	double series = (double)o->seconds * sizeof(struct sc_second);
	double kept = series;

	if (sc_series_kept(nodes_of(o), o->seconds, SC_NODE_SERIES_MAX))
		kept += series * nodes_of(o);
	if (sc_series_kept(o->ranks, o->seconds, SC_RANK_SERIES_MAX))
		kept += series * o->ranks;
	/* rank 0 keeps the rows of the newest two phases at most (a phase is
	 * thinned once written); of each one before, its node rows and the
	 * cluster's seconds */
	return (((double)o->ranks * EST_BYTES_PER_RANK + kept) * (o->phases < 2 ? o->phases : 2) +
		((double)nodes_of(o) * sizeof(struct sc_node_row) + series) * o->phases) /
	       GIB;
}

/* One target, P time-based mixed phases of o->seconds each. */
static void make_plan(struct sc_plan *p, const struct opts *o)
{
	memset(p, 0, sizeof(*p));
	p->run_id = xstrdup("agg-bench");
	p->config_path = xstrdup("bench/agg_bench.c");
	p->ntargets = 1;
	p->targets = xcalloc(1, sizeof(*p->targets));
	p->targets[0] = (struct sc_target_spec){
	    .path = xstrdup("/scratch/nvme0"), .kind = SC_TARGET_DIR, .capacity_bytes = 1ull << 40};
	p->nphases = o->phases;
	p->phases = xcalloc(o->phases, sizeof(*p->phases));
	for (uint32_t k = 0; k < o->phases; k++) {
		char name[64];

		snprintf(name, sizeof(name), "randrw-%u", k);
		p->phases[k] = (struct sc_phase){
		    .name = xstrdup(name),
		    .group = xstrdup(name),
		    .config_index = k,
		    .ncells = 1,
		    .io = {.rw = SC_RW_RANDRW,
			   .rwmixread_pct = 67,
			   .bs_bytes = BS_BYTES,
			   .iodepth = 32,
			   .jobs = 1,
			   .size_bytes = 1ull << 36,
			   .runtime_ns = (uint64_t)o->seconds * NS_PER_S,
			   .engine = SC_ENGINE_URING,
			   .seed = 42 + k},
		};
	}
}

/* NTEMPLATES latency shapes (log-normal around 200 us read, 400 us
 * write, 1024 values each); rank r uses shape r % NTEMPLATES. */
static void make_templates(struct sc_hist *t[SC_DIR_COUNT][NTEMPLATES])
{
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		for (int i = 0; i < NTEMPLATES; i++) {
			t[d][i] = xcalloc(1, sizeof(struct sc_hist));
			sc_hist_init(t[d][i]);
			for (int k = 0; k < 1024; k++) {
				double g = sqrt(-2.0 * log(1.0 - rng_unit())) *
					   cos(6.283185307179586 * rng_unit());
				double med = (d ? 400e3 : 200e3) * (1.0 + 0.01 * i);

				sc_hist_record(t[d][i], (uint64_t)(med * exp(0.5 * g)));
			}
		}
	}
}

/* Rank r's row: about 400 MB/s read and 200 MB/s written per second (+-10
 * %), its series in *seconds (o->seconds entries, reused between ranks);
 * tr gets its totals and series. */
static void make_rank(struct sc_rank_result *r, uint32_t rank, const struct opts *o,
		      struct sc_hist *t[SC_DIR_COUNT][NTEMPLATES], struct sc_second *seconds,
		      struct truth *tr)
{
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->node = rank / o->rpn;
	snprintf(r->host, sizeof(r->host), "node%05u", r->node);
	r->clock_offset_ns = (int64_t)(rng_next() % 200000) - 100000;
	r->start_ns = (int64_t)(rng_next() % 1000000);
	r->end_ns = (int64_t)o->seconds * NS_PER_S - (int64_t)(rng_next() % 500000000);
	r->nseconds = o->seconds;
	r->seconds = seconds;
	for (uint32_t k = 0; k < o->seconds; k++) {
		struct sc_second *s = &seconds[k];

		for (int d = 0; d < SC_DIR_COUNT; d++) {
			uint64_t ios = (uint64_t)((d ? 1526.0 : 3052.0) * (0.9 + 0.2 * rng_unit()));

			s->ios[d] = ios;
			s->bytes[d] = ios * BS_BYTES;
			s->max_lat_ns[d] = 1000000 + rng_next() % 4000000;
			r->ios[d] += ios;
			r->bytes[d] += s->bytes[d];
		}
		s->max_temp_mk = SC_TEMP_MK_OFFSET + 40000 + rng_next() % 10000;
	}
	r->firstdone_bytes = (r->bytes[0] + r->bytes[1]) / 100 * 99;
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		sc_hist_summarize(t[d][rank % NTEMPLATES], &r->lat[d]);
		if (rank % o->rpn == 0)
			r->node_lat[d] = r->lat[d]; /* the leader's: its node's */
		tr->bytes[d] += r->bytes[d];
		tr->ios[d] += r->ios[d];
	}
	sc_seconds_add(tr->cluster, seconds, o->seconds);
	if (r->node == tr->check_node)
		sc_seconds_add(tr->node, seconds, o->seconds);
	r->peak_rss_bytes = 64ull << 20;
}

static void columns_init(struct columns *c, uint32_t len)
{
	c->sums = xcalloc((size_t)len * SC_SECOND_SUMS, sizeof(uint64_t));
	c->maxes = xcalloc((size_t)len * SC_SECOND_MAXES, sizeof(uint64_t));
}

static void columns_zero(struct columns *c, uint32_t len)
{
	memset(c->sums, 0, (size_t)len * SC_SECOND_SUMS * sizeof(uint64_t));
	memset(c->maxes, 0, (size_t)len * SC_SECOND_MAXES * sizeof(uint64_t));
}

/* dst op= src over len seconds: what MPI_Reduce with MPI_SUM on the sum
 * column and MPI_MAX on the max column does at each step. */
static void columns_add(struct columns *dst, const struct columns *src, uint32_t len)
{
	for (size_t k = 0; k < (size_t)len * SC_SECOND_SUMS; k++)
		dst->sums[k] += src->sums[k];
	for (size_t k = 0; k < (size_t)len * SC_SECOND_MAXES; k++)
		if (src->maxes[k] > dst->maxes[k])
			dst->maxes[k] = src->maxes[k];
}

static void columns_exit(struct columns *c)
{
	free(c->sums);
	free(c->maxes);
}

/* A series of len seconds from columns c. */
static void series_from(struct sc_series *s, const struct columns *c, uint32_t len)
{
	s->seconds = xcalloc(len, sizeof(*s->seconds));
	s->nseconds = len;
	sc_seconds_from_columns(s->seconds, len, c->sums, c->maxes);
}

/* Rank 0 unpacks the rows of the current piece into rec->ranks, then the
 * piece is empty (its buffer kept for the next).  0, or 2 on a bad row. */
static int piece_flush(struct piece *pc, struct sc_phase_record *rec, struct times *t)
{
	size_t off = 0;
	uint64_t f0 = minor_faults();
	double t0 = now_ms();

	for (uint32_t j = 0; j < pc->n; j++) {
		uint32_t i = pc->first + j;
		int rc = sc_phase_record_add_rank(rec, pc->buf + off, pc->lens[i]);

		if (rc) {
			fprintf(stderr, "agg_bench: unpack of rank %u: %s\n", i, strerror(-rc));
			return 2;
		}
		off += pc->lens[i];
	}
	t->unpack_ms += now_ms() - t0;
	t->unpack_faults += minor_faults() - f0;
	if (pc->n)
		t->pieces++;
	if (pc->len > t->piece_max_bytes)
		t->piece_max_bytes = pc->len;
	pc->first += pc->n;
	pc->n = 0;
	pc->len = 0;
	return 0;
}

/* Rank i's packed row joins the gather: a new piece when it would pass
 * GATHER_PIECE_BYTES (the full one unpacked first). */
static int piece_add(struct piece *pc, struct sc_phase_record *rec, uint32_t i, const uint8_t *row,
		     size_t len, struct times *t)
{
	if (pc->n && pc->len + len > GATHER_PIECE_BYTES) {
		int rc = piece_flush(pc, rec, t);

		if (rc)
			return rc;
	}
	if (pc->len + len > pc->cap) {
		size_t cap = pc->cap ? pc->cap : 1u << 20;
		uint8_t *more;

		while (cap < pc->len + len)
			cap *= 2;
		more = realloc(pc->buf, cap);
		if (!more) {
			fprintf(stderr, "agg_bench: out of memory\n");
			return 2;
		}
		pc->buf = more;
		pc->cap = cap;
	}
	memcpy(pc->buf + pc->len, row, len);
	pc->len += len;
	pc->lens[i] = len;
	pc->n++;
	t->gather_bytes += len;
	return 0;
}

/* Rank i's part: its series made in w->scratch and turned into columns
 * added into its node's; its row packed (its own seconds only while kept)
 * into the gather.  0 or 2. */
static int one_rank(const struct opts *o, struct work *w, struct sc_phase_record *rec, uint32_t i,
		    struct truth *tr, struct times *t)
{
	struct sc_rank_result r;
	uint8_t *buf = NULL;
	size_t len = 0;
	double t0, dt;
	int rc;

	make_rank(&r, i, o, w->tmpl, w->scratch, tr);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		sc_hist_add(rec->lat[d], w->tmpl[d][i % NTEMPLATES]);
	t0 = now_ms();
	sc_seconds_to_columns(w->scratch, o->seconds, o->seconds, w->rank.sums, w->rank.maxes);
	dt = now_ms() - t0;
	t->cols_ms += dt;
	t->rank0_ms += i == 0 ? dt : 0;
	t0 = now_ms();
	columns_add(&w->node, &w->rank, o->seconds);
	dt = now_ms() - t0;
	t->node_add_ms += dt;
	t->rank0_ms += r.node == 0 ? dt : 0; /* rank 0 leads node 0 */
	if (!w->rank_kept) {
		r.nseconds = 0;
		r.seconds = NULL;
	}
	t0 = now_ms();
	rc = sc_rank_result_pack(&r, &buf, &len);
	t->pack_ms += now_ms() - t0;
	if (rc) {
		fprintf(stderr, "agg_bench: pack of rank %u: %s\n", i, strerror(-rc));
		return 2;
	}
	rc = piece_add(&w->piece, rec, i, buf, len, t);
	free(buf);
	return rc;
}

/* Node m: its ranks one at a time, then its columns into the cluster's
 * (and into rec->node_series[m] while kept).  check_node's columns are
 * compared with its ranks' series summed by sc_seconds_add.  0 or 2. */
static int one_node(const struct opts *o, struct work *w, struct sc_phase_record *rec, uint32_t m,
		    struct truth *tr, struct times *t)
{
	uint32_t end = (m + 1) * o->rpn < o->ranks ? (m + 1) * o->rpn : o->ranks;
	double t0;
	int rc = 0;

	columns_zero(&w->node, o->seconds);
	for (uint32_t i = m * o->rpn; !rc && i < end; i++)
		rc = one_rank(o, w, rec, i, tr, t);
	if (rc)
		return rc;
	t0 = now_ms();
	columns_add(&w->cluster, &w->node, o->seconds);
	t->cluster_add_ms += now_ms() - t0;
	if (w->node_kept) {
		t0 = now_ms();
		series_from(&rec->node_series[m], &w->node, o->seconds);
		t->from_ms += now_ms() - t0;
		t->node_series_bytes += (uint64_t)o->seconds * sizeof(struct sc_second);
	}
	if (m == tr->check_node) {
		struct sc_series s;

		series_from(&s, &w->node, o->seconds);
		tr->bad_node = memcmp(s.seconds, tr->node, o->seconds * sizeof(*s.seconds)) != 0;
		if (w->node_kept)
			tr->bad_node |= memcmp(rec->node_series[m].seconds, tr->node,
					       o->seconds * sizeof(*s.seconds)) != 0;
		sc_series_exit(&s);
	}
	return 0;
}

static void work_init(struct work *w, const struct opts *o)
{
	memset(w, 0, sizeof(*w));
	make_templates(w->tmpl);
	w->scratch = xcalloc(o->seconds, sizeof(*w->scratch));
	columns_init(&w->rank, o->seconds);
	columns_init(&w->node, o->seconds);
	columns_init(&w->cluster, o->seconds);
	w->piece.lens = xcalloc(o->ranks, sizeof(*w->piece.lens));
	w->node_kept = sc_series_kept(nodes_of(o), o->seconds, SC_NODE_SERIES_MAX);
	w->rank_kept = sc_series_kept(o->ranks, o->seconds, SC_RANK_SERIES_MAX);
}

static void work_exit(struct work *w)
{
	for (int d = 0; d < SC_DIR_COUNT; d++)
		for (int k = 0; k < NTEMPLATES; k++)
			free(w->tmpl[d][k]);
	free(w->scratch);
	columns_exit(&w->rank);
	columns_exit(&w->node);
	columns_exit(&w->cluster);
	free(w->piece.buf);
	free(w->piece.lens);
}

/* The reduce and the gather of one phase into rec, node by node.  0 or 2. */
static int reduce_gather(const struct opts *o, struct sc_phase_record *rec, struct truth *tr,
			 struct times *t)
{
	uint32_t nodes = nodes_of(o);
	struct work w;
	double t0;
	int rc = 0;

	work_init(&w, o);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		rec->lat[d] = xcalloc(1, sizeof(struct sc_hist));
		sc_hist_init(rec->lat[d]);
	}
	rec->ranks = xcalloc(o->ranks, sizeof(*rec->ranks));
	if (w.node_kept) {
		rec->node_series = xcalloc(nodes, sizeof(*rec->node_series));
		rec->nnode_series = nodes;
	}
	for (uint32_t m = 0; !rc && m < nodes; m++)
		rc = one_node(o, &w, rec, m, tr, t);
	rc = rc ? rc : piece_flush(&w.piece, rec, t);
	if (!rc) {
		t0 = now_ms();
		rec->cluster = xcalloc(1, sizeof(*rec->cluster));
		series_from(rec->cluster, &w.cluster, o->seconds);
		t->from_ms += now_ms() - t0;
		t->rank0_ms += t->cluster_add_ms + t->from_ms;
	}
	work_exit(&w);
	for (uint32_t i = 0; i < rec->nranks; i++)
		if (i == 0 || rec->ranks[i].end_ns < rec->firstdone_ns)
			rec->firstdone_ns = rec->ranks[i].end_ns;
	return rc;
}

/* 0 when the figures of rec agree with what the ranks were made of. */
static int check(const struct opts *o, const struct sc_phase_record *rec,
		 const struct sc_phase_figures *f, const struct sc_node_series *ns,
		 const struct truth *tr)
{
	int bad = tr->bad_node;

	for (int d = 0; d < SC_DIR_COUNT; d++)
		bad |= f->bytes[d] != tr->bytes[d] || f->ios[d] != tr->ios[d];
	bad |= f->nodes_len != nodes_of(o) || rec->nranks != o->ranks;
	bad |= ns->nnodes != f->nodes_len || ns->cluster.nseconds != o->seconds;
	bad |= !rec->cluster || rec->cluster->nseconds != o->seconds ||
	       memcmp(rec->cluster->seconds, tr->cluster, o->seconds * sizeof(*tr->cluster));
	for (uint32_t k = 0; !bad && k < o->seconds; k++)
		bad |= ns->cluster.seconds[k].bytes[0] + ns->cluster.seconds[k].bytes[1] !=
		       tr->cluster[k].bytes[0] + tr->cluster[k].bytes[1];
	if (bad)
		fprintf(stderr, "agg_bench: the merged figures disagree with the ranks' sums%s\n",
			tr->bad_node ? " (node series too)" : "");
	return bad;
}

static uint64_t file_bytes(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

static int figures(const struct opts *o, const struct sc_phase_record *rec, const struct truth *tr,
		   struct times *t)
{
	struct sc_phase_figures f;
	struct sc_node_series ns;
	double t0 = now_ms();
	int bad;

	if (sc_aggregate_phase(rec, &f))
		return 2;
	if (sc_node_series_init(&ns, rec)) {
		sc_phase_figures_exit(&f);
		return 2;
	}
	t->figures_ms = now_ms() - t0;
	bad = check(o, rec, &f, &ns, tr);
	sc_node_series_exit(&ns);
	sc_phase_figures_exit(&f);
	return bad;
}

/* The run's figures, grown phase by phase as rank 0's record grows them
 * (one run per process). */
static struct sc_run_figures run_fg;
/* How far the files hold the record, report.html's phase sections each
 * rendered once and the phases thinned once written, as rank 0 keeps
 * them. */
static struct sc_record_pace run_pace;

/* As rank 0 keeps a phase of an hour (sc_record_keep_phase, the pace
 * letting every phase's summary files be written): the figures grown by
 * the phase; results.pb, its first phase written whole and each later
 * one appended; the CSV tables a phase adds rows to and
 * results.json.part likewise; results.json as the index, sweep.csv and
 * report.html from the figures (report.html's phase sections each
 * rendered once and kept); then the phases written but the last thinned.
 * report.html is timed again alone, its sections then all kept. */
static int write_results(struct sc_run_record *run, struct sc_phase_record *ph, const char *dir,
			 struct times *t)
{
	char err[1024] = "out of memory";
	double t0 = now_ms();
	int rc;

	double cpu0 = cpu_ms();

	run_pace.due_ns = 0; /* a phase of an hour: the formatted files are due */
	rc = sc_record_keep_phase(run, &run_fg, &run_pace, ph, dir, true);
	t->write_ms = now_ms() - t0;
	t->write_cpu_ms = cpu_ms() - cpu0;
	if (rc)
		return 2; /* the message is printed */
	t->json_bytes = file_bytes(dir, "results.json");
	t->pb_bytes = file_bytes(dir, "results.pb");
	t->html_bytes = file_bytes(dir, "report.html");
	t->ranks_csv_bytes = file_bytes(dir, "ranks.csv");
	t0 = now_ms();
	rc = sc_report_html(dir, run, &run_fg, NULL, NULL, &run_pace.html, err, sizeof(err));
	t->html_ms = now_ms() - t0;
	return rc ? 2 : 0;
}

/* One phase: reduce and gather, figures, write; run then keeps the phase
 * as rank 0 does (its rows until the next phase is written). */
static int one_phase(const struct opts *o, struct sc_run_record *run, uint32_t p, const char *dir,
		     struct times *t)
{
	struct sc_phase_record ph = {0}, *rec = &ph;
	struct mallinfo2 mi;
	struct truth tr = {.cluster = xcalloc(o->seconds, sizeof(struct sc_second)),
			   .node = xcalloc(o->seconds, sizeof(struct sc_second)),
			   .check_node = nodes_of(o) / 2};
	int rc;

	memset(t, 0, sizeof(*t));
	rec->phase = p;
	stage_start();
	rc = reduce_gather(o, rec, &tr, t);
	rec->status = SC_PHASE_OK;
	rc = rc ? rc : figures(o, rec, &tr, t);
	t->merge_peak_mib = stage_peak_mib();
	stage_start();
	if (rc)
		sc_phase_record_exit(rec);
	else
		rc = write_results(run, rec, dir, t); /* run takes the phase over */
	t->write_peak_mib = stage_peak_mib();
	t->kept_mib = rss_now_mib();
	mi = mallinfo2();
	t->heap_mib = (double)(mi.uordblks + mi.hblkhd) / MIB;
	free(tr.cluster);
	free(tr.node);
	return rc;
}

/* The writes of the first and last phase and the slowest merge + write
 * (run_one keeps them). */
static double first_write_ms, last_write_ms, worst_merge_write_ms;
/* Each phase's write (ms), for the medians of the first and last phases:
 * on a shared machine one phase against one says little. */
#define WRITES_COMPARED 10u
static double *writes_ms;

static int cmp_ms(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (n > 0), v sorted. */
static double median_ms(double *v, uint32_t n)
{
	qsort(v, n, sizeof(*v), cmp_ms);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The medians of the writes of phases 2..11 and of the last 10 (phase 1's
 * writes every file whole), when there are 2 x 10 + 1 phases. */
static void print_write_medians(uint32_t n)
{
	double first, last, a[WRITES_COMPARED], b[WRITES_COMPARED];

	if (n < 2 * WRITES_COMPARED + 1)
		return;
	memcpy(a, writes_ms + 1, sizeof(a));
	memcpy(b, writes_ms + n - WRITES_COMPARED, sizeof(b));
	first = median_ms(a, WRITES_COMPARED);
	last = median_ms(b, WRITES_COMPARED);
	printf("  median write of phases 2-%u %.1f ms (%.1f-%.1f), of phases %u-%u %.1f ms "
	       "(%.1f-%.1f): %+.0f%%\n",
	       WRITES_COMPARED + 1, first, a[0], a[WRITES_COMPARED - 1],
	       n - WRITES_COMPARED + 1, n, last, b[0], b[WRITES_COMPARED - 1],
	       (last / first - 1) * 100);
}

/* What finish_results measured (end_ms < 0: not reached). */
static double end_ms = -1;
static uint64_t end_json_bytes;

/* The run's end: results.json made whole from results.json.part (every
 * phase's object appended as it ended), sweep.csv and report.html, as
 * rank 0 writes them once the last phase is over; timed and printed. */
static int finish_results(const struct opts *o, const struct sc_run_record *run,
			  const char *dir)
{
	char err[1024] = "";
	double t0 = now_ms(), ms;
	int rc = sc_report_finished(dir, run, &run_fg, NULL, NULL, false, &run_pace.html, err,
				    sizeof(err));

	ms = now_ms() - t0;
	if (rc) {
		fprintf(stderr, "agg_bench: %s\n", err);
		return 2;
	}
	end_ms = ms;
	end_json_bytes = file_bytes(dir, "results.json");
	if (!o->json)
		printf("  end: results.json whole (%.1f MB, its %u phases from results.json.part), "
		       "sweep.csv and report.html in %.1f ms\n",
		       (double)file_bytes(dir, "results.json") / 1e6, run->nphases, ms);
	return 0;
}

static double merge_ms(const struct times *t)
{
	return t->rank0_ms + t->unpack_ms + t->figures_ms;
}

static double reduce_ms(const struct times *t)
{
	return t->cols_ms + t->node_add_ms + t->cluster_add_ms + t->from_ms;
}

static void print_phase_json(uint32_t p, const struct times *t)
{
	printf("%s{\"phase\": %u, \"reduce_ms\": %.2f, \"reduce_rank0_ms\": %.2f, "
	       "\"pack_ms\": %.2f, \"unpack_ms\": %.2f, \"figures_ms\": %.2f, "
	       "\"merge_ms\": %.2f, \"merge_within_target\": %s, \"write_ms\": %.1f, \"write_cpu_ms\": %.1f, "
	       "\"merge_write_ms\": %.1f, \"html_again_ms\": %.1f, "
	       "\"merge_peak_rss_mib\": %.1f, \"write_peak_rss_mib\": %.1f, "
	       "\"rss_after_mib\": %.1f, \"heap_in_use_mib\": %.1f, "
	       "\"unpack_page_faults\": %" PRIu64 ", \"gather_bytes\": %" PRIu64
	       ", \"gather_pieces\": %u, \"gather_piece_max_bytes\": %" PRIu64
	       ", \"node_series_bytes\": %" PRIu64 ", \"results_json_bytes\": %" PRIu64
	       ", \"results_pb_bytes\": %" PRIu64 ", \"report_html_bytes\": %" PRIu64
	       ", \"ranks_csv_bytes\": %" PRIu64 "}",
	       p ? ", " : "", p, reduce_ms(t), t->rank0_ms, t->pack_ms, t->unpack_ms, t->figures_ms,
	       merge_ms(t), merge_ms(t) <= TARGET_MERGE_MS ? "true" : "false", t->write_ms, t->write_cpu_ms,
	       merge_ms(t) + t->write_ms, t->html_ms, t->merge_peak_mib,
	       t->write_peak_mib, t->kept_mib, t->heap_mib, t->unpack_faults, t->gather_bytes,
	       t->pieces, t->piece_max_bytes, t->node_series_bytes, t->json_bytes, t->pb_bytes,
	       t->html_bytes, t->ranks_csv_bytes);
}

static void print_phase(const struct opts *o, uint32_t p, const struct times *t)
{
	if (o->json) {
		print_phase_json(p, t);
		return;
	}
	printf("  phase %u: reduce %.1f ms (every rank's and leader's part, serially here; "
	       "rank 0's share %.2f ms), pack %.1f ms (all ranks, %.2f us each), "
	       "unpack %.1f ms (%" PRIu64 " page faults), figures+series %.1f ms\n",
	       p, reduce_ms(t), t->rank0_ms, t->pack_ms, t->pack_ms * 1e3 / o->ranks, t->unpack_ms,
	       t->unpack_faults, t->figures_ms);
	printf("    merge %.1f ms = rank 0's reduce share %.2f + unpack %.1f + figures %.1f "
	       "ms: %s the %.0f ms target; peak RSS %.1f MiB from the phase's start to here\n",
	       merge_ms(t), t->rank0_ms, t->unpack_ms, t->figures_ms,
	       merge_ms(t) <= TARGET_MERGE_MS ? "within" : "OVER", TARGET_MERGE_MS,
	       t->merge_peak_mib);
	printf("    write %.1f ms, CPU %.1f ms (the record's keeping of the phase: results.pb, "
	       "the tables, results.json, sweep.csv, report.html, then thinning; report.html "
	       "alone again %.1f ms); merge + write %.1f ms; peak RSS %.1f MiB while writing, "
	       "%.1f MiB after (heap in use %.1f MiB)\n",
	       t->write_ms, t->write_cpu_ms, t->html_ms, merge_ms(t) + t->write_ms, t->write_peak_mib, t->kept_mib,
	       t->heap_mib);
	printf("    gather %" PRIu64
	       " B (%.2f MiB, %.0f B per row) in %u piece(s), the largest %" PRIu64
	       " B; node series at rank 0 %.1f MiB\n",
	       t->gather_bytes, t->gather_bytes / MIB, (double)t->gather_bytes / o->ranks,
	       t->pieces, t->piece_max_bytes, t->node_series_bytes / MIB);
	printf("    results.json %.1f MiB, results.pb %.1f MiB, report.html %.1f MiB, ranks.csv "
	       "%.1f MiB\n",
	       t->json_bytes / MIB, t->pb_bytes / MIB, t->html_bytes / MIB,
	       t->ranks_csv_bytes / MIB);
}

/* Removes dir and the files the results left in it. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	if (rmdir(dir))
		fprintf(stderr, "agg_bench: %s left behind\n", dir);
}

static void print_head(const struct opts *o)
{
	uint32_t nodes = nodes_of(o);
	int nk = sc_series_kept(nodes, o->seconds, SC_NODE_SERIES_MAX);
	int rk = sc_series_kept(o->ranks, o->seconds, SC_RANK_SERIES_MAX);

	if (o->json) {
		printf("{\"ranks\": %u, \"ranks_per_node\": %u, \"nodes\": %u, \"seconds\": %u, "
		       "\"node_series_kept\": %s, \"rank_series_kept\": %s, "
		       "\"estimate_gib\": %.2f, \"phases\": [",
		       o->ranks, o->rpn, nodes, o->seconds, nk ? "true" : "false",
		       rk ? "true" : "false", estimate_gib(o));
		return;
	}
	printf("%u ranks on %u nodes, %u s per phase, %u phase(s): about %.2f GiB at rank 0 by "
	       "estimate\n",
	       o->ranks, nodes, o->seconds, o->phases, estimate_gib(o));
	printf("  node series kept: %s (nodes x seconds %" PRIu64 ", cap %u); ranks' own series "
	       "kept: %s (ranks x seconds %" PRIu64 ", cap %u)\n",
	       nk ? "yes" : "no", (uint64_t)nodes * o->seconds, SC_NODE_SERIES_MAX,
	       rk ? "yes" : "no", (uint64_t)o->ranks * o->seconds, SC_RANK_SERIES_MAX);
	printf("  sizeof(struct sc_rank_result) %zu B, sizeof(struct sc_second) %zu B; a "
	       "series of %u s %zu B, its columns %zu B\n",
	       sizeof(struct sc_rank_result), sizeof(struct sc_second), o->seconds,
	       o->seconds * sizeof(struct sc_second),
	       (size_t)o->seconds * (SC_SECOND_SUMS + SC_SECOND_MAXES) * sizeof(uint64_t));
}

/* The run's peak: ru_maxrss, or the largest stage peak when the stages'
 * resets hid an earlier one from it. */
static double run_peak_mib(void)
{
	stage_peak_mib();
	return peak_rss_mib() > peak_seen_mib ? peak_rss_mib() : peak_seen_mib;
}

static void print_tail(const struct opts *o, const struct times *worst, double merge_peak,
		       double base_mib)
{
	double peak = run_peak_mib();
	const char *merge_v = merge_ms(worst) <= TARGET_MERGE_MS ? "within" : "OVER";

	if (o->json) {
		printf("], \"end_ms\": %.2f, \"end_results_json_bytes\": %" PRIu64
		       ", \"peak_rss_mib\": %.1f, \"rss_growth_mib\": %.1f, "
		       "\"merge_peak_rss_mib\": %.1f, \"worst_merge_ms\": %.2f, "
		       "\"peak_rss_within_target\": %s, \"stage_peaks_reset\": %s, "
		       "\"first_write_ms\": %.1f, \"last_write_ms\": %.1f, "
		       "\"worst_merge_write_ms\": %.1f}\n",
		       end_ms, end_json_bytes, peak, peak - base_mib, merge_peak, merge_ms(worst),
		       peak <= TARGET_RSS_MIB ? "true" : "false", peak_resets ? "true" : "false",
		       first_write_ms, last_write_ms, worst_merge_write_ms);
		return;
	}
	printf("  peak RSS %.1f MiB (growth %.1f MiB from before the phases): %s the %.0f MiB "
	       "target; without the writes %.1f MiB: %s it\n",
	       peak, peak - base_mib, peak <= TARGET_RSS_MIB ? "within" : "OVER", TARGET_RSS_MIB,
	       merge_peak, merge_peak <= TARGET_RSS_MIB ? "within" : "OVER");
	printf("  slowest merge %.1f ms: %s the %.0f ms target%s\n", merge_ms(worst), merge_v,
	       TARGET_MERGE_MS,
	       peak_resets ? "" : " (the peak could not be reset: stage peaks are the run's)");
	printf("  slowest merge + write %.1f ms: %s the %.0f ms target; the last phase's write "
	       "%.1f ms, the first's %.1f ms (%+.0f%%; target at most +20%%)\n",
	       worst_merge_write_ms, worst_merge_write_ms <= TARGET_MERGE_MS ? "within" : "OVER",
	       TARGET_MERGE_MS, last_write_ms, first_write_ms,
	       first_write_ms > 0 ? (last_write_ms / first_write_ms - 1) * 100 : 0);
}

static int run_one(struct opts o)
{
	struct sc_run_record run;
	char dir[] = "/tmp/agg_bench.XXXXXX";
	struct times t = {0}, worst = {0};
	double base_mib, merge_peak = 0;
	int rc = 0;

	if (estimate_gib(&o) > o.max_gib) {
		fprintf(stderr,
			"agg_bench: %u ranks x %u s x %u phases needs about %.1f GiB, over "
			"--max-gib %g: refused\n",
			o.ranks, o.seconds, o.phases, estimate_gib(&o), o.max_gib);
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("agg_bench: mkdtemp");
		return 2;
	}
	rng_state = 0x5eed0000ULL + o.ranks;
	end_ms = -1;
	print_head(&o);
	memset(&run, 0, sizeof(run));
	run.version = xstrdup(SC_VERSION);
	run.nranks = o.ranks;
	run.nnodes = nodes_of(&o);
	make_plan(&run.plan, &o);
	base_mib = rss_now_mib();
	free(writes_ms);
	writes_ms = xcalloc(o.phases, sizeof(*writes_ms));
	for (uint32_t p = 0; !rc && p < o.phases; p++) {
		rc = one_phase(&o, &run, p, dir, &t);
		if (!rc) {
			print_phase(&o, p, &t);
			first_write_ms = p ? first_write_ms : t.write_ms;
			last_write_ms = t.write_ms;
			writes_ms[p] = t.write_ms;
			if (merge_ms(&t) + t.write_ms > worst_merge_write_ms)
				worst_merge_write_ms = merge_ms(&t) + t.write_ms;
		}
		if (merge_ms(&t) > merge_ms(&worst))
			worst = t;
		if (t.merge_peak_mib > merge_peak)
			merge_peak = t.merge_peak_mib;
	}
	if (!rc)
		rc = finish_results(&o, &run, dir);
	print_tail(&o, &worst, merge_peak, base_mib);
	if (!rc && !o.json)
		print_write_medians(o.phases);
	fflush(stdout);
	sc_run_record_exit(&run);
	if (o.keep)
		fprintf(stderr, "agg_bench: the results are kept in %s\n", dir);
	else
		remove_dir(dir);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: agg_bench [--ranks N] [--ranks-per-node R] [--seconds S] "
			"[--phases P] [--max-gib G] [--json] [--keep]\n"
			"  --keep  leave the results' folder in place (its path on stderr)\n");
	return 2;
}

/* The value of option a: its uint32_t field in o, or NULL (--max-gib,
 * --json and unknown names). */
static uint32_t *field_of(struct opts *o, const char *a)
{
	const struct {
		const char *name;
		uint32_t *field;
	} fields[] = {{"--ranks", &o->ranks},
		      {"--ranks-per-node", &o->rpn},
		      {"--seconds", &o->seconds},
		      {"--phases", &o->phases}};

	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		if (!strcmp(a, fields[k].name))
			return fields[k].field;
	return NULL;
}

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){.rpn = 8, .seconds = 3600, .phases = 1, .max_gib = 8.0};
	for (int i = 1; i < argc; i++) {
		uint32_t *field = field_of(o, argv[i]);
		unsigned long n;

		o->json |= !strcmp(argv[i], "--json");
		o->keep |= !strcmp(argv[i], "--keep");
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--keep"))
			continue;
		if (i + 1 >= argc || (!field && strcmp(argv[i], "--max-gib")))
			return -1;
		if (!field) {
			o->max_gib = atof(argv[++i]);
			continue;
		}
		n = strtoul(argv[++i], NULL, 10);
		if (n < 1 || n > 1u << 24)
			return -1;
		*field = (uint32_t)n;
	}
	return o->max_gib > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const uint32_t sizes[] = {1024, 8192, 32768};
	struct opts o;
	int worst = 0;

	if (parse(argc, argv, &o))
		return usage();
	if (o.ranks)
		return run_one(o);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		pid_t pid;
		int st;

		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("agg_bench: fork");
			return 2;
		}
		if (pid == 0) {
			o.ranks = sizes[i];
			_exit(run_one(o));
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
			return 2;
		if (WEXITSTATUS(st) > worst)
			worst = WEXITSTATUS(st);
	}
	return worst;
}
