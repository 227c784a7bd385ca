/* html_phase.c -- report.html's charts of a phase and of the checkpoint
 * groups (html_priv.h): figures from analysis/, drawn with svg.h. */
#include "html_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/node_series.h"
#include "analysis/workload_figures.h"
#include "html_page.h"
#include "report_priv.h"
#include "svg.h"
#include "units.h"

#define NS_PER_US    1e3
#define PCT_PER_ONE  100.0
#define LABEL_MAX    (SC_HOST_MAX + 160)
/* More node lines than this would not read: the cluster's line alone then
 * (the bars give every node).  One node's line is the cluster's: drawn once. */
#define MAX_NODE_LINES 16
/* Markers on every point of a series up to this many points. */
#define MAX_MARKED_POINTS 30

/* A latency summary to draw on a nines axis, and its legend. */
struct tail {
	const char *name;
	const struct sc_lat_summary *lat;
};

/* The percentiles of each tail that its samples support (pct_support.h)
 * as lines on a nines axis, in microseconds, each legend with its sample
 * count; a note names the percentiles left out.  0 or -ENOMEM. */
static int nines_chart(FILE *f, const char *title, const struct tail *t, uint32_t n)
{
	struct sc_svg_chart c = {.title = title,
				 .x = {.label = "percentile (%)", .scale = SC_SVG_NINES},
				 .y = {.label = "latency (us)", .scale = SC_SVG_LOG10}};
	struct sc_svg_series s[2 * SC_DIR_COUNT] = {0};
	double y[2 * SC_DIR_COUNT][SC_NPCT];
	char names[2 * SC_DIR_COUNT][LABEL_MAX], note[4 * LABEL_MAX] = "";
	size_t nl = 0;
	uint32_t ns = 0;

	for (uint32_t i = 0; i < n && ns < 2 * SC_DIR_COUNT; i++) {
		const struct sc_lat_summary *l = t[i].lat;
		uint64_t v;
		int k = 0;

		if (!l->count)
			continue;
		for (; k < SC_NPCT && sc_lat_pct(l, k, &v); k++) /* a prefix: the rule */
			y[ns][k] = (double)v / NS_PER_US;		/* grows with p */
		if (k < SC_NPCT && nl < sizeof(note))
			nl += (size_t)snprintf(note + nl, sizeof(note) - nl,
					       "%s%s: %s and above not drawn (%llu samples; "
					       "%s needs %llu)",
					       nl ? "; " : "", t[i].name, sc_pct_names[k],
					       (unsigned long long)l->count, sc_pct_names[k],
					       (unsigned long long)sc_pct_min_samples(sc_pct_points[k]));
		if (!k)
			continue;
		snprintf(names[ns], sizeof(names[ns]), "%s (%llu samples)", t[i].name,
			 (unsigned long long)l->count);
		s[ns] = (struct sc_svg_series){.name = names[ns],
					       .x = sc_pct_points,
					       .y = y[ns],
					       .n = (uint32_t)k,
					       .markers = true};
		ns++;
	}
	sc_svg_lines(f, &c, s, ns);
	if (nl)
		sc_html_note(f, note);
	return 0;
}

/* The legend of node series s: its host, or "node N". */
static const char *node_name(char *buf, size_t len, const struct sc_rate_series *s)
{
	if (s->host && s->host[0])
		snprintf(buf, len, "%s", s->host);
	else
		snprintf(buf, len, "node %u", s->node);
	return buf;
}

/* What an over-time chart draws of each rate series. */
enum over_time {
	OVER_TIME_BW,	   /* MB/s */
	OVER_TIME_IOPS,	   /* I/Os per s */
	OVER_TIME_SAMPLES, /* training: samples/s (sc_training_samples_per_s) */
};

static const char *const over_time_what[] = {
    [OVER_TIME_BW] = "bandwidth", [OVER_TIME_IOPS] = "IOPS", [OVER_TIME_SAMPLES] = "samples/s"};
static const char *const over_time_unit[] = {[OVER_TIME_BW] = "bandwidth (MB/s)",
					     [OVER_TIME_IOPS] = "IOPS (I/Os per s)",
					     [OVER_TIME_SAMPLES] = "throughput (samples/s)"};

/* Series r's points of kind k into y (r->n of them); g: a training
 * phase's figures (samples/s only). */
static void over_time_points(const struct sc_rate_series *r, enum over_time k,
			     const struct sc_training_figures *g, double *y)
{
	if (k == OVER_TIME_SAMPLES) {
		sc_training_samples_per_s(g, r->bw_bytes_per_s, r->n, y);
		return;
	}
	for (uint32_t i = 0; i < r->n; i++)
		y[i] = k == OVER_TIME_BW ? r->bw_bytes_per_s[i] / SC_BYTES_PER_MB : r->iops[i];
}

/* Kind k of every node (up to MAX_NODE_LINES, when per_node: the record
 * holds their series) and of the cluster over time; samples/s (g, a
 * training phase's figures) with MLPerf's mean as a dashed line.  0 or
 * -ENOMEM. */
static int over_time_chart(FILE *f, const char *phase, const struct sc_node_series *ns,
			   enum over_time k, bool per_node, const struct sc_training_figures *g)
{
	uint32_t nodes =
	    per_node && ns->nnodes > 1 && ns->nnodes <= MAX_NODE_LINES ? ns->nnodes : 0;
	uint32_t n = nodes + 1, total = 0;
	bool ref = k == OVER_TIME_SAMPLES && g->au_measured && ns->cluster.n;
	struct sc_svg_series *s = calloc(n + 1, sizeof(*s));
	char(*names)[LABEL_MAX] = calloc(n, sizeof(*names));
	double *y = NULL, *at, rx[2], ry[2];
	char title[LABEL_MAX];
	struct sc_svg_chart c = {
	    .title = title,
	    .x = {.label = "time after the measured start (s)", .from_zero = true},
	    .y = {.label = over_time_unit[k], .from_zero = true}};

	for (uint32_t i = 0; i < n; i++)
		total += i < nodes ? ns->nodes[i].n : ns->cluster.n;
	y = malloc((total ? total : 1) * sizeof(*y));
	if (!s || !names || !y) {
		free(s);
		free(names);
		free(y);
		return -ENOMEM;
	}
	at = y;
	for (uint32_t i = 0; i < n; i++) {
		const struct sc_rate_series *r = i < nodes ? &ns->nodes[i] : &ns->cluster;

		over_time_points(r, k, g, at);
		if (i < nodes)
			node_name(names[i], LABEL_MAX, r);
		else
			snprintf(names[i], LABEL_MAX, "cluster");
		s[i] = (struct sc_svg_series){.name = names[i],
					      .x = r->t_s,
					      .y = at,
					      .n = r->n,
					      .markers = r->n <= MAX_MARKED_POINTS};
		at += r->n;
	}
	if (ref) { /* across the cluster's points */
		rx[0] = ns->cluster.t_s[0];
		rx[1] = ns->cluster.t_s[ns->cluster.n - 1];
		ry[0] = ry[1] = g->samples_per_s;
		s[n] = (struct sc_svg_series){.name = "MLPerf's mean (AU steps)",
					      .x = rx,
					      .y = ry,
					      .n = 2,
					      .dashed_trend = true};
	}
	snprintf(title, sizeof(title), "%s: %s over time, %s", phase, over_time_what[k],
		 nodes ? "per node and cluster" : "cluster");
	sc_svg_lines(f, &c, s, n + ref);
	free(s);
	free(names);
	free(y);
	return 0;
}

/* The bar to mark among n: i, or none (n) when there is one bar alone. */
static uint32_t mark(uint32_t i, uint32_t n)
{
	return n > 1 ? i : n;
}

/* A value and its index, to sort by. */
struct ranked {
	double v;
	uint32_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int sc_html_lowest(const double *v, uint32_t n, uint32_t *at)
{
	struct ranked *all;

	if (n <= SC_HTML_ROWS_SHOWN) {
		for (uint32_t i = 0; i < n; i++)
			at[i] = i;
		return (int)n;
	}
	all = malloc(n * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		all[i] = (struct ranked){v[i], i};
	qsort(all, n, sizeof(*all), cmp_ranked);
	for (uint32_t k = 0; k < SC_HTML_ROWS_SHOWN; k++)
		at[k] = all[k].i;
	free(all);
	return SC_HTML_ROWS_SHOWN;
}

/* Names bar i of a chart into buf. */
typedef void (*bar_name_fn)(char *buf, size_t len, const void *ctx, uint32_t i);

/* What lowest_bars draws besides the values: each bar's name, the bar
 * to mark (an index into the values, the analysis' figure) and its mark,
 * what a bar is ("rank") and where every one of them is; or with marks,
 * the bars those mark (indexed as the values) and its threshold line
 * instead of the one bar. */
struct bars_of {
	bar_name_fn name;
	const void *ctx;
	uint32_t marked;
	const char *mark_text, *who, *where;
	const struct sc_svg_bar_marks *marks;
};

/* Bars of the n values v (in the chart's unit), named and marked as b
 * says; past SC_HTML_ROWS_SHOWN only the lowest that many, the title
 * (c->title) and a note saying so and where every one is.  0 or
 * -ENOMEM. */
static int lowest_bars(FILE *f, struct sc_svg_chart *c, const double *v, uint32_t n,
		       const struct bars_of *b)
{
	uint32_t at[SC_HTML_ROWS_SHOWN];
	const char *labels[SC_HTML_ROWS_SHOWN];
	double shown[SC_HTML_ROWS_SHOWN];
	bool shown_marked[SC_HTML_ROWS_SHOWN];
	struct sc_svg_bar_marks marks = b->marks ? *b->marks : (struct sc_svg_bar_marks){0};
	char(*names)[LABEL_MAX] = calloc(SC_HTML_ROWS_SHOWN, sizeof(*names));
	char title[LABEL_MAX], note[LABEL_MAX * 2];
	int m = names ? sc_html_lowest(v, n, at) : -ENOMEM;
	uint32_t marked = m > 0 ? (uint32_t)m : 0; /* none, unless shown */

	if (m < 0) {
		free(names);
		return -ENOMEM;
	}
	for (int k = 0; k < m; k++) {
		b->name(names[k], LABEL_MAX, b->ctx, at[k]);
		labels[k] = names[k];
		shown[k] = v[at[k]];
		shown_marked[k] = marks.marked && marks.marked[at[k]];
		if (at[k] == b->marked)
			marked = (uint32_t)k;
	}
	marks.marked = marks.marked ? shown_marked : NULL;
	if ((uint32_t)m < n) {
		snprintf(note, sizeof(note), "%s: the %d lowest of %u %ss shown; every %s: %s.",
			 c->title, m, n, b->who, b->who, b->where);
		sc_html_note(f, note);
		snprintf(title, sizeof(title), "%s, the %d lowest", c->title, m);
		c->title = title;
	}
	if (m && b->marks)
		sc_svg_bars_marked(f, c, labels, shown, (uint32_t)m, &marks);
	else if (m)
		sc_svg_bars(f, c, labels, shown, (uint32_t)m, mark(marked, (uint32_t)m),
			    b->mark_text);
	free(names);
	return 0;
}

static void node_bar_name(char *buf, size_t len, const void *ctx, uint32_t i)
{
	const struct sc_phase_figures *fig = ctx;

	snprintf(buf, len, "%s", fig->nodes[i].host);
}

/* The figures and plan a drive's bar is named from. */
struct drive_names {
	const struct sc_run_record *rec;
	const struct sc_phase_figures *fig;
};

static void drive_bar_name(char *buf, size_t len, const void *ctx, uint32_t i)
{
	const struct drive_names *d = ctx;
	const struct sc_target_row *t = &d->fig->targets[i];

	snprintf(buf, len, "%s %s", t->host,
		 t->target < d->rec->plan.ntargets ? d->rec->plan.targets[t->target].path : "?");
}

/* Bandwidth (MB/s) bars of the node rows and of the target rows (drives)
 * of fig, the slowest of each marked; past SC_HTML_ROWS_SHOWN of either,
 * the slowest that many.  0 or -ENOMEM. */
static int bw_bars(FILE *f, const struct sc_run_record *rec, const char *phase,
		   const struct sc_phase_figures *fig)
{
	uint32_t n = fig->nodes_len > fig->targets_len ? fig->nodes_len : fig->targets_len;
	double *v = calloc(n ? n : 1, sizeof(*v));
	char title[LABEL_MAX];
	struct sc_svg_chart c = {.title = title,
				 .x = {.label = "bandwidth (MB/s)", .from_zero = true},
				 .y = {.label = "node"}};
	struct drive_names dn = {rec, fig};
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < fig->nodes_len; i++)
		v[i] = fig->nodes[i].bw_bytes_per_s / SC_BYTES_PER_MB;
	snprintf(title, sizeof(title), "%s: bandwidth per node", phase);
	if (fig->nodes_len)
		err = lowest_bars(f, &c, v, fig->nodes_len,
				  &(struct bars_of){node_bar_name, fig, fig->lowest_bw_node,
						    "slowest", "node", "results.json nodes", NULL});
	for (uint32_t i = 0; i < fig->targets_len; i++)
		v[i] = fig->targets[i].bw_bytes_per_s / SC_BYTES_PER_MB;
	snprintf(title, sizeof(title), "%s: bandwidth per drive (host, target)", phase);
	c.title = title;
	c.y.label = "drive";
	if (!err && fig->targets_len)
		err = lowest_bars(f, &c, v, fig->targets_len,
				  &(struct bars_of){drive_bar_name, &dn, fig->lowest_bw_target,
						    "slowest", "drive", "results.json targets",
						    NULL});
	free(v);
	return err;
}

/* Service-time percentiles per direction. */
static int latency_chart(FILE *f, const char *phase, const struct sc_phase_figures *fig)
{
	struct tail t[] = {{"read", &fig->lat[SC_DIR_READ]}, {"write", &fig->lat[SC_DIR_WRITE]}};
	char title[LABEL_MAX];

	snprintf(title, sizeof(title), "%s: service-time percentiles (nines axis)", phase);
	return nines_chart(f, title, t, SC_DIR_COUNT);
}

/* Open loop: response time against service time, per direction. */
static int open_loop_chart(FILE *f, const char *phase, const struct sc_phase_figures *fig,
			   const struct sc_open_loop_figures *ol)
{
	struct tail t[2 * SC_DIR_COUNT] = {{"read service", &fig->lat[SC_DIR_READ]},
					   {"read response", &ol->resp[SC_DIR_READ]},
					   {"write service", &fig->lat[SC_DIR_WRITE]},
					   {"write response", &ol->resp[SC_DIR_WRITE]}};
	char title[LABEL_MAX];

	if (!ol->has_resp[SC_DIR_READ] && !ol->has_resp[SC_DIR_WRITE])
		return 0;
	snprintf(title, sizeof(title), "%s: response time vs service time (open loop)", phase);
	return nines_chart(f, title, t, 2 * SC_DIR_COUNT);
}

static void rank_bar_name(char *buf, size_t len, const void *ctx, uint32_t i)
{
	const struct sc_phase_record *pr = ctx;

	snprintf(buf, len, "rank %u (%s)", pr->ranks[i].rank, pr->ranks[i].host);
}

/* Accelerator i of a training record (ranks in order, each rank's rows
 * in order): "rank 2 (host)" when its rank runs one, else "acc 5 (rank
 * 2)" (the labels' room is short). */
static void accel_bar_name(char *buf, size_t len, const void *ctx, uint32_t i)
{
	const struct sc_phase_record *pr = ctx;

	for (uint32_t r = 0; r < pr->nranks; r++) {
		uint32_t n = sc_rank_accels(&pr->ranks[r]);

		if (i < n) {
			struct sc_accel_row x = sc_rank_accel(&pr->ranks[r], i);

			if (n == 1)
				snprintf(buf, len, "rank %u (%s)", pr->ranks[r].rank,
					 pr->ranks[r].host);
			else
				snprintf(buf, len, "acc %u (rank %u)", x.index, pr->ranks[r].rank);
			return;
		}
		i -= n;
	}
	snprintf(buf, len, "?");
}

/* Ingest: accelerator utilisation per rank (the lowest marked; past
 * SC_HTML_ROWS_SHOWN ranks only the lowest that many) and the batch-wait
 * percentiles.  0 or -ENOMEM. */
static int ingest_charts(FILE *f, const char *phase, const struct sc_phase_record *pr,
			 const struct sc_workload_figures *w)
{
	const struct sc_ingest_figures *ing = &w->ingest;
	uint32_t n = pr->nranks, low = n;
	double *v = calloc(n ? n : 1, sizeof(*v));
	char title[LABEL_MAX];
	struct sc_svg_chart c = {.title = title,
				 .x = {.label = "accelerator utilisation (%)", .from_zero = true},
				 .y = {.label = "rank"}};
	struct tail t = {"batch wait", &ing->batch_wait};
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		v[i] = w->rank_au[i] * PCT_PER_ONE;
		if (pr->ranks[i].rank == ing->au_min_rank && low == n)
			low = i;
	}
	snprintf(title, sizeof(title), "%s: accelerator utilisation per rank", phase);
	if (n)
		err = lowest_bars(f, &c, v, n,
				  &(struct bars_of){rank_bar_name, pr, low, "lowest", "rank",
						    "ranks.csv au_pct", NULL});
	snprintf(title, sizeof(title), "%s: time a step waited for its batch (nines axis)", phase);
	if (!err && ing->has_batch_wait)
		err = nines_chart(f, title, &t, 1);
	free(v);
	return err;
}

/* ------------------------------------------------------------- training */

/* A row of a two-column table: what, and its value as text. */
static void figure_row(FILE *f, const char *what, const char *value)
{
	sc_html_row_begin(f);
	sc_html_cell(f, what);
	sc_html_cell(f, value);
	sc_html_row_end(f);
}

/* The same with a number printed as fmt says. */
static void figure_num(FILE *f, const char *what, const char *fmt, double v)
{
	sc_html_row_begin(f);
	sc_html_cell(f, what);
	sc_html_num(f, fmt, v);
	sc_html_row_end(f);
}

/* A training phase's figures in MLPerf Storage's names (its
 * summary.json's, as results.json's training.mlperf gives them), then
 * ours. */
static void training_table(FILE *f, const char *phase, const struct sc_phase_figures *fig,
			   const struct sc_training_figures *g)
{
	static const char *const head[] = {"figure", "value"};
	char caption[LABEL_MAX], buf[LABEL_MAX];

	snprintf(caption, sizeof(caption),
		 "%s: MLPerf Storage training figures (summary.json's names), then ours", phase);
	sc_html_table_begin(f, caption, head, sizeof(head) / sizeof(head[0]));
	if (g->au_measured)
		figure_num(f, "train_au_mean_percentage (%)", "%.2f", g->au * PCT_PER_ONE);
	else
		figure_row(f, "train_au_mean_percentage (%)",
			   "not measured (every epoch had one step, which AU leaves out)");
	snprintf(buf, sizeof(buf), "%s (AU threshold %.4g%%)", g->au_meets ? "success" : "fail",
		 g->au_threshold * PCT_PER_ONE);
	figure_row(f, "train_au_meet_expectation", buf);
	figure_num(f, "train_throughput_mean_samples_per_second (samples/s)", "%.2f",
		   g->samples_per_s);
	figure_num(f, "train_io_mean_MB_per_second (MiB/s: samples/s x record, as DLIO)", "%.3f",
		   g->mlperf_io_MiBps);
	figure_num(f, "num_accelerators (number)", "%.0f", g->accelerators);
	figure_num(f, "num_hosts (number)", "%.0f", g->hosts);
	snprintf(buf, sizeof(buf), "%u of %u", g->accels_below, g->accelerators);
	figure_row(f, "accelerators below the AU threshold", buf);
	snprintf(buf, sizeof(buf), "%u of %u", g->hosts_below, g->hosts);
	figure_row(f, "hosts below the AU threshold", buf);
	snprintf(buf, sizeof(buf), "%.2f%% (rank %u) .. %.2f%%", g->au_min * PCT_PER_ONE,
		 g->au_min_rank, g->au_max * PCT_PER_ONE);
	figure_row(f, "AU lowest (rank) .. highest", buf);
	figure_num(f, "bytes read, last-done (MB/s)", "%.3f",
		   fig->lastdone_bw_bytes_per_s / SC_BYTES_PER_MB);
	figure_num(f, "samples (number)", "%.0f", (double)g->samples);
	figure_num(f, "steps (number, all accelerators)", "%.0f", (double)g->steps);
	sc_html_table_end(f);
}

/* AU (%) bars of every accelerator (w->accel_au) and of
 * every host (w->node_au), those below the threshold marked, the
 * threshold a line across them.  0 or -ENOMEM. */
static int training_au_bars(FILE *f, const char *phase, const struct sc_phase_record *pr,
			    const struct sc_phase_figures *fig, const struct sc_workload_figures *w)
{
	const struct sc_training_figures *g = &w->training;
	uint32_t na = g->accelerators;
	uint32_t n = na > fig->nodes_len ? na : fig->nodes_len;
	double *v = calloc(n ? n : 1, sizeof(*v));
	bool *below = calloc(n ? n : 1, sizeof(*below));
	char title[LABEL_MAX], line[LABEL_MAX], num[32];
	struct sc_svg_bar_marks marks = {.marked = below,
					 .mark_text = "below",
					 .line_text = line,
					 .line = g->au_threshold * PCT_PER_ONE};
	struct sc_svg_chart c = {.title = title,
				 .x = {.label = "accelerator utilisation (%)", .from_zero = true},
				 .y = {.label = "accelerator"}};
	int err = 0;

	if (!v || !below) {
		free(v);
		free(below);
		return -ENOMEM;
	}
	snprintf(line, sizeof(line), "AU threshold %s%%",
		 sc_svg_number(num, sizeof(num), marks.line));
	for (uint32_t i = 0; i < na; i++) {
		v[i] = w->accel_au[i] * PCT_PER_ONE;
		below[i] = sc_training_au_below(g, w->accel_au[i]);
	}
	snprintf(title, sizeof(title), "%s: accelerator utilisation per accelerator", phase);
	if (na)
		err = lowest_bars(f, &c, v, na,
				  &(struct bars_of){accel_bar_name, pr, na, NULL, "accelerator",
						    "results.json training.accelerators", &marks});
	for (uint32_t k = 0; k < fig->nodes_len; k++) {
		v[k] = w->node_au[k] * PCT_PER_ONE;
		below[k] = isfinite(w->node_au[k]) && sc_training_au_below(g, w->node_au[k]);
	}
	snprintf(title, sizeof(title),
		 "%s: accelerator utilisation per host (the mean of its accelerators')", phase);
	c.y.label = "host";
	if (!err && fig->nodes_len)
		err = lowest_bars(f, &c, v, fig->nodes_len,
				  &(struct bars_of){node_bar_name, fig, fig->nodes_len, NULL,
						    "host", "results.json training.nodes", &marks});
	free(v);
	free(below);
	return err;
}

/* Training: the MLPerf figures, AU per accelerator and per host against
 * the threshold, samples/s over time (from the series ns, per node when
 * per_node) and the batch-wait percentiles.  0 or -ENOMEM. */
static int training_charts(FILE *f, const char *phase, const struct sc_phase_record *pr,
			   const struct sc_phase_figures *fig, const struct sc_workload_figures *w,
			   const struct sc_node_series *ns, bool per_node)
{
	const struct sc_training_figures *g = &w->training;
	struct tail t = {"batch wait", &g->batch_wait};
	char title[LABEL_MAX], note[4 * LABEL_MAX], total[32], each[32];
	int err = 0;

	training_table(f, phase, fig, g);
	if (g->au_measured)
		err = training_au_bars(f, phase, pr, fig, w);
	else
		sc_html_note(f, "AU per accelerator and per host: not measured (every epoch had "
				"one step, and AU leaves each epoch's first out, as DLIO).");
	if (!err && ns->cluster.n && g->sample_bytes > 0) {
		err = over_time_chart(f, phase, ns, OVER_TIME_SAMPLES, per_node, g);
		sc_fmt_bytes(total, sizeof(total), fig->total_bytes);
		sc_fmt_bytes(each, sizeof(each), (uint64_t)llround(g->sample_bytes));
		snprintf(note, sizeof(note),
			 "samples/s over time: the bytes read each second (the series of the "
			 "bandwidth chart) / the phase's bytes a sample (%s read / %llu samples = "
			 "%s); a sample counts in the seconds its bytes were read, and the series "
			 "hold no sample count of their own. The dashed line is MLPerf's "
			 "train_throughput_mean_samples_per_second (%.2f samples/s), over the "
			 "steps AU counts (each epoch's first left out).",
			 total, (unsigned long long)g->samples, each, g->samples_per_s);
		sc_html_note(f, note);
	}
	snprintf(title, sizeof(title), "%s: time a step waited for its batch (nines axis)", phase);
	if (!err && g->has_batch_wait)
		err = nines_chart(f, title, &t, 1);
	return err;
}

int sc_html_phase_charts(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 uint32_t i)
{
	const struct sc_phase_record *pr = &rec->phases[i];
	const struct sc_phase_figures *fig = &fg->phases[i];
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];
	const char *name = ph->name ? ph->name : "phase";
	struct sc_node_series ns;
	int err = sc_node_series_init(&ns, pr);
	/* records with reduced series hold each node's only under the cap */
	bool per_node = !pr->cluster || pr->nnode_series >= ns.nnodes;
	char note[LABEL_MAX];

	if (err)
		return err;
	if (ns.nnodes > MAX_NODE_LINES) {
		snprintf(note, sizeof(note),
			 "%u nodes: over time, the cluster's line only (the bars give every node).",
			 ns.nnodes);
		sc_html_note(f, note);
	} else if (ns.nnodes > 1 && !per_node && ns.cluster.n) {
		snprintf(note, sizeof(note),
			 "%u nodes: per-node series not kept (nodes x seconds past "
			 "SC_NODE_SERIES_MAX, %u): over time, the cluster's line only (the bars "
			 "give every node).",
			 ns.nnodes, SC_NODE_SERIES_MAX);
		sc_html_note(f, note);
	}
	if (ns.cluster.n) {
		err = over_time_chart(f, name, &ns, OVER_TIME_BW, per_node, NULL);
		if (!err)
			err = over_time_chart(f, name, &ns, OVER_TIME_IOPS, per_node, NULL);
	}
	if (!err && (fig->lat[SC_DIR_READ].count || fig->lat[SC_DIR_WRITE].count))
		err = latency_chart(f, name, fig);
	if (!err && fig->total_bytes)
		err = bw_bars(f, rec, name, fig);
	if (!err)
		err = open_loop_chart(f, name, fig, &fg->work[i].open_loop);
	if (!err && ph->workload == SC_WORKLOAD_INGEST)
		err = ingest_charts(f, name, pr, &fg->work[i]);
	if (!err && ph->workload == SC_WORKLOAD_TRAINING)
		err = training_charts(f, name, pr, fig, &fg->work[i], &ns, per_node);
	sc_node_series_exit(&ns);
	return err;
}

/* ------------------------------------------------------------ checkpoints */

/* Durations (s) of group g's writes or restores: the cluster's maximum,
 * each node's, and the least-squares trend.  0 or -ENOMEM. */
static int ckpt_chart(FILE *f, const struct sc_ckpt_group *g, bool restore)
{
	const struct sc_ckpt_node_durations *nd = &g->nodes;
	const struct sc_ckpt_trend *tr = restore ? &g->restore : &g->write;
	uint32_t nodes = nd->nnodes > 1 && nd->nnodes <= MAX_NODE_LINES ? nd->nnodes : 0;
	uint32_t m = tr->n, nser = nodes + 2, k = 0;
	double *x = calloc(m + 1, sizeof(*x)), *y = calloc((size_t)(m + 1) * nser, sizeof(*y));
	struct sc_svg_series *s = calloc(nser, sizeof(*s));
	char(*names)[LABEL_MAX] = calloc(nser, sizeof(*names)), title[LABEL_MAX];
	double tx[2], ty[2];
	struct sc_svg_chart c = {.title = title,
				 .x = {.label = "checkpoint (number)"},
				 .y = {.label = "duration (s)", .from_zero = true}};

	if (!x || !y || !s || !names) {
		free(x), free(y), free(s), free(names);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < g->ncells; i++) {
		if (g->cells[i].restore != restore || k >= m)
			continue;
		x[k] = g->cells[i].index;
		y[k] = (double)g->cells[i].duration_ns / SC_NS_PER_S_F;
		for (uint32_t n = 0; n < nodes; n++) {
			int64_t d = nd->duration_ns[i * nd->nnodes + n];

			y[(size_t)(n + 1) * m + k] = d < 0 ? NAN : (double)d / SC_NS_PER_S_F;
		}
		k++;
	}
	s[0] = (struct sc_svg_series){.name = "cluster (slowest rank)",
				      .x = x,
				      .y = y,
				      .n = k,
				      .markers = k <= MAX_MARKED_POINTS};
	for (uint32_t n = 0; n < nodes; n++) {
		snprintf(names[n], LABEL_MAX, "%s", nd->host[n][0] ? nd->host[n] : "?");
		s[n + 1] = (struct sc_svg_series){
		    names[n], x, y + (size_t)(n + 1) * m, k, k <= MAX_MARKED_POINTS, false};
	}
	tx[0] = k ? x[0] : 0;
	tx[1] = k ? x[k - 1] : 0;
	for (int i = 0; i < 2; i++)
		ty[i] = (tr->intercept_ns + tr->slope_ns_per_ckpt * tx[i]) / SC_NS_PER_S_F;
	s[nser - 1] = (struct sc_svg_series){.name = "trend (least squares, cluster)",
					     .x = tx,
					     .y = ty,
					     .n = k >= 2 ? 2 : 0,
					     .dashed_trend = true};
	snprintf(title, sizeof(title), "checkpoint %s: %s duration per checkpoint", g->name,
		 restore ? "restore" : "write");
	sc_svg_lines(f, &c, s, k >= 2 ? nser : nser - 1);
	free(x), free(y), free(s), free(names);
	return 0;
}

/* The trend figures of group g, a row for writes and one for restores. */
static void ckpt_table(FILE *f, const struct sc_ckpt_group *g)
{
	static const char *const head[] = {
	    "kind",    "checkpoints (number)", "mean (s)",	    "p50 (s)",
	    "max (s)", "slope (s/ckpt)",       "last/first (ratio)"};
	char caption[LABEL_MAX];

	snprintf(caption, sizeof(caption), "checkpoint %s: duration trend", g->name);
	sc_html_table_begin(f, caption, head, sizeof(head) / sizeof(head[0]));
	for (int r = 0; r < 2; r++) {
		const struct sc_ckpt_trend *t = r ? &g->restore : &g->write;

		if (!t->n)
			continue;
		sc_html_row_begin(f);
		sc_html_cell(f, r ? "restore" : "write");
		sc_html_num(f, "%.0f", (double)t->n);
		sc_html_num(f, "%.3f", t->mean_ns / SC_NS_PER_S_F);
		sc_html_num(f, "%.3f", t->p50_ns / SC_NS_PER_S_F);
		sc_html_num(f, "%.3f", t->max_ns / SC_NS_PER_S_F);
		sc_html_num(f, "%.4f", t->slope_ns_per_ckpt / SC_NS_PER_S_F);
		sc_html_num(f, "%.3f", t->last_first_ratio); /* NAN: n/a */
		sc_html_row_end(f);
	}
	sc_html_table_end(f);
}

/* async: per checkpoint written, the longest host copy, drain and stall
 * over the ranks and the ranks that stalled; nothing when g has no async
 * cell. */
static void async_table(FILE *f, const struct sc_ckpt_group *g)
{
	static const char *const head[] = {"checkpoint (number)", "blocking (s)", "drain (s)",
					   "stall (s)", "ranks stalled (number)"};
	char caption[LABEL_MAX];
	bool any = false;

	for (uint32_t i = 0; i < g->ncells; i++)
		any = any || g->cells[i].async;
	if (!any)
		return;
	snprintf(caption, sizeof(caption),
		 "checkpoint %s: async (max over ranks; stall = drain past compute_between)",
		 g->name);
	sc_html_table_begin(f, caption, head, sizeof(head) / sizeof(head[0]));
	for (uint32_t i = 0; i < g->ncells; i++) {
		const struct sc_ckpt_cell *c = &g->cells[i];

		if (!c->async)
			continue;
		sc_html_row_begin(f);
		sc_html_num(f, "%.0f", (double)c->index);
		sc_html_num(f, "%.6f", (double)c->blocking_ns / SC_NS_PER_S_F);
		sc_html_num(f, "%.3f", (double)c->drain_ns / SC_NS_PER_S_F);
		sc_html_num(f, "%.3f", (double)c->stall_ns / SC_NS_PER_S_F);
		sc_html_num(f, "%.0f", (double)c->ranks_stalled);
		sc_html_row_end(f);
	}
	sc_html_table_end(f);
}

/* A procedure: mlperf group in MLPerf Storage's terms (docs/results.md). */
static void mlperf_table(FILE *f, const struct sc_ckpt_group *g)
{
	static const char *const head[] = {"kind",
					   "checkpoints (number)",
					   "duration mean (s)",
					   "duration stdev (s)",
					   "throughput (GB/s)",
					   "throughput (GiB/s)",
					   "size (GiB)",
					   "full size (GiB)",
					   "projected full size (s)"};
	const struct sc_ckpt_mlperf *m = &g->mlperf;
	char caption[LABEL_MAX];

	snprintf(caption, sizeof(caption),
		 "checkpoint %s in MLPerf Storage's terms (page cache before the reads: %s)",
		 g->name, sc_ckpt_cache_drop_name(m));
	sc_html_table_begin(f, caption, head, sizeof(head) / sizeof(head[0]));
	for (int r = 0; r < 2; r++) {
		if (!(r ? m->nload : m->nsave))
			continue;
		sc_html_row_begin(f);
		sc_html_cell(f, r ? "load" : "save");
		sc_html_num(f, "%.0f", (double)(r ? m->nload : m->nsave));
		sc_html_num(f, "%.4f", r ? m->load_mean_s : m->save_mean_s);
		sc_html_num(f, "%.4f", r ? m->load_stdev_s : m->save_stdev_s);
		sc_html_num(f, "%.4f", r ? m->load_GBps : m->save_GBps);
		sc_html_num(f, "%.4f", r ? m->load_GiBps : m->save_GiBps);
		sc_html_num(f, "%.4f", m->size_GiB);
		sc_html_num(f, "%.1f", m->full_size_GiB);
		sc_html_num(f, "%.1f",
			    (r ? g->projected_restore_ns : g->projected_write_ns) / SC_NS_PER_S_F);
		sc_html_row_end(f);
	}
	sc_html_table_end(f);
}

int sc_html_checkpoints(FILE *f, const struct sc_run_figures *fg)
{
	const struct sc_ckpt_group *g = fg->ckpt;
	uint32_t ng = fg->nckpt;
	int err = 0;

	for (uint32_t k = 0; k < ng && !err; k++) {
		sc_html_heading(f, 3, NULL, g[k].name);
		if (g[k].write.n)
			err = ckpt_chart(f, &g[k], false);
		if (!err && g[k].restore.n)
			err = ckpt_chart(f, &g[k], true);
		if (!err) {
			ckpt_table(f, &g[k]);
			async_table(f, &g[k]);
		}
		if (!err && g[k].mlperf.on)
			mlperf_table(f, &g[k]);
	}
	return err;
}
