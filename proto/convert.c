/* convert.c -- C structs to and from protobuf-c messages, field by field as
 * each message's list (fields.h) says. */
#include "convert.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sc_arena_chunk {
	struct sc_arena_chunk *next;
	max_align_t data[];
};

void *sc_arena_alloc(struct sc_arena *a, size_t n, size_t size)
{
	struct sc_arena_chunk *c;

	if (size && n > (SIZE_MAX - sizeof(*c)) / size)
		return NULL;
	c = calloc(1, sizeof(*c) + n * size);
	if (!c)
		return NULL;
	c->next = a->head;
	a->head = c;
	return c->data;
}

void sc_arena_free(struct sc_arena *a)
{
	while (a->head) {
		struct sc_arena_chunk *c = a->head;

		a->head = c->next;
		free(c);
	}
}

int sc_convert_calloc(void **out, size_t n, size_t size)
{
	*out = NULL;
	if (!n)
		return 0;
	*out = calloc(n, size);
	return *out ? 0 : -ENOMEM;
}

/* Members are reached by offset; pointers and counts are copied bytewise,
 * whatever the pointed-to type. */
static void *get_ptr(const void *at)
{
	void *p;

	memcpy(&p, at, sizeof(p));
	return p;
}

static void put_ptr(void *at, const void *p)
{
	memcpy(at, &p, sizeof(p));
}

static uint32_t get_u32(const void *at)
{
	uint32_t v;

	memcpy(&v, at, sizeof(v));
	return v;
}

static int get_int(const void *at)
{
	int v;

	memcpy(&v, at, sizeof(v));
	return v;
}

const void *sc_convert_repeated(const void *pb, const struct sc_field *f, size_t *n)
{
	memcpy(n, (const char *)pb + f->pb_count_off, sizeof(*n));
	return get_ptr((const char *)pb + f->pb_off);
}

void sc_convert_set_repeated(void *pb, const struct sc_field *f, const void *v, size_t n)
{
	memcpy((char *)pb + f->pb_count_off, &n, sizeof(n));
	put_ptr((char *)pb + f->pb_off, v);
}

/* Whether the wire and the C struct hold a field of kind k in the same
 * bytes (an enum's are checked on the way in). */
static bool same_bytes(enum sc_field_kind k)
{
	return k == SC_FIELD_U32 || k == SC_FIELD_U64 || k == SC_FIELD_I32 || k == SC_FIELD_I64 ||
	       k == SC_FIELD_DOUBLE;
}

/* ------------------------------------------------------------ checks */

static bool field_ok(const struct sc_field *f, const char *c)
{
	const char *at = c + f->c_off;
	const char *elems;
	uint32_t n;

	switch (f->kind) {
	case SC_FIELD_U8:
		return *(const uint8_t *)at <= f->max;
	case SC_FIELD_ENUM:
		return get_int(at) >= 0 && get_int(at) < f->names->count;
	case SC_FIELD_CHARS:
		return memchr(at, '\0', f->max) != NULL;
	case SC_FIELD_MSG:
	case SC_FIELD_MSG_OPT:
		return sc_convert_ok(f->sub, at);
	case SC_FIELD_MSG_PTR:
		return !get_ptr(at) || sc_convert_ok(f->sub, get_ptr(at));
	case SC_FIELD_ARRAY:
		n = get_u32(c + f->c_count_off);
		elems = get_ptr(at);
		if (n > f->max || (n && !elems))
			return false;
		for (uint32_t i = 0; i < n; i++)
			if (!sc_convert_ok(f->sub, elems + (size_t)i * f->c_size))
				return false;
		return true;
	default:
		return true; /* any value of the C type converts */
	}
}

bool sc_convert_ok(const struct sc_fields *m, const void *c)
{
	for (size_t i = 0; i < m->nfields; i++)
		if (!field_ok(&m->fields[i], c))
			return false;
	return !m->hooks || !m->hooks->ok || m->hooks->ok(c);
}

/* ------------------------------------------------- C struct -> protobuf */

static int array_to_pb(struct sc_arena *a, const struct sc_field *f, const char *c, void *pb)
{
	uint32_t n = get_u32(c + f->c_count_off);
	const char *elems = get_ptr(c + f->c_off);
	void **msgs = sc_arena_alloc(a, n, sizeof(*msgs));
	int err;

	if (!msgs)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if ((err = sc_convert_to_pb(a, f->sub, elems + (size_t)i * f->c_size, &msgs[i])))
			return err;
	sc_convert_set_repeated(pb, f, msgs, n);
	return 0;
}

/* A nested message of c's member at into pb's field at to. */
static int msg_to_pb(struct sc_arena *a, const struct sc_field *f, const void *at, void *to)
{
	void *msg;
	int err = sc_convert_to_pb(a, f->sub, at, &msg);

	if (!err)
		put_ptr(to, msg);
	return err;
}

/* pb may point into c (strings, arrays): protobuf-c only reads them while
 * packing, though its message structs hold them non-const. */
static int field_to_pb(struct sc_arena *a, const struct sc_field *f, const char *c, char *pb)
{
	const char *at = c + f->c_off;
	char *to = pb + f->pb_off;
	const char *s;

	if (same_bytes(f->kind) || f->kind == SC_FIELD_ENUM) {
		memcpy(to, at, f->c_size);
		return 0;
	}
	switch (f->kind) {
	case SC_FIELD_BOOL:
		*(protobuf_c_boolean *)to = *(const bool *)at;
		return 0;
	case SC_FIELD_U8:
		*(uint32_t *)to = *(const uint8_t *)at;
		return 0;
	case SC_FIELD_STR:
	case SC_FIELD_STR_OR_NULL:
		s = get_ptr(at);
		put_ptr(to, s ? s : "");
		return 0;
	case SC_FIELD_CHARS:
		put_ptr(to, at);
		return 0;
	case SC_FIELD_U64S: /* all 0 and echo_if_set: left out (read back as all 0) */
		for (uint32_t i = 0; i < f->max; i++)
			if (!f->echo_if_set || ((const uint64_t *)at)[i]) {
				sc_convert_set_repeated(pb, f, at, f->max);
				break;
			}
		return 0;
	case SC_FIELD_MSG:
		return msg_to_pb(a, f, at, to);
	case SC_FIELD_MSG_OPT: /* count, the first member */
		return *(const uint64_t *)at ? msg_to_pb(a, f, at, to) : 0;
	case SC_FIELD_MSG_PTR:
		return get_ptr(at) ? msg_to_pb(a, f, get_ptr(at), to) : 0;
	case SC_FIELD_ARRAY:
		return array_to_pb(a, f, c, pb);
	default:
		return 0; /* HOOK: the message's hooks, after every field */
	}
}

int sc_convert_to_pb(struct sc_arena *a, const struct sc_fields *m, const void *c, void **pb)
{
	void *msg = sc_arena_alloc(a, 1, m->desc->sizeof_message);
	int err;

	if (!msg)
		return -ENOMEM;
	protobuf_c_message_init(m->desc, msg);
	for (size_t i = 0; i < m->nfields; i++)
		if ((err = field_to_pb(a, &m->fields[i], c, msg)))
			return err;
	if (m->hooks && (err = m->hooks->to_pb(a, c, msg)))
		return err;
	*pb = msg;
	return 0;
}

/* ------------------------------------------------- protobuf -> C struct */

/* Into a char array of cap bytes, NUL included. */
static int copy_fixed(char *dst, size_t cap, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= cap)
		return -EBADMSG;
	memcpy(dst, s ? s : "", n + 1);
	return 0;
}

/* A heap copy of s into the char * at to: "" for NULL, or (or_null) no
 * copy at all for NULL and "". */
static int copy_str(char *to, const char *s, bool or_null)
{
	char *d;

	if (or_null && (!s || !*s))
		return 0;
	d = strdup(s ? s : "");
	if (!d)
		return -ENOMEM;
	put_ptr(to, d);
	return 0;
}

static int array_from_pb(const struct sc_field *f, const void *pb, char *c)
{
	size_t n;
	void *const *msgs = sc_convert_repeated(pb, f, &n);
	void *elems;
	uint32_t n32 = (uint32_t)n;
	int err;

	if (n > f->max)
		return -EBADMSG; /* before allocating for them */
	if ((err = sc_convert_calloc(&elems, n, f->c_size)))
		return err;
	put_ptr(c + f->c_off, elems);
	memcpy(c + f->c_count_off, &n32, sizeof(n32));
	for (size_t i = 0; i < n; i++) {
		if (!msgs[i])
			return -EBADMSG;
		if ((err = sc_convert_from_pb(f->sub, msgs[i], (char *)elems + i * f->c_size)))
			return err;
	}
	return 0;
}

/* A heap struct for the nested message msg, its pointer into c's at. */
static int heap_from_pb(const struct sc_field *f, const void *msg, char *at)
{
	void *h = calloc(1, f->c_size);

	if (!h)
		return -ENOMEM;
	put_ptr(at, h); /* owned by c from here on */
	return sc_convert_from_pb(f->sub, msg, h);
}

static int field_from_pb(const struct sc_field *f, const char *pb, char *c)
{
	const char *from = pb + f->pb_off;
	char *at = c + f->c_off;
	uint32_t u;
	size_t n;

	if (same_bytes(f->kind)) {
		memcpy(at, from, f->c_size);
		return 0;
	}
	switch (f->kind) {
	case SC_FIELD_BOOL:
		*(bool *)at = *(const protobuf_c_boolean *)from;
		return 0;
	case SC_FIELD_U8:
		u = get_u32(from);
		if (u > f->max)
			return -EBADMSG;
		*(uint8_t *)at = (uint8_t)u;
		return 0;
	case SC_FIELD_ENUM:
		if (get_int(from) < 0 || get_int(from) >= f->names->count)
			return -EBADMSG;
		memcpy(at, from, f->c_size);
		return 0;
	case SC_FIELD_STR:
	case SC_FIELD_STR_OR_NULL:
		return copy_str(at, get_ptr(from), f->kind == SC_FIELD_STR_OR_NULL);
	case SC_FIELD_CHARS:
		return copy_fixed(at, f->max, get_ptr(from));
	case SC_FIELD_U64S:
		from = sc_convert_repeated(pb, f, &n);
		if (n != f->max && n != 0) /* none: all 0 (a field newer than the sender) */
			return -EBADMSG;
		if (n)
			memcpy(at, from, f->c_size);
		else
			memset(at, 0, f->c_size);
		return 0;
	case SC_FIELD_MSG:
	case SC_FIELD_MSG_OPT: /* absent: all zero */
		return get_ptr(from) ? sc_convert_from_pb(f->sub, get_ptr(from), at) : 0;
	case SC_FIELD_MSG_PTR: /* absent: NULL */
		return get_ptr(from) ? heap_from_pb(f, get_ptr(from), at) : 0;
	case SC_FIELD_ARRAY:
		return array_from_pb(f, pb, c);
	default:
		return 0; /* HOOK: the message's hooks, after every field */
	}
}

int sc_convert_from_pb(const struct sc_fields *m, const void *pb, void *c)
{
	int err;

	for (size_t i = 0; i < m->nfields; i++)
		if ((err = field_from_pb(&m->fields[i], pb, c)))
			return err;
	return m->hooks ? m->hooks->from_pb(pb, c) : 0;
}

uint64_t sc_convert_cost(const struct sc_fields *m, const void *pb)
{
	uint64_t cost = m->hooks && m->hooks->cost ? m->hooks->cost(pb) : 0;

	for (size_t i = 0; i < m->nfields; i++) {
		const struct sc_field *f = &m->fields[i];
		const void *msg;
		void *const *msgs;
		size_t n;

		switch (f->kind) {
		case SC_FIELD_MSG:
		case SC_FIELD_MSG_OPT:
			msg = get_ptr((const char *)pb + f->pb_off);
			cost += msg ? sc_convert_cost(f->sub, msg) : 0;
			break;
		case SC_FIELD_MSG_PTR:
			msg = get_ptr((const char *)pb + f->pb_off);
			cost += msg ? f->c_size + sc_convert_cost(f->sub, msg) : 0;
			break;
		case SC_FIELD_ARRAY:
			msgs = sc_convert_repeated(pb, f, &n);
			cost += n * f->c_size;
			for (size_t k = 0; k < n; k++)
				cost += msgs[k] ? sc_convert_cost(f->sub, msgs[k]) : 0;
			break;
		default:
			break;
		}
	}
	return cost;
}
