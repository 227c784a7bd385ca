/* values.c -- fio's sizes, times, ranges and bssplit lists (values.h). */
#include "fio/values.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The number at s (decimal, or 0x hexadecimal) into *v, *end after it. */
static int number(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	*end = e;
	return 0;
}

int sc_fio_size_parse(const char *s, uint32_t kb_base, uint64_t *out)
{
	static const char prefixes[] = "kmgtp";
	uint64_t v, mult = 1;
	const char *p, *at;
	int rc;

	if (kb_base != 1000 && kb_base != 1024)
		return -EINVAL;
	rc = number(s, &v, &p);
	if (rc)
		return rc;
	at = *p ? strchr(prefixes, tolower((unsigned char)*p)) : NULL;
	if (at) {
		int power = (int)(at - prefixes) + 1;
		/* kb_base 1024: k is 1024 and ki 1000; 1000: the other way */
		bool iec = tolower((unsigned char)p[1]) == 'i';
		uint64_t base = (iec != (kb_base == 1024)) ? 1024 : 1000;

		p += iec ? 2 : 1;
		for (int i = 0; i < power; i++)
			if (__builtin_mul_overflow(mult, base, &mult))
				return -ERANGE;
	}
	if (tolower((unsigned char)*p) == 'b')
		p++;
	if (*p)
		return -EINVAL;
	return __builtin_mul_overflow(v, mult, out) ? -ERANGE : 0;
}

int sc_fio_time_parse(const char *s, uint64_t unit_ns, uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {{"d", 86400000000000ull}, {"h", 3600000000000ull}, {"m", 60000000000ull},
		     {"s", 1000000000ull},     {"sec", 1000000000ull},	{"ms", 1000000ull},
		     {"msec", 1000000ull},     {"us", 1000ull},		{"usec", 1000ull}};
	uint64_t v, mult = unit_ns;
	const char *p;
	int rc = number(s, &v, &p);

	if (rc)
		return rc;
	if (*p) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strcasecmp(p, units[i].name) == 0)
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -EINVAL;
		mult = units[i].ns;
	}
	return __builtin_mul_overflow(v, mult, out) ? -ERANGE : 0;
}

int sc_fio_range_parse(const char *s, uint32_t kb_base, uint64_t *lo, uint64_t *hi)
{
	const char *sep = strpbrk(s, "-:");
	char a[64];
	int rc;

	if (!sep) {
		rc = sc_fio_size_parse(s, kb_base, lo);
		*hi = *lo;
		return rc;
	}
	if ((size_t)(sep - s) >= sizeof(a))
		return -EINVAL;
	memcpy(a, s, (size_t)(sep - s));
	a[sep - s] = '\0';
	rc = sc_fio_size_parse(a, kb_base, lo);
	if (!rc)
		rc = sc_fio_size_parse(sep + 1, kb_base, hi);
	if (!rc && *lo > *hi) {
		uint64_t t = *lo;

		*lo = *hi;
		*hi = t;
	}
	return rc;
}

int sc_fio_bssplit_parse(const char *s, uint32_t kb_base, uint64_t bs[SC_FIO_BSSPLIT_MAX],
			 uint32_t pct[SC_FIO_BSSPLIT_MAX], uint32_t *n)
{
	bool blank[SC_FIO_BSSPLIT_MAX];
	uint32_t sum = 0, unset = 0;
	const char *at = s;

	*n = 0;
	if (!*s || strchr(s, ','))
		return -EINVAL; /* fio's reads,writes split: not run */
	while (*at) {
		const char *end = strchr(at, ':');
		char item[64], *slash, *pe;
		size_t len = end ? (size_t)(end - at) : strlen(at);
		unsigned long p = 0;

		if (!len || len >= sizeof(item) || *n == SC_FIO_BSSPLIT_MAX)
			return -EINVAL;
		memcpy(item, at, len);
		item[len] = '\0';
		slash = strchr(item, '/');
		blank[*n] = !slash || !slash[1]; /* "4k" or "4k/": fio fills it in */
		if (slash) {
			*slash = '\0';
			if (slash[1]) {
				p = strtoul(slash + 1, &pe, 10);
				if (!isdigit((unsigned char)slash[1]) || *pe || p > 100)
					return -EINVAL;
			}
		}
		if (sc_fio_size_parse(item, kb_base, &bs[*n]) || !bs[*n])
			return -EINVAL;
		pct[*n] = (uint32_t)p;
		unset += blank[*n];
		sum += (uint32_t)p;
		(*n)++;
		at += len + (end ? 1 : 0);
		if (end && !*at)
			return -EINVAL;
	}
	if (sum > 100 || (sum < 100 && !unset))
		return -EINVAL; /* fio: the percentages add up to 100 */
	/* what is left, evenly over the blank entries (the first ones take
	 * the remainder's units) */
	for (uint32_t i = 0, k = 0; i < *n && unset; i++)
		if (blank[i]) {
			pct[i] = (100 - sum) / unset + (k < (100 - sum) % unset);
			k++;
		}
	return 0;
}
