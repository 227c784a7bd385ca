/* compare_report.h -- a comparison (analysis/compare.h) as the compare
 * command prints it, as compare.json and as compare.html.  Formatting only:
 * every figure, change and verdict comes from the comparison. */
#ifndef SC_REPORT_COMPARE_H
#define SC_REPORT_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/compare.h"

/* The files compared, as given on the command line. */
struct sc_compare_files {
	const char *a, *b;	    /* each side's first */
	const char *const *side[2]; /* every run's of A ([0]) and of B */
	uint32_t n[2];
};

/* Per shared phase a table A | B | change; a grid of the change per sweep
 * (bandwidth and p99, by bs and iodepth for each rw); the phases of one
 * run only; the largest differences ("no difference" when none). */
void sc_report_compare_text(FILE *f, const struct sc_compare *c,
			    const struct sc_compare_files *files);

/* One line per setting that differs between paired phases (setting, A's
 * value, B's, the pairs), each beginning "warning: "; nothing when none. */
void sc_report_compare_warnings(FILE *f, const struct sc_compare *c);

/* How the comparison decides "no difference": one line, for the text and
 * the page. */
void sc_report_compare_method(FILE *f, const struct sc_compare *c);

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
