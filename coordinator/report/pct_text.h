/* pct_text.h -- percentiles and ratios in the printed rows, under the
 * sample rule of analysis/pct_support.h: a percentile the samples do not
 * support, an undefined volatility or ratio, prints "n/a". */
#ifndef SC_PCT_TEXT_H
#define SC_PCT_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "histogram.h"

/* Percentile index i of s as a duration ("1.23 ms"), or "n/a" when s's
 * samples do not support it.  Returns buf. */
const char *sc_report_fmt_pct(char *buf, size_t len, const struct sc_lat_summary *s, int i);

/* v x 100 with one decimal and "%" ("12.3%"), or "n/a" when v is not
 * finite (a volatility that is undefined).  Returns buf. */
const char *sc_report_fmt_share(char *buf, size_t len, double v);

/* When s has samples and some of the npts percentiles pts (in percent) are
 * not supported by them, one line "<indent>p99.9, p99.99 n/a (need 1000,
 * 10000 samples): max of 756 samples 1.23 ms"; nothing otherwise. */
void sc_report_pct_note(FILE *f, const char *indent, const struct sc_lat_summary *s,
			const double *pts, size_t npts);

#endif
