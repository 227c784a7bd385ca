/* verify.h -- verified blocks: a checked header and a seeded pattern in every
 * block a verifying phase writes, and the check of every block it reads.
 *
 * A block is one I/O of the phase's bs.  It starts with a header of
 * SC_VERIFY_HEADER_BYTES (little-endian on disk):
 *
 *   0  magic    "SCVRFY01"
 *   8  offset   the block's byte offset in its file or device
 *   16 run id   FNV-1a 64 of the run id text (sc_verify_run_hash)
 *   24 seq      the writing job's write number (1, 2, ...; 0 = laid out
 *               before a phase)
 *   32 len      the block's length in bytes
 *   36 phase    index of the phase that wrote it
 *   40 rank     the rank that wrote it
 *   44 crc      CRC32C of the whole block with these 4 bytes zero
 *
 * and the rest is a pattern reproducible from the run id and the header:
 * a base pattern drawn from the run id (the same for every block of the
 * run) XORed with a 64-bit key drawn from (run id, offset, seq, phase,
 * rank), so the block as written can be rebuilt from its header alone, and
 * filling one costs a pass of XOR (plus the CRC) rather than a random
 * number per word.
 *
 * A read checks: the magic, that the header's offset is the offset read,
 * that its run id is this run's, that its length is bs, and the CRC32C of the
 * whole block (header and pattern).  The sequence number says which write a
 * block holds; it is reported, not checked: a block rewritten by randwrite
 * or randrw may hold any of its writes, and knowing the latest would need a
 * table of every block.  So a write the device lost, leaving an older intact
 * block of the same run in place, is not detected.
 *
 * A verifier (struct sc_verifier) is one job's side of this: it fills the
 * blocks of writes, checks completed reads, counts mismatches and keeps the
 * first SC_VERIFY_KEEP of them in detail.  It allocates only in _init; the
 * per-I/O calls allocate nothing and take no lock.
 */
#ifndef SC_VERIFY_H
#define SC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* "SCVRFY01" read as a little-endian 64-bit number. */
#define SC_VERIFY_MAGIC	       0x3130594652564353ull
/* Bytes of the header at the start of every block; bs must be at least this. */
#define SC_VERIFY_HEADER_BYTES 48u
/* Mismatches a rank keeps in detail (every one is counted). */
#define SC_VERIFY_KEEP	       100u

/* Which checks a block failed (bits of sc_verify_mismatch.failed). */
enum {
	SC_VERIFY_BAD_MAGIC = 1u << 0,  /* no header at all (zeros, foreign data) */
	SC_VERIFY_BAD_OFFSET = 1u << 1, /* a block of another offset */
	SC_VERIFY_BAD_RUN = 1u << 2,    /* a block of another run */
	SC_VERIFY_BAD_LEN = 1u << 3,    /* written with another bs */
	SC_VERIFY_BAD_CRC = 1u << 4,    /* the bytes changed after the write */
};

/* A block header, decoded. */
struct sc_verify_header {
	uint64_t magic;
	uint64_t offset;
	uint64_t run_id;
	uint64_t seq;
	uint32_t len;
	uint32_t phase;
	uint32_t rank;
	uint32_t crc;
};

/* One block that failed a check. */
struct sc_verify_mismatch {
	uint64_t offset;        /* where it was read: the header's expected offset */
	uint32_t job;           /* the reading job (its file r<rank>.j<job>.dat) */
	uint32_t failed;        /* SC_VERIFY_BAD_* bits */
	struct sc_verify_header found; /* the header as read */
	uint32_t crc_data;      /* CRC32C of the block as read: what its crc
				 * field would hold had the block been written so */
	uint32_t bad_bytes;     /* bytes that differ from the block its own
				 * header (seq, phase, rank) and the expected
				 * offset, run id and length say was written */
	uint32_t first_bad_byte; /* the first of them, from the block's start
				  * (len when none differ) */
};

/* CRC32C (Castagnoli, as iSCSI and ext4 use it) of buf, continuing from crc
 * (0 to start): crc32c(0, "123456789", 9) == 0xE3069283, and
 * crc32c(crc32c(0, a, n), b, m) is the CRC of a followed by b. */
uint32_t sc_crc32c(uint32_t crc, const void *buf, size_t len);

/* FNV-1a 64 of a run id text (NULL: of ""). */
uint64_t sc_verify_run_hash(const char *run_id);

/* Fills len bytes at base with the base pattern of run run_id (for blocks
 * of up to len bytes). */
void sc_verify_base(void *base, uint32_t len, uint64_t run_id);

/* Writes a whole block of h->len bytes at block: h's fields (magic and crc
 * are set here), the pattern after the header (from base, the run's base
 * pattern of at least h->len bytes) and the CRC over it all.  h->len >=
 * SC_VERIFY_HEADER_BYTES. */
void sc_verify_fill(void *block, struct sc_verify_header *h, const void *base);

/* Checks the len bytes read at offset against what a block of run run_id
 * written there holds.  0 when it passes; else the SC_VERIFY_BAD_* bits,
 * with m (if not NULL) filled except job, bad_bytes and first_bad_byte. */
uint32_t sc_verify_check(const void *block, uint32_t len, uint64_t offset, uint64_t run_id,
			 struct sc_verify_mismatch *m);

/* Fills m->bad_bytes and m->first_bad_byte for a block that failed the
 * check: rebuilds, in scratch (len bytes), the block that should be there
 * from the expected offset, run id and length and the sequence, phase and
 * rank its header gives (base: the run's base pattern), and compares. */
void sc_verify_diff(const void *block, uint32_t len, uint64_t run_id, const void *base,
		    void *scratch, struct sc_verify_mismatch *m);

/* Text for the failed bits: "crc", "offset, run id", ... into buf. */
const char *sc_verify_failed_text(uint32_t failed, char *buf, size_t len);

/* True when the plan re-reads a kept run: every phase says verify_only
 * (the config allows all or none). */
bool sc_verify_only_run(const struct sc_plan *plan);

/* One job's verification state. */
struct sc_verifier {
	uint64_t run_id;        /* the run's hash: written and expected */
	uint32_t phase, rank, job;
	uint32_t bs;            /* block length */
	uint32_t depth;         /* I/O slots */
	bool may_overlap;       /* two I/Os in flight may hit one block */
	uint64_t seq;           /* writes filled so far */
	uint64_t *slot_off;     /* per slot: offset of the I/O in flight */
	uint8_t *slot_op;       /* per slot: 0 idle, 1 read, 2 write */
	void *base;             /* bs bytes: the run's base pattern */
	void *scratch;          /* bs bytes, to rebuild a bad block */
	uint64_t checked;       /* blocks read and checked */
	uint64_t mismatches;    /* of them, blocks that failed */
	uint32_t nkept;
	struct sc_verify_mismatch *kept; /* the first SC_VERIFY_KEEP */
	bool held;              /* an I/O drawn but not started (it overlapped) */
	uint64_t held_offset;
	int held_write;
};

/* Sets up v for job `job` of rank `rank` in phase `phase` of run run_id,
 * with depth slots of bs bytes; may_overlap: the pattern can put two I/Os
 * in flight on one block (random, or a region of at most depth blocks).
 * 0 or -ENOMEM (v is then safe to _exit). */
int sc_verifier_init(struct sc_verifier *v, uint64_t run_id, uint32_t phase, uint32_t rank,
		     uint32_t job, uint32_t depth, uint32_t bs, bool may_overlap);
void sc_verifier_exit(struct sc_verifier *v);

/* True when an I/O at offset may start now: no I/O in flight on that block
 * where one of the two writes (a read beside a write could see half of it,
 * two writes could mix).  Always true without may_overlap. */
bool sc_verifier_may_start(const struct sc_verifier *v, uint64_t offset, bool write);

/* Fills the bs-byte buffer of a write to offset with its block (the next
 * sequence number); call it just before the write is queued. */
void sc_verifier_fill(struct sc_verifier *v, void *buf, uint64_t offset);

/* Fills len bytes at buf, to be written at offset (both multiples of bs),
 * with blocks of sequence 0: data laid out before a phase reads it. */
void sc_verifier_fill_range(struct sc_verifier *v, void *buf, size_t len, uint64_t offset);

/* Slot's I/O (a write or not, at offset) was queued. */
void sc_verifier_start(struct sc_verifier *v, uint32_t slot, uint64_t offset, bool write);

/* Slot's I/O completed: a read that transferred all bs bytes (complete)
 * is checked from buf; the slot is free again either way. */
void sc_verifier_done(struct sc_verifier *v, uint32_t slot, const void *buf, bool complete);

#endif
