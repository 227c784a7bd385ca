/* test_fio_values.c -- fio's sizes, times, ranges and bssplit against the
 * examples of fio's own HOWTO ("Examples with kb_base=1000/1024", bssplit's
 * "4k/50:1k/:32k/" gives 50, 25, 25), and the values fio refuses. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fio/values.h"

static uint64_t size_of(const char *s, uint32_t base)
{
	uint64_t v = 0;
	int rc = sc_fio_size_parse(s, base, &v);

	CHECK(rc == 0, "%s (kb_base %u): %d", s, base, rc);
	return v;
}

static void test_sizes(void)
{
	/* HOWTO, kb_base=1000 */
	static const char *const kib1000[] = {"4096", "4096b", "4096B", "4ki", "4kib", "4kiB", "4Ki",
					      "4KiB"};
	/* HOWTO, kb_base=1024 (the default) */
	static const char *const kib1024[] = {"4096", "4096b", "4096B", "4k", "4kb", "4kB", "4K",
					      "4KB"};
	uint64_t v;

	for (size_t i = 0; i < 8; i++) {
		CHECK(size_of(kib1000[i], 1000) == 4096, "%s, kb_base 1000: 4 KiB", kib1000[i]);
		CHECK(size_of(kib1024[i], 1024) == 4096, "%s, kb_base 1024: 4 KiB", kib1024[i]);
	}
	CHECK(size_of("1mi", 1000) == 1048576 && size_of("1024ki", 1000) == 1048576, "1 MiB, 1000");
	CHECK(size_of("1m", 1000) == 1000000 && size_of("1000k", 1000) == 1000000, "1 MB, 1000");
	CHECK(size_of("1ti", 1000) == 1099511627776ull && size_of("1048576mi", 1000) == 1099511627776ull,
	      "1 TiB, 1000");
	CHECK(size_of("1m", 1024) == 1048576 && size_of("1024k", 1024) == 1048576, "1 MiB, 1024");
	CHECK(size_of("1mi", 1024) == 1000000 && size_of("1000ki", 1024) == 1000000, "1 MB, 1024");
	CHECK(size_of("1t", 1024) == 1099511627776ull && size_of("1024g", 1024) == 1099511627776ull,
	      "1 TiB, 1024");
	CHECK(size_of("0x1000", 1024) == 4096, "hexadecimal");
	CHECK(sc_fio_size_parse("4q", 1024, &v) == -EINVAL, "4q");
	CHECK(sc_fio_size_parse("k", 1024, &v) == -EINVAL, "no number");
	CHECK(sc_fio_size_parse("20000p", 1024, &v) == -ERANGE, "past 2^64");
	CHECK(sc_fio_size_parse("4k", 512, &v) == -EINVAL, "kb_base 512");
}

static void test_times(void)
{
	uint64_t v = 0;

	CHECK(sc_fio_time_parse("30", 1000000000ull, &v) == 0 && v == 30000000000ull, "30 s");
	CHECK(sc_fio_time_parse("2m", 1000000000ull, &v) == 0 && v == 120000000000ull,
	      "m is minutes");
	CHECK(sc_fio_time_parse("1h", 1000000000ull, &v) == 0 && v == 3600000000000ull, "1h");
	CHECK(sc_fio_time_parse("500ms", 1000000000ull, &v) == 0 && v == 500000000ull, "500ms");
	CHECK(sc_fio_time_parse("10USEC", 1000000000ull, &v) == 0 && v == 10000ull,
	      "units not case sensitive");
	CHECK(sc_fio_time_parse("5x", 1000000000ull, &v) == -EINVAL, "5x");
}

static void test_ranges(void)
{
	uint64_t lo, hi;

	CHECK(sc_fio_range_parse("1k-4k", 1024, &lo, &hi) == 0 && lo == 1024 && hi == 4096, "1k-4k");
	CHECK(sc_fio_range_parse("4k:1k", 1024, &lo, &hi) == 0 && lo == 1024 && hi == 4096,
	      "reversed: swapped");
	CHECK(sc_fio_range_parse("8k", 1024, &lo, &hi) == 0 && lo == 8192 && hi == 8192, "one");
	CHECK(sc_fio_range_parse("1k-", 1024, &lo, &hi) == -EINVAL, "1k-");
}

static void test_bssplit(void)
{
	uint64_t bs[SC_FIO_BSSPLIT_MAX];
	uint32_t pct[SC_FIO_BSSPLIT_MAX], n;

	CHECK(sc_fio_bssplit_parse("4k/10:64k/50:32k/40", 1024, bs, pct, &n) == 0 && n == 3 &&
		  bs[0] == 4096 && pct[0] == 10 && bs[1] == 65536 && pct[1] == 50 &&
		  bs[2] == 32768 && pct[2] == 40,
	      "the HOWTO's 4k/10:64k/50:32k/40");
	CHECK(sc_fio_bssplit_parse("4k/50:1k/:32k/", 1024, bs, pct, &n) == 0 && n == 3 &&
		  pct[0] == 50 && pct[1] == 25 && pct[2] == 25,
	      "the HOWTO's 4k/50:1k/:32k/: 50, 25, 25 (%u %u %u)", pct[0], pct[1], pct[2]);
	CHECK(sc_fio_bssplit_parse("4k/50:8k:16k", 1024, bs, pct, &n) == 0 &&
		  pct[1] + pct[2] == 50 && pct[1] == 25, "entries without /");
	CHECK(sc_fio_bssplit_parse("4k:8k:16k", 1024, bs, pct, &n) == 0 && pct[0] == 34 &&
		  pct[1] == 33 && pct[2] == 33, "three blank: 34, 33, 33");
	CHECK(sc_fio_bssplit_parse("4k/60:8k/60", 1024, bs, pct, &n) == -EINVAL, "over 100");
	CHECK(sc_fio_bssplit_parse("4k/60:8k/30", 1024, bs, pct, &n) == -EINVAL,
	      "short of 100, none blank");
	CHECK(sc_fio_bssplit_parse("2k/50:4k/50,4k/90:8k/10", 1024, bs, pct, &n) == -EINVAL,
	      "reads,writes: not run");
	CHECK(sc_fio_bssplit_parse("4k/50:", 1024, bs, pct, &n) == -EINVAL, "a trailing :");
}

int main(void)
{
	test_sizes();
	test_times();
	test_ranges();
	test_bssplit();
	return check_exit("test_fio_values");
}
