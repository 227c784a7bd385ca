/* uring.c -- io_uring engine: one ring per job thread.
 *
 * The only file that includes liburing.h.  Files and buffers are registered
 * with the ring when the kernel allows it (fixed files, read/write_fixed);
 * otherwise the same I/Os go through plain read/write with the raw fds.
 */
#include "engine.h"

#include <errno.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "engine_priv.h"
#include "units.h"
#include "uring_target.h"

/* Ring flags to try first; a kernel that knows none of them gets 0.
 * SINGLE_ISSUER binds the ring to the thread that enables it: the ring is
 * created disabled and the first submit enables it, so the engine may be
 * created on another thread than the job thread that drives it.
 * COOP_TASKRUN spares the job thread IPIs; TASKRUN_FLAG tells a non-waiting
 * reap when completions still need a kernel entry to show up.
 * DEFER_TASKRUN was measured instead of COOP_TASKRUN (4 KiB randread QD32
 * O_DIRECT, docs/performance.md): 15% fewer IOPS and 1.56x the CPU per I/O
 * on a virtio disk (the waiter is woken at the first completion of a
 * burst), and it lets only the submitting thread reap, which destroy
 * cannot promise; so COOP_TASKRUN stays. */
#ifdef IORING_SETUP_SINGLE_ISSUER
#define SETUP_ISSUER (IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED)
#else
#define SETUP_ISSUER 0u
#endif
#if defined(IORING_SETUP_COOP_TASKRUN) && defined(IORING_SETUP_TASKRUN_FLAG)
#define SETUP_TASKRUN (IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG)
#else
#define SETUP_TASKRUN 0u
#endif
#ifdef IORING_SETUP_SUBMIT_ALL
#define SETUP_SUBMIT_ALL IORING_SETUP_SUBMIT_ALL
#else
#define SETUP_SUBMIT_ALL 0u
#endif
#define SETUP_FAST (SETUP_ISSUER | SETUP_TASKRUN | SETUP_SUBMIT_ALL)

/* Bytes of an SQE128 entry from its cmd field on. */
#define URING_CMD_BYTES (2 * sizeof(struct io_uring_sqe) - offsetof(struct io_uring_sqe, cmd))

/* Where the target checks of the options read sysfs, and where passthrough
 * opens a namespace's generic device. */
#define SYSFS_ROOT "/sys"
#define DEV_ROOT   "/dev"

/* Times submit retries a kernel that is briefly short of resources
 * (-EAGAIN) before handing the error to the job. */
#define SUBMIT_AGAIN_MAX 64

/* Reads and writes, by op, with [1] the opcode on registered buffers. */
static const uint8_t rw_opcode[][2] = {
	[SC_OP_READ] = {IORING_OP_READ, IORING_OP_READ_FIXED},
	[SC_OP_WRITE] = {IORING_OP_WRITE, IORING_OP_WRITE_FIXED},
};

/* Rings set up by this process so far (sc_engine_uring_rings). */
static _Atomic uint64_t rings_set_up;

struct sc_engine {
	struct engine_res res;	     /* first: engine_alloc fills it */
	struct io_uring ring;
	uint32_t nqueued;	     /* SQEs prepared, not yet submitted */
	uint32_t ninflight;	     /* submitted, not yet reaped */
	bool fixed_files;	     /* fds registered: SQEs carry the index */
	bool fixed_bufs;	     /* bufs registered: read/write_fixed */
	bool disabled;		     /* created R_DISABLED, first submit enables */
	bool passthru;		     /* NVMe commands (SQE128 | CQE32 ring) */
	int ng_fd;		     /* passthru: the generic device of fds[0]'s
				      * namespace, which the I/Os go to; else -1 */
	struct sc_nvme_ns ns;	     /* passthru: the namespace of fds[0] */
	struct io_uring_cqe *cqes[]; /* depth slots for batch reaping */
};

/* The ring flags of each option and their names in a reason. */
static const struct {
	enum sc_io_opt opt;
	unsigned flags;
	const char *name;
} opt_flags[] = {
    {SC_IO_OPT_SQPOLL, IORING_SETUP_SQPOLL, "IORING_SETUP_SQPOLL"},
    {SC_IO_OPT_HIPRI, IORING_SETUP_IOPOLL, "IORING_SETUP_IOPOLL"},
    {SC_IO_OPT_PASSTHRU, IORING_SETUP_SQE128 | IORING_SETUP_CQE32,
     "IORING_SETUP_SQE128|IORING_SETUP_CQE32"},
};
#define NOPT_FLAGS (sizeof(opt_flags) / sizeof(opt_flags[0]))

/* Rings set up with each option (sc_engine_uring_sqpoll_rings, ...). */
static _Atomic uint64_t opt_rings[NOPT_FLAGS];

static void count_opt_rings(unsigned flags)
{
	for (size_t i = 0; i < NOPT_FLAGS; i++)
		if ((flags & opt_flags[i].flags) == opt_flags[i].flags)
			atomic_fetch_add_explicit(&opt_rings[i], 1, memory_order_relaxed);
}

/* Option opt_flags[i] is left out: the kernel refused it with err. */
static void refused_opt(const struct sc_engine *e, const struct sc_engine_conf *conf, size_t i,
			int err)
{
	char where[96] = "";

	if (!conf->opts)
		return;
	if (opt_flags[i].opt == SC_IO_OPT_SQPOLL && conf->sqpoll_cpu >= 0)
		snprintf(where, sizeof(where), " on CPU %d", (int)conf->sqpoll_cpu);
	if (opt_flags[i].opt == SC_IO_OPT_PASSTHRU)
		snprintf(where, sizeof(where), " for %s (of %s)", e->ns.ng, e->ns.block);
	sc_io_opts_unavailable(conf->opts, opt_flags[i].opt, "kernel refused %s%s: %s",
			       opt_flags[i].name, where, strerror(-err));
}

/* The parameters of a ring with the options opts (IORING_SETUP_* bits):
 * SQPOLL on sqpoll_cpu when conf names one. */
static struct io_uring_params opt_params(unsigned opts, const struct sc_engine_conf *conf)
{
	struct io_uring_params p = {.flags = opts};

	if ((opts & IORING_SETUP_SQPOLL) && conf->sqpoll_cpu >= 0) {
		p.flags |= IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = (uint32_t)conf->sqpoll_cpu;
	}
	return p;
}

/* A ring of depth entries as p0 says, with SETUP_FAST when the kernel
 * takes it.  0 or -errno. */
static int ring_try(uint32_t depth, struct io_uring *ring, const struct io_uring_params *p0)
{
	struct io_uring_params p = *p0;
	int ret;

	if (SETUP_FAST) {
		p.flags |= SETUP_FAST;
		ret = io_uring_queue_init_params(depth, ring, &p);
		if (ret != -EINVAL)
			return ret;
		p = *p0;
	}
	return io_uring_queue_init_params(depth, ring, &p);
}

/* The kernel refused a ring with the options *opts (with together): those
 * it refuses alone are dropped and reported with its reason for each;
 * when the rest still fail together, they are dropped too, reported with
 * the reason for them all.  Then sets up the ring with what is left.
 * 0 or -errno. */
static int ring_without_refused(struct sc_engine *e, unsigned *opts,
				const struct sc_engine_conf *conf, int together)
{
	struct io_uring_params p;
	int ret = together;

	for (size_t i = 0; i < NOPT_FLAGS; i++) {
		struct io_uring probe;
		int alone;

		if (!(*opts & opt_flags[i].flags))
			continue;
		p = opt_params(opt_flags[i].flags, conf);
		alone = ring_try(e->res.depth, &probe, &p);
		if (alone == 0) {
			io_uring_queue_exit(&probe);
			continue;
		}
		*opts &= ~opt_flags[i].flags;
		refused_opt(e, conf, i, alone);
	}
	if (*opts) {
		p = opt_params(*opts, conf);
		ret = ring_try(e->res.depth, &e->ring, &p);
	}
	for (size_t i = 0; ret < 0 && i < NOPT_FLAGS; i++)
		if (*opts & opt_flags[i].flags)
			refused_opt(e, conf, i, ret);
	if (ret < 0 || !*opts) {
		*opts = 0;
		p = opt_params(0, conf);
		ret = ring_try(e->res.depth, &e->ring, &p);
	}
	return ret;
}

/* Sets up the ring with the options in *opts (IORING_SETUP_* bits); one
 * the kernel refuses is dropped from *opts and reported unavailable with
 * the kernel's reason. */
static int ring_init(struct sc_engine *e, unsigned *opts, const struct sc_engine_conf *conf)
{
	struct io_uring_params p = opt_params(*opts, conf);
	int ret = ring_try(e->res.depth, &e->ring, &p);

	if (ret < 0 && *opts)
		ret = ring_without_refused(e, opts, conf, ret);
	if (ret == 0) {
		e->disabled = (e->ring.flags & IORING_SETUP_R_DISABLED) != 0;
		atomic_fetch_add_explicit(&rings_set_up, 1, memory_order_relaxed);
		count_opt_rings(e->ring.flags);
	}
	return ret;
}

/* io_uring_enable_rings() is declared but not exported by liburing 2.3
 * (Debian 12), so enable the ring with the system call itself. */
static int ring_enable(struct io_uring *ring)
{
	long ret = syscall(__NR_io_uring_register, ring->ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0);

	return ret < 0 ? -errno : 0;
}

/* Passthrough for conf's target (one block device, fds[0]): e->ng_fd
 * opened on its namespace's generic device when the target is a whole
 * NVMe namespace and the job's I/Os are whole blocks of it; else reported
 * unavailable, naming the target.  Whether it is. */
static bool passthru_open(struct sc_engine *e, const struct sc_engine_conf *conf)
{
	char why[SC_URING_WHY_MAX];
	int fd = e->res.nfds == 1 && !conf->fds_change ? e->res.fds[0] : -1;
	int ng = sc_uring_ng_open(conf->sysfs_root ? conf->sysfs_root : SYSFS_ROOT,
				  conf->dev_root ? conf->dev_root : DEV_ROOT, fd, &e->ns, why,
				  sizeof(why));

	if (ng >= 0 && sc_uring_ng_align(&e->ns, conf->io_align_bytes, why, sizeof(why)) != 0) {
		close(ng);
		ng = -EINVAL;
	}
	if (ng < 0) {
		if (conf->opts)
			sc_io_opts_unavailable(conf->opts, SC_IO_OPT_PASSTHRU, "%s", why);
		return false;
	}
	e->ng_fd = ng;
	return true;
}

/* The IORING_SETUP_* bits of the options conf asks for that its target
 * (fds[0]) can have; those it cannot are reported unavailable. */
static unsigned wanted_opts(struct sc_engine *e, const struct sc_engine_conf *conf)
{
	char why[SC_URING_WHY_MAX];
	int fd = e->res.nfds && !conf->fds_change ? e->res.fds[0] : -1;
	unsigned opts = conf->sqpoll ? IORING_SETUP_SQPOLL : 0;

	if (conf->hipri) {
		if (sc_uring_poll_check(conf->sysfs_root ? conf->sysfs_root : SYSFS_ROOT, fd, why,
					sizeof(why)) == 0)
			opts |= IORING_SETUP_IOPOLL;
		else if (conf->opts)
			sc_io_opts_unavailable(conf->opts, SC_IO_OPT_HIPRI, "%s", why);
	}
	if (conf->passthrough && passthru_open(e, conf))
		opts |= IORING_SETUP_SQE128 | IORING_SETUP_CQE32;
	return opts;
}

static int uring_create(struct sc_engine **out, const struct sc_engine_conf *conf)
{
	int ret;
	unsigned opts;
	struct sc_engine *e = engine_alloc(conf, sizeof(*e), sizeof(e->cqes[0]), &ret);

	if (!e)
		return ret;
	e->ng_fd = -1;
	opts = wanted_opts(e, conf);
	ret = ring_init(e, &opts, conf);
	if (ret < 0)
		goto out_free;
	e->passthru = (opts & IORING_SETUP_SQE128) != 0;
	if (!e->passthru && e->ng_fd >= 0) {
		/* the kernel refused the big entries (reported by ring_init) */
		close(e->ng_fd);
		e->ng_fd = -1;
	}
	/* Either may fail (memlock limit, too many files, a buffer the kernel
	 * cannot pin): the plain path then does the same I/O a little slower.
	 * Descriptors the caller changes between I/Os are read at each one.
	 * Passthrough's one file is the generic device, at the same index 0. */
	if (e->passthru)
		e->fixed_files = io_uring_register_files(&e->ring, &e->ng_fd, 1) == 0;
	else if (e->res.nfds && !conf->fds_change)
		e->fixed_files =
			io_uring_register_files(&e->ring, e->res.fds, e->res.nfds) == 0;
	if (e->res.nbufs)
		e->fixed_bufs =
			io_uring_register_buffers(&e->ring, e->res.bufs, e->res.nbufs) == 0;
	*out = e;
	return 0;

out_free:
	if (e->ng_fd >= 0)
		close(e->ng_fd);
	free(e);
	return ret;
}

/* cmd (an SQE128 entry's) as the NVMe command on sqe. */
static void prep_nvme(struct io_uring_sqe *sqe, int fd, const struct nvme_uring_cmd *cmd)
{
	_Static_assert(sizeof(*cmd) <= URING_CMD_BYTES, "nvme_uring_cmd fits an SQE128 entry");
	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
	sqe->cmd_op = NVME_URING_CMD_IO;
	/* cmd[] is declared empty: the entry's second half holds the rest */
	memcpy((char *)sqe + offsetof(struct io_uring_sqe, cmd), cmd, sizeof(*cmd));
}

static int uring_queue(struct sc_engine *e, struct sc_io *io)
{
	struct io_uring_sqe *sqe;
	struct nvme_uring_cmd cmd;
	int fd;

	if (!engine_io_valid(io, e->res.nfds, e->res.bufs, e->res.nbufs))
		return -EINVAL;
	/* passthrough: whole logical blocks (create checked the job's
	 * alignment; this keeps a stray I/O from becoming a wrong command) */
	if (e->passthru &&
	    sc_nvme_cmd_build(&cmd, sizeof(cmd), &e->ns, io->op,
			      io->op == SC_OP_FSYNC ? NULL : e->res.bufs[io->buf].iov_base, io->len,
			      io->offset) < 0)
		return -EINVAL;
	if (e->nqueued + e->ninflight >= e->res.depth)
		return -EBUSY;
	sqe = io_uring_get_sqe(&e->ring);
	if (!sqe)
		return -EBUSY;

	if (e->fixed_files)
		fd = (int)io->file;
	else
		fd = e->passthru ? e->ng_fd : e->res.fds[io->file];
	if (e->passthru) {
		prep_nvme(sqe, fd, &cmd);
	} else if (io->op == SC_OP_FSYNC) {
		io_uring_prep_fsync(sqe, fd, 0);
	} else {
		/* what io_uring_prep_{read,write}[_fixed] do */
		io_uring_prep_rw(rw_opcode[io->op][e->fixed_bufs], sqe, fd,
				 e->res.bufs[io->buf].iov_base, io->len, io->offset);
		if (e->fixed_bufs)
			sqe->buf_index = (uint16_t)io->buf;
	}
	if (e->fixed_files)
		io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
	io_uring_sqe_set_data(sqe, io);
	e->nqueued++;
	return 0;
}

static int uring_submit(struct sc_engine *e)
{
	int submitted = 0;
	int again = 0;

	if (!e->nqueued)
		return 0;
	if (e->disabled) {
		int ret = ring_enable(&e->ring);

		if (ret < 0)
			return ret;
		e->disabled = false;
	}
	/* Without SUBMIT_ALL the kernel stops at an SQE it rejects (that one
	 * still completes with an error): submit the rest too. */
	while (e->nqueued) {
		int ret = io_uring_submit(&e->ring);

		if (ret > 0) {
			uint32_t n = (uint32_t)ret < e->nqueued ? (uint32_t)ret : e->nqueued;

			e->nqueued -= n;
			e->ninflight += n;
			submitted += (int)n;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if ((ret == -EAGAIN || ret == 0) && again++ < SUBMIT_AGAIN_MAX) {
			sched_yield();
			continue;
		}
		if (submitted)
			break;
		return ret < 0 ? ret : -EAGAIN;
	}
	return submitted;
}

/* An NVMe command's result as a read's or write's: its bytes when the
 * command succeeded (0), -EIO for an NVMe status (> 0). */
static int32_t nvme_res(int32_t res, const struct sc_io *io)
{
	if (res == 0)
		return (int32_t)io->len;
	return res < 0 ? res : -EIO;
}

/* Hands up to max completed I/Os to done[]; how many. */
static int reap_ready(struct sc_engine *e, struct sc_io **done, uint32_t max)
{
	unsigned n;

	if (max > e->res.depth)
		max = e->res.depth;
	n = io_uring_peek_batch_cqe(&e->ring, e->cqes, max);
	for (unsigned i = 0; i < n; i++) {
		struct sc_io *io = io_uring_cqe_get_data(e->cqes[i]);

		io->res = e->passthru ? nvme_res(e->cqes[i]->res, io) : e->cqes[i]->res;
		done[i] = io;
	}
	io_uring_cq_advance(&e->ring, n);
	e->ninflight -= n;
	return (int)n;
}

static int uring_reap(struct sc_engine *e, struct sc_io **done, uint32_t max, uint32_t min_wait)
{
	struct io_uring_cqe *cqe;

	/* Waiting for more than is in flight would never return. */
	if (min_wait > e->ninflight)
		min_wait = e->ninflight;
	while (io_uring_cq_ready(&e->ring) < min_wait) {
		int ret = io_uring_wait_cqe_nr(&e->ring, &cqe, min_wait);

		if (ret < 0 && ret != -EINTR && ret != -EAGAIN)
			return ret;
	}
	return reap_ready(e, done, max);
}

/* What the job loop does most: hand over the I/Os just queued and sleep
 * until one completes.  io_uring_submit_and_wait does both in one
 * io_uring_enter (to_submit and min_complete together), half the kernel
 * entries of submit then reap.  Anything it leaves (an SQE the kernel
 * stopped at, EINTR, EAGAIN) falls to the two-step path, which copes. */
static int uring_submit_reap(struct sc_engine *e, struct sc_io **done, uint32_t max,
			     uint32_t min_wait)
{
	int ret;

	if (e->nqueued && !e->disabled) {
		uint32_t want = min_wait, pending = e->nqueued + e->ninflight;

		if (want > pending)
			want = pending;
		ret = io_uring_submit_and_wait(&e->ring, want);
		if (ret > 0) {
			uint32_t n = (uint32_t)ret < e->nqueued ? (uint32_t)ret : e->nqueued;

			e->nqueued -= n;
			e->ninflight += n;
		}
	}
	ret = uring_submit(e);
	if (ret < 0)
		return ret;
	return uring_reap(e, done, max, min_wait);
}

/* liburing 2.3 takes only a relative timeout, which the kernel adds to its
 * CLOCK_MONOTONIC: the wait ends at or just after deadline_ns.  Without
 * EXT_ARG (before Linux 5.11) liburing would queue a timeout SQE of its
 * own, taking a slot and submitting the caller's queued SQEs. */
static int uring_reap_until(struct sc_engine *e, struct sc_io **done, uint32_t max,
			    uint64_t deadline_ns)
{
	if (!(e->ring.features & IORING_FEAT_EXT_ARG))
		return -EOPNOTSUPP;
	if (e->disabled) {
		/* nothing submitted yet, and a disabled ring refuses waiters */
		sc_sleep_until(deadline_ns);
		return 0;
	}
	while (!io_uring_cq_ready(&e->ring)) {
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts;
		uint64_t now = sc_now_ns(), left;
		int ret;

		if (now >= deadline_ns)
			break;
		left = deadline_ns - now;
		ts.tv_sec = (long long)(left / SC_NS_PER_S);
		ts.tv_nsec = (long long)(left % SC_NS_PER_S);
		ret = io_uring_wait_cqes(&e->ring, &cqe, 1, &ts, NULL);
		if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN)
			return ret;
	}
	/* also collects completions still waiting for task work */
	return reap_ready(e, done, max);
}

static void uring_destroy(struct sc_engine *e)
{
	if (!e)
		return;
	/* I/Os in flight still read or fill the caller's buffers: let them
	 * land before the caller may free those. */
	while (e->ninflight) {
		struct io_uring_cqe *cqe;
		unsigned n;
		int ret = io_uring_wait_cqe(&e->ring, &cqe);

		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0)
			break;
		n = io_uring_cq_ready(&e->ring);
		if (n > e->ninflight)
			n = e->ninflight;
		io_uring_cq_advance(&e->ring, n);
		e->ninflight -= n;
	}
	io_uring_queue_exit(&e->ring);
	if (e->ng_fd >= 0)
		close(e->ng_fd);
	free(e);
}

uint64_t sc_engine_uring_rings(void)
{
	return atomic_load_explicit(&rings_set_up, memory_order_relaxed);
}

uint64_t sc_engine_uring_sqpoll_rings(void)
{
	return atomic_load_explicit(&opt_rings[0], memory_order_relaxed);
}

uint64_t sc_engine_uring_iopoll_rings(void)
{
	return atomic_load_explicit(&opt_rings[1], memory_order_relaxed);
}

uint64_t sc_engine_uring_passthru_rings(void)
{
	return atomic_load_explicit(&opt_rings[2], memory_order_relaxed);
}

const struct sc_engine_ops sc_engine_uring = {
    .name = "io_uring",
    .create = uring_create,
    .queue = uring_queue,
    .submit = uring_submit,
    .reap = uring_reap,
    .reap_until = uring_reap_until,
    .submit_reap = uring_submit_reap,
    .destroy = uring_destroy,
};
