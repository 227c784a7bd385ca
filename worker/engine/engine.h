/* engine.h -- I/O engines behind one small ops table (io_uring, psync, null, emulated).
 *
 * A job thread owns one engine instance.  It queues I/Os, submits them as a
 * batch and reaps completions.  Engines never allocate or lock on the
 * queue/submit/reap path.
 */
#ifndef SC_ENGINE_H
#define SC_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "io_opts.h"
#include "pattern.h"
#include "plan.h"

enum sc_op {
	SC_OP_READ = 0,    /* same values as enum sc_dir in result.h */
	SC_OP_WRITE = 1,
	SC_OP_FSYNC = 2,
};

/* One I/O.  The job owns these (an array of iodepth entries) and passes
 * pointers; the engine hands the same pointers back on completion. */
struct sc_io {
	uint64_t offset;        /* bytes, in the file */
	uint32_t len;           /* bytes; 0 for fsync */
	uint8_t op;             /* enum sc_op */
	uint16_t file;          /* index into sc_engine_conf.fds */
	uint32_t buf;           /* index into sc_engine_conf.bufs */
	int32_t res;            /* on completion: bytes done or -errno */
	uint64_t submit_ns;     /* the job's bookkeeping; engines ignore these */
	uint64_t intended_ns;
	uint64_t due_ns;        /* throttled: reported done no earlier */
};

/* What the fault-injecting wrapper (sc_engine_inject) fails, and what it
 * wraps.  The caller owns it, and may hand it to one engine after another:
 * the count goes on across them. */
struct sc_inject_state {
	const struct sc_engine_ops *inner; /* does the I/Os that are not failed */
	uint64_t every;         /* fail reads and writes number every, 2 x
				 * every, ... (counted from 1, in queue order) */
	uint32_t ppm;           /* or each one with this probability in parts
				 * per million, drawn from rng */
	int32_t errno_val;      /* they complete with res = -errno_val */
	uint64_t queued;        /* reads and writes queued so far */
	struct sc_pattern rng;  /* seeded (sc_pattern_init) by the caller */
};

/* The emulated drive's state and model calls: engine/emulated.h. */
struct sc_emulate_state;

struct sc_engine_conf {
	uint32_t depth;         /* most I/Os in flight at once */
	const int *fds;         /* files the I/Os refer to by index */
	uint32_t nfds;
	const struct iovec *bufs; /* buffers the I/Os refer to by index */
	uint32_t nbufs;
	struct sc_inject_state *inject; /* sc_engine_inject only (required
				 * there); other engines ignore it */
	struct sc_emulate_state *emulate; /* sc_engine_emulated only
				 * (required there) */
	bool fds_change;        /* the caller stores other descriptors in fds
				 * between I/Os (a checkpoint's next file; never
				 * while an I/O on that index is queued or in
				 * flight): each I/O uses the descriptor there
				 * when it is queued, and io_uring registers
				 * none */
	/* io_uring only (other engines ignore them): the phase's options
	 * (struct sc_io_spec).  One the kernel or the target (fds[0]) lacks
	 * is left out, never failing create, and said to opts with why
	 * (sc_io_opts_unavailable; opts NULL: not said). */
	bool sqpoll;            /* IORING_SETUP_SQPOLL */
	int32_t sqpoll_cpu;     /* its thread's CPU (SQ_AFF), -1: any */
	bool hipri;             /* IORING_SETUP_IOPOLL: only on a block device
				 * whose queue polls (io_poll 1) */
	bool passthrough;       /* NVMe read/write/flush commands
				 * (IORING_OP_URING_CMD): only when fds[0],
				 * the one file, is a block device that is a
				 * whole NVMe namespace and io_align_bytes is
				 * whole logical blocks of it; the I/Os then
				 * go to its /dev/ngXnY at the same offsets */
	uint64_t io_align_bytes; /* every offset and length the caller will
				 * queue is a multiple of this (0: unknown) */
	const char *sysfs_root; /* tests: a tree the option checks read for
				 * /sys; NULL: /sys */
	const char *dev_root;   /* tests: where /dev/ngXnY is opened from;
				 * NULL: /dev */
	struct sc_io_opts *opts;
};

struct sc_engine;           /* opaque, one per job thread */

/* What an engine can do: the flags word of its ops. */
enum sc_engine_flag {
	/* Moves no data: the phase opens, creates and needs no file (the
	 * null engine, which measures the tool itself). */
	SC_ENGINE_F_NO_FILES = 1u << 0,
	/* Reads and writes no byte of the I/Os' buffers: the job neither
	 * fills them nor makes fresh write data (the emulated drive, whose
	 * time is its model's; the null engine still makes the data, as the
	 * tool's own cost it measures). */
	SC_ENGINE_F_NO_DATA = 1u << 1,
};

struct sc_engine_ops {
	const char *name;
	unsigned flags;         /* enum sc_engine_flag bits */
	/* Set up for conf (fds and bufs stay owned by the caller and must
	 * outlive the engine).  0 or -errno (-EINVAL for depth 0); on error
	 * *out is untouched. */
	int (*create)(struct sc_engine **out, const struct sc_engine_conf *conf);
	/* Adds io to the next batch.  0, -EBUSY when depth I/Os are already
	 * queued or in flight, or -EINVAL for a bad file/buffer index, a len
	 * beyond the buffer (or 2 GiB), or an unknown op.  An engine belongs to
	 * the thread that first submits on it. */
	int (*queue)(struct sc_engine *e, struct sc_io *io);
	/* Submits everything queued.  Number submitted, or -errno. */
	int (*submit)(struct sc_engine *e);
	/* Waits until at least min_wait I/Os have completed (0: do not wait;
	 * more than are outstanding: as many as are),
	 * stores up to max completed I/Os in done[] with res set, returns how
	 * many, or -errno. */
	int (*reap)(struct sc_engine *e, struct sc_io **done, uint32_t max,
		    uint32_t min_wait);
	/* Optional (NULL when completions never lag submit).  Like reap with
	 * min_wait 1, but gives up when CLOCK_MONOTONIC reaches deadline_ns:
	 * stores up to max completed I/Os in done[] and returns how many, 0
	 * once the deadline has passed with none completed (whether or not
	 * any are in flight), or -errno; -EOPNOTSUPP when this instance
	 * cannot wait with a timeout (the caller polls with reap instead).
	 * A deadline already passed reaps without waiting. */
	int (*reap_until)(struct sc_engine *e, struct sc_io **done, uint32_t max,
			  uint64_t deadline_ns);
	/* Optional (NULL: call submit, then reap).  submit and reap(done,
	 * max, min_wait) as one step: the engine hands its queued I/Os over
	 * and waits for completions in the same system call where it can.
	 * Number reaped, or -errno (from submitting or from waiting: the
	 * caller cannot tell them apart, and need not). */
	int (*submit_reap)(struct sc_engine *e, struct sc_io **done, uint32_t max,
			   uint32_t min_wait);
	/* Waits for I/Os in flight, then frees: call it from the thread that
	 * submitted, or after that thread has ended. */
	void (*destroy)(struct sc_engine *e);
};

extern const struct sc_engine_ops sc_engine_uring;
extern const struct sc_engine_ops sc_engine_psync;
extern const struct sc_engine_ops sc_engine_null;
/* Touches no data (SC_ENGINE_F_NO_FILES) and completes each I/O when
 * conf->emulate's drive model says: its transfer, one at a time per
 * instance at sc_emulate_bandwidth bytes/s (0: no cap), then
 * sc_emulate_service_ns (latency_ns / speed plus an exponential draw of
 * mean spread_ns / speed, or a draw from the measured distribution / speed;
 * plus stall_ns with stall_probability).  An fsync completes no earlier than every I/O
 * submitted before it.  reap sleeps until the next completion (never
 * spins).  create refuses a model sc_emulate_check refuses (-EINVAL). */
extern const struct sc_engine_ops sc_engine_emulated;
/* Tests: wraps conf->inject->inner and completes the chosen reads and
 * writes with -errno_val at submit, without passing them on (fsyncs always
 * pass).  Everything else is the inner engine's: its checks, its depth
 * (failed I/Os hold a slot until reaped), its errors.  reap_until returns
 * -EOPNOTSUPP when the inner engine has none. */
extern const struct sc_engine_ops sc_engine_inject;

/* Tests: io_uring rings this process has set up so far (each
 * sc_engine_uring instance sets up one, also inside sc_engine_inject). */
uint64_t sc_engine_uring_rings(void);
/* Tests: of them, those set up with IORING_SETUP_SQPOLL, with
 * IORING_SETUP_IOPOLL, and for NVMe passthrough (SQE128 | CQE32). */
uint64_t sc_engine_uring_sqpoll_rings(void);
uint64_t sc_engine_uring_iopoll_rings(void);
uint64_t sc_engine_uring_passthru_rings(void);

/* The ops for a kind; never NULL for a valid kind. */
const struct sc_engine_ops *sc_engine_get(enum sc_engine_kind kind);

/* True when phases run by engine kind open, create and need files (every
 * engine without SC_ENGINE_F_NO_FILES). */
bool sc_engine_uses_files(enum sc_engine_kind kind);

#endif
