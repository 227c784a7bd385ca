/* training.c -- MLPerf Storage training as DLIO runs it: this rank runs
 * accelerators_per_rank emulated accelerators (plan.h struct
 * sc_training_spec, worker/mlperf.h), one in DLIO's terms a process.
 *
 * One rank, one phase:
 *  - Accelerators: the rank's a-th is accelerator g = rank x per_rank + a
 *    of the run; its readers are jobs a x jobs .. (a + 1) x jobs - 1 (the
 *    rank runs io.jobs x per_rank job threads), the first of them owns it.
 *  - Dataset: files x samples_per_file samples across the cluster;
 *    accelerator g reads its block of them (sc_mlperf_block), so its node
 *    holds the files of its accelerators' blocks, in
 *    sc_layout_training_dir().  File f is sc_mlperf_file_bytes(f) bytes
 *    (DLIO's sizes); in setup (untimed) job 0 writes the files of the
 *    rank's blocks that are missing or of another size.
 *  - Readers (io.jobs of them an accelerator, DLIO's read_threads
 *    DataLoader workers): reader w reads batches w, w + jobs, w + 2 jobs,
 *    ... of each epoch, a sample at a time (one file open at a time; the
 *    sample's bytes in reads of at most transfer_bytes, iodepth of them in
 *    flight), and may run ahead of the consumer by per_reader batches of
 *    its own (DataLoader's prefetch_factor = ceil(prefetch_size / jobs), 2
 *    when prefetch_size is 0).
 *    A new epoch's batches start only once the consumer starts the epoch
 *    (DLIO's loader is made anew each epoch).
 *  - Consumer: one more thread an accelerator, started by its owner.  Per
 *    epoch it shuffles the block with (seed, epoch); step k waits until
 *    batch k is read, sleeps computation_ns, then waits at the step
 *    barrier (DLIO's comm.barrier()): first for the rank's other
 *    accelerators, then the last of them to arrive takes the rank to the
 *    barrier of all ranks (sc_run_step_gate).  Every accelerator ends its
 *    steps when any has ended its.
 *  - AU (statscounter.py): per epoch, compute over wall time, the epoch's
 *    first step's load and compute left out of both; barrier waits stay
 *    in the wall time.  The sums over epochs are the owner's figures, a
 *    row of the rank's result (struct sc_accel_row).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "dataset.h"
#include "ioloop.h"
#include "job_priv.h"
#include "layout.h"
#include "mlperf.h"
#include "pattern.h"
#include "rundir.h"
#include "step_sync.h"

#define CACHELINE 64
/* Room for "file_<uint64>.<format>". */
#define TRAIN_NAME_MAX 48
/* Most samples one accelerator reads an epoch: their order is in memory,
 * 8 B each (2 GiB). */
#define TRAIN_ORDER_MAX (UINT64_C(1) << 28)
/* Seed of the dataset's fill (the data itself is never checked). */
#define TRAIN_DATASET_SEED 0x7a1e5eedull

struct train_group;

/* What one accelerator's readers and its consumer share. */
struct train_accel {
	_Alignas(CACHELINE) _Atomic uint64_t epoch; /* 1 + the epoch being consumed;
						     * 0: none started yet */
	_Alignas(CACHELINE) _Atomic uint64_t taken; /* batches of the current epoch
						     * the consumer has taken */
	/* batch_cond: a batch is read, or a reader left; room_cond: a step
	 * ended, an epoch began, or quit (the accelerator's steps ended) */
	_Alignas(CACHELINE) struct sc_step_sync sync;
	_Atomic uint8_t *batch_read; /* per batch of the epoch: 1 once read */
	_Atomic uint32_t readers;    /* reader threads still running */
	uint64_t *order;	     /* the epoch's samples, in the order read */
	uint64_t first, count;	     /* this accelerator's block of samples */
	uint64_t steps;		     /* per epoch */
	uint32_t epochs, batch, njobs, per_reader, spf;
	uint64_t record_bytes, stdev_bytes, seed, transfer;
	int direct;
	uint32_t index;		     /* the accelerator's in the run */
	struct train_group *group;
	pthread_t consumer;
	uint64_t consumer_end_ns;
	/* written by the consumer, read after join: AU's sums over epochs,
	 * and its time at the step barrier */
	uint64_t au_steps, au_compute_ns, au_wall_ns, barrier_wait_ns;
};

/* The rank's accelerators and their step barrier (owned by job 0). */
struct train_group {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a round was answered, or the steps are over */
	int sync_ready;
	uint32_t naccels;	/* accelerators_per_rank */
	uint32_t readers;	/* io.jobs: readers an accelerator */
	uint32_t arrived;	/* consumers at the barrier of this round */
	uint64_t round;		/* rounds answered */
	bool answer;		/* the latest round's: every rank goes on */
	bool over;		/* some consumer ended its steps: every one ends */
	struct train_accel **accels;
	int dirfd;
	char dir[4000];
};

/* One reader's place: its batch, the sample in it, the sample's reads. */
struct train_job {
	struct train_accel *rank;	/* the accelerator it reads for */
	struct train_group *group;	/* job 0's: it frees it */
	uint32_t reader;		/* w: its index among the accelerator's readers */
	uint64_t epoch;	       /* 1 + the epoch of batch; 0: none yet */
	uint64_t batch;	       /* its current batch in that epoch */
	uint32_t in_batch;     /* the sample of the batch being read */
	int have_sample;       /* a sample is open in j->fd */
	uint64_t file;	       /* its file */
	uint64_t off, end;     /* its bytes in the file: [off, end) */
	uint64_t next_off;     /* the next read's start */
	uint64_t file_bytes;   /* its file's size */
	uint32_t issued, done; /* the sample's reads */
	uint64_t seen_seq;     /* room_seq when it last looked for work */
};

static void accel_free(struct train_accel *r)
{
	if (!r)
		return;
	sc_step_sync_exit(&r->sync);
	free((void *)r->batch_read);
	free(r->order);
	free(r);
}

static void train_free(void *p)
{
	struct train_job *tj = p;
	struct train_group *g;

	if (!tj)
		return;
	g = tj->group;
	if (g) {
		for (uint32_t a = 0; g->accels && a < g->naccels; a++)
			accel_free(g->accels[a]);
		free(g->accels);
		if (g->dirfd >= 0)
			close(g->dirfd);
		if (g->sync_ready) {
			pthread_mutex_destroy(&g->lock);
			pthread_cond_destroy(&g->cond);
		}
		free(g);
	}
	free(tj);
}

static const char *format_of(const struct sc_training_spec *t)
{
	const struct sc_mlperf_workload *w = sc_mlperf_find(t->benchmark, t->accelerator);

	return w ? w->format : "dat";
}

static void file_name(const struct sc_run *run, uint64_t f, char *name)
{
	snprintf(name, TRAIN_NAME_MAX, "file_%llu.%s", (unsigned long long)f,
		 format_of(&run->plan->phases[run->phase].training));
}

static uint64_t file_bytes(const struct train_accel *r, uint64_t f)
{
	return sc_mlperf_file_bytes(r->record_bytes, r->stdev_bytes, r->spf, r->seed, f);
}

/* Writes the files of accelerator r's block that are missing or of
 * another size; the others are reused untouched. */
static int dataset_prepare(struct job *j, struct train_accel *r, char *err, size_t errlen)
{
	const struct sc_run *run = j->run;
	struct train_group *g = r->group;
	char name[TRAIN_NAME_MAX], path[4200];
	uint64_t f0, f1;
	char *buf = NULL;
	int rc = 0;

	if (!r->count)
		return 0;
	f0 = r->first / r->spf;
	f1 = (r->first + r->count - 1) / r->spf;
	for (uint64_t f = f0; f <= f1; f++) {
		uint64_t bytes = file_bytes(r, f);
		struct stat st;

		file_name(run, f, name);
		snprintf(path, sizeof(path), "%s/%s", g->dir, name);
		if (fstatat(g->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size == bytes)
			continue;
		if (!buf) {
			if (posix_memalign((void **)&buf, BUF_ALIGN, LAYOUT_CHUNK)) {
				rc = -ENOMEM;
				break;
			}
			sc_pattern_fill(buf, LAYOUT_CHUNK, run->io->seed ^ TRAIN_DATASET_SEED);
		}
		rc = sc_dataset_write(g->dirfd, name, path, f << 24, bytes, buf, err, errlen);
		if (rc)
			break;
	}
	free(buf);
	return rc;
}

/* Accelerator a of the rank: its block, its order and its batches. */
static int accel_create(struct job *j, struct train_group *g, uint32_t a, char *err,
			size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_phase *ph = &run->plan->phases[run->phase];
	const struct sc_training_spec *t = &ph->training;
	struct train_accel *r;

	r = aligned_alloc(CACHELINE, sc_round_up(sizeof(*r), CACHELINE));
	if (!r)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	g->accels[a] = r;
	r->group = g;
	sc_step_sync_init(&r->sync);
	r->njobs = g->readers;
	/* DLIO: prefetch_factor = ceil(prefetch_size / read_threads), 2 for 0 */
	r->per_reader = t->prefetch_size ? (t->prefetch_size + g->readers - 1) / g->readers : 2;
	r->batch = t->batch;
	r->epochs = t->epochs;
	r->spf = t->samples_per_file;
	r->record_bytes = t->record_bytes;
	r->stdev_bytes = t->record_stdev_bytes;
	r->seed = run->io->seed;
	r->transfer = t->transfer_bytes;
	r->direct = run->io->direct;
	r->index = run->place.rank * g->naccels + a;
	sc_mlperf_block(t->files, t->samples_per_file, t->accelerators, r->index, &r->first,
			&r->count);
	r->steps =
	    sc_mlperf_steps_per_epoch(t->files, t->samples_per_file, t->batch, t->accelerators);
	atomic_init(&r->readers, g->readers);
	if (r->count > TRAIN_ORDER_MAX) {
		snprintf(err, errlen,
			 "phase %s: accelerator %u reads %llu samples an epoch, more than the "
			 "%llu whose order a rank keeps in memory (use fewer files or samples "
			 "per file, or more accelerators)",
			 ph->name, r->index, (unsigned long long)r->count,
			 (unsigned long long)TRAIN_ORDER_MAX);
		return -E2BIG;
	}
	r->order = malloc((r->count ? r->count : 1) * sizeof(*r->order));
	r->batch_read = calloc(r->steps ? r->steps : 1, sizeof(*r->batch_read));
	if (!r->order || !r->batch_read)
		return -ENOMEM;
	{
		/* the mean of DLIO's sizes: the shuffle picks the samples */
		unsigned __int128 bytes =
		    (unsigned __int128)r->steps * r->batch * r->epochs *
		    (sc_mlperf_mean_file_bytes(r->record_bytes, r->stdev_bytes, r->spf) / r->spf);

		bytes += run->planned_bytes;
		run->planned_bytes = bytes > UINT64_MAX ? UINT64_MAX : (uint64_t)bytes;
	}
	if (!sc_engine_uses_files(run->io->engine))
		return 0; /* measures the tool alone: no dataset */
	return dataset_prepare(j, r, err, errlen);
}

/* Job 0: the rank's accelerators, their barrier and their share of the
 * dataset. */
static int group_create(struct job *j, struct train_group **out, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_phase *ph = &run->plan->phases[run->phase];
	const struct sc_training_spec *t = &ph->training;
	const struct sc_target_spec *tg = &run->plan->targets[run->place.target];
	struct train_group *g;
	pthread_condattr_t ca;
	char sub[512];
	int rc;

	if (tg->kind != SC_TARGET_DIR) {
		snprintf(err, errlen, "%s: training needs a directory target, not a %s", tg->path,
			 sc_target_kind_name(tg->kind));
		return -EINVAL;
	}
	if (!t->files || !t->samples_per_file || !t->record_bytes || !t->batch || !t->epochs ||
	    !t->transfer_bytes || !t->accelerators || t->transfer_bytes > SC_GIB ||
	    !run->io->jobs || run->njobs != run->io->jobs * sc_training_per_rank(t)) {
		snprintf(err, errlen,
			 "phase %s: training needs files, samples_per_file, record_size, batch, "
			 "epochs, jobs and accelerators >= 1 and 1 B <= transfer_size <= 1 GiB",
			 ph->name);
		return -EINVAL;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	*out = g;
	g->dirfd = -1;
	g->naccels = sc_training_per_rank(t);
	g->readers = run->io->jobs;
	rc = sc_layout_training_dir(run->plan, run->place.target, run->phase, g->dir,
				    sizeof(g->dir));
	if (rc) {
		snprintf(err, errlen, "%s: training dataset directory name too long", tg->path);
		return rc;
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	g->sync_ready = 1;
	g->accels = calloc(g->naccels, sizeof(*g->accels));
	if (!g->accels)
		return -ENOMEM;
	run->gate.on = true; /* DLIO's comm.barrier() after every step */
	run->host_memory_bytes = sc_mlperf_host_memory_bytes();
	run->planned_bytes = 0;
	if (sc_engine_uses_files(run->io->engine)) {
		if (sc_layout_training_subdir(run->plan, run->phase, sub, sizeof(sub)))
			return -ENAMETOOLONG;
		g->dirfd = sc_dataset_open_dir(tg->path, sub);
		if (g->dirfd < 0) {
			snprintf(err, errlen, "%s: cannot create the dataset directory: %s",
				 g->dir, strerror(-g->dirfd));
			return g->dirfd;
		}
	}
	for (uint32_t a = 0; a < g->naccels; a++) {
		rc = accel_create(j, g, a, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int sc_training_job_setup(struct job *j, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	struct train_job *tj;
	struct train_group *g;
	struct sc_engine_conf conf;
	uint64_t buf_bytes;
	int rc;

	tj = calloc(1, sizeof(*tj));
	if (!tj)
		return -ENOMEM;
	j->wl = tj;
	j->wl_free = train_free;
	if (j->index == 0) {
		rc = group_create(j, &tj->group, err, errlen);
		if (rc)
			return rc;
		g = tj->group;
	} else {
		g = ((struct train_job *)run->jobs[0].wl)->group;
	}
	j->accel = j->index / g->readers;
	j->accel_owner = j->index % g->readers == 0;
	tj->reader = j->index % g->readers;
	tj->rank = g->accels[j->accel];
	snprintf(j->path, sizeof(j->path), "%s", g->dir);
	sc_pattern_init(&j->pat, io, run->place.rank, j->index);
	/* O_DIRECT reads whole aligned blocks: a read's buffer is the transfer
	 * rounded up, and the last read of a sample may run past its end */
	buf_bytes = sc_round_up(tj->rank->transfer, BUF_ALIGN);
	rc = sc_job_alloc(j, io->iodepth, buf_bytes);
	if (rc)
		return rc;
	j->fd = -1;
	sc_job_engine_init(j);
	conf = (struct sc_engine_conf){.depth = io->iodepth,
				       .fds = &j->fd,
				       .nfds = 1,
				       .bufs = j->iov,
				       .nbufs = io->iodepth,
				       .fds_change = true};
	rc = sc_job_engine_create(j, &conf);
	if (rc) {
		snprintf(err, errlen, "%s engine for the dataset in %s: %s", j->ops->name, g->dir,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

/* Reader w's next batch after `batch` (none yet: UINT64_MAX) in epoch e,
 * when it may start now: 1, with *next; 0 when it must wait for the
 * consumer; -1 when the reader is done with epoch e. */
static int next_batch(const struct train_accel *r, uint32_t w, uint64_t batch, uint64_t *next)
{
	uint64_t b = batch == UINT64_MAX ? w : batch + r->njobs;
	uint64_t taken = atomic_load_explicit(&r->taken, memory_order_acquire);

	if (b >= r->steps)
		return -1;
	/* as a DataLoader worker: at most per_reader of its batches read or
	 * being read and not yet taken by the consumer (reader w's batches
	 * are w, w + njobs, ...) */
	if (b >= taken + (uint64_t)r->njobs * r->per_reader)
		return 0;
	*next = b;
	return 1;
}

/* Opens sample tj->in_batch of tj->batch into j->fd.  0 or -errno (the
 * job has failed). */
static int open_sample(struct job *j, struct train_job *tj)
{
	struct train_accel *r = tj->rank;
	uint64_t s = r->order[tj->batch * r->batch + tj->in_batch];
	char name[TRAIN_NAME_MAX], path[4200];
	uint64_t share;

	tj->file = s / r->spf;
	tj->file_bytes = file_bytes(r, tj->file);
	share = tj->file_bytes / r->spf;
	tj->off = (s % r->spf) * share;
	tj->end = tj->off + share;
	tj->next_off = tj->off;
	tj->issued = tj->done = 0;
	tj->have_sample = 1;
	if (!sc_engine_uses_files(j->run->io->engine))
		return 0;
	file_name(j->run, tj->file, name);
	j->fd = sc_rundir_openat(r->group->dirfd, name, O_RDONLY | (r->direct ? O_DIRECT : 0),
				 SC_RUNDIR_ANY);
	if (j->fd < 0) {
		int rc = j->fd;

		j->fd = -1;
		snprintf(path, sizeof(path), "%s/%s", r->group->dir, name);
		sc_job_fail(j, rc, "%s: cannot open dataset file%s: %s", path,
			    r->direct ? " with O_DIRECT" : "", sc_rundir_strerror(rc));
		tj->have_sample = 0;
		return rc;
	}
	return 0;
}

static void close_sample(struct job *j, struct train_job *tj)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	tj->have_sample = 0;
}

/* Moves reader j on once its sample is read: the next sample of the batch,
 * or (the batch read: the consumer hears of it) the reader's next batch
 * when it may start.  True when a sample is open to read. */
static bool advance(struct job *j, struct train_job *tj)
{
	struct train_accel *r = tj->rank;
	uint64_t e, b;

	if (tj->have_sample) {
		if (tj->done < tj->issued || tj->next_off < tj->end)
			return true; /* still reading it */
		close_sample(j, tj);
		j->samples++;
		if (++tj->in_batch < r->batch)
			return open_sample(j, tj) == 0;
		atomic_store_explicit(&r->batch_read[tj->batch], 1, memory_order_release);
		sc_step_sync_wake(&r->sync, &r->sync.batch_cond);
		tj->in_batch = 0;
	}
	e = atomic_load_explicit(&r->epoch, memory_order_acquire);
	if (tj->epoch != e) { /* the consumer began an epoch: its batches */
		tj->epoch = e;
		tj->batch = UINT64_MAX;
	}
	if (!e || next_batch(r, tj->reader, tj->batch, &b) != 1)
		return false;
	tj->batch = b;
	return open_sample(j, tj) == 0;
}

/* Reads of the open sample that may start now. */
static uint32_t train_claim(struct job *j, uint32_t nfree)
{
	struct train_job *tj = j->wl;
	uint64_t left, n;

	tj->seen_seq = atomic_load_explicit(&tj->rank->sync.room_seq, memory_order_relaxed);
	if (sc_step_sync_over(&tj->rank->sync, j->run, 0) || j->err || !advance(j, tj))
		return 0;
	left = tj->next_off < tj->end
		   ? (tj->end - tj->next_off + tj->rank->transfer - 1) / tj->rank->transfer
		   : 0;
	n = left < nfree ? left : nfree;
	return (uint32_t)n;
}

/* The next read of the sample: at most transfer bytes; with O_DIRECT its
 * aligned span, which may run past the file's end (the sample never does). */
static int train_next(struct job *j, struct sc_io *x)
{
	struct train_job *tj = j->wl;
	struct train_accel *r = tj->rank;
	uint64_t want = tj->end - tj->next_off < r->transfer ? tj->end - tj->next_off : r->transfer;

	x->op = SC_OP_READ;
	x->file = 0;
	if (r->direct) {
		uint64_t start = tj->next_off / BUF_ALIGN * BUF_ALIGN;
		uint64_t stop = sc_round_up(tj->next_off + want, BUF_ALIGN);

		if (stop - start > sc_round_up(r->transfer, BUF_ALIGN)) {
			/* an unaligned start: read up to the buffer's end */
			stop = start + sc_round_up(r->transfer, BUF_ALIGN);
			want = stop - tj->next_off;
		}
		x->offset = start;
		x->len = (uint32_t)(stop - start);
		tj->next_off += want;
		tj->issued++;
		/* bytes it must move: up to the sample's last byte it holds */
		return (int)(tj->next_off - start);
	}
	x->offset = tj->next_off;
	x->len = (uint32_t)want;
	tj->next_off += want;
	tj->issued++;
	return (int)want;
}

static void train_reaped(struct job *j, uint32_t ok, uint32_t failed)
{
	struct train_job *tj = j->wl;

	tj->done += ok + failed;
}

/* Nothing in flight: ends once the reader has read its last batch of the
 * last epoch or the rank quit; else sleeps until the consumer makes room
 * (unless it did since the reader last looked). */
static bool train_idle(struct job *j)
{
	struct train_job *tj = j->wl;
	struct train_accel *r = tj->rank;
	uint64_t b;

	if (j->err || sc_step_sync_over(&r->sync, j->run, 0))
		return true;
	if (!tj->have_sample && tj->epoch == r->epochs &&
	    next_batch(r, tj->reader, tj->batch, &b) < 0)
		return true;
	pthread_mutex_lock(&r->sync.lock);
	if (!sc_step_sync_over(&r->sync, j->run, 0) &&
	    atomic_load_explicit(&r->sync.room_seq, memory_order_relaxed) == tj->seen_seq)
		sc_step_sync_nap(&r->sync.room_cond, &r->sync.lock, 0);
	pthread_mutex_unlock(&r->sync.lock);
	return false;
}

static void train_path(const struct job *j, const struct sc_io *x, char *buf, size_t cap)
{
	const struct train_job *tj = j->wl;
	char name[TRAIN_NAME_MAX];

	(void)x;
	file_name(j->run, tj->file, name);
	snprintf(buf, cap, "%s/%s", tj->rank->group->dir, name);
}

static const struct sc_ioloop_ops train_ops = {
    .next = train_next,
    .claim = train_claim,
    .reaped = train_reaped,
    .idle = train_idle,
    .path = train_path,
};

/* Waits until batch k of the epoch is read: 1, or 0 when the phase ends
 * first (stop, a failed reader, no reader left). */
static int wait_batch(struct train_accel *r, struct sc_run *run, uint64_t k)
{
	int ok;

	if (atomic_load_explicit(&r->batch_read[k], memory_order_acquire))
		return 1;
	pthread_mutex_lock(&r->sync.lock);
	for (;;) {
		if (atomic_load_explicit(&r->batch_read[k], memory_order_acquire)) {
			ok = 1;
			break;
		}
		if (sc_step_sync_over(&r->sync, run, 0) || atomic_load(&r->readers) == 0) {
			ok = 0;
			break;
		}
		sc_step_sync_nap(&r->sync.batch_cond, &r->sync.lock, 0);
	}
	pthread_mutex_unlock(&r->sync.lock);
	return ok;
}

/* Begins epoch e (0-based): its order, no batch read, no step done. */
static void begin_epoch(struct train_accel *r, uint32_t e)
{
	for (uint64_t i = 0; i < r->count; i++)
		r->order[i] = r->first + i;
	sc_mlperf_shuffle(r->order, r->count, r->seed, e);
	for (uint64_t k = 0; k < r->steps; k++)
		atomic_store_explicit(&r->batch_read[k], 0, memory_order_relaxed);
	atomic_store_explicit(&r->taken, 0, memory_order_relaxed);
	atomic_store_explicit(&r->epoch, (uint64_t)e + 1, memory_order_release);
	sc_step_sync_wake(&r->sync, &r->sync.room_cond);
}

/* The step barrier of accelerator r after a step: once every accelerator
 * of the rank has come, the last one takes the rank to the barrier of all
 * ranks and brings back the answer.  True when every accelerator goes on;
 * false ends r's steps. */
static bool group_step(struct train_accel *r, struct sc_run *run)
{
	struct train_group *g = r->group;
	uint64_t t0 = sc_now_ns(), round;
	bool answer;

	if (g->naccels == 1) {
		answer = sc_run_step_gate(run, true) > 0;
		r->barrier_wait_ns += sc_now_ns() - t0;
		return answer;
	}
	pthread_mutex_lock(&g->lock);
	round = g->round;
	if (g->over) {
		answer = false;
	} else if (++g->arrived == g->naccels) {
		pthread_mutex_unlock(&g->lock);
		answer = sc_run_step_gate(run, true) > 0;
		pthread_mutex_lock(&g->lock);
		g->arrived = 0;
		g->answer = answer;
		g->over |= !answer;
		g->round++;
		pthread_cond_broadcast(&g->cond);
	} else {
		while (g->round == round && !g->over &&
		       !atomic_load_explicit(&run->stop, memory_order_relaxed))
			sc_step_sync_nap(&g->cond, &g->lock, 0);
		answer = g->round != round && g->answer;
	}
	pthread_mutex_unlock(&g->lock);
	r->barrier_wait_ns += sc_now_ns() - t0;
	return answer;
}

/* Accelerator r ended its steps (epochs done, an error, a stop): the rank
 * answers every further round "not going", and its other accelerators end
 * theirs at their next barrier. */
static void group_leave(struct train_group *g, struct sc_run *run)
{
	/* ended without a last round that said so: this rank answers every
	 * further round with "not going" */
	sc_run_step_gate_leave(run);
	pthread_mutex_lock(&g->lock);
	g->over = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/* An accelerator's consumer: steps, their compute and the barrier; its
 * owner's figures. */
static void *consume(void *arg)
{
	struct job *j = arg;
	struct sc_run *run = j->run;
	struct train_accel *r = ((struct train_job *)j->wl)->rank;
	uint64_t compute_ns = run->plan->phases[run->phase].training.computation_ns;
	bool going = r->steps > 0;

	for (uint32_t e = 0; going && e < r->epochs; e++) {
		uint64_t epoch_start = sc_now_ns(), first_proc = 0, compute = 0;

		begin_epoch(r, e);
		for (uint64_t k = 0; going && k < r->steps; k++) {
			uint64_t t0 = sc_now_ns(), t1, t2;

			if (sc_step_sync_over(&r->sync, run, 0) || !wait_batch(r, run, k)) {
				going = false;
				break;
			}
			t1 = sc_now_ns();
			/* taken: its reader may start its next batch */
			atomic_store_explicit(&r->taken, k + 1, memory_order_release);
			sc_step_sync_wake(&r->sync, &r->sync.room_cond);
			sc_hist_record(j->hist[SC_HK_BATCH_WAIT], t1 - t0);
			if (compute_ns)
				sc_sleep_until(t1 + compute_ns);
			t2 = sc_now_ns();
			j->compute_ns += t2 - t1;
			j->steps++;
			j->busy_end_ns = t2;
			if (k == 0)
				first_proc = t2 - t0;
			else
				compute += t2 - t1;
			going = group_step(r, run);
		}
		if (r->steps > 1) {
			uint64_t wall = sc_now_ns() - epoch_start;

			r->au_steps += r->steps - 1;
			r->au_compute_ns += compute;
			r->au_wall_ns += wall > first_proc ? wall - first_proc : 0;
		}
	}
	group_leave(r->group, run);
	r->consumer_end_ns = sc_now_ns();
	sc_step_sync_quit(&r->sync);
	return NULL;
}

void sc_training_job_run(struct job *j)
{
	struct sc_run *run = j->run;
	struct train_job *tj = j->wl;
	struct train_accel *r = tj->rank;
	struct sc_ioloop lp = {.measure_start_ns = run->start_ns, .budget_bytes = UINT64_MAX};
	int consumer = 0;

	if (j->accel_owner) {
		int rc = pthread_create(&r->consumer, NULL, consume, j);

		if (rc) {
			sc_job_fail(j, -rc, "cannot start the training consumer thread: %s",
				    strerror(rc));
			group_leave(r->group, run);
			sc_step_sync_quit(&r->sync);
		} else {
			consumer = 1;
		}
	}
	sc_ioloop_run(j, &train_ops, &lp);
	if (tj->have_sample)
		close_sample(j, tj);
	if (j->err)
		sc_step_sync_quit(&r->sync); /* a batch will never be read: end the accelerator's steps */
	atomic_fetch_sub(&r->readers, 1);
	sc_step_sync_wake(&r->sync, &r->sync.batch_cond);
	if (consumer) {
		pthread_join(r->consumer, NULL);
		if (r->consumer_end_ns > j->last_ns)
			j->last_ns = r->consumer_end_ns;
		j->au_steps = r->au_steps;
		j->au_compute_ns = r->au_compute_ns;
		j->au_wall_ns = r->au_wall_ns;
		j->barrier_wait_ns = r->barrier_wait_ns;
	}
}
