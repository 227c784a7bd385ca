/* checkpoint.c -- one LLM checkpoint written (or read back) file for file as
 * DLIO's PyTorch checkpointing lays it out, streamed from reusable buffers.
 *
 * Each rank writes the files ckpt_model.c names for it into
 * <run dir>/<group>/global_epoch1_step<k>/, its job threads sharing the
 * files round-robin.  A write is the PyTorch path by default (buffered
 * writes, then fsync) or O_DIRECT with direct: true; a restore reads with
 * O_DIRECT so the page cache is not measured.  A job streams all its files
 * through one engine (one io_uring ring, its buffers registered), made
 * while the phase is prepared: the timed window holds only the files'
 * opens, I/O, fsyncs and closes.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "ioloop.h"
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
	bool restore;		    /* reads the files back (else writes them) */
	bool direct;		    /* with O_DIRECT */
	uint64_t off, size;	    /* the file being streamed: next offset, bytes */
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

/* The job's one engine for all its files: each file's descriptor goes
 * into j->fd while it is streamed (fds_change). */
static int engine_setup(struct job *j)
{
	uint32_t depth = j->run->io->iodepth;
	struct sc_engine_conf conf = {.depth = depth, .fds = &j->fd, .nfds = 1, .bufs = j->iov,
				      .nbufs = depth, .fds_change = true};

	sc_job_engine_init(j);
	return sc_job_engine_create(j, &conf);
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
	c->restore = ph->ckpt.restore;
	c->direct = ph->ckpt.restore || run->io->direct;
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
	rc = engine_setup(j);
	if (rc) {
		snprintf(err, errlen, "%s engine for %s: %s", j->ops->name, c->dir, strerror(-rc));
		return rc;
	}
	for (uint32_t i = 0; i < c->nfiles; i++)
		run->planned_bytes += c->files[i].bytes;
	return 0;
}

/* The file's next block: its bytes, padded for O_DIRECT to whole aligned
 * blocks (sizes are aligned when scaled; the tail of an unscaled file is
 * moved short); it must move the file's bytes, not the padding. */
static int ckpt_next(struct job *j, struct sc_io *x)
{
	struct ckpt_job *c = j->wl;
	uint64_t bs = j->run->io->bs_bytes;
	uint64_t len = c->size - c->off < bs ? c->size - c->off : bs;

	x->offset = c->off;
	x->len = (uint32_t)(c->direct ? sc_round_up(len, CKPT_ALIGN) : len);
	if (x->len > bs)
		x->len = (uint32_t)len;
	x->op = c->restore ? SC_OP_READ : SC_OP_WRITE;
	c->off += len;
	return (int)len;
}

static const struct sc_ioloop_ops ckpt_ops = {.next = ckpt_next};

/* Streams file f (open in j->fd, -1 for the null engine) through the
 * job's engine: writes then fsync, or reads.  Returns 0, or -errno
 * (already reported) when the job stopped or, under on_error continue,
 * -EIO when an I/O of the file failed. */
static int stream_file(struct job *j, const struct sc_ckpt_file *f)
{
	struct sc_run *run = j->run;
	struct ckpt_job *c = j->wl;
	uint64_t failed_before = j->errors;
	/* one fsync once every write is done, none when stopped short */
	struct sc_ioloop lp = {
		.measure_start_ns = run->start_ns,
		.budget_bytes = f->bytes,
		.fsync_every = !c->restore && run->plan->phases[run->phase].ckpt.fsync ? UINT64_MAX
											: 0,
	};

	c->off = 0;
	c->size = f->bytes;
	sc_ioloop_run(j, &ckpt_ops, &lp);
	if (j->fd >= 0 && !c->restore && c->direct && c->size % CKPT_ALIGN && !j->err &&
	    ftruncate(j->fd, (off_t)c->size) != 0)
		sc_job_fail(j, -errno, "trimming %s to %llu B: %s", j->path,
			    (unsigned long long)c->size, strerror(errno));
	if (j->err)
		return j->err;
	return j->errors != failed_before ? -EIO : 0; /* not a whole file */
}

void sc_ckpt_job_run(struct job *j)
{
	struct sc_run *run = j->run;
	struct ckpt_job *c = j->wl;
	bool files = sc_engine_uses_files(run->io->engine);
	int flags = (c->direct ? O_DIRECT : 0) | (c->restore ? O_RDONLY : O_WRONLY);

	for (uint32_t i = 0; i < c->nfiles && !j->err; i++) {
		const struct sc_ckpt_file *f = &c->files[i];

		if (atomic_load_explicit(&run->stop, memory_order_relaxed))
			break;
		snprintf(j->path, sizeof(j->path), "%s/%s", c->dir, f->name);
		/* each file is written once per run: created, never truncated;
		 * the null engine measures the tool: no file */
		if (files) {
			int fd = sc_rundir_openat(c->dirfd, f->name, flags,
						  c->restore ? SC_RUNDIR_OLD : SC_RUNDIR_NEW);

			if (fd < 0) {
				sc_job_fail(j, fd, "%s: cannot open%s: %s", j->path,
					    c->direct ? " with O_DIRECT" : "",
					    sc_rundir_strerror(fd));
				break;
			}
			j->fd = fd;
		}
		if (stream_file(j, f) == 0)
			j->files++;
		if (j->fd >= 0) {
			if (close(j->fd) != 0 && !j->err)
				sc_job_fail(j, -errno, "closing %s: %s", j->path, strerror(errno));
			j->fd = -1;
		}
		j->last_ns = sc_now_ns();
	}
}
