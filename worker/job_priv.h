/* job_priv.h -- what the phase runner (run.c) shares with the workloads
 * (workload/), their I/O loop (ioloop.c) and the accounting of failures
 * and results (account.c): the job and run structs, errors, slots.  Not
 * for use outside worker/. */
#ifndef SC_JOB_PRIV_H
#define SC_JOB_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/emulated.h"
#include "gate.h"
#include "histogram.h"
#include "pattern.h"
#include "placement.h"
#include "run.h"
#include "units.h"
#include "verify.h"
#include "wdata.h"

/* Buffers are aligned for O_DIRECT on any logical block size up to 4 KiB. */
#define BUF_ALIGN 4096u
/* Chunk used to lay out files that a phase reads before they exist. */
#define LAYOUT_CHUNK (1u << 20)
/* Per-second series start with this many seconds and double when needed. */
#define SECONDS_INITIAL 64u

/* A job's failed I/Os: every one counted by errno, the first ones kept.
 * Fixed size, so that recording one neither allocates nor locks. */
struct job_ioerr {
	uint64_t by_errno[SC_ERRNO_SLOTS];
	uint32_t nkept;
	struct sc_io_failure kept[SC_IO_FAILURES_KEPT];
};

struct job {
	struct sc_run *run;
	uint32_t index;
	pthread_t thread;
	int thread_started;
	int fd;                 /* the file the engine's I/Os go to (a
				 * checkpoint's current one), -1: none */
	char path[4096];        /* its path, for messages */
	uint64_t base;          /* first byte of the region in the file */
	struct sc_pattern pat;
	const struct sc_engine_ops *ops;
	struct sc_engine *eng;
	struct sc_io *ios;      /* iodepth slots (the I/O loop's) */
	struct sc_io **done;    /* reap scratch */
	struct sc_io **queued;  /* submit scratch */
	struct sc_io **held;    /* throttled: done by the engine, not yet due */
	uint32_t *free_slots;   /* a stack of the free slots' indexes */
	uint32_t *slot_want;    /* per slot: bytes its I/O must move */
	struct iovec *iov;      /* one buffer per slot */
	void *bufmem;
	size_t bufmapped; /* bufmem's bytes when mmap'd (huge_buffers),
			   * 0 when from posix_memalign */
	struct sc_hist *hist[SC_HK_COUNT];
	struct sc_second *sec;
	uint32_t nsec, capsec;
	_Atomic uint64_t done_bytes; /* measured bytes, read by sc_run_bytes */
	_Atomic uint64_t done_ios; /* measured I/Os, read by sc_run_ios */
	uint64_t bytes[SC_DIR_COUNT], ios_done[SC_DIR_COUNT];
	uint64_t fsyncs, errors, files, late_ios, samples, steps, compute_ns;
	uint64_t delete_ns; /* checkpoint: deleting an old checkpoint's files */
	uint64_t unissued_ios;    /* open loop: due before the stop, never issued */
	bool time_capped;         /* runtime_max ended it before its io_bytes */
	uint64_t inval_bytes;     /* invalidate: the region's size, 0: off */
	uint64_t inval_left;      /* bytes to issue before the region's page
				   * cache is dropped again (a new pass) */
	uint32_t cache_drop;      /* checkpoint: SC_CACHE_DROP_* bits done */
	uint64_t cache_drop_files; /* of them, files fadvise dropped */
	uint64_t busy_end_ns;
	uint64_t au_steps, au_compute_ns, au_wall_ns; /* training: the owner of
				     * an accelerator's (its first reader) */
	uint64_t barrier_wait_ns;   /* training: that accelerator's */
	uint32_t accel;             /* training: the rank's accelerator it reads
				     * for (0-based) */
	bool accel_owner;           /* training: its first reader */
	void *wl;                 /* the workload body's own state */
	void (*wl_free)(void *);
	int err;
	char errmsg[SC_ERROR_MAX];
	uint64_t started_ns, last_ns;
	uint64_t copied_ns; /* async checkpoint: when this job's share
			     * of the host copy ended (0: none) */
	_Atomic int finished;
	struct job_ioerr ioerr;
	_Atomic uint64_t failed_ios; /* errors, read by sc_run_failed_ios */
	struct sc_inject_state inject; /* the phase injects faults: the
				  * wrapper's state */
	struct sc_emulate_state emulate; /* engine emulated: its model and draws */
	struct sc_verifier *vfy;  /* verify: crc32c (io workloads), else NULL */
	struct sc_wdata wdata;    /* what writes carry (sc_job_alloc seeds it) */
	struct sc_wdata *wd;      /* &wdata: every write is refilled before it
				   * is queued; NULL: buffers reused, or verify */
};

struct sc_run {
	const struct sc_plan *plan;
	uint32_t phase;
	struct sc_place place;
	const struct sc_io_spec *io;
	uint32_t njobs;
	struct job *jobs;
	uint64_t start_ns;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int released;           /* threads may go: 1 start, -1 abandon */
	_Atomic int stop;
	_Atomic int aborted;    /* on_error abort: a job failed (sc_run_aborted) */
	_Atomic uint32_t copied; /* async checkpoint: jobs whose host copy ended */
	struct sc_hist *hist[SC_HK_COUNT];
	uint64_t planned_bytes;  /* set by workload setups; else from io */
	uint64_t host_memory_bytes; /* training: this host's (MemTotal) */
	int dirfd;               /* the run directory (not owned), -1: none */
	struct sc_io_opts opts;  /* options asked, and those jobs ran without */
	struct sc_placement placement; /* where the job threads run (cpus, numa) */
	struct sc_gate gate;     /* the step gate; setups turn it on */
	int gate_ready;          /* gate initialised */
};

/* Records the first error of the job (later ones are dropped) and stops
 * the rank's phase: for errors after which the job cannot go on (a file
 * that will not open, an engine that fails), whatever on_error says;
 * with on_error abort, every rank's. */
void sc_job_fail(struct job *j, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A read, write or fsync io that failed (res < 0) or moved fewer than
 * want_bytes (a short transfer), on the file at path: counted by errno,
 * kept among the job's first SC_IO_FAILURES_KEPT, then on_error applies.
 * Returns 1 when the job must stop (stop-phase, abort: the failure becomes
 * the job's error, as with sc_job_fail), 0 when it goes on (continue). */
int sc_job_io_failed(struct job *j, const struct sc_io *io, uint64_t want_bytes, const char *path);

/* At setup: the job's engine ops, the phase's engine or, when the phase
 * injects faults, the wrapper around it (its state seeded per rank and
 * job).  Then sc_job_engine_create makes an instance for conf. */
void sc_job_engine_init(struct job *j);
int sc_job_engine_create(struct job *j, struct sc_engine_conf *conf);

/* Error text for io's op: "read", "write", "fsync". */
const char *sc_job_op_name(const struct sc_io *io);

/* Allocates depth I/O slots (with what the I/O loop keeps per slot), each
 * with its own bs_bytes buffer filled with the job's pseudo-random data
 * (freed by the runner), and seeds j->wdata from j->pat (seeded first):
 * unless the phase reuses buffers (or verifies), the I/O loop refills a
 * write's buffer from it before each write.  0 or -ENOMEM. */
int sc_job_alloc(struct job *j, uint32_t depth, uint64_t bs_bytes);

/* True when untimed preparation should give up (sc_run_set_cancel). */
bool sc_job_cancelled(void);

/* After the job threads ended: fills out from the jobs' counts (times
 * relative to the run's start).  0, or the first job's error (its message
 * in out->error); -ENOMEM. */
int sc_run_collect(struct sc_run *run, struct sc_rank_result *out);

/* Writes [from, to) of the job's file (j->fd) so that a phase can read it;
 * with verify, as verify blocks (from a block boundary) that its reads
 * check.  Untimed.  0 or -errno, with a message in err. */
int sc_lay_out(struct job *j, uint64_t from, uint64_t to, char *err, size_t errlen);

/* Workload bodies: _setup runs in sc_run_create (untimed), _run in the job
 * thread from the common start on. */
int sc_io_job_setup(struct job *j, char *err, size_t errlen);
void sc_io_job_run(struct job *j);
int sc_ckpt_job_setup(struct job *j, char *err, size_t errlen);
void sc_ckpt_job_run(struct job *j);
int sc_ingest_job_setup(struct job *j, char *err, size_t errlen);
void sc_ingest_job_run(struct job *j);
int sc_training_job_setup(struct job *j, char *err, size_t errlen);
void sc_training_job_run(struct job *j);
int sc_fill_job_setup(struct job *j, char *err, size_t errlen);
void sc_fill_job_run(struct job *j);
int sc_idle_job_setup(struct job *j, char *err, size_t errlen);
void sc_idle_job_run(struct job *j);

#endif
