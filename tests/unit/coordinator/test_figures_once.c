/* test_figures_once.c -- the results write aggregates each phase once: a
 * run record rebuilt phase by phase through the record's own path
 * (sc_record_keep_phase: figures brought up to date, results.json, the
 * CSV files, report.html and the printed rows written) aggregates only
 * the phase just added, and `ssdcluster report` on a results file
 * aggregates each of its phases once.  Counted with
 * sc_aggregate_phase_calls.  The figures that span phases, grown a phase
 * at a time, format the same files as figures built from the whole
 * record.  The records are tests/data/report_golden/. */
#include "analysis/figures.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results_file.h"
#include "check.h"
#include "record.h"
#include "report/cmd.h"
#include "report/report.h"

static const char *const formatted[] = {"results.json", "sweep.csv",	  "report.html",
					"phases.csv",	"ranks.csv",	  "timeseries.csv"};

/* File name in dir, whole (NUL-terminated; *len its bytes), or NULL. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf = NULL;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = xcalloc(1, (size_t)n + 1);
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* The files the run wrote in dir (its figures fg grown a phase at a time,
 * its phases thinned once written) are byte for byte those `ssdcluster
 * report` formats from the results.pb it wrote, with figures built from
 * the whole record at once (into dir/again). */
static void check_same_as_whole(const char *name, const struct sc_run_figures *fg,
				const char *dir)
{
	struct sc_run_record rec;
	struct sc_run_figures whole;
	char err[1024], path[4096], again[4096];
	int rc;

	snprintf(path, sizeof(path), "%s/results.pb", dir);
	snprintf(again, sizeof(again), "%s/again", dir);
	CHECK(mkdir(again, 0700) == 0 || errno == EEXIST, "%s: %s", again, strerror(errno));
	memset(&rec, 0, sizeof(rec));
	rc = sc_results_read(path, &rec, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", name, err);
	if (rc)
		return;
	sc_run_figures_init(&whole);
	CHECK(sc_run_figures_of(&whole, &rec) == 0, "%s: figures of the whole record", name);
	CHECK(sc_report_formatted(again, &rec, &whole, NULL, NULL, err, sizeof(err)) == 0,
	      "%s: %s", name, err);
	CHECK(whole.nckpt == fg->nckpt && whole.sweeps.n == fg->sweeps.n &&
		  whole.outliers.n == fg->outliers.n && whole.inventory.n == fg->inventory.n &&
		  whole.verdict.nchecks == fg->verdict.nchecks && whole.nsteady == fg->nsteady,
	      "%s: grown %u checkpoint groups, %u sweeps, %u outliers, %u drives, %u checks; "
	      "whole %u, %u, %u, %u, %u",
	      name, fg->nckpt, fg->sweeps.n, fg->outliers.n, fg->inventory.n, fg->verdict.nchecks,
	      whole.nckpt, whole.sweeps.n, whole.outliers.n, whole.inventory.n,
	      whole.verdict.nchecks);
	for (size_t k = 0; k < sizeof(formatted) / sizeof(formatted[0]); k++) {
		size_t len = 0, glen = 0;
		char *w = slurp(again, formatted[k], &len), *grown = slurp(dir, formatted[k], &glen);

		CHECK(grown && w, "%s: %s written", name, formatted[k]);
		if (grown && w)
			CHECK(len == glen && memcmp(w, grown, len) == 0,
			      "%s: %s as the run wrote it (%zu B) differs from report's from its "
			      "results.pb (%zu B)",
			      name, formatted[k], glen, len);
		free(w);
		free(grown);
	}
	sc_run_figures_exit(&whole);
	sc_run_record_exit(&rec);
}

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
	/* the run's rank 0 keeps the rows of its last phase alone */
	CHECK(pace.thinned == n - 1, "%s: %u of %u phases thinned, want all but the last", name,
	      pace.thinned, n);
	for (uint32_t i = 0; i + 1 < n; i++)
		CHECK(!rec.phases[i].ranks && rec.phases[i].nranks, "%s: phase %u thinned", name,
		      i);
	CHECK(sc_record_flush(&rec, &fg, &pace, dir) == 0, "%s: flush", name);
	check_same_as_whole(name, &fg, dir);
	free(full->phases);
	full->phases = NULL;
	full->nphases = 0;
	sc_run_record_exit(full);
	free(full);
	sc_run_figures_exit(&fg);
	sc_record_pace_exit(&pace);
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
	test_record("fill.pb", dir);
	test_report_command("sweep.pb", dir);
	test_report_command("fill.pb", dir);
	check_rmtree(dir);
	return check_exit("test_figures_once");
}
