/* pct_support.c -- which percentiles a sample count supports (pct_support.h). */
#include "pct_support.h"

#include <math.h>
#include <stdio.h>

/* 1 / (1 - p/100) of the shown points is a whole number that floating
 * point misses by a few ulps (100 / (100 - 99.99) = 9999.999999995):
 * anything this close to the whole number below is that number. */
#define WHOLE_SLACK 1e-6

uint64_t sc_pct_min_samples(double p)
{
	double need;

	if (!(p < 100))
		return UINT64_MAX;
	if (p <= 0)
		return 1;
	need = ceil(100.0 / (100.0 - p) - WHOLE_SLACK);
	return need >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)need; /* 2^64 */
}

bool sc_pct_supported(double p, uint64_t n)
{
	return n >= sc_pct_min_samples(p);
}

bool sc_lat_pct(const struct sc_lat_summary *s, int i, uint64_t *ns)
{
	if (i < 0 || i >= SC_NPCT || !sc_pct_supported(sc_pct_points[i], s->count))
		return false;
	*ns = s->pct_ns[i];
	return true;
}

const char *sc_pct_basis(uint64_t count, char *buf, size_t len)
{
	if (!count)
		snprintf(buf, len, "no samples");
	else
		snprintf(buf, len, "max of %llu sample%s", (unsigned long long)count,
			 count == 1 ? "" : "s");
	return buf;
}
