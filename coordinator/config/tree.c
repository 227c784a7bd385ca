/* tree.c -- the config document's tree: nodes, mappings, dotted key paths,
 * lookups by path, and the one error message a document reports. */
#include "config_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for the message of sc_cfg_fail_node (sc_cfg_fail's whole message
 * holds a location and a path besides). */
#define NODE_MSG_BYTES 768u

int sc_cfg_fail(struct cfg_doc *d, const struct cfg_loc *loc, const char *path, const char *fmt,
		...)
{
	char msg[1024], where[512];
	va_list ap;

	if (d->failed)
		return -EINVAL;
	d->failed = true;
	if (!d->err || !d->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (loc && loc->set)
		snprintf(where, sizeof(where), "--set %s", loc->set);
	else if (loc)
		snprintf(where, sizeof(where), "%s:%u:%u", d->file, loc->line + 1, loc->col + 1);
	else
		snprintf(where, sizeof(where), "%s", d->file);
	if (path && *path)
		snprintf(d->err, d->errlen, "%s: %s: %s", where, path, msg);
	else
		snprintf(d->err, d->errlen, "%s: %s", where, msg);
	return -EINVAL;
}

int sc_cfg_fail_node(struct cfg_doc *d, const struct cfg_node *n, const char *fmt, ...)
{
	char msg[NODE_MSG_BYTES];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sc_cfg_fail(d, &n->loc, n->path, "%s", msg);
}

/* ---- the tree ---- */

void sc_cfg_node_free(struct cfg_node *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->nitems; i++)
		sc_cfg_node_free(n->items[i]);
	for (uint32_t i = 0; i < n->npairs; i++) {
		free(n->pairs[i].key);
		sc_cfg_node_free(n->pairs[i].val);
	}
	free(n->items);
	free(n->pairs);
	free(n->str);
	free(n->path);
	free(n);
}

struct cfg_node *sc_cfg_node_new(enum cfg_kind kind, struct cfg_loc loc)
{
	struct cfg_node *n = calloc(1, sizeof(*n));

	if (n) {
		n->kind = kind;
		n->loc = loc;
	}
	return n;
}

struct cfg_node *sc_cfg_node_clone(const struct cfg_node *src)
{
	struct cfg_node *n = sc_cfg_node_new(src->kind, src->loc);

	if (!n)
		return NULL;
	n->plain = src->plain;
	n->from_env = src->from_env;
	if (src->str && !(n->str = strdup(src->str)))
		goto out_free;
	if (src->nitems) {
		n->items = calloc(src->nitems, sizeof(*n->items));
		if (!n->items)
			goto out_free;
		for (; n->nitems < src->nitems; n->nitems++)
			if (!(n->items[n->nitems] = sc_cfg_node_clone(src->items[n->nitems])))
				goto out_free;
	}
	if (src->npairs) {
		n->pairs = calloc(src->npairs, sizeof(*n->pairs));
		if (!n->pairs)
			goto out_free;
		for (; n->npairs < src->npairs; n->npairs++) {
			struct cfg_pair *p = &n->pairs[n->npairs];

			p->kloc = src->pairs[n->npairs].kloc;
			p->key = strdup(src->pairs[n->npairs].key);
			p->val = sc_cfg_node_clone(src->pairs[n->npairs].val);
			if (!p->key || !p->val) {
				n->npairs++;
				goto out_free;
			}
		}
	}
	return n;

out_free:
	sc_cfg_node_free(n);
	return NULL;
}

struct cfg_pair *sc_cfg_map_pair(const struct cfg_node *map, const char *key)
{
	if (!map || map->kind != CFG_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->npairs; i++)
		if (strcmp(map->pairs[i].key, key) == 0)
			return &map->pairs[i];
	return NULL;
}

struct cfg_node *sc_cfg_map_get(const struct cfg_node *map, const char *key)
{
	struct cfg_pair *p = sc_cfg_map_pair(map, key);

	return p ? p->val : NULL;
}

void sc_cfg_map_remove(struct cfg_node *map, const char *key)
{
	struct cfg_pair *p = sc_cfg_map_pair(map, key);

	if (!p)
		return;
	free(p->key);
	sc_cfg_node_free(p->val);
	size_t i = (size_t)(p - map->pairs);
	memmove(p, p + 1, (map->npairs - i - 1) * sizeof(*p));
	map->npairs--;
}

bool sc_cfg_is_null(const struct cfg_node *n)
{
	return n && n->kind == CFG_SCALAR && n->plain &&
	       (!n->str[0] || strcmp(n->str, "~") == 0 || strcmp(n->str, "null") == 0 ||
		strcmp(n->str, "Null") == 0 || strcmp(n->str, "NULL") == 0);
}

char *sc_cfg_path_join(const char *parent, const char *key)
{
	size_t lp = strlen(parent), lk = strlen(key);
	char *p = malloc(lp + lk + 2);

	if (!p)
		return NULL;
	if (lp) {
		memcpy(p, parent, lp);
		p[lp++] = '.';
	}
	memcpy(p + lp, key, lk + 1);
	return p;
}

char *sc_cfg_path_index(const char *parent, uint32_t i)
{
	char num[16];

	snprintf(num, sizeof(num), "%u", i);
	return sc_cfg_path_join(parent, num);
}

static int assign_paths(struct cfg_node *n, char *path)
{
	free(n->path);
	n->path = path;
	if (!path)
		return -ENOMEM;
	for (uint32_t i = 0; i < n->nitems; i++)
		if (assign_paths(n->items[i], sc_cfg_path_index(path, i)))
			return -ENOMEM;
	for (uint32_t i = 0; i < n->npairs; i++)
		if (assign_paths(n->pairs[i].val, sc_cfg_path_join(path, n->pairs[i].key)))
			return -ENOMEM;
	return 0;
}

int sc_cfg_doc_paths(struct cfg_doc *d)
{
	return assign_paths(d->root, strdup(""));
}

/* ---- names and lookups ---- */

static int phase_by_name(const struct cfg_node *phases, const char *name, size_t len)
{
	char dflt[32];

	if (!phases || phases->kind != CFG_SEQ)
		return -1;
	for (uint32_t i = 0; i < phases->nitems; i++) {
		const struct cfg_node *nm = sc_cfg_map_get(phases->items[i], "name");
		const char *s = nm && nm->kind == CFG_SCALAR ? nm->str : NULL;

		if (!nm) {
			snprintf(dflt, sizeof(dflt), "phase%u", i);
			s = dflt;
		}
		if (s && strlen(s) == len && memcmp(s, name, len) == 0)
			return (int)i;
	}
	return -1;
}

static bool all_digits(const char *s, size_t len)
{
	if (!len || len > 9)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* One step down from cur along *rest ("0.bs", "seqwrite.bs"): the child
 * or NULL; *rest moves past the component(s) used. */
struct cfg_node *sc_cfg_step(const struct cfg_doc *d, const struct cfg_node *cur, const char **rest)
{
	const char *s = *rest, *dot = strchr(s, '.');
	size_t len = dot ? (size_t)(dot - s) : strlen(s);

	if (cur->kind == CFG_MAP) {
		for (uint32_t i = 0; i < cur->npairs; i++)
			if (strlen(cur->pairs[i].key) == len &&
			    memcmp(cur->pairs[i].key, s, len) == 0) {
				*rest = dot ? dot + 1 : s + len;
				return cur->pairs[i].val;
			}
		return NULL;
	}
	if (cur->kind != CFG_SEQ)
		return NULL;
	if (all_digits(s, len)) {
		unsigned long i = strtoul(s, NULL, 10);

		if (i >= cur->nitems)
			return NULL;
		*rest = dot ? dot + 1 : s + len;
		return cur->items[i];
	}
	if (cur != sc_cfg_map_get(d->root, "phases"))
		return NULL;
	/* Phase names may hold dots: the longest name that matches wins. */
	for (size_t l = strlen(s); l > 0; l--) {
		int i;

		if (s[l] != '\0' && s[l] != '.')
			continue;
		i = phase_by_name(cur, s, l);
		if (i >= 0) {
			*rest = s[l] ? s + l + 1 : s + l;
			return cur->items[i];
		}
	}
	return NULL;
}

const struct cfg_node *sc_cfg_doc_find(const struct cfg_doc *d, const char *path, bool nearest)
{
	const struct cfg_node *cur = d->root;
	const char *rest = path;

	if (!cur)
		return NULL;
	while (*rest) {
		const struct cfg_node *next = sc_cfg_step(d, cur, &rest);

		if (!next)
			return nearest ? cur : NULL;
		cur = next;
	}
	return cur;
}
