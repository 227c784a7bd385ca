/* csv.c -- phases.csv (a row per phase) and ranks.csv (a row per
 * rank and phase), built in memory. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "report_priv.h"
#include "analysis/workload_figures.h"

/* Latencies in the CSV tables are microseconds. */
#define NS_PER_US 1e3

/* One CSV field, quoted when it holds a comma, quote or line break. */
static void csv_str(FILE *f, const char *s, int last)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A latency in microseconds, or an empty field when the direction had no I/O. */
static void csv_us(FILE *f, const struct sc_lat_summary *s, int pct)
{
	if (s->count)
		fprintf(f, "%.3f", (double)s->pct_ns[pct] / NS_PER_US);
	fputc(',', f);
}

/* Index of a percentile in sc_pct_points. */
static int pct_index(double p)
{
	for (int i = 0; i < SC_NPCT; i++)
		if (sc_pct_points[i] == p)
			return i;
	return 0;
}

static void phases_csv_header(FILE *f)
{
	fputs("phase,rw,lastdone_MBps,firstdone_MBps,iops,"
	      "read_p50_us,read_p99_us,read_p99.99_us,"
	      "write_p50_us,write_p99_us,write_p99.99_us,"
	      "slowest_rank,slowest_host,errors,verify_mismatches,status\n",
	      f);
}

static void phases_csv_row(FILE *f, const struct sc_run_record *rec,
			   const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	static const double pts[] = {50, 99, 99.99};
	const struct sc_phase *ph = report_phase_of(rec, pr->phase);

	csv_str(f, ph ? ph->name : "", 0);
	csv_str(f, ph ? sc_rw_name(ph->io.rw) : "", 0);
	fprintf(f, "%.3f,%.3f,%.1f,", fig->lastdone_bw_bytes_per_s / BYTES_PER_MB,
		fig->firstdone_bw_bytes_per_s / BYTES_PER_MB, fig->iops_total);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++)
			csv_us(f, &fig->lat[d], pct_index(pts[i]));
	if (fig->nranks)
		fprintf(f, "%u,", fig->slowest_rank);
	else
		fputc(',', f);
	csv_str(f, fig->nranks ? report_host_of_rank(pr, fig->slowest_rank) : "", 0);
	fprintf(f, "%" PRIu64 ",", fig->errors);
	{
		struct sc_verify_figures v;

		sc_verify_figures(pr, &v);
		fprintf(f, "%" PRIu64 ",", v.mismatches);
	}
	csv_str(f, sc_phase_status_name(pr->status), 1);
}

static void ranks_csv_header(FILE *f)
{
	fputs("phase,rank,node,host,bytes,MBps,read_p99_us,write_p99_us,errors,verify_mismatches\n",
	      f);
}

static void ranks_csv_rows(FILE *f, const struct sc_run_record *rec,
			   const struct sc_phase_record *pr)
{
	const struct sc_phase *ph = report_phase_of(rec, pr->phase);
	int p99 = pct_index(99);

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		csv_str(f, ph ? ph->name : "", 0);
		fprintf(f, "%u,%u,", r->rank, r->node);
		csv_str(f, r->host, 0);
		fprintf(f, "%" PRIu64 ",%.3f,", r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE],
			report_rank_bw(pr, r) / BYTES_PER_MB);
		csv_us(f, &r->lat[SC_DIR_READ], p99);
		csv_us(f, &r->lat[SC_DIR_WRITE], p99);
		fprintf(f, "%" PRIu64 ",%" PRIu64 "\n", r->errors, r->verify_mismatches);
	}
}

/* The cluster's per-second series: second k after the measured start. */
static void series_csv_rows(FILE *f, const struct sc_run_record *rec,
			    const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	const struct sc_phase *ph = report_phase_of(rec, pr->phase);

	for (uint32_t k = 0; k < fig->nseconds; k++) {
		const struct sc_second *s = &fig->seconds[k];

		csv_str(f, ph ? ph->name : "", 0);
		fprintf(f, "%u,%.6f,%.6f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f\n", k,
			(double)s->bytes[SC_DIR_READ] / 1e6, (double)s->bytes[SC_DIR_WRITE] / 1e6,
			s->ios[SC_DIR_READ], s->ios[SC_DIR_WRITE],
			(double)s->max_lat_ns[SC_DIR_READ] / 1e3,
			(double)s->max_lat_ns[SC_DIR_WRITE] / 1e3);
	}
}

int report_csv_init(struct report_csv *c)
{
	c->phases = open_memstream(&c->phases_buf, &c->phases_len);
	c->ranks = open_memstream(&c->ranks_buf, &c->ranks_len);
	c->series = open_memstream(&c->series_buf, &c->series_len);
	if (!c->phases || !c->ranks || !c->series)
		return -ENOMEM;
	phases_csv_header(c->phases);
	ranks_csv_header(c->ranks);
	fputs("phase,second,read_MB,written_MB,ios_read,ios_written,max_read_latency_us,"
	      "max_write_latency_us\n",
	      c->series);
	return 0;
}

void report_csv_phase(struct report_csv *c, const struct sc_run_record *rec,
		      const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	phases_csv_row(c->phases, rec, pr, fig);
	ranks_csv_rows(c->ranks, rec, pr);
	series_csv_rows(c->series, rec, pr, fig);
}

int report_csv_finish(struct report_csv *c)
{
	int rc;

	if (ferror(c->phases) || ferror(c->ranks) || ferror(c->series))
		return -ENOMEM;
	/* the memstreams' buffers are complete once closed */
	rc = fclose(c->phases) | fclose(c->ranks) | fclose(c->series);
	c->phases = c->ranks = c->series = NULL;
	return rc ? -ENOMEM : 0;
}

int report_csv_write(const struct report_csv *c, const char *dir, char *err, size_t errlen)
{
	int rc = report_write_named(dir, "phases.csv", c->phases_buf, c->phases_len, err, errlen);

	if (!rc)
		rc = report_write_named(dir, "ranks.csv", c->ranks_buf, c->ranks_len, err, errlen);
	if (!rc)
		rc = report_write_named(dir, "timeseries.csv", c->series_buf, c->series_len, err,
					errlen);
	return rc;
}

void report_csv_exit(struct report_csv *c)
{
	if (c->phases)
		fclose(c->phases);
	if (c->ranks)
		fclose(c->ranks);
	if (c->series)
		fclose(c->series);
	free(c->phases_buf);
	free(c->ranks_buf);
	free(c->series_buf);
	*c = (struct report_csv){0};
}
