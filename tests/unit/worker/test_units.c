/* test_units.c -- size and duration parsing, and the strings reports print. */
#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define KiB (UINT64_C(1) << 10)
#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)
#define TiB (UINT64_C(1) << 40)
#define PiB (UINT64_C(1) << 50)
#define SEC UINT64_C(1000000000)

struct parse_case {
	const char *in;
	int err;
	uint64_t want;
};

static const char *err_name(int err)
{
	switch (err) {
	case 0:
		return "0";
	case -EINVAL:
		return "-EINVAL";
	case -ERANGE:
		return "-ERANGE";
	default:
		return "other";
	}
}

static void check_parse(const char *what, int (*parse)(const char *, uint64_t *),
			const struct parse_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t got = 0xdeadbeef;
		int err = parse(c[i].in, &got);
		if (err != c[i].err)
			FAIL("%s(\"%s\"): returned %s (%d), want %s", what,
			     c[i].in ? c[i].in : "(null)", err_name(err), err, err_name(c[i].err));
		else if (err == 0 && got != c[i].want)
			FAIL("%s(\"%s\") = %" PRIu64 ", want %" PRIu64, what, c[i].in, got,
			     c[i].want);
		else if (err != 0 && got != 0xdeadbeef)
			FAIL("%s(\"%s\"): wrote a result on error", what, c[i].in);
	}
}

static const struct parse_case size_cases[] = {
	/* bare numbers and B are bytes */
	{"4096", 0, 4096},
	{"0", 0, 0},
	{"512B", 0, 512},
	{"512 B", 0, 512},
	{"007", 0, 7},
	{"18446744073709551615", 0, UINT64_MAX},
	{"18446744073709551615B", 0, UINT64_MAX},
	/* binary */
	{"4KiB", 0, 4 * KiB},
	{"1MiB", 0, MiB},
	{"3GiB", 0, 3 * GiB},
	{"2TiB", 0, 2 * TiB},
	{"1PiB", 0, PiB},
	{"1.5GiB", 0, 3 * GiB / 2},
	{"0.5KiB", 0, 512},
	{"1.25MiB", 0, 5 * MiB / 4},
	{"1.0000000000000000000000000KiB", 0, KiB},
	{"0.0009765625KiB", 0, 1}, /* 2^-10 KiB: the smallest whole KiB fraction */
	{"0.00000000000000088817841970012523233890533447265625PiB", 0, 1}, /* 2^-50 PiB */
	{"15.99999999999999911182158029987476766109466552734375PiB", 0, 16 * PiB - 1},
	{"16PiB", 0, 16 * PiB},
	{"16383PiB", 0, 16383 * PiB},
	/* decimal */
	{"10GB", 0, UINT64_C(10000000000)},
	{"1KB", 0, 1000},
	{"1kB", 0, 1000},
	{"2MB", 0, 2000000},
	{"3TB", 0, UINT64_C(3000000000000)},
	{"4PB", 0, UINT64_C(4000000000000000)},
	{"1.5KB", 0, 1500},
	{"0.001KB", 0, 1},
	{"2.345678GB", 0, 2345678000},
	{"18446.744073709551615PB", 0, UINT64_MAX},
	/* white space */
	{"  4KiB", 0, 4 * KiB},
	{"4KiB  ", 0, 4 * KiB},
	{"\t4 KiB\n", 0, 4 * KiB},
	{"4 ", 0, 4},
	/* refused: ambiguous, case, junk, signs */
	{"4K", -EINVAL, 0},
	{"4k", -EINVAL, 0},
	{"4M", -EINVAL, 0},
	{"4G", -EINVAL, 0},
	{"4 K", -EINVAL, 0},
	{"4kib", -EINVAL, 0},
	{"4KIB", -EINVAL, 0},
	{"4mb", -EINVAL, 0},
	{"4b", -EINVAL, 0},
	{"4Ki", -EINVAL, 0},
	{"4EiB", -EINVAL, 0},
	{"12KX", -EINVAL, 0},
	{"4KiBs", -EINVAL, 0},
	{"4KiB x", -EINVAL, 0},
	{"4KiB4", -EINVAL, 0},
	{"4  KiB", -EINVAL, 0},
	{"4\tKiB", -EINVAL, 0},
	{"4 4", -EINVAL, 0},
	{"", -EINVAL, 0},
	{"   ", -EINVAL, 0},
	{NULL, -EINVAL, 0},
	{"KiB", -EINVAL, 0},
	{"-4KiB", -EINVAL, 0},
	{"-0", -EINVAL, 0},
	{"+4KiB", -EINVAL, 0},
	{"1e3", -EINVAL, 0},
	{"0x10", -EINVAL, 0},
	{".5KiB", -EINVAL, 0},
	{"1.KiB", -EINVAL, 0},
	{"1..5KiB", -EINVAL, 0},
	{"1,5KiB", -EINVAL, 0},
	/* fractions that are not a whole number of bytes */
	{"1.5", -EINVAL, 0},
	{"1.5B", -EINVAL, 0},
	{"0.1KiB", -EINVAL, 0},
	{"0.0001KB", -EINVAL, 0},
	{"0.00048828125KiB", -EINVAL, 0}, /* 2^-11 KiB = half a byte */
	{"1.0000000000000000000001GiB", -EINVAL, 0},
	/* overflow */
	{"18446744073709551616", -ERANGE, 0},
	{"18446744073709551616B", -ERANGE, 0},
	{"99999999999999999999999999", -ERANGE, 0},
	{"16384PiB", -ERANGE, 0},
	{"18446.744073709551616PB", -ERANGE, 0},
	{"18014398509481984KiB", -ERANGE, 0},
};

static const struct parse_case duration_cases[] = {
	{"250ns", 0, 250},
	{"100us", 0, 100000},
	{"500ms", 0, 500000000},
	{"30s", 0, 30 * SEC},
	{"5m", 0, 300 * SEC},
	{"2h", 0, 7200 * SEC},
	{"30", 0, 30 * SEC},
	{"0", 0, 0},
	{"0s", 0, 0},
	{"1.5s", 0, 1500000000},
	{"0.5", 0, 500000000},
	{"1.5m", 0, 90 * SEC},
	{"0.1h", 0, 360 * SEC},
	{"2.5us", 0, 2500},
	{"0.000000001s", 0, 1},
	{"1.000ns", 0, 1},
	{" 30 s ", 0, 30 * SEC},
	{"18446744073709551615ns", 0, UINT64_MAX},
	{"18446744073.709551615", 0, UINT64_MAX},
	{"5124095h", 0, UINT64_C(5124095) * 3600 * SEC},
	/* refused */
	{"", -EINVAL, 0},
	{NULL, -EINVAL, 0},
	{"s", -EINVAL, 0},
	{"-1s", -EINVAL, 0},
	{"30x", -EINVAL, 0},
	{"30S", -EINVAL, 0},
	{"5M", -EINVAL, 0},
	{"30sec", -EINVAL, 0},
	{"1min", -EINVAL, 0},
	{"30 s s", -EINVAL, 0},
	{"1.5ns", -EINVAL, 0},
	{"0.0000000001s", -EINVAL, 0},
	{"1.s", -EINVAL, 0},
	{"1e3s", -EINVAL, 0},
	/* overflow */
	{"18446744073709551616ns", -ERANGE, 0},
	{"18446744074", -ERANGE, 0},
	{"5124096h", -ERANGE, 0},
	{"307445735m", -ERANGE, 0},
	{"99999999999999999999999h", -ERANGE, 0},
};

static void expect(const char *got, const char *want, const char *call)
{
	CHECK(strcmp(got, want) == 0, "%s = \"%s\", want \"%s\"", call, got, want);
}

static void test_fmt_bytes(void)
{
	static const struct {
		uint64_t v;
		const char *want;
	} c[] = {
		{0, "0 B"},
		{1, "1 B"},
		{512, "512 B"},
		{1023, "1023 B"},
		{1024, "1.00 KiB"},
		{1536, "1.50 KiB"},
		{4096, "4.00 KiB"},
		{10239, "10.0 KiB"}, /* 9.999 KiB rounds up a digit */
		{100 * KiB, "100 KiB"},
		{1000 * KiB, "1000 KiB"},
		{1023 * KiB, "1023 KiB"},
		{MiB - 1, "1.00 MiB"}, /* 1023.999 KiB rounds up a unit */
		{MiB, "1.00 MiB"},
		{3 * MiB / 2, "1.50 MiB"},
		{1234567, "1.18 MiB"},
		{10 * GiB, "10.0 GiB"},
		{100 * GiB, "100 GiB"},
		{3 * TiB, "3.00 TiB"},
		{PiB, "1.00 PiB"},
		{UINT64_MAX, "16.0 EiB"},
	};
	char buf[32], call[64];
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(call, sizeof(call), "sc_fmt_bytes(%" PRIu64 ")", c[i].v);
		expect(sc_fmt_bytes(buf, sizeof(buf), c[i].v), c[i].want, call);
	}
}

static void test_fmt_duration(void)
{
	static const struct {
		uint64_t v;
		const char *want;
	} c[] = {
		{0, "0 ns"},
		{1, "1 ns"},
		{812, "812 ns"},
		{999, "999 ns"},
		{1000, "1.00 us"},
		{1234, "1.23 us"},
		{1235, "1.24 us"},
		{99949, "99.9 us"},
		{99950, "100 us"},
		{999499, "999 us"},
		{999500, "1.00 ms"},
		{4500000, "4.50 ms"},
		{2 * SEC, "2.00 s"},
		{60 * SEC, "60.0 s"},
		{999 * SEC, "999 s"},
		{1000 * SEC, "16.7 m"},
		{3600 * SEC, "60.0 m"},
		{6000 * SEC, "1.67 h"},
		{86400 * SEC, "24.0 h"},
		{UINT64_MAX, "5124096 h"}, /* 5124095.58 h */
	};
	char buf[32], call[64];
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(call, sizeof(call), "sc_fmt_duration(%" PRIu64 ")", c[i].v);
		expect(sc_fmt_duration(buf, sizeof(buf), c[i].v), c[i].want, call);
	}
}

static void test_fmt_rate_iops(void)
{
	static const struct {
		double v;
		const char *rate, *iops;
	} c[] = {
		{0, "0 B/s", "0 IOPS"},
		{0.5, "0.50 B/s", "0.50 IOPS"},
		{1, "1.00 B/s", "1.00 IOPS"},
		{12.34, "12.3 B/s", "12.3 IOPS"},
		{950, "950 B/s", "950 IOPS"},
		{999.4, "999 B/s", "999 IOPS"},
		{999.6, "1.00 kB/s", "1.00 kIOPS"},
		{1000, "1.00 kB/s", "1.00 kIOPS"},
		{12300, "12.3 kB/s", "12.3 kIOPS"},
		{1.2e6, "1.20 MB/s", "1.20 MIOPS"},
		{1.234e9, "1.23 GB/s", "1.23 GIOPS"},
		{25e9, "25.0 GB/s", "25.0 GIOPS"},
		{999.9e9, "1.00 TB/s", "1.00 TIOPS"},
		{3.5e12, "3.50 TB/s", "3.50 TIOPS"},
		{-1.5e6, "-1.50 MB/s", "-1.50 MIOPS"},
		{NAN, "n/a B/s", "n/a IOPS"},
	};
	char buf[32], call[64];
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(call, sizeof(call), "sc_fmt_rate(%g)", c[i].v);
		expect(sc_fmt_rate(buf, sizeof(buf), c[i].v), c[i].rate, call);
		snprintf(call, sizeof(call), "sc_fmt_iops(%g)", c[i].v);
		expect(sc_fmt_iops(buf, sizeof(buf), c[i].v), c[i].iops, call);
	}
}

/* Formatting returns buf, never writes past len, and always terminates. */
static void test_fmt_buffers(void)
{
	char buf[16];
	memset(buf, 'x', sizeof(buf));
	const char *r = sc_fmt_bytes(buf, 5, 3 * MiB / 2);
	CHECK(r == buf && strcmp(buf, "1.50") == 0 && buf[5] == 'x',
	      "sc_fmt_bytes truncation: \"%.16s\"", buf);
	memset(buf, 'x', sizeof(buf));
	CHECK(sc_fmt_rate(buf, 0, 1e9) == buf && buf[0] == 'x',
	      "sc_fmt_rate with len 0 wrote into buf");
	memset(buf, 'x', sizeof(buf));
	CHECK(sc_fmt_duration(buf, 3, 812) == buf && strcmp(buf, "81") == 0,
	      "sc_fmt_duration truncation: \"%.16s\"", buf);
	memset(buf, 'x', sizeof(buf));
	CHECK(sc_fmt_iops(buf, 4, 12300) == buf && strcmp(buf, "12.") == 0,
	      "sc_fmt_iops truncation: \"%.16s\"", buf);
}

/* Whatever sc_fmt_bytes prints for a round size, sc_parse_size reads back. */
static void test_round_trip(void)
{
	static const uint64_t sizes[] = {512, 4 * KiB, 3 * MiB / 2, 10 * GiB, 100 * GiB, 3 * TiB};
	char buf[32];
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t back = 0;
		int err = sc_parse_size(sc_fmt_bytes(buf, sizeof(buf), sizes[i]), &back);
		CHECK(!err && back == sizes[i], "round trip %" PRIu64 " -> \"%s\" -> %d %" PRIu64,
		      sizes[i], buf, err, back);
	}
}

int main(void)
{
	check_parse("sc_parse_size", sc_parse_size, size_cases,
		    sizeof(size_cases) / sizeof(size_cases[0]));
	check_parse("sc_parse_duration", sc_parse_duration, duration_cases,
		    sizeof(duration_cases) / sizeof(duration_cases[0]));
	test_fmt_bytes();
	test_fmt_duration();
	test_fmt_rate_iops();
	test_fmt_buffers();
	test_round_trip();
	return check_exit("test_units");
}
