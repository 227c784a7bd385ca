/* from_run.c -- the model a run's config asked for (its model: section),
 * projected from the run's own record: what rank 0 adds to results at the
 * end of a run, and `report` adds again from results.pb. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"
#include "result.h"

int sc_model_project_run(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 struct sc_model_projection *out, char *err, size_t errlen)
{
	struct sc_model_params p;
	struct sc_model_measured m = {0};
	int rc;

	if (!rec->plan.nmodel)
		return -ENOENT;
	sc_model_params_default(&p);
	for (uint32_t i = 0; i < rec->plan.nmodel; i++) {
		const struct sc_plan_kv *kv = &rec->plan.model[i];

		rc = sc_model_params_set(&p, kv->key, kv->value, err, errlen);
		if (rc)
			return rc; /* checked when the config was read: a damaged file */
	}
	rc = sc_model_measured_from_record(rec, fg, &m, err, errlen);
	if (!rc)
		rc = sc_model_project(&m, &p, out, err, errlen);
	sc_model_measured_free(&m);
	return rc == -ENOENT ? -EINVAL : rc;
}

/* True when the plan has a phase the model projects (checkpoint or
 * ingest); without one, its model: section holds only the drive rating of
 * the endurance figures (config/model_section.c). */
static bool plan_projects(const struct sc_plan *plan)
{
	for (uint32_t i = 0; i < plan->nphases; i++)
		if (plan->phases[i].workload == SC_WORKLOAD_CHECKPOINT ||
		    plan->phases[i].workload == SC_WORKLOAD_INGEST)
			return true;
	return false;
}

struct sc_model_projection *sc_model_of_run(const struct sc_run_record *rec,
					    const struct sc_run_figures *fg, char *why,
					    size_t whylen)
{
	struct sc_model_projection *p;
	int rc;

	if (whylen)
		why[0] = '\0';
	if (!rec->plan.nmodel || !plan_projects(&rec->plan))
		return NULL;
	p = malloc(sizeof(*p));
	rc = p ? sc_model_project_run(rec, fg, p, why, whylen) : -ENOMEM;
	if (rc) {
		if (rc == -ENOMEM || !why[0])
			snprintf(why, whylen, "%s", strerror(-rc));
		free(p);
		return NULL;
	}
	return p;
}
