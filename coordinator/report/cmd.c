/* cmd.c -- `ssdcluster report RESULTS.pb`: every output of a run
 * again, from its protobuf record alone. */
#include "cmd.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/results_file.h"
#include "analysis/steady_state.h"
#include "drives.h"
#include "model/project.h"
#include "phase_rows.h"
#include "projection.h"
#include "report.h"
#include "steady_text.h"

/* Every steady-state group of rec, as the run printed it. */
static void print_steady(const struct sc_run_record *rec)
{
	struct sc_steady_group *g;
	uint32_t n;

	if (sc_steady_groups(rec, &g, &n))
		return;
	for (uint32_t k = 0; k < n; k++)
		sc_report_steady_text(stdout, rec, &g[k]);
	sc_steady_groups_free(g, n);
}
#include "fill_text.h"
#include "verdict_table.h"

int sc_report_command(const char *pb, const char *output, bool quiet)
{
	int failed = 0, status;
	struct sc_run_record rec;
	struct sc_model_projection *proj;
	char err[1024], why[1024], dir[4096];
	int rc;

	rc = sc_results_read(pb, &rec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", pb, err);
		return rc == -ENOMEM ? 1 : 2;
	}
	if (output) {
		snprintf(dir, sizeof(dir), "%s", output);
	} else {
		const char *slash = strrchr(pb, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - pb) : 1, slash ? pb : ".");
	}
	proj = sc_model_of_run(&rec, why, sizeof(why));
	if (!proj && why[0])
		fprintf(stderr, "ssdcluster: model: no projection: %s\n", why);
	rc = sc_report_results_model(dir, &rec, proj, why, err, sizeof(err));
	if (rc)
		fprintf(stderr, "ssdcluster: writing results: %s\n", err);
	if (!rc && !quiet) {
		printf("run %s: %u rank(s) on %u node(s), %u phase(s) (ssdcluster %s)\n",
		       rec.plan.run_id, rec.nranks, rec.nnodes, rec.nphases, rec.version);
		sc_rows_header(stdout);
		for (uint32_t i = 0; i < rec.nphases; i++) {
			struct sc_phase_figures fig;

			if (sc_aggregate_phase(&rec.phases[i], &fig))
				continue;
			sc_rows_phase(stdout, &rec.plan.phases[rec.phases[i].phase], &rec.phases[i],
				      &fig);
			sc_rows_workload(stdout, &rec, &rec.phases[i], &fig);
			sc_phase_figures_exit(&fig);
		}
		print_steady(&rec);
		if (proj) {
			putchar('\n');
			sc_report_model_table(stdout, proj);
		}
		sc_report_drives_inventory(stdout, &rec);
		sc_report_drives_endurance(stdout, &rec);
		sc_report_stages_table(stdout, &rec);
	}
	if (!rc)
		failed = sc_report_verdict(&rec, quiet);
	status = rc || failed < 0 ? 1 : failed ? 3 : 0;
	if (!rc && !quiet) {
		printf("results: %s/results.json\n", dir);
		sc_report_verdict_exit(stdout, &rec.plan, status);
	}
	free(proj);
	sc_run_record_exit(&rec);
	return status;
}
