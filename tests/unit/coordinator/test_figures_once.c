/* test_figures_once.c -- the results write aggregates each phase once: a
 * run record rebuilt phase by phase through the record's own path
 * (sc_record_keep_phase: figures brought up to date, results.json, the
 * CSV files, report.html and the printed rows written) aggregates only
 * the phase just added, and `ssdcluster report` on a results file
 * aggregates each of its phases once.  Counted with
 * sc_aggregate_phase_calls.  The records are tests/data/report_golden/. */
#include "analysis/figures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_file.h"
#include "check.h"
#include "record.h"
#include "report/cmd.h"

/* The record of file name, NULL (failed) when it cannot be read. */
static struct sc_run_record *read_golden(const char *name, char *path, size_t len)
{
	const char *src = getenv("SC_SOURCE_DIR");
	struct sc_run_record *rec = xcalloc(1, sizeof(*rec));
	char err[1024];

	snprintf(path, len, "%s/tests/data/report_golden/%s", src ? src : ".", name);
	if (sc_results_read(path, rec, err, sizeof(err))) {
		FAIL("%s: %s", path, err);
		free(rec);
		return NULL;
	}
	return rec;
}

/* Rebuilds the record of name phase by phase as rank 0 keeps it: each
 * keep aggregates exactly the new phase. */
static void test_record(const char *name, const char *dir)
{
	char path[4096];
	struct sc_run_record *full = read_golden(name, path, sizeof(path));
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_record_pace pace = {0};
	uint32_t n;

	if (!full)
		return;
	n = full->nphases;
	memset(&rec, 0, sizeof(rec));
	rec.version = full->version;
	rec.nranks = full->nranks;
	rec.nnodes = full->nnodes;
	rec.started_unix_ns = full->started_unix_ns;
	rec.plan = full->plan;
	full->version = NULL;
	memset(&full->plan, 0, sizeof(full->plan));
	sc_run_figures_init(&fg);
	CHECK(n > 1, "%s: %u phase(s)", name, n);
	for (uint32_t i = 0; i < n; i++) {
		struct sc_phase_record ph = full->phases[i]; /* rec takes it over */
		uint64_t before = sc_aggregate_phase_calls();

		CHECK(sc_record_keep_phase(&rec, &fg, &pace, &ph, dir, false) == 0, "%s: keep phase %u",
		      name, i);
		CHECK(sc_aggregate_phase_calls() - before == 1,
		      "%s: results write after phase %u of %u aggregated %llu phase(s), want 1",
		      name, i + 1, n, (unsigned long long)(sc_aggregate_phase_calls() - before));
		CHECK(fg.nphases == i + 1, "%s: figures of %u phase(s) after %u", name, fg.nphases,
		      i + 1);
	}
	free(full->phases);
	full->phases = NULL;
	full->nphases = 0;
	sc_run_record_exit(full);
	free(full);
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&rec);
}

/* `ssdcluster report` on name: every output again, each phase aggregated
 * once. */
static void test_report_command(const char *name, const char *dir)
{
	char path[4096];
	struct sc_run_record *full = read_golden(name, path, sizeof(path));
	uint64_t before;
	int status;

	if (!full)
		return;
	before = sc_aggregate_phase_calls();
	status = sc_report_command(path, dir, true);
	CHECK(status == 0 || status == 3, "%s: report exit %d", name, status);
	CHECK(sc_aggregate_phase_calls() - before == full->nphases,
	      "%s: report aggregated %llu phase(s), want %u (one per phase)", name,
	      (unsigned long long)(sc_aggregate_phase_calls() - before), full->nphases);
	sc_run_record_exit(full);
	free(full);
}

int main(void)
{
	char dir[256];

	check_mkdtemp(dir, sizeof(dir), "figures_once");
	test_record("sweep.pb", dir);
	test_record("ai.pb", dir);
	test_report_command("sweep.pb", dir);
	test_report_command("fill.pb", dir);
	check_rmtree(dir);
	return check_exit("test_figures_once");
}
