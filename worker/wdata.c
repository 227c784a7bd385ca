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

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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
	uint64_t key = mix64(w->seed ^ mix64(w->seq++)), k1;
	unsigned char kb[SC_PATTERN_KEY_BYTES];
	size_t rnd = len - len * w->compressible_pct / PCT_SCALE;

	/* a repeat: the key of one pool block (low bits decide, high pick) */
	if (w->dedupe_pct && key % PCT_SCALE < w->dedupe_pct)
		key = mix64(w->seed ^ POOL_SALT ^ ((key >> 32) % SC_WDATA_POOL));
	memcpy(kb, &key, sizeof(key));
	k1 = mix64(key);
	memcpy(kb + sizeof(key), &k1, sizeof(k1));
	sc_pattern_xor(buf, w->base, rnd, kb);
	memset((unsigned char *)buf + rnd, 0, len - rnd);
}
