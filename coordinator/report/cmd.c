/* cmd.c -- `ssdcluster report RESULTS.pb`: every output of a run
 * again, from its protobuf record alone. */
#include "cmd.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "results_file.h"
#include "drives.h"
#include "fill_text.h"
#include "model/project.h"
#include "phase_rows.h"
#include "projection.h"
#include "report.h"
#include "steady_text.h"
#include "verdict_table.h"

/* The run's rows, as it printed them: a row per phase and its workload's
 * lines, then every steady-state group. */
static void print_rows(const struct sc_run_record *rec, const struct sc_run_figures *fg)
{
	printf("run %s: %u rank(s) on %u node(s), %u phase(s) (ssdcluster %s)\n",
	       rec->plan.run_id, rec->nranks, rec->nnodes, rec->nphases, rec->version);
	sc_rows_header(stdout);
	for (uint32_t i = 0; i < rec->nphases; i++) {
		sc_rows_phase(stdout, rec, fg, i);
		sc_rows_workload(stdout, rec, fg, i);
	}
	for (uint32_t k = 0; k < fg->nsteady; k++)
		sc_report_steady_text(stdout, rec, &fg->steady[k]);
}

int sc_report_command(const char *pb, const char *output, bool quiet)
{
	return sc_report_command_as(pb, output, quiet, false);
}

int sc_report_command_as(const char *pb, const char *output, bool quiet, bool fio_json)
{
	int failed = 0, status;
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_model_projection *proj;
	char err[1024], why[1024], dir[4096];
	int rc;

	rc = sc_results_read(pb, &rec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", pb, err);
		return rc == -ENOMEM ? 1 : 2;
	}
	if (err[0])
		fprintf(stderr, "ssdcluster: warning: %s: %s\n", pb, err);
	if (output) {
		snprintf(dir, sizeof(dir), "%s", output);
	} else {
		const char *slash = strrchr(pb, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - pb) : 1, slash ? pb : ".");
	}
	if (sc_run_figures_of(&fg, &rec)) {
		fprintf(stderr, "ssdcluster: %s: out of memory\n", pb);
		sc_run_record_exit(&rec);
		return 1;
	}
	proj = sc_model_of_run(&rec, &fg, why, sizeof(why));
	if (!proj && why[0])
		fprintf(stderr, "ssdcluster: model: no projection: %s\n", why);
	rc = sc_report_results_model(dir, &rec, &fg, proj, why, err, sizeof(err));
	if (!rc && fio_json)
		rc = sc_report_fio_json(dir, &rec, &fg, err, sizeof(err));
	if (rc)
		fprintf(stderr, "ssdcluster: writing results: %s\n", err);
	if (!rc && !quiet) {
		print_rows(&rec, &fg);
		if (proj) {
			putchar('\n');
			sc_report_model_table(stdout, proj);
		}
		sc_report_drives_inventory(stdout, &rec, &fg.inventory);
		sc_report_drives_endurance(stdout, &rec, &fg);
		sc_report_stages_table(stdout, &rec, &fg);
	}
	if (!rc)
		failed = sc_report_verdict(&fg, quiet);
	status = rc || failed < 0 ? 1 : failed ? 3 : 0;
	if (!rc && !quiet) {
		printf("results: %s/results.json\n", dir);
		if (fio_json)
			printf("fio-json: %s/fio.json\n", dir);
		sc_report_verdict_exit(stdout, &rec.plan, status);
	}
	free(proj);
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&rec);
	return status;
}
