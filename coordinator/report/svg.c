/* svg.c -- charts as inline SVG text: line charts, horizontal bar charts
 * and labelled heatmaps, readable in grey and fetching nothing. */
#include "svg.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/extremes.h"
#include "html_page.h"

/* The default chart size, pixels. */
#define DEF_W 720
#define DEF_H 300
/* A line denser than this many points a pixel is drawn by its pixel
 * columns' extremes (dense_path). */
#define DENSE_PER_PX 4
/* Average width of one glyph of the 11 px sans-serif text, pixels: enough
 * to decide where a label must be cut. */
#define CHAR_W 6.6
/* Title font size against the 11 px text. */
#define TITLE_SCALE (13.0 / 11.0)
/* Height of one legend row, pixels. */
#define LEGEND_ROW 16
/* Room for a number from sc_svg_number or a tick label. */
#define NUM_LEN 48
/* Most ticks an axis gets. */
#define MAX_TICKS 16
/* Width of a heatmap legend swatch, pixels: its label ("18300 MB/s",
 * "-12.5%") fits under it. */
#define SWATCH_W 66
/* Height of a heatmap row, pixels. */
#define CELL_H 24

/* Series colours (Okabe-Ito, distinct for colour-blind readers) and their
 * dash patterns, so that series still differ printed in grey. */
static const char *const colours[SC_SVG_STYLES] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
				       "#e69f00", "#56b4e9", "#333333", "#8c6d31"};
static const char *const dashes[SC_SVG_STYLES] = {"",    "7 3",  "2 2",	    "9 3 2 3",
				      "1 3", "12 4", "5 2 1 2 1 2", "3 5"};

/* The plot box inside a chart: left, right, top and bottom edges. */
struct frame {
	double w, h;
	double l, r, t, b;
};

/* An axis mapped to pixels: lo and hi are transformed values (log10 or
 * nines position) at pixels p0 and p1; step is the linear tick step, or
 * decades per tick on a log axis. */
struct axis {
	enum sc_svg_scale scale;
	double lo, hi, p0, p1, step;
};

struct rgb {
	double r, g, b;
};

const char *sc_svg_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
	} else if (v == 0) {
		snprintf(buf, len, "0");
	} else if (a >= 999.5 && a < 1e7) {
		double scale = pow(10, floor(log10(a)) - 2);

		snprintf(buf, len, "%.0f", round(v / scale) * scale);
	} else {
		snprintf(buf, len, "%.3g", v);
	}
	return buf;
}

/* Writes s escaped, cut to what fits in max_px pixels of 11 px text (an
 * ellipsis marks the cut; UTF-8 sequences are kept whole). */
static void text_fit(FILE *f, const char *s, double max_px)
{
	size_t max = max_px > 2 * CHAR_W ? (size_t)(max_px / CHAR_W) : 2;
	size_t chars = 0, cut = 0;
	char buf[256];

	if (!s)
		return;
	for (size_t i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (chars == max - 1)
			cut = i;
		chars++;
	}
	if (chars <= max) {
		sc_html_text(f, s);
		return;
	}
	if (cut > sizeof buf - 4)
		cut = sizeof buf - 4;
	while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	memcpy(buf, s, cut);
	memcpy(buf + cut, "\xe2\x80\xa6", 4);
	sc_html_text(f, buf);
}

/* A <text> at (x, y) anchored start, middle or end; attrs are extra
 * attributes (" font-weight=\"bold\"") or "". */
static void text_at(FILE *f, double x, double y, const char *anchor, const char *attrs,
		    const char *s, double max_px)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, attrs);
	text_fit(f, s, max_px);
	fputs("</text>\n", f);
}

/* The unit of an axis label: what is inside its last parentheses. */
static void unit_of(const char *label, char *buf, size_t len)
{
	const char *o = label ? strrchr(label, '(') : NULL;
	const char *e = o ? strchr(o, ')') : NULL;

	buf[0] = '\0';
	if (e)
		snprintf(buf, len, "%.*s", (int)(e - o - 1), o + 1);
}

static void svg_begin(FILE *f, double w, double h, const char *title)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\" "
		"fill=\"#222\" role=\"img\">\n<title>",
		w, h, w, h);
	sc_html_text(f, title);
	fprintf(f, "</title>\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", w, h);
	text_at(f, w / 2, 17, "middle", " font-size=\"13\" font-weight=\"bold\"", title,
		(w - 20) / TITLE_SCALE);
}

static void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

/* The axis labels of a frame: x under the plot, y turned along its side. */
static void axis_labels(FILE *f, const struct frame *fr, const char *xl, const char *yl)
{
	text_at(f, (fr->l + fr->r) / 2, fr->h - 7, "middle", "", xl, fr->r - fr->l);
	fprintf(f, "<text transform=\"rotate(-90)\" x=\"%.1f\" y=\"13\" text-anchor=\"middle\">",
		-(fr->t + fr->b) / 2);
	text_fit(f, yl, fr->b - fr->t + 20);
	fputs("</text>\n", f);
}

/* The frame of a chart with nothing to draw: box, axis labels, "no data". */
static void no_data(FILE *f, const struct frame *fr, const char *xl, const char *yl)
{
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#999\"/>\n",
		fr->l, fr->t, fr->r - fr->l, fr->b - fr->t);
	text_at(f, (fr->l + fr->r) / 2, (fr->t + fr->b) / 2 + 4, "middle", " fill=\"#666\"",
		"no data", 100);
	axis_labels(f, fr, xl, yl);
}

/* Diagonal hatching over the rectangle (x, y, w, h), without ids so that
 * many charts can share a page. */
static void hatch(FILE *f, double x, double y, double w, double h, const char *colour)
{
	const double gap = 5;

	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" d=\"", colour);
	for (double k = gap; k < w + h; k += gap) {
		double x0 = k <= w ? x + k : x + w, y0 = k <= w ? y : y + k - w;
		double x1 = k <= h ? x : x + k - h, y1 = k <= h ? y + k : y + h;

		fprintf(f, "M%.1f %.1fL%.1f %.1f", x0, y0, x1, y1);
	}
	fputs("\"/>\n", f);
}

static double transform(enum sc_svg_scale s, double v)
{
	if (!isfinite(v))
		return NAN;
	switch (s) {
	case SC_SVG_LOG10:
		return v > 0 ? log10(v) : NAN;
	case SC_SVG_NINES:
		return v > 0 && v < 100 ? -log10(1 - v / 100) : NAN;
	default:
		return v;
	}
}

static double pos_t(const struct axis *a, double t)
{
	return a->p0 + (t - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

static double pos(const struct axis *a, double v)
{
	return pos_t(a, transform(a->scale, v));
}

/* A round tick step (1, 2 or 5 times a power of ten) cutting span into
 * about n parts. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), m = raw / mag;

	return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * mag;
}

/* Fits axis a to transformed data lo .. hi (both finite) between pixels
 * p0 and p1: linear ends on round ticks, log on whole decades, nines from
 * p50 to the nine that holds hi. */
static void axis_fit(struct axis *a, const struct sc_svg_axis *ax, double lo, double hi, double p0,
		     double p1)
{
	a->scale = ax->scale;
	a->p0 = p0;
	a->p1 = p1;
	a->step = 1;
	if (a->scale == SC_SVG_LOG10) {
		a->lo = floor(lo);
		a->hi = fmax(ceil(hi), a->lo + 1);
		a->step = ceil((a->hi - a->lo) / 8);
		return;
	}
	if (a->scale == SC_SVG_NINES) {
		a->lo = fmin(lo, transform(SC_SVG_NINES, 50));
		a->hi = fmax(1, ceil(hi - 1e-9));
		return;
	}
	if (ax->from_zero) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 0);
	}
	if (hi <= lo) {
		double d = lo != 0 ? fabs(lo) * 0.1 : 1;

		lo -= lo != 0 ? d : 0;
		hi += d;
	}
	a->step = nice_step(hi - lo, 5);
	a->lo = floor(lo / a->step + 1e-9) * a->step;
	a->hi = ceil(hi / a->step - 1e-9) * a->step;
}

/* The ticks of a fitted axis as transformed values, in order; returns
 * their count. */
static int ticks(const struct axis *a, double *t)
{
	int n = 0;

	if (a->scale == SC_SVG_NINES) {
		if (transform(SC_SVG_NINES, 50) >= a->lo - 1e-9)
			t[n++] = transform(SC_SVG_NINES, 50);
		for (int k = 1; k <= (int)a->hi && n < MAX_TICKS; k++)
			t[n++] = k;
		return n;
	}
	for (int i = 0; n < MAX_TICKS; i++) {
		double v = a->lo + i * a->step;

		if (v > a->hi + a->step * 1e-6)
			break;
		t[n++] = v;
		/* a log axis of one or two decades gets 2 and 5 as well */
		if (a->scale == SC_SVG_LOG10 && a->hi - a->lo <= 2 && v < a->hi - 0.5 &&
		    n + 2 < MAX_TICKS) {
			t[n++] = v + log10(2);
			t[n++] = v + log10(5);
		}
	}
	return n;
}

/* The label of tick t: the value, or p50, p90, p99, p99.9 ... on a nines
 * axis. */
static const char *tick_label(char *buf, size_t len, const struct axis *a, double t)
{
	if (a->scale == SC_SVG_LOG10)
		return sc_svg_number(buf, len, pow(10, t));
	if (a->scale == SC_SVG_LINEAR)
		return sc_svg_number(buf, len, fabs(t) < a->step * 1e-6 ? 0 : t);
	if (fabs(t - round(t)) > 1e-6 || t < 1) {
		char num[NUM_LEN];

		snprintf(buf, len, "p%s", sc_svg_number(num, sizeof num, 100 * (1 - pow(10, -t))));
		return buf;
	}
	snprintf(buf, len, lround(t) == 1 ? "p90" : lround(t) == 2 ? "p99" : "p99.");
	for (long k = 3; k <= lround(t) && strlen(buf) + 2 < len; k++)
		strcat(buf, "9");
	return buf;
}

/* The labels of the n ticks t of x axis a under the plot, moved left
 * where the last one would leave the chart. */
static void x_tick_labels(FILE *f, const struct frame *fr, const struct axis *a, const double *t,
			  int n)
{
	char buf[NUM_LEN];

	for (int i = 0; i < n; i++) {
		double x = pos_t(a, t[i]), half;

		tick_label(buf, sizeof buf, a, t[i]);
		half = strlen(buf) * CHAR_W / 2;
		text_at(f, fmin(x, fr->w - 2 - half), fr->b + 14, "middle", " class=\"xtick\"", buf,
			80);
	}
}

/* The width of the widest tick label of axis a, pixels. */
static double ytick_width(const struct axis *a)
{
	double t[MAX_TICKS], widest = 0;
	char buf[NUM_LEN];

	for (int i = 0, n = ticks(a, t); i < n; i++)
		widest = fmax(widest, strlen(tick_label(buf, sizeof buf, a, t[i])) * CHAR_W);
	return widest;
}

/* Grid lines, ticks and tick labels of both axes, the plot box and the
 * axis labels. */
static void draw_axes(FILE *f, const struct frame *fr, const struct axis *ax, const struct axis *ay,
		      const struct sc_svg_chart *c)
{
	double tx[MAX_TICKS], ty[MAX_TICKS];
	int nx = ticks(ax, tx), ny = ticks(ay, ty);
	char buf[NUM_LEN];

	fputs("<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n", f);
	for (int i = 0; i < nx; i++)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			pos_t(ax, tx[i]), fr->t, pos_t(ax, tx[i]), fr->b);
	for (int i = 0; i < ny; i++)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", fr->l,
			pos_t(ay, ty[i]), fr->r, pos_t(ay, ty[i]));
	fputs("</g>\n", f);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		fr->l, fr->t, fr->r - fr->l, fr->b - fr->t);
	x_tick_labels(f, fr, ax, tx, nx);
	for (int i = 0; i < ny; i++)
		text_at(f, fr->l - 5, pos_t(ay, ty[i]) + 4, "end", " class=\"ytick\"",
			tick_label(buf, sizeof buf, ay, ty[i]), fr->l - 8);
	axis_labels(f, fr, c->x.label, c->y.label);
}

/* Marker shape i (circle, square, triangle, diamond) at (x, y). */
static void marker(FILE *f, uint32_t i, double x, double y, const char *colour)
{
	switch (i % 4) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"", x, y);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\"", x - 3, y - 3);
		break;
	case 2:
		fprintf(f, "<path d=\"M%.1f %.1fl3.5 6.5h-7z\"", x, y - 4);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f %.1fl4 4l-4 4l-4 -4z\"", x, y - 4);
	}
	fprintf(f, " fill=\"%s\"/>\n", colour);
}

/* The stroke attributes of series i. */
static void stroke(FILE *f, const struct sc_svg_series *s, uint32_t i)
{
	const char *dash = s->dashed_trend ? "5 4" : dashes[i % SC_SVG_STYLES];

	fprintf(f, "fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\"",
		colours[i % SC_SVG_STYLES], s->dashed_trend ? "1.2" : "1.8");
	if (dash[0])
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
}

/* Whether point j of s is drawn (both coordinates on their axes). */
static bool drawn(const struct axis *ax, const struct axis *ay, const struct sc_svg_series *s,
		  uint32_t j)
{
	return j < s->n && isfinite(pos(ax, s->x[j])) && isfinite(pos(ay, s->y[j]));
}

/* What dense_path's columns are read from. */
struct dense {
	const struct axis *ax, *ay;
	const struct sc_svg_series *s;
};

/* The pixel column of point j, NAN when it is not drawn. */
static double dense_column(const void *ctx, uint32_t j)
{
	const struct dense *d = ctx;

	return drawn(d->ax, d->ay, d->s, j) ? floor(pos(d->ax, d->s->x[j])) : NAN;
}

/* The path data of a series denser than DENSE_PER_PX points a pixel: in
 * each pixel column only the points that decide what is drawn there
 * (analysis/extremes.h), so the line looks the same and its text stays
 * bounded by the chart's width, not the series' length.  false (nothing
 * written) when out of memory. */
static bool dense_path(FILE *f, const struct axis *ax, const struct axis *ay,
		       const struct sc_svg_series *s)
{
	struct dense d = {ax, ay, s};
	uint32_t *keep, n;
	bool pen = false;

	if (s->n <= DENSE_PER_PX * fabs(ax->p1 - ax->p0))
		return false;
	keep = malloc(s->n * sizeof(*keep));
	if (!keep)
		return false;
	n = sc_extremes_pick(s->y, s->n, dense_column, &d, keep);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t j = keep[k];

		if (j == SC_EXTREMES_BREAK) {
			pen = false;
			continue;
		}
		fprintf(f, "%s%.1f %.1f", pen ? " L" : "M", pos(ax, s->x[j]), pos(ay, s->y[j]));
		pen = true;
	}
	free(keep);
	return true;
}

/* Series i as one path, broken where a point is not drawn; markers where
 * asked for and on points that have no drawn neighbour. */
static void draw_series(FILE *f, const struct axis *ax, const struct axis *ay,
			const struct sc_svg_series *s, uint32_t i)
{
	bool pen = false, any = false, dense;

	for (uint32_t j = 0; j < s->n && !any; j++)
		any = drawn(ax, ay, s, j);
	if (!any)
		return;
	fputs("<path ", f);
	stroke(f, s, i);
	fputs(" d=\"", f);
	dense = dense_path(f, ax, ay, s);
	for (uint32_t j = 0; !dense && j < s->n; j++) {
		if (!drawn(ax, ay, s, j)) {
			pen = false;
			continue;
		}
		fprintf(f, "%s%.1f %.1f", pen ? " L" : "M", pos(ax, s->x[j]), pos(ay, s->y[j]));
		pen = true;
	}
	fputs("\"/>\n", f);
	for (uint32_t j = 0; j < s->n; j++) {
		bool alone = !(j > 0 && drawn(ax, ay, s, j - 1)) && !drawn(ax, ay, s, j + 1);

		if (drawn(ax, ay, s, j) && ((s->markers && !s->dashed_trend) || alone))
			marker(f, i, pos(ax, s->x[j]), pos(ay, s->y[j]), colours[i % SC_SVG_STYLES]);
	}
}

/* Lays out (and with f not NULL draws) the legend from y0 down, items
 * left to right wrapping at width w; returns its rows. */
static int legend(FILE *f, const struct sc_svg_series *s, uint32_t ns, double w, double y0)
{
	double x = 10, max_name = w / 3;
	int rows = 1;

	for (uint32_t i = 0; i < ns; i++) {
		size_t len = s[i].name ? strlen(s[i].name) : 0;
		double item = 30 + fmin(len * CHAR_W, max_name) + 14;

		if (x + item > w - 10 && x > 10) {
			x = 10;
			rows++;
		}
		if (f) {
			double y = y0 + (rows - 1) * LEGEND_ROW;

			fprintf(f, "<path ");
			stroke(f, &s[i], i);
			fprintf(f, " d=\"M%.1f %.1fh24\"/>\n", x, y - 4);
			if (s[i].markers && !s[i].dashed_trend)
				marker(f, i, x + 12, y - 4, colours[i % SC_SVG_STYLES]);
			text_at(f, x + 30, y, "start", "", s[i].name, max_name);
		}
		x += item;
	}
	return rows;
}

/* The range of the transformed values of one coordinate of all series
 * (x when use_x) over the points that are drawn on both axes; false when
 * there are none. */
static bool data_range(const struct sc_svg_chart *c, const struct sc_svg_series *s, uint32_t ns,
		       bool use_x, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (uint32_t i = 0; i < ns; i++) {
		for (uint32_t j = 0; j < s[i].n; j++) {
			double tx = transform(c->x.scale, s[i].x[j]);
			double ty = transform(c->y.scale, s[i].y[j]);
			double t = use_x ? tx : ty;

			if (!isfinite(tx) || !isfinite(ty))
				continue;
			*lo = fmin(*lo, t);
			*hi = fmax(*hi, t);
		}
	}
	return *lo <= *hi;
}

static void frame_init(struct frame *fr, double w, double h, double l, double r, double t, double b)
{
	fr->w = w;
	fr->h = h;
	fr->l = l;
	fr->r = w - r;
	fr->t = t;
	fr->b = h - b;
}

void sc_svg_lines(FILE *f, const struct sc_svg_chart *c, const struct sc_svg_series *s, uint32_t ns)
{
	double w = c->width ? c->width : DEF_W, h = c->height;
	int rows = ns > 1 ? legend(NULL, s, ns, w, 0) : 0;
	double xlo, xhi, ylo, yhi;

	if (!h) /* a legend of more than two rows makes room for itself */
		h = DEF_H + (rows > 2 ? (rows - 2) * LEGEND_ROW : 0);
	struct axis ax, ay;
	struct frame fr;

	frame_init(&fr, w, h, 62, 18, 30 + (rows ? 4 + rows * LEGEND_ROW : 0), 40);
	svg_begin(f, w, h, c->title);
	if (ns > 1)
		legend(f, s, ns, w, 36);
	if (!data_range(c, s, ns, true, &xlo, &xhi) || !data_range(c, s, ns, false, &ylo, &yhi)) {
		no_data(f, &fr, c->x.label, c->y.label);
		svg_end(f);
		return;
	}
	axis_fit(&ay, &c->y, ylo, yhi, fr.b, fr.t);
	fr.l = fmin(fmax(fr.l, ytick_width(&ay) + 24), w / 3);
	axis_fit(&ax, &c->x, xlo, xhi, fr.l, fr.r);
	draw_axes(f, &fr, &ax, &ay, c);
	for (uint32_t i = 0; i < ns; i++)
		draw_series(f, &ax, &ay, &s[i], i);
	svg_end(f);
}

/* Bar i: its rectangle from 0 to v, hatched when marked, its value with
 * the unit at its end and its label (with the mark text) at its left. */
static void draw_bar(FILE *f, const struct frame *fr, const struct axis *ax, double band,
		     const char *label, double v, const char *mark, const char *unit)
{
	double x0 = pos(ax, fmin(v, 0)), x1 = pos(ax, fmax(v, 0)), bh = band * 0.7;
	double yc = fr->t + band / 2, fs = fmin(11, fmax(6, band - 2));
	size_t mlen = mark && mark[0] ? strlen(mark) + 3 : 0;
	char num[NUM_LEN], val[NUM_LEN + 64];

	if (isfinite(v)) {
		fprintf(
		    f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		    x0, yc - bh / 2, x1 - x0, bh, mark ? "#d55e00" : "#0072b2");
		if (mark)
			hatch(f, x0, yc - bh / 2, x1 - x0, bh, "#fff");
	}
	snprintf(val, sizeof val, "%s%s%s", sc_svg_number(num, sizeof num, v),
		 isfinite(v) && unit[0] ? " " : "", isfinite(v) ? unit : " (not measured)");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\"%s>", x1 + 4, yc + fs / 3, fs,
		mark ? " font-weight=\"bold\"" : "");
	text_fit(f, val, fr->w - x1 - 6);
	fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"end\">",
		fr->l - 6, yc + fs / 3, fs);
	text_fit(f, label, fmax(2 * CHAR_W, fr->l - 26 - mlen * CHAR_W));
	if (mlen) {
		fputs("&#160;<tspan font-weight=\"bold\">(", f);
		sc_html_text(f, mark);
		fputs(")</tspan>", f);
	}
	fputs("</text>\n", f);
}

/* The width of the label column of a bar chart: the longest label and
 * the mark text, at most a third of the chart. */
static double label_column(const char *const *labels, uint32_t n, const char *mark_text, double w)
{
	size_t longest = 0;

	for (uint32_t i = 0; labels && i < n; i++)
		if (labels[i] && strlen(labels[i]) > longest)
			longest = strlen(labels[i]);
	longest += mark_text ? strlen(mark_text) + 3 : 0;
	return fmin(fmax(longest * CHAR_W + 32, 60), w / 3);
}

/* Bar i is marked: the one bar given, or one m marks. */
static bool bar_marked(uint32_t i, uint32_t one, const struct sc_svg_bar_marks *m)
{
	return i == one || (m && m->marked && m->marked[i]);
}

/* A bar chart: sc_svg_bars' bar `one` marked with mark_text, and the
 * marks of m (NULL: none) with its own. */
static void bars(FILE *f, const struct sc_svg_chart *c, const char *const *labels, const double *v,
		 uint32_t n, uint32_t one, const char *mark_text, const struct sc_svg_bar_marks *m)
{
	bool line = m && m->line_text && isfinite(m->line);
	double top = line ? 28 + LEGEND_ROW : 28; /* the line's label under the title */
	double w = c->width ? c->width : DEF_W;
	double h = c->height ? c->height : top - 28 + 70 + (n <= 8 ? 32.0 : 20.0) * fmax(n, 2);
	struct sc_svg_axis xa = {.label = c->x.label, .scale = SC_SVG_LINEAR, .from_zero = true};
	double lo = INFINITY, hi = -INFINITY, band, t[MAX_TICKS];
	const char *mark_col = m && m->marked && m->mark_text ? m->mark_text : mark_text;
	char unit[NUM_LEN], num[NUM_LEN];
	struct frame fr;
	struct axis ax;

	frame_init(&fr, w, h, label_column(labels, n, mark_col, w), 96, top, 40);
	svg_begin(f, w, h, c->title);
	for (uint32_t i = 0; i < n; i++) {
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	}
	if (lo > hi) {
		no_data(f, &fr, c->x.label, c->y.label);
		svg_end(f);
		return;
	}
	if (line) {
		lo = fmin(lo, m->line);
		hi = fmax(hi, m->line);
	}
	axis_fit(&ax, &xa, lo, hi, fr.l, fr.r);
	fputs("<g stroke=\"#e3e3e3\">\n", f);
	for (int i = 0, k = ticks(&ax, t); i < k; i++)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			pos_t(&ax, t[i]), fr.t, pos_t(&ax, t[i]), fr.b);
	fprintf(f,
		"</g>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n",
		fr.l, fr.b, fr.r, fr.b);
	x_tick_labels(f, &fr, &ax, t, ticks(&ax, t));
	axis_labels(f, &fr, c->x.label, c->y.label);
	unit_of(c->x.label, unit, sizeof unit);
	band = (fr.b - fr.t) / n;
	for (uint32_t i = 0; i < n; i++) {
		struct frame row = fr;
		const char *mk = i == one ? mark_text : m ? m->mark_text : NULL;

		row.t = fr.t + i * band;
		draw_bar(f, &row, &ax, band, labels ? labels[i] : NULL, v[i],
			 bar_marked(i, one, m) ? (mk ? mk : "") : NULL, unit);
	}
	if (line) {
		double x = pos(&ax, m->line);

		fprintf(f,
			"<line class=\"threshold\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#000\" stroke-width=\"1.5\" "
			"stroke-dasharray=\"6 3\"><title>",
			x, fr.t - 4, x, fr.b);
		sc_html_text(f, m->line_text);
		fprintf(f, " (%s%s%s)</title></line>\n", sc_svg_number(num, sizeof num, m->line),
			unit[0] ? " " : "", unit);
		text_at(f, fmin(fmax(x, fr.l + 60), fr.r - 60), fr.t - 7, "middle",
			" class=\"threshold-label\" font-weight=\"bold\"", m->line_text, 200);
	}
	svg_end(f);
}

void sc_svg_bars(FILE *f, const struct sc_svg_chart *c, const char *const *labels, const double *v,
		 uint32_t n, uint32_t marked, const char *mark_text)
{
	bars(f, c, labels, v, n, marked, mark_text, NULL);
}

void sc_svg_bars_marked(FILE *f, const struct sc_svg_chart *c, const char *const *labels,
			const double *v, uint32_t n, const struct sc_svg_bar_marks *m)
{
	bars(f, c, labels, v, n, n, NULL, m);
}

static struct rgb mix(struct rgb a, struct rgb b, double t)
{
	return (struct rgb){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

static void rgb_hex(char *buf, size_t len, struct rgb c)
{
	snprintf(buf, len, "#%02x%02x%02x", (unsigned)lround(c.r * 255),
		 (unsigned)lround(c.g * 255), (unsigned)lround(c.b * 255));
}

/* The colour of a heatmap cell at "goodness" g: sequential 0 (worst,
 * light) .. 1 (best, dark); diverging -1 (worse, red) .. +1 (better,
 * green) with white at 0. */
static struct rgb cell_colour(bool diverging, double g)
{
	static const struct rgb light = {0.94, 0.96, 0.98}, dark = {0.03, 0.19, 0.42};
	static const struct rgb white = {0.97, 0.97, 0.97}, green = {0.10, 0.60, 0.31},
				red = {0.84, 0.19, 0.15};

	if (!diverging)
		return mix(light, dark, fmin(1, fmax(0, g)));
	return g >= 0 ? mix(white, green, fmin(1, g)) : mix(white, red, fmin(1, -g));
}

/* A heatmap's scale: the limit of a diverging map, or the range of the
 * finite cells of a sequential one; has_gap when a cell is not measured. */
struct heat_scale {
	double lo, hi, limit;
	bool has_gap;
};

/* How good value v is on scale s: see cell_colour. */
static double goodness(const struct sc_svg_heatmap *h, const struct heat_scale *s, double v)
{
	double g;

	if (h->diverging)
		return (h->lower_better ? -v : v) / s->limit;
	g = s->hi > s->lo ? (v - s->lo) / (s->hi - s->lo) : 0.5;
	return h->lower_better ? 1 - g : g;
}

/* The label of a cell or legend entry: the value and unit, with an
 * explicit sign on a diverging map. */
static void cell_label(char *buf, size_t len, const struct sc_svg_heatmap *h, double v)
{
	const char *unit = h->cell_unit ? h->cell_unit : h->diverging ? "%" : "";
	bool space = unit[0] && strcmp(unit, "%") != 0;
	char num[NUM_LEN];

	sc_svg_number(num, sizeof num, v);
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%s%s%s", h->diverging && v > 0 ? "+" : "", num,
			 space ? " " : "", unit);
}

/* One cell at (x, y) of size cw x CELL_H: filled by its goodness and
 * labelled, or hatched and "-" when not measured. */
static void draw_cell(FILE *f, const struct sc_svg_heatmap *h, const struct heat_scale *s, double x,
		      double y, double cw, double v)
{
	char fill[8], label[NUM_LEN + 32];
	struct rgb c = cell_colour(h->diverging, goodness(h, s, v));
	bool dark = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b < 0.55;
	double fs;

	cell_label(label, sizeof label, h, v);
	fs = fmin(11, fmax(7, (cw - 4) / (strlen(label) * 0.6)));
	if (isfinite(v)) {
		rgb_hex(fill, sizeof fill, c);
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
			"stroke=\"#fff\"/>\n",
			x, y, cw, CELL_H, fill);
	} else {
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#eee\" "
			"stroke=\"#fff\"/>\n",
			x, y, cw, CELL_H);
		hatch(f, x, y, cw, CELL_H, "#bbb");
		dark = false;
	}
	fprintf(f,
		"<text class=\"cell\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		"font-size=\"%.1f\" fill=\"%s\">",
		x + cw / 2, y + CELL_H / 2 + fs / 3, fs, dark ? "#fff" : "#111");
	sc_html_text(f, label);
	fputs("</text>\n", f);
}

/* One legend swatch at (x, y) with its label under it. */
static void swatch(FILE *f, double x, double y, struct rgb c, const char *label)
{
	char fill[8];

	rgb_hex(fill, sizeof fill, c);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"12\" fill=\"%s\" "
		"stroke=\"#999\" stroke-width=\"0.5\"/>\n",
		x, y, SWATCH_W, fill);
	text_at(f, x + SWATCH_W / 2.0, y + 24, "middle", " font-size=\"10\"", label,
		SWATCH_W * 1.1);
}

/* The legend of a heatmap at y: "worse", five swatches from worst to
 * best with their values, "better", and the hatched "not measured". */
static void heat_legend(FILE *f, const struct sc_svg_heatmap *h, const struct heat_scale *s,
			double x, double y)
{
	char label[NUM_LEN + 32];

	text_at(f, x, y + 10, "start", " font-weight=\"bold\"", "worse", 60);
	x += 44;
	for (int k = 0; k < 5; k++) {
		double g = k / 4.0, v;

		if (h->diverging)
			v = (h->lower_better ? -1 : 1) * (2 * g - 1) * s->limit;
		else
			v = s->lo + (h->lower_better ? 1 - g : g) * (s->hi - s->lo);
		cell_label(label, sizeof label, h, v);
		swatch(f, x + k * (SWATCH_W + 2), y,
		       cell_colour(h->diverging, h->diverging ? 2 * g - 1 : g), label);
	}
	x += 5 * (SWATCH_W + 2) + 6;
	text_at(f, x, y + 10, "start", " font-weight=\"bold\"",
		h->diverging ? "better (B against A)" : "better: darker", 140);
	if (s->has_gap) {
		x += 150;
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"12\" fill=\"#eee\"/>\n",
			x, y);
		hatch(f, x, y, 24, 12, "#bbb");
		text_at(f, x + 28, y + 10, "start", "", "not measured", 90);
	}
}

/* The scale of heatmap h; false when no cell is measured. */
static bool heat_scale_of(const struct sc_svg_heatmap *h, struct heat_scale *s)
{
	size_t n = (size_t)h->nrows * h->ncols;

	s->lo = INFINITY;
	s->hi = -INFINITY;
	s->limit = h->limit_pct > 0 ? h->limit_pct : 50;
	s->has_gap = false;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(h->v[i])) {
			s->has_gap = true;
			continue;
		}
		s->lo = fmin(s->lo, h->v[i]);
		s->hi = fmax(s->hi, h->v[i]);
	}
	return s->lo <= s->hi;
}

void sc_svg_heatmap(FILE *f, const struct sc_svg_heatmap *h)
{
	double corner = h->row_label ? strlen(h->row_label) * CHAR_W + 12 : 0;
	double lw =
	    fmin(fmax(label_column(h->rows, h->nrows, NULL, DEF_W) - 20, corner), DEF_W / 3.0);
	struct frame fr;
	struct heat_scale s;
	double cw;
	bool any = heat_scale_of(h, &s);

	frame_init(&fr, DEF_W, 112 + h->nrows * CELL_H, lw, 12, 42, 70);
	svg_begin(f, fr.w, fr.h, h->title);
	if (!h->nrows || !h->ncols) {
		fr.b = fr.t + 2 * CELL_H;
		no_data(f, &fr, h->col_label, h->row_label);
		svg_end(f);
		return;
	}
	cw = (fr.r - fr.l) / h->ncols;
	for (uint32_t r = 0; r < h->nrows; r++) {
		double y = fr.t + r * CELL_H;

		text_at(f, fr.l - 6, y + CELL_H / 2 + 4, "end", "", h->rows ? h->rows[r] : NULL,
			fr.l - 10);
		for (uint32_t c = 0; c < h->ncols; c++)
			draw_cell(f, h, &s, fr.l + c * cw, y, cw, h->v[(size_t)r * h->ncols + c]);
	}
	for (uint32_t c = 0; c < h->ncols; c++)
		text_at(f, fr.l + (c + 0.5) * cw, fr.b + 14, "middle", "",
			h->cols ? h->cols[c] : NULL, cw - 2);
	text_at(f, (fr.l + fr.r) / 2, fr.b + 30, "middle", "", h->col_label, fr.r - fr.l);
	text_at(f, fr.l - 6, fr.t - 6, "end", " font-weight=\"bold\"", h->row_label, fr.l - 8);
	if (any || h->diverging)
		heat_legend(f, h, &s, 10, fr.b + 40);
	else
		text_at(f, 10, fr.b + 50, "start", "", "no cell measured (hatched: not measured)",
			300);
	svg_end(f);
}
