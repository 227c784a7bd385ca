/* config_doc.c -- what the config's sections and its users share: a top
 * section's list checked, the loaded config's plan, where a key path
 * stands in the file, the config freed.  Helpers only: config.c (the
 * driver) calls the sections, which call these. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"

int sc_cfg_section_list(struct cfg_check *c, const char *name, const char *one, const char *example,
			const struct cfg_node **out)
{
	const struct cfg_node *root = c->d->root;
	const struct cfg_node *list = sc_cfg_map_get(root, name);

	if (!list)
		return sc_cfg_fail(c->d, &root->loc, name,
				   "missing (list at least one %s: %s: [{%s}])", one, name,
				   example);
	if (sc_cfg_is_null(list) || (list->kind == CFG_SEQ && !list->nitems))
		return sc_cfg_fail_node(c->d, list, "no %s (list at least one, e.g. - %s)", name,
					example);
	if (list->kind != CFG_SEQ)
		return sc_cfg_fail_node(c->d, list, "expected a list of %s, got %s", name,
					sc_cfg_kind_word(list));
	*out = list;
	return 0;
}

const struct sc_plan *sc_config_plan(const struct sc_config *cfg)
{
	return &cfg->plan;
}

void sc_config_take_plan(struct sc_config *cfg, struct sc_plan *out)
{
	*out = cfg->plan;
	memset(&cfg->plan, 0, sizeof(cfg->plan));
}

const char *sc_config_where(const struct sc_config *cfg, const char *keypath, char *buf, size_t len)
{
	const struct cfg_doc *d = &cfg->doc;
	const struct cfg_node *n, *ps = sc_cfg_map_get(d->root, "phases");
	char norm[512], *dot;
	size_t o = 0;

	/* "phases[2].bs" is the same path as "phases.2.bs". */
	for (const char *p = keypath ? keypath : ""; *p && o + 1 < sizeof(norm); p++) {
		if (*p == ']')
			continue;
		norm[o++] = *p == '[' ? '.' : *p;
	}
	norm[o] = '\0';
	n = sc_cfg_doc_find(d, norm, false);
	dot = strrchr(norm, '.');
	if (!n && dot && ps && strncmp(norm, "phases.", 7) == 0) {
		/* A phase key the phase does not set comes from defaults. */
		const struct cfg_node *ph;

		*dot = '\0';
		ph = sc_cfg_doc_find(d, norm, false);
		for (uint32_t i = 0; ph && i < ps->nitems; i++)
			if (ps->items[i] == ph)
				n = sc_cfg_map_get(sc_cfg_map_get(d->root, "defaults"), dot + 1);
		*dot = '.';
	}
	if (!n)
		n = sc_cfg_doc_find(d, norm, true);
	if (!n || n == d->root)
		snprintf(buf, len, "%s", d->file);
	else if (n->loc.set)
		snprintf(buf, len, "--set %s", n->loc.set);
	else
		snprintf(buf, len, "%s:%u:%u", d->file, n->loc.line + 1, n->loc.col + 1);
	return buf;
}

void sc_config_destroy(struct sc_config *cfg)
{
	if (!cfg)
		return;
	sc_plan_exit(&cfg->plan);
	sc_cfg_doc_exit(&cfg->doc);
	free(cfg);
}
