/* test_html_temperature.c -- report.html's temperature chart: a few
 * phases overlaid, a line each with every second; more phases than the
 * chart has line styles (a 200-phase run) end to end on one line, broken
 * between phases and where no temperature was read, its hottest and
 * coolest seconds drawn where the axis ticks put them, and its size the
 * same whether the run has 12 phases or 48. */
#include "report/html_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/figures.h"
#include "check.h"
#include "report/svg.h"
#include "svg_read.h"

/* A chart's plot is narrower than its 720 pixels: at most 4 points a
 * pixel are drawn. */
#define MAX_POINTS (4 * 720)
#define HOT_C 90.0
#define COOL_C 30.0

/* Millikelvin of deg C. */
static uint64_t mk_of(double c)
{
	return (uint64_t)llround(c * SC_TEMP_MK_PER_C) + SC_TEMP_MK_OFFSET;
}

/* nphases phases of nseconds each, aggregated (sc_aggregate_phase) from
 * records whose cluster series hold the temperatures: phase i at
 * 40 + i/10 deg C plus a slow wave; the hottest second in phase
 * nphases/2, the coolest in phase 1, none read in seconds 100 .. 199 of
 * phase 0 (when it has them). */
static void make(struct sc_run_record *rec, struct sc_run_figures *fg, uint32_t nphases,
		 uint32_t nseconds)
{
	memset(rec, 0, sizeof(*rec));
	sc_run_figures_init(fg);
	rec->nphases = nphases;
	rec->phases = xcalloc(nphases, sizeof(*rec->phases));
	fg->nphases = nphases;
	fg->phases = xcalloc(nphases, sizeof(*fg->phases));
	for (uint32_t i = 0; i < nphases; i++) {
		struct sc_phase_record *pr = &rec->phases[i];
		struct sc_second *sec = xcalloc(nseconds, sizeof(*sec));

		pr->phase = i;
		pr->cluster = xcalloc(1, sizeof(*pr->cluster));
		pr->cluster->nseconds = nseconds;
		pr->cluster->seconds = sec;
		for (uint32_t k = 0; k < nseconds; k++)
			sec[k].max_temp_mk = mk_of(40 + i / 10.0 + 5 * sin(k / 600.0));
		if (i == nphases / 2)
			sec[nseconds / 3].max_temp_mk = mk_of(HOT_C);
		if (i == 1)
			sec[nseconds / 5].max_temp_mk = mk_of(COOL_C);
		for (uint32_t k = 100; i == 0 && k < 200 && k < nseconds; k++)
			sec[k].max_temp_mk = 0;
		CHECK(sc_aggregate_phase(pr, &fg->phases[i]) == 0, "phase %u not aggregated", i);
	}
}

static void drop(struct sc_run_record *rec, struct sc_run_figures *fg)
{
	for (uint32_t i = 0; i < fg->nphases; i++) {
		sc_phase_figures_exit(&fg->phases[i]);
		sc_series_exit(rec->phases[i].cluster);
		free(rec->phases[i].cluster);
	}
	free(fg->phases);
	free(rec->phases);
}

/* The chart of the run as report.html has it. */
static char *chart(uint32_t nphases, uint32_t nseconds)
{
	struct sc_run_record rec;
	struct sc_run_figures fg;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		FAIL("open_memstream");
	make(&rec, &fg, nphases, nseconds);
	CHECK(f && sc_html_temperature(f, &rec, &fg) == 0, "sc_html_temperature failed");
	if (f)
		fclose(f);
	drop(&rec, &fg);
	return text;
}

/* 3 phases of 100 s (too short for phase 0's unread seconds): a line per
 * phase, each with its 100 seconds. */
static void test_overlaid(void)
{
	char *doc = chart(3, 100);
	static double x[1000], y[1000];
	int full = 0, moves;

	CHECK(doc && strstr(doc, "by phase"), "not the chart by phase");
	for (const char *d = doc ? strstr(doc, " d=\"M") : NULL; d; d = strstr(d + 1, " d=\"M"))
		full += svg_path_points(d, x, y, 1000, &moves) == 100 && moves == 1;
	CHECK(full == 3, "%d lines of 100 seconds, want 3", full);
	free(doc);
}

/* The pixel of value v on the axis whose ticks are cls. */
static double pixel_of(const char *doc, const char *cls, double v)
{
	double a, b;

	if (!svg_axis_line(doc, cls, &a, &b)) {
		FAIL("%s: too few ticks read", cls);
		return NAN;
	}
	return a + b * v;
}

/* 12 phases of an hour, end to end. */
static void test_end_to_end(void)
{
	char *doc = chart(12, 3600);
	double *x = xcalloc(100000, sizeof(*x)), *y = xcalloc(100000, sizeof(*y));
	double top = INFINITY, bottom = -INFINITY, right = -INFINITY;
	int n, moves = 0;

	CHECK(doc && strstr(doc, "end to end"), "not the chart end to end");
	n = doc ? svg_path_points(strstr(doc, " d=\"M"), x, y, 100000, &moves) : 0;
	CHECK(n > 720 && n <= MAX_POINTS, "%d points drawn of 43,200 seconds", n);
	/* a piece per phase, phase 0 in two around its unread seconds */
	CHECK(moves == 13, "the line has %d pieces, want 13", moves);
	for (int k = 0; k < n; k++) {
		top = fmin(top, y[k]);
		bottom = fmax(bottom, y[k]);
		right = fmax(right, x[k]);
	}
	CHECK(fabs(top - pixel_of(doc, "ytick", HOT_C)) < 0.5, "the hottest second at y %.1f, "
	      "%.0f deg C at %.1f", top, HOT_C, pixel_of(doc, "ytick", HOT_C));
	CHECK(fabs(bottom - pixel_of(doc, "ytick", COOL_C)) < 0.5, "the coolest second at y %.1f, "
	      "%.0f deg C at %.1f", bottom, COOL_C, pixel_of(doc, "ytick", COOL_C));
	CHECK(fabs(right - pixel_of(doc, "xtick", 12 * 3600 - 1)) < 1.0,
	      "the last second at x %.1f, want %.1f", right, pixel_of(doc, "xtick", 12 * 3600 - 1));
	free(x);
	free(y);
	free(doc);
}

/* The chart of 48 phases is no bigger than that of 12 (within 10%). */
static void test_bounded(void)
{
	char *a = chart(12, 3600), *b = chart(48, 3600);
	size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;

	CHECK(la && lb && lb < la * 1.1, "12 phases: %zu B, 48 phases: %zu B", la, lb);
	free(a);
	free(b);
}

int main(void)
{
	test_overlaid();
	test_end_to_end();
	test_bounded();
	return check_exit("test_html_temperature");
}
