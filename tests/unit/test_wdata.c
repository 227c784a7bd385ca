/* test_wdata.c -- the data writes carry: each block its own, the same
 * seed the same blocks, no 512-byte piece twice, compressible's zero run
 * of exactly its share, dedupe's repeats drawn from the pool at about
 * their share. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
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
	for (uint32_t i = 0; i < NBLOCKS; i++)
		sc_wdata_fill(&w, blocks[i], BS);
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

int main(void)
{
	static unsigned char first[BS], tail[TAIL_BYTES + 8];
	struct sc_wdata w;
	uint32_t r;

	/* fresh: no two blocks alike; the same seed gives the same data */
	fill_all(7, 0, 0);
	CHECK(repeats() == 0, "%u repeated blocks without dedupe", repeats());
	CHECK(repeated_sectors() == 0, "%u repeated 512-byte pieces", repeated_sectors());
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
	return check_exit("test_wdata");
}
