/* run.c -- a phase on this rank: its job threads, their setup and
 * teardown, the start, stop and results (run.h). */
#include "run.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "engine/emulated.h"
#include "job_priv.h"
#include "pattern.h"
#include "placement.h"
#include "rundir.h"
#include "verify.h"

/* Mixed into the phase seed for fault injection's draws. */
#define INJECT_SEED_SALT 0x1a1ec7edfa017ull
/* Mixed into the phase seed for the emulated drive's draws. */
#define EMULATE_SEED_SALT 0xe3a1a7edd21e5ull
/* ru_maxrss is in KiB on Linux. */
#define MAXRSS_UNIT 1024u

static int (*cancel_fn)(void *);
static void *cancel_arg;

void sc_run_set_cancel(int (*fn)(void *arg), void *arg)
{
	cancel_fn = fn;
	cancel_arg = arg;
}

bool sc_job_cancelled(void)
{
	return cancel_fn && cancel_fn(cancel_arg);
}

uint64_t sc_peak_rss_bytes(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * MAXRSS_UNIT : 0;
}

/* The cell an emulated drive's speed is drawn for: a steady-state round
 * is the same drive as the rounds before it (one draw per group). */
static uint32_t emulate_cell(const struct sc_phase *ph)
{
	return ph->steady.max_rounds ? 0 : ph->cell;
}

void sc_job_engine_init(struct job *j)
{
	const struct sc_io_spec *io = j->run->io;
	struct sc_io_spec salted = *io;

	j->ops = sc_engine_get(io->engine);
	if (io->engine == SC_ENGINE_EMULATED)
		sc_emulate_state_init(&j->emulate, &io->emulate, io->seed ^ EMULATE_SEED_SALT,
				      emulate_cell(&j->run->plan->phases[j->run->phase]),
				      j->run->place.rank, j->index);
	if (!io->inject.every && !io->inject.ppm)
		return;
	/* its own stream, apart from the offsets' */
	salted.seed = io->seed ^ INJECT_SEED_SALT;
	j->inject = (struct sc_inject_state){.inner = j->ops,
					     .every = io->inject.every,
					     .ppm = io->inject.ppm,
					     .errno_val = io->inject.errno_val};
	sc_pattern_init(&j->inject.rng, &salted, j->run->place.rank, j->index);
	j->ops = &sc_engine_inject;
}

/* The phase's io_uring options into conf, each asked for on the run's
 * options; another engine runs without them. */
static void engine_opts(struct job *j, struct sc_engine_conf *conf)
{
	const struct sc_io_spec *io = j->run->io;
	const bool on[SC_IO_OPT_COUNT] = {[SC_IO_OPT_SQPOLL] = io->sqpoll,
					  [SC_IO_OPT_HIPRI] = io->hipri,
					  [SC_IO_OPT_PASSTHRU] = io->passthrough};

	conf->sqpoll = io->sqpoll;
	conf->sqpoll_cpu = io->sqpoll_cpu;
	conf->hipri = io->hipri;
	conf->passthrough = io->passthrough;
	conf->opts = &j->run->opts;
	for (int o = 0; o < SC_IO_OPT_COUNT; o++) {
		if (!on[o])
			continue;
		sc_io_opts_ask(conf->opts, (enum sc_io_opt)o);
		if (io->engine != SC_ENGINE_URING)
			sc_io_opts_unavailable(conf->opts, (enum sc_io_opt)o,
					       "only engine io_uring has it (this phase's is %s)",
					       sc_engine_name(io->engine));
	}
}

int sc_job_engine_create(struct job *j, struct sc_engine_conf *conf)
{
	conf->inject = j->ops == &sc_engine_inject ? &j->inject : NULL;
	conf->emulate = &j->emulate;
	engine_opts(j, conf);
	return j->ops->create(&j->eng, conf);
}

/* What each kind of phase does: _setup in sc_run_create (untimed), _run
 * in the job thread from the common start on. */
struct workload {
	int (*setup)(struct job *j, char *err, size_t errlen);
	void (*run)(struct job *j);
};

static const struct workload workload_io = {sc_io_job_setup, sc_io_job_run};
static const struct workload workload_ckpt = {sc_ckpt_job_setup, sc_ckpt_job_run};
static const struct workload workload_ingest = {sc_ingest_job_setup, sc_ingest_job_run};
static const struct workload workload_fill = {sc_fill_job_setup, sc_fill_job_run};
static const struct workload workload_idle = {sc_idle_job_setup, sc_idle_job_run};
static const struct workload workload_training = {sc_training_job_setup, sc_training_job_run};

static const struct workload *workload_of(const struct sc_run *run)
{
	switch (run->plan->phases[run->phase].workload) {
	case SC_WORKLOAD_CHECKPOINT:
		return &workload_ckpt;
	case SC_WORKLOAD_INGEST:
		return &workload_ingest;
	case SC_WORKLOAD_FILL:
		return &workload_fill;
	case SC_WORKLOAD_IDLE:
		return &workload_idle;
	case SC_WORKLOAD_TRAINING:
		return &workload_training;
	default:
		return &workload_io;
	}
}

/* A job thread's name (ps, top, /proc/PID/task/TID/comm): "ssdc-job<i>". */
static void name_job_thread(const struct job *j)
{
	char name[16];

	snprintf(name, sizeof(name), "ssdc-job%u", j->index);
	pthread_setname_np(pthread_self(), name);
}

/* Where the job thread runs: the phase's placement, decided in
 * sc_run_create. */
static void place_job_thread(struct job *j)
{
	struct sc_run *run = j->run;
	int rc = sc_placement_pin(&run->placement);

	if (rc)
		sc_io_opts_unavailable(&run->opts,
				       run->io->cpus[0] ? SC_IO_OPT_CPUS : SC_IO_OPT_NUMA,
				       "cannot pin job thread %u: %s", j->index, strerror(-rc));
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct sc_run *run = j->run;

	name_job_thread(j);
	place_job_thread(j);
	/* emulated completions and open-loop starts are times to keep: not
	 * 50 us late by the default timer slack (the rank's thread keeps it) */
	sc_clock_set_precise();
	pthread_mutex_lock(&run->lock);
	while (!run->released)
		pthread_cond_wait(&run->cond, &run->lock);
	pthread_mutex_unlock(&run->lock);
	/* until the start, in steps: a stop may come first */
	while (run->released > 0 && !atomic_load(&run->stop) && sc_now_ns() < run->start_ns) {
		uint64_t step = sc_now_ns() + SC_STOP_POLL_NS;

		sc_sleep_until(step < run->start_ns ? step : run->start_ns);
	}
	if (run->released > 0 && !atomic_load(&run->stop)) {
		j->started_ns = sc_now_ns();
		j->last_ns = j->started_ns;
		workload_of(run)->run(j);
	}
	atomic_store(&j->finished, 1);
	return NULL;
}

/* numa: drive: the job's buffers in the memory of the drive's node
 * before they are first filled. */
static void bind_job_buffers(struct job *j, size_t len)
{
	struct sc_run *run = j->run;
	int rc = sc_placement_bind(&run->placement, j->bufmem, len);

	if (rc)
		sc_io_opts_unavailable(&run->opts, SC_IO_OPT_NUMA,
				       "cannot bind job buffers to NUMA node %d: %s",
				       run->placement.mem_node, strerror(-rc));
}

/* A transparent huge page on x86-64 and arm64 with 4 KiB base pages. */
#define HUGE_BYTES ((size_t)2 << 20)

/* The kilobytes of AnonHugePages in the mappings of /proc/self/smaps that
 * overlap [addr, addr + len); -1 when it cannot be read. */
static long huge_kib(const void *addr, size_t len)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	long kib = 0, v;
	bool in = false;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long x, y;

		/* a mapping's header, "start-end perms ...", or one of its fields */
		if (sscanf(line, "%lx-%lx ", &x, &y) == 2 && strchr(line, ' ') &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = x < hi && y > lo;
		} else if (in && sscanf(line, "AnonHugePages: %ld kB", &v) == 1) {
			kib += v;
		}
	}
	fclose(f);
	return kib;
}

/* The job's buffers, len bytes, into j->bufmem: in transparent huge pages
 * when the phase asks for them (huge_buffers) and they span one at least
 * (they are then a whole number of huge pages, aligned to one). */
static int alloc_buffers(struct job *j, size_t len, bool no_data)
{
	struct sc_run *run = j->run;
	size_t head;
	char *m;

	if (!run->io->huge_buffers || no_data || len < HUGE_BYTES)
		return posix_memalign(&j->bufmem, BUF_ALIGN, len) ? -ENOMEM : 0;
	sc_io_opts_ask(&run->opts, SC_IO_OPT_HUGE);
	len = (len + HUGE_BYTES - 1) / HUGE_BYTES * HUGE_BYTES;
	/* mapped here, not by an allocator that may touch a page of it before
	 * the advice (ASan's writes its first 4 KiB: that huge page was lost),
	 * aligned by mapping a huge page more and unmapping the ends */
	m = mmap(NULL, len + HUGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	head = (HUGE_BYTES - (uintptr_t)m % HUGE_BYTES) % HUGE_BYTES;
	if (head)
		munmap(m, head);
	if (head < HUGE_BYTES)
		munmap(m + head + len, HUGE_BYTES - head);
	j->bufmem = m + head;
	j->bufmapped = len;
	if (madvise(j->bufmem, len, MADV_HUGEPAGE) != 0)
		sc_io_opts_unavailable(&run->opts, SC_IO_OPT_HUGE,
				       "madvise(MADV_HUGEPAGE): %s (a kernel without transparent "
				       "huge pages)",
				       strerror(errno));
	return 0;
}

/* Once the first job's buffers are touched: says so when not all of their
 * bytes landed in huge pages (transparent_hugepage "never", or memory too
 * fragmented for the kernel to find 2 MiB pieces: then the I/Os of the
 * slots left in 4 KiB pages are split as without huge_buffers). */
static void check_huge(struct job *j)
{
	size_t len = j->bufmapped;
	long kib;

	if (j->index != 0 || !len)
		return;
	kib = huge_kib(j->bufmem, len);
	if (kib >= 0 && (size_t)kib * 1024 < len)
		sc_io_opts_unavailable(&j->run->opts, SC_IO_OPT_HUGE,
				       "%ld of %zu KiB of job 0's buffers in huge pages (see "
				       "/sys/kernel/mm/transparent_hugepage/enabled and defrag, "
				       "and the process's PR_SET_THP_DISABLE)",
				       kib, len / 1024);
}

int sc_job_alloc(struct job *j, uint32_t depth, uint64_t bs_bytes)
{
	enum sc_workload workload = j->run->plan->phases[j->run->phase].workload;
	bool no_data, reads_only;
	int rc;

	j->ios = calloc(depth, sizeof(*j->ios));
	j->done = calloc(depth, sizeof(*j->done));
	j->queued = calloc(depth, sizeof(*j->queued));
	j->held = calloc(depth, sizeof(*j->held));
	j->free_slots = calloc(depth, sizeof(*j->free_slots));
	j->slot_want = calloc(depth, sizeof(*j->slot_want));
	j->iov = calloc(depth, sizeof(*j->iov));
	if (!j->ios || !j->done || !j->queued || !j->held || !j->free_slots || !j->slot_want ||
	    !j->iov)
		return -ENOMEM;
	/* an engine that reads no byte of them: no data is made (their
	 * pages are never touched, so they cost no memory either) */
	no_data = sc_engine_get(j->run->io->engine)->flags & SC_ENGINE_F_NO_DATA;
	/* a workload that only reads a dataset (training, ingest) writes
	 * none: its buffers get no write data, the reads fill them */
	reads_only = workload == SC_WORKLOAD_TRAINING || workload == SC_WORKLOAD_INGEST;
	/* one block more: the base pattern of the job's write data */
	rc = alloc_buffers(j, (size_t)(depth + 1) * bs_bytes, no_data);
	if (rc)
		return rc;
	bind_job_buffers(j, (size_t)(depth + 1) * bs_bytes);
	if (!no_data && reads_only && j->bufmapped) /* huge pages: had, once touched */
		memset(j->bufmem, 0, j->bufmapped);
	no_data |= reads_only && !j->bufmapped;
	if (!no_data && !reads_only)
		sc_wdata_init(&j->wdata, j->pat.seed, j->run->io->compressible_pct,
			      j->run->io->dedupe_pct,
			      (char *)j->bufmem + (size_t)depth * bs_bytes, bs_bytes);
	j->wd = no_data || reads_only || j->run->io->reuse_buffers || j->run->io->verify
		    ? NULL
		    : &j->wdata;
	for (uint32_t i = 0; i < depth; i++) {
		/* reused buffers still carry the phase's compressible/dedupe */
		if (!no_data && !reads_only)
			sc_wdata_fill(&j->wdata, (char *)j->bufmem + (size_t)i * bs_bytes,
				      bs_bytes);
		j->iov[i].iov_base = (char *)j->bufmem + (size_t)i * bs_bytes;
		j->iov[i].iov_len = bs_bytes;
		j->ios[i].buf = i;
		j->ios[i].file = 0;
		j->free_slots[i] = i;
	}
	if (!no_data)
		check_huge(j);
	return 0;
}


static int job_setup(struct job *j, char *err, size_t errlen)
{
	j->fd = -1;
	for (int k = 0; k < SC_HK_COUNT; k++) {
		j->hist[k] = malloc(sizeof(struct sc_hist));
		if (!j->hist[k])
			return -ENOMEM;
		sc_hist_init(j->hist[k]);
	}
	return workload_of(j->run)->setup(j, err, errlen);
}

static void job_teardown(struct job *j)
{
	if (j->eng)
		j->ops->destroy(j->eng);
	if (j->fd >= 0)
		close(j->fd);
	free(j->ios);
	free(j->done);
	free(j->queued);
	free(j->held);
	free(j->free_slots);
	free(j->slot_want);
	free(j->iov);
	if (j->bufmapped)
		munmap(j->bufmem, j->bufmapped);
	else
		free(j->bufmem);
	free(j->sec);
	for (int k = 0; k < SC_HK_COUNT; k++)
		free(j->hist[k]);
	if (j->wl_free)
		j->wl_free(j->wl);
	if (j->vfy)
		sc_verifier_exit(j->vfy);
	free(j->vfy);
}

/* The phase's placement on this rank (cpus, numa), decided once from the
 * CPUs the rank may use and its target's drive. */
static void place_run(struct sc_run *run)
{
	const struct sc_plan *plan = run->plan;
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	sc_placement_decide(
	    SC_PLACEMENT_SYSFS, run->io,
	    run->place.target < plan->ntargets ? plan->targets[run->place.target].path : "",
	    &allowed, &run->placement, &run->opts);
}

int sc_run_create(struct sc_run **out, const struct sc_plan *plan, uint32_t phase,
		  const struct sc_place *place, const struct sc_rundir *dir, char *err,
		  size_t errlen)
{
	struct sc_run *run;
	int rc = 0;

	err[0] = '\0';
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->plan = plan;
	run->phase = phase;
	run->place = *place;
	run->io = &plan->phases[phase].io;
	run->njobs = run->io->jobs;
	if (plan->phases[phase].workload == SC_WORKLOAD_TRAINING) /* readers of each */
		run->njobs *= sc_training_per_rank(&plan->phases[phase].training);
	run->dirfd = dir ? dir->fd : -1;
	pthread_mutex_init(&run->lock, NULL);
	sc_io_opts_init(&run->opts);
	pthread_cond_init(&run->cond, NULL);
	rc = sc_gate_init(&run->gate);
	if (rc)
		goto out_destroy;
	run->gate_ready = 1;
	run->jobs = calloc(run->njobs, sizeof(*run->jobs));
	if (!run->jobs) {
		rc = -ENOMEM;
		goto out_destroy;
	}
	for (uint32_t i = 0; i < run->njobs; i++) {
		run->jobs[i].fd = -1;
		run->jobs[i].run = run;
		run->jobs[i].index = i;
	}
	place_run(run);
	for (uint32_t i = 0; i < run->njobs; i++) {
		rc = job_setup(&run->jobs[i], err, errlen);
		if (rc)
			goto out_destroy;
	}
	/* job threads inherit a mask that blocks every signal: a signal is
	 * the caller's to handle, and must not interrupt their I/O waits */
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (uint32_t i = 0; i < run->njobs; i++) {
		rc = -pthread_create(&run->jobs[i].thread, NULL, job_main, &run->jobs[i]);
		if (rc)
			break;
		run->jobs[i].thread_started = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		snprintf(err, errlen, "cannot start job thread: %s", strerror(-rc));
		goto out_destroy;
	}
	*out = run;
	return 0;

out_destroy:
	if (!err[0])
		snprintf(err, errlen, "preparing phase %s: %s", plan->phases[phase].name,
			 strerror(-rc));
	sc_run_destroy(run);
	return rc;
}

int sc_run_start(struct sc_run *run, uint64_t start_ns)
{
	pthread_mutex_lock(&run->lock);
	run->start_ns = start_ns;
	run->released = 1;
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
	return 0;
}

bool sc_run_done(struct sc_run *run)
{
	for (uint32_t i = 0; i < run->njobs; i++)
		if (!atomic_load(&run->jobs[i].finished))
			return false;
	return true;
}

/* The sum over the run's jobs of the counter at offset off in struct job
 * (an _Atomic uint64_t the job thread stores to). */
static uint64_t sum_jobs(struct sc_run *run, size_t off)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < run->njobs; i++)
		sum += atomic_load_explicit((_Atomic uint64_t *)((char *)&run->jobs[i] + off),
					    memory_order_relaxed);
	return sum;
}

uint64_t sc_run_bytes(struct sc_run *run)
{
	return sum_jobs(run, offsetof(struct job, done_bytes));
}

uint64_t sc_run_end_ns(struct sc_run *run)
{
	uint64_t end = 0;

	for (uint32_t i = 0; i < run->njobs; i++)
		if (run->jobs[i].last_ns > end)
			end = run->jobs[i].last_ns;
	return end;
}

uint64_t sc_run_ios(struct sc_run *run)
{
	return sum_jobs(run, offsetof(struct job, done_ios));
}

void sc_run_stop(struct sc_run *run)
{
	atomic_store(&run->stop, 1);
	if (run->gate_ready)
		sc_gate_wake(&run->gate); /* a job thread blocked at the gate */
}

uint64_t sc_run_failed_ios(struct sc_run *run)
{
	return sum_jobs(run, offsetof(struct job, failed_ios));
}

bool sc_run_aborted(struct sc_run *run)
{
	return atomic_load(&run->aborted) != 0;
}

static void join_all(struct sc_run *run)
{
	for (uint32_t i = 0; i < run->njobs; i++) {
		if (run->jobs[i].thread_started) {
			pthread_join(run->jobs[i].thread, NULL);
			run->jobs[i].thread_started = 0;
		}
	}
}

int sc_run_finish(struct sc_run *run, struct sc_rank_result *out)
{
	join_all(run);
	return sc_run_collect(run, out);
}

int sc_run_step_gate(struct sc_run *run, bool going)
{
	return sc_gate_step(&run->gate, going, &run->stop);
}

void sc_run_step_gate_leave(struct sc_run *run)
{
	sc_gate_leave(&run->gate);
}

bool sc_run_gate_on(const struct sc_run *run)
{
	return run->gate.on;
}

bool sc_run_gate_want(struct sc_run *run, uint64_t round, int *going)
{
	if (sc_gate_want(&run->gate, round, going))
		return true;
	/* every job ended: nothing will ask again (whether or not it left) */
	if (!sc_run_done(run))
		return false;
	sc_gate_leave(&run->gate);
	return sc_gate_want(&run->gate, round, going);
}

void sc_run_gate_answer(struct sc_run *run, uint64_t round, int all_going)
{
	sc_gate_answer(&run->gate, round, all_going);
}

void sc_run_gate_nap(struct sc_run *run, uint64_t round, uint64_t ns)
{
	sc_gate_nap(&run->gate, round, ns);
}

const struct sc_io_opts *sc_run_opts(const struct sc_run *run)
{
	return &run->opts;
}

const struct sc_hist *sc_run_hist(const struct sc_run *run, int k)
{
	return run->hist[k];
}

void sc_run_destroy(struct sc_run *run)
{
	if (!run)
		return;
	pthread_mutex_lock(&run->lock);
	if (!run->released)
		run->released = -1;
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
	if (run->jobs) {
		join_all(run);
		for (uint32_t i = 0; i < run->njobs; i++)
			job_teardown(&run->jobs[i]);
	}
	for (int k = 0; k < SC_HK_COUNT; k++)
		free(run->hist[k]);
	free(run->jobs);
	if (run->gate_ready)
		sc_gate_exit(&run->gate);
	pthread_mutex_destroy(&run->lock);
	sc_io_opts_destroy(&run->opts);
	pthread_cond_destroy(&run->cond);
	free(run);
}
