/* config_yaml.c -- the config document: YAML to a tree with locations,
 * --set overrides, ${VAR} expansion and key-path lookups. */
#include "config_priv.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

/* Limits that keep a hostile or runaway file (alias bombs) cheap. */
#define CFG_MAX_FILE_BYTES (16u << 20)
#define CFG_MAX_DEPTH	   32
#define CFG_MAX_NODES	   100000u

int cfg_fail(struct cfg_doc *d, const struct cfg_loc *loc, const char *path, const char *fmt, ...)
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

/* ---- the tree ---- */

void cfg_node_free(struct cfg_node *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->nitems; i++)
		cfg_node_free(n->items[i]);
	for (uint32_t i = 0; i < n->npairs; i++) {
		free(n->pairs[i].key);
		cfg_node_free(n->pairs[i].val);
	}
	free(n->items);
	free(n->pairs);
	free(n->str);
	free(n->path);
	free(n);
}

struct cfg_node *cfg_node_new(enum cfg_kind kind, struct cfg_loc loc)
{
	struct cfg_node *n = calloc(1, sizeof(*n));

	if (n) {
		n->kind = kind;
		n->loc = loc;
	}
	return n;
}

struct cfg_node *cfg_node_clone(const struct cfg_node *src)
{
	struct cfg_node *n = cfg_node_new(src->kind, src->loc);

	if (!n)
		return NULL;
	n->plain = src->plain;
	if (src->str && !(n->str = strdup(src->str)))
		goto out_free;
	if (src->nitems) {
		n->items = calloc(src->nitems, sizeof(*n->items));
		if (!n->items)
			goto out_free;
		for (; n->nitems < src->nitems; n->nitems++)
			if (!(n->items[n->nitems] = cfg_node_clone(src->items[n->nitems])))
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
			p->val = cfg_node_clone(src->pairs[n->npairs].val);
			if (!p->key || !p->val) {
				n->npairs++;
				goto out_free;
			}
		}
	}
	return n;

out_free:
	cfg_node_free(n);
	return NULL;
}

struct cfg_pair *cfg_map_pair(const struct cfg_node *map, const char *key)
{
	if (!map || map->kind != CFG_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->npairs; i++)
		if (strcmp(map->pairs[i].key, key) == 0)
			return &map->pairs[i];
	return NULL;
}

struct cfg_node *cfg_map_get(const struct cfg_node *map, const char *key)
{
	struct cfg_pair *p = cfg_map_pair(map, key);

	return p ? p->val : NULL;
}

void cfg_map_remove(struct cfg_node *map, const char *key)
{
	struct cfg_pair *p = cfg_map_pair(map, key);

	if (!p)
		return;
	free(p->key);
	cfg_node_free(p->val);
	size_t i = (size_t)(p - map->pairs);
	memmove(p, p + 1, (map->npairs - i - 1) * sizeof(*p));
	map->npairs--;
}

bool cfg_is_null(const struct cfg_node *n)
{
	return n && n->kind == CFG_SCALAR && n->plain &&
	       (!n->str[0] || strcmp(n->str, "~") == 0 || strcmp(n->str, "null") == 0 ||
		strcmp(n->str, "Null") == 0 || strcmp(n->str, "NULL") == 0);
}

bool cfg_key_in(const char *key, const char *const *table)
{
	for (; *table; table++)
		if (strcmp(*table, key) == 0)
			return true;
	return false;
}

static char *path_join(const char *parent, const char *key)
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

static char *path_index(const char *parent, uint32_t i)
{
	char num[16];

	snprintf(num, sizeof(num), "%u", i);
	return path_join(parent, num);
}

static int assign_paths(struct cfg_node *n, char *path)
{
	free(n->path);
	n->path = path;
	if (!path)
		return -ENOMEM;
	for (uint32_t i = 0; i < n->nitems; i++)
		if (assign_paths(n->items[i], path_index(path, i)))
			return -ENOMEM;
	for (uint32_t i = 0; i < n->npairs; i++)
		if (assign_paths(n->pairs[i].val, path_join(path, n->pairs[i].key)))
			return -ENOMEM;
	return 0;
}

int cfg_doc_paths(struct cfg_doc *d)
{
	return assign_paths(d->root, strdup(""));
}

/* ---- YAML to tree ---- */

struct conv {
	struct cfg_doc *d;
	yaml_document_t *doc;
	const char *set; /* --set argument the document came from */
	uint32_t nodes;
};

static struct cfg_loc mark_loc(const struct conv *c, yaml_mark_t m)
{
	struct cfg_loc loc = {(uint32_t)m.line, (uint32_t)m.column, c->set};

	return loc;
}

static int convert(struct conv *c, yaml_node_t *yn, const char *path, int depth,
		   struct cfg_node **out)
{
	struct cfg_loc loc = mark_loc(c, yn->start_mark);
	struct cfg_node *n = NULL;

	*out = NULL;
	if (depth > CFG_MAX_DEPTH || ++c->nodes > CFG_MAX_NODES)
		return cfg_fail(c->d, &loc, path,
				"nested too deeply or too many values (aliases?)");
	switch (yn->type) {
	case YAML_SCALAR_NODE:
		n = cfg_node_new(CFG_SCALAR, loc);
		if (!n)
			return -ENOMEM;
		n->plain = yn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n->str = strndup((const char *)yn->data.scalar.value, yn->data.scalar.length);
		if (!n->str)
			goto out_nomem;
		break;
	case YAML_SEQUENCE_NODE: {
		yaml_node_item_t *it = yn->data.sequence.items.start;
		size_t count = (size_t)(yn->data.sequence.items.top - it);

		n = cfg_node_new(CFG_SEQ, loc);
		if (!n || (count && !(n->items = calloc(count, sizeof(*n->items)))))
			goto out_nomem;
		for (; n->nitems < count; n->nitems++) {
			char *p = path_index(path, n->nitems);
			int err;

			if (!p)
				goto out_nomem;
			err = convert(c, yaml_document_get_node(c->doc, it[n->nitems]), p,
				      depth + 1, &n->items[n->nitems]);
			free(p);
			if (err)
				goto out_err;
		}
		break;
	}
	case YAML_MAPPING_NODE: {
		yaml_node_pair_t *pr = yn->data.mapping.pairs.start;
		size_t count = (size_t)(yn->data.mapping.pairs.top - pr);

		n = cfg_node_new(CFG_MAP, loc);
		if (!n || (count && !(n->pairs = calloc(count, sizeof(*n->pairs)))))
			goto out_nomem;
		for (size_t i = 0; i < count; i++) {
			yaml_node_t *k = yaml_document_get_node(c->doc, pr[i].key);
			struct cfg_loc kloc = mark_loc(c, k->start_mark);
			struct cfg_pair *p = &n->pairs[n->npairs];
			char *kpath;
			int err;

			if (k->type != YAML_SCALAR_NODE) {
				cfg_fail(c->d, &kloc, path,
					 "keys must be plain words, not lists or mappings");
				goto out_err;
			}
			p->key = strndup((const char *)k->data.scalar.value, k->data.scalar.length);
			if (!p->key)
				goto out_nomem;
			p->kloc = kloc;
			n->npairs++;
			kpath = path_join(path, p->key);
			if (!kpath)
				goto out_nomem;
			for (uint32_t j = 0; j + 1 < n->npairs; j++) {
				if (strcmp(n->pairs[j].key, p->key))
					continue;
				if (n->pairs[j].kloc.set)
					cfg_fail(c->d, &kloc, kpath, "key given twice");
				else
					cfg_fail(c->d, &kloc, kpath,
						 "duplicate key (first at line %u)",
						 n->pairs[j].kloc.line + 1);
				free(kpath);
				goto out_err;
			}
			err = convert(c, yaml_document_get_node(c->doc, pr[i].value), kpath,
				      depth + 1, &p->val);
			free(kpath);
			if (err)
				goto out_err;
		}
		break;
	}
	default:
		return cfg_fail(c->d, &loc, path, "empty node");
	}
	*out = n;
	return 0;

out_nomem:
	cfg_node_free(n);
	return -ENOMEM;
out_err:
	cfg_node_free(n);
	return -EINVAL;
}

/* Reports the parser's error; 0-based line/col from a byte offset for
 * reader (encoding) errors, which carry no mark. */
static int yaml_error(struct cfg_doc *d, const yaml_parser_t *p, const char *buf, size_t len,
		      const char *set)
{
	struct cfg_loc loc = {0, 0, set};
	char ctx[256] = "";

	if (p->error == YAML_MEMORY_ERROR)
		return -ENOMEM;
	if (p->error == YAML_READER_ERROR) {
		for (size_t i = 0; i < p->problem_offset && i < len; i++) {
			if (buf[i] == '\n') {
				loc.line++;
				loc.col = 0;
			} else {
				loc.col++;
			}
		}
	} else {
		loc.line = (uint32_t)p->problem_mark.line;
		loc.col = (uint32_t)p->problem_mark.column;
		if (p->problem_mark.index < len && buf[p->problem_mark.index] == '\t')
			snprintf(ctx, sizeof(ctx), " (a tab: YAML indents with spaces only)");
		else if (p->context)
			snprintf(ctx, sizeof(ctx), " (%s at line %u)", p->context,
				 (unsigned)p->context_mark.line + 1);
	}
	if (set)
		return cfg_fail(d, &loc, NULL, "not a valid list: %s%s",
				p->problem ? p->problem : "syntax error", ctx);
	return cfg_fail(d, &loc, NULL, "YAML syntax: %s%s", p->problem ? p->problem : "error", ctx);
}

/* Parses one YAML document from buf into *out (an empty mapping for an
 * empty document).  set: the --set argument it came from, or NULL. */
int cfg_parse_buffer(struct cfg_doc *d, const char *buf, size_t len, const char *set,
		     struct cfg_node **out)
{
	struct conv c = {.d = d, .set = set};
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	yaml_node_t *root;
	int err = 0;

	*out = NULL;
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		err = yaml_error(d, &parser, buf, len, set);
		goto out_parser;
	}
	c.doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (root) {
		err = convert(&c, root, "", 0, out);
	} else {
		struct cfg_loc loc = {0, 0, set};

		*out = cfg_node_new(CFG_MAP, loc);
		if (!*out)
			err = -ENOMEM;
	}
	if (err)
		goto out_doc;
	/* A second document ("---") would be silently ignored: refuse it. */
	if (!yaml_parser_load(&parser, &extra)) {
		err = yaml_error(d, &parser, buf, len, set);
	} else {
		yaml_node_t *r2 = yaml_document_get_root_node(&extra);

		if (r2) {
			struct cfg_loc loc = mark_loc(&c, r2->start_mark);

			err = cfg_fail(
			    d, &loc, NULL,
			    "a second YAML document (one config per file: remove the ---)");
		}
		yaml_document_delete(&extra);
	}
	if (err) {
		cfg_node_free(*out);
		*out = NULL;
	}
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&parser);
	return err;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? -EISDIR : -errno;

		close(fd);
		return err;
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	b = malloc(cap);
	while (b) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = cap >= CFG_MAX_FILE_BYTES ? NULL : realloc(b, cap * 2);

			if (!nb) {
				free(b);
				close(fd);
				return cap >= CFG_MAX_FILE_BYTES ? -EFBIG : -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(b);
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!b)
		return -ENOMEM;
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int cfg_doc_load(struct cfg_doc *d, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int err = read_file(path, &buf, &len);

	if (err) {
		if (err != -ENOMEM)
			cfg_fail(d, NULL, NULL, "cannot read the config (%s)", strerror(-err));
		return err;
	}
	err = cfg_parse_buffer(d, buf, len, NULL, &d->root);
	free(buf);
	if (!err)
		err = cfg_doc_paths(d);
	if (!err && d->root->kind != CFG_MAP)
		return cfg_fail(d, &d->root->loc, NULL,
				"the config must be a mapping with targets: and phases:");
	return err;
}

void cfg_doc_exit(struct cfg_doc *d)
{
	cfg_node_free(d->root);
	for (uint32_t i = 0; i < d->nsets; i++)
		free(d->sets[i]);
	free(d->sets);
	free(d->file);
	memset(d, 0, sizeof(*d));
}

/* ---- names and lookups ---- */

int cfg_phase_by_name(const struct cfg_node *phases, const char *name, size_t len)
{
	char dflt[32];

	if (!phases || phases->kind != CFG_SEQ)
		return -1;
	for (uint32_t i = 0; i < phases->nitems; i++) {
		const struct cfg_node *nm = cfg_map_get(phases->items[i], "name");
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
struct cfg_node *cfg_step(const struct cfg_doc *d, const struct cfg_node *cur, const char **rest)
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
	if (cur != cfg_map_get(d->root, "phases"))
		return NULL;
	/* Phase names may hold dots: the longest name that matches wins. */
	for (size_t l = strlen(s); l > 0; l--) {
		int i;

		if (s[l] != '\0' && s[l] != '.')
			continue;
		i = cfg_phase_by_name(cur, s, l);
		if (i >= 0) {
			*rest = s[l] ? s + l + 1 : s + l;
			return cur->items[i];
		}
	}
	return NULL;
}

const struct cfg_node *cfg_doc_find(const struct cfg_doc *d, const char *path, bool nearest)
{
	const struct cfg_node *cur = d->root;
	const char *rest = path;

	if (!cur)
		return NULL;
	while (*rest) {
		const struct cfg_node *next = cfg_step(d, cur, &rest);

		if (!next)
			return nearest ? cur : NULL;
		cur = next;
	}
	return cur;
}

/* Optimal string alignment distance, ignoring case. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[40][40];

	if (la >= 40 || lb >= 40)
		return 40;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *cfg_nearest(const char *word, const char *const *known, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	for (size_t i = 0; i < n && known[i]; i++) {
		size_t dist = edit_distance(word, known[i]);
		size_t limit = strlen(known[i]) <= 3 ? 1 : 2;

		if (dist <= limit && dist < best_d) {
			best = known[i];
			best_d = dist;
		}
	}
	return best;
}
