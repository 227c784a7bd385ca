/* test_wdata.c -- the data writes carry: each block its own, the same
 * seed the same blocks, no 512-byte piece twice, compressible's zero run
 * of exactly its share, dedupe's repeats drawn from the pool at about
 * their share; the same block whatever the buffer held before (a read into
 * it, a longer block), and no 8 bytes of a block where the block before
 * had them (what a compressor whose window spans both would match). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pattern.h"
#include "wdata.h"

#define BS	   4096u
#define NBLOCKS	   2048u
#define TAIL_BYTES 13u /* a length that is no multiple of 8 */

static unsigned char blocks[NBLOCKS][BS], base[BS];

/* Fills NBLOCKS blocks from seed with the shares given. */
static void fill_all(uint64_t seed, uint32_t compressible, uint32_t dedupe)
{
	struct sc_wdata w;

	sc_wdata_init(&w, seed, compressible, dedupe, base, BS);
	for (uint32_t i = 0; i < NBLOCKS; i++) {
		memset(blocks[i], (int)(i + seed), BS); /* what the buffer held */
		sc_wdata_fill(&w, blocks[i], BS);
	}
	CHECK(w.seq == NBLOCKS, "seq %llu after %u fills", (unsigned long long)w.seq, NBLOCKS);
}

/* Blocks equal to an earlier one. */
static uint32_t repeats(void)
{
	uint32_t n = 0;

	for (uint32_t i = 1; i < NBLOCKS; i++)
		for (uint32_t j = 0; j < i; j++)
			if (memcmp(blocks[i], blocks[j], BS) == 0) {
				n++;
				break;
			}
	return n;
}

#define SECTOR 512u

static int cmp_sector(const void *a, const void *b)
{
	return memcmp(*(const unsigned char *const *)a, *(const unsigned char *const *)b, SECTOR);
}

/* 512-byte pieces of all blocks equal to another piece. */
static uint32_t repeated_sectors(void)
{
	static const unsigned char *s[NBLOCKS * (BS / SECTOR)];
	uint32_t n = 0, k = 0;

	for (uint32_t i = 0; i < NBLOCKS; i++)
		for (uint32_t o = 0; o < BS; o += SECTOR)
			s[k++] = blocks[i] + o;
	qsort(s, k, sizeof(s[0]), cmp_sector);
	for (uint32_t i = 1; i < k; i++)
		n += cmp_sector(&s[i - 1], &s[i]) == 0;
	return n;
}

/* The zero run at the end of a block: its length in bytes. */
static uint32_t zero_tail(const unsigned char *b)
{
	uint32_t n = 0;

	while (n < BS && b[BS - 1 - n] == 0)
		n++;
	return n;
}

/* Bytes that differ between a and b (n bytes each). */
static uint32_t diff_bytes(const unsigned char *a, const unsigned char *b, size_t n)
{
	uint32_t d = 0;

	for (size_t i = 0; i < n; i++)
		d += a[i] != b[i];
	return d;
}

#define HEAD_BYTES 16u
#define WORD	   8u
static const unsigned char zeros[BS];

/* 8-byte words at the same offset in consecutive blocks (of NBLOCKS):
 * what a compressor whose window spans two blocks would match. */
static uint32_t shared_words(void)
{
	uint32_t n = 0;

	for (uint32_t i = 1; i < NBLOCKS; i++)
		for (uint32_t o = 0; o < BS; o += WORD)
			n += memcmp(blocks[i - 1] + o, blocks[i] + o, WORD) == 0;
	return n;
}

/* Fills NBLOCKS blocks of seed into one buffer, as a job's slot gets them,
 * each compared with blocks[] (fill_all's of the same seed and shares):
 * after a read into it (another job's block, whole or short, or a few
 * bytes) or a shorter block of the same job, it still gets the same
 * block. */
static void check_refill(uint64_t seed, uint32_t compressible)
{
	static unsigned char buf[BS], obase[BS], sbase[BS];
	struct sc_wdata w, o, s;
	uint32_t bad = 0;

	sc_wdata_init(&w, seed, compressible, 0, base, BS);
	sc_wdata_init(&o, seed + 1, 50, 0, obase, BS);
	sc_wdata_init(&s, seed, compressible, 0, sbase, BS);
	for (uint32_t i = 0; i < NBLOCKS; i++) {
		sc_wdata_fill(&w, buf, BS);
		bad += memcmp(buf, blocks[i], BS) != 0;
		if (i % 5 == 2) /* a read of another job's block, whole or short */
			sc_wdata_fill(&o, buf, i % 2 ? BS : SECTOR + SECTOR / 2);
		if (i % 5 == 3) /* a short read: a part of one sector */
			memset(buf + SECTOR + HEAD_BYTES, 0xa5, 3);
		if (i % 5 == 4) /* a shorter block of the same job's data */
			sc_wdata_fill(&s, buf, BS / 2 + SECTOR / 4);
	}
	CHECK(bad == 0, "seed %llu compressible %u%%: %u blocks differ from fresh buffers'",
	      (unsigned long long)seed, compressible, bad);
}

/* A buffer last filled with a longer block, then a shorter one: the same
 * bytes as in a buffer of other bytes. */
static void check_lengths(uint32_t compressible)
{
	static unsigned char a[BS], b[BS], c[BS];
	struct sc_wdata wa, wb;

	sc_wdata_init(&wa, 11, compressible, 0, base, BS);
	sc_wdata_init(&wb, 11, compressible, 0, c, BS);
	for (uint32_t len = BS; len >= SECTOR / 2; len -= SECTOR / 2 + 1) {
		memset(b, (int)len, BS);
		sc_wdata_fill(&wa, a, len);
		sc_wdata_fill(&wb, b, len);
		CHECK(memcmp(a, b, len) == 0,
		      "compressible %u%%: a %u-byte block after a longer one differs", compressible,
		      len);
	}
}

/* Blocks of a length that is no multiple of 512 (and shorter than it)
 * differ from each other, and sectors of one block from each other. */
static void check_short_blocks(void)
{
	static unsigned char a[SECTOR + 100], b[SECTOR + 100];
	struct sc_wdata w;

	sc_wdata_init(&w, 3, 0, 0, base, BS);
	sc_wdata_fill(&w, a, 100);
	sc_wdata_fill(&w, b, 100);
	CHECK(memcmp(a, b, 100) != 0, "two 100-byte blocks alike");
	CHECK(memcmp(a, b, HEAD_BYTES) != 0, "two 100-byte blocks share their first 16 bytes");
	sc_wdata_fill(&w, a, sizeof(a));
	sc_wdata_fill(&w, b, sizeof(b));
	CHECK(memcmp(a + SECTOR, b + SECTOR, 100) != 0, "two blocks' 100-byte last sectors alike");
	/* compressible 99%: 41 random bytes of 4 KiB, still each block its own */
	fill_all(7, 99, 0);
	CHECK(repeats() == 0, "compressible 99%%: %u repeated blocks", repeats());
	CHECK(zero_tail(blocks[1]) >= BS - BS / 100 - 1 && zero_tail(blocks[1]) < BS - 40,
	      "compressible 99%%: zero run of %u bytes", zero_tail(blocks[1]));
}

#define XOR_LEN_MAX 300u
#define XOR_SHIFT   7u /* misalignments tried */

/* sc_pattern_xor (its bytes are verify's blocks too) is src XOR the key
 * repeated, byte for byte, at every length and alignment, whichever step
 * width the CPU takes. */
static void check_xor(void)
{
	static unsigned char src[XOR_LEN_MAX + XOR_SHIFT], dst[XOR_LEN_MAX + 2 * XOR_SHIFT];
	unsigned char key[SC_PATTERN_KEY_BYTES];
	uint32_t bad = 0;

	sc_pattern_fill(src, sizeof(src), 5);
	sc_pattern_fill(key, sizeof(key), 6);
	for (uint32_t len = 0; len <= XOR_LEN_MAX; len++)
		for (uint32_t sh = 0; sh < XOR_SHIFT; sh++) {
			memset(dst, 0xee, sizeof(dst));
			sc_pattern_xor(dst + sh, src + (XOR_SHIFT - 1 - sh), len, key);
			for (uint32_t i = 0; i < sizeof(dst); i++) {
				unsigned char want = 0xee;

				if (i >= sh && i < sh + len)
					want = src[XOR_SHIFT - 1 - sh + i - sh] ^
					       key[(i - sh) % SC_PATTERN_KEY_BYTES];
				bad += dst[i] != want;
			}
		}
	CHECK(bad == 0, "sc_pattern_xor: %u bytes not src ^ key", bad);
}

int main(void)
{
	static unsigned char first[BS], tail[TAIL_BYTES + 8];
	struct sc_wdata w;
	uint32_t r;

	/* fresh: no two blocks alike; the same seed gives the same data */
	fill_all(7, 0, 0);
	CHECK(repeats() == 0, "%u repeated blocks without dedupe", repeats());
	CHECK(repeated_sectors() == 0, "%u repeated 512-byte pieces", repeated_sectors());
	/* the same sector index of two blocks, two sectors of one block */
	CHECK(memcmp(blocks[0] + SECTOR, blocks[1] + SECTOR, SECTOR) != 0,
	      "sector 1 of blocks 0 and 1 alike");
	CHECK(memcmp(blocks[0] + SECTOR, blocks[1] + SECTOR, HEAD_BYTES) != 0,
	      "sector 1 of blocks 0 and 1: the same first 16 bytes");
	CHECK(memcmp(blocks[0], blocks[0] + SECTOR, HEAD_BYTES) != 0,
	      "sectors 0 and 1 of block 0: the same first 16 bytes");
	CHECK(shared_words() == 0, "%u 8-byte words where the block before had them",
	      shared_words());
	CHECK(diff_bytes(blocks[9], zeros, BS) > BS - BS / 64,
	      "a fresh block has %u zero bytes of %u: not random",
	      BS - diff_bytes(blocks[9], zeros, BS), BS);
	check_refill(7, 0);
	memcpy(first, blocks[0], BS);
	fill_all(7, 0, 0);
	CHECK(memcmp(first, blocks[0], BS) == 0, "seed 7 gave other data the second time");
	fill_all(8, 0, 0);
	CHECK(memcmp(first, blocks[0], BS) != 0, "seeds 7 and 8 gave the same block");

	/* compressible: N% of each block a zero run (and no longer, bar a
	 * random byte that happens to be 0) */
	fill_all(7, 50, 0);
	CHECK(zero_tail(blocks[3]) >= BS / 2 && zero_tail(blocks[3]) < BS / 2 + 8,
	      "compressible 50%%: zero run of %u bytes, want %u", zero_tail(blocks[3]), BS / 2);
	check_refill(7, 50);
	fill_all(7, 100, 0);
	CHECK(zero_tail(blocks[5]) == BS, "compressible 100%%: %u zero bytes",
	      zero_tail(blocks[5]));
	fill_all(7, 250, 0); /* counts as 100 */
	CHECK(zero_tail(blocks[5]) == BS, "compressible 250%%: %u zero bytes",
	      zero_tail(blocks[5]));

	/* dedupe: about half the blocks repeat, from at most the pool */
	fill_all(7, 0, 50);
	r = repeats();
	CHECK(r >= NBLOCKS * 44 / 100 && r <= NBLOCKS * 54 / 100,
	      "dedupe 50%%: %u of %u blocks repeat", r, NBLOCKS);
	CHECK(NBLOCKS - r <= NBLOCKS / 2 + NBLOCKS * 4 / 100 + SC_WDATA_POOL,
	      "dedupe 50%%: %u distinct blocks", NBLOCKS - r);
	fill_all(7, 0, 100);
	r = repeats();
	CHECK(NBLOCKS - r <= SC_WDATA_POOL, "dedupe 100%%: %u distinct blocks, pool %u",
	      NBLOCKS - r, SC_WDATA_POOL);

	/* a length that is no multiple of 8 is filled to its end, not past it */
	memset(tail, 0xee, sizeof(tail));
	sc_wdata_init(&w, 1, 0, 0, base, BS);
	sc_wdata_fill(&w, tail, TAIL_BYTES);
	for (uint32_t i = TAIL_BYTES; i < sizeof(tail); i++)
		CHECK(tail[i] == 0xee, "byte %u past the block written", i);
	check_short_blocks();
	check_xor();
	check_lengths(0);
	check_lengths(50);
	return check_exit("test_wdata");
}
