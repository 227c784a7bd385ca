/* compare_html.c -- a comparison as compare.html: difference maps (green
 * where B is better, red where worse) of every sweep and of the other
 * shared phases, checkpoint durations of both runs overlaid, the largest
 * differences and a table per phase. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare_report.h"
#include "html_page.h"
#include "svg.h"

/* Largest differences shown on the page. */
#define LARGEST_SHOWN 20u
/* Checkpoint series on one chart: A and B, writes and restores. */
#define CKPT_SERIES 4

/* What print(m, c) prints, escaped, between open and close. */
static void printed(FILE *f, const struct sc_compare *c,
		    void (*print)(FILE *, const struct sc_compare *), const char *open,
		    const char *close)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	print(m, c);
	if (fclose(m) == 0 && len) {
		fputs(open, f);
		sc_html_text(f, text);
		fputs(close, f);
	}
	free(text);
}

static void print_largest(FILE *f, const struct sc_compare *c)
{
	sc_report_compare_largest(f, c, LARGEST_SHOWN);
}

/* The largest differences as the command prints them, in <pre>. */
static void largest(FILE *f, const struct sc_compare *c)
{
	sc_html_heading(f, 2, "largest", "Largest differences");
	printed(f, c, print_largest, "<pre>", "</pre>\n");
}

/* The settings that differ between paired phases, in a box that stands
 * out, and how "no difference" is decided. */
static void warnings(FILE *f, const struct sc_compare *c)
{
	printed(f, c, sc_report_compare_method, "<p class=\"note\">", "</p>\n");
	if (!c->nwarnings)
		return;
	fputs("<div class=\"warning\" style=\"border-left:4px solid #d62728;"
	      "background:#fff4f0;padding:0.3em 0.8em;margin:0.8em 0\">\n"
	      "<p><strong>Warning: paired phases differ in their settings</strong> (setting: "
	      "A's value, B's value): their changes are not those of the drives alone.</p>\n",
	      f);
	printed(f, c, sc_report_compare_warnings, "<pre>", "</pre>\n");
	fputs("</div>\n", f);
}

/* The change of figures figs[0..ncols) of the shared phases that are not
 * sweep cells: a row per phase.  lower_better for latency maps. */
static void phases_map(FILE *f, const struct sc_compare *c, const char *title, const int *figs,
		       uint32_t ncols, bool lower_better)
{
	const char **rows = calloc(c->nphases + 1, sizeof(*rows));
	const char *cols[SC_CMP_NFIGS];
	double *v = calloc((size_t)(c->nphases + 1) * ncols, sizeof(*v));
	uint32_t n = 0;

	if (!rows || !v)
		goto out;
	for (uint32_t k = 0; k < ncols; k++)
		cols[k] = sc_compare_fig_info(figs[k])->name;
	for (uint32_t i = 0; i < c->nphases; i++) {
		if (c->phases[i].sweep >= 0)
			continue;
		rows[n] = c->phases[i].label;
		for (uint32_t k = 0; k < ncols; k++)
			v[n * ncols + k] = c->phases[i].v[figs[k]].change_pct;
		n++;
	}
	if (n)
		sc_svg_heatmap(f, &(struct sc_svg_heatmap){.title = title,
							   .row_label = "phase",
							   .col_label = "figure",
							   .rows = rows,
							   .cols = cols,
							   .nrows = n,
							   .ncols = ncols,
							   .v = v,
							   .cell_unit = "%",
							   .lower_better = lower_better,
							   .diverging = true});
out:
	free(rows);
	free(v);
}

/* The difference maps of the phases that are not sweep cells. */
static void phase_maps(FILE *f, const struct sc_compare *c)
{
	static const int thr[] = {SC_CMP_BW, SC_CMP_IOPS};
	const int lat[] = {sc_compare_lat_fig(SC_CMP_DIR_ALL, SC_CMP_P50),
			   sc_compare_lat_fig(SC_CMP_DIR_ALL, SC_CMP_P99),
			   sc_compare_lat_fig(SC_CMP_DIR_ALL, SC_CMP_P9999)};
	uint32_t n = 0;

	for (uint32_t i = 0; i < c->nphases; i++)
		n += c->phases[i].sweep < 0;
	if (!n)
		return;
	sc_html_heading(f, 2, "phases", "Difference map: phases");
	sc_html_note(f, "Change of B against A in %, per phase: green where B is better "
			"(higher bandwidth and IOPS, lower latency), red where it is worse. "
			"Latency is the service time of reads and writes together.");
	phases_map(f, c, "Bandwidth and IOPS: change of B against A (%)", thr, 2, false);
	phases_map(f, c, "Latency p50, p99, p99.99: change of B against A (%)", lat, 3, true);
}

/* The change of figure fig over rw value r of sweep s, bs by iodepth: in
 * % of A (absolute false) or B - A in the figure's unit. */
static void sweep_map(FILE *f, const struct sc_compare *c, const struct sc_compare_sweep *s,
		      uint32_t r, int fig, bool absolute)
{
	uint32_t nb = s->naxis[SC_SWEEP_BS], nq = s->naxis[SC_SWEEP_IODEPTH];
	double *v = calloc((size_t)nb * nq + 1, sizeof(*v)), limit = 0;
	const struct sc_compare_fig_info *fi = sc_compare_fig_info(fig);
	char title[256];

	if (!v)
		return;
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t q = 0; q < nq; q++) {
			const struct sc_compare_phase *p =
			    sc_compare_cell(c, s, (const uint32_t[SC_SWEEP_AXES]){r, b, q});
			double x = !p	      ? NAN
				   : absolute ? p->v[fig].change / fi->scale
					      : p->v[fig].change_pct;

			v[b * nq + q] = x;
			if (isfinite(x))
				limit = fmax(limit, fabs(x));
		}
	if (absolute)
		snprintf(title, sizeof(title), "%s, %s: change of %s, B - A (%s)", s->name,
			 s->labels[SC_SWEEP_RW][r], fi->name, fi->unit);
	else
		snprintf(title, sizeof(title), "%s, %s: change of %s, B against A (%%)", s->name,
			 s->labels[SC_SWEEP_RW][r], fi->name);
	sc_svg_heatmap(
	    f, &(struct sc_svg_heatmap){.title = title,
					.row_label = "block size",
					.col_label = "queue depth",
					.rows = (const char *const *)s->labels[SC_SWEEP_BS],
					.cols = (const char *const *)s->labels[SC_SWEEP_IODEPTH],
					.nrows = nb,
					.ncols = nq,
					.v = v,
					.cell_unit = absolute ? fi->unit : "%",
					.lower_better = fi->lower_better,
					.diverging = true,
					.limit_pct = absolute ? (limit > 0 ? limit : 1) : 0});
	free(v);
}

static void sweep_maps(FILE *f, const struct sc_compare *c)
{
	char title[256];

	for (uint32_t k = 0; k < c->nsweeps; k++) {
		const struct sc_compare_sweep *s = &c->sweeps[k];

		snprintf(title, sizeof(title), "Difference map: sweep %s", s->name);
		sc_html_heading(f, 2, NULL, title);
		sc_html_note(f, "Each figure twice: the change in % of A, then B - A in the "
				"figure's unit (coloured against the largest |B - A| of the map).");
		for (uint32_t r = 0; r < s->naxis[SC_SWEEP_RW]; r++)
			for (int abs = 0; abs < 2; abs++) {
				sweep_map(f, c, s, r, SC_CMP_BW, abs);
				sweep_map(f, c, s, r,
					  sc_compare_lat_fig(SC_CMP_DIR_ALL, SC_CMP_P99), abs);
			}
	}
}

/* Group k's durations per checkpoint, A and B on one chart. */
static void ckpt_chart(FILE *f, const struct sc_compare_ckpt *k)
{
	static const char *const names[CKPT_SERIES] = {"A write", "B write", "A restore",
						       "B restore"};
	struct sc_svg_series s[CKPT_SERIES];
	double *x[CKPT_SERIES] = {NULL}, *y[CKPT_SERIES] = {NULL};
	uint32_t ns = 0;
	char title[256];

	for (int j = 0; j < CKPT_SERIES; j++) {
		uint32_t n = j < 2 ? k->nwrite[j] : k->nrestore[j - 2];
		const double *ns_of = j < 2 ? k->write_ns[j] : k->restore_ns[j - 2];

		if (!n)
			continue;
		x[j] = calloc(n, sizeof(double));
		y[j] = calloc(n, sizeof(double));
		if (!x[j] || !y[j])
			goto out;
		for (uint32_t i = 0; i < n; i++) {
			x[j][i] = i + 1;
			y[j][i] = ns_of[i] / 1e6;
		}
		s[ns++] = (struct sc_svg_series){
		    .name = names[j], .x = x[j], .y = y[j], .n = n, .markers = true};
	}
	snprintf(title, sizeof(title), "Checkpoint %s: duration per checkpoint, A and B", k->name);
	sc_svg_lines(f,
		     &(struct sc_svg_chart){.title = title,
					    .x = {.label = "checkpoint (number)"},
					    .y = {.label = "duration (ms)", .from_zero = true}},
		     s, ns);
out:
	for (int j = 0; j < CKPT_SERIES; j++) {
		free(x[j]);
		free(y[j]);
	}
}

/* Side s of v: its mean, and "± sd (n runs)" when it has several. */
static void side_cell(FILE *f, const struct sc_compare_value *v, int s,
		      const struct sc_compare_fig_info *fi)
{
	const struct sc_welch_side *w = &v->side[s];
	char buf[96];

	if (w->n < 2 || !isfinite(w->mean)) {
		sc_html_num(f, "%.1f", w->mean / fi->scale);
		return;
	}
	snprintf(buf, sizeof(buf), "%.1f ± %.1f (%.1f..%.1f, %u runs)", w->mean / fi->scale,
		 w->sd / fi->scale, w->min / fi->scale, w->max / fi->scale, w->n);
	sc_html_cell(f, buf);
}

static void phase_table(FILE *f, const struct sc_compare_phase *p)
{
	static const char *const head[] = {
	    "figure", "unit", "A", "B", "B - A", "change (%)", "95% interval of the change (%)",
	    "B is"};
	char buf[96];

	sc_html_table_begin(f, p->label, head, 8);
	for (int k = 0; k < SC_CMP_NFIGS; k++) {
		const struct sc_compare_fig_info *fi = sc_compare_fig_info(k);
		const struct sc_compare_value *v = &p->v[k];

		if (!sc_compare_fig_own(p, k))
			continue;
		sc_html_row_begin(f);
		sc_html_cell(f, fi->name);
		sc_html_cell(f, fi->unit);
		side_cell(f, v, 0, fi);
		side_cell(f, v, 1, fi);
		sc_html_num(f, "%+.1f", v->change / fi->scale);
		sc_html_num(f, "%+.1f", v->change_pct);
		if (isfinite(v->ci_lo_pct) && isfinite(v->ci_hi_pct))
			snprintf(buf, sizeof(buf), "%+.1f .. %+.1f", v->ci_lo_pct, v->ci_hi_pct);
		else
			snprintf(buf, sizeof(buf), "unknown");
		sc_html_cell(f, buf);
		sc_html_cell(f, sc_compare_verdict_name(v->verdict));
		sc_html_row_end(f);
	}
	sc_html_table_end(f);
	for (uint32_t i = 0; i < p->nsettings; i++) {
		snprintf(buf, sizeof(buf), "Settings differ: %s is ", p->settings[i].name);
		fputs("<p class=\"note\"><strong>", f);
		sc_html_text(f, buf);
		sc_html_text(f, p->settings[i].a);
		fputs(" in A and ", f);
		sc_html_text(f, p->settings[i].b);
		fputs(" in B.</strong></p>\n", f);
	}
}

static void only_note(FILE *f, const char *run, const char *const *names, uint32_t n)
{
	if (!n)
		return;
	fprintf(f, "<p class=\"note\">Only in %s (not compared): ", run);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		sc_html_text(f, names[i]);
	}
	fputs("</p>\n", f);
}

/* Every run of each side, when a side has several. */
static void runs_note(FILE *f, const struct sc_compare *c, const struct sc_compare_files *files)
{
	if (files->n[0] < 2 && files->n[1] < 2)
		return;
	fputs("<p class=\"note\">", f);
	for (int s = 0; s < 2; s++) {
		fprintf(f, "%s%c, %u run%s: ", s ? "; " : "", s ? 'B' : 'A', files->n[s],
			files->n[s] > 1 ? "s" : "");
		for (uint32_t r = 0; r < files->n[s]; r++) {
			fputs(r ? ", " : "", f);
			sc_html_text(f, files->side[s][r]);
			fputs(" (run ", f);
			sc_html_text(f, c->runs[s][r]->plan.run_id);
			fputs(")", f);
		}
	}
	fputs("</p>\n", f);
}

void sc_report_compare_html(FILE *f, const struct sc_compare *c,
			    const struct sc_compare_files *files)
{
	char sub[1024];

	snprintf(sub, sizeof(sub), "A = %s (run %s%s), B = %s (run %s%s)", files->a,
		 c->a->plan.run_id, files->n[0] > 1 ? " and more" : "", files->b, c->b->plan.run_id,
		 files->n[1] > 1 ? " and more" : "");
	sc_html_page_begin(f, "ssdcluster compare: B against A", sub);
	runs_note(f, c, files);
	warnings(f, c);
	largest(f, c);
	phase_maps(f, c);
	sweep_maps(f, c);
	if (c->nckpt)
		sc_html_heading(f, 2, "checkpoints", "Checkpoint durations");
	for (uint32_t k = 0; k < c->nckpt; k++)
		ckpt_chart(f, &c->ckpt[k]);
	sc_html_heading(f, 2, "tables", "Figures per phase");
	for (uint32_t i = 0; i < c->nphases; i++)
		phase_table(f, &c->phases[i]);
	only_note(f, "A", c->only_a, c->nonly_a);
	only_note(f, "B", c->only_b, c->nonly_b);
	sc_html_page_end(f);
}
