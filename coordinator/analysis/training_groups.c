/* training_groups.c -- a search's trials and answer, runs' mean and
 * spread (training_groups.h). */
#include "training_groups.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mlperf.h"

/* The spread of the measured runs' figure at offset off of a cell. */
static struct sc_training_spread spread(const struct sc_training_group *g, size_t off)
{
	struct sc_training_spread s = {0};
	double sum = 0, ss = 0;
	uint32_t n = 0;

	for (uint32_t i = 0; i < g->ncells; i++) {
		const struct sc_training_cell *c = &g->cells[i];
		double v = *(const double *)((const char *)c + off);

		if (c->warmup)
			continue;
		s.min = n == 0 || v < s.min ? v : s.min;
		s.max = n == 0 || v > s.max ? v : s.max;
		sum += v;
		n++;
	}
	if (!n)
		return s;
	s.mean = sum / n;
	for (uint32_t i = 0; i < g->ncells; i++) {
		const struct sc_training_cell *c = &g->cells[i];
		double v = *(const double *)((const char *)c + off);

		if (!c->warmup)
			ss += (v - s.mean) * (v - s.mean);
	}
	s.stdev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	return s;
}

/* The search's state after its trials so far. */
static void judge_search(struct sc_training_group *g)
{
	uint32_t k[SC_TRAINING_CELLS_MAX], answer;
	bool pass[SC_TRAINING_CELLS_MAX];
	uint32_t ranks_per_host = 1;

	for (uint32_t i = 0; i < g->ncells; i++) {
		k[i] = g->cells[i].per_rank;
		pass[i] = g->cells[i].pass;
		if (g->cells[i].per_rank)
			ranks_per_host = g->cells[i].per_host / g->cells[i].per_rank;
	}
	g->next_per_rank = sc_mlperf_search_next(k, pass, g->ncells, g->search_max, &answer);
	g->done = g->next_per_rank == 0;
	g->answer_per_rank = g->done ? answer : 0;
	g->answer_per_host = g->answer_per_rank * ranks_per_host;
}

static void judge_runs(struct sc_training_group *g)
{
	g->measured = 0;
	g->runs_failed = 0;
	for (uint32_t i = 0; i < g->ncells; i++)
		if (!g->cells[i].warmup) {
			g->measured++;
			g->runs_failed += !g->cells[i].pass;
		}
	g->au = spread(g, offsetof(struct sc_training_cell, au));
	g->samples_per_s = spread(g, offsetof(struct sc_training_cell, samples_per_s));
	g->io_MiBps = spread(g, offsetof(struct sc_training_cell, io_MiBps));
	g->meets = g->measured > 0 && g->au.mean >= g->au_threshold;
}

int sc_training_groups_add(struct sc_training_group **groups, uint32_t *n,
			   const struct sc_plan *plan, const struct sc_phase_record *pr,
			   uint32_t rec_index, const struct sc_training_figures *tf)
{
	const struct sc_phase *ph = pr->phase < plan->nphases ? &plan->phases[pr->phase] : NULL;
	const struct sc_training_spec *t;
	struct sc_training_group *g = NULL, *grown;
	struct sc_training_cell *c;

	if (!ph || ph->workload != SC_WORKLOAD_TRAINING)
		return 0;
	t = &ph->training;
	if (!t->search_max && !t->runs)
		return 0;
	for (uint32_t i = 0; i < *n && !g; i++)
		if ((*groups)[i].config_index == ph->config_index)
			g = &(*groups)[i];
	if (!g) {
		grown = realloc(*groups, (*n + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		*groups = grown;
		g = &grown[(*n)++];
		memset(g, 0, sizeof(*g));
		g->config_index = ph->config_index;
		g->name = ph->group;
		g->search = t->search_max != 0;
		g->search_max = t->search_max;
		g->warmups = t->warmups;
		g->runs = t->runs;
		g->au_threshold = t->au;
	}
	if (g->ncells >= SC_TRAINING_CELLS_MAX)
		return 0;
	c = &g->cells[g->ncells++];
	c->rec_phase = rec_index;
	c->per_rank = pr->nranks ? sc_rank_accels(&pr->ranks[0]) : 0;
	c->per_host = tf->per_host;
	c->accelerators = tf->accelerators;
	c->measured = tf->au_measured;
	c->pass = tf->au_measured && tf->hosts_measured && tf->hosts_below == 0;
	c->warmup = t->runs && t->run <= t->warmups;
	c->au = tf->au;
	c->host_au_min = tf->host_au_min;
	c->samples_per_s = tf->samples_per_s;
	c->io_MiBps = tf->mlperf_io_MiBps;
	if (g->search)
		judge_search(g);
	else
		judge_runs(g);
	return 0;
}

const struct sc_training_group *sc_training_group_find(const struct sc_training_group *groups,
						       uint32_t n, uint32_t config_index)
{
	for (uint32_t i = 0; i < n; i++)
		if (groups[i].config_index == config_index)
			return &groups[i];
	return NULL;
}

void sc_training_groups_free(struct sc_training_group *groups, uint32_t n)
{
	(void)n;
	free(groups);
}
