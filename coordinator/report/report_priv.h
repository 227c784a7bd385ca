/* report_priv.h -- what the files of report/ share: error messages, named
 * files and phase lookup (report.c), the JSON builder (json.c), the plan echo
 * (echo.c), the sections of results.json (results*.c) and the CSV tables
 * (csv.c).  Not for other files.  It needs no json-c: only the files that
 * build JSON include that.
 */
#ifndef SC_REPORT_PRIV_H
#define SC_REPORT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "units.h"
#include "analysis/aggregate.h"
#include "analysis/pct_support.h"
#include "report.h"

/* MB/s in every report is decimal: 10^6 bytes per second. */

struct json_object;

/* ------------------------------------------------------------- report.c */

/* Formats a message into err (nothing when err is NULL or errlen 0). */
void sc_report_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* sc_atomic_file_write and sc_atomic_file_append (worker/atomic_file.h),
 * with "dir/name: reason" in err on failure. */
int sc_report_append_named(const char *dir, const char *name, const void *data, size_t len,
			   char *err, size_t errlen);
int sc_report_write_named(const char *dir, const char *name, const void *data, size_t len,
			  char *err, size_t errlen);

/* The planned phase a phase record is of, or NULL for an index beyond the plan. */
const struct sc_phase *sc_report_phase_of(const struct sc_run_record *rec, uint32_t phase);

/* --------------------------------------------------------- json.c: builder */

/* Tracks allocation failures while a document is built, so that a value
 * json-c could not allocate is never silently written as null.  Each call
 * takes ownership of the values it is given, sets nomem when anything fails,
 * and accepts a NULL parent or value left by an earlier failure. */
struct jb {
	int nomem;
};

/* o itself; sets nomem when o is NULL. */
struct json_object *sc_json_new(struct jb *b, struct json_object *o);
void sc_json_put(struct jb *b, struct json_object *o, const char *key, struct json_object *v);
void sc_json_put_null(struct jb *b, struct json_object *o, const char *key);
void sc_json_push(struct jb *b, struct json_object *a, struct json_object *v);
/* o (taken over, and freed) as text as it prints at its place in a
 * document, indented pad spaces: every newline followed by them.
 * Malloc'd, NUL-terminated, its length in *len; NULL (and b->nomem) when
 * out of memory or nomem was set before. */
char *sc_json_text_at(struct jb *b, struct json_object *o, size_t pad, size_t *len);
/* An object that prints as token k (0-9): SC_JSON_TOKEN_0 with its '0' the
 * digit k.  No other text json-c prints holds a raw \x01 (it writes the
 * control characters of strings as \u0001), so the token marks a place in
 * the document's text (where results.json's phases go: json_part.c). */
struct json_object *sc_json_token(struct jb *b, unsigned k);
#define SC_JSON_TOKEN_0 "\x01" "0" "\x01"
#define SC_JSON_TOKEN_LEN (sizeof(SC_JSON_TOKEN_0) - 1)
/* Where token k is in text (len bytes), or NULL. */
const char *sc_json_token_in(const char *text, size_t len, unsigned k);
/* The spaces before p back to its line's start in text. */
size_t sc_json_indent_before(const char *text, const char *p);
void sc_json_put_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v);
void sc_json_put_i64(struct jb *b, struct json_object *o, const char *key, int64_t v);
void sc_json_put_bool(struct jb *b, struct json_object *o, const char *key, int v);
/* NULL strings are written as null. */
void sc_json_put_str(struct jb *b, struct json_object *o, const char *key, const char *s);
/* Shortest exact decimal; non-finite values are written as null. */
void sc_json_put_dbl(struct jb *b, struct json_object *o, const char *key, double v);
/* A rate in bytes/s as MB/s, rounded to whole bytes per second first so
 * that it prints short. */
void sc_json_put_mbps(struct jb *b, struct json_object *o, const char *key, double bytes_per_s);

/* The document as pretty-printed text ending in a newline, malloc'd, its
 * length in *len; NULL when b->nomem is set or memory runs out. */
char *sc_json_text(struct jb *b, struct json_object *root, size_t *len);

/* echo.c: the plan's targets and phases, as results.json and plan.json
 * echo them. */
struct json_object *sc_report_plan_echo(struct jb *b, const struct sc_plan *plan);
/* The same echo as pretty-printed JSON text ending in a newline and a NUL
 * (report.html shows it), malloc'd, its length (without the NUL) in *len;
 * NULL when out of memory. */
char *sc_report_plan_echo_text(const struct sc_plan *plan, size_t *len);

/* ------------------------------------------- results*.c: results.json */

/* results.json keeps every per-rank row (a phase's "ranks", "drives" and
 * write_cliff "drives", a steady-state group's "drives") while the array
 * has at most this many rows; past it the array is null and beside it
 * "<key>_file" names the file that holds every row ("ranks.csv") and
 * "<key>_omitted" counts the rows left out, so that results.json stays a
 * few MiB at 32K ranks.  A phase's "errors" keeps its first this many. */
#define SC_JSON_RANKS_MAX 256u

/* report.html's bars and rows of ranks, drives and nodes: at most this
 * many per chart or table (the lowest, or those not steady, first), the
 * page saying so and which file holds every one. */
#define SC_HTML_ROWS_SHOWN 32u

/* True when results.json holds the n per-rank rows of an array. */
static inline int sc_report_json_ranks_kept(uint32_t n)
{
	return n <= SC_JSON_RANKS_MAX;
}

/* o[key]: null, with "<key>_file": "ranks.csv" and "<key>_omitted": n. */
void sc_report_json_put_omitted(struct jb *b, struct json_object *o, const char *key, uint32_t n);

/* results.json while it is built, one phase at a time. */
struct report_results {
	const struct sc_run_record *rec;
	const struct sc_run_figures *fg;	  /* rec's figures */
	const struct sc_model_projection *model; /* NULL: none */
	const char *model_error;		  /* why there is none, or NULL */
	struct jb b;
	struct json_object *root;
	uint32_t nphases; /* rec's phases the document has */
	bool index;       /* its phases in results.json.part, not in it */
	struct json_object *stages; /* one row per phase (results_fill.c) */
	const struct sc_sweeps *sweeps;		  /* the run's sweeps, or NULL */
};

/* results.c: starts the document: run header, definitions and plan echo. */
void sc_report_results_init(struct report_results *r, const struct sc_run_record *rec,
			    const struct sc_run_figures *fg);

/* Adds phase i of rec: its row of "stages" (its object goes to
 * results.json.part: sc_report_results_phase_text). */
void sc_report_results_phase(struct report_results *r, const struct sc_run_record *rec,
			     const struct sc_run_figures *fg, uint32_t i);

/* The finished document as sc_json_text gives it; NULL when out of memory.
 * Its "phases" is, when r->index, null with "phases_file":
 * "results.json.part" and "phases_omitted": the phases; else the array of
 * r->nphases phases, each (but the second of more than two) left out and
 * the first two marked by tokens 0 and 1 (sc_json_token): where
 * json_part.c puts them. */
char *sc_report_results_text(struct report_results *r, size_t *len);

/* Phase i of rec, as results.json holds it, indented pad spaces
 * (sc_json_text_at): malloc'd, its length in *len; NULL when out of
 * memory.  Its node and target rows (4,096 each at 32K ranks) are
 * rendered one at a time into the text json-c gives the phase's
 * skeleton, so no tree of the whole phase is built (the same text:
 * sc_report_results_phase_json's). */
char *sc_report_results_phase_text(const struct sc_run_record *rec,
				   const struct sc_run_figures *fg, uint32_t i, size_t pad,
				   size_t *len);
/* The same text, after head (head_len bytes, at most 32), rendered by
 * more than one thread at once: _begin renders the skeleton (NULL when
 * out of memory); _help, on any thread and on several at once, renders
 * chunks of the rows until none is left; _end, once no _help runs,
 * renders what is left, joins the text and frees the job: NULL when out
 * of memory, or when len is NULL (the job dropped). */
struct sc_phase_text_job;
struct sc_phase_text_job *sc_report_results_phase_begin(const struct sc_run_record *rec,
							const struct sc_run_figures *fg,
							uint32_t i, size_t pad, const char *head,
							size_t head_len);
void sc_report_results_phase_help(struct sc_phase_text_job *job);
char *sc_report_results_phase_end(struct sc_phase_text_job *job, size_t *len);
/* Phase i of rec as one object: what sc_report_results_phase_text's text
 * is json-c's printing of. */
struct json_object *sc_report_results_phase_json(struct jb *b, const struct sc_run_record *rec,
						 const struct sc_run_figures *fg, uint32_t i);

/* json_part.c: results.json's phases kept in results.json.part, each
 * phase's object appended as it ends, as results.json will hold it (the
 * first phase's with the file made anew; each later one after the
 * separator of two). */
#define SC_REPORT_JSON_PART "results.json.part"

/* Appends phase i of rec to dir's results.json.part, which holds its
 * phases before i (i = 0: the file made anew, with phase 0 alone).  0 or
 * -errno, with a message in err; after an error the part is as it was,
 * unless the machine crashed while appending. */
int sc_report_json_part_append(const char *dir, const struct sc_run_record *rec,
			       const struct sc_run_figures *fg, uint32_t i, char *err,
			       size_t errlen);
/* What results.json.part grows by with rec's phase i (after the phases
 * before it: i = 0, the file's whole text), or NULL when out of memory. */
char *sc_report_json_part_text(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			       uint32_t i, size_t *len);
/* The same as a job (sc_report_results_phase_begin): NULL when out of
 * memory. */
struct sc_phase_text_job *sc_report_json_part_begin(const struct sc_run_record *rec,
						    const struct sc_run_figures *fg, uint32_t i);

/* results.json.part made anew, holding every phase of rec. */
int sc_report_json_part_write(const char *dir, const struct sc_run_record *rec,
			      const struct sc_run_figures *fg, char *err, size_t errlen);
/* Removes dir's results.json.part, if there. */
void sc_report_json_part_remove(const char *dir);

/* Writes results.json: text (sc_report_results_text, not an index) with
 * the place of its phases (tokens 0 and 1) taken by results.json.part,
 * which holds the nphases phases.  0 or -errno, with a message in err. */
int sc_report_json_spliced(const char *dir, const char *text, size_t len, uint32_t nphases,
			   char *err, size_t errlen);

void sc_report_results_exit(struct report_results *r);

/* Adds "verdict" (report/verdict_table.h) of the run so far to the document;
 * sets b.nomem when out of memory. */
void sc_report_results_verdict(struct report_results *r);

/* The sections of a phase, each a new object (or array) for the document. */

/* results_rows.c (and plan_print.c): where a row of a node stands, as "node"
 * then "host". */
void sc_report_json_node_host(struct jb *b, struct json_object *o, uint32_t node,
			      const char *host);
/* Latency figures of one direction; null values when it
 * had no I/Os. */
struct json_object *sc_report_json_lat(struct jb *b, const struct sc_lat_summary *s);
/* results_io_opts.c: the I/O options the phase asked for (only those),
 * each {asked_ranks, unavailable_ranks, why (the first reason, or null)}. */
struct json_object *sc_report_json_io_options(struct jb *b, const struct sc_phase_record *pr);
/* The cluster row, the node rows, the (node, target) rows, the rank rows
 * and the per-second series. */
struct json_object *sc_report_json_cluster(struct jb *b, const struct sc_phase_figures *f);
struct json_object *sc_report_json_nodes(struct jb *b, const struct sc_phase_figures *f);
struct json_object *sc_report_json_targets(struct jb *b, const struct sc_run_record *rec,
					   const struct sc_phase_figures *f);
/* Element k of sc_report_json_nodes' and sc_report_json_targets' arrays. */
struct json_object *sc_report_json_node(struct jb *b, const struct sc_phase_figures *f,
					uint32_t k);
struct json_object *sc_report_json_target(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_phase_figures *f, uint32_t k);
struct json_object *sc_report_json_ranks(struct jb *b, const struct sc_run_record *rec,
					 const struct sc_phase_record *pr,
					 const struct sc_phase_figures *f);
struct json_object *sc_report_json_timeseries(struct jb *b, const struct sc_phase_record *pr,
					      const struct sc_phase_figures *f);

/* results_errors.c: [{"errno": "EIO", "count": n}, ...], increasing errno. */
struct json_object *sc_report_json_errnos(struct jb *b, const struct sc_errno_count *e,
					  uint32_t n);
/* One kept failed I/O; with its rank, host and target when r is given. */
struct json_object *sc_report_json_failure(struct jb *b, const struct sc_run_record *rec,
					   const struct sc_rank_result *r,
					   const struct sc_io_failure *f);
/* "rank 3 (host): message", one per rank that failed, the first
 * SC_JSON_RANKS_MAX of them; the failed ranks past those in *omitted. */
struct json_object *sc_report_json_rank_errors(struct jb *b, const struct sc_phase_record *pr,
					       uint32_t *omitted);
/* The phase's failed I/Os over all ranks: counts by errno and the first
 * ones the ranks kept. */
struct json_object *sc_report_json_io_errors(struct jb *b, const struct sc_run_record *rec,
					     const struct sc_phase_figures *f);
/* The phase's verification: totals (v) and the first mismatches. */
struct json_object *sc_report_json_verify(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_phase_record *pr,
					  const struct sc_phase *ph,
					  const struct sc_verify_figures *v);

/* results_workloads.c: what a checkpoint cell, an ingest phase and an
 * open-loop phase add (their figures from analysis/workload_figures.h),
 * and every checkpoint group of the run. */
struct json_object *sc_report_json_ckpt_cell(struct jb *b, const struct sc_phase *ph,
					     const struct sc_phase_figures *f,
					     const struct sc_ckpt_cell *c);
/* An ingest phase's figures, with a row per rank (steps, compute, AU from
 * rank_au, barrier wait) while sc_report_json_ranks_kept. */
struct json_object *sc_report_json_ingest(struct jb *b, const struct sc_phase_figures *f,
					  const struct sc_ingest_figures *g,
					  const struct sc_phase_record *pr, const double *rank_au);
/* A training phase's figures (w's), MLPerf's names among them, with a
 * row per node (its AU and potential caching) and per rank as an ingest
 * phase's, and per accelerator. */
struct json_object *sc_report_json_training(struct jb *b, const struct sc_phase *ph,
					    const struct sc_phase_figures *f,
					    const struct sc_workload_figures *w,
					    const struct sc_phase_record *pr);
struct json_object *sc_report_json_open_loop(struct jb *b, const struct sc_open_loop_figures *ol);
struct json_object *sc_report_json_checkpoints(struct jb *b, const struct sc_run_record *rec,
					       const struct sc_run_figures *fg);

struct sc_sweeps;
/* sweep.c: every sweep of the run, [{"name", "config_index", "sweep":
 * {"axes": {"rw": [...], "bs_bytes": [...], "iodepth": [...]}, "cells":
 * [...]}}], cells in expansion order. */
struct json_object *sc_report_json_sweeps(struct jb *b, const struct sc_sweeps *s);

/* ------------------------------------------------------------------- csv.c */

/* The CSV tables, in this order. */
enum report_csv_table {
	REPORT_CSV_PHASES,          /* phases.csv: a row per phase */
	REPORT_CSV_RANKS,           /* ranks.csv: a row per rank and phase */
	REPORT_CSV_SERIES,          /* timeseries.csv: a row per second and phase */
	REPORT_CSV_SWEEP,           /* sweep.csv: a row per sweep cell and scope */
	REPORT_CSV_TABLES
};

/* The CSV tables (phases, ranks, timeseries, sweep) while they are built, in
 * memory. */
struct report_csv {
	FILE *f[REPORT_CSV_TABLES];
	char *buf[REPORT_CSV_TABLES];
	size_t len[REPORT_CSV_TABLES];
};

/* The tables a phase adds rows to (phases, ranks, timeseries), and all. */
#define REPORT_CSV_PHASE_TABLES                                                                    \
	(1u << REPORT_CSV_PHASES | 1u << REPORT_CSV_RANKS | 1u << REPORT_CSV_SERIES)
#define REPORT_CSV_ALL ((1u << REPORT_CSV_TABLES) - 1)

/* The names of the REPORT_CSV_PHASE_TABLES into names (room for
 * REPORT_CSV_TABLES); how many. */
uint32_t sc_report_csv_phase_tables(const char **names);

/* Opens the tables and writes their header lines.  0 or -ENOMEM. */
int sc_report_csv_init(struct report_csv *c);

/* Adds the row of phase pr to phases.csv, a row per rank to ranks.csv
 * (every rank, however many: results.json leaves them out past
 * SC_JSON_RANKS_MAX) and a row per second of the cluster series to
 * timeseries.csv. */
void sc_report_csv_phase(struct report_csv *c, const struct sc_run_record *rec,
			 const struct sc_run_figures *fg, uint32_t i);

/* Completes the tables: buf and len then hold them.  0 or -ENOMEM. */
int sc_report_csv_finish(struct report_csv *c);

/* Writes the finished tables of mask (a bit per enum report_csv_table) as
 * dir/phases.csv, dir/ranks.csv, dir/timeseries.csv and dir/sweep.csv,
 * stopping at the first that fails.  0 or -errno, with a message in err. */
int sc_report_csv_write(const struct report_csv *c, const char *dir, unsigned mask, char *err,
			size_t errlen);

/* The rows of rec's phase i for phases.csv, ranks.csv and timeseries.csv
 * (in the order of sc_report_csv_phase_tables) into text and len (the
 * caller frees each).  0 or -ENOMEM (nothing left to free). */
int sc_report_csv_rows(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		       uint32_t i, char **text, size_t *len);

void sc_report_csv_exit(struct report_csv *c);

/* ------------------------------------------- results_steady.c, json.c */

/* A number into array a; a non-finite one as null. */
void sc_json_push_dbl(struct jb *b, struct json_object *a, double v);

/* "steady_state": one object per steady-state group of rec (its drives,
 * cluster, rounds and final window). */
/* results.json "training_groups": each training phase with a search or
 * runs, its cells together (analysis/training_groups.h). */
struct json_object *sc_report_json_training_groups(struct jb *b, const struct sc_run_record *rec,
						   const struct sc_run_figures *fg);

struct json_object *sc_report_json_steady(struct jb *b, const struct sc_run_record *rec,
					  const struct sc_run_figures *fg);
/* ------------------------------------- results_drives.c: the drives */

/* results.json's "inventory": every drive once per node (node, host,
 * ranks, target, device, controller, model, serial, firmware,
 * capacity_bytes), or a target's "telemetry": "no NVMe telemetry: ...";
 * "ranks" left out past SC_JSON_RANKS_MAX ranks in the run. */
struct json_object *sc_report_json_inventory(struct jb *b, const struct sc_run_record *rec,
					     const struct sc_inventory *inv);
/* A phase's "drives": per rank its drives' health logs before and after
 * (or why they are missing), the media errors added and the per-second
 * max_temperature_c series (null, with "series_not_kept" saying why, when
 * the record holds no rank's own series: rank_series.h).  The caller
 * leaves it out past SC_JSON_RANKS_MAX ranks. */
struct json_object *sc_report_json_phase_drives(struct jb *b, const struct sc_phase_record *pr);
/* results.json's "endurance" (model/endurance.h). */
struct json_object *sc_report_json_endurance(struct jb *b, const struct sc_run_record *rec,
					     const struct sc_run_figures *fg);
/* o[key]: the n seconds' max_temp_mk in deg C, null where none was read. */
void sc_report_json_put_temps(struct jb *b, struct json_object *o, const char *key,
			      const struct sc_second *s, uint32_t n);
/* results_fill.c: a fill phase's "write_cliff" (the cliff of every drive
 * and of the cluster), and a phase's row of the run's "stages". */
struct json_object *sc_report_json_write_cliff(struct jb *b, const struct sc_run_record *rec,
					       const struct sc_phase_record *pr,
					       const struct sc_fill_cliffs *c);
struct json_object *sc_report_json_stage(struct jb *b, const struct sc_stage_row *st);
/* Adds the rows of every sweep cell to sweep.csv: the cluster's, then one
 * per node; a cell not measured has its cluster row with empty figures. */
void sc_report_csv_sweeps(struct report_csv *c, const struct sc_sweeps *s);

#endif
