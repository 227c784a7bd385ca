/* io_opts.h -- the I/O options a phase asks for that a rank may lack.
 *
 * SQPOLL, polled completions, NVMe passthrough and CPU/NUMA placement
 * depend on the kernel, the device and the machine.  A job that cannot use
 * one as asked runs without it and says why here; the run goes on.  Rank 0
 * reports, per option, on how many ranks it was unavailable and the first
 * reason (never a failure of the phase).
 */
#ifndef SC_IO_OPTS_H
#define SC_IO_OPTS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

enum sc_io_opt {
	SC_IO_OPT_SQPOLL = 0, /* sqpoll: true (IORING_SETUP_SQPOLL) */
	SC_IO_OPT_HIPRI,      /* hipri: true (IORING_SETUP_IOPOLL) */
	SC_IO_OPT_PASSTHRU,   /* passthrough: true (IORING_OP_URING_CMD) */
	SC_IO_OPT_CPUS,	      /* cpus: job threads pinned to a CPU list */
	SC_IO_OPT_NUMA,	      /* numa: job threads next to the drive */
	SC_IO_OPT_HUGE,	      /* huge_buffers: buffers in huge pages */
	SC_IO_OPT_COUNT
};

/* Bytes of the reasons a rank keeps for one phase (all options). */
#define SC_IO_OPT_NOTE_MAX 256

/* One rank's options for one phase: its job threads write it. */
struct sc_io_opts {
	pthread_mutex_t lock;
	uint32_t asked;		       /* bit 1u << opt: the phase asked for opt */
	uint32_t unavailable;	       /* bit: some job of this rank ran without it */
	char note[SC_IO_OPT_NOTE_MAX]; /* "opt: why; opt: why" (first reason
					* per option, cut to fit) */
};

/* The option's config key: "sqpoll", "hipri", "passthrough", "cpus",
 * "numa"; "?" for another value. */
const char *sc_io_opt_name(enum sc_io_opt opt);

/* Empties o (nothing asked). */
void sc_io_opts_init(struct sc_io_opts *o);
void sc_io_opts_destroy(struct sc_io_opts *o);

/* The phase asked for opt.  Thread-safe. */
void sc_io_opts_ask(struct sc_io_opts *o, enum sc_io_opt opt);

/* A job could not use opt (asked) and runs without it: why, printf-style,
 * is kept when it is opt's first reason on this rank.  Thread-safe; not
 * for the I/O path (it locks). */
void sc_io_opts_unavailable(struct sc_io_opts *o, enum sc_io_opt opt, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Copies opt's reason out of note (a struct sc_io_opts note: "opt: why;
 * opt: why") into buf of len bytes: the text after "<name>: " up to the
 * next "; <known option>: " or the end.  Returns buf, "" when note holds
 * no reason for opt. */
char *sc_io_opts_why(const char *note, enum sc_io_opt opt, char *buf, size_t len);

#endif
