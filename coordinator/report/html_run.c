/* html_run.c -- the sections of report.html about the run as a whole:
 * steady-state convergence, temperature over time, the model's tables and
 * endurance.  Figures from analysis/ and model/, formatted only. */
#include "html_run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/steady_state.h"
#include "html_page.h"
#include "html_priv.h"
#include "projection.h"
#include "model/endurance.h"
#include "report_priv.h"
#include "svg.h"

#define NS_PER_US    1e3
#define BYTES_PER_GB 1e9
#define BYTES_PER_TB 1e12
/* Room for a label or a line of text. */
#define TEXT_MAX 512

/* ----------------------------------------------------------- steady state */

/* A steady-state figure of metric m in the unit the page shows it in. */
static double steady_shown(enum sc_steady_metric m, double v)
{
	return m == SC_STEADY_BW ? v / SC_BYTES_PER_MB : m == SC_STEADY_LAT ? v / NS_PER_US : v;
}

static const char *steady_unit(enum sc_steady_metric m)
{
	return m == SC_STEADY_BW ? "MB/s" : m == SC_STEADY_LAT ? "us" : "IOPS";
}

static const char *steady_axis(enum sc_steady_metric m)
{
	return m == SC_STEADY_BW    ? "bandwidth (MB/s)"
	       : m == SC_STEADY_LAT ? "mean latency (us)"
				    : "IOPS (I/Os per second)";
}

/* The drives of g the page shows, into at (SC_HTML_ROWS_SHOWN room):
 * every one while there are at most that many, else those not steady
 * first, then steady ones, in drive order.  The count. */
static uint32_t steady_shown_drives(const struct sc_steady_group *g, uint32_t *at)
{
	uint32_t n = 0;

	if (g->ndrives <= SC_HTML_ROWS_SHOWN) {
		for (; n < g->ndrives; n++)
			at[n] = n;
		return n;
	}
	for (int steady = 0; steady < 2; steady++)
		for (uint32_t d = 0; d < g->ndrives && n < SC_HTML_ROWS_SHOWN; d++)
			if (g->drives[d].steady == (steady == 1))
				at[n++] = d;
	return n;
}

/* The group's figure per round: per drive shown (one line each), then
 * the cluster's on a chart of its own (its scale is the drives' sum). */
static int steady_charts(FILE *f, const struct sc_steady_group *g, const uint32_t *at,
			 uint32_t nshown)
{
	struct sc_svg_series *s = calloc(nshown ? nshown : 1, sizeof(*s));
	double *x = calloc(g->rounds ? g->rounds : 1, sizeof(*x));
	double *y = calloc((size_t)(nshown + 1) * (g->rounds ? g->rounds : 1), sizeof(*y));
	char(*names)[96] = calloc(nshown ? nshown : 1, sizeof(*names));
	char title[TEXT_MAX];
	struct sc_svg_chart c = {.x = {"round (1 = first)", SC_SVG_LINEAR, false},
				 .y = {steady_axis(g->metric), SC_SVG_LINEAR, true}};
	int rc = 0;

	if (!s || !x || !y || !names) {
		rc = -ENOMEM;
		goto out_free;
	}
	for (uint32_t r = 0; r < g->rounds; r++)
		x[r] = r + 1;
	for (uint32_t d = 0; d <= nshown; d++) {
		const struct sc_steady_series *src = d < nshown ? &g->drives[at[d]] : &g->cluster;

		for (uint32_t r = 0; r < g->rounds; r++)
			y[(size_t)d * g->rounds + r] = steady_shown(g->metric, src->values[r]);
	}
	for (uint32_t d = 0; d < nshown; d++) {
		snprintf(names[d], sizeof(names[d]), "rank %" PRIu32 " (%s)",
			 g->drives[at[d]].rank, g->drives[at[d]].host);
		s[d] = (struct sc_svg_series){names[d],	 x,    y + (size_t)d * g->rounds,
					      g->rounds, true, false};
	}
	if (nshown < g->ndrives)
		snprintf(title, sizeof(title),
			 "%s: %s per round, %u of %u drives (not steady first)", g->name,
			 sc_steady_metric_name(g->metric), nshown, g->ndrives);
	else
		snprintf(title, sizeof(title), "%s: %s per round, per drive", g->name,
			 sc_steady_metric_name(g->metric));
	c.title = title;
	sc_svg_lines(f, &c, s, nshown);
	snprintf(title, sizeof(title), "%s: %s per round, cluster", g->name,
		 sc_steady_metric_name(g->metric));
	sc_svg_lines(f, &c,
		     &(struct sc_svg_series){"cluster", x, y + (size_t)nshown * g->rounds,
					     g->rounds, true, false},
		     1);
out_free:
	free(names);
	free(y);
	free(x);
	free(s);
	return rc;
}

/* A row of the window table: who, when it was first steady, and its
 * final window. */
static void window_row(FILE *f, const char *who, const struct sc_steady_series *s,
		       enum sc_steady_metric m)
{
	const struct sc_steady_window *w = &s->win;
	char buf[64];

	sc_html_row_begin(f);
	sc_html_cell(f, who);
	if (s->first_round)
		sc_html_num(f, "%.0f", s->first_round);
	else
		sc_html_cell(f, "never");
	if (w->last_round) {
		snprintf(buf, sizeof(buf), "%" PRIu32 "-%" PRIu32, w->first_round, w->last_round);
		sc_html_cell(f, buf);
		sc_html_num(f, "%.1f", steady_shown(m, w->mean));
		sc_html_num(f, "%.1f", steady_shown(m, w->min));
		sc_html_num(f, "%.1f", steady_shown(m, w->max));
		sc_html_num(f, "%.1f", w->range_pct);
		sc_html_num(f, "%.1f", w->slope_pct);
	} else {
		for (int k = 0; k < 6; k++)
			sc_html_cell(f, "-");
	}
	sc_html_cell(f, s->steady ? "steady" : "NOT steady");
	sc_html_row_end(f);
}

static void window_table(FILE *f, const struct sc_steady_group *g, const uint32_t *at,
			 uint32_t nshown)
{
	const char *unit = steady_unit(g->metric);
	char h[3][32], caption[TEXT_MAX], who[TEXT_MAX];
	const char *head[] = {
	    "drive", "first steady round", "final window (rounds)",	     h[0],   h[1],
	    h[2],    "range (% of mean)",  "slope x (rounds-1) (% of mean)", "state"};

	snprintf(h[0], sizeof(h[0]), "mean (%s)", unit);
	snprintf(h[1], sizeof(h[1]), "min (%s)", unit);
	snprintf(h[2], sizeof(h[2]), "max (%s)", unit);
	snprintf(caption, sizeof(caption),
		 "Final %" PRIu32 "-round window: steady when max - min <= %.0f%% and |slope x "
		 "(rounds - 1)| <= %.0f%% of its mean (SNIA PTS)",
		 g->window, SC_STEADY_RANGE_PCT, SC_STEADY_SLOPE_PCT);
	sc_html_table_begin(f, caption, head, sizeof(head) / sizeof(head[0]));
	for (uint32_t d = 0; d < nshown; d++) {
		const struct sc_steady_series *s = &g->drives[at[d]];

		snprintf(who, sizeof(who), "rank %" PRIu32 " on %s, target %" PRIu32, s->rank,
			 s->host, s->target);
		window_row(f, who, s, g->metric);
	}
	window_row(f, "cluster", &g->cluster, g->metric);
	sc_html_table_end(f);
}

int sc_html_steady(FILE *f, const struct sc_run_figures *fg)
{
	const struct sc_steady_group *g = fg->steady;
	char line[TEXT_MAX];
	uint32_t n = fg->nsteady, at[SC_HTML_ROWS_SHOWN], nshown;
	int rc = 0;

	if (n) {
		fputs("<section id=\"steady-state\">\n", f);
		sc_html_heading(f, 2, NULL, "Steady-state convergence");
	}
	for (uint32_t k = 0; k < n && !rc; k++) {
		sc_html_heading(f, 3, NULL, g[k].name);
		if (g[k].steady)
			snprintf(line, sizeof(line),
				 "Every drive steady in the window ending at round %" PRIu32
				 " of at most %" PRIu32 "; metric %s.",
				 g[k].round, g[k].max_rounds, sc_steady_metric_name(g[k].metric));
		else
			snprintf(line, sizeof(line),
				 "Not steady after %" PRIu32 " of at most %" PRIu32
				 " rounds: %" PRIu32 " drive(s) not steady in the final window; "
				 "metric %s.",
				 g[k].rounds, g[k].max_rounds, g[k].nunsteady,
				 sc_steady_metric_name(g[k].metric));
		sc_html_note(f, line);
		nshown = steady_shown_drives(&g[k], at);
		if (nshown < g[k].ndrives) {
			snprintf(line, sizeof(line),
				 "%" PRIu32 " drives: %" PRIu32 " shown, those not steady first; "
				 "every drive's figure of each round is in ranks.csv.",
				 g[k].ndrives, nshown);
			sc_html_note(f, line);
		}
		rc = steady_charts(f, &g[k], at, nshown);
		if (!rc)
			window_table(f, &g[k], at, nshown);
	}
	if (n)
		fputs("</section>\n", f);
	return rc;
}

/* ------------------------------------------------------------ temperature */

/* Each phase's hottest-drive temperature per second (deg C; NAN where
 * none was read) into y, its seconds into x. */
static void phase_temps(const struct sc_phase_figures *fig, double *x, double *y)
{
	for (uint32_t k = 0; k < fig->nseconds; k++) {
		x[k] = k;
		y[k] = sc_temp_c(fig->seconds[k].max_temp_mk);
	}
}

/* The series of every phase with a temperature; their buffers in xy. */
static int temp_series(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		       struct sc_svg_series *s, double **xy, uint32_t *ns)
{
	*ns = 0;
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase *ph = sc_report_phase_of(rec, rec->phases[i].phase);
		const struct sc_phase_figures *fig = &fg->phases[i];
		double *buf;

		if (!fig->ntemp)
			continue;
		buf = malloc(2 * sizeof(double) * fig->nseconds);
		if (!buf)
			return -ENOMEM;
		xy[i] = buf;
		phase_temps(fig, buf, buf + fig->nseconds);
		s[(*ns)++] = (struct sc_svg_series){ph ? ph->name : "?", buf, buf + fig->nseconds,
						    fig->nseconds, false, false};
	}
	return 0;
}

/* Every phase's temperature line (reduced: aggregate.h) end to end as one
 * line (x: measured seconds since the first phase's start, the time
 * between phases left out; the line broken between phases), its buffer in
 * *xy. */
static int temp_timeline(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 struct sc_svg_series *line, double **xy)
{
	uint64_t n = 0, at = 0;
	double *x, *y, base = 0;

	for (uint32_t i = 0; i < rec->nphases; i++)
		n += fg->phases[i].ntemp + 1;
	*xy = malloc(2 * sizeof(double) * (n ? n : 1));
	if (!*xy)
		return -ENOMEM;
	x = *xy;
	y = *xy + n;
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_figures *fig = &fg->phases[i];

		for (uint32_t k = 0; k < fig->ntemp; k++, at++) {
			x[at] = base + fig->temp_xy[k];
			y[at] = fig->temp_xy[fig->ntemp + k];
		}
		base += fig->nseconds;
		x[at] = base;
		y[at++] = NAN;
	}
	*line = (struct sc_svg_series){"every phase", x, y, (uint32_t)at, false, false};
	return 0;
}

int sc_html_temperature(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg)
{
	struct sc_svg_series *s = NULL;
	double **xy = NULL, *run_xy = NULL;
	struct sc_svg_chart c = {.title = "Hottest NVMe drive temperature per second, by phase",
				 .x = {"time into the phase (s)", SC_SVG_LINEAR, true},
				 .y = {"temperature (deg C)", SC_SVG_LINEAR, false}};
	uint32_t ns = 0, hot = 0;
	int rc = 0;

	for (uint32_t i = 0; i < rec->nphases; i++)
		hot += fg->phases[i].ntemp > 0;
	if (!hot)
		return 0;
	s = calloc(rec->nphases, sizeof(*s));
	xy = calloc(rec->nphases, sizeof(*xy));
	if (!s || !xy) {
		rc = -ENOMEM;
	} else if (hot <= SC_SVG_STYLES) {
		rc = temp_series(rec, fg, s, xy, &ns);
	} else {
		/* past the chart's distinct line styles, overlaid phases cannot
		 * be told apart: the run's phases end to end instead */
		rc = temp_timeline(rec, fg, &s[0], &run_xy);
		c.title = "Hottest NVMe drive temperature per second, the phases end to end";
		c.x.label = "measured time since the first phase's start, phases end to end (s)";
		ns = 1;
	}
	if (!rc && ns) {
		fputs("<section id=\"temperature\">\n", f);
		sc_html_heading(f, 2, NULL, "Temperature over time");
		sc_html_note(f, "The hottest drive's hwmon temperature read in each second (4 "
				"reads a second); gaps: none read.");
		sc_svg_lines(f, &c, s, ns);
		fputs("</section>\n", f);
	}
	for (uint32_t i = 0; xy && i < rec->nphases; i++)
		free(xy[i]);
	free(run_xy);
	free(xy);
	free(s);
	return rc;
}

/* ------------------------------------------------------------------ model */

int sc_html_model(FILE *f, const struct sc_run_record *rec, const struct sc_model_projection *proj,
		  const char *why)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	(void)rec;
	if (!proj && !(why && why[0]))
		return 0;
	fputs("<section id=\"model\">\n", f);
	sc_html_heading(f, 2, NULL, "Cluster model");
	if (!proj) {
		fputs("<p class=\"note\">No projection: ", f);
		sc_html_text(f, why);
		fputs("</p>\n</section>\n", f);
		return 0;
	}
	m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	sc_report_model_table(m, proj);
	if (fclose(m) || !text) {
		free(text);
		return -ENOMEM;
	}
	sc_html_note(f, "The projection of this run to larger clusters, as `ssdcluster model` "
			"prints it: the tables, then the basis of each figure.");
	/* the basis's long lines wrap rather than run off the page */
	fputs("<pre style=\"white-space:pre-wrap\">", f);
	sc_html_text(f, text);
	fputs("</pre>\n</section>\n", f);
	free(text);
	return 0;
}

/* -------------------------------------------------------------- endurance */

static void endurance_row(FILE *f, const struct sc_run_record *rec,
			  const struct sc_endurance_drive *d)
{
	char buf[TEXT_MAX];

	sc_html_row_begin(f);
	sc_html_num(f, "%.0f", d->node);
	sc_html_cell(f, d->host);
	sc_html_cell(f, d->target < rec->plan.ntargets ? rec->plan.targets[d->target].path : "?");
	if (d->nvme)
		snprintf(buf, sizeof(buf), "%s %s serial %s", d->device, d->model, d->serial);
	else
		snprintf(buf, sizeof(buf), "no NVMe telemetry");
	sc_html_cell(f, buf);
	sc_html_cell(f, d->source == SC_ENDURANCE_SMART ? "SMART" : "counted");
	sc_html_num(f, "%.3f", (double)d->written_bytes / BYTES_PER_GB);
	sc_html_num(f, "%.1f", d->capacity_bytes ? (double)d->capacity_bytes / BYTES_PER_GB : NAN);
	sc_html_num(f, "%.6f", d->drive_writes);
	sc_html_num(f, "%.1f", d->rated_bytes / BYTES_PER_TB);
	sc_html_num(f, "%.6f", d->life_used_pct);
	if (d->pct_known)
		snprintf(buf, sizeof(buf), "%" PRIu32 "%% -> %" PRIu32 "%%", d->pct_used_before,
			 d->pct_used_after);
	sc_html_cell(f, d->pct_known ? buf : "-");
	sc_html_row_end(f);
}

/* The drives of e the table shows, into at: every one while there are at
 * most SC_HTML_ROWS_SHOWN, else that many the run wrote most, most first.
 * The count, or -ENOMEM. */
static int most_written(const struct sc_endurance *e, uint32_t *at)
{
	double *v = malloc((e->ndrives ? e->ndrives : 1) * sizeof(*v));
	int n;

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < e->ndrives; i++)
		v[i] = -(double)e->drives[i].written_bytes;
	n = sc_html_lowest(v, e->ndrives, at);
	free(v);
	return n;
}

int sc_html_endurance(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg)
{
	static const char *const head[] = {"node",
					   "host",
					   "target",
					   "drive",
					   "writes from",
					   "written (GB)",
					   "capacity (GB)",
					   "drive writes (x capacity)",
					   "rated lifetime writes (TB)",
					   "rated life used (%)",
					   "SMART percentage used"};
	struct sc_endurance e;
	char err[TEXT_MAX], line[TEXT_MAX];
	uint32_t at[SC_HTML_ROWS_SHOWN];
	int rc, n;

	if (!rec->nphases)
		return 0;
	rc = sc_endurance_of_writes(&fg->writes, &rec->plan, &e, err, sizeof(err));
	if (rc)
		return rc == -ENOMEM ? rc : 0; /* no rating readable: results.json says why */
	if (e.ndrives) {
		fputs("<section id=\"endurance\">\n", f);
		sc_html_heading(f, 2, NULL, "Endurance");
		snprintf(line, sizeof(line),
			 "Rating: %.3g drive writes per day for %.3g years%s; '-': unknown "
			 "(no capacity). GB = 10^9 bytes, TB = 10^12 bytes.",
			 e.dwpd, e.warranty_years,
			 e.rating_from_config ? " (from the config's model: section)"
					      : " (the defaults)");
		sc_html_note(f, line);
		n = most_written(&e, at);
		if (n < 0) {
			sc_endurance_exit(&e);
			return n;
		}
		if ((uint32_t)n < e.ndrives) {
			snprintf(line, sizeof(line),
				 "The %d drives the run wrote most of %" PRIu32
				 ", most first; every drive: results.json endurance.",
				 n, e.ndrives);
			sc_html_note(f, line);
		}
		sc_html_table_begin(f, "What the run wrote to each drive against its rating", head,
				    sizeof(head) / sizeof(head[0]));
		for (int i = 0; i < n; i++)
			endurance_row(f, rec, &e.drives[at[i]]);
		sc_html_table_end(f);
		fputs("</section>\n", f);
	}
	sc_endurance_exit(&e);
	return 0;
}
