/* envelope.c -- the header in front of every packed buffer: magic, payload
 * length and CRC, written and checked; and the memory budget of decoding. */
#include "envelope.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "codec.h"

/* magic[4], payload length u32 LE, crc32(payload) u32 LE */
#define MAGIC_LEN  4u
#define LENGTH_AT  4u
#define CRC_AT	   8u
#define HEADER_LEN 12u
_Static_assert(SC_CODEC_HEADER_BYTES == HEADER_LEN, "the header the codec writes");

/* What decoding len bytes may allocate: plenty for real results (a phase
 * record of a few hundred bytes holds up to five 34 KiB histograms), and
 * bounded for damaged or hostile bytes (a 1 MB file of empty histograms
 * once made 14 GB of them). */
#define DECODE_BASE_BYTES     (UINT64_C(64) << 20)
#define DECODE_BYTES_PER_BYTE UINT64_C(1024)
#define DECODE_MAX_BYTES      (UINT64_C(2) << 30)

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t payload_crc(const uint8_t *p, uint32_t len)
{
	return (uint32_t)crc32(0L, p, len);
}

int sc_envelope_seal(const ProtobufCMessage *msg, const char *magic, uint8_t **out, size_t *len)
{
	size_t n = protobuf_c_message_get_packed_size(msg);
	uint8_t *buf;

	if (n > UINT32_MAX)
		return -EMSGSIZE;
	buf = malloc(HEADER_LEN + n);
	if (!buf)
		return -ENOMEM;
	if (protobuf_c_message_pack(msg, buf + HEADER_LEN) != n) {
		free(buf);
		return -EINVAL;
	}
	memcpy(buf, magic, MAGIC_LEN);
	put_le32(buf + LENGTH_AT, (uint32_t)n);
	put_le32(buf + CRC_AT, payload_crc(buf + HEADER_LEN, (uint32_t)n));
	*out = buf;
	*len = HEADER_LEN + n;
	return 0;
}

/* A growing output buffer. */
struct out {
	uint8_t *buf;
	size_t len, cap;
};

static int out_put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		uint8_t *more;

		while (cap < o->len + n)
			cap *= 2;
		more = realloc(o->buf, cap);
		if (!more)
			return -ENOMEM;
		o->buf = more;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return 0;
}

/* A varint, as protobuf writes lengths and keys. */
static int out_varint(struct out *o, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	return out_put(o, b, n);
}

/* The repeated message field `field` of desc, or NULL. */
static const ProtobufCFieldDescriptor *repeated_msg(const ProtobufCMessageDescriptor *desc,
						     const char *field)
{
	const ProtobufCFieldDescriptor *f =
	    protobuf_c_message_descriptor_get_field_by_name(desc, field);

	if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE || f->label != PROTOBUF_C_LABEL_REPEATED)
		return NULL;
	return f;
}

/* The header's room, then msg packed: o's first bytes. */
static int out_msg(struct out *o, const ProtobufCMessage *msg)
{
	size_t n = protobuf_c_message_get_packed_size(msg);

	if (n > UINT32_MAX)
		return -EMSGSIZE;
	o->buf = malloc(HEADER_LEN + n);
	if (!o->buf)
		return -ENOMEM;
	o->cap = o->len = HEADER_LEN + n;
	if (protobuf_c_message_pack(msg, o->buf + HEADER_LEN) != n)
		return -EINVAL;
	return 0;
}

int sc_envelope_seal_parts(const ProtobufCMessage *msg, const char *field, uint32_t nparts,
			   int (*part)(uint32_t i, uint8_t **bytes, size_t *n, void *arg),
			   void *arg, const char *magic, uint8_t **out, size_t *len)
{
	const ProtobufCFieldDescriptor *f = repeated_msg(msg->descriptor, field);
	struct out o = {NULL, 0, 0};
	int err;

	if (!f)
		return -EINVAL;
	err = out_msg(&o, msg);
	for (uint32_t i = 0; !err && i < nparts; i++) {
		uint8_t *bytes = NULL;
		size_t n = 0;

		err = part(i, &bytes, &n, arg);
		if (!err)
			err = out_varint(&o, (uint64_t)f->id << 3 | 2); /* length-delimited */
		if (!err)
			err = out_varint(&o, n);
		if (!err)
			err = out_put(&o, bytes, n);
		free(bytes);
	}
	if (!err && o.len - HEADER_LEN > UINT32_MAX)
		err = -EMSGSIZE;
	if (err) {
		free(o.buf);
		return err;
	}
	memcpy(o.buf, magic, MAGIC_LEN);
	put_le32(o.buf + LENGTH_AT, (uint32_t)(o.len - HEADER_LEN));
	put_le32(o.buf + CRC_AT, payload_crc(o.buf + HEADER_LEN, (uint32_t)(o.len - HEADER_LEN)));
	*out = o.buf;
	*len = o.len;
	return 0;
}

int sc_envelope_frame(const ProtobufCMessageDescriptor *desc, const char *field,
		      const uint8_t *payload, size_t n, uint8_t **wire, size_t *len, size_t *cap)
{
	const ProtobufCFieldDescriptor *f = repeated_msg(desc, field);
	struct out o = {*wire, *len, *cap};
	int err;

	if (!f)
		return -EINVAL;
	err = out_varint(&o, (uint64_t)f->id << 3 | 2); /* length-delimited */
	if (!err)
		err = out_varint(&o, n);
	if (!err)
		err = out_put(&o, payload, n);
	*wire = o.buf; /* grown, perhaps, even when a later step failed */
	*cap = o.cap;
	if (!err)
		*len = o.len;
	return err;
}

/* A varint of buf[*at, n), *at past it; false when it runs past n or is
 * longer than ten bytes. */
static bool get_varint(const uint8_t *buf, size_t n, size_t *at, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; shift < 70 && *at < n; shift += 7) {
		uint8_t b = buf[(*at)++];

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* Where in buf (n bytes, a packed message) its first field numbered above
 * id begins: n when none is.  -1 for bytes that are no message. */
static ptrdiff_t first_after(const uint8_t *buf, size_t n, uint32_t id)
{
	size_t at = 0;

	while (at < n) {
		size_t key_at = at;
		uint64_t key, v;

		if (!get_varint(buf, n, &at, &key))
			return -1;
		if (key >> 3 > id)
			return (ptrdiff_t)key_at;
		switch (key & 7) {
		case 0: /* varint */
			if (!get_varint(buf, n, &at, &v))
				return -1;
			break;
		case 1: /* 64-bit */
			v = 8;
			goto skip;
		case 2: /* length-delimited */
			if (!get_varint(buf, n, &at, &v))
				return -1;
			goto skip;
		case 5: /* 32-bit */
			v = 4;
		skip:
			if (v > n - at)
				return -1;
			at += v;
			break;
		default:
			return -1;
		}
	}
	return (ptrdiff_t)n;
}

int sc_envelope_pack_with(const ProtobufCMessage *msg, const char *field, const uint8_t *wire,
			  size_t wire_len, uint8_t **out, size_t *len)
{
	const ProtobufCFieldDescriptor *f = repeated_msg(msg->descriptor, field);
	size_t n = protobuf_c_message_get_packed_size(msg);
	ptrdiff_t split;
	uint8_t *buf;

	*out = NULL;
	*len = 0;
	if (!f)
		return -EINVAL;
	if (n > UINT32_MAX || wire_len > UINT32_MAX - n)
		return -EMSGSIZE;
	buf = malloc(n + wire_len ? n + wire_len : 1);
	if (!buf)
		return -ENOMEM;
	split = protobuf_c_message_pack(msg, buf) == n ? first_after(buf, n, f->id) : -1;
	if (split < 0) {
		free(buf);
		return -EINVAL;
	}
	memmove(buf + split + wire_len, buf + split, n - (size_t)split);
	if (wire_len)
		memcpy(buf + split, wire, wire_len);
	*out = buf;
	*len = n + wire_len;
	return 0;
}

/* Whether buf (len bytes) starts with a whole part sealed with magic;
 * its bytes in *n. */
static bool part_ok(const uint8_t *buf, size_t len, const char *magic, size_t *n)
{
	uint32_t payload;

	if (len < HEADER_LEN || memcmp(buf, magic, MAGIC_LEN))
		return false;
	payload = get_le32(buf + LENGTH_AT);
	if (payload > len - HEADER_LEN || get_le32(buf + CRC_AT) != payload_crc(buf + HEADER_LEN, payload))
		return false;
	*n = HEADER_LEN + payload;
	return true;
}

/* Whether the len bytes at p, which are not a whole part, are what a
 * crash while appending one leaves: a part cut short (its header, or the
 * payload its header gives, runs past the end), or zeros (the file grew
 * and the data never reached the drive).  Bytes changed in a whole part
 * are not. */
static bool cut_short(const uint8_t *p, size_t len, const char *magic)
{
	size_t i = 0;

	while (i < len && !p[i])
		i++;
	if (i == len)
		return true;
	if (len < HEADER_LEN)
		return !memcmp(p, magic, len < MAGIC_LEN ? len : MAGIC_LEN);
	return !memcmp(p, magic, MAGIC_LEN) && get_le32(p + LENGTH_AT) > len - HEADER_LEN;
}

int sc_envelope_join(uint8_t *buf, size_t len, const char *magic, size_t *joined,
		     uint32_t *nparts, size_t *torn)
{
	size_t at = 0, end = HEADER_LEN; /* next part; end of the joined payloads */
	uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0), parts = 0;

	*joined = 0;
	*nparts = 0;
	*torn = 0;
	while (at < len) {
		size_t n;

		if (!part_ok(buf + at, len - at, magic, &n)) {
			if (!parts || !cut_short(buf + at, len - at, magic))
				return -EBADMSG;
			*torn = len - at;
			break;
		}
		if (end - HEADER_LEN + n - HEADER_LEN > UINT32_MAX)
			return -EBADMSG;
		/* the part's CRC, checked, continues the joined payload's */
		crc = (uint32_t)crc32_combine(crc, get_le32(buf + at + CRC_AT), (z_off_t)(n - HEADER_LEN));
		memmove(buf + end, buf + at + HEADER_LEN, n - HEADER_LEN);
		end += n - HEADER_LEN;
		at += n;
		parts++;
	}
	if (!parts)
		return -EBADMSG;
	memcpy(buf, magic, MAGIC_LEN);
	put_le32(buf + LENGTH_AT, (uint32_t)(end - HEADER_LEN));
	put_le32(buf + CRC_AT, crc);
	*joined = end;
	*nparts = parts;
	return 0;
}

uint64_t sc_envelope_budget(size_t len)
{
	uint64_t b = DECODE_BASE_BYTES + (uint64_t)len * DECODE_BYTES_PER_BYTE;

	return b < DECODE_MAX_BYTES ? b : DECODE_MAX_BYTES;
}

/* protobuf-c's allocations while it unpacks, within the budget. */
struct budget {
	bool failed;   /* out of memory */
	bool over;     /* past the budget */
	uint64_t left; /* of the budget */
};

static void *budget_alloc(void *data, size_t size)
{
	struct budget *st = data;
	void *p;

	if (size > st->left) {
		st->over = true;
		return NULL;
	}
	st->left -= size;
	p = malloc(size ? size : 1);
	if (!p)
		st->failed = true;
	return p;
}

static void budget_free(void *data, void *p)
{
	(void)data;
	free(p);
}

int sc_envelope_open(const uint8_t *buf, size_t len, const char *magic,
		     const ProtobufCMessageDescriptor *desc, ProtobufCMessage **msg)
{
	struct budget st = {.failed = false, .left = sc_envelope_budget(len)};
	ProtobufCAllocator al = {.alloc = budget_alloc, .free = budget_free, .allocator_data = &st};
	uint32_t n;

	*msg = NULL;
	if (!buf || len < HEADER_LEN || memcmp(buf, magic, MAGIC_LEN))
		return -EBADMSG;
	n = get_le32(buf + LENGTH_AT);
	if (n != len - HEADER_LEN || get_le32(buf + CRC_AT) != payload_crc(buf + HEADER_LEN, n))
		return -EBADMSG;
	*msg = protobuf_c_message_unpack(desc, &al, n, buf + HEADER_LEN);
	if (!*msg)
		return st.over ? -EFBIG : st.failed ? -ENOMEM : -EBADMSG;
	return 0;
}

int sc_run_record_join(uint8_t *buf, size_t len, size_t *joined, uint32_t *parts,
		       size_t *torn)
{
	return sc_envelope_join(buf, len, SC_ENVELOPE_RUN, joined, parts, torn);
}

int sc_run_record_length(const uint8_t *hdr, size_t len, uint64_t *total)
{
	if (!hdr || len < HEADER_LEN || memcmp(hdr, SC_ENVELOPE_RUN, MAGIC_LEN))
		return -EBADMSG;
	*total = (uint64_t)HEADER_LEN + get_le32(hdr + LENGTH_AT);
	return 0;
}
