/* nvme_health.h -- the SMART / health information log page (log id 2) of
 * an NVMe controller: read through libnvme (nvme_health.c, the one file
 * that includes it) and decoded into struct sc_drive_health (drive.h).
 */
#ifndef SC_NVME_HEALTH_H
#define SC_NVME_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include "drive.h"

/* The log page's length in bytes (NVMe base specification). */
#define SC_NVME_SMART_LOG_BYTES 512u

/* Decodes a raw log page (little-endian, the spec's offsets) into h,
 * valid: critical warning (byte 0), composite temperature (1-2, Kelvin,
 * given in deg C), available spare (3) and its threshold (4), percentage
 * used (5), data units read (32-47) and written (48-63), power-on hours
 * (128-143), media errors (160-175); a 128-bit count above UINT64_MAX
 * saturates there. */
void sc_nvme_health_decode(const uint8_t page[SC_NVME_SMART_LOG_BYTES], struct sc_drive_health *h);

/* Reads the log page of controller character device dev ("/dev/nvme0"),
 * opened read-only, with one admin Get Log Page command (nothing that
 * writes), and decodes it into h.  0; or -errno with h->valid false and
 * h->reason saying why ("/dev/nvme0: Permission denied", "... NVMe status
 * 0x2"): a log that cannot be read is never reported as zeros. */
int sc_nvme_health_read(const char *dev, struct sc_drive_health *h);

#endif
