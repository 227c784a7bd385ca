/* figures.c -- the run's figures object: each phase aggregated and its
 * workload figures built once, and added once to the figures that span
 * phases (figures.h). */
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
	sc_steady_groups_free(f->steady, f->nsteady);
	f->steady = NULL;
	f->nsteady = 0;
	sc_training_groups_free(f->training, f->ntraining);
	f->training = NULL;
	f->ntraining = 0;
	sc_verdict_exit(&f->verdict);
	sc_ckpt_groups_free(f->ckpt, f->nckpt);
	f->ckpt = NULL;
	f->nckpt = 0;
	sc_sweeps_exit(&f->sweeps);
	sc_outliers_exit(&f->outliers);
	sc_inventory_exit(&f->inventory);
	sc_drive_writes_exit(&f->writes);
	f->nspanned = 0;
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
	sc_names_exit(&f->names);
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

		/* a thinned phase's figures cannot be made again: only after
		 * running out of memory are they asked for */
		if (pr->nranks && !pr->ranks)
			return -ENOMEM;
		if (sc_aggregate_phase(pr, fig))
			return -ENOMEM;
		if (sc_workload_figures_of(&rec->plan, pr, fig, &f->work[f->nphases])) {
			sc_phase_figures_exit(fig);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Adds rec->phases[i] (aggregated in f) to the figures that grow by a
 * phase. */
static int span_phase(struct sc_run_figures *f, const struct sc_run_record *rec, uint32_t i)
{
	const struct sc_phase_record *pr = &rec->phases[i];
	int err = sc_ckpt_groups_add(&f->ckpt, &f->nckpt, &rec->plan, pr, &f->work[i]);

	if (!err && f->sweeps.n)
		err = sc_sweeps_add(&f->sweeps, pr, &f->phases[i]);
	if (!err)
		err = sc_outliers_add(&f->outliers, rec, pr, &f->phases[i]);
	if (!err)
		err = sc_inventory_add(&f->inventory, rec->nranks, pr);
	if (!err)
		err = sc_drive_writes_add(&f->writes, pr);
	if (!err)
		err = sc_steady_groups_add(&f->steady, &f->nsteady, &rec->plan, pr, &f->phases[i]);
	if (!err)
		err = sc_training_groups_add(&f->training, &f->ntraining, &rec->plan, pr, i,
					     &f->work[i].training);
	if (!err)
		err = sc_verdict_add(&f->verdict, rec, f->phases, f->work, f->steady, f->nsteady, i);
	return err;
}

int sc_run_figures_update(struct sc_run_figures *f, const struct sc_run_record *rec)
{
	int err;

	if (rec->nphases < f->nphases)
		sc_run_figures_exit(f);
	err = add_phases(f, rec);
	if (!err && !f->nspanned) {
		spans_exit(f);
		sc_outliers_init(&f->outliers, &rec->plan);
		sc_drive_writes_init(&f->writes);
		err = sc_sweeps_init(&f->sweeps, &rec->plan);
	}
	for (; !err && f->nspanned < f->nphases; f->nspanned++)
		err = span_phase(f, rec, f->nspanned);
	f->stages_shown = sc_stages_shown(&rec->plan);
	if (err)
		sc_run_figures_exit(f);
	return err;
}

int sc_run_figures_thin(struct sc_run_figures *f, uint32_t i)
{
	return i < f->nphases ? sc_phase_figures_thin(&f->phases[i], &f->names) : 0;
}

int sc_run_figures_of(struct sc_run_figures *f, const struct sc_run_record *rec)
{
	sc_run_figures_init(f);
	return sc_run_figures_update(f, rec);
}
