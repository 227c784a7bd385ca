/* compare_text.c -- a comparison as the compare command prints it: the
 * settings that differ, per phase A | B | change, the change over each
 * sweep's grid, the largest differences. */
#include <math.h>
#include <stdio.h>

#include "compare_report.h"
#include "units.h"

/* Largest differences printed. */
#define LARGEST_PRINTED 10u
/* Width of a grid column: "+1234.5%" and a blank. */
#define GRID_COL 10

/* x with one decimal, or three significant digits below 10 ("0.0321"),
 * a sign when sign. */
static const char *num(char *buf, size_t len, double x, bool sign)
{
	if (fabs(x) >= 10 || x == 0)
		snprintf(buf, len, sign ? "%+.1f" : "%.1f", x);
	else
		snprintf(buf, len, sign ? "%+.3g" : "%.3g", x);
	return buf;
}

/* v in f's printed unit, or "-". */
static const char *fig_value(char *buf, size_t len, double v, const struct sc_compare_fig_info *fi)
{
	char n[32];

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s %s", num(n, sizeof(n), v / fi->scale, false), fi->unit);
	return buf;
}

/* Side s's value of v: its mean, and its standard deviation over its runs
 * when it has more than one ("102.3 ±1.2 MB/s"). */
static const char *side_value(char *buf, size_t len, const struct sc_compare_value *v, int s,
			      const struct sc_compare_fig_info *fi)
{
	const struct sc_welch_side *w = &v->side[s];
	char m[32], sd[32];

	if (w->n < 2 || !isfinite(w->mean))
		return fig_value(buf, len, w->mean, fi);
	snprintf(buf, len, "%s ±%s %s", num(m, sizeof(m), w->mean / fi->scale, false),
		 num(sd, sizeof(sd), w->sd / fi->scale, false), fi->unit);
	return buf;
}

/* B - A in f's unit with its sign, or "-". */
static const char *abs_change(char *buf, size_t len, const struct sc_compare_value *v,
			      const struct sc_compare_fig_info *fi)
{
	char n[32];

	if (!isfinite(v->change))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s %s", num(n, sizeof(n), v->change / fi->scale, true),
			 fi->unit);
	return buf;
}

/* The interval of the change in % of A ("[-2.1%, +4.0%]"), or "unknown". */
static const char *interval(char *buf, size_t len, const struct sc_compare_value *v)
{
	if (!isfinite(v->ci_lo_pct) || !isfinite(v->ci_hi_pct))
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "[%+.1f%%, %+.1f%%]", v->ci_lo_pct, v->ci_hi_pct);
	return buf;
}

/* Whether either side has more than one run: then intervals are shown. */
static bool several(const struct sc_compare *c)
{
	return c->nruns[0] > 1 || c->nruns[1] > 1;
}

static void phase_table(FILE *f, const struct sc_compare *c, const struct sc_compare_phase *p)
{
	char a[128], b[128], d[48], ci[48];
	bool ci_col = several(c);

	fprintf(f, "\nphase %s: B against A\n", p->label);
	fprintf(f, "  %-16s %22s %22s %9s %16s", "figure", "A", "B", "change", "B - A");
	if (ci_col)
		fprintf(f, " %20s", "95% interval");
	fprintf(f, "  %s\n", "B is");
	for (int k = 0; k < SC_CMP_NFIGS; k++) {
		const struct sc_compare_fig_info *fi = sc_compare_fig_info(k);
		const struct sc_compare_value *v = &p->v[k];

		if (!sc_compare_fig_own(p, k))
			continue;
		fprintf(f, "  %-16s %22s %22s ", fi->name, side_value(a, sizeof(a), v, 0, fi),
			side_value(b, sizeof(b), v, 1, fi));
		if (isfinite(v->change_pct))
			fprintf(f, "%+8.1f%%", v->change_pct);
		else
			fprintf(f, "%9s", "-");
		fprintf(f, " %16s", abs_change(d, sizeof(d), v, fi));
		if (ci_col)
			fprintf(f, " %20s", interval(ci, sizeof(ci), v));
		fprintf(f, "  %s\n", sc_compare_verdict_name(v->verdict));
	}
}

/* The change of figure fig over rw value r of sweep s: bs by iodepth. */
static void sweep_grid(FILE *f, const struct sc_compare *c, const struct sc_compare_sweep *s,
		       uint32_t r, int fig)
{
	fprintf(f, "  %s: %s, change of %s in %% (B against A) by bs and iodepth:\n", s->name,
		s->labels[SC_SWEEP_RW][r], sc_compare_fig_info(fig)->name);
	fprintf(f, "  %10s", "bs \\ QD");
	for (uint32_t q = 0; q < s->naxis[SC_SWEEP_IODEPTH]; q++)
		fprintf(f, "%*s", GRID_COL, s->labels[SC_SWEEP_IODEPTH][q]);
	fputc('\n', f);
	for (uint32_t b = 0; b < s->naxis[SC_SWEEP_BS]; b++) {
		fprintf(f, "  %10s", s->labels[SC_SWEEP_BS][b]);
		for (uint32_t q = 0; q < s->naxis[SC_SWEEP_IODEPTH]; q++) {
			const struct sc_compare_phase *p =
			    sc_compare_cell(c, s, (const uint32_t[SC_SWEEP_AXES]){r, b, q});

			if (p && isfinite(p->v[fig].change_pct))
				fprintf(f, "%+*.1f%%", GRID_COL - 1, p->v[fig].change_pct);
			else
				fprintf(f, "%*s", GRID_COL, "-");
		}
		fputc('\n', f);
	}
}

void sc_report_compare_warnings(FILE *f, const struct sc_compare *c)
{
	for (uint32_t i = 0; i < c->nwarnings; i++) {
		const struct sc_compare_warning *w = &c->warnings[i];

		fprintf(f, "warning: setting %s differs: A %s, B %s (", w->s->name, w->s->a,
			w->s->b);
		if (w->npairs == 1)
			fprintf(f, "pair %s)\n", w->first);
		else
			fprintf(f, "%u pairs, %s to %s)\n", w->npairs, w->first, w->last);
	}
	if (c->nwarnings)
		fprintf(f, "warning: the paired phases above differ in their settings: their "
			   "changes are not those of the drives alone\n");
}

void sc_report_compare_method(FILE *f, const struct sc_compare *c)
{
	if (c->nruns[0] > 1 && c->nruns[1] > 1)
		fprintf(f,
			"A: %u runs, B: %u runs; each figure is the mean ± standard deviation over "
			"a side's runs; the interval is Welch's %.0f%% t interval of B - A, in %% "
			"of A's mean; a change whose interval holds 0 is no difference\n",
			c->nruns[0], c->nruns[1], SC_WELCH_CONFIDENCE * 100);
	else
		fprintf(f,
			"A: %u run%s, B: %u run%s; with one run on a side the interval of a change "
			"is unknown (give two runs or more a side: A1 A2 -- B1 B2); within %.0f%% "
			"is no difference\n",
			c->nruns[0], c->nruns[0] > 1 ? "s" : "", c->nruns[1],
			c->nruns[1] > 1 ? "s" : "", SC_COMPARE_SAME_PCT);
}

void sc_report_compare_largest(FILE *f, const struct sc_compare *c, unsigned max)
{
	char a[48], b[48], d[48], ci[48];
	struct sc_compare_fig_info fi;

	fprintf(f, "largest differences (B against A):\n");
	if (!c->ndiffs)
		fprintf(f, "  no difference\n");
	for (uint32_t i = 0; i < c->ndiffs && i < max; i++) {
		const struct sc_compare_diff *x = &c->diffs[i];

		fi = (struct sc_compare_fig_info){.unit = x->unit, .scale = x->scale};
		fprintf(f, "  %+8.1f%%  %-6s  %s: %s, %s -> %s (%s", x->v->change_pct,
			sc_compare_verdict_name(x->v->verdict), x->label, x->fig,
			fig_value(a, sizeof(a), x->v->a, &fi),
			fig_value(b, sizeof(b), x->v->b, &fi), abs_change(d, sizeof(d), x->v, &fi));
		if (sc_compare_has_interval(x->v))
			fprintf(f, "; 95%% interval %s", interval(ci, sizeof(ci), x->v));
		fprintf(f, ")\n");
	}
}

/* The checkpoint groups: mean durations of both sides. */
static void ckpt_rows(FILE *f, const struct sc_compare *c)
{
	static const struct sc_compare_fig_info secs = {.unit = "s", .scale = 1e9};
	char a[32], b[32], d[48], ci[48];

	for (uint32_t i = 0; i < c->nckpt; i++) {
		const struct sc_compare_ckpt *k = &c->ckpt[i];
		const struct sc_compare_value *v[2] = {&k->write_mean, &k->restore_mean};

		fprintf(f, "\ncheckpoints %s: %u and %u writes, %u and %u restores (A, B)\n",
			k->name, k->nwrite[0], k->nwrite[1], k->nrestore[0], k->nrestore[1]);
		for (int j = 0; j < 2; j++) {
			if (!isfinite(v[j]->a) && !isfinite(v[j]->b))
				continue;
			fprintf(f, "  mean %-7s  %10s  %10s", j ? "restore" : "write",
				isfinite(v[j]->a) ? sc_fmt_duration(a, sizeof(a), (uint64_t)v[j]->a)
						  : "-",
				isfinite(v[j]->b) ? sc_fmt_duration(b, sizeof(b), (uint64_t)v[j]->b)
						  : "-");
			if (isfinite(v[j]->change_pct))
				fprintf(f, "  %+8.1f%%  %s", v[j]->change_pct,
					abs_change(d, sizeof(d), v[j], &secs));
			if (several(c))
				fprintf(f, "  %s", interval(ci, sizeof(ci), v[j]));
			fprintf(f, "  %s\n", sc_compare_verdict_name(v[j]->verdict));
		}
	}
}

static void only_list(FILE *f, const char *run, const char *const *names, uint32_t n)
{
	if (!n)
		return;
	fprintf(f, "\nonly in %s (not compared):", run);
	for (uint32_t i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", names[i]);
	fputc('\n', f);
}

/* "A = a.pb (run ID)" or "A = 3 runs: a1.pb (run ID), ...". */
static void side_line(FILE *f, const struct sc_compare *c, const struct sc_compare_files *files,
		      int s)
{
	fprintf(f, "%s %c =", s ? "," : "compare:", s ? 'B' : 'A');
	if (files->n[s] > 1)
		fprintf(f, " %u runs:", files->n[s]);
	for (uint32_t r = 0; r < files->n[s]; r++)
		fprintf(f, "%s %s (run %s)", r ? "," : "", files->side[s][r],
			c->runs[s][r]->plan.run_id);
}

void sc_report_compare_text(FILE *f, const struct sc_compare *c,
			    const struct sc_compare_files *files)
{
	side_line(f, c, files, 0);
	side_line(f, c, files, 1);
	fputc('\n', f);
	sc_report_compare_method(f, c);
	sc_report_compare_warnings(f, c);
	for (uint32_t i = 0; i < c->nphases; i++)
		phase_table(f, c, &c->phases[i]);
	for (uint32_t s = 0; s < c->nsweeps; s++) {
		fputc('\n', f);
		for (uint32_t r = 0; r < c->sweeps[s].naxis[SC_SWEEP_RW]; r++) {
			sweep_grid(f, c, &c->sweeps[s], r, SC_CMP_BW);
			sweep_grid(f, c, &c->sweeps[s], r,
				   sc_compare_lat_fig(SC_CMP_DIR_ALL, SC_CMP_P99));
		}
	}
	ckpt_rows(f, c);
	only_list(f, "A", c->only_a, c->nonly_a);
	only_list(f, "B", c->only_b, c->nonly_b);
	fputc('\n', f);
	sc_report_compare_largest(f, c, LARGEST_PRINTED);
}
