/* test_byte_samples.c -- the bytes a rank had moved at a past instant, read
 * off its samples (coordinator/byte_samples.h): exact at a sample, linear
 * between two, the newest's count after the newest, the oldest kept's
 * before it, across the ring's wrap; and a rank's first-done count at the
 * instant the first rank finished, not when it heard of it. */
#include <stdint.h>

#include "cluster/byte_samples.h"
#include "check.h"

#define AT(s, t) sc_byte_samples_at((s), (t))

static void check_empty_and_one(void)
{
	struct sc_byte_samples s = {0};

	CHECK(AT(&s, 0) == 0 && AT(&s, 1000) == 0, "no sample: 0");
	sc_byte_samples_add(&s, 1000, 4096);
	CHECK(AT(&s, 999) == 4096, "one sample: before it, its count (%llu)",
	      (unsigned long long)AT(&s, 999));
	CHECK(AT(&s, 1000) == 4096 && AT(&s, 5000) == 4096, "one sample: at and after it");
}

/* Samples (1000, 0), (2000, 100), (3000, 300), (3000, 400), (4000, 400). */
static void check_linear(void)
{
	struct sc_byte_samples s = {0};

	sc_byte_samples_add(&s, 1000, 0);
	sc_byte_samples_add(&s, 2000, 100);
	sc_byte_samples_add(&s, 3000, 300);
	sc_byte_samples_add(&s, 3000, 400); /* two looks in the same ns */
	sc_byte_samples_add(&s, 4000, 400);
	CHECK(AT(&s, 1000) == 0, "at the first sample: %llu", (unsigned long long)AT(&s, 1000));
	CHECK(AT(&s, 1500) == 50, "half way to the second: %llu", (unsigned long long)AT(&s, 1500));
	CHECK(AT(&s, 2000) == 100, "at the second: %llu", (unsigned long long)AT(&s, 2000));
	CHECK(AT(&s, 2250) == 150, "a quarter into the third second: %llu",
	      (unsigned long long)AT(&s, 2250));
	CHECK(AT(&s, 2999) == 299, "1 ns before the third: %llu", (unsigned long long)AT(&s, 2999));
	CHECK(AT(&s, 3000) == 400, "at two samples of one instant, the later: %llu",
	      (unsigned long long)AT(&s, 3000));
	CHECK(AT(&s, 3500) == 400, "flat between equal counts: %llu",
	      (unsigned long long)AT(&s, 3500));
	CHECK(AT(&s, 4000) == 400 && AT(&s, UINT64_MAX) == 400, "at and after the newest");
	CHECK(AT(&s, 0) == 0, "before the oldest: its count");
}

/* 200 samples at t = 10 i, bytes = i * i: only the last 64 are kept. */
static void check_ring(void)
{
	struct sc_byte_samples s = {0};
	const uint32_t n = 200, oldest = n - SC_BYTE_SAMPLES;

	for (uint64_t i = 0; i < n; i++)
		sc_byte_samples_add(&s, 10 * i, i * i);
	for (uint64_t i = oldest; i < n; i++)
		CHECK(AT(&s, 10 * i) == i * i, "at sample %llu: %llu", (unsigned long long)i,
		      (unsigned long long)AT(&s, 10 * i));
	for (uint64_t i = oldest; i + 1 < n; i++) {
		/* 3/10 of the way from sample i to i + 1 */
		uint64_t want = i * i + ((i + 1) * (i + 1) - i * i) * 3 / 10;

		CHECK(AT(&s, 10 * i + 3) == want, "between samples %llu and %llu: %llu, want %llu",
		      (unsigned long long)i, (unsigned long long)i + 1,
		      (unsigned long long)AT(&s, 10 * i + 3), (unsigned long long)want);
	}
	CHECK(AT(&s, 10 * oldest - 5) == (uint64_t)oldest * oldest,
	      "before the oldest kept (sample %u): its count, %llu", oldest,
	      (unsigned long long)AT(&s, 10 * oldest - 5));
	CHECK(AT(&s, 0) == (uint64_t)oldest * oldest, "long before: the oldest kept's count");
}

/* Past 2^32 samples (49 days of 1 ms looks) the ring still reads every
 * sample kept (a 32-bit count used to wrap, keeping only those after). */
static void check_count_wrap(void)
{
	struct sc_byte_samples s = {.n = UINT32_MAX - 2};

	for (uint64_t i = 1; i <= 6; i++)
		sc_byte_samples_add(&s, 100 * i, 1000 * i);
	CHECK(s.n == UINT32_MAX + UINT64_C(4), "the count went on: %llu", (unsigned long long)s.n);
	CHECK(AT(&s, 600) == 6000, "newest after the wrap: %llu", (unsigned long long)AT(&s, 600));
	CHECK(AT(&s, 250) == 2500, "between samples across the wrap: %llu",
	      (unsigned long long)AT(&s, 250));
}

/* A slow rank, 1 MB/s, sampled every 8 ms, hears 300 ms late that the
 * first rank finished at 2.004 s: its first-done count is what it had
 * moved at 2.004 s (2,004,000 B), not at 2.304 s when it heard. */
static void check_heard_late(void)
{
	struct sc_byte_samples s = {0};
	const uint64_t ms = 1000000, first = 2004 * ms, heard = first + 300 * ms;

	for (uint64_t t = 0; t <= heard; t += 8 * ms)
		sc_byte_samples_add(&s, t, t / 1000);
	sc_byte_samples_add(&s, heard, heard / 1000);
	CHECK(AT(&s, first) == first / 1000, "first-done bytes %llu, want %llu",
	      (unsigned long long)AT(&s, first), (unsigned long long)(first / 1000));
}

int main(void)
{
	check_empty_and_one();
	check_linear();
	check_ring();
	check_count_wrap();
	check_heard_late();
	return check_exit("test_byte_samples");
}
