/* lockstep.c -- runs one phase on every rank in lockstep and brings what each
 * rank measured to rank 0 as a phase record. */
#include "lockstep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "drive_watch.h"
#include "run.h"
#include "units.h"
#include "cli.h"
#include "cluster/deadline.h"
#include "cluster/rankmsg.h"

/* How far ahead of "now" rank 0 sets the common start: enough for the
 * broadcast to reach every rank (a tree: a step per doubling of the
 * nodes) and for the ranks of the fullest node, which may share few CPUs,
 * to be scheduled and their threads waiting. */
#define START_LEAD_NS 50000000ull
#define START_LEAD_PER_LOCAL_RANK_NS 200000ull
#define START_LEAD_PER_DOUBLING_NS 5000000ull

static int gather_ranks(struct sc_cluster *c, const struct sc_rank_result *mine,
			struct sc_phase_record *rec)
{
	uint8_t *buf = NULL, **bufs = NULL;
	size_t len = 0, *lens = NULL;
	int rc = sc_rank_result_pack(mine, &buf, &len);

	if (rc)
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED); /* the collective would hang without us */
	rc = sc_cluster_gather(c, buf, len, &bufs, &lens);
	free(buf);
	if (rc) /* every rank has it: a row past INT_MAX bytes */
		return c->rank == 0 ? rc : 0;
	if (c->rank != 0)
		return 0;
	rec->ranks = calloc((size_t)c->nranks, sizeof(*rec->ranks));
	if (!rec->ranks)
		rc = -ENOMEM;
	for (int r = 0; !rc && r < c->nranks; r++)
		rc = sc_phase_record_add_rank(rec, bufs[r], lens[r]);
	sc_cluster_free_gathered(c, bufs, lens);
	return rc;
}

int sc_phase_empty_record(const struct sc_cluster *c, uint32_t p, const struct sc_place *places,
			  enum sc_phase_status status, struct sc_phase_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->phase = p;
	rec->status = status;
	rec->ranks = calloc((size_t)c->nranks, sizeof(*rec->ranks));
	if (!rec->ranks)
		return -ENOMEM;
	rec->nranks = (uint32_t)c->nranks;
	for (int r = 0; r < c->nranks; r++) {
		struct sc_rank_result *row = &rec->ranks[r];

		row->rank = (uint32_t)r;
		row->node = c->node_of[r];
		snprintf(row->host, sizeof(row->host), "%s", c->hosts[r]);
		row->target = places ? places[r].target : 0;
	}
	return 0;
}

/* Sets the deadline of the next step: budget_ns from from_ns. */
static void step_deadline(struct sc_cluster *c, const struct sc_phase *ph, uint64_t from_ns,
			  uint64_t budget_ns, const char *doing, const char *why_fmt)
{
	char doing_buf[128], why[128], d[32];
	uint64_t at = from_ns > UINT64_MAX - budget_ns ? UINT64_MAX : from_ns + budget_ns;

	snprintf(doing_buf, sizeof(doing_buf), "%s phase %s", doing, ph->name);
	snprintf(why, sizeof(why), why_fmt, sc_fmt_duration(d, sizeof(d), budget_ns));
	sc_cluster_set_deadline(c, at, doing_buf, why);
}

/* The run's deadline, as the message that names a late rank says it. */
static void run_deadline(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
			 const struct sc_place *place, uint64_t start, uint64_t budget_ns)
{
	const struct sc_phase *ph = &plan->phases[p];
	char fmt[160], planned[32];
	uint64_t pl = sc_deadline_planned_ns(plan, p, place);

	if (ph->io.timeout_ns)
		snprintf(fmt, sizeof(fmt), "%%s after the phase started (its timeout)");
	else
		snprintf(fmt, sizeof(fmt),
			 "%%s after the phase started: %s planned%s + grace; set timeout: "
			 "to change it",
			 sc_fmt_duration(planned, sizeof(planned), pl),
			 ph->io.runtime_ns ? "" : " at the least");
	step_deadline(c, ph, start, budget_ns, "running", fmt);
}

/* Preparing: creates this rank's run of phase p in *run.  0 when every
 * rank is ready, *budget then the longest run deadline of any rank; else
 * what sc_phase_run returns, with *run destroyed. */
static int prepare(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
		   const struct sc_place *place, const struct sc_rundir *dir,
		   const struct sc_place *places, struct sc_phase_record *rec, struct sc_run **run,
		   uint64_t *budget, char *err, size_t errlen)
{
	char msg[1024] = "";
	int rc, ok;

	step_deadline(c, &plan->phases[p], sc_now_ns(), sc_deadline_setup_ns(plan, p),
		      "preparing", "%s after preparing began");
	rc = sc_run_create(run, plan, p, place, dir, msg, sizeof(msg));
	/* a preparation a stop cut short is no failure; the ranks agree on
	 * the stop and on the longest run deadline of any rank */
	ok = sc_cluster_all_ok_max(c, rc == 0 || (rc == -EINTR && c->stop_sig), budget);
	if (ok && !c->stop_sig)
		return 0;
	if (ok) {
		sc_run_destroy(*run);
		sc_cluster_set_deadline(c, 0, NULL, NULL);
		if (c->rank == 0 && sc_phase_empty_record(c, p, places, SC_PHASE_INTERRUPTED, rec))
			return -ENOMEM;
		return -EINTR;
	}
	sc_rankmsg_join(c, msg, err, errlen);
	sc_run_destroy(*run);
	sc_cluster_set_deadline(c, 0, NULL, NULL);
	return rc ? rc : -ECANCELED;
}

/* How far ahead of now rank 0 puts the common start: the base, more per
 * doubling of nodes and per rank on the fullest node (the START_LEAD_*
 * above). */
static uint64_t start_lead_ns(const struct sc_cluster *c)
{
	uint64_t lead = START_LEAD_NS, most = 0;

	for (uint32_t n = 1; n < c->nnodes; n *= 2)
		lead += START_LEAD_PER_DOUBLING_NS;
	for (int r = 0; r < c->nranks; r++)
		if (c->local_nranks_of[r] > most)
			most = c->local_nranks_of[r];
	return lead + START_LEAD_PER_LOCAL_RANK_NS * most;
}

/* Every rank starts the run at one instant (rank 0's clock) and waits
 * until every rank is done: the first-done byte count in *firstdone, the
 * first-done instant in *firstdone_ns (from the common start, as the rows'
 * end_ns; 0 when no run finished) and the measured start (common start +
 * ramp, this rank's clock) in *origin. */
static void start_and_wait(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
			   const struct sc_place *place, struct sc_run *run, uint64_t budget,
			   uint64_t *firstdone, int64_t *firstdone_ns, uint64_t *origin,
			   uint64_t *start_cost)
{
	const struct sc_phase *ph = &plan->phases[p];
	uint64_t lead = start_lead_ns(c), start, begin, first_at;

	step_deadline(c, ph, sc_now_ns(), sc_deadline_step_ns((uint32_t)c->nranks), "starting",
		      "%s after preparing ended");
	begin = sc_now_ns();
	sc_cluster_sync_clocks(c);
	/* emulated training between checkpoints: every rank idles until the
	 * common start, so the gap costs no I/O and is not measured */
	if (ph->workload == SC_WORKLOAD_CHECKPOINT)
		lead += ph->ckpt.compute_before_ns;
	start = sc_cluster_common_start(c, lead);
	*start_cost = sc_now_ns() - begin;
	*origin = start + ph->io.ramp_ns;
	run_deadline(c, plan, p, place, start, budget);
	sc_run_start(run, start);
	sc_cluster_wait_run(c, run, ph->stonewall == SC_STONEWALL_FIRST_DONE, firstdone, &first_at);
	*firstdone_ns = first_at ? (int64_t)(first_at - start) : 0;
}

/* This rank's own row: who it is and what it noted beside the run (the
 * I/O options it was asked for and those it ran without). */
static void describe_rank(const struct sc_cluster *c, const struct sc_run *run,
			  uint64_t firstdone, struct sc_rank_result *mine)
{
	const struct sc_io_opts *opts = sc_run_opts(run);

	mine->rank = (uint32_t)c->rank;
	mine->node = c->node;
	snprintf(mine->host, sizeof(mine->host), "%s", c->host);
	mine->clock_offset_ns = c->clock_offset_ns;
	mine->firstdone_bytes = firstdone;
	mine->peak_rss_bytes = sc_peak_rss_bytes();
	/* the jobs have ended: nothing writes opts any more */
	mine->opts_asked = opts->asked;
	mine->opts_unavailable = opts->unavailable;
	snprintf(mine->opts_note, sizeof(mine->opts_note), "%s", opts->note);
}

/* Bucket-wise sums of every rank's histograms into merged[] at rank 0
 * (malloc'd there, NULL elsewhere), the kinds this phase can fill in one
 * collective wait. */
static void reduce_cluster_hists(struct sc_cluster *c, const struct sc_phase *ph,
				 struct sc_run *run, struct sc_hist *merged[SC_HK_COUNT])
{
	const struct sc_hist *local[SC_HK_COUNT];
	struct sc_hist *out[SC_HK_COUNT];
	int n = 0;

	for (int k = 0; k < SC_HK_COUNT; k++) {
		/* every rank knows which kinds this phase can fill: skip the rest */
		int used = k <= SC_HK_LAT_WRITE || (k <= SC_HK_RESP_WRITE && ph->io.rate_iops) ||
			   (k == SC_HK_BATCH_WAIT && (ph->workload == SC_WORKLOAD_INGEST ||
						      ph->workload == SC_WORKLOAD_TRAINING));

		if (c->rank == 0) {
			merged[k] = malloc(sizeof(struct sc_hist));
			if (!merged[k])
				sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
			sc_hist_init(merged[k]);
		}
		if (used) {
			local[n] = sc_run_hist(run, k);
			out[n++] = c->rank == 0 ? merged[k] : NULL;
		}
	}
	sc_cluster_reduce_hists(c, local, out, n);
}

/* Per-node latency: each node's leader summarizes its ranks' sum in its
 * own row (mine->node_lat), both directions in one wait. */
static void reduce_node_lat(struct sc_cluster *c, struct sc_run *run,
			    struct sc_rank_result *mine)
{
	const struct sc_hist *local[SC_DIR_COUNT];
	struct sc_hist *node[SC_DIR_COUNT] = {NULL};

	for (int d = 0; d < SC_DIR_COUNT; d++) {
		local[d] = sc_run_hist(run, SC_HK_LAT_READ + d);
		if (c->local_rank != 0)
			continue;
		node[d] = malloc(sizeof(*node[d]));
		if (!node[d])
			sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
		sc_hist_init(node[d]);
	}
	sc_cluster_reduce_node_hists(c, local, node, SC_DIR_COUNT);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		if (node[d])
			sc_hist_summarize(node[d], &mine->node_lat[d]);
		free(node[d]);
	}
}

/* Rank 0: the record takes the merged histograms: service times always;
 * response and batch-wait times only when the phase produced them. */
static void keep_hists(struct sc_phase_record *rec, struct sc_hist *merged[SC_HK_COUNT])
{
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

/* The per-second series, summed on each node and across the nodes: rank
 * 0's record gets the cluster's and, under their cap, the nodes'; the
 * rank's own series stays in its row only under SC_RANK_SERIES_MAX. */
static void reduce_series(struct sc_cluster *c, struct sc_rank_result *mine,
			  struct sc_phase_record *rec)
{
	struct sc_series *cluster = NULL, *nodes = NULL;
	uint32_t len;

	if (c->rank == 0) {
		cluster = calloc(1, sizeof(*cluster));
		if (!cluster)
			sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	}
	len = sc_cluster_reduce_series(c, mine->seconds, mine->nseconds, cluster, &nodes);
	if (!sc_series_kept((uint32_t)c->nranks, len, SC_RANK_SERIES_MAX)) {
		free(mine->seconds);
		mine->seconds = NULL;
		mine->nseconds = 0;
	}
	if (c->rank != 0)
		return;
	rec->cluster = cluster;
	rec->node_series = nodes;
	rec->nnode_series = nodes ? c->nnodes : 0;
}

/* Merging: every rank's histograms and row (*mine, whose buffers are
 * freed) reach rank 0's record, the merge alone timed (not the wait for
 * the slowest rank); run is destroyed.  0, or on rank 0 -errno when it
 * cannot read the rows (message in err). */
static int merge(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p, struct sc_run *run,
		 struct sc_rank_result *mine, struct sc_phase_record *rec, char *err, size_t errlen)
{
	struct sc_hist *merged[SC_HK_COUNT] = {NULL};
	uint64_t merge_start;
	int gathered;

	sc_cluster_barrier(c);
	merge_start = sc_now_ns();
	if (c->rank == 0) {
		memset(rec, 0, sizeof(*rec));
		rec->phase = p;
		rec->measure_start_ns = (int64_t)plan->phases[p].io.ramp_ns;
	}
	reduce_cluster_hists(c, &plan->phases[p], run, merged);
	reduce_node_lat(c, run, mine);
	if (c->rank == 0)
		keep_hists(rec, merged);
	reduce_series(c, mine, rec);
	sc_run_destroy(run);
	gathered = gather_ranks(c, mine, rec);
	sc_rank_result_exit(mine);
	if (c->rank == 0)
		rec->merge_ns = (int64_t)(sc_now_ns() - merge_start);
	if (c->rank == 0 && gathered)
		snprintf(err, errlen, "phase %s: cannot read the ranks' results: %s",
			 plan->phases[p].name, strerror(-gathered));
	return c->rank == 0 ? gathered : 0;
}

int sc_phase_run(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
		 const struct sc_place *place, const struct sc_rundir *dir,
		 const struct sc_place *places,
		 struct sc_phase_record *rec, char *err, size_t errlen)
{
	const struct sc_phase *ph = &plan->phases[p];
	struct sc_rank_result mine;
	struct sc_run *run = NULL;
	struct sc_drive_watch *watch = NULL;
	uint64_t firstdone = 0, origin = 0, budget = sc_deadline_run_ns(plan, p, place);
	uint64_t start_cost = 0;
	int64_t firstdone_ns = 0;
	int rc, ok, stopped, gathered;

	rc = prepare(c, plan, p, place, dir, places, rec, &run, &budget, err, errlen);
	if (rc)
		return rc;
	sc_drive_watch_begin(&watch, plan, p, place); /* none when out of memory */
	start_and_wait(c, plan, p, place, run, budget, &firstdone, &firstdone_ns, &origin,
		       &start_cost);
	stopped = c->stop_sig != 0; /* every rank agrees */
	step_deadline(c, ph, sc_now_ns(), sc_deadline_step_ns((uint32_t)c->nranks), "merging",
		      "%s after every rank was done");
	rc = sc_run_finish(run, &mine);
	describe_rank(c, run, firstdone, &mine);
	sc_drive_watch_end(watch, origin, &mine);
	gathered = merge(c, plan, p, run, &mine, rec, err, errlen);
	if (c->rank == 0) {
		rec->start_cost_ns = (int64_t)start_cost;
		rec->firstdone_ns = firstdone_ns;
	}
	if (gathered) {
		sc_cluster_set_deadline(c, 0, NULL, NULL);
		return gathered;
	}
	/* a stop outranks the errors it may have cut short */
	if (c->rank == 0)
		rec->status = stopped ? SC_PHASE_INTERRUPTED
				      : sc_phase_status_of(ph->io.on_error, rec->ranks,
							   rec->nranks);
	ok = sc_cluster_all_ok(c, rc == 0);
	if (!ok)
		sc_rankmsg_join(c, rc ? mine.error : "", err, errlen);
	sc_cluster_set_deadline(c, 0, NULL, NULL);
	if (stopped)
		return -EINTR;
	return ok ? 0 : -EIO;
}
