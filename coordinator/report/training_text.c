/* training_text.c -- a training group's lines (training_text.h). */
#include "training_text.h"

#define PERCENT 100.0

void sc_report_training_cell(FILE *f, const struct sc_run_record *rec,
			     const struct sc_training_group *g, uint32_t i)
{
	const struct sc_training_cell *c = &g->cells[i];
	const struct sc_phase_record *pr =
	    c->rec_phase < rec->nphases ? &rec->phases[c->rec_phase] : NULL;
	const char *name = pr && pr->phase < rec->plan.nphases ? rec->plan.phases[pr->phase].name
							       : g->name;

	if (!c->measured) {
		fprintf(f,
			"  %s: %u accelerator(s) a host: AU not measured (every epoch had one "
			"step, and AU leaves each epoch's first out): %s\n",
			name, c->per_host, g->search ? "counts as a fail" : "not a pass");
		return;
	}
	if (g->search)
		fprintf(f,
			"  %s: %u accelerator(s) a host (%u a rank, %u in all): AU %.1f%%, lowest "
			"host %.1f%%, %.1f samples/s: %s (threshold %.0f%%)\n",
			name, c->per_host, c->per_rank, c->accelerators, c->au * PERCENT,
			c->host_au_min * PERCENT, c->samples_per_s, c->pass ? "pass" : "FAIL",
			g->au_threshold * PERCENT);
	else
		fprintf(f,
			"  %s: %u accelerators, AU %.1f%%, lowest host %.1f%%, %.1f samples/s, "
			"%.1f MiB/s%s\n",
			name, c->accelerators, c->au * PERCENT, c->host_au_min * PERCENT,
			c->samples_per_s, c->io_MiBps,
			c->warmup ? " (warm-up: not in the result)" : "");
}

void sc_report_training_group(FILE *f, const struct sc_training_group *g)
{
	if (g->search) {
		if (!g->done)
			fprintf(f, "  %s: search unfinished after %u trial(s)\n", g->name,
				g->ncells);
		else if (!g->answer_per_rank)
			fprintf(f,
				"  %s: search answer: none; even %u accelerator(s) a host fall "
				"below the %.0f%% AU threshold (%u trial)\n",
				g->name, g->ncells ? g->cells[0].per_host : 1,
				g->au_threshold * PERCENT, g->ncells);
		else if (g->answer_per_rank >= g->search_max)
			fprintf(f,
				"  %s: search answer: %u or more accelerators a host keep AU >= "
				"%.0f%%: every count up to search_max (%u a rank) passed; raise "
				"search_max to find the most (%u trials)\n",
				g->name, g->answer_per_host, g->au_threshold * PERCENT,
				g->search_max, g->ncells);
		else
			fprintf(f,
				"  %s: search answer: %u accelerators a host (%u a rank) keep AU >= "
				"%.0f%% on every host; %u a rank fail (%u trials)\n",
				g->name, g->answer_per_host, g->answer_per_rank,
				g->au_threshold * PERCENT, g->answer_per_rank + 1, g->ncells);
		return;
	}
	fprintf(f,
		"  %s: %u measured run(s) after %u warm-up(s): AU %.1f%% (sd %.1f, %.1f-%.1f), "
		"%.1f samples/s (sd %.1f), %.1f MiB/s: the mean %s the %.0f%% threshold; %u "
		"run(s) below it\n",
		g->name, g->measured, g->warmups, g->au.mean * PERCENT, g->au.stdev * PERCENT,
		g->au.min * PERCENT, g->au.max * PERCENT, g->samples_per_s.mean,
		g->samples_per_s.stdev, g->io_MiBps.mean, g->meets ? "meets" : "is BELOW",
		g->au_threshold * PERCENT, g->runs_failed);
}
