/* endurance.c -- drive writes consumed by a run per drive, against the
 * rated endurance of the config's model: section (endurance.h). */
#include "endurance.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project.h"

/* A share as a percentage. */
#define PCT 100.0

/* What is gathered of a drive across the phases before its figures. */
struct acc {
	struct sc_drive_health before; /* the first phase it was in */
	struct sc_drive_health after;  /* the last */
	uint32_t rows;		       /* its rank rows in the phase being read */
};

struct builder {
	struct sc_endurance *e;
	struct acc *acc;
	uint32_t cap;
};

static bool in_model(const struct sc_plan *plan, const char *key)
{
	for (uint32_t i = 0; i < plan->nmodel; i++)
		if (plan->model[i].key && !strcmp(plan->model[i].key, key))
			return true;
	return false;
}

/* The drive of node with device dev (NVMe), or of target t (none). */
static int find(struct builder *b, const struct sc_rank_result *r, const struct sc_drive *dev)
{
	struct sc_endurance *e = b->e;

	for (uint32_t i = 0; i < e->ndrives; i++) {
		const struct sc_endurance_drive *x = &e->drives[i];

		if (x->node == r->node && x->nvme == (dev != NULL) &&
		    (dev ? !strcmp(x->device, dev->device) : x->target == r->target))
			return (int)i;
	}
	return -1;
}

/* The drive's slot, added (identity from r and dev) when new. */
static struct sc_endurance_drive *slot(struct builder *b, const struct sc_rank_result *r,
				       const struct sc_drive *dev, struct acc **acc)
{
	struct sc_endurance *e = b->e;
	struct sc_endurance_drive *x;
	int i = find(b, r, dev);

	if (i < 0) {
		if (e->ndrives == b->cap) {
			uint32_t cap = b->cap ? b->cap * 2 : 8;
			void *d = realloc(e->drives, cap * sizeof(*e->drives));
			void *a = d ? realloc(b->acc, cap * sizeof(*b->acc)) : NULL;

			if (d)
				e->drives = d;
			if (!a)
				return NULL;
			b->acc = a;
			b->cap = cap;
		}
		i = (int)e->ndrives++;
		x = &e->drives[i];
		memset(x, 0, sizeof(*x));
		memset(&b->acc[i], 0, sizeof(b->acc[i]));
		x->node = r->node;
		snprintf(x->host, sizeof(x->host), "%s", r->host);
		x->target = r->target;
		x->first_rank = r->rank;
		if (dev) {
			x->nvme = true;
			memcpy(x->device, dev->device, sizeof(x->device));
			memcpy(x->model, dev->model, sizeof(x->model));
			memcpy(x->serial, dev->serial, sizeof(x->serial));
			x->capacity_bytes = dev->capacity_bytes;
			b->acc[i].before = dev->before;
		}
	}
	x = &e->drives[i];
	*acc = &b->acc[i];
	if (r->rank < x->first_rank)
		x->first_rank = r->rank;
	return x;
}

/* One rank row of a phase: its written bytes onto each of its drives. */
static int add_row(struct builder *b, const struct sc_rank_result *r)
{
	uint32_t n = r->ndrives && r->drives ? r->ndrives : 1;

	/* a row no rank filled (a phase that timed out) names no drive */
	if (!r->ndrives && !r->telemetry_none[0] && !r->bytes[SC_DIR_WRITE])
		return 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct sc_drive *dev = r->ndrives && r->drives ? &r->drives[k] : NULL;
		struct acc *a;
		struct sc_endurance_drive *x = slot(b, r, dev, &a);

		if (!x)
			return -ENOMEM;
		if (__builtin_add_overflow(x->counted_bytes, r->bytes[SC_DIR_WRITE],
					   &x->counted_bytes))
			x->counted_bytes = UINT64_MAX;
		if (dev)
			a->after = dev->after;
		a->rows++;
	}
	return 0;
}

/* The figures of drive i once every phase is in. */
static void finish(struct sc_endurance *e, const struct sc_model_params *p, bool cap_given,
		   struct sc_endurance_drive *x, const struct acc *a)
{
	const struct sc_drive_health *h0 = &a->before, *h1 = &a->after;

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

int sc_endurance_of_run(const struct sc_run_record *rec, struct sc_endurance *out, char *err,
			size_t errlen)
{
	struct builder b = {.e = out};
	struct sc_model_params p;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	sc_model_params_default(&p);
	for (uint32_t i = 0; i < rec->plan.nmodel && !rc; i++)
		rc = sc_model_params_set(&p, rec->plan.model[i].key, rec->plan.model[i].value, err,
					 errlen);
	if (rc)
		return rc == -ENOMEM ? rc : -EINVAL;
	out->dwpd = p.dwpd;
	out->warranty_years = p.warranty_years;
	out->rating_from_config = in_model(&rec->plan, "dwpd") || in_model(&rec->plan, "warranty");
	for (uint32_t ph = 0; ph < rec->nphases && !rc; ph++) {
		const struct sc_phase_record *pr = &rec->phases[ph];

		for (uint32_t i = 0; i < out->ndrives; i++)
			b.acc[i].rows = 0;
		for (uint32_t i = 0; i < pr->nranks && !rc; i++)
			rc = add_row(&b, &pr->ranks[i]);
		for (uint32_t i = 0; i < out->ndrives; i++)
			if (b.acc[i].rows > out->drives[i].nranks)
				out->drives[i].nranks = b.acc[i].rows;
	}
	for (uint32_t i = 0; i < out->ndrives && !rc; i++)
		finish(out, &p, in_model(&rec->plan, "drive_capacity"), &out->drives[i], &b.acc[i]);
	free(b.acc);
	if (rc) {
		sc_endurance_exit(out);
		return rc;
	}
	if (out->ndrives)
		qsort(out->drives, out->ndrives, sizeof(*out->drives), by_node_rank);
	return 0;
}

void sc_endurance_exit(struct sc_endurance *e)
{
	free(e->drives);
	memset(e, 0, sizeof(*e));
}
