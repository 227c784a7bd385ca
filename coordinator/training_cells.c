/* training_cells.c -- a search's trials and runs' cells in the phase loop
 * (training_cells.h). */
#include "training_cells.h"

#include <stdio.h>

#include "analysis/training_groups.h"
#include "report/training_text.h"

/* Rank 0: the next trial's accelerators per rank after phase ph (0: the
 * search is over), its lines printed unless quiet. */
static int next_trial(const struct sc_phase *ph, const struct sc_run_record *rec,
		      const struct sc_run_figures *fg, bool quiet)
{
	const struct sc_training_group *g =
	    sc_training_group_find(fg->training, fg->ntraining, ph->config_index);

	if (!g || !g->ncells) {
		if (!quiet)
			printf("  %s: the trial was not recorded (out of memory): the search "
			       "ends\n",
			       ph->name);
		return 0;
	}
	if (!quiet) {
		sc_report_training_cell(stdout, rec, g, g->ncells - 1);
		if (g->done)
			sc_report_training_group(stdout, g);
		fflush(stdout);
	}
	return g->done ? 0 : (int)g->next_per_rank;
}

/* Rank 0: runs: W+M, after the last their mean (each run's own line is
 * its phase's). */
static void print_run(const struct sc_phase *ph, const struct sc_run_figures *fg, bool quiet)
{
	const struct sc_training_group *g =
	    sc_training_group_find(fg->training, fg->ntraining, ph->config_index);

	if (quiet || !g || !g->ncells || ph->training.run != ph->training.warmups + ph->training.runs)
		return;
	sc_report_training_group(stdout, g);
	fflush(stdout);
}

uint32_t sc_training_after_cell(struct sc_cluster *c, struct sc_plan *plan,
				const struct sc_run_record *rec, const struct sc_run_figures *fg,
				uint32_t p, bool quiet)
{
	const struct sc_phase *ph = &plan->phases[p];
	int next = 0;

	if (ph->workload != SC_WORKLOAD_TRAINING)
		return p;
	if (ph->training.runs) {
		if (c->rank == 0)
			print_run(ph, fg, quiet);
		return p;
	}
	if (!ph->training.search_max)
		return p;
	if (c->rank == 0)
		next = next_trial(ph, rec, fg, quiet);
	next = sc_cluster_bcast_int(c, next);
	if (next > 0 && ph->cell + 1 < ph->ncells && p + 1 < plan->nphases) {
		struct sc_training_spec *t = &plan->phases[p + 1].training;

		t->accelerators_per_rank = (uint32_t)next;
		t->accelerators = (uint32_t)c->nranks * (uint32_t)next;
		return p;
	}
	/* over (or, out of trials, a search that did not converge: cannot
	 * happen, the plan holds the most trials any answer takes) */
	return p + (ph->ncells - 1 - ph->cell);
}
