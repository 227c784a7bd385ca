/* names.c -- strings kept once each at addresses that never move
 * (names.h): text in blocks that are never moved, found again through an
 * open-addressed table of FNV-1a hashes. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BYTES 65536u
#define FNV_OFFSET  2166136261u
#define FNV_PRIME   16777619u

struct sc_names_block {
	struct sc_names_block *before;
	size_t room;
	char text[];
};

void sc_names_init(struct sc_names *names)
{
	memset(names, 0, sizeof(*names));
}

static uint32_t hash(const char *s)
{
	uint32_t h = FNV_OFFSET;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV_PRIME;
	return h;
}

/* The slot of s in slots (nslots, a power of 2): where it is, or the
 * empty one where it belongs. */
static const char **slot_of(const char **slots, uint32_t nslots, const char *s)
{
	uint32_t i = hash(s) & (nslots - 1);

	while (slots[i] && strcmp(slots[i], s))
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

/* Room in the table for one more name, at most half full.  0 or -1. */
static int grow_slots(struct sc_names *names)
{
	uint32_t nslots = names->nslots ? 2 * names->nslots : 64;
	const char **slots;

	if (2 * (names->n + 1) <= names->nslots)
		return 0;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -1;
	for (uint32_t i = 0; i < names->nslots; i++)
		if (names->slots[i])
			*slot_of(slots, nslots, names->slots[i]) = names->slots[i];
	free(names->slots);
	names->slots = slots;
	names->nslots = nslots;
	return 0;
}

/* len bytes of block text that never move, or NULL. */
static char *text_room(struct sc_names *names, size_t len)
{
	struct sc_names_block *b = names->block;

	if (!b || b->room - names->used < len) {
		size_t room = len > BLOCK_BYTES ? len : BLOCK_BYTES;

		b = malloc(sizeof(*b) + room);
		if (!b)
			return NULL;
		b->before = names->block;
		b->room = room;
		names->block = b;
		names->used = 0;
	}
	names->used += len;
	return b->text + names->used - len;
}

const char *sc_names_keep(struct sc_names *names, const char *s)
{
	const char **slot;
	size_t len;
	char *copy;

	if (!s || grow_slots(names))
		return NULL;
	slot = slot_of(names->slots, names->nslots, s);
	if (*slot)
		return *slot;
	len = strlen(s) + 1;
	copy = text_room(names, len);
	if (!copy)
		return NULL;
	memcpy(copy, s, len);
	names->n++;
	return *slot = copy;
}

void sc_names_exit(struct sc_names *names)
{
	while (names->block) {
		struct sc_names_block *b = names->block;

		names->block = b->before;
		free(b);
	}
	free(names->slots);
	memset(names, 0, sizeof(*names));
}
