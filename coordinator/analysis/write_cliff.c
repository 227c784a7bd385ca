/* write_cliff.c -- the write cliff of a fill phase: initial rate,
 * estimated cache size and rate after the cliff (write_cliff.h). */
#include "write_cliff.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rank_series.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n), n >= 1 (the mean of the middle two when n is
 * even), sorting a copy in tmp. */
static double median(const uint64_t *v, uint32_t n, uint64_t *tmp)
{
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_u64);
	if (n % 2)
		return (double)tmp[n / 2];
	return ((double)tmp[n / 2 - 1] + (double)tmp[n / 2]) / 2;
}

/* True when bytes[k] and the seconds after it, SC_CLIFF_HOLD_SECONDS in
 * all (or to the end), are below thr. */
static bool stays_below(const uint64_t *bytes, uint32_t n, uint32_t k, double thr)
{
	for (uint32_t i = k; i < n && i < k + SC_CLIFF_HOLD_SECONDS; i++)
		if ((double)bytes[i] >= thr)
			return false;
	return true;
}

void sc_write_cliff_find(const uint64_t *bytes, uint32_t n, double f, struct sc_write_cliff *out)
{
	uint64_t tmp[SC_CLIFF_INITIAL_SECONDS], *rest;
	double thr;

	memset(out, 0, sizeof(*out));
	out->nseconds = n;
	out->fraction = f;
	if (!n)
		return;
	out->initial_bytes_per_s =
	    median(bytes, n < SC_CLIFF_INITIAL_SECONDS ? n : SC_CLIFF_INITIAL_SECONDS, tmp);
	thr = f * out->initial_bytes_per_s;
	for (uint32_t k = 1; k < n; k++) {
		out->cache_bytes += bytes[k - 1]; /* bytes before second k */
		if (!stays_below(bytes, n, k, thr))
			continue;
		out->found = true;
		out->second = k;
		rest = malloc((n - k) * sizeof(*rest));
		/* without memory for the median, the first second after */
		out->after_bytes_per_s = rest ? median(bytes + k, n - k, rest) : (double)bytes[k];
		free(rest);
		return;
	}
	out->cache_bytes = 0;
}

int sc_write_cliff_of_seconds(const struct sc_second *s, uint32_t n, uint64_t seq_bytes, double f,
			      struct sc_write_cliff *out)
{
	uint64_t *bytes = malloc((n ? n : 1) * sizeof(*bytes)), sum = 0;
	uint32_t whole = 0;
	bool reached = false;

	if (!bytes)
		return -ENOMEM;
	for (uint32_t k = 0; k < n && !reached; k++) {
		sum += s[k].bytes[SC_DIR_WRITE];
		reached = sum >= seq_bytes;
		if (!reached)
			bytes[whole++] = s[k].bytes[SC_DIR_WRITE];
	}
	if (!reached && whole)
		whole--; /* the last second, cut short by the end */
	sc_write_cliff_find(bytes, whole, f, out);
	free(bytes);
	return 0;
}

/* The smallest and largest cache among the drives with a cliff. */
static void cache_range(struct sc_fill_cliffs *c)
{
	for (uint32_t r = 0; r < c->nranks; r++) {
		const struct sc_write_cliff *w = &c->ranks[r];

		if (!w->found)
			continue;
		if (!c->ranks_with_cliff || w->cache_bytes < c->min_cache_bytes) {
			c->min_cache_bytes = w->cache_bytes;
			c->min_cache_rank = r;
		}
		if (w->cache_bytes > c->max_cache_bytes)
			c->max_cache_bytes = w->cache_bytes;
		c->ranks_with_cliff++;
	}
}

int sc_fill_cliffs(const struct sc_plan *plan, const struct sc_phase_record *pr,
		   const struct sc_phase_figures *fig, struct sc_fill_cliffs *out)
{
	const struct sc_phase *ph;
	uint64_t seq;
	double f;
	int rc;

	memset(out, 0, sizeof(*out));
	if (pr->phase >= plan->nphases || plan->phases[pr->phase].workload != SC_WORKLOAD_FILL)
		return -EINVAL;
	ph = &plan->phases[pr->phase];
	f = ph->fill.cliff_fraction;
	seq = ph->io.size_bytes * ph->fill.passes * ph->io.jobs; /* per rank */
	out->ranks = calloc(pr->nranks ? pr->nranks : 1, sizeof(*out->ranks));
	if (!out->ranks)
		return -ENOMEM;
	out->nranks = pr->nranks;
	if (sc_rank_series_dropped(pr)) {
		for (uint32_t r = 0; r < pr->nranks; r++)
			out->ranks[r] = (struct sc_write_cliff){.fraction = f, .unknown = true};
		out->ranks_unknown = pr->nranks;
	}
	for (uint32_t r = 0; r < pr->nranks && !out->ranks_unknown; r++) {
		rc = sc_write_cliff_of_seconds(pr->ranks[r].seconds, pr->ranks[r].nseconds, seq, f,
					       &out->ranks[r]);
		if (rc)
			return rc;
	}
	cache_range(out);
	if (__builtin_mul_overflow(seq, pr->nranks, &seq))
		seq = UINT64_MAX;
	return sc_write_cliff_of_seconds(fig->seconds, fig->nseconds, seq, f, &out->cluster);
}

void sc_fill_cliffs_exit(struct sc_fill_cliffs *c)
{
	free(c->ranks);
	c->ranks = NULL;
	c->nranks = 0;
}
