/* agg_bench.c -- what rank 0's aggregation costs at scale, without MPI: N
 * synthetic ranks on N / ranks-per-node nodes, each with a per-second
 * series of S seconds per phase.  A benchmark, not a test (issue 13's
 * baseline: it measures today's code and changes none of it).
 *
 *     agg_bench [--ranks N] [--ranks-per-node R] [--seconds S] [--phases P]
 *               [--max-gib G] [--json]
 *
 * Without --ranks it runs N = 1024, 8192 and 32768 in turn, each in its own
 * child process (so that each peak RSS is its own).  Per phase it times:
 *   pack    every rank's sc_rank_result_pack, as each rank does before the
 *           gather; the sum of the sizes is what MPI_Gatherv would carry
 *           (its int counts and displacements cap it at INT_MAX bytes);
 *   unpack  rank 0's sc_rank_result_unpack of every packed row into the
 *           phase record (phase.c's gather_ranks without the MPI);
 *   figures sc_aggregate_phase and sc_node_series_init (the cluster and
 *           node figures and series the results and report.html show);
 *   write   sc_report_results into a temporary directory: results.pb,
 *           results.json, the CSV tables and report.html, as
 *           sc_record_keep_phase does after every phase (every phase so
 *           far rewritten); of it, the results.pb encode and report.html
 *           alone are timed again separately.
 * The histograms' MPI reduce is not timed (each rank's histograms are
 * summed into the record's beforehand).  Peak RSS is getrusage's
 * ru_maxrss; growth is it less the RSS before the inputs were built.
 *
 * Memory: a rank-second costs about EST_BYTES_PER_RANK_SECOND at rank 0
 * (the packed row, the unpacked struct sc_second, the results.pb encode's
 * columns and output).  Above --max-gib (default 8) of estimate, the run is
 * refused (exit 2) when --seconds was given; otherwise --seconds is reduced
 * to fit 3/4 of it, and the output says so.  Exits 1 when the merged
 * figures disagree with the synthetic inputs (cluster bytes, I/Os and
 * per-second bytes, node count).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
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
#include "report/report.h"
#include "result.h"

#define NS_PER_S   1000000000ll
#define MIB	   (1024.0 * 1024.0)
#define GIB	   (1024.0 * 1024.0 * 1024.0)
#define BS_BYTES   (128u * 1024u)
#define NTEMPLATES 64 /* latency shapes the ranks share */
/* Rank 0's bytes per rank-second (packed ~25, unpacked 56, encode columns
 * 56, encoded ~25, rounded up) and per rank (row, JSON objects). */
#define EST_BYTES_PER_RANK_SECOND 180.0
#define EST_BYTES_PER_RANK	  32768.0

struct opts {
	uint32_t ranks, rpn, seconds, phases;
	double max_gib;
	int json, seconds_given;
};

struct times {
	double pack_ms, unpack_ms, figures_ms, write_ms, pb_ms, html_ms;
	uint64_t gather_bytes, json_bytes, pb_bytes, html_bytes;
};

/* What the synthetic ranks add up to, to check the merge against. */
struct truth {
	uint64_t bytes[SC_DIR_COUNT], ios[SC_DIR_COUNT];
	uint64_t *sec_bytes; /* per second, reads + writes */
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

static double estimate_gib(const struct opts *o, uint32_t seconds)
{
	double rs = (double)o->ranks * seconds * o->phases;

	return (rs * EST_BYTES_PER_RANK_SECOND +
		(double)o->ranks * o->phases * EST_BYTES_PER_RANK) /
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
 * %), its series in *seconds (o->seconds entries, reused between ranks). */
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
			tr->sec_bytes[k] += s->bytes[d];
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
	r->peak_rss_bytes = 64ull << 20;
}

/* Every rank's row packed as the gather sends it; the record's merged
 * histograms summed from the ranks' shapes. */
static int pack_all(const struct opts *o, struct sc_phase_record *rec, uint8_t **bufs, size_t *lens,
		    struct truth *tr, struct times *t)
{
	struct sc_hist *tmpl[SC_DIR_COUNT][NTEMPLATES];
	struct sc_second *seconds = xcalloc(o->seconds, sizeof(*seconds));
	struct sc_rank_result r;

	make_templates(tmpl);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		rec->lat[d] = xcalloc(1, sizeof(struct sc_hist));
		sc_hist_init(rec->lat[d]);
	}
	for (uint32_t i = 0; i < o->ranks; i++) {
		double t0;
		int rc;

		make_rank(&r, i, o, tmpl, seconds, tr);
		for (int d = 0; d < SC_DIR_COUNT; d++)
			sc_hist_add(rec->lat[d], tmpl[d][i % NTEMPLATES]);
		t0 = now_ms();
		rc = sc_rank_result_pack(&r, &bufs[i], &lens[i]);
		t->pack_ms += now_ms() - t0;
		if (rc) {
			fprintf(stderr, "agg_bench: pack of rank %u: %s\n", i, strerror(-rc));
			return 2;
		}
		t->gather_bytes += lens[i];
	}
	for (int d = 0; d < SC_DIR_COUNT; d++)
		for (int k = 0; k < NTEMPLATES; k++)
			free(tmpl[d][k]);
	free(seconds);
	return 0;
}

/* phase.c's gather_ranks at rank 0, without MPI: the packed rows unpacked
 * into rec->ranks (each buffer freed once read). */
static int unpack_all(const struct opts *o, struct sc_phase_record *rec, uint8_t **bufs,
		      size_t *lens)
{
	rec->ranks = xcalloc(o->ranks, sizeof(*rec->ranks));
	for (uint32_t i = 0; i < o->ranks; i++) {
		int rc = sc_rank_result_unpack(bufs[i], lens[i], &rec->ranks[i]);

		free(bufs[i]);
		bufs[i] = NULL;
		if (rc) {
			fprintf(stderr, "agg_bench: unpack of rank %u: %s\n", i, strerror(-rc));
			return 2;
		}
		rec->nranks = i + 1;
	}
	for (uint32_t i = 0; i < o->ranks; i++)
		if (i == 0 || rec->ranks[i].end_ns < rec->firstdone_ns)
			rec->firstdone_ns = rec->ranks[i].end_ns;
	return 0;
}

/* 0 when the figures of rec agree with what the ranks were made of. */
static int check(const struct opts *o, const struct sc_phase_figures *f,
		 const struct sc_node_series *ns, const struct truth *tr)
{
	int bad = 0;

	for (int d = 0; d < SC_DIR_COUNT; d++)
		bad |= f->bytes[d] != tr->bytes[d] || f->ios[d] != tr->ios[d];
	bad |= f->nodes_len != (o->ranks + o->rpn - 1) / o->rpn;
	bad |= ns->nnodes != f->nodes_len || ns->cluster.nseconds != o->seconds;
	for (uint32_t k = 0; !bad && k < o->seconds; k++)
		bad |= ns->cluster.seconds[k].bytes[0] + ns->cluster.seconds[k].bytes[1] !=
		       tr->sec_bytes[k];
	if (bad)
		fprintf(stderr, "agg_bench: the merged figures disagree with the ranks' sums\n");
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
	bad = check(o, &f, &ns, tr);
	sc_node_series_exit(&ns);
	sc_phase_figures_exit(&f);
	return bad;
}

static int write_results(const struct sc_run_record *run, const char *dir, struct times *t)
{
	char err[1024];
	uint8_t *buf = NULL;
	size_t len = 0;
	double t0 = now_ms();
	int rc = sc_report_results(dir, run, err, sizeof(err));

	t->write_ms = now_ms() - t0;
	if (rc) {
		fprintf(stderr, "agg_bench: %s\n", err);
		return 2;
	}
	t->json_bytes = file_bytes(dir, "results.json");
	t->pb_bytes = file_bytes(dir, "results.pb");
	t->html_bytes = file_bytes(dir, "report.html");
	t0 = now_ms();
	rc = sc_run_record_pack(run, &buf, &len);
	t->pb_ms = now_ms() - t0;
	free(buf);
	t0 = now_ms();
	rc = rc ? rc : sc_report_html(dir, run, NULL, NULL, err, sizeof(err));
	t->html_ms = now_ms() - t0;
	return rc ? 2 : 0;
}

/* One phase: inputs, pack, unpack, figures, write; the phase then stays in
 * run (as rank 0 keeps every phase). */
static int one_phase(const struct opts *o, struct sc_run_record *run, uint32_t p, const char *dir,
		     struct times *t)
{
	struct sc_phase_record *rec = &run->phases[p];
	uint8_t **bufs = xcalloc(o->ranks, sizeof(*bufs));
	size_t *lens = xcalloc(o->ranks, sizeof(*lens));
	struct truth tr = {.sec_bytes = xcalloc(o->seconds, sizeof(uint64_t))};
	double t0;
	int rc;

	memset(t, 0, sizeof(*t));
	rec->phase = p;
	rc = pack_all(o, rec, bufs, lens, &tr, t);
	t0 = now_ms();
	rc = rc ? rc : unpack_all(o, rec, bufs, lens);
	t->unpack_ms = now_ms() - t0;
	run->nphases = p + 1;
	rec->status = SC_PHASE_OK;
	rc = rc ? rc : figures(o, rec, &tr, t);
	rc = rc ? rc : write_results(run, dir, t);
	for (uint32_t i = 0; i < o->ranks; i++)
		free(bufs[i]);
	free(bufs);
	free(lens);
	free(tr.sec_bytes);
	return rc;
}

static void print_phase(const struct opts *o, uint32_t p, const struct times *t)
{
	if (o->json) {
		printf("%s{\"phase\": %u, \"pack_ms\": %.1f, \"unpack_ms\": %.1f, "
		       "\"figures_ms\": %.1f, \"write_ms\": %.1f, \"pb_encode_ms\": %.1f, "
		       "\"html_ms\": %.1f, \"gather_bytes\": %" PRIu64
		       ", \"gather_over_int_max\": %s, \"results_json_bytes\": %" PRIu64
		       ", \"results_pb_bytes\": %" PRIu64 ", \"report_html_bytes\": %" PRIu64 "}",
		       p ? ", " : "", p, t->pack_ms, t->unpack_ms, t->figures_ms, t->write_ms,
		       t->pb_ms, t->html_ms, t->gather_bytes,
		       t->gather_bytes > INT_MAX ? "true" : "false", t->json_bytes, t->pb_bytes,
		       t->html_bytes);
		return;
	}
	printf("  phase %u: pack %.1f ms (all ranks), unpack %.1f ms, figures+series %.1f ms, "
	       "write %.1f ms (of it results.pb encode %.1f ms, report.html %.1f ms)\n",
	       p, t->pack_ms, t->unpack_ms, t->figures_ms, t->write_ms, t->pb_ms, t->html_ms);
	printf("    gather %.1f MiB (%" PRIu64 " B): %s; results.json %.1f MiB, results.pb "
	       "%.1f MiB, report.html %.1f MiB\n",
	       t->gather_bytes / MIB, t->gather_bytes,
	       t->gather_bytes > INT_MAX ? "over INT_MAX, today's MPI_Gatherv would abort the run"
					 : "under INT_MAX",
	       t->json_bytes / MIB, t->pb_bytes / MIB, t->html_bytes / MIB);
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

static int run_one(struct opts o)
{
	struct sc_run_record run;
	char dir[] = "/tmp/agg_bench.XXXXXX";
	double base_mib, scaled, need = estimate_gib(&o, o.seconds);
	struct times t = {0};
	uint32_t asked = o.seconds;
	int rc = 0;

	if (need > o.max_gib) {
		double per_s = estimate_gib(&o, 1) - estimate_gib(&o, 0);

		if (o.seconds_given) {
			fprintf(stderr,
				"agg_bench: %u ranks x %u s x %u phases needs about %.1f GiB, over "
				"--max-gib %g: refused\n",
				o.ranks, o.seconds, o.phases, need, o.max_gib);
			return 2;
		}
		o.seconds = (uint32_t)((0.75 * o.max_gib - estimate_gib(&o, 0)) / per_s);
		if (o.seconds < 1) {
			fprintf(stderr, "agg_bench: %u ranks do not fit in %.1f GiB\n", o.ranks,
				o.max_gib);
			return 2;
		}
	}
	if (!mkdtemp(dir)) {
		perror("agg_bench: mkdtemp");
		return 2;
	}
	rng_state = 0x5eed0000ULL + o.ranks;
	if (!o.json) {
		printf("%u ranks on %u nodes, %u s per phase, %u phase(s): about %.2f GiB at "
		       "rank 0 by estimate\n",
		       o.ranks, (o.ranks + o.rpn - 1) / o.rpn, o.seconds, o.phases,
		       estimate_gib(&o, o.seconds));
		if (o.seconds != asked)
			printf("  (%u s would need about %.1f GiB, over --max-gib %.1f: series "
			       "cut to %u s; sizeof(struct sc_second) %zu B, so the unpacked "
			       "series alone are %.2f GiB at %u s)\n",
			       asked, need, o.max_gib, o.seconds, sizeof(struct sc_second),
			       (double)o.ranks * asked * sizeof(struct sc_second) / GIB, asked);
	} else {
		printf("{\"ranks\": %u, \"ranks_per_node\": %u, \"seconds\": %u, "
		       "\"seconds_asked\": %u, \"estimate_gib\": %.2f, \"phases\": [",
		       o.ranks, o.rpn, o.seconds, asked, estimate_gib(&o, o.seconds));
	}
	memset(&run, 0, sizeof(run));
	run.version = xstrdup(SC_VERSION);
	run.nranks = o.ranks;
	run.nnodes = (o.ranks + o.rpn - 1) / o.rpn;
	make_plan(&run.plan, &o);
	run.phases = xcalloc(o.phases, sizeof(*run.phases));
	base_mib = rss_now_mib();
	for (uint32_t p = 0; !rc && p < o.phases; p++) {
		rc = one_phase(&o, &run, p, dir, &t);
		if (!rc)
			print_phase(&o, p, &t);
		run.rank0_peak_rss_bytes = (uint64_t)(peak_rss_mib() * MIB);
	}
	/* the gather of the series asked for, in proportion to the seconds */
	scaled = (double)t.gather_bytes * asked / o.seconds;
	if (o.json)
		printf("], \"gather_bytes_at_seconds_asked\": %.0f, \"peak_rss_mib\": %.1f, "
		       "\"rss_growth_mib\": %.1f}\n",
		       scaled, peak_rss_mib(), peak_rss_mib() - base_mib);
	else
		printf("  peak RSS %.1f MiB (growth %.1f MiB from before the inputs)\n",
		       peak_rss_mib(), peak_rss_mib() - base_mib);
	if (!o.json && asked != o.seconds)
		printf("  gather at %u s, by proportion: %.0f B (%.2f GiB): %s\n", asked, scaled,
		       scaled / GIB,
		       scaled > INT_MAX ? "over INT_MAX, today's MPI_Gatherv would abort the run"
					: "under INT_MAX");
	fflush(stdout);
	sc_run_record_exit(&run);
	remove_dir(dir);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: agg_bench [--ranks N] [--ranks-per-node R] [--seconds S] "
			"[--phases P] [--max-gib G] [--json]\n");
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
		if (!strcmp(argv[i], "--json"))
			continue;
		if (i + 1 >= argc || (!field && strcmp(argv[i], "--max-gib")))
			return -1;
		if (!field) {
			o->max_gib = atof(argv[++i]);
			continue;
		}
		o->seconds_given |= field == &o->seconds;
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
