/* emulate_from.c -- emulate's latency_from: a run's results.pb read at
 * plan time, one of its phases picked and its merged latency histograms
 * turned into the distributions the emulated engine draws from. */
#include "schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency_cdf.h"
#include "results_file.h"

/* Room for the message of a file that cannot be read. */
#define WHY_MAX 1024
/* Room for the list of a file's phase names in a message. */
#define NAMES_MAX 512

static const char *const dir_words[SC_DIR_COUNT] = {"reads", "writes"};

/* The directions pv's I/Os go: need[SC_DIR_READ], need[SC_DIR_WRITE]. */
static void needed_dirs(const struct cfg_phase *pv, bool need[SC_DIR_COUNT])
{
	need[SC_DIR_READ] = need[SC_DIR_WRITE] = false;
	if (pv->workload == SC_WORKLOAD_CHECKPOINT) {
		need[SC_DIR_WRITE] = true;
		need[SC_DIR_READ] = pv->restore != 0;
		return;
	}
	if (pv->workload == SC_WORKLOAD_INGEST || pv->workload == SC_WORKLOAD_TRAINING) {
		need[SC_DIR_READ] = true; /* its dataset is laid out untimed */
		return;
	}
	for (uint32_t r = 0; r < pv->rw.n; r++) {
		enum sc_rw rw = (enum sc_rw)pv->rw.v[r];
		bool mix = sc_rw_mixed(rw);

		need[SC_DIR_READ] |= sc_rw_reads(rw) && (!mix || pv->rwmixread > 0);
		need[SC_DIR_WRITE] |= sc_rw_writes(rw) && (!mix || pv->rwmixread < 100);
	}
}

/* I/Os of direction d in phase record ph (no histogram: none). */
static uint64_t ios_of(const struct sc_phase_record *ph, int d)
{
	return ph->lat[d] ? ph->lat[d]->count : 0;
}

/* The plan phase of record phase k, or NULL when the record is odd. */
static const struct sc_phase *plan_phase(const struct sc_run_record *rec, uint32_t k)
{
	uint32_t p = rec->phases[k].phase;

	return p < rec->plan.nphases ? &rec->plan.phases[p] : NULL;
}

/* Whether record phase k is named name (by_group: of group name). */
static bool is_named(const struct sc_run_record *rec, uint32_t k, const char *name, bool by_group)
{
	const struct sc_phase *ph = plan_phase(rec, k);

	return ph && strcmp(by_group ? ph->group : ph->name, name) == 0;
}

/* The first record phase with I/Os of direction d; nphases: none. */
static uint32_t first_with(const struct sc_run_record *rec, int d)
{
	for (uint32_t k = 0; k < rec->nphases; k++)
		if (plan_phase(rec, k) && ios_of(&rec->phases[k], d))
			return k;
	return rec->nphases;
}

/* "a, b, c" of the record's phase names, cut with "..." to fit buf. */
static const char *phase_names(const struct sc_run_record *rec, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; k < rec->nphases && at < len; k++) {
		const struct sc_phase *ph = plan_phase(rec, k);
		int w;

		if (!ph)
			continue;
		w = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", ph->name);
		at += w > 0 ? (size_t)w : 0;
	}
	if (at >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return buf[0] ? buf : "none";
}

/* Sums the histograms of the phases of rec named name (none: those of
 * group name) into h; how many phases were summed. */
static uint32_t merge_named(const struct sc_run_record *rec, const char *name,
			    struct sc_hist *h[SC_DIR_COUNT])
{
	uint32_t n = 0;
	bool by_group = false;

	for (int pass = 0; pass < 2 && !n; pass++, by_group = true) {
		for (uint32_t k = 0; k < rec->nphases; k++) {
			if (!is_named(rec, k, name, by_group))
				continue;
			for (int d = 0; d < SC_DIR_COUNT; d++)
				if (rec->phases[k].lat[d])
					sc_hist_add(h[d], rec->phases[k].lat[d]);
			n++;
		}
	}
	return n;
}

/* Sums into h[d], for each needed direction d, the histogram of the first
 * phase of rec with I/Os of d; the first needed direction no phase has,
 * or -1. */
static int merge_first(const struct sc_run_record *rec, const bool need[SC_DIR_COUNT],
		       struct sc_hist *h[SC_DIR_COUNT])
{
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		uint32_t k = need[d] ? first_with(rec, d) : 0;

		if (!need[d])
			continue;
		if (k == rec->nphases)
			return d;
		sc_hist_add(h[d], rec->phases[k].lat[d]);
	}
	return -1;
}

/* h[d] as em's distribution of direction d (heap).  0 or -ENOMEM. */
static int keep_cdf(const struct sc_hist *h, int d, struct sc_emulate *em)
{
	struct sc_emulate_point *p = calloc(SC_EMULATE_CDF_MAX, sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (d == SC_DIR_READ) {
		em->read_cdf = p;
		em->nread_cdf = sc_lat_cdf(h, p, SC_EMULATE_CDF_MAX);
	} else {
		em->write_cdf = p;
		em->nwrite_cdf = sc_lat_cdf(h, p, SC_EMULATE_CDF_MAX);
	}
	return 0;
}

/* The distributions pv needs from rec (read from file) into em, h: zeroed
 * room for the merged histograms. */
static int source_cdfs(const struct cfg_check *c, const struct cfg_phase *pv,
		       const struct sc_run_record *rec, struct sc_hist *h[SC_DIR_COUNT],
		       struct sc_emulate *em)
{
	const struct cfg_node *at = pv->emulate_phase ? pv->emulate_phase : pv->emulate_from;
	const char *name = pv->emulate_phase ? pv->emulate_phase->str : NULL;
	const char *file = pv->emulate_from->str;
	char names[NAMES_MAX];
	bool need[SC_DIR_COUNT];
	int err = 0, missing;

	needed_dirs(pv, need);
	if (!name && (missing = merge_first(rec, need, h)) >= 0)
		return sc_cfg_fail_node(c->d, at,
					"%s has no phase with %s to take their latencies from "
					"(its phases: %s)",
					file, dir_words[missing],
					phase_names(rec, names, sizeof(names)));
	if (name && !merge_named(rec, name, h))
		return sc_cfg_fail_node(c->d, at,
					"%s has no phase \"%s\" (its phases: %s; a checkpoint or "
					"sweep group's name takes all its cells)",
					file, name, phase_names(rec, names, sizeof(names)));
	for (int d = 0; d < SC_DIR_COUNT && !err; d++) {
		if (!need[d])
			continue;
		if (!h[d]->count)
			return sc_cfg_fail_node(
			    c->d, at,
			    "phase \"%s\" of %s has no %s, which this phase does "
			    "(name a phase with %s in latency_phase)",
			    name ? name : "?", file, dir_words[d], dir_words[d]);
		err = keep_cdf(h[d], d, em);
	}
	return err;
}

int sc_cfg_emulate_from(const struct cfg_check *c, const struct cfg_phase *pv,
			struct sc_emulate *em)
{
	const struct cfg_node *from = pv->emulate_from;
	struct sc_run_record rec;
	struct sc_hist *h[SC_DIR_COUNT] = {0};
	char why[WHY_MAX];
	int err = sc_results_read(from->str, &rec, why, sizeof(why));

	if (err == -ENOMEM)
		return err;
	if (err)
		return sc_cfg_fail_node(c->d, from,
					"cannot take latencies from %s: %s (latency_from takes "
					"the results.pb of an earlier run)",
					from->str, why);
	if (why[0])
		fprintf(stderr, "ssdcluster: warning: %s: %s\n", from->str, why);
	for (int d = 0; d < SC_DIR_COUNT && !err; d++) {
		h[d] = malloc(sizeof(*h[d])); /* 35 KB: not on the stack */
		if (!h[d])
			err = -ENOMEM;
		else
			sc_hist_init(h[d]);
	}
	if (!err)
		err = source_cdfs(c, pv, &rec, h, em);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		free(h[d]);
	sc_run_record_exit(&rec);
	return err;
}
