/* svg_read.h -- what a test reads back from a chart of report/svg.h: its
 * axis ticks (value and pixel) and a path's points.  Header only. */
#ifndef SC_TEST_SVG_READ_H
#define SC_TEST_SVG_READ_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every tick of class cls ("xtick", "ytick") whose label is a plain
 * number: its value and its pixel (x, or y at the label's baseline less
 * 4); returns how many, at most max. */
static inline int svg_ticks(const char *doc, const char *cls, double *val, double *px, int max)
{
	char pat[32];
	int n = 0;

	snprintf(pat, sizeof pat, "class=\"%s\">", cls);
	for (const char *p = strstr(doc, "<text "); p && n < max; p = strstr(p + 1, "<text ")) {
		const char *end = strchr(p, '\n'), *hit = strstr(p, pat);
		char *after;
		double x, y, v;

		if (!end || !hit || hit > end || sscanf(p, "<text x=\"%lf\" y=\"%lf\"", &x, &y) != 2)
			continue;
		v = strtod(hit + strlen(pat), &after);
		if (after == hit + strlen(pat) || *after != '<')
			continue;
		val[n] = v;
		px[n++] = cls[0] == 'x' ? x : y - 4;
	}
	return n;
}

/* The axis of class cls ("xtick", "ytick") as a line read from its ticks:
 * pixel = *a + *b x value; false with fewer than 3 ticks.  The last x
 * tick's label may be pulled in from the chart's edge: not used. */
static inline bool svg_axis_line(const char *doc, const char *cls, double *a, double *b)
{
	double tv[32], tp[32];
	int n = svg_ticks(doc, cls, tv, tp, 32);

	if (n < 3)
		return false;
	n -= cls[0] == 'x';
	*b = (tp[n - 1] - tp[0]) / (tv[n - 1] - tv[0]);
	*a = tp[0] - *b * tv[0];
	return true;
}

/* The points of the path data starting at d (at " d=\"M", or NULL) into
 * x, y (at most max); returns how many, and its pieces in *moves. */
static inline int svg_path_points(const char *d, double *x, double *y, int max, int *moves)
{
	int n = 0;

	*moves = 0;
	for (d = d ? d + 4 : NULL; d && *d && *d != '"' && n < max;) {
		int used;

		*moves += *d == 'M';
		if (sscanf(d + 1, "%lf %lf%n", &x[n], &y[n], &used) != 2)
			break;
		n++;
		d += 1 + used;
		while (*d == ' ')
			d++;
	}
	return n;
}

#endif
