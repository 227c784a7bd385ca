/* test_bsmix.c -- I/O sizes of a mix (bssplit, bsrange) and zoned
 * offsets, against truths worked out here apart from the generator:
 * bssplit's shares are its percents; bsrange's sizes are uniform over the
 * multiples of MIN up to MAX (fio's rule, min + floor(max u) rounded down
 * to a multiple of min, for MAX a multiple of MIN); zoned puts A_z % of
 * the I/Os in zone z's block range [floor(n S_{z-1} / 100), floor(n S_z /
 * 100)) and spreads them evenly within it.  Tolerances: 6 binomial
 * standard deviations at the sample size.  Also: a sized job's sizes add
 * up to exactly io_bytes, every I/O ends inside the region at an offset
 * of a multiple of the smallest size, and a sequential pass tiles the
 * region without gap or overlap, and with random_every each I/O of a run
 * begins where the last ended. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "pattern.h"

#define DRAWS  400000u
#define SIGMAS 6.0
#define KIB    1024u

/* |got - want p| of n Bernoulli(p) trials within SIGMAS deviations. */
static void check_share(const char *what, uint64_t got, uint64_t n, double p)
{
	double sd = sqrt(n * p * (1 - p)), dev = fabs((double)got - n * p);

	CHECK(dev <= SIGMAS * sd + 1e-9, "%s: %llu of %llu, expected %.1f (sd %.1f)", what,
	      (unsigned long long)got, (unsigned long long)n, n * p, sd);
}

/* A timed randread job over a large region: the size draws alone. */
static void test_bssplit_shares(void)
{
	static const uint64_t sz[] = {512, 4 * KIB, 8 * KIB, 64 * KIB};
	static const uint64_t pct[] = {10, 60, 5, 25};
	struct sc_io_spec io = {.rw = SC_RW_RANDREAD, .bs_bytes = 512, .bs_max_bytes = 64 * KIB,
				.size_bytes = 1ull << 40, .runtime_ns = 1, .seed = 11};
	uint64_t n[4] = {0};
	struct sc_pattern p;

	for (int i = 0; i < 4; i++) {
		io.bssplit_bytes[i] = sz[i];
		io.bssplit_pct[i] = pct[i];
	}
	sc_pattern_init(&p, &io, 0, 0);
	for (uint32_t d = 0; d < DRAWS; d++) {
		uint64_t off;
		int i;

		sc_pattern_next(&p, &off);
		for (i = 0; i < 4 && p.len != sz[i]; i++)
			;
		CHECK(i < 4, "size %llu is not one of the split's", (unsigned long long)p.len);
		if (i < 4)
			n[i]++;
		CHECK(off % 512 == 0, "offset %llu not a multiple of 512", (unsigned long long)off);
	}
	for (int i = 0; i < 4; i++)
		check_share("bssplit share", n[i], DRAWS, pct[i] / 100.0);
}

static void test_bsrange_uniform(void)
{
	struct sc_io_spec io = {.rw = SC_RW_RANDREAD, .bs_bytes = 4 * KIB, .bs_max_bytes = 32 * KIB,
				.size_bytes = 1ull << 40, .runtime_ns = 1, .seed = 5};
	uint64_t n[9] = {0};
	struct sc_pattern p;

	sc_pattern_init(&p, &io, 0, 0);
	for (uint32_t d = 0; d < DRAWS; d++) {
		uint64_t off;

		sc_pattern_next(&p, &off);
		CHECK(p.len % (4 * KIB) == 0 && p.len >= 4 * KIB && p.len <= 32 * KIB,
		      "bsrange size %llu", (unsigned long long)p.len);
		if (p.len % (4 * KIB) == 0 && p.len <= 32 * KIB)
			n[p.len / (4 * KIB)]++;
	}
	for (int k = 1; k <= 8; k++)
		check_share("bsrange multiple", n[k], DRAWS, 1.0 / 8);
}

/* Sized jobs: the sizes add up to io_bytes exactly, each I/O inside the
 * region; a sequential one-pass job tiles the region. */
static void test_budget(enum sc_rw rw, uint64_t io_bytes)
{
	struct sc_io_spec io = {.rw = rw, .bs_bytes = 4 * KIB, .bs_max_bytes = 64 * KIB,
				.size_bytes = 16ull << 20, .io_bytes = io_bytes, .seed = 3,
				.rwmixread_pct = 50};
	static unsigned char seen[4096];
	uint64_t sum = 0, ios = 0, expect_next = 0;
	bool tiled = true;
	struct sc_pattern p;

	io.bssplit_bytes[0] = 4 * KIB, io.bssplit_pct[0] = 60;
	io.bssplit_bytes[1] = 64 * KIB, io.bssplit_pct[1] = 40;
	memset(seen, 0, sizeof(seen));
	sc_pattern_init(&p, &io, 0, 0);
	while (sum < io_bytes && ios < 10 * io_bytes / (4 * KIB)) {
		uint64_t off;

		sc_pattern_next(&p, &off);
		CHECK(off % (4 * KIB) == 0 && off + p.len <= io.size_bytes,
		      "I/O at %llu of %llu B leaves the region", (unsigned long long)off,
		      (unsigned long long)p.len);
		if (!sc_rw_random(rw)) {
			tiled = tiled && off == expect_next;
			expect_next = off + p.len;
		}
		sum += p.len;
		ios++;
	}
	CHECK(sum == io_bytes, "%s: the sizes add up to %llu, not io_bytes %llu", sc_rw_name(rw),
	      (unsigned long long)sum, (unsigned long long)io_bytes);
	if (!sc_rw_random(rw) && io_bytes == io.size_bytes)
		CHECK(tiled && expect_next == io.size_bytes, "a sequential pass does not tile");
}

/* random_every 4 with a bssplit mix: each of the 3 I/Os after a drawn
 * one begins where the one before ended (fio's randread:4 goes on from
 * its last position), wrapping to 0 at the region's end; the region is
 * small, so runs reach its end. */
static void test_runs(void)
{
	struct sc_io_spec io = {.rw = SC_RW_RANDREAD, .bs_bytes = 4 * KIB, .bs_max_bytes = 64 * KIB,
				.size_bytes = 1u << 20, .runtime_ns = 1, .seed = 5,
				.random_every = 4};
	uint64_t prev_end = 0, follow = 0, wraps = 0, bad = 0;
	struct sc_pattern p;

	io.bssplit_bytes[0] = 4 * KIB, io.bssplit_pct[0] = 50;
	io.bssplit_bytes[1] = 64 * KIB, io.bssplit_pct[1] = 50;
	sc_pattern_init(&p, &io, 0, 0);
	for (uint32_t i = 0; i < DRAWS / 10; i++) {
		uint64_t off, want = prev_end == io.size_bytes ? 0 : prev_end;

		sc_pattern_next(&p, &off);
		if (i % 4) {
			follow++;
			wraps += want == 0;
			bad += off != want;
		}
		CHECK(off + p.len <= io.size_bytes, "I/O at %llu of %llu B leaves the region",
		      (unsigned long long)off, (unsigned long long)p.len);
		prev_end = off + p.len;
	}
	CHECK(bad == 0, "%llu of %llu I/Os of a run did not begin where the last ended",
	      (unsigned long long)bad, (unsigned long long)follow);
	CHECK(wraps > 0, "no run reached the region's end (the test's region is too large)");
}

/* zoned:60/10:30/20:8/30:2/ over n blocks. */
static void test_zoned(uint64_t nblocks)
{
	static const uint64_t acc[] = {60, 30, 8, 2}, size[] = {10, 20, 30, 40};
	struct sc_io_spec io = {.rw = SC_RW_RANDREAD, .bs_bytes = 4 * KIB,
				.size_bytes = nblocks * 4 * KIB, .runtime_ns = 1, .seed = 9,
				.rand_dist = SC_DIST_ZONED};
	uint64_t first[5], n[4] = {0}, lowhalf[4] = {0}, cum = 0;
	struct sc_pattern p;

	for (int z = 0; z < 4; z++) {
		io.zone_access_pct[z] = acc[z];
		io.zone_size_pct[z] = size[z];
		first[z] = nblocks * cum / 100;
		cum += size[z];
	}
	first[4] = nblocks;
	sc_pattern_init(&p, &io, 0, 0);
	for (uint32_t d = 0; d < DRAWS; d++) {
		uint64_t off, b;
		int z;

		sc_pattern_next(&p, &off);
		b = off / (4 * KIB);
		for (z = 0; z < 4 && b >= first[z + 1]; z++)
			;
		CHECK(z < 4, "block %llu outside the region", (unsigned long long)b);
		if (z == 4)
			continue;
		n[z]++;
		/* within a zone, uniform: its lower half of blocks takes its share */
		if (b < first[z] + (first[z + 1] - first[z]) / 2)
			lowhalf[z]++;
	}
	for (int z = 0; z < 4; z++) {
		uint64_t len = first[z + 1] - first[z];

		check_share("zoned zone share", n[z], DRAWS, acc[z] / 100.0);
		if (n[z] > 1000)
			check_share("zoned within zone", lowhalf[z], n[z],
				    (double)(len / 2) / (double)len);
	}
}

int main(void)
{
	test_bssplit_shares();
	test_bsrange_uniform();
	test_budget(SC_RW_RANDREAD, 10u << 20);
	test_budget(SC_RW_RANDRW, (10u << 20) + 4 * KIB);
	test_budget(SC_RW_READ, 16u << 20);
	test_budget(SC_RW_READWRITE, 40u << 20); /* wraps twice and a half */
	test_zoned(1000);
	test_zoned(777);
	test_runs();
	return check_exit("test_bsmix");
}
