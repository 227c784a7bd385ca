/* wdata.h -- the data each write carries: fresh seeded bytes for every
 * write, so that a compressing or deduplicating drive or filesystem sees
 * what its users' data would give it, no better (compressible, dedupe).
 *
 * A job draws one base pattern of random bytes at setup; each block it
 * writes is that pattern XOR a 16-byte key drawn from the job's seed
 * (phase seed, rank, job) and the write's sequence number in the job, so
 * no two blocks (nor any two 512-byte pieces of them) are alike, none
 * compresses, and the same run writes the same bytes.  XOR keeps a refill
 * near memory speed (bench/write_data_cost.py).  Hot-path safe: no
 * allocation, no lock; the caller owns the struct and the base, one per
 * job thread.  Not for use outside worker/.
 */
#ifndef SC_WDATA_H
#define SC_WDATA_H

#include <stddef.h>
#include <stdint.h>

/* Distinct blocks a deduplicating job's repeats are drawn from. */
#define SC_WDATA_POOL 16u
/* The largest share (percent) of compressible and dedupe. */
#define SC_WDATA_PCT_MAX 100u

struct sc_wdata {
	uint64_t seed;		   /* the job's seed */
	uint64_t seq;		   /* blocks filled so far */
	uint32_t compressible_pct; /* share of each block that is a zero run */
	uint32_t dedupe_pct;	   /* share of blocks drawn from the pool */
	const unsigned char *base; /* the job's base pattern */
	size_t base_len;	   /* its bytes: no block is longer */
};

/* Sets w up for a job seeded job_seed and fills base (base_len bytes, the
 * longest block the job writes; the caller keeps it while w is used) with
 * the job's base pattern.  compressible_pct (0..100) of every block's
 * bytes is a run of zeros after the random part, so that zlib compresses
 * it to about (100 - compressible_pct)%; dedupe_pct (0..100) of the blocks
 * are a copy of one of SC_WDATA_POOL blocks seeded from the job, the
 * others unique.  Larger values count as 100. */
void sc_wdata_init(struct sc_wdata *w, uint64_t job_seed, uint32_t compressible_pct,
		   uint32_t dedupe_pct, void *base, size_t base_len);

/* Fills the next block, len bytes at buf (len <= base_len), and counts it. */
void sc_wdata_fill(struct sc_wdata *w, void *buf, size_t len);

#endif
