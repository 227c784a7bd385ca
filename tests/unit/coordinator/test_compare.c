/* test_compare.c -- run B against run A on hand-made records of known
 * figures: phases pair by name and a sweep's cells by position when an
 * iodepth changed (labelled "16->4"); lower latency and higher bandwidth in
 * B are better, the reverse worse; a run against itself changes nothing
 * ("no difference", no largest difference); phases of one run only are
 * listed; runs that share no phase are an error.  Several runs a side:
 * each side's mean and spread, Welch's interval of B - A against one
 * worked by hand (test_welch.c's samples), "no difference" when it holds
 * 0 even past 1%; settings that differ between paired phases named with
 * both values; runs of one side with different settings refused, the
 * setting named. */
#include "analysis/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* CHECK(cond, "%s", why), and cond. */
#define CHECK_OK(cond, why)                                                                        \
	({                                                                                         \
		bool ok_ = (cond);                                                                 \
		CHECK(ok_, "%s", why);                                                             \
		ok_;                                                                               \
	})
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

/* Three runs of yaml_a whose seq phase moved mb[i] MB in 1 s. */
static bool make_runs3(const char *dir, const double mb[3], struct sc_run_record rec[3])
{
	bool ok = true;

	for (int i = 0; i < 3; i++) {
		struct made m[] = {{"seq", (uint64_t)(mb[i] * 1e6), 200 * US}};

		ok = make_run(dir, yaml_a, m, 1, &rec[i]) && ok;
	}
	return ok;
}

/* seq's bandwidth of side A {100, 102, 104} MB/s against B's mb. */
static void check_runs(const char *dir, const double mb[3], double want_lo, double want_hi,
		       enum sc_compare_verdict want)
{
	static const double mb_a[3] = {100, 102, 104};
	struct sc_run_record a[3], b[3];
	const struct sc_run_record *pa[3] = {&a[0], &a[1], &a[2]}, *pb[3] = {&b[0], &b[1], &b[2]};
	const struct sc_compare_value *v;
	struct sc_compare c;
	char err[256];

	if (make_runs3(dir, mb_a, a) && make_runs3(dir, mb, b) &&
	    CHECK_OK(sc_compare_sides(pa, 3, pb, 3, &c, err, sizeof(err)) == 0, err)) {
		v = &c.phases[0].v[SC_CMP_BW];
		CHECK(v->side[0].n == 3 && fabs(v->side[0].mean - 102e6) < 1 &&
			  fabs(v->side[0].sd - 2e6) < 1 && v->side[0].min == 100e6 &&
			  v->side[0].max == 104e6,
		      "A: %u runs, mean %g sd %g", v->side[0].n, v->side[0].mean, v->side[0].sd);
		CHECK(fabs(v->ci_lo - want_lo) < 100 && fabs(v->ci_hi - want_hi) < 100,
		      "interval [%.0f, %.0f] B/s, want [%.0f, %.0f]", v->ci_lo, v->ci_hi, want_lo,
		      want_hi);
		CHECK(fabs(v->ci_lo_pct - want_lo / 102e6 * 100) < 1e-4, "low %.4f%%",
		      v->ci_lo_pct);
		CHECK(v->verdict == want, "B is %s, want %s", sc_compare_verdict_name(v->verdict),
		      sc_compare_verdict_name(want));
		CHECK(c.nwarnings == 0, "%u settings differ between runs of one config",
		      c.nwarnings);
		sc_compare_exit(&c);
	}
	for (int i = 0; i < 3; i++) {
		sc_run_record_exit(&a[i]);
		sc_run_record_exit(&b[i]);
	}
}

/* The setting named name of p, or NULL. */
static const struct sc_compare_setting *setting(const struct sc_compare_phase *p, const char *name)
{
	for (uint32_t i = 0; p && i < p->nsettings; i++)
		if (strcmp(p->settings[i].name, name) == 0)
			return &p->settings[i];
	return NULL;
}

static void check_setting(const struct sc_compare_phase *p, const char *name, const char *a,
			  const char *b)
{
	const struct sc_compare_setting *s = setting(p, name);

	CHECK(s && strcmp(s->a, a) == 0 && strcmp(s->b, b) == 0, "%s: %s: %s -> %s, want %s -> %s",
	      p ? p->label : "?", name, s ? s->a : "(not named)", s ? s->b : "", a, b);
}

static const char yaml_set_a[] =
    "  - {name: seq, rw: read, bs: 1MiB, size: 1MiB, engine: emulated}\n"
    "  - {name: ck, workload: checkpoint, model: llama3.1-405b, tp: 2, pp: 1, zero: 1,\n"
    "     checkpoints: 2, scale: 0.000002, engine: emulated}\n";
static const char yaml_set_b[] =
    "  - {name: seq, rw: read, bs: 4KiB, size: 1MiB, engine: psync, iodepth: 8}\n"
    "  - {name: ck, workload: checkpoint, model: llama3.1-405b, tp: 2, pp: 1, zero: 1,\n"
    "     checkpoints: 5, scale: 0.000002, engine: emulated}\n";

/* Pairs whose settings differ: each difference named with both values,
 * grouped once per setting; the same runs on one side refused. */
static void check_settings(const char *dir)
{
	static const struct made m[] = {
	    {"seq", 1000000, US}, {"ck[ckpt=1]", 1000000, US}, {"ck[ckpt=2]", 1000000, US}};
	struct sc_run_record a = {0}, b = {0};
	const struct sc_run_record *side[2] = {&a, &b};
	const char *names[2] = {"a.pb", "b.pb"};
	const struct sc_compare_phase *p;
	struct sc_compare c;
	char err[1024];

	if (make_run(dir, yaml_set_a, m, 3, &a) && make_run(dir, yaml_set_b, m, 3, &b) &&
	    CHECK_OK(sc_compare_runs(&a, &b, &c, err, sizeof(err)) == 0, err)) {
		p = find(&c, "seq");
		CHECK(p && p->nsettings == 3, "seq: %u settings differ, want engine, bs, iodepth",
		      p ? p->nsettings : 0);
		check_setting(p, "engine", "emulated", "psync");
		check_setting(p, "bs", "1MiB", "4KiB");
		check_setting(p, "iodepth", "1", "8");
		p = find(&c, "ck[ckpt=2]");
		CHECK(p && p->nsettings == 1, "ck[ckpt=2]: %u settings differ, want checkpoints",
		      p ? p->nsettings : 0);
		check_setting(p, "checkpoints", "2", "5");
		CHECK(c.nwarnings == 4, "%u warnings, want 4 (checkpoints once for 2 pairs)",
		      c.nwarnings);
		for (uint32_t i = 0; i < c.nwarnings; i++)
			if (strcmp(c.warnings[i].s->name, "checkpoints") == 0)
				CHECK(c.warnings[i].npairs == 2 &&
					  strcmp(c.warnings[i].first, "ck[ckpt=1]") == 0 &&
					  strcmp(c.warnings[i].last, "ck[ckpt=2]") == 0,
				      "checkpoints: %u pairs", c.warnings[i].npairs);
		sc_compare_exit(&c);
	}
	CHECK(sc_compare_check_side(side, names, 2, err, sizeof(err)) == -EINVAL,
	      "runs of different settings on one side accepted");
	CHECK(strstr(err, "setting engine of phase seq") && strstr(err, "emulated in a.pb") &&
		  strstr(err, "psync in b.pb"),
	      "message: %s", err);
	CHECK(sc_compare_check_side(side, names, 1, err, sizeof(err)) == 0, "one run refused");
	side[1] = &a;
	CHECK(sc_compare_check_side(side, names, 2, err, sizeof(err)) == 0, "same run refused: %s",
	      err);
	sc_run_record_exit(&a);
	sc_run_record_exit(&b);
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
	/* B {110, 112, 114}: 10 MB/s more, 10e6 -+ 2.776445 x sqrt(8/3) x 1e6 */
	check_runs(dir, (const double[3]){110, 112, 114}, 10e6 - 4.533870e6, 10e6 + 4.533870e6,
		   SC_CMP_BETTER);
	/* B {98, 104, 110}: +2 MB/s (+1.96%) within the noise: se^2 = (4 + 36) / 3,
	 * df = (40/3)^2 / ((4/3)^2 / 2 + 12^2 / 2) = 2.439024, t(0.975, df) =
	 * 3.639411 (the t density integrated by Simpson's rule in python3), so
	 * 2e6 -+ 3.639411 x sqrt(40/3) x 1e6 = 2e6 -+ 13.289251e6 */
	check_runs(dir, (const double[3]){98, 104, 110}, 2e6 - 13.289251e6, 2e6 + 13.289251e6,
		   SC_CMP_SAME);
	check_settings(dir);
	sc_run_record_exit(&a);
	sc_run_record_exit(&b);
	sc_run_record_exit(&other);
	check_rmtree(dir);
	return check_exit("test_compare");
}
