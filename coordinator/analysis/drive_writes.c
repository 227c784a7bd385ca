/* drive_writes.c -- what a run wrote to each drive, phase by phase, each
 * row's drive found by a hash of (node, device or target) (drive_writes.h). */
#include "drive_writes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a 64's offset basis and prime. */
#define FNV_OFFSET UINT64_C(14695981039346656037)
#define FNV_PRIME  UINT64_C(1099511628211)

/* Drives the first growth makes room for. */
#define FIRST_CAP 8u

/* What names a drive: its node and device (NVMe), or node and target. */
struct key {
	uint32_t node;
	uint32_t target;
	const char *device; /* NULL: no NVMe */
};

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ c[i]) * FNV_PRIME;
	return h;
}

static uint64_t key_hash(const struct key *k)
{
	uint64_t h = fnv(FNV_OFFSET, &k->node, sizeof(k->node));
	unsigned char nvme = k->device != NULL;

	h = fnv(h, &nvme, 1);
	if (k->device)
		return fnv(h, k->device, strnlen(k->device, SC_DRIVE_NAME_MAX));
	return fnv(h, &k->target, sizeof(k->target));
}

static bool key_is(const struct key *k, const struct sc_drive_writes_drive *x)
{
	if (x->node != k->node || x->nvme != (k->device != NULL))
		return false;
	return k->device ? !strncmp(x->device, k->device, SC_DRIVE_NAME_MAX)
			 : x->target == k->target;
}

static struct key key_of(const struct sc_drive_writes_drive *x)
{
	return (struct key){
	    .node = x->node, .target = x->target, .device = x->nvme ? x->device : NULL};
}

/* The slot of k in w->slots: the one holding its drive, or the free one
 * where it would go.  w->nslots is a power of 2 and never full. */
static uint32_t *slot_of(const struct sc_drive_writes *w, const struct key *k)
{
	uint32_t mask = w->nslots - 1;

	for (uint32_t i = (uint32_t)key_hash(k) & mask;; i = (i + 1) & mask) {
		uint32_t *s = &w->slots[i];

		if (!*s || key_is(k, &w->drives[*s - 1]))
			return s;
	}
}

/* Room for one more drive, the slots rebuilt at twice the new room. */
static int grow(struct sc_drive_writes *w)
{
	uint32_t cap = w->cap ? w->cap * 2 : FIRST_CAP;
	struct sc_drive_writes_drive *d;
	uint32_t *slots;

	if (cap > UINT32_MAX / 2)
		return -ENOMEM;
	d = realloc(w->drives, cap * sizeof(*d));
	if (!d)
		return -ENOMEM;
	w->drives = d;
	slots = calloc((size_t)cap * 2, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(w->slots);
	w->slots = slots;
	w->nslots = cap * 2;
	w->cap = cap;
	for (uint32_t i = 0; i < w->n; i++) {
		struct key k = key_of(&w->drives[i]);

		*slot_of(w, &k) = i + 1;
	}
	return 0;
}

/* The drive of row r's device dev (NULL: r's target), added with its
 * identity from r and dev when new; NULL when out of memory. */
static struct sc_drive_writes_drive *
drive_of(struct sc_drive_writes *w, const struct sc_rank_result *r, const struct sc_drive *dev)
{
	struct key k = {.node = r->node, .target = r->target, .device = dev ? dev->device : NULL};
	struct sc_drive_writes_drive *x;
	uint32_t *s;

	if (w->n == w->cap && grow(w))
		return NULL;
	s = slot_of(w, &k);
	if (*s)
		return &w->drives[*s - 1];
	x = &w->drives[w->n++];
	*s = w->n;
	memset(x, 0, sizeof(*x));
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
		x->before = dev->before;
	}
	return x;
}

void sc_drive_writes_init(struct sc_drive_writes *w)
{
	memset(w, 0, sizeof(*w));
}

int sc_drive_writes_add(struct sc_drive_writes *w, const struct sc_phase_record *pr)
{
	uint32_t seq = w->nphases + 1;

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		uint32_t n = r->ndrives && r->drives ? r->ndrives : 1;

		/* a row no rank filled (a phase that timed out) names no drive */
		if (!r->ndrives && !r->telemetry_none[0] && !r->bytes[SC_DIR_WRITE])
			continue;
		for (uint32_t k = 0; k < n; k++) {
			const struct sc_drive *dev = r->ndrives && r->drives ? &r->drives[k] : NULL;
			struct sc_drive_writes_drive *x = drive_of(w, r, dev);

			if (!x)
				return -ENOMEM;
			if (r->rank < x->first_rank)
				x->first_rank = r->rank;
			if (__builtin_add_overflow(x->counted_bytes, r->bytes[SC_DIR_WRITE],
						   &x->counted_bytes))
				x->counted_bytes = UINT64_MAX;
			if (dev)
				x->after = dev->after;
			if (x->seq_added != seq) {
				x->seq_added = seq;
				x->phase_rows = 0;
			}
			if (++x->phase_rows > x->nranks)
				x->nranks = x->phase_rows;
		}
	}
	w->nphases++;
	return 0;
}

void sc_drive_writes_exit(struct sc_drive_writes *w)
{
	free(w->drives);
	free(w->slots);
	memset(w, 0, sizeof(*w));
}
