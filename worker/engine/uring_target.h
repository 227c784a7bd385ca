/* uring_target.h -- what the io_uring engine's options need of a target:
 * polled completions need a block device whose queue polls, NVMe
 * passthrough a block device that is a whole NVMe namespace, whose
 * generic character device /dev/ngXnY then takes the commands built here.
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
#include <sys/stat.h>

/* Room for a reason: what fits in a rank's note (io_opts.h). */
#define SC_URING_WHY_MAX 160

/* Room for a kernel device name ("nvme12n3", "ng12n3"). */
#define SC_NVME_NAME_MAX 32

/* An NVMe namespace: the block device a target is and its generic
 * character device. */
struct sc_nvme_ns {
	uint32_t nsid;
	uint32_t lba_shift;	      /* log2 of its logical block size in bytes */
	char block[SC_NVME_NAME_MAX]; /* the target's name in sysfs: "nvme0n1" */
	char ng[SC_NVME_NAME_MAX];    /* its generic device: "ng0n1" */
};

/* 0 when fd (the target's descriptor) is a block device, or a partition
 * of one, whose queue polls for completions (sysfs queue/io_poll 1: the
 * driver has poll queues, e.g. nvme.poll_queues=N).  Else -EOPNOTSUPP and
 * why, e.g. "hipri needs a block device with poll queues (target is a file
 * on ext4)".  sysfs: "/sys", or a copy of its tree for tests. */
int sc_uring_poll_check(const char *sysfs, int fd, char *why, size_t len);

/* The generic character device of the NVMe namespace that fd (the
 * target's descriptor) is, opened with fd's access mode: its descriptor
 * (the caller closes it) and *ns.  fd must be a block device that is a
 * whole namespace, nvmeXnY (a multipath head too), with nsid and
 * queue/logical_block_size in sysfs; its generic device is the sibling
 * ngXnY of class nvme-generic in sysfs (same controller, or subsystem for
 * a multipath head), opened as <devroot>/ngXnY and checked to be the
 * character device sysfs gives.  Else -errno (-ENODEV: no such namespace
 * or device; open's error) and why, naming the target: "passthrough needs
 * a block device that is an NVMe namespace; target is a block device
 * (loop0)", "passthrough needs a whole namespace; target is a partition
 * nvme0n1p1", "passthrough needs the multipath namespace nvme4n1; target
 * nvme4c5n1 is one path of it", "passthrough: cannot open /dev/ng0n1 (of
 * nvme0n1): Permission denied".  sysfs: "/sys", devroot: "/dev", or trees
 * made for tests. */
int sc_uring_ng_open(const char *sysfs, const char *devroot, int fd, struct sc_nvme_ns *ns,
		     char *why, size_t len);

/* The same for a target described by st (its fstat) opened with flags
 * (their O_ACCMODE is kept): tests pass the numbers of a sysfs tree. */
int sc_uring_ng_open_stat(const char *sysfs, const char *devroot, const struct stat *st, int flags,
			  struct sc_nvme_ns *ns, char *why, size_t len);

/* 0 when I/Os whose offsets and lengths are all multiples of align_bytes
 * are whole logical blocks of ns; else -EINVAL and why ("passthrough needs
 * I/Os in whole logical blocks of nvme0n1 (4096 B); this phase's offsets
 * and lengths are multiples of 512 B").  align_bytes 0: not known. */
int sc_uring_ng_align(const struct sc_nvme_ns *ns, uint64_t align_bytes, char *why, size_t len);

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
