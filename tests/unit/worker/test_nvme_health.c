/* test_nvme_health.c -- the SMART / health log decoder on a 512-byte page
 * built here byte by byte at the NVMe base specification's offsets, and a
 * log that cannot be read reported as such.
 *
 * Exit 0 pass, 1 fail.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nvme_health.h"

/* Writes v as a little-endian counter of width bytes at page[off]. */
static void put_le(uint8_t *page, size_t off, size_t width, uint64_t v)
{
	for (size_t i = 0; i < width && i < sizeof(v); i++)
		page[off + i] = (uint8_t)(v >> (8 * i));
}

static void test_decode(void)
{
	uint8_t page[SC_NVME_SMART_LOG_BYTES];
	struct sc_drive_health h;

	memset(page, 0xee, sizeof(page)); /* reserved bytes must not matter */
	memset(page + 32, 0, 32);
	memset(page + 128, 0, 16);
	memset(page + 160, 0, 16);
	page[0] = 0x04;			 /* critical warning: reliability degraded */
	put_le(page, 1, 2, 318);	 /* 318 K = 45 deg C */
	page[3] = 97;			 /* available spare % */
	page[4] = 10;			 /* its threshold % */
	page[5] = 3;			 /* percentage used */
	put_le(page, 32, 16, 123456789); /* data units read */
	/* data units written: 2^64 + 5, above what 64 bits hold */
	put_le(page, 48, 8, 5);
	page[48 + 8] = 1;
	put_le(page, 128, 16, 26280); /* power-on hours: 3 years */
	put_le(page, 160, 16, 2);     /* media errors */
	sc_nvme_health_decode(page, &h);
	CHECK(h.valid && h.reason[0] == '\0', "a decoded page is valid");
	CHECK(h.critical_warning == 4, "critical warning 0x04, got %u", h.critical_warning);
	CHECK(h.temperature_c == 45, "318 K is 45 deg C, got %d", h.temperature_c);
	CHECK(h.available_spare == 97 && h.spare_threshold == 10, "spare %u%% threshold %u%%",
	      h.available_spare, h.spare_threshold);
	CHECK(h.percentage_used == 3, "percentage used 3, got %u", h.percentage_used);
	CHECK(h.data_units_read == 123456789, "data units read, got %llu",
	      (unsigned long long)h.data_units_read);
	CHECK(h.data_units_written == UINT64_MAX, "2^64 + 5 saturates at 2^64 - 1, got %llu",
	      (unsigned long long)h.data_units_written);
	CHECK(h.power_on_hours == 26280, "power-on hours, got %llu",
	      (unsigned long long)h.power_on_hours);
	CHECK(h.media_errors == 2, "media errors, got %llu", (unsigned long long)h.media_errors);

	/* the top byte of a 128-bit counter alone also saturates */
	memset(page + 160, 0, 16);
	page[175] = 0x80;
	sc_nvme_health_decode(page, &h);
	CHECK(h.media_errors == UINT64_MAX, "bit 127 set saturates, got %llu",
	      (unsigned long long)h.media_errors);
	/* below 0 deg C: 263 K */
	put_le(page, 1, 2, 263);
	sc_nvme_health_decode(page, &h);
	CHECK(h.temperature_c == -10, "263 K is -10 deg C, got %d", h.temperature_c);
	CHECK(SC_NVME_DATA_UNIT_BYTES == 512000, "a data unit is 512,000 bytes");
}

/* Not an NVMe controller: a reason, never zeros passed off as a reading. */
static void test_unreadable(void)
{
	struct sc_drive_health h;
	int rc;

	memset(&h, 0x5a, sizeof(h));
	rc = sc_nvme_health_read("/nonexistent/nvme0", &h);
	CHECK(rc == -ENOENT, "a missing device: -ENOENT, got %d", rc);
	CHECK(!h.valid && strstr(h.reason, "health log not read: /nonexistent/nvme0"),
	      "reason \"%s\"", h.reason);
	CHECK(h.media_errors == 0 && h.data_units_written == 0, "nothing kept of a non-reading");
	rc = sc_nvme_health_read("/dev/null", &h); /* opens, but is no controller */
	CHECK(rc < 0 && !h.valid && strstr(h.reason, "/dev/null"),
	      "/dev/null refuses the admin command: rc %d \"%s\"", rc, h.reason);
}

int main(void)
{
	test_decode();
	test_unreadable();
	return check_exit("test_nvme_health");
}
