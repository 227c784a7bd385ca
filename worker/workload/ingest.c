/* ingest.c -- training-data ingestion as MLPerf Storage / DLIO emulates it:
 * reader threads fetch random samples of a dataset that outlives the run, and
 * a consumer takes them batch by batch, "computing" on each for a fixed time.
 *
 * One rank, one phase:
 *  - Dataset: `files` files of file_bytes per node and target, in
 *    sc_layout_ingest_dir().  In setup (untimed) job 0 of the rank in slot s
 *    writes the files i with i % nslots == s that are missing or of the wrong
 *    size; the others are reused.  Every job opens every file (its own fds,
 *    registered with its own engine).
 *  - Readers: each of the io.jobs job threads keeps its engine iodepth deep
 *    with reads of random samples (uniform file, uniform sample in it).
 *    Samples are tickets taken from one rank-wide counter, so in epochs mode
 *    the rank reads exactly steps x batch samples.
 *  - Consumer: one more thread, started by job 0 at the common start and
 *    joined before job 0 returns; its figures (steps, compute, batch waits,
 *    end of the last compute) are job 0's.  Step k waits until (k + 1) x batch
 *    samples have been read, then sleeps compute_per_batch_ns.
 *  - Prefetch bound: a reader may take ticket t only while
 *    t < (steps done + 1 + prefetch) x batch, i.e. the batch the consumer
 *    waits for or computes on plus `prefetch` batches ahead of it; prefetch 0
 *    is read-then-compute with no overlap.
 *  - End: epochs mode when the last step's compute is done; time mode
 *    (runtime_ns) when the deadline passes: readers stop issuing, and the
 *    consumer finishes a compute it is in but does not start another step
 *    (nor count a step whose batch it was still waiting for); stonewall stop
 *    likewise.  ramp_ns does not apply: every sample and step counts.
 *  - step_barrier (run.h's step gate): after each step the consumer waits
 *    until every rank has done as many steps, as DLIO's comm.barrier();
 *    when one rank ends its steps every rank ends at that round.  The wait
 *    is not compute: the rank's wall time holds it (AU falls to the slowest
 *    rank's, as in DLIO), and its total is the rank's barrier_wait_ns.  In
 *    time mode a rank that was still waiting for its batch at the deadline
 *    ends without that step, so the ranks' steps may differ by one.
 *
 * Hot path (issue, reap) takes no lock: tickets and completions are atomic
 * counters.  Threads that have nothing to do sleep on a condition variable,
 * which is signalled once per batch, not per sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "dataset.h"
#include "ioloop.h"
#include "job_priv.h"
#include "layout.h"
#include "rundir.h"
#include "step_sync.h"

/* Descriptors left for everything else when checking RLIMIT_NOFILE. */
#define NOFILE_SLACK 64u
/* Seed of the dataset's fill (the data itself is never checked). */
#define DATASET_SEED 0xda7a5e7ull
/* Separates counters that different threads write onto their own lines. */
#define CACHELINE 64
/* Room for "file_<uint32>.dat". */
#define DATASET_NAME_MAX 32

/* What the rank's jobs and its consumer share (owned by job 0). */
struct ingest_rank {
	_Alignas(CACHELINE) _Atomic uint64_t claimed;	 /* samples handed to readers */
	_Alignas(CACHELINE) _Atomic uint64_t completed;	 /* samples read successfully */
	_Alignas(CACHELINE) _Atomic uint64_t steps_done; /* batches the consumer finished */
	_Atomic uint32_t readers;			 /* reader threads still running */
	/* batch_cond: completed crossed a batch, or readers left; room_cond:
	 * steps_done grew, or quit (the consumer ended or a reader failed) */
	_Alignas(CACHELINE) struct sc_step_sync sync;
	uint64_t total;		   /* samples to read; UINT64_MAX in time mode */
	uint64_t steps;		   /* steps to consume; 0 in time mode */
	uint64_t batch, prefetch;
	uint64_t sample_bytes, samples_per_file;
	uint32_t nfiles;
	int direct;
	pthread_t consumer;
	uint64_t consumer_end_ns; /* written by the consumer, read after join */
	int dirfd;		  /* the dataset directory, -1: not open */
	char dir[4000];		  /* its path, for messages */
};

/* One job's part. */
struct ingest_job {
	struct ingest_rank *rank; /* job 0's, shared */
	int owns_rank;
	int *fds; /* one per dataset file, -1 when not open */
	uint32_t nfds;
	uint64_t deadline_ns; /* time mode: the phase's end; 0: none */
};

static void ingest_free(void *p)
{
	struct ingest_job *ij = p;

	if (!ij)
		return;
	for (uint32_t i = 0; ij->fds && i < ij->nfds; i++)
		if (ij->fds[i] >= 0)
			close(ij->fds[i]);
	free(ij->fds);
	if (ij->owns_rank && ij->rank) {
		if (ij->rank->dirfd >= 0)
			close(ij->rank->dirfd);
		sc_step_sync_exit(&ij->rank->sync);
		free(ij->rank);
	}
	free(ij);
}

/* Bytes of one read buffer: a sample, or with O_DIRECT the aligned span
 * that covers a sample wherever it starts. */
static uint64_t read_buf_bytes(uint64_t sample_bytes, int direct)
{
	if (!direct || sample_bytes % BUF_ALIGN == 0)
		return sample_bytes;
	return sc_round_up(sample_bytes, BUF_ALIGN) + BUF_ALIGN;
}

/* Dataset file i's name in the dataset directory, and its path. */
static void file_name(const struct ingest_rank *r, uint32_t i, char *name, char *path,
		      size_t pathlen)
{
	snprintf(name, DATASET_NAME_MAX, "file_%u.dat", i);
	snprintf(path, pathlen, "%s/%s", r->dir, name);
}

/* Opens the phase's dataset directory below its target (made when
 * missing): a descriptor or -errno. */
static int open_dataset_dir(const struct sc_run *run)
{
	char sub[512];

	if (sc_layout_ingest_subdir(run->plan, run->phase, sub, sizeof(sub)))
		return -ENAMETOOLONG;
	return sc_dataset_open_dir(run->plan->targets[run->place.target].path, sub);
}

/* Creates or fixes this rank's share of the dataset (slot s: files i with
 * i % nslots == s); files of the right size are reused untouched. */
static int dataset_prepare(struct job *j, struct ingest_rank *r, uint64_t file_bytes, char *err,
			   size_t errlen)
{
	const struct sc_place *pl = &j->run->place;
	uint32_t step = pl->nslots ? pl->nslots : 1;
	char path[4200], name[DATASET_NAME_MAX];
	char *buf = NULL;
	int rc;

	r->dirfd = open_dataset_dir(j->run);
	if (r->dirfd < 0) {
		snprintf(err, errlen, "%s: cannot create the dataset directory: %s", r->dir,
			 sc_rundir_strerror(r->dirfd));
		return r->dirfd;
	}
	rc = 0;
	for (uint32_t i = pl->slot; i < r->nfiles; i += step) {
		struct stat st;

		file_name(r, i, name, path, sizeof(path));
		if (fstatat(r->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_size == file_bytes)
			continue;
		if (!buf) {
			if (posix_memalign((void **)&buf, BUF_ALIGN, LAYOUT_CHUNK)) {
				rc = -ENOMEM;
				break;
			}
			sc_pattern_fill(buf, LAYOUT_CHUNK, j->run->io->seed ^ DATASET_SEED);
		}
		rc = sc_dataset_write(r->dirfd, name, path, (uint64_t)i << 40, file_bytes, buf, err,
				      errlen);
		if (rc)
			break;
	}
	free(buf);
	return rc;
}

/* Makes sure jobs x files descriptors can be open, raising the soft limit
 * when the hard one allows. */
static int nofile_check(const struct ingest_rank *r, uint32_t njobs, char *err, size_t errlen)
{
	uint64_t want = (uint64_t)r->nfiles * njobs + NOFILE_SLACK;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want) {
		rl.rlim_cur = (rlim_t)want;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return 0;
	}
	snprintf(err, errlen,
		 "%s: %u dataset files x %u jobs need %llu open files, the limit is %llu "
		 "(raise ulimit -n, or use fewer jobs or fewer, larger files)",
		 r->dir, r->nfiles, njobs, (unsigned long long)want,
		 (unsigned long long)(rl.rlim_max == RLIM_INFINITY ? rl.rlim_cur : rl.rlim_max));
	return -EMFILE;
}

/* Job 0: the rank's shared state, its planned bytes and its dataset. */
static int rank_create(struct job *j, struct ingest_rank **out, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_phase *ph = &run->plan->phases[run->phase];
	const struct sc_ingest_spec *in = &ph->ingest;
	const struct sc_target_spec *t = &run->plan->targets[run->place.target];
	struct ingest_rank *r;
	int rc;

	if (t->kind != SC_TARGET_DIR) {
		snprintf(err, errlen, "%s: ingest needs a directory target, not a %s", t->path,
			 sc_target_kind_name(t->kind));
		return -EINVAL;
	}
	if (!in->files || in->files > SC_INGEST_MAX_FILES || !in->batch || !in->sample_bytes ||
	    in->sample_bytes > in->file_bytes ||
	    read_buf_bytes(in->sample_bytes, run->io->direct) > INT32_MAX) {
		snprintf(err, errlen,
			 "phase %s: ingest needs 1..%u files, batch >= 1 and "
			 "1 B <= sample_bytes <= file_bytes, sample below 2 GiB "
			 "(files %u, batch %u, sample %llu B, file %llu B)",
			 ph->name, SC_INGEST_MAX_FILES, in->files, in->batch,
			 (unsigned long long)in->sample_bytes, (unsigned long long)in->file_bytes);
		return -EINVAL;
	}
	r = aligned_alloc(CACHELINE, sc_round_up(sizeof(*r), CACHELINE));
	if (!r)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	*out = r;
	rc = sc_layout_ingest_dir(run->plan, run->place.target, run->phase, r->dir, sizeof(r->dir));
	if (rc) {
		snprintf(err, errlen, "%s: ingest dataset directory name too long", t->path);
		return rc;
	}
	sc_step_sync_init(&r->sync);
	r->nfiles = in->files;
	r->batch = in->batch;
	r->prefetch = in->prefetch;
	r->sample_bytes = in->sample_bytes;
	r->samples_per_file = in->file_bytes / in->sample_bytes;
	r->direct = run->io->direct;
	r->steps = sc_layout_ingest_steps(run->plan, run->phase, &run->place);
	r->total = run->io->runtime_ns ? UINT64_MAX : r->steps * in->batch;
	atomic_init(&r->readers, run->njobs);
	/* the consumer waits for every rank after each step (run.h) */
	run->gate.on = in->step_barrier;
	if (!run->io->runtime_ns)
		run->planned_bytes = r->total * in->sample_bytes;
	if (!sc_engine_uses_files(run->io->engine))
		return 0; /* measures the tool alone: no dataset */
	rc = nofile_check(r, run->njobs, err, errlen);
	if (rc)
		return rc;
	return dataset_prepare(j, r, in->file_bytes, err, errlen);
}

/* Opens every dataset file for job j.  Files other ranks of the node write
 * may not exist yet: they are created empty here and filled in place before
 * the phase starts (the coordinator waits for every rank's setup). */
static int open_files(struct job *j, struct ingest_job *ij, char *err, size_t errlen)
{
	const struct ingest_rank *r = ij->rank;
	int flags = O_RDONLY | (r->direct ? O_DIRECT : 0);
	char path[4200], name[DATASET_NAME_MAX];

	ij->fds = malloc((size_t)r->nfiles * sizeof(*ij->fds));
	if (!ij->fds)
		return -ENOMEM;
	ij->nfds = r->nfiles;
	for (uint32_t i = 0; i < r->nfiles; i++)
		ij->fds[i] = -1;
	if (!sc_engine_uses_files(j->run->io->engine))
		return 0;
	for (uint32_t i = 0; i < r->nfiles; i++) {
		int rc;

		file_name(r, i, name, path, sizeof(path));
		ij->fds[i] = sc_rundir_openat(r->dirfd, name, flags, SC_RUNDIR_ANY);
		if (ij->fds[i] < 0) {
			rc = ij->fds[i];
			ij->fds[i] = -1;
			snprintf(err, errlen, "%s: cannot open dataset file%s: %s", path,
				 r->direct ? " with O_DIRECT" : "", sc_rundir_strerror(rc));
			return rc;
		}
	}
	return 0;
}

int sc_ingest_job_setup(struct job *j, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	struct ingest_job *ij;
	struct sc_engine_conf conf;
	int rc;

	ij = calloc(1, sizeof(*ij));
	if (!ij)
		return -ENOMEM;
	j->wl = ij;
	j->wl_free = ingest_free;
	if (j->index == 0) {
		ij->owns_rank = 1;
		rc = rank_create(j, &ij->rank, err, errlen);
		if (rc)
			return rc;
	} else {
		ij->rank = ((struct ingest_job *)run->jobs[0].wl)->rank;
	}
	snprintf(j->path, sizeof(j->path), "%s", ij->rank->dir);
	rc = open_files(j, ij, err, errlen);
	if (rc)
		return rc;
	sc_pattern_init(&j->pat, io, run->place.rank, j->index);
	rc = sc_job_alloc(j, io->iodepth, read_buf_bytes(ij->rank->sample_bytes, ij->rank->direct));
	if (rc)
		return rc;
	sc_job_engine_init(j);
	conf = (struct sc_engine_conf){.depth = io->iodepth,
				       .fds = ij->fds,
				       .nfds = ij->nfds,
				       .bufs = j->iov,
				       .nbufs = io->iodepth};
	rc = sc_job_engine_create(j, &conf);
	if (rc) {
		snprintf(err, errlen, "%s engine for the dataset in %s: %s", j->ops->name,
			 ij->rank->dir, strerror(-rc));
		return rc;
	}
	return 0;
}

/* Tickets the prefetch bound allows now: [claimed, limit). */
static uint64_t ticket_limit(struct ingest_rank *r)
{
	uint64_t done = atomic_load_explicit(&r->steps_done, memory_order_acquire);
	uint64_t limit = (done + 1 + r->prefetch) * r->batch;

	return limit < r->total ? limit : r->total;
}

/* Takes up to want sample tickets; returns how many it got. */
static uint32_t claim(struct ingest_rank *r, uint32_t want)
{
	uint64_t c = atomic_load_explicit(&r->claimed, memory_order_relaxed);

	for (;;) {
		uint64_t limit = ticket_limit(r), n;

		if (c >= limit)
			return 0;
		n = limit - c < want ? limit - c : want;
		if (atomic_compare_exchange_weak_explicit(
			&r->claimed, &c, c + n, memory_order_relaxed, memory_order_relaxed))
			return (uint32_t)n;
	}
}

/* A reader with nothing in flight and no ticket to take sleeps until the
 * consumer moves on or the phase ends. */
static void wait_room(struct ingest_rank *r, struct sc_run *run, uint64_t deadline)
{
	pthread_mutex_lock(&r->sync.lock);
	while (!sc_step_sync_over(&r->sync, run, deadline) &&
	       atomic_load_explicit(&r->claimed, memory_order_relaxed) >= ticket_limit(r))
		sc_step_sync_nap(&r->sync.room_cond, &r->sync.lock, deadline);
	pthread_mutex_unlock(&r->sync.lock);
}

/* Picks a random sample and sets up x to read it; its offset goes to *at. */
static void sample_pick(struct job *j, const struct ingest_rank *r, struct sc_io *x, uint64_t *at)
{
	uint64_t file = sc_pattern_below(&j->pat, r->nfiles);
	uint64_t off = sc_pattern_below(&j->pat, r->samples_per_file) * r->sample_bytes;

	*at = off;
	x->op = SC_OP_READ;
	x->file = (uint16_t)file;
	if (r->direct) {
		/* O_DIRECT moves whole aligned blocks: read the span around it */
		uint64_t start = off / BUF_ALIGN * BUF_ALIGN;

		x->offset = start;
		x->len = (uint32_t)(sc_round_up(off + r->sample_bytes, BUF_ALIGN) - start);
	} else {
		x->offset = off;
		x->len = (uint32_t)r->sample_bytes;
	}
}

/* The next read: a random sample.  It must move the sample's bytes (an
 * aligned span may run past the end of the file, the sample never does). */
static int ingest_next(struct job *j, struct sc_io *x)
{
	const struct ingest_rank *r = ((struct ingest_job *)j->wl)->rank;
	uint64_t at;

	sample_pick(j, r, x, &at);
	return (int)(at + r->sample_bytes - x->offset);
}

/* Sample tickets, as many as the prefetch bound allows, none once the rank
 * quit. */
static uint32_t ingest_claim(struct job *j, uint32_t nfree)
{
	struct ingest_rank *r = ((struct ingest_job *)j->wl)->rank;

	if (atomic_load_explicit(&r->sync.quit, memory_order_relaxed))
		return 0;
	return claim(r, nfree);
}

/* Samples read, or failed under on_error continue (their batch goes on
 * without them): the consumer hears of each batch completed. */
static void ingest_reaped(struct job *j, uint32_t ok, uint32_t failed)
{
	struct ingest_rank *r = ((struct ingest_job *)j->wl)->rank;
	uint64_t was, done = (uint64_t)ok + failed;

	j->samples += ok;
	if (!done)
		return;
	was = atomic_fetch_add(&r->completed, done);
	if (was / r->batch != (was + done) / r->batch)
		sc_step_sync_wake(&r->sync, &r->sync.batch_cond); /* a batch is complete */
}

/* Nothing in flight: ends when every ticket is taken or the rank quit,
 * else sleeps until the consumer makes room. */
static bool ingest_idle(struct job *j)
{
	struct ingest_job *ij = j->wl;
	struct ingest_rank *r = ij->rank;

	if (j->err || atomic_load_explicit(&r->sync.quit, memory_order_relaxed) ||
	    atomic_load_explicit(&r->claimed, memory_order_relaxed) >= r->total)
		return true;
	wait_room(r, j->run, ij->deadline_ns);
	return false;
}

static void ingest_path(const struct job *j, const struct sc_io *x, char *buf, size_t cap)
{
	char name[DATASET_NAME_MAX];

	file_name(((const struct ingest_job *)j->wl)->rank, x->file, name, buf, cap);
}

static const struct sc_ioloop_ops ingest_ops = {
	.next = ingest_next,
	.claim = ingest_claim,
	.reaped = ingest_reaped,
	.idle = ingest_idle,
	.path = ingest_path,
};

/* The reader: random samples through the job's engine until the tickets
 * run out or the phase ends. */
static void read_samples(struct job *j, struct ingest_job *ij)
{
	struct ingest_rank *r = ij->rank;
	struct sc_ioloop lp = {.measure_start_ns = j->run->start_ns,
			       .deadline_ns = ij->deadline_ns,
			       .budget_bytes = UINT64_MAX,
			       .acct_bytes = (uint32_t)r->sample_bytes};

	sc_ioloop_run(j, &ingest_ops, &lp);
	if (j->err)
		sc_step_sync_quit(&r->sync); /* a batch will never complete: end the rank's phase */
	atomic_fetch_sub(&r->readers, 1);
	sc_step_sync_wake(&r->sync, &r->sync.batch_cond);
}

/* Waits until `need` samples have been read.  1 then, 0 when the phase
 * ends first (stop, deadline, a failed reader, no reader left). */
static int wait_batch(struct ingest_rank *r, struct sc_run *run, uint64_t need, uint64_t deadline)
{
	int ok;

	if (atomic_load(&r->completed) >= need)
		return 1;
	pthread_mutex_lock(&r->sync.lock);
	for (;;) {
		if (atomic_load(&r->completed) >= need) {
			ok = 1;
			break;
		}
		if (sc_step_sync_over(&r->sync, run, deadline) || atomic_load(&r->readers) == 0) {
			ok = 0;
			break;
		}
		sc_step_sync_nap(&r->sync.batch_cond, &r->sync.lock, deadline);
	}
	pthread_mutex_unlock(&r->sync.lock);
	return ok;
}

/* The consumer: job 0's figures, on its own thread. */
static void *consume(void *arg)
{
	struct job *j = arg;
	struct sc_run *run = j->run;
	struct ingest_rank *r = ((struct ingest_job *)j->wl)->rank;
	uint64_t compute_ns = run->plan->phases[run->phase].ingest.compute_per_batch_ns;
	uint64_t deadline = run->io->runtime_ns ? run->start_ns + run->io->runtime_ns : 0;

	for (uint64_t k = 0; deadline || k < r->steps; k++) {
		uint64_t t0 = sc_now_ns(), t1;
		bool going;

		if (sc_step_sync_over(&r->sync, run, deadline) ||
		    !wait_batch(r, run, (k + 1) * r->batch, deadline))
			break;
		t1 = sc_now_ns();
		sc_hist_record(j->hist[SC_HK_BATCH_WAIT], t1 - t0);
		if (compute_ns) {
			sc_sleep_until(t1 + compute_ns);
			j->compute_ns += compute_ns;
		}
		j->steps++;
		j->busy_end_ns = sc_now_ns();
		atomic_store_explicit(&r->steps_done, k + 1, memory_order_release);
		sc_step_sync_wake(&r->sync, &r->sync.room_cond);
		/* step_barrier: every rank's step k ends here together (the
		 * readers go on prefetching meanwhile); without it, at once */
		going = deadline ? sc_now_ns() < deadline : k + 1 < r->steps;
		if (!sc_run_step_gate(run, going))
			break;
	}
	/* ended without a last gate round (deadline, error, stop): the
	 * other ranks end at the round they are in */
	sc_run_step_gate_leave(run);
	r->consumer_end_ns = sc_now_ns();
	sc_step_sync_quit(&r->sync);
	return NULL;
}

void sc_ingest_job_run(struct job *j)
{
	struct sc_run *run = j->run;
	struct ingest_job *ij = j->wl;
	struct ingest_rank *r = ij->rank;
	int consumer = 0;

	if (run->io->runtime_ns)
		ij->deadline_ns = run->start_ns + run->io->runtime_ns;
	if (j->index == 0) {
		int rc = pthread_create(&r->consumer, NULL, consume, j);

		if (rc) {
			sc_job_fail(j, -rc, "cannot start the ingest consumer thread: %s",
				    strerror(rc));
			sc_step_sync_quit(&r->sync);
		} else {
			consumer = 1;
		}
	}
	read_samples(j, ij);
	if (consumer) {
		pthread_join(r->consumer, NULL);
		/* the rank's end includes its last compute (AU = compute / wall) */
		if (r->consumer_end_ns > j->last_ns)
			j->last_ns = r->consumer_end_ns;
	}
}
