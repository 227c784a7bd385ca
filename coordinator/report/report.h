/* report.h -- the files of a run: results.json, results.pb, the CSV tables
 * and plan.json, written atomically. */
#ifndef SC_REPORT_H
#define SC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "layout.h"
#include "result.h"
#include "analysis/figures.h"
#include "analysis/plan_figures.h"

/* results.json and results.pb (proto/results_file.h) for every finished
 * phase of rec, in dir,
 * from fg (rec's figures, analysis/figures.h, brought up to rec by the
 * caller): every figure is formatted, none computed.  0 or -errno, with a
 * message in err. */
int sc_report_results(const char *dir, const struct sc_run_record *rec,
		      const struct sc_run_figures *fg, char *err, size_t errlen);

struct sc_model_projection;

/* sc_report_results with the cluster model of the run in results.json
 * ("model"): proj as `ssdcluster model --json` gives it, or, when proj is
 * NULL and why is not empty, {"error": why}; neither, no "model".  Writes
 * report.html as well (sc_report_html, with the same proj and why). */
int sc_report_results_model(const char *dir, const struct sc_run_record *rec,
			    const struct sc_run_figures *fg, const struct sc_model_projection *proj,
			    const char *why, char *err, size_t errlen);

/* sc_report_results_model less results.pb: the files formatted from the
 * record, results.json, the CSV tables and report.html (which `ssdcluster
 * report` makes again from results.pb alone), each written whole. */
int sc_report_formatted(const char *dir, const struct sc_run_record *rec,
			const struct sc_run_figures *fg, const struct sc_model_projection *proj,
			const char *why, char *err, size_t errlen);

/* report.html's sections of each phase (its facts and charts): the last
 * this many phases; every phase keeps its rows in the phase table, so that
 * the page's size and its writing stay bounded however many phases a run
 * has (a checkpoint run has one per checkpoint and per restore). */
#define SC_HTML_PHASES_DETAILED 32u

/* The sections of report.html's last phases as rendered: a phase's
 * section shows that phase alone and never changes, so during a run each
 * is rendered once and kept here for the writes after (a slot per phase
 * index modulo SC_HTML_PHASES_DETAILED).  Zero it before the first write;
 * free it with sc_report_html_sections_exit. */
struct sc_report_html_sections {
	uint32_t phase[SC_HTML_PHASES_DETAILED]; /* the record's phase index + 1
						    * of each slot's text; 0: none */
	char *text[SC_HTML_PHASES_DETAILED];     /* heap */
	size_t len[SC_HTML_PHASES_DETAILED];
};

void sc_report_html_sections_exit(struct sc_report_html_sections *s);

/* During a run, so that a phase costs that phase alone: the tables a
 * phase adds rows to, phases.csv, ranks.csv, timeseries.csv and
 * results.json.part (every phase's object as results.json will hold it),
 * grow by a phase's rows as it ends (sc_report_rows_append); results.json
 * is an index of the run so far (the whole document but its phases:
 * "phases" null, "phases_file": "results.json.part", "phases_omitted")
 * and is made whole at the end (sc_report_finished). */

/* The files that hold figures across the phases: results.json (the
 * index), sweep.csv and report.html (its phases' sections kept in
 * sections, or NULL), and with tables the tables a phase adds rows to,
 * written whole.  0 or -errno, with a message in err. */
int sc_report_running(const char *dir, const struct sc_run_record *rec,
		      const struct sc_run_figures *fg, bool tables,
		      struct sc_report_html_sections *sections, char *err, size_t errlen);

/* At a run's end: sc_report_running's files, with results.json whole: the
 * index's text with results.json.part in the place of its phases (none
 * rendered again), and the model's projection as sc_report_results_model
 * takes it.  results.json.part must hold every phase of rec (tables writes
 * it whole first); it is removed once results.json is written. */
int sc_report_finished(const char *dir, const struct sc_run_record *rec,
		       const struct sc_run_figures *fg, const struct sc_model_projection *proj,
		       const char *why, bool tables, struct sc_report_html_sections *sections,
		       char *err, size_t errlen);

/* The tables a phase adds rows to: phases.csv, ranks.csv, timeseries.csv
 * and results.json.part. */
#define SC_REPORT_ROW_TABLES 4

/* Halves of a phase's rows (sc_report_rows_render). */
enum {
	SC_REPORT_ROWS_CSV = 1u << 0,  /* phases.csv, ranks.csv, timeseries.csv */
	SC_REPORT_ROWS_JSON = 1u << 1, /* results.json.part's object */
};

/* A phase's rows for the tables it adds rows to, rendered: the text each
 * table grows by (NULL: not rendered), in the order above. */
struct sc_report_rows {
	uint32_t phase;
	char *text[SC_REPORT_ROW_TABLES];
	size_t len[SC_REPORT_ROW_TABLES];
};

/* Renders the halves what (SC_REPORT_ROWS_*) of rec's phase i's rows into
 * rows (zeroed, or holding phase i's other half).  Reads rec and fg,
 * writes rows alone and touches no file: the two halves of a phase may be
 * rendered on two threads at once.  0 or -ENOMEM. */
int sc_report_rows_render(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			  uint32_t i, unsigned what, struct sc_report_rows *rows);

/* The results.json.part half of rec's phase i rendered by more than one
 * thread at once: _begin (NULL when out of memory), then _help on any
 * number of threads at once (each renders chunks of the phase's node and
 * target rows until none is left; job may be NULL), then, once no _help
 * runs, _end puts the text in rows as sc_report_rows_render would and
 * frees the job: 0 or -ENOMEM. */
struct sc_phase_text_job;
struct sc_phase_text_job *sc_report_rows_json_begin(const struct sc_run_record *rec,
						    const struct sc_run_figures *fg, uint32_t i);
void sc_report_rows_json_help(struct sc_phase_text_job *job);
int sc_report_rows_json_end(struct sc_phase_text_job *job, uint32_t i,
			    struct sc_report_rows *rows);

void sc_report_rows_exit(struct sc_report_rows *rows);

/* Appends the rows of rec's phase i to dir's tables, which hold its phases
 * before i (sc_report_running with tables, then sc_report_rows_append of
 * each): that phase's rows alone, as rendered in done when it holds phase
 * i whole (else rendered here; done may be NULL).  0 or -errno, with a
 * message in err; after an error every table is cut back to the phases it
 * held before, or, when one could not be, -ENOTRECOVERABLE (write them
 * whole again). */
int sc_report_rows_append(const char *dir, const struct sc_run_record *rec,
			  const struct sc_run_figures *fg, uint32_t i,
			  const struct sc_report_rows *done, char *err, size_t errlen);

/* report.html in dir: one self-contained page (inline SVG, no script,
 * nothing fetched) of every finished phase of rec, with the model's tables
 * when proj is given (else why, when not empty); the phases' sections
 * taken from sections where it holds them, and kept there (NULL: every
 * one rendered).  Written atomically, as results.json is, by
 * sc_report_formatted and by `ssdcluster report`.  0 or -errno, with a
 * message in err. */
/* Renders rec's phase i's report.html section into s, unless s holds it
 * already, for the writes of report.html after: once kept, the phase's
 * rank rows may be freed.  0 or -ENOMEM. */
int sc_report_html_section_keep(const struct sc_run_record *rec, const struct sc_run_figures *fg,
				uint32_t i, struct sc_report_html_sections *s);

int sc_report_html(const char *dir, const struct sc_run_record *rec,
		   const struct sc_run_figures *fg, const struct sc_model_projection *proj,
		   const char *why, struct sc_report_html_sections *sections, char *err,
		   size_t errlen);

/* Writes plan.json in dir and prints a readable plan on stdout: what
 * --dry-run shows, per rank its host, node, target, files and planned
 * bytes (ranks as struct sc_dry_rank of analysis/plan_figures.h).  0 or
 * -errno, with a message in err. */
int sc_report_plan(const char *dir, const struct sc_plan *plan, const struct sc_dry_rank *ranks,
		   uint32_t nranks, char *err, size_t errlen);

/* fio.json in dir (--output-format fio-json): rec's finished phases in
 * the shape of fio's json+ output, one group-reported job per phase (the
 * cluster merge, groupid its index), figures from analysis/fio_figures.h.
 * Written atomically.  0 or -errno, with a message in err. */
int sc_report_fio_json(const char *dir, const struct sc_run_record *rec,
		       const struct sc_run_figures *fg, char *err, size_t errlen);
/* The same document as text ending in a newline, malloc'd, its length in
 * *len; NULL when out of memory. */
char *sc_report_fio_json_text(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			      size_t *len);

struct sc_sweep;

/* Prints sweep sw (analysis/sweep_matrix.h) as one grid per rw value: the
 * cluster's MB/s, a row per bs and a column per iodepth, "-" for a cell
 * not measured (sweep.c). */
void sc_report_sweep_grids(FILE *f, const struct sc_sweep *sw);

#endif
