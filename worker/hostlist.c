/* hostlist.c -- host name patterns as cluster configs write them. */
#include "hostlist.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A bracket's contents [b, e) are numeric ranges when they hold only
 * digits, '-' and ','. */
static int numeric_bracket(const char *b, const char *e)
{
	if (b == e)
		return 0;
	for (const char *p = b; p < e; p++)
		if (!isdigit((unsigned char)*p) && *p != '-' && *p != ',')
			return 0;
	return 1;
}

static int match_at(const char *p, const char *h);

/* Does the number spelled by h[0..len) fall in one of the ranges [b, e),
 * with the width rule of zero-padded bounds? */
static int in_ranges(const char *b, const char *e, const char *h, size_t len)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len; i++)
		v = v * 10 + (uint64_t)(h[i] - '0');
	for (const char *item = b; item < e;) {
		const char *comma = memchr(item, ',', (size_t)(e - item));
		const char *end = comma ? comma : e;
		const char *dash = memchr(item, '-', (size_t)(end - item));
		const char *lo_end = dash ? dash : end;
		size_t lo_len = (size_t)(lo_end - item);
		uint64_t lo = 0, hi = 0;

		for (const char *q = item; q < lo_end; q++)
			lo = lo * 10 + (uint64_t)(*q - '0');
		if (dash)
			for (const char *q = dash + 1; q < end; q++)
				hi = hi * 10 + (uint64_t)(*q - '0');
		else
			hi = lo;
		if (v >= lo && v <= hi) {
			/* "01-16" fixes the width at 2; "1-16" allows no leading zero */
			if (lo_len > 1 && item[0] == '0' ? len == lo_len
							 : (len == 1 || h[0] != '0'))
				return 1;
		}
		item = comma ? comma + 1 : e;
	}
	return 0;
}

/* Character class [abc], [a-z], [!x] at b..e against c. */
static int in_class(const char *b, const char *e, char c)
{
	int neg = b < e && (*b == '!' || *b == '^'), hit = 0;

	for (const char *q = b + neg; q < e; q++) {
		if (q + 2 < e && q[1] == '-') {
			hit |= c >= q[0] && c <= q[2];
			q += 2;
		} else {
			hit |= c == *q;
		}
	}
	return hit != neg;
}

static int match_at(const char *p, const char *h)
{
	for (; *p; p++) {
		if (*p == '*') {
			for (const char *s = h;; s++) {
				if (match_at(p + 1, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (*p == '[') {
			const char *e = strchr(p + 1, ']');

			if (!e)
				return 0;
			if (numeric_bracket(p + 1, e)) {
				size_t digits = 0;

				while (isdigit((unsigned char)h[digits]))
					digits++;
				for (size_t len = 1; len <= digits; len++)
					if (in_ranges(p + 1, e, h, len) && match_at(e + 1, h + len))
						return 1;
				return 0;
			}
			if (!*h || !in_class(p + 1, e, *h))
				return 0;
			h++;
			p = e;
			continue;
		}
		if (!*h || (*p != '?' && *p != *h))
			return 0;
		h++;
	}
	return *h == '\0';
}

/* Calls fn on each top-level item of pattern (commas inside brackets do
 * not split); stops at the first nonzero return. */
static int each_item(const char *pattern, int (*fn)(const char *item, void *arg), void *arg)
{
	char item[256];
	const char *start = pattern;
	int depth = 0;

	for (const char *p = pattern;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth)
			depth--;
		if ((*p == ',' && !depth) || !*p) {
			size_t n = (size_t)(p - start);

			if (n >= sizeof(item))
				n = sizeof(item) - 1;
			memcpy(item, start, n);
			item[n] = '\0';
			int r = fn(item, arg);

			if (r)
				return r;
			if (!*p)
				return 0;
			start = p + 1;
		}
	}
}

static int match_item(const char *item, void *arg)
{
	return match_at(item, arg);
}

int sc_hostlist_match(const char *pattern, const char *host)
{
	return each_item(pattern, match_item, (void *)host) ? 1 : 0;
}

struct check_ctx {
	char *err;
	size_t errlen;
};

static int check_item(const char *item, void *arg)
{
	struct check_ctx *c = arg;

	if (!*item) {
		snprintf(c->err, c->errlen, "empty item in host list");
		return -EINVAL;
	}
	for (const char *p = item; *p; p++) {
		if (*p == ']') {
			snprintf(c->err, c->errlen, "\"]\" without \"[\" in \"%s\"", item);
			return -EINVAL;
		}
		if (*p != '[')
			continue;
		const char *e = strchr(p + 1, ']');

		if (!e || e == p + 1) {
			snprintf(c->err, c->errlen, "%s bracket in \"%s\"", e ? "empty" : "unclosed",
				 item);
			return -EINVAL;
		}
		if (numeric_bracket(p + 1, e)) {
			for (const char *r = p + 1; r < e;) {
				const char *end = memchr(r, ',', (size_t)(e - r));
				const char *q = r;
				uint64_t lo = 0, hi;
				int ok = 1;

				end = end ? end : e;
				while (q < end && isdigit((unsigned char)*q))
					lo = lo * 10 + (uint64_t)(*q++ - '0');
				ok = q > r;
				hi = lo;
				if (ok && q < end && *q == '-') {
					const char *d = ++q;

					hi = 0;
					while (q < end && isdigit((unsigned char)*q))
						hi = hi * 10 + (uint64_t)(*q++ - '0');
					ok = q > d;
				}
				if (!ok || q != end) {
					snprintf(c->err, c->errlen, "bad range list [%.*s] in \"%s\"",
						 (int)(e - p - 1), p + 1, item);
					return -EINVAL;
				}
				if (lo > hi) {
					snprintf(c->err, c->errlen,
						 "range %llu-%llu runs backwards in \"%s\"",
						 (unsigned long long)lo, (unsigned long long)hi, item);
					return -EINVAL;
				}
				r = end + 1;
			}
		}
		p = e;
	}
	return 0;
}

int sc_hostlist_check(const char *pattern, char *err, size_t errlen)
{
	struct check_ctx c = {err, errlen};

	if (!pattern || !*pattern) {
		snprintf(err, errlen, "empty host list");
		return -EINVAL;
	}
	return each_item(pattern, check_item, &c) ? -EINVAL : 0;
}
