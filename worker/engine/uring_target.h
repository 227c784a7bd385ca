/* uring_target.h -- what the io_uring engine's options need of a target:
 * polled completions need a block device whose queue polls, NVMe
 * passthrough a /dev/ngXnY, whose commands are built here.
 *
 * Decided before a ring is set up, from the target's descriptor and sysfs,
 * so that an option the target lacks is left out (and reported) rather
 * than failing the run's I/Os.  No liburing here: only engine/uring.c and
 * the tests use this header.
 */
#ifndef SC_URING_TARGET_H
#define SC_URING_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* Room for a reason: what fits in a rank's note (io_opts.h). */
#define SC_URING_WHY_MAX 160

/* An NVMe namespace as a /dev/ngXnY names it. */
struct sc_nvme_ns {
	uint32_t nsid;
	uint32_t lba_shift; /* log2 of its logical block size in bytes */
};

/* 0 when fd (the target's descriptor) is a block device, or a partition
 * of one, whose queue polls for completions (sysfs queue/io_poll 1: the
 * driver has poll queues, e.g. nvme.poll_queues=N).  Else -EOPNOTSUPP and
 * why, e.g. "hipri needs a block device with poll queues (target is a file
 * on ext4)".  sysfs: "/sys", or a copy of its tree for tests. */
int sc_uring_poll_check(const char *sysfs, int fd, char *why, size_t len);

/* 0 and *ns when fd is an NVMe generic character device (sysfs class
 * nvme-generic: /dev/ngXnY), its nsid and logical block size read from
 * sysfs block/nvmeXnY; else -ENODEV and why, e.g. "passthrough needs
 * /dev/ngXnY; target is a file on ext4". */
int sc_uring_ng_probe(const char *sysfs, int fd, struct sc_nvme_ns *ns, char *why, size_t len);

/* NVMe I/O command opcodes (NVM command set). */
enum sc_nvme_opcode {
	SC_NVME_CMD_FLUSH = 0x00,
	SC_NVME_CMD_WRITE = 0x01,
	SC_NVME_CMD_READ = 0x02,
};

/* Fills cmd, a struct nvme_uring_cmd (linux/nvme_ioctl.h) of cmd_len
 * bytes, for an I/O of op (enum sc_op: read, write or fsync = flush) of len
 * bytes at byte offset on ns, to or from buf: opcode, nsid, addr, data_len,
 * cdw10/11 the first block, cdw12 the block count - 1.  0, or -EINVAL when
 * offset or len is not whole blocks, len is 0 or more than 65536 blocks
 * for a read or write, or cmd_len is too small. */
int sc_nvme_cmd_build(void *cmd, size_t cmd_len, const struct sc_nvme_ns *ns, uint8_t op, void *buf,
		      uint32_t len, uint64_t offset);

#endif
