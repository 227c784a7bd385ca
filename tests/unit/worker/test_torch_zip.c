/* test_torch_zip.c -- torch.save's zip container (worker/workload/torch_zip.h).
 *
 * A small file built in memory is walked as a zip reader walks it: local
 * headers at the recorded offsets, every record's data on a 64-byte
 * boundary, the data descriptors' CRC-32 equal to one computed here bit by
 * bit (zlib's reflected polynomial) over the record's bytes, the central
 * directory's entries (names, CRCs, sizes, local offsets), the zip64 end
 * record, its locator and the end record; the file's size as
 * sc_tzip_file_bytes predicts it; the pickle's integers in CPython's
 * encodings.  A 5 GiB tensor (built without its bytes) takes the zip64
 * forms: 64-bit descriptors, extra fields, 0xffffffff in the 32-bit fields
 * (the whole 5 GiB file was checked by hand to be byte for byte what
 * torch 1.13's torch.save writes).
 * sc_tzip_finish refuses a payload not fed whole.
 *
 * Exit 0 pass, 1 fail.
 */
#include "workload/torch_zip.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define CRC_POLY      UINT32_C(0xedb88320)
#define CRC_CHECK     UINT32_C(0xcbf43926) /* CRC-32 of "123456789" */
#define SMALL_PAYLOAD 1000u
#define BIG_PAYLOAD   (UINT64_C(5) << 30)
#define U32_MAX64     UINT64_C(0xffffffff)
#define LOCAL_BYTES   30u
#define CENTRAL_BYTES 46u
#define END_BYTES     22u
#define LOC64_BYTES   20u
#define END64_BYTES   56u
#define NRECORDS      3u

static const char *const names[NRECORDS] = {"archive/data.pkl", "archive/data/0",
					    "archive/version"};

static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = UINT32_MAX;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ (CRC_POLY & (0u - (c & 1u)));
	}
	return ~c;
}

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The record at local header offset ofs in file f: its name, 64-aligned
 * data of size bytes, the descriptor after it with crc; returns the offset
 * after the descriptor. */
static uint64_t check_local(const uint8_t *f, uint64_t ofs, const char *name, uint64_t size,
			    uint32_t crc)
{
	const uint8_t *h = f + ofs;
	uint64_t nl = rd(h + 26, 2), xl = rd(h + 28, 2), data = ofs + LOCAL_BYTES + nl + xl;

	CHECK(rd(h, 4) == 0x04034b50, "%s: local header signature at %llu", name,
	      (unsigned long long)ofs);
	CHECK(rd(h + 6, 2) == 0x0808 && rd(h + 8, 2) == 0, "%s: flags 0x0808, stored", name);
	CHECK(nl == strlen(name) && memcmp(h + LOCAL_BYTES, name, nl) == 0, "%s: name", name);
	CHECK(data % 64 == 0, "%s: data at %llu, not 64-aligned", name, (unsigned long long)data);
	CHECK(rd(f + data + size, 4) == 0x08074b50, "%s: descriptor signature", name);
	CHECK(rd(f + data + size + 4, 4) == crc, "%s: descriptor CRC", name);
	CHECK(crc_bitwise(f + data, size) == crc, "%s: CRC of its bytes", name);
	CHECK(rd(f + data + size + 8, 4) == size && rd(f + data + size + 12, 4) == size,
	      "%s: descriptor sizes", name);
	return data + size + 16;
}

/* The pickle holds the tensor's size twice, as want[0..wlen) encodes it. */
static void check_pickle(const uint8_t *pkl, size_t n, const uint8_t *want, size_t wlen)
{
	int found = 0;

	CHECK(pkl[0] == 0x80 && pkl[1] == 2, "pickle protocol 2");
	CHECK(pkl[n - 1] == '.', "pickle ends with STOP");
	for (size_t i = 0; i + wlen <= n; i++)
		found += memcmp(pkl + i, want, wlen) == 0;
	CHECK(found == 2, "numel pickled twice as CPython encodes it, found %d", found);
	CHECK(memmem(pkl, n, "CharStorage", 11) && memmem(pkl, n, "_rebuild_tensor_v2", 18),
	      "pickle names CharStorage and _rebuild_tensor_v2");
}

static void check_directory(const uint8_t *f, uint64_t len, const uint64_t *ofs,
			    const uint64_t *size, const uint32_t *crc)
{
	const uint8_t *end = f + len - END_BYTES, *loc = end - LOC64_BYTES;
	uint64_t cd = rd(end + 16, 4), cdlen = rd(end + 12, 4), p;

	CHECK(rd(end, 4) == 0x06054b50, "end of central directory signature");
	CHECK(rd(end + 8, 2) == NRECORDS && rd(end + 10, 2) == NRECORDS, "3 entries");
	CHECK(rd(loc, 4) == 0x07064b50, "zip64 locator signature");
	CHECK(rd(loc + 8, 8) == cd + cdlen, "locator points at the zip64 end record");
	CHECK(rd(f + cd + cdlen, 4) == 0x06064b50, "zip64 end record signature");
	CHECK(rd(f + cd + cdlen + 48, 8) == cd && rd(f + cd + cdlen + 40, 8) == cdlen,
	      "zip64 end record: directory offset and size");
	CHECK(cd + cdlen + END64_BYTES + LOC64_BYTES + END_BYTES == len, "nothing after the end");
	p = cd;
	for (unsigned r = 0; r < NRECORDS; r++) {
		const uint8_t *h = f + p;
		uint64_t nl = rd(h + 28, 2);

		CHECK(rd(h, 4) == 0x02014b50, "%s: central header signature", names[r]);
		CHECK(nl == strlen(names[r]) && memcmp(h + CENTRAL_BYTES, names[r], nl) == 0,
		      "entry %u: name %s", r, names[r]);
		CHECK(rd(h + 16, 4) == crc[r], "%s: central CRC", names[r]);
		CHECK(rd(h + 20, 4) == size[r] && rd(h + 24, 4) == size[r], "%s: central sizes",
		      names[r]);
		CHECK(rd(h + 42, 4) == ofs[r], "%s: local header offset", names[r]);
		p += CENTRAL_BYTES + nl + rd(h + 30, 2) + rd(h + 32, 2);
	}
	CHECK(p == cd + cdlen, "directory size");
}

static void test_small(void)
{
	static struct sc_tzip z;
	uint8_t payload[SMALL_PAYLOAD], *f;
	uint64_t len, ofs[NRECORDS], size[NRECORDS], p;
	uint32_t crc[NRECORDS];
	/* BININT2 (CPython's form for 256..65535) of 1000 */
	static const uint8_t small_int[] = {'M', SMALL_PAYLOAD & 0xff, SMALL_PAYLOAD >> 8};

	for (unsigned i = 0; i < SMALL_PAYLOAD; i++)
		payload[i] = (uint8_t)(i * 7 + 3);
	sc_tzip_begin(&z, SMALL_PAYLOAD);
	sc_tzip_update(&z, payload, 300);
	sc_tzip_update(&z, payload + 300, SMALL_PAYLOAD - 300);
	CHECK(sc_tzip_finish(&z) == 0, "finish");
	len = z.head_len + SMALL_PAYLOAD + z.tail_len;
	CHECK(len == sc_tzip_file_bytes(SMALL_PAYLOAD), "file bytes %llu predicted %llu",
	      (unsigned long long)len, (unsigned long long)sc_tzip_file_bytes(SMALL_PAYLOAD));
	CHECK(z.data_off == z.head_len && z.data_off % 64 == 0, "payload at the end of head");
	f = xcalloc(1, len);
	memcpy(f, z.head, z.head_len);
	memcpy(f + z.head_len, payload, SMALL_PAYLOAD);
	memcpy(f + z.head_len + SMALL_PAYLOAD, z.tail, z.tail_len);
	/* the pickle record: its bytes at 64, its size from the descriptor */
	size[0] = z.rec_size[0];
	crc[0] = crc_bitwise(f + 64, size[0]);
	check_pickle(f + 64, size[0], small_int, sizeof(small_int));
	size[1] = SMALL_PAYLOAD;
	crc[1] = crc_bitwise(payload, SMALL_PAYLOAD);
	size[2] = 2;
	crc[2] = crc_bitwise((const uint8_t *)"3\n", 2);
	p = 0;
	for (unsigned r = 0; r < NRECORDS; r++) {
		ofs[r] = p;
		CHECK(z.rec_off[r] == p && z.rec_crc[r] == crc[r], "%s: recorded offset and CRC",
		      names[r]);
		p = check_local(f, p, names[r], size[r], crc[r]);
	}
	CHECK(memcmp(f + p - 16 - 2, "3\n", 2) == 0, "version is \"3\\n\"");
	check_directory(f, len, ofs, size, crc);
	free(f);
}

/* A tensor past 4 GiB: the zip64 forms, checked without its bytes. */
static void test_zip64(void)
{
	static struct sc_tzip z;
	const uint8_t *t;
	uint64_t ofs2, xlen;
	/* LONG1 of 5 GiB: 5 bytes (bit length 33 / 8 + 1), little-endian */
	static const uint8_t big_int[] = {0x8a, 5, 0, 0, 0, 0x40, 1};

	sc_tzip_begin(&z, BIG_PAYLOAD);
	CHECK(sc_tzip_finish(&z) == -EINVAL, "finish before the payload was fed");
	z.fed = BIG_PAYLOAD; /* as if fed: the CRC is not what this checks */
	CHECK(sc_tzip_finish(&z) == 0, "finish");
	check_pickle(z.head + 64, z.rec_size[0], big_int, sizeof(big_int));
	CHECK(z.head_len + BIG_PAYLOAD + z.tail_len == sc_tzip_file_bytes(BIG_PAYLOAD),
	      "file bytes predicted");
	/* the tensor's local header: a zip64 extra (usize, csize) before the padding */
	t = z.head + z.rec_off[1];
	xlen = rd(t + 28, 2);
	CHECK(rd(t + LOCAL_BYTES + 14, 2) == 1 && rd(t + LOCAL_BYTES + 16, 2) == 16 &&
		  rd(t + LOCAL_BYTES + 18, 8) == BIG_PAYLOAD && rd(t + LOCAL_BYTES + 26, 8) == 0,
	      "data/0 local zip64 extra: size, compressed size 0 (as torch writes it)");
	CHECK((z.rec_off[1] + LOCAL_BYTES + 14 + xlen) % 64 == 0, "data/0 aligned");
	/* its 24-byte descriptor, then the version record past 4 GiB */
	CHECK(rd(z.tail, 4) == 0x08074b50 && rd(z.tail + 8, 8) == BIG_PAYLOAD &&
		  rd(z.tail + 16, 8) == BIG_PAYLOAD,
	      "data/0 zip64 descriptor");
	ofs2 = z.data_off + BIG_PAYLOAD + 24;
	CHECK(z.rec_off[2] == ofs2 && ofs2 > U32_MAX64, "version record at %llu",
	      (unsigned long long)z.rec_off[2]);
	CHECK(rd(z.tail + z.tail_len - END_BYTES + 16, 4) == U32_MAX64,
	      "end record: directory offset 0xffffffff");
}

static void test_crc(void)
{
	CHECK(sc_tzip_crc32(0, "123456789", 9) == CRC_CHECK, "CRC-32 check value");
	CHECK(sc_tzip_crc32(sc_tzip_crc32(0, "1234", 4), "56789", 5) == CRC_CHECK,
	      "CRC-32 continued");
}

int main(void)
{
	test_crc();
	test_small();
	test_zip64();
	return check_exit("test_torch_zip");
}
