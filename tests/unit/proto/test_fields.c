/* test_fields.c -- every field of every message of ssdcluster.proto has
 * exactly one row in its message's field list (proto/fields.h), in field
 * number order, of a kind that fits the field's wire type, so that the
 * lists the codec and the plan echo run on cannot drift from the .proto.
 *
 * Walks the protobuf-c descriptors from the messages the codec packs
 * (Plan, RankResult, RunRecord) through every nested message.  Exit 0
 * pass, 1 fail (each problem printed).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fields.h"
#include "ssdcluster.pb-c.h"

/* Every message of ssdcluster.proto, each of which the walk must reach. */
static const ProtobufCMessageDescriptor *const all_messages[] = {
    &ssdcluster__target__descriptor,
    &ssdcluster__io_spec__descriptor,
    &ssdcluster__ckpt_spec__descriptor,
    &ssdcluster__ckpt_spec__model__descriptor,
    &ssdcluster__ckpt_spec__layout__descriptor,
    &ssdcluster__ingest_spec__descriptor,
    &ssdcluster__phase__descriptor,
    &ssdcluster__plan__descriptor,
    &ssdcluster__lat_summary__descriptor,
    &ssdcluster__histogram__descriptor,
    &ssdcluster__errno_count__descriptor,
    &ssdcluster__io_failure__descriptor,
    &ssdcluster__rank_result__descriptor,
    &ssdcluster__verify_mismatch__descriptor,
    &ssdcluster__phase_record__descriptor,
    &ssdcluster__run_record__descriptor,
};
#define NMESSAGES (sizeof(all_messages) / sizeof(all_messages[0]))

static bool reached[NMESSAGES];

/* Problems are printed only when report is set (the self-test counts them
 * quietly). */
static bool report;

static int problem(const char *msg, const char *field, const char *what)
{
	if (report)
		FAIL("%s%s%s: %s", msg, field ? "." : "", field ? field : "", what);
	return 1;
}

/* The wire type and label each kind converts (HOOK: any repeated field). */
static const struct {
	ProtobufCType type;
	bool repeated;
	const char *what;
} fits[] = {
    [SC_FIELD_U32] = {PROTOBUF_C_TYPE_UINT32, false, "a uint32"},
    [SC_FIELD_U64] = {PROTOBUF_C_TYPE_UINT64, false, "a uint64"},
    [SC_FIELD_I32] = {PROTOBUF_C_TYPE_INT32, false, "an int32"},
    [SC_FIELD_I64] = {PROTOBUF_C_TYPE_SINT64, false, "a sint64"},
    [SC_FIELD_DOUBLE] = {PROTOBUF_C_TYPE_DOUBLE, false, "a double"},
    [SC_FIELD_BOOL] = {PROTOBUF_C_TYPE_BOOL, false, "a bool"},
    [SC_FIELD_U8] = {PROTOBUF_C_TYPE_UINT32, false, "a uint32"},
    [SC_FIELD_ENUM] = {PROTOBUF_C_TYPE_ENUM, false, "an enum"},
    [SC_FIELD_STR] = {PROTOBUF_C_TYPE_STRING, false, "a string"},
    [SC_FIELD_STR_OR_NULL] = {PROTOBUF_C_TYPE_STRING, false, "a string"},
    [SC_FIELD_CHARS] = {PROTOBUF_C_TYPE_STRING, false, "a string"},
    [SC_FIELD_U64S] = {PROTOBUF_C_TYPE_UINT64, true, "a repeated uint64"},
    [SC_FIELD_MSG] = {PROTOBUF_C_TYPE_MESSAGE, false, "a message"},
    [SC_FIELD_MSG_OPT] = {PROTOBUF_C_TYPE_MESSAGE, false, "a message"},
    [SC_FIELD_MSG_PTR] = {PROTOBUF_C_TYPE_MESSAGE, false, "a message"},
    [SC_FIELD_ARRAY] = {PROTOBUF_C_TYPE_MESSAGE, true, "a repeated message"},
    [SC_FIELD_HOOK] = {0, true, "a repeated field"},
};

/* Why row f's kind does not convert field d (its wire type, whether it is
 * repeated, an enum's values), or NULL. */
static const char *kind_misfit(const struct sc_field *f, const ProtobufCFieldDescriptor *d)
{
	static char why[64];
	const ProtobufCEnumDescriptor *e = d->descriptor;

	if ((size_t)f->kind >= sizeof(fits) / sizeof(fits[0]) || !fits[f->kind].what)
		return "no such kind";
	if ((d->label == PROTOBUF_C_LABEL_REPEATED) != fits[f->kind].repeated ||
	    (f->kind != SC_FIELD_HOOK && d->type != fits[f->kind].type)) {
		snprintf(why, sizeof(why), "its row's kind converts %s", fits[f->kind].what);
		return why;
	}
	if (f->kind != SC_FIELD_ENUM)
		return NULL;
	if (!f->names || (int)e->n_values != f->names->count)
		return "the .proto's enum and the C enum's names differ in number";
	for (int v = 0; v < f->names->count; v++)
		if (!protobuf_c_enum_descriptor_get_value(e, v))
			return "the .proto's enum values are not 0..count-1";
	return NULL;
}

/* Whether row f, a repeated field's or a nested message's, points where d
 * does, and its C size fits its nested list. */
static const char *layout_misfit(const struct sc_field *f, const ProtobufCFieldDescriptor *d)
{
	if (d->label == PROTOBUF_C_LABEL_REPEATED && f->pb_count_off != d->quantifier_offset)
		return "count offset is not the message's n_ member";
	if (d->type != PROTOBUF_C_TYPE_MESSAGE || f->kind == SC_FIELD_HOOK)
		return NULL;
	if (!f->sub || f->sub->desc != d->descriptor)
		return "nested list is not of the field's message";
	if (f->c_size != f->sub->c_size)
		return "C member is not the nested list's struct";
	return NULL;
}

static int check_list(const struct sc_fields *m);

/* Problems of the row of field d (index i) in list m, and of its nested
 * list. */
static int check_field(const struct sc_fields *m, size_t i, const ProtobufCFieldDescriptor *d)
{
	const char *name = m->desc->name, *why;
	const struct sc_field *row = NULL;
	int rows = 0, n = 0;

	for (size_t k = 0; k < m->nfields; k++)
		if (m->fields[k].pb_off == d->offset) {
			row = &m->fields[k];
			rows++;
		}
	if (rows != 1)
		return problem(name, d->name,
			       rows ? "more than one row" : "no row in its field list");
	if (row != &m->fields[i])
		n += problem(name, d->name, "row out of field number order");
	if (strcmp(row->name, d->name) != 0)
		n += problem(name, d->name, "row named otherwise");
	if ((why = kind_misfit(row, d)) || (why = layout_misfit(row, d)))
		n += problem(name, d->name, why);
	else if (row->sub && d->type == PROTOBUF_C_TYPE_MESSAGE)
		n += check_list(row->sub);
	return n;
}

/* Problems of list m and of the lists it nests. */
static int check_list(const struct sc_fields *m)
{
	int n = 0;

	for (size_t k = 0; k < NMESSAGES; k++)
		if (all_messages[k] == m->desc)
			reached[k] = true;
	if (m->desc->sizeof_message == 0 || m->c_size == 0)
		n += problem(m->desc->name, NULL, "list without sizes");
	if (m->nfields != m->desc->n_fields)
		n += problem(m->desc->name, NULL, "rows and fields differ in number");
	for (unsigned i = 0; i < m->desc->n_fields; i++)
		n += check_field(m, i, &m->desc->fields[i]);
	return n;
}

static void test_lists_match_proto(void)
{
	report = true;
	check_list(&sc_fields_plan);
	check_list(&sc_fields_rank_result);
	check_list(&sc_fields_run_record);
	for (size_t k = 0; k < NMESSAGES; k++)
		CHECK(reached[k], "%s: not reached from Plan, RankResult or RunRecord",
		      all_messages[k]->name);
}

/* The check finds a field without a row, and a row of the wrong kind. */
static void test_check_fails(void)
{
	struct sc_fields cut = sc_fields_io_spec;
	struct sc_field rows[64];
	struct sc_fields wrong = sc_fields_io_spec;

	report = false;
	cut.nfields--;
	CHECK(check_list(&cut) >= 1, "IoSpec without the row of its last field passes");

	CHECK(sc_fields_io_spec.nfields <= sizeof(rows) / sizeof(rows[0]), "IoSpec too long");
	memcpy(rows, sc_fields_io_spec.fields, sc_fields_io_spec.nfields * sizeof(rows[0]));
	rows[1].kind = SC_FIELD_U64; /* rwmixread_pct is a uint32 */
	wrong.fields = rows;
	CHECK(check_list(&wrong) == 1, "IoSpec with a uint32 as a uint64 passes");
	CHECK(check_list(&sc_fields_io_spec) == 0, "IoSpec fails");
	report = true;
}

int main(void)
{
	test_lists_match_proto();
	test_check_fails();
	return check_exit("test_fields");
}
