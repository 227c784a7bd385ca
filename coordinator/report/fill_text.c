/* fill_text.c -- the write cliff after a fill phase's row, and the stages
 * of a run side by side at its end (fill_text.h). */
#include "fill_text.h"

#include "analysis/stages.h"
#include "analysis/write_cliff.h"
#include "pct_text.h"
#include "report_priv.h"
#include "units.h"

/* 100 for a fraction printed as a percentage. */
#define PERCENT 100

/* One cliff as "initial X; cache Y, then Z from second S" or "no cliff". */
static void cliff_text(FILE *f, const struct sc_write_cliff *w)
{
	char a[32], b[32], c[32];

	if (w->unknown) {
		fprintf(f, "unknown (the drive's own per-second series not kept at rank 0)\n");
		return;
	}
	if (!w->nseconds) {
		fprintf(f, "no whole second of sequential writes to analyse\n");
		return;
	}
	sc_fmt_rate(a, sizeof(a), w->initial_bytes_per_s);
	if (!w->found) {
		fprintf(f, "initial %s, no cliff in %u s\n", a, w->nseconds);
		return;
	}
	fprintf(f, "initial %s, cache %s, then %s from second %u\n", a,
		sc_fmt_bytes(b, sizeof(b), w->cache_bytes),
		sc_fmt_rate(c, sizeof(c), w->after_bytes_per_s), w->second);
}

void sc_report_write_cliff_text(FILE *f, const struct sc_run_record *rec,
				const struct sc_phase_record *pr, const struct sc_fill_cliffs *c)
{
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];

	fprintf(f, "  %s: write cliff (rate below %.0f%% of the initial for %u s): cluster: ",
		ph->name, ph->fill.cliff_fraction * PERCENT, SC_CLIFF_HOLD_SECONDS);
	cliff_text(f, &c->cluster);
	if (c->ranks_unknown) { /* not one drive's: say so once */
		fprintf(f, "    each drive's: unknown (its own per-second series not kept at "
			   "rank 0: ranks x seconds past SC_RANK_SERIES_MAX)\n");
		return;
	}
	for (uint32_t r = 0; r < c->nranks && r < SC_CLIFF_DRIVES_PRINTED; r++) {
		const struct sc_rank_result *x = &pr->ranks[r];

		fprintf(f, "    rank %u (%s) %s: ", x->rank, x->host,
			x->target < rec->plan.ntargets ? rec->plan.targets[x->target].path : "?");
		cliff_text(f, &c->ranks[r]);
	}
	if (c->nranks > SC_CLIFF_DRIVES_PRINTED)
		fprintf(f, "    ... %u drives in all, %u with a cliff (%s lists each)\n", c->nranks,
			c->ranks_with_cliff,
			c->nranks <= SC_JSON_RANKS_MAX ? "results.json" : "ranks.csv");
}

static void stage_line(FILE *f, const struct sc_stage_row *st)
{
	char d[32], bw[32], io[32], p99[32], p9999[32], vol[32];
	sc_fmt_duration(d, sizeof(d), st->duration_ns > 0 ? (uint64_t)st->duration_ns : 0);
	if (st->idle) {
		fprintf(f, "%-34s %10s %12s %10s %10s %10s %10s\n", st->name, d, "idle", "-", "-",
			"-", "-");
		return;
	}
	fprintf(f, "%-34s %10s %12s %10s %10s %10s %10s\n", st->name, d,
		sc_fmt_rate(bw, sizeof(bw), st->bw_bytes_per_s),
		sc_fmt_iops(io, sizeof(io), st->iops),
		st->p99_ok ? sc_fmt_duration(p99, sizeof(p99), st->p99_ns) : "n/a",
		st->p9999_ok ? sc_fmt_duration(p9999, sizeof(p9999), st->p9999_ns) : "n/a",
		sc_report_fmt_share(vol, sizeof(vol), st->volatility));
}

void sc_report_stages_table(FILE *f, const struct sc_run_record *rec,
			    const struct sc_run_figures *fg)
{
	if (!rec->nphases || !fg->stages_shown)
		return;
	fprintf(f, "\nstages side by side:\n%-34s %10s %12s %10s %10s %10s %10s\n", "stage",
		"duration", "bandwidth", "IOPS", "p99", "p99.99", "volatility");
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];

		if (pr->phase < rec->plan.nphases)
			stage_line(f, &fg->work[i].stage);
	}
}
