/* pattern.h -- seeded offset generators and data fill for a job. */
#ifndef SC_PATTERN_H
#define SC_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

struct sc_pattern {
	uint64_t seed;          /* this job's seed (phase seed, rank, job) */
	uint64_t s[4];          /* xoshiro256** state */
	uint64_t nblocks;       /* blocks of bs in the region */
	uint64_t bs_bytes;
	uint64_t next_block;    /* sequential patterns */
	enum sc_rw rw;
	uint32_t read_pct;      /* randrw */
};

/* Seeds the generator of job `job` of `rank` from io->seed: the same
 * inputs give the same sequence on every run. */
void sc_pattern_init(struct sc_pattern *p, const struct sc_io_spec *io, uint32_t rank,
		     uint32_t job);

/* Next I/O: stores its offset within the region (a multiple of bs) and
 * returns 1 for a write, 0 for a read.  Sequential patterns wrap at the
 * region's end; random ones draw uniformly over its blocks. */
int sc_pattern_next(struct sc_pattern *p, uint64_t *offset_bytes);

/* splitmix64 (Steele, Lea and Flood): advances *x and returns a well-mixed
 * 64-bit value of it; seeds generators, and hashes a key to a draw. */
uint64_t sc_pattern_splitmix(uint64_t *x);

/* A uniform random draw in [0, n). */
uint64_t sc_pattern_below(struct sc_pattern *p, uint64_t n);

/* Fills buf with incompressible pseudo-random bytes from seed. */
void sc_pattern_fill(void *buf, size_t len, uint64_t seed);

/* Bytes in the key of sc_pattern_xor. */
#define SC_PATTERN_KEY_BYTES 16u

/* dst = src XOR key repeated, over len bytes: a block of its own from a
 * base pattern at near memory speed (16 bytes a step). */
void sc_pattern_xor(void *dst, const void *src, size_t len,
		    const unsigned char key[SC_PATTERN_KEY_BYTES]);

#endif
