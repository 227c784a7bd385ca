/* plan_figures.c -- what a plan will do before it runs, for --dry-run. */
#include "plan_figures.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t sc_phase_expected_ns(const struct sc_io_spec *io)
{
	return io->runtime_ns ? io->ramp_ns + io->runtime_ns : 0;
}

/* The config keys of ph whose values differ from workload file w's, as
 * "batch, epochs" into buf. */
static void changed_keys(const struct sc_phase *ph, const struct sc_mlperf_workload *w, char *buf,
			 size_t len)
{
	const struct sc_training_spec *t = &ph->training;
	const struct {
		const char *key;
		uint64_t mine, file;
	} v[] = {
	    {"samples_per_file", t->samples_per_file, w->samples_per_file},
	    {"record_size", t->record_bytes, w->record_bytes},
	    {"record_size_stdev", t->record_stdev_bytes, w->record_stdev_bytes},
	    {"batch", t->batch, w->batch},
	    {"jobs", ph->io.jobs, w->read_threads},
	    {"prefetch_size", t->prefetch_size, w->prefetch_size},
	    {"computation_time", t->computation_ns, w->computation_ns},
	    {"epochs", t->epochs, w->epochs},
	    {"au", t->au != w->au, 0},
	};
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]) && at < len; i++) {
		if (v[i].mine == v[i].file)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", v[i].key);
	}
}

void sc_training_plan_figures(const struct sc_phase *ph, struct sc_training_plan_figures *out)
{
	const struct sc_training_spec *t = &ph->training;
	const struct sc_mlperf_workload *w = sc_mlperf_find(
	    (enum sc_mlperf_benchmark)t->benchmark, (enum sc_mlperf_accelerator)t->accelerator);
	uint64_t samples;

	memset(out, 0, sizeof(*out));
	out->pair = w != NULL;
	if (w) {
		out->status = w->status;
		changed_keys(ph, w, out->changed, sizeof(out->changed));
	}
	out->mean_file_bytes = sc_layout_training_mean_file_bytes(t);
	out->dataset_bytes = sc_layout_training_dataset_bytes(t);
	out->steps_per_epoch = sc_layout_training_steps(t);
	if (__builtin_mul_overflow(out->steps_per_epoch, (uint64_t)t->batch * t->accelerators,
				   &samples))
		samples = UINT64_MAX;
	out->samples_read = samples;
	out->most_accelerators = t->search_max ? t->accelerators / sc_training_per_rank(t) *
						     t->search_max
					       : t->accelerators;
	out->min_files = sc_mlperf_min_files(t->client_memory_bytes, out->most_accelerators, t->batch,
					     t->samples_per_file, t->record_bytes);
	out->files_short = out->min_files > t->files ? out->min_files - t->files : 0;
}

/* Distinct node indices of the ranks, increasing, into f->nodes.  0 or
 * -ENOMEM. */
static int distinct_nodes(const struct sc_dry_rank *ranks, uint32_t nranks,
			  struct sc_plan_figures *f)
{
	uint32_t n = 0, *v;

	if (!nranks)
		return 0;
	v = malloc(nranks * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < nranks; i++) {
		uint32_t j = n;

		while (j > 0 && v[j - 1] > ranks[i].node)
			j--;
		if (j > 0 && v[j - 1] == ranks[i].node)
			continue;
		memmove(&v[j + 1], &v[j], (n - j) * sizeof(*v));
		v[j] = ranks[i].node;
		n++;
	}
	f->nodes = v;
	f->nnodes = n;
	return 0;
}

/* Every rank's planned bytes per phase, and their sums per phase. */
static int planned_bytes(const struct sc_plan *plan, const struct sc_dry_rank *ranks,
			 uint32_t nranks, struct sc_plan_figures *f)
{
	f->nphases = plan->nphases;
	f->rank_bytes = calloc((size_t)nranks * plan->nphases + 1, sizeof(*f->rank_bytes));
	f->phase_bytes = calloc((size_t)plan->nphases + 1, sizeof(*f->phase_bytes));
	if (!f->rank_bytes || !f->phase_bytes)
		return -ENOMEM;
	for (uint32_t i = 0; i < nranks; i++) {
		for (uint32_t p = 0; p < plan->nphases; p++) {
			struct sc_planned_bytes *b = &f->rank_bytes[(size_t)i * plan->nphases + p];

			sc_layout_rank_bytes(plan, p, &ranks[i].place, &b->read_bytes,
					     &b->write_bytes);
			f->phase_bytes[p].read_bytes += b->read_bytes;
			f->phase_bytes[p].write_bytes += b->write_bytes;
		}
	}
	return 0;
}

/* The ranks of node on target, the least room any of them found there,
 * and the host of the node's lowest rank. */
static void fill_slot(const struct sc_dry_rank *ranks, uint32_t nranks, struct sc_plan_slot *s)
{
	uint32_t low = UINT32_MAX;

	s->host = "";
	s->nranks = 0;
	s->avail_bytes = 0;
	for (uint32_t i = 0; i < nranks; i++) {
		if (ranks[i].node != s->node)
			continue;
		if (ranks[i].place.rank < low) {
			low = ranks[i].place.rank;
			s->host = ranks[i].host ? ranks[i].host : "";
		}
		if (ranks[i].place.target != s->target)
			continue;
		s->nranks++;
		if (ranks[i].avail_bytes && (!s->avail_bytes || ranks[i].avail_bytes < s->avail_bytes))
			s->avail_bytes = ranks[i].avail_bytes;
	}
}

/* One slot per (target, node) pair with ranks: what they need and whether
 * it fits. */
static int build_slots(const struct sc_plan *plan, const struct sc_dry_rank *ranks, uint32_t nranks,
		       struct sc_plan_figures *f)
{
	f->slots = calloc((size_t)plan->ntargets * f->nnodes + 1, sizeof(*f->slots));
	if (!f->slots)
		return -ENOMEM;
	for (uint32_t t = 0; t < plan->ntargets; t++) {
		uint64_t capacity = plan->targets[t].capacity_bytes;

		for (uint32_t n = 0; n < f->nnodes; n++) {
			struct sc_plan_slot *s = &f->slots[f->nslots];

			s->target = t;
			s->node = f->nodes[n];
			fill_slot(ranks, nranks, s);
			if (!s->nranks)
				continue;
			s->need_bytes = sc_layout_need_bytes(plan, t, s->nranks);
			s->fits = (!capacity || s->need_bytes <= capacity) &&
				  (!s->avail_bytes || s->need_bytes <= s->avail_bytes);
			f->nslots++;
		}
	}
	return 0;
}

int sc_plan_figures(const struct sc_plan *plan, const struct sc_dry_rank *ranks, uint32_t nranks,
		    struct sc_plan_figures *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = distinct_nodes(ranks, nranks, out);
	if (!err)
		err = planned_bytes(plan, ranks, nranks, out);
	if (!err)
		err = build_slots(plan, ranks, nranks, out);
	if (err)
		sc_plan_figures_exit(out);
	return err;
}

void sc_plan_figures_exit(struct sc_plan_figures *f)
{
	free(f->nodes);
	free(f->rank_bytes);
	free(f->phase_bytes);
	free(f->slots);
	memset(f, 0, sizeof(*f));
}
