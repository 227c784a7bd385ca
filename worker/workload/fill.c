/* fill.c -- preconditioning (workload fill): each job writes its region
 * sequentially `passes` times in bs writes, then random_passes x its size
 * in random_bs writes at random aligned offsets of the same region.  It
 * picks each I/O; the I/O loop (ioloop.c) does the rest, as for io.c,
 * whose setup (files, guard, slots, engine) it shares.
 */
#include <errno.h>
#include <stdlib.h>

#include "ioloop.h"
#include "job_priv.h"
#include "pattern.h"

/* Mixed into the phase seed for the random passes' offsets, apart from
 * any other stream of the job. */
#define FILL_RANDOM_SEED_SALT 0xf111ad0b5eedull

/* A fill job's own state: where the sequential passes end, and the
 * random passes' offsets. */
struct fill_state {
	uint64_t seq_bytes;    /* size x passes: issued sequentially */
	uint64_t issued_bytes; /* issued so far */
	uint32_t random_bs;
	struct sc_pattern rnd; /* randwrite over the region in random_bs */
};

/* The next write: the sequential pattern's (it wraps at the region's end:
 * one pass after another) until size x passes are issued, then a random
 * random_bs block of the region. */
static int fill_next(struct job *j, struct sc_io *x)
{
	struct fill_state *f = j->wl;

	x->op = SC_OP_WRITE;
	if (f->issued_bytes < f->seq_bytes) {
		sc_pattern_next(&j->pat, &x->offset);
		x->len = (uint32_t)j->pat.bs_bytes;
	} else {
		sc_pattern_next(&f->rnd, &x->offset);
		x->len = f->random_bs;
	}
	x->offset += j->base;
	f->issued_bytes += x->len;
	return (int)x->len;
}

static const struct sc_ioloop_ops fill_ops = {.next = fill_next};

int sc_fill_job_setup(struct job *j, char *err, size_t errlen)
{
	const struct sc_run *run = j->run;
	const struct sc_fill_spec *fs = &run->plan->phases[run->phase].fill;
	struct sc_io_spec rnd = *run->io;
	struct fill_state *f;
	int rc = sc_io_job_setup(j, err, errlen);

	if (rc)
		return rc;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	j->wl = f;
	j->wl_free = free;
	f->seq_bytes = run->io->size_bytes * fs->passes;
	f->random_bs = (uint32_t)fs->random_bs_bytes;
	rnd.rw = SC_RW_RANDWRITE;
	rnd.bs_bytes = fs->random_bs_bytes;
	rnd.seed ^= FILL_RANDOM_SEED_SALT;
	sc_pattern_init(&f->rnd, &rnd, run->place.rank, j->index);
	return 0;
}

void sc_fill_job_run(struct job *j)
{
	const struct sc_io_spec *io = j->run->io;
	struct sc_ioloop lp = {
	    .measure_start_ns = j->run->start_ns,
	    .budget_bytes = io->io_bytes,
	    .fsync_when_stopped = true,
	};

	sc_ioloop_run(j, &fill_ops, &lp);
}
