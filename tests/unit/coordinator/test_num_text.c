/* test_num_text.c -- numbers as text (report/num_text.h) against glibc's
 * printf, the truth they copy: every value of each family below is
 * printed both ways and the texts compared byte for byte.  The families
 * are the ones the results files print (nanoseconds over 1000, bytes over
 * 10^6, ratios, percentages), the places where a shortcut goes wrong
 * (exact ties, a value one ulp either side of a rounding boundary, powers
 * of ten and their neighbours, the notation switches of %g at 1e-4 and
 * 1e15) and raw bit patterns (NaN, infinities, subnormals). */
#include "report/num_text.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "xorshift.h"

/* Values tried per family (each in every decimals and in %g). */
#define PER_FAMILY 8000

static long compared;

/* printf's %g pair, as results.json has always chosen: %.15g when it reads
 * back, else %.17g. */
static void g_reference(char *s, double v)
{
	snprintf(s, SC_NUM_TEXT_MAX, "%.15g", v);
	if (strtod(s, NULL) != v)
		snprintf(s, SC_NUM_TEXT_MAX, "%.17g", v);
}

static int failures_shown;

/* v printed by every function against printf. */
static void compare(double v)
{
	char want[SC_NUM_TEXT_MAX], got[SC_NUM_TEXT_MAX];
	int len;

	for (unsigned d = 0; d <= SC_NUM_TEXT_DECIMALS; d++) {
		snprintf(want, sizeof(want), "%.*f", (int)d, v);
		memset(got, 'x', sizeof(got));
		len = sc_num_text_fixed(got, v, d);
		if ((strcmp(got, want) || len != (int)strlen(want)) && failures_shown++ < 20)
			CHECK(0, "%%.%uf of %a (%.17g): \"%s\" (%d), printf \"%s\"", d, v, v, got,
			      len, want);
		compared++;
	}
	g_reference(want, v);
	memset(got, 'x', sizeof(got));
	len = sc_num_text_g(got, v);
	if ((strcmp(got, want) || len != (int)strlen(want)) && failures_shown++ < 20)
		CHECK(0, "%%g of %a (%.17g): \"%s\" (%d), printf \"%s\"", v, v, got, len, want);
	compared++;
}

/* v and its neighbours a few ulps either side, both signs. */
static void compare_near(double v)
{
	double up = v, down = v;

	compare(v);
	compare(-v);
	for (int k = 0; k < 3; k++) {
		up = nextafter(up, INFINITY);
		down = nextafter(down, -INFINITY);
		compare(up);
		compare(down);
		compare(-up);
	}
}

static double from_bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

static uint64_t next_u64(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 0x2545F4914F6CDD1Dull;
}

static void families(void)
{
	uint64_t st = 0x9e3779b97f4a7c15ULL;
	static const double specials[] = {0.0,	   -0.0,     INFINITY, -INFINITY, NAN,
					  1e-4,	   1e-5,     1e15,     1e16,	  1e17,
					  1e22,	   1e23,     0.5,      1.5,	  2.5,
					  0.125,   0.375,    0.0625,   1e-300,	  5e-324,
					  DBL_MAX, 0x1p52,   0x1p53,   0x1p62,	  0x1p63,
					  9.5,	   0.00045,  0.0005,   999.9995,  999999999999999.5};

	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		compare_near(specials[i]);
	/* powers of ten and the values that round to the next decade */
	for (int e = -12; e <= 22; e++) {
		compare_near(pow(10, e));
		compare_near(pow(10, e) * (1 - 5e-16));
		compare_near(pow(10, e) * (1 - 5e-18));
	}
	for (int i = 0; i < PER_FAMILY; i++) {
		uint64_t ns = next_u64(&st) >> (next_u64(&st) % 64);
		int d = (int)(next_u64(&st) % (SC_NUM_TEXT_DECIMALS + 1));
		double u = xs_unit(&st);

		/* nanoseconds as microseconds, bytes as MB, ratios, rates */
		compare((double)ns / 1e3);
		compare(round((double)ns) / 1e6);
		compare((double)(ns % 100000) / 7.0);
		compare(u * 100.0);
		compare(u * pow(10, (int)(next_u64(&st) % 40) - 12));
		/* exact ties at d decimals, and one ulp either side */
		compare_near(((double)(ns % 100000000) + 0.5) / pow(10, d));
		compare_near((double)(ns % 1000000) / pow(10, d) + 0.5 / pow(10, d));
		/* halves of binary fractions: ties printf breaks to even */
		compare(ldexp((double)(ns % 1000000) * 2 + 1, -(int)(next_u64(&st) % 12) - 1));
		/* any double at all */
		compare(from_bits(next_u64(&st)));
	}
}

int main(void)
{
	char s[SC_NUM_TEXT_MAX];

	families();
	printf("num_text: %ld texts compared with printf\n", compared);
	CHECK(sc_num_text_fixed(s, 1.0, SC_NUM_TEXT_DECIMALS + 1) == -EINVAL,
	      "more decimals than taken refused");
	CHECK(sc_num_text_u64(s, UINT64_MAX) == 20 && !strcmp(s, "18446744073709551615"),
	      "u64 max: %s", s);
	CHECK(sc_num_text_u64(s, 0) == 1 && !strcmp(s, "0"), "u64 0: %s", s);
	CHECK(sc_num_text_i64(s, INT64_MIN) == 20 && !strcmp(s, "-9223372036854775808"),
	      "i64 min: %s", s);
	CHECK(sc_num_text_i64(s, -42) == 3 && !strcmp(s, "-42"), "i64 -42: %s", s);
	return check_exit("test_num_text");
}
