/* model_section.c -- a config's model: section: the cluster model rank 0 runs at
 * the end of the run.  Each key is checked here by the model's own parser
 * (model/params.c), so a config and `ssdcluster model` refuse the same
 * values with the same words; the plan keeps the keys as written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "model/params.h"
#include "model/project.h"

/* Longest value of one key (a list of node counts, joined by commas). */
#define MODEL_VALUE_MAX 512

/* The text of value n: a scalar as it is, a list of scalars joined by
 * commas ("nodes: [8, 64, 512]").  0, or -EINVAL with the message in d. */
static int value_text(struct cfg_doc *d, const struct cfg_node *n, char *out, size_t outlen)
{
	size_t at = 0;

	if (n->kind == CFG_SCALAR && !sc_cfg_is_null(n)) {
		if ((size_t)snprintf(out, outlen, "%s", n->str) >= outlen)
			return sc_cfg_fail_node(d, n, "value too long (at most %zu characters)",
						outlen - 1);
		return 0;
	}
	if (n->kind != CFG_SEQ || !n->nitems)
		return sc_cfg_fail_node(d, n, "expected a value or a list of values, got %s",
					sc_cfg_kind_word(n));
	out[0] = '\0';
	for (uint32_t i = 0; i < n->nitems; i++) {
		const struct cfg_node *it = n->items[i];
		int w;

		if (it->kind != CFG_SCALAR || sc_cfg_is_null(it))
			return sc_cfg_fail_node(d, it, "expected a value, got %s",
						sc_cfg_kind_word(it));
		w = snprintf(out + at, outlen - at, "%s%s", i ? "," : "", it->str);
		if (w < 0 || (size_t)w >= outlen - at)
			return sc_cfg_fail_node(d, n, "list too long (at most %zu characters)",
						outlen - 1);
		at += (size_t)w;
	}
	return 0;
}

/* The model's message without its leading "KEY: " (the config's message
 * names the key already, as "model.KEY: "). */
static const char *without_key(const char *why, const char *key)
{
	size_t n = strlen(key);

	return strncmp(why, key, n) == 0 && why[n] == ':' && why[n + 1] == ' ' ? why + n + 2
									       : why;
}

/* Whether a phase of the config gives the model something to project. */
static bool has_model_input(const struct cfg_check *c)
{
	for (uint32_t i = 0; i < c->npv; i++)
		if (c->pv[i].workload == SC_WORKLOAD_CHECKPOINT ||
		    c->pv[i].workload == SC_WORKLOAD_INGEST)
			return true;
	return false;
}

/* Whether a phase of the config is a training phase, which the model does
 * not project yet. */
static bool has_training(const struct cfg_check *c)
{
	for (uint32_t i = 0; i < c->npv; i++)
		if (c->pv[i].workload == SC_WORKLOAD_TRAINING)
			return true;
	return false;
}

/* True when model: m holds only the drive rating the run's endurance
 * figures use (model/endurance.h): allowed without a phase to project. */
static bool only_endurance_keys(const struct cfg_node *m)
{
	static const char *const keys[] = {"dwpd", "warranty", "drive_capacity"};

	for (uint32_t i = 0; i < m->npairs; i++) {
		bool found = false;

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			found |= sc_model_params_key(m->pairs[i].key) == sc_model_params_key(keys[k]);
		if (!found)
			return false;
	}
	return true;
}

/* Where the key "model" stands at the top of the document. */
static const struct cfg_loc *section_key_loc(const struct cfg_node *root)
{
	for (uint32_t j = 0; j < root->npairs; j++)
		if (strcmp(root->pairs[j].key, "model") == 0)
			return &root->pairs[j].kloc;
	return &root->loc;
}

/* The first checkpoint phase, or NULL. */
static const struct cfg_phase *first_ckpt(const struct cfg_check *c)
{
	for (uint32_t i = 0; i < c->npv; i++)
		if (c->pv[i].workload == SC_WORKLOAD_CHECKPOINT)
			return &c->pv[i];
	return NULL;
}

/* The checkpoint layout the projection will use (the section's tp and pp,
 * else the run's, else the named model's MLPerf layout) must fit at least
 * one of the sizes: N x gpus_per_node a multiple of tp x pp.  Caught here,
 * before the run, not at its end. */
static int check_layout_fits(struct cfg_check *c, const struct sc_model_params *p)
{
	const struct cfg_phase *ck = first_ckpt(c);
	struct sc_ckpt_layout l = {0};
	uint64_t tp, pp, mp;
	char sizes[MODEL_VALUE_MAX];
	size_t at = 0;

	if (!ck)
		return 0; /* ingest only: no layout */
	if (!p->model[0] || !strcmp(p->model, ck->model.name)) {
		l.tp = (uint32_t)ck->tp;
		l.pp = (uint32_t)ck->pp;
	} else if (sc_ckpt_layout_mlperf(p->model, &l)) {
		return 0; /* an unknown model: refused by its own key */
	}
	tp = p->tp ? p->tp : l.tp;
	pp = p->pp ? p->pp : l.pp;
	mp = tp * pp;
	if (!mp)
		return 0;
	for (uint32_t i = 0; i < p->nsizes; i++) {
		if ((uint64_t)p->nodes[i] * p->gpus_per_node % mp == 0)
			return 0;
		at += (size_t)snprintf(sizes + at, sizeof(sizes) - at, "%s%u", i ? ", " : "",
				       p->nodes[i]);
		if (at >= sizeof(sizes))
			break;
	}
	return sc_cfg_fail(c->d, section_key_loc(c->d->root), "model",
			   "the checkpoint layout tp x pp = %llu x %llu fits none of nodes [%s] "
			   "with gpus_per_node %u: N x %u must be a multiple of %llu (change "
			   "nodes, gpus_per_node, or the model's tp and pp)",
			   (unsigned long long)tp, (unsigned long long)pp, sizes,
			   p->gpus_per_node, p->gpus_per_node, (unsigned long long)mp);
}

int sc_cfg_parse_model_section(struct cfg_check *c)
{
	const struct cfg_node *m = sc_cfg_map_get(c->d->root, "model");
	struct sc_model_params p;
	char text[MODEL_VALUE_MAX], why[256];

	c->model = NULL;
	if (!m || sc_cfg_is_null(m))
		return 0;
	if (m->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, m,
					"expected a mapping of model settings (e.g. model: {nodes: "
					"[8, 64, 512], node_mtbf: 50000h}), got %s",
					sc_cfg_kind_word(m));
	if (m->npairs > SC_PLAN_MODEL_MAX)
		return sc_cfg_fail_node(c->d, m, "%u settings, more than the %u a model takes",
					m->npairs, SC_PLAN_MODEL_MAX);
	sc_model_params_default(&p);
	for (uint32_t i = 0; i < m->npairs; i++) {
		const struct cfg_pair *kv = &m->pairs[i];
		int err = value_text(c->d, kv->val, text, sizeof(text));

		if (err)
			return err;
		if (sc_model_params_set(&p, kv->key, text, why, sizeof(why)))
			return sc_cfg_fail_node(c->d, kv->val, "%s", without_key(why, kv->key));
	}
	if (!has_model_input(c) && !only_endurance_keys(m) && has_training(c))
		return sc_cfg_fail(c->d, section_key_loc(c->d->root), "model",
				   "the model projects checkpoint and ingest phases, not "
				   "training phases yet, and this config has neither (leave "
				   "model: out, or add a phase with workload: checkpoint or "
				   "ingest)");
	if (!has_model_input(c) && !only_endurance_keys(m))
		return sc_cfg_fail(c->d, section_key_loc(c->d->root), "model",
					"the model projects checkpoint and ingest phases, and this "
					"config has neither (add a phase with workload: checkpoint, "
					"as configs/llm_ckpt.yaml, or workload: ingest)");
	if (check_layout_fits(c, &p))
		return -EINVAL;
	c->model = m;
	return 0;
}

int sc_cfg_build_model_section(const struct cfg_check *c, struct sc_plan *plan)
{
	const struct cfg_node *m = c->model;
	char text[MODEL_VALUE_MAX];

	if (!m)
		return 0;
	plan->model = calloc(m->npairs, sizeof(*plan->model));
	if (!plan->model)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->npairs; i++) {
		struct sc_plan_kv *kv = &plan->model[i];
		int err = value_text(c->d, m->pairs[i].val, text, sizeof(text));

		if (err)
			return err;
		plan->nmodel++;
		kv->key = strdup(m->pairs[i].key);
		kv->value = strdup(text);
		if (!kv->key || !kv->value)
			return -ENOMEM;
	}
	return 0;
}
