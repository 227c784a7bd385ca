/* verdict.c -- the PASS/FAIL verdict: the table of metrics an expect:
 * threshold may bound, and each one's evaluation (verdict.h). */
#include "verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "histogram.h"
#include "steady_state.h"
#include "telemetry.h"
#include "workload_figures.h"

/* What an evaluation sees: one finished phase and its figures. */
struct eval_ctx {
	const struct sc_run_record *rec;
	const struct sc_phase_record *pr;
	const struct sc_phase *ph;
	const struct sc_phase_figures *fig;
	const struct sc_workload_figures *work; /* the phase's workload figures */
	const struct sc_steady_group *steady;   /* the steady-state groups so far */
	uint32_t nsteady;
};

/* The checks while they are made. */
struct check_list {
	struct sc_check *v;
	uint32_t n, cap;
	int nomem;
};

typedef void (*eval_fn)(const struct eval_ctx *x, const struct sc_expect *e,
			struct check_list *out);

/* Which directions a phase must do for a metric. */
enum need_dir { NEED_ANY = 0, NEED_READ, NEED_WRITE };

#define WL(w)	(1u << SC_WORKLOAD_##w)
#define WL_ALL	(WL(IO) | WL(CHECKPOINT) | WL(INGEST) | WL(KVCACHE) | WL(TRAINING))
#define WL_IOKV (WL(IO) | WL(KVCACHE))
/* sc_pct_points entries the latency thresholds read. */
#define PCT_99	  99.0
#define PCT_99_99 99.99

static void eval_rate(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out);
static void eval_lat(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out);
static void eval_ckpt(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out);
static void eval_au(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out);
static void eval_steady(const struct eval_ctx *x, const struct sc_expect *e,
			struct check_list *out);
static void eval_media(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out);

/* The metrics: one row each, by enum sc_expect_metric. */
static const struct metric_def {
	enum sc_expect_unit unit;
	enum sc_check_scope scope;
	bool minimum;
	unsigned workloads; /* the phase kinds that produce it */
	enum need_dir dir;
	double pct; /* latency: the percentile */
	eval_fn eval;
	const char *what; /* what it measures, for messages */
} defs[SC_EXPECT_COUNT] = {
    [SC_EXPECT_MIN_BW] = {SC_UNIT_BW, SC_SCOPE_CLUSTER, true, WL_ALL, NEED_ANY, 0, eval_rate,
			  "the cluster's last-done bandwidth"},
    [SC_EXPECT_MIN_BW_PER_NODE] = {SC_UNIT_BW, SC_SCOPE_NODE, true, WL_ALL, NEED_ANY, 0, eval_rate,
				   "each node's bandwidth"},
    [SC_EXPECT_MIN_BW_PER_DRIVE] = {SC_UNIT_BW, SC_SCOPE_DRIVE, true, WL_ALL, NEED_ANY, 0,
				    eval_rate, "each drive's (rank's) bandwidth"},
    [SC_EXPECT_MIN_IOPS] = {SC_UNIT_IOPS, SC_SCOPE_CLUSTER, true, WL_ALL, NEED_ANY, 0, eval_rate,
			    "the cluster's I/Os per second"},
    [SC_EXPECT_MIN_IOPS_PER_NODE] = {SC_UNIT_IOPS, SC_SCOPE_NODE, true, WL_ALL, NEED_ANY, 0,
				     eval_rate, "each node's I/Os per second"},
    [SC_EXPECT_MIN_IOPS_PER_DRIVE] = {SC_UNIT_IOPS, SC_SCOPE_DRIVE, true, WL_ALL, NEED_ANY, 0,
				      eval_rate, "each drive's (rank's) I/Os per second"},
    [SC_EXPECT_MAX_P99] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL_ALL, NEED_ANY, PCT_99, eval_lat,
			   "the cluster's p99 latency"},
    [SC_EXPECT_MAX_P99_99] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL_ALL, NEED_ANY, PCT_99_99,
			      eval_lat, "the cluster's p99.99 latency"},
    [SC_EXPECT_MAX_READ_P99] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL_ALL, NEED_READ, PCT_99,
				eval_lat, "the p99 latency of reads"},
    [SC_EXPECT_MAX_READ_P99_99] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL_ALL, NEED_READ,
				   PCT_99_99, eval_lat, "the p99.99 latency of reads"},
    [SC_EXPECT_MAX_WRITE_P99] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL_ALL, NEED_WRITE, PCT_99,
				 eval_lat, "the p99 latency of writes"},
    [SC_EXPECT_MAX_WRITE_P99_99] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL_ALL, NEED_WRITE,
				    PCT_99_99, eval_lat, "the p99.99 latency of writes"},
    [SC_EXPECT_MAX_CHECKPOINT_DURATION] = {SC_UNIT_NS, SC_SCOPE_CLUSTER, false, WL(CHECKPOINT),
					   NEED_ANY, 0, eval_ckpt, "the duration of a checkpoint"},
    [SC_EXPECT_MIN_AU] = {SC_UNIT_FRACTION, SC_SCOPE_CLUSTER, true, WL(INGEST) | WL(TRAINING),
			  NEED_ANY, 0, eval_au, "the accelerator utilisation"},
    [SC_EXPECT_STEADY_STATE] = {SC_UNIT_FLAG, SC_SCOPE_DRIVE, true, WL_IOKV, NEED_ANY, 0,
				eval_steady, "whether steady state was reached"},
    [SC_EXPECT_NO_MEDIA_ERRORS] = {SC_UNIT_FLAG, SC_SCOPE_DRIVE, true, WL_ALL, NEED_ANY, 0,
				   eval_media, "the drives' media errors"},
};

enum sc_expect_unit sc_verdict_unit(enum sc_expect_metric m)
{
	return defs[m].unit;
}

enum sc_check_scope sc_verdict_scope(enum sc_expect_metric m)
{
	return defs[m].scope;
}

bool sc_verdict_is_minimum(enum sc_expect_metric m)
{
	return defs[m].minimum;
}

const char *sc_check_scope_name(enum sc_check_scope s)
{
	static const char *const names[SC_SCOPE_COUNT] = {"cluster", "node", "drive"};

	return s < SC_SCOPE_COUNT ? names[s] : "?";
}

const char *sc_check_result_name(enum sc_check_result r)
{
	return r == SC_CHECK_PASS ? "PASS" : r == SC_CHECK_FAIL ? "FAIL" : "not measured";
}

/* "io, kvcache": the workloads in mask. */
static void workload_list(unsigned mask, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int w = 0; w < SC_WORKLOAD_COUNT && at < len; w++)
		if (mask & (1u << w))
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       sc_workload_name((enum sc_workload)w));
}

const char *sc_verdict_cannot(enum sc_expect_metric m, enum sc_workload w, bool reads, bool writes,
			      char *buf, size_t len)
{
	const struct metric_def *d = &defs[m];
	char kinds[96];

	if (!(d->workloads & (1u << w))) {
		workload_list(d->workloads, kinds, sizeof(kinds));
		snprintf(buf, len, "%s is measured in %s phases only; this phase is %s", d->what,
			 kinds, sc_workload_name(w));
		return buf;
	}
	if ((d->dir == NEED_READ && !reads) || (d->dir == NEED_WRITE && !writes)) {
		snprintf(buf, len, "%s needs a phase that %s, and this one %s", d->what,
			 d->dir == NEED_READ ? "reads" : "writes",
			 d->dir == NEED_READ ? "only writes" : "only reads");
		return buf;
	}
	return NULL;
}

bool sc_verdict_planned(const struct sc_plan *plan)
{
	for (uint32_t i = 0; i < plan->nphases; i++)
		if (plan->phases[i].nexpect)
			return true;
	return false;
}

/* ------------------------------------------------------------ the checks */

/* A new check of e in x's phase, result not yet decided; NULL when out
 * of memory (out->nomem set). */
static struct sc_check *add_check(const struct eval_ctx *x, const struct sc_expect *e,
				  struct check_list *out)
{
	struct sc_check *c;

	if (out->n == out->cap) {
		uint32_t cap = out->cap ? 2 * out->cap : 16;
		struct sc_check *v = realloc(out->v, cap * sizeof(*v));

		if (!v) {
			out->nomem = 1;
			return NULL;
		}
		out->v = v;
		out->cap = cap;
	}
	c = &out->v[out->n++];
	memset(c, 0, sizeof(*c));
	c->phase = x->pr->phase;
	c->phase_name = x->ph->name;
	c->group = x->ph->group;
	c->metric = e->metric;
	c->at.scope = defs[e->metric].scope;
	c->required = e->value;
	c->result = SC_CHECK_NOT_MEASURED;
	return c;
}

/* Decides c from its measured value. */
static void decide(struct sc_check *c, double measured)
{
	bool ok = defs[c->metric].minimum ? measured >= c->required : measured <= c->required;

	c->measured = measured;
	c->result = ok ? SC_CHECK_PASS : SC_CHECK_FAIL;
}

/* A check of e that the run cannot decide, with why. */
static void not_measured(const struct eval_ctx *x, const struct sc_expect *e,
			 struct check_list *out, const char *why)
{
	struct sc_check *c = add_check(x, e, out);

	if (c)
		c->note = why;
}

void sc_verdict_drive_where(const struct sc_plan *plan, const struct sc_rank_result *r,
			    struct sc_where *w)
{
	const struct sc_drive *d;

	w->scope = SC_SCOPE_DRIVE;
	w->node = r->node;
	w->host = r->host;
	w->rank = r->rank;
	w->target = r->target;
	w->target_path = r->target < plan->ntargets ? plan->targets[r->target].path : NULL;
	d = sc_telemetry_identity(r);
	w->device = d ? d->device : NULL;
	w->serial = d ? d->serial : NULL;
}

int sc_where_keep(struct sc_where *w, struct sc_names *names)
{
	const char **field[] = {&w->host, &w->device, &w->serial};

	for (size_t i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		const char *kept = sc_names_keep(names, *field[i]);

		if (*field[i] && !kept)
			return -ENOMEM;
		*field[i] = kept;
	}
	return 0;
}

const char *sc_verdict_node_host(const struct sc_phase_record *pr, uint32_t node)
{
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].node == node)
			return pr->ranks[i].host;
	return NULL;
}

/* One check per node row (nodes that ran ranks), measured by get. */
static void per_node(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out,
		     double (*get)(const struct sc_node_row *n))
{
	for (uint32_t i = 0; i < x->fig->nodes_len; i++) {
		const struct sc_node_row *n = &x->fig->nodes[i];
		struct sc_check *c;

		if (!n->nranks)
			continue;
		c = add_check(x, e, out);
		if (!c)
			return;
		c->at.node = n->node;
		c->at.host = sc_verdict_node_host(x->pr, n->node);
		decide(c, get(n));
	}
}

/* One check per rank (a drive), measured by get from its row. */
static void per_drive(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out,
		      double (*get)(const struct sc_rank_row *r))
{
	for (uint32_t i = 0; i < x->pr->nranks; i++) {
		const struct sc_rank_result *r = &x->pr->ranks[i];
		struct sc_check *c = add_check(x, e, out);

		if (!c)
			return;
		sc_verdict_drive_where(&x->rec->plan, r, &c->at);
		decide(c, get(&x->fig->rank_rows[i]));
	}
}

static double node_bw(const struct sc_node_row *n)
{
	return n->bw_bytes_per_s;
}

static double node_iops(const struct sc_node_row *n)
{
	return n->iops[SC_DIR_READ] + n->iops[SC_DIR_WRITE];
}

static double rank_bw(const struct sc_rank_row *r)
{
	return r->bw_bytes_per_s;
}

static double rank_iops(const struct sc_rank_row *r)
{
	return r->iops;
}

/* Bandwidth or IOPS (by the metric's unit) of the cluster, each node or
 * each drive. */
static void eval_rate(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out)
{
	bool iops = defs[e->metric].unit == SC_UNIT_IOPS;
	struct sc_check *c;

	if (defs[e->metric].scope == SC_SCOPE_NODE)
		return per_node(x, e, out, iops ? node_iops : node_bw);
	if (defs[e->metric].scope == SC_SCOPE_DRIVE)
		return per_drive(x, e, out, iops ? rank_iops : rank_bw);
	c = add_check(x, e, out);
	if (c)
		decide(c, iops ? x->fig->iops_total : x->fig->lastdone_bw_bytes_per_s);
}

static void eval_lat(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out)
{
	const struct metric_def *d = &defs[e->metric];
	const struct sc_lat_summary *s = d->dir == NEED_READ	? &x->fig->lat[SC_DIR_READ]
					 : d->dir == NEED_WRITE ? &x->fig->lat[SC_DIR_WRITE]
								: &x->fig->lat_all;
	struct sc_check *c;

	/* a checkpoint group's cells of the other direction are not its concern */
	if (x->ph->workload == SC_WORKLOAD_CHECKPOINT &&
	    ((d->dir == NEED_READ && !x->ph->ckpt.restore) ||
	     (d->dir == NEED_WRITE && x->ph->ckpt.restore)))
		return;
	if (!s->count)
		return not_measured(x, e, out, "no I/O of that direction completed");
	c = add_check(x, e, out);
	if (c)
		decide(c, (double)s->pct_ns[sc_pct_index(d->pct)]);
}

static void eval_ckpt(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out)
{
	struct sc_check *c = add_check(x, e, out);

	if (c)
		decide(c, (double)x->work->ckpt.duration_ns);
}

static void eval_au(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out)
{
	struct sc_check *c = add_check(x, e, out);

	if (c)
		decide(c, x->work->training.accelerators ? x->work->training.au : x->work->ingest.au);
}

/* Steady state (analysis/steady_state.h), judged on the group's rounds so
 * far (the verdict keeps the checks of its last round run alone): one
 * check per drive, 1 when it was steady in the group's final window. */
static void eval_steady(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out)
{
	const struct sc_steady_group *g = NULL;

	if (!x->ph->steady.max_rounds)
		return not_measured(x, e, out, "the phase has no steady_state rounds");
	for (uint32_t i = 0; i < x->nsteady && !g; i++)
		if (x->steady[i].config_index == x->ph->config_index)
			g = &x->steady[i];
	if (!g)
		return not_measured(x, e, out, "no steady-state round of the group was recorded");
	for (uint32_t i = 0; i < g->ndrives && i < x->pr->nranks; i++) {
		struct sc_check *c = add_check(x, e, out);

		if (!c)
			break;
		sc_verdict_drive_where(&x->rec->plan, &x->pr->ranks[i], &c->at);
		decide(c, g->drives[i].steady ? 1.0 : 0.0);
		if (!g->drives[i].steady)
			c->note = "not steady in the group's final window";
	}
}

/* Media errors from the drives' SMART health logs (before and after the
 * phase): one check per drive, 1 when the phase added none. */
static void eval_media(const struct eval_ctx *x, const struct sc_expect *e, struct check_list *out)
{
	for (uint32_t i = 0; i < x->pr->nranks; i++) {
		const struct sc_rank_result *r = &x->pr->ranks[i];
		struct sc_check *c = add_check(x, e, out);
		uint64_t added = 0;

		if (!c)
			return;
		sc_verdict_drive_where(&x->rec->plan, r, &c->at);
		if (sc_telemetry_media_errors(r, &added) == 0) {
			decide(c, added ? 0.0 : 1.0);
			if (added)
				c->note = "the drive's media error count rose during the phase";
		} else {
			c->note = "no NVMe health log before and after the phase";
		}
	}
}

/* The checks of finished phase rec->phases[at] (its figures pf[at]),
 * appended to out. */
static int phase_checks(const struct eval_ctx *x, struct check_list *out)
{
	const struct sc_phase *ph = x->ph;

	if (x->pr->status == SC_PHASE_TIMED_OUT) {
		for (uint32_t i = 0; i < ph->nexpect; i++)
			not_measured(x, &ph->expect[i], out, "the phase timed out");
		return out->nomem ? -ENOMEM : 0;
	}
	for (uint32_t k = 0; k < ph->nexpect; k++)
		if (ph->expect[k].metric < SC_EXPECT_COUNT)
			defs[ph->expect[k].metric].eval(x, &ph->expect[k], out);
	return out->nomem ? -ENOMEM : 0;
}

/* Whether rec->phases[at] follows a round of its own steady-state group
 * that was judged as the group's last (it did not time out): that
 * round's checks give way to at's, for a group is judged once, by its
 * last round run. */
static bool follows_judged_round(const struct sc_run_record *rec, uint32_t at)
{
	const struct sc_phase_record *prev = at ? &rec->phases[at - 1] : NULL;
	const struct sc_phase *ph = &rec->plan.phases[rec->phases[at].phase], *pp;

	if (!prev || prev->phase >= rec->plan.nphases || !ph->steady.max_rounds ||
	    prev->status == SC_PHASE_TIMED_OUT)
		return false;
	pp = &rec->plan.phases[prev->phase];
	return pp->steady.max_rounds && pp->config_index == ph->config_index;
}

/* Adds (sign 1) or takes away (-1) the results of checks [from, to). */
static void count_results(struct sc_verdict *v, uint32_t from, uint32_t to, int sign)
{
	for (uint32_t i = from; i < to; i++) {
		v->nfailed += (uint32_t)sign * (v->checks[i].result == SC_CHECK_FAIL);
		v->nunmeasured += (uint32_t)sign * (v->checks[i].result == SC_CHECK_NOT_MEASURED);
	}
}

int sc_verdict_add(struct sc_verdict *v, const struct sc_run_record *rec,
		   const struct sc_phase_figures *pf, const struct sc_workload_figures *work,
		   const struct sc_steady_group *steady, uint32_t nsteady, uint32_t at)
{
	const struct sc_phase_record *pr = &rec->phases[at];
	struct check_list l = {.v = v->checks, .n = v->nchecks, .cap = v->cap};
	struct eval_ctx x = {.rec = rec, .pr = pr, .fig = &pf[at], .work = &work[at],
			     .steady = steady, .nsteady = nsteady};
	int rc = 0;

	if (pr->phase >= rec->plan.nphases) {
		v->last_from = v->nchecks;
		return 0;
	}
	x.ph = &rec->plan.phases[pr->phase];
	if (follows_judged_round(rec, at)) {
		count_results(v, v->last_from, v->nchecks, -1);
		l.n = v->nchecks = v->last_from;
	}
	if (x.ph->nexpect)
		rc = phase_checks(&x, &l);
	for (uint32_t i = v->nchecks; !rc && i < l.n; i++)
		rc = sc_where_keep(&l.v[i].at, &v->names);
	v->checks = l.v;
	v->cap = l.cap;
	if (rc)
		return rc; /* the checks as they were */
	v->last_from = v->nchecks;
	v->nchecks = l.n;
	count_results(v, v->last_from, v->nchecks, 1);
	return 0;
}

int sc_verdict_of_run(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		      const struct sc_workload_figures *work, struct sc_verdict *out)
{
	struct sc_steady_group *steady;
	uint32_t nsteady;
	int rc = sc_steady_groups(rec, pf, &steady, &nsteady);

	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; !rc && i < rec->nphases; i++)
		rc = sc_verdict_add(out, rec, pf, work, steady, nsteady, i);
	sc_steady_groups_free(steady, nsteady);
	if (rc)
		sc_verdict_exit(out);
	return rc;
}

void sc_verdict_exit(struct sc_verdict *v)
{
	sc_names_exit(&v->names);
	free(v->checks);
	memset(v, 0, sizeof(*v));
}
