/* pattern.c -- seeded offset generators and data fill for a job. */
#include "pattern.h"

#include <math.h>
#include <string.h>

/* Feistel rounds of sc_perm: enough for the heat ranks to land far apart. */
#define PERM_ROUNDS 4
/* Mixed into the job's seed for the scatter permutation, and for each
 * pass's order of the random map. */
#define SCATTER_SALT 0x5ca77e2b10c5ull
#define MAP_SALT     0x4a9ba55e5ull
/* Below this |t|, a series replaces log1p(t)/t and expm1(t)/t. */
#define SERIES_EPS 1e-8

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

void sc_perm_init(struct sc_perm *pm, uint64_t n, uint64_t key)
{
	uint32_t bits = 0;

	while (bits < 64 && (n - 1) >> bits)
		bits++;
	pm->n = n;
	pm->key = key;
	pm->half_bits = (bits + 1) / 2;
}

/* One Feistel pass over the 2 x half_bits-bit value x. */
static uint64_t feistel(const struct sc_perm *pm, uint64_t x)
{
	uint32_t h = pm->half_bits;
	uint64_t mask = h >= 32 ? UINT32_MAX : (UINT64_C(1) << h) - 1;
	uint64_t l = x >> h, r = x & mask;

	for (uint64_t round = 0; round < PERM_ROUNDS; round++) {
		uint64_t k = pm->key ^ (round << 56) ^ r, f = sc_pattern_splitmix(&k) & mask;
		uint64_t t = l ^ f;

		l = r;
		r = t;
	}
	return (l << h) | r;
}

uint64_t sc_perm_map(const struct sc_perm *pm, uint64_t x)
{
	if (pm->n <= 1)
		return 0;
	/* a bijection of [0, 4^half) walked until it lands in [0, n): each
	 * value's cycle holds one that does */
	do
		x = feistel(pm, x);
	while (x >= pm->n);
	return x;
}

const char *sc_pattern_dist_check(enum sc_rand_dist dist, double param)
{
	switch (dist) {
	case SC_DIST_RANDOM:
		return param == 0 ? NULL : "random takes no number";
	case SC_DIST_ZIPF:
		return isfinite(param) && param > 0 && param <= SC_PATTERN_ZIPF_THETA_MAX
			       ? NULL
			       : "zipf's theta is a number more than 0, at most 100 (zipf:1.2)";
	case SC_DIST_PARETO:
		return isfinite(param) && param > 0 && param < 1
			       ? NULL
			       : "pareto's h is a number more than 0 and less than 1 (pareto:0.2)";
	case SC_DIST_NORMAL:
		return isfinite(param) && param > 0 && param < 100
			       ? NULL
			       : "normal's sigma is a percentage of the region, more than 0 and "
				 "less than 100 (normal:10)";
	case SC_DIST_ZONED:
		return param == 0 ? NULL : "zoned takes its zones, not a number";
	default:
		return "an unknown distribution";
	}
}

/* Zipf by rejection-inversion (Hoermann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996): an exact draw of rank k in [1, n] with probability k^-theta /
 * H(n, theta), O(1) time and memory.  zh is the integral of x^-theta
 * (from 1), zh_inv its inverse, written through log1p / expm1 so that
 * theta near 1 stays exact. */
static double log1p_over(double t)
{
	return fabs(t) > SERIES_EPS ? log1p(t) / t : 1 - t / 2 + t * t / 3;
}

static double expm1_over(double t)
{
	return fabs(t) > SERIES_EPS ? expm1(t) / t : 1 + t / 2 + t * t / 6;
}

static double zh(double theta, double x)
{
	double lx = log(x);

	return expm1_over((1 - theta) * lx) * lx;
}

static double zh_inv(double theta, double y)
{
	return exp(log1p_over((1 - theta) * y) * y);
}

static double zpow(double theta, double x)
{
	return exp(-theta * log(x));
}

static void dist_init(struct sc_pattern *p, const struct sc_io_spec *io)
{
	double n = (double)p->nblocks;

	p->dist = io->rand_dist;
	switch (p->dist) {
	case SC_DIST_ZIPF:
		p->theta = io->rand_param;
		p->zipf_hx1 = zh(p->theta, 1.5) - 1;
		p->zipf_hn = zh(p->theta, n + 0.5);
		p->zipf_sv = 2 - zh_inv(p->theta, zh(p->theta, 2.5) - zpow(p->theta, 2));
		break;
	case SC_DIST_PARETO:
		p->pareto_pow = log(io->rand_param) / log(1 - io->rand_param);
		break;
	case SC_DIST_NORMAL:
		p->sigma_blocks = io->rand_param / 100 * n;
		break;
	case SC_DIST_ZONED: {
		uint32_t acc = 0, size = 0, z;

		for (z = 0; z < SC_ZONES_MAX && io->zone_size_pct[z]; z++) {
			acc += (uint32_t)io->zone_access_pct[z];
			size += (uint32_t)io->zone_size_pct[z];
			p->access_cum[z] = acc;
			p->zone_first[z] = p->nblocks * (size - io->zone_size_pct[z]) / 100;
		}
		p->nzones = z;
		p->zone_first[z] = p->nblocks;
		break;
	}
	default:
		break;
	}
}

static double unit(struct sc_pattern *p);

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
	sc_perm_init(&p->scatter, p->nblocks, p->seed ^ SCATTER_SALT);
	dist_init(p, io);
	p->random_every = io->random_every;
	p->randommap = io->randommap;
	p->map_next = p->nblocks; /* the first draw begins pass 0 */
	p->len = io->bs_bytes;
	p->left_bytes = io->runtime_ns ? UINT64_MAX : io->io_bytes;
	p->bs_max_bytes = io->bs_max_bytes > io->bs_bytes ? io->bs_max_bytes : 0;
	p->plain = sc_rw_random(p->rw) && p->dist == SC_DIST_RANDOM && !p->randommap &&
		   p->random_every <= 1 && !p->bs_max_bytes;
	for (uint32_t i = 0, cum = 0; i < SC_BSSPLIT_MAX && io->bssplit_bytes[i]; i++) {
		cum += (uint32_t)io->bssplit_pct[i];
		p->split_bytes[i] = io->bssplit_bytes[i];
		p->split_cum[i] = cum;
		p->nsplit = i + 1;
	}
}

uint64_t sc_pattern_draw_len(struct sc_pattern *p)
{
	uint64_t min = p->bs_bytes, len;

	if (p->nsplit) { /* the size whose percent band the draw falls in */
		uint64_t u = sc_pattern_below(p, 100);
		uint32_t i = 0;

		while (i + 1 < p->nsplit && u >= p->split_cum[i])
			i++;
		return p->split_bytes[i];
	}
	/* bsrange, as fio draws it: min + floor(max x u), down to a multiple
	 * of min, at most max */
	len = min + (uint64_t)((double)p->bs_max_bytes * unit(p));
	len -= len % min;
	return len < p->bs_max_bytes ? len : p->bs_max_bytes;
}

/* The size of the I/O at block, with several sizes: a draw of the mix
 * that fits before the region's end and within the bytes left, or bs
 * (which always does: every size and the budget are multiples of it). */
static uint64_t pick_len(struct sc_pattern *p, uint64_t block)
{
	uint64_t room = (p->nblocks - block) * p->bs_bytes, len;

	if (room > p->left_bytes)
		room = p->left_bytes;
	if (!p->bs_max_bytes || room <= p->bs_bytes)
		return p->bs_bytes;
	do
		len = sc_pattern_draw_len(p);
	while (len > room);
	return len;
}

uint64_t sc_pattern_below(struct sc_pattern *p, uint64_t n)
{
	/* Lemire's multiply-shift: unbiased enough for n far below 2^64. */
	return (uint64_t)(((unsigned __int128)next_u64(p) * n) >> 64);
}

/* A uniform draw in [0, 1) of 53 bits. */
static double unit(struct sc_pattern *p)
{
	return (double)(next_u64(p) >> 11) * 0x1p-53;
}

static uint64_t zipf_rank(struct sc_pattern *p)
{
	double t = p->theta;

	for (;;) {
		double u = p->zipf_hn + unit(p) * (p->zipf_hx1 - p->zipf_hn);
		double x = zh_inv(t, u), k = floor(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > (double)p->nblocks)
			k = (double)p->nblocks;
		if (k - x <= p->zipf_sv || u >= zh(t, k + 0.5) - zpow(t, k))
			return (uint64_t)k - 1;
	}
}

static uint64_t normal_position(struct sc_pattern *p)
{
	double n = (double)p->nblocks;

	for (;;) { /* a draw outside the region is drawn again */
		double r = sqrt(-2 * log(1 - unit(p))), a = 2 * M_PI * unit(p);
		double x = n / 2 + p->sigma_blocks * r * cos(a);

		if (x >= 0 && x < n)
			return (uint64_t)x;
	}
}

/* Zoned: a zone by the access shares, then a uniform block of it (a zone
 * of no block, in a region of fewer blocks than zones: its first). */
static uint64_t zoned_block(struct sc_pattern *p)
{
	uint64_t u = sc_pattern_below(p, 100);
	uint32_t z = 0;

	while (z + 1 < p->nzones && u >= p->access_cum[z])
		z++;
	if (p->zone_first[z + 1] <= p->zone_first[z])
		return p->zone_first[z] < p->nblocks ? p->zone_first[z] : p->nblocks - 1;
	return p->zone_first[z] + sc_pattern_below(p, p->zone_first[z + 1] - p->zone_first[z]);
}

/* A random block of the region, by the pattern's distribution. */
static uint64_t random_block(struct sc_pattern *p)
{
	uint64_t k;

	switch (p->dist) {
	case SC_DIST_ZIPF:
		k = zipf_rank(p);
		break;
	case SC_DIST_PARETO:
		k = (uint64_t)((double)(p->nblocks - 1) * pow(unit(p), p->pareto_pow));
		break;
	case SC_DIST_NORMAL:
		k = normal_position(p);
		break;
	case SC_DIST_ZONED:
		return zoned_block(p);
	default:
		return sc_pattern_below(p, p->nblocks); /* as before the key */
	}
	return sc_perm_map(&p->scatter, k < p->nblocks ? k : p->nblocks - 1);
}

/* randommap: the next block of this pass, a new pass's order after the
 * last one. */
static uint64_t map_block(struct sc_pattern *p)
{
	if (p->map_next >= p->nblocks) {
		uint64_t k = p->seed ^ MAP_SALT ^ p->map_pass++;

		sc_perm_init(&p->map, p->nblocks, sc_pattern_splitmix(&k));
		p->map_next = 0;
	}
	return sc_perm_map(&p->map, p->map_next++);
}

/* The block of a random pattern's next I/O: drawn (from the map or the
 * distribution), or the one after the last I/O's end while a run of
 * random_every lasts (as fio goes on from its last position). */
static uint64_t random_pick(struct sc_pattern *p)
{
	uint64_t block;

	if (p->run_left) { /* on from the end of the last I/O (p->len its size) */
		p->run_left--;
		p->run_block += p->len / p->bs_bytes;
		if (p->run_block >= p->nblocks)
			p->run_block = 0;
		return p->run_block;
	}
	block = p->randommap ? map_block(p) : random_block(p);
	if (p->random_every > 1) {
		p->run_left = p->random_every - 1;
		p->run_block = block;
	}
	return block;
}

/* sc_pattern_next of every pattern but a plain one. */
static int __attribute__((noinline)) next_any(struct sc_pattern *p, uint64_t *offset_bytes)
{
	uint64_t block;
	int write;

	switch (p->rw) {
	case SC_RW_READ:
	case SC_RW_WRITE:
	case SC_RW_READWRITE:
		write = p->rw == SC_RW_READWRITE ? sc_pattern_below(p, 100) >= p->read_pct
						 : p->rw == SC_RW_WRITE;
		block = p->next_block;
		p->len = p->bs_max_bytes ? pick_len(p, block) : p->bs_bytes;
		p->next_block += p->len / p->bs_bytes;
		if (p->next_block >= p->nblocks)
			p->next_block = 0;
		break;
	default:
		write = p->rw == SC_RW_RANDRW ? sc_pattern_below(p, 100) >= p->read_pct
					      : p->rw == SC_RW_RANDWRITE;
		block = random_pick(p);
		p->len = p->bs_max_bytes ? pick_len(p, block) : p->bs_bytes;
		break;
	}
	if (p->bs_max_bytes && p->left_bytes != UINT64_MAX)
		p->left_bytes -= p->left_bytes > p->len ? p->len : p->left_bytes;
	*offset_bytes = block * p->bs_bytes;
	return write;
}

int sc_pattern_next(struct sc_pattern *p, uint64_t *offset_bytes)
{
	int write;

	if (!p->plain)
		return next_any(p, offset_bytes);
	/* the common case, a leaf: the same draws next_any makes */
	write = p->rw == SC_RW_RANDRW ? sc_pattern_below(p, 100) >= p->read_pct
				      : p->rw == SC_RW_RANDWRITE;
	*offset_bytes = sc_pattern_below(p, p->nblocks) * p->bs_bytes;
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
