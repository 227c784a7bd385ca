/* figures.c -- the run's figures object: each phase aggregated and its
 * workload figures built once, the figures that span phases built from
 * theirs (figures.h). */
#include "figures.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void sc_run_figures_init(struct sc_run_figures *f)
{
	memset(f, 0, sizeof(*f));
}

/* Frees what spans phases, keeping the phases' figures. */
static void spans_exit(struct sc_run_figures *f)
{
	sc_ckpt_groups_free(f->ckpt, f->nckpt);
	f->ckpt = NULL;
	f->nckpt = 0;
	sc_sweeps_exit(&f->sweeps);
	sc_steady_groups_free(f->steady, f->nsteady);
	f->steady = NULL;
	f->nsteady = 0;
	sc_verdict_exit(&f->verdict);
	sc_outliers_exit(&f->outliers);
	sc_inventory_exit(&f->inventory);
}

void sc_run_figures_exit(struct sc_run_figures *f)
{
	spans_exit(f);
	for (uint32_t i = 0; i < f->nphases; i++) {
		sc_phase_figures_exit(&f->phases[i]);
		sc_workload_figures_exit(&f->work[i]);
	}
	free(f->phases);
	free(f->work);
	memset(f, 0, sizeof(*f));
}

/* The figures of rec's phases not yet in f. */
static int add_phases(struct sc_run_figures *f, const struct sc_run_record *rec)
{
	if (rec->nphases > f->cap) {
		uint32_t cap = f->cap ? f->cap : 16;
		struct sc_phase_figures *grown;
		struct sc_workload_figures *work;

		while (cap < rec->nphases)
			cap *= 2;
		grown = realloc(f->phases, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		f->phases = grown;
		work = realloc(f->work, cap * sizeof(*work));
		if (!work)
			return -ENOMEM;
		f->work = work;
		f->cap = cap;
	}
	for (; f->nphases < rec->nphases; f->nphases++) {
		const struct sc_phase_record *pr = &rec->phases[f->nphases];
		struct sc_phase_figures *fig = &f->phases[f->nphases];

		if (sc_aggregate_phase(pr, fig))
			return -ENOMEM;
		if (sc_workload_figures_of(&rec->plan, pr, fig, &f->work[f->nphases])) {
			sc_phase_figures_exit(fig);
			return -ENOMEM;
		}
	}
	return 0;
}

int sc_run_figures_update(struct sc_run_figures *f, const struct sc_run_record *rec)
{
	int err;

	spans_exit(f);
	if (rec->nphases < f->nphases)
		sc_run_figures_exit(f);
	err = add_phases(f, rec);
	if (!err)
		err = sc_ckpt_groups(rec, f->work, &f->ckpt, &f->nckpt);
	if (!err)
		err = sc_sweeps_of(&f->sweeps, rec, f->phases);
	if (!err)
		err = sc_steady_groups(rec, f->phases, &f->steady, &f->nsteady);
	if (!err)
		err = sc_verdict_of_run(rec, f->phases, f->work, &f->verdict);
	if (!err)
		err = sc_outliers_of_run(rec, f->phases, &f->outliers);
	if (!err)
		err = sc_inventory_of_run(rec, &f->inventory);
	f->stages_shown = sc_stages_shown(&rec->plan);
	if (err)
		sc_run_figures_exit(f);
	return err;
}

int sc_run_figures_of(struct sc_run_figures *f, const struct sc_run_record *rec)
{
	sc_run_figures_init(f);
	return sc_run_figures_update(f, rec);
}
