/* extremes.h -- a line's points reduced to the ones that decide how it
 * looks (extremes.c): in each column (a pixel of a chart, or a span of
 * seconds) the first, lowest, highest and last point, in order, and the
 * breaks where points are not drawn.  A line of a million seconds drawn
 * this way looks as the whole line would, in a path bounded by its
 * columns. */
#ifndef SC_ANALYSIS_EXTREMES_H
#define SC_ANALYSIS_EXTREMES_H

#include <stdint.h>

/* In sc_extremes_pick's output: the line breaks here. */
#define SC_EXTREMES_BREAK UINT32_MAX

/* The column of point j (never decreasing along the line), or NAN when
 * point j is not drawn (the line breaks there); ctx is the caller's. */
typedef double (*sc_extremes_column_fn)(const void *ctx, uint32_t j);

/* The indices of the points of y[0 .. n) to draw, in order, into keep
 * (room for n): of each run of drawn points in one column its first,
 * lowest, highest and last (each once); SC_EXTREMES_BREAK for each run
 * of points not drawn.  Returns how many were written. */
uint32_t sc_extremes_pick(const double *y, uint32_t n, sc_extremes_column_fn column,
			  const void *ctx, uint32_t *keep);

#endif
