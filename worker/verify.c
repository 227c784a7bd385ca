/* verify.c -- verified blocks: header, pattern, CRC32C and the per-job checks. */
#include "verify.h"

#include <errno.h>
#include <isa-l/crc.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

/* Byte offsets of the header fields (see verify.h). */
enum {
	H_MAGIC = 0,
	H_OFFSET = 8,
	H_RUN = 16,
	H_SEQ = 24,
	H_LEN = 32,
	H_PHASE = 36,
	H_RANK = 40,
	H_CRC = 44,
};

enum { SLOT_IDLE = 0, SLOT_READ = 1, SLOT_WRITE = 2 };

/* FNV-1a 64 parameters (Fowler, Noll, Vo). */
#define FNV64_OFFSET 0xcbf29ce484222325ull
#define FNV64_PRIME  0x100000001b3ull

uint32_t sc_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	/* ISA-L's crc32_iscsi neither inverts on entry nor on exit, and takes
	 * an int length: invert here, and feed it at most INT_MAX at a time. */
	crc = ~crc;
	while (len) {
		int n = len > INT_MAX ? INT_MAX : (int)len;

		crc = crc32_iscsi((unsigned char *)p, n, crc);
		p += n;
		len -= (size_t)n;
	}
	return ~crc;
}

uint64_t sc_verify_run_hash(const char *run_id)
{
	uint64_t h = FNV64_OFFSET;

	for (const unsigned char *s = (const unsigned char *)(run_id ? run_id : ""); *s; s++) {
		h ^= *s;
		h *= FNV64_PRIME;
	}
	return h;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A block's pattern key: every field that tells one written block from
 * another. */
static uint64_t pattern_key(const struct sc_verify_header *h)
{
	return mix64(h->run_id ^ mix64(h->offset ^ mix64(h->seq ^ mix64((uint64_t)h->phase << 32 |
									 h->rank))));
}

/* Seeds the base pattern from the run: the same for every block of a run. */
#define BASE_SEED 0x5ca1ab1e0ddba11ull

void sc_verify_base(void *base, uint32_t len, uint64_t run_id)
{
	sc_pattern_fill(base, len, mix64(run_id ^ BASE_SEED));
}

/* dst = src XOR the key's 8 bytes (little-endian) repeated, over n bytes. */
static void xor_key(unsigned char *dst, const unsigned char *src, size_t n, uint64_t key)
{
	unsigned char kb[SC_PATTERN_KEY_BYTES];

	put64(kb, key);
	put64(kb + 8, key);
	sc_pattern_xor(dst, src, n, kb);
}

static void encode(unsigned char *b, const struct sc_verify_header *h)
{
	put64(b + H_MAGIC, h->magic);
	put64(b + H_OFFSET, h->offset);
	put64(b + H_RUN, h->run_id);
	put64(b + H_SEQ, h->seq);
	put32(b + H_LEN, h->len);
	put32(b + H_PHASE, h->phase);
	put32(b + H_RANK, h->rank);
	put32(b + H_CRC, h->crc);
}

static void decode(const unsigned char *b, struct sc_verify_header *h)
{
	h->magic = get64(b + H_MAGIC);
	h->offset = get64(b + H_OFFSET);
	h->run_id = get64(b + H_RUN);
	h->seq = get64(b + H_SEQ);
	h->len = get32(b + H_LEN);
	h->phase = get32(b + H_PHASE);
	h->rank = get32(b + H_RANK);
	h->crc = get32(b + H_CRC);
}

void sc_verify_fill(void *block, struct sc_verify_header *h, const void *base)
{
	unsigned char *b = block;

	xor_key(b + SC_VERIFY_HEADER_BYTES, (const unsigned char *)base + SC_VERIFY_HEADER_BYTES,
		h->len - SC_VERIFY_HEADER_BYTES, pattern_key(h));
	h->magic = SC_VERIFY_MAGIC;
	h->crc = 0;
	encode(b, h);
	h->crc = sc_crc32c(0, b, h->len);
	put32(b + H_CRC, h->crc);
}

/* CRC32C of a block as read, with its crc field taken as zero. */
static uint32_t block_crc(const unsigned char *b, uint32_t len)
{
	static const unsigned char zero[4];
	uint32_t crc = sc_crc32c(0, b, H_CRC);

	crc = sc_crc32c(crc, zero, sizeof(zero));
	return sc_crc32c(crc, b + H_CRC + 4, len - H_CRC - 4);
}

uint32_t sc_verify_check(const void *block, uint32_t len, uint64_t offset, uint64_t run_id,
			 struct sc_verify_mismatch *m)
{
	const unsigned char *b = block;
	struct sc_verify_header h;
	uint32_t failed = 0, crc;

	if (len < SC_VERIFY_HEADER_BYTES)
		return SC_VERIFY_BAD_LEN;
	decode(b, &h);
	crc = block_crc(b, len);
	if (h.magic != SC_VERIFY_MAGIC)
		failed |= SC_VERIFY_BAD_MAGIC;
	if (h.offset != offset)
		failed |= SC_VERIFY_BAD_OFFSET;
	if (h.run_id != run_id)
		failed |= SC_VERIFY_BAD_RUN;
	if (h.len != len)
		failed |= SC_VERIFY_BAD_LEN;
	if (h.crc != crc)
		failed |= SC_VERIFY_BAD_CRC;
	if (failed && m)
		*m = (struct sc_verify_mismatch){.offset = offset,
						 .failed = failed,
						 .found = h,
						 .crc_data = crc,
						 .first_bad_byte = len};
	return failed;
}

void sc_verify_diff(const void *block, uint32_t len, uint64_t run_id, const void *base,
		    void *scratch, struct sc_verify_mismatch *m)
{
	const unsigned char *b = block, *e = scratch;
	struct sc_verify_header h = {.offset = m->offset,
				     .run_id = run_id,
				     .seq = m->found.seq,
				     .len = len,
				     .phase = m->found.phase,
				     .rank = m->found.rank};

	sc_verify_fill(scratch, &h, base);
	m->bad_bytes = 0;
	m->first_bad_byte = len;
	for (uint32_t i = 0; i < len; i++) {
		if (b[i] == e[i])
			continue;
		if (!m->bad_bytes++)
			m->first_bad_byte = i;
	}
}

const char *sc_verify_failed_text(uint32_t failed, char *buf, size_t len)
{
	static const char *const names[] = {"magic", "offset", "run id", "length", "crc"};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int n;

		if (!(failed & (1u << i)))
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", names[i]);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

bool sc_verify_only_run(const struct sc_plan *plan)
{
	if (!plan->nphases)
		return false;
	for (uint32_t p = 0; p < plan->nphases; p++)
		if (!plan->phases[p].io.verify_only)
			return false;
	return true;
}

int sc_verifier_init(struct sc_verifier *v, uint64_t run_id, uint32_t phase, uint32_t rank,
		     uint32_t job, uint32_t depth, uint32_t bs, bool may_overlap)
{
	*v = (struct sc_verifier){.run_id = run_id,
				  .phase = phase,
				  .rank = rank,
				  .job = job,
				  .bs = bs,
				  .depth = depth,
				  .may_overlap = may_overlap};
	v->slot_off = calloc(depth, sizeof(*v->slot_off));
	v->slot_op = calloc(depth, sizeof(*v->slot_op));
	v->scratch = malloc(bs);
	v->base = malloc(bs);
	v->kept = calloc(SC_VERIFY_KEEP, sizeof(*v->kept));
	if (!v->slot_off || !v->slot_op || !v->scratch || !v->base || !v->kept)
		return -ENOMEM;
	sc_verify_base(v->base, bs, run_id);
	return 0;
}

void sc_verifier_exit(struct sc_verifier *v)
{
	free(v->slot_off);
	free(v->slot_op);
	free(v->scratch);
	free(v->base);
	free(v->kept);
	memset(v, 0, sizeof(*v));
}

bool sc_verifier_may_start(const struct sc_verifier *v, uint64_t offset, bool write)
{
	if (!v->may_overlap)
		return true;
	for (uint32_t i = 0; i < v->depth; i++)
		if (v->slot_op[i] != SLOT_IDLE && v->slot_off[i] == offset &&
		    (write || v->slot_op[i] == SLOT_WRITE))
			return false;
	return true;
}

void sc_verifier_fill(struct sc_verifier *v, void *buf, uint64_t offset)
{
	struct sc_verify_header h = {.offset = offset,
				     .run_id = v->run_id,
				     .seq = ++v->seq,
				     .len = v->bs,
				     .phase = v->phase,
				     .rank = v->rank};

	sc_verify_fill(buf, &h, v->base);
}

void sc_verifier_fill_range(struct sc_verifier *v, void *buf, size_t len, uint64_t offset)
{
	for (size_t at = 0; at + v->bs <= len; at += v->bs) {
		struct sc_verify_header h = {.offset = offset + at,
					     .run_id = v->run_id,
					     .len = v->bs,
					     .phase = v->phase,
					     .rank = v->rank};

		sc_verify_fill((char *)buf + at, &h, v->base);
	}
}

void sc_verifier_start(struct sc_verifier *v, uint32_t slot, uint64_t offset, bool write)
{
	v->slot_off[slot] = offset;
	v->slot_op[slot] = write ? SLOT_WRITE : SLOT_READ;
}

void sc_verifier_done(struct sc_verifier *v, uint32_t slot, const void *buf, bool complete)
{
	uint8_t op = v->slot_op[slot];
	struct sc_verify_mismatch *m;

	v->slot_op[slot] = SLOT_IDLE;
	if (op != SLOT_READ || !complete)
		return;
	v->checked++;
	m = v->nkept < SC_VERIFY_KEEP ? &v->kept[v->nkept] : NULL;
	if (!sc_verify_check(buf, v->bs, v->slot_off[slot], v->run_id, m))
		return;
	v->mismatches++;
	if (!m)
		return;
	m->job = v->job;
	sc_verify_diff(buf, v->bs, v->run_id, v->base, v->scratch, m);
	v->nkept++;
}
