/* phases.c -- the phases: list read, one phase after another (its
 * workload first, then its keys (phase_key.c), then defaults and the rules
 * of its workload), names unique. */
#include "schema.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

static int parse_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	const struct cfg_node *m = pv->map;
	int err;

	snprintf(pv->name, sizeof(pv->name), "phase%u", i);
	pv->workload = SC_WORKLOAD_IO;
	if (m->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, m,
					"expected a mapping of phase keys (rw:, bs:, ...), got %s",
					sc_cfg_is_null(m) ? "nothing" : sc_cfg_kind_word(m));

	/* The workload first: it decides which keys the phase takes and
	 * what they default to.  A step "- idle: 5m" is workload idle. */
	{
		const struct cfg_node *wn = sc_cfg_map_get(m, "workload");
		bool own = wn != NULL;

		if (!wn && sc_cfg_map_get(m, "idle"))
			pv->workload = SC_WORKLOAD_IDLE;
		else if (!wn)
			wn = sc_cfg_map_get(c->defaults, "workload");
		if (wn) {
			err = sc_cfg_parse_phase_key(c, pv, PK_WORKLOAD, wn);
			if (err)
				return err;
			pv->own[PK_WORKLOAD] = own;
		}
	}
	sc_cfg_builtin_defaults(pv, i);
	for (uint32_t j = 0; j < m->npairs; j++) {
		const struct cfg_pair *p = &m->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_phase_keys);

		if (k < 0)
			return sc_cfg_unknown_key(c, p, "phase", pv->workload);
		if (k == PK_WORKLOAD)
			continue;
		if (!sc_cfg_takes(pv->workload, (enum pkey)k))
			return sc_cfg_wrong_workload(c, p, pv, (enum pkey)k);
		err = sc_cfg_parse_phase_key(c, pv, (enum pkey)k, p->val);
		if (err)
			return err;
		pv->own[k] = true;
	}
	err = sc_cfg_apply_defaults(c, pv);
	return err ? err : sc_cfg_check_phase(c, i, pv);
}

int sc_cfg_parse_phases(struct cfg_check *c)
{
	const struct cfg_node *ps;
	int err = sc_cfg_section_list(c, "phases", "phase", "rw: read", &ps);

	if (err)
		return err;
	c->pv = calloc(ps->nitems, sizeof(*c->pv));
	if (!c->pv)
		return -ENOMEM;
	for (uint32_t i = 0; i < ps->nitems; i++) {
		c->pv[i].map = ps->items[i];
		err = parse_phase(c, i, &c->pv[i]);
		if (err)
			return err;
		c->npv++;
	}
	for (uint32_t i = 0; i < c->npv; i++) {
		for (uint32_t j = 0; j < i; j++) {
			const struct cfg_phase *a = &c->pv[j], *b = &c->pv[i];

			if (strcmp(a->name, b->name))
				continue;
			if (b->src[PK_NAME])
				return sc_cfg_fail_node(c->d, b->src[PK_NAME],
							"\"%s\" is already the name of phases.%u",
							b->name, j);
			return sc_cfg_fail_node(
			    c->d, a->src[PK_NAME],
			    "\"%s\" is the default name of phases.%u (rename one)", a->name, i);
		}
	}
	return 0;
}
