/* record.c -- rank 0's run record: begun with the plan, each finished
 * phase added, the results rewritten and its row printed. */
#include "record.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "model/project.h"
#include "report/drives.h"
#include "report/phase_rows.h"
#include "report/projection.h"
#include "report/report.h"
#include "results_file.h"
#include "run.h"
#include "units.h"

/* The wall clock, for the record's start: the one place the run reads it. */
static int64_t unix_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * (int64_t)SC_NS_PER_S + ts.tv_nsec;
}

void sc_record_begin(struct sc_run_record *rec, const struct sc_cluster *c,
		     struct sc_plan *plan)
{
	memset(rec, 0, sizeof(*rec));
	rec->version = strdup(SC_VERSION);
	rec->started_unix_ns = unix_now_ns();
	rec->nranks = (uint32_t)c->nranks;
	rec->nnodes = c->nnodes;
	rec->plan = *plan;
	memset(plan, 0, sizeof(*plan));
}

void sc_record_pace_exit(struct sc_record_pace *pace)
{
	sc_report_html_sections_exit(&pace->html);
}

/* The files formatted from the record (report/report.h): while running,
 * results.json as the index; final, results.json whole, with the model's
 * projection when given (proj, or why: sc_report_results_model).  The
 * tables a phase adds rows to are written whole too when they lack one
 * (the first phase, or a writing failed).  The next writing while running
 * is not before SC_RECORD_PACE_RATIO times what this one took has
 * passed. */
static int write_formatted(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			   struct sc_record_pace *pace, const char *outdir,
			   const struct sc_model_projection *proj, const char *why, bool final)
{
	/* once results.json is whole, results.json.part is gone */
	bool tables = pace->rows_phases != rec->nphases || pace->whole;
	uint64_t begin = sc_now_ns(), end;
	char err[1024];
	int rc = final ? sc_report_finished(outdir, rec, fg, proj, why, tables, &pace->html, err,
					    sizeof(err))
		       : sc_report_running(outdir, rec, fg, tables, &pace->html, err, sizeof(err));

	end = sc_now_ns();
	pace->due_ns = end + SC_RECORD_PACE_RATIO * (end - begin);
	pace->behind = rc != 0;
	if (tables)
		pace->rows_phases = rc ? 0 : rec->nphases;
	pace->whole = final && !rc;
	if (rc)
		fprintf(stderr, "ssdcluster: writing results: %s\n", err);
	return rc;
}

/* The tables a phase adds rows to (phases.csv, ranks.csv, timeseries.csv,
 * results.json.part) brought up to rec: the phases they lack appended,
 * one at a time (a failed one is cut back from every table, so the next
 * writing starts there; a phase's rows rendered already taken from rows,
 * or NULL), or, when they hold none, every formatted file written. */
static int write_rows(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      struct sc_record_pace *pace, const char *outdir,
		      const struct sc_report_rows *rows)
{
	char err[1024];
	int rc;

	if (pace->rows_phases == rec->nphases && !pace->whole)
		return 0;
	if (!pace->rows_phases || pace->whole)
		return write_formatted(rec, fg, pace, outdir, NULL, NULL, false);
	for (; pace->rows_phases < rec->nphases; pace->rows_phases++) {
		rc = sc_report_rows_append(outdir, rec, fg, pace->rows_phases, rows, err,
					   sizeof(err));
		if (rc == -ENOTRECOVERABLE) {
			/* a table could not be cut back: written whole next */
			fprintf(stderr, "ssdcluster: writing results: %s\n", err);
			pace->rows_phases = 0;
			return rc;
		}
		if (rc) {
			fprintf(stderr, "ssdcluster: writing results: %s\n", err);
			return rc;
		}
	}
	return 0;
}

/* The newest phase's bytes for results.pb and rows for the tables,
 * rendered at once on two threads (render_ahead). */
struct rendered {
	const struct sc_run_record *rec;
	const struct sc_run_figures *fg;
	uint32_t i;
	uint8_t *pb; /* heap: sc_run_record_pack_phase's, or NULL */
	size_t pb_len;
	struct sc_report_rows rows, csv; /* csv: the half rendered beside */
	struct sc_phase_text_job *json;	 /* results.json.part's half, or NULL */
	int beside_rc;
};

/* What the second thread renders: results.pb's record and the CSV rows,
 * then what is left of results.json.part's rows. */
static void *render_beside(void *arg)
{
	struct rendered *r = arg;

	if (sc_run_record_pack_phase(r->rec, r->i, &r->pb, &r->pb_len))
		r->pb = NULL;
	r->beside_rc = sc_report_rows_render(r->rec, r->fg, r->i, SC_REPORT_ROWS_CSV, &r->csv);
	sc_report_rows_json_help(r->json);
	return NULL;
}

/* Renders rec's newest phase for results.pb and the tables when they lack
 * that phase alone: its results.pb record and CSV rows on a second
 * thread, its results.json.part object's rows on both (what the second
 * leaves).  Between phases every rank waits for rank 0, whose cores are
 * otherwise idle.  What is not rendered (no second thread, out of memory)
 * is rendered when written. */
static void render_ahead(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 const struct sc_record_pace *pace, struct rendered *r)
{
	pthread_t beside;
	bool two;

	*r = (struct rendered){.rec = rec, .fg = fg, .i = rec->nphases - 1};
	if (rec->nphases < 2 || pace->pb_phases != r->i || pace->rows_phases != r->i ||
	    pace->whole)
		return;
	r->json = sc_report_rows_json_begin(rec, fg, r->i);
	two = pthread_create(&beside, NULL, render_beside, r) == 0;
	sc_report_rows_json_help(r->json);
	if (two)
		pthread_join(beside, NULL);
	if (r->json && sc_report_rows_json_end(r->json, r->i, &r->rows))
		sc_report_rows_exit(&r->rows);
	r->json = NULL;
	if (!two)
		return;
	/* the CSV half joins the JSON half */
	for (uint32_t k = 0; !r->beside_rc && k < SC_REPORT_ROW_TABLES; k++)
		if (r->csv.text[k]) {
			r->rows.text[k] = r->csv.text[k];
			r->rows.len[k] = r->csv.len[k];
			r->csv.text[k] = NULL;
		}
	sc_report_rows_exit(&r->csv);
}

static void rendered_exit(struct rendered *r)
{
	free(r->pb);
	sc_report_rows_exit(&r->rows);
	sc_report_rows_exit(&r->csv);
}

/* results.pb brought up to rec: the phases it lacks appended, one at a
 * time (a failed one is cut back, so the next writing starts there; a
 * phase packed already taken from r, or NULL), or rec written whole when
 * it holds none. */
static int write_pb(const struct sc_run_record *rec, struct sc_record_pace *pace,
		    const char *outdir, const struct rendered *r)
{
	const char *dir = outdir && outdir[0] ? outdir : ".";
	char err[1024];
	int rc = 0;

	if (!pace->pb_phases && rec->nphases) {
		rc = sc_results_write(dir, rec, err, sizeof(err));
		if (!rc)
			pace->pb_phases = rec->nphases;
	}
	while (!rc && pace->pb_phases < rec->nphases) {
		if (r && r->pb && r->i == pace->pb_phases)
			rc = sc_results_append_packed(dir, r->pb, r->pb_len, err, sizeof(err));
		else
			rc = sc_results_append(dir, rec, pace->pb_phases, err, sizeof(err));
		pace->pb_phases += !rc;
	}
	if (rc)
		fprintf(stderr, "ssdcluster: writing results: %s\n", err);
	return rc;
}

/* Thins (sc_phase_record_thin, sc_run_figures_thin) every phase of rec
 * but the last that results.pb and the tables hold, its report.html
 * section rendered and kept first: rank 0 keeps a phase's rows no longer
 * than it takes to write them. */
static void thin_written(struct sc_run_record *rec, struct sc_run_figures *fg,
			 struct sc_record_pace *pace)
{
	uint32_t upto = rec->nphases - 1;

	upto = pace->pb_phases < upto ? pace->pb_phases : upto;
	upto = pace->rows_phases < upto ? pace->rows_phases : upto;
	for (; pace->thinned < upto; pace->thinned++) {
		bool detailed = pace->thinned + SC_HTML_PHASES_DETAILED >= rec->nphases;

		if ((detailed &&
		     sc_report_html_section_keep(rec, fg, pace->thinned, &pace->html)) ||
		    sc_run_figures_thin(fg, pace->thinned))
			return; /* out of memory: kept whole, tried again after the next phase */
		sc_phase_record_thin(&rec->phases[pace->thinned]);
	}
}

/* After the plan's last phase, one that did not end ok, or when pace says. */
static bool formatted_due(const struct sc_run_record *rec, const struct sc_record_pace *pace)
{
	const struct sc_phase_record *last = &rec->phases[rec->nphases - 1];

	return last->phase + 1 >= rec->plan.nphases || last->status != SC_PHASE_OK ||
	       sc_now_ns() >= pace->due_ns;
}

int sc_record_flush(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		    struct sc_record_pace *pace, const char *outdir)
{
	int rc;

	if (!rec->nphases)
		return 0;
	rc = write_pb(rec, pace, outdir, NULL);
	if (!rc && !pace->whole)
		rc = write_rows(rec, fg, pace, outdir, NULL);
	if (!rc && !pace->whole)
		rc = write_formatted(rec, fg, pace, outdir, NULL, NULL, true);
	return rc;
}

int sc_record_keep_phase(struct sc_run_record *rec, struct sc_run_figures *fg,
			 struct sc_record_pace *pace, struct sc_phase_record *ph,
			 const char *outdir, bool quiet)
{
	struct sc_phase_record *grown;
	struct rendered r;
	int rc;

	grown = realloc(rec->phases, (rec->nphases + 1) * sizeof(*grown));
	if (!grown) {
		sc_phase_record_exit(ph);
		return -ENOMEM;
	}
	rec->phases = grown;
	rec->phases[rec->nphases++] = *ph;
	rec->rank0_peak_rss_bytes = sc_peak_rss_bytes();
	rc = sc_run_figures_update(fg, rec);
	if (rc) {
		fprintf(stderr, "ssdcluster: writing results: out of memory\n");
		return rc;
	}
	render_ahead(rec, fg, pace, &r);
	rc = write_pb(rec, pace, outdir, &r);
	pace->behind = true;
	if (!rc)
		rc = write_rows(rec, fg, pace, outdir, &r.rows);
	rendered_exit(&r);
	pace->whole = false;
	if (!rc && pace->behind && formatted_due(rec, pace))
		rc = write_formatted(rec, fg, pace, outdir, NULL, NULL, false);
	if (!quiet) {
		uint32_t i = rec->nphases - 1;

		sc_rows_phase(stdout, rec, fg, i);
		sc_rows_workload(stdout, rec, fg, i);
	}
	if (!quiet && rec->nphases == 1)
		sc_report_drives_inventory(stdout, rec, &fg->inventory);
	thin_written(rec, fg, pace);
	return rc;
}

void sc_record_drives(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      bool quiet)
{
	if (!quiet && rec->nphases)
		sc_report_drives_endurance(stdout, rec, fg);
}

int sc_record_model(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		    struct sc_record_pace *pace, const char *outdir, bool quiet)
{
	struct sc_model_projection *proj;
	char why[1024];
	int rc;

	if (!rec->plan.nmodel)
		return 0;
	proj = sc_model_of_run(rec, fg, why, sizeof(why));
	if (!proj && why[0])
		fprintf(stderr, "ssdcluster: model: no projection: %s\n", why);
	rc = write_pb(rec, pace, outdir, NULL);
	if (!rc)
		rc = write_rows(rec, fg, pace, outdir, NULL);
	if (!rc)
		rc = write_formatted(rec, fg, pace, outdir, proj, why, true);
	if (proj && !quiet) {
		putchar('\n');
		sc_report_model_table(stdout, proj);
	}
	free(proj);
	return rc;
}
