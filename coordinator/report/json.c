/* json.c -- the JSON builder (sc_json_*) that results.json and plan.json
 * are written with. */
#include "report.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "num_text.h"
#include "verify.h"
#include "report_priv.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

/* ------------------------------------------------------------ JSON helpers */

struct json_object *sc_json_new(struct jb *b, struct json_object *o)
{
	if (!o)
		b->nomem = 1;
	return o;
}

void sc_json_put(struct jb *b, struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void sc_json_put_null(struct jb *b, struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL))
		b->nomem = 1;
}

void sc_report_json_put_omitted(struct jb *b, struct json_object *o, const char *key, uint32_t n)
{
	char k[64];

	sc_json_put_null(b, o, key);
	snprintf(k, sizeof(k), "%s_file", key);
	sc_json_put_str(b, o, k, "ranks.csv");
	snprintf(k, sizeof(k), "%s_omitted", key);
	sc_json_put_u64(b, o, k, n);
}

void sc_json_push(struct jb *b, struct json_object *a, struct json_object *v)
{
	if (!a || !v || json_object_array_add(a, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void sc_json_put_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v)
{
	sc_json_put(b, o, key, json_object_new_uint64(v));
}

void sc_json_put_i64(struct jb *b, struct json_object *o, const char *key, int64_t v)
{
	sc_json_put(b, o, key, json_object_new_int64(v));
}

void sc_json_put_bool(struct jb *b, struct json_object *o, const char *key, int v)
{
	sc_json_put(b, o, key, json_object_new_boolean(v));
}

void sc_json_put_str(struct jb *b, struct json_object *o, const char *key, const char *s)
{
	if (s)
		sc_json_put(b, o, key, json_object_new_string(s));
	else
		sc_json_put_null(b, o, key);
}

/* The shortest of %.15g / %.17g that reads back as v (json-c would print
 * 1.2e9/7 with 17 digits of noise): num_text.h, printf's text at a
 * fraction of its cost; non-finite values become null. */
static struct json_object *new_double(double v)
{
	char s[SC_NUM_TEXT_MAX];

	sc_num_text_g(s, v);
	return json_object_new_double_s(v, s);
}

void sc_json_put_dbl(struct jb *b, struct json_object *o, const char *key, double v)
{
	if (isfinite(v))
		sc_json_put(b, o, key, new_double(v));
	else
		sc_json_put_null(b, o, key);
}

void sc_json_put_mbps(struct jb *b, struct json_object *o, const char *key, double bytes_per_s)
{
	sc_json_put_dbl(b, o, key, round(bytes_per_s) / SC_BYTES_PER_MB);
}

char *sc_json_text_at(struct jb *b, struct json_object *o, size_t pad, size_t *len)
{
	const char *t = NULL, *p;
	size_t tlen = 0, lines = 0;
	char *out = NULL, *q;

	if (o && !b->nomem)
		t = json_object_to_json_string_length(o, JSON_FLAGS, &tlen);
	for (p = t; p && (p = memchr(p, '\n', tlen - (size_t)(p - t))); p++)
		lines++;
	if (t)
		out = malloc(tlen + lines * pad + 1);
	for (p = t, q = out; out && p < t + tlen; p++) {
		*q++ = *p;
		if (*p == '\n') {
			memset(q, ' ', pad);
			q += pad;
		}
	}
	if (out) {
		*q = '\0';
		*len = (size_t)(q - out);
	} else {
		b->nomem = 1;
	}
	json_object_put(o);
	return out;
}

/* Prints token k (SC_JSON_TOKEN): its number is the object's userdata. */
static int token_to_string(struct json_object *jso, struct printbuf *pb, int level, int flags)
{
	char t[] = SC_JSON_TOKEN_0;

	(void)level;
	(void)flags;
	t[1] = (char)('0' + (int)(intptr_t)json_object_get_userdata(jso));
	return printbuf_memappend(pb, t, (int)strlen(t)) < 0 ? -1 : 0;
}

struct json_object *sc_json_token(struct jb *b, unsigned k)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	if (o)
		json_object_set_serializer(o, token_to_string, (void *)(intptr_t)(k % 10), NULL);
	return o;
}

const char *sc_json_token_in(const char *text, size_t len, unsigned k)
{
	char t[] = SC_JSON_TOKEN_0;

	t[1] = (char)('0' + k % 10);
	return memmem(text, len, t, SC_JSON_TOKEN_LEN);
}

size_t sc_json_indent_before(const char *text, const char *p)
{
	size_t n = 0;

	while (p > text && p[-1] == ' ') {
		p--;
		n++;
	}
	return n;
}

char *sc_json_text(struct jb *b, struct json_object *root, size_t *len)
{
	const char *json;
	size_t json_len;
	char *text;

	json = b->nomem ? NULL : json_object_to_json_string_length(root, JSON_FLAGS, &json_len);
	if (!json)
		return NULL;
	/* json-c's buffer ends in a NUL where the newline goes */
	text = malloc(json_len + 1);
	if (!text)
		return NULL;
	memcpy(text, json, json_len);
	text[json_len] = '\n';
	*len = json_len + 1;
	return text;
}

void sc_json_push_dbl(struct jb *b, struct json_object *a, double v)
{
	if (!isfinite(v)) {
		if (!a || json_object_array_add(a, NULL))
			b->nomem = 1;
		return;
	}
	sc_json_push(b, a, new_double(v));
}

void sc_report_json_node_host(struct jb *b, struct json_object *o, uint32_t node, const char *host)
{
	sc_json_put_u64(b, o, "node", node);
	sc_json_put_str(b, o, "host", host);
}
