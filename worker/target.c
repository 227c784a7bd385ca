/* target.c -- what a target path is: kind, size, alignment, free space. */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "guard.h"

/* Smallest alignment O_DIRECT may need; what we assume when nothing says. */
#define SC_MIN_ALIGN 512u

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

/* O_DIRECT alignment of a file or directory's filesystem: statx tells on
 * recent kernels; otherwise the logical block size is not known and 512
 * is assumed (the kernel then rejects misaligned I/O with EINVAL). */
static uint32_t dio_align(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align >= SC_MIN_ALIGN)
		return stx.stx_dio_offset_align;
	return SC_MIN_ALIGN;
}

int sc_target_probe(const char *path, struct sc_target_info *info)
{
	struct stat st;

	memset(info, 0, sizeof(*info));
	if (stat(path, &st) != 0)
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		struct statvfs vfs;

		if (statvfs(path, &vfs) != 0)
			return -errno;
		info->kind = SC_TARGET_DIR;
		info->size_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
		info->avail_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		info->align_bytes = dio_align(path);
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		info->kind = SC_TARGET_FILE;
		info->size_bytes = (uint64_t)st.st_size;
		info->avail_bytes = info->size_bytes;
		info->align_bytes = dio_align(path);
		return 0;
	}
	if (S_ISBLK(st.st_mode)) {
		uint64_t size = 0;
		int lbs = 0;
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return -errno;
		if (ioctl(fd, BLKGETSIZE64, &size) != 0 || ioctl(fd, BLKSSZGET, &lbs) != 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		close(fd);
		info->kind = SC_TARGET_BLOCK;
		info->size_bytes = size;
		info->avail_bytes = size;
		info->align_bytes = lbs >= (int)SC_MIN_ALIGN ? (uint32_t)lbs : SC_MIN_ALIGN;
		info->mounted = sc_guard_mounted("", st.st_rdev, info->mounted_on,
						 sizeof(info->mounted_on)) > 0;
		return 0;
	}
	return -EINVAL;
}
