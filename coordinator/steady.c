/* steady.c -- steady-state rounds in the phase loop: rank 0 judges each
 * round's group from its record, and the rounds left are skipped on every
 * rank once every drive is steady. */
#include "steady.h"

#include <stdio.h>

#include "analysis/figures.h"
#include "report/steady_text.h"

/* Rank 0: the rounds of p's group to skip after p (0: go on). */
static int rounds_to_skip(const struct sc_phase *ph, const struct sc_run_record *rec,
			  const struct sc_run_figures *fg, bool quiet)
{
	const struct sc_steady_group *g = NULL;
	bool last = ph->steady.round >= ph->steady.max_rounds;
	int skip = 0;

	for (uint32_t k = 0; k < fg->nsteady && !g; k++)
		if (fg->steady[k].config_index == ph->config_index)
			g = &fg->steady[k];
	if (!g)
		return 0; /* not recorded (out of memory): the rounds run on */
	if (g->steady)
		skip = (int)(ph->steady.max_rounds - ph->steady.round);
	if ((g->steady || last) && !quiet) {
		sc_report_steady_text(stdout, rec, g);
		fflush(stdout);
	}
	return skip;
}

uint32_t sc_steady_after_round(struct sc_cluster *c, const struct sc_plan *plan,
			       const struct sc_run_record *rec, const struct sc_run_figures *fg,
			       uint32_t p, bool quiet)
{
	const struct sc_phase *ph = &plan->phases[p];
	int skip = 0;

	if (!ph->steady.max_rounds)
		return p;
	if (c->rank == 0)
		skip = rounds_to_skip(ph, rec, fg, quiet);
	skip = sc_cluster_bcast_int(c, skip);
	return skip > 0 && p + (uint32_t)skip < plan->nphases ? p + (uint32_t)skip : p;
}
