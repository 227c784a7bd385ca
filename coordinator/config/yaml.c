/* yaml.c -- the config document: a YAML file or --set list to a tree with
 * locations, within limits that keep a hostile file cheap. */
#include "config_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

/* Limits that keep a hostile or runaway file (alias bombs, deep nesting,
 * huge files) cheap; real configs stay far below every one. */
#define CFG_MAX_FILE_BYTES (1u << 20) /* bytes of a config file */
#define CFG_MAX_DEPTH	   32u	      /* levels of lists and mappings */
#define CFG_MAX_NODES	   20000u     /* values and keys, aliases expanded */
#define CFG_MAX_TEXT_BYTES (4u << 20) /* text of values and keys, aliases expanded */
#define CFG_MAX_KEYS	   1024u      /* keys of one mapping */
#define CFG_MAX_KEY_LEN	   128u	      /* bytes of one key */
#define CFG_MAX_ANCHORS	   1024u      /* anchors (&name) in one document */

/* ---- YAML to tree ----
 *
 * Built from the parser's events, not by libyaml's document loader (which
 * builds the whole document before anything can be counted, and looks each
 * anchor up in a list: quadratic).  Every limit is checked as each event
 * arrives, before anything is built from it, so a hostile file costs
 * little time and memory. */

/* An anchor (&name) of a finished node, and what an alias to it adds. */
struct anchor {
	char *name;
	const struct cfg_node *node; /* in the tree being built */
	uint32_t nodes;		     /* values and keys in it */
	uint32_t height;	     /* levels of lists and mappings in it */
	size_t bytes;		     /* scalar and key text in it */
	struct cfg_loc loc;
};

/* An open list or mapping. */
struct frame {
	struct cfg_node *n; /* not yet in its parent */
	char *path;	    /* dotted path, for messages */
	char *anchor;	    /* registered when it closes */
	uint32_t nodes0;    /* conv.nodes before it opened */
	size_t bytes0;
	uint32_t cap;	 /* room in n->items or n->pairs */
	uint32_t height; /* levels of lists and mappings in n, itself included */
	bool have_key;	 /* mapping: the last pair waits for its value */
};

struct conv {
	struct cfg_doc *d;
	const char *set; /* --set argument the document came from */
	uint32_t nodes;
	size_t bytes;
	struct frame st[CFG_MAX_DEPTH + 1];
	uint32_t depth; /* open frames */
	struct anchor *anchors;
	uint32_t nanchors;
	struct cfg_node *root;
};

static struct cfg_loc mark_loc(const struct conv *c, yaml_mark_t m)
{
	struct cfg_loc loc = {(uint32_t)m.line, (uint32_t)m.column, c->set};

	return loc;
}

/* The path of the next node of the innermost open frame (a key's value,
 * or the next list item); "" at the top.  NULL: no memory. */
static char *next_path(const struct conv *c)
{
	const struct frame *f;

	if (!c->depth)
		return strdup("");
	f = &c->st[c->depth - 1];
	if (f->n->kind == CFG_SEQ)
		return sc_cfg_path_index(f->path, f->n->nitems);
	if (f->have_key)
		return sc_cfg_path_join(f->path, f->n->pairs[f->n->npairs - 1].key);
	return strdup(f->path);
}

/* Reports at loc under the next node's path. */
static int conv_fail(struct conv *c, const struct cfg_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int conv_fail(struct conv *c, const struct cfg_loc *loc, const char *fmt, ...)
{
	char msg[512], *path = next_path(c);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sc_cfg_fail(c->d, loc, path, "%s", msg);
	free(path);
	return -EINVAL;
}

/* Counts nodes (values and keys) and bytes of text against the limits;
 * alias: the alias that adds them, or NULL. */
static int conv_count(struct conv *c, const struct cfg_loc *loc, uint32_t nodes, size_t bytes,
		      const char *alias)
{
	if (nodes > CFG_MAX_NODES - c->nodes) {
		if (alias)
			return conv_fail(c, loc,
					 "alias *%s makes the config more than %u values "
					 "(an alias bomb?)",
					 alias, CFG_MAX_NODES);
		return conv_fail(c, loc, "more than %u values (a config is far smaller)",
				 CFG_MAX_NODES);
	}
	if (bytes > CFG_MAX_TEXT_BYTES - c->bytes) {
		if (alias)
			return conv_fail(c, loc,
					 "alias *%s makes the config more than %u MiB of text "
					 "(an alias bomb?)",
					 alias, CFG_MAX_TEXT_BYTES >> 20);
		return conv_fail(c, loc, "more than %u MiB of text", CFG_MAX_TEXT_BYTES >> 20);
	}
	c->nodes += nodes;
	c->bytes += bytes;
	return 0;
}

static const struct anchor *anchor_find(const struct conv *c, const char *name)
{
	for (uint32_t i = 0; i < c->nanchors; i++)
		if (strcmp(c->anchors[i].name, name) == 0)
			return &c->anchors[i];
	return NULL;
}

/* Checks a new anchor's name (at loc) before its node is built. */
static int anchor_check(struct conv *c, const struct cfg_loc *loc, const char *name)
{
	const struct anchor *a = anchor_find(c, name);

	if (a)
		return conv_fail(c, loc, "anchor &%s is defined twice (first at line %u)", name,
				 a->loc.line + 1);
	for (uint32_t i = 0; i < c->depth; i++)
		if (c->st[i].anchor && strcmp(c->st[i].anchor, name) == 0)
			return conv_fail(c, loc, "anchor &%s is defined twice", name);
	if (c->nanchors >= CFG_MAX_ANCHORS)
		return conv_fail(c, loc, "more than %u anchors", CFG_MAX_ANCHORS);
	return 0;
}

/* Registers a finished node under name (taken). */
static int anchor_add(struct conv *c, char *name, const struct cfg_node *n, uint32_t nodes,
		      uint32_t height, size_t bytes)
{
	struct anchor *more;

	if (!name)
		return 0;
	more = realloc(c->anchors, (c->nanchors + 1) * sizeof(*more));
	if (!more) {
		free(name);
		return -ENOMEM;
	}
	c->anchors = more;
	c->anchors[c->nanchors++] = (struct anchor){.name = name,
						    .node = n,
						    .nodes = nodes,
						    .height = height,
						    .bytes = bytes,
						    .loc = n->loc};
	return 0;
}

/* A key of the innermost mapping: text (len bytes) at loc. */
static int add_key(struct conv *c, const char *text, size_t len, const struct cfg_loc *loc)
{
	struct frame *f = &c->st[c->depth - 1];
	struct cfg_node *m = f->n;
	struct cfg_pair *p;

	if (len > CFG_MAX_KEY_LEN)
		return conv_fail(c, loc, "a key of %zu bytes (keys are words of at most %u)", len,
				 CFG_MAX_KEY_LEN);
	if (m->npairs >= CFG_MAX_KEYS)
		return conv_fail(c, loc, "more than %u keys in one mapping", CFG_MAX_KEYS);
	for (uint32_t j = 0; j < m->npairs; j++) {
		char *kpath;

		if (strlen(m->pairs[j].key) != len || memcmp(m->pairs[j].key, text, len))
			continue;
		kpath = sc_cfg_path_join(f->path, m->pairs[j].key);
		if (!kpath)
			return -ENOMEM;
		if (m->pairs[j].kloc.set)
			sc_cfg_fail(c->d, loc, kpath, "key given twice");
		else
			sc_cfg_fail(c->d, loc, kpath, "duplicate key (first at line %u)",
				    m->pairs[j].kloc.line + 1);
		free(kpath);
		return -EINVAL;
	}
	if (m->npairs == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 8;

		p = realloc(m->pairs, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		m->pairs = p;
		f->cap = cap;
	}
	p = &m->pairs[m->npairs];
	memset(p, 0, sizeof(*p));
	p->key = strndup(text, len);
	if (!p->key)
		return -ENOMEM;
	p->kloc = *loc;
	m->npairs++;
	f->have_key = true;
	return conv_count(c, loc, 1, len, NULL);
}

/* Puts finished node n (taken) where the innermost frame expects it, or
 * makes it the root; height: levels of lists and mappings in n. */
static int attach(struct conv *c, struct cfg_node *n, uint32_t height)
{
	struct frame *f;

	if (!c->depth) {
		c->root = n;
		return 0;
	}
	f = &c->st[c->depth - 1];
	if (height + 1 > f->height)
		f->height = height + 1;
	if (f->n->kind == CFG_MAP) {
		f->n->pairs[f->n->npairs - 1].val = n;
		f->have_key = false;
		return 0;
	}
	if (f->n->nitems == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 8;
		struct cfg_node **items = realloc(f->n->items, cap * sizeof(*items));

		if (!items) {
			sc_cfg_node_free(n);
			return -ENOMEM;
		}
		f->n->items = items;
		f->cap = cap;
	}
	f->n->items[f->n->nitems++] = n;
	return 0;
}

/* Whether the next node would be a mapping's key. */
static bool wants_key(const struct conv *c)
{
	const struct frame *f = c->depth ? &c->st[c->depth - 1] : NULL;

	return f && f->n->kind == CFG_MAP && !f->have_key;
}

static int on_scalar(struct conv *c, const yaml_event_t *ev)
{
	struct cfg_loc loc = mark_loc(c, ev->start_mark);
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	const char *aname = (const char *)ev->data.scalar.anchor;
	struct cfg_node *n;
	char *name = NULL;
	int err;

	if (wants_key(c)) {
		if (aname)
			return conv_fail(c, &loc, "an anchor on a key (&%s) is not supported",
					 aname);
		return add_key(c, text, len, &loc);
	}
	if (aname && (err = anchor_check(c, &loc, aname)))
		return err;
	err = conv_count(c, &loc, 1, len, NULL);
	if (err)
		return err;
	n = sc_cfg_node_new(CFG_SCALAR, loc);
	if (!n)
		return -ENOMEM;
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	n->str = strndup(text, len);
	if (!n->str || (aname && !(name = strdup(aname)))) {
		sc_cfg_node_free(n);
		return -ENOMEM;
	}
	err = anchor_add(c, name, n, 1, 0, len);
	if (err) {
		sc_cfg_node_free(n);
		return err;
	}
	return attach(c, n, 0);
}

static int on_alias(struct conv *c, const yaml_event_t *ev)
{
	struct cfg_loc loc = mark_loc(c, ev->start_mark);
	const char *aname = (const char *)ev->data.alias.anchor;
	const struct anchor *a = anchor_find(c, aname);
	struct cfg_node *n;
	int err;

	if (!a) {
		for (uint32_t i = 0; i < c->depth; i++)
			if (c->st[i].anchor && strcmp(c->st[i].anchor, aname) == 0)
				return conv_fail(c, &loc,
						 "alias *%s is inside the node it names (a loop)",
						 aname);
		return conv_fail(c, &loc, "alias *%s names no anchor before it (define &%s first)",
				 aname, aname);
	}
	if (wants_key(c)) {
		if (a->node->kind != CFG_SCALAR)
			return conv_fail(c, &loc,
					 "keys must be plain words, not lists or mappings");
		return add_key(c, a->node->str, strlen(a->node->str), &loc);
	}
	if (a->height && c->depth + a->height - 1 > CFG_MAX_DEPTH)
		return conv_fail(c, &loc, "alias *%s nests the config more than %u levels deep",
				 aname, CFG_MAX_DEPTH);
	err = conv_count(c, &loc, a->nodes, a->bytes, aname);
	if (err)
		return err;
	n = sc_cfg_node_clone(a->node);
	if (!n)
		return -ENOMEM;
	return attach(c, n, a->height);
}

static int on_open(struct conv *c, const yaml_event_t *ev, enum cfg_kind kind)
{
	struct cfg_loc loc = mark_loc(c, ev->start_mark);
	const char *aname = (const char *)(kind == CFG_SEQ ? ev->data.sequence_start.anchor
							   : ev->data.mapping_start.anchor);
	struct frame *f;
	int err;

	if (wants_key(c))
		return conv_fail(c, &loc, "keys must be plain words, not lists or mappings");
	if (c->depth > CFG_MAX_DEPTH)
		return conv_fail(c, &loc, "nested more than %u levels deep", CFG_MAX_DEPTH);
	if (aname && (err = anchor_check(c, &loc, aname)))
		return err;
	err = conv_count(c, &loc, 1, 0, NULL);
	if (err)
		return err;
	f = &c->st[c->depth];
	memset(f, 0, sizeof(*f));
	f->nodes0 = c->nodes - 1;
	f->bytes0 = c->bytes;
	f->height = 1;
	f->path = next_path(c);
	f->n = sc_cfg_node_new(kind, loc);
	if (aname)
		f->anchor = strdup(aname);
	c->depth++; /* frame_free undoes what was made */
	if (!f->path || !f->n || (aname && !f->anchor))
		return -ENOMEM;
	return 0;
}

static void frame_free(struct frame *f)
{
	sc_cfg_node_free(f->n);
	free(f->path);
	free(f->anchor);
}

static int on_close(struct conv *c)
{
	struct frame f = c->st[--c->depth];
	int err;

	free(f.path);
	err = anchor_add(c, f.anchor, f.n, c->nodes - f.nodes0, f.height, c->bytes - f.bytes0);
	if (err) {
		sc_cfg_node_free(f.n);
		return err;
	}
	return attach(c, f.n, f.height);
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
		return sc_cfg_fail(d, &loc, NULL, "not a valid list: %s%s",
				   p->problem ? p->problem : "syntax error", ctx);
	return sc_cfg_fail(d, &loc, NULL, "YAML syntax: %s%s", p->problem ? p->problem : "error",
			   ctx);
}

/* One event of the stream into the tree; *done at its end. */
static int on_event(struct conv *c, const yaml_event_t *ev, uint32_t *docs, bool *done)
{
	struct cfg_loc loc = mark_loc(c, ev->start_mark);

	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		*done = true;
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		++*docs;
		return 0;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_close(c);
	case YAML_SCALAR_EVENT:
	case YAML_ALIAS_EVENT:
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		/* A second document ("---") would be silently ignored: refuse it. */
		if (*docs > 1)
			return sc_cfg_fail(
			    c->d, &loc, NULL,
			    "a second YAML document (one config per file: remove the ---)");
		if (ev->type == YAML_SCALAR_EVENT)
			return on_scalar(c, ev);
		if (ev->type == YAML_ALIAS_EVENT)
			return on_alias(c, ev);
		return on_open(c, ev, ev->type == YAML_SEQUENCE_START_EVENT ? CFG_SEQ : CFG_MAP);
	default:
		return 0;
	}
}

/* Parses one YAML document from buf into *out (an empty mapping for an
 * empty document).  set: the --set argument it came from, or NULL. */
int sc_cfg_parse_buffer(struct cfg_doc *d, const char *buf, size_t len, const char *set,
			struct cfg_node **out)
{
	struct conv *c = calloc(1, sizeof(*c));
	yaml_parser_t parser;
	uint32_t docs = 0;
	bool done = false;
	int err = 0;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->d = d;
	c->set = set;
	if (!yaml_parser_initialize(&parser)) {
		free(c);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!err && !done) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&parser, &ev)) {
			err = yaml_error(d, &parser, buf, len, set);
			break;
		}
		err = on_event(c, &ev, &docs, &done);
		yaml_event_delete(&ev);
	}
	if (!err && !c->root) {
		struct cfg_loc loc = {0, 0, set};

		c->root = sc_cfg_node_new(CFG_MAP, loc);
		if (!c->root)
			err = -ENOMEM;
	}
	while (c->depth)
		frame_free(&c->st[--c->depth]);
	for (uint32_t i = 0; i < c->nanchors; i++)
		free(c->anchors[i].name);
	free(c->anchors);
	if (err)
		sc_cfg_node_free(c->root);
	else
		*out = c->root;
	free(c);
	yaml_parser_delete(&parser);
	return err;
}

/* Reads path whole into a NUL-terminated buffer: at most
 * CFG_MAX_FILE_BYTES, else -EFBIG with nothing more read. */
static int read_file(const char *path, char **buf, size_t *len)
{
	const size_t limit = CFG_MAX_FILE_BYTES + 1; /* one byte more: too large */
	struct stat st;
	size_t cap, n = 0;
	char *b;
	int err = 0, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0)
		err = -errno;
	else if (S_ISDIR(st.st_mode))
		err = -EISDIR;
	else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > CFG_MAX_FILE_BYTES)
		err = -EFBIG;
	if (err) {
		close(fd);
		return err;
	}
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	b = malloc(cap + 1);
	while (b) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap == limit)
				break;
			cap = cap * 2 < limit ? cap * 2 : limit;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!b)
		return -ENOMEM;
	if (!err && n > CFG_MAX_FILE_BYTES)
		err = -EFBIG;
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int sc_cfg_doc_load(struct cfg_doc *d, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int err = read_file(path, &buf, &len);

	if (err == -EFBIG)
		return sc_cfg_fail(
		    d, NULL, NULL,
		    "the config is larger than %u MiB (a config is a few KiB: is this "
		    "the right file?)",
		    CFG_MAX_FILE_BYTES >> 20);
	if (err) {
		if (err != -ENOMEM)
			sc_cfg_fail(d, NULL, NULL, "cannot read the config (%s)", strerror(-err));
		return err;
	}
	err = sc_cfg_parse_buffer(d, buf, len, NULL, &d->root);
	free(buf);
	if (!err)
		err = sc_cfg_doc_paths(d);
	if (!err && d->root->kind != CFG_MAP)
		return sc_cfg_fail(d, &d->root->loc, NULL,
				   "the config must be a mapping with targets: and phases:");
	return err;
}

void sc_cfg_doc_exit(struct cfg_doc *d)
{
	sc_cfg_node_free(d->root);
	for (uint32_t i = 0; i < d->nsets; i++)
		free(d->sets[i]);
	free(d->sets);
	free(d->file);
	memset(d, 0, sizeof(*d));
}
