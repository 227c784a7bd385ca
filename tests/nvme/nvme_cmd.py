#!/usr/bin/env python3
# nvme_cmd.py -- the NVMe tests' own reading of a drive, through the
# kernel's NVMe ioctls and independent of ssdcluster's code:
#   nvme_cmd.py smart /dev/nvmeX : the SMART / health log page (02h) by an
#     admin Get Log Page, as JSON: temperature in degrees C, data units read
#     and written (units of 512,000 bytes)
#   nvme_cmd.py read /dev/ngXnY NSID LBS BYTES OUT : the namespace's first
#     BYTES (whole blocks of LBS bytes) by NVMe Read commands on the generic
#     device, written to the file OUT
import ctypes, fcntl, json, os, struct, sys

# _IOWR('N', 0x41 / 0x43, struct nvme_passthru_cmd), 72 bytes
NVME_IOCTL_ADMIN_CMD = 0xC0484E41
NVME_IOCTL_IO_CMD = 0xC0484E43
CMD_FMT = "=BBHIIIQQII6III"   # opcode flags rsvd nsid cdw2 cdw3 metadata addr
                              # metadata_len data_len cdw10..15 timeout_ms result
READ_CHUNK = 64 << 10         # within QEMU's MDTS (512 KiB)


def submit(fd, req, opcode, nsid, buf, cdw10=0, cdw11=0, cdw12=0):
    addr = ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))
    cmd = struct.pack(CMD_FMT, opcode, 0, 0, nsid, 0, 0, 0, addr, 0, len(buf),
                      cdw10, cdw11, cdw12, 0, 0, 0, 0, 0)
    rc = fcntl.ioctl(fd, req, bytearray(cmd))
    if rc != 0:
        sys.exit(f"nvme_cmd: opcode {opcode:#x}: NVMe status {rc:#x}")


def smart(dev):
    buf = bytearray(512)
    fd = os.open(dev, os.O_RDONLY)
    submit(fd, NVME_IOCTL_ADMIN_CMD, 0x02, 0xFFFFFFFF, buf,
           cdw10=((len(buf) // 4 - 1) << 16) | 0x02)
    os.close(fd)
    le128 = lambda off: int.from_bytes(buf[off:off + 16], "little")
    print(json.dumps({
        "temperature_c": struct.unpack_from("<H", buf, 1)[0] - 273,
        "data_units_read": le128(32),
        "data_units_written": le128(48),
    }))


def read(ng, nsid, lbs, nbytes, out):
    fd = os.open(ng, os.O_RDONLY)
    with open(out, "wb") as f:
        for off in range(0, nbytes, READ_CHUNK):
            buf = bytearray(min(READ_CHUNK, nbytes - off))
            slba = off // lbs
            submit(fd, NVME_IOCTL_IO_CMD, 0x02, nsid, buf, cdw10=slba & 0xFFFFFFFF,
                   cdw11=slba >> 32, cdw12=len(buf) // lbs - 1)
            f.write(buf)
    os.close(fd)


if sys.argv[1] == "smart":
    smart(sys.argv[2])
else:
    read(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
