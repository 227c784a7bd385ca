/* torch_zip.c -- torch.save's zip container around one tensor record
 * (torch_zip.h): head, CRC-32 of the payload, tail. */
#include "torch_zip.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

/* Zip signatures and fixed sizes (APPNOTE.TXT). */
#define SIG_LOCAL	UINT32_C(0x04034b50)
#define SIG_DESCRIPTOR	UINT32_C(0x08074b50)
#define SIG_CENTRAL	UINT32_C(0x02014b50)
#define SIG_ZIP64_END	UINT32_C(0x06064b50)
#define SIG_ZIP64_LOC	UINT32_C(0x07064b50)
#define SIG_END		UINT32_C(0x06054b50)
#define LOCAL_BYTES	30u
#define CENTRAL_BYTES	46u
#define DESC32_BYTES	16u
#define DESC64_BYTES	24u
#define ZIP64_END_BYTES 56u
#define ZIP64_LOC_BYTES 20u
#define END_BYTES	22u
#define ZIP64_END_REST	44u	/* the zip64 end record's size field: its bytes after 12 */
#define FLAGS		0x0808u /* data descriptor, UTF-8 names */
#define ZIP64_MADE_BY	0x031eu /* as torch (miniz) writes them */
#define ZIP64_NEEDED	0x2du
#define EXTRA_ZIP64	0x0001u
#define EXTRA_TORCH	0x4246u /* "FB": torch's alignment padding */
#define EXTRA_HDR_BYTES 4u
#define PAD_BYTE	'Z'
#define U32_LIMIT	UINT64_C(0xffffffff) /* at or above: zip64 */

/* The three record names, in write order. */
#define NAME_PKL     "archive/data.pkl"
#define NAME_DATA    "archive/data/0"
#define NAME_VERSION "archive/version"
#define VERSION_TEXT "3\n"

/* Pickle opcodes (protocol 2) that torch.save's pickle of {"t": tensor} uses. */
#define OP_PROTO   0x80
#define OP_BININT1 'K'
#define OP_BININT2 'M'
#define OP_BININT  'J'
#define OP_LONG1   0x8a
#define PKL_MAX	   256u /* room for the pickle */

/* A little-endian writer into a fixed buffer (sized by the callers). */
struct out {
	uint8_t *p;
	uint32_t n;
};

static void put(struct out *o, const void *s, size_t len)
{
	memcpy(o->p + o->n, s, len);
	o->n += (uint32_t)len;
}

/* v in bytes little-endian bytes; bytes past v's eight are 0 (a pickled
 * long of 2^63 or more takes a ninth, sign byte). */
static void le(struct out *o, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		o->p[o->n++] = i < sizeof(v) ? (uint8_t)(v >> (8 * i)) : 0;
}

/* CRC-32 by slicing: table k gives the CRC of a byte followed by k zero
 * bytes, so 16 bytes fold into the register with 16 independent lookups. */
#define CRC_POLY   UINT32_C(0xedb88320) /* zlib's, reflected */
#define CRC_SLICES 16u			/* bytes folded per step, as torch */

static uint32_t crc_table[CRC_SLICES][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (CRC_POLY & (0u - (c & 1u)));
		crc_table[0][i] = c;
	}
	for (uint32_t k = 1; k < CRC_SLICES; k++)
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = crc_table[k - 1][i];

			crc_table[k][i] = (c >> 8) ^ crc_table[0][c & 0xffu];
		}
}

/* The little-endian 32-bit word at p (any alignment). */
static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Byte b (0 = lowest) of w looked up in the table for a byte lying k
 * bytes before the end of the 16. */
#define CRC_AT(w, b, k) crc_table[k][((w) >> (8 * (b))) & 0xffu]

uint32_t sc_tzip_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_tables);
	for (; len >= CRC_SLICES; len -= CRC_SLICES, p += CRC_SLICES) {
		uint32_t w0 = le32(p) ^ c, w1 = le32(p + 4), w2 = le32(p + 8), w3 = le32(p + 12);

		/* the words not holding the running CRC first: only the last
		 * four lookups wait for the previous step */
		c = CRC_AT(w3, 3, 0) ^ CRC_AT(w3, 2, 1) ^ CRC_AT(w3, 1, 2) ^ CRC_AT(w3, 0, 3) ^
		    CRC_AT(w2, 3, 4) ^ CRC_AT(w2, 2, 5) ^ CRC_AT(w2, 1, 6) ^ CRC_AT(w2, 0, 7) ^
		    CRC_AT(w1, 3, 8) ^ CRC_AT(w1, 2, 9) ^ CRC_AT(w1, 1, 10) ^ CRC_AT(w1, 0, 11) ^
		    CRC_AT(w0, 3, 12) ^ CRC_AT(w0, 2, 13) ^ CRC_AT(w0, 1, 14) ^ CRC_AT(w0, 0, 15);
	}
	while (len--)
		c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xffu];
	return ~c;
}

/* A pickled int as CPython's protocol 2 writes it. */
static void pkl_int(struct out *o, uint64_t v)
{
	uint8_t n = 0;

	if (v <= UINT8_MAX) {
		o->p[o->n++] = OP_BININT1;
		le(o, v, 1);
	} else if (v <= UINT16_MAX) {
		o->p[o->n++] = OP_BININT2;
		le(o, v, 2);
	} else if (v <= INT32_MAX) {
		o->p[o->n++] = OP_BININT;
		le(o, v, 4);
	} else {
		/* bit_length / 8 + 1 bytes, two's complement */
		for (uint64_t t = v; t; t >>= 8)
			n++;
		if (v >> (8 * n - 1))
			n++;
		o->p[o->n++] = OP_LONG1;
		o->p[o->n++] = n;
		le(o, v, n);
	}
}

/* The pickle of {"t": int8 tensor of numel elements in storage "0"}. */
static void pickle(struct out *o, uint64_t numel)
{
	static const char a[] =
	    "\x80\x02}q\x00X\x01\x00\x00\x00"
	    "tq\x01"
	    "ctorch._utils\n_rebuild_tensor_v2\nq\x02((X\x07\x00\x00\x00storageq\x03"
	    "ctorch\nCharStorage\nq\x04X\x01\x00\x00\x00"
	    "0q\x05X\x03\x00\x00\x00"
	    "cpuq\x06";
	static const char b[] = "tq\x07QK\x00";
	static const char c[] = "\x85q\x08K\x01\x85q\t\x89"
				"ccollections\nOrderedDict\nq\n)Rq\x0btq\x0cRq\rs.";

	put(o, a, sizeof(a) - 1);
	pkl_int(o, numel); /* the storage's size */
	put(o, b, sizeof(b) - 1);
	pkl_int(o, numel); /* the tensor's shape (numel,), stride (1,) */
	put(o, c, sizeof(c) - 1);
}

/* The zip64 extra field's bytes for a record of size at offset ofs. */
static uint32_t zip64_extra_bytes(uint64_t size, uint64_t ofs)
{
	uint32_t n = (size >= U32_LIMIT ? 16u : 0u) + (ofs >= U32_LIMIT ? 8u : 0u);

	return n ? EXTRA_HDR_BYTES + n : 0;
}

/* csize: the compressed size, 0 in a local header (torch writes it before
 * the data), the size in the central directory (stored). */
static void zip64_extra(struct out *o, uint64_t size, uint64_t csize, uint64_t ofs)
{
	uint32_t n = zip64_extra_bytes(size, ofs);

	if (!n)
		return;
	le(o, EXTRA_ZIP64, 2);
	le(o, n - EXTRA_HDR_BYTES, 2);
	if (size >= U32_LIMIT) {
		le(o, size, 8);
		le(o, csize, 8);
	}
	if (ofs >= U32_LIMIT)
		le(o, ofs, 8);
}

/* The padding that puts the data of a record of size, whose local header
 * is at ofs, on a multiple of SC_TZIP_ALIGN. */
static uint32_t pad_bytes(uint64_t ofs, size_t namelen, uint64_t size)
{
	uint64_t start =
	    ofs + LOCAL_BYTES + namelen + EXTRA_HDR_BYTES + zip64_extra_bytes(size, ofs);

	return (uint32_t)((SC_TZIP_ALIGN - start % SC_TZIP_ALIGN) % SC_TZIP_ALIGN);
}

/* Bytes of a record's local header (with its extras) at ofs. */
static uint64_t local_bytes(uint64_t ofs, const char *name, uint64_t size)
{
	size_t nl = strlen(name);

	return LOCAL_BYTES + nl + zip64_extra_bytes(size, ofs) + EXTRA_HDR_BYTES +
	       pad_bytes(ofs, nl, size);
}

static void local_header(struct out *o, uint64_t ofs, const char *name, uint64_t size)
{
	size_t nl = strlen(name);
	uint32_t pad = pad_bytes(ofs, nl, size);

	le(o, SIG_LOCAL, 4);
	le(o, 0, 2); /* version needed */
	le(o, FLAGS, 2);
	le(o, 0, 2 + 2 + 2 + 4 + 4 + 4); /* method, time, date, crc, sizes */
	le(o, nl, 2);
	le(o, zip64_extra_bytes(size, ofs) + EXTRA_HDR_BYTES + pad, 2);
	put(o, name, nl);
	zip64_extra(o, size, 0, ofs);
	le(o, EXTRA_TORCH, 2);
	le(o, pad, 2);
	memset(o->p + o->n, PAD_BYTE, pad);
	o->n += pad;
}

static uint32_t desc_bytes(uint64_t size, uint64_t ofs)
{
	return zip64_extra_bytes(size, ofs) ? DESC64_BYTES : DESC32_BYTES;
}

static void descriptor(struct out *o, uint32_t crc, uint64_t size, uint64_t ofs)
{
	unsigned w = zip64_extra_bytes(size, ofs) ? 8 : 4;

	le(o, SIG_DESCRIPTOR, 4);
	le(o, crc, 4);
	le(o, size, w);
	le(o, size, w);
}

static uint64_t clamp32(uint64_t v)
{
	return v >= U32_LIMIT ? U32_LIMIT : v;
}

static void central_header(struct out *o, const struct sc_tzip *z, unsigned r, const char *name)
{
	uint64_t size = z->rec_size[r], ofs = z->rec_off[r];

	le(o, SIG_CENTRAL, 4);
	le(o, 0, 2 + 2); /* made by, needed */
	le(o, FLAGS, 2);
	le(o, 0, 2 + 2 + 2); /* method, time, date */
	le(o, z->rec_crc[r], 4);
	le(o, clamp32(size), 4);
	le(o, clamp32(size), 4);
	le(o, strlen(name), 2);
	le(o, zip64_extra_bytes(size, ofs), 2);
	le(o, 0, 2 + 2 + 2 + 4); /* comment, disk, internal, external */
	le(o, clamp32(ofs), 4);
	put(o, name, strlen(name));
	zip64_extra(o, size, size, ofs);
}

void sc_tzip_begin(struct sc_tzip *z, uint64_t payload)
{
	uint8_t pkl[PKL_MAX];
	struct out p = {.p = pkl}, o;

	memset(z, 0, sizeof(*z));
	o.p = z->head;
	o.n = 0;
	z->payload = payload;
	pickle(&p, payload);
	z->rec_size[0] = p.n;
	z->rec_crc[0] = sc_tzip_crc32(0, pkl, p.n);
	local_header(&o, 0, NAME_PKL, p.n);
	put(&o, pkl, p.n);
	descriptor(&o, z->rec_crc[0], p.n, 0);
	z->rec_off[1] = o.n;
	z->rec_size[1] = payload;
	local_header(&o, o.n, NAME_DATA, payload);
	z->head_len = o.n;
	z->data_off = o.n;
}

void sc_tzip_update(struct sc_tzip *z, const void *buf, size_t len)
{
	z->crc = sc_tzip_crc32(z->crc, buf, len);
	z->fed += len;
}

/* The zip64 end record, its locator and the end record, for a directory
 * of cd_bytes at cd_off. */
static void directory_end(struct out *o, uint64_t cd_off, uint64_t cd_bytes)
{
	uint64_t end64 = cd_off + cd_bytes;

	le(o, SIG_ZIP64_END, 4);
	le(o, ZIP64_END_REST, 8);
	le(o, ZIP64_MADE_BY, 2);
	le(o, ZIP64_NEEDED, 2);
	le(o, 0, 4 + 4); /* disks */
	le(o, SC_TZIP_RECORDS, 8);
	le(o, SC_TZIP_RECORDS, 8);
	le(o, cd_bytes, 8);
	le(o, cd_off, 8);
	le(o, SIG_ZIP64_LOC, 4);
	le(o, 0, 4);
	le(o, end64, 8);
	le(o, 1, 4); /* disks */
	le(o, SIG_END, 4);
	le(o, 0, 2 + 2);
	le(o, SC_TZIP_RECORDS, 2);
	le(o, SC_TZIP_RECORDS, 2);
	le(o, clamp32(cd_bytes), 4);
	le(o, clamp32(cd_off), 4);
	le(o, 0, 2); /* comment */
}

int sc_tzip_finish(struct sc_tzip *z)
{
	struct out o = {.p = z->tail};
	uint64_t base = z->data_off + z->payload, cd_off;
	uint32_t cd_start;

	if (z->fed != z->payload)
		return -EINVAL;
	z->rec_crc[1] = z->crc;
	descriptor(&o, z->crc, z->payload, z->rec_off[1]);
	z->rec_off[2] = base + o.n;
	z->rec_size[2] = sizeof(VERSION_TEXT) - 1;
	z->rec_crc[2] = sc_tzip_crc32(0, VERSION_TEXT, z->rec_size[2]);
	local_header(&o, z->rec_off[2], NAME_VERSION, z->rec_size[2]);
	put(&o, VERSION_TEXT, z->rec_size[2]);
	descriptor(&o, z->rec_crc[2], z->rec_size[2], z->rec_off[2]);
	cd_start = o.n;
	cd_off = base + o.n;
	central_header(&o, z, 0, NAME_PKL);
	central_header(&o, z, 1, NAME_DATA);
	central_header(&o, z, 2, NAME_VERSION);
	directory_end(&o, cd_off, o.n - cd_start);
	z->tail_len = o.n;
	return 0;
}

uint64_t sc_tzip_file_bytes(uint64_t payload)
{
	struct sc_tzip z;
	uint64_t v, ofs;
	size_t vl = sizeof(VERSION_TEXT) - 1;
	uint64_t cd;

	sc_tzip_begin(&z, payload);
	ofs = z.data_off + payload + desc_bytes(payload, z.rec_off[1]);
	v = ofs;
	ofs += local_bytes(v, NAME_VERSION, vl) + vl + desc_bytes(vl, v);
	cd = CENTRAL_BYTES * SC_TZIP_RECORDS + strlen(NAME_PKL) + strlen(NAME_DATA) +
	     strlen(NAME_VERSION) + zip64_extra_bytes(payload, z.rec_off[1]) +
	     zip64_extra_bytes(vl, v);
	return ofs + cd + ZIP64_END_BYTES + ZIP64_LOC_BYTES + END_BYTES;
}
