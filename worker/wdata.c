/* wdata.c -- fresh seeded data for every write, compressible and dedupe
 * shares (wdata.h). */
#include "wdata.h"

#include <string.h>

#include "pattern.h"

/* Salts: the base pattern's seed, and the key of a pool block (so that it
 * is no block's own key). */
#define BASE_SALT 0xba5eda7a5eedull
#define POOL_SALT 0xdede0b10c5eedull
#define PCT_SCALE 100u

/* 16 bytes at a time: one XOR per 16 bytes keeps the fill at memory speed. */
typedef unsigned char v16u8 __attribute__((vector_size(16)));

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* dst = src XOR the 16 bytes of k0, k1 (native order) repeated, n bytes. */
static void xor_keys(unsigned char *dst, const unsigned char *src, size_t n, uint64_t k0,
		     uint64_t k1)
{
	unsigned char kb[sizeof(v16u8)];
	v16u8 k, v;
	size_t i = 0;

	memcpy(kb, &k0, sizeof(k0));
	memcpy(kb + sizeof(k0), &k1, sizeof(k1));
	memcpy(&k, kb, sizeof(k));
	for (; i + sizeof(v) <= n; i += sizeof(v)) {
		memcpy(&v, src + i, sizeof(v));
		v ^= k;
		memcpy(dst + i, &v, sizeof(v));
	}
	for (; i < n; i++)
		dst[i] = src[i] ^ kb[i % sizeof(kb)];
}

void sc_wdata_init(struct sc_wdata *w, uint64_t job_seed, uint32_t compressible_pct,
		   uint32_t dedupe_pct, void *base, size_t base_len)
{
	w->seed = mix64(job_seed);
	w->seq = 0;
	w->compressible_pct = compressible_pct < PCT_SCALE ? compressible_pct : PCT_SCALE;
	w->dedupe_pct = dedupe_pct < PCT_SCALE ? dedupe_pct : PCT_SCALE;
	w->base = base;
	w->base_len = base_len;
	sc_pattern_fill(base, base_len, w->seed ^ BASE_SALT);
}

void sc_wdata_fill(struct sc_wdata *w, void *buf, size_t len)
{
	uint64_t key = mix64(w->seed ^ mix64(w->seq++));
	size_t rnd = len - len * w->compressible_pct / PCT_SCALE;

	/* a repeat: the key of one pool block (low bits decide, high pick) */
	if (w->dedupe_pct && key % PCT_SCALE < w->dedupe_pct)
		key = mix64(w->seed ^ POOL_SALT ^ ((key >> 32) % SC_WDATA_POOL));
	xor_keys(buf, w->base, rnd, key, mix64(key));
	memset((unsigned char *)buf + rnd, 0, len - rnd);
}
