/* report_priv.h -- what the files of report/ share: error messages, named
 * files and phase-record helpers (report.c), the JSON builder, plan echo and
 * results.json (json.c), and the CSV tables (csv.c).  Not for
 * other files.  It needs no json-c: only json.c and plan.c
 * include that.
 */
#ifndef SC_REPORT_PRIV_H
#define SC_REPORT_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "units.h"
#include "analysis/aggregate.h"
#include "report.h"

/* MB/s in every report is decimal: 10^6 bytes per second. */
#define BYTES_PER_MB 1e6

struct json_object;

/* ------------------------------------------------------------- report.c */

/* Formats a message into err (nothing when err is NULL or errlen 0). */
void report_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* sc_report_write_atomic, with "dir/name: reason" in err on failure. */
int report_write_named(const char *dir, const char *name, const void *data, size_t len, char *err,
		       size_t errlen);

/* The planned phase a phase record is of, or NULL for an index beyond the plan. */
const struct sc_phase *report_phase_of(const struct sc_run_record *rec, uint32_t phase);

/* Host of rank in pr, "" when pr has no such rank. */
const char *report_host_of_rank(const struct sc_phase_record *pr, uint32_t rank);

/* Bandwidth of one rank over its own measured time, bytes per second. */
double report_rank_bw(const struct sc_phase_record *pr, const struct sc_rank_result *r);

/* --------------------------------------------------------- json.c: builder */

/* Tracks allocation failures while a document is built, so that a value
 * json-c could not allocate is never silently written as null.  Each call
 * takes ownership of the values it is given, sets nomem when anything fails,
 * and accepts a NULL parent or value left by an earlier failure. */
struct jb {
	int nomem;
};

/* o itself; sets nomem when o is NULL. */
struct json_object *jnew(struct jb *b, struct json_object *o);
void jput(struct jb *b, struct json_object *o, const char *key, struct json_object *v);
void jput_null(struct jb *b, struct json_object *o, const char *key);
void jpush(struct jb *b, struct json_object *a, struct json_object *v);
void jput_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v);
void jput_i64(struct jb *b, struct json_object *o, const char *key, int64_t v);
void jput_bool(struct jb *b, struct json_object *o, const char *key, int v);
/* NULL strings are written as null. */
void jput_str(struct jb *b, struct json_object *o, const char *key, const char *s);
/* Shortest exact decimal; non-finite values are written as null. */
void jput_dbl(struct jb *b, struct json_object *o, const char *key, double v);

/* The document as pretty-printed text ending in a newline, malloc'd, its
 * length in *len; NULL when b->nomem is set or memory runs out. */
char *report_json_text(struct jb *b, struct json_object *root, size_t *len);

/* echo.c: the plan's targets and phases, as results.json and plan.json
 * echo them. */
struct json_object *sc_report_plan_echo(struct jb *b, const struct sc_plan *plan);

/* -------------------------------------------------- json.c: results.json */

/* results.json while it is built, one phase at a time. */
struct report_results {
	const struct sc_run_record *rec;
	struct jb b;
	struct json_object *root;
	struct json_object *phases;
};

/* Starts the document: run header, definitions and plan echo. */
void report_results_init(struct report_results *r, const struct sc_run_record *rec);

/* Adds phase pr of rec with its figures f. */
void report_results_phase(struct report_results *r, const struct sc_run_record *rec,
			  const struct sc_phase_record *pr, const struct sc_phase_figures *f);

/* The finished document as report_json_text gives it; NULL when out of memory. */
char *report_results_text(struct report_results *r, size_t *len);

void report_results_exit(struct report_results *r);

/* ------------------------------------------------------------------- csv.c */

/* phases.csv, ranks.csv and timeseries.csv while they are built, in
 * memory. */
struct report_csv {
	FILE *phases;
	FILE *ranks;
	FILE *series;
	char *phases_buf;
	char *ranks_buf;
	char *series_buf;
	size_t phases_len;
	size_t ranks_len;
	size_t series_len;
};

/* Opens both tables and writes their header lines.  0 or -ENOMEM. */
int report_csv_init(struct report_csv *c);

/* Adds the row of phase pr to phases.csv, a row per rank to ranks.csv and
 * a row per second of the cluster series to timeseries.csv. */
void report_csv_phase(struct report_csv *c, const struct sc_run_record *rec,
		      const struct sc_phase_record *pr, const struct sc_phase_figures *fig);

/* Completes both tables: *_buf and *_len then hold them.  0 or -ENOMEM. */
int report_csv_finish(struct report_csv *c);

/* Writes the finished tables as dir/phases.csv and dir/ranks.csv, stopping
 * at the first that fails.  0 or -errno, with a message in err. */
int report_csv_write(const struct report_csv *c, const char *dir, char *err, size_t errlen);

void report_csv_exit(struct report_csv *c);

#endif
