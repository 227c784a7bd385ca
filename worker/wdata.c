/* wdata.c -- fresh seeded data for every write, compressible and dedupe
 * shares (wdata.h). */
#include "wdata.h"

#include <string.h>

/* Salts the key of a pool block, so that it is no block's own key. */
#define POOL_SALT 0xdede0b10c5eedull
/* Random bytes are made 8 bytes per lane, LANES lanes per step. */
#define LANES	  4u
#define PCT_SCALE 100u

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* xorshift64 (Marsaglia, shifts 13, 7, 17): a few cycles per 8 bytes,
 * more than random enough for data that must not compress. */
static inline uint64_t xorshift(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* len bytes of key's random stream at b: LANES independent generators
 * side by side, so that a step does not wait for the one before. */
static void random_bytes(unsigned char *b, size_t len, uint64_t key)
{
	uint64_t s[LANES], w;
	size_t i = 0;

	for (unsigned k = 0; k < LANES; k++)
		s[k] = mix64(key + (k + 1) * 0x9e3779b97f4a7c15ull) | 1; /* never 0 */
	for (; i + sizeof(s) <= len; i += sizeof(s)) {
		for (unsigned k = 0; k < LANES; k++)
			s[k] = xorshift(s[k]);
		memcpy(b + i, s, sizeof(s));
	}
	for (; i < len; i += sizeof(w)) {
		s[0] = xorshift(s[0]);
		w = s[0];
		memcpy(b + i, &w, len - i < sizeof(w) ? len - i : sizeof(w));
	}
}

void sc_wdata_init(struct sc_wdata *w, uint64_t job_seed, uint32_t compressible_pct,
		   uint32_t dedupe_pct)
{
	w->seed = mix64(job_seed);
	w->seq = 0;
	w->compressible_pct = compressible_pct < PCT_SCALE ? compressible_pct : PCT_SCALE;
	w->dedupe_pct = dedupe_pct < PCT_SCALE ? dedupe_pct : PCT_SCALE;
}

void sc_wdata_fill(struct sc_wdata *w, void *buf, size_t len)
{
	uint64_t key = mix64(w->seed ^ mix64(w->seq++));
	size_t rnd = len - len * w->compressible_pct / PCT_SCALE;

	/* a repeat: the key of one pool block (low bits decide, high pick) */
	if (w->dedupe_pct && key % PCT_SCALE < w->dedupe_pct)
		key = mix64(w->seed ^ POOL_SALT ^ ((key >> 32) % SC_WDATA_POOL));
	random_bytes(buf, rnd, key);
	memset((unsigned char *)buf + rnd, 0, len - rnd);
}
