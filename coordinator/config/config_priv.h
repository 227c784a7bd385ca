/* config_priv.h -- the config document, shared by the files of config/:
 * the tree and its paths (tree.c), YAML to tree (yaml.c), --set and ${VAR}
 * (set.c), word lists (words.c), typed values (value.c), and what set.c
 * asks of the schema (keys.c, phases.c).  Not for other files; what the
 * schema's files share besides is schema.h. */
#ifndef SC_CONFIG_PRIV_H
#define SC_CONFIG_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a key or value came from: a 0-based line/column of the file, or the
 * --set argument ("KEY=VALUE") that made it when set is not NULL. */
struct cfg_loc {
	uint32_t line;
	uint32_t col;
	const char *set;
};

enum cfg_kind { CFG_SCALAR = 0, CFG_SEQ, CFG_MAP };

struct cfg_node;

struct cfg_pair {
	char *key;
	struct cfg_loc kloc;
	struct cfg_node *val;
};

struct cfg_node {
	enum cfg_kind kind;
	struct cfg_loc loc;
	char *path;		 /* dotted key path: "phases.0.bs.1" */
	char *str;		 /* scalar text (after ${VAR} expansion) */
	bool plain;		 /* scalar was not quoted */
	bool from_env;		 /* scalar took a ${VAR} from the environment */
	struct cfg_node **items; /* sequence */
	uint32_t nitems;
	struct cfg_pair *pairs; /* mapping, in document order */
	uint32_t npairs;
};

struct cfg_doc {
	char *file;	       /* the config path, for messages */
	struct cfg_node *root; /* an empty mapping for an empty file */
	char **sets;	       /* owned copies of the --set arguments */
	uint32_t nsets;
	char *err;
	size_t errlen;
	bool failed; /* err holds the first message */
};

/* ---- the document (yaml.c) ---- */

/* Reads and parses path into d->root (d->file/err/errlen set by caller).
 * 0, -EINVAL (message in d->err), -ENOMEM, or -errno of reading. */
int sc_cfg_doc_load(struct cfg_doc *d, const char *path);

void sc_cfg_doc_exit(struct cfg_doc *d);

/* Parses one YAML document from buf into *out (an empty mapping for an
 * empty document); set: the --set argument it came from, or NULL. */
int sc_cfg_parse_buffer(struct cfg_doc *d, const char *buf, size_t len, const char *set,
			struct cfg_node **out);

/* ---- --set and ${VAR} (set.c) ---- */

/* Applies the KEY=VALUE overrides in order (see config.h).  0 or -EINVAL. */
int sc_cfg_doc_apply_sets(struct cfg_doc *d, const char *const *sets, uint32_t nsets);

/* Expands ${VAR}, ${VAR:-default} and $$ in every scalar value. */
int sc_cfg_doc_expand(struct cfg_doc *d);

/* ---- the tree (tree.c) ---- */

/* Formats "FILE:LINE:COL: PATH: message" (or "--set KEY=VALUE: PATH: ...")
 * into d->err once; later calls keep the first message.  Returns -EINVAL. */
int sc_cfg_fail(struct cfg_doc *d, const struct cfg_loc *loc, const char *path, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

/* sc_cfg_fail at node n: its location and path.  Returns -EINVAL. */
int sc_cfg_fail_node(struct cfg_doc *d, const struct cfg_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A node of kind at loc, empty (NULL: no memory); a deep copy of src
 * (NULL: no memory); a node and all below it freed (NULL is fine). */
struct cfg_node *sc_cfg_node_new(enum cfg_kind kind, struct cfg_loc loc);
struct cfg_node *sc_cfg_node_clone(const struct cfg_node *src);
void sc_cfg_node_free(struct cfg_node *n);

/* The value of key in map (NULL when absent or map is not a mapping), or
 * its pair; _remove frees the pair of key, if map has one. */
struct cfg_node *sc_cfg_map_get(const struct cfg_node *map, const char *key);
struct cfg_pair *sc_cfg_map_pair(const struct cfg_node *map, const char *key);
void sc_cfg_map_remove(struct cfg_node *map, const char *key);

/* True for an empty, "~" or "null" plain scalar. */
bool sc_cfg_is_null(const struct cfg_node *n);

/* "parent.key" and "parent.i" (just key or i when parent is ""), newly
 * allocated (NULL: no memory). */
char *sc_cfg_path_join(const char *parent, const char *key);
char *sc_cfg_path_index(const char *parent, uint32_t i);

/* (Re)computes every node's path; 0 or -ENOMEM. */
int sc_cfg_doc_paths(struct cfg_doc *d);

/* One step down from cur along *rest ("0.bs", "seqwrite.bs"): the child,
 * or NULL; *rest moves past the component(s) used.  A phase is found by
 * index or by name (explicit name: or the default "phase<i>"). */
struct cfg_node *sc_cfg_step(const struct cfg_doc *d, const struct cfg_node *cur,
			     const char **rest);

/* The node at a dotted path ("phases.1.bs", "phases.seqwrite.bs"), or with
 * nearest set, the deepest node found on the way (never NULL). */
const struct cfg_node *sc_cfg_doc_find(const struct cfg_doc *d, const char *path, bool nearest);

/* ---- lists of words (words.c), NULL-terminated ---- */

/* Whether key is in table; its index there, or -1. */
bool sc_cfg_key_in(const char *key, const char *const *table);
int sc_cfg_key_index(const char *key, const char *const *table);

/* The known word closest to word (few edits apart, any case) among the
 * first n of known, or NULL. */
const char *sc_cfg_nearest(const char *word, const char *const *known, size_t n);

/* words joined as "a, b, c" into buf (cut to len).  Returns buf. */
const char *sc_cfg_join(char *buf, size_t len, const char *const *words);

/* ---- what --set asks of the schema (keys.c, phases.c) ---- */

/* Key tables of the schema (keys.c): NULL-terminated.  sc_cfg_phase_keys
 * holds the keys of every workload; which workload takes which is
 * sc_cfg_phase_key_fits' business. */
extern const char *const sc_cfg_phase_keys[];
extern const char *const sc_cfg_target_keys[];
extern const char *const sc_cfg_top_keys[];
extern const char *const sc_cfg_sections[]; /* the top keys that hold lists or mappings */

/* Whether a phase of workload (an enum sc_workload; -1: not known) takes
 * key with value val: -1 when the workload has no such key, 0 when it has
 * but val is not a value of it there (fsync: true in an io phase, a list
 * where the workload does not sweep), 1 when it fits.  Nothing is
 * reported.  An unknown workload takes every phase key (0).  (phases.c) */
int sc_cfg_phase_key_fits(const char *key, int workload, const struct cfg_node *val);

/* The workloads that take phase key key, "io, kvcache" style, into buf
 * (empty for no workload).  Returns buf.  (keys.c) */
const char *sc_cfg_key_workloads(const char *key, char *buf, size_t len);

/* ---- typed values (value.c) ---- */

#define CFG_MAX_NAME_LEN     64u
#define CFG_MAX_SWEEP_VALUES 128u /* values in one swept key's list */

/* How a key's value is typed. */
enum cfg_vtype {
	CFG_VT_NAME,
	CFG_VT_TEXT,
	CFG_VT_WORKLOAD,
	CFG_VT_RW,
	CFG_VT_ENGINE,
	CFG_VT_STONEWALL,
	CFG_VT_UINT,
	CFG_VT_SIZE,
	CFG_VT_DURATION,
	CFG_VT_BOOL,
	CFG_VT_RATE,	 /* I/Os per second: "5000/s" or "5000" */
	CFG_VT_FRACTION, /* a number in (0, 1]: "0.001", "1e-4" */
	CFG_VT_MODEL,	 /* a name in the checkpoint model catalogue */
	CFG_VT_VERIFY,	 /* none | crc32c */
	CFG_VT_ON_ERROR,	 /* stop-phase | continue | abort */
	CFG_VT_SERIALIZE, /* raw | torch */
	CFG_VT_CKPT_LAYOUT, /* dlio | sharded */
	CFG_VT_PERCENT,	  /* a whole percentage: "50%" or "50" */
	CFG_VT_BANDWIDTH, /* bytes per second: a size, "/s" optional: "20MB/s" */
	CFG_VT_NUMA,	  /* none | drive */
	CFG_VT_PREALLOCATE, /* none | fallocate | written */
	CFG_VT_PROCEDURE, /* none | mlperf */
	CFG_VT_BENCHMARK, /* an MLPerf Storage training benchmark: unet3d | ... */
	CFG_VT_ACCELERATOR, /* an MLPerf Storage accelerator: b200 | ... */
	CFG_VT_SEARCH,	  /* none | accelerators */
	CFG_VT_RUNS,	  /* "W+M" (W warm-up runs, M measured) or "M":
			   * W x RUNS_SCALE + M */
	CFG_VT_MAP,	  /* a mapping, parsed by the key's own parser */
	CFG_VT_PAIR	  /* a list [MIN, MAX], parsed by the key's own parser */
};

struct cfg_keydef {
	enum cfg_vtype type;
	uint64_t min, max;
	bool phase; /* a phase key (or a default of one) */
	bool sweep; /* a list expands the phase into cells */
};

/* A key's value or, for a swept key, its list of values. */
struct cfg_sweep {
	uint32_t n;
	bool list;
	uint64_t v[CFG_MAX_SWEEP_VALUES];
	const struct cfg_node *node[CFG_MAX_SWEEP_VALUES];
};

/* Parses scalar n as def says into *out (text types are checked and
 * left in n->str; booleans give 0/1; names give the enum value; a model
 * name is looked up and left in n->str; a fraction gives the bits of its
 * double, to be copied out with memcpy). */
int sc_cfg_parse_scalar(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
			uint64_t *out);

/* A swept key: one value, or a list of distinct values. */
int sc_cfg_parse_sweep(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
		       struct cfg_sweep *sw);

/* What def takes, as the reference writes it ("1..1024", "size 1B..1GiB",
 * "io_uring | psync | null | emulated").  Returns buf. */
const char *sc_cfg_type_text(const struct cfg_keydef *def, char *buf, size_t len);

/* "4KiB", "1MiB", "1000B": the shortest exact spelling of a size. */
const char *sc_cfg_fmt_size(char *buf, size_t len, uint64_t v);

/* "a list", "a mapping", "a value". */
const char *sc_cfg_kind_word(const struct cfg_node *n);

#endif
