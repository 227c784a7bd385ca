/* num_text.c -- numbers as text, byte for byte as printf writes them
 * (num_text.h). */
#include "num_text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The powers of ten a double holds exactly. */
static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,	1e6,  1e7,
				     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static const uint64_t pow10_u64[] = {1ULL,
				     10ULL,
				     100ULL,
				     1000ULL,
				     10000ULL,
				     100000ULL,
				     1000000ULL,
				     10000000ULL,
				     100000000ULL,
				     1000000000ULL,
				     10000000000ULL,
				     100000000000ULL,
				     1000000000000ULL,
				     10000000000000ULL,
				     100000000000000ULL,
				     1000000000000000ULL,
				     10000000000000000ULL,
				     100000000000000000ULL};

/* The digits as printf's %.15g and %.17g count them. */
#define DIGITS_SHORT 15
#define DIGITS_EXACT 17

/* The largest product rounded here: its integer fits an int64 with room. */
#define PRODUCT_MAX 0x1p62
/* From here a double has no fraction: its ulp is 1 or more. */
#define WHOLE_FROM 0x1p52

/* a * p (a >= 0, p a power of ten held exactly) rounded to the nearest
 * integer, ties to even, as printf rounds the exact product; false when
 * the product is too large (or not a number).  fma recovers the product's
 * rounding error lo, so hi + lo is exact. */
static bool round_product(double a, double p, uint64_t *n)
{
	double hi = a * p, lo, r, frac, half;
	bool up;

	if (!(hi < PRODUCT_MAX))
		return false;
	lo = fma(a, p, -hi);
	if (hi < WHOLE_FROM) {
		/* hi = r + frac; |lo| is at most half hi's ulp, of which frac
		 * and 0.5 are multiples, so frac - 0.5 decides unless zero */
		r = floor(hi);
		frac = hi - r;
		half = frac - 0.5;
		*n = (uint64_t)r;
		up = half > 0 || (half == 0 && (lo > 0 || (lo == 0 && (*n & 1))));
		*n += up;
		return true;
	}
	/* hi is whole: the exact product is hi + lo, lo rounded alone */
	r = floor(lo);
	frac = lo - r;
	*n = (uint64_t)hi + (uint64_t)(int64_t)r;
	up = frac > 0.5 || (frac == 0.5 && (*n & 1));
	*n += up;
	return true;
}

/* n's decimal digits ending at end (written backwards); returns where
 * they start. */
static char *digits_before(char *end, uint64_t n)
{
	do {
		*--end = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	return end;
}

int sc_num_text_u64(char *s, uint64_t v)
{
	char buf[24], *p = digits_before(buf + sizeof(buf), v);
	int len = (int)(buf + sizeof(buf) - p);

	memcpy(s, p, (size_t)len);
	s[len] = '\0';
	return len;
}

int sc_num_text_i64(char *s, int64_t v)
{
	if (v >= 0)
		return sc_num_text_u64(s, (uint64_t)v);
	s[0] = '-';
	return 1 + sc_num_text_u64(s + 1, -(uint64_t)v);
}

int sc_num_text_fixed(char *s, double v, unsigned decimals)
{
	uint64_t n, whole;
	char *p = s;

	if (decimals > SC_NUM_TEXT_DECIMALS)
		return -EINVAL;
	if (!isfinite(v) || !round_product(fabs(v), pow10_exact[decimals], &n))
		return snprintf(s, SC_NUM_TEXT_MAX, "%.*f", (int)decimals, v);
	if (signbit(v))
		*p++ = '-';
	whole = n / pow10_u64[decimals];
	p += sc_num_text_u64(p, whole);
	if (decimals) {
		*p++ = '.';
		n -= whole * pow10_u64[decimals];
		for (unsigned k = decimals; k-- > 0;) {
			p[k] = (char)('0' + n % 10);
			n /= 10;
		}
		p += decimals;
	}
	*p = '\0';
	return (int)(p - s);
}

/* The %g text of the digits n (exactly ndigits of them) times
 * 10^(e - ndigits + 1) with -4 <= e < ndigits: fixed notation, trailing
 * zeros and a bare point dropped. */
static int g_text(char *s, bool neg, uint64_t n, int ndigits, int e)
{
	char d[24], *p = s;
	int last;

	digits_before(d + ndigits, n);
	for (last = ndigits; last > 1 && d[last - 1] == '0'; last--)
		;
	if (neg)
		*p++ = '-';
	if (e >= 0) {
		memcpy(p, d, (size_t)e + 1);
		p += e + 1;
		if (last > e + 1) {
			*p++ = '.';
			memcpy(p, d + e + 1, (size_t)(last - e - 1));
			p += last - e - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (int k = -1; k > e; k--)
			*p++ = '0';
		memcpy(p, d, (size_t)last);
		p += last;
	}
	*p = '\0';
	return (int)(p - s);
}

/* The slow way, as printf does it. */
static int g_printf(char *s, double v)
{
	int len = snprintf(s, SC_NUM_TEXT_MAX, "%.15g", v);

	if (strtod(s, NULL) != v)
		len = snprintf(s, SC_NUM_TEXT_MAX, "%.17g", v);
	return len;
}

int sc_num_text_g(char *s, double v)
{
	double a = fabs(v);
	uint64_t n;
	int e;

	/* fixed notation for both precisions: 1e-4 <= a < 1e15 */
	if (!isfinite(v) || !(a >= 1e-4) || !(a < 1e15))
		return g_printf(s, v);
	for (e = 14; e > -4 && a < (e >= 0 ? pow10_exact[e] : 1.0 / pow10_exact[-e]); e--)
		;
	/* a near a power of ten may be placed a decade off: the digits'
	 * count below catches it */
	if (!round_product(a, pow10_exact[DIGITS_SHORT - 1 - e], &n) ||
	    n < pow10_u64[DIGITS_SHORT - 1] || n >= pow10_u64[DIGITS_SHORT])
		return g_printf(s, v);
	/* n < 2^53 and the power exact: the division is strtod's reading */
	if ((double)n / pow10_exact[DIGITS_SHORT - 1 - e] == a)
		return g_text(s, signbit(v), n, DIGITS_SHORT, e);
	if (!round_product(a, pow10_exact[DIGITS_EXACT - 1 - e], &n) ||
	    n < pow10_u64[DIGITS_EXACT - 1] || n >= pow10_u64[DIGITS_EXACT])
		return g_printf(s, v);
	return g_text(s, signbit(v), n, DIGITS_EXACT, e);
}
