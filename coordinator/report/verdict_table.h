/* verdict_table.h -- the verdict of a run (analysis/verdict.h) and its outliers
 * (analysis/outliers.h) as people and programs read them: the PASS/FAIL
 * table printed at the end of a run and by `ssdcluster report`, and the
 * object "verdict" of results.json.  Formats only. */
#ifndef SC_REPORT_VERDICT_TABLE_H
#define SC_REPORT_VERDICT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/figures.h"
#include "analysis/outliers.h"
#include "analysis/verdict.h"
#include "result.h"

/* The verdict and outliers of a run (in fg, its figures: analysis/figures.h)
 * printed on stdout as sc_report_verdict_table does (quiet: only a failed
 * verdict, one line on stderr).  At the end of a run (rank 0; also when a
 * lost rank cut it) and by `ssdcluster report`.  1 when a threshold
 * failed, 0 when none did (or there are none). */
int sc_report_verdict(const struct sc_run_figures *fg, bool quiet);

/* When plan has expect: thresholds, prints on f the exit status the run
 * (or report) ends with and what it means ("exit status 3: a threshold
 * failed"); nothing otherwise. */
void sc_report_verdict_exit(FILE *f, const struct sc_plan *plan, int status);

/* value in metric m's unit, with its unit ("2.10 GB/s", "81.2 us",
 * "95.0%", "yes"), into buf; returns buf. */
const char *sc_report_verdict_value(char *buf, size_t len, enum sc_expect_metric m, double value);

/* Where w stands, into buf: "cluster", "node 1 (host)", "rank 3 on host,
 * target 2 (/path)" with the drive's device and serial when known. */
const char *sc_report_verdict_place(char *buf, size_t len, const struct sc_where *w);

/* How a threshold of m bounds the measure: ">=", "<=", or blanks for a
 * yes/no one. */
const char *sc_report_verdict_relation(enum sc_expect_metric m);

struct jb;
struct json_object;

/* Prints on f: when v has checks, the PASS/FAIL table (a failed check on
 * a line of its own with measured vs required and the node, host, rank
 * and target it concerns; the passing checks of one threshold at node or
 * drive scope on one line with the worst of them; checks that could not
 * be measured with why); then the outliers of o (or that there are none,
 * or that no phase had enough drives or nodes to compare: with checks
 * only; a run without either prints nothing);
 * then, when v has checks, "verdict: PASS (n checks)" or "verdict: FAIL
 * (k of n checks)". */
void sc_report_verdict_table(FILE *f, const struct sc_verdict *v, const struct sc_outliers *o);

/* The object "verdict" of results.json: pass (true, false, or null
 * without checks), counts, checks [...] and outliers [...].  Of a run of
 * more than SC_JSON_RANKS_MAX ranks (nranks), checks lists the cluster's
 * and nodes' and the first SC_JSON_RANKS_MAX drives' that did not pass,
 * outliers its first SC_JSON_RANKS_MAX; "checks_omitted" and
 * "outliers_omitted" count the rest, "checks_file" names ranks.csv (each
 * drive's figures). */
struct json_object *sc_report_json_verdict(struct jb *b, const struct sc_verdict *v,
					   const struct sc_outliers *o, uint32_t nranks);

/* A phase's expect: thresholds for the plan echo: each under its metric's
 * name with its unit ({"min_bw_bytes_per_s": 2e9, "max_p99_ns": 5e6,
 * "min_au_pct": 90, "steady_state": true}). */
struct json_object *sc_report_json_expect(struct jb *b, const struct sc_phase *ph);

#endif
