/* test_html_phase.c -- report.html's phase, checkpoint and sweep charts of
 * a small run built in memory (3 ranks on 2 nodes, the second node slower):
 * the over-time charts have one line per node and one for the cluster, the
 * slowest node's and drive's bars are the marked ones, the lowest AU rank
 * is marked, a training phase's AU bars mark the accelerator and the host
 * below its threshold (a line at it) and its samples/s line gives each
 * second's bytes over the bytes a sample, its MLPerf table the run's
 * figures, a checkpoint chart has one point per checkpoint on every line,
 * every sweep heatmap cell shows the sweep figure of its cell ("-" where
 * not measured), and the page is well-formed XML (xmllint, when present). */
#include "report/html_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sweep_matrix.h"
#include "analysis/workload_figures.h"
#include "check.h"
#include "config/config.h"
#include "report/html_page.h"
#include "report/svg.h"
#include "svg_read.h"

#define S      INT64_C(1000000000)
#define MB     1000000u
#define NRANKS 3u
#define NSEC   3u
#define NCKPT  3u
/* A training phase's bytes read per sample (its seconds are whole MB). */
#define TRAIN_SAMPLE_BYTES 100000u

static char dir[256];

/* ------------------------------------------------------------- the run */

static struct sc_hist *hist_of(uint64_t first_ns, uint32_t n)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	sc_hist_init(h);
	for (uint32_t i = 0; i < n; i++)
		sc_hist_record(h, first_ns + 37 * i * i);
	return h;
}

/* Rank i of plan phase p: ranks 0 and 1 on "alpha", rank 2 on "beta"
 * moving a third of their bytes. */
static void make_rank(struct sc_rank_result *r, uint32_t i, uint32_t p, const struct sc_phase *ph)
{
	uint64_t share = i == 2 ? 1 : 3;

	r->rank = i;
	r->node = i / 2;
	snprintf(r->host, sizeof(r->host), "%s", i < 2 ? "alpha" : "beta");
	r->start_ns = 0;
	/* checkpoint k takes k + 1 s on node 0, k + 2 s on node 1 */
	r->end_ns = ph->workload == SC_WORKLOAD_CHECKPOINT
			? (int64_t)(ph->ckpt.index + r->node + ph->ckpt.restore) * S
			: (int64_t)NSEC * S - S / 2;
	r->compute_ns = (uint64_t)(r->end_ns / 10) * (i + 5);
	if (ph->workload == SC_WORKLOAD_TRAINING) { /* AU 95%, 95%, 50% (beta) */
		r->au_steps = 10;
		r->au_wall_ns = 2 * S;
		r->au_compute_ns = i == 2 ? S : 19 * S / 10;
	}
	r->nseconds = NSEC;
	r->seconds = xcalloc(NSEC, sizeof(*r->seconds));
	for (uint32_t k = 0; k < NSEC; k++) {
		int d = ph->io.rw == SC_RW_WRITE || ph->workload == SC_WORKLOAD_CHECKPOINT;

		r->seconds[k].bytes[d] = share * (10 + p + k) * MB;
		r->seconds[k].ios[d] = share * (100 + k);
		r->bytes[d] += r->seconds[k].bytes[d];
		r->ios[d] += r->seconds[k].ios[d];
	}
	if (ph->workload == SC_WORKLOAD_TRAINING)
		r->samples = r->bytes[SC_DIR_READ] / TRAIN_SAMPLE_BYTES;
}

/* The record of plan phase p. */
static void make_phase(struct sc_phase_record *pr, const struct sc_plan *plan, uint32_t p)
{
	const struct sc_phase *ph = &plan->phases[p];

	pr->phase = p;
	pr->nranks = NRANKS;
	pr->ranks = xcalloc(NRANKS, sizeof(*pr->ranks));
	for (uint32_t i = 0; i < NRANKS; i++)
		make_rank(&pr->ranks[i], i, p, ph);
	if (sc_rw_reads(ph->io.rw))
		pr->lat[SC_DIR_READ] = hist_of(1000 + 500 * p, 2000);
	if (sc_rw_writes(ph->io.rw))
		pr->lat[SC_DIR_WRITE] = hist_of(3000 + 700 * p, 1000);
	if (ph->workload == SC_WORKLOAD_KVCACHE)
		for (int d = 0; d < SC_DIR_COUNT; d++)
			pr->resp[d] = pr->lat[d] ? hist_of(9000, 500) : NULL;
	if (ph->workload == SC_WORKLOAD_INGEST || ph->workload == SC_WORKLOAD_TRAINING)
		pr->batch_wait = hist_of(20000, 300);
}

/* The run of path's plan; every phase measured but sweep cell `skip`. */
static bool make_run(struct sc_run_record *rec, const char *path, uint32_t skip)
{
	struct sc_config *cfg = NULL;
	char err[1024];

	memset(rec, 0, sizeof(*rec));
	if (sc_config_load(&cfg, path, NULL, 0, err, sizeof(err))) {
		FAIL("%s: %s", path, err);
		return false;
	}
	sc_config_take_plan(cfg, &rec->plan);
	sc_config_destroy(cfg);
	rec->version = xstrdup("test");
	rec->nranks = NRANKS;
	rec->nnodes = 2;
	rec->phases = xcalloc(rec->plan.nphases, sizeof(*rec->phases));
	for (uint32_t p = 0; p < rec->plan.nphases; p++)
		if (p != skip)
			make_phase(&rec->phases[rec->nphases++], &rec->plan, p);
	return true;
}

/* ------------------------------------------------------ reading the SVG */

/* The <svg> element of out whose title starts with title, as a string
 * (heap), or NULL. */
static char *chart(const char *out, const char *title)
{
	char key[256];
	const char *at, *begin, *end;

	snprintf(key, sizeof(key), "<title>%s", title);
	at = strstr(out, key);
	if (!at) {
		FAIL("no chart titled \"%s\"", title);
		return NULL;
	}
	for (begin = at; begin > out && strncmp(begin, "<svg", 4); begin--)
		;
	end = strstr(at, "</svg>");
	return end ? strndup(begin, (size_t)(end - begin)) : NULL;
}

/* Counts the lines drawn in svg (paths through points, not the legend's
 * swatches), and how many of them have `points` points. */
static uint32_t lines(const char *svg, uint32_t points, uint32_t *with)
{
	uint32_t n = 0;

	*with = 0;
	for (const char *p = strstr(svg, " d=\"M"); p; p = strstr(p + 1, " d=\"M")) {
		const char *end = strchr(p + 4, '"');
		uint32_t pts = 1;

		if (!end || (end - p > 4 && strncmp(end - 3, "h24", 3) == 0))
			continue; /* a legend swatch */
		if (!memchr(p, 'L', (size_t)(end - p)))
			continue; /* a marker, not a line */
		for (const char *q = p; q < end; q++)
			pts += *q == 'L';
		n++;
		*with += pts == points;
	}
	return n;
}

/* The label of the marked bar of svg: the text before the bold
 * "(mark)" that follows it, without the space between them. */
static void marked_label(const char *svg, const char *mark, char *out, size_t len)
{
	char key[64];
	const char *at, *tspan, *gt;
	int n;

	snprintf(key, sizeof(key), "(%s)</tspan>", mark);
	out[0] = '\0';
	at = strstr(svg, key);
	if (!at)
		return;
	for (tspan = at; tspan > svg && strncmp(tspan, "<tspan", 6); tspan--)
		;
	for (gt = tspan - 1; gt > svg && *gt != '>'; gt--)
		;
	n = (int)(tspan - gt - 1);
	while (n > 0 && gt[n] == ' ')
		n--;
	if (n >= 6 && strncmp(gt + 1 + n - 6, "&#160;", 6) == 0)
		n -= 6;
	snprintf(out, len, "%.*s", n, gt + 1);
	if (strstr(at + 1, key))
		FAIL("more than one bar marked %s", mark);
}

/* The text of the n-th heatmap cell of svg. */
static bool cell_text(const char *svg, uint32_t n, char *out, size_t len)
{
	const char *p = svg;

	for (uint32_t i = 0; p && i <= n; i++)
		if ((p = strstr(p, "class=\"cell\"")))
			p++;
	if (!p || !(p = strchr(p, '>')))
		return false;
	snprintf(out, len, "%.*s", (int)strcspn(p + 1, "<"), p + 1);
	return true;
}

/* Runs fn's output into a string (heap). */
static char *capture(int (*fn)(FILE *, const void *), const void *arg, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		perror("open_memstream");
		exit(1);
	}
	*rc = fn(f, arg);
	CHECK(!ferror(f), "output error");
	fclose(f);
	return buf;
}

/* ------------------------------------------------------------- checks */

struct phase_args {
	const struct sc_run_record *rec;
	const struct sc_run_figures *fg;
	uint32_t i;
};

static int phase_fn(FILE *f, const void *arg)
{
	const struct phase_args *a = arg;

	return sc_html_phase_charts(f, a->rec, a->fg, a->i);
}

static int ckpt_fn(FILE *f, const void *arg)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, arg);

	if (!rc)
		rc = sc_html_checkpoints(f, &fg);
	sc_run_figures_exit(&fg);
	return rc;
}

static int sweep_fn(FILE *f, const void *arg)
{
	return sc_html_sweeps(f, arg);
}

/* The charts of io phase "mix": a line per node plus the cluster, the slow
 * node and its drive marked. */
static void check_io_phase(const char *out)
{
	char *svg, label[128];
	uint32_t with;

	for (int bw = 0; bw < 2; bw++) {
		svg = chart(out, bw ? "mix: bandwidth over time" : "mix: IOPS over time");
		if (!svg)
			continue;
		CHECK(lines(svg, NSEC, &with) == 3 && with == 3,
		      "%u lines (%u of %u points), want 2 nodes + the cluster",
		      lines(svg, 0, &with), with, NSEC);
		CHECK(strstr(svg, ">alpha<") && strstr(svg, ">beta<") && strstr(svg, ">cluster<"),
		      "legend without alpha, beta and cluster");
		CHECK(strstr(svg, "(MB/s)") || !bw, "bandwidth without MB/s");
		free(svg);
	}
	if ((svg = chart(out, "mix: bandwidth per node"))) {
		marked_label(svg, "slowest", label, sizeof(label));
		CHECK(strcmp(label, "beta") == 0, "node bar marked: \"%s\", want beta", label);
		free(svg);
	}
	if ((svg = chart(out, "mix: bandwidth per drive"))) {
		marked_label(svg, "slowest", label, sizeof(label));
		CHECK(strncmp(label, "beta ", 5) == 0, "drive bar marked: \"%s\", want beta's",
		      label);
		free(svg);
	}
	/* 2,000 reads and 1,000 writes (make_record) support p50 .. p99.9
	 * (p needs 1 / (1 - p) samples: 2, 10, 100, 1,000); p99.99 (10,000)
	 * and beyond are not drawn, and the page says so */
	if ((svg = chart(out, "mix: service-time percentiles"))) {
		CHECK(lines(svg, 4, &with) == 2 && with == 2,
		      "not a line of 4 percentiles (p50 .. p99.9) per direction");
		CHECK(strstr(svg, ">p99.9<") && !strstr(svg, "p99.99"),
		      "nines axis not up to p99.9 alone");
		CHECK(strstr(svg, "read (2000 samples)") && strstr(svg, "write (1000 samples)"),
		      "legend without the sample counts");
		free(svg);
	}
	CHECK(strstr(out, "read: p99.99 and above not drawn (2000 samples; p99.99 needs 10000)"),
	      "no note of the percentiles left out");
}

/* The x of the threshold line of svg on its axis, NAN when none. */
static double threshold_at(const char *svg)
{
	const char *at = strstr(svg, "<line class=\"threshold\" x1=\"");
	double a, b, x;

	if (!at || !svg_axis_line(svg, "xtick", &a, &b) ||
	    sscanf(at, "<line class=\"threshold\" x1=\"%lf", &x) != 1)
		return NAN;
	return (x - a) / b;
}

/* The labels of the bars of svg marked "(mark)", in order, joined by
 * "|" into out. */
static void marked_labels(const char *svg, const char *mark, char *out, size_t len)
{
	char key[64];
	size_t n = 0;

	out[0] = '\0';
	snprintf(key, sizeof(key), "&#160;<tspan font-weight=\"bold\">(%s)</tspan>", mark);
	for (const char *at = strstr(svg, key); at && n < len; at = strstr(at + 1, key)) {
		const char *gt = at;

		while (gt > svg && *gt != '>')
			gt--;
		n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? "|" : "", (int)(at - gt - 1),
				      gt + 1);
	}
}

/* The AU bar chart of out titled title: the bars of 95% and 50% printed
 * (unmarked the bar labelled as unmarked says), the one marked below
 * labelled below, the threshold a line at 90 on the axis. */
static void au_bars(const char *out, const char *title, const char *below, const char *unmarked)
{
	char *svg = chart(out, title), got[256];

	if (!svg)
		return;
	marked_labels(svg, "below", got, sizeof(got));
	CHECK(strcmp(got, below) == 0, "%s: marked below \"%s\", want \"%s\"", title, got, below);
	CHECK(strstr(svg, unmarked) && strstr(svg, ">95 %</text>") && strstr(svg, ">50 %</text>"),
	      "%s: no unmarked bar %s, or AU values not printed in %%", title, unmarked);
	CHECK(fabs(threshold_at(svg) - 90) < 0.5, "%s: threshold line at %.2f, want 90", title,
	      threshold_at(svg));
	free(svg);
}

/* Training phase "tr": the MLPerf table; AU bars of the 3 accelerators
 * (95%, 95%, 50%) and the 2 hosts (alpha 95%, beta 50%), the threshold
 * (90%) a line at 90 on the axis, beta's rank and beta alone marked
 * below; samples/s over time a line per host and the cluster's, each
 * point the second's bytes / TRAIN_SAMPLE_BYTES (the last second, half
 * covered, at twice its amount). */
static void check_training(const char *out)
{
	char *svg;
	double x[8], y[8], a, b;
	int moves;

	CHECK(strstr(out, "<td>train_au_mean_percentage (%)</td><td class=\"num\">80.00</td>"),
	      "no train_au_mean_percentage 80.00 (the mean of 95, 95 and 50)");
	CHECK(strstr(out, "<td>train_au_meet_expectation</td><td>fail (AU threshold 90%)</td>"),
	      "no train_au_meet_expectation fail");
	CHECK(strstr(out, "<td>num_accelerators (number)</td><td class=\"num\">3</td>") &&
		  strstr(out, "<td>num_hosts (number)</td><td class=\"num\">2</td>"),
	      "no 3 accelerators on 2 hosts");
	CHECK(strstr(out, "<td>accelerators below the AU threshold</td><td>1 of 3</td>") &&
		  strstr(out, "<td>hosts below the AU threshold</td><td>1 of 2</td>"),
	      "not 1 of 3 accelerators and 1 of 2 hosts below");
	au_bars(out, "tr: accelerator utilisation per accelerator", "rank 2 (beta)",
		">rank 0 (alpha)</text>");
	au_bars(out, "tr: accelerator utilisation per host", "beta", ">alpha</text>");
	if ((svg = chart(out, "tr: samples/s over time, per node and cluster"))) {
		uint32_t with;
		const char *cl = strstr(svg, ">cluster<");
		/* the cluster's is the third line (alpha, beta, cluster) */
		const char *d = strstr(svg, "stroke=\"#009e73\" stroke-width=\"1.8\"");

		CHECK(cl && lines(svg, NSEC, &with) == 4 && with == 3,
		      "not 3 lines of %u points (alpha, beta, cluster) and MLPerf's mean", NSEC);
		CHECK(strstr(svg, "MLPerf&#39;s mean (AU steps)"), "no MLPerf mean line");
		d = d ? strstr(strstr(d + 1, "stroke=\"#009e73\" stroke-width=\"1.8\""), " d=\"M")
		      : NULL;
		CHECK(svg_axis_line(svg, "ytick", &a, &b) &&
			  svg_path_points(d, x, y, 8, &moves) == (int)NSEC,
		      "the cluster's line not read");
		for (uint32_t k = 0; k < NSEC && d; k++) {
			/* 3 + 3 + 1 shares of (10 + p + k) MB, p = 13 (the plan's phase) */
			double want =
			    7.0 * (23 + k) * MB / TRAIN_SAMPLE_BYTES * (k + 1 < NSEC ? 1 : 2);

			CHECK(fabs((y[k] - a) / b - want) < 0.01 * want,
			      "second %u: %.1f samples/s, want %.1f", k, (y[k] - a) / b, want);
		}
		free(svg);
	}
	CHECK(strstr(out, "= 97.7 KiB)"), "no note of the bytes a sample (100000 B)");
}

static void check_phase_charts(const struct sc_run_record *rec)
{
	struct sc_run_figures fg;

	if (sc_run_figures_of(&fg, rec))
		return FAIL("sc_run_figures_of failed");
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];
		const char *name = rec->plan.phases[pr->phase].name;
		struct phase_args a = {rec, &fg, i};
		char *out, *svg, label[128];
		int rc;

		if (strcmp(name, "mix") && strcmp(name, "ing") && strcmp(name, "kv") &&
		    strcmp(name, "tr"))
			continue;
		out = capture(phase_fn, &a, &rc);
		CHECK(rc == 0, "%s: sc_html_phase_charts returned %d", name, rc);
		if (!strcmp(name, "mix"))
			check_io_phase(out);
		if (!strcmp(name, "tr"))
			check_training(out);
		if (!strcmp(name, "kv") &&
		    (svg = chart(out, "kv: response time vs service time"))) {
			uint32_t with;

			CHECK(lines(svg, 7, &with) == 4,
			      "open loop: want 4 lines (service, response)");
			free(svg);
		}
		if (!strcmp(name, "ing") && (svg = chart(out, "ing: accelerator utilisation"))) {
			marked_label(svg, "lowest", label, sizeof(label));
			CHECK(strcmp(label, "rank 0 (alpha)") == 0, "AU bar marked: \"%s\"", label);
			free(svg);
			free(chart(out, "ing: time a step waited"));
		}
		free(out);
	}
	sc_run_figures_exit(&fg);
}

/* 17 nodes: over time, the cluster's line alone, and a note says so. */
static void check_many_nodes(const struct sc_run_record *rec)
{
	struct sc_phase_record pr = {.phase = 0, .nranks = 17};
	struct sc_run_record one = *rec; /* rec's plan, pr its one phase */
	struct sc_run_figures fg;
	struct phase_args a = {&one, &fg, 0};
	uint32_t with;
	char *out, *svg;
	int rc;

	pr.ranks = xcalloc(pr.nranks, sizeof(*pr.ranks));
	for (uint32_t i = 0; i < pr.nranks; i++) {
		make_rank(&pr.ranks[i], i, 0, &rec->plan.phases[0]);
		pr.ranks[i].node = i;
		snprintf(pr.ranks[i].host, sizeof(pr.ranks[i].host), "n%u", i);
	}
	pr.lat[SC_DIR_READ] = hist_of(1000, 100);
	one.phases = &pr;
	one.nphases = 1;
	CHECK(sc_run_figures_of(&fg, &one) == 0, "sc_run_figures_of failed");
	out = capture(phase_fn, &a, &rc);
	CHECK(rc == 0 && strstr(out, "17 nodes: over time, the cluster&#39;s line only"),
	      "17 nodes: no note that node lines are left out");
	if ((svg = chart(out, "mix: bandwidth over time, cluster"))) {
		CHECK(lines(svg, NSEC, &with) == 1, "17 nodes: %u lines", lines(svg, NSEC, &with));
		free(svg);
	}
	free(out);
	sc_run_figures_exit(&fg);
	sc_phase_record_exit(&pr);
}

/* Every line of the write and restore charts has a point per checkpoint
 * (the trend two); the table gives the trend. */
static void check_checkpoints(const struct sc_run_record *rec)
{
	const char *title[] = {"checkpoint ck: write duration", "checkpoint ck: restore duration"};
	uint32_t want[] = {NCKPT, NCKPT};
	int rc;
	char *out = capture(ckpt_fn, rec, &rc);

	CHECK(rc == 0, "sc_html_checkpoints returned %d", rc);
	for (int k = 0; k < 2; k++) {
		char *svg = chart(out, title[k]);
		uint32_t with, n;

		if (!svg)
			continue;
		n = lines(svg, want[k], &with);
		/* the cluster and 2 nodes, and the trend through 2 points */
		CHECK(with == 3 && n == 4, "%s: %u lines, %u of %u points", title[k], n, with,
		      want[k]);
		CHECK(strstr(svg, "duration (s)"), "no duration axis in s");
		free(svg);
	}
	CHECK(strstr(out, "slope (s/ckpt)") && strstr(out, ">1.0000</td>"),
	      "no trend table with slope 1 s per checkpoint");
	free(out);
}

/* Every cell of sweep sw's maps shows its cell's figure. */
static void check_sweeps(const struct sc_run_record *rec)
{
	struct sc_sweeps sw;
	const struct sc_sweep *s;
	char *out, *svg, got[64], num[32], want[64];
	int rc;

	struct sc_run_figures fg;

	CHECK(sc_run_figures_of(&fg, rec) == 0, "sc_run_figures_of failed");
	CHECK(sc_sweeps_of(&sw, rec, fg.phases) == 0, "sc_sweeps_of failed");
	sc_run_figures_exit(&fg);
	out = capture(sweep_fn, &sw, &rc);
	CHECK(rc == 0, "sc_html_sweeps returned %d", rc);
	s = sc_sweeps_find(&sw, "sw");
	CHECK(s && s->naxis[SC_SWEEP_BS] == 2 && s->naxis[SC_SWEEP_IODEPTH] == 2, "sweep sw");
	CHECK(!strstr(out, "write p99"), "a write p99 map of a read sweep");
	for (int map = 0; s && map < 2; map++) {
		if (!(svg = chart(out, map ? "sweep sw, rw read: read p99 (us)"
					   : "sweep sw, rw read: bandwidth (MB/s)")))
			continue;
		for (uint32_t c = 0; c < 4; c++) {
			uint32_t at[SC_SWEEP_AXES] = {0, c / 2, c % 2};
			const struct sc_sweep_cell *cell = sc_sweep_cell_at(s, at);
			double v =
			    map ? (double)cell->cluster.lat[SC_DIR_READ].pct_ns[sc_pct_index(99)] /
				      1e3
				: cell->cluster.bw_bytes_per_s / 1e6;

			if (cell->measured)
				snprintf(want, sizeof(want), "%s %s", sc_svg_number(num, 32, v),
					 map ? "us" : "MB/s");
			else
				snprintf(want, sizeof(want), "-");
			CHECK(cell_text(svg, c, got, sizeof(got)) && strcmp(got, want) == 0,
			      "map %d cell %u: \"%s\", want \"%s\"", map, c, got, want);
		}
		CHECK(strstr(svg, ">4 KiB<") && strstr(svg, ">1 MiB<"), "block sizes not labelled");
		free(svg);
	}
	free(out);
	sc_sweeps_exit(&sw);
}

/* The whole of it as one page, checked by xmllint when it is installed. */
static void check_xml(const struct sc_run_record *rec)
{
	char path[512], cmd[600];
	struct sc_run_figures fg;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/report.html", dir);
	f = fopen(path, "w");
	if (!f)
		return FAIL("cannot write %s", path);
	sc_html_page_begin(f, "test", NULL);
	CHECK(sc_run_figures_of(&fg, rec) == 0, "sc_run_figures_of failed");
	for (uint32_t i = 0; i < fg.nphases; i++)
		CHECK(sc_html_phase_charts(f, rec, &fg, i) == 0, "phase %u", i);
	CHECK(ckpt_fn(f, rec) == 0, "sc_html_checkpoints failed");
	CHECK(sc_html_sweeps(f, &fg.sweeps) == 0, "sc_html_sweeps failed");
	sc_run_figures_exit(&fg);
	sc_html_page_end(f);
	CHECK(!ferror(f), "writing %s", path);
	fclose(f);
	if (system("command -v xmllint > /dev/null 2>&1") != 0) {
		printf("xmllint not installed: XML not checked\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
	rc = system(cmd);
	CHECK(rc == 0, "%s is not well-formed XML", path);
}

static const char config[] =
    "targets: [{path: %s}]\n"
    "phases:\n"
    "  - {name: mix, rw: randrw, bs: 4KiB, size: 1MiB}\n"
    "  - {name: sw, rw: read, bs: [4KiB, 1MiB], iodepth: [1, 4], size: 1MiB}\n"
    "  - {name: ck, workload: checkpoint, model: llama3.1-405b, tp: 4, pp: 2, zero: 1,\n"
    "     checkpoints: %u, scale: 0.00005, restore: true}\n"
    "  - {name: ing, workload: ingest, files: 2, file_size: 1MiB, sample_size: 128KiB,\n"
    "     batch: 2, compute_per_batch: 1ms, epochs: 1}\n"
    "  - {name: kv, workload: kvcache, rate: 100/s, runtime: 2s, size: 1MiB}\n"
    "  - {name: tr, workload: training, files: 12, samples_per_file: 1, record_size: 64KiB,\n"
    "     batch: 2, jobs: 1, computation_time: 10ms, epochs: 1, au: 0.9}\n";

int main(void)
{
	struct sc_run_record rec;
	char path[512];
	FILE *f;

	check_mkdtemp(dir, sizeof(dir), "test_html_phase");
	snprintf(path, sizeof(path), "%s/run.yaml", dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, config, dir, NCKPT);
	fclose(f);
	/* plan phase 3: sweep sw's cell bs 1MiB, iodepth 4, not measured */
	if (make_run(&rec, path, 4)) {
		for (uint32_t p = 0; p < rec.plan.nphases && getenv("SC_TEST_VERBOSE"); p++)
			printf("plan phase %u: %s\n", p, rec.plan.phases[p].name);
		check_phase_charts(&rec);
		check_many_nodes(&rec);
		check_checkpoints(&rec);
		check_sweeps(&rec);
		check_xml(&rec);
		sc_run_record_exit(&rec);
	}
	if (!check_failures)
		check_rmtree(dir);
	return check_exit("test_html_phase");
}
