/* csv.c -- the CSV tables, built in memory: phases.csv (a row per
 * phase), ranks.csv (a row per rank and phase), timeseries.csv (a row
 * per second of the cluster series and phase) and sweep.csv (a row per
 * sweep cell and scope: the cluster, then each node); or a phase's rows
 * of the first three, appended to them. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/rank_series.h"
#include "num_text.h"
#include "report_priv.h"
#include "analysis/sweep_matrix.h"
#include "analysis/workload_figures.h"
#include "analysis/write_cliff.h"
#include "telemetry.h"

/* Latencies in the CSV tables are microseconds. */
#define NS_PER_US 1e3
/* A fraction as a percentage. */
#define PERCENT 100.0

/* Each table's file name and header line. */
static const struct {
	const char *name;
	const char *header;
} tables[REPORT_CSV_TABLES] = {
    [REPORT_CSV_PHASES] = {"phases.csv", "phase,rw,lastdone_MBps,firstdone_MBps,iops,"
					 "read_p50_us,read_p99_us,read_p99.99_us,"
					 "write_p50_us,write_p99_us,write_p99.99_us,"
					 "slowest_rank,slowest_host,errors,verify_mismatches,status\n"},
    [REPORT_CSV_RANKS] = {"ranks.csv", "phase,rank,node,host,bytes,MBps,read_p99_us,"
				       "write_p99_us,errors,verify_mismatches,"
				       "target,start_ns,end_ns,bytes_read,bytes_written,"
				       "ios_read,ios_written,iops,fsyncs,firstdone_bytes,"
				       "clock_offset_ns,read_mean_us,read_p50_us,read_p99.9_us,"
				       "read_max_us,write_mean_us,write_p50_us,write_p99.9_us,"
				       "write_max_us,error,media_errors_added,"
				       "max_temperature_C,cliff_start_ns,cache_bytes,au_pct\n"},
    [REPORT_CSV_SERIES] = {"timeseries.csv", "phase,second,read_MB,written_MB,ios_read,"
					     "ios_written,max_read_latency_us,"
					     "max_write_latency_us,max_temperature_C\n"},
    [REPORT_CSV_SWEEP] = {"sweep.csv", "sweep,cell,phase,rw,bs_bytes,iodepth,scope,node,host,"
				       "MBps,iops,read_mean_us,read_p99_us,read_p99.99_us,"
				       "write_mean_us,write_p99_us,write_p99.99_us,status\n"},
};

/* The tables' numbers are written by num_text.h (printf's text at a
 * fraction of its cost: a million numbers a phase at 32K ranks) into the
 * table's own memstream, which no other thread sees: unlocked. */

/* v with d decimals ("%.<d>f"), then sep unless it is 0. */
static void csv_fixed(FILE *f, double v, unsigned d, char sep)
{
	char s[SC_NUM_TEXT_MAX];

	fwrite_unlocked(s, 1, (size_t)sc_num_text_fixed(s, v, d), f);
	if (sep)
		fputc_unlocked(sep, f);
}

/* v, then sep unless it is 0. */
static void csv_u64(FILE *f, uint64_t v, char sep)
{
	char s[SC_NUM_TEXT_MAX];

	fwrite_unlocked(s, 1, (size_t)sc_num_text_u64(s, v), f);
	if (sep)
		fputc_unlocked(sep, f);
}

static void csv_i64(FILE *f, int64_t v, char sep)
{
	char s[SC_NUM_TEXT_MAX];

	fwrite_unlocked(s, 1, (size_t)sc_num_text_i64(s, v), f);
	if (sep)
		fputc_unlocked(sep, f);
}

/* One CSV field, quoted when it holds a comma, quote or line break. */
static void csv_str(FILE *f, const char *s, int last)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\r\n")) {
		fputc_unlocked('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc_unlocked('"', f);
			fputc_unlocked(*s, f);
		}
		fputc_unlocked('"', f);
	} else {
		fputs_unlocked(s, f);
	}
	fputc_unlocked(last ? '\n' : ',', f);
}

/* A latency percentile in microseconds, or an empty field when the
 * direction had too few I/Os to support it (none, or fewer than 1 / (1 -
 * p/100): pct_support.h). */
static void csv_us(FILE *f, const struct sc_lat_summary *s, int pct)
{
	uint64_t ns;

	if (sc_lat_pct(s, pct, &ns))
		csv_fixed(f, (double)ns / NS_PER_US, 3, 0);
	fputc_unlocked(',', f);
}

static void phases_csv_row(FILE *f, const struct sc_run_record *rec,
			   const struct sc_phase_record *pr, const struct sc_phase_figures *fig,
			   const struct sc_verify_figures *v)
{
	static const double pts[] = {50, 99, 99.99};
	const struct sc_phase *ph = sc_report_phase_of(rec, pr->phase);

	csv_str(f, ph ? ph->name : "", 0);
	csv_str(f, ph ? sc_rw_name(ph->io.rw) : "", 0);
	csv_fixed(f, fig->lastdone_bw_bytes_per_s / SC_BYTES_PER_MB, 3, ',');
	csv_fixed(f, fig->firstdone_bw_bytes_per_s / SC_BYTES_PER_MB, 3, ',');
	csv_fixed(f, fig->iops_total, 1, ',');
	for (int d = 0; d < SC_DIR_COUNT; d++)
		for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++)
			csv_us(f, &fig->lat[d], sc_pct_index(pts[i]));
	if (fig->nranks)
		csv_u64(f, fig->slowest_rank, ',');
	else
		fputc_unlocked(',', f);
	csv_str(f, fig->slowest_host, 0);
	csv_u64(f, fig->errors, ',');
	csv_u64(f, v->mismatches, ',');
	csv_str(f, sc_phase_status_name(pr->status), 1);
}

/* Mean, p50, p99.9 and max of one direction in microseconds (empty
 * without I/Os of it). */
static void csv_lat_summary(FILE *f, const struct sc_lat_summary *s)
{
	if (s->count)
		csv_fixed(f, s->mean_ns / NS_PER_US, 3, 0);
	fputc_unlocked(',', f);
	csv_us(f, s, sc_pct_index(50));
	csv_us(f, s, sc_pct_index(99.9));
	if (s->count)
		csv_fixed(f, (double)s->max_ns / NS_PER_US, 3, 0);
	fputc_unlocked(',', f);
}

/* The columns after verify_mismatches: where and when, the counters,
 * latency summaries, the error, the drive's media errors added and hottest
 * second (empty: none read, or its series not kept), a fill phase's cliff
 * (cl, NULL for any other phase; empty: no cliff or unknown) and an ingest
 * phase's accelerator utilisation (au, NULL for any other: empty). */
static void rank_csv_more(FILE *f, const struct sc_rank_result *r, const struct sc_rank_row *row,
			  const struct sc_write_cliff *cl, const double *au)
{
	uint64_t added, mk = sc_rank_max_temp_mk(r);

	csv_u64(f, r->target, ',');
	csv_i64(f, r->start_ns, ',');
	csv_i64(f, r->end_ns, ',');
	csv_u64(f, r->bytes[SC_DIR_READ], ',');
	csv_u64(f, r->bytes[SC_DIR_WRITE], ',');
	csv_u64(f, r->ios[SC_DIR_READ], ',');
	csv_u64(f, r->ios[SC_DIR_WRITE], ',');
	csv_fixed(f, row->iops, 1, ',');
	csv_u64(f, r->fsyncs, ',');
	csv_u64(f, r->firstdone_bytes, ',');
	csv_i64(f, r->clock_offset_ns, ',');
	csv_lat_summary(f, &r->lat[SC_DIR_READ]);
	csv_lat_summary(f, &r->lat[SC_DIR_WRITE]);
	csv_str(f, r->error, 0);
	if (sc_telemetry_media_errors(r, &added) == 0)
		csv_u64(f, added, 0);
	fputc_unlocked(',', f);
	if (mk)
		csv_fixed(f, sc_temp_c(mk), 3, 0);
	fputc_unlocked(',', f);
	if (cl && cl->found) {
		csv_u64(f, (uint64_t)cl->second * SC_NS_PER_S, ',');
		csv_u64(f, cl->cache_bytes, 0);
	} else {
		fputc_unlocked(',', f);
	}
	fputc_unlocked(',', f);
	if (au)
		csv_fixed(f, *au * PERCENT, 3, 0);
	fputc_unlocked('\n', f);
}

static void ranks_csv_rows(FILE *f, const struct sc_run_record *rec,
			   const struct sc_phase_record *pr, const struct sc_phase_figures *fig,
			   const struct sc_workload_figures *w)
{
	const struct sc_phase *ph = sc_report_phase_of(rec, pr->phase);
	int p99 = sc_pct_index(99);
	bool fill = ph && ph->workload == SC_WORKLOAD_FILL;

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		const struct sc_rank_row *row = &fig->rank_rows[i];

		csv_str(f, ph ? ph->name : "", 0);
		csv_u64(f, r->rank, ',');
		csv_u64(f, r->node, ',');
		csv_str(f, r->host, 0);
		csv_u64(f, row->total_bytes, ',');
		csv_fixed(f, row->bw_bytes_per_s / SC_BYTES_PER_MB, 3, ',');
		csv_us(f, &r->lat[SC_DIR_READ], p99);
		csv_us(f, &r->lat[SC_DIR_WRITE], p99);
		csv_u64(f, r->errors, ',');
		csv_u64(f, r->verify_mismatches, ',');
		rank_csv_more(f, r, row, fill ? &w->cliffs.ranks[i] : NULL,
			      w->rank_au ? &w->rank_au[i] : NULL);
	}
}

/* The cluster's per-second series: second k after the measured start. */
static void series_csv_rows(FILE *f, const struct sc_run_record *rec,
			    const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	const struct sc_phase *ph = sc_report_phase_of(rec, pr->phase);

	for (uint32_t k = 0; k < fig->nseconds; k++) {
		const struct sc_second *s = &fig->seconds[k];

		csv_str(f, ph ? ph->name : "", 0);
		csv_u64(f, k, ',');
		csv_fixed(f, (double)s->bytes[SC_DIR_READ] / SC_BYTES_PER_MB, 6, ',');
		csv_fixed(f, (double)s->bytes[SC_DIR_WRITE] / SC_BYTES_PER_MB, 6, ',');
		csv_u64(f, s->ios[SC_DIR_READ], ',');
		csv_u64(f, s->ios[SC_DIR_WRITE], ',');
		csv_fixed(f, (double)s->max_lat_ns[SC_DIR_READ] / NS_PER_US, 3, ',');
		csv_fixed(f, (double)s->max_lat_ns[SC_DIR_WRITE] / NS_PER_US, 3, ',');
		/* the hottest drive in the second, deg C; empty: none read */
		if (s->max_temp_mk)
			csv_fixed(f, sc_temp_c(s->max_temp_mk), 3, 0);
		fputc_unlocked('\n', f);
	}
}

/* One scope's figures of a sweep cell: MB/s, IOPS, then mean, p99 and
 * p99.99 in microseconds per direction (empty without I/Os of it, or
 * too few for the percentile: pct_support.h). */
static void sweep_figures(FILE *f, const struct sc_sweep_figures *s)
{
	static const double pts[] = {99, 99.99};

	csv_fixed(f, s->bw_bytes_per_s / SC_BYTES_PER_MB, 3, ',');
	csv_fixed(f, s->iops, 1, ',');
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		if (s->lat[d].count)
			csv_fixed(f, s->lat[d].mean_ns / NS_PER_US, 3, 0);
		fputc_unlocked(',', f);
		for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++)
			csv_us(f, &s->lat[d], sc_pct_index(pts[i]));
	}
}

/* Rows of cell i of sweep sw: the cluster's, then each node's. */
static void sweep_cell_rows(FILE *f, const struct sc_plan *plan, const struct sc_sweep *sw,
			    uint32_t i)
{
	const struct sc_sweep_cell *c = &sw->cells[i];
	const char *status = c->measured ? sc_phase_status_name(c->status) : "not run";

	for (uint32_t n = 0; n <= c->nnodes; n++) {
		csv_str(f, sw->name, 0);
		csv_u64(f, c->cell, ',');
		csv_str(f, plan->phases[c->phase].name, 0);
		csv_str(f, sc_rw_name((enum sc_rw)c->v[SC_SWEEP_RW]), 0);
		csv_u64(f, c->v[SC_SWEEP_BS], ',');
		csv_u64(f, c->v[SC_SWEEP_IODEPTH], ',');
		if (n == 0) {
			fputs_unlocked("cluster,,,", f);
		} else {
			fputs_unlocked("node,", f);
			csv_u64(f, c->nodes[n - 1].node, ',');
			csv_str(f, c->nodes[n - 1].host, 0);
		}
		if (c->measured)
			sweep_figures(f, n ? &c->nodes[n - 1].f : &c->cluster);
		else
			fputs_unlocked(",,,,,,,,", f);
		csv_str(f, status, 1);
	}
}

void sc_report_csv_sweeps(struct report_csv *c, const struct sc_sweeps *s)
{
	for (uint32_t k = 0; k < s->n; k++)
		for (uint32_t i = 0; i < s->s[k].ncells; i++)
			sweep_cell_rows(c->f[REPORT_CSV_SWEEP], s->plan, &s->s[k], i);
}

/* Opens the tables, with their header lines or (rows to append) without. */
static int csv_open(struct report_csv *c, bool headers)
{
	for (int t = 0; t < REPORT_CSV_TABLES; t++) {
		c->f[t] = open_memstream(&c->buf[t], &c->len[t]);
		if (!c->f[t])
			return -ENOMEM;
	}
	for (int t = 0; headers && t < REPORT_CSV_TABLES; t++)
		fputs(tables[t].header, c->f[t]);
	return 0;
}

int sc_report_csv_init(struct report_csv *c)
{
	return csv_open(c, true);
}

void sc_report_csv_phase(struct report_csv *c, const struct sc_run_record *rec,
			 const struct sc_run_figures *fg, uint32_t i)
{
	const struct sc_phase_record *pr = &rec->phases[i];
	const struct sc_phase_figures *fig = &fg->phases[i];

	phases_csv_row(c->f[REPORT_CSV_PHASES], rec, pr, fig, &fg->work[i].verify);
	ranks_csv_rows(c->f[REPORT_CSV_RANKS], rec, pr, fig, &fg->work[i]);
	series_csv_rows(c->f[REPORT_CSV_SERIES], rec, pr, fig);
}

int sc_report_csv_finish(struct report_csv *c)
{
	int rc = 0;

	for (int t = 0; t < REPORT_CSV_TABLES; t++)
		if (ferror(c->f[t]))
			return -ENOMEM;
	/* the memstreams' buffers are complete once closed */
	for (int t = 0; t < REPORT_CSV_TABLES; t++) {
		rc |= fclose(c->f[t]);
		c->f[t] = NULL;
	}
	return rc ? -ENOMEM : 0;
}

int sc_report_csv_write(const struct report_csv *c, const char *dir, unsigned mask, char *err,
			size_t errlen)
{
	int rc = 0;

	for (int t = 0; t < REPORT_CSV_TABLES && !rc; t++)
		if (mask & 1u << t)
			rc = sc_report_write_named(dir, tables[t].name, c->buf[t], c->len[t], err,
						   errlen);
	return rc;
}

int sc_report_csv_rows(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		       uint32_t i, char **text, size_t *len)
{
	struct report_csv c = {0};
	uint32_t n = 0;
	int rc = csv_open(&c, false);

	if (!rc) {
		sc_report_csv_phase(&c, rec, fg, i);
		rc = sc_report_csv_finish(&c);
	}
	for (int t = 0; t < REPORT_CSV_TABLES && !rc; t++)
		if (REPORT_CSV_PHASE_TABLES & 1u << t) {
			/* the buffer passes to the caller */
			text[n] = c.buf[t];
			len[n++] = c.len[t];
			c.buf[t] = NULL;
		}
	sc_report_csv_exit(&c);
	return rc;
}

uint32_t sc_report_csv_phase_tables(const char **names)
{
	uint32_t n = 0;

	for (int t = 0; t < REPORT_CSV_TABLES; t++)
		if (REPORT_CSV_PHASE_TABLES & 1u << t)
			names[n++] = tables[t].name;
	return n;
}

void sc_report_csv_exit(struct report_csv *c)
{
	for (int t = 0; t < REPORT_CSV_TABLES; t++) {
		if (c->f[t])
			fclose(c->f[t]);
		free(c->buf[t]);
	}
	*c = (struct report_csv){0};
}
