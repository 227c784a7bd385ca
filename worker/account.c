/* account.c -- a job's failed I/Os and first error, and the rank's result
 * merged from its jobs' counts (completed I/Os are counted by the I/O
 * loop, ioloop.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "job_priv.h"

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

const char *sc_job_op_name(const struct sc_io *io)
{
	return io->op <= SC_OP_FSYNC ? op_names[io->op] : "I/O";
}

int sc_job_io_failed(struct job *j, const struct sc_io *io, uint64_t want_bytes, const char *path)
{
	struct sc_run *run = j->run;
	int err = io->res < 0 ? -io->res : 0; /* 0: short transfer */

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
		sc_job_fail(j, err ? -err : -EIO, "%s of %llu B at offset %llu in %s: %s",
			    sc_job_op_name(io), (unsigned long long)want_bytes,
			    (unsigned long long)io->offset, path,
			    err ? strerror(err) : "short transfer");
	return 1;
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
	uint64_t sum[SC_ERRNO_SLOTS] = {0};
	uint32_t nerr = 0, nkept = 0;

	for (uint32_t i = 0; i < run->njobs; i++) {
		for (int e = 0; e < SC_ERRNO_SLOTS; e++)
			sum[e] += run->jobs[i].ioerr.by_errno[e];
		nkept += run->jobs[i].ioerr.nkept;
	}
	for (int e = 0; e < SC_ERRNO_SLOTS; e++)
		nerr += sum[e] != 0;
	out->errnos = calloc(nerr ? nerr : 1, sizeof(*out->errnos));
	out->failures = calloc(nkept ? nkept : 1, sizeof(*out->failures));
	if (!out->errnos || !out->failures)
		return -ENOMEM;
	for (int e = 0; e < SC_ERRNO_SLOTS; e++)
		if (sum[e])
			out->errnos[out->nerrnos++] = (struct sc_errno_count){.err = e, .count = sum[e]};
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

/* Adds job j's counts into out (and its histograms into the run's);
 * 0, or j's error when it is the first one found (its message to out). */
static int add_job(struct sc_run *run, const struct job *j, struct sc_rank_result *out, int rc)
{
	for (int k = 0; k < SC_HK_COUNT; k++)
		sc_hist_add(run->hist[k], j->hist[k]);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		out->bytes[d] += j->bytes[d];
		out->ios[d] += j->ios_done[d];
	}
	out->fsyncs += j->fsyncs;
	out->files += j->files;
	if (j->delete_ns > out->delete_ns)
		out->delete_ns = j->delete_ns;
	out->cache_drop |= j->cache_drop;
	out->cache_drop_files += j->cache_drop_files;
	out->late_ios += j->late_ios;
	out->unissued_ios += j->unissued_ios;
	out->time_capped_jobs += j->time_capped;
	out->samples += j->samples;
	out->steps += j->steps;
	out->compute_ns += j->compute_ns;
	out->au_steps += j->au_steps;
	out->au_compute_ns += j->au_compute_ns;
	out->au_wall_ns += j->au_wall_ns;
	if (j->busy_end_ns > run->start_ns &&
	    (int64_t)(j->busy_end_ns - run->start_ns) > out->busy_end_ns)
		out->busy_end_ns = (int64_t)(j->busy_end_ns - run->start_ns);
	out->errors += j->errors;
	if (j->err && !rc) {
		rc = j->err;
		snprintf(out->error, sizeof(out->error), "%s", j->errmsg);
	}
	return rc;
}

/* A training rank's row per accelerator: its readers' samples, its
 * owner's steps, AU sums and barrier wait.  0 or -ENOMEM. */
static int accel_rows(const struct sc_run *run, struct sc_rank_result *out)
{
	const struct sc_phase *ph = &run->plan->phases[run->phase];
	uint32_t n = sc_training_per_rank(&ph->training);

	if (ph->workload != SC_WORKLOAD_TRAINING)
		return 0;
	out->host_memory_bytes = run->host_memory_bytes;
	out->accels = calloc(n, sizeof(*out->accels));
	if (!out->accels)
		return -ENOMEM;
	out->naccels = n;
	for (uint32_t a = 0; a < n; a++)
		out->accels[a].index = run->place.rank * n + a;
	for (uint32_t i = 0; i < run->njobs; i++) {
		const struct job *j = &run->jobs[i];
		struct sc_accel_row *row;

		if (j->accel >= n)
			continue;
		row = &out->accels[j->accel];
		row->samples += j->samples;
		if (!j->accel_owner)
			continue;
		row->steps = j->steps;
		row->au_steps = j->au_steps;
		row->au_compute_ns = j->au_compute_ns;
		row->au_wall_ns = j->au_wall_ns;
		row->barrier_wait_ns = j->barrier_wait_ns;
	}
	return 0;
}

/* The rank's per-second series: the jobs' summed (peaks: the largest). */
static int add_seconds(const struct sc_run *run, uint32_t nsec, struct sc_rank_result *out)
{
	if (!nsec)
		return 0;
	out->seconds = calloc(nsec, sizeof(*out->seconds));
	if (!out->seconds)
		return -ENOMEM;
	out->nseconds = nsec;
	for (uint32_t i = 0; i < run->njobs; i++)
		sc_seconds_add(out->seconds, run->jobs[i].sec, run->jobs[i].nsec);
	return 0;
}

/* async checkpoint: the rank's host copy (from the start to its jobs'
 * last copy end), its drain (from there to the last close) and the stall,
 * how much longer the drain took than the training beside it.  Nothing
 * when no job copied (not async, or stopped before). */
static void async_times(const struct sc_run *run, uint64_t last, struct sc_rank_result *out)
{
	uint64_t copied = 0, after = run->plan->phases[run->phase].ckpt.compute_after_ns;

	for (uint32_t i = 0; i < run->njobs; i++)
		if (run->jobs[i].copied_ns > copied)
			copied = run->jobs[i].copied_ns;
	if (!copied || copied < run->start_ns)
		return;
	out->blocking_ns = copied - run->start_ns;
	out->drain_ns = last > copied ? last - copied : 0;
	out->stall_ns = out->drain_ns > after ? out->drain_ns - after : 0;
}

int sc_run_collect(struct sc_run *run, struct sc_rank_result *out)
{
	uint64_t first = UINT64_MAX, last = 0;
	uint32_t nsec = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < SC_HK_COUNT; k++) {
		if (!run->hist[k])
			run->hist[k] = malloc(sizeof(struct sc_hist));
		if (!run->hist[k])
			return -ENOMEM;
		sc_hist_init(run->hist[k]);
	}
	for (uint32_t i = 0; i < run->njobs; i++) {
		const struct job *j = &run->jobs[i];

		if (j->started_ns && j->started_ns < first)
			first = j->started_ns;
		if (j->last_ns > last)
			last = j->last_ns;
		if (j->nsec > nsec)
			nsec = j->nsec;
		rc = add_job(run, j, out, rc);
	}
	if (out->errors && merge_failures(run, out))
		return -ENOMEM;
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		sc_hist_summarize(run->hist[SC_HK_LAT_READ + d], &out->lat[d]);
		sc_hist_summarize(run->hist[SC_HK_RESP_READ + d], &out->resp[d]);
	}
	sc_hist_summarize(run->hist[SC_HK_BATCH_WAIT], &out->batch_wait);
	out->barrier_wait_ns = sc_gate_wait_ns(&run->gate);
	out->start_ns = first == UINT64_MAX ? 0 : (int64_t)(first - run->start_ns);
	out->end_ns = last ? (int64_t)(last - run->start_ns) : out->start_ns;
	async_times(run, last, out);
	if (run->planned_bytes)
		out->planned_bytes = run->planned_bytes;
	else if (!run->io->runtime_ns)
		out->planned_bytes = run->io->io_bytes * run->njobs;
	out->target = run->place.target;
	out->rank = run->place.rank;
	if (verify_collect(run, out) || add_seconds(run, nsec, out) || accel_rows(run, out))
		return -ENOMEM;
	return rc;
}
