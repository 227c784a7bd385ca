/* series_check.c -- checks a run's results.pb against issue 13's promise:
 * the per-second series reduced in the cluster (the cluster's and each
 * node's) are exactly the sums of the ranks' own series, and every figure
 * drawn from them equals the figure drawn from the ranks' series summed at
 * rank 0, as before the change.
 *
 *   series_check RESULTS.pb
 *
 * A phase is checked when its record holds the cluster's series and its
 * ranks their own seconds (at the sizes where rank 0 keeps both).  Prints
 * every difference.  Exit 0: every phase checked agrees and at least one
 * was checked; 1: something differs, or no phase could be checked; 2: the
 * file cannot be read.  A test-only program (tests/cluster).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "results_file.h"
#include "figures_cmp.h"

/* The reduced series of rec against the sums of its ranks' seconds, and
 * the node series kept as the cap says.  Returns the differences. */
static unsigned check_sums(const struct sc_run_record *run, const struct sc_phase_record *rec,
			   const char *what)
{
	struct cmp c = {.out = stdout, .what = what};
	struct sc_second *want;
	uint32_t n;
	bool kept = sc_series_kept(run->nnodes, rec->cluster->nseconds, SC_NODE_SERIES_MAX);

	if (cmp_sum_ranks(rec, UINT32_MAX, &want, &n))
		return ++c.diffs;
	cmp_seconds(&c, "cluster", rec->cluster->seconds, rec->cluster->nseconds, want, n);
	free(want);
	if (rec->nnode_series != (kept ? run->nnodes : 0)) {
		c.diffs++;
		printf("%s: %u node series for %u nodes of %u s (the cap keeps %s)\n", what,
		       rec->nnode_series, run->nnodes, rec->cluster->nseconds,
		       kept ? "every one" : "none");
	}
	for (uint32_t node = 0; node < rec->nnode_series; node++) {
		char name[32];

		if (cmp_sum_ranks(rec, node, &want, &n))
			return ++c.diffs;
		snprintf(name, sizeof(name), "node_series[%u]", node);
		cmp_seconds(&c, name, rec->node_series[node].seconds,
			    rec->node_series[node].nseconds, want, n);
		free(want);
	}
	return c.diffs;
}

/* The figures of rec as it is against those of rec without its reduced
 * series (the ranks' seconds summed).  Returns the differences. */
static unsigned check_figures(const struct sc_phase_record *rec, const char *what)
{
	struct sc_phase_record old = *rec;
	struct sc_phase_figures fa, fb;
	struct sc_node_series na, nb;
	unsigned diffs = 0;

	old.cluster = NULL;
	old.nnode_series = 0;
	old.node_series = NULL;
	if (sc_aggregate_phase(rec, &fa) || sc_node_series_init(&na, rec)) {
		printf("%s: out of memory\n", what);
		return 1;
	}
	if (sc_aggregate_phase(&old, &fb) || sc_node_series_init(&nb, &old)) {
		printf("%s: out of memory\n", what);
		return 1;
	}
	diffs += cmp_figures(stdout, what, &fa, &fb);
	diffs += cmp_node_series(stdout, what, &na, &nb);
	sc_phase_figures_exit(&fa);
	sc_phase_figures_exit(&fb);
	sc_node_series_exit(&na);
	sc_node_series_exit(&nb);
	return diffs;
}

int main(int argc, char **argv)
{
	struct sc_run_record run;
	unsigned checked = 0, differ = 0, unreduced = 0, unkept = 0;
	char err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: series_check RESULTS.pb\n");
		return 2;
	}
	if (sc_results_read(argv[1], &run, err, sizeof(err))) {
		fprintf(stderr, "series_check: %s: %s\n", argv[1], err);
		return 2;
	}
	for (uint32_t i = 0; i < run.nphases; i++) {
		const struct sc_phase_record *rec = &run.phases[i];
		bool has_seconds = false;
		char what[160];
		unsigned diffs;

		snprintf(what, sizeof(what), "phase %u %s", rec->phase,
			 rec->phase < run.plan.nphases ? run.plan.phases[rec->phase].name : "?");
		for (uint32_t r = 0; r < rec->nranks; r++)
			has_seconds |= rec->ranks[r].seconds && rec->ranks[r].nseconds;
		if (!rec->cluster) {
			printf("%s: no reduced series\n", what);
			unreduced++;
			continue;
		}
		if (!has_seconds) {
			printf("%s: the ranks' own series were not kept: nothing to compare with\n",
			       what);
			unkept++;
			continue;
		}
		diffs = check_sums(&run, rec, what) + check_figures(rec, what);
		checked++;
		differ += diffs != 0;
		printf("%s: %s (cluster %u s, %u node series, %u ranks)\n", what,
		       diffs ? "DIFFERS" : "same figures", rec->cluster->nseconds,
		       rec->nnode_series, rec->nranks);
	}
	printf("series_check: %u of %u phases checked, %u differ, %u without reduced series, "
	       "%u without rank series\n",
	       checked, run.nphases, differ, unreduced, unkept);
	sc_run_record_exit(&run);
	if (!checked)
		printf("series_check: no phase checked\n");
	return differ || !checked ? 1 : 0;
}
