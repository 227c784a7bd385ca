/* html_priv.h -- the sections of report.html: html.c writes the page (run
 * summary, drives, phase table, verdict, steady state, temperature, model)
 * and calls the phase and workload sections below.  Not for other files.
 * Each writes to f (output errors are the caller's: ferror(f)) and returns
 * 0 or -ENOMEM; the caller writes the section's own heading (<h2>), these
 * write <h3> per checkpoint group and per sweep.  Figures come from analysis/ and model/; nothing is derived
 * again here. */
#ifndef SC_REPORT_HTML_PRIV_H
#define SC_REPORT_HTML_PRIV_H

#include <stdio.h>

#include "result.h"
#include "analysis/aggregate.h"
#include "analysis/figures.h"
#include "analysis/pct_support.h"

struct sc_sweeps;

/* html_phase.c: the charts of one phase (pr, whose figures are fig):
 * cluster bandwidth and IOPS over time with one line per node (a partial
 * last second scaled to its covered time, never drawn as a drop), latency
 * percentiles on a nines axis up to p99.9999 per direction, bandwidth per
 * node and per drive with the slowest marked; for an open-loop phase
 * response time against service time; for an ingest phase accelerator
 * utilisation per rank and the batch-wait tail; for a training phase its
 * MLPerf figures, AU per accelerator and per host against the threshold
 * (a line; the bars below it marked), samples/s over time per node and
 * cluster (the bytes series / the bytes a sample, said under it) and the
 * batch-wait tail.  Bars of nodes, drives or
 * ranks: the lowest SC_HTML_ROWS_SHOWN past that many, said so; node lines
 * over time only where the record holds the node series, said so. */
int sc_html_phase_charts(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 uint32_t i);

/* html_phase.c: which of the n values v a chart or table shows, into at
 * (SC_HTML_ROWS_SHOWN room): every one in order while n <=
 * SC_HTML_ROWS_SHOWN, else that many of the lowest, lowest first (equal
 * ones in index order).  The count, or -ENOMEM. */
int sc_html_lowest(const double *v, uint32_t n, uint32_t *at);

/* html_phase.c: every checkpoint group of a run (fg->ckpt, its figures):
 * duration per checkpoint, per node and the cluster maximum, with the
 * trend line, for writes and restores, and the group's trend figures.
 * Nothing when the run has none. */
int sc_html_checkpoints(FILE *f, const struct sc_run_figures *fg);

/* html_sweep.c: every sweep of sw as heatmaps of bandwidth (MB/s) and p99
 * (us) per rw, a row per block size and a column per queue depth, each
 * cell labelled.  Nothing when sw has none. */
int sc_html_sweeps(FILE *f, const struct sc_sweeps *sw);

#endif
