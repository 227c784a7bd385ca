/* set.c -- --set KEY=VALUE overrides and ${VAR} expansion on the
 * config document. */
#include "config_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static int expand_node(struct cfg_doc *d, struct cfg_node *n);

/* ---- --set ---- */

/* The value node of a --set argument: a flow list "[a, b]" is parsed as
 * YAML, anything else is one plain scalar, taken literally. */
static int set_value(struct cfg_doc *d, const char *arg, const char *value, struct cfg_node **out)
{
	struct cfg_loc loc = {0, 0, arg};
	int err;

	if (value[0] != '[') {
		*out = sc_cfg_node_new(CFG_SCALAR, loc);
		if (!*out || !((*out)->str = strdup(value))) {
			free(*out);
			return -ENOMEM;
		}
		(*out)->plain = true;
		return 0;
	}
	err = sc_cfg_parse_buffer(d, value, strlen(value), arg, out);
	if (err)
		return err;
	if ((*out)->kind != CFG_SEQ) {
		sc_cfg_node_free(*out);
		*out = NULL;
		return sc_cfg_fail(d, &loc, NULL, "not a valid list (write [A, B, ...])");
	}
	for (uint32_t i = 0; i < (*out)->nitems; i++) {
		if ((*out)->items[i]->kind != CFG_SCALAR) {
			sc_cfg_node_free(*out);
			*out = NULL;
			return sc_cfg_fail(
			    d, &loc, NULL,
			    "a list of plain values is expected (write [A, B, ...])");
		}
	}
	return 0;
}

/* Sets key in map to val (taking it); runtime is an alternative to
 * io_size (io, kvcache) and to epochs (ingest), so setting one drops the
 * other (and io_size drops ramp, which only applies to runtime). */
static int set_key(struct cfg_node *map, const char *key, struct cfg_node *val, const char *arg)
{
	struct cfg_pair *p;

	if (strcmp(key, "runtime") == 0) {
		sc_cfg_map_remove(map, "io_size");
		sc_cfg_map_remove(map, "epochs");
	} else if (strcmp(key, "io_size") == 0) {
		sc_cfg_map_remove(map, "runtime");
		sc_cfg_map_remove(map, "ramp");
	} else if (strcmp(key, "epochs") == 0) {
		sc_cfg_map_remove(map, "runtime");
	}
	p = sc_cfg_map_pair(map, key);
	if (p) {
		sc_cfg_node_free(p->val);
		p->val = val;
		return 0;
	}
	p = realloc(map->pairs, (map->npairs + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	map->pairs = p;
	p += map->npairs;
	memset(p, 0, sizeof(*p));
	p->key = strdup(key);
	if (!p->key)
		return -ENOMEM;
	p->kloc.set = arg;
	p->val = val;
	map->npairs++;
	return 0;
}

/* Sets a bare key in every mapping of list (targets). */
static int set_all(struct cfg_node *list, const char *key, const struct cfg_node *val,
		   const char *arg)
{
	if (!list || list->kind != CFG_SEQ)
		return 0;
	for (uint32_t i = 0; i < list->nitems; i++) {
		struct cfg_node *v;
		int err;

		if (list->items[i]->kind != CFG_MAP)
			continue;
		v = sc_cfg_node_clone(val);
		if (!v)
			return -ENOMEM;
		err = set_key(list->items[i], key, v, arg);
		if (err) {
			sc_cfg_node_free(v);
			return err;
		}
	}
	return 0;
}

/* A copy of n with ${VAR} expanded, nothing reported (NULL: no memory).
 * A reference that cannot be expanded stays as it is. */
static struct cfg_node *expanded_copy(const struct cfg_doc *d, const struct cfg_node *n)
{
	struct cfg_doc quiet = {.file = d->file};
	struct cfg_node *x = sc_cfg_node_clone(n);

	if (x && expand_node(&quiet, x)) {
		sc_cfg_node_free(x);
		x = sc_cfg_node_clone(n);
	}
	return x;
}

/* The workload of phase map as the config stands (its own workload:, else
 * the default's, else io); -1 when that is not a workload. */
static int phase_workload(const struct cfg_doc *d, const struct cfg_node *map)
{
	const struct cfg_node *wn = sc_cfg_map_get(map, "workload");
	struct cfg_node *x;
	int w = SC_WORKLOAD_IO;

	if (!wn && sc_cfg_map_get(map, "idle"))
		return SC_WORKLOAD_IDLE; /* a step "- idle: 5m" */
	if (!wn)
		wn = sc_cfg_map_get(sc_cfg_map_get(d->root, "defaults"), "workload");
	if (!wn)
		return w;
	x = expanded_copy(d, wn);
	w = x && x->kind == CFG_SCALAR ? sc_workload_parse(x->str) : -1;
	sc_cfg_node_free(x);
	return w < 0 ? -1 : w;
}

/* Whether phase map times itself with steady_state (its rounds' runtime),
 * so that a bare runtime, io_size or ramp passes it by. */
static bool steady_times(const struct cfg_node *map, const char *key)
{
	return sc_cfg_map_get(map, "steady_state") &&
	       (strcmp(key, "runtime") == 0 || strcmp(key, "io_size") == 0 ||
		strcmp(key, "ramp") == 0);
}

/* Sets the bare phase key in every phase whose workload takes it and
 * whose kind of value val is (fsync=true: checkpoint phases; a list: the
 * phases that sweep the key).  When val fits no phase, every phase that
 * takes the key gets it, so that the load reports why. */
static int set_phases(struct cfg_doc *d, const char *arg, const char *key,
		      const struct cfg_node *val)
{
	struct cfg_node *ps = sc_cfg_map_get(d->root, "phases");
	struct cfg_node *xval;
	char owners[96], here[96] = "";
	bool any_map = false, any_takes = false, any_fits = false;
	unsigned seen = 0; /* workloads of the phases */
	int8_t *fit;
	int err = 0;

	if (!ps || ps->kind != CFG_SEQ || !ps->nitems)
		return 0;
	fit = calloc(ps->nitems, sizeof(*fit));
	xval = expanded_copy(d, val);
	if (!fit || !xval) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < ps->nitems; i++) {
		int w;

		fit[i] = -1;
		if (ps->items[i]->kind != CFG_MAP)
			continue;
		any_map = true;
		w = phase_workload(d, ps->items[i]);
		fit[i] = (int8_t)sc_cfg_phase_key_fits(key, w, xval);
		any_takes |= fit[i] >= 0;
		any_fits |= fit[i] > 0;
		if (w >= 0)
			seen |= 1u << w;
	}
	if (any_map && !any_takes) {
		struct cfg_loc loc = {0, 0, arg};

		for (int w = 0; w < SC_WORKLOAD_COUNT; w++) {
			if (!(seen & (1u << w)))
				continue;
			strncat(here, here[0] ? ", " : "", sizeof(here) - strlen(here) - 1);
			strncat(here, sc_workload_name((enum sc_workload)w),
				sizeof(here) - strlen(here) - 1);
		}
		err = sc_cfg_fail(d, &loc, NULL,
				  "no phase accepts \"%s\" (it is a key of workload %s; the phases "
				  "here are %s)",
				  key, sc_cfg_key_workloads(key, owners, sizeof(owners)), here);
		goto out;
	}
	for (uint32_t i = 0; !err && i < ps->nitems; i++) {
		struct cfg_node *v;

		if (fit[i] < 0 || (any_fits && fit[i] == 0) || steady_times(ps->items[i], key))
			continue;
		v = sc_cfg_node_clone(val);
		if (!v) {
			err = -ENOMEM;
			break;
		}
		err = set_key(ps->items[i], key, v, arg);
		if (err)
			sc_cfg_node_free(v);
	}
out:
	sc_cfg_node_free(xval);
	free(fit);
	return err;
}

static int set_bare(struct cfg_doc *d, const char *arg, const char *key, struct cfg_node *val)
{
	struct cfg_loc loc = {0, 0, arg};
	int err;

	if (sc_cfg_key_in(key, sc_cfg_phase_keys)) {
		err = set_phases(d, arg, key, val);
	} else if (sc_cfg_key_in(key, sc_cfg_target_keys)) {
		err = set_all(sc_cfg_map_get(d->root, "targets"), key, val, arg);
	} else if (sc_cfg_key_in(key, sc_cfg_top_keys) && !sc_cfg_key_in(key, sc_cfg_sections)) {
		/* a top-level setting (memory_per_rank) */
		struct cfg_node *v = sc_cfg_node_clone(val);

		err = v ? set_key(d->root, key, v, arg) : -ENOMEM;
		if (err && v)
			sc_cfg_node_free(v);
	} else {
		const char *near = sc_cfg_nearest(key, sc_cfg_phase_keys, (size_t)-1);

		if (!near)
			near = sc_cfg_nearest(key, sc_cfg_target_keys, (size_t)-1);
		if (near)
			err = sc_cfg_fail(d, &loc, NULL,
					  "no phase or target accepts \"%s\" (did you mean %s?)",
					  key, near);
		else
			err = sc_cfg_fail(d, &loc, NULL, "no phase or target accepts \"%s\"", key);
	}
	sc_cfg_node_free(val);
	return err;
}

static int set_dotted(struct cfg_doc *d, const char *arg, const char *key, struct cfg_node *val)
{
	struct cfg_loc loc = {0, 0, arg};
	struct cfg_node *cur = d->root;
	const char *rest = key;
	int err;

	const char *opt = strncmp(key, "defaults.", 9) == 0 ? "defaults"
			  : strncmp(key, "model.", 6) == 0  ? "model"
							    : NULL;

	if (opt && (!sc_cfg_map_get(d->root, opt) || sc_cfg_is_null(sc_cfg_map_get(d->root, opt)))) {
		/* Creates the optional section being set into. */
		struct cfg_node *m = sc_cfg_node_new(CFG_MAP, loc);

		if (!m)
			goto out_nomem;
		err = set_key(d->root, opt, m, arg);
		if (err) {
			sc_cfg_node_free(m);
			goto out_free;
		}
	}
	{
		const char *dot = strchr(key, '.');
		size_t len = (size_t)(dot - key);
		char sect[32];

		snprintf(sect, sizeof(sect), "%.*s", (int)(len < 31 ? len : 31), key);
		if (!sc_cfg_key_in(sect, sc_cfg_sections)) {
			err = sc_cfg_fail(d, &loc, NULL,
					  "no section \"%s\" (known: targets, defaults, phases, model)",
					  sect);
			goto out_free;
		}
		if (!sc_cfg_map_get(d->root, sect)) {
			err = sc_cfg_fail(d, &loc, NULL, "the config has no %s", sect);
			goto out_free;
		}
	}
	for (;;) {
		const char *dot = strchr(rest, '.');
		struct cfg_node *next;

		if (!dot && cur->kind == CFG_MAP)
			break; /* the last key: set or create it */
		next = sc_cfg_step(d, cur, &rest);
		if (!next) {
			if (cur->kind == CFG_SCALAR)
				err = sc_cfg_fail(d, &loc, NULL,
						  "%s is a single value, not a mapping or list",
						  cur->path);
			else if (cur->kind == CFG_SEQ && !cur->nitems)
				err = sc_cfg_fail(d, &loc, NULL, "%s is empty", cur->path);
			else if (cur->kind == CFG_SEQ)
				err = sc_cfg_fail(
				    d, &loc, NULL, "%s has no entry \"%.*s\" (use 0..%u%s)",
				    cur->path, (int)(dot ? (size_t)(dot - rest) : strlen(rest)),
				    rest, cur->nitems - 1,
				    cur == sc_cfg_map_get(d->root, "phases") ? " or a phase name"
									     : "");
			else
				err = sc_cfg_fail(d, &loc, NULL, "%s has no key \"%.*s\"",
						  cur->path, (int)(dot - rest), rest);
			goto out_free;
		}
		if (!*rest) {
			/* The path ends at a list entry: replace it. */
			for (uint32_t i = 0; i < cur->nitems; i++)
				if (cur->items[i] == next) {
					sc_cfg_node_free(next);
					cur->items[i] = val;
				}
			return 0;
		}
		cur = next;
	}
	err = set_key(cur, rest, val, arg);
	if (err)
		goto out_free;
	return 0;

out_nomem:
	err = -ENOMEM;
out_free:
	sc_cfg_node_free(val);
	return err;
}

/* The destroy opt-in a key path ends in ("allow_destroy",
 * "wipe_signatures_ok"), or NULL: the config file has to say those, so a
 * command line alone never opts a device in. */
static const char *destroy_key(const char *key)
{
	static const char *const keys[] = {"allow_destroy", "wipe_signatures_ok"};
	const char *last = strrchr(key, '.');

	last = last ? last + 1 : key;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(last, keys[i]) == 0)
			return keys[i];
	return NULL;
}

static int apply_set(struct cfg_doc *d, const char *arg)
{
	struct cfg_loc loc = {0, 0, arg};
	const char *eq = strchr(arg, '=');
	struct cfg_node *val;
	char *key;
	int err;

	if (!eq || eq == arg)
		return sc_cfg_fail(d, &loc, NULL, "expected KEY=VALUE (e.g. runtime=10s)");
	key = strndup(arg, (size_t)(eq - arg));
	if (!key)
		return -ENOMEM;
	if (key[strlen(key) - 1] == '.' || key[0] == '.' || strstr(key, "..")) {
		err =
		    sc_cfg_fail(d, &loc, NULL, "\"%s\" is not a key path (e.g. phases.0.bs)", key);
		goto out_key;
	}
	if (destroy_key(key) && strcmp(eq + 1, "false") != 0) {
		err = sc_cfg_fail(
		    d, &loc, NULL,
		    "%s is never taken from --set: write it on the target in the config "
		    "file, next to the path it lets the run destroy (and run with "
		    "--allow-destroy)",
		    destroy_key(key));
		goto out_key;
	}
	err = set_value(d, arg, eq + 1, &val);
	if (err)
		goto out_key;
	if (strchr(key, '.'))
		err = set_dotted(d, arg, key, val);
	else
		err = set_bare(d, arg, key, val);
	if (!err)
		err = sc_cfg_doc_paths(d);
out_key:
	free(key);
	return err;
}

int sc_cfg_doc_apply_sets(struct cfg_doc *d, const char *const *sets, uint32_t nsets)
{
	if (!nsets)
		return 0;
	d->sets = calloc(nsets, sizeof(*d->sets));
	if (!d->sets)
		return -ENOMEM;
	for (uint32_t i = 0; i < nsets; i++) {
		int err;

		d->sets[i] = strdup(sets[i] ? sets[i] : "");
		if (!d->sets[i])
			return -ENOMEM;
		d->nsets++;
		err = apply_set(d, d->sets[i]);
		if (err)
			return err;
	}
	return 0;
}

/* ---- ${VAR} ---- */

struct strbuf {
	char *s;
	size_t len, cap;
};

static int sb_add(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, cap);

		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

static bool var_name_ok(const char *s, size_t n)
{
	if (!n || n > 200 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

static int expand_node(struct cfg_doc *d, struct cfg_node *n)
{
	struct strbuf b = {0};
	const char *p;
	int err = 0;

	if (n->kind != CFG_SCALAR) {
		for (uint32_t i = 0; !err && i < n->nitems; i++)
			err = expand_node(d, n->items[i]);
		for (uint32_t i = 0; !err && i < n->npairs; i++)
			err = expand_node(d, n->pairs[i].val);
		return err;
	}
	if (!strchr(n->str, '$'))
		return 0;
	for (p = n->str; !err && *p;) {
		const char *close, *name, *dflt = NULL, *v;
		size_t nlen;

		if (p[0] != '$' || (p[1] != '$' && p[1] != '{')) {
			size_t run = strcspn(p + 1, "$") + 1;

			err = sb_add(&b, p, run);
			p += run;
			continue;
		}
		if (p[1] == '$') {
			err = sb_add(&b, "$", 1);
			p += 2;
			continue;
		}
		close = strchr(p + 2, '}');
		if (!close) {
			err = sc_cfg_fail(d, &n->loc, n->path,
					  "unterminated ${ in \"%s\" (write ${NAME}, "
					  "${NAME:-default}, or $$ for a $)",
					  n->str);
			break;
		}
		name = p + 2;
		nlen = (size_t)(close - name);
		{
			const char *sep = strstr(name, ":-");

			if (sep && sep < close) {
				dflt = sep + 2;
				nlen = (size_t)(sep - name);
			}
		}
		if (!var_name_ok(name, nlen)) {
			err = sc_cfg_fail(d, &n->loc, n->path,
					  "\"%.*s\" is not a variable reference (write ${NAME} or "
					  "${NAME:-default}; $$ is a literal $)",
					  (int)(close - p + 1), p);
			break;
		}
		{
			char var[256];

			snprintf(var, sizeof(var), "%.*s", (int)nlen, name);
			v = getenv(var);
			n->from_env = true; /* even its default: the environment chose it */
			if (dflt && (!v || !*v))
				err = sb_add(&b, dflt, (size_t)(close - dflt));
			else if (v)
				err = sb_add(&b, v, strlen(v));
			else
				err = sc_cfg_fail(
				    d, &n->loc, n->path,
				    "${%s} is not set (export %s, or write ${%s:-default})", var,
				    var, var);
		}
		p = close + 1;
	}
	if (!err && !b.s)
		err = sb_add(&b, "", 0);
	if (err) {
		free(b.s);
		return err;
	}
	free(n->str);
	n->str = b.s;
	return 0;
}

int sc_cfg_doc_expand(struct cfg_doc *d)
{
	return expand_node(d, d->root);
}
