/* pct_text.c -- percentiles and ratios in the printed rows (pct_text.h). */
#include "pct_text.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/pct_support.h"
#include "units.h"

/* A fraction as a percentage. */
#define PERCENT 100.0

const char *sc_report_fmt_pct(char *buf, size_t len, const struct sc_lat_summary *s, int i)
{
	uint64_t ns;

	if (sc_lat_pct(s, i, &ns))
		return sc_fmt_duration(buf, len, ns);
	snprintf(buf, len, "n/a");
	return buf;
}

const char *sc_report_fmt_share(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f%%", v * PERCENT);
	else
		snprintf(buf, len, "n/a");
	return buf;
}

void sc_report_pct_note(FILE *f, const char *indent, const struct sc_lat_summary *s,
			const double *pts, size_t npts)
{
	char names[128] = "", needs[128] = "", max[32];
	size_t nn = 0, nd = 0, shown = 0;

	if (!s->count)
		return;
	for (size_t k = 0; k < npts; k++) {
		if (sc_pct_supported(pts[k], s->count))
			continue;
		nn +=
		    (size_t)snprintf(names + nn, nn < sizeof(names) ? sizeof(names) - nn : 0,
				     "%s%s", shown ? ", " : "", sc_pct_names[sc_pct_index(pts[k])]);
		nd += (size_t)snprintf(needs + nd, nd < sizeof(needs) ? sizeof(needs) - nd : 0,
				       "%s%llu", shown ? ", " : "",
				       (unsigned long long)sc_pct_min_samples(pts[k]));
		shown++;
	}
	if (!shown)
		return;
	fprintf(f, "%s%s n/a (need%s %s samples): max of %llu sample%s %s\n", indent, names,
		shown == 1 ? "s" : "", needs, (unsigned long long)s->count,
		s->count == 1 ? "" : "s", sc_fmt_duration(max, sizeof(max), s->max_ns));
}
