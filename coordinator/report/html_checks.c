/* html_checks.c -- the PASS/FAIL table of report.html and the outliers:
 * the checks of analysis/verdict.h and analysis/outliers.h, worded as the
 * printed table words them (report/verdict_table.h). */
#include "html_run.h"

#include <errno.h>
#include <inttypes.h>

#include "html_page.h"
#include "report_priv.h"
#include "units.h"
#include "verdict_table.h"

/* Room for one formatted figure or place. */
#define FIG_MAX	  64
#define PLACE_MAX 640
#define TEXT_MAX  512
/* A fraction shown as a percentage. */
#define PERCENT 100.0

static void check_row(FILE *f, const struct sc_check *c)
{
	char m[FIG_MAX], r[FIG_MAX], place[PLACE_MAX];
	bool nm = c->result == SC_CHECK_NOT_MEASURED;

	sc_html_row_begin(f);
	sc_html_cell(f, c->phase_name);
	sc_html_cell(f, sc_expect_metric_name(c->metric));
	sc_html_cell(f, sc_report_verdict_place(place, sizeof(place), &c->at));
	sc_html_cell(f, nm ? "-" : sc_report_verdict_value(m, sizeof(m), c->metric, c->measured));
	sc_html_cell(f, sc_report_verdict_relation(c->metric));
	sc_html_cell(f, sc_report_verdict_value(r, sizeof(r), c->metric, c->required));
	fprintf(f, "<td class=\"%s\"><strong>%s</strong></td>",
		c->result == SC_CHECK_PASS ? "pass"
		: nm			   ? "nm"
					   : "fail",
		c->result == SC_CHECK_PASS ? "PASS"
		: nm			   ? "not measured"
					   : "FAIL");
	sc_html_cell(f, nm && c->note ? c->note : "");
	sc_html_row_end(f);
}

static void checks_table(FILE *f, const struct sc_verdict *v)
{
	static const char *const head[] = {"phase", "threshold", "where",  "measured",
					   "bound", "required",	 "result", "note"};
	char line[TEXT_MAX];

	if (v->nfailed)
		snprintf(line, sizeof(line),
			 "Verdict: FAIL (%" PRIu32 " of %" PRIu32 " check(s)%s)", v->nfailed,
			 v->nchecks - v->nunmeasured, v->nunmeasured ? ", some not measured" : "");
	else
		snprintf(line, sizeof(line), "Verdict: PASS (%" PRIu32 " check(s)%s)",
			 v->nchecks - v->nunmeasured, v->nunmeasured ? ", some not measured" : "");
	fprintf(f, "<p class=\"verdict\"><strong>");
	sc_html_text(f, line);
	fputs("</strong></p>\n", f);
	if (v->nchecks > SC_HTML_ROWS_SHOWN) {
		snprintf(line, sizeof(line),
			 "%" PRIu32 " checks: shown are the cluster's and the nodes' and drives' "
			 "that did not pass, at most %u; the rest: results.json verdict (past 256 "
			 "ranks the drives' that passed only counted; each drive's figures in "
			 "ranks.csv).",
			 v->nchecks, SC_HTML_ROWS_SHOWN);
		sc_html_note(f, line);
	}
	sc_html_table_begin(f,
			    "Each expect: threshold of each phase: a minimum is met when measured "
			    ">= required, a maximum when measured <= required",
			    head, sizeof(head) / sizeof(head[0]));
	for (uint32_t i = 0, shown = 0; i < v->nchecks && shown < SC_HTML_ROWS_SHOWN; i++) {
		if (v->nchecks > SC_HTML_ROWS_SHOWN && v->checks[i].at.scope != SC_SCOPE_CLUSTER &&
		    v->checks[i].result == SC_CHECK_PASS)
			continue;
		check_row(f, &v->checks[i]);
		shown++;
	}
	sc_html_table_end(f);
}

static void outlier_value(FILE *f, const struct sc_outlier *x, double v)
{
	char buf[FIG_MAX];

	sc_html_cell(f, x->figure == SC_OUTLIER_BW ? sc_fmt_rate(buf, sizeof(buf), v)
						   : sc_fmt_iops(buf, sizeof(buf), v));
}

static void outliers_table(FILE *f, const struct sc_outliers *o)
{
	static const char *const head[] = {"phase",	      "where", "figure",	   "value",
					   "median of peers", "peers", "deviation (MADs)", "side"};
	char line[TEXT_MAX], place[PLACE_MAX];

	sc_html_heading(f, 3, NULL, "Outliers");
	if (!o->judged) {
		snprintf(line, sizeof(line),
			 "Not judged: no phase had %u drives or nodes to compare.",
			 SC_OUTLIER_MIN_PEERS);
		sc_html_note(f, line);
		return;
	}
	snprintf(line, sizeof(line),
		 "A drive or node is flagged when its bandwidth or IOPS lies more than %.3g median "
		 "absolute deviations (MAD) from the median of the phase's drives or nodes (at "
		 "least %u of them; the MAD at least %.3g%% of the median). %" PRIu32
		 " comparison(s), %" PRIu32 " outlier(s).",
		 o->k, SC_OUTLIER_MIN_PEERS, o->mad_floor * PERCENT, o->judged, o->n);
	sc_html_note(f, line);
	if (!o->n)
		return;
	if (o->n > SC_HTML_ROWS_SHOWN) {
		snprintf(line, sizeof(line),
			 "The first %u outliers shown; every one: results.json verdict.",
			 SC_HTML_ROWS_SHOWN);
		sc_html_note(f, line);
	}
	sc_html_table_begin(f, NULL, head, sizeof(head) / sizeof(head[0]));
	for (uint32_t i = 0; i < o->n && i < SC_HTML_ROWS_SHOWN; i++) {
		const struct sc_outlier *x = &o->v[i];

		sc_html_row_begin(f);
		sc_html_cell(f, x->phase_name);
		sc_html_cell(f, sc_report_verdict_place(place, sizeof(place), &x->at));
		sc_html_cell(f, sc_outlier_figure_name(x->figure));
		outlier_value(f, x, x->value);
		outlier_value(f, x, x->median);
		sc_html_num(f, "%.0f", x->peers);
		sc_html_num(f, "%+.1f", x->deviations);
		sc_html_cell(f, x->deviations < 0 ? "low" : "high");
		sc_html_row_end(f);
	}
	sc_html_table_end(f);
}

int sc_html_verdict(FILE *f, const struct sc_run_figures *fg)
{
	const struct sc_verdict *v = &fg->verdict;

	fputs("<section id=\"verdict\">\n", f);
	sc_html_heading(f, 2, NULL, "Verdict: thresholds and outliers");
	if (v->nchecks)
		checks_table(f, v);
	else
		sc_html_note(f, "No expect: thresholds in this run: no PASS/FAIL verdict.");
	outliers_table(f, &fg->outliers);
	fputs("</section>\n", f);
	return 0;
}
