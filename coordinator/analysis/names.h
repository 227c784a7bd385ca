/* names.h -- strings a figure keeps beyond the record it came from
 * (names.c): hosts, devices and serials copied once each, at addresses
 * that never move, so a figure that spans phases may name a drive after
 * the phase's rank rows are freed.  A name kept twice is stored once. */
#ifndef SC_ANALYSIS_NAMES_H
#define SC_ANALYSIS_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct sc_names_block;

struct sc_names {
	uint32_t n;		      /* distinct names kept */
	uint32_t nslots;	      /* room in slots: a power of 2, or 0 */
	const char **slots;	      /* heap: open addressing, NULL empty */
	struct sc_names_block *block; /* the newest block; each links the one before */
	size_t used;		      /* bytes of block's text in use */
};

/* No names (a zeroed struct is the same). */
void sc_names_init(struct sc_names *names);

/* The kept copy of s, the same address for every s equal to it, valid
 * until sc_names_exit; NULL for NULL s or when out of memory. */
const char *sc_names_keep(struct sc_names *names, const char *s);

void sc_names_exit(struct sc_names *names);

#endif
