/* config.c -- the config schema: checks a config document and builds the plan.
 *
 * The document layer (YAML, locations) is config_yaml.c, --set and ${VAR}
 * are config_set.c, typed values config_value.c.  The schema:
 *
 *   targets: (list, at least one)
 *     path           text, required; a directory, an existing file or a block
 *                    device; a path that does not exist is a directory to be
 *                    created and needs an existing parent directory
 *     capacity       size >= 1; default: dir = free space, file/block = size;
 *                    more than that is an error
 *     keep           bool, default false (dir targets keep their run files)
 *     allow_destroy  bool, default false; a writing phase on a file or block
 *                    target needs it (and a block device must not be mounted)
 *     hosts          non-empty text; such a target is not probed here (kind
 *                    guessed: /dev/... = block, else dir; capacity 0 = unknown)
 *   defaults: (optional mapping) any phase key but name, for every phase that
 *     does not set it; a default runtime/io_size is skipped by a phase that
 *     sets the other, a default ramp by a phase without runtime, and a
 *     default rwmixread/fsync is ignored where it does not apply.
 *   phases: (list, at least one)
 *     name       [A-Za-z0-9_.-]{1,64}, unique; default "phase<i>" (i from 0)
 *     workload   io (default)
 *     rw         read|write|randread|randwrite|randrw, required; list = sweep
 *     rwmixread  0..100, default 50; only with randrw
 *     bs         size 1B..1GiB, default 4KiB; list = sweep; <= size
 *     iodepth    1..16384, default 1; list = sweep
 *     jobs       1..1024, default 1
 *     size       size >= 1, default 64MiB; a multiple of bs
 *     runtime    duration > 0 (at most 30 days); or
 *     io_size    size >= 1, a multiple of bs; default = size without runtime
 *     ramp       duration, only with runtime
 *     fsync      0..2^32-1, default 0; nonzero only on a phase that writes
 *     direct     bool, default true; bs must then be a multiple of every
 *                probed target's alignment
 *     engine     io_uring (default) | psync | null
 *     seed       0..2^64-1, default 1 + the phase's index
 *     stonewall  all_done (default: every rank completes its work) |
 *                first_done (every rank stops when the first one is done)
 *   Sweeps expand into cells: rw, then bs, then iodepth varying fastest, each
 *   named "<name>[rw=..,bs=..,iodepth=..]" with only the swept keys.
 *
 * --set KEY=VALUE, applied in order before any check: a dotted path
 * (phases.0.runtime, phases.<name>.bs, targets.1.capacity, defaults.direct)
 * sets or creates its last key, and fails when the path above it does not
 * exist; a bare key sets that key in every phase (phase keys) or every
 * target (target keys).  Setting runtime removes io_size from the same
 * mapping; setting io_size removes runtime and ramp: they are alternatives.
 * A VALUE is a plain YAML scalar, or a flow list "[4KiB, 1MiB]".
 *
 * ${VAR}, ${VAR:-default} (the default also when VAR is empty) and $$ (a
 * literal $) are expanded in every scalar value after --set; an unset VAR
 * without a default is an error at its value.  Defaults do not nest. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../worker/hostlist.h"
#include "../worker/target.h"
#include "../worker/units.h"
#include "config_priv.h"

#define KIB	 UINT64_C(1024)
#define MIB	 (KIB * KIB)
#define GIB	 (MIB * KIB)
#define NS_PER_S UINT64_C(1000000000)

/* Ranges and defaults of the schema (documented in the final report and
 * the README's config reference). */
#define MAX_BS_BYTES	   GIB /* io_uring results are 32-bit */
#define MAX_IODEPTH	   16384u
#define MAX_JOBS	   1024u
#define MAX_DURATION_NS	   (30 * 24 * 3600 * NS_PER_S) /* 30 days */
#define MAX_SWEEP_CELLS	   4096u		       /* cells one config phase expands into */
#define DEFAULT_BS_BYTES   (4 * KIB)
#define DEFAULT_SIZE_BYTES (64 * MIB)
#define DEFAULT_RWMIXREAD  50u

enum pkey {
	PK_NAME,
	PK_WORKLOAD,
	PK_RW,
	PK_RWMIXREAD,
	PK_BS,
	PK_IODEPTH,
	PK_JOBS,
	PK_SIZE,
	PK_RUNTIME,
	PK_IO_SIZE,
	PK_RAMP,
	PK_FSYNC,
	PK_DIRECT,
	PK_ENGINE,
	PK_SEED,
	PK_STONEWALL,
	PK_COUNT
};

enum tkey { TK_PATH, TK_CAPACITY, TK_KEEP, TK_ALLOW_DESTROY, TK_HOSTS, TK_COUNT };

const char *const cfg_phase_keys[PK_COUNT + 1] = {
    [PK_NAME] = "name",	      [PK_WORKLOAD] = "workload",
    [PK_RW] = "rw",	      [PK_RWMIXREAD] = "rwmixread",
    [PK_BS] = "bs",	      [PK_IODEPTH] = "iodepth",
    [PK_JOBS] = "jobs",	      [PK_SIZE] = "size",
    [PK_RUNTIME] = "runtime", [PK_IO_SIZE] = "io_size",
    [PK_RAMP] = "ramp",	      [PK_FSYNC] = "fsync",
    [PK_DIRECT] = "direct",   [PK_ENGINE] = "engine",
    [PK_SEED] = "seed",	      [PK_STONEWALL] = "stonewall",
    [PK_COUNT] = NULL,
};

const char *const cfg_target_keys[TK_COUNT + 1] = {
    [TK_PATH] = "path",	  [TK_CAPACITY] = "capacity",
    [TK_KEEP] = "keep",	  [TK_ALLOW_DESTROY] = "allow_destroy",
    [TK_HOSTS] = "hosts", [TK_COUNT] = NULL,
};

const char *const cfg_top_keys[] = {"targets", "defaults", "phases", NULL};

/* Phase keys: type, range, and whether a list sweeps it. */
#define PHASE(t, lo, hi, sw)                                                                       \
	{                                                                                          \
		.type = (t), .min = (lo), .max = (hi), .phase = true, .sweep = (sw)                \
	}
static const struct cfg_keydef phase_defs[PK_COUNT] = {
    [PK_NAME] = PHASE(CFG_VT_NAME, 0, 0, false),
    [PK_WORKLOAD] = PHASE(CFG_VT_WORKLOAD, 0, 0, false),
    [PK_RW] = PHASE(CFG_VT_RW, 0, 0, true),
    [PK_RWMIXREAD] = PHASE(CFG_VT_UINT, 0, 100, false),
    [PK_BS] = PHASE(CFG_VT_SIZE, 1, MAX_BS_BYTES, true),
    [PK_IODEPTH] = PHASE(CFG_VT_UINT, 1, MAX_IODEPTH, true),
    [PK_JOBS] = PHASE(CFG_VT_UINT, 1, MAX_JOBS, false),
    [PK_SIZE] = PHASE(CFG_VT_SIZE, 1, UINT64_MAX, false),
    [PK_RUNTIME] = PHASE(CFG_VT_DURATION, 1, MAX_DURATION_NS, false),
    [PK_IO_SIZE] = PHASE(CFG_VT_SIZE, 1, UINT64_MAX, false),
    [PK_RAMP] = PHASE(CFG_VT_DURATION, 0, MAX_DURATION_NS, false),
    [PK_FSYNC] = PHASE(CFG_VT_UINT, 0, UINT32_MAX, false),
    [PK_DIRECT] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_ENGINE] = PHASE(CFG_VT_ENGINE, 0, 0, false),
    [PK_SEED] = PHASE(CFG_VT_UINT, 0, UINT64_MAX, false),
    [PK_STONEWALL] = PHASE(CFG_VT_STONEWALL, 0, 0, false),
};
#undef PHASE

static const struct cfg_keydef target_defs[TK_COUNT] = {
    [TK_PATH] = {.type = CFG_VT_TEXT},
    [TK_CAPACITY] = {.type = CFG_VT_SIZE, .min = 1, .max = UINT64_MAX},
    [TK_KEEP] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_ALLOW_DESTROY] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_HOSTS] = {.type = CFG_VT_TEXT},
};

/* One config phase after defaults, before sweep expansion. */
struct pv {
	const struct cfg_node *map;	      /* the phase's mapping */
	const struct cfg_node *src[PK_COUNT]; /* value's node; NULL: built in */
	bool own[PK_COUNT];		      /* set in the phase itself */
	char name[CFG_MAX_NAME_LEN + 1];
	struct cfg_sweep rw, bs, iodepth;
	uint64_t workload, rwmixread, jobs, size, runtime, io_size, ramp;
	uint64_t fsync, direct, engine, seed, stonewall;
	uint32_t ncells;
};

struct tgt {
	const struct cfg_node *map;
	const char *path, *hosts;
	uint64_t capacity, keep, allow_destroy;
	bool probed;
	struct sc_target_info info;
};

struct sc_config {
	struct cfg_doc doc;
	struct sc_plan plan;
};

struct ctx {
	struct cfg_doc *d;
	const struct cfg_node *defaults;
	uint32_t ntg, npv;
	struct tgt *tg;
	struct pv *pv;
};

static int fail_node(struct ctx *c, const struct cfg_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail_node(struct ctx *c, const struct cfg_node *n, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return cfg_fail(c->d, &n->loc, n->path, "%s", msg);
}

static int parse_phase_key(struct ctx *c, struct pv *pv, enum pkey k, const struct cfg_node *n)
{
	const struct cfg_keydef *def = &phase_defs[k];
	uint64_t *dst[PK_COUNT] = {
	    [PK_WORKLOAD] = &pv->workload, [PK_RWMIXREAD] = &pv->rwmixread,
	    [PK_JOBS] = &pv->jobs,	   [PK_SIZE] = &pv->size,
	    [PK_RUNTIME] = &pv->runtime,   [PK_IO_SIZE] = &pv->io_size,
	    [PK_RAMP] = &pv->ramp,	   [PK_FSYNC] = &pv->fsync,
	    [PK_DIRECT] = &pv->direct,	   [PK_ENGINE] = &pv->engine,
	    [PK_SEED] = &pv->seed,	   [PK_STONEWALL] = &pv->stonewall,
	};
	uint64_t unused;
	int err;

	pv->src[k] = n;
	switch (k) {
	case PK_RW:
		return cfg_parse_sweep(c->d, n, def, &pv->rw);
	case PK_BS:
		return cfg_parse_sweep(c->d, n, def, &pv->bs);
	case PK_IODEPTH:
		return cfg_parse_sweep(c->d, n, def, &pv->iodepth);
	case PK_NAME:
		err = cfg_parse_scalar(c->d, n, def, &unused);
		if (!err)
			snprintf(pv->name, sizeof(pv->name), "%s", n->str);
		return err;
	default:
		return cfg_parse_scalar(c->d, n, def, dst[k]);
	}
}

static int key_index(const char *key, const char *const *table)
{
	for (int i = 0; table[i]; i++)
		if (strcmp(table[i], key) == 0)
			return i;
	return -1;
}

/* Reports an unknown key of section ("phase", "target", "top"). */
static int unknown_key(struct ctx *c, const struct cfg_pair *p, const char *section)
{
	const char *const *known = strcmp(section, "target") == 0 ? cfg_target_keys
				   : strcmp(section, "top") == 0  ? cfg_top_keys
								  : cfg_phase_keys;
	const char *near = cfg_nearest(p->key, known, (size_t)-1);
	const char *path = p->val->path;

	if (near)
		return cfg_fail(c->d, &p->kloc, path, "unknown key (did you mean %s?)", near);
	if (strcmp(section, "target") == 0 && cfg_key_in(p->key, cfg_phase_keys))
		return cfg_fail(c->d, &p->kloc, path,
				"unknown key (%s is a phase key; a target takes path, capacity, "
				"keep, allow_destroy, hosts)",
				p->key);
	if (strcmp(section, "target") != 0 && cfg_key_in(p->key, cfg_target_keys))
		return cfg_fail(c->d, &p->kloc, path,
				"unknown key (%s is a target key; set it under targets:)", p->key);
	if (strcmp(section, "top") == 0 && cfg_key_in(p->key, cfg_phase_keys))
		return cfg_fail(
		    c->d, &p->kloc, path,
		    "unknown key (%s is a phase key; set it in a phase or under defaults:)",
		    p->key);
	if (strcmp(section, "top") == 0)
		return cfg_fail(c->d, &p->kloc, path,
				"unknown key (the config takes targets, defaults, phases)");
	if (strcmp(section, "target") == 0)
		return cfg_fail(
		    c->d, &p->kloc, path,
		    "unknown key (a target takes path, capacity, keep, allow_destroy, hosts)");
	return cfg_fail(c->d, &p->kloc, path,
			"unknown key (a phase takes name, workload, rw, rwmixread, bs, iodepth, "
			"jobs, size, runtime, io_size, ramp, fsync, direct, engine, seed, stonewall)");
}

/* ---- targets ---- */

/* Probes t's path, or for a path that does not exist yet (a directory to
 * be created), its parent directory. */
static int probe_target(struct ctx *c, struct tgt *t, const struct cfg_node *pn)
{
	char *copy, *parent;
	int err = sc_target_probe(t->path, &t->info);

	if (err == 0) {
		t->probed = true;
		return 0;
	}
	if (err == -EINVAL)
		return fail_node(c, pn, "%s is not a directory, regular file or block device",
				 t->path);
	if (err != -ENOENT)
		return fail_node(c, pn, "cannot use %s (%s)", t->path, strerror(-err));
	copy = strdup(t->path);
	if (!copy)
		return -ENOMEM;
	/* dirname() of "a/b/" is "a": trailing slashes name the same dir. */
	parent = dirname(copy);
	err = sc_target_probe(parent, &t->info);
	if (err == 0 && t->info.kind != SC_TARGET_DIR)
		err =
		    fail_node(c, pn, "%s does not exist, and %s is not a directory to create it in",
			      t->path, parent);
	else if (err == -ENOENT)
		err = fail_node(c, pn,
				"%s does not exist, nor does its parent %s (create the directory, "
				"or fix the path)",
				t->path, parent);
	else if (err)
		err = fail_node(c, pn, "%s does not exist, and its parent %s cannot be used (%s)",
				t->path, parent, strerror(-err));
	free(copy);
	if (err)
		return err;
	t->info.kind = SC_TARGET_DIR;
	t->probed = true;
	return 0;
}

static int parse_target(struct ctx *c, uint32_t i, struct tgt *t)
{
	const struct cfg_node *m = t->map;
	const struct cfg_node *src[TK_COUNT] = {0};
	uint64_t *dst[TK_COUNT] = {
	    [TK_CAPACITY] = &t->capacity,
	    [TK_KEEP] = &t->keep,
	    [TK_ALLOW_DESTROY] = &t->allow_destroy,
	};
	uint64_t unused;
	int err;

	if (m->kind != CFG_MAP)
		return fail_node(c, m, "expected a mapping (path:, capacity:, ...), got %s",
				 cfg_is_null(m) ? "nothing" : cfg_kind_word(m));
	for (uint32_t j = 0; j < m->npairs; j++) {
		const struct cfg_pair *p = &m->pairs[j];
		int k = key_index(p->key, cfg_target_keys);

		if (k < 0)
			return unknown_key(c, p, "target");
		err = cfg_parse_scalar(c->d, p->val, &target_defs[k], dst[k] ? dst[k] : &unused);
		if (err)
			return err;
		src[k] = p->val;
	}
	if (!src[TK_PATH])
		return fail_node(c, m,
				 "no path (every target needs path: DIRECTORY, FILE or DEVICE)");
	t->path = src[TK_PATH]->str;
	t->hosts = src[TK_HOSTS] ? src[TK_HOSTS]->str : NULL;
	for (uint32_t j = 0; j < i; j++) {
		const struct tgt *o = &c->tg[j];

		if (strcmp(o->path, t->path) == 0 &&
		    (o->hosts ? t->hosts && strcmp(o->hosts, t->hosts) == 0 : !t->hosts))
			return fail_node(c, src[TK_PATH], "%s is already targets.%u", t->path, j);
	}
	if (t->hosts) {
		char why[256];

		if (sc_hostlist_check(t->hosts, why, sizeof(why)))
			return fail_node(c, src[TK_HOSTS], "%s (write e.g. gpu[01-16], node*, a,b)",
					 why);
	}
	if (t->hosts) {
		/* Lives on other hosts: each rank there checks it.  Kind is a
		 * guess by name; capacity 0 means "all of it" (unknown here). */
		t->info.kind = strncmp(t->path, "/dev/", 5) == 0 ? SC_TARGET_BLOCK : SC_TARGET_DIR;
		return 0;
	}
	err = probe_target(c, t, src[TK_PATH]);
	if (err)
		return err;
	if (!src[TK_CAPACITY]) {
		t->capacity = t->info.avail_bytes;
	} else if (t->capacity > t->info.avail_bytes) {
		char a[32], b[32];

		if (t->info.kind == SC_TARGET_DIR)
			return fail_node(c, src[TK_CAPACITY],
					 "%s is more than the %" PRIu64 " B (%s) free in %s",
					 src[TK_CAPACITY]->str, t->info.avail_bytes,
					 sc_fmt_bytes(b, sizeof(b), t->info.avail_bytes), t->path);
		return fail_node(c, src[TK_CAPACITY], "%s is larger than the %s %s (%s)",
				 src[TK_CAPACITY]->str, sc_target_kind_name(t->info.kind), t->path,
				 cfg_fmt_size(a, sizeof(a), t->info.size_bytes));
	}
	return 0;
}

static int parse_targets(struct ctx *c)
{
	const struct cfg_node *root = c->d->root;
	const struct cfg_pair *p = cfg_map_pair(root, "targets");
	const struct cfg_node *ts = p ? p->val : NULL;
	int err;

	if (!ts)
		return cfg_fail(
		    c->d, &root->loc, "targets",
		    "missing (list at least one target: targets: [{path: /mnt/nvme0}])");
	if (cfg_is_null(ts) || (ts->kind == CFG_SEQ && !ts->nitems))
		return fail_node(c, ts, "no targets (list at least one, e.g. - path: /mnt/nvme0)");
	if (ts->kind != CFG_SEQ)
		return fail_node(c, ts, "expected a list of targets, got %s", cfg_kind_word(ts));
	c->tg = calloc(ts->nitems, sizeof(*c->tg));
	if (!c->tg)
		return -ENOMEM;
	for (uint32_t i = 0; i < ts->nitems; i++) {
		c->tg[i].map = ts->items[i];
		err = parse_target(c, i, &c->tg[i]);
		if (err)
			return err;
		c->ntg++;
	}
	return 0;
}

/* ---- phases ---- */

static int parse_defaults(struct ctx *c)
{
	const struct cfg_node *dm = cfg_map_get(c->d->root, "defaults");
	struct pv *scratch;
	int err = 0;

	if (!dm || cfg_is_null(dm))
		return 0;
	if (dm->kind != CFG_MAP)
		return fail_node(c, dm, "expected a mapping of phase keys, got %s",
				 cfg_kind_word(dm));
	scratch = calloc(1, sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	for (uint32_t j = 0; !err && j < dm->npairs; j++) {
		const struct cfg_pair *p = &dm->pairs[j];
		int k = key_index(p->key, cfg_phase_keys);

		if (k < 0)
			err = unknown_key(c, p, "defaults");
		else if (k == PK_NAME)
			err =
			    cfg_fail(c->d, &p->kloc, p->val->path,
				     "a name cannot be a default (give each phase its own name:)");
		else
			err = parse_phase_key(c, scratch, (enum pkey)k, p->val);
	}
	free(scratch);
	if (!err && cfg_map_get(dm, "runtime") && cfg_map_get(dm, "io_size"))
		err = cfg_fail(c->d, &cfg_map_pair(dm, "io_size")->kloc,
			       cfg_map_get(dm, "io_size")->path,
			       "runtime and io_size are alternatives (keep one)");
	c->defaults = dm;
	return err;
}

static bool any_rw(const struct cfg_sweep *rw, bool (*pred)(enum sc_rw))
{
	for (uint32_t i = 0; i < rw->n; i++)
		if (pred((enum sc_rw)rw->v[i]))
			return true;
	return false;
}

static bool is_randrw(enum sc_rw rw)
{
	return rw == SC_RW_RANDRW;
}

static const char *rw_text(const struct pv *pv, char *buf, size_t len)
{
	buf[0] = '\0';
	for (uint32_t i = 0; i < pv->rw.n; i++) {
		strncat(buf, i ? ", " : "", len - strlen(buf) - 1);
		strncat(buf, sc_rw_name((enum sc_rw)pv->rw.v[i]), len - strlen(buf) - 1);
	}
	return buf;
}

static int parse_phase(struct ctx *c, uint32_t i, struct pv *pv)
{
	const struct cfg_node *m = pv->map;
	char rwbuf[96];
	int err;

	snprintf(pv->name, sizeof(pv->name), "phase%u", i);
	pv->workload = SC_WORKLOAD_IO;
	pv->bs.n = pv->iodepth.n = 1;
	pv->bs.v[0] = DEFAULT_BS_BYTES;
	pv->iodepth.v[0] = 1;
	pv->rwmixread = DEFAULT_RWMIXREAD;
	pv->jobs = 1;
	pv->size = DEFAULT_SIZE_BYTES;
	pv->direct = 1;
	pv->engine = SC_ENGINE_URING;
	pv->seed = 1 + (uint64_t)i;

	if (m->kind != CFG_MAP)
		return fail_node(c, m, "expected a mapping of phase keys (rw:, bs:, ...), got %s",
				 cfg_is_null(m) ? "nothing" : cfg_kind_word(m));
	for (uint32_t j = 0; j < m->npairs; j++) {
		const struct cfg_pair *p = &m->pairs[j];
		int k = key_index(p->key, cfg_phase_keys);

		if (k < 0)
			return unknown_key(c, p, "phase");
		err = parse_phase_key(c, pv, (enum pkey)k, p->val);
		if (err)
			return err;
		pv->own[k] = true;
	}
	/* Defaults fill what the phase leaves out; a default that is an
	 * alternative to what the phase chose (runtime vs io_size) or does
	 * not apply to it (ramp without runtime) is left out. */
	for (int k = 0; k < PK_COUNT; k++) {
		const struct cfg_node *dn = cfg_map_get(c->defaults, cfg_phase_keys[k]);

		if (!dn || pv->own[k] || k == PK_NAME || (k == PK_RUNTIME && pv->own[PK_IO_SIZE]) ||
		    (k == PK_IO_SIZE && pv->own[PK_RUNTIME]) ||
		    (k == PK_RAMP && !pv->src[PK_RUNTIME]))
			continue;
		err = parse_phase_key(c, pv, (enum pkey)k, dn);
		if (err)
			return err;
	}
	if (!pv->src[PK_RW])
		return fail_node(c, m, "no rw (one of read, write, randread, randwrite, randrw)");
	if (pv->own[PK_RUNTIME] && pv->own[PK_IO_SIZE])
		return fail_node(c, pv->src[PK_IO_SIZE],
				 "runtime and io_size are alternatives (keep one: runtime for a "
				 "timed phase, io_size for a fixed amount)");
	if (pv->own[PK_RAMP] && !pv->src[PK_RUNTIME])
		return fail_node(c, pv->src[PK_RAMP],
				 "ramp needs runtime (only timed phases ramp up)");
	if (pv->own[PK_RWMIXREAD] && !any_rw(&pv->rw, is_randrw))
		return fail_node(c, pv->src[PK_RWMIXREAD],
				 "rwmixread only applies to rw: randrw (this phase is %s)",
				 rw_text(pv, rwbuf, sizeof(rwbuf)));
	if (pv->own[PK_FSYNC] && pv->fsync && !any_rw(&pv->rw, sc_rw_writes))
		return fail_node(c, pv->src[PK_FSYNC],
				 "fsync needs a phase that writes (this phase is %s)",
				 rw_text(pv, rwbuf, sizeof(rwbuf)));
	if (!pv->src[PK_RUNTIME] && !pv->src[PK_IO_SIZE])
		pv->io_size = pv->size;
	if (pv->src[PK_RUNTIME])
		pv->io_size = 0;
	else
		pv->ramp = 0;
	{
		uint64_t cells = (uint64_t)pv->rw.n * pv->bs.n * pv->iodepth.n;

		if (cells > MAX_SWEEP_CELLS)
			return fail_node(c, m, "the sweep has %" PRIu64 " cells (at most %u)",
					 cells, MAX_SWEEP_CELLS);
		pv->ncells = (uint32_t)cells;
	}
	return 0;
}

static int parse_phases(struct ctx *c)
{
	const struct cfg_node *root = c->d->root;
	const struct cfg_node *ps = cfg_map_get(root, "phases");
	int err;

	if (!ps)
		return cfg_fail(c->d, &root->loc, "phases",
				"missing (list at least one phase: phases: [{rw: read}])");
	if (cfg_is_null(ps) || (ps->kind == CFG_SEQ && !ps->nitems))
		return fail_node(c, ps, "no phases (list at least one, e.g. - rw: read)");
	if (ps->kind != CFG_SEQ)
		return fail_node(c, ps, "expected a list of phases, got %s", cfg_kind_word(ps));
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
			const struct pv *a = &c->pv[j], *b = &c->pv[i];

			if (strcmp(a->name, b->name))
				continue;
			if (b->src[PK_NAME])
				return fail_node(c, b->src[PK_NAME],
						 "\"%s\" is already the name of phases.%u", b->name,
						 j);
			return fail_node(c, a->src[PK_NAME],
					 "\"%s\" is the default name of phases.%u (rename one)",
					 a->name, i);
		}
	}
	return 0;
}

/* Where a value of cell checks is reported: the list element or key that
 * gave it, or for a built-in default, the phase itself under key's path. */
static int fail_value(struct ctx *c, const struct pv *pv, uint32_t i, const struct cfg_node *n,
		      enum pkey k, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fail_value(struct ctx *c, const struct pv *pv, uint32_t i, const struct cfg_node *n,
		      enum pkey k, const char *fmt, ...)
{
	char msg[768], path[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n && strncmp(n->path, "phases.", 7) == 0)
		return cfg_fail(c->d, &n->loc, n->path, "%s", msg);
	if (n) /* from defaults: name the phase it breaks */
		return cfg_fail(c->d, &n->loc, n->path, "%s, in phase %s", msg, pv->name);
	snprintf(path, sizeof(path), "phases.%u.%s", i, cfg_phase_keys[k]);
	return cfg_fail(c->d, &pv->map->loc, path, "%s", msg);
}

/* The checks of one cell (rw, bs) against sizes and every target probed
 * here. */
static int check_cell(struct ctx *c, uint32_t i, const struct pv *pv, uint32_t r, uint32_t b)
{
	enum sc_rw rw = (enum sc_rw)pv->rw.v[r];
	uint64_t bs = pv->bs.v[b];
	const struct cfg_node *bsn = pv->bs.list ? pv->bs.node[b] : pv->src[PK_BS];
	const struct cfg_node *rwn = pv->rw.list ? pv->rw.node[r] : pv->src[PK_RW];
	char a1[32], a2[32];

	if (bs > pv->size) {
		if (bsn || !pv->src[PK_SIZE])
			return fail_value(c, pv, i, bsn, PK_BS, "%s is larger than size %s",
					  cfg_fmt_size(a1, sizeof(a1), bs),
					  cfg_fmt_size(a2, sizeof(a2), pv->size));
		return fail_value(c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is smaller than bs %s",
				  cfg_fmt_size(a1, sizeof(a1), pv->size),
				  cfg_fmt_size(a2, sizeof(a2), bs));
	}
	if (pv->size % bs)
		return fail_value(
		    c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is not a multiple of bs %s",
		    cfg_fmt_size(a1, sizeof(a1), pv->size), cfg_fmt_size(a2, sizeof(a2), bs));
	if (pv->src[PK_IO_SIZE] && pv->io_size % bs)
		return fail_value(
		    c, pv, i, pv->src[PK_IO_SIZE], PK_IO_SIZE, "%s is not a multiple of bs %s",
		    cfg_fmt_size(a1, sizeof(a1), pv->io_size), cfg_fmt_size(a2, sizeof(a2), bs));
	for (uint32_t t = 0; t < c->ntg; t++) {
		const struct tgt *tg = &c->tg[t];

		if (!tg->probed)
			continue;
		if (pv->direct && bs % tg->info.align_bytes)
			return fail_value(
			    c, pv, i, bsn, PK_BS,
			    "%s is not a multiple of the %s block size of targets.%u (%s), which "
			    "direct: true needs (use a multiple of %s, or direct: false)",
			    cfg_fmt_size(a1, sizeof(a1), bs),
			    cfg_fmt_size(a2, sizeof(a2), tg->info.align_bytes), t, tg->path, a2);
		if (!sc_rw_writes(rw) || tg->info.kind == SC_TARGET_DIR)
			continue;
		if (!tg->allow_destroy)
			return fail_value(
			    c, pv, i, rwn, PK_RW,
			    "%s would overwrite the data of the %s %s (targets.%u) (set "
			    "allow_destroy: true on that target if its data may go)",
			    sc_rw_name(rw), sc_target_kind_name(tg->info.kind), tg->path, t);
		if (tg->info.mounted)
			return fail_value(c, pv, i, rwn, PK_RW,
					  "%s would write to %s (targets.%u), which holds a "
					  "mounted filesystem (unmount it first)",
					  sc_rw_name(rw), tg->path, t);
	}
	return 0;
}

static char *cell_name(const struct pv *pv, uint32_t r, uint32_t b, uint32_t q)
{
	char buf[CFG_MAX_NAME_LEN + 96], a[32];
	size_t len;

	snprintf(buf, sizeof(buf), "%s", pv->name);
	if (!pv->rw.list && !pv->bs.list && !pv->iodepth.list)
		return strdup(buf);
	strcat(buf, "[");
	if (pv->rw.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "rw=%s,",
			 sc_rw_name((enum sc_rw)pv->rw.v[r]));
	}
	if (pv->bs.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "bs=%s,",
			 cfg_fmt_size(a, sizeof(a), pv->bs.v[b]));
	}
	if (pv->iodepth.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "iodepth=%" PRIu64 ",", pv->iodepth.v[q]);
	}
	buf[strlen(buf) - 1] = ']';
	return strdup(buf);
}

/* One plan phase: cell (rw index r, bs index b, iodepth index q) of
 * config phase i. */
static int fill_cell(const struct pv *pv, uint32_t i, uint32_t cell, uint32_t r, uint32_t b,
		     uint32_t q, struct sc_phase *ph)
{
	enum sc_rw rw = (enum sc_rw)pv->rw.v[r];

	ph->name = cell_name(pv, r, b, q);
	ph->group = strdup(pv->name);
	if (!ph->name || !ph->group)
		return -ENOMEM;
	ph->config_index = i;
	ph->cell = cell;
	ph->ncells = pv->ncells;
	ph->workload = (enum sc_workload)pv->workload;
	ph->io.rw = rw;
	/* The share of reads: what rwmixread says for randrw, else implied. */
	if (rw == SC_RW_RANDRW)
		ph->io.rwmixread_pct = (uint32_t)pv->rwmixread;
	else
		ph->io.rwmixread_pct = sc_rw_reads(rw) ? 100 : 0;
	ph->io.bs_bytes = pv->bs.v[b];
	ph->io.iodepth = (uint32_t)pv->iodepth.v[q];
	ph->io.jobs = (uint32_t)pv->jobs;
	ph->io.size_bytes = pv->size;
	ph->io.runtime_ns = pv->runtime;
	ph->io.io_bytes = pv->io_size;
	ph->io.ramp_ns = pv->ramp;
	ph->io.fsync_every = sc_rw_writes(rw) ? (uint32_t)pv->fsync : 0;
	ph->io.direct = pv->direct != 0;
	ph->io.engine = (enum sc_engine_kind)pv->engine;
	ph->stonewall = (enum sc_stonewall)pv->stonewall;
	ph->io.seed = pv->seed;
	return 0;
}

static int build_plan(struct ctx *c, const char *path, struct sc_plan *plan)
{
	uint32_t ncells = 0, at = 0;

	plan->config_path = strdup(path);
	plan->targets = calloc(c->ntg, sizeof(*plan->targets));
	if (!plan->config_path || !plan->targets)
		return -ENOMEM;
	for (uint32_t t = 0; t < c->ntg; t++) {
		struct sc_target_spec *ts = &plan->targets[t];
		const struct tgt *tg = &c->tg[t];

		plan->ntargets++;
		ts->path = strdup(tg->path);
		ts->hosts = tg->hosts ? strdup(tg->hosts) : NULL;
		if (!ts->path || (tg->hosts && !ts->hosts))
			return -ENOMEM;
		ts->kind = tg->info.kind;
		ts->capacity_bytes = tg->capacity;
		ts->keep = tg->keep;
		ts->allow_destroy = tg->allow_destroy;
	}
	for (uint32_t i = 0; i < c->npv; i++)
		ncells += c->pv[i].ncells;
	plan->phases = calloc(ncells, sizeof(*plan->phases));
	if (!plan->phases)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->npv; i++) {
		const struct pv *pv = &c->pv[i];

		/* Cartesian product: rw, then bs, then iodepth varying fastest. */
		for (uint32_t cell = 0; cell < pv->ncells; cell++) {
			uint32_t q = cell % pv->iodepth.n;
			uint32_t b = (cell / pv->iodepth.n) % pv->bs.n;
			uint32_t r = cell / (pv->iodepth.n * pv->bs.n);
			struct sc_phase *ph = &plan->phases[at++];
			int err = fill_cell(pv, i, cell, r, b, q, ph);

			plan->nphases++;
			if (err)
				return err;
		}
	}
	return 0;
}

static int check_root(struct ctx *c)
{
	const struct cfg_node *root = c->d->root;

	for (uint32_t j = 0; j < root->npairs; j++)
		if (!cfg_key_in(root->pairs[j].key, cfg_top_keys))
			return unknown_key(c, &root->pairs[j], "top");
	return 0;
}

static int load_plan(struct sc_config *cfg, const char *path)
{
	struct ctx c = {.d = &cfg->doc};
	int err;

	err = check_root(&c);
	if (!err)
		err = parse_targets(&c);
	if (!err)
		err = parse_defaults(&c);
	if (!err)
		err = parse_phases(&c);
	for (uint32_t i = 0; !err && i < c.npv; i++) {
		const struct pv *pv = &c.pv[i];

		for (uint32_t r = 0; !err && r < pv->rw.n; r++)
			for (uint32_t b = 0; !err && b < pv->bs.n; b++)
				err = check_cell(&c, i, pv, r, b);
	}
	if (!err)
		err = build_plan(&c, path, &cfg->plan);
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
	ret = cfg_doc_load(&cfg->doc, path);
	if (!ret)
		ret = cfg_doc_apply_sets(&cfg->doc, sets, nsets);
	if (!ret)
		ret = cfg_doc_expand(&cfg->doc);
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
	const struct cfg_node *n, *ps = cfg_map_get(d->root, "phases");
	char norm[512], *dot;
	size_t o = 0;

	/* "phases[2].bs" is the same path as "phases.2.bs". */
	for (const char *p = keypath ? keypath : ""; *p && o + 1 < sizeof(norm); p++) {
		if (*p == ']')
			continue;
		norm[o++] = *p == '[' ? '.' : *p;
	}
	norm[o] = '\0';
	n = cfg_doc_find(d, norm, false);
	dot = strrchr(norm, '.');
	if (!n && dot && ps && strncmp(norm, "phases.", 7) == 0) {
		/* A phase key the phase does not set comes from defaults. */
		const struct cfg_node *ph;

		*dot = '\0';
		ph = cfg_doc_find(d, norm, false);
		for (uint32_t i = 0; ph && i < ps->nitems; i++)
			if (ps->items[i] == ph)
				n = cfg_map_get(cfg_map_get(d->root, "defaults"), dot + 1);
		*dot = '.';
	}
	if (!n)
		n = cfg_doc_find(d, norm, true);
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
	cfg_doc_exit(&cfg->doc);
	free(cfg);
}
