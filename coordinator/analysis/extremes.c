/* extremes.c -- a line's points reduced to those that decide how it
 * looks (extremes.h). */
#include "extremes.h"

#include <math.h>
#include <stdbool.h>

/* The points of the run j0 .. j1 - 1 (drawn, one column) that decide its
 * look: first, lowest, highest, last, in order, each once; returns the
 * new end of keep. */
static uint32_t *run_points(const double *y, uint32_t j0, uint32_t j1, uint32_t *keep)
{
	uint32_t lo = j0, hi = j0, last = j1 - 1;

	for (uint32_t j = j0 + 1; j < j1; j++) {
		lo = y[j] < y[lo] ? j : lo;
		hi = y[j] > y[hi] ? j : hi;
	}
	*keep++ = j0;
	if (lo != j0 && hi != j0 && hi < lo) {
		*keep++ = hi;
		if (lo != last)
			*keep++ = lo;
	} else {
		if (lo != j0 && lo != last)
			*keep++ = lo;
		if (hi != j0 && hi != lo && hi != last)
			*keep++ = hi;
	}
	if (last != j0)
		*keep++ = last;
	return keep;
}

uint32_t sc_extremes_pick(const double *y, uint32_t n, sc_extremes_column_fn column,
			  const void *ctx, uint32_t *keep)
{
	uint32_t *out = keep, j0 = 0;
	double col = NAN;
	bool broken = false;

	for (uint32_t j = 0; j <= n; j++) {
		double c = j < n ? column(ctx, j) : NAN;

		if (j > j0 && (isnan(c) || c != col))
			out = run_points(y, j0, j, out);
		if (isnan(c)) {
			if (j < n && !broken)
				*out++ = SC_EXTREMES_BREAK;
			broken = true;
			j0 = j + 1;
		} else {
			broken = false;
			if (c != col)
				j0 = j;
		}
		col = c;
	}
	return (uint32_t)(out - keep);
}
