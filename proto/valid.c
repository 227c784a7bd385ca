/* valid.c -- the rules a plan's and results' values keep, checked before
 * packing and after unpacking, and then the kinds of their fields
 * (convert.c).  The rules come first and guard the arrays they read
 * themselves: a count that lies (more kept failures than errors, say) is
 * refused before an array is read past its end. */
#include "valid.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "convert.h"
#include "histogram.h"
#include "pattern.h"
#include "verify.h"

/* DeepSpeed ZeRO stages 0..3 (struct sc_ckpt_layout.zero_stage). */
#define ZERO_STAGE_MAX 3u
/* Percent and parts per million. */
#define PCT_MAX 100u
#define PPM_MAX 1000000u

/* Times in a result (relative to a phase's start, or clock offsets) stay
 * within +-2^61 ns (73 years), so the difference of any two fits in
 * 64 bits: a damaged file cannot make the figures overflow. */
#define TIME_MAX_NS (INT64_C(1) << 61)

/* An array of n elements at p is there. */
static bool present(uint32_t n, const void *p)
{
	return !n || p;
}

static bool io_ok(const struct sc_io_spec *io)
{
	return io->rwmixread_pct <= PCT_MAX && io->inject.ppm <= PPM_MAX &&
	       io->compressible_pct <= PCT_MAX && io->dedupe_pct <= PCT_MAX &&
	       io->sqpoll_cpu >= -1 && (io->sqpoll || io->sqpoll_cpu <= 0) &&
	       !sc_pattern_dist_check(io->rand_dist, io->rand_param);
}

/* Only a checkpoint phase's spec is checked: the others carry it zeroed. */
static bool ckpt_ok(const struct sc_ckpt_spec *c)
{
	return c->checkpoints >= 1 && c->index >= 1 && c->index <= c->checkpoints &&
	       isfinite(c->scale) && c->scale > 0 && c->scale <= 1 &&
	       c->layout.zero_stage <= ZERO_STAGE_MAX;
}

/* Only an ingest phase's spec is checked: the others carry it zeroed. */
static bool ingest_ok(const struct sc_ingest_spec *g)
{
	return g->files >= 1 && g->batch >= 1 && g->sample_bytes >= 1 &&
	       g->sample_bytes <= g->file_bytes;
}

static bool training_ok(const struct sc_training_spec *t)
{
	return t->files >= 1 && t->samples_per_file >= 1 && t->record_bytes >= 1 &&
	       t->batch >= 1 && t->epochs >= 1 && t->transfer_bytes >= 1 &&
	       t->accelerators >= 1 && t->au > 0 && t->au <= 1 &&
	       sc_training_per_rank(t) <= SC_ACCELS_MAX && t->search_max <= SC_ACCELS_MAX &&
	       (!t->runs || (t->run >= 1 && t->run <= t->warmups + t->runs));
}

/* A steady-state round: its round and window within its rounds. */
static bool steady_ok(const struct sc_steady_spec *s)
{
	if (!s->max_rounds)
		return !s->round && !s->window;
	return s->round >= 1 && s->round <= s->max_rounds && s->window >= 2 &&
	       s->window <= s->max_rounds;
}

/* Only a fill phase's spec is checked: the others carry it zeroed. */
static bool fill_ok(const struct sc_fill_spec *f)
{
	return f->passes >= 1 && f->random_bs_bytes >= 1 && isfinite(f->cliff_fraction) &&
	       f->cliff_fraction > 0 && f->cliff_fraction < 1;
}

static bool phase_ok(const struct sc_phase *ph)
{
	if (ph->cell >= ph->ncells || !io_ok(&ph->io))
		return false;
	if (ph->workload == SC_WORKLOAD_CHECKPOINT && !ckpt_ok(&ph->ckpt))
		return false;
	if (ph->workload == SC_WORKLOAD_INGEST && !ingest_ok(&ph->ingest))
		return false;
	if (ph->workload == SC_WORKLOAD_FILL && !fill_ok(&ph->fill))
		return false;
	if (ph->workload == SC_WORKLOAD_TRAINING && !training_ok(&ph->training))
		return false;
	return steady_ok(&ph->steady);
}

static bool plan_ok(const struct sc_plan *p)
{
	if (!present(p->nphases, p->phases))
		return false;
	for (uint32_t i = 0; i < p->nphases; i++)
		if (!phase_ok(&p->phases[i]))
			return false;
	return true;
}

static bool lat_ok(const struct sc_lat_summary *s)
{
	if (!isfinite(s->mean_ns))
		return false;
	if (s->count)
		return s->min_ns <= s->max_ns;
	if (s->min_ns || s->max_ns || s->mean_ns != 0)
		return false;
	for (int i = 0; i < SC_NPCT; i++)
		if (s->pct_ns[i])
			return false;
	return true;
}

static bool time_ok(int64_t ns)
{
	return ns > -TIME_MAX_NS && ns < TIME_MAX_NS;
}

/* Failed I/Os: errno counts in increasing errno order summing to errors
 * (or none, as before they were kept), and at most SC_IO_FAILURES_KEPT
 * kept failures, no more than errors, in time order. */
static bool failures_ok(const struct sc_rank_result *r)
{
	uint64_t sum = 0;

	if (!present(r->nerrnos, r->errnos) || !present(r->nfailures, r->failures) ||
	    r->nfailures > SC_IO_FAILURES_KEPT || r->nfailures > r->errors ||
	    (r->nfailures && !r->nerrnos))
		return false;
	for (uint32_t i = 0; i < r->nerrnos; i++) {
		const struct sc_errno_count *e = &r->errnos[i];

		if (e->err < 0 || e->err >= SC_ERRNO_SLOTS || !e->count || sum + e->count < sum ||
		    (i && e->err <= r->errnos[i - 1].err))
			return false;
		sum += e->count;
	}
	if (r->nerrnos && sum != r->errors)
		return false;
	for (uint32_t i = 0; i < r->nfailures; i++) {
		const struct sc_io_failure *f = &r->failures[i];

		if (f->err < 0 || f->err >= SC_ERRNO_SLOTS ||
		    (i && f->time_ns < r->failures[i - 1].time_ns))
			return false;
	}
	return true;
}

/* plan: the run's plan, or NULL when the result travels on its own. */
static bool rank_ok(const struct sc_rank_result *r, const struct sc_plan *plan)
{
	if (!failures_ok(r))
		return false;
	if (!time_ok(r->clock_offset_ns) || !time_ok(r->start_ns) || !time_ok(r->end_ns) ||
	    !time_ok(r->busy_end_ns))
		return false;
	if (plan && r->target >= plan->ntargets)
		return false;
	if (r->verify_nkept > r->verify_mismatches)
		return false;
	/* options: known ones, and unavailable only where asked */
	if (r->opts_asked >> SC_IO_OPT_COUNT || r->opts_unavailable & ~r->opts_asked)
		return false;
	for (int d = 0; d < SC_DIR_COUNT; d++)
		if (!lat_ok(&r->lat[d]) || !lat_ok(&r->resp[d]))
			return false;
	return lat_ok(&r->batch_wait);
}

/* Bucket counts add up to count, and min and max sit in the first and
 * last nonzero buckets (the empty histogram is what sc_hist_init makes). */
static bool hist_ok(const struct sc_hist *h)
{
	uint64_t sum = 0;
	uint32_t first = SC_HIST_NBUCKETS, last = 0;

	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		if (sum + h->buckets[i] < sum)
			return false;
		sum += h->buckets[i];
		if (first == SC_HIST_NBUCKETS)
			first = i;
		last = i;
	}
	if (sum != h->count)
		return false;
	if (!h->count)
		return h->min_ns == UINT64_MAX && h->max_ns == 0 && h->sum_ns == 0;
	return h->min_ns <= h->max_ns && sc_hist_index(h->min_ns) == first &&
	       sc_hist_index(h->max_ns) == last;
}

static bool phase_record_ok(const struct sc_phase_record *ph, const struct sc_run_record *run)
{
	if (ph->phase >= run->plan.nphases || !present(ph->nranks, ph->ranks))
		return false;
	if (!time_ok(ph->measure_start_ns) || !time_ok(ph->firstdone_ns) || !time_ok(ph->merge_ns))
		return false;
	for (uint32_t i = 0; i < ph->nranks; i++) {
		const struct sc_rank_result *r = &ph->ranks[i];

		if (r->rank >= run->nranks || r->node >= run->nnodes ||
		    (i && r->rank <= ph->ranks[i - 1].rank) || !rank_ok(r, &run->plan))
			return false;
	}
	/* node series come with the cluster's, one per node at most */
	if (ph->nnode_series && (!ph->cluster || ph->nnode_series > run->nnodes))
		return false;
	for (int d = 0; d < SC_DIR_COUNT; d++)
		if ((ph->lat[d] && !hist_ok(ph->lat[d])) || (ph->resp[d] && !hist_ok(ph->resp[d])))
			return false;
	return !ph->batch_wait || hist_ok(ph->batch_wait);
}

static bool run_ok(const struct sc_run_record *run)
{
	if (!plan_ok(&run->plan) || !present(run->nphases, run->phases))
		return false;
	for (uint32_t i = 0; i < run->nphases; i++) {
		if (i && run->phases[i].phase <= run->phases[i - 1].phase)
			return false;
		if (!phase_record_ok(&run->phases[i], run))
			return false;
	}
	return true;
}

bool sc_valid_run_phase(const struct sc_run_record *run, uint32_t i)
{
	return i < run->nphases && plan_ok(&run->plan) &&
	       (!i || run->phases[i].phase > run->phases[i - 1].phase) &&
	       phase_record_ok(&run->phases[i], run) &&
	       sc_convert_ok(&sc_fields_phase_record, &run->phases[i]);
}

bool sc_valid_plan(const struct sc_plan *p)
{
	return plan_ok(p) && sc_convert_ok(&sc_fields_plan, p);
}

bool sc_valid_rank_result(const struct sc_rank_result *r)
{
	return rank_ok(r, NULL) && sc_convert_ok(&sc_fields_rank_result, r);
}

bool sc_valid_run_record(const struct sc_run_record *run)
{
	return run_ok(run) && sc_convert_ok(&sc_fields_run_record, run);
}
