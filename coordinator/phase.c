/* phase.c -- runs one phase on every rank in lockstep and brings what each
 * rank measured to rank 0 as a phase record. */
#include "phase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../proto/codec.h"
#include "../worker/job.h"

/* How far ahead of "now" rank 0 sets the common start: enough for the
 * broadcast to reach every rank and their threads to be waiting. */
#define START_LEAD_NS 50000000ull
#define START_LEAD_PER_RANK_NS 200000ull

/* Joins every rank's message (those not empty) into err at rank 0. */
static void collect_errors(struct sc_cluster *c, const char *mine, char *err, size_t errlen)
{
	char **all = NULL;
	size_t used = 0;

	if (sc_cluster_gather_strings(c, mine, &all) || c->rank != 0)
		return;
	err[0] = '\0';
	for (int r = 0; r < c->nranks; r++) {
		if (!all[r][0])
			continue;
		int n = snprintf(err + used, errlen - used, "%srank %d (%s): %s",
				 used ? "\n" : "", r, c->hosts[r], all[r]);

		if (n < 0 || (size_t)n >= errlen - used)
			break;
		used += (size_t)n;
	}
	sc_cluster_free_strings(c, all);
}

static int gather_ranks(struct sc_cluster *c, const struct sc_rank_result *mine,
			struct sc_phase_record *rec)
{
	uint8_t *buf = NULL, **bufs = NULL;
	size_t len = 0, *lens = NULL;
	int rc = sc_rank_result_pack(mine, &buf, &len);

	if (rc)
		sc_cluster_abort(c, 1); /* the collective would hang without us */
	sc_cluster_gather(c, buf, len, &bufs, &lens);
	free(buf);
	if (c->rank != 0)
		return 0;
	rec->ranks = calloc((size_t)c->nranks, sizeof(*rec->ranks));
	if (!rec->ranks)
		rc = -ENOMEM;
	for (int r = 0; !rc && r < c->nranks; r++) {
		rc = sc_rank_result_unpack(bufs[r], lens[r], &rec->ranks[r]);
		rec->nranks = (uint32_t)r + (rc ? 0 : 1);
	}
	sc_cluster_free_gathered(c, bufs, lens);
	return rc;
}

int sc_phase_run(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
		 const struct sc_place *place, const struct sc_rundir *dir,
		 struct sc_phase_record *rec, char *err, size_t errlen)
{
	const struct sc_io_spec *io = &plan->phases[p].io;
	struct sc_rank_result mine;
	struct sc_run *run = NULL;
	char msg[1024] = "";
	uint64_t start, firstdone = 0, merge_start;
	struct rusage ru;
	struct sc_hist *merged[SC_HK_COUNT] = {NULL};
	uint64_t lead = START_LEAD_NS + START_LEAD_PER_RANK_NS * (uint64_t)c->nranks;
	int rc, ok;

	rc = sc_run_create(&run, plan, p, place, dir, msg, sizeof(msg));
	ok = sc_cluster_all_ok(c, rc == 0);
	if (!ok) {
		collect_errors(c, msg, err, errlen);
		sc_run_destroy(run);
		return rc ? rc : -ECANCELED;
	}
	sc_cluster_sync_clocks(c);
	/* emulated training between checkpoints: every rank idles until the
	 * common start, so the gap costs no I/O and is not measured */
	if (plan->phases[p].workload == SC_WORKLOAD_CHECKPOINT)
		lead += plan->phases[p].ckpt.compute_before_ns;
	start = sc_cluster_common_start(c, lead);
	sc_run_start(run, start);
	sc_cluster_wait_run(c, run, plan->phases[p].stonewall == SC_STONEWALL_FIRST_DONE,
			    &firstdone);
	rc = sc_run_finish(run, &mine);
	mine.rank = (uint32_t)c->rank;
	mine.node = c->node;
	snprintf(mine.host, sizeof(mine.host), "%s", c->host);
	mine.clock_offset_ns = c->clock_offset_ns;
	mine.firstdone_bytes = firstdone;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		mine.peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;

	/* Time the merge alone, not the wait for the slowest rank. */
	sc_cluster_barrier(c);
	merge_start = sc_now_ns();
	if (c->rank == 0) {
		memset(rec, 0, sizeof(*rec));
		rec->phase = p;
		rec->measure_start_ns = (int64_t)io->ramp_ns;
	}
	for (int k = 0; k < SC_HK_COUNT; k++) {
		/* every rank knows which kinds this phase can fill: skip the rest */
		int used = k <= SC_HK_LAT_WRITE ||
			   (k <= SC_HK_RESP_WRITE && plan->phases[p].io.rate_iops) ||
			   (k == SC_HK_BATCH_WAIT && plan->phases[p].workload == SC_WORKLOAD_INGEST);

		if (c->rank == 0) {
			merged[k] = malloc(sizeof(struct sc_hist));
			if (!merged[k])
				sc_cluster_abort(c, 1);
			sc_hist_init(merged[k]);
		}
		if (used)
			sc_cluster_reduce_hist(c, sc_run_hist(run, k), merged[k]);
	}
	/* per-node latency: each node's leader summarizes its ranks' sum */
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		struct sc_hist *node = c->local_rank == 0 ? malloc(sizeof(*node)) : NULL;

		if (c->local_rank == 0 && !node)
			sc_cluster_abort(c, 1);
		if (node)
			sc_hist_init(node);
		sc_cluster_reduce_node_hist(c, sc_run_hist(run, SC_HK_LAT_READ + d), node);
		if (node)
			sc_hist_summarize(node, &mine.node_lat[d]);
		free(node);
	}
	if (c->rank == 0) {
		/* service times always; response and batch-wait times only when
		 * the phase produced them */
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			rec->lat[d] = merged[SC_HK_LAT_READ + d];
			rec->resp[d] = merged[SC_HK_RESP_READ + d];
		}
		rec->batch_wait = merged[SC_HK_BATCH_WAIT];
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			if (rec->resp[d]->count == 0) {
				free(rec->resp[d]);
				rec->resp[d] = NULL;
			}
		}
		if (rec->batch_wait->count == 0) {
			free(rec->batch_wait);
			rec->batch_wait = NULL;
		}
	}
	sc_run_destroy(run);
	int gathered = gather_ranks(c, &mine, rec);

	sc_rank_result_exit(&mine);
	if (c->rank == 0)
		rec->merge_ns = (int64_t)(sc_now_ns() - merge_start);
	if (c->rank == 0 && gathered) {
		snprintf(err, errlen, "phase %s: cannot read the ranks' results: %s",
			 plan->phases[p].name, strerror(-gathered));
		return gathered;
	}
	ok = sc_cluster_all_ok(c, rc == 0);
	if (!ok) {
		collect_errors(c, rc ? mine.error : "", err, errlen);
		return -EIO;
	}
	return 0;
}
