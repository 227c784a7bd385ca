/* endurance.c -- drive writes consumed by a run per drive, against the
 * rated endurance of the config's model: section (endurance.h). */
#include "endurance.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"

/* A share as a percentage. */
#define PCT 100.0

static bool in_model(const struct sc_plan *plan, const char *key)
{
	for (uint32_t i = 0; i < plan->nmodel; i++)
		if (plan->model[i].key && !strcmp(plan->model[i].key, key))
			return true;
	return false;
}

/* Drive x's figures from what the run wrote to it, d. */
static void finish(struct sc_endurance *e, const struct sc_model_params *p, bool cap_given,
		   struct sc_endurance_drive *x, const struct sc_drive_writes_drive *d)
{
	const struct sc_drive_health *h0 = &d->before, *h1 = &d->after;

	memset(x, 0, sizeof(*x));
	x->node = d->node;
	memcpy(x->host, d->host, sizeof(x->host));
	x->target = d->target;
	x->first_rank = d->first_rank;
	x->nranks = d->nranks;
	x->nvme = d->nvme;
	memcpy(x->device, d->device, sizeof(x->device));
	memcpy(x->model, d->model, sizeof(x->model));
	memcpy(x->serial, d->serial, sizeof(x->serial));
	x->counted_bytes = d->counted_bytes;
	x->capacity_bytes = d->capacity_bytes;
	x->source = SC_ENDURANCE_COUNTED;
	x->written_bytes = x->counted_bytes;
	if (x->nvme && h0->valid && h1->valid && h1->data_units_written >= h0->data_units_written) {
		uint64_t units = h1->data_units_written - h0->data_units_written;

		x->source = SC_ENDURANCE_SMART;
		if (__builtin_mul_overflow(units, SC_NVME_DATA_UNIT_BYTES, &x->written_bytes))
			x->written_bytes = UINT64_MAX;
	}
	if (x->nvme && h0->valid && h1->valid) {
		x->pct_known = true;
		x->pct_used_before = h0->percentage_used;
		x->pct_used_after = h1->percentage_used;
	}
	if (cap_given || !x->capacity_bytes) {
		x->capacity_from_config = cap_given;
		x->capacity_bytes = cap_given ? p->drive_capacity_bytes : 0;
	}
	x->drive_writes = x->rated_bytes = x->life_used_pct = NAN;
	if (x->capacity_bytes) {
		x->drive_writes = (double)x->written_bytes / (double)x->capacity_bytes;
		x->rated_bytes = e->dwpd * SC_ENDURANCE_DAYS_PER_YEAR * e->warranty_years *
				 (double)x->capacity_bytes;
		x->life_used_pct = (double)x->written_bytes / x->rated_bytes * PCT;
	}
}

static int by_node_rank(const void *pa, const void *pb)
{
	const struct sc_endurance_drive *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->first_rank != b->first_rank)
		return a->first_rank < b->first_rank ? -1 : 1;
	return strcmp(a->device, b->device);
}

int sc_endurance_of_writes(const struct sc_drive_writes *w, const struct sc_plan *plan,
			   struct sc_endurance *out, char *err, size_t errlen)
{
	struct sc_model_params p;
	bool cap_given;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	sc_model_params_default(&p);
	for (uint32_t i = 0; i < plan->nmodel && !rc; i++)
		rc = sc_model_params_set(&p, plan->model[i].key, plan->model[i].value, err, errlen);
	if (rc)
		return rc == -ENOMEM ? rc : -EINVAL;
	out->dwpd = p.dwpd;
	out->warranty_years = p.warranty_years;
	out->rating_from_config = in_model(plan, "dwpd") || in_model(plan, "warranty");
	if (!w->n)
		return 0;
	out->drives = malloc((size_t)w->n * sizeof(*out->drives));
	if (!out->drives)
		return -ENOMEM;
	out->ndrives = w->n;
	cap_given = in_model(plan, "drive_capacity");
	for (uint32_t i = 0; i < w->n; i++)
		finish(out, &p, cap_given, &out->drives[i], &w->drives[i]);
	qsort(out->drives, out->ndrives, sizeof(*out->drives), by_node_rank);
	return 0;
}

int sc_endurance_of_run(const struct sc_run_record *rec, struct sc_endurance *out, char *err,
			size_t errlen)
{
	struct sc_drive_writes w;
	int rc = 0;

	sc_drive_writes_init(&w);
	for (uint32_t ph = 0; ph < rec->nphases && !rc; ph++)
		rc = sc_drive_writes_add(&w, &rec->phases[ph]);
	if (rc)
		memset(out, 0, sizeof(*out));
	else
		rc = sc_endurance_of_writes(&w, &rec->plan, out, err, errlen);
	sc_drive_writes_exit(&w);
	return rc;
}

void sc_endurance_exit(struct sc_endurance *e)
{
	free(e->drives);
	memset(e, 0, sizeof(*e));
}
