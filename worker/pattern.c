/* pattern.c -- seeded offset generators and data fill for a job. */
#include "pattern.h"

#include <string.h>

uint64_t sc_pattern_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna), written from its published definition. */
static inline uint64_t next_u64(struct sc_pattern *p)
{
	uint64_t *s = p->s;
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

void sc_pattern_init(struct sc_pattern *p, const struct sc_io_spec *io, uint32_t rank,
		     uint32_t job)
{
	uint64_t x = io->seed;

	memset(p, 0, sizeof(*p));
	x = sc_pattern_splitmix(&x) ^ ((uint64_t)rank << 32 | job);
	p->seed = sc_pattern_splitmix(&x);
	for (int i = 0; i < 4; i++)
		p->s[i] = sc_pattern_splitmix(&x);
	p->bs_bytes = io->bs_bytes;
	p->nblocks = io->bs_bytes ? io->size_bytes / io->bs_bytes : 0;
	if (p->nblocks == 0)
		p->nblocks = 1;
	p->rw = io->rw;
	p->read_pct = io->rwmixread_pct;
}

uint64_t sc_pattern_below(struct sc_pattern *p, uint64_t n)
{
	/* Lemire's multiply-shift: unbiased enough for n far below 2^64. */
	return (uint64_t)(((unsigned __int128)next_u64(p) * n) >> 64);
}

int sc_pattern_next(struct sc_pattern *p, uint64_t *offset_bytes)
{
	uint64_t block;
	int write;

	switch (p->rw) {
	case SC_RW_READ:
	case SC_RW_WRITE:
		block = p->next_block++;
		if (p->next_block >= p->nblocks)
			p->next_block = 0;
		write = p->rw == SC_RW_WRITE;
		break;
	case SC_RW_READWRITE:
		write = sc_pattern_below(p, 100) >= p->read_pct;
		block = p->next_block++;
		if (p->next_block >= p->nblocks)
			p->next_block = 0;
		break;
	case SC_RW_RANDRW:
		write = sc_pattern_below(p, 100) >= p->read_pct;
		block = sc_pattern_below(p, p->nblocks);
		break;
	default:
		write = p->rw == SC_RW_RANDWRITE;
		block = sc_pattern_below(p, p->nblocks);
		break;
	}
	*offset_bytes = block * p->bs_bytes;
	return write;
}

/* One step of sc_pattern_xor. */
typedef unsigned char v16u8 __attribute__((vector_size(SC_PATTERN_KEY_BYTES)));

#if defined(__x86_64__) && defined(__GNUC__)
#define XOR_WIDE 1
/* Two steps at once, where the CPU has AVX2 (the key twice). */
typedef unsigned char v32u8 __attribute__((vector_size(2 * SC_PATTERN_KEY_BYTES)));

#define TARGET_AVX2 __attribute__((target("avx2")))

/* sc_pattern_xor 32 bytes a step over the longest prefix of len that
 * holds whole steps: its bytes. */
static TARGET_AVX2 size_t xor_wide(unsigned char *d, const unsigned char *s, size_t len,
				   const unsigned char key[SC_PATTERN_KEY_BYTES])
{
	v32u8 k, v;
	size_t i = 0;

	memcpy(&k, key, SC_PATTERN_KEY_BYTES);
	memcpy((unsigned char *)&k + SC_PATTERN_KEY_BYTES, key, SC_PATTERN_KEY_BYTES);
	for (; i + sizeof(v) <= len; i += sizeof(v)) {
		memcpy(&v, s + i, sizeof(v));
		v ^= k;
		memcpy(d + i, &v, sizeof(v));
	}
	return i;
}
#endif

void sc_pattern_xor(void *dst, const void *src, size_t len,
		    const unsigned char key[SC_PATTERN_KEY_BYTES])
{
	const unsigned char *s = src;
	unsigned char *d = dst;
	v16u8 k, v;
	size_t i = 0;

#ifdef XOR_WIDE
	/* the same bytes: the refill of 4 KiB in half the time, of 128 KiB
	 * (where memory bounds it) 15% less (docs/acceptance.md, Write data) */
	if (__builtin_cpu_supports("avx2"))
		i = xor_wide(d, s, len, key);
#endif
	memcpy(&k, key, sizeof(k));
	for (; i + sizeof(v) <= len; i += sizeof(v)) {
		memcpy(&v, s + i, sizeof(v));
		v ^= k;
		memcpy(d + i, &v, sizeof(v));
	}
	for (; i < len; i++)
		d[i] = s[i] ^ key[i % SC_PATTERN_KEY_BYTES];
}

void sc_pattern_fill(void *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed, w;
	unsigned char *b = buf;
	size_t i = 0;

	for (; i + sizeof(w) <= len; i += sizeof(w)) {
		w = sc_pattern_splitmix(&x);
		memcpy(b + i, &w, sizeof(w));
	}
	if (i < len) {
		w = sc_pattern_splitmix(&x);
		memcpy(b + i, &w, len - i);
	}
}
