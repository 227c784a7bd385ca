/* convert.h -- C structs to and from protobuf-c messages by their field
 * lists (fields.h), and the rows those lists are written with.  Inside
 * proto/ only.
 */
#ifndef SC_CONVERT_H
#define SC_CONVERT_H

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fields.h"

/* What a pack builds lives in one arena, freed at once. */
struct sc_arena {
	struct sc_arena_chunk *head;
};

/* Zeroed room for n objects of size bytes (never NULL for n == 0), or
 * NULL when memory runs out. */
void *sc_arena_alloc(struct sc_arena *a, size_t n, size_t size);
void sc_arena_free(struct sc_arena *a);

/* Whether every field of c (its nested messages, array elements and hook
 * members too) holds what its kind allows: an enum value with a name, a
 * NUL within a char array, a U8 within its max, an array present when it
 * has elements and no longer than its max.  The rules of the values
 * themselves are valid.c's. */
bool sc_convert_ok(const struct sc_fields *m, const void *c);

/* The message of c (which passes sc_convert_ok), built in a, into *pb.
 * 0 or -ENOMEM. */
int sc_convert_to_pb(struct sc_arena *a, const struct sc_fields *m, const void *c, void **pb);

/* Fills the zeroed C struct c from message pb.  0, -ENOMEM, or -EBADMSG for
 * what c cannot hold (an enum value without a name, a string too long for
 * its array, a count beyond its max).  On error c holds what was filled so
 * far, for its _exit to free. */
int sc_convert_from_pb(const struct sc_fields *m, const void *pb, void *c);

/* Heap bytes sc_convert_from_pb allocates for pb's arrays and pointed-to
 * structs (strings aside), counted before any is allocated. */
uint64_t sc_convert_cost(const struct sc_fields *m, const void *pb);

/* Zeroed heap room for n objects into *out, NULL when n is 0.  0 or
 * -ENOMEM. */
int sc_convert_calloc(void **out, size_t n, size_t size);

/* A repeated field of message pb: its values and their number. */
const void *sc_convert_repeated(const void *pb, const struct sc_field *f, size_t *n);
void sc_convert_set_repeated(void *pb, const struct sc_field *f, const void *v, size_t n);

/* ------------------------------------------------------------ rows
 *
 * A list's rows are written while SC_LIST is defined as "<protobuf-c
 * message type>, <C struct type>", each as F_<KIND>(field of the message,
 * member of the struct), and the list closes with SC_FIELDS.  Each row
 * checks at compile time that the two members have the types its kind
 * converts. */

#define SC_ROW_FIRST_(pbt, ct)  pbt
#define SC_ROW_SECOND_(pbt, ct) ct
#define SC_ROW_FIRST(...)       SC_ROW_FIRST_(__VA_ARGS__)
#define SC_ROW_SECOND(...)      SC_ROW_SECOND_(__VA_ARGS__)
#define SC_ROW_PBT              SC_ROW_FIRST(SC_LIST)
#define SC_ROW_CT               SC_ROW_SECOND(SC_LIST)
#define SC_ROW_PB(f)            (((SC_ROW_PBT *)0)->f)
#define SC_ROW_C(m)             (((SC_ROW_CT *)0)->m)
/* 1 when expression e has type t, else 0 (e is not evaluated). */
#define SC_ROW_IS(e, t) _Generic((e), t: 1, default: 0)
#define SC_ROW_BOTH(f, m, pbt, ct) (SC_ROW_IS(SC_ROW_PB(f), pbt) && SC_ROW_IS(SC_ROW_C(m), ct))
/* 1 when member m is an array of type t. */
#define SC_ROW_ARRAY_OF(m, t)                                                                      \
	__builtin_types_compatible_p(__typeof__(SC_ROW_C(m)), t[sizeof(SC_ROW_C(m)) / sizeof(t)])
/* 0, or a compile error when cond is false. */
#define SC_ROW_CHECK(cond) (0 * sizeof(char[(cond) ? 1 : -1]))

#define SC_ROW(k, f, m, types_ok, size)                                                            \
	.name = #f, .kind = SC_FIELD_##k, .pb_off = offsetof(SC_ROW_PBT, f),                             \
	.c_off = offsetof(SC_ROW_CT, m) + SC_ROW_CHECK(types_ok), .c_size = (size)
#define SC_ROW_SAME(k, f, m, pbt, ct) SC_ROW(k, f, m, SC_ROW_BOTH(f, m, pbt, ct), sizeof(SC_ROW_C(m)))

#define F_U32(f, m)    {SC_ROW_SAME(U32, f, m, uint32_t, uint32_t)}
#define F_U64(f, m)    {SC_ROW_SAME(U64, f, m, uint64_t, uint64_t)}
#define F_I32(f, m)    {SC_ROW_SAME(I32, f, m, int32_t, int32_t)}
#define F_I64(f, m)    {SC_ROW_SAME(I64, f, m, int64_t, int64_t)}
#define F_DOUBLE(f, m) {SC_ROW_SAME(DOUBLE, f, m, double, double)}
#define F_BOOL(f, m)   {SC_ROW_SAME(BOOL, f, m, protobuf_c_boolean, bool)}
#define F_U8(f, m, most) {SC_ROW_SAME(U8, f, m, uint32_t, uint8_t), .max = (most)}
/* As F_BOOL and F_U64, left out of the plan echo while 0 (sc_field) */
#define F_BOOL_ECHO_SET(f, m)                                                                      \
	{SC_ROW_SAME(BOOL, f, m, protobuf_c_boolean, bool), .echo_if_set = true}
#define F_U64_ECHO_SET(f, m)                                                                       \
	{SC_ROW_SAME(U64, f, m, uint64_t, uint64_t), .echo_if_set = true}
#define F_U32_ECHO_SET(f, m) {SC_ROW_SAME(U32, f, m, uint32_t, uint32_t), .echo_if_set = true}
#define F_DOUBLE_ECHO_SET(f, m) {SC_ROW_SAME(DOUBLE, f, m, double, double), .echo_if_set = true}
/* names_: the sc_<enum>_names of the C enum (plan.h, result.h) */
#define SC_ROW_ENUM(f, m, names_)                                                                   \
	SC_ROW(ENUM, f, m, sizeof(SC_ROW_PB(f)) == sizeof(int) && sizeof(SC_ROW_C(m)) == sizeof(int), \
	       sizeof(int)),                                                                       \
	    .names = &(names_)
#define F_ENUM(f, m, names_) {SC_ROW_ENUM(f, m, names_)}
/* As F_ENUM, left out of the plan echo while 0 (its first value) */
#define F_ENUM_ECHO_SET(f, m, names_) {SC_ROW_ENUM(f, m, names_), .echo_if_set = true}
#define F_STR(f, m)         {SC_ROW_SAME(STR, f, m, char *, char *)}
#define F_STR_OR_NULL(f, m) {SC_ROW_SAME(STR_OR_NULL, f, m, char *, char *)}
#define F_CHARS(f, m)                                                                              \
	{SC_ROW(CHARS, f, m, SC_ROW_IS(SC_ROW_PB(f), char *) && SC_ROW_ARRAY_OF(m, char),           \
		sizeof(SC_ROW_C(m))),                                                              \
	 .max = sizeof(SC_ROW_C(m))}
#define SC_ROW_U64S(f, m)                                                                          \
	SC_ROW(U64S, f, m, SC_ROW_IS(SC_ROW_PB(f), uint64_t *) && SC_ROW_ARRAY_OF(m, uint64_t),     \
	       sizeof(SC_ROW_C(m))),                                                               \
	    .max = sizeof(SC_ROW_C(m)) / sizeof(uint64_t), .pb_count_off = offsetof(SC_ROW_PBT, n_##f)
#define F_U64S(f, m) {SC_ROW_U64S(f, m)}
/* As F_U64S, left out of the plan echo while every element is 0 */
#define F_U64S_ECHO_SET(f, m) {SC_ROW_U64S(f, m), .echo_if_set = true}
/* sub_: the nested message's list */
#define F_MSG(f, m, sub_) {SC_ROW(MSG, f, m, 1, sizeof(SC_ROW_C(m))), .sub = &(sub_)}
#define F_MSG_OPT(f, m, sub_) F_MSG_OPT_BY(f, m, sub_, count)
/* the same, left out when member first (a uint64_t, the struct's first) is 0 */
#define F_MSG_OPT_BY(f, m, sub_, first)                                                            \
	{SC_ROW(MSG_OPT, f, m,                                                                     \
		SC_ROW_IS(SC_ROW_C(m).first, uint64_t) &&                                          \
		    offsetof(__typeof__(SC_ROW_C(m)), first) == 0,                                 \
		sizeof(SC_ROW_C(m))),                                                              \
	 .sub = &(sub_)}
#define F_MSG_PTR(f, m, sub_) {SC_ROW(MSG_PTR, f, m, 1, sizeof(*SC_ROW_C(m))), .sub = &(sub_)}
/* n: the C struct's count of array m; most: the most elements it holds */
#define F_ARRAY_MAX(f, m, n, sub_, most)                                                           \
	{SC_ROW(ARRAY, f, m, SC_ROW_IS(SC_ROW_C(n), uint32_t), sizeof(*SC_ROW_C(m))),               \
	 .c_count_off = offsetof(SC_ROW_CT, n), .pb_count_off = offsetof(SC_ROW_PBT, n_##f), .sub = &(sub_),   \
	 .max = (most)}
#define F_ARRAY(f, m, n, sub_) F_ARRAY_MAX(f, m, n, sub_, UINT32_MAX)
/* off: the offset the message's hooks read the field's values at */
#define F_HOOK(f, off)                                                                             \
	{.name = #f, .kind = SC_FIELD_HOOK, .pb_off = offsetof(SC_ROW_PBT, f),                           \
	 .pb_count_off = offsetof(SC_ROW_PBT, n_##f), .c_off = (off)}

#define NROWS(rows) (sizeof(rows) / sizeof((rows)[0]))

/* The list named name, of rows, for message desc_ (a protobuf-c
 * descriptor) and the C struct of SC_LIST; hooks_ may be NULL. */
#define SC_FIELDS(name, rows, desc_, hooks_)                                                       \
	const struct sc_fields name = {.desc = &(desc_),                                           \
				       .c_size = sizeof(SC_ROW_CT),                                      \
				       .fields = (rows),                                           \
				       .nfields = NROWS(rows),                                     \
				       .hooks = (hooks_)}

#endif
