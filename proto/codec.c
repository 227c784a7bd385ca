/* codec.c -- plan and results to and from enveloped protobuf bytes: each
 * checked (valid.c), converted by its field list (convert.c) and sealed in
 * or opened from its envelope (envelope.c).
 *
 * Wire layout and field numbers: ssdcluster.proto.  The same checks guard
 * both directions: _pack refuses (-EINVAL) a struct that _unpack would
 * refuse (-EBADMSG), so whatever is written can be read back.
 */
#include "codec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "envelope.h"
#include "ssdcluster.pb-c.h"
#include "valid.h"

/* What the codec packs on its own. */
enum top { TOP_PLAN, TOP_RANK, TOP_RUN };

static const struct {
	const struct sc_fields *fields;
	const char *magic;
} tops[] = {
    [TOP_PLAN] = {&sc_fields_plan, SC_ENVELOPE_PLAN},
    [TOP_RANK] = {&sc_fields_rank_result, SC_ENVELOPE_RANK},
    [TOP_RUN] = {&sc_fields_run_record, SC_ENVELOPE_RUN},
};

static bool top_valid(enum top t, const void *c)
{
	switch (t) {
	case TOP_PLAN:
		return sc_valid_plan(c);
	case TOP_RANK:
		return sc_valid_rank_result(c);
	case TOP_RUN:
		return sc_valid_run_record(c);
	}
	return false;
}

/* Frees what an unpack filled in c, and leaves it zeroed. */
static void top_exit(enum top t, void *c)
{
	switch (t) {
	case TOP_PLAN:
		sc_plan_exit(c);
		break;
	case TOP_RANK:
		sc_rank_result_exit(c); /* frees, but leaves the counters */
		memset(c, 0, sizeof(struct sc_rank_result));
		break;
	case TOP_RUN:
		sc_run_record_exit(c);
		break;
	}
}

static int pack(enum top t, const void *c, uint8_t **out, size_t *len)
{
	struct sc_arena a = {NULL};
	void *msg;
	int err;

	*out = NULL;
	*len = 0;
	if (!top_valid(t, c))
		return -EINVAL;
	err = sc_convert_to_pb(&a, tops[t].fields, c, &msg);
	if (!err)
		err = sc_envelope_seal(msg, tops[t].magic, out, len);
	sc_arena_free(&a);
	return err;
}

/* The C structs' bytes count against the budget too, before any of them is
 * allocated: a small message can stand for large structs (an empty
 * histogram for 34 KiB). */
static int unpack(enum top t, const uint8_t *buf, size_t len, void *c)
{
	const struct sc_fields *m = tops[t].fields;
	ProtobufCMessage *msg;
	int err;

	memset(c, 0, m->c_size);
	err = sc_envelope_open(buf, len, tops[t].magic, m->desc, &msg);
	if (err)
		return err;
	if (m->c_size + len + sc_convert_cost(m, msg) > sc_envelope_budget(len))
		err = -EFBIG;
	else
		err = sc_convert_from_pb(m, msg, c);
	if (!err && !top_valid(t, c))
		err = -EBADMSG;
	protobuf_c_message_free_unpacked(msg, NULL);
	if (err)
		top_exit(t, c);
	return err;
}

int sc_plan_pack(const struct sc_plan *plan, uint8_t **out, size_t *len)
{
	return pack(TOP_PLAN, plan, out, len);
}

int sc_plan_unpack(const uint8_t *buf, size_t len, struct sc_plan *plan)
{
	return unpack(TOP_PLAN, buf, len, plan);
}

int sc_rank_result_pack(const struct sc_rank_result *r, uint8_t **out, size_t *len)
{
	return pack(TOP_RANK, r, out, len);
}

int sc_rank_result_unpack(const uint8_t *buf, size_t len, struct sc_rank_result *r)
{
	return unpack(TOP_RANK, buf, len, r);
}

int sc_phase_record_add_rank(struct sc_phase_record *rec, const uint8_t *buf, size_t len)
{
	struct sc_rank_result *r = &rec->ranks[rec->nranks];
	int err = sc_rank_result_unpack(buf, len, r);

	if (err)
		return err;
	/* the payload: what the envelope holds */
	err = sc_envelope_frame(&ssdcluster__phase_record__descriptor, "ranks",
				buf + SC_CODEC_HEADER_BYTES, len - SC_CODEC_HEADER_BYTES,
				&rec->ranks_wire, &rec->ranks_wire_len, &rec->ranks_wire_cap);
	if (err) {
		top_exit(TOP_RANK, r);
		return err;
	}
	rec->nranks++;
	return 0;
}

/* The phase ph packed with its rows as they were gathered: ph without
 * them converted, and their bytes put where protobuf-c would write them. */
static int pack_phase_gathered(const struct sc_phase_record *ph, uint8_t **bytes, size_t *n)
{
	struct sc_phase_record bare = *ph;
	struct sc_arena a = {NULL};
	void *msg;
	int err;

	bare.nranks = 0;
	bare.ranks = NULL;
	bare.ranks_wire = NULL;
	err = sc_convert_to_pb(&a, &sc_fields_phase_record, &bare, &msg);
	if (!err)
		err = sc_envelope_pack_with(msg, "ranks", ph->ranks_wire, ph->ranks_wire_len,
					    bytes, n);
	sc_arena_free(&a);
	return err;
}

/* One phase of a run record, packed on its own (pack_run). */
static int pack_phase(uint32_t i, uint8_t **bytes, size_t *n, void *arg)
{
	const struct sc_run_record *rec = arg;
	struct sc_arena a = {NULL};
	void *msg;
	int err;

	if (rec->phases[i].ranks_wire && rec->phases[i].ranks)
		return pack_phase_gathered(&rec->phases[i], bytes, n);
	err = sc_convert_to_pb(&a, &sc_fields_phase_record, &rec->phases[i], &msg);
	*bytes = NULL;
	*n = 0;
	if (!err) {
		*n = protobuf_c_message_get_packed_size(msg);
		*bytes = malloc(*n ? *n : 1);
		if (!*bytes)
			err = -ENOMEM;
		else if (protobuf_c_message_pack(msg, *bytes) != *n)
			err = -EINVAL;
	}
	sc_arena_free(&a);
	return err;
}

/* The run record a phase at a time: converting all of a run's rows at once
 * took about 50 MB per phase of 32K ranks on top of the record, and grew
 * with every phase the results are rewritten after. */
int sc_run_record_pack(const struct sc_run_record *rec, uint8_t **out, size_t *len)
{
	struct sc_run_record head = *rec;
	struct sc_arena a = {NULL};
	void *msg;
	int err;

	*out = NULL;
	*len = 0;
	if (!top_valid(TOP_RUN, rec))
		return -EINVAL;
	head.nphases = 0;
	head.phases = NULL;
	err = sc_convert_to_pb(&a, &sc_fields_run_record, &head, &msg);
	if (!err)
		err = sc_envelope_seal_parts(msg, "phases", rec->nphases, pack_phase, (void *)rec,
					     SC_ENVELOPE_RUN, out, len);
	sc_arena_free(&a);
	return err;
}

/* What pack_phase packs for sc_run_record_pack_phase. */
struct one_phase {
	const struct sc_run_record *rec;
	uint32_t i;
};

static int pack_one_phase(uint32_t i, uint8_t **bytes, size_t *n, void *arg)
{
	const struct one_phase *o = arg;

	(void)i;
	return pack_phase(o->i, bytes, n, (void *)o->rec);
}

int sc_run_record_pack_phase(const struct sc_run_record *rec, uint32_t i, uint8_t **out,
			     size_t *len)
{
	Ssdcluster__RunRecord head = SSDCLUSTER__RUN_RECORD__INIT;
	struct one_phase o = {rec, i};

	*out = NULL;
	*len = 0;
	if (!sc_valid_run_phase(rec, i))
		return -EINVAL;
	/* proto3 writes no field at its default: this is the peak alone */
	head.rank0_peak_rss_bytes = rec->rank0_peak_rss_bytes;
	return sc_envelope_seal_parts(&head.base, "phases", 1, pack_one_phase, &o, SC_ENVELOPE_RUN,
				      out, len);
}

int sc_run_record_unpack(const uint8_t *buf, size_t len, struct sc_run_record *rec)
{
	return unpack(TOP_RUN, buf, len, rec);
}
