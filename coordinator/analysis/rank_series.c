/* rank_series.c -- whether a phase record holds its ranks' own series
 * (rank_series.h). */
#include "rank_series.h"

#include <stdio.h>

bool sc_rank_series_dropped(const struct sc_phase_record *pr)
{
	if (!pr->cluster || !pr->cluster->nseconds)
		return false;
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].nseconds)
			return false;
	return pr->nranks > 0;
}

const char *sc_rank_series_why(const struct sc_phase_record *pr, char *buf, size_t len)
{
	uint32_t s = pr->cluster ? pr->cluster->nseconds : 0;

	if (sc_series_kept(pr->nranks, s, SC_RANK_SERIES_MAX))
		snprintf(buf, len, "not in the record (its rows came without their seconds)");
	else
		snprintf(buf, len,
			 "not kept: ranks x seconds (%u x %u) past SC_RANK_SERIES_MAX (%u)",
			 pr->nranks, s, SC_RANK_SERIES_MAX);
	return buf;
}

uint64_t sc_rank_max_temp_mk(const struct sc_rank_result *r)
{
	uint64_t mk = 0;

	for (uint32_t k = 0; k < r->nseconds && r->seconds; k++)
		if (r->seconds[k].max_temp_mk > mk)
			mk = r->seconds[k].max_temp_mk;
	return mk;
}
