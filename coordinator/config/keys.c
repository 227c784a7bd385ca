/* keys.c -- the config schema's keys: key_table.h's rows expanded into the
 * tables the parser reads (names, workloads, types and ranges, members,
 * defaults, help), the target and top-level keys, and what a key unknown or
 * out of place is told.  The reference is docs/config.md (its key tables
 * come from `ssdcluster keys --markdown`). */
#include "schema.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "plan.h"
#include "units.h"

#define SWEEP	1
#define PLAN(m) .plan_off = offsetof(struct sc_phase, m), .plan_bytes = sizeof(((struct sc_phase *)0)->m)
#define NO_PLAN .plan_bytes = 0
/* A row of key_table.h (written twice: an argument that expands to a
 * comma, as PLAN does, cannot be handed on to another macro). */
#define U64_ROW(ID, key, wl, t, lo, hi, sw, plan, d, h)                                            \
	[PK_##ID] = {.name = #key, .takes = (wl),                                                  \
		     .def = {.type = (t), .min = (lo), .max = (hi), .phase = true, .sweep = (sw)}, \
		     plan, .dflt = (d), .help = (h), .u64 = true,                                  \
		     .pv_off = offsetof(struct cfg_phase, key)},
#define OWN_ROW(ID, key, wl, t, lo, hi, sw, plan, d, h)                                            \
	[PK_##ID] = {.name = #key, .takes = (wl),                                                  \
		     .def = {.type = (t), .min = (lo), .max = (hi), .phase = true, .sweep = (sw)}, \
		     plan, .dflt = (d), .help = (h)},
const struct cfg_keyrow sc_cfg_keys[PK_COUNT] = {SC_PHASE_KEYS(U64_ROW, OWN_ROW)};
#undef U64_ROW
#undef OWN_ROW
#undef ROW

#define NAME_OF(ID, key, ...) [PK_##ID] = #key,
const char *const sc_cfg_phase_keys[PK_COUNT + 1] = {SC_PHASE_KEYS(NAME_OF, NAME_OF)[PK_COUNT] = NULL};
#undef NAME_OF

#define TK_NAME(ID, key, ...) [TK_##ID] = #key,
const char *const sc_cfg_target_keys[TK_COUNT + 1] = {SC_TARGET_KEYS(TK_NAME)[TK_COUNT] = NULL};
#undef TK_NAME
#define TK_DEF(ID, key, t, lo, hi, d, h) [TK_##ID] = {.type = (t), .min = (lo), .max = (hi)},
const struct cfg_keydef sc_cfg_target_defs[TK_COUNT] = {SC_TARGET_KEYS(TK_DEF)};
#undef TK_DEF
#define TK_DFLT(ID, key, t, lo, hi, d, h) [TK_##ID] = (d),
const char *const sc_cfg_target_dflt[TK_COUNT] = {SC_TARGET_KEYS(TK_DFLT)};
#undef TK_DFLT
#define TK_HELP(ID, key, t, lo, hi, d, h) [TK_##ID] = (h),
const char *const sc_cfg_target_help[TK_COUNT] = {SC_TARGET_KEYS(TK_HELP)};
#undef TK_HELP

const char *const sc_cfg_top_keys[] = {"targets", "defaults", "phases", "memory_per_rank", "model",
				       "outliers", NULL};
const char *const sc_cfg_sections[] = {"targets", "defaults", "phases", "model", "outliers",
				       NULL};

/* A key of another workload that means what key means in workload w. */
/* clang-format off */
static const struct {
	enum sc_workload w;
	enum pkey key, use;
} key_hints[] = {
    {SC_WORKLOAD_CHECKPOINT, PK_BS, PK_BLOCK_SIZE},
    {SC_WORKLOAD_INGEST, PK_BS, PK_SAMPLE_SIZE},
    {SC_WORKLOAD_INGEST, PK_SIZE, PK_FILE_SIZE},
    {SC_WORKLOAD_INGEST, PK_IO_SIZE, PK_EPOCHS},
    {SC_WORKLOAD_INGEST, PK_RECORD_SIZE, PK_SAMPLE_SIZE},
    {SC_WORKLOAD_INGEST, PK_TRANSFER_SIZE, PK_SAMPLE_SIZE},
    {SC_WORKLOAD_INGEST, PK_COMPUTATION_TIME, PK_COMPUTE_PER_BATCH},
    {SC_WORKLOAD_INGEST, PK_PREFETCH_SIZE, PK_PREFETCH},
    {SC_WORKLOAD_TRAINING, PK_BS, PK_TRANSFER_SIZE},
    {SC_WORKLOAD_TRAINING, PK_SAMPLE_SIZE, PK_RECORD_SIZE},
    {SC_WORKLOAD_TRAINING, PK_FILE_SIZE, PK_SAMPLES_PER_FILE},
    {SC_WORKLOAD_TRAINING, PK_COMPUTE_PER_BATCH, PK_COMPUTATION_TIME},
    {SC_WORKLOAD_TRAINING, PK_PREFETCH, PK_PREFETCH_SIZE},
    {SC_WORKLOAD_TRAINING, PK_RUNTIME, PK_EPOCHS},
    {SC_WORKLOAD_TRAINING, PK_IO_SIZE, PK_EPOCHS},
    {SC_WORKLOAD_IO, PK_BLOCK_SIZE, PK_BS},
    {SC_WORKLOAD_IO, PK_SAMPLE_SIZE, PK_BS},
    {SC_WORKLOAD_KVCACHE, PK_BLOCK_SIZE, PK_BS},
    {SC_WORKLOAD_KVCACHE, PK_SAMPLE_SIZE, PK_BS},
};
/* clang-format on */


bool sc_cfg_takes(uint64_t w, enum pkey k)
{
	return w < SC_WORKLOAD_COUNT && (sc_cfg_keys[k].takes & (1u << w));
}

bool sc_cfg_sweeps(uint64_t w)
{
	return w == SC_WORKLOAD_IO || w == SC_WORKLOAD_KVCACHE;
}

struct cfg_keydef sc_cfg_key_def(uint64_t w, enum pkey k)
{
	struct cfg_keydef def = sc_cfg_keys[k].def;

	if (!sc_cfg_sweeps(w))
		def.sweep = false;
	if (k == PK_FSYNC && w == SC_WORKLOAD_CHECKPOINT) {
		def.type = CFG_VT_BOOL;
		def.max = 1;
	}
	if (k == PK_FILES && w == SC_WORKLOAD_TRAINING)
		def.max = MAX_TRAINING_FILES; /* the cluster's, not a node's */
	return def;
}

const char *sc_cfg_key_workloads(const char *key, char *buf, size_t len)
{
	const char *names[SC_WORKLOAD_COUNT + 1];
	int k = sc_cfg_key_index(key, sc_cfg_phase_keys);
	size_t n = 0;

	for (int w = 0; k >= 0 && w < SC_WORKLOAD_COUNT; w++)
		if (sc_cfg_takes((uint64_t)w, (enum pkey)k))
			names[n++] = sc_workload_name((enum sc_workload)w);
	names[n] = NULL;
	return sc_cfg_join(buf, len, names);
}

/* The keys workload w takes, NULL-terminated, in table order. */
static void workload_keys(uint64_t w, const char *keys[PK_COUNT + 1])
{
	size_t n = 0;

	for (int k = 0; k < PK_COUNT; k++)
		if (sc_cfg_takes(w, (enum pkey)k))
			keys[n++] = sc_cfg_phase_keys[k];
	keys[n] = NULL;
}

int sc_cfg_unknown_key(struct cfg_check *c, const struct cfg_pair *p, const char *section,
		       uint64_t w)
{
	const char *wkeys[PK_COUNT + 1];
	const char *const *known = strcmp(section, "target") == 0 ? sc_cfg_target_keys
				   : strcmp(section, "top") == 0  ? sc_cfg_top_keys
				   : strcmp(section, "phase") == 0
				       ? (workload_keys(w, wkeys), (const char *const *)wkeys)
				       : sc_cfg_phase_keys;
	const char *near = sc_cfg_nearest(p->key, known, (size_t)-1);
	const char *path = p->val->path;
	char list[512];

	if (near)
		return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (did you mean %s?)", near);
	if (strcmp(section, "target") == 0 && sc_cfg_key_in(p->key, sc_cfg_phase_keys))
		return sc_cfg_fail(c->d, &p->kloc, path,
				   "unknown key (%s is a phase key; a target takes %s)", p->key,
				   sc_cfg_join(list, sizeof(list), sc_cfg_target_keys));
	if (strcmp(section, "target") != 0 && sc_cfg_key_in(p->key, sc_cfg_target_keys))
		return sc_cfg_fail(c->d, &p->kloc, path,
				   "unknown key (%s is a target key; set it under targets:)",
				   p->key);
	if (strcmp(section, "top") == 0 && sc_cfg_key_in(p->key, sc_cfg_phase_keys))
		return sc_cfg_fail(
		    c->d, &p->kloc, path,
		    "unknown key (%s is a phase key; set it in a phase or under defaults:)",
		    p->key);
	if (strcmp(section, "top") == 0)
		return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (the config takes %s)",
				   sc_cfg_join(list, sizeof(list), sc_cfg_top_keys));
	if (strcmp(section, "target") == 0)
		return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (a target takes %s)",
				   sc_cfg_join(list, sizeof(list), sc_cfg_target_keys));
	if (strcmp(section, "defaults") == 0)
		return sc_cfg_fail(c->d, &p->kloc, path,
				   "unknown key (no workload takes it; the phase keys are %s)",
				   sc_cfg_join(list, sizeof(list), sc_cfg_phase_keys));
	return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (a phase takes, for workload %s: %s)",
			   sc_workload_name((enum sc_workload)w),
			   sc_cfg_join(list, sizeof(list), known));
}

int sc_cfg_wrong_workload(struct cfg_check *c, const struct cfg_pair *p, const struct cfg_phase *pv,
			  enum pkey k)
{
	const char *wname = sc_workload_name((enum sc_workload)pv->workload);
	const char *from =
	    pv->src[PK_WORKLOAD] && !pv->own[PK_WORKLOAD] ? ", from defaults.workload" : "";
	char owners[96];

	sc_cfg_key_workloads(p->key, owners, sizeof(owners));
	for (size_t h = 0; h < sizeof(key_hints) / sizeof(key_hints[0]); h++)
		if (key_hints[h].w == pv->workload && key_hints[h].key == k)
			return sc_cfg_fail(c->d, &p->kloc, p->val->path,
					   "not a key of workload %s%s (use %s here; %s is for "
					   "workload %s)",
					   wname, from, sc_cfg_phase_keys[key_hints[h].use], p->key,
					   owners);
	return sc_cfg_fail(c->d, &p->kloc, p->val->path,
			   "not a key of workload %s%s (%s is for workload %s)", wname, from,
			   p->key, owners);
}

/* Room for the message of sc_cfg_fail_value (the location, the path and
 * the phase's name go around it). */
#define VALUE_MSG_BYTES 768u

int sc_cfg_fail_value(struct cfg_check *c, const struct cfg_phase *pv, uint32_t i,
		      const struct cfg_node *n, enum pkey k, const char *fmt, ...)
{
	char msg[VALUE_MSG_BYTES], path[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n && strncmp(n->path, "phases.", 7) == 0)
		return sc_cfg_fail(c->d, &n->loc, n->path, "%s", msg);
	if (n) /* from defaults: name the phase it breaks */
		return sc_cfg_fail(c->d, &n->loc, n->path, "%s, in phase %s", msg, pv->name);
	snprintf(path, sizeof(path), "phases.%u.%s", i, sc_cfg_phase_keys[k]);
	return sc_cfg_fail(c->d, &pv->map->loc, path, "%s", msg);
}
