/* psync.c -- the portable baseline: pread/pwrite/fsync at submit time.
 *
 * Queued I/Os wait in a FIFO; submit performs them one after another in the
 * calling thread, so every submitted I/O has completed when submit returns
 * and reap never blocks.
 */
#include "engine.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "fifo.h"

/* Bytes moved (short only at end of file), or -errno when an error stops
 * the transfer, even part-way: the error is what the caller must report. */
static int32_t rw_all(int fd, const struct sc_io *io, char *buf)
{
	uint32_t done = 0;

	while (done < io->len) {
		ssize_t n;

		if (io->op == SC_OP_WRITE)
			n = pwrite(fd, buf + done, io->len - done, (off_t)(io->offset + done));
		else
			n = pread(fd, buf + done, io->len - done, (off_t)(io->offset + done));
		if (n > 0) {
			done += (uint32_t)n;
			continue;
		}
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		return -errno;
	}
	return (int32_t)done;
}

static int32_t do_io(const struct sc_engine *e, const struct sc_io *io)
{
	int fd = e->res.fds[io->file];

	if (io->op == SC_OP_FSYNC) {
		while (fsync(fd) < 0)
			if (errno != EINTR)
				return -errno;
		return 0;
	}
	return rw_all(fd, io, e->res.bufs[io->buf].iov_base);
}

static int psync_submit(struct sc_engine *e)
{
	return fifo_submit(e, do_io);
}

const struct sc_engine_ops sc_engine_psync = {
    .name = "psync",
    .create = fifo_create,
    .queue = fifo_queue,
    .submit = psync_submit,
    .reap = fifo_reap,
    .destroy = fifo_destroy,
};
