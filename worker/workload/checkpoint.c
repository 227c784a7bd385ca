/* checkpoint.c -- one LLM checkpoint written (or read back) file for file as
 * DLIO's PyTorch checkpointing lays it out, streamed from reusable buffers.
 *
 * Each rank writes the files ckpt_model.c names for it into
 * <run dir>/<group>/global_epoch1_step<k>/, its job threads sharing the
 * files round-robin.  A write is the PyTorch path by default (buffered
 * writes, then fsync) or O_DIRECT with direct: true; a restore reads with
 * O_DIRECT so the page cache is not measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "job_priv.h"
#include "layout.h"
#include "rundir.h"

/* Scaled file sizes are multiples of this, so O_DIRECT works on them. */
#define CKPT_ALIGN 4096u
/* Checkpoint directories inside the run's own (0700) directory. */
#define CKPT_DIR_MODE 0755u

struct ckpt_job {
	uint32_t nfiles;
	struct sc_ckpt_file *files; /* this job's share of the rank's files */
	int dirfd;		    /* the checkpoint's directory, -1: none */
	char dir[4096 - SC_CKPT_FILE_NAME_MAX]; /* dir + "/" + name fits a path */
};

static void ckpt_free(void *p)
{
	struct ckpt_job *c = p;

	if (c) {
		free(c->files);
		if (c->dirfd >= 0)
			close(c->dirfd);
	}
	free(c);
}

int sc_ckpt_job_setup(struct job *j, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_phase *ph = &run->plan->phases[run->phase];
	uint32_t src = sc_layout_ckpt_source(run->plan, run->phase, &run->place);
	struct sc_ckpt_file *all = NULL;
	char sub[256];
	uint32_t nall = 0;
	struct ckpt_job *c;
	int rc;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->dirfd = -1;
	j->wl = c;
	j->wl_free = ckpt_free;
	rc = sc_layout_ckpt_files(run->plan, run->phase, src, &all, &nall);
	if (rc) {
		snprintf(err, errlen, "checkpoint layout for rank %u: %s", src, strerror(-rc));
		return rc;
	}
	c->files = calloc(nall ? nall : 1, sizeof(*c->files));
	if (!c->files) {
		free(all);
		return -ENOMEM;
	}
	for (uint32_t i = j->index; i < nall; i += run->njobs)
		c->files[c->nfiles++] = all[i];
	free(all);
	rc = sc_layout_ckpt_dir(run->plan, run->place.target, run->phase, c->dir, sizeof(c->dir));
	if (!rc)
		rc = sc_layout_ckpt_subdir(run->plan, run->phase, sub, sizeof(sub));
	if (rc) {
		snprintf(err, errlen, "checkpoint directory name too long");
		return rc;
	}
	/* the null engine measures the tool: no directory, no files */
	if (sc_engine_uses_files(run->io->engine)) {
		/* -EBADF: the caller did not open the run directory */
		rc = run->dirfd < 0
			 ? -EBADF
			 : sc_rundir_subdir(run->dirfd, sub, !ph->ckpt.restore, CKPT_DIR_MODE);
		if (rc < 0) {
			snprintf(err, errlen, "%s: cannot %s: %s", c->dir,
				 ph->ckpt.restore ? "open" : "create", sc_rundir_strerror(rc));
			return rc;
		}
		c->dirfd = rc;
	}
	if (c->dirfd >= 0 && ph->ckpt.restore) {
		for (uint32_t i = 0; i < c->nfiles; i++) {
			char path[4200];
			const char *why = NULL;
			struct stat st;

			snprintf(path, sizeof(path), "%s/%s", c->dir, c->files[i].name);
			if (fstatat(c->dirfd, c->files[i].name, &st, AT_SYMLINK_NOFOLLOW) != 0)
				why = strerror(errno);
			else if (S_ISLNK(st.st_mode))
				why = sc_rundir_strerror(-ELOOP);
			else if (!S_ISREG(st.st_mode))
				why = "not a regular file";
			else if ((uint64_t)st.st_size != c->files[i].bytes)
				why = "wrong size";
			if (why) {
				snprintf(err, errlen,
					 "%s: %s (restore reads what checkpoint %u wrote%s)", path,
					 why, ph->ckpt.index,
					 ph->ckpt.restore_shift
					     ? "; restore_shift needs storage every node sees"
					     : "");
				return -ENOENT;
			}
		}
	}
	sc_pattern_init(&j->pat, run->io, run->place.rank, j->index);
	rc = sc_job_alloc(j, run->io->iodepth, run->io->bs_bytes);
	if (rc)
		return rc;
	sc_job_engine_init(j);
	for (uint32_t i = 0; i < c->nfiles; i++)
		run->planned_bytes += c->files[i].bytes;
	return 0;
}

/* Streams one file through a fresh engine: writes then fsync, or reads.
 * Returns 0, or -errno (already reported) when the job stopped or, under
 * on_error continue, -EIO when an I/O of the file failed. */
static int stream_file(struct job *j, const struct sc_ckpt_file *f, int restore, int fd)
{
	struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	const struct sc_ckpt_spec *ck = &run->plan->phases[run->phase].ckpt;
	int direct = restore || io->direct;
	uint32_t depth = io->iodepth, nfree = depth, inflight = 0;
	uint64_t off = 0, size = f->bytes;
	int fsync_sent = 0, rc = 0;
	uint64_t failed_before = j->errors;
	struct sc_engine_conf conf = {.depth = depth, .fds = &fd, .nfds = 1, .bufs = j->iov,
				      .nbufs = depth};

	rc = sc_job_engine_create(j, &conf);
	if (rc) {
		sc_job_fail(j, rc, "%s engine for %s: %s", j->ops->name, j->path, strerror(-rc));
		return rc;
	}
	for (uint32_t i = 0; i < depth; i++)
		j->free_slots[i] = i;
	for (;;) {
		uint32_t nq = 0;
		int stop = atomic_load_explicit(&run->stop, memory_order_relaxed) || j->err;

		while (!stop && nfree > 0 && off < size) {
			struct sc_io *x = &j->ios[j->free_slots[nfree - 1]];
			uint64_t len = size - off < io->bs_bytes ? size - off : io->bs_bytes;

			x->offset = off;
			/* O_DIRECT moves whole aligned blocks; sizes are aligned when
			 * scaled, and the tail of an unscaled file is read short */
			x->len = (uint32_t)(direct ? sc_round_up(len, CKPT_ALIGN) : len);
			if (x->len > io->bs_bytes)
				x->len = (uint32_t)len;
			x->op = restore ? SC_OP_READ : SC_OP_WRITE;
			if (j->ops->queue(j->eng, x) != 0)
				break;
			nfree--;
			j->queued[nq++] = x;
			off += len;
		}
		if (!stop && off >= size && inflight == 0 && nq == 0 && !restore && ck->fsync &&
		    !fsync_sent) {
			struct sc_io *x = &j->ios[j->free_slots[nfree - 1]];

			x->op = SC_OP_FSYNC;
			x->len = 0;
			x->offset = 0;
			if (j->ops->queue(j->eng, x) == 0) {
				nfree--;
				j->queued[nq++] = x;
				fsync_sent = 1;
			}
		}
		if (nq) {
			uint64_t t = sc_now_ns();
			int r;

			for (uint32_t i = 0; i < nq; i++)
				j->queued[i]->submit_ns = t;
			r = j->ops->submit(j->eng);
			if (r < 0) {
				sc_job_fail(j, r, "submitting I/O to %s: %s", j->path, strerror(-r));
				break;
			}
			inflight += nq;
		}
		if (inflight == 0)
			break;
		int n = j->ops->reap(j->eng, j->done, depth, 1);

		if (n < 0) {
			sc_job_fail(j, n, "waiting for I/O on %s: %s", j->path, strerror(-n));
			break;
		}
		uint64_t now = sc_now_ns();

		for (int i = 0; i < n; i++) {
			struct sc_io *x = j->done[i];
			/* the file's bytes this I/O stands for (not the padding) */
			uint64_t want = size - x->offset < x->len ? size - x->offset : x->len;

			j->free_slots[nfree++] = (uint32_t)(x - j->ios);
			if (x->op == SC_OP_FSYNC) {
				if (x->res < 0)
					sc_job_io_failed(j, x, 0, j->path);
				else
					j->fsyncs++;
				continue;
			}
			if (x->res < 0 || (uint64_t)x->res < want) {
				sc_job_io_failed(j, x, want, j->path);
				continue;
			}
			sc_job_account(j, restore ? SC_DIR_READ : SC_DIR_WRITE, (uint32_t)want,
				       now - x->submit_ns, now, run->start_ns);
		}
		inflight -= (uint32_t)n;
	}
	j->ops->destroy(j->eng);
	j->eng = NULL;
	if (fd >= 0 && !restore && direct && size % CKPT_ALIGN && !j->err &&
	    ftruncate(fd, (off_t)size) != 0)
		sc_job_fail(j, -errno, "trimming %s to %llu B: %s", j->path,
			    (unsigned long long)size, strerror(errno));
	if (j->err)
		return j->err;
	return j->errors != failed_before ? -EIO : 0; /* not a whole file */
}

void sc_ckpt_job_run(struct job *j)
{
	struct sc_run *run = j->run;
	struct ckpt_job *c = j->wl;
	int restore = run->plan->phases[run->phase].ckpt.restore;

	for (uint32_t i = 0; i < c->nfiles && !j->err; i++) {
		const struct sc_ckpt_file *f = &c->files[i];
		int direct = restore || run->io->direct;
		int flags = (direct ? O_DIRECT : 0) | (restore ? O_RDONLY : O_WRONLY);
		int fd;

		if (atomic_load_explicit(&run->stop, memory_order_relaxed))
			break;
		snprintf(j->path, sizeof(j->path), "%s/%s", c->dir, f->name);
		/* each file is written once per run: created, never truncated */
		fd = !sc_engine_uses_files(run->io->engine)
			 ? -1
			 : sc_rundir_openat(c->dirfd, f->name, flags,
					    restore ? SC_RUNDIR_OLD : SC_RUNDIR_NEW);
		if (fd < 0 && !sc_engine_uses_files(run->io->engine)) {
			if (stream_file(j, f, restore, fd) == 0)
				j->files++;
			j->last_ns = sc_now_ns();
			continue;
		}
		if (fd < 0) {
			sc_job_fail(j, fd, "%s: cannot open%s: %s", j->path,
				    direct ? " with O_DIRECT" : "", sc_rundir_strerror(fd));
			break;
		}
		if (stream_file(j, f, restore, fd) == 0)
			j->files++;
		if (close(fd) != 0 && !j->err)
			sc_job_fail(j, -errno, "closing %s: %s", j->path, strerror(errno));
		j->last_ns = sc_now_ns();
	}
}
