/* test_write_cliff.c -- the write-cliff detector on synthetic series: a
 * knee found at its second, a flat series and noise around the initial
 * rate without a cliff, a short dip not taken for one, the seconds of the
 * sequential passes picked out of a fill's series. */
#include "analysis/write_cliff.h"

#include <math.h>
#include <stdlib.h>

#include "check.h"

#define MB	  UINT64_C(1000000)
#define NSEC	  40u
#define FAST	  (2000 * MB)
#define SLOW	  (400 * MB)
#define HALF	  0.5
#define NOISE_PCT 30 /* noise of +-30% around the rate */

/* A drive writing FAST for knee seconds, then SLOW. */
static void knee(uint64_t *b, uint32_t n, uint32_t at)
{
	for (uint32_t k = 0; k < n; k++)
		b[k] = k < at ? FAST : SLOW;
}

static void test_knee(void)
{
	uint64_t b[NSEC];
	struct sc_write_cliff c;

	for (uint32_t at = 2; at < NSEC - 1; at += 3) {
		knee(b, NSEC, at);
		sc_write_cliff_find(b, NSEC, HALF, &c);
		CHECK(c.found, "knee at %u s not found", at);
		CHECK(c.second >= at - 1 && c.second <= at + 1, "knee at %u s found at %u s", at,
		      c.second);
		CHECK(c.second == at, "knee at %u s: found at %u s", at, c.second);
		CHECK(c.cache_bytes == at * FAST, "cache %llu B, expected %llu B",
		      (unsigned long long)c.cache_bytes, (unsigned long long)(at * FAST));
		CHECK(c.initial_bytes_per_s == (double)FAST, "initial %g", c.initial_bytes_per_s);
		CHECK(c.after_bytes_per_s == (double)SLOW, "after %g", c.after_bytes_per_s);
	}
	/* a gradual knee from second 10: 1680, 1360, 1040, 720 MB/s, then
	 * SLOW; the threshold FAST / 2 = 1000 MB/s is crossed at second 13 */
	knee(b, NSEC, 10);
	for (uint32_t k = 0; k < 4; k++)
		b[10 + k] = FAST - (FAST - SLOW) * (k + 1) / 5;
	sc_write_cliff_find(b, NSEC, HALF, &c);
	CHECK(c.found && c.second == 13, "gradual knee: found %d at %u s", c.found, c.second);
}

static void test_flat_and_noise(void)
{
	uint64_t b[NSEC];
	struct sc_write_cliff c;

	for (uint32_t k = 0; k < NSEC; k++)
		b[k] = FAST;
	sc_write_cliff_find(b, NSEC, HALF, &c);
	CHECK(!c.found && c.cache_bytes == 0, "flat: cliff at %u s", c.second);
	CHECK(c.initial_bytes_per_s == (double)FAST, "flat: initial %g", c.initial_bytes_per_s);
	srand(7);
	for (int trial = 0; trial < 100; trial++) {
		for (uint32_t k = 0; k < NSEC; k++)
			b[k] =
			    FAST / 100 * (uint64_t)(100 - NOISE_PCT + rand() % (2 * NOISE_PCT + 1));
		sc_write_cliff_find(b, NSEC, HALF, &c);
		CHECK(!c.found, "noise (trial %d): cliff at %u s", trial, c.second);
	}
	/* one or two slow seconds are a dip, not a cliff */
	for (uint32_t k = 0; k < NSEC; k++)
		b[k] = FAST;
	b[15] = b[16] = SLOW;
	sc_write_cliff_find(b, NSEC, HALF, &c);
	CHECK(!c.found, "a 2 s dip taken for a cliff at %u s", c.second);
	/* a fraction below the slow rate sees no cliff in a knee */
	knee(b, NSEC, 10);
	sc_write_cliff_find(b, NSEC, 0.1, &c);
	CHECK(!c.found, "fraction 0.1: cliff at %u s", c.second);
	sc_write_cliff_find(b, 0, HALF, &c);
	CHECK(!c.found && c.nseconds == 0, "empty series");
}

/* A fill's series: the sequential passes (knee at 5 s), the second they
 * end in, then random writes slower still: only the sequential seconds
 * count, so the random part is no cliff of its own. */
static void test_of_seconds(void)
{
	struct sc_second s[20] = {0};
	struct sc_write_cliff c;
	uint64_t seq = 0;

	for (uint32_t k = 0; k < 12; k++) {
		s[k].bytes[SC_DIR_WRITE] = k < 5 ? FAST : SLOW;
		seq += s[k].bytes[SC_DIR_WRITE];
	}
	seq -= SLOW / 2; /* reached within second 11 */
	for (uint32_t k = 12; k < 20; k++)
		s[k].bytes[SC_DIR_WRITE] = SLOW / 10;
	CHECK(sc_write_cliff_of_seconds(s, 20, seq, HALF, &c) == 0, "of_seconds failed");
	CHECK(c.nseconds == 11, "%u seconds analysed, expected 11", c.nseconds);
	CHECK(c.found && c.second == 5 && c.cache_bytes == 5 * FAST, "cliff %d at %u s, %llu B",
	      c.found, c.second, (unsigned long long)c.cache_bytes);
	CHECK(c.after_bytes_per_s == (double)SLOW, "after %g", c.after_bytes_per_s);
	/* all flat and cut short: the last second is not whole */
	for (uint32_t k = 0; k < 20; k++)
		s[k].bytes[SC_DIR_WRITE] = k == 19 ? 1 : FAST;
	CHECK(sc_write_cliff_of_seconds(s, 20, UINT64_MAX, HALF, &c) == 0, "of_seconds failed");
	CHECK(c.nseconds == 19 && !c.found, "cut short: %u seconds, cliff %d", c.nseconds, c.found);
}

/* A fill phase of 3 ranks whose own series rank 0 did not keep (only the
 * cluster's, with a knee at 5 s): each drive's cliff unknown, not "no
 * cliff"; the cluster's found from its series. */
static void test_series_not_kept(void)
{
	struct sc_phase plan_phase = {.workload = SC_WORKLOAD_FILL,
				      .io = {.size_bytes = UINT64_C(1) << 40, .jobs = 1},
				      .fill = {.passes = 1, .cliff_fraction = HALF}};
	struct sc_plan plan = {.nphases = 1, .phases = &plan_phase};
	struct sc_rank_result ranks[3] = {{.rank = 0}, {.rank = 1}, {.rank = 2}};
	struct sc_second secs[12] = {0};
	struct sc_series cluster = {.nseconds = 12, .seconds = secs};
	struct sc_phase_record pr = {.nranks = 3, .ranks = ranks, .cluster = &cluster};
	struct sc_phase_figures fig = {.nseconds = 12, .seconds = secs};
	struct sc_fill_cliffs c;

	for (uint32_t k = 0; k < 12; k++)
		secs[k].bytes[SC_DIR_WRITE] = k < 5 ? FAST : SLOW;
	CHECK(sc_fill_cliffs(&plan, &pr, &fig, &c) == 0, "sc_fill_cliffs");
	CHECK(c.ranks_unknown == 3 && c.ranks_with_cliff == 0, "%u drives unknown, %u with a cliff",
	      c.ranks_unknown, c.ranks_with_cliff);
	for (uint32_t r = 0; r < c.nranks; r++)
		CHECK(c.ranks[r].unknown && !c.ranks[r].found, "drive %u: unknown", r);
	CHECK(c.cluster.found && c.cluster.second == 5 && !c.cluster.unknown,
	      "the cluster's cliff at %u s from its own series", c.cluster.second);
	sc_fill_cliffs_exit(&c);
	/* with the ranks' own seconds, a drive's cliff is its own again */
	ranks[1].nseconds = 12;
	ranks[1].seconds = secs;
	CHECK(sc_fill_cliffs(&plan, &pr, &fig, &c) == 0, "sc_fill_cliffs");
	CHECK(c.ranks_unknown == 0 && !c.ranks[0].unknown && c.ranks[1].found,
	      "series kept: drive 1's cliff found, none unknown");
	sc_fill_cliffs_exit(&c);
}

int main(void)
{
	test_knee();
	test_flat_and_noise();
	test_of_seconds();
	test_series_not_kept();
	return check_exit("test_write_cliff");
}
