/* compare_text.c -- a comparison as the compare command prints it: per
 * phase A | B | change, the change over each sweep's grid, the largest
 * differences. */
#include <math.h>
#include <stdio.h>

#include "compare_report.h"
#include "units.h"

/* Largest differences printed. */
#define LARGEST_PRINTED 10u
/* Width of a grid column: "+1234.5%" and a blank. */
#define GRID_COL 10

/* v in f's printed unit, or "-". */
static const char *fig_value(char *buf, size_t len, double v, const struct sc_compare_fig_info *fi)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f %s", v / fi->scale, fi->unit);
	return buf;
}

static void phase_table(FILE *f, const struct sc_compare_phase *p)
{
	char a[48], b[48];

	fprintf(f, "\nphase %s: B against A\n", p->label);
	fprintf(f, "  %-16s %16s %16s %9s  %s\n", "figure", "A", "B", "change", "B is");
	for (int k = 0; k < SC_CMP_NFIGS; k++) {
		const struct sc_compare_fig_info *fi = sc_compare_fig_info(k);
		const struct sc_compare_value *v = &p->v[k];

		if (!sc_compare_fig_own(p, k))
			continue;
		fprintf(f, "  %-16s %16s %16s ", fi->name, fig_value(a, sizeof(a), v->a, fi),
			fig_value(b, sizeof(b), v->b, fi));
		if (isfinite(v->change_pct))
			fprintf(f, "%+8.1f%%", v->change_pct);
		else
			fprintf(f, "%9s", "-");
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

void sc_report_compare_largest(FILE *f, const struct sc_compare *c, unsigned max)
{
	char a[48], b[48];
	struct sc_compare_fig_info fi;

	fprintf(f, "largest differences (B against A; within %.0f%% is no difference):\n",
		SC_COMPARE_SAME_PCT);
	if (!c->ndiffs)
		fprintf(f, "  no difference\n");
	for (uint32_t i = 0; i < c->ndiffs && i < max; i++) {
		const struct sc_compare_diff *d = &c->diffs[i];

		fi = (struct sc_compare_fig_info){.unit = d->unit, .scale = d->scale};
		fprintf(f, "  %+8.1f%%  %-6s  %s: %s, %s -> %s\n", d->v->change_pct,
			sc_compare_verdict_name(d->v->verdict), d->label, d->fig,
			fig_value(a, sizeof(a), d->v->a, &fi),
			fig_value(b, sizeof(b), d->v->b, &fi));
	}
}

/* The checkpoint groups: mean durations of both runs. */
static void ckpt_rows(FILE *f, const struct sc_compare *c)
{
	char a[32], b[32];

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
				fprintf(f, "  %+8.1f%%", v[j]->change_pct);
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

void sc_report_compare_text(FILE *f, const struct sc_compare *c,
			    const struct sc_compare_files *files)
{
	fprintf(f, "compare: A = %s (run %s), B = %s (run %s)\n", files->a, c->a->plan.run_id,
		files->b, c->b->plan.run_id);
	for (uint32_t i = 0; i < c->nphases; i++)
		phase_table(f, &c->phases[i]);
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
