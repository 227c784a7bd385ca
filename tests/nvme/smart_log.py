#!/usr/bin/env python3
# smart_log.py DEV -- the SMART / health log page (log 02h) of the NVMe
# controller DEV (/dev/nvme0), read by an admin Get Log Page through the
# kernel's NVME_IOCTL_ADMIN_CMD, printed as JSON: temperature in degrees C,
# data units read and written (units of 512,000 bytes).  The tests' own
# reading of the drive, independent of ssdcluster's.
import ctypes, fcntl, json, os, struct, sys

NVME_IOCTL_ADMIN_CMD = 0xC0484E41   # _IOWR('N', 0x41, struct nvme_admin_cmd), 72 bytes
LOG_LEN = 512
buf = bytearray(LOG_LEN)
addr = ctypes.addressof((ctypes.c_char * LOG_LEN).from_buffer(buf))
numd = LOG_LEN // 4 - 1
cmd = struct.pack("=BBHIIIQQII6III", 0x02, 0, 0, 0xFFFFFFFF, 0, 0, 0, addr, 0, LOG_LEN,
                  (numd << 16) | 0x02, 0, 0, 0, 0, 0, 0, 0)
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, NVME_IOCTL_ADMIN_CMD, bytearray(cmd))
os.close(fd)
le128 = lambda off: int.from_bytes(buf[off:off + 16], "little")
print(json.dumps({
    "temperature_c": struct.unpack_from("<H", buf, 1)[0] - 273,
    "data_units_read": le128(32),
    "data_units_written": le128(48),
}))
