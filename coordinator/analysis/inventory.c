/* inventory.c -- the drives of a run, each once per node with its ranks
 * (inventory.h). */
#include "inventory.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The entry of drive d (NULL: no NVMe, on target) on node, or NULL. */
static struct sc_inventory_entry *find(struct sc_inventory *inv, uint32_t node, uint32_t target,
				       const struct sc_drive *d)
{
	for (uint32_t i = 0; i < inv->n; i++) {
		struct sc_inventory_entry *x = &inv->entries[i];

		if (x->node != node || (x->drive != NULL) != (d != NULL))
			continue;
		if (d ? !strcmp(x->drive->device, d->device) : x->target == target)
			return x;
	}
	return NULL;
}

static int add_rank(struct sc_inventory_entry *x, uint32_t rank)
{
	uint32_t *r;

	for (uint32_t i = 0; i < x->nranks; i++)
		if (x->ranks[i] == rank)
			return 0;
	r = realloc(x->ranks, (x->nranks + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	x->ranks = r;
	x->ranks[x->nranks++] = rank;
	return 0;
}

/* Rank row r's drive d (or its reason when d is NULL) into inv. */
static int add(struct sc_inventory *inv, const struct sc_rank_result *r, const struct sc_drive *d)
{
	struct sc_inventory_entry *x = find(inv, r->node, r->target, d);

	if (!x) {
		x = realloc(inv->entries, (inv->n + 1) * sizeof(*x));
		if (!x)
			return -ENOMEM;
		inv->entries = x;
		x = &inv->entries[inv->n++];
		*x = (struct sc_inventory_entry){.node = r->node,
						 .host = r->host,
						 .target = r->target,
						 .drive = d,
						 .none = d ? NULL : r->telemetry_none};
	}
	return add_rank(x, r->rank);
}

int sc_inventory_add(struct sc_inventory *inv, uint32_t nranks, const struct sc_phase_record *pr)
{
	int rc = 0;

	if (!inv->listed) {
		inv->listed = calloc(nranks ? nranks : 1, sizeof(*inv->listed));
		if (!inv->listed)
			return -ENOMEM;
		inv->nlisted = nranks;
	}
	for (uint32_t i = 0; i < pr->nranks && !rc; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		if ((r->rank < inv->nlisted && inv->listed[r->rank]) ||
		    (!r->ndrives && !r->telemetry_none[0]))
			continue; /* listed, or this row never looked */
		for (uint32_t k = 0; k < r->ndrives && r->drives && !rc; k++)
			rc = add(inv, r, &r->drives[k]);
		if (!r->ndrives && !rc)
			rc = add(inv, r, NULL);
		if (r->rank < inv->nlisted)
			inv->listed[r->rank] = true;
	}
	return rc;
}

int sc_inventory_of_run(const struct sc_run_record *rec, struct sc_inventory *inv)
{
	int rc = 0;

	memset(inv, 0, sizeof(*inv));
	for (uint32_t p = 0; p < rec->nphases && !rc; p++)
		rc = sc_inventory_add(inv, rec->nranks, &rec->phases[p]);
	if (rc)
		sc_inventory_exit(inv);
	return rc;
}

void sc_inventory_exit(struct sc_inventory *inv)
{
	for (uint32_t i = 0; i < inv->n; i++)
		free(inv->entries[i].ranks);
	free(inv->entries);
	free(inv->listed);
	memset(inv, 0, sizeof(*inv));
}
