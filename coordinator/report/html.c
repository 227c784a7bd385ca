/* html.c -- report.html: one self-contained page per run in html_page.h's
 * frame: the run summary, its drives, the per-phase cluster table, a
 * section per phase (its charts from html_phase.c), the checkpoints and
 * sweeps, then html_run.c's sections (steady state, temperature, verdict,
 * outliers, model, endurance).  Formats the figures of analysis/ and
 * model/ only. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/aggregate.h"
#include "analysis/inventory.h"
#include "analysis/stages.h"
#include "analysis/sweep_matrix.h"
#include "html_page.h"
#include "html_priv.h"
#include "html_run.h"
#include "report_priv.h"

/* Latencies in the tables are microseconds, data sizes MB (10^6 bytes). */
#define NS_PER_US    1e3
#define NS_PER_S     1e9
#define BYTES_PER_GB 1e9
/* A fraction shown as a percentage. */
#define PERCENT 100.0
/* Room for a short formatted value or list. */
#define CELL_MAX 256

/* ------------------------------------------------------------ run summary */

/* A row of a two-column table: what, and its value. */
static void fact_row(FILE *f, const char *what, const char *value)
{
	sc_html_row_begin(f);
	sc_html_cell(f, what);
	sc_html_cell(f, value);
	sc_html_row_end(f);
}

static void fact_u64(FILE *f, const char *what, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	fact_row(f, what, buf);
}

/* "0 (host-a), 1 (host-b)": the nodes and hosts of the run's first phase
 * (every phase runs on every rank), by node index, from its node rows
 * (each named by its lowest rank's host). */
static void hosts_text(char *buf, size_t len, const struct sc_run_record *rec,
		       const struct sc_run_figures *fg)
{
	const struct sc_phase_figures *fig = fg->nphases ? &fg->phases[0] : NULL;
	size_t n = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; fig && i < fig->nodes_len && n < len; i++) {
		const struct sc_node_row *row = &fig->nodes[i];

		if (row->nranks && row->node < rec->nnodes)
			n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu32 " (%s)", n ? ", " : "",
					      row->node, row->host);
	}
}

static int summary_section(FILE *f, const struct sc_run_record *rec,
			   const struct sc_run_figures *fg)
{
	static const char *const head[] = {"item", "value"};
	const struct sc_plan *plan = &rec->plan;
	char buf[CELL_MAX * 4];
	time_t t = (time_t)(rec->started_unix_ns / (int64_t)NS_PER_S);
	struct tm tm;
	size_t len;
	char *echo;

	fputs("<section id=\"summary\">\n", f);
	sc_html_heading(f, 2, NULL, "Run summary");
	sc_html_table_begin(f, NULL, head, 2);
	fact_row(f, "ssdcluster version", rec->version);
	if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		fact_row(f, "started", buf);
	fact_row(f, "run id", plan->run_id);
	fact_row(f, "config", plan->config_path);
	fact_u64(f, "ranks", rec->nranks);
	fact_u64(f, "nodes", rec->nnodes);
	hosts_text(buf, sizeof(buf), rec, fg);
	fact_row(f, "hosts (node)", buf[0] ? buf : "-");
	for (uint32_t i = 0; i < plan->ntargets; i++) {
		snprintf(buf, sizeof(buf), "%s (%s%s%s)", plan->targets[i].path,
			 sc_target_kind_name(plan->targets[i].kind),
			 plan->targets[i].hosts ? ", hosts " : "",
			 plan->targets[i].hosts ? plan->targets[i].hosts : "");
		fact_row(f, i ? "" : "targets", buf);
	}
	fact_u64(f, "phases finished", rec->nphases);
	fact_u64(f, "phases planned", plan->nphases);
	sc_html_table_end(f);

	echo = sc_report_plan_echo_text(plan, &len);
	if (!echo)
		return -ENOMEM;
	fputs("<details><summary>The plan as results.json echoes it</summary>\n<pre>", f);
	sc_html_text(f, echo);
	fputs("</pre></details>\n</section>\n", f);
	free(echo);
	return 0;
}

/* ----------------------------------------------------------------- drives */

static void ranks_text(char *buf, size_t len, const uint32_t *ranks, uint32_t n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu32, i ? ", " : "", ranks[i]);
}

static void drive_row(FILE *f, const struct sc_run_record *rec, const struct sc_inventory_entry *x)
{
	const struct sc_inventory_drive *d = x->drive;
	char buf[CELL_MAX];

	sc_html_row_begin(f);
	sc_html_num(f, "%.0f", x->node);
	sc_html_cell(f, x->host);
	sc_html_cell(f, x->target < rec->plan.ntargets ? rec->plan.targets[x->target].path : "?");
	ranks_text(buf, sizeof(buf), x->ranks, x->nranks);
	sc_html_cell(f, buf);
	sc_html_cell(f, d ? d->device : "-");
	sc_html_cell(f, d ? d->model : "-");
	sc_html_cell(f, d ? d->serial : "-");
	sc_html_cell(f, d ? d->firmware : "-");
	if (d && d->capacity_bytes)
		sc_html_num(f, "%.1f", (double)d->capacity_bytes / BYTES_PER_GB);
	else
		sc_html_cell(f, "-");
	sc_html_cell(f, d ? "NVMe" : x->none);
	sc_html_row_end(f);
}

static int drives_section(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg)
{
	static const char *const head[] = {"node",	    "host",	"target", "ranks",
					   "device",	    "model",	"serial", "firmware",
					   "capacity (GB)", "telemetry"};
	const struct sc_inventory *inv = &fg->inventory;
	char note[CELL_MAX];

	fputs("<section id=\"drives\">\n", f);
	sc_html_heading(f, 2, NULL, "Drives");
	if (!inv->n)
		sc_html_note(f, "No phase looked at its drives yet.");
	if (inv->n > SC_HTML_ROWS_SHOWN) {
		snprintf(note, sizeof(note),
			 "The first %u of %" PRIu32 " drives, by node; every drive: results.json "
			 "inventory.",
			 SC_HTML_ROWS_SHOWN, inv->n);
		sc_html_note(f, note);
	}
	if (inv->n)
		sc_html_table_begin(f, "Each drive once per node, with the ranks that used it",
				    head, sizeof(head) / sizeof(head[0]));
	for (uint32_t i = 0; i < inv->n && i < SC_HTML_ROWS_SHOWN; i++)
		drive_row(f, rec, &inv->entries[i]);
	if (inv->n)
		sc_html_table_end(f);
	fputs("</section>\n", f);
	return 0;
}

/* ------------------------------------------------------ per-phase table */

static const char *const phase_head[] = {"phase",
					 "kind",
					 "rw",
					 "status",
					 "dir",
					 "data (MB)",
					 "last-done (MB/s)",
					 "first-done (MB/s)",
					 "IOPS",
					 "mean (us)",
					 "p50 (us)",
					 "p99 (us)",
					 "p99.99 (us)",
					 "errors"};

/* The latency cells of one direction (mean, p50, p99, p99.99 in us). */
static void lat_cells(FILE *f, const struct sc_lat_summary *s)
{
	static const double pts[] = {50, 99, 99.99};

	sc_html_num(f, "%.1f", s->mean_ns / NS_PER_US);
	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		uint64_t ns;

		if (sc_lat_pct(s, sc_pct_index(pts[i]), &ns))
			sc_html_num(f, "%.1f", (double)ns / NS_PER_US);
		else /* too few samples (pct_support.h) */
			sc_html_cell(f, s->count ? "n/a" : "-");
	}
}

/* The first of the phases shown in detail: the last SC_HTML_PHASES_DETAILED. */
static uint32_t first_detailed(const struct sc_run_record *rec)
{
	return rec->nphases > SC_HTML_PHASES_DETAILED ? rec->nphases - SC_HTML_PHASES_DETAILED
						      : 0;
}

/* One row per direction that moved I/Os (one with "-" when none did): the
 * phase's figures on its first row, the latencies of each direction; its
 * name links to its section when linked (it is shown in detail). */
static void phase_rows(FILE *f, const struct sc_phase *ph, const struct sc_phase_record *pr,
		       const struct sc_phase_figures *fig, bool linked)
{
	static const char *const dir[SC_DIR_COUNT] = {
	    [SC_DIR_READ] = "read", [SC_DIR_WRITE] = "write"};
	bool first = true;

	for (int d = 0; d < SC_DIR_COUNT || first; d++) {
		bool none = d >= SC_DIR_COUNT;

		if (!none && !fig->lat[d].count)
			continue;
		sc_html_row_begin(f);
		fputs("<td>", f);
		if (linked)
			fprintf(f, "<a href=\"#phase-%" PRIu32 "\">", pr->phase);
		sc_html_text(f, ph ? ph->name : "?");
		fputs(linked ? "</a></td>" : "</td>", f);
		sc_html_cell(f, first && ph ? sc_workload_name(ph->workload) : "");
		sc_html_cell(f, first && ph ? sc_rw_name(ph->io.rw) : "");
		sc_html_cell(f, first ? sc_phase_status_name(pr->status) : "");
		sc_html_cell(f, none ? "-" : dir[d]);
		if (first) {
			sc_html_num(f, "%.3f", (double)fig->total_bytes / SC_BYTES_PER_MB);
			sc_html_num(f, "%.1f", fig->lastdone_bw_bytes_per_s / SC_BYTES_PER_MB);
			sc_html_num(f, "%.1f", fig->firstdone_bw_bytes_per_s / SC_BYTES_PER_MB);
			sc_html_num(f, "%.0f", fig->iops_total);
		} else {
			for (int k = 0; k < 4; k++)
				sc_html_cell(f, "");
		}
		if (none)
			for (int k = 0; k < 4; k++)
				sc_html_cell(f, "-");
		else
			lat_cells(f, &fig->lat[d]);
		if (first)
			sc_html_num(f, "%.0f", (double)fig->errors);
		else
			sc_html_cell(f, "");
		sc_html_row_end(f);
		first = false;
	}
}

static int phase_table(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg)
{
	fputs("<section id=\"phase-table\">\n", f);
	sc_html_heading(f, 2, NULL, "Phases: cluster figures");
	if (!rec->nphases) {
		sc_html_note(f, "No phase has finished yet.");
		fputs("</section>\n", f);
		return 0;
	}
	/* 14 columns: a smaller font fits them in the page's width; a narrow
	 * screen scrolls them sideways rather than cutting them */
	fputs("<div style=\"overflow-x:auto;font-size:0.85em\">\n", f);
	sc_html_table_begin(f,
			    "One row per direction of each phase. Last-done bandwidth = all bytes "
			    "/ (latest end - earliest start); first-done = bytes moved until the "
			    "first rank finished / that time; latency percentiles from the merged "
			    "histograms of every rank. MB = 10^6 bytes.",
			    phase_head, sizeof(phase_head) / sizeof(phase_head[0]));
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];

		phase_rows(f, sc_report_phase_of(rec, pr->phase), pr, &fg->phases[i],
			   i >= first_detailed(rec));
	}
	sc_html_table_end(f);
	fputs("</div>\n</section>\n", f);
	return 0;
}

/* ------------------------------------------------------- phase sections */

/* The facts of a phase in one line under its heading. */
static void phase_facts(FILE *f, const struct sc_phase *ph, const struct sc_phase_record *pr,
			const struct sc_phase_figures *fig, const struct sc_stage_row *st)
{
	char bs[32], dur[32], line[CELL_MAX * 2];

	if (ph->workload == SC_WORKLOAD_IDLE) { /* no I/O: only how long it lasted */
		sc_fmt_duration(dur, sizeof(dur),
				st->duration_ns > 0 ? (uint64_t)st->duration_ns : 0);
		snprintf(line, sizeof(line), "idle phase: no I/O for %s; status %s", dur,
			 sc_phase_status_name(pr->status));
		sc_html_note(f, line);
		return;
	}
	sc_fmt_bytes(bs, sizeof(bs), ph->io.bs_bytes);
	sc_fmt_duration(dur, sizeof(dur),
			fig->lastdone_ns > fig->window_start_ns
			    ? (uint64_t)(fig->lastdone_ns - fig->window_start_ns)
			    : 0);
	snprintf(line, sizeof(line),
		 "%s phase, rw %s, block size %s, queue depth %" PRIu32 ", %" PRIu32
		 " job(s) per rank; %" PRIu32 " rank(s) on %" PRIu32
		 " node(s); status %s; measured for %s",
		 sc_workload_name(ph->workload), sc_rw_name(ph->io.rw), bs, ph->io.iodepth,
		 ph->io.jobs, fig->nranks, fig->nnodes, sc_phase_status_name(pr->status), dur);
	sc_html_note(f, line);
	if (fig->nseconds < 2) /* under a second: no series to speak of */
		line[0] = '\0';
	else if (isfinite(st->volatility))
		snprintf(line, sizeof(line),
			 "Volatility of the %s (stddev / mean of the cluster's bytes per complete "
			 "second): %.1f%%.",
			 st->dir == SC_DIR_READ ? "reads" : "writes", st->volatility * PERCENT);
	else
		snprintf(line, sizeof(line),
			 "Volatility of the %s: n/a (it needs 2 complete seconds with I/O; the "
			 "phase had %" PRIu32 ").",
			 st->dir == SC_DIR_READ ? "reads" : "writes", fig->nseconds - 1);
	if (line[0])
		sc_html_note(f, line);
	if (fig->nranks && fig->slowest_host) {
		snprintf(line, sizeof(line), "Slowest: rank %" PRIu32 " on node %" PRIu32 " (%s).",
			 fig->slowest_rank, fig->slowest_node, fig->slowest_host);
		sc_html_note(f, line);
	}
}

/* The section of rec->phases[i], its figures fg->phases[i]. */
static int phase_section(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
			 uint32_t i)
{
	const struct sc_phase_record *pr = &rec->phases[i];
	const struct sc_phase *ph = sc_report_phase_of(rec, pr->phase);
	const struct sc_phase_figures *fig = &fg->phases[i];
	char id[32];
	int rc;

	if (!ph)
		return 0;
	snprintf(id, sizeof(id), "phase-%" PRIu32, pr->phase);
	fprintf(f, "<section class=\"phase kind-%s\" id=\"%s\">\n", sc_workload_name(ph->workload),
		id);
	sc_html_heading(f, 2, NULL, ph->name);
	phase_facts(f, ph, pr, fig, &fg->work[i].stage);
	rc = sc_html_phase_charts(f, rec, fg, i);
	fputs("</section>\n", f);
	return rc;
}

/* Where the phases not shown in detail are: a section of its own, in the
 * place of the first phase's (the contents' "each phase" leads to it). */
static void folded_note(FILE *f, const struct sc_run_record *rec)
{
	uint32_t first = first_detailed(rec);
	char text[512];

	if (!first)
		return;
	fputs("<section class=\"phase\" id=\"phase-0\">\n", f);
	sc_html_heading(f, 2, NULL, "Earlier phases");
	snprintf(text, sizeof(text),
		 "The first %" PRIu32 " of the %" PRIu32 " phases are not shown here phase by "
		 "phase, only the last %u: each has its rows in the phase table above, and "
		 "every figure of every phase is in results.json, phases.csv, ranks.csv and "
		 "timeseries.csv.",
		 first, rec->nphases, SC_HTML_PHASES_DETAILED);
	sc_html_note(f, text);
	fputs("</section>\n", f);
}

void sc_report_html_sections_exit(struct sc_report_html_sections *s)
{
	for (uint32_t k = 0; k < SC_HTML_PHASES_DETAILED; k++)
		free(s->text[k]);
	memset(s, 0, sizeof(*s));
}

int sc_report_html_section_keep(const struct sc_run_record *rec, const struct sc_run_figures *fg,
				uint32_t i, struct sc_report_html_sections *s)
{
	uint32_t slot = i % SC_HTML_PHASES_DETAILED;
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int rc;

	if (s->phase[slot] == i + 1)
		return 0;
	m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	rc = phase_section(m, rec, fg, i);
	if ((fclose(m) || !text) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(text);
		return rc;
	}
	free(s->text[slot]);
	s->text[slot] = text;
	s->len[slot] = len;
	s->phase[slot] = i + 1;
	return 0;
}

/* The section of rec->phases[i] from s when it holds it, else rendered
 * (and kept in s, when given). */
static int kept_section(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
			uint32_t i, struct sc_report_html_sections *s)
{
	uint32_t slot = i % SC_HTML_PHASES_DETAILED;
	int rc;

	if (!s)
		return phase_section(f, rec, fg, i);
	rc = sc_report_html_section_keep(rec, fg, i, s);
	if (!rc)
		fwrite(s->text[slot], 1, s->len[slot], f);
	return rc;
}

static bool has_workload(const struct sc_run_record *rec, enum sc_workload w)
{
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase *ph = sc_report_phase_of(rec, rec->phases[i].phase);

		if (ph && ph->workload == w)
			return true;
	}
	return false;
}

/* The checkpoint groups and the sweeps of the run, each in its section. */
static int workload_sections(FILE *f, const struct sc_run_record *rec,
			     const struct sc_run_figures *fg)
{
	int rc = 0;

	if (has_workload(rec, SC_WORKLOAD_CHECKPOINT)) {
		fputs("<section id=\"checkpoints\">\n", f);
		sc_html_heading(f, 2, NULL, "Checkpoints");
		rc = sc_html_checkpoints(f, fg);
		fputs("</section>\n", f);
		if (rc)
			return rc;
	}
	if (fg->sweeps.n) {
		fputs("<section id=\"sweeps\">\n", f);
		sc_html_heading(f, 2, NULL, "Sweeps");
		rc = sc_html_sweeps(f, &fg->sweeps);
		fputs("</section>\n", f);
	}
	return rc;
}

/* ------------------------------------------------------------- the page */

/* The page's sections, in the order they are shown, for its contents. */
static const struct {
	const char *id, *title;
} sections[] = {
    {"summary", "run summary"},	    {"drives", "drives"},
    {"phase-table", "phases"},	    {"verdict", "verdict"},
    {"checkpoints", "checkpoints"}, {"sweeps", "sweeps"},
    {"steady-state", "steady state"}, {"temperature", "temperature"},
    {"model", "cluster model"},	    {"endurance", "endurance"},
    {"phase-0", "each phase"},
};

/* A line of links to the sections the body holds. */
static void contents(FILE *f, const char *body)
{
	char mark[64];
	int n = 0;

	fputs("<nav><p class=\"note\">Contents:", f);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		snprintf(mark, sizeof(mark), " id=\"%s\">", sections[i].id);
		if (!strstr(body, mark))
			continue;
		fprintf(f, "%s <a href=\"#%s\">%s</a>", n++ ? " |" : "", sections[i].id,
			sections[i].title);
	}
	fputs("</p></nav>\n", f);
}

static int write_body(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      const struct sc_model_projection *proj, const char *why,
		      struct sc_report_html_sections *kept)
{
	int rc = summary_section(f, rec, fg);

	if (!rc)
		rc = drives_section(f, rec, fg);
	if (!rc)
		rc = phase_table(f, rec, fg);
	if (!rc)
		rc = sc_html_verdict(f, fg);
	if (!rc)
		rc = workload_sections(f, rec, fg);
	if (!rc)
		rc = sc_html_steady(f, fg);
	if (!rc)
		rc = sc_html_temperature(f, rec, fg);
	if (!rc)
		rc = sc_html_model(f, rec, proj, why);
	if (!rc)
		rc = sc_html_endurance(f, rec, fg);
	/* the detail of the last phases last: a run has hundreds of phases */
	if (!rc)
		folded_note(f, rec);
	for (uint32_t i = first_detailed(rec); i < rec->nphases && !rc; i++)
		rc = kept_section(f, rec, fg, i, kept);
	return rc;
}

/* The page: its title, the contents, then the body written first. */
static int write_page(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      const struct sc_model_projection *proj, const char *why,
		      struct sc_report_html_sections *kept)
{
	char title[CELL_MAX], sub[CELL_MAX * 2], *body = NULL;
	size_t len = 0;
	FILE *b = open_memstream(&body, &len);
	int rc;

	if (!b)
		return -ENOMEM;
	rc = write_body(b, rec, fg, proj, why, kept);
	if ((fclose(b) || !body) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(body);
		return rc;
	}
	snprintf(title, sizeof(title), "ssdcluster run %s", rec->plan.run_id);
	snprintf(sub, sizeof(sub),
		 "%s: %" PRIu32 " rank(s) on %" PRIu32 " node(s), %" PRIu32 " of %" PRIu32
		 " phase(s) finished",
		 rec->plan.config_path ? rec->plan.config_path : "?", rec->nranks, rec->nnodes,
		 rec->nphases, rec->plan.nphases);
	sc_html_page_begin(f, title, sub);
	contents(f, body);
	fwrite(body, 1, len, f);
	sc_html_page_end(f);
	free(body);
	return 0;
}

int sc_report_html(const char *dir, const struct sc_run_record *rec,
		   const struct sc_run_figures *fg, const struct sc_model_projection *proj,
		   const char *why, struct sc_report_html_sections *kept, char *err,
		   size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f) {
		sc_report_set_err(err, errlen, "report.html: out of memory");
		return -ENOMEM;
	}
	rc = write_page(f, rec, fg, proj, why, kept);
	if (ferror(f) && !rc)
		rc = -ENOMEM;
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc) {
		sc_report_set_err(err, errlen, "report.html: out of memory while building it");
		free(text);
		return rc;
	}
	rc = sc_report_write_named(dir, "report.html", text, len, err, errlen);
	free(text);
	return rc;
}
