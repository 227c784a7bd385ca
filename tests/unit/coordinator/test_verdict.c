/* test_verdict.c -- expect: thresholds against a hand-made run with known
 * figures: a threshold exactly met passes, the one slow drive fails by name,
 * per-node checks name their host, a metric the phase cannot produce is
 * refused, and what the run does not measure yet is neither pass nor fail. */
#include "analysis/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "check.h"
#include "histogram.h"

#define NRANKS 8u
#define MB     1000000.0
#define S      INT64_C(1000000000)
#define BS     UINT64_C(131072)
#define LAT_NS UINT64_C(200000) /* every write's latency */
#define SLOW   5u		/* the rank at a third of the others' rate */
#define FAST_B UINT64_C(300000000)

/* sc_verdict_of_run on rec's figures, built here. */
static int verdict_of(const struct sc_run_record *rec, struct sc_verdict *v)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, rec);

	if (!rc)
		rc = sc_verdict_of_run(rec, fg.phases, fg.work, v);
	sc_run_figures_exit(&fg);
	return rc;
}

/* A plan of one write phase over 8 targets (/t0 .. /t7) with thresholds. */
static void make_plan(struct sc_plan *plan, const struct sc_expect *e, uint32_t ne)
{
	memset(plan, 0, sizeof(*plan));
	plan->ntargets = NRANKS;
	plan->targets = xcalloc(NRANKS, sizeof(*plan->targets));
	for (uint32_t t = 0; t < NRANKS; t++) {
		char p[16];

		snprintf(p, sizeof(p), "/t%u", t);
		plan->targets[t].path = xstrdup(p);
	}
	plan->nphases = 1;
	plan->phases = xcalloc(1, sizeof(*plan->phases));
	plan->phases[0].name = xstrdup("seqwrite");
	plan->phases[0].group = xstrdup("seqwrite");
	plan->phases[0].ncells = 1;
	plan->phases[0].io.rw = SC_RW_WRITE;
	plan->phases[0].io.bs_bytes = BS;
	plan->phases[0].expect = xcalloc(ne, sizeof(*e));
	memcpy(plan->phases[0].expect, e, ne * sizeof(*e));
	plan->phases[0].nexpect = ne;
}

/* 8 ranks, 4 on each of nodes "n0" and "n1", each on its own target, each
 * writing for exactly 1 s: 300 MB each, rank SLOW 100 MB.  Every write
 * took LAT_NS. */
static void make_phase(struct sc_phase_record *pr)
{
	memset(pr, 0, sizeof(*pr));
	pr->nranks = NRANKS;
	pr->ranks = xcalloc(NRANKS, sizeof(*pr->ranks));
	pr->lat[SC_DIR_WRITE] = xcalloc(1, sizeof(struct sc_hist));
	sc_hist_init(pr->lat[SC_DIR_WRITE]);
	for (uint32_t i = 0; i < NRANKS; i++) {
		struct sc_rank_result *r = &pr->ranks[i];
		uint64_t bytes = i == SLOW ? FAST_B / 3 : FAST_B;

		r->rank = i;
		r->node = i / 4;
		snprintf(r->host, sizeof(r->host), "n%u", i / 4);
		r->target = i;
		r->start_ns = 0;
		r->end_ns = S;
		r->bytes[SC_DIR_WRITE] = bytes;
		r->ios[SC_DIR_WRITE] = bytes / BS;
		for (uint64_t k = 0; k < r->ios[SC_DIR_WRITE]; k++)
			sc_hist_record(pr->lat[SC_DIR_WRITE], LAT_NS);
	}
}

static void make_run(struct sc_run_record *rec, const struct sc_expect *e, uint32_t ne)
{
	memset(rec, 0, sizeof(*rec));
	rec->nranks = NRANKS;
	rec->nnodes = 2;
	make_plan(&rec->plan, e, ne);
	rec->nphases = 1;
	rec->phases = xcalloc(1, sizeof(*rec->phases));
	make_phase(&rec->phases[0]);
}

/* The checks of metric m, in *n. */
static const struct sc_check *checks_of(const struct sc_verdict *v, enum sc_expect_metric m,
					uint32_t *n)
{
	const struct sc_check *first = NULL;

	*n = 0;
	for (uint32_t i = 0; i < v->nchecks; i++)
		if (v->checks[i].metric == m) {
			first = first ? first : &v->checks[i];
			(*n)++;
		}
	return first;
}

/* min_bw_per_drive at exactly the fast drives' rate: 7 pass (met exactly),
 * the slow one fails, named by rank, host and target. */
static void test_drive_threshold(void)
{
	const struct sc_expect e[] = {{SC_EXPECT_MIN_BW_PER_DRIVE, (double)FAST_B}};
	struct sc_run_record rec;
	struct sc_verdict v;
	const struct sc_check *c;
	uint32_t n;

	make_run(&rec, e, 1);
	CHECK(verdict_of(&rec, &v) == 0, "verdict");
	c = checks_of(&v, SC_EXPECT_MIN_BW_PER_DRIVE, &n);
	CHECK(n == NRANKS && v.nchecks == NRANKS, "%u drive checks of %u", n, v.nchecks);
	CHECK(v.nfailed == 1, "%u failed, want 1 (the slow drive)", v.nfailed);
	for (uint32_t i = 0; c && i < n; i++) {
		CHECK(c[i].at.scope == SC_SCOPE_DRIVE && c[i].at.rank == i, "check %u: rank %u", i,
		      c[i].at.rank);
		CHECK(c[i].required == (double)FAST_B, "required %g", c[i].required);
		if (i == SLOW) {
			CHECK(c[i].result == SC_CHECK_FAIL, "slow drive: %s",
			      sc_check_result_name(c[i].result));
			CHECK(c[i].measured == 100 * MB, "slow drive measured %g B/s",
			      c[i].measured);
			CHECK(c[i].at.host && !strcmp(c[i].at.host, "n1"), "slow drive's host");
			CHECK(c[i].at.target == SLOW && c[i].at.target_path &&
				  !strcmp(c[i].at.target_path, "/t5"),
			      "slow drive's target %s",
			      c[i].at.target_path ? c[i].at.target_path : "-");
		} else {
			CHECK(c[i].result == SC_CHECK_PASS, "rank %u (exactly met): %s", i,
			      sc_check_result_name(c[i].result));
			CHECK(c[i].measured == (double)FAST_B, "rank %u measured %g", i,
			      c[i].measured);
		}
	}
	sc_verdict_exit(&v);
	sc_run_record_exit(&rec);
}

/* Cluster, node and latency thresholds, one of them a hair too strict. */
static void test_cluster_node_latency(void)
{
	const double cluster_bw = 7 * (double)FAST_B + (double)(FAST_B / 3);
	const struct sc_expect e[] = {
	    {SC_EXPECT_MIN_BW, cluster_bw},		     /* exactly met */
	    {SC_EXPECT_MIN_BW_PER_NODE, 4 * (double)FAST_B}, /* node n1 is short */
	    {SC_EXPECT_MAX_WRITE_P99, 2 * (double)LAT_NS},
	    {SC_EXPECT_MAX_P99, (double)LAT_NS / 2}, /* too strict */
	    {SC_EXPECT_STEADY_STATE, 1},
	};
	struct sc_run_record rec;
	struct sc_verdict v;
	const struct sc_check *c;
	uint32_t n;

	make_run(&rec, e, sizeof(e) / sizeof(e[0]));
	CHECK(verdict_of(&rec, &v) == 0, "verdict");
	c = checks_of(&v, SC_EXPECT_MIN_BW, &n);
	CHECK(n == 1 && c && c->result == SC_CHECK_PASS && c->measured == cluster_bw,
	      "cluster bandwidth exactly met passes (%g)", c ? c->measured : 0);
	c = checks_of(&v, SC_EXPECT_MIN_BW_PER_NODE, &n);
	CHECK(n == 2, "%u node checks, want 2", n);
	if (n == 2) {
		CHECK(c[0].result == SC_CHECK_PASS && !strcmp(c[0].at.host, "n0"),
		      "node n0 passes");
		CHECK(c[1].result == SC_CHECK_FAIL && !strcmp(c[1].at.host, "n1") &&
			  c[1].at.node == 1,
		      "node n1 fails");
	}
	c = checks_of(&v, SC_EXPECT_MAX_WRITE_P99, &n);
	CHECK(n == 1 && c && c->result == SC_CHECK_PASS &&
		  fabs(c->measured - (double)LAT_NS) <= 0.01 * LAT_NS,
	      "write p99 %g ns within 1%% of %llu", c ? c->measured : 0,
	      (unsigned long long)LAT_NS);
	c = checks_of(&v, SC_EXPECT_MAX_P99, &n);
	CHECK(n == 1 && c && c->result == SC_CHECK_FAIL, "a p99 below every latency fails");
	c = checks_of(&v, SC_EXPECT_STEADY_STATE, &n);
	CHECK(n == 1 && c && c->result == SC_CHECK_NOT_MEASURED && c->note,
	      "steady state: not measured, with why");
	CHECK(v.nfailed == 2 && v.nunmeasured == 1, "%u failed, %u not measured", v.nfailed,
	      v.nunmeasured);
	sc_verdict_exit(&v);
	sc_run_record_exit(&rec);
}

/* A run without thresholds has no checks; a timed-out phase measures none. */
static void test_none_and_timed_out(void)
{
	const struct sc_expect e[] = {{SC_EXPECT_MIN_BW, 1}};
	struct sc_run_record rec;
	struct sc_verdict v;

	make_run(&rec, e, 1);
	rec.plan.phases[0].nexpect = 0;
	CHECK(!sc_verdict_planned(&rec.plan), "no thresholds planned");
	CHECK(verdict_of(&rec, &v) == 0 && v.nchecks == 0, "no checks");
	sc_verdict_exit(&v);
	rec.plan.phases[0].nexpect = 1;
	rec.phases[0].status = SC_PHASE_TIMED_OUT;
	CHECK(verdict_of(&rec, &v) == 0 && v.nchecks == 1 && v.nunmeasured == 1 &&
		  v.nfailed == 0,
	      "timed out: not measured");
	sc_verdict_exit(&v);
	sc_run_record_exit(&rec);
}

/* Sets rank r's one NVMe drive, its media errors before and after. */
static void give_drive(struct sc_rank_result *r, uint64_t before, uint64_t after)
{
	struct sc_drive *d;

	r->ndrives = 1;
	r->drives = d = xcalloc(1, sizeof(*d));
	snprintf(d->device, sizeof(d->device), "nvme%un1", r->rank);
	snprintf(d->serial, sizeof(d->serial), "SN%u", r->rank);
	d->before.valid = d->after.valid = true;
	d->before.media_errors = before;
	d->after.media_errors = after;
}

/* no_media_errors from the SMART logs: a drive whose count rose fails,
 * named with its device and serial; one whose count stayed passes; a rank
 * without NVMe telemetry (or without the log after the phase) is not
 * measured, never a pass. */
static void test_media_errors(void)
{
	const struct sc_expect e[] = {{SC_EXPECT_NO_MEDIA_ERRORS, 1}};
	struct sc_run_record rec;
	struct sc_verdict v;
	const struct sc_check *c;
	uint32_t n;

	make_run(&rec, e, 1);
	for (uint32_t i = 0; i < 6; i++)
		give_drive(&rec.phases[0].ranks[i], 7, i == 2 ? 9 : 7);
	rec.phases[0].ranks[5].drives[0].after.valid = false; /* log not read after */
	CHECK(verdict_of(&rec, &v) == 0, "verdict");
	/* the checks keep their own names: the rows may go once judged */
	for (uint32_t i = 0; i < NRANKS; i++) {
		struct sc_rank_result *r = &rec.phases[0].ranks[i];

		memset(r->host, 0xAA, sizeof(r->host) - 1);
		if (r->drives)
			memset(r->drives, 0xAA, r->ndrives * sizeof(*r->drives));
	}
	c = checks_of(&v, SC_EXPECT_NO_MEDIA_ERRORS, &n);
	CHECK(c && n == NRANKS, "%u checks, want one per drive", n);
	CHECK(v.nfailed == 1 && v.nunmeasured == 3, "%u failed (want 1), %u not measured (want 3)",
	      v.nfailed, v.nunmeasured);
	for (uint32_t i = 0; c && i < n; i++) {
		enum sc_check_result want = i == 2   ? SC_CHECK_FAIL
					    : i >= 5 ? SC_CHECK_NOT_MEASURED
						     : SC_CHECK_PASS;

		CHECK(c[i].result == want, "rank %u: %s", i, sc_check_result_name(c[i].result));
		if (i < 6) {
			char dev[32], sn[32];

			snprintf(dev, sizeof(dev), "nvme%un1", i);
			snprintf(sn, sizeof(sn), "SN%u", i);
			CHECK(c[i].at.serial && c[i].at.device && !strcmp(c[i].at.serial, sn) &&
				  !strcmp(c[i].at.device, dev),
			      "rank %u: device %s and serial %s named", i, dev, sn);
		}
		CHECK(c[i].at.host && !strcmp(c[i].at.host, i < 4 ? "n0" : "n1"),
		      "rank %u: its host", i);
		if (i >= 6)
			CHECK(!c[i].at.serial, "rank %u without NVMe: no serial", i);
	}
	sc_verdict_exit(&v);
	sc_run_record_exit(&rec);
}

/* What a phase can produce. */
static void test_cannot(void)
{
	char buf[256];

	CHECK(sc_verdict_cannot(SC_EXPECT_MIN_AU, SC_WORKLOAD_IO, true, false, buf, sizeof(buf)),
	      "min_au on io");
	CHECK(sc_verdict_cannot(SC_EXPECT_MAX_CHECKPOINT_DURATION, SC_WORKLOAD_IO, true, true, buf,
				sizeof(buf)),
	      "max_checkpoint_duration on io");
	CHECK(sc_verdict_cannot(SC_EXPECT_MAX_READ_P99, SC_WORKLOAD_IO, false, true, buf,
				sizeof(buf)) &&
		  strstr(buf, "only writes"),
	      "read latency on a write-only phase: %s", buf);
	CHECK(!sc_verdict_cannot(SC_EXPECT_MAX_WRITE_P99, SC_WORKLOAD_IO, false, true, buf,
				 sizeof(buf)),
	      "write latency on a write phase");
	CHECK(!sc_verdict_cannot(SC_EXPECT_MAX_CHECKPOINT_DURATION, SC_WORKLOAD_CHECKPOINT, false,
				 true, buf, sizeof(buf)),
	      "checkpoint duration on a checkpoint");
	CHECK(
	    !sc_verdict_cannot(SC_EXPECT_MIN_AU, SC_WORKLOAD_INGEST, true, false, buf, sizeof(buf)),
	    "min_au on ingest");
	CHECK(sc_verdict_cannot(SC_EXPECT_STEADY_STATE, SC_WORKLOAD_INGEST, true, false, buf,
				sizeof(buf)),
	      "steady_state on ingest");
}

int main(void)
{
	test_drive_threshold();
	test_cluster_node_latency();
	test_none_and_timed_out();
	test_media_errors();
	test_cannot();
	return check_exit("test_verdict");
}
