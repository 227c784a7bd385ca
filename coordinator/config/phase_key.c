/* phase_key.c -- one phase key's value into the phase: its shape and
 * type checked, the workloads it belongs to, and the message for a value
 * that does not fit (sc_cfg_fail_value, keys.c).  Helpers only: phases.c
 * and defaults.c (the drivers) call these. */
#include "schema.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "placement.h"

static bool is_bool_text(const struct cfg_node *n)
{
	return n->kind == CFG_SCALAR &&
	       (strcmp(n->str, "true") == 0 || strcmp(n->str, "false") == 0);
}

/* What a value's shape says before its type is read: a list where the
 * workload sweeps nothing, and fsync's two kinds (a count in io and
 * kvcache phases, true/false in checkpoint phases).  0 or -EINVAL. */
static int check_shape(struct cfg_check *c, const struct cfg_phase *pv, enum pkey k,
		       const struct cfg_node *n)
{
	const char *in = n->path && strncmp(n->path, "phases.", 7) ? ", in phase " : "";
	const char *inname = *in ? pv->name : "";

	if (n->kind == CFG_SEQ && !sc_cfg_sweeps(pv->workload))
		return sc_cfg_fail_node(
		    c->d, n, "got a list, but %s %s phase is not swept (give one value%s)%s%s",
		    strchr("aeiou", *sc_workload_name((enum sc_workload)pv->workload)) ? "an" : "a",
		    sc_workload_name((enum sc_workload)pv->workload),
		    pv->workload == SC_WORKLOAD_CHECKPOINT ? "; its cells are its checkpoints" : "",
		    in, inname);
	if (k == PK_FSYNC && pv->workload == SC_WORKLOAD_CHECKPOINT && n->kind == CFG_SCALAR &&
	    !sc_cfg_is_null(n) && !is_bool_text(n))
		return sc_cfg_fail_node(
		    c->d, n,
		    "\"%s\" is not a boolean (a checkpoint fsyncs every file or none: "
		    "write true or false; fsync: N is for io and kvcache phases)%s%s",
		    n->str, in, inname);
	if (k == PK_FSYNC && pv->workload != SC_WORKLOAD_CHECKPOINT && is_bool_text(n))
		return sc_cfg_fail_node(
		    c->d, n,
		    "\"%s\" is not a whole number (fsync: N fsyncs after every N "
		    "writes; true or false is for checkpoint phases)%s%s",
		    n->str, in, inname);
	return 0;
}

/* cpus: a CPU list (worker/placement.h), kept as written.  Whether a
 * rank has the CPUs is its own business (reported, not an error). */
static int parse_cpus(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_keydef *def,
		      const struct cfg_node *n)
{
	char why[160];
	cpu_set_t set;
	uint64_t v;
	int err = sc_cfg_parse_scalar(c->d, n, def, &v);

	if (err)
		return err;
	if (strlen(n->str) >= sizeof(pv->cpus))
		return sc_cfg_fail_node(c->d, n, "a CPU list of more than %zu characters",
					sizeof(pv->cpus) - 1);
	if (sc_placement_parse_cpulist(n->str, &set, why, sizeof(why)))
		return sc_cfg_fail_node(c->d, n, "%s", why);
	snprintf(pv->cpus, sizeof(pv->cpus), "%s", n->str);
	return 0;
}

/* zoned's zones, "A/S:A/S:..." (fio's syntax): A % of the I/Os to the next
 * S % of the region; a last S left out takes what the others leave.  The
 * access and size percents each sum to 100. */
static int parse_zones(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n,
		       const char *zones)
{
	uint64_t acc = 0, size = 0;
	uint32_t z = 0;
	const char *at = zones;
	char *end;

	memset(pv->zone_access_pct, 0, sizeof(pv->zone_access_pct));
	memset(pv->zone_size_pct, 0, sizeof(pv->zone_size_pct));
	while (*at) {
		unsigned long a, sz;

		if (z == SC_ZONES_MAX)
			return sc_cfg_fail_node(c->d, n, "more than %u zones", SC_ZONES_MAX);
		errno = 0;
		a = strtoul(at, &end, 10);
		if (end == at || *end != '/' || errno || a > 100)
			return sc_cfg_fail_node(c->d, n,
						"zone %u (\"%s\") is not ACCESS/SIZE, two whole "
						"percents (zoned:60/10:30/20:10/)",
						z + 1, at);
		at = end + 1;
		if ((*at == ':' || !*at)) { /* the size left */
			if (*at)
				return sc_cfg_fail_node(c->d, n, "only the last zone may leave its "
							"size out (it takes what is left)");
			sz = size < 100 ? 100 - size : 0;
			end = (char *)at;
		} else {
			sz = strtoul(at, &end, 10);
			if (end == at || (*end && *end != ':') || errno || sz > 100)
				return sc_cfg_fail_node(c->d, n,
							"zone %u's size (\"%s\") is not a whole percent",
							z + 1, at);
		}
		if (sz == 0)
			return sc_cfg_fail_node(c->d, n, "zone %u has no size (each zone's size "
						"is more than 0%%)", z + 1);
		pv->zone_access_pct[z] = a;
		pv->zone_size_pct[z++] = sz;
		acc += a;
		size += sz;
		at = *end ? end + 1 : end;
	}
	if (z == 0 || acc != 100 || size != 100)
		return sc_cfg_fail_node(c->d, n,
					"zoned's access percents sum to %llu and its size percents to "
					"%llu: each must sum to 100 (zoned:60/10:30/20:10/)",
					(unsigned long long)acc, (unsigned long long)size);
	return 0;
}

/* random_distribution: NAME or NAME:NUMBER (fio's syntax; the number's
 * range is pattern.c's), or zoned:ZONES. */
static int parse_rand_dist(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_keydef *def,
			   const struct cfg_node *n)
{
	char name[16], *end;
	const char *colon, *why;
	uint64_t v;
	double param = 0;
	int err = sc_cfg_parse_scalar(c->d, n, def, &v), dist;

	if (err)
		return err;
	colon = strchr(n->str, ':');
	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - n->str) : (int)strlen(n->str),
		 n->str);
	dist = sc_rand_dist_parse(name);
	if (dist < 0)
		return sc_cfg_fail_node(c->d, n,
					"\"%s\" is not a distribution (random, zipf:THETA, "
					"pareto:H, normal:SIGMA_PCT or zoned:A/S:A/S:...)",
					n->str);
	if (dist == SC_DIST_ZONED) {
		err = parse_zones(c, pv, n, colon ? colon + 1 : "");
		if (!err) {
			pv->rand_dist = SC_DIST_ZONED;
			pv->rand_param = 0;
		}
		return err;
	}
	if (dist != SC_DIST_RANDOM && !colon)
		return sc_cfg_fail_node(c->d, n, "%s needs its number (%s)", name,
					sc_pattern_dist_check((enum sc_rand_dist)dist, -1));
	if (colon) {
		errno = 0;
		param = strtod(colon + 1, &end);
		if (end == colon + 1 || *end || errno)
			return sc_cfg_fail_node(c->d, n, "\"%s\" is not a number after %s: (%s)",
						colon + 1, name,
						dist == SC_DIST_RANDOM
						    ? "random takes none"
						    : sc_pattern_dist_check((enum sc_rand_dist)dist, -1));
	}
	why = sc_pattern_dist_check((enum sc_rand_dist)dist, param);
	if (why)
		return sc_cfg_fail_node(c->d, n, "\"%s\": %s", n->str, why);
	pv->rand_dist = (enum sc_rand_dist)dist;
	pv->rand_param = param;
	return 0;
}

/* bssplit: {SIZE: PERCENT, ...}, the percents summing to 100 (a size of
 * 0% is left out, as fio does). */
static int parse_bssplit(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	static const struct cfg_keydef size = {.type = CFG_VT_SIZE, .min = 1, .max = MAX_BS_BYTES};
	static const struct cfg_keydef pct = {.type = CFG_VT_PERCENT, .min = 0, .max = 100};
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
	uint32_t m = 0;
	int err;

	if (n->kind != CFG_MAP || n->npairs == 0)
		return sc_cfg_fail_node(c->d, n, "expected a mapping of size to percent of the "
					"I/Os {4KiB: 60, 64KiB: 40}, got %s",
					sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	if (n->npairs > SC_BSSPLIT_MAX)
		return sc_cfg_fail_node(c->d, n, "%u sizes (at most %u)", n->npairs, SC_BSSPLIT_MAX);
	memset(pv->bssplit_bytes, 0, sizeof(pv->bssplit_bytes));
	memset(pv->bssplit_pct, 0, sizeof(pv->bssplit_pct));
	for (uint32_t i = 0; i < n->npairs; i++) {
		const struct cfg_pair *p = &n->pairs[i];
		struct cfg_node key = {.kind = CFG_SCALAR, .loc = p->kloc, .path = p->val->path,
				       .str = p->key, .plain = true};
		uint64_t b, v;

		err = sc_cfg_parse_scalar(c->d, &key, &size, &b);
		if (!err)
			err = sc_cfg_parse_scalar(c->d, p->val, &pct, &v);
		if (err)
			return err;
		for (uint32_t k = 0; k < m; k++)
			if (pv->bssplit_bytes[k] == b)
				return sc_cfg_fail_node(c->d, &key, "size %s is given twice", p->key);
		sum += v;
		if (!v)
			continue;
		pv->bssplit_bytes[m] = b;
		pv->bssplit_pct[m++] = v;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	if (sum != 100)
		return sc_cfg_fail_node(c->d, n, "the percents sum to %llu, not 100",
					(unsigned long long)sum);
	for (uint32_t k = 0; k < m; k++)
		if (pv->bssplit_bytes[k] % lo) {
			char a1[32], a2[32];

			return sc_cfg_fail_node(
			    c->d, n,
			    "size %s is not a multiple of the smallest, %s (every offset is a "
			    "multiple of it, as fio aligns them)",
			    sc_cfg_fmt_size(a1, sizeof(a1), pv->bssplit_bytes[k]),
			    sc_cfg_fmt_size(a2, sizeof(a2), lo));
		}
	pv->bsrange_min = 0;
	pv->bs_max = hi;
	pv->bs.v[0] = lo; /* the smallest: bs's checks (size, alignment) apply to it */
	return 0;
}

/* bsrange: [MIN, MAX], MAX a multiple of MIN (fio's sizes are multiples of
 * MIN; its clamp to MAX would give another). */
static int parse_bsrange(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	static const struct cfg_keydef size = {.type = CFG_VT_SIZE, .min = 1, .max = MAX_BS_BYTES};
	uint64_t lo, hi;
	char a1[32], a2[32];
	int err;

	if (n->kind != CFG_SEQ || n->nitems != 2)
		return sc_cfg_fail_node(c->d, n, "expected [MIN, MAX], two sizes ([4KiB, 64KiB])");
	err = sc_cfg_parse_scalar(c->d, n->items[0], &size, &lo);
	if (!err)
		err = sc_cfg_parse_scalar(c->d, n->items[1], &size, &hi);
	if (err)
		return err;
	if (hi < lo)
		return sc_cfg_fail_node(c->d, n, "MAX %s is below MIN %s",
					sc_cfg_fmt_size(a1, sizeof(a1), hi),
					sc_cfg_fmt_size(a2, sizeof(a2), lo));
	if (hi % lo)
		return sc_cfg_fail_node(c->d, n->items[1],
					"MAX %s is not a multiple of MIN %s (every size is one)",
					sc_cfg_fmt_size(a1, sizeof(a1), hi),
					sc_cfg_fmt_size(a2, sizeof(a2), lo));
	memset(pv->bssplit_bytes, 0, sizeof(pv->bssplit_bytes));
	pv->bsrange_min = lo;
	pv->bs_max = hi;
	pv->bs.v[0] = lo;
	return 0;
}

int sc_cfg_parse_phase_key(struct cfg_check *c, struct cfg_phase *pv, enum pkey k,
			   const struct cfg_node *n)
{
	const struct cfg_keydef def = sc_cfg_key_def(pv->workload, k);
	uint64_t v;
	int err;

	pv->src[k] = n;
	err = check_shape(c, pv, k, n);
	if (err)
		return err;
	switch (k) {
	case PK_RW:
		return sc_cfg_parse_sweep(c->d, n, &def, &pv->rw);
	case PK_BS:
		return sc_cfg_parse_sweep(c->d, n, &def, &pv->bs);
	case PK_IODEPTH:
		return sc_cfg_parse_sweep(c->d, n, &def, &pv->iodepth);
	case PK_NAME:
		err = sc_cfg_parse_scalar(c->d, n, &def, &v);
		if (!err)
			snprintf(pv->name, sizeof(pv->name), "%s", n->str);
		return err;
	case PK_MODEL:
		return sc_cfg_parse_model(c, pv, n);
	case PK_INJECT:
		return sc_cfg_parse_inject(c, pv, n);
	case PK_EMULATE:
		return sc_cfg_parse_emulate(c, pv, n);
	case PK_STEADY_STATE:
		return sc_cfg_parse_steady(c, pv, n);
	case PK_EXPECT:
		return sc_cfg_parse_expect(c, pv, n);
	case PK_SCALE:
	case PK_AU:
		err = sc_cfg_parse_scalar(c->d, n, &def, &v);
		if (!err)
			memcpy(k == PK_AU ? &pv->au : &pv->scale, &v, sizeof(double));
		return err;
	case PK_CLIFF_FRACTION:
		return sc_cfg_parse_cliff_fraction(c, pv, n);
	case PK_CPUS:
		return parse_cpus(c, pv, &def, n);
	case PK_RANDOM_DISTRIBUTION:
		return parse_rand_dist(c, pv, &def, n);
	case PK_BSSPLIT:
		return parse_bssplit(c, pv, n);
	case PK_BSRANGE:
		return parse_bsrange(c, pv, n);
	default: /* a U64 row of key_table.h: its member */
		if (!sc_cfg_keys[k].u64)
			return sc_cfg_fail_node(c->d, n, "key %s has no parser (an OWN row of "
						"key_table.h needs a case in phase_key.c)",
						sc_cfg_keys[k].name);
		return sc_cfg_parse_scalar(c->d, n, &def,
					   (uint64_t *)((char *)pv + sc_cfg_keys[k].pv_off));
	}
}

int sc_cfg_parse_key_alone(struct cfg_check *c, uint64_t w, enum pkey k, const struct cfg_node *val)
{
	struct cfg_phase *scratch = calloc(1, sizeof(*scratch));
	int err;

	if (!scratch)
		return -ENOMEM;
	scratch->workload = w;
	scratch->bs.n = scratch->iodepth.n = 1;
	err = sc_cfg_parse_phase_key(c, scratch, k, val);
	free(scratch);
	return err;
}

bool sc_cfg_key_fits(uint64_t w, enum pkey k, const struct cfg_node *val)
{
	struct cfg_doc quiet = {.file = ""};
	struct cfg_check q = {.d = &quiet};
	int err = sc_cfg_parse_key_alone(&q, w, k, val);

	return err == 0 || err == -ENOMEM; /* the real parse reports it, if anything */
}

int sc_cfg_phase_key_fits(const char *key, int workload, const struct cfg_node *val)
{
	int k = sc_cfg_key_index(key, sc_cfg_phase_keys);

	if (k < 0)
		return -1;
	if (workload < 0 || workload >= SC_WORKLOAD_COUNT)
		return 0;
	if (!sc_cfg_takes((uint64_t)workload, (enum pkey)k))
		return -1;
	return sc_cfg_key_fits((uint64_t)workload, (enum pkey)k, val) ? 1 : 0;
}
