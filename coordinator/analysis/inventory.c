/* inventory.c -- the drives of a run, each once per node with its ranks,
 * an entry found through a drive index and its text copied into blocks
 * the inventory owns (inventory.h). */
#include "inventory.h"

#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of a block of text: the drives and strings of some hundreds of
 * NVMe entries. */
#define TEXT_BLOCK_BYTES 65536u

/* Copies of the entries' strings and drives, in blocks never moved (the
 * entries point into them), freed with the inventory. */
struct sc_inventory_text {
	struct sc_inventory_text *next; /* the block before */
	size_t used, size;
	alignas(struct sc_inventory_drive) unsigned char bytes[];
};

/* len bytes of inv's text at a multiple of align (at most that of a
 * drive), or NULL when out of memory. */
static void *text_alloc(struct sc_inventory *inv, size_t len, size_t align)
{
	struct sc_inventory_text *b = inv->text;
	size_t at = b ? (b->used + align - 1) / align * align : 0;

	if (!b || at > b->size || b->size - at < len) {
		size_t size = len > TEXT_BLOCK_BYTES ? len : TEXT_BLOCK_BYTES;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->next = inv->text;
		b->size = size;
		inv->text = b;
		at = 0;
	}
	b->used = at + len;
	return b->bytes + at;
}

/* A copy of s (an array of max bytes, its string perhaps filling it) in
 * inv's text, or NULL when out of memory. */
static const char *text_copy(struct sc_inventory *inv, const char *s, size_t max)
{
	size_t len = strnlen(s, max);
	char *t = text_alloc(inv, len + 1, 1);

	if (t) {
		memcpy(t, s, len);
		t[len] = '\0';
	}
	return t;
}

/* A copy of NVMe drive d's identity in inv's text, or NULL. */
static const struct sc_inventory_drive *drive_copy(struct sc_inventory *inv,
						   const struct sc_drive *d)
{
	struct sc_inventory_drive *x =
	    text_alloc(inv, sizeof(*x), alignof(struct sc_inventory_drive));

	if (!x)
		return NULL;
	x->device = text_copy(inv, d->device, sizeof(d->device));
	x->controller = text_copy(inv, d->controller, sizeof(d->controller));
	x->model = text_copy(inv, d->model, sizeof(d->model));
	x->serial = text_copy(inv, d->serial, sizeof(d->serial));
	x->firmware = text_copy(inv, d->firmware, sizeof(d->firmware));
	x->capacity_bytes = d->capacity_bytes;
	if (!x->device || !x->controller || !x->model || !x->serial || !x->firmware)
		return NULL;
	return x;
}

static struct sc_drive_key key_of(const void *items, uint32_t i)
{
	const struct sc_inventory_entry *x = (const struct sc_inventory_entry *)items + i;

	return (struct sc_drive_key){
	    .node = x->node, .target = x->target, .device = x->drive ? x->drive->device : NULL};
}

/* Appends rank to x's ranks unless it is there.  A listed rank comes from
 * one row whose drives are added in turn, so its repeat (two drives of the
 * row in one entry) is x's last rank; a rank beyond those listed (only
 * then is once false) may come again in any phase. */
static int add_rank(struct sc_inventory_entry *x, uint32_t rank, bool once)
{
	if (x->nranks && x->ranks[x->nranks - 1] == rank)
		return 0;
	for (uint32_t i = 0; !once && i < x->nranks; i++)
		if (x->ranks[i] == rank)
			return 0;
	if (!(x->nranks & (x->nranks - 1))) { /* 0 or a power of 2: full */
		uint32_t *r =
		    realloc(x->ranks, (x->nranks ? 2 * (size_t)x->nranks : 1) * sizeof(*r));

		if (!r)
			return -ENOMEM;
		x->ranks = r;
	}
	x->ranks[x->nranks++] = rank;
	return 0;
}

/* Rank row r's drive d (or its reason when d is NULL) into inv. */
static int add(struct sc_inventory *inv, const struct sc_rank_result *r, const struct sc_drive *d,
	       bool once)
{
	struct sc_drive_key k = {
	    .node = r->node, .target = r->target, .device = d ? d->device : NULL};
	struct sc_inventory_entry *x;
	uint32_t *s;

	if (inv->n == inv->cap) {
		x = sc_drive_index_grow(&inv->index, inv->entries, sizeof(*x), &inv->cap, inv->n,
					key_of);
		if (!x)
			return -ENOMEM;
		inv->entries = x;
	}
	s = sc_drive_index_slot(&inv->index, &k, key_of, inv->entries);
	if (*s)
		return add_rank(&inv->entries[*s - 1], r->rank, once);
	x = &inv->entries[inv->n];
	*x = (struct sc_inventory_entry){
	    .node = r->node, .target = r->target, .host = text_copy(inv, r->host, sizeof(r->host))};
	if (d)
		x->drive = drive_copy(inv, d);
	else
		x->none = text_copy(inv, r->telemetry_none, sizeof(r->telemetry_none));
	if (!x->host || !(x->drive || x->none))
		return -ENOMEM;
	*s = ++inv->n;
	return add_rank(x, r->rank, once);
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
		bool once = r->rank < inv->nlisted;

		if ((once && inv->listed[r->rank]) || (!r->ndrives && !r->telemetry_none[0]))
			continue; /* listed, or this row never looked */
		for (uint32_t k = 0; k < r->ndrives && r->drives && !rc; k++)
			rc = add(inv, r, &r->drives[k], once);
		if (!r->ndrives && !rc)
			rc = add(inv, r, NULL, once);
		if (once)
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
	sc_drive_index_exit(&inv->index);
	while (inv->text) {
		struct sc_inventory_text *b = inv->text;

		inv->text = b->next;
		free(b);
	}
	free(inv->listed);
	memset(inv, 0, sizeof(*inv));
}
