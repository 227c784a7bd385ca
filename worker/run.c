/* run.c -- runs one phase on this rank: job threads, each with an engine. */
#include "job.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "guard.h"
#include "job_priv.h"
#include "pattern.h"
#include "rundir.h"
#include "verify.h"

/* Mixed into the phase seed for fault injection's draws. */
#define INJECT_SEED_SALT 0x1a1ec7edfa017ull

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

uint64_t sc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SC_NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t sc_peak_rss_bytes(void)
{
	struct rusage ru;

	/* ru_maxrss is in KiB on Linux */
	return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * 1024 : 0;
}

void sc_job_sleep_until(uint64_t when_ns)
{
	struct timespec ts = {.tv_sec = (time_t)(when_ns / SC_NS_PER_S),
			      .tv_nsec = (long)(when_ns % SC_NS_PER_S)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void sc_job_fail(struct job *j, int err, const char *fmt, ...)
{
	va_list ap;

	if (j->run->io->on_error == SC_ON_ERROR_ABORT)
		atomic_store(&j->run->aborted, 1);
	atomic_store(&j->run->stop, 1);
	if (j->err)
		return;
	j->err = err;
	va_start(ap, fmt);
	vsnprintf(j->errmsg, sizeof(j->errmsg), fmt, ap);
	va_end(ap);
}

/* path relative to the target root, its tail when longer than cap - 1. */
static void failure_file(char *dst, size_t cap, const char *path, const char *root)
{
	size_t n = strlen(root), len;

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		for (path += n; *path == '/'; path++)
			;
	len = strlen(path);
	if (len >= cap)
		path += len - (cap - 1);
	snprintf(dst, cap, "%s", path);
}

static const char *const op_names[] = {[SC_OP_READ] = "read", [SC_OP_WRITE] = "write",
				       [SC_OP_FSYNC] = "fsync"};

int sc_job_io_failed(struct job *j, const struct sc_io *io, uint64_t want_bytes, const char *path)
{
	struct sc_run *run = j->run;
	int err = io->res < 0 ? -io->res : 0; /* 0: short transfer */
	const char *op = io->op <= SC_OP_FSYNC ? op_names[io->op] : "I/O";

	j->ioerr.by_errno[err < SC_ERRNO_SLOTS ? err : SC_ERRNO_SLOTS - 1]++;
	j->errors++;
	atomic_store_explicit(&j->failed_ios, j->errors, memory_order_relaxed);
	if (j->ioerr.nkept < SC_IO_FAILURES_KEPT) {
		struct sc_io_failure *f = &j->ioerr.kept[j->ioerr.nkept++];

		f->time_ns = (int64_t)(sc_now_ns() - run->start_ns);
		f->offset_bytes = io->op == SC_OP_FSYNC ? 0 : io->offset;
		f->len_bytes = io->op == SC_OP_FSYNC ? 0 : (uint32_t)want_bytes;
		f->err = err < SC_ERRNO_SLOTS ? err : SC_ERRNO_SLOTS - 1;
		f->op = io->op;
		f->job = j->index;
		failure_file(f->file, sizeof(f->file), path,
			     run->plan->targets[run->place.target].path);
	}
	if (run->io->on_error == SC_ON_ERROR_CONTINUE)
		return 0;
	if (io->op == SC_OP_FSYNC)
		sc_job_fail(j, io->res, "fsync of %s: %s", path, strerror(-io->res));
	else
		sc_job_fail(j, err ? -err : -EIO, "%s of %llu B at offset %llu in %s: %s", op,
			    (unsigned long long)want_bytes, (unsigned long long)io->offset, path,
			    err ? strerror(err) : "short transfer");
	return 1;
}

void sc_job_engine_init(struct job *j)
{
	const struct sc_io_spec *io = j->run->io;
	struct sc_io_spec salted = *io;

	j->ops = sc_engine_get(io->engine);
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

int sc_job_engine_create(struct job *j, struct sc_engine_conf *conf)
{
	conf->inject = j->ops == &sc_engine_inject ? &j->inject : NULL;
	return j->ops->create(&j->eng, conf);
}

/* Grows the per-second series to hold second k; off the per-I/O path
 * (at most once per doubling). */
static struct sc_second *second_at(struct job *j, uint64_t k)
{
	if (k >= UINT32_MAX)
		return NULL;
	if (k >= j->capsec) {
		uint32_t cap = j->capsec ? j->capsec : SECONDS_INITIAL;
		struct sc_second *s;

		while (cap <= k)
			cap *= 2;
		s = realloc(j->sec, (size_t)cap * sizeof(*s));
		if (!s)
			return NULL;
		memset(s + j->capsec, 0, (size_t)(cap - j->capsec) * sizeof(*s));
		j->sec = s;
		j->capsec = cap;
	}
	if (k + 1 > j->nsec)
		j->nsec = (uint32_t)k + 1;
	return &j->sec[k];
}

void sc_job_account(struct job *j, int dir, uint32_t len, uint64_t lat, uint64_t now,
		    uint64_t measure_start)
{
	struct sc_second *s;

	if (now < measure_start || now - lat < measure_start)
		return; /* ramp */
	s = second_at(j, (now - measure_start) / SC_NS_PER_S);
	sc_hist_record(j->hist[dir], lat);
	j->bytes[dir] += len;
	j->ios_done[dir]++;
	atomic_store_explicit(&j->done_bytes, j->bytes[0] + j->bytes[1], memory_order_relaxed);
	if (s) {
		s->bytes[dir] += len;
		s->ios[dir]++;
		if (lat > s->max_lat_ns[dir])
			s->max_lat_ns[dir] = lat;
	}
	j->last_ns = now;
}

/* Open loop: accounts a completed I/O as sc_job_account does (service time)
 * and records its response time, from its intended start.  An I/O intended
 * during the ramp counts in neither, however late it ran. */
static void account_open(struct job *j, int dir, const struct sc_io *io, uint64_t now,
			 uint64_t measure_start)
{
	if (io->intended_ns < measure_start)
		return; /* ramp */
	sc_job_account(j, dir, io->len, now - io->submit_ns, now, measure_start);
	sc_hist_record(j->hist[SC_HK_RESP_READ + dir], now - io->intended_ns);
}

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
		account_open(j, dir, io, now, measure_start);
	else
		sc_job_account(j, dir, io->len, now - io->submit_ns, now, measure_start);
}

/* Open loop (rate_iops > 0).  Each job gets rate_iops / jobs I/Os per
 * second (the first rate_iops % jobs one more), and its I/O k is intended
 * to start at the common start + k / rate seconds, ramp included.  An I/O
 * is issued once that time has come and a slot is free; none is skipped, so
 * a stalled device builds a backlog whose response times grow. */

/* An I/O submitted more than this after its intended start counts as late
 * (its slot was busy or the loop was behind). */
#define LATE_TOLERANCE_NS 10000ull
/* Faster than one I/O per nanosecond a job's I/Os are all due at once
 * anyway; the cap keeps the schedule's arithmetic within 64 bits. */
#define RATE_MAX_PER_JOB SC_NS_PER_S
/* Longest sleep while I/Os are in flight on an engine without reap_until
 * (or whose reap_until is unsupported): it cannot wait for a completion
 * with a timeout, so one that lands while the job sleeps is noticed (and
 * its service and response time stamped) up to this late. */
#define POLL_INFLIGHT_NS 100000ull
/* Longest sleep, or reap_until wait, before the job looks again: how soon a
 * stop is noticed. */
#define POLL_IDLE_NS 10000000ull
/* A sleep ends late by the timer slack and the wakeup latency (a few us on
 * bare metal, tens of us in a VM).  A job wakes this much before an
 * intended start and polls the rest of the way; the lead follows the
 * lateness its sleeps see, up to this bound, so a low rate never spins long. */
#define WAKE_LEAD_MAX_NS 200000ull
/* Per sleep, the lead sheds 1/WAKE_LEAD_DECAY of its excess over the
 * lateness seen (it jumps up at once). */
#define WAKE_LEAD_DECAY 16u

struct pace {
	uint64_t start_ns; /* I/O 0 is intended to start here */
	uint64_t rate;	   /* this job's I/Os per second, > 0 */
	uint64_t sec, nth; /* the next I/O is number sec * rate + nth */
	uint64_t next_ns;  /* its intended start */
	uint64_t lead_ns;  /* wake this long before next_ns */
};

/* This job's share of the rank's rate, in I/Os per second. */
static uint64_t job_rate(const struct sc_io_spec *io, uint32_t index)
{
	uint64_t rate = io->rate_iops / io->jobs + (index < io->rate_iops % io->jobs);

	return rate < RATE_MAX_PER_JOB ? rate : RATE_MAX_PER_JOB;
}

/* Scheduled I/Os intended in [from_ns, to_ns) that were not issued by the
 * time the phase stopped: the backlog a stalled drive left behind, which
 * would otherwise vanish from the figures. */
static uint64_t pace_backlog(const struct pace *p, uint64_t from_ns, uint64_t to_ns)
{
	/* I/O k is intended before t when k < ceil((t - start) * rate / 1e9) */
	uint64_t next = p->sec * p->rate + p->nth, before_to, before_from;

	if (to_ns <= p->start_ns)
		return 0;
	before_to = (uint64_t)(((unsigned __int128)(to_ns - p->start_ns) * p->rate + SC_NS_PER_S - 1) /
			       SC_NS_PER_S);
	before_from = from_ns <= p->start_ns
			      ? 0
			      : (uint64_t)(((unsigned __int128)(from_ns - p->start_ns) * p->rate +
					    SC_NS_PER_S - 1) /
					   SC_NS_PER_S);
	if (next < before_from)
		next = before_from;
	return before_to > next ? before_to - next : 0;
}

static void pace_init(struct pace *p, uint64_t start_ns, uint64_t rate)
{
	*p = (struct pace){.start_ns = start_ns, .rate = rate, .next_ns = start_ns};
}

/* Moves to the next I/O: exact, so a rate that does not divide a second
 * does not drift. */
static void pace_advance(struct pace *p)
{
	if (++p->nth == p->rate) {
		p->nth = 0;
		p->sec++;
	}
	p->next_ns = p->start_ns + p->sec * SC_NS_PER_S + p->nth * SC_NS_PER_S / p->rate;
}

/* When to wake for the next intended start: just before it, or cap_ns
 * from now or the deadline if earlier.  0 when there is no time to wait
 * (the intended start is within the lead). */
static uint64_t pace_wake(const struct pace *p, uint64_t cap_ns, uint64_t deadline)
{
	uint64_t now = sc_now_ns(), wake;

	if (p->next_ns <= now + p->lead_ns)
		return 0;
	wake = p->next_ns - p->lead_ns;
	if (wake > now + cap_ns)
		wake = now + cap_ns;
	if (deadline && wake > deadline)
		wake = deadline;
	return wake > now ? wake : 0;
}

/* Follows the lateness of a wait that was meant to end at wake. */
static void pace_learn(struct pace *p, uint64_t wake)
{
	uint64_t late = sc_now_ns() - wake;

	if (late > p->lead_ns)
		p->lead_ns = late < WAKE_LEAD_MAX_NS ? late : WAKE_LEAD_MAX_NS;
	else
		p->lead_ns -= (p->lead_ns - late) / WAKE_LEAD_DECAY;
}

/* Sleeps until just before the next intended start, or until the poll
 * bound (inflight: I/Os to notice) or the deadline if earlier; returns at
 * once when the intended start is within the lead. */
static void pace_sleep(struct pace *p, uint32_t inflight, uint64_t deadline)
{
	uint64_t wake = pace_wake(p, inflight ? POLL_INFLIGHT_NS : POLL_IDLE_NS, deadline);

	if (!wake)
		return;
	sc_job_sleep_until(wake);
	pace_learn(p, wake);
}

/* With I/Os in flight: reaps into j->done what completes before the job
 * must wake for the next intended start (or look for a stop, or end at the
 * deadline); without waiting when the start is within the lead.  The
 * engine's reap_until: a count or -errno. */
static int pace_reap(struct pace *p, struct job *j, uint32_t max, uint64_t deadline)
{
	uint64_t wake = pace_wake(p, POLL_IDLE_NS, deadline);
	int n = j->ops->reap_until(j->eng, j->done, max, wake);

	if (n == 0 && wake)
		pace_learn(p, wake);
	return n;
}

/* The fio-like body: one region, one pattern, until runtime or bytes;
 * closed loop, or open loop at the job's share of rate_iops. */
static void io_job_run(struct job *j)
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
	struct pace pace;

	measure_start = run->start_ns + io->ramp_ns;
	deadline = io->runtime_ns ? measure_start + io->runtime_ns : 0;
	budget = io->runtime_ns ? UINT64_MAX : io->io_bytes;
	if (open) {
		uint64_t rate = job_rate(io, j->index);

		if (rate == 0)
			return; /* fewer I/Os per second than jobs: none for this one */
		/* jobs interleave their schedules (job i shifted by i/jobs of
		 * an interval) rather than all waking at the same instants */
		pace_init(&pace, run->start_ns + SC_NS_PER_S / rate * j->index / io->jobs, rate);
		/* The default slack (50 us) would make every sleep that late;
		 * if the kernel refuses, the wake lead absorbs it. */
		(void)prctl(PR_SET_TIMERSLACK, 1ul, 0ul, 0ul, 0ul);
	}

	for (;;) {
		uint32_t nq = 0;
		uint64_t now = sc_now_ns();
		int need_fsync, pacing;

		if (!stopping &&
		    (atomic_load_explicit(&run->stop, memory_order_relaxed) || j->err ||
		     (deadline && now >= deadline) || issued >= budget)) {
			stopping = 1;
			if (open && issued < budget)
				j->unissued_ios = pace_backlog(&pace, measure_start,
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
					pace_advance(&pace);
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
				    t - q->intended_ns > LATE_TOLERANCE_NS)
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
				pace_sleep(&pace, 0, deadline);
			continue;
		}
		int n = pacing && until ? pace_reap(&pace, j, depth, deadline) : -EOPNOTSUPP;

		if (n == -EOPNOTSUPP) {
			/* no reap_until, or one that cannot time a wait (io_uring
			 * before Linux 5.11): reap, and poll with pace_sleep */
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
			pace_sleep(&pace, inflight, deadline);
	}
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct sc_run *run = j->run;

	pthread_mutex_lock(&run->lock);
	while (!run->released)
		pthread_cond_wait(&run->cond, &run->lock);
	pthread_mutex_unlock(&run->lock);
	/* until the start, in steps: a stop may come first */
	while (run->released > 0 && !atomic_load(&run->stop) && sc_now_ns() < run->start_ns) {
		uint64_t step = sc_now_ns() + POLL_IDLE_NS;

		sc_job_sleep_until(step < run->start_ns ? step : run->start_ns);
	}
	if (run->released > 0 && !atomic_load(&run->stop)) {
		j->started_ns = sc_now_ns();
		j->last_ns = j->started_ns;
		switch (run->plan->phases[run->phase].workload) {
		case SC_WORKLOAD_CHECKPOINT:
			sc_ckpt_job_run(j);
			break;
		case SC_WORKLOAD_INGEST:
			sc_ingest_job_run(j);
			break;
		default:
			io_job_run(j);
			break;
		}
	}
	atomic_store(&j->finished, 1);
	return NULL;
}

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

/* Writes [from, to) of the job's file so that a phase can read it; with
 * verify, as verify blocks (from a block boundary) that its reads check. */
static int lay_out(struct job *j, uint64_t from, uint64_t to, char *err, size_t errlen)
{
	size_t chunk = layout_chunk(j);
	void *buf;
	int fd = j->fd, fl = fcntl(fd, F_GETFL), rc = 0;

	if (j->vfy)
		from -= (from - j->base) % j->vfy->bs;
	if (posix_memalign(&buf, BUF_ALIGN, chunk))
		return -ENOMEM;
	sc_pattern_fill(buf, chunk, j->pat.seed ^ 0x1a70u);
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
		return lay_out(j, (uint64_t)st.st_size, j->base + io->size_bytes, err, errlen);
	return 0;
}

int sc_job_alloc(struct job *j, uint32_t depth, uint64_t bs_bytes)
{
	j->ios = calloc(depth, sizeof(*j->ios));
	j->done = calloc(depth, sizeof(*j->done));
	j->queued = calloc(depth, sizeof(*j->queued));
	j->free_slots = calloc(depth, sizeof(*j->free_slots));
	j->iov = calloc(depth, sizeof(*j->iov));
	if (!j->ios || !j->done || !j->queued || !j->free_slots || !j->iov)
		return -ENOMEM;
	if (posix_memalign(&j->bufmem, BUF_ALIGN, (size_t)depth * bs_bytes))
		return -ENOMEM;
	sc_pattern_fill(j->bufmem, (size_t)depth * bs_bytes, j->pat.seed);
	for (uint32_t i = 0; i < depth; i++) {
		j->iov[i].iov_base = (char *)j->bufmem + (size_t)i * bs_bytes;
		j->iov[i].iov_len = bs_bytes;
		j->ios[i].buf = i;
		j->ios[i].file = 0;
		j->free_slots[i] = i;
	}
	return 0;
}

static int job_setup(struct job *j, char *err, size_t errlen)
{
	struct sc_run *run = j->run;
	const struct sc_io_spec *io = run->io;
	const struct sc_target_spec *t = &run->plan->targets[run->place.target];
	uint32_t depth = io->iodepth;
	struct sc_engine_conf conf;
	int rc;

	j->fd = -1;
	for (int k = 0; k < SC_HK_COUNT; k++) {
		j->hist[k] = malloc(sizeof(struct sc_hist));
		if (!j->hist[k])
			return -ENOMEM;
		sc_hist_init(j->hist[k]);
	}
	if (run->plan->phases[run->phase].workload == SC_WORKLOAD_CHECKPOINT)
		return sc_ckpt_job_setup(j, err, errlen);
	if (run->plan->phases[run->phase].workload == SC_WORKLOAD_INGEST)
		return sc_ingest_job_setup(j, err, errlen);
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
	if (io->runtime_ns)
		second_at(j, (io->runtime_ns + SC_NS_PER_S - 1) / SC_NS_PER_S + 1);
	j->nsec = 0;
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

static void job_teardown(struct job *j)
{
	if (j->eng)
		j->ops->destroy(j->eng);
	if (j->fd >= 0)
		close(j->fd);
	free(j->ios);
	free(j->done);
	free(j->queued);
	free(j->free_slots);
	free(j->iov);
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
	run->dirfd = dir ? dir->fd : -1;
	pthread_mutex_init(&run->lock, NULL);
	pthread_cond_init(&run->cond, NULL);
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

uint64_t sc_run_bytes(struct sc_run *run)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < run->njobs; i++)
		sum += atomic_load_explicit(&run->jobs[i].done_bytes, memory_order_relaxed);
	return sum;
}

void sc_run_stop(struct sc_run *run)
{
	atomic_store(&run->stop, 1);
}

uint64_t sc_run_failed_ios(struct sc_run *run)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < run->njobs; i++)
		sum += atomic_load_explicit(&run->jobs[i].failed_ios, memory_order_relaxed);
	return sum;
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

static int cmp_failure_time(const void *a, const void *b)
{
	const struct sc_io_failure *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return (x->time_ns > y->time_ns) - (x->time_ns < y->time_ns);
	return (x->job > y->job) - (x->job < y->job);
}

/* The rank's failed I/Os from its jobs': counts summed by errno, and the
 * first SC_IO_FAILURES_KEPT of all jobs' kept ones, by time. */
static int merge_failures(struct sc_run *run, struct sc_rank_result *out)
{
	uint32_t nerr = 0, nkept = 0;

	for (int e = 0; e < SC_ERRNO_SLOTS; e++) {
		uint64_t sum = 0;

		for (uint32_t i = 0; i < run->njobs; i++)
			sum += run->jobs[i].ioerr.by_errno[e];
		nerr += sum != 0;
	}
	for (uint32_t i = 0; i < run->njobs; i++)
		nkept += run->jobs[i].ioerr.nkept;
	out->errnos = calloc(nerr ? nerr : 1, sizeof(*out->errnos));
	out->failures = calloc(nkept ? nkept : 1, sizeof(*out->failures));
	if (!out->errnos || !out->failures)
		return -ENOMEM;
	for (int e = 0; e < SC_ERRNO_SLOTS; e++) {
		uint64_t sum = 0;

		for (uint32_t i = 0; i < run->njobs; i++)
			sum += run->jobs[i].ioerr.by_errno[e];
		if (sum)
			out->errnos[out->nerrnos++] = (struct sc_errno_count){.err = e, .count = sum};
	}
	for (uint32_t i = 0; i < run->njobs; i++) {
		const struct job_ioerr *ie = &run->jobs[i].ioerr;

		memcpy(out->failures + out->nfailures, ie->kept, ie->nkept * sizeof(ie->kept[0]));
		out->nfailures += ie->nkept;
	}
	qsort(out->failures, out->nfailures, sizeof(*out->failures), cmp_failure_time);
	if (out->nfailures > SC_IO_FAILURES_KEPT)
		out->nfailures = SC_IO_FAILURES_KEPT;
	return 0;
}

/* Verify: the jobs' counts, and their first mismatches (at most
 * SC_VERIFY_KEEP), into out.  0 or -ENOMEM. */
static int verify_collect(const struct sc_run *run, struct sc_rank_result *out)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < run->njobs; i++) {
		const struct sc_verifier *v = run->jobs[i].vfy;

		if (!v)
			continue;
		out->verify_checked += v->checked;
		out->verify_mismatches += v->mismatches;
		n += v->nkept;
	}
	if (n > SC_VERIFY_KEEP)
		n = SC_VERIFY_KEEP;
	if (!n)
		return 0;
	out->verify_kept = calloc(n, sizeof(*out->verify_kept));
	if (!out->verify_kept)
		return -ENOMEM;
	for (uint32_t i = 0; i < run->njobs && out->verify_nkept < n; i++) {
		const struct sc_verifier *v = run->jobs[i].vfy;

		for (uint32_t k = 0; v && k < v->nkept && out->verify_nkept < n; k++)
			out->verify_kept[out->verify_nkept++] = v->kept[k];
	}
	return 0;
}

int sc_run_finish(struct sc_run *run, struct sc_rank_result *out)
{
	uint64_t first = UINT64_MAX, last = 0;
	uint32_t nsec = 0;
	int rc = 0;

	join_all(run);
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < SC_HK_COUNT; k++) {
		if (!run->hist[k])
			run->hist[k] = malloc(sizeof(struct sc_hist));
		if (!run->hist[k])
			return -ENOMEM;
		sc_hist_init(run->hist[k]);
	}
	for (uint32_t i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];

		if (j->started_ns && j->started_ns < first)
			first = j->started_ns;
		if (j->last_ns > last)
			last = j->last_ns;
		if (j->nsec > nsec)
			nsec = j->nsec;
		for (int k = 0; k < SC_HK_COUNT; k++)
			sc_hist_add(run->hist[k], j->hist[k]);
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			out->bytes[d] += j->bytes[d];
			out->ios[d] += j->ios_done[d];
		}
		out->fsyncs += j->fsyncs;
		out->files += j->files;
		out->late_ios += j->late_ios;
		out->unissued_ios += j->unissued_ios;
		out->samples += j->samples;
		out->steps += j->steps;
		out->compute_ns += j->compute_ns;
		if (j->busy_end_ns > run->start_ns &&
		    (int64_t)(j->busy_end_ns - run->start_ns) > out->busy_end_ns)
			out->busy_end_ns = (int64_t)(j->busy_end_ns - run->start_ns);
		out->errors += j->errors;
		if (j->err && !rc) {
			rc = j->err;
			snprintf(out->error, sizeof(out->error), "%s", j->errmsg);
		}
	}
	if (out->errors && merge_failures(run, out))
		return -ENOMEM;
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		sc_hist_summarize(run->hist[SC_HK_LAT_READ + d], &out->lat[d]);
		sc_hist_summarize(run->hist[SC_HK_RESP_READ + d], &out->resp[d]);
	}
	sc_hist_summarize(run->hist[SC_HK_BATCH_WAIT], &out->batch_wait);
	out->start_ns = first == UINT64_MAX ? 0 : (int64_t)(first - run->start_ns);
	out->end_ns = last ? (int64_t)(last - run->start_ns) : out->start_ns;
	if (run->planned_bytes)
		out->planned_bytes = run->planned_bytes;
	else if (!run->io->runtime_ns)
		out->planned_bytes = run->io->io_bytes * run->njobs;
	out->target = run->place.target;
	out->rank = run->place.rank;
	if (verify_collect(run, out))
		return -ENOMEM;
	if (nsec) {
		out->seconds = calloc(nsec, sizeof(*out->seconds));
		if (!out->seconds)
			return -ENOMEM;
		out->nseconds = nsec;
		for (uint32_t i = 0; i < run->njobs; i++) {
			struct job *j = &run->jobs[i];

			for (uint32_t k = 0; k < j->nsec; k++) {
				for (int d = 0; d < SC_DIR_COUNT; d++) {
					out->seconds[k].bytes[d] += j->sec[k].bytes[d];
					out->seconds[k].ios[d] += j->sec[k].ios[d];
					if (j->sec[k].max_lat_ns[d] > out->seconds[k].max_lat_ns[d])
						out->seconds[k].max_lat_ns[d] =
							j->sec[k].max_lat_ns[d];
				}
			}
		}
	}
	return rc;
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
	pthread_mutex_destroy(&run->lock);
	pthread_cond_destroy(&run->cond);
	free(run);
}
