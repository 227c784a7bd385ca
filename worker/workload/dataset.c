/* dataset.c -- datasets laid out once below a directory target (dataset.h). */
#include "dataset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "job_priv.h"
#include "layout.h"
#include "rundir.h"

/* Dataset files are stamped every this many bytes with (key, offset). */
#define STAMP_BYTES 4096u
/* The dataset outlives the run and may be shared: readable by all. */
#define DATASET_DIR_MODE 0755u

int sc_dataset_write(int dirfd, const char *name, const char *path, uint64_t key, uint64_t bytes,
		     char *buf, char *err, size_t errlen)
{
	int fd, rc = 0;

	/* in place (same inode): ranks that opened it already read the new data;
	 * truncated only once the guard knows it is a regular file of the run's
	 * alone, never a device or a hard link to a file elsewhere */
	fd = sc_rundir_openat(dirfd, name, O_WRONLY, SC_RUNDIR_ANY);
	if (fd < 0) {
		rc = fd;
		snprintf(err, errlen, "%s: cannot create dataset file: %s", path,
			 sc_rundir_strerror(rc));
		return rc;
	}
	rc = sc_guard_check_fd(fd, SC_TARGET_DIR, path, err, errlen);
	if (!rc && ftruncate(fd, 0) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot truncate dataset file: %s", path,
			 strerror(errno));
	}
	if (rc)
		goto out_close;
	for (uint64_t off = 0; off < bytes;) {
		size_t n = (size_t)(bytes - off < LAYOUT_CHUNK ? bytes - off : LAYOUT_CHUNK);
		ssize_t w;

		if (sc_job_cancelled()) {
			rc = -EINTR;
			snprintf(err, errlen, "%s: writing dataset file: interrupted", path);
			goto out_close;
		}
		for (size_t b = 0; b < n; b += STAMP_BYTES) {
			uint64_t stamp = key ^ (off + b);

			memcpy(buf + b, &stamp, sizeof(stamp) < n - b ? sizeof(stamp) : n - b);
		}
		w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: writing dataset file (%llu of %llu B done): %s",
				 path, (unsigned long long)off, (unsigned long long)bytes,
				 strerror(-rc));
			goto out_close;
		}
		off += (uint64_t)w;
	}
	if (fsync(fd) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: fsync of dataset file: %s", path, strerror(errno));
		goto out_close;
	}
	/* the run should read the drive, not what setup left in the page cache */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
out_close:
	if (close(fd) != 0 && !rc) {
		rc = -errno;
		snprintf(err, errlen, "%s: closing dataset file: %s", path, strerror(errno));
	}
	return rc;
}

int sc_dataset_open_dir(const char *target, const char *sub)
{
	int tfd, fd;

	if (mkdir(target, DATASET_DIR_MODE) != 0 && errno != EEXIST)
		return -errno;
	tfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return -errno;
	fd = sc_rundir_subdir(tfd, sub, true, DATASET_DIR_MODE);
	close(tfd);
	return fd;
}

/* Allocated bytes of the regular files in target/sub (0: none). */
static uint64_t dir_bytes(const char *target, const char *sub)
{
	int tfd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	uint64_t sum = 0;
	struct dirent *e;
	DIR *d;

	if (tfd < 0)
		return 0;
	fd = openat(tfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(tfd);
	if (fd < 0)
		return 0;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_nlink == 1)
			sum += (uint64_t)st.st_blocks * 512;
	}
	closedir(d);
	return sum;
}

uint64_t sc_dataset_present_bytes(const struct sc_plan *plan, uint32_t target)
{
	uint64_t sum = 0;

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *ph = &plan->phases[p];
		char sub[512];
		int rc;

		/* a group's cells share its dataset: its first counts it */
		if (ph->cell != 0 || !sc_engine_uses_files(ph->io.engine))
			continue;
		if (ph->workload == SC_WORKLOAD_TRAINING)
			rc = sc_layout_training_subdir(plan, p, sub, sizeof(sub));
		else if (ph->workload == SC_WORKLOAD_INGEST)
			rc = sc_layout_ingest_subdir(plan, p, sub, sizeof(sub));
		else
			continue;
		if (!rc)
			sum += dir_bytes(plan->targets[target].path, sub);
	}
	return sum;
}
