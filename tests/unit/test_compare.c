/* test_compare.c -- run B against run A on hand-made records of known
 * figures: phases pair by name and a sweep's cells by position when an
 * iodepth changed (labelled "16->4"); lower latency and higher bandwidth in
 * B are better, the reverse worse; a run against itself changes nothing
 * ("no difference", no largest difference); phases of one run only are
 * listed; runs that share no phase are an error. */
#include "analysis/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/config.h"

#define S  INT64_C(1000000000)
#define US UINT64_C(1000)

/* One phase's measured figures: read bytes over 1 s, nlat reads of lat_ns. */
struct made {
	const char *name;
	uint64_t bytes;
	uint64_t lat_ns;
};

/* Loads yaml (written to dir/name) into plan. */
static bool load(const char *dir, const char *name, const char *yaml, struct sc_plan *plan)
{
	struct sc_config *cfg = NULL;
	char path[512], err[1024];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		FAIL("cannot write %s", path);
		return false;
	}
	fprintf(f, "targets: [{path: %s}]\nphases:\n%s", dir, yaml);
	fclose(f);
	rc = sc_config_load(&cfg, path, NULL, 0, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", path, err);
	if (rc)
		return false;
	sc_config_take_plan(cfg, plan);
	sc_config_destroy(cfg);
	return true;
}

/* The plan phase named name, or -1. */
static int plan_phase(const struct sc_plan *plan, const char *name)
{
	for (uint32_t p = 0; p < plan->nphases; p++)
		if (strcmp(plan->phases[p].name, name) == 0)
			return (int)p;
	return -1;
}

/* A run of yaml whose phases measured m[0..n): one rank reading m.bytes in
 * 1 s, 1000 reads of m.lat_ns each. */
static bool make_run(const char *dir, const char *yaml, const struct made *m, uint32_t n,
		     struct sc_run_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	if (!load(dir, "run.yaml", yaml, &rec->plan))
		return false;
	rec->version = strdup("test");
	rec->nranks = rec->nnodes = 1;
	rec->phases = xcalloc(n, sizeof(*rec->phases));
	for (uint32_t i = 0; i < n; i++) {
		struct sc_phase_record *pr = &rec->phases[rec->nphases];
		struct sc_rank_result *r;
		int p = plan_phase(&rec->plan, m[i].name);

		CHECK(p >= 0, "no phase %s in the plan", m[i].name);
		if (p < 0)
			continue;
		rec->nphases++;
		pr->phase = (uint32_t)p;
		pr->status = SC_PHASE_OK;
		pr->nranks = 1;
		pr->ranks = r = xcalloc(1, sizeof(*r));
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			pr->lat[d] = xcalloc(1, sizeof(*pr->lat[d]));
			sc_hist_init(pr->lat[d]);
		}
		snprintf(r->host, sizeof(r->host), "h");
		r->end_ns = S;
		r->bytes[SC_DIR_READ] = r->firstdone_bytes = m[i].bytes;
		r->ios[SC_DIR_READ] = 1000;
		for (int k = 0; k < 1000; k++)
			sc_hist_record(pr->lat[SC_DIR_READ], m[i].lat_ns);
		sc_hist_summarize(pr->lat[SC_DIR_READ], &r->lat[SC_DIR_READ]);
	}
	return true;
}

static const char yaml_a[] =
    "  - {name: seq, rw: read, bs: 1MiB, size: 1MiB}\n"
    "  - {name: sw, rw: randread, bs: 4KiB, iodepth: [16, 32], size: 1MiB}\n"
    "  - {name: gone, rw: read, size: 1MiB}\n";
static const char yaml_b[] =
    "  - {name: seq, rw: read, bs: 1MiB, size: 1MiB}\n"
    "  - {name: sw, rw: randread, bs: 4KiB, iodepth: [4, 32], size: 1MiB}\n"
    "  - {name: new, rw: read, size: 1MiB}\n";

static const struct made run_a[] = {
    {"seq", 100000000, 200 * US},
    {"sw[iodepth=16]", 80000000, 400 * US},
    {"sw[iodepth=32]", 90000000, 800 * US},
    {"gone", 1000000, 10 * US},
};
/* seq: faster and quicker; the QD 4 cell: slower but quicker; QD 32 the same */
static const struct made run_b[] = {
    {"seq", 150000000, 100 * US},
    {"sw[iodepth=4]", 40000000, 100 * US},
    {"sw[iodepth=32]", 90000000, 800 * US},
    {"new", 1000000, 10 * US},
};

static const struct sc_compare_phase *find(const struct sc_compare *c, const char *label)
{
	for (uint32_t i = 0; i < c->nphases; i++)
		if (strcmp(c->phases[i].label, label) == 0)
			return &c->phases[i];
	return NULL;
}

static void check_fig(const struct sc_compare_phase *p, int fig, double want_pct,
		      enum sc_compare_verdict want)
{
	const struct sc_compare_value *v = &p->v[fig];

	CHECK(fabs(v->change_pct - want_pct) < 2.0, "%s %s: change %.2f%%, want about %.2f%%",
	      p->label, sc_compare_fig_info(fig)->name, v->change_pct, want_pct);
	CHECK(v->verdict == want, "%s %s: B is %s, want %s", p->label,
	      sc_compare_fig_info(fig)->name, sc_compare_verdict_name(v->verdict),
	      sc_compare_verdict_name(want));
}

/* A against B: pairing, signs, the 16->4 cell, the lists of one run. */
static void check_pairs(const struct sc_run_record *a, const struct sc_run_record *b)
{
	struct sc_compare c;
	const struct sc_compare_phase *p;
	char err[256];
	int p99 = sc_compare_lat_fig(SC_DIR_READ, SC_CMP_P99);

	CHECK(sc_compare_runs(a, b, &c, err, sizeof(err)) == 0, "compare: %s", err);
	CHECK(c.nphases == 3, "%u pairs, want seq and two sweep cells", c.nphases);
	p = find(&c, "seq");
	CHECK(p != NULL, "seq not paired");
	if (p) {
		check_fig(p, SC_CMP_BW, 50, SC_CMP_BETTER);
		check_fig(p, p99, -50, SC_CMP_BETTER);
	}
	p = find(&c, "sw[iodepth=16->4]");
	CHECK(p != NULL, "no cell labelled sw[iodepth=16->4]");
	if (p) {
		check_fig(p, SC_CMP_BW, -50, SC_CMP_WORSE);
		check_fig(p, SC_CMP_IOPS, 0, SC_CMP_SAME); /* 1000 reads in 1 s both */
		check_fig(p, p99, -75, SC_CMP_BETTER);
		CHECK(p->sweep == 0, "the cell is not in sweep 0");
	}
	p = find(&c, "sw[iodepth=32]");
	CHECK(p != NULL, "no cell sw[iodepth=32]");
	if (p)
		check_fig(p, SC_CMP_BW, 0, SC_CMP_SAME);
	CHECK(c.nsweeps == 1 && strcmp(c.sweeps[0].labels[SC_SWEEP_IODEPTH][0], "16->4") == 0,
	      "sweep axis not labelled 16->4");
	CHECK(c.nonly_a == 1 && strcmp(c.only_a[0], "gone") == 0, "only in A: %u", c.nonly_a);
	CHECK(c.nonly_b == 1 && strcmp(c.only_b[0], "new") == 0, "only in B: %u", c.nonly_b);
	CHECK(c.ndiffs > 0 && fabs(c.diffs[0].v->change_pct) >= 74, "largest first: %.1f%%",
	      c.ndiffs ? c.diffs[0].v->change_pct : 0);
	for (uint32_t i = 1; i < c.ndiffs; i++)
		CHECK(fabs(c.diffs[i].v->change_pct) <= fabs(c.diffs[i - 1].v->change_pct),
		      "difference %u larger than the one before", i);
	sc_compare_exit(&c);
}

/* A run against itself: every change 0, no difference. */
static void check_self(const struct sc_run_record *a)
{
	struct sc_compare c;
	char err[256];

	CHECK(sc_compare_runs(a, a, &c, err, sizeof(err)) == 0, "compare: %s", err);
	CHECK(c.nphases == a->nphases && c.nonly_a == 0 && c.nonly_b == 0, "%u pairs", c.nphases);
	CHECK(c.ndiffs == 0, "%u differences against itself", c.ndiffs);
	for (uint32_t i = 0; i < c.nphases; i++)
		for (int k = 0; k < SC_CMP_NFIGS; k++) {
			const struct sc_compare_value *v = &c.phases[i].v[k];

			if (!isfinite(v->a))
				continue;
			CHECK(v->change_pct == 0 && v->verdict == SC_CMP_SAME, "%s %s: %.3f%% %s",
			      c.phases[i].label, sc_compare_fig_info(k)->name, v->change_pct,
			      sc_compare_verdict_name(v->verdict));
		}
	sc_compare_exit(&c);
}

int main(void)
{
	char dir[256], err[256];
	struct sc_run_record a = {0}, b = {0}, other = {0};
	struct sc_compare c;
	static const struct made run_other[] = {{"elsewhere", 1000, US}};

	check_mkdtemp(dir, sizeof(dir), "test_compare");
	if (make_run(dir, yaml_a, run_a, 4, &a) && make_run(dir, yaml_b, run_b, 4, &b) &&
	    make_run(dir, "  - {name: elsewhere, rw: read, size: 1MiB}\n", run_other, 1, &other)) {
		check_pairs(&a, &b);
		check_self(&a);
		check_self(&b);
		CHECK(sc_compare_runs(&a, &other, &c, err, sizeof(err)) == -ENOENT,
		      "no shared phase is not an error");
		CHECK(strstr(err, "share no phase") != NULL, "message: %s", err);
	}
	sc_run_record_exit(&a);
	sc_run_record_exit(&b);
	sc_run_record_exit(&other);
	check_rmtree(dir);
	return check_exit("test_compare");
}
