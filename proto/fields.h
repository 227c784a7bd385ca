/* fields.h -- one field list per protobuf message: where each field of the
 * message lives in its C struct (worker/plan.h, worker/result.h), and how
 * it converts.
 *
 * A message's list drives packing (C struct -> protobuf-c message),
 * unpacking (back), the per-field checks both share (proto/convert.c), and
 * the plan echo of results.json and plan.json (coordinator/report/echo.c).
 * Every field of ssdcluster.proto has exactly one row in its message's
 * list, in field number order; tests/unit/proto/test_fields.c walks the
 * protobuf-c descriptors so that the lists cannot drift.  The lists:
 * proto/plan_fields.c and proto/result_fields.c.
 *
 * Offsets into the generated message structs are plain numbers here, so
 * readers of the lists need no protobuf-c header.
 */
#ifndef SC_FIELDS_H
#define SC_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* How a field converts: wire type <-> C member. */
enum sc_field_kind {
	SC_FIELD_U32,	      /* uint32 <-> uint32_t */
	SC_FIELD_U64,	      /* uint64 <-> uint64_t */
	SC_FIELD_I32,	      /* int32 <-> int32_t */
	SC_FIELD_I64,	      /* sint64 <-> int64_t */
	SC_FIELD_DOUBLE,      /* double <-> double */
	SC_FIELD_BOOL,	      /* bool <-> bool */
	SC_FIELD_U8,	      /* uint32 <-> uint8_t; at most max */
	SC_FIELD_ENUM,	      /* enum <-> a C enum of the same values; one of names */
	SC_FIELD_STR,	      /* string <-> char *, owned; NULL is written as "" */
	SC_FIELD_STR_OR_NULL, /* the same, but "" reads back as NULL */
	SC_FIELD_CHARS,	      /* string <-> char[max], its NUL included */
	SC_FIELD_U64S,	      /* repeated uint64 <-> uint64_t[max], exactly max values */
	SC_FIELD_MSG,	      /* message <-> struct member; absent reads as all zero */
	SC_FIELD_MSG_OPT,     /* the same, but left out when the struct's first
			       * member (a uint64_t: a count, or a key) is 0 */
	SC_FIELD_MSG_PTR,     /* message <-> pointer to a heap struct; NULL = absent */
	SC_FIELD_ARRAY,	      /* repeated message <-> heap array and its uint32_t
			       * count; at most max elements */
	SC_FIELD_HOOK,	      /* repeated, converted by the message's hooks */
};

struct sc_fields;

/* One field: a row of its message's list. */
struct sc_field {
	const char *name; /* as in the .proto; the plan echo's key */
	enum sc_field_kind kind;
	uint32_t max;			   /* U8, CHARS, U64S, ARRAY: see the kind */
	size_t pb_off;			   /* in the protobuf-c message struct */
	size_t pb_count_off;		   /* repeated: its n_<name> (a size_t) */
	size_t c_off;			   /* in the C struct; HOOK: as the hooks say */
	size_t c_size;			   /* of the C member; MSG_PTR, ARRAY: of
					    * what it points to */
	size_t c_count_off;		   /* ARRAY: its uint32_t count in the C struct */
	const struct sc_enum_names *names; /* ENUM: its values and their names */
	const struct sc_fields *sub;	   /* MSG*, ARRAY: the nested message */
	bool echo_if_set;		   /* the plan echo leaves it out while 0
					    * (false): echoes of plans without it
					    * stay as they were */
};

struct sc_arena;

/* The conversion of a message's HOOK fields.  to_pb: 0 or -ENOMEM;
 * from_pb: 0, -EBADMSG or -ENOMEM; ok (may be NULL): whether a C struct's
 * hook members are what from_pb can give; cost (may be NULL): the heap
 * bytes from_pb will allocate for a message. */
struct sc_field_hooks {
	int (*to_pb)(struct sc_arena *a, const void *c, void *pb);
	int (*from_pb)(const void *pb, void *c);
	bool (*ok)(const void *c);
	uint64_t (*cost)(const void *pb);
};

struct ProtobufCMessageDescriptor;

/* A message's list. */
struct sc_fields {
	const struct ProtobufCMessageDescriptor *desc; /* the generated message's */
	size_t c_size;				       /* of its C struct */
	const struct sc_field *fields;
	size_t nfields;
	const struct sc_field_hooks *hooks; /* NULL: no HOOK field */
};

/* Plan (struct sc_plan) and the messages the plan echo reads. */
extern const struct sc_fields sc_fields_plan;
extern const struct sc_fields sc_fields_target;
extern const struct sc_fields sc_fields_model_param;
extern const struct sc_fields sc_fields_phase;
extern const struct sc_fields sc_fields_io_spec;
extern const struct sc_fields sc_fields_ckpt_spec;
extern const struct sc_fields sc_fields_ckpt_layout;
extern const struct sc_fields sc_fields_ingest_spec;
extern const struct sc_fields sc_fields_training_spec;
extern const struct sc_fields sc_fields_steady_spec;
extern const struct sc_fields sc_fields_fill_spec;

/* RankResult (struct sc_rank_result) and RunRecord (struct sc_run_record):
 * with the plan, every other message is reached from these. */
extern const struct sc_fields sc_fields_rank_result;
extern const struct sc_fields sc_fields_phase_record;
extern const struct sc_fields sc_fields_run_record;

#endif
