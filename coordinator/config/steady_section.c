/* steady_section.c -- the steady_state: key of io and kvcache phases: its
 * mapping, what it contradicts, and its rounds in the plan. */
#include "schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* Defaults and bounds (documented in docs/config.md). */
#define STEADY_DEFAULT_WINDOW	  5u
#define STEADY_DEFAULT_ROUND_NS	  (60 * SC_NS_PER_S)
#define STEADY_DEFAULT_MAX_ROUNDS 25u
#define STEADY_MIN_WINDOW	  2u				 /* a slope needs two rounds */
#define STEADY_MAX_ROUNDS	  1000u				 /* rounds one group may run */
#define STEADY_MAX_ROUND_NS	  (30 * 24 * 3600 * SC_NS_PER_S) /* as runtime */

enum skey { SK_METRIC, SK_WINDOW, SK_ROUND, SK_MAX_ROUNDS, SK_COUNT };

static const char *const steady_keys[SK_COUNT + 1] = {[SK_METRIC] = "metric",
						      [SK_WINDOW] = "window",
						      [SK_ROUND] = "round",
						      [SK_MAX_ROUNDS] = "max_rounds",
						      [SK_COUNT] = NULL};

/* metric: one of sc_steady_metric_names, into *m. */
static int parse_metric(struct cfg_check *c, const struct cfg_node *n, enum sc_steady_metric *m)
{
	static const struct cfg_keydef text = {.type = CFG_VT_TEXT};
	const char *const *names = sc_steady_metric_names.names;
	const char *list[SC_STEADY_METRIC_COUNT + 1];
	const char *near;
	uint64_t unused;
	char known[64];
	int v, err = sc_cfg_parse_scalar(c->d, n, &text, &unused);

	if (err)
		return err;
	v = sc_steady_metric_parse(n->str);
	if (v >= 0) {
		*m = (enum sc_steady_metric)v;
		return 0;
	}
	for (int i = 0; i < SC_STEADY_METRIC_COUNT; i++)
		list[i] = names[i];
	list[SC_STEADY_METRIC_COUNT] = NULL;
	near = sc_cfg_nearest(n->str, list, (size_t)-1);
	return sc_cfg_fail_node(c->d, n,
				"\"%s\" is not a steady-state metric (%s%s%sknown: %s: I/Os per "
				"second, bytes per second, mean latency)",
				n->str, near ? "did you mean " : "", near ? near : "",
				near ? "? " : "", sc_cfg_join(known, sizeof(known), list));
}

/* One key k of steady_state, value n, into *s. */
static int parse_steady_key(struct cfg_check *c, const struct cfg_node *n, int k,
			    struct sc_steady_spec *s)
{
	static const struct cfg_keydef rounds = {
	    .type = CFG_VT_UINT, .min = 1, .max = STEADY_MAX_ROUNDS};
	static const struct cfg_keydef window = {
	    .type = CFG_VT_UINT, .min = STEADY_MIN_WINDOW, .max = STEADY_MAX_ROUNDS};
	static const struct cfg_keydef round = {
	    .type = CFG_VT_DURATION, .min = 1, .max = STEADY_MAX_ROUND_NS};
	uint64_t v = 0;
	int err;

	switch (k) {
	case SK_METRIC:
		return parse_metric(c, n, &s->metric);
	case SK_ROUND:
		return sc_cfg_parse_scalar(c->d, n, &round, &s->round_ns);
	case SK_WINDOW:
		err = sc_cfg_parse_scalar(c->d, n, &window, &v);
		s->window = (uint32_t)v;
		return err;
	default:
		err = sc_cfg_parse_scalar(c->d, n, &rounds, &v);
		s->max_rounds = (uint32_t)v;
		return err;
	}
}

/* Reports key p, not a key of steady_state. */
static int unknown_steady_key(struct cfg_check *c, const struct cfg_pair *p)
{
	const char *near = sc_cfg_nearest(p->key, steady_keys, (size_t)-1);
	char known[96];

	if (near)
		return sc_cfg_fail(c->d, &p->kloc, p->val->path, "unknown key (did you mean %s?)",
				   near);
	return sc_cfg_fail(c->d, &p->kloc, p->val->path, "unknown key (steady_state takes %s)",
			   sc_cfg_join(known, sizeof(known), steady_keys));
}

int sc_cfg_parse_steady(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	struct sc_steady_spec s = {.window = STEADY_DEFAULT_WINDOW,
				   .metric = SC_STEADY_IOPS,
				   .round_ns = STEADY_DEFAULT_ROUND_NS,
				   .max_rounds = STEADY_DEFAULT_MAX_ROUNDS};
	const struct cfg_pair *given[SK_COUNT] = {0};

	if (n->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, n,
					"expected a mapping {metric: iops, window: 5, round: 60s, "
					"max_rounds: 25} (each optional), got %s",
					sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int k = sc_cfg_key_index(p->key, steady_keys);
		int err;

		if (k < 0)
			return unknown_steady_key(c, p);
		given[k] = p;
		err = parse_steady_key(c, p->val, k, &s);
		if (err)
			return err;
	}
	if (s.window > s.max_rounds) {
		const struct cfg_pair *at =
		    given[SK_WINDOW] ? given[SK_WINDOW] : given[SK_MAX_ROUNDS];

		return sc_cfg_fail(c->d, at ? &at->kloc : &n->loc, at ? at->val->path : n->path,
				   "window %u is larger than max_rounds %u (steady state is "
				   "judged over the last window rounds: give max_rounds >= "
				   "window)",
				   s.window, s.max_rounds);
	}
	pv->steady = s;
	return 0;
}

int sc_cfg_check_steady(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	static const enum pkey timed[] = {PK_RUNTIME, PK_IO_SIZE, PK_RAMP};
	const struct cfg_node *at = pv->src[PK_STEADY_STATE];
	const struct cfg_sweep *sweeps[] = {&pv->rw, &pv->bs, &pv->iodepth};
	static const char *const sweep_keys[] = {"rw", "bs", "iodepth"};

	if (!pv->steady.max_rounds)
		return 0;
	for (size_t t = 0; t < sizeof(timed) / sizeof(timed[0]); t++)
		if (pv->src[timed[t]])
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[timed[t]], timed[t],
			    "%s contradicts steady_state, whose rounds each run for "
			    "steady_state's round (leave %s out; a warm-up is a phase of its "
			    "own before)",
			    sc_cfg_phase_keys[timed[t]], sc_cfg_phase_keys[timed[t]]);
	for (size_t s = 0; s < sizeof(sweeps) / sizeof(sweeps[0]); s++)
		if (sweeps[s]->list)
			return sc_cfg_fail_value(
			    c, pv, i, at, PK_STEADY_STATE,
			    "steady_state cannot repeat a sweep (%s is a list): give one %s, or "
			    "a phase with steady_state before the sweep",
			    sweep_keys[s], sweep_keys[s]);
	return 0;
}

void sc_cfg_steady_rounds(struct cfg_phase *pv)
{
	if (!pv->steady.max_rounds)
		return;
	pv->runtime = pv->steady.round_ns;
	pv->io_size = 0;
	pv->ramp = 0;
	pv->ncells = pv->steady.max_rounds;
}

int sc_cfg_build_round(const struct cfg_phase *pv, uint32_t cell, struct sc_phase *ph)
{
	char buf[CFG_MAX_NAME_LEN + 32];

	snprintf(buf, sizeof(buf), "%s[round=%u]", pv->name, cell + 1);
	free(ph->name);
	ph->name = strdup(buf);
	if (!ph->name)
		return -ENOMEM;
	ph->steady = pv->steady;
	ph->steady.round = cell + 1;
	ph->io.runtime_ns = pv->steady.round_ns;
	ph->io.io_bytes = 0;
	ph->io.ramp_ns = 0;
	return 0;
}
