/* svg.h -- charts as inline SVG text for the HTML pages (report.html,
 * compare.html): line charts, bar charts and labelled heatmaps.
 *
 * Every chart is one <svg> element written to f: a <title> and a visible
 * title, both axes labelled with their unit, tick labels, and a legend when
 * there is more than one series.  Nothing is fetched from anywhere (no
 * script, font, image or style sheet); colours come with a second cue
 * (dash pattern, marker shape, printed value or sign) so that a page
 * printed in grey still reads.  Text is XML-escaped.  Values that are not
 * finite (NAN) are gaps, never drawn as 0.  Output errors are the caller's
 * to check (ferror(f)).
 */
#ifndef SC_REPORT_SVG_H
#define SC_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How an axis maps its values. */
enum sc_svg_scale {
	SC_SVG_LINEAR = 0,
	SC_SVG_LOG10,	/* positive values only; others are gaps */
	SC_SVG_NINES,	/* percentiles (50 .. 99.9999) on a "nines" axis:
			 * position -log10(1 - p/100), ticks p50, p90, p99,
			 * p99.9, ... up to the largest value given */
};

struct sc_svg_axis {
	const char *label;	/* with its unit: "time (s)", "bandwidth (MB/s)" */
	enum sc_svg_scale scale;
	bool from_zero;		/* linear: the range includes 0 */
};

/* A chart's frame. */
struct sc_svg_chart {
	const char *title;	/* shown above the plot and as <title> */
	struct sc_svg_axis x, y;
	uint32_t width, height; /* pixels; 0: the defaults (720 x 300) */
};

/* One line of a line chart: n points (x[i], y[i]), x increasing.  A
 * point whose y is not finite breaks the line. */
struct sc_svg_series {
	const char *name;	/* legend text */
	const double *x, *y;
	uint32_t n;
	bool markers;		/* draw a marker at each point (sparse series) */
	bool dashed_trend;	/* a fitted trend: thin and dashed, no markers */
};

/* The distinct colour and dash patterns of a chart's lines. */
#define SC_SVG_STYLES 8

/* A line chart of ns series; series i gets colour and dash pattern i (up to
 * SC_SVG_STYLES distinct, then repeated); a series denser than a few
 * points a pixel is drawn by its pixel columns' extremes, which look the
 * same.  An empty chart (no finite point) is drawn
 * as its frame with "no data".  With height 0, a legend of more than two
 * rows adds its extra rows to the default height. */
void sc_svg_lines(FILE *f, const struct sc_svg_chart *c, const struct sc_svg_series *s,
		  uint32_t ns);

/* A horizontal bar chart: bar i is labels[i] with length v[i] (x axis:
 * c->x, from zero), its value printed at its end.  Bar `marked` (or none
 * when marked >= n) is drawn in a contrasting fill, hatched, and its label
 * followed by `mark_text` ("slowest").  c->y's label names the bars
 * ("node", "drive").  The x axis is linear whatever c->x.scale says; its
 * label's unit in parentheses follows each value ("1230 MB/s").  Height 0:
 * 70 pixels and 32 a bar (20 a bar past 8 bars), at least two bars' worth. */
void sc_svg_bars(FILE *f, const struct sc_svg_chart *c, const char *const *labels,
		 const double *v, uint32_t n, uint32_t marked, const char *mark_text);

/* What a bar chart marks beyond one bar: any number of bars, and a
 * reference value (a threshold) drawn as a dashed vertical line across
 * the bars (class "threshold"), its label above the plot, the x axis
 * reaching it whatever the bars' values. */
struct sc_svg_bar_marks {
	const bool *marked;    /* per bar: drawn as sc_svg_bars' marked bar,
				* its label followed by mark_text; NULL: none */
	const char *mark_text; /* "below" */
	const char *line_text; /* the line's label with its value ("AU
				* threshold 90%"); NULL: no line */
	double line;	       /* where, in the x axis' unit */
};

/* sc_svg_bars with the marks m; height 0 adds room for the line's label. */
void sc_svg_bars_marked(FILE *f, const struct sc_svg_chart *c, const char *const *labels,
			const double *v, uint32_t n, const struct sc_svg_bar_marks *m);

/* A heatmap: nrows x ncols cells, v row-major (v[r * ncols + c]); a cell
 * that is not finite is "not measured" (drawn hatched, labelled "-").
 * Every cell prints its value (sc_svg_number) followed by cell_unit.
 *
 * Sequential (diverging false): darker is better; lower_better says which
 * way that is (latency: true).
 * Diverging (diverging true): v is B's change against A in percent; cells
 * are green where B is better and red where it is worse (lower_better
 * flips the sign's meaning), white near 0, saturating at +-limit_pct (0:
 * 50); labels carry an explicit sign ("+12.5%", "-3.1%") and "better" or
 * "worse" is in the legend, so the map reads without colour. */
struct sc_svg_heatmap {
	const char *title;
	const char *row_label, *col_label;	/* axis names with units:
						 * "block size", "queue depth" */
	const char *const *rows, *const *cols;	/* tick labels */
	uint32_t nrows, ncols;
	const double *v;
	const char *cell_unit;			/* "MB/s", "us", "%" */
	bool lower_better;
	bool diverging;
	double limit_pct;
};

void sc_svg_heatmap(FILE *f, const struct sc_svg_heatmap *h);

/* v with 3 significant digits and no exponent for 0.001 <= |v| < 1e7
 * ("0.0123", "1.23", "123", "12300"), trailing zeros dropped ("10",
 * "2.5"), thousands not grouped; "-" when not finite.  Returns buf. */
const char *sc_svg_number(char *buf, size_t len, double v);

#endif
