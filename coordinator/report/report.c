/* report.c -- sc_report_results: every results file of a run, formatted
 * from the run's figures (analysis/figures.h; the shared helpers are
 * files.c).
 *
 * results.pb is written by proto/results_file.c; results*.c build results.json (with the
 * builder of json.c), csv.c phases.csv, ranks.csv, timeseries.csv and
 * sweep.csv, plan_print.c plan.json and the printed plan.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_priv.h"
#include "results_file.h"

/* ---------------------------------------------------------- sc_report_results */

int sc_report_results(const char *dir, const struct sc_run_record *rec,
		      const struct sc_run_figures *fg, char *err, size_t errlen)
{
	return sc_report_results_model(dir, rec, fg, NULL, NULL, err, errlen);
}

int sc_report_results_model(const char *dir, const struct sc_run_record *rec,
			    const struct sc_run_figures *fg, const struct sc_model_projection *proj,
			    const char *why, char *err, size_t errlen)
{
	int rc;

	if (!dir || !dir[0])
		dir = ".";
	rc = sc_results_write(dir, rec, err, errlen);
	if (rc)
		return rc;
	return sc_report_formatted(dir, rec, fg, proj, why, err, errlen);
}

/* What formatted() writes of results.json. */
enum json_how {
	JSON_INDEX,     /* the index: its phases in results.json.part */
	JSON_FROM_PART, /* whole, from results.json.part, which holds rec; removed */
	JSON_FROM_REC,  /* whole, results.json.part written from rec first; removed */
};

/* The files formatted from the record: results.json (as how says),
 * sweep.csv, report.html and, with tables, the tables a phase adds rows
 * to (phases.csv, ranks.csv, timeseries.csv and results.json.part) written
 * whole (else the caller appends their rows a phase at a time). */
static int formatted(const char *dir, const struct sc_run_record *rec,
		     const struct sc_run_figures *fg, const struct sc_model_projection *proj,
		     const char *why, bool tables, enum json_how how,
		     struct sc_report_html_sections *sections, char *err, size_t errlen)
{
	struct report_results json = {0};
	struct report_csv csv = {0};
	char *text;
	size_t text_len;
	int rc;

	if (!dir || !dir[0])
		dir = ".";
	/* the tables whole need every phase's rows: a thinned phase has them in
	 * results.pb alone */
	for (uint32_t i = 0; (tables || how == JSON_FROM_REC) && i < rec->nphases; i++)
		if (rec->phases[i].nranks && !rec->phases[i].ranks) {
			sc_report_set_err(err, errlen,
					  "%s: the tables cannot be written whole again (phase %u's "
					  "rows were freed once written); `ssdcluster report "
					  "%s/results.pb` makes every file from results.pb",
					  dir, i + 1, dir);
			return -ENOTRECOVERABLE;
		}
	rc = sc_report_csv_init(&csv);
	if (rc)
		goto out_nomem;
	sc_report_results_init(&json, rec, fg);
	json.model = proj;
	json.model_error = why;
	json.index = how == JSON_INDEX;
	for (uint32_t i = 0; i < rec->nphases; i++) {
		sc_report_results_phase(&json, rec, fg, i);
		if (tables)
			sc_report_csv_phase(&csv, rec, fg, i);
	}
	sc_report_csv_sweeps(&csv, &fg->sweeps);
	json.sweeps = &fg->sweeps;
	rc = sc_report_csv_finish(&csv);
	if (rc)
		goto out_nomem;
	text = sc_report_results_text(&json, &text_len);
	if (!text) {
		rc = -ENOMEM;
		goto out_nomem;
	}
	if (tables || how == JSON_FROM_REC)
		rc = sc_report_json_part_write(dir, rec, fg, err, errlen);
	if (!rc && how == JSON_INDEX)
		rc = sc_report_write_named(dir, "results.json", text, text_len, err, errlen);
	else if (!rc)
		rc = sc_report_json_spliced(dir, text, text_len, rec->nphases, err, errlen);
	free(text);
	if (!rc && how != JSON_INDEX)
		sc_report_json_part_remove(dir);
	if (!rc)
		rc = sc_report_csv_write(&csv, dir,
					 tables ? REPORT_CSV_ALL : 1u << REPORT_CSV_SWEEP, err, errlen);
	if (!rc)
		rc = sc_report_html(dir, rec, fg, proj, why, sections, err, errlen);
	goto out_free;

out_nomem:
	sc_report_set_err(err, errlen, "%s: out of memory while building the results", dir);
out_free:
	sc_report_csv_exit(&csv);
	sc_report_results_exit(&json);
	return rc;
}

int sc_report_formatted(const char *dir, const struct sc_run_record *rec,
			const struct sc_run_figures *fg, const struct sc_model_projection *proj,
			const char *why, char *err, size_t errlen)
{
	return formatted(dir, rec, fg, proj, why, true, JSON_FROM_REC, NULL, err, errlen);
}

int sc_report_running(const char *dir, const struct sc_run_record *rec,
		      const struct sc_run_figures *fg, bool tables,
		      struct sc_report_html_sections *sections, char *err, size_t errlen)
{
	return formatted(dir, rec, fg, NULL, NULL, tables, JSON_INDEX, sections, err, errlen);
}

int sc_report_finished(const char *dir, const struct sc_run_record *rec,
		       const struct sc_run_figures *fg, const struct sc_model_projection *proj,
		       const char *why, bool tables, struct sc_report_html_sections *sections,
		       char *err, size_t errlen)
{
	return formatted(dir, rec, fg, proj, why, tables, JSON_FROM_PART, sections, err, errlen);
}

/* The tables a phase adds rows to, cut back to the lengths len (-1: not
 * there, or not a regular file: left alone) they had; a link is never
 * followed.  0, or -1 when one could not be. */
static int cut_back(const char *dir, const char *const *names, const off_t *len, uint32_t n)
{
	char path[4096];
	struct stat st;
	int rc = 0, fd;

	for (uint32_t k = 0; k < n; k++) {
		if (len[k] < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
		    (st.st_size != len[k] && ftruncate(fd, len[k])))
			rc = -1;
		if (fd >= 0)
			close(fd);
	}
	return rc;
}

int sc_report_rows_render(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			  uint32_t i, unsigned what, struct sc_report_rows *rows)
{
	int rc = 0;

	rows->phase = i;
	if ((what & SC_REPORT_ROWS_CSV) && !rows->text[0])
		rc = sc_report_csv_rows(rec, fg, i, rows->text, rows->len);
	if (!rc && (what & SC_REPORT_ROWS_JSON) && !rows->text[SC_REPORT_ROW_TABLES - 1]) {
		rows->text[SC_REPORT_ROW_TABLES - 1] =
		    sc_report_json_part_text(rec, fg, i, &rows->len[SC_REPORT_ROW_TABLES - 1]);
		rc = rows->text[SC_REPORT_ROW_TABLES - 1] ? 0 : -ENOMEM;
	}
	return rc;
}

struct sc_phase_text_job *sc_report_rows_json_begin(const struct sc_run_record *rec,
						    const struct sc_run_figures *fg, uint32_t i)
{
	return sc_report_json_part_begin(rec, fg, i);
}

void sc_report_rows_json_help(struct sc_phase_text_job *job)
{
	if (job)
		sc_report_results_phase_help(job);
}

int sc_report_rows_json_end(struct sc_phase_text_job *job, uint32_t i,
			    struct sc_report_rows *rows)
{
	char **text = &rows->text[SC_REPORT_ROW_TABLES - 1];

	rows->phase = i;
	free(*text);
	*text = sc_report_results_phase_end(job, &rows->len[SC_REPORT_ROW_TABLES - 1]);
	return *text ? 0 : -ENOMEM;
}

void sc_report_rows_exit(struct sc_report_rows *rows)
{
	for (uint32_t k = 0; k < SC_REPORT_ROW_TABLES; k++)
		free(rows->text[k]);
	memset(rows, 0, sizeof(*rows));
}

/* Whether rows holds phase i whole. */
static bool rows_whole(const struct sc_report_rows *rows, uint32_t i)
{
	for (uint32_t k = 0; rows && k < SC_REPORT_ROW_TABLES; k++)
		if (!rows->text[k])
			return false;
	return rows && rows->phase == i;
}

int sc_report_rows_append(const char *dir, const struct sc_run_record *rec,
			  const struct sc_run_figures *fg, uint32_t i,
			  const struct sc_report_rows *done, char *err, size_t errlen)
{
	const char *names[SC_REPORT_ROW_TABLES];
	off_t len[SC_REPORT_ROW_TABLES];
	uint32_t n = sc_report_csv_phase_tables(names);
	struct sc_report_rows own = {0};
	const struct sc_report_rows *rows = done;
	char path[4096];
	struct stat st;
	size_t at;
	int rc = 0;

	if (!dir || !dir[0])
		dir = ".";
	names[n++] = SC_REPORT_JSON_PART;
	if (!rows_whole(rows, i)) {
		rows = &own;
		rc = sc_report_rows_render(rec, fg, i, SC_REPORT_ROWS_CSV | SC_REPORT_ROWS_JSON,
					   &own);
	}
	if (rc) {
		sc_report_rows_exit(&own);
		sc_report_set_err(err, errlen, "%s: out of memory while building the results", dir);
		return rc;
	}
	for (uint32_t k = 0; k < n; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		len[k] = lstat(path, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
	}
	/* results.json.part begins with the first phase */
	for (uint32_t k = 0; k < n && !rc; k++)
		rc = i == 0 && k == n - 1
			 ? sc_report_write_named(dir, names[k], rows->text[k], rows->len[k], err,
						 errlen)
			 : sc_report_append_named(dir, names[k], rows->text[k], rows->len[k], err,
						  errlen);
	sc_report_rows_exit(&own);
	if (rc && cut_back(dir, names, len, n)) {
		at = strlen(err);
		snprintf(err + at, errlen - at, "; and a table could not be cut back to its "
						"phases before: all are written whole next");
		return -ENOTRECOVERABLE;
	}
	return rc;
}
