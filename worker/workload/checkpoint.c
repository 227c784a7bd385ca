/* checkpoint.c -- one LLM checkpoint written (or read back) file for file as
 * DLIO's PyTorch checkpointing lays it out, streamed from reusable buffers.
 *
 * Each rank writes the files ckpt_model.c names for it into
 * <run dir>/<group>/global_epoch1_step<k>/, its job threads sharing the
 * files round-robin.  A write is the PyTorch path by default (buffered
 * writes, then fsync) or O_DIRECT with direct: true; a restore reads with
 * O_DIRECT so the page cache is not measured, except under procedure:
 * mlperf, which reads through the page cache as DLIO does (O_DIRECT only
 * with direct: true) after dropping it: job 0 of each rank, while the
 * group's first restore cell is prepared, calls posix_fadvise(DONTNEED) on
 * every file the rank wrote in the group (fsync'd, so clean) and writes
 * "1" into /proc/sys/vm/drop_caches where it may (root).  A job streams all its files
 * through one engine (one io_uring ring, its buffers registered), made
 * while the phase is prepared: the timed window holds only the files'
 * opens, I/O, fsyncs and closes.
 *
 * serialize: torch writes each file as torch.save({"t": int8 tensor}, f)
 * followed by os.fsync does (DLIO's PyTorch checkpointing): the zip
 * container of torch_zip.h around the file's bytes, in the three write(2)
 * calls torch's buffered writer makes (head, the whole tensor, tail),
 * through the page cache, a CRC-32 over every byte before it is written.
 * The tensor is DLIO's, all zeros, so the file is byte for byte the one
 * torch.save writes.  The tensor goes out as torch's does: one write(2)
 * from the tensor's own memory (cut at 2 GiB - 4 KiB, as Linux cuts it).
 * Every file's tensor is memory of its own, as a trainer's state is: the
 * job's files' tensors lie one after another in memory made and touched
 * in setup (with async, the host copy), counted in memory_per_rank and
 * held from one write cell of the group to the next, as the trainer holds
 * its state between checkpoints.  One buffer reused for every file
 * would be read from the CPU's caches and from page tables already walked,
 * which a trainer's distinct tensors are not: on a 2-vCPU VM, 300 files
 * of 2 MB took torch.save 0.76 s from one tensor and 1.63 s from 300.  A
 * restore reads the whole container back as the raw path reads its files.
 *
 * async: true (write cells): each job first copies its files' bytes from
 * memory standing for the accelerator's into a host buffer (both made and
 * touched in setup; the host one is what memory_per_rank counts), the
 * rank's jobs waiting for each other: training is blocked until then.
 * The writes that follow (the drain) go out as a synchronous checkpoint's
 * do, while the training of compute_after_ns runs beside them: the jobs
 * return at max(copy end + compute_after_ns, drain end).
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "ioloop.h"
#include "job_priv.h"
#include "layout.h"
#include "rundir.h"
#include "torch_zip.h"

/* Scaled file sizes are multiples of this, so O_DIRECT works on them. */
/* serialize: torch: the most one write call moves (Linux's MAX_RW_COUNT,
 * what torch's one write of a larger tensor is cut to). */
#define TORCH_WRITE_MAX UINT64_C(0x7ffff000)
/* The node's page cache, dropped by procedure: mlperf (root only). */
#define DROP_CACHES_PATH "/proc/sys/vm/drop_caches"
/* Checkpoint directories inside the run's own (0700) directory. */
#define CKPT_DIR_MODE 0755u
/* async: how often a job waiting for the rank's other jobs to finish
 * their copies looks again. */
#define COPY_WAIT_NS 50000ull

struct ckpt_job {
	uint32_t nfiles;
	struct sc_ckpt_file *files; /* this job's share of the rank's files */
	int dirfd;		    /* the checkpoint's directory, -1: none */
	int old_dirfd;		    /* keep_last: the checkpoint to delete, -1: none */
	char old_sub[256];	    /* its path below the run directory */
	bool restore;		    /* reads the files back (else writes them) */
	bool direct;		    /* with O_DIRECT */
	bool torch;		    /* serialize: torch */
	struct sc_tzip *zip;	    /* torch: the file being written's container */
	uint8_t *tensor;	    /* torch: the files' tensors one after another, zeros */
	size_t tensor_len;	    /* their bytes */
	size_t tensor_off;	    /* the next file's tensor */
	uint32_t job;		    /* torch: the job's index (its held tensors) */
	bool hold;		    /* torch: tensors kept for the group's next write */
	uint64_t off, size;	    /* the file being streamed: next offset, bytes */
	uint8_t *device, *host;	    /* async: the copy's source and destination */
	size_t copy_len;	    /* async: this job's files' bytes */
	char dir[4096 - SC_CKPT_FILE_NAME_MAX]; /* dir + "/" + name fits a path */
};

/* serialize: torch: each job's tensors, kept from one write cell of a
 * checkpoint group to the next as a trainer holds its state between
 * checkpoints (made and touched once per group, not per checkpoint), and
 * unmapped after the group's last write cell or when the next cell needs
 * another size.  Indexed by job; process-wide, since a rank's cells are
 * prepared and torn down one after another on its main thread. */
struct held_tensors {
	uint8_t *p;
	size_t len;
};
static struct held_tensors *held;
static uint32_t nheld;

/* Job job's held tensors of len bytes, taken (NULL: none of that size;
 * any others are unmapped). */
static uint8_t *take_held(uint32_t job, size_t len)
{
	uint8_t *p;

	if (job >= nheld || !held[job].p)
		return NULL;
	p = held[job].p;
	held[job].p = NULL;
	if (held[job].len == len)
		return p;
	munmap(p, held[job].len);
	return NULL;
}

/* Keeps job job's tensors for the group's next write cell; false when it
 * cannot (the caller unmaps them). */
static bool keep_held(uint32_t job, uint8_t *p, size_t len)
{
	if (job >= nheld) {
		struct held_tensors *n = realloc(held, (job + 1) * sizeof(*held));

		if (!n)
			return false;
		memset(n + nheld, 0, (job + 1 - nheld) * sizeof(*n));
		held = n;
		nheld = job + 1;
	}
	if (held[job].p)
		munmap(held[job].p, held[job].len);
	held[job].p = p;
	held[job].len = len;
	return true;
}

static void ckpt_free(void *p)
{
	struct ckpt_job *c = p;

	if (c) {
		free(c->files);
		free(c->zip);
		if (c->tensor && c->tensor != c->host &&
		    !(c->hold && keep_held(c->job, c->tensor, c->tensor_len)))
			munmap(c->tensor, c->tensor_len);
		if (c->device)
			munmap(c->device, c->copy_len);
		if (c->host)
			munmap(c->host, c->copy_len);
		if (c->dirfd >= 0)
			close(c->dirfd);
		if (c->old_dirfd >= 0)
			close(c->old_dirfd);
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

/* Anonymous memory of len bytes, every page made now (written with byte:
 * a written page is a page of its own, never the shared zero page),
 * outside the timed window.  NULL when it cannot be had.  The
 * accelerator's memory of async holds zeros, as DLIO's tensors do, so a
 * torch container drained from the host copy is torch.save's. */
static uint8_t *made_pages(size_t len, int byte)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, byte, len);
	return p;
}

/* serialize: torch: a restore reads whole containers (each file's bytes
 * become the container's); a write gets its container and, unless the
 * host copy of async holds them, the memory of its files' tensors.  0, or
 * -errno with a message in err. */
static int torch_setup(struct ckpt_job *c, bool torch, bool async, char *err, size_t errlen)
{
	uint64_t len = 0;

	c->torch = torch;
	if (!torch)
		return 0;
	if (c->restore) {
		for (uint32_t i = 0; i < c->nfiles; i++)
			c->files[i].bytes = sc_tzip_file_bytes(c->files[i].bytes);
		return 0;
	}
	c->zip = malloc(sizeof(*c->zip));
	if (!c->zip)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->nfiles; i++)
		len += c->files[i].bytes;
	if (!len || async) /* async: the host copy holds them */
		return 0;
	c->tensor = len <= SIZE_MAX ? take_held(c->job, (size_t)len) : NULL;
	if (!c->tensor && len <= SIZE_MAX)
		c->tensor = made_pages((size_t)len, 0);
	if (!c->tensor) {
		snprintf(err, errlen,
			 "serialize: torch: cannot hold the job's %llu B of tensors in memory",
			 (unsigned long long)len);
		return -ENOMEM;
	}
	c->tensor_len = (size_t)len;
	return 0;
}

/* keep_last K: a write of checkpoint k deletes checkpoint k - K, whose
 * directory is opened here, outside the timed window. */
static int old_setup(struct job *j, struct ckpt_job *c, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_ckpt_spec *ck = &run->plan->phases[run->phase].ckpt;
	int rc;

	if (ck->restore || !ck->keep_last || ck->index <= ck->keep_last || c->dirfd < 0)
		return 0;
	rc = sc_layout_ckpt_step_subdir(run->plan, run->phase, ck->index - ck->keep_last,
					c->old_sub, sizeof(c->old_sub));
	if (!rc)
		rc = sc_rundir_subdir(run->dirfd, c->old_sub, false, CKPT_DIR_MODE);
	if (rc < 0) {
		snprintf(err, errlen, "%s: cannot open checkpoint %u to delete it (keep_last %u): %s",
			 c->old_sub, ck->index - ck->keep_last, ck->keep_last,
			 sc_rundir_strerror(rc));
		return rc;
	}
	c->old_dirfd = rc;
	return 0;
}

/* async: the job's two copies of its files' bytes, the accelerator's and
 * the host's.  0, or -ENOMEM with a message in err. */
static int async_setup(struct ckpt_job *c, char *err, size_t errlen)
{
	uint64_t len = 0;

	for (uint32_t i = 0; i < c->nfiles; i++)
		len += c->files[i].bytes;
	if (!len)
		return 0;
	if (len > SIZE_MAX) {
		snprintf(err, errlen, "async: %llu B do not fit in memory",
			 (unsigned long long)len);
		return -ENOMEM;
	}
	c->device = made_pages((size_t)len, 0);
	c->host = c->device ? made_pages((size_t)len, 0) : NULL;
	c->copy_len = (size_t)len;
	if (!c->host) {
		snprintf(err, errlen, "async: cannot hold the checkpoint's %llu B twice in memory",
			 (unsigned long long)len);
		return -ENOMEM;
	}
	return 0;
}

/* posix_fadvise(DONTNEED) on each file rank wrote in write cell p of
 * the run (directory dirfd).  Returns how many it dropped. */
static uint64_t drop_cell_files(const struct sc_run *run, uint32_t p, uint32_t rank)
{
	struct sc_ckpt_file *f = NULL;
	uint32_t n = 0;
	uint64_t dropped = 0;
	char sub[256];
	int dfd;

	if (sc_layout_ckpt_subdir(run->plan, p, sub, sizeof(sub)))
		return 0;
	dfd = sc_rundir_subdir(run->dirfd, sub, false, 0);
	if (dfd < 0)
		return 0;
	if (!sc_layout_ckpt_files(run->plan, p, rank, &f, &n)) {
		for (uint32_t i = 0; i < n; i++) {
			int fd = sc_rundir_openat(dfd, f[i].name, O_RDONLY, SC_RUNDIR_OLD);

			if (fd < 0)
				continue;
			if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0)
				dropped++;
			close(fd);
		}
		free(f);
	}
	close(dfd);
	return dropped;
}

/* procedure: mlperf, before the group's first restore: the page cache of
 * every file this rank wrote in the group's write cells, then the node's
 * (where this process may write DROP_CACHES_PATH).  Sets j->cache_drop
 * (SC_CACHE_DROP_* bits) and j->cache_drop_files. */
static void drop_page_cache(struct job *j)
{
	const struct sc_run *run = j->run;
	const struct sc_plan *plan = run->plan;
	uint32_t group = plan->phases[run->phase].config_index;
	int fd;

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *w = &plan->phases[p];

		if (w->workload == SC_WORKLOAD_CHECKPOINT && !w->ckpt.restore &&
		    w->config_index == group)
			j->cache_drop_files += drop_cell_files(run, p, run->place.rank);
	}
	if (j->cache_drop_files)
		j->cache_drop |= SC_CACHE_DROP_FADVISE;
	fd = open(DROP_CACHES_PATH, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "1", 1) == 1)
			j->cache_drop |= SC_CACHE_DROP_PROC;
		close(fd);
	}
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
	c->old_dirfd = -1;
	c->restore = ph->ckpt.restore;
	/* mlperf reads buffered, as DLIO does, after the cache drop */
	c->direct =
	    (ph->ckpt.restore && ph->ckpt.procedure != SC_PROCEDURE_MLPERF) || run->io->direct;
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
	c->job = j->index;
	/* the group's later write cells take the tensors over */
	c->hold = ph->ckpt.index < ph->ckpt.checkpoints;
	rc = torch_setup(c, ph->ckpt.serialize == SC_SERIALIZE_TORCH, ph->ckpt.async, err, errlen);
	if (!rc && ph->ckpt.async && !c->restore)
		rc = async_setup(c, err, errlen);
	if (rc)
		return rc;
	if (c->torch && c->host) { /* the drain writes the host copy */
		c->tensor = c->host;
		c->tensor_len = c->copy_len;
	}
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
	rc = old_setup(j, c, err, errlen);
	if (rc)
		return rc;
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
	if (c->dirfd >= 0 && ph->ckpt.restore && ph->ckpt.index == 1 && j->index == 0 &&
	    ph->ckpt.procedure == SC_PROCEDURE_MLPERF)
		drop_page_cache(j);
	sc_pattern_init(&j->pat, run->io, run->place.rank, j->index);
	rc = sc_job_alloc(j, run->io->iodepth, run->io->bs_bytes);
	if (rc)
		return rc;
	rc = engine_setup(j);
	if (rc) {
		snprintf(err, errlen, "%s engine for %s: %s", j->ops->name, c->dir, strerror(-rc));
		return rc;
	}
	/* a torch write's payload is the byte model's; its container is written too */
	for (uint32_t i = 0; i < c->nfiles; i++)
		run->planned_bytes += c->torch && !c->restore ? sc_tzip_file_bytes(c->files[i].bytes)
							      : c->files[i].bytes;
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
	x->len = (uint32_t)(c->direct ? sc_round_up(len, SC_CKPT_ALIGN) : len);
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
	if (j->fd >= 0 && !c->restore && c->direct && c->size % SC_CKPT_ALIGN && !j->err &&
	    ftruncate(j->fd, (off_t)c->size) != 0)
		sc_job_fail(j, -errno, "trimming %s to %llu B: %s", j->path,
			    (unsigned long long)c->size, strerror(errno));
	if (j->err)
		return j->err;
	return j->errors != failed_before ? -EIO : 0; /* not a whole file */
}

/* One of torch's write(2) calls: len bytes at buf, again after a short
 * write, accounted as one write.  0 or -errno (the job failed). */
static int torch_write(struct job *j, const uint8_t *buf, size_t len)
{
	uint64_t t0 = sc_now_ns(), t1;
	size_t done = 0;
	int rc = 0;

	while (!rc && done < len) {
		ssize_t w = write(j->fd, buf + done, len - done);

		if (w > 0)
			done += (size_t)w;
		else if (w == 0 || errno != EINTR)
			rc = w == 0 ? -EIO : -errno;
	}
	t1 = sc_now_ns();
	if (rc) {
		sc_job_fail(j, rc, "writing %s: %s", j->path, strerror(-rc));
		return rc;
	}
	sc_ioloop_account(j, SC_DIR_WRITE, (uint32_t)len, t1 - t0, t1, j->run->start_ns);
	return 0;
}

/* The file's tensor (bytes, the job's next one), at most TORCH_WRITE_MAX
 * a call: the CRC-32 of each call's bytes, then the call. */
static int torch_payload(struct job *j, uint64_t bytes)
{
	struct ckpt_job *c = j->wl;
	const uint8_t *t = c->tensor + c->tensor_off;
	int rc = 0;

	c->tensor_off += (size_t)bytes;
	while (!rc && bytes && !atomic_load_explicit(&j->run->stop, memory_order_relaxed)) {
		size_t len = bytes < TORCH_WRITE_MAX ? (size_t)bytes : (size_t)TORCH_WRITE_MAX;

		sc_tzip_update(c->zip, t, len);
		rc = torch_write(j, t, len);
		t += len;
		bytes -= len;
	}
	return rc ? rc : bytes ? -ECANCELED : 0;
}

/* File f (open in j->fd) as torch.save writes it, then fsync as
 * configured.  0, -ECANCELED when the phase stopped first, or -errno (the
 * job failed). */
static int torch_file(struct job *j, const struct sc_ckpt_file *f)
{
	struct sc_run *run = j->run;
	struct sc_tzip *z = ((struct ckpt_job *)j->wl)->zip;
	int rc;

	sc_tzip_begin(z, f->bytes);
	rc = torch_write(j, z->head, z->head_len);
	if (!rc)
		rc = torch_payload(j, f->bytes);
	if (!rc && sc_tzip_finish(z) == 0)
		rc = torch_write(j, z->tail, z->tail_len);
	if (rc || !run->plan->phases[run->phase].ckpt.fsync)
		return rc;
	if (fsync(j->fd) != 0) {
		sc_job_fail(j, -errno, "fsync of %s: %s", j->path, strerror(errno));
		return j->err;
	}
	j->fsyncs++;
	return 0;
}

/* keep_last: the job's share of the old checkpoint's files deleted (the
 * same names as the ones it just wrote), timed, then its directory when
 * the rank's other jobs and the node's other ranks have emptied it. */
static void delete_old(struct job *j, struct ckpt_job *c)
{
	uint64_t t0 = sc_now_ns();
	char up[sizeof(c->old_sub) + 3];

	for (uint32_t i = 0; i < c->nfiles && !j->err; i++)
		if (unlinkat(c->old_dirfd, c->files[i].name, 0) != 0)
			sc_job_fail(j, -errno, "deleting %s/%s (keep_last): %s", c->old_sub,
				    c->files[i].name, strerror(errno));
	/* by the new checkpoint's directory's parent, which was opened
	 * component by component, never through a path that could since
	 * have become a symlink */
	snprintf(up, sizeof(up), "../%s", strrchr(c->old_sub, '/') + 1);
	if (!j->err && unlinkat(c->dirfd, up, AT_REMOVEDIR) != 0 && errno != ENOTEMPTY &&
	    errno != EEXIST && errno != ENOENT)
		sc_job_fail(j, -errno, "deleting %s (keep_last): %s", c->old_sub, strerror(errno));
	j->delete_ns = sc_now_ns() - t0;
}

/* async: the job's share of the host copy, then the wait for the rank's
 * other jobs' (their shares make the rank's bytes).  Returns when the
 * rank's copy ended (0 when the phase stopped first). */
static uint64_t host_copy(struct job *j)
{
	struct sc_run *run = j->run;
	struct ckpt_job *c = j->wl;
	uint64_t end = 0;

	if (c->copy_len)
		memcpy(c->host, c->device, c->copy_len);
	j->copied_ns = sc_now_ns();
	j->last_ns = j->copied_ns;
	atomic_fetch_add_explicit(&run->copied, 1, memory_order_release);
	while (atomic_load_explicit(&run->copied, memory_order_acquire) < run->njobs) {
		if (atomic_load_explicit(&run->stop, memory_order_relaxed))
			return 0;
		sc_sleep_until(sc_now_ns() + COPY_WAIT_NS);
	}
	for (uint32_t i = 0; i < run->njobs; i++)
		if (run->jobs[i].copied_ns > end)
			end = run->jobs[i].copied_ns;
	return end;
}

/* async: the training beside the drain goes on until until_ns (or the
 * phase stops). */
static void train_until(struct sc_run *run, uint64_t until_ns)
{
	while (!atomic_load_explicit(&run->stop, memory_order_relaxed) && sc_now_ns() < until_ns) {
		uint64_t step = sc_now_ns() + SC_STOP_POLL_NS;

		sc_sleep_until(step < until_ns ? step : until_ns);
	}
}

void sc_ckpt_job_run(struct job *j)
{
	struct sc_run *run = j->run;
	struct ckpt_job *c = j->wl;
	const struct sc_ckpt_spec *ck = &run->plan->phases[run->phase].ckpt;
	bool files = sc_engine_uses_files(run->io->engine);
	int flags = (c->direct ? O_DIRECT : 0) | (c->restore ? O_RDONLY : O_WRONLY);
	bool async = ck->async && !c->restore;
	uint64_t copied = 0;

	if (async) {
		copied = host_copy(j);
		if (!copied)
			return;
	}

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
		if ((c->torch && !c->restore ? torch_file(j, f) : stream_file(j, f)) == 0)
			j->files++;
		if (j->fd >= 0) {
			if (close(j->fd) != 0 && !j->err)
				sc_job_fail(j, -errno, "closing %s: %s", j->path, strerror(errno));
			j->fd = -1;
		}
		j->last_ns = sc_now_ns();
	}
	if (c->old_dirfd >= 0 && !j->err &&
	    !atomic_load_explicit(&run->stop, memory_order_relaxed))
		delete_old(j, c);
	if (async)
		train_until(run, copied + ck->compute_after_ns);
}
