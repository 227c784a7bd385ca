/* io.c -- the fio-like workload: one region of one file (or device) per
 * job, one access pattern, until runtime or bytes; closed loop, or open
 * loop at the job's share of rate_iops; optionally every block verified.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "guard.h"
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

/* Verify: a write's buffer gets its block (header and pattern) just before
 * the write is queued; a queued I/O is noted in flight. */
static void verify_fill(struct job *j, const struct sc_io *x)
{
	if (j->vfy && x->op == SC_OP_WRITE)
		sc_verifier_fill(j->vfy, j->iov[x->buf].iov_base, x->offset);
}

static void verify_start(struct job *j, const struct sc_io *x)
{
	if (j->vfy)
		sc_verifier_start(j->vfy, x->buf, x->offset, x->op == SC_OP_WRITE);
}

static void complete(struct job *j, struct sc_io *io, uint64_t now, uint64_t measure_start,
		     int open)
{
	int dir = io->op == SC_OP_WRITE ? SC_DIR_WRITE : SC_DIR_READ;

	if (io->op == SC_OP_FSYNC) {
		if (io->res < 0)
			sc_job_io_failed(j, io, 0, j->path);
		else
			j->fsyncs++;
		return;
	}
	/* every read is checked, ramp included: bad data is bad at any time */
	if (j->vfy)
		sc_verifier_done(j->vfy, io->buf, j->iov[io->buf].iov_base,
				 io->res >= 0 && (uint32_t)io->res == io->len);
	if (io->res < 0 || (uint32_t)io->res != io->len) {
		sc_job_io_failed(j, io, io->len, j->path);
		return;
	}
	if (io->submit_ns < measure_start)
		return; /* ramp */
	if (open)
		sc_job_account_open(j, dir, io, now, measure_start);
	else
		sc_job_account(j, dir, io->len, now - io->submit_ns, now, measure_start);
}

void sc_io_job_run(struct job *j)
{
	struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	uint32_t depth = io->iodepth, nfree = depth, inflight = 0;
	uint64_t budget, issued = 0, writes_since_fsync = 0;
	uint64_t measure_start, deadline;
	int stopping = 0, open = io->rate_iops != 0;
	/* open loop, slot free, I/Os in flight: wait for a completion or the
	 * next intended start, whichever comes first */
	int until = j->ops->reap_until != NULL;
	struct sc_pace pace;

	measure_start = run->start_ns + io->ramp_ns;
	deadline = io->runtime_ns ? measure_start + io->runtime_ns : 0;
	budget = io->runtime_ns ? UINT64_MAX : io->io_bytes;
	if (open && !sc_pace_init(&pace, io, j->index, run->start_ns))
		return; /* fewer I/Os per second than jobs: none for this one */

	for (;;) {
		uint32_t nq = 0;
		uint64_t now = sc_now_ns();
		int need_fsync, pacing;

		if (!stopping &&
		    (atomic_load_explicit(&run->stop, memory_order_relaxed) || j->err ||
		     (deadline && now >= deadline) || issued >= budget)) {
			stopping = 1;
			if (open && issued < budget)
				j->unissued_ios = sc_pace_backlog(&pace, measure_start,
								  deadline && now > deadline ? deadline : now);
		}
		/* fsync after every N writes, and once more for the last ones */
		need_fsync = io->fsync_every && writes_since_fsync && !j->err &&
			     (writes_since_fsync >= io->fsync_every || stopping);
		if (need_fsync) {
			if (inflight == 0) {
				struct sc_io *f = &j->ios[j->free_slots[nfree - 1]];

				f->op = SC_OP_FSYNC;
				f->len = 0;
				f->offset = 0;
				if (j->ops->queue(j->eng, f) == 0) {
					nfree--;
					j->queued[nq++] = f;
					writes_since_fsync = 0;
				}
			}
		} else if (!stopping) {
			while (nfree > 0 && issued < budget && (!open || pace.next_ns <= now)) {
				struct sc_io *x = &j->ios[j->free_slots[nfree - 1]];
				int write = next_io(j, &x->offset);

				if (write < 0)
					break; /* verify: wait for the I/O on that block */
				x->op = write ? SC_OP_WRITE : SC_OP_READ;
				x->len = (uint32_t)io->bs_bytes;
				verify_fill(j, x);
				if (j->ops->queue(j->eng, x) != 0)
					break;
				verify_start(j, x);
				if (open) {
					x->intended_ns = pace.next_ns;
					sc_pace_advance(&pace);
				}
				nfree--;
				j->queued[nq++] = x;
				issued += io->bs_bytes;
				if (write && io->fsync_every &&
				    ++writes_since_fsync >= io->fsync_every)
					break;
			}
		}
		if (nq) {
			uint64_t t = sc_now_ns();
			int r;

			for (uint32_t i = 0; i < nq; i++) {
				struct sc_io *q = j->queued[i];

				q->submit_ns = t;
				if (open && q->op != SC_OP_FSYNC &&
				    q->intended_ns >= measure_start &&
				    t - q->intended_ns > SC_PACE_LATE_NS)
					j->late_ios++;
			}
			r = j->ops->submit(j->eng);
			if (r < 0) {
				sc_job_fail(j, r, "submitting I/O to %s: %s", j->path, strerror(-r));
				break;
			}
			inflight += nq;
		}
		/* open loop with a slot free: the schedule, not a completion,
		 * may be what comes next, so never block in reap */
		pacing = open && !stopping && !need_fsync && nfree > 0 && issued < budget;
		if (inflight == 0) {
			if (stopping && !need_fsync)
				break;
			if (nq == 0 && need_fsync)
				break; /* cannot queue an fsync on an idle engine */
			if (pacing)
				sc_pace_sleep(&pace, 0, deadline);
			continue;
		}
		int n = pacing && until ? sc_pace_reap(&pace, j->ops, j->eng, j->done, depth, deadline)
					: -EOPNOTSUPP;

		if (n == -EOPNOTSUPP) {
			/* no reap_until, or one that cannot time a wait (io_uring
			 * before Linux 5.11): reap, and poll with sc_pace_sleep */
			until = 0;
			n = j->ops->reap(j->eng, j->done, depth, pacing ? 0 : 1);
		}
		if (n < 0) {
			sc_job_fail(j, n, "waiting for I/O on %s: %s", j->path, strerror(-n));
			break;
		}
		now = sc_now_ns();
		for (int i = 0; i < n; i++) {
			complete(j, j->done[i], now, measure_start, open);
			j->free_slots[nfree++] = (uint32_t)(j->done[i] - j->ios);
		}
		inflight -= (uint32_t)n;
		if (pacing && n == 0 && !until)
			sc_pace_sleep(&pace, inflight, deadline);
	}
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
	if (t->kind != SC_TARGET_DIR || io->rw == SC_RW_WRITE)
		return 0;
	if (fstat(j->fd, &st) != 0)
		return -errno;
	if ((uint64_t)st.st_size < j->base + io->size_bytes)
		return sc_lay_out(j, (uint64_t)st.st_size, j->base + io->size_bytes, err, errlen);
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
	sc_pattern_init(&j->pat, io, run->place.rank, j->index);
	rc = verify_setup(j);
	if (rc)
		return rc;
	if (sc_engine_uses_files(io->engine)) {
		rc = job_open(j, t, err, errlen);
		if (rc)
			return rc;
	}
	rc = sc_job_alloc(j, depth, io->bs_bytes);
	if (rc)
		return rc;
	/* the series of a timed phase, grown now rather than while it runs */
	if (io->runtime_ns)
		sc_job_reserve_seconds(j, (io->runtime_ns + SC_NS_PER_S - 1) / SC_NS_PER_S + 2);
	sc_job_engine_init(j);
	conf = (struct sc_engine_conf){.depth = depth, .fds = &j->fd, .nfds = 1,
				       .bufs = j->iov, .nbufs = depth};
	rc = sc_job_engine_create(j, &conf);
	if (rc) {
		snprintf(err, errlen, "%s engine for %s: %s", j->ops->name, j->path,
			 strerror(-rc));
		return rc;
	}
	return 0;
}
