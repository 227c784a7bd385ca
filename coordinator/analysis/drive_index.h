/* drive_index.h -- finding a drive among those gathered from a run's rank
 * rows (drive_index.c): an open-addressed hash of what names a drive to
 * its place in the caller's array, so that a row costs the same however
 * many drives there are.
 *
 * A drive is an NVMe namespace on a node (node and device), or, for a row
 * without NVMe telemetry, the row's target on its node (node and target).
 */
#ifndef SC_ANALYSIS_DRIVE_INDEX_H
#define SC_ANALYSIS_DRIVE_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct sc_drive_key {
	uint32_t node;
	uint32_t target;    /* only without NVMe */
	const char *device; /* "nvme0n1"; NULL: no NVMe */
};

struct sc_drive_index {
	uint32_t nslots; /* a power of 2 (or 0) */
	uint32_t *slots; /* heap: the place + 1 of a drive in the caller's
			  * array, 0 free */
};

/* The key of drive i of the caller's array items. */
typedef struct sc_drive_key (*sc_drive_key_of_fn)(const void *items, uint32_t i);

/* The slot of k in ix: the one holding k's drive (its place + 1 among
 * items), or the free one where it goes (the caller stores its place + 1
 * there when adding it).  ix must have room for one more drive
 * (sc_drive_index_grow). */
uint32_t *sc_drive_index_slot(const struct sc_drive_index *ix, const struct sc_drive_key *k,
			      sc_drive_key_of_fn key_of, const void *items);

/* Room for more drives: the caller's array items (room for *cap drives
 * of size bytes, n of them used; NULL when *cap is 0) grown to twice its
 * room, or 8, and ix (zeroed, or grown by these calls) with it, never more
 * than half its slots taken.  The grown array, *cap set to its room; NULL
 * when out of memory (items and *cap unchanged, ix still good for them). */
void *sc_drive_index_grow(struct sc_drive_index *ix, void *items, size_t size, uint32_t *cap,
			  uint32_t n, sc_drive_key_of_fn key_of);

void sc_drive_index_exit(struct sc_drive_index *ix);

#endif
