/* nested.c -- the phase keys whose value may be a mapping: model (an
 * inline checkpoint model, or a catalogue name), inject and emulate. */
#include "schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ckpt_model.h"
#include "result.h"
#include "units.h"

/* An inline model's optimizer state: three fp32 values per parameter, as
 * in the catalogue (DLIO's Adam). */
#define INLINE_OPTIM_BYTES_PER_PARAM 12u

/* The keys of an inline checkpoint model. */
enum mkey {
	MK_LAYERS,
	MK_HIDDEN,
	MK_FFN_HIDDEN,
	MK_HEADS,
	MK_KV_HEADS,
	MK_VOCAB,
	MK_DTYPE,
	MK_COUNT
};

static const char *const model_keys[MK_COUNT + 1] = {
    [MK_LAYERS] = "layers", [MK_HIDDEN] = "hidden",	[MK_FFN_HIDDEN] = "ffn_hidden",
    [MK_HEADS] = "heads",   [MK_KV_HEADS] = "kv_heads", [MK_VOCAB] = "vocab",
    [MK_DTYPE] = "dtype",   [MK_COUNT] = NULL,
};

static const char *const dtype_names[] = {"fp16", "bf16", "fp32", NULL};
static const uint32_t dtype_bytes[] = {2, 2, 4};
#define DEFAULT_DTYPE_BYTES 2u /* bf16 */

/* Reports key p of a nested mapping (an inline model, inject) that is not
 * among keys; what names the mapping ("an inline model"). */
static int unknown_nested_key(struct cfg_check *c, const struct cfg_pair *p,
			      const char *const *keys, const char *what)
{
	const char *near = sc_cfg_nearest(p->key, keys, (size_t)-1);
	char known[160];

	if (near)
		return sc_cfg_fail(c->d, &p->kloc, p->val->path, "unknown key (did you mean %s?)",
				   near);
	return sc_cfg_fail(c->d, &p->kloc, p->val->path, "unknown key (%s takes %s)", what,
			   sc_cfg_join(known, sizeof(known), keys));
}

int sc_cfg_parse_model(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	/* Bounded so that any model accepted is sized in little time. */
	static const uint64_t dim_max[MK_COUNT] = {
	    [MK_LAYERS] = SC_CKPT_MAX_LAYERS,  [MK_HIDDEN] = SC_CKPT_MAX_HIDDEN,
	    [MK_FFN_HIDDEN] = SC_CKPT_MAX_FFN, [MK_HEADS] = SC_CKPT_MAX_HEADS,
	    [MK_KV_HEADS] = SC_CKPT_MAX_HEADS, [MK_VOCAB] = SC_CKPT_MAX_VOCAB,
	};
	static const struct cfg_keydef text = {.type = CFG_VT_TEXT};
	const struct cfg_node *given[MK_COUNT] = {0};
	uint64_t v[MK_COUNT] = {0}, unused;
	struct sc_llm *m = &pv->model;
	uint32_t dtype = DEFAULT_DTYPE_BYTES;
	char known[160];
	int err;

	if (n->kind != CFG_MAP) {
		struct cfg_keydef def = sc_cfg_key_def(pv->workload, PK_MODEL);

		err = sc_cfg_parse_scalar(c->d, n, &def, &unused);
		if (!err)
			err = sc_ckpt_model_lookup(n->str, m) ? -EINVAL : 0;
		return err;
	}
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int k = sc_cfg_key_index(p->key, model_keys);

		if (k < 0)
			return unknown_nested_key(c, p, model_keys, "an inline model");
		given[k] = p->val;
		if (k != MK_DTYPE) {
			const struct cfg_keydef dim = {
			    .type = CFG_VT_UINT, .min = 1, .max = dim_max[k]};

			err = sc_cfg_parse_scalar(c->d, p->val, &dim, &v[k]);
			if (err)
				return err;
			continue;
		}
		err = sc_cfg_parse_scalar(c->d, p->val, &text, &unused);
		if (err)
			return err;
		k = sc_cfg_key_index(p->val->str, dtype_names);
		if (k < 0)
			return sc_cfg_fail_node(c->d, p->val, "\"%s\" is not a dtype (known: %s)",
						p->val->str,
						sc_cfg_join(known, sizeof(known), dtype_names));
		dtype = dtype_bytes[k];
	}
	for (int k = 0; k < MK_COUNT; k++)
		if (!given[k] && k != MK_KV_HEADS && k != MK_DTYPE)
			return sc_cfg_fail_node(
			    c->d, n,
			    "the inline model has no %s (give layers, hidden, ffn_hidden, "
			    "heads and vocab; kv_heads defaults to heads, dtype to bf16)",
			    model_keys[k]);
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "inline");
	m->layers = (uint32_t)v[MK_LAYERS];
	m->hidden = (uint32_t)v[MK_HIDDEN];
	m->ffn_hidden = (uint32_t)v[MK_FFN_HIDDEN];
	m->heads = (uint32_t)v[MK_HEADS];
	m->kv_heads = given[MK_KV_HEADS] ? (uint32_t)v[MK_KV_HEADS] : m->heads;
	m->vocab = v[MK_VOCAB];
	m->model_dtype_bytes = dtype;
	m->optim_bytes_per_param = INLINE_OPTIM_BYTES_PER_PARAM;
	return 0;
}

/* The keys of inject. */
enum ikey { IK_EVERY, IK_PROBABILITY, IK_ERRNO, IK_COUNT };

static const char *const inject_keys[IK_COUNT + 1] = {[IK_EVERY] = "every",
						      [IK_PROBABILITY] = "probability",
						      [IK_ERRNO] = "errno",
						      [IK_COUNT] = NULL};

/* Largest errno inject takes as a number: every one below it is counted
 * on its own in results. */
#define INJECT_ERRNO_MAX (SC_ERRNO_SLOTS - 2)
#define INJECT_EVERY_MAX (UINT64_C(1) << 63)
#define PPM_PER_UNIT	 1e6

/* An errno by name (EIO, any the C library names; any case) or number. */
static int parse_errno(struct cfg_check *c, const struct cfg_node *n, int32_t *out)
{
	static const struct cfg_keydef text = {.type = CFG_VT_TEXT};
	const char *names[INJECT_ERRNO_MAX + 1];
	uint32_t nnames = 0;
	const char *near;
	uint64_t unused;
	char *end;
	int err = sc_cfg_parse_scalar(c->d, n, &text, &unused);

	if (err)
		return err;
	if (n->str[0] >= '0' && n->str[0] <= '9') {
		unsigned long v = strtoul(n->str, &end, 10);

		if (*end || v < 1 || v > INJECT_ERRNO_MAX)
			return sc_cfg_fail_node(c->d, n,
						"%s is not an errno (a name such as EIO, or 1..%d)",
						n->str, INJECT_ERRNO_MAX);
		*out = (int32_t)v;
		return 0;
	}
	for (int e = 1; e <= INJECT_ERRNO_MAX; e++) {
		const char *name = strerrorname_np(e);

		if (!name)
			continue;
		if (strcasecmp(name, n->str) == 0) {
			*out = e;
			return 0;
		}
		names[nnames++] = name;
	}
	names[nnames] = NULL;
	near = sc_cfg_nearest(n->str, names, (size_t)-1);
	if (near)
		return sc_cfg_fail_node(c->d, n, "\"%s\" is not an errno name (did you mean %s?)",
					n->str, near);
	return sc_cfg_fail_node(
	    c->d, n,
	    "\"%s\" is not an errno name (a drive returns e.g. EIO, ENOSPC, EILSEQ, "
	    "ENODATA, ETIMEDOUT, EROFS; or give a number 1..%d)",
	    n->str, INJECT_ERRNO_MAX);
}

int sc_cfg_parse_inject(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	static const struct cfg_keydef every = {
	    .type = CFG_VT_UINT, .min = 1, .max = INJECT_EVERY_MAX};
	static const struct cfg_keydef fraction = {.type = CFG_VT_FRACTION};
	const struct cfg_pair *given[IK_COUNT] = {0};
	struct sc_inject inj = {.errno_val = EIO};
	int err;

	if (n->kind != CFG_MAP)
		return sc_cfg_fail_node(
		    c->d, n,
		    "expected a mapping {every: N, errno: EIO} or {probability: P, "
		    "errno: EIO}, got %s",
		    sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int k = sc_cfg_key_index(p->key, inject_keys);
		uint64_t v;

		if (k < 0)
			return unknown_nested_key(c, p, inject_keys, "inject");
		given[k] = p;
		if (k == IK_ERRNO) {
			err = parse_errno(c, p->val, &inj.errno_val);
		} else if (k == IK_EVERY) {
			err = sc_cfg_parse_scalar(c->d, p->val, &every, &inj.every);
		} else {
			double prob;

			err = sc_cfg_parse_scalar(c->d, p->val, &fraction, &v);
			memcpy(&prob, &v, sizeof(prob));
			inj.ppm = err ? 0 : (uint32_t)(prob * PPM_PER_UNIT + 0.5);
			if (!err && inj.ppm == 0)
				return sc_cfg_fail_node(
				    c->d, p->val,
				    "%s is below one in a million (the smallest "
				    "probability is 0.000001; or use every: N)",
				    p->val->str);
		}
		if (err)
			return err;
	}
	if (given[IK_EVERY] && given[IK_PROBABILITY]) {
		const struct cfg_pair *later = given[IK_EVERY] > given[IK_PROBABILITY]
						   ? given[IK_EVERY]
						   : given[IK_PROBABILITY];

		return sc_cfg_fail(c->d, &later->kloc, later->val->path,
				   "every and probability are alternatives (keep one)");
	}
	if (!given[IK_EVERY] && !given[IK_PROBABILITY])
		return sc_cfg_fail_node(
		    c->d, n,
		    "inject needs every: N (fail reads and writes N, 2N, ... of each "
		    "job) or probability: P (each with probability P)");
	pv->inject = inj;
	return 0;
}

/* The keys of emulate. */
enum ekey {
	EK_LATENCY,
	EK_SPREAD,
	EK_BANDWIDTH,
	EK_SPEED_SPREAD,
	EK_FILL_SLOWDOWN,
	EK_FILL_CAPACITY,
	EK_STALL_PROBABILITY,
	EK_STALL,
	EK_LATENCY_FROM,
	EK_LATENCY_PHASE,
	EK_COUNT
};

static const char *const emulate_keys[EK_COUNT + 1] = {
    [EK_LATENCY] = "latency",
    [EK_SPREAD] = "spread",
    [EK_BANDWIDTH] = "bandwidth",
    [EK_SPEED_SPREAD] = "speed_spread",
    [EK_FILL_SLOWDOWN] = "fill_slowdown",
    [EK_FILL_CAPACITY] = "fill_capacity",
    [EK_STALL_PROBABILITY] = "stall_probability",
    [EK_STALL] = "stall",
    [EK_LATENCY_FROM] = "latency_from",
    [EK_LATENCY_PHASE] = "latency_phase",
    [EK_COUNT] = NULL};

#define EMULATE_DELAY_MAX_NS (UINT64_C(3600) * SC_NS_PER_S)
#define PERCENT		     100.0

/* A plain decimal number, with the one unit suffix allowed ('%': a
 * percentage, divided by 100; 'x': a factor) or none, into *out. */
static int parse_number(struct cfg_check *c, const struct cfg_node *n, char suffix, double *out)
{
	char buf[64];
	size_t len = n->str ? strlen(n->str) : 0;
	char *end;

	if (n->kind != CFG_SCALAR || !len || len >= sizeof(buf))
		return sc_cfg_fail_node(c->d, n, "expected a number (as 30%% or 2x), got %s",
					sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	memcpy(buf, n->str, len + 1);
	if (buf[len - 1] == suffix)
		buf[--len] = '\0';
	/* decimal only: no "inf", "nan", hex or blanks */
	if (!len || strspn(buf, "0123456789.eE+-") != len)
		return sc_cfg_fail_node(c->d, n, "\"%s\" is not a number (try %s)", n->str,
					suffix == '%' ? "30% or 0.3" : "2x or 2");
	*out = strtod(buf, &end);
	if (end == buf || *end)
		return sc_cfg_fail_node(c->d, n, "\"%s\" is not a number (try %s)", n->str,
					suffix == '%' ? "30% or 0.3" : "2x or 2");
	if (suffix == '%' && n->str[strlen(n->str) - 1] == '%')
		*out /= PERCENT;
	return 0;
}

/* speed_spread (a share 0..90%) or fill_slowdown (a factor 1..1000x). */
static int parse_emulate_number(struct cfg_check *c, const struct cfg_node *n, int k,
				struct sc_emulate *em)
{
	double v = 0;
	int err = parse_number(c, n, k == EK_SPEED_SPREAD ? '%' : 'x', &v);

	if (err)
		return err;
	if (k == EK_SPEED_SPREAD) {
		if (!(v >= 0 && v <= SC_EMULATE_SPREAD_MAX))
			return sc_cfg_fail_node(c->d, n,
						"%s is out of range (speed_spread is 0..%.0f%%: "
						"each drive's speed is drawn in [1 - s, 1 + s])",
						n->str, SC_EMULATE_SPREAD_MAX * PERCENT);
		em->speed_spread = v;
	} else {
		if (!(v >= 1 && v <= SC_EMULATE_SLOWDOWN_MAX))
			return sc_cfg_fail_node(c->d, n,
						"%s is out of range (fill_slowdown is 1x..%.0fx: a "
						"full drive writes that many times slower)",
						n->str, SC_EMULATE_SLOWDOWN_MAX);
		em->fill_slowdown = v;
	}
	return 0;
}

/* A non-empty string: latency_from's path, latency_phase's name. */
static int parse_emulate_text(struct cfg_check *c, const struct cfg_node *n, int k)
{
	if (n->kind == CFG_SCALAR && n->str && n->str[0])
		return 0;
	return sc_cfg_fail_node(c->d, n, "expected %s, got %s",
				k == EK_LATENCY_FROM ? "the path of a run's results.pb"
						     : "the name of a phase of latency_from's run",
				sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
}

/* One key k of emulate, value n, into *em. */
static int parse_emulate_key(struct cfg_check *c, const struct cfg_node *n, int k,
			     struct sc_emulate *em)
{
	static const struct cfg_keydef delay = {
	    .type = CFG_VT_DURATION, .min = 0, .max = EMULATE_DELAY_MAX_NS};
	static const struct cfg_keydef rate = {.type = CFG_VT_SIZE, .min = 0, .max = UINT64_MAX};
	static const struct cfg_keydef capacity = {
	    .type = CFG_VT_SIZE, .min = 1, .max = UINT64_MAX};
	static const struct cfg_keydef fraction = {.type = CFG_VT_FRACTION};
	uint64_t v;
	int err;

	switch (k) {
	case EK_LATENCY_FROM:
	case EK_LATENCY_PHASE:
		return parse_emulate_text(c, n, k);
	case EK_SPEED_SPREAD:
	case EK_FILL_SLOWDOWN:
		return parse_emulate_number(c, n, k, em);
	case EK_FILL_CAPACITY:
		return sc_cfg_parse_scalar(c->d, n, &capacity, &em->fill_capacity);
	case EK_STALL_PROBABILITY:
		err = sc_cfg_parse_scalar(c->d, n, &fraction, &v);
		if (!err)
			memcpy(&em->stall_probability, &v, sizeof(double));
		return err;
	case EK_BANDWIDTH:
		return sc_cfg_parse_scalar(c->d, n, &rate, &em->bandwidth);
	default:
		return sc_cfg_parse_scalar(c->d, n, &delay,
					   k == EK_LATENCY  ? &em->latency_ns
					   : k == EK_SPREAD ? &em->spread_ns
							    : &em->stall_ns);
	}
}

/* latency_from replaces latency and spread (contradicting them);
 * latency_phase names a phase of its file. */
static int check_latency_from(struct cfg_check *c, const struct cfg_pair *const given[EK_COUNT])
{
	const struct cfg_pair *both = given[EK_LATENCY] ? given[EK_LATENCY] : given[EK_SPREAD];

	if (given[EK_LATENCY_FROM] && both)
		return sc_cfg_fail(c->d, &both->kloc, both->val->path,
				   "%s contradicts latency_from, whose measured latencies replace "
				   "latency and spread (leave %s out, or latency_from)",
				   both->key, both->key);
	if (given[EK_LATENCY_PHASE] && !given[EK_LATENCY_FROM])
		return sc_cfg_fail(
		    c->d, &given[EK_LATENCY_PHASE]->kloc, given[EK_LATENCY_PHASE]->val->path,
		    "latency_phase names a phase of latency_from's results file: give "
		    "latency_from: RUN/results.pb too");
	return 0;
}

/* Keys that mean nothing without their partner: fill_slowdown and
 * fill_capacity, stall_probability and stall. */
static int check_emulate_pairs(struct cfg_check *c, const struct cfg_node *n,
			       const struct cfg_pair *const given[EK_COUNT])
{
	static const struct {
		int a, b;
		const char *why;
	} pairs[] = {
	    {EK_FILL_SLOWDOWN, EK_FILL_CAPACITY,
	     "fill_slowdown and fill_capacity go together (a drive writes fill_slowdown "
	     "times slower once it holds fill_capacity bytes)"},
	    {EK_STALL_PROBABILITY, EK_STALL,
	     "stall_probability and stall go together (each I/O waits stall longer with "
	     "probability stall_probability)"},
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct cfg_pair *one = given[pairs[i].a] ? given[pairs[i].a] : given[pairs[i].b];

		if (!given[pairs[i].a] != !given[pairs[i].b])
			return sc_cfg_fail(c->d, &one->kloc, one->val->path, "%s", pairs[i].why);
	}
	if (given[EK_SPEED_SPREAD] && !given[EK_BANDWIDTH] && !given[EK_LATENCY] &&
	    !given[EK_LATENCY_FROM])
		return sc_cfg_fail_node(c->d, n,
					"speed_spread scales the drive's bandwidth and latency: "
					"give bandwidth or latency too (or latency_from)");
	return check_latency_from(c, given);
}

int sc_cfg_parse_emulate(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	const struct cfg_pair *given[EK_COUNT] = {0};
	struct sc_emulate em = {0};

	if (n->kind != CFG_MAP)
		return sc_cfg_fail_node(
		    c->d, n,
		    "expected a mapping {latency: 100us, spread: 50us, bandwidth: 2GiB, "
		    "speed_spread: 30%%, ...}, got %s",
		    sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int k = sc_cfg_key_index(p->key, emulate_keys);
		int err;

		if (k < 0)
			return unknown_nested_key(c, p, emulate_keys, "emulate");
		given[k] = p;
		err = parse_emulate_key(c, p->val, k, &em);
		if (err)
			return err;
	}
	if (check_emulate_pairs(c, n, given))
		return -EINVAL;
	pv->emulate = em;
	pv->emulate_from = given[EK_LATENCY_FROM] ? given[EK_LATENCY_FROM]->val : NULL;
	pv->emulate_phase = given[EK_LATENCY_PHASE] ? given[EK_LATENCY_PHASE]->val : NULL;
	return 0;
}

int sc_cfg_parse_number(struct cfg_check *c, const struct cfg_node *n, char suffix, double *out)
{
	return parse_number(c, n, suffix, out);
}
