/* compare_report.h -- a comparison (analysis/compare.h) as the compare
 * command prints it, as compare.json and as compare.html.  Formatting only:
 * every figure, change and verdict comes from the comparison. */
#ifndef SC_REPORT_COMPARE_H
#define SC_REPORT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare.h"

/* The files compared, as given on the command line. */
struct sc_compare_files {
	const char *a, *b;
};

/* Per shared phase a table A | B | change; a grid of the change per sweep
 * (bandwidth and p99, by bs and iodepth for each rw); the phases of one
 * run only; the largest differences ("no difference" when none). */
void sc_report_compare_text(FILE *f, const struct sc_compare *c,
			    const struct sc_compare_files *files);

/* The largest differences, at most max lines ("no difference" when there
 * is none), with a heading; shared by the printed text and the page. */
void sc_report_compare_largest(FILE *f, const struct sc_compare *c, unsigned max);

/* compare.json's text (malloc'd, its length in *len); NULL when out of
 * memory. */
char *sc_report_compare_json(const struct sc_compare *c, const struct sc_compare_files *files,
			     size_t *len);

/* compare.html to f: difference maps of every sweep (bandwidth and p99 per
 * rw) and of the phases that are not sweep cells (bandwidth, IOPS, p50,
 * p99, p99.99), each checkpoint group's durations of A and B on one chart,
 * the tables and the largest differences. */
void sc_report_compare_html(FILE *f, const struct sc_compare *c,
			    const struct sc_compare_files *files);

#endif
