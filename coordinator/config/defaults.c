/* defaults.c -- what a phase does not say: the built-in defaults of each
 * workload, the defaults: section checked, and merged into each phase. */
#include "schema.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>


const char *sc_cfg_default_said(enum pkey k, uint64_t w, char *buf, size_t len)
{
	const char *d = sc_cfg_keys[k].dflt, *wname = sc_workload_name((enum sc_workload)w);
	size_t wlen = strlen(wname), n = strcspn(d, ";");
	const char *val = d;

	/* "VALUE; WORKLOAD VALUE; ...": the first, unless w has its own */
	for (const char *p = d + n; *p == ';';) {
		const char *seg = p + 1 + strspn(p + 1, " ");
		size_t slen = strcspn(seg, ";");

		if (slen > wlen && strncmp(seg, wname, wlen) == 0 && seg[wlen] == ' ') {
			val = seg + wlen + 1;
			n = slen - wlen - 1;
		}
		p = seg + slen;
	}
	if (n >= len)
		n = len - 1;
	memcpy(buf, val, n);
	buf[n] = '\0';
	return buf;
}

const char *sc_cfg_default_text(enum pkey k, uint64_t w, char *buf, size_t len)
{
	sc_cfg_default_said(k, w, buf, len);
	return strcmp(buf, "-") == 0 || *buf == '(' ? NULL : buf;
}

void sc_cfg_builtin_defaults(struct cfg_phase *pv, uint32_t i)
{
	struct cfg_doc quiet = {.file = ""};
	struct cfg_check q = {.d = &quiet};
	char text[64];

	pv->bs.n = pv->iodepth.n = 1; /* one cell, unless a list sweeps */
	pv->seed = 1 + (uint64_t)i;
	for (int k = 0; k < PK_COUNT; k++) {
		struct cfg_node n = {.kind = CFG_SCALAR, .plain = true};

		if (k == PK_WORKLOAD || !sc_cfg_takes(pv->workload, (enum pkey)k))
			continue;
		n.str = (char *)sc_cfg_default_text((enum pkey)k, pv->workload, text, sizeof(text));
		if (!n.str)
			continue;
		/* key_table.h's defaults are values of their keys:
		 * test_key_table.c parses each one */
		(void)sc_cfg_parse_phase_key(&q, pv, (enum pkey)k, &n);
		pv->src[k] = NULL; /* built in */
		pv->rw.node[0] = pv->bs.node[0] = pv->iodepth.node[0] = NULL; /* n goes */
	}
}

int sc_cfg_parse_defaults(struct cfg_check *c)
{
	const struct cfg_node *dm = sc_cfg_map_get(c->d->root, "defaults");
	static const char *const alternatives[] = {"io_size", "epochs"}; /* of runtime */
	int err = 0;

	if (!dm || sc_cfg_is_null(dm))
		return 0;
	if (dm->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, dm, "expected a mapping of phase keys, got %s",
					sc_cfg_kind_word(dm));
	for (uint32_t j = 0; !err && j < dm->npairs; j++) {
		const struct cfg_pair *p = &dm->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_phase_keys);
		int first = -1;
		bool fits = false;

		if (k < 0) {
			err = sc_cfg_unknown_key(c, p, "defaults", SC_WORKLOAD_IO);
			break;
		}
		if (k == PK_NAME) {
			err = sc_cfg_fail(
			    c->d, &p->kloc, p->val->path,
			    "a name cannot be a default (give each phase its own name:)");
			break;
		}
		/* A default must be a value of the key in some workload; it
		 * reaches the phases where it is (fsync: 8 or true). */
		for (int w = 0; w < SC_WORKLOAD_COUNT && !fits; w++) {
			if (!sc_cfg_takes((uint64_t)w, (enum pkey)k))
				continue;
			if (first < 0)
				first = w;
			fits = sc_cfg_key_fits((uint64_t)w, (enum pkey)k, p->val);
		}
		if (fits)
			continue;
		/* reported as the first workload that takes it sees it */
		err = sc_cfg_parse_key_alone(c, (uint64_t)first, (enum pkey)k, p->val);
	}
	for (size_t a = 0; a < sizeof(alternatives) / sizeof(alternatives[0]); a++) {
		const struct cfg_pair *alt = sc_cfg_map_pair(dm, alternatives[a]);

		if (!err && alt && sc_cfg_map_get(dm, "runtime"))
			err = sc_cfg_fail(c->d, &alt->kloc, alt->val->path,
					  "runtime and %s are alternatives (keep one)",
					  alternatives[a]);
	}
	{
		const struct cfg_pair *ss = sc_cfg_map_pair(dm, "steady_state");

		if (!err && ss && (sc_cfg_map_get(dm, "runtime") || sc_cfg_map_get(dm, "io_size")))
			err = sc_cfg_fail(c->d, &ss->kloc, ss->val->path,
					  "steady_state and %s are alternatives (each round's "
					  "runtime is steady_state's round; keep one)",
					  sc_cfg_map_get(dm, "runtime") ? "runtime" : "io_size");
	}
	c->defaults = dm;
	return err;
}

/* Whether an rw of pv is one pred holds for (a random_distribution
 * from defaults reaches only phases that pick offsets at random, an
 * end_fsync only phases that write). */
static bool any_rw(const struct cfg_phase *pv, bool (*pred)(enum sc_rw))
{
	for (uint32_t i = 0; i < pv->rw.n; i++)
		if (pred((enum sc_rw)pv->rw.v[i]))
			return true;
	return false;
}

int sc_cfg_apply_defaults(struct cfg_check *c, struct cfg_phase *pv)
{
	int err;

	/* A default the workload does not take, that is an alternative to
	 * what the phase chose (runtime vs io_size or epochs) or that does
	 * not apply to it (ramp without runtime, restore_shift without
	 * restore, fsync: true in an io phase) is left out. */
	for (int k = 0; k < PK_COUNT; k++) {
		const struct cfg_node *dn = sc_cfg_map_get(c->defaults, sc_cfg_phase_keys[k]);

		if (!dn || pv->own[k] || k == PK_NAME || k == PK_WORKLOAD ||
		    !sc_cfg_takes(pv->workload, (enum pkey)k) ||
		    (k == PK_RUNTIME && (pv->own[PK_IO_SIZE] || pv->own[PK_EPOCHS])) ||
		    ((k == PK_IO_SIZE || k == PK_EPOCHS) && pv->own[PK_RUNTIME]) ||
		    (k == PK_RAMP && !pv->src[PK_RUNTIME]) ||
		    (k == PK_RESTORE_SHIFT && !pv->restore) ||
		    ((k == PK_RANDOM_DISTRIBUTION || k == PK_RANDOM_EVERY || k == PK_RANDOMMAP) &&
		     !any_rw(pv, sc_rw_random)) ||
		    (k == PK_END_FSYNC && !any_rw(pv, sc_rw_writes)) ||
		    (k == PK_RUNTIME_MAX && pv->src[PK_RUNTIME]) ||
		    (k == PK_FSYNC && !sc_cfg_key_fits(pv->workload, PK_FSYNC, dn)) ||
		    ((k == PK_RUNTIME || k == PK_IO_SIZE || k == PK_RAMP) &&
		     pv->own[PK_STEADY_STATE]) ||
		    (k == PK_STEADY_STATE && (pv->own[PK_RUNTIME] || pv->own[PK_IO_SIZE] ||
					      pv->rw.list || pv->bs.list || pv->iodepth.list)))
			continue;
		err = sc_cfg_parse_phase_key(c, pv, (enum pkey)k, dn);
		if (err)
			return err;
	}
	return 0;
}
