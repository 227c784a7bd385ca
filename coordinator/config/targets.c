/* targets.c -- the targets: each one read and probed here (kind, size,
 * alignment), and each phase checked against the targets probed. */
#include "schema.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostlist.h"
#include "units.h"

/* Probes t's path, or for a path that does not exist yet (a directory to
 * be created), its parent directory. */
static int probe_target(struct cfg_check *c, struct cfg_target *t, const struct cfg_node *pn)
{
	char *copy, *parent;
	int err = sc_target_probe(t->path, &t->info);

	if (err == 0) {
		t->probed = true;
		return 0;
	}
	if (err == -EINVAL)
		return sc_cfg_fail_node(
		    c->d, pn, "%s is not a directory, regular file or block device", t->path);
	if (err != -ENOENT)
		return sc_cfg_fail_node(c->d, pn, "cannot use %s (%s)", t->path, strerror(-err));
	copy = strdup(t->path);
	if (!copy)
		return -ENOMEM;
	/* dirname() of "a/b/" is "a": trailing slashes name the same dir. */
	parent = dirname(copy);
	err = sc_target_probe(parent, &t->info);
	if (err == 0 && t->info.kind != SC_TARGET_DIR)
		err = sc_cfg_fail_node(
		    c->d, pn, "%s does not exist, and %s is not a directory to create it in",
		    t->path, parent);
	else if (err == -ENOENT)
		err = sc_cfg_fail_node(
		    c->d, pn,
		    "%s does not exist, nor does its parent %s (create the directory, "
		    "or fix the path)",
		    t->path, parent);
	else if (err)
		err = sc_cfg_fail_node(c->d, pn,
				       "%s does not exist, and its parent %s cannot be used (%s)",
				       t->path, parent, strerror(-err));
	free(copy);
	if (err)
		return err;
	t->info.kind = SC_TARGET_DIR;
	t->probed = true;
	return 0;
}

/* The capacity of probed target t: capacity (node cap, or NULL: not
 * given) when the target has that much room, else all the room it has. */
static int probed_capacity(struct cfg_check *c, struct cfg_target *t, const struct cfg_node *cap)
{
	char a[32], b[32];

	t->capacity_given = cap != NULL;
	if (!cap) {
		t->capacity = t->info.avail_bytes;
		return 0;
	}
	if (t->capacity <= t->info.avail_bytes)
		return 0;
	if (t->info.kind == SC_TARGET_DIR)
		return sc_cfg_fail_node(
		    c->d, cap, "%s is more than the %" PRIu64 " B (%s) free in %s", cap->str,
		    t->info.avail_bytes, sc_fmt_bytes(b, sizeof(b), t->info.avail_bytes), t->path);
	return sc_cfg_fail_node(c->d, cap, "%s is larger than the %s %s (%s)", cap->str,
				sc_target_kind_name(t->info.kind), t->path,
				sc_cfg_fmt_size(a, sizeof(a), t->info.size_bytes));
}

/* The keys that decide what a target that says allow_destroy: true
 * destroys: where it is and on which hosts. */
static const enum tkey what_is_destroyed[] = {TK_PATH, TK_HOSTS};

/* The rule of the destroy opt-in: the config file says it, next to the
 * path it lets the run destroy.  So the opt-ins never come from the
 * environment (nor from --set: set.c refuses that), and on a target that
 * opts in, path and hosts come from the file as written: a --set or a
 * ${VAR} there would point the opt-in at another file or device. */
static int check_destroy_source(struct cfg_check *c, const struct cfg_target *t,
				const struct cfg_node *const *src)
{
	static const enum tkey optins[] = {TK_ALLOW_DESTROY, TK_WIPE_SIGNATURES_OK};

	for (size_t k = 0; k < sizeof(optins) / sizeof(optins[0]); k++) {
		const struct cfg_node *n = src[optins[k]];

		if (n && n->from_env && strcmp(n->str, "false") != 0)
			return sc_cfg_fail_node(
			    c->d, n,
			    "%s is never taken from the environment: write true or false "
			    "in the config file, next to the path it lets the run destroy",
			    sc_cfg_target_keys[optins[k]]);
	}
	if (!t->allow_destroy)
		return 0;
	for (size_t k = 0; k < sizeof(what_is_destroyed) / sizeof(what_is_destroyed[0]); k++) {
		const struct cfg_node *n = src[what_is_destroyed[k]];
		const char *key = sc_cfg_target_keys[what_is_destroyed[k]];

		if (n && n->loc.set)
			return sc_cfg_fail_node(
			    c->d, n,
			    "%s of a target that says allow_destroy: true is never taken "
			    "from --set (it would point the opt-in at another file or "
			    "device): write it in the config file, next to allow_destroy",
			    key);
		if (n && n->from_env)
			return sc_cfg_fail_node(
			    c->d, n,
			    "%s of a target that says allow_destroy: true is never taken "
			    "from the environment (\"%s\" came from a ${VAR}): write it out "
			    "in the config file, next to allow_destroy",
			    key, n->str);
	}
	return 0;
}

/* Target i (t, its map set): its keys, then probed here unless it lives
 * on other hosts. */
static int parse_target(struct cfg_check *c, uint32_t i, struct cfg_target *t)
{
	const struct cfg_node *m = t->map;
	const struct cfg_node *src[TK_COUNT] = {0};
	uint64_t *dst[TK_COUNT] = {
	    [TK_CAPACITY] = &t->capacity,
	    [TK_KEEP] = &t->keep,
	    [TK_ALLOW_DESTROY] = &t->allow_destroy,
	    [TK_WIPE_SIGNATURES_OK] = &t->wipe_signatures_ok,
	    [TK_THROTTLE] = &t->throttle,
	};
	uint64_t unused;
	int err;

	if (m->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, m,
					"expected a mapping (path:, capacity:, ...), got %s",
					sc_cfg_is_null(m) ? "nothing" : sc_cfg_kind_word(m));
	for (uint32_t j = 0; j < m->npairs; j++) {
		const struct cfg_pair *p = &m->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_target_keys);

		if (k < 0)
			return sc_cfg_unknown_key(c, p, "target", SC_WORKLOAD_IO);
		err = sc_cfg_parse_scalar(c->d, p->val, &sc_cfg_target_defs[k],
					  dst[k] ? dst[k] : &unused);
		if (err)
			return err;
		src[k] = p->val;
	}
	if (!src[TK_PATH])
		return sc_cfg_fail_node(
		    c->d, m, "no path (every target needs path: DIRECTORY, FILE or DEVICE)");
	t->path = src[TK_PATH]->str;
	t->hosts = src[TK_HOSTS] ? src[TK_HOSTS]->str : NULL;
	err = check_destroy_source(c, t, src);
	if (err)
		return err;
	for (uint32_t j = 0; j < i; j++) {
		const struct cfg_target *o = &c->tg[j];

		if (strcmp(o->path, t->path) == 0 &&
		    (o->hosts ? t->hosts && strcmp(o->hosts, t->hosts) == 0 : !t->hosts))
			return sc_cfg_fail_node(c->d, src[TK_PATH], "%s is already targets.%u",
						t->path, j);
	}
	if (t->hosts) {
		char why[256];

		if (sc_hostlist_check(t->hosts, why, sizeof(why)))
			return sc_cfg_fail_node(c->d, src[TK_HOSTS],
						"%s (write e.g. gpu[01-16], node*, a,b)", why);
		/* Lives on other hosts: each rank there checks it.  Kind is a
		 * guess by name; capacity 0 means "all of it" (unknown here). */
		t->info.kind = strncmp(t->path, "/dev/", 5) == 0 ? SC_TARGET_BLOCK : SC_TARGET_DIR;
		return 0;
	}
	err = probe_target(c, t, src[TK_PATH]);
	return err ? err : probed_capacity(c, t, src[TK_CAPACITY]);
}

int sc_cfg_parse_targets(struct cfg_check *c)
{
	const struct cfg_node *ts;
	int err = sc_cfg_section_list(c, "targets", "target", "path: /mnt/nvme0", &ts);

	if (err)
		return err;
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

/* The unit of I/O (bs, block_size, sample_size: key k, from node n) is a
 * multiple of every probed target's alignment when the phase is direct. */
static int check_align(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv,
		       const struct cfg_node *n, enum pkey k, uint64_t unit)
{
	char a1[32], a2[32];

	for (uint32_t t = 0; pv->direct && t < c->ntg; t++) {
		const struct cfg_target *tg = &c->tg[t];

		if (!tg->probed || unit % tg->info.align_bytes == 0)
			continue;
		return sc_cfg_fail_value(
		    c, pv, i, n, k,
		    "%s is not a multiple of the %s block size of targets.%u (%s), "
		    "which direct: true needs (use a multiple of %s, or direct: false)",
		    sc_cfg_fmt_size(a1, sizeof(a1), unit),
		    sc_cfg_fmt_size(a2, sizeof(a2), tg->info.align_bytes), t, tg->path, a2);
	}
	return 0;
}

/* A phase that writes (what: "randwrite", "a checkpoint"; reported at n
 * or key k) may not overwrite a file or block target without
 * allow_destroy, nor write to a mounted block device. */
static int check_writable(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv,
			  const struct cfg_node *n, enum pkey k, const char *what)
{
	for (uint32_t t = 0; t < c->ntg; t++) {
		const struct cfg_target *tg = &c->tg[t];

		if (!tg->probed || tg->info.kind == SC_TARGET_DIR)
			continue;
		if (!tg->allow_destroy)
			return sc_cfg_fail_value(
			    c, pv, i, n, k,
			    "%s would overwrite the data of the %s %s (targets.%u) (set "
			    "allow_destroy: true on that target and add --allow-destroy to the "
			    "command line, if its data may go)",
			    what, sc_target_kind_name(tg->info.kind), tg->path, t);
		if (tg->info.mounted)
			return sc_cfg_fail_value(
			    c, pv, i, n, k,
			    "%s would write to %s (targets.%u), which is mounted, itself "
			    "or a partition, on %s (unmount it first)",
			    what, tg->path, t, tg->info.mounted_on[0] ? tg->info.mounted_on : "?");
	}
	return 0;
}

/* offset and offset_increment place regions in one file or device; on a
 * directory target each job has a file of its own, so only their
 * defaults are taken there. */
static int check_offsets(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	enum pkey k = pv->offset ? PK_OFFSET : PK_OFFSET_INCREMENT;

	if (!pv->offset && (!pv->src[PK_OFFSET_INCREMENT] || pv->offset_increment == pv->size))
		return 0;
	for (uint32_t t = 0; t < c->ntg; t++)
		if (c->tg[t].probed && c->tg[t].info.kind == SC_TARGET_DIR)
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[k], k,
			    "%s applies to file and block targets, and targets.%u (%s) is a "
			    "directory, where each job has a file of its own (leave it out)",
			    sc_cfg_phase_keys[k], t, c->tg[t].path);
	return 0;
}

/* The checks of one io cell (rw, bs) against sizes and every target
 * probed here. */
static int check_cell(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv, uint32_t r,
		      uint32_t b)
{
	enum sc_rw rw = (enum sc_rw)pv->rw.v[r];
	uint64_t bs = pv->bs.v[b];
	const struct cfg_node *bsn = pv->bs.list ? pv->bs.node[b] : pv->src[PK_BS];
	const struct cfg_node *rwn = pv->rw.list ? pv->rw.node[r] : pv->src[PK_RW];
	char a1[32], a2[32];
	int err;

	if (bs > pv->size) {
		if (bsn || !pv->src[PK_SIZE])
			return sc_cfg_fail_value(c, pv, i, bsn, PK_BS, "%s is larger than size %s",
						 sc_cfg_fmt_size(a1, sizeof(a1), bs),
						 sc_cfg_fmt_size(a2, sizeof(a2), pv->size));
		return sc_cfg_fail_value(
		    c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is smaller than bs %s",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->size), sc_cfg_fmt_size(a2, sizeof(a2), bs));
	}
	if (pv->size % bs)
		return sc_cfg_fail_value(
		    c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is not a multiple of bs %s",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->size), sc_cfg_fmt_size(a2, sizeof(a2), bs));
	if (pv->bs_max > bs && pv->size % pv->bs_max)
		return sc_cfg_fail_value(
		    c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is not a multiple of %s's largest size %s",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->size),
		    sc_cfg_phase_keys[pv->src[PK_BSSPLIT] ? PK_BSSPLIT : PK_BSRANGE],
		    sc_cfg_fmt_size(a2, sizeof(a2), pv->bs_max));
	if (pv->src[PK_IO_SIZE] && pv->io_size % bs)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_IO_SIZE], PK_IO_SIZE,
					 "%s is not a multiple of bs %s",
					 sc_cfg_fmt_size(a1, sizeof(a1), pv->io_size),
					 sc_cfg_fmt_size(a2, sizeof(a2), bs));
	for (enum pkey k = PK_OFFSET; k <= PK_OFFSET_INCREMENT; k++) {
		uint64_t v = k == PK_OFFSET ? pv->offset : pv->offset_increment;

		if (pv->src[k] && v % bs)
			return sc_cfg_fail_value(c, pv, i, pv->src[k], k,
						 "%s is not a multiple of bs %s",
						 sc_cfg_fmt_size(a1, sizeof(a1), v),
						 sc_cfg_fmt_size(a2, sizeof(a2), bs));
	}
	err = check_align(c, i, pv, bsn, PK_BS, bs);
	if (!err && sc_rw_writes(rw))
		err = check_writable(c, i, pv, rwn, PK_RW, sc_rw_name(rw));
	return err;
}

/* The checks of config phase i against the targets probed here. */
int sc_cfg_check_phase_targets(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	int err = 0;

	switch (pv->workload) {
	case SC_WORKLOAD_CHECKPOINT:
		err = check_align(c, i, pv, pv->src[PK_BLOCK_SIZE], PK_BLOCK_SIZE, pv->block_size);
		if (!err)
			err = check_writable(c, i, pv, pv->src[PK_WORKLOAD], PK_WORKLOAD,
					     "a checkpoint");
		return err;
	case SC_WORKLOAD_INGEST:
		return check_align(c, i, pv, pv->src[PK_SAMPLE_SIZE], PK_SAMPLE_SIZE,
				   pv->sample_size);
	case SC_WORKLOAD_TRAINING: /* a sample's reads, but for its last */
		return check_align(c, i, pv, pv->src[PK_TRANSFER_SIZE], PK_TRANSFER_SIZE,
				   pv->transfer_size);
	case SC_WORKLOAD_FILL:
		err = check_align(c, i, pv, pv->src[PK_BS], PK_BS, pv->bs.v[0]);
		if (!err)
			err = check_align(c, i, pv, pv->src[PK_RANDOM_BS], PK_RANDOM_BS,
					  pv->random_bs);
		if (!err)
			err = check_writable(c, i, pv, pv->src[PK_WORKLOAD], PK_WORKLOAD, "a fill");
		return err;
	case SC_WORKLOAD_IDLE:
		return 0;
	default:
		for (uint32_t r = 0; !err && r < pv->rw.n; r++)
			for (uint32_t b = 0; !err && b < pv->bs.n; b++)
				err = check_cell(c, i, pv, r, b);
		return err ? err : check_offsets(c, i, pv);
	}
}
