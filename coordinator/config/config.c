/* config.c -- a config file to a checked plan: the document read, --set
 * and ${VAR} applied, the schema checked from the top keys down, the plan
 * built (the driver: the helpers every section shares are config_doc.c). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"

static int check_root(struct cfg_check *c)
{
	const struct cfg_node *root = c->d->root;

	for (uint32_t j = 0; j < root->npairs; j++)
		if (!sc_cfg_key_in(root->pairs[j].key, sc_cfg_top_keys))
			return sc_cfg_unknown_key(c, &root->pairs[j], "top", SC_WORKLOAD_IO);
	return 0;
}

static int load_plan(struct sc_config *cfg, const char *path)
{
	struct cfg_check c = {.d = &cfg->doc};
	int err;

	err = check_root(&c);
	if (!err)
		err = sc_cfg_parse_mem_budget(&c);
	if (!err)
		err = sc_cfg_parse_targets(&c);
	if (!err)
		err = sc_cfg_parse_defaults(&c);
	if (!err)
		err = sc_cfg_parse_phases(&c);
	for (uint32_t i = 0; !err && i < c.npv; i++)
		err = sc_cfg_check_phase_limits(&c, i, &c.pv[i]);
	for (uint32_t i = 0; !err && i < c.npv; i++)
		err = sc_cfg_fill_size(&c, i, &c.pv[i]);
	for (uint32_t i = 0; !err && i < c.npv; i++)
		err = sc_cfg_check_phase_targets(&c, i, &c.pv[i]);
	if (!err)
		err = sc_cfg_check_verify(&c);
	if (!err)
		err = sc_cfg_parse_model_section(&c);
	if (!err)
		err = sc_cfg_parse_outliers(&c);
	if (!err)
		err = sc_cfg_build_plan(&c, path, &cfg->plan);
	cfg->mem_budget = c.mem_budget;
	cfg->mem_stated = c.mem_node != NULL;
	free(c.tg);
	free(c.pv);
	return err;
}

int sc_config_load(struct sc_config **out, const char *path, const char *const *sets,
		   uint32_t nsets, char *err, size_t errlen)
{
	struct sc_config *cfg = calloc(1, sizeof(*cfg));
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (!cfg || !(cfg->doc.file = strdup(path))) {
		free(cfg);
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	cfg->doc.err = err;
	cfg->doc.errlen = err ? errlen : 0;
	ret = sc_cfg_doc_load(&cfg->doc, path);
	if (!ret)
		ret = sc_cfg_doc_apply_sets(&cfg->doc, sets, nsets);
	if (!ret)
		ret = sc_cfg_doc_expand(&cfg->doc);
	if (!ret)
		ret = load_plan(cfg, path);
	if (ret == -ENOMEM && err && errlen && !cfg->doc.failed)
		snprintf(err, errlen, "%s: out of memory", path);
	cfg->doc.err = NULL;
	cfg->doc.errlen = 0;
	if (ret) {
		sc_config_destroy(cfg);
		return ret;
	}
	*out = cfg;
	return 0;
}

