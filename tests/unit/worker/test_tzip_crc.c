/* test_tzip_crc.c -- the CRC-32 of serialize: torch (sc_tzip_crc32,
 * worker/workload/torch_zip.h), the sliced table CRC torch.save runs.
 *
 * Known CRC-32 values (the check value of "123456789", the empty string,
 * one byte, 32 zero bytes); agreement with zlib's crc32() (linked for this
 * test alone) over random buffers of every length 0..300 at every start
 * alignment 0..15 and over a few larger odd lengths, whole and continued
 * across a split at every point of one buffer (a running CRC fed in two
 * calls, as a tensor cut into writes is fed).
 *
 * Exit 0 pass, 1 fail.
 */
#include "workload/torch_zip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"

#define SHORT_MAX  300u	   /* every length up to this, at each alignment */
#define ALIGNS	   16u	   /* start offsets 0..15 from a 16-byte boundary */
#define LONG_BYTES 1048579 /* an odd length past many 16-byte steps */
#define SPLIT_BYTES 517u   /* a buffer split at every point */
#define SEED	   12345u

struct known {
	const char *s;
	size_t len;
	uint32_t crc;
};

/* Published CRC-32 (ISO-HDLC) values. */
static const struct known known[] = {
	{"123456789", 9, UINT32_C(0xcbf43926)},
	{"", 0, 0},
	{"a", 1, UINT32_C(0xe8b7be43)},
	{"The quick brown fox jumps over the lazy dog", 43, UINT32_C(0x414fa339)},
	{"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 32,
	 UINT32_C(0x190a55ad)},
};

static uint32_t zlib_crc(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n);
}

static void test_known(void)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		uint32_t got = sc_tzip_crc32(0, known[i].s, known[i].len);

		CHECK(got == known[i].crc, "CRC-32 of %zu bytes \"%.20s\": 0x%08x, want 0x%08x",
		      known[i].len, known[i].s, got, known[i].crc);
	}
}

static void test_against_zlib(uint8_t *buf)
{
	for (uint32_t a = 0; a < ALIGNS; a++)
		for (uint32_t n = 0; n <= SHORT_MAX; n++) {
			uint32_t got = sc_tzip_crc32(0, buf + a, n), want = zlib_crc(buf + a, n);

			CHECK(got == want, "%u bytes at offset %u: 0x%08x, zlib 0x%08x", n, a, got,
			      want);
		}
	for (uint32_t a = 0; a < 3; a++) {
		uint32_t got = sc_tzip_crc32(0, buf + a, LONG_BYTES - a);

		CHECK(got == zlib_crc(buf + a, LONG_BYTES - a), "%u bytes at offset %u",
		      LONG_BYTES - a, a);
	}
}

static void test_continued(const uint8_t *buf)
{
	uint32_t want = zlib_crc(buf, SPLIT_BYTES);

	for (uint32_t k = 0; k <= SPLIT_BYTES; k++) {
		uint32_t c = sc_tzip_crc32(sc_tzip_crc32(0, buf, k), buf + k, SPLIT_BYTES - k);

		CHECK(c == want, "%u bytes split at %u: 0x%08x, whole 0x%08x", SPLIT_BYTES, k, c,
		      want);
	}
}

int main(void)
{
	uint8_t *buf = malloc(LONG_BYTES + ALIGNS);

	if (!buf)
		return 1;
	srand(SEED);
	for (size_t i = 0; i < LONG_BYTES + ALIGNS; i++)
		buf[i] = (uint8_t)(rand() >> 7);
	test_known();
	test_against_zlib(buf);
	test_continued(buf);
	free(buf);
	return check_exit("test_tzip_crc");
}
