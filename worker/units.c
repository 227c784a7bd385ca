/* units.c -- sizes, durations and rates: exact parsing, 3-digit formatting. */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit {
	const char *suffix;
	uint64_t mult;
};

static const struct unit size_units[] = {
	{"", 1},
	{"B", 1},
	{"KiB", UINT64_C(1) << 10},
	{"MiB", UINT64_C(1) << 20},
	{"GiB", UINT64_C(1) << 30},
	{"TiB", UINT64_C(1) << 40},
	{"PiB", UINT64_C(1) << 50},
	{"KB", UINT64_C(1000)},
	{"kB", UINT64_C(1000)}, /* the SI spelling, and what sc_fmt_rate prints */
	{"MB", UINT64_C(1000000)},
	{"GB", UINT64_C(1000000000)},
	{"TB", UINT64_C(1000000000000)},
	{"PB", UINT64_C(1000000000000000)},
};

static const struct unit duration_units[] = {
	{"", SC_NS_PER_S},
	{"ns", 1},
	{"us", 1000},
	{"ms", 1000000},
	{"s", SC_NS_PER_S},
	{"m", 60 * SC_NS_PER_S},
	{"h", 3600 * SC_NS_PER_S},
};

/* A number token: digits [ "." digits ], then at most one space, then a
 * suffix made of letters, then nothing but white space. */
struct number {
	const char *int_digits, *frac_digits, *suffix;
	size_t n_int, n_frac, n_suffix;
};

static int split_number(const char *s, struct number *n)
{
	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	n->int_digits = s;
	while (isdigit((unsigned char)*s))
		s++;
	n->n_int = (size_t)(s - n->int_digits);
	if (n->n_int == 0)
		return -EINVAL; /* empty, sign, junk, or ".5" */
	n->frac_digits = s;
	n->n_frac = 0;
	if (*s == '.') {
		n->frac_digits = ++s;
		while (isdigit((unsigned char)*s))
			s++;
		n->n_frac = (size_t)(s - n->frac_digits);
		if (n->n_frac == 0)
			return -EINVAL; /* "1." */
	}
	if (*s == ' ')
		s++;
	n->suffix = s;
	while (isalpha((unsigned char)*s))
		s++;
	n->n_suffix = (size_t)(s - n->suffix);
	while (isspace((unsigned char)*s))
		s++;
	return *s ? -EINVAL : 0;
}

static const struct unit *find_unit(const struct unit *units, size_t count, const struct number *n)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(units[i].suffix) == n->n_suffix &&
		    memcmp(units[i].suffix, n->suffix, n->n_suffix) == 0)
			return &units[i];
	return NULL;
}

/* The whole number 0.<digits> * mult, by schoolbook multiplication from the
 * last digit: each step's low decimal digit is a digit of the product's
 * fraction, so any nonzero one means the product is not whole.  The carry
 * stays below mult, so nothing overflows for mult < 2^59. */
static int frac_times(const char *digits, size_t n, uint64_t mult, uint64_t *out)
{
	uint64_t carry = 0;
	while (n--) {
		uint64_t v = (uint64_t)(digits[n] - '0') * mult + carry;
		if (v % 10)
			return -EINVAL;
		carry = v / 10;
	}
	*out = carry;
	return 0;
}

static int parse_scaled(const char *s, const struct unit *units, size_t nunits, uint64_t *out)
{
	struct number n;
	int err = split_number(s, &n);
	if (err)
		return err;
	const struct unit *u = find_unit(units, nunits, &n);
	if (!u)
		return -EINVAL;
	uint64_t frac;
	err = frac_times(n.frac_digits, n.n_frac, u->mult, &frac);
	if (err)
		return err;

	uint64_t whole = 0;
	for (size_t i = 0; i < n.n_int; i++)
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(n.int_digits[i] - '0'), &whole))
			return -ERANGE;
	if (__builtin_mul_overflow(whole, u->mult, &whole) ||
	    __builtin_add_overflow(whole, frac, &whole))
		return -ERANGE;
	*out = whole;
	return 0;
}

int sc_parse_size(const char *s, uint64_t *bytes)
{
	return parse_scaled(s, size_units, sizeof(size_units) / sizeof(size_units[0]), bytes);
}

int sc_parse_duration(const char *s, uint64_t *ns)
{
	return parse_scaled(s, duration_units, sizeof(duration_units) / sizeof(duration_units[0]),
			    ns);
}

/* Writes v (>= 0) with three significant digits and the unit: "1.23 X",
 * "12.3 X", "123 X" (and more digits only when v >= 1000).  Returns the
 * value as printed, so callers can see rounding carry it to the next unit. */
static double fmt3(char *buf, size_t len, double v, const char *unit)
{
	static const char *const fmts[] = {"%.2f", "%.1f", "%.0f"};
	char num[64];
	double shown = v;
	for (int i = 0; i < 3; i++) {
		snprintf(num, sizeof(num), fmts[i], v);
		shown = strtod(num, NULL);
		if (shown < 10.0 * pow(10, i) || i == 2)
			break;
	}
	if (len)
		snprintf(buf, len, "%s %s", num, unit);
	return shown;
}

/* Picks the largest unit keeping the value at or above 1, steps up when
 * rounding reaches the next unit ("999.9 ms" -> "1.00 s"). */
static const char *fmt_scaled(char *buf, size_t len, double v, double step,
			      const char *const *units, int nunits)
{
	if (len)
		buf[0] = '\0';
	if (!isfinite(v)) {
		if (len)
			snprintf(buf, len, "%s %s", isnan(v) ? "n/a" : (v < 0 ? "-inf" : "inf"),
				 units[0]);
		return buf;
	}
	const char *sign = v < 0 ? "-" : "";
	v = fabs(v);
	if (v == 0) {
		if (len)
			snprintf(buf, len, "0 %s", units[0]);
		return buf;
	}
	int u = 0;
	while (u + 1 < nunits && v >= step) {
		v /= step;
		u++;
	}
	char tmp[64];
	if (fmt3(tmp, sizeof(tmp), v, units[u]) >= step && u + 1 < nunits)
		fmt3(tmp, sizeof(tmp), v / step, units[++u]);
	if (len)
		snprintf(buf, len, "%s%s", sign, tmp);
	return buf;
}

const char *sc_fmt_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	if (bytes < SC_KIB) { /* whole bytes are shown as they are */
		if (len)
			snprintf(buf, len, "%" PRIu64 " B", bytes);
		return buf;
	}
	return fmt_scaled(buf, len, (double)bytes, (double)SC_KIB, units,
			  (int)(sizeof(units) / sizeof(units[0])));
}

const char *sc_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	static const char *const units[] = {"ns", "us", "ms", "s"};
	/* Past 1000 s, minutes, then hours (below 100 min stays in minutes). */
	const double s = (double)ns / (double)SC_NS_PER_S;
	if (ns < 1000) {
		if (len)
			snprintf(buf, len, "%" PRIu64 " ns", ns);
		return buf;
	}
	if (s < 999.5)
		return fmt_scaled(buf, len, (double)ns, 1000, units,
				  (int)(sizeof(units) / sizeof(units[0])));
	if (s < 100 * 60)
		fmt3(buf, len, s / 60, "m");
	else
		fmt3(buf, len, s / 3600, "h");
	return buf;
}

const char *sc_fmt_rate(char *buf, size_t len, double bytes_per_s)
{
	static const char *const units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s", "EB/s"};
	return fmt_scaled(buf, len, bytes_per_s, 1000, units,
			  (int)(sizeof(units) / sizeof(units[0])));
}

const char *sc_fmt_iops(char *buf, size_t len, double iops)
{
	static const char *const units[] = {"IOPS", "kIOPS", "MIOPS", "GIOPS", "TIOPS"};
	return fmt_scaled(buf, len, iops, 1000, units, (int)(sizeof(units) / sizeof(units[0])));
}
