/* drive_index.c -- drives found by an FNV-1a hash of (node, device or
 * target) in open-addressed slots (drive_index.h). */
#include "drive_index.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"

/* FNV-1a 64's offset basis and prime. */
#define FNV_OFFSET UINT64_C(14695981039346656037)
#define FNV_PRIME  UINT64_C(1099511628211)

/* Drives the first growth makes room for. */
#define FIRST_CAP 8u

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * FNV_PRIME;
	return h;
}

static uint64_t key_hash(const struct sc_drive_key *k)
{
	uint64_t h = fnv(FNV_OFFSET, &k->node, sizeof(k->node));
	unsigned char nvme = k->device != NULL;

	h = fnv(h, &nvme, 1);
	if (k->device)
		return fnv(h, k->device, strnlen(k->device, SC_DRIVE_NAME_MAX));
	return fnv(h, &k->target, sizeof(k->target));
}

static bool key_eq(const struct sc_drive_key *a, const struct sc_drive_key *b)
{
	if (a->node != b->node || (a->device != NULL) != (b->device != NULL))
		return false;
	return a->device ? !strncmp(a->device, b->device, SC_DRIVE_NAME_MAX)
			 : a->target == b->target;
}

uint32_t *sc_drive_index_slot(const struct sc_drive_index *ix, const struct sc_drive_key *k,
			      sc_drive_key_of_fn key_of, const void *items)
{
	uint32_t mask = ix->nslots - 1;

	for (uint32_t i = (uint32_t)key_hash(k) & mask;; i = (i + 1) & mask) {
		uint32_t *s = &ix->slots[i];
		struct sc_drive_key x;

		if (!*s)
			return s;
		x = key_of(items, *s - 1);
		if (key_eq(k, &x))
			return s;
	}
}

/* ix rebuilt with room for cap drives, over items' first n.  0 or -ENOMEM
 * (ix unchanged). */
static int fit(struct sc_drive_index *ix, uint32_t cap, uint32_t n, sc_drive_key_of_fn key_of,
	       const void *items)
{
	struct sc_drive_index grown = {.nslots = ix->nslots ? ix->nslots : 1};

	while (grown.nslots < 2 * cap)
		grown.nslots *= 2;
	grown.slots = calloc(grown.nslots, sizeof(*grown.slots));
	if (!grown.slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct sc_drive_key k = key_of(items, i);

		*sc_drive_index_slot(&grown, &k, key_of, items) = i + 1;
	}
	free(ix->slots);
	*ix = grown;
	return 0;
}

void *sc_drive_index_grow(struct sc_drive_index *ix, void *items, size_t size, uint32_t *cap,
			  uint32_t n, sc_drive_key_of_fn key_of)
{
	uint32_t room = *cap ? *cap * 2 : FIRST_CAP;
	void *grown;

	if (*cap > UINT32_MAX / 8 || fit(ix, room, n, key_of, items))
		return NULL;
	grown = realloc(items, (size_t)room * size);
	if (grown)
		*cap = room;
	return grown;
}

void sc_drive_index_exit(struct sc_drive_index *ix)
{
	free(ix->slots);
	memset(ix, 0, sizeof(*ix));
}
