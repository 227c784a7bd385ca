/* pattern.h -- seeded offset generators and data fill for a job. */
#ifndef SC_PATTERN_H
#define SC_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* A keyed bijection of [0, n) onto itself (a Feistel network over the
 * smallest even number of bits that holds n - 1, cycle-walked back into
 * range): O(1) memory, a few hashes a call. */
struct sc_perm {
	uint64_t n;
	uint64_t key;
	uint32_t half_bits;     /* bits of each Feistel half */
};

/* A permutation of [0, n) chosen by key (n >= 1). */
void sc_perm_init(struct sc_perm *pm, uint64_t n, uint64_t key);

/* x's image, in [0, n) (x < n). */
uint64_t sc_perm_map(const struct sc_perm *pm, uint64_t x);

struct sc_pattern {
	/* what every I/O reads, first and together (a cache line or two) */
	uint64_t s[4];          /* xoshiro256** state */
	uint64_t nblocks;       /* blocks of bs in the region */
	uint64_t bs_bytes;
	uint64_t next_block;    /* sequential patterns */
	uint64_t len;           /* the size of the I/O sc_pattern_next drew */
	uint64_t bs_max_bytes;  /* several sizes: the largest; 0: every I/O bs_bytes */
	uint64_t left_bytes;    /* with several sizes: the job's io_bytes not yet
				 * drawn (UINT64_MAX: timed) */
	enum sc_rw rw;
	uint32_t read_pct;      /* randrw */
	bool plain;             /* random rw, a uniform block of bs each I/O (no
				 * map, no runs, no other distribution, no mix) */
	uint64_t seed;          /* this job's seed (phase seed, rank, job) */
	/* random patterns: the distribution of the blocks (plan.h) */
	enum sc_rand_dist dist;
	double theta;           /* zipf's exponent */
	double zipf_hx1, zipf_hn, zipf_sv; /* rejection-inversion's constants */
	double pareto_pow;      /* log h / log (1 - h) */
	double sigma_blocks;    /* normal: sigma in blocks */
	struct sc_perm scatter; /* heat rank -> block */
	uint32_t random_every;  /* a random block every this many I/Os (0, 1: each) */
	uint32_t run_left;      /* sequential I/Os left before the next random one */
	uint64_t run_block;     /* the block of the last I/O of that run */
	bool randommap;         /* each block once a pass */
	uint64_t map_next;      /* the pass's next index into map */
	uint64_t map_pass;      /* passes begun */
	struct sc_perm map;     /* this pass's order */
	/* several sizes (bssplit, bsrange; plan.h): bs_bytes the smallest */
	uint32_t nsplit;        /* bssplit's sizes; 0: bsrange */
	uint64_t split_bytes[SC_BSSPLIT_MAX];
	uint32_t split_cum[SC_BSSPLIT_MAX]; /* percents summed up to each */
	/* zoned: zone z takes access_cum[z] - access_cum[z - 1] % of the
	 * I/Os, its blocks [zone_first[z], zone_first[z + 1]) */
	uint32_t nzones;
	uint32_t access_cum[SC_ZONES_MAX];
	uint64_t zone_first[SC_ZONES_MAX + 1];
};

/* Largest zipf theta random_distribution takes (all but rank 1 are then
 * never drawn long before). */
#define SC_PATTERN_ZIPF_THETA_MAX 100.0

/* A size of a mix (io->bs_max_bytes set; bssplit or bsrange) drawn
 * from the job's generator, before it is fitted to the room left. */
uint64_t sc_pattern_draw_len(struct sc_pattern *p);

/* Whether param is a number distribution dist takes (zipf: theta in
 * (0, 100]; pareto: h in (0, 1); normal: sigma in (0, 100) % of the
 * region; random: none, 0).  NULL, or what it must be. */
const char *sc_pattern_dist_check(enum sc_rand_dist dist, double param);

/* Seeds the generator of job `job` of `rank` from io->seed: the same
 * inputs give the same sequence on every run. */
void sc_pattern_init(struct sc_pattern *p, const struct sc_io_spec *io, uint32_t rank,
		     uint32_t job);

/* Next I/O: stores its offset within the region (a multiple of bs) and
 * its size in p->len, and returns 1 for a write, 0 for a read.  With
 * several sizes (io->bs_max_bytes), the offset is drawn first, then the
 * size (plan.h's rule), drawn again until it ends within the region and
 * within the job's io_bytes left (io->runtime_ns 0), so that a job moves
 * exactly io_bytes; sequential patterns move on by the size.  Zoned
 * (io->rand_dist): a zone by its access share, then a uniform block of
 * it.  Sequential patterns wrap at the
 * region's end; random ones draw a block of it from io->rand_dist: rank k
 * of the distribution (0 the hottest; normal: the position in the
 * region) is block sc_perm_map(k) of a permutation seeded per job.  With
 * io->randommap, pass p (from 0) of a random pattern is the blocks in the
 * order of a permutation seeded by the job and p, each once; with
 * io->random_every N > 1, only every N-th block is drawn, each of the
 * N - 1 I/Os after it begins where the one before it ended (wrapping at
 * the region's end). */
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
