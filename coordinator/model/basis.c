/* basis.c -- what each projected figure rests on: its inputs by name and count, its assumptions. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "histogram.h"
#include "plan.h"
#include "model.h"
#include "project_parts.h"
#include "units.h"

/* Room for one formatted figure. */
#define FIG_MAX 32
/* Hours in ns, for the MTBF. */
#define NS_PER_H 3600e9

__attribute__((format(printf, 3, 4))) static void put(struct sc_model_projection *out,
						      enum sc_model_figure f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->basis[f].inputs, sizeof(out->basis[f].inputs), fmt, ap);
	va_end(ap);
	out->basis[f].present = true;
}

__attribute__((format(printf, 3, 4))) static void
assume(struct sc_model_projection *out, enum sc_model_figure f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->basis[f].assumptions, sizeof(out->basis[f].assumptions), fmt, ap);
	va_end(ap);
}

/* The tails a checkpoint figure rests on, in words: "above u = 1.3 x
 * the trend (the slowest 20 of 200 samples) exponential (sigma 0.21);
 * above u = 1.1 (...) GPD xi=-0.21 (sigma 0.3)", "none" for a tail
 * without spread. */
static void tail_words(const struct sc_model_ckpt *c, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < SC_MODEL_TAILS && at < len; i++) {
		const struct sc_model_tail *t = &c->tail[i];
		int w = snprintf(buf + at, len - at,
				 "%sabove u = %.3g x the trend (the slowest %llu of %llu samples) ",
				 i ? "; " : "", t->threshold, (unsigned long long)t->exceedances,
				 (unsigned long long)c->nsamples);

		at += w > 0 ? (size_t)w : 0;
		if (at >= len)
			break;
		if (!(t->sigma > 0))
			w = snprintf(buf + at, len - at, "none (no spread above u)");
		else if (t->gpd)
			w = snprintf(buf + at, len - at, "GPD xi=%.2f (sigma %.3g)", t->xi,
				     t->sigma);
		else
			w = snprintf(buf + at, len - at, "exponential (sigma %.3g)", t->sigma);
		at += w > 0 ? (size_t)w : 0;
	}
}

/* The sizes where N x D exceeds the samples, with the band's width, into
 * buf: "512 nodes (4096 drives, band -12%..+25%), ...". */
static void beyond_words(const struct sc_model_projection *out, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < out->nrows && at < len; i++) {
		const struct sc_model_ckpt *c = &out->rows[i].ckpt;

		if (!out->rows[i].layout_fits || !c->beyond_samples || !(c->mean_ns > 0))
			continue;
		at += (size_t)snprintf(
		    buf + at, len - at, "%s%u nodes (%llu drives, band %+.0f%%..%+.0f%%)",
		    at ? ", " : "", out->rows[i].nodes, (unsigned long long)c->ndrives_total,
		    (c->mean_low_ns / c->mean_ns - 1) * 100,
		    (c->mean_high_ns / c->mean_ns - 1) * 100);
	}
	if (!at)
		snprintf(buf, len, "none");
}

static void ckpt_assume(const struct sc_model_used *u, struct sc_model_projection *out)
{
	const struct sc_model_params *p = &out->params;
	const struct sc_model_ckpt *c = u->fit;
	char tail[FIG_MAX * 2], beyond[SC_MODEL_TEXT_MAX / 2], trend[FIG_MAX];

	if (!c) {
		assume(out, SC_MODEL_FIG_CKPT, "no size fits the layout: no checkpoint figure");
		return;
	}
	if (!u->ckpt_measured) {
		assume(
		    out, SC_MODEL_FIG_CKPT,
		    "every drive of the cluster is the stated one (no spread, no tail, no band): "
		    "time scales with bytes at the stated rate; a node's bytes spread evenly "
		    "over its drives");
		return;
	}
	tail_words(c, tail, sizeof(tail));
	beyond_words(out, beyond, sizeof(beyond));
	if (c->trend_per_ckpt != 0)
		snprintf(trend, sizeof(trend), "%+.3g%% a checkpoint", c->trend_per_ckpt * 100);
	else
		snprintf(trend, sizeof(trend), "flat (no significant slope)");
	assume(out, SC_MODEL_FIG_CKPT,
	       "drives independent, all at the same checkpoint index (fill), drawn at random; "
	       "a drive's time = trend over the index (log-linear, %s) x a spread pooled over "
	       "every drive and checkpoint%s; the figure the mean of two fits of the spread, each "
	       "empirical below a threshold u and a tail above it (peaks over a threshold: GPD "
	       "only when it beats the exponential at 1%% if bounded, at 0.1%% and fitting the "
	       "excesses if heavy): %s; time scales with "
	       "bytes at its measured throughput; a node's bytes spread evenly over its drives; "
	       "band: the union of the 2.5th..97.5th percentile and the basic bootstrap intervals "
	       "of %u replicates (residuals drawn from the fitted spread and tail, refitted), "
	       "seed %llu; N x D beyond the %llu independent "
	       "samples (the figure rests on the fitted tail): %s",
	       trend,
	       u->ckpt_measured && c->ndrives_measured == 1
		   ? " (ONE drive measured: the spread between drives is "
		     "assumed to be its checkpoints' spread around its trend)"
		   : "",
	       tail, c->trials, (unsigned long long)p->seed, (unsigned long long)c->nsamples,
	       beyond);
}

/* The layout the bytes at N follow. */
static const char *layout_name(const struct sc_model_params *p)
{
	return p->layout >= 0 ? sc_ckpt_layout_name((enum sc_ckpt_layout_kind)p->layout) : "dlio";
}

static void ckpt_basis(const struct sc_model_used *u, struct sc_model_projection *out)
{
	const struct sc_model_params *p = &out->params;
	const struct sc_model_measured *m = u->m;
	char rate[FIG_MAX];

	if (u->ckpt_measured)
		put(out, SC_MODEL_FIG_CKPT,
		    "%llu independent samples: %u drive(s) x up to %u checkpoints of group %s, run "
		    "%s; a sample "
		    "is a drive's bytes / its slowest rank's time %s, fsync "
		    "included; bytes at N: %s TP%u PP%u ZeRO-%d layout %s, scale %g, %u "
		    "accelerator(s) and %u drive(s) a node",
		    (unsigned long long)u->nsamples, m->ndrives, m->nckpts, m->ckpt_group,
		    m->run_id,
		    m->async ? "from the end of its host copy (async: the drain)"
			     : "from the common start",
		    p->model, p->tp, p->pp, p->zero_stage, layout_name(p), p->scale,
		    p->gpus_per_node,
		    p->drives_per_node);
	else
		put(out, SC_MODEL_FIG_CKPT,
		    "stated drive write rate %s (one constant sample, no measured spread); bytes "
		    "at N: %s TP%u PP%u ZeRO-%d layout %s, scale %g, %u accelerator(s) and %u "
		    "drive(s) a node",
		    sc_fmt_rate(rate, sizeof(rate), p->drive_write_bytes_per_s), p->model, p->tp,
		    p->pp, p->zero_stage, layout_name(p), p->scale, p->gpus_per_node, p->drives_per_node);
	ckpt_assume(u, out);
}

static void restore_basis(const struct sc_model_used *u, struct sc_model_projection *out)
{
	const struct sc_model_measured *m = u->m;
	char rate[FIG_MAX];

	if (u->ckpt_measured)
		put(out, SC_MODEL_FIG_RESTORE,
		    "%llu samples: %u drive(s) x up to %u restores of group %s, run %s; a sample "
		    "is a drive's bytes read / its slowest rank's time from the common start",
		    (unsigned long long)u->nrestore_samples, m->ndrives, m->nckpts, m->ckpt_group,
		    m->run_id);
	else
		put(out, SC_MODEL_FIG_RESTORE,
		    "stated drive read rate %s (one constant sample, no measured spread)",
		    sc_fmt_rate(rate, sizeof(rate), out->params.drive_read_bytes_per_s));
	assume(out, SC_MODEL_FIG_RESTORE,
	       "as the checkpoint time [a], from the restores: after a failure every node "
	       "reads back its own share of the last checkpoint, the slowest drive ends it; "
	       "sizing projects the restore at each D as the checkpoint");
}

/* The restart R in words: its stated (or default) part and the restore. */
static void restart_words(const struct sc_model_projection *out, bool restore, char *w, size_t n)
{
	char r[FIG_MAX];

	snprintf(w, n, "restart R = %s (%s) + %s",
		 sc_fmt_duration(r, sizeof(r), out->params.restart_ns),
		 out->params.restart_given ? "--restart / restart:" : "default",
		 restore ? "the projected restore's E[max] at N [g]"
			 : "no restore (none measured or stated: restore: true in the config, "
			   "or --drive-read)");
}

static void policy_basis(struct sc_model_projection *out, bool restore, bool async)
{
	const struct sc_model_params *p = &out->params;
	char r[SC_MODEL_TEXT_MAX / 2], cap[FIG_MAX];

	restart_words(out, restore, r, sizeof(r));
	if (async)
		put(out, SC_MODEL_FIG_POLICY,
		    "async: delta = host copy B + stall, the drain D = E[max] at N beyond tau; B = "
		    "one rank's share of the busiest node's bytes at the slowest measured copy "
		    "rate; node MTBF %.0f h; %s",
		    (double)p->node_mtbf_ns / NS_PER_H, r);
	else
		put(out, SC_MODEL_FIG_POLICY,
		    "checkpoint time delta = E[max] at N; node MTBF %.0f h; %s",
		    (double)p->node_mtbf_ns / NS_PER_H, r);
	assume(out, SC_MODEL_FIG_POLICY,
	       "Young/Daly first order: tau = sqrt(2 delta M), M = node MTBF / N; failures "
	       "independent and memoryless; a failure loses half a period plus R; figures "
	       "flagged outside first order when the period reaches M%s",
	       async ? "; async: the drain overlaps the next tau, delta = B + max(0, D - tau) "
		       "solved with tau (closed form); a failure during a drain is not modelled"
		     : "");
	put(out, SC_MODEL_FIG_SIZING,
	    "the checkpoint model at D = 1..%u drives a node, the nodes' bytes by class; "
	    "overhead target %g%%; R as [b], the restore projected at each D%s",
	    p->max_drives_per_node, p->overhead_target * 100,
	    async ? "; async: also the fewest D whose drain fits inside tau (no stall)" : "");
	assume(out, SC_MODEL_FIG_SIZING,
	       "added drives behave as the measured (or stated) ones and share a node's bytes "
	       "evenly; no node-level limit (network, PCIe) caps them; overhead = 1 - goodput "
	       "of the Young/Daly policy");
	put(out, SC_MODEL_FIG_ENDURANCE,
	    "the busiest node's bytes a checkpoint spread over its D drives, one checkpoint a "
	    "Young/Daly period at that D: first at the recommended D [c] (the answer), then at "
	    "%u drive(s) a node (%s); drive capacity %s, %g DWPD over %g years",
	    p->drives_per_node, out->drives_per_node_from,
	    sc_fmt_bytes(cap, sizeof(cap), p->drive_capacity_bytes), p->dwpd, p->warranty_years);
	assume(out, SC_MODEL_FIG_ENDURANCE,
	       "checkpoints are the only writes; write amplification 1; the rating allows dwpd "
	       "x capacity a day over the warranty");
}

static void ingest_basis(const struct sc_model_measured *m, struct sc_model_projection *out)
{
	const struct sc_model_params *p = &out->params;
	char c[FIG_MAX], b[FIG_MAX], r[FIG_MAX];

	sc_fmt_duration(c, sizeof(c), m->compute_per_batch_ns);
	put(out, SC_MODEL_FIG_INGEST,
	    "batch-wait histogram of phase %s, run %s: %llu steps, up to %u ranks a node "
	    "measured; compute %s a batch; measured AU %.1f%%",
	    m->ingest_phase, m->run_id, (unsigned long long)m->batch_wait->count,
	    m->ingest_ranks_per_node, c, m->measured_au * 100);
	assume(out, SC_MODEL_FIG_INGEST,
	       "a step waits for the slowest of N x %u accelerators, each wait drawn "
	       "independently from the merged histogram (linear within a bucket); a step "
	       "stalls when a wait exceeds compute / 9 (its AU under 90%%); AU = compute / "
	       "(compute + E[step wait])",
	       p->gpus_per_node);
	put(out, SC_MODEL_FIG_READ_BW,
	    "%s a batch per accelerator, %u accelerators a node, compute %s a batch; "
	    "measured %s a node",
	    sc_fmt_bytes(b, sizeof(b), m->batch_bytes), p->gpus_per_node, c,
	    sc_fmt_rate(r, sizeof(r), m->node_read_bytes_per_s));
	assume(out, SC_MODEL_FIG_READ_BW,
	       "reads fully overlapped with compute (prefetch): a node reads %u x batch bytes "
	       "in each step of compute / 0.9; a mean rate, its tail is in the ingest figures",
	       p->gpus_per_node);
}

static void training_basis(const struct sc_model_measured *m, struct sc_model_projection *out)
{
	const struct sc_model_train_step *s = &m->train_step;
	char c[FIG_MAX], b[FIG_MAX], d[FIG_MAX];

	sc_fmt_duration(c, sizeof(c), s->computation_ns);
	sc_fmt_bytes(b, sizeof(b), (uint64_t)llround(s->batch * s->sample_bytes));
	sc_fmt_rate(d, sizeof(d), out->train_demand_bytes_per_s);
	put(out, SC_MODEL_FIG_TRAINING,
	    "training phase %s of run %s: %.6g accelerators on %u ranks, %u node(s) with AU "
	    "steps, %u of them storage-bound (capacity measured); batch %u x %.6g B = %s, compute %s a step, AU threshold %.4g%%; "
	    "demand %s per accelerator; measured AU %.1f%%",
	    m->training_phase, m->run_id, m->train_accelerators, m->train_ranks, m->ntrain_nodes,
	    m->ntrain_drives, s->batch, s->sample_bytes, b,
	    c, s->au * 100, d, m->train_au * 100);
	assume(out, SC_MODEL_FIG_TRAINING,
	       "an accelerator at AU = au needs batch x sample bytes every compute / au "
	       "(demand); a rank is storage-bound when compute / (AU wall - barrier wait) < "
	       "au, and then its read rate (accelerators x AU steps x batch bytes / AU wall) "
	       "is its drives' capacity; a node's capacity is measured when every rank of it "
	       "is storage-bound, and it feeds floor(capacity / demand); otherwise it fed its "
	       "accelerators in time and only a lower bound is known (\"at least\"); every "
	       "step ends with a barrier, so at N nodes the step is the slowest node's: "
	       "the capacity is 1 GiB over E[max over N nodes] of the time each takes to read "
	       "it, the measured nodes' capacities being the spread between nodes, fitted as "
	       "the checkpoint's tail is (one node measured: every node as fast); sustained "
	       "rates: a step's jitter is not projected (see the batch waits); nodes whose "
	       "capacity was not reached are assumed no slower than the measured ones");
}

void sc_model_basis_fill(const struct sc_model_used *u, struct sc_model_projection *out)
{
	if (u->ckpt) {
		ckpt_basis(u, out);
		if (u->restore)
			restore_basis(u, out);
		policy_basis(out, u->restore, u->m && u->m->async && u->ckpt_measured);
	}
	if (u->ingest)
		ingest_basis(u->m, out);
	if (u->training)
		training_basis(u->m, out);
}
