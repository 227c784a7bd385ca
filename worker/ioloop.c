/* ioloop.c -- the one I/O loop: slots, queue, submit, reap, account (ioloop.h). */
#include "ioloop.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "job_priv.h"

/* One run's state; the job's slot arrays (sc_job_alloc) hold the rest. */
struct loop {
	struct job *j;
	const struct sc_ioloop_ops *ops;
	const struct sc_ioloop *lp;
	uint32_t depth;
	uint32_t batch;      /* I/Os queued per submission at most */
	uint32_t nfree;      /* free slots: the top nfree of j->free_slots */
	uint32_t inflight;   /* submitted, not yet reaped (held ones included) */
	uint32_t nheld;      /* throttled: done by the engine, reported at
			      * their departure (j->held) */
	uint32_t nq;         /* queued this round, not yet submitted */
	uint64_t issued;     /* bytes of the I/Os started (as next counts them) */
	uint64_t writes;     /* writes since the last fsync */
	bool stopping;       /* nothing more is issued */
	bool until;          /* the engine's reap_until can time a wait */
	bool throttled;      /* the job's I/Os pass through thr */
	uint64_t reaped_ns;  /* when the last reap returned (0: not since the
			      * top of the round); the next round starts then */
	struct sc_throttle thr;
};

/* The path of x's file, for a report: ops->path's into buf, or j->path. */
static const char *io_path(const struct job *j, const struct sc_ioloop_ops *ops,
			   const struct sc_io *x, char *buf, size_t cap)
{
	if (!ops->path)
		return j->path;
	ops->path(j, x, buf, cap);
	return buf;
}

/* A failed I/O (off the hot path): sc_job_io_failed's answer. */
static __attribute__((cold)) int io_failed(struct job *j, const struct sc_ioloop_ops *ops,
					   const struct sc_io *x, uint32_t want)
{
	char buf[sizeof(j->path)];

	return sc_job_io_failed(j, x, want, io_path(j, ops, x, buf, sizeof(buf)));
}

/* The engine refused x: the job cannot go on. */
static __attribute__((cold)) void queue_failed(struct job *j, const struct sc_ioloop_ops *ops,
					       const struct sc_io *x, int rc)
{
	char buf[sizeof(j->path)];

	sc_job_fail(j, rc, "queueing a %s of %s: %s", sc_job_op_name(x),
		    io_path(j, ops, x, buf, sizeof(buf)), strerror(-rc));
}

/* Decides, once for good, that nothing more is issued; open loop: counts
 * what the schedule held that never went out. */
static void check_stop(struct loop *l, uint64_t now)
{
	const struct sc_ioloop *lp = l->lp;

	if (l->stopping ||
	    !(atomic_load_explicit(&l->j->run->stop, memory_order_relaxed) || l->j->err ||
	      (lp->deadline_ns && now >= lp->deadline_ns) || l->issued >= lp->budget_bytes))
		return;
	l->stopping = true;
	if (lp->pace && l->issued < lp->budget_bytes)
		l->j->unissued_ios = sc_pace_backlog(
			lp->pace, lp->measure_start_ns,
			lp->deadline_ns && now > lp->deadline_ns ? lp->deadline_ns : now);
}

/* An fsync after every fsync_every writes, and once more for the last
 * ones when the loop stops. */
static bool fsync_due(const struct loop *l)
{
	const struct sc_ioloop *lp = l->lp;

	if (!lp->fsync_every || !l->writes || l->j->err)
		return false;
	if (l->writes >= lp->fsync_every)
		return true;
	return l->stopping && (lp->fsync_when_stopped ||
			       !atomic_load_explicit(&l->j->run->stop, memory_order_relaxed));
}

static void queue_fsync(struct loop *l)
{
	struct job *j = l->j;
	struct sc_io *f = &j->ios[j->free_slots[l->nfree - 1]];

	f->op = SC_OP_FSYNC;
	f->len = 0;
	f->offset = 0;
	if (j->ops->queue(j->eng, f) == 0) {
		l->nfree--;
		j->queued[l->nq++] = f;
		l->writes = 0;
	}
}

/* Queues I/Os into free slots while the workload has some to start and
 * the budget, the schedule and the fsync cadence allow.  (The hot path:
 * what the calls cannot change is kept in locals.) */
static void issue(struct loop *l, uint64_t now)
{
	struct job *j = l->j;
	const struct sc_ioloop *lp = l->lp;
	const struct sc_engine_ops *eops = j->ops;
	struct sc_engine *eng = j->eng;
	struct sc_verifier *vfy = j->vfy;
	struct sc_wdata *wd = j->wd;
	struct sc_pace *pace = lp->pace;
	int (*next)(struct job *, struct sc_io *) = l->ops->next;
	uint64_t budget = lp->budget_bytes, every = lp->fsync_every, issued = l->issued;
	uint32_t nfree = l->nfree, nq = l->nq;
	/* a workload that claims work claims only what this batch takes */
	uint32_t room = nfree < l->batch ? nfree : l->batch;
	uint32_t n = l->ops->claim ? l->ops->claim(j, room) : room;

	for (; n > 0 && issued < budget && (!pace || pace->next_ns <= now); n--) {
		uint32_t slot = j->free_slots[nfree - 1];
		struct sc_io *x = &j->ios[slot];
		int want = next(j, x), rc;

		if (want < 0)
			break; /* e.g. verify: wait for the I/O on that block */
		/* verify: a write's buffer gets its block just before it is queued */
		if (vfy && x->op == SC_OP_WRITE)
			sc_verifier_fill(vfy, j->iov[x->buf].iov_base, x->offset);
		/* else fresh data: each write its own bytes, on this thread */
		else if (wd && x->op == SC_OP_WRITE)
			sc_wdata_fill(wd, j->iov[x->buf].iov_base, x->len);
		rc = eops->queue(eng, x);
		if (rc) {
			queue_failed(j, l->ops, x, rc);
			break;
		}
		if (vfy)
			sc_verifier_start(vfy, x->buf, x->offset, x->op == SC_OP_WRITE);
		if (pace) {
			x->intended_ns = pace->next_ns;
			sc_pace_advance(pace);
		}
		j->slot_want[slot] = (uint32_t)want;
		nfree--;
		j->queued[nq++] = x;
		issued += (uint32_t)want;
		if (x->op == SC_OP_WRITE && every && ++l->writes >= every)
			break;
	}
	l->issued = issued;
	l->nfree = nfree;
	l->nq = nq;
}

/* Stamps what issue or queue_fsync queued (throttled: with its departure
 * from the service queue) and submits it, unless handover: then the next
 * reap hands it to the engine along with its wait (submit_reap).  0 or
 * -errno (the job failed). */
static int submit(struct loop *l, bool handover)
{
	struct job *j = l->j;
	const struct sc_ioloop *lp = l->lp;
	uint64_t t = sc_now_ns();
	int r;

	for (uint32_t i = 0; i < l->nq; i++)
		j->queued[i]->submit_ns = t;
	for (uint32_t i = 0; l->throttled && i < l->nq; i++)
		j->queued[i]->due_ns = sc_throttle_admit(&l->thr, t, j->queued[i]->len);
	for (uint32_t i = 0; lp->pace && i < l->nq; i++) {
		const struct sc_io *q = j->queued[i];

		if (q->op != SC_OP_FSYNC && q->intended_ns >= lp->measure_start_ns &&
		    t - q->intended_ns > SC_PACE_LATE_NS)
			j->late_ios++;
	}
	l->inflight += l->nq;
	if (handover)
		return 0;
	r = j->ops->submit(j->eng);
	if (r < 0) {
		sc_job_fail(j, r, "submitting I/O to %s: %s", j->path, strerror(-r));
		return r;
	}
	return 0;
}

/* Grows the per-second series to hold second k: NULL when it cannot. */
static __attribute__((cold)) struct sc_second *second_grow(struct job *j, uint64_t k)
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
	j->nsec = (uint32_t)k + 1;
	return &j->sec[k];
}

/* Second k of the series, grown to hold it (at most once per doubling,
 * and not at all for a timed phase: sc_ioloop_reserve_seconds); NULL when it
 * cannot grow. */
static inline struct sc_second *second_at(struct job *j, uint64_t k)
{
	return k < j->nsec ? &j->sec[k] : second_grow(j, k);
}

void sc_ioloop_reserve_seconds(struct job *j, uint64_t n)
{
	if (n)
		second_at(j, n - 1);
	j->nsec = 0;
}

/* Makes the job's measured bytes and I/Os so far visible to sc_run_bytes
 * and sc_run_ios: once per reaped batch, not per I/O (the I/Os of a batch
 * complete at one instant anyway). */
static inline void publish(struct job *j)
{
	atomic_store_explicit(&j->done_bytes, j->bytes[0] + j->bytes[1], memory_order_relaxed);
	atomic_store_explicit(&j->done_ios, j->ios_done[0] + j->ios_done[1], memory_order_relaxed);
}

/* Accounts one completed read or write of len bytes: service latency lat,
 * completion at now; ignored before measure_start (ramp). */
static void account(struct job *j, int dir, uint32_t len, uint64_t lat, uint64_t now,
		    uint64_t measure_start)
{
	struct sc_second *s;

	if (now < measure_start || now - lat < measure_start)
		return; /* ramp */
	s = second_at(j, (now - measure_start) / SC_NS_PER_S);
	sc_hist_record(j->hist[dir], lat);
	j->bytes[dir] += len;
	j->ios_done[dir]++;
	if (s) {
		s->bytes[dir] += len;
		s->ios[dir]++;
		if (lat > s->max_lat_ns[dir])
			s->max_lat_ns[dir] = lat;
	}
	j->last_ns = now;
}

void sc_ioloop_account(struct job *j, int dir, uint32_t len, uint64_t lat, uint64_t now,
		       uint64_t measure_start)
{
	account(j, dir, len, lat, now, measure_start);
	publish(j);
}

/* Open loop: accounts a completed I/O as account does (service time) and
 * records its response time, from its intended start.  An I/O intended
 * during the ramp counts in neither, however late it ran. */
static void account_open(struct job *j, int dir, uint32_t len, const struct sc_io *io,
			 uint64_t now, uint64_t measure_start)
{
	if (io->intended_ns < measure_start)
		return; /* ramp */
	account(j, dir, len, now - io->submit_ns, now, measure_start);
	sc_hist_record(j->hist[SC_HK_RESP_READ + dir], now - io->intended_ns);
}


/* Accounts completed x.  1 when it moved its bytes, 0 when it failed and
 * the job goes on, -1 when it failed and the job stops. */
static int complete(struct loop *l, struct sc_io *x, uint64_t now)
{
	struct job *j = l->j;
	const struct sc_ioloop *lp = l->lp;
	uint32_t want, bytes;
	int dir;

	if (x->op == SC_OP_FSYNC) {
		if (x->res >= 0) {
			j->fsyncs++;
			return 1;
		}
		return -io_failed(j, l->ops, x, 0);
	}
	/* every read is checked, ramp included: bad data is bad at any time */
	if (j->vfy)
		sc_verifier_done(j->vfy, x->buf, j->iov[x->buf].iov_base,
				 x->res >= 0 && (uint32_t)x->res == x->len);
	want = j->slot_want[x->buf];
	if (x->res < 0 || (uint32_t)x->res < want)
		return -io_failed(j, l->ops, x, want);
	if (x->submit_ns < lp->measure_start_ns)
		return 1; /* ramp */
	dir = x->op == SC_OP_WRITE ? SC_DIR_WRITE : SC_DIR_READ;
	bytes = lp->acct_bytes ? lp->acct_bytes : want;
	if (lp->pace)
		account_open(j, dir, bytes, x, now, lp->measure_start_ns);
	else
		account(j, dir, bytes, now - x->submit_ns, now, lp->measure_start_ns);
	return 1;
}

/* Throttled: the earliest departure of the held I/Os; 0: none held. */
static uint64_t held_due(const struct loop *l)
{
	uint64_t due = UINT64_MAX;

	for (uint32_t i = 0; i < l->nheld; i++)
		if (l->j->held[i]->due_ns < due)
			due = l->j->held[i]->due_ns;
	return l->nheld ? due : 0;
}

/* The earlier of the deadline and due, as a deadline (0: neither). */
static uint64_t wake_cap(const struct loop *l, uint64_t due)
{
	uint64_t d = l->lp->deadline_ns;

	return !d || (due && due < d) ? due : d;
}

/* Waits for the engine's completions into j->done: for one (not past due,
 * the first held departure, nor the pace's next start; 0: none) unless
 * pacing, with what submit left queued when handover.  The count, or
 * -errno. */
static int engine_reap(struct loop *l, bool pacing, bool handover, uint64_t due)
{
	struct job *j = l->j;
	struct sc_pace *pace = l->lp->pace;
	int n;

	if (handover)
		return j->ops->submit_reap(j->eng, j->done, l->depth, 1);
	if ((pacing || due) && l->until) {
		n = pacing ? sc_pace_reap(pace, j->ops, j->eng, j->done, l->depth, wake_cap(l, due))
			   : j->ops->reap_until(j->eng, j->done, l->depth, due);
		if (n != -EOPNOTSUPP)
			return n;
		/* one that cannot time a wait (io_uring before Linux 5.11) */
		l->until = false;
	}
	/* without a timed wait: reap, and poll while a wait has a bound */
	n = j->ops->reap(j->eng, j->done, l->depth, pacing || due ? 0 : 1);
	if (n == 0 && pacing) {
		sc_pace_sleep(pace, l->inflight - l->nheld, wake_cap(l, due));
	} else if (n == 0 && due) {
		uint64_t poll = sc_now_ns() + SC_POLL_INFLIGHT_NS;

		sc_sleep_until(due < poll ? due : poll);
	}
	return n;
}

/* Every I/O held: sleeps until the first departure, the deadline, or
 * the stop poll bound, whichever comes first (a slow throttle's departure
 * may be far, and a stop must still be noticed). */
static void sleep_held(const struct loop *l, uint64_t due)
{
	uint64_t wake = wake_cap(l, due), poll = sc_now_ns() + SC_STOP_POLL_NS;

	sc_sleep_until(wake < poll ? wake : poll);
}

/* Reports x done at now (complete) and frees its slot. */
static void finish(struct loop *l, struct sc_io *x, uint64_t now, uint32_t *ok, uint32_t *failed)
{
	int c = complete(l, x, now);

	*ok += c > 0;
	*failed += c == 0;
	l->j->free_slots[l->nfree++] = x->buf;
	l->inflight--;
}

/* Reaps what completed (waits for one unless pacing) and frees the slots;
 * throttled, holds back an I/O the engine completed before its departure
 * and reports it once that has come (waiting for it when nothing else can
 * come first).  handover: first submits what submit left queued, in the
 * same engine call (never when pacing nor holding).  The count reaped, or
 * -errno (the job failed). */
static int reap(struct loop *l, bool pacing, bool handover)
{
	struct job *j = l->j;
	uint32_t ok = 0, failed = 0;
	uint64_t now, due = held_due(l);
	int n = 0;

	/* every I/O held: until a departure, or the pace's next start (when
	 * one already due was not started, only a completion can help) */
	if (l->inflight > l->nheld)
		n = engine_reap(l, pacing, handover, due);
	else if (pacing && l->lp->pace->next_ns > sc_now_ns())
		sc_pace_sleep(l->lp->pace, 0, wake_cap(l, due));
	else
		sleep_held(l, due);
	if (n < 0) {
		sc_job_fail(j, n, "%s on %s: %s",
			    handover ? "submitting or waiting for I/O" : "waiting for I/O", j->path,
			    strerror(-n));
		return n;
	}
	now = sc_now_ns();
	l->reaped_ns = now;
	for (int i = 0; i < n; i++) {
		if (l->throttled && j->done[i]->due_ns > now)
			j->held[l->nheld++] = j->done[i];
		else
			finish(l, j->done[i], now, &ok, &failed);
	}
	for (uint32_t i = 0; i < l->nheld;) {
		struct sc_io *x = j->held[i];

		if (x->due_ns > now) {
			i++;
			continue;
		}
		j->held[i] = j->held[--l->nheld];
		finish(l, x, now, &ok, &failed);
	}
	publish(j);
	if (l->ops->reaped)
		l->ops->reaped(j, ok, failed);
	return n;
}

/* The job's throttle, when its target has one: its share of the rank's
 * rate. */
static void throttle_start(struct loop *l)
{
	const struct sc_run *run = l->j->run;
	uint64_t cap = run->place.target < run->plan->ntargets
			   ? run->plan->targets[run->place.target].throttle_bytes_per_s
			   : 0;
	uint64_t share = cap / (run->njobs ? run->njobs : 1);

	l->throttled = share > 0;
	if (l->throttled)
		sc_throttle_init(&l->thr, share);
}

uint32_t sc_ioloop_batch(const struct sc_io_spec *io, uint32_t depth, bool kernel_batches)
{
	uint32_t b = io->submit_batch ? io->submit_batch : kernel_batches ? depth / 4 : depth;

	if (b > depth)
		b = depth;
	return b ? b : 1;
}

void sc_ioloop_run(struct job *j, const struct sc_ioloop_ops *ops, const struct sc_ioloop *lp)
{
	struct loop l = {.j = j, .ops = ops, .lp = lp, .depth = j->run->io->iodepth,
			 .until = j->ops->reap_until != NULL};
	/* the clock is read at the top of a round only for a deadline or a
	 * pace */
	bool timed = lp->deadline_ns || lp->pace;

	l.batch = sc_ioloop_batch(j->run->io, l.depth, j->ops->submit_reap != NULL);
	throttle_start(&l);
	for (l.nfree = 0; l.nfree < l.depth; l.nfree++)
		j->free_slots[l.nfree] = l.nfree;
	for (;;) {
		/* a round follows a reap at once: its clock read will do
		 * (each costs 75-110 ns on kvm-clock here) */
		uint64_t now = !timed ? 0 : l.reaped_ns ? l.reaped_ns : sc_now_ns();
		bool need_fsync, pacing, handover, more;

		l.reaped_ns = 0;
		check_stop(&l, now);
		need_fsync = fsync_due(&l);
		l.nq = 0;
		if (need_fsync) {
			if (l.inflight == 0)
				queue_fsync(&l);
		} else if (!l.stopping) {
			issue(&l, now);
		}
		/* open loop with a slot free: the schedule, not a completion,
		 * may be what comes next, so never block in reap */
		pacing = lp->pace && !l.stopping && !need_fsync && l.nfree > 0 &&
			 l.issued < lp->budget_bytes;
		/* the I/Os just queued go to the engine with the wait for
		 * the next completion, in one call where it has one (not
		 * while a held I/O's departure may come first) */
		more = l.nq == l.batch && l.nfree > 0 && !need_fsync;
		handover = l.nq && !more && !pacing && !l.nheld && j->ops->submit_reap;
		if (l.nq && submit(&l, handover) < 0)
			break;
		/* a full batch and slots still free: submit the next batch
		 * before waiting (submit_batch) */
		if (more)
			continue;
		if (l.inflight == 0) {
			if (l.stopping && !need_fsync)
				break;
			if (l.nq == 0 && need_fsync)
				break; /* cannot queue an fsync on an idle engine */
			if (pacing)
				sc_pace_sleep(lp->pace, 0, lp->deadline_ns);
			else if (ops->idle && ops->idle(j))
				break;
			continue;
		}
		if (reap(&l, pacing, handover) < 0)
			break;
	}
}
