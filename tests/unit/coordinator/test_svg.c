/* test_svg.c -- the charts and page frame of the HTML pages: output is
 * well-formed XML (xmllint) and fetches nothing, text is escaped, NAN is a
 * gap and never 0, heatmap cells carry their value, the diverging map's
 * colour and sign follow lower_better, the nines axis spaces its nines
 * evenly, an empty chart says "no data", and a line denser than the
 * chart's pixels keeps its shape (every pixel column's highest and lowest
 * point, read from the axis ticks) in a path bounded by the chart's width. */
#include "report/html_page.h"
#include "report/svg.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "svg_read.h"

#define XMLLINT "/usr/bin/xmllint"

/* The SVG namespace: the one address an SVG may name. */
#define SVG_NS "xmlns=\"http://www.w3.org/2000/svg\""

static char tmpdir[256];

/* A memory stream and its buffer. */
struct out {
	FILE *f;
	char *buf;
	size_t len;
};

static void out_open(struct out *o)
{
	o->buf = NULL;
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		perror("open_memstream");
		exit(1);
	}
}

/* Ends the stream; returns its text (the caller frees it). */
static char *out_close(struct out *o)
{
	if (ferror(o->f))
		FAIL("writing the output failed");
	fclose(o->f);
	return o->buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* doc (what: its name in failures) is well-formed XML by xmllint, has no
 * script and names no address but the SVG namespace. */
static void check_doc(const char *doc, const char *what)
{
	static int told;
	char path[300], cmd[400];
	FILE *f;

	CHECK(!strstr(doc, "<script"), "%s: has a script", what);
	CHECK(!strstr(doc, "https://"), "%s: names an https address", what);
	CHECK(count(doc, "http://") == count(doc, SVG_NS), "%s: names an address", what);
	if (access(XMLLINT, X_OK) != 0) {
		if (!told++)
			printf("test_svg: %s missing, well-formedness not checked "
			       "(apt-get install libxml2-utils)\n",
			       XMLLINT);
		return;
	}
	snprintf(path, sizeof path, "%s/doc.xml", tmpdir);
	f = fopen(path, "w");
	if (!f || fputs(doc, f) < 0 || fclose(f) != 0) {
		FAIL("%s: cannot write %s", what, path);
		return;
	}
	snprintf(cmd, sizeof cmd, XMLLINT " --noout %s", path);
	CHECK(system(cmd) == 0, "%s: not well-formed XML:\n%s", what, doc);
}

static char *lines(const struct sc_svg_chart *c, const struct sc_svg_series *s, uint32_t ns)
{
	struct out o;

	out_open(&o);
	sc_svg_lines(o.f, c, s, ns);
	return out_close(&o);
}

static char *heatmap(const struct sc_svg_heatmap *h)
{
	struct out o;

	out_open(&o);
	sc_svg_heatmap(o.f, h);
	return out_close(&o);
}

static void test_number(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
	    {0.0123, "0.0123"}, {1.234, "1.23"},      {123.4, "123"},	   {12345, "12300"},
	    {0, "0"},		{10, "10"},	      {-3.14159, "-3.14"}, {999.7, "1000"},
	    {0.001, "0.001"},	{1234567, "1230000"}, {2.5, "2.5"},	   {-12345, "-12300"},
	    {NAN, "-"},		{INFINITY, "-"},      {-INFINITY, "-"},
	};
	char buf[32];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sc_svg_number(buf, sizeof buf, cases[i].v);
		CHECK(strcmp(buf, cases[i].want) == 0, "%g: \"%s\", want \"%s\"", cases[i].v, buf,
		      cases[i].want);
	}
}

/* Title and labels with every character XML reserves come out escaped. */
static void test_escaping(void)
{
	double x[2] = {0, 1}, y[2] = {1, 2};
	struct sc_svg_series s[2] = {{.name = "a<b>", .x = x, .y = y, .n = 2},
				     {.name = "c&d", .x = x, .y = y, .n = 2}};
	struct sc_svg_chart c = {
	    .title = "R&D <\"q\" 'p'>", .x = {.label = "x<1> (s)"}, .y = {.label = "y&z (MB/s)"}};
	char *doc = lines(&c, s, 2);

	check_doc(doc, "escaping chart");
	CHECK(strstr(doc, "<title>R&amp;D &lt;&quot;q&quot; &#39;p&#39;&gt;</title>"),
	      "title not escaped");
	CHECK(strstr(doc, ">x&lt;1&gt; (s)<"), "x label not escaped");
	CHECK(strstr(doc, ">y&amp;z (MB/s)<"), "y label not escaped");
	CHECK(strstr(doc, ">a&lt;b&gt;<") && strstr(doc, ">c&amp;d<"), "legend not escaped");
	CHECK(strstr(doc, "width=\"720\" height=\"300\""), "default size is not 720 x 300");
	free(doc);
}

/* Where the tick labelled label of axis cls ("xtick", "ytick") is: its
 * x, or for a y tick the y of its line; NAN when there is none. */
static double tick_at(const char *doc, const char *cls, const char *label)
{
	char pat[64];

	snprintf(pat, sizeof pat, "class=\"%s\">%s</text>", cls, label);
	for (const char *p = strstr(doc, "<text "); p; p = strstr(p + 1, "<text ")) {
		const char *end = strchr(p, '\n'), *hit = strstr(p, pat);
		double x, y;

		if (end && hit && hit < end && sscanf(p, "<text x=\"%lf\" y=\"%lf\"", &x, &y) == 2)
			return cls[0] == 'x' ? x : y - 4;
	}
	return NAN;
}

/* A NAN point breaks the line into two pieces and nothing is drawn at 0. */
static void test_nan_gap(void)
{
	double x[5] = {0, 1, 2, 3, 4}, y[5] = {1, 2, NAN, 4, 5}, y0;
	struct sc_svg_series s = {.name = "one", .x = x, .y = y, .n = 5};
	struct sc_svg_chart c = {.title = "gap",
				 .x = {.label = "time (s)"},
				 .y = {.label = "bandwidth (MB/s)", .from_zero = true}};
	char *doc = lines(&c, &s, 1);
	const char *d = strstr(doc, " d=\"M");
	int moves = 0, points = 0;

	check_doc(doc, "gap chart");
	y0 = tick_at(doc, "ytick", "0");
	CHECK(isfinite(y0), "no tick at 0 on a from_zero axis");
	CHECK(d, "no line drawn");
	for (d = d ? d + 4 : NULL; d && *d && *d != '"';) {
		double px, py;
		int used;

		if (*d == 'M')
			moves++;
		if (sscanf(d + 1, "%lf %lf%n", &px, &py, &used) != 2) {
			FAIL("path data not read at \"%.20s\"", d);
			break;
		}
		points++;
		CHECK(fabs(py - y0) > 0.5, "point %d drawn at 0 (y %.1f)", points, py);
		d += 1 + used;
		while (*d == ' ')
			d++;
	}
	CHECK(moves == 2, "the line has %d pieces, want 2", moves);
	CHECK(points == 4, "%d points drawn, want 4", points);
	free(doc);
}

/* The fill of the cell whose label is label ("+10%"): the fill of the last
 * rect before it, as red, green and blue 0 .. 255; false when not found. */
static bool cell_fill(const char *doc, const char *label, unsigned rgb[3])
{
	char pat[64];
	const char *at, *fill = NULL;

	snprintf(pat, sizeof pat, ">%s</text>", label);
	at = strstr(doc, pat);
	if (!at)
		return false;
	for (const char *p = strstr(doc, "<rect "); p && p < at; p = strstr(p + 1, "<rect "))
		fill = strstr(p, "fill=\"#");
	return fill && fill < at &&
	       sscanf(fill, "fill=\"#%2x%2x%2x", &rgb[0], &rgb[1], &rgb[2]) == 3;
}

/* A sequential map of nrows block sizes (at most 2) by queue depths 1
 * and 32. */
static struct sc_svg_heatmap sweep_map(const char *title, const double *v, uint32_t nrows,
				       const char *unit)
{
	static const char *const rows[] = {"4KiB", "1MiB"}, *const cols[] = {"1", "32"};

	return (struct sc_svg_heatmap){.title = title,
				       .row_label = "block size",
				       .col_label = "queue depth",
				       .rows = rows,
				       .cols = cols,
				       .nrows = nrows,
				       .ncols = 2,
				       .v = v,
				       .cell_unit = unit};
}

/* +10% is green when higher is better, red when lower is, labelled with
 * its sign either way; a cell not measured is "-", hatched. */
static void test_diverging(void)
{
	double v[2] = {10, NAN};
	struct sc_svg_heatmap h = sweep_map("change <B/A>", v, 1, "%");
	unsigned rgb[3];
	char *doc;

	for (int lower = 0; lower < 2; lower++) {
		h.diverging = true;
		h.lower_better = lower;
		doc = heatmap(&h);
		check_doc(doc, "diverging map");
		CHECK(strstr(doc, "<title>change &lt;B/A&gt;</title>"), "title not escaped");
		if (!cell_fill(doc, "+10%", rgb)) {
			FAIL("lower_better %d: no cell labelled +10%%", lower);
		} else if (!lower) {
			CHECK(rgb[1] > rgb[0] + 20, "+10%% higher-better not green: #%02x%02x%02x",
			      rgb[0], rgb[1], rgb[2]);
		} else {
			CHECK(rgb[0] > rgb[1] + 20, "+10%% lower-better not red: #%02x%02x%02x",
			      rgb[0], rgb[1], rgb[2]);
		}
		CHECK(strstr(doc, "\">-</text>"), "the cell not measured is not labelled -");
		CHECK(strstr(doc, ">not measured<"), "no \"not measured\" in the legend");
		CHECK(strstr(doc, ">better") && strstr(doc, ">worse<"), "no better/worse legend");
		free(doc);
	}
}

/* A sequential cell prints its value as sc_svg_number does, with its unit. */
static void test_heat_values(void)
{
	double v[4] = {1234.5, 0.01234, 77, 5e6};
	struct sc_svg_heatmap h = sweep_map("bw", v, 2, "MB/s");
	char *doc = heatmap(&h), num[32], want[64];

	check_doc(doc, "heatmap");
	for (int i = 0; i < 4; i++) {
		snprintf(want, sizeof want, ">%s MB/s</text>",
			 sc_svg_number(num, sizeof num, v[i]));
		CHECK(strstr(doc, want), "no cell %s", want);
	}
	CHECK(strstr(doc, ">1230 MB/s</text>"), "1234.5 not printed as 1230 MB/s");
	CHECK(!strstr(doc, ">not measured<"), "a map with every cell measured lists not measured");
	free(doc);
}

/* p50 < p90 < p99 < p99.9 left to right, each nine as wide as the next,
 * p50 .. p90 log10(5) of one. */
static void test_nines(void)
{
	double p[4] = {50, 90, 99, 99.95}, lat[4] = {100, 200, 400, 800};
	struct sc_svg_series s = {.name = "read", .x = p, .y = lat, .n = 4, .markers = true};
	struct sc_svg_chart c = {.title = "latency",
				 .x = {.label = "percentile", .scale = SC_SVG_NINES},
				 .y = {.label = "latency (us)", .scale = SC_SVG_LOG10}};
	char *doc = lines(&c, &s, 1);
	double x50 = tick_at(doc, "xtick", "p50"), x90 = tick_at(doc, "xtick", "p90"),
	       x99 = tick_at(doc, "xtick", "p99");
	double x999 = tick_at(doc, "xtick", "p99.9"), nine = x99 - x90;

	check_doc(doc, "nines chart");
	CHECK(isfinite(x50) && isfinite(x90) && isfinite(x99) && isfinite(x999),
	      "ticks p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f", x50, x90, x99, x999);
	CHECK(x50 < x90 && x90 < x99 && x99 < x999, "ticks out of order: %.1f %.1f %.1f %.1f", x50,
	      x90, x99, x999);
	CHECK(fabs((x999 - x99) - nine) < 0.3, "p90..p99 %.1f px, p99..p99.9 %.1f px", nine,
	      x999 - x99);
	CHECK(fabs((x90 - x50) - log10(5) * nine) < 0.3, "p50..p90 %.1f px, want %.1f", x90 - x50,
	      log10(5) * nine);
	CHECK(isfinite(tick_at(doc, "xtick", "p99.99")), "axis does not reach p99.99 for p99.95");
	CHECK(!isfinite(tick_at(doc, "xtick", "p99.999")),
	      "axis goes past the nine that holds the data");
	CHECK(strstr(doc, "class=\"ytick\">100</text>") &&
		  strstr(doc, "class=\"ytick\">1000</text>"),
	      "log axis has no decade ticks 100 and 1000");
	free(doc);
}

/* No finite point: the frame and "no data", for lines and bars. */
static void test_empty(void)
{
	double x[2] = {1, 2}, y[2] = {NAN, NAN};
	struct sc_svg_series s = {.name = "none", .x = x, .y = y, .n = 2};
	struct sc_svg_chart c = {
	    .title = "empty", .x = {.label = "t (s)"}, .y = {.label = "v (x)"}};
	static const char *const labels[] = {"node1"};
	char *doc = lines(&c, NULL, 0);
	struct out o;

	check_doc(doc, "chart of no series");
	CHECK(strstr(doc, ">no data<"), "chart of no series does not say no data");
	free(doc);
	doc = lines(&c, &s, 1);
	check_doc(doc, "chart of NAN points");
	CHECK(strstr(doc, ">no data<"), "chart of NAN points does not say no data");
	CHECK(!strstr(doc, " d=\"M"), "chart of NAN points draws a line");
	free(doc);
	out_open(&o);
	sc_svg_bars(o.f, &c, labels, y, 1, 1, "slowest");
	doc = out_close(&o);
	check_doc(doc, "bars of NAN");
	CHECK(strstr(doc, ">no data<"), "bars of NAN do not say no data");
	free(doc);
}

/* The marked bar alone is hatched and carries the mark text; values carry
 * the axis unit. */
static void test_bars(void)
{
	static const char *const labels[] = {"node1", "node<2>", "node3"};
	double v[3] = {2000, 1500, 2100};
	struct sc_svg_chart c = {
	    .title = "per node", .x = {.label = "bandwidth (MB/s)"}, .y = {.label = "node"}};
	struct out o;
	char *doc;

	out_open(&o);
	sc_svg_bars(o.f, &c, labels, v, 3, 1, "slowest");
	doc = out_close(&o);
	check_doc(doc, "bars");
	CHECK(count(doc, "slowest") == 1, "mark text %d times, want once", count(doc, "slowest"));
	CHECK(strstr(doc, "node&lt;2&gt;"), "bar label not escaped");
	CHECK(count(doc, "stroke=\"#fff\" stroke-width=\"1.2\"") == 1, "not one bar hatched");
	CHECK(strstr(doc, ">1500 MB/s</text>"), "value of bar 2 not printed with its unit");
	free(doc);
	out_open(&o);
	sc_svg_bars(o.f, &c, labels, v, 3, 3, "slowest");
	doc = out_close(&o);
	CHECK(!strstr(doc, "slowest") && !strstr(doc, "stroke=\"#fff\" stroke-width=\"1.2\""),
	      "marked >= n marks a bar");
	free(doc);
}

/* Bars with marks: every bar marked is hatched and carries the mark text,
 * the others neither; the threshold is one dashed line, labelled, placed
 * where its value falls on the axis even when every bar is short of it. */
static void test_bars_marked(void)
{
	static const char *const labels[] = {"rank 0", "rank 1", "rank 2"};
	const bool below[3] = {true, false, true};
	double v[3] = {25, 95, 40};
	struct sc_svg_chart c = {.title = "AU per rank",
				 .x = {.label = "accelerator utilisation (%)"},
				 .y = {.label = "rank"}};
	struct sc_svg_bar_marks m = {
	    .marked = below, .mark_text = "below", .line_text = "AU threshold 90%", .line = 90};
	double x0, x90, x95;
	const char *at;
	struct out o;
	char *doc;

	out_open(&o);
	sc_svg_bars_marked(o.f, &c, labels, v, 3, &m);
	doc = out_close(&o);
	check_doc(doc, "marked bars");
	CHECK(count(doc, "(below)") == 2, "mark text %d times, want twice", count(doc, "(below)"));
	CHECK(count(doc, "stroke=\"#fff\" stroke-width=\"1.2\"") == 2, "not two bars hatched");
	CHECK(count(doc, "class=\"threshold\"") == 1, "not one threshold line");
	CHECK(strstr(doc, ">AU threshold 90%</text>"), "threshold line not labelled");
	CHECK(strstr(doc, "AU threshold 90% (90 %)</title>"), "threshold's value not in its title");
	/* x of the line against the axis: 0 at the bars' left, 95 at the
	 * long bar's end (value text starts 4 px past it) */
	at = strstr(doc, "class=\"threshold\" x1=\"");
	CHECK(at && sscanf(at, "class=\"threshold\" x1=\"%lf", &x90) == 1, "threshold x");
	at = strstr(doc, ">95 %</text>");
	while (at && at > doc && strncmp(at, "<text x=\"", 9))
		at--;
	CHECK(at && sscanf(at, "<text x=\"%lf", &x95) == 1, "the 95 bar's value text");
	x95 -= 4;
	at = strstr(doc, "fill=\"#d55e00\"");
	while (at && at > doc && strncmp(at, "<rect x=\"", 9))
		at--;
	CHECK(at && sscanf(at, "<rect x=\"%lf", &x0) == 1, "a marked bar's x");
	CHECK(x0 < x90 && x90 < x95 && fabs((x90 - x0) / (x95 - x0) - 90.0 / 95) < 0.01,
	      "threshold at %.1f, not 90/95 of the way from %.1f to %.1f", x90, x0, x95);
	free(doc);
	/* every bar short of the threshold: the axis still reaches it */
	v[1] = 50;
	out_open(&o);
	sc_svg_bars_marked(o.f, &c, labels, v, 3, &m);
	doc = out_close(&o);
	check_doc(doc, "bars short of the threshold");
	CHECK(strstr(doc, ">100</text>") || strstr(doc, ">90</text>"),
	      "x axis does not reach the threshold");
	free(doc);
}

/* Series differ by dash pattern as well as colour; a long title is cut to
 * the chart (the <title> keeps it whole). */
static void test_grey_and_fit(void)
{
	double x[2] = {0, 1}, y[2] = {1, 2};
	struct sc_svg_series s[3] = {{.name = "a", .x = x, .y = y, .n = 2},
				     {.name = "b", .x = x, .y = y, .n = 2},
				     {.name = "c", .x = x, .y = y, .n = 2}};
	char title[401];
	struct sc_svg_chart c = {.title = title, .x = {.label = "t (s)"}, .y = {.label = "v (x)"}};
	char *doc;

	memset(title, 'w', 400);
	title[400] = '\0';
	doc = lines(&c, s, 3);
	check_doc(doc, "three series");
	CHECK(count(doc, "stroke-dasharray=\"") >= 2 * 2, "series 1 and 2 not dashed");
	CHECK(!strstr(doc, "stroke-dasharray=\"\""), "empty dash pattern");
	CHECK(strstr(doc, title), "<title> does not hold the whole title");
	CHECK(count(doc, title) == 1, "the visible title is not cut");
	CHECK(strstr(doc, "\xe2\x80\xa6"), "the cut title has no ellipsis");
	free(doc);
}

/* The page frame: title escaped, tables, notes, NAN a "-", well-formed. */
static void test_page(void)
{
	static const char *const head[] = {"drive", "bandwidth (MB/s)"};
	struct out o;
	char *doc;

	out_open(&o);
	sc_html_page_begin(o.f, "Run <7> & \"more\"", "sub'title");
	sc_html_heading(o.f, 2, "sum&mary", "Summary <all>");
	sc_html_table_begin(o.f, "drives <x>", head, 2);
	sc_html_row_begin(o.f);
	sc_html_cell(o.f, "nvme0n1 & co");
	sc_html_num(o.f, "%.1f", 1234.56);
	sc_html_row_end(o.f);
	sc_html_row_begin(o.f);
	sc_html_cell(o.f, NULL);
	sc_html_num(o.f, "%.1f", NAN);
	sc_html_row_end(o.f);
	sc_html_table_end(o.f);
	sc_html_heading(o.f, 3, NULL, "Detail");
	sc_html_note(o.f, "a < b");
	sc_html_page_end(o.f);
	doc = out_close(&o);
	check_doc(doc, "page");
	CHECK(strstr(doc, "<title>Run &lt;7&gt; &amp; &quot;more&quot;</title>"),
	      "page title not escaped");
	CHECK(strstr(doc, "<h1>Run &lt;7&gt; &amp; &quot;more&quot;</h1>"), "h1 not escaped");
	CHECK(strstr(doc, ">sub&#39;title</p>"), "subtitle not escaped");
	CHECK(strstr(doc, "<h2 id=\"sum&amp;mary\">Summary &lt;all&gt;</h2>"), "h2 wrong");
	CHECK(strstr(doc, "<h3>Detail</h3>"), "h3 wrong");
	CHECK(strstr(doc, "<td class=\"num\">1234.6</td>"), "number cell wrong");
	CHECK(strstr(doc, "<td class=\"num\">-</td>"), "NAN cell not -");
	CHECK(strstr(doc, "<p class=\"note\">a &lt; b</p>"), "note wrong");
	CHECK(strstr(doc, "<style>"), "no inline style");
	CHECK(!strstr(doc, "<link") && !strstr(doc, "src="), "page fetches something");
	free(doc);
}


#define DENSE_N 200000
/* The chart's plot is narrower than its 720 pixels. */
#define DENSE_MAX_POINTS (4 * 720)

/* A line of 200,000 points (a slow wave with noise, one spike up, one
 * down, a gap of 10 points) drawn on a 720-pixel chart: at most 4 points
 * a pixel, broken once at the gap, and in every pixel column the highest
 * and lowest of the series' points there are drawn (within the 0.1 px the
 * path is written in), so the line looks as the whole series would. */
static void test_dense(void)
{
	double *x = xcalloc(DENSE_N, sizeof(*x)), *y = xcalloc(DENSE_N, sizeof(*y));
	double *px = xcalloc(DENSE_N, sizeof(*px)), *py = xcalloc(DENSE_N, sizeof(*py));
	double ax, bx, ay, by;
	struct sc_svg_series s = {.name = "dense", .x = x, .y = y, .n = DENSE_N};
	struct sc_svg_chart c = {.title = "dense", .x = {.label = "second"}, .y = {.label = "MB/s"}};
	uint64_t st = 42;
	int n, moves, bad_hi = 0, bad_lo = 0, cols = 0;
	char *doc;

	for (int j = 0; j < DENSE_N; j++) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		x[j] = j;
		y[j] = 500 + 200 * sin(j / 3000.0) + (double)(st % 1000) / 10;
	}
	y[31337] = 1500;
	y[123457] = -400;
	for (int j = 150000; j < 150010; j++)
		y[j] = NAN;
	doc = lines(&c, &s, 1);
	check_doc(doc, "dense chart");
	n = svg_path_points(strstr(doc, " d=\"M"), px, py, DENSE_N, &moves);
	CHECK(n > 720 && n <= DENSE_MAX_POINTS, "%d points drawn of %d (want 720 .. %d)", n,
	      DENSE_N, DENSE_MAX_POINTS);
	CHECK(moves == 2, "the line has %d pieces, want 2 (the gap)", moves);
	CHECK(strlen(doc) < 64 * DENSE_MAX_POINTS, "chart of %zu bytes", strlen(doc));
	/* the pixel of a value from the ticks */
	if (!svg_axis_line(doc, "xtick", &ax, &bx) || !svg_axis_line(doc, "ytick", &ay, &by)) {
		FAIL("the axes' ticks not read");
		goto out;
	}
	/* each pixel column of the series: something drawn as high and as
	 * low there (the column's edges blurred by the ticks' rounding) */
	for (int j0 = 0, k = 0; j0 < DENSE_N;) {
		double col = floor(ax + bx * x[j0]), top = INFINITY, bottom = -INFINITY;
		int j = j0;
		bool hi = false, lo = false;

		for (; j < DENSE_N && floor(ax + bx * x[j]) == col; j++)
			if (isfinite(y[j])) {
				top = fmin(top, ay + by * y[j]);
				bottom = fmax(bottom, ay + by * y[j]);
			}
		for (; k < n && px[k] < col - 0.5; k++)
			;
		for (int q = k; q < n && px[q] < col + 1.5; q++) {
			hi = hi || py[q] <= top + 0.3;
			lo = lo || py[q] >= bottom - 0.3;
		}
		if (isfinite(top)) {
			cols++;
			bad_hi += !hi;
			bad_lo += !lo;
		}
		j0 = j;
	}
	CHECK(cols > 500, "%d pixel columns seen", cols);
	CHECK(!bad_hi && !bad_lo, "of %d pixel columns, %d lost their highest point, %d their "
				  "lowest", cols, bad_hi, bad_lo);
out:
	free(doc);
	free(x);
	free(y);
	free(px);
	free(py);
}

int main(void)
{
	check_mkdtemp(tmpdir, sizeof tmpdir, "test_svg");
	test_number();
	test_escaping();
	test_nan_gap();
	test_dense();
	test_diverging();
	test_heat_values();
	test_nines();
	test_empty();
	test_bars();
	test_bars_marked();
	test_grey_and_fit();
	test_page();
	check_rmtree(tmpdir);
	return check_exit("test_svg");
}
