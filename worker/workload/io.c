/* io.c -- the fio-like workload: one region of one file (or device) per
 * job, one access pattern, until runtime or bytes; closed loop, or open
 * loop at the job's share of rate_iops; optionally every block verified.
 * It picks each I/O; the I/O loop (ioloop.c) does the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "ioloop.h"
#include "job_priv.h"
#include "layout.h"
#include "pace.h"
#include "rundir.h"

/* Verify (j->vfy): the next I/O of the pattern at its offset in the file, 1
 * write or 0 read; or -EBUSY when it would overlap an I/O in flight on the
 * same block where one of them writes: it is held, and comes first next
 * time.  Without verify, just the pattern's next I/O. */
static int next_io(struct job *j, uint64_t *offset)
{
	struct sc_verifier *v = j->vfy;
	int write;

	if (v && v->held) {
		v->held = false;
		*offset = v->held_offset;
		write = v->held_write;
	} else {
		write = sc_pattern_next(&j->pat, offset);
		*offset += j->base;
	}
	if (v && !sc_verifier_may_start(v, *offset, write)) {
		v->held = true;
		v->held_offset = *offset;
		v->held_write = write;
		return -EBUSY;
	}
	return write;
}

/* The next I/O: the pattern's (or the one verify held), a whole block. */
static int io_next(struct job *j, struct sc_io *x)
{
	int write = next_io(j, &x->offset);

	if (write < 0)
		return write; /* verify: wait for the I/O on that block */
	x->op = write ? SC_OP_WRITE : SC_OP_READ;
	x->len = (uint32_t)j->pat.len; /* bs, or the size the mix drew */
	if (j->inval_bytes) {
		/* a new pass over the region: dropped again, as fio reopens
		 * and invalidates its files for each loop of a job (the drop
		 * only fails for a bad fd, which the I/O would report) */
		if (!j->inval_left) {
			(void)posix_fadvise(j->fd, (off_t)j->base, (off_t)j->inval_bytes,
					    POSIX_FADV_DONTNEED);
			j->inval_left = j->inval_bytes;
		}
		j->inval_left -= j->inval_left > x->len ? x->len : j->inval_left;
	}
	return (int)x->len;
}

static const struct sc_ioloop_ops io_ops = {.next = io_next};

void sc_io_job_run(struct job *j)
{
	const struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	struct sc_pace pace;
	struct sc_ioloop lp = {
		.measure_start_ns = run->start_ns + io->ramp_ns,
		.budget_bytes = io->runtime_ns ? UINT64_MAX : io->io_bytes,
		/* end_fsync alone: one fsync once the writes end, as a
		 * checkpoint's (the count is never reached) */
		.fsync_every = io->fsync_every ? io->fsync_every : io->end_fsync ? UINT64_MAX : 0,
		.fsync_when_stopped = true,
	};

	if (io->runtime_ns)
		lp.deadline_ns = lp.measure_start_ns + io->runtime_ns;
	else if (io->runtime_max_ns)
		lp.deadline_ns = lp.measure_start_ns + io->runtime_max_ns;
	if (io->rate_iops) {
		if (!sc_pace_init(&pace, io, j->index, run->start_ns))
			return; /* fewer I/Os per second than jobs: none for this one */
		lp.pace = &pace;
	}
	sc_ioloop_run(j, &io_ops, &lp);
	/* runtime_max: the cap, not the bytes, ended the job */
	j->time_capped = !io->runtime_ns && io->runtime_max_ns && !j->err &&
			 j->bytes[SC_DIR_READ] + j->bytes[SC_DIR_WRITE] < io->io_bytes &&
			 sc_now_ns() >= lp.deadline_ns;
}

/* The job's file in the run directory: created by the first phase that
 * uses it, reopened by later ones; never through a symlink.  A descriptor
 * or -errno. */
static int job_open_in_run_dir(struct job *j, int flags)
{
	char name[64];

	if (j->run->dirfd < 0)
		return -EBADF; /* the caller did not open the run directory */
	if (sc_layout_job_name(&j->run->place, j->index, name, sizeof(name)))
		return -ENAMETOOLONG;
	/* verify_only: the kept run's file, which must be there */
	return sc_rundir_openat(j->run->dirfd, name, flags,
				j->run->io->verify_only ? SC_RUNDIR_OLD : SC_RUNDIR_ANY);
}

/* verify_only: a kept regular file holds the job's whole region. */
static int check_kept(struct job *j, char *err, size_t errlen)
{
	const struct sc_io_spec *io = j->run->io;
	struct stat st;

	if (fstat(j->fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size >= j->base + io->size_bytes)
		return 0;
	snprintf(err, errlen,
		 "%s holds %llu B but the phase reads up to byte %llu: verify_only reads what "
		 "the kept run wrote (give the phase the size and jobs that run had)",
		 j->path, (unsigned long long)st.st_size,
		 (unsigned long long)(j->base + io->size_bytes));
	return -EINVAL;
}

/* Verify: the job's verifier, before anything is laid out or run. */
static int verify_setup(struct job *j)
{
	const struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	bool overlap;

	if (io->verify == SC_VERIFY_NONE)
		return 0;
	j->vfy = malloc(sizeof(*j->vfy));
	if (!j->vfy)
		return -ENOMEM;
	/* two I/Os in flight on one block, one of them a write: random
	 * offsets, or a region of no more blocks than slots */
	overlap = sc_rw_writes(io->rw) && (sc_rw_random(io->rw) || j->pat.nblocks <= io->iodepth);
	return sc_verifier_init(j->vfy, sc_verify_run_hash(run->plan->run_id), run->phase,
				run->place.rank, j->index, io->iodepth, (uint32_t)io->bs_bytes,
				overlap);
}

/* A sequential write's file in the run directory, before the timed pass:
 * as it is (the writes extend it), its region fallocated (unwritten
 * extents, converted as each write lands: fio's default) or written with
 * data (the writes overwrite allocated blocks).  size: the file's now.
 * 0 or -errno with err set. */
static int preallocate(struct job *j, uint64_t size, char *err, size_t errlen)
{
	const struct sc_io_spec *io = j->run->io;
	uint64_t end = j->base + io->size_bytes;

	if (io->preallocate == SC_PREALLOC_WRITTEN && size < end)
		return sc_lay_out(j, size, end, err, errlen);
	if (io->preallocate == SC_PREALLOC_FALLOCATE &&
	    fallocate(j->fd, 0, (off_t)j->base, (off_t)io->size_bytes) != 0) {
		int rc = -errno;

		snprintf(err, errlen, "%s: preallocate: fallocate of the job's region: %s%s", j->path,
			 strerror(-rc),
			 rc == -EOPNOTSUPP ? " (the filesystem has no fallocate: use preallocate: "
					     "written or none)"
					   : "");
		return rc;
	}
	return 0;
}

static int job_open(struct job *j, const struct sc_target_spec *t, char *err, size_t errlen)
{
	const struct sc_io_spec *io = j->run->io;
	int flags = O_CLOEXEC | (io->direct ? O_DIRECT : 0);
	struct stat st;
	int rc;

	if (io->verify_only)
		flags |= O_RDONLY; /* a kept run: nothing is created or written */
	else if (t->kind == SC_TARGET_DIR)
		flags |= O_RDWR;
	else /* a file or device in place: writable only when the phase writes */
		flags |= sc_guard_phase_writes(&j->run->plan->phases[j->run->phase]) ? O_RDWR
										: O_RDONLY;
	if (t->kind == SC_TARGET_DIR)
		j->fd = job_open_in_run_dir(j, flags);
	else
		j->fd = open(j->path, flags, 0644);
	if (j->fd < 0) {
		rc = t->kind == SC_TARGET_DIR ? j->fd : -errno;
		j->fd = -1;
		snprintf(err, errlen, "%s: cannot open%s: %s%s", j->path,
			 io->direct ? " with O_DIRECT" : "",
			 t->kind == SC_TARGET_DIR ? sc_rundir_strerror(rc) : strerror(-rc),
			 io->verify_only && rc == -ENOENT
				 ? " (verify_only re-reads the files of the kept run named by "
				   "--run-id: same targets, ranks and jobs)"
				 : "");
		return rc;
	}
	if (t->kind != SC_TARGET_DIR) { /* the very file or device the guard approved */
		rc = sc_guard_check_fd(j->fd, t->kind, j->path, err, errlen);
		if (rc)
			return rc;
	}
	if (io->verify_only)
		return check_kept(j, err, errlen);
	if (t->kind != SC_TARGET_DIR)
		return 0;
	if (fstat(j->fd, &st) != 0)
		return -errno;
	if (io->rw == SC_RW_WRITE)
		return preallocate(j, (uint64_t)st.st_size, err, errlen);
	if ((uint64_t)st.st_size < j->base + io->size_bytes)
		return sc_lay_out(j, (uint64_t)st.st_size, j->base + io->size_bytes, err, errlen);
	return 0;
}

/* invalidate: the job's region written back and dropped from the page
 * cache once its file is laid out, so buffered reads come from the device,
 * as fio's invalidate (its default) does before each job; io_next drops it
 * again every size bytes the job issues after. */
static int drop_region(struct job *j, char *err, size_t errlen)
{
	int rc;

	if (fdatasync(j->fd) != 0) {
		rc = errno;
		snprintf(err, errlen, "%s: cannot write it back before dropping its page cache "
			 "(invalidate): %s", j->path, strerror(rc));
		return -rc;
	}
	rc = posix_fadvise(j->fd, (off_t)j->base, (off_t)j->run->io->size_bytes,
			   POSIX_FADV_DONTNEED);
	if (rc) {
		snprintf(err, errlen, "%s: cannot drop its page cache (invalidate): %s", j->path,
			 strerror(rc));
		return -rc;
	}
	j->inval_bytes = j->inval_left = j->run->io->size_bytes;
	return 0;
}

/* fadvise_hint: the kernel told the job's pattern on its file, as fio's
 * fadvise_hint (its default): random, no readahead (each read brings in
 * only its own pages); sequential, a larger readahead window. */
static int hint_pattern(struct job *j, char *err, size_t errlen)
{
	bool rnd = sc_rw_random(j->run->io->rw);
	int rc = posix_fadvise(j->fd, (off_t)j->base, (off_t)j->run->io->size_bytes,
			       rnd ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL);

	if (rc) {
		snprintf(err, errlen, "%s: cannot advise the kernel of the %s pattern "
			 "(fadvise_hint): %s", j->path, rnd ? "random" : "sequential", strerror(rc));
		return -rc;
	}
	return 0;
}

int sc_io_job_setup(struct job *j, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	const struct sc_target_spec *t = &run->plan->targets[run->place.target];
	uint32_t depth = io->iodepth;
	struct sc_engine_conf conf;
	int rc;

	rc = sc_layout_job_file(run->plan, &run->place, run->phase, j->index, j->path,
				sizeof(j->path), &j->base);
	if (rc) {
		snprintf(err, errlen, "job file name too long under %s", t->path);
		return rc;
	}
	if (t->kind == SC_TARGET_DIR &&
	    (io->offset_bytes || sc_layout_offset_increment(io) != io->size_bytes)) {
		/* rank 0 refuses it where it probed the target; one on other
		 * hosts is seen here first */
		snprintf(err, errlen,
			 "%s is a directory target, where each job has a file of its own: "
			 "offset and offset_increment apply to file and block targets",
			 t->path);
		return -EINVAL;
	}
	sc_pattern_init(&j->pat, io, run->place.rank, j->index);
	rc = verify_setup(j);
	if (rc)
		return rc;
	if (sc_engine_uses_files(io->engine)) {
		rc = job_open(j, t, err, errlen);
		if (!rc && io->invalidate)
			rc = drop_region(j, err, errlen);
		if (!rc && io->fadvise_hint)
			rc = hint_pattern(j, err, errlen);
		if (rc)
			return rc;
	}
	/* a mix's buffers hold its largest size */
	rc = sc_job_alloc(j, depth, io->bs_max_bytes > io->bs_bytes ? io->bs_max_bytes : io->bs_bytes);
	if (rc)
		return rc;
	/* the series of a timed phase, grown now rather than while it runs */
	if (io->runtime_ns)
		sc_ioloop_reserve_seconds(j, (io->runtime_ns + SC_NS_PER_S - 1) / SC_NS_PER_S + 2);
	sc_job_engine_init(j);
	conf = (struct sc_engine_conf){.depth = depth, .fds = &j->fd, .nfds = 1,
				       .bufs = j->iov, .nbufs = depth,
				       /* every offset is base + n x bs */
				       .io_align_bytes = sc_gcd(io->bs_bytes, j->base)};
	rc = sc_job_engine_create(j, &conf);
	if (rc) {
		snprintf(err, errlen, "%s engine for %s: %s", j->ops->name, j->path,
			 strerror(-rc));
		return rc;
	}
	return 0;
}
