/* test_steady_state.c -- the SNIA PTS steady-state detector on synthetic
 * series with answers worked out by hand, and a group's result per drive
 * and for the cluster from hand-made run records. */
#include "analysis/steady_state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "check.h"
#include "config/config.h"

#define S	  INT64_C(1000000000)
#define NSERIES	  25u
#define WINDOW	  5u
#define EXCURSION 0.25	/* +-25% */
#define DRIFT	  1.035 /* 3.5% a round */

/* sc_steady_group_of on rec's figures, built here. */
static int group_of(const struct sc_run_record *rec, uint32_t ci, struct sc_steady_group *g)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, rec);

	if (!rc)
		rc = sc_steady_group_of(rec, fg.phases, ci, g);
	sc_run_figures_exit(&fg);
	return rc;
}

/* sc_steady_groups on rec's figures, built here. */
static int groups_of(const struct sc_run_record *rec, struct sc_steady_group **g, uint32_t *n)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, rec);

	if (!rc)
		rc = sc_steady_groups(rec, fg.phases, g, n);
	sc_run_figures_exit(&fg);
	return rc;
}

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
}

/* A ramp that flattens.  Windows of 5 (x = -2..2 about the centre):
 *   ending at 7: 85 95 100 100 101, mean 96.2, range 16 (16.6%): within
 *     20%, but slope = (-170 - 95 + 100 + 202) / 10 = 3.7 a round, x 4 =
 *     14.8 = 15.4% of the mean: not steady on the slope alone;
 *   ending at 8: 95 100 100 101 100, mean 99.2, range 6 (6.05%), slope
 *     (-190 - 100 + 101 + 200) / 10 = 1.1, x 4 = 4.4 (4.44%): steady. */
static void test_ramp_flattens(void)
{
	static const double v[] = {50, 70, 85, 95, 100, 100, 101, 100, 99, 100};
	struct sc_steady_window w;

	CHECK(sc_steady_first(v, 10, WINDOW) == 8, "first steady round %u, want 8",
	      sc_steady_first(v, 10, WINDOW));
	CHECK(sc_steady_window(v, 7, WINDOW, &w) == 0, "window ending at 7");
	CHECK(!w.steady && w.range_pct <= SC_STEADY_RANGE_PCT, "round 7: range %.2f%%, steady %d",
	      w.range_pct, w.steady);
	CHECK(near(w.slope, 3.7), "round 7 slope %g, want 3.7", w.slope);
	CHECK(near(w.slope_pct, 14.8 / 96.2 * 100), "round 7 slope %% %g", w.slope_pct);
	CHECK(sc_steady_window(v, 8, WINDOW, &w) == 0 && w.steady, "round 8 steady");
	CHECK(w.first_round == 4 && w.last_round == 8, "rounds %u..%u, want 4..8", w.first_round,
	      w.last_round);
	CHECK(near(w.mean, 99.2) && near(w.range, 6) && near(w.min, 95) && near(w.max, 101),
	      "mean %g range %g min %g max %g", w.mean, w.range, w.min, w.max);
	CHECK(near(w.slope, 1.1) && near(w.range_pct, 6 / 99.2 * 100), "slope %g range %% %g",
	      w.slope, w.range_pct);
	/* too few rounds for a window */
	CHECK(sc_steady_window(v, 4, WINDOW, &w) < 0 && !w.steady, "4 rounds, window 5");
	CHECK(sc_steady_first(v, 7, WINDOW) == 0, "no steady window in the first 7 rounds");
}

/* +-25% about 100, alternating: range 50% of the mean in every window. */
static void test_excursions_never(void)
{
	double v[NSERIES];
	struct sc_steady_window w;

	for (uint32_t k = 0; k < NSERIES; k++)
		v[k] = 100 * (1 + (k % 2 ? EXCURSION : -EXCURSION));
	CHECK(sc_steady_first(v, NSERIES, WINDOW) == 0, "+-25%% excursions steady at round %u",
	      sc_steady_first(v, NSERIES, WINDOW));
	sc_steady_window(v, NSERIES, WINDOW, &w);
	CHECK(w.range_pct > SC_STEADY_RANGE_PCT, "range %.1f%%", w.range_pct);
	/* one excursion among flat rounds is enough */
	for (uint32_t k = 0; k < NSERIES; k++)
		v[k] = 100;
	v[12] = 125;
	CHECK(sc_steady_first(v, NSERIES, WINDOW) == WINDOW, "flat is steady at the window");
	sc_steady_window(v, 14, WINDOW, &w);
	CHECK(!w.steady, "a window holding the +25%% round");
}

/* 3.5% more each round: a window of 5 spans 1.035^4 - 1 = 14.8% of its
 * first value (about 14.3% of its mean: within 20%), but its slope x 4 is
 * about 14% of the mean: never steady, on the slope alone. */
static void test_slow_drift(void)
{
	double v[NSERIES];
	struct sc_steady_window w;

	for (uint32_t k = 0; k < NSERIES; k++)
		v[k] = 100 * pow(DRIFT, k);
	CHECK(sc_steady_first(v, NSERIES, WINDOW) == 0, "a steady drift is steady at round %u",
	      sc_steady_first(v, NSERIES, WINDOW));
	for (uint32_t end = WINDOW; end <= NSERIES; end++) {
		sc_steady_window(v, end, WINDOW, &w);
		CHECK(w.range_pct <= SC_STEADY_RANGE_PCT && w.slope_pct > SC_STEADY_SLOPE_PCT,
		      "window ending at %u: range %.2f%%, slope %.2f%%", end, w.range_pct,
		      w.slope_pct);
	}
	/* falling the same way fails too (a filling drive) */
	for (uint32_t k = 0; k < NSERIES; k++)
		v[k] = 100 / pow(DRIFT, k);
	CHECK(sc_steady_first(v, NSERIES, WINDOW) == 0, "a falling drift");
}

/* window == max_rounds: only the last round can be steady; no I/O never. */
static void test_window_is_max_rounds(void)
{
	static const double flat[] = {100, 102, 99, 101, 100};
	static const double idle[] = {0, 0, 0, 0, 0};
	struct sc_steady_window w;

	CHECK(sc_steady_first(flat, 5, 5) == 5, "window 5 of 5 rounds: %u",
	      sc_steady_first(flat, 5, 5));
	CHECK(sc_steady_first(flat, 4, 5) == 0, "4 rounds of 5");
	CHECK(sc_steady_window(flat, 5, 5, &w) == 0 && w.first_round == 1 && w.last_round == 5,
	      "the whole series");
	CHECK(sc_steady_first(idle, 5, 5) == 0, "no I/O is never steady");
	CHECK(sc_steady_window(flat, 5, 1, &w) < 0, "a window of 1");
}

/* A record of `rounds` rounds of config phase 0 (window 3, max_rounds 6,
 * bw) and nranks ranks; rank r's bytes in round k are bytes(r, k), each
 * rank running 0..1 s. */
static void make_record(struct sc_run_record *rec, uint32_t rounds, uint32_t nranks,
			double (*bytes)(uint32_t r, uint32_t k))
{
	const uint32_t max_rounds = 6;

	memset(rec, 0, sizeof(*rec));
	rec->nranks = nranks;
	rec->nnodes = 1;
	rec->plan.ntargets = 1;
	rec->plan.targets = xcalloc(1, sizeof(*rec->plan.targets));
	rec->plan.targets[0].path = strdup("/tmp/t0");
	rec->plan.nphases = max_rounds;
	rec->plan.phases = xcalloc(max_rounds, sizeof(*rec->plan.phases));
	for (uint32_t k = 0; k < max_rounds; k++) {
		struct sc_phase *ph = &rec->plan.phases[k];
		char name[32];

		snprintf(name, sizeof(name), "pre[round=%u]", k + 1);
		ph->name = strdup(name);
		ph->group = strdup("pre");
		ph->cell = k;
		ph->ncells = max_rounds;
		ph->steady = (struct sc_steady_spec){.max_rounds = max_rounds,
						     .round = k + 1,
						     .window = 3,
						     .metric = SC_STEADY_BW,
						     .round_ns = (uint64_t)S};
	}
	rec->nphases = rounds;
	rec->phases = xcalloc(rounds, sizeof(*rec->phases));
	for (uint32_t k = 0; k < rounds; k++) {
		struct sc_phase_record *pr = &rec->phases[k];

		pr->phase = k;
		pr->nranks = nranks;
		pr->ranks = xcalloc(nranks, sizeof(*pr->ranks));
		for (uint32_t r = 0; r < nranks; r++) {
			struct sc_rank_result *row = &pr->ranks[r];

			row->rank = r;
			snprintf(row->host, sizeof(row->host), "host%u", r);
			row->end_ns = S;
			row->bytes[SC_DIR_WRITE] = (uint64_t)bytes(r, k);
			row->ios[SC_DIR_WRITE] = row->bytes[SC_DIR_WRITE] / 4096;
		}
	}
}

/* Rank 0 flat at 100 MB/s; rank 1 +-25% about it. */
static double one_unsettled(uint32_t r, uint32_t k)
{
	return r == 0 ? 100e6 : 100e6 * (1 + (k % 2 ? EXCURSION : -EXCURSION));
}

/* Both flat but for rank 1's first round at half. */
static double both_settle(uint32_t r, uint32_t k)
{
	return r == 1 && k == 0 ? 50e6 : 100e6;
}

static void test_group_flags_drive(void)
{
	struct sc_run_record rec;
	struct sc_steady_group g;

	make_record(&rec, 6, 2, one_unsettled);
	CHECK(group_of(&rec, 0, &g) == 0, "group of config phase 0");
	CHECK(!g.steady && g.round == 0 && g.rounds == 6, "steady %d at %u after %u rounds",
	      g.steady, g.round, g.rounds);
	CHECK(g.ndrives == 2 && g.nunsteady == 1, "%u drives, %u not steady", g.ndrives,
	      g.nunsteady);
	CHECK(g.drives[0].steady && g.drives[0].first_round == 3, "drive 0: %d at %u",
	      g.drives[0].steady, g.drives[0].first_round);
	CHECK(!g.drives[1].steady && g.drives[1].first_round == 0, "drive 1 flagged");
	CHECK(strcmp(g.drives[1].host, "host1") == 0 && g.drives[1].rank == 1, "drive 1's host");
	CHECK(near(g.drives[0].win.mean, 100e6) && g.drives[0].win.last_round == 6,
	      "drive 0 window mean %g ending %u", g.drives[0].win.mean, g.drives[0].win.last_round);
	/* the cluster's bytes also swing +-12.5%: 25% of range */
	CHECK(!g.cluster.steady && near(g.cluster.values[0], 175e6), "cluster %g",
	      g.cluster.values[0]);
	sc_steady_group_exit(&g);
	CHECK(group_of(&rec, 1, &g) == -ENOENT, "config phase 1 has no rounds");
	sc_run_record_exit(&rec);
}

static void test_group_steady(void)
{
	struct sc_run_record rec;
	struct sc_steady_group *gs;
	uint32_t n;

	/* every drive steady over rounds 2..4: the run stopped after round 4 */
	make_record(&rec, 4, 2, both_settle);
	CHECK(groups_of(&rec, &gs, &n) == 0 && n == 1, "%u group(s)", n);
	if (n == 1) {
		CHECK(gs[0].steady && gs[0].round == 4 && gs[0].nunsteady == 0,
		      "steady %d at round %u", gs[0].steady, gs[0].round);
		CHECK(gs[0].drives[0].first_round == 3 && gs[0].drives[1].first_round == 4,
		      "first rounds %u, %u", gs[0].drives[0].first_round,
		      gs[0].drives[1].first_round);
		CHECK(gs[0].cluster.steady && gs[0].cluster.win.first_round == 2,
		      "cluster window from %u", gs[0].cluster.win.first_round);
		CHECK(strcmp(gs[0].name, "pre") == 0 && gs[0].max_rounds == 6, "name, max_rounds");
	}
	sc_steady_groups_free(gs, n);
	sc_run_record_exit(&rec);
	/* fewer rounds than the window: nothing judged */
	make_record(&rec, 2, 2, both_settle);
	CHECK(groups_of(&rec, &gs, &n) == 0 && n == 1 && !gs[0].steady &&
		  gs[0].cluster.win.last_round == 0,
	      "2 rounds of window 3");
	sc_steady_groups_free(gs, n);
	sc_run_record_exit(&rec);
}

/* Gives every round of rec's plan the thresholds e. */
static void give_expect(struct sc_run_record *rec, const struct sc_expect *e, uint32_t ne)
{
	for (uint32_t k = 0; k < rec->plan.nphases; k++) {
		struct sc_phase *ph = &rec->plan.phases[k];

		ph->expect = xcalloc(ne, sizeof(*e));
		memcpy(ph->expect, e, ne * sizeof(*e));
		ph->nexpect = ne;
	}
}

/* The figures of rec grown a round at a time, as the run keeps them: after
 * each round the verdict holds the checks of the group's last round run
 * alone, judged on the rounds so far; a round that timed out keeps its
 * "not measured" checks.  Truth from the definitions: with rank 0 flat and
 * rank 1 +-25%, drive 0 is steady from round 3 and drive 1 never; the
 * cluster's bandwidth is 175 or 225 MB/s, above 150. */
static void test_verdict_grown(void)
{
	const struct sc_expect e[] = {{SC_EXPECT_STEADY_STATE, 1}, {SC_EXPECT_MIN_BW, 150e6}};
	struct sc_run_record rec;
	struct sc_run_figures fg;
	uint32_t all;

	make_record(&rec, 6, 2, one_unsettled);
	give_expect(&rec, e, 2);
	all = rec.nphases;
	sc_run_figures_init(&fg);
	for (uint32_t k = 1; k <= all; k++) {
		const struct sc_verdict *v = &fg.verdict;

		rec.nphases = k;
		CHECK(sc_run_figures_update(&fg, &rec) == 0, "figures after round %u", k);
		CHECK(v->nchecks == 3, "round %u: %u checks, want 2 drives + the cluster", k,
		      v->nchecks);
		for (uint32_t i = 0; i < v->nchecks; i++)
			CHECK(v->checks[i].phase == k - 1, "round %u: a check of phase %u", k,
			      v->checks[i].phase);
		if (v->nchecks != 3)
			continue;
		CHECK(v->checks[0].metric == SC_EXPECT_STEADY_STATE &&
			  strcmp(v->checks[1].at.host, "host1") == 0,
		      "round %u: steady checks per drive first", k);
		/* drive 0 steady once 3 rounds (the window) are in */
		CHECK((v->checks[0].result == SC_CHECK_PASS) == (k >= 3),
		      "round %u: drive 0 %s", k, sc_check_result_name(v->checks[0].result));
		CHECK(v->checks[1].result == SC_CHECK_FAIL && v->checks[1].note,
		      "round %u: drive 1 fails, with why", k);
		CHECK(v->checks[2].metric == SC_EXPECT_MIN_BW &&
			  v->checks[2].result == SC_CHECK_PASS,
		      "round %u: the cluster's bandwidth passes", k);
		CHECK(v->nfailed == 1 + (k < 3) && v->nunmeasured == 0,
		      "round %u: %u failed, %u not measured", k, v->nfailed, v->nunmeasured);
	}
	CHECK(fg.nsteady == 1 && fg.steady[0].rounds == all && !fg.steady[0].steady &&
		  fg.steady[0].nunsteady == 1,
	      "the grown group: %u rounds, %u not steady", fg.nsteady ? fg.steady[0].rounds : 0,
	      fg.nsteady ? fg.steady[0].nunsteady : 0);
	sc_run_figures_exit(&fg);

	/* round 3 timed out: its checks stay, not measured, beside round 6's */
	rec.phases[2].status = SC_PHASE_TIMED_OUT;
	sc_run_figures_init(&fg);
	for (uint32_t k = 1; k <= all; k++) {
		rec.nphases = k;
		CHECK(sc_run_figures_update(&fg, &rec) == 0, "figures after round %u", k);
	}
	CHECK(fg.verdict.nchecks == 5 && fg.verdict.nunmeasured == 2 && fg.verdict.nfailed == 1,
	      "timed-out round 3 and round 6: %u checks, %u not measured, %u failed",
	      fg.verdict.nchecks, fg.verdict.nunmeasured, fg.verdict.nfailed);
	if (fg.verdict.nchecks == 5)
		CHECK(fg.verdict.checks[0].phase == 2 && fg.verdict.checks[1].phase == 2 &&
			  fg.verdict.checks[2].phase == 5,
		      "by phase: round 3's, then round 6's");
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&rec);
}

/* A config with steady_state expands into max_rounds rounds of runtime
 * round, named "<name>[round=k]"; a default runtime and a bare --set
 * runtime pass such a phase by; a default steady_state passes by a phase
 * with runtime. */
static void test_config_rounds(void)
{
	static const char *const sets[] = {"runtime=3s"};
	char dir[256], path[300], yaml[1024], err[1024] = "";
	struct sc_config *cfg = NULL;
	const struct sc_plan *plan;
	FILE *f;

	check_mkdtemp(dir, sizeof(dir), "steady");
	snprintf(path, sizeof(path), "%s/c.yaml", dir);
	snprintf(yaml, sizeof(yaml),
		 "targets: [{path: %s}]\n"
		 "defaults: {runtime: 10s}\n"
		 "phases:\n"
		 "  - {name: pre, rw: randwrite, steady_state: {metric: lat, round: 2s, "
		 "window: 4, max_rounds: 4}}\n"
		 "  - {name: after, rw: read}\n",
		 dir);
	f = fopen(path, "w");
	CHECK(f && fputs(yaml, f) >= 0 && fclose(f) == 0, "writing %s", path);
	CHECK(sc_config_load(&cfg, path, sets, 1, err, sizeof(err)) == 0, "load: %s", err);
	plan = cfg ? sc_config_plan(cfg) : NULL;
	CHECK(plan && plan->nphases == 5, "%u plan phases, want 4 rounds + 1",
	      plan ? plan->nphases : 0);
	for (uint32_t k = 0; plan && k < 4 && k < plan->nphases; k++) {
		const struct sc_phase *ph = &plan->phases[k];
		char want[32];

		snprintf(want, sizeof(want), "pre[round=%u]", k + 1);
		CHECK(strcmp(ph->name, want) == 0 && strcmp(ph->group, "pre") == 0, "%s", ph->name);
		CHECK(ph->steady.round == k + 1 && ph->steady.max_rounds == 4 &&
			  ph->steady.window == 4 && ph->steady.metric == SC_STEADY_LAT,
		      "%s: round %u of %u", ph->name, ph->steady.round, ph->steady.max_rounds);
		CHECK(ph->io.runtime_ns == 2 * (uint64_t)S && ph->io.io_bytes == 0,
		      "%s: runtime %llu ns", ph->name, (unsigned long long)ph->io.runtime_ns);
	}
	if (plan && plan->nphases == 5)
		CHECK(plan->phases[4].io.runtime_ns == 3 * (uint64_t)S &&
			  !plan->phases[4].steady.max_rounds,
		      "the other phase keeps --set runtime");
	sc_config_destroy(cfg);
	check_rmtree(dir);
}

int main(void)
{
	test_ramp_flattens();
	test_excursions_never();
	test_slow_drift();
	test_window_is_max_rounds();
	test_group_flags_drive();
	test_group_steady();
	test_verdict_grown();
	test_config_rounds();
	return check_exit("test_steady_state");
}
