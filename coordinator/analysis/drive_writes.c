/* drive_writes.c -- what a run wrote to each drive, phase by phase, each
 * row's drive found through a drive index (drive_writes.h, drive_index.h). */
#include "drive_writes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sc_drive_key key_of(const void *items, uint32_t i)
{
	const struct sc_drive_writes_drive *x = (const struct sc_drive_writes_drive *)items + i;

	return (struct sc_drive_key){
	    .node = x->node, .target = x->target, .device = x->nvme ? x->device : NULL};
}

/* The drive of row r's device dev (NULL: r's target), added with its
 * identity from r and dev when new; NULL when out of memory. */
static struct sc_drive_writes_drive *
drive_of(struct sc_drive_writes *w, const struct sc_rank_result *r, const struct sc_drive *dev)
{
	struct sc_drive_key k = {
	    .node = r->node, .target = r->target, .device = dev ? dev->device : NULL};
	struct sc_drive_writes_drive *x;
	uint32_t *s;

	if (w->n == w->cap) {
		x = sc_drive_index_grow(&w->index, w->drives, sizeof(*x), &w->cap, w->n, key_of);
		if (!x)
			return NULL;
		w->drives = x;
	}
	s = sc_drive_index_slot(&w->index, &k, key_of, w->drives);
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
	sc_drive_index_exit(&w->index);
	memset(w, 0, sizeof(*w));
}
