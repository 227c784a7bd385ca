/* lay_out.c -- writes the data a phase reads before it exists (untimed,
 * while the phase is prepared): the job's region of its file, fresh data
 * in every chunk (wdata.h), or with verify the blocks its reads check. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job_priv.h"

/* Seed of the laid-out data, apart from the job's own buffers'. */
#define LAY_OUT_SEED_SALT 0x1a70u

/* The unit lay_out writes: LAYOUT_CHUNK, or with verify a whole number of
 * blocks (at least one). */
static size_t layout_chunk(const struct job *j)
{
	size_t bs = j->vfy ? j->vfy->bs : 0;

	if (!bs)
		return LAYOUT_CHUNK;
	return bs >= LAYOUT_CHUNK ? bs : LAYOUT_CHUNK - LAYOUT_CHUNK % bs;
}

/* pwrite of all n bytes.  0 or -errno (-EIO: no progress). */
static int write_all(int fd, const char *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		buf += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

int sc_lay_out(struct job *j, uint64_t from, uint64_t to, char *err, size_t errlen)
{
	size_t chunk = layout_chunk(j);
	struct sc_wdata wd;
	char *buf;
	int fd = j->fd, fl = fcntl(fd, F_GETFL), rc = 0;

	if (j->vfy)
		from -= (from - j->base) % j->vfy->bs;
	/* the chunk, and the base pattern of its fresh data after it */
	if (posix_memalign((void **)&buf, BUF_ALIGN, 2 * chunk))
		return -ENOMEM;
	sc_wdata_init(&wd, j->pat.seed ^ LAY_OUT_SEED_SALT, 0, 0, buf + chunk, chunk);
	/* buffered through the job's own descriptor: the file is not looked up
	 * by name again */
	if (fl < 0 || ((fl & O_DIRECT) && fcntl(fd, F_SETFL, fl & ~O_DIRECT) != 0)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot lay out data: %s", j->path, strerror(errno));
		goto out_free;
	}
	for (uint64_t off = from; off < to;) {
		size_t n = (size_t)(to - off < chunk ? to - off : chunk);

		if (sc_job_cancelled()) {
			rc = -EINTR;
			snprintf(err, errlen, "%s: laying out data: interrupted", j->path);
			goto out_restore;
		}
		if (j->vfy)
			sc_verifier_fill_range(j->vfy, buf, n, off);
		else /* data a deduplicating drive cannot flatter either */
			sc_wdata_fill(&wd, buf, n);
		rc = write_all(fd, buf, n, off);
		if (rc) {
			snprintf(err, errlen, "%s: laying out %llu B before the phase: %s", j->path,
				 (unsigned long long)(to - from), strerror(-rc));
			goto out_restore;
		}
		off += n;
	}
	if (fsync(fd) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: fsync after laying out: %s", j->path, strerror(errno));
	}
out_restore:
	if ((fl & O_DIRECT) && fcntl(fd, F_SETFL, fl) != 0 && !rc) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot turn O_DIRECT back on: %s", j->path,
			 strerror(errno));
	}
out_free:
	free(buf);
	return rc;
}
