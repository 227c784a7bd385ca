/* nvme_health.c -- the SMART / health log page through libnvme, and its
 * decoder (nvme_health.h).  The only file that includes libnvme.h. */
#include "nvme_health.h"

#include <errno.h>
#include <fcntl.h>
#include <libnvme.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(struct nvme_smart_log) == SC_NVME_SMART_LOG_BYTES,
	       "libnvme's SMART log is not the spec's 512 bytes");

/* Byte offsets of the fields we keep (NVMe base spec 2.0, figure 207). */
#define OFF_CRITICAL_WARNING 0
#define OFF_TEMPERATURE	     1 /* 2 bytes, Kelvin */
#define OFF_AVAIL_SPARE	     3
#define OFF_SPARE_THRESH     4
#define OFF_PERCENT_USED     5
#define OFF_DATA_UNITS_READ  32 /* 16 bytes each from here */
#define OFF_DATA_UNITS_WRITE 48
#define OFF_POWER_ON_HOURS   128
#define OFF_MEDIA_ERRORS     160
#define WIDE_BYTES	     16 /* a 128-bit counter */
/* Kelvin at 0 deg C, as the log page's whole-degree temperatures count. */
#define KELVIN_AT_0C 273

/* A 128-bit little-endian counter, saturated at UINT64_MAX. */
static uint64_t le128_sat(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 8; i < WIDE_BYTES; i++)
		if (p[i])
			return UINT64_MAX;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void sc_nvme_health_decode(const uint8_t page[SC_NVME_SMART_LOG_BYTES], struct sc_drive_health *h)
{
	uint32_t kelvin = (uint32_t)page[OFF_TEMPERATURE] | (uint32_t)page[OFF_TEMPERATURE + 1]
								<< 8;

	memset(h, 0, sizeof(*h));
	h->valid = true;
	h->critical_warning = page[OFF_CRITICAL_WARNING];
	h->temperature_c = (int32_t)kelvin - KELVIN_AT_0C;
	h->available_spare = page[OFF_AVAIL_SPARE];
	h->spare_threshold = page[OFF_SPARE_THRESH];
	h->percentage_used = page[OFF_PERCENT_USED];
	h->data_units_read = le128_sat(page + OFF_DATA_UNITS_READ);
	h->data_units_written = le128_sat(page + OFF_DATA_UNITS_WRITE);
	h->power_on_hours = le128_sat(page + OFF_POWER_ON_HOURS);
	h->media_errors = le128_sat(page + OFF_MEDIA_ERRORS);
}

static int unread(struct sc_drive_health *h, int err, const char *fmt, const char *dev,
		  const char *why)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->reason, sizeof(h->reason), fmt, dev, why);
	return err;
}

int sc_nvme_health_read(const char *dev, struct sc_drive_health *h)
{
	struct nvme_smart_log log;
	char status[32];
	int fd, rc;

	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return unread(h, -errno, "health log not read: %s: %s", dev, strerror(errno));
	memset(&log, 0, sizeof(log));
	/* rae: the read leaves pending asynchronous events for the host */
	rc = nvme_get_log_smart(fd, NVME_NSID_ALL, true, &log);
	if (rc < 0) {
		rc = -errno;
		close(fd);
		return unread(h, rc, "health log not read: %s: %s", dev, strerror(-rc));
	}
	close(fd);
	if (rc > 0) {
		snprintf(status, sizeof(status), "NVMe status 0x%x", (unsigned)rc);
		return unread(h, -EIO, "health log not read: %s: the drive answered %s", dev,
			      status);
	}
	sc_nvme_health_decode((const uint8_t *)&log, h);
	return 0;
}
