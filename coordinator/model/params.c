/* params.c -- the cluster model's parameters from key=value text: one
 * parser for the command line (--node-mtbf 50000h) and a config's model:
 * section (node_mtbf: 50000h). */
#include "project.h"
#include "params.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "units.h"

/* The defaults project.h documents. */
#define DEFAULT_GPUS_PER_NODE	    8u
#define DEFAULT_NODE_MTBF_HOURS	    50000u
#define DEFAULT_OVERHEAD_TARGET	    0.05
#define DEFAULT_DWPD		    1.0
#define DEFAULT_WARRANTY_YEARS	    5.0
#define DEFAULT_DRIVE_CAPACITY	    UINT64_C(30720000000000) /* 30.72 TB */
#define DEFAULT_MAX_DRIVES_PER_NODE 64u
#define DEFAULT_SEED		    1u
/* Restart after a failure (reschedule, reload, warm up) before the
 * restore: the projected restore of the checkpoint is added to it when
 * there is one (measured restores or --drive-read). */
#define DEFAULT_RESTART_MINUTES 10u
static const uint32_t default_nodes[] = {8, 64, 512, 4096};

#define NS_PER_HOUR (UINT64_C(3600) * SC_NS_PER_S)
/* A year as the endurance figures count it: 365 days. */
#define NS_PER_YEAR (UINT64_C(365) * 24 * NS_PER_HOUR)
/* Bounds that keep a projection's cost and its counts sane. */
#define MAX_NODES	     (UINT32_C(1) << 24)
#define MAX_GPUS_PER_NODE    1024u
#define MAX_DRIVES_PER_NODE  4096u
#define MAX_PARALLEL	     (UINT32_C(1) << 16)
#define MAX_ZERO_STAGE	     3
#define MAX_TRIALS	     10000000u
#define MAX_KEEP_LAST	     10000u /* as the config's checkpoints */
/* Longest key spelling kept for the lookup ("--max-drives-per-node"). */
#define KEY_MAX 64

void sc_model_params_default(struct sc_model_params *p)
{
	memset(p, 0, sizeof(*p));
	p->nsizes = (uint32_t)(sizeof(default_nodes) / sizeof(default_nodes[0]));
	memcpy(p->nodes, default_nodes, sizeof(default_nodes));
	p->gpus_per_node = DEFAULT_GPUS_PER_NODE;
	p->node_mtbf_ns = (uint64_t)DEFAULT_NODE_MTBF_HOURS * NS_PER_HOUR;
	p->restart_ns = (uint64_t)DEFAULT_RESTART_MINUTES * 60 * SC_NS_PER_S;
	p->overhead_target = DEFAULT_OVERHEAD_TARGET;
	p->dwpd = DEFAULT_DWPD;
	p->warranty_years = DEFAULT_WARRANTY_YEARS;
	p->drive_capacity_bytes = DEFAULT_DRIVE_CAPACITY;
	p->max_drives_per_node = DEFAULT_MAX_DRIVES_PER_NODE;
	p->zero_stage = -1;
	p->layout = -1;
	p->scale = 1.0;
	p->seed = DEFAULT_SEED;
}

/* ------------------------------------------------------------ numbers */

/* A whole decimal number in [lo, hi], nothing else.  0 or -EINVAL. */
static int parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) ||
		    __builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
			return -EINVAL;
	}
	if (v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A finite decimal number ("0.05", "1e-3"), nothing after it.  0 or -EINVAL. */
static int parse_real(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* ------------------------------------------------------------ setters */

/* One key's setter: shown is the key as the caller spelled it. */
typedef int (*setter)(struct sc_model_params *p, const char *shown, const char *v, char *err,
		      size_t errlen);

/* "8,64,512,4096": at least one count, each >= 1, strictly increasing. */
static int set_nodes(struct sc_model_params *p, const char *shown, const char *v, char *err,
		     size_t errlen)
{
	struct sc_model_params q = *p;
	char tok[32];
	const char *s = v;

	q.nsizes = 0;
	for (;;) {
		size_t n = strcspn(s, ",");
		uint64_t c;

		snprintf(tok, sizeof(tok), "%.*s", (int)(n < sizeof(tok) ? n : sizeof(tok) - 1), s);
		if (n >= sizeof(tok) || parse_uint(tok, 1, MAX_NODES, &c)) {
			snprintf(err, errlen,
				 "%s: \"%.*s\" is not a node count (give counts >= 1, increasing, "
				 "e.g. 8,64,512,4096)",
				 shown, (int)n, s);
			return -EINVAL;
		}
		if (q.nsizes == SC_MODEL_MAX_SIZES) {
			snprintf(err, errlen, "%s: more than %u cluster sizes in \"%s\"", shown,
				 SC_MODEL_MAX_SIZES, v);
			return -EINVAL;
		}
		if (q.nsizes && c <= q.nodes[q.nsizes - 1]) {
			snprintf(err, errlen,
				 "%s: %" PRIu64 " after %u: give the node counts increasing, each "
				 "once (e.g. 8,64,512,4096)",
				 shown, c, q.nodes[q.nsizes - 1]);
			return -EINVAL;
		}
		q.nodes[q.nsizes++] = (uint32_t)c;
		if (!s[n])
			break;
		s += n + 1;
	}
	*p = q;
	return 0;
}

/* A whole count in [lo, hi] into *out; what says what it counts. */
static int set_count(const char *shown, const char *v, uint64_t lo, uint64_t hi, const char *what,
		     uint64_t *out, char *err, size_t errlen)
{
	if (parse_uint(v, lo, hi, out)) {
		snprintf(err, errlen, "%s: \"%s\" is not %s (give a whole number from %" PRIu64
				      " to %" PRIu64 ")",
			 shown, v, what, lo, hi);
		return -EINVAL;
	}
	return 0;
}

/* The counts: which field, its bounds and what it counts. */
#define COUNT_SETTER(fn, field, lo, hi, what)                                                     \
	static int fn(struct sc_model_params *p, const char *shown, const char *v, char *err,     \
		      size_t errlen)                                                               \
	{                                                                                          \
		uint64_t c;                                                                        \
		int rc = set_count(shown, v, lo, hi, what, &c, err, errlen);                       \
		if (!rc)                                                                           \
			p->field = (uint32_t)c;                                                    \
		return rc;                                                                         \
	}
COUNT_SETTER(set_gpus, gpus_per_node, 1, MAX_GPUS_PER_NODE, "a count of accelerators per node")
COUNT_SETTER(set_drives, drives_per_node, 1, MAX_DRIVES_PER_NODE, "a count of drives per node")
COUNT_SETTER(set_max_drives, max_drives_per_node, 1, MAX_DRIVES_PER_NODE,
	     "a bound on drives per node")
COUNT_SETTER(set_tp, tp, 1, MAX_PARALLEL, "a tensor-parallel degree")
COUNT_SETTER(set_pp, pp, 1, MAX_PARALLEL, "a pipeline-parallel degree")
COUNT_SETTER(set_trials, trials, 1, MAX_TRIALS, "a count of trials")
COUNT_SETTER(set_keep_last, keep_last, 1, MAX_KEEP_LAST, "a count of checkpoints kept")

static int set_zero(struct sc_model_params *p, const char *shown, const char *v, char *err,
		    size_t errlen)
{
	uint64_t c;
	int rc = set_count(shown, v, 0, MAX_ZERO_STAGE, "a ZeRO stage", &c, err, errlen);

	if (!rc)
		p->zero_stage = (int32_t)c;
	return rc;
}

static int set_layout(struct sc_model_params *p, const char *shown, const char *v, char *err,
		      size_t errlen)
{
	int k = sc_ckpt_layout_parse(v);

	if (k < 0) {
		snprintf(err, errlen, "%s: \"%s\" is not a checkpoint layout (dlio or sharded)", shown,
			 v);
		return -EINVAL;
	}
	p->layout = k;
	return 0;
}

static int set_seed(struct sc_model_params *p, const char *shown, const char *v, char *err,
		    size_t errlen)
{
	return set_count(shown, v, 0, UINT64_MAX, "a seed", &p->seed, err, errlen);
}

/* A duration; zero_ok says whether 0 is allowed. */
static int set_duration(const char *shown, const char *v, bool zero_ok, uint64_t *out, char *err,
			size_t errlen)
{
	uint64_t ns;

	if (sc_parse_duration(v, &ns) || (!zero_ok && ns == 0)) {
		snprintf(err, errlen, "%s: \"%s\" is not a%s duration (e.g. 50000h, 30m, 90s)",
			 shown, v, zero_ok ? "" : " positive");
		return -EINVAL;
	}
	*out = ns;
	return 0;
}

static int set_mtbf(struct sc_model_params *p, const char *shown, const char *v, char *err,
		    size_t errlen)
{
	return set_duration(shown, v, false, &p->node_mtbf_ns, err, errlen);
}

static int set_restart(struct sc_model_params *p, const char *shown, const char *v, char *err,
		       size_t errlen)
{
	int rc = set_duration(shown, v, true, &p->restart_ns, err, errlen);

	if (!rc)
		p->restart_given = true;
	return rc;
}

/* "5%" or "0.05": a share in (0, 1). */
static int set_overhead(struct sc_model_params *p, const char *shown, const char *v, char *err,
			size_t errlen)
{
	char num[64];
	size_t n = strlen(v);
	bool pct = n && v[n - 1] == '%';
	double x;

	snprintf(num, sizeof(num), "%.*s", (int)(pct ? n - 1 : n), v);
	bool ok = n < sizeof(num) && !parse_real(num, &x);

	if (ok && pct)
		x /= 100; /* a percentage */
	if (!ok || !(x > 0) || !(x < 1)) {
		snprintf(err, errlen,
			 "%s: \"%s\" is not a share between 0 and 1 (give e.g. 5%% or 0.05)",
			 shown, v);
		return -EINVAL;
	}
	p->overhead_target = x;
	return 0;
}

/* A positive finite real into *out. */
static int set_positive(const char *shown, const char *v, const char *what, double *out,
			char *err, size_t errlen)
{
	double x;

	if (parse_real(v, &x) || !(x > 0)) {
		snprintf(err, errlen, "%s: \"%s\" is not %s (give a number above 0)", shown, v,
			 what);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

static int set_dwpd(struct sc_model_params *p, const char *shown, const char *v, char *err,
		    size_t errlen)
{
	return set_positive(shown, v, "a rating in drive writes per day (e.g. 1 or 0.3)",
			    &p->dwpd, err, errlen);
}

static int set_scale(struct sc_model_params *p, const char *shown, const char *v, char *err,
		     size_t errlen)
{
	double x;

	if (parse_real(v, &x) || !(x > 0) || x > 1) {
		snprintf(err, errlen,
			 "%s: \"%s\" is not a scale (give the fraction of the real bytes, "
			 "above 0 and at most 1; 1 is full size)",
			 shown, v);
		return -EINVAL;
	}
	p->scale = x;
	return 0;
}

/* "5y" (years) or a duration ("43800h"). */
static int set_warranty(struct sc_model_params *p, const char *shown, const char *v,
			char *err, size_t errlen)
{
	char num[64];
	size_t n = strlen(v);
	uint64_t ns;
	double years;

	if (n && n < sizeof(num) && v[n - 1] == 'y') {
		snprintf(num, sizeof(num), "%.*s", (int)(n - 1), v);
		if (!parse_real(num, &years) && years > 0) {
			p->warranty_years = years;
			return 0;
		}
	} else if (n && isalpha((unsigned char)v[n - 1]) && !sc_parse_duration(v, &ns) && ns) {
		p->warranty_years = (double)ns / (double)NS_PER_YEAR;
		return 0;
	}
	snprintf(err, errlen,
		 "%s: \"%s\" is not a warranty term (give years, e.g. 5y, or a duration with its "
		 "unit, e.g. 43800h)",
		 shown, v);
	return -EINVAL;
}

static int set_capacity(struct sc_model_params *p, const char *shown, const char *v,
			char *err, size_t errlen)
{
	uint64_t b;

	if (sc_parse_size(v, &b) || b == 0) {
		snprintf(err, errlen, "%s: \"%s\" is not a drive capacity (give a size, e.g. "
				      "30.72TB or 7.68TB)",
			 shown, v);
		return -EINVAL;
	}
	p->drive_capacity_bytes = b;
	return 0;
}

/* "7GB/s": a size followed by "/s", above 0. */
static int set_rate(const char *shown, const char *v, double *out, char *err, size_t errlen)
{
	char num[64];
	size_t n = strlen(v);
	uint64_t b;

	if (n > 2 && n < sizeof(num) && !strcmp(v + n - 2, "/s")) {
		snprintf(num, sizeof(num), "%.*s", (int)(n - 2), v);
		if (!sc_parse_size(num, &b) && b) {
			*out = (double)b;
			return 0;
		}
	}
	snprintf(err, errlen, "%s: \"%s\" is not a rate (give a size per second, e.g. 7GB/s or "
			      "3500MB/s)",
		 shown, v);
	return -EINVAL;
}

static int set_write(struct sc_model_params *p, const char *shown, const char *v, char *err,
		     size_t errlen)
{
	return set_rate(shown, v, &p->drive_write_bytes_per_s, err, errlen);
}

static int set_read(struct sc_model_params *p, const char *shown, const char *v, char *err,
		    size_t errlen)
{
	return set_rate(shown, v, &p->drive_read_bytes_per_s, err, errlen);
}

/* A catalogue model; an unknown one gets the catalogue listed. */
static int set_model(struct sc_model_params *p, const char *shown, const char *v, char *err,
		     size_t errlen)
{
	const char *const *names = sc_ckpt_model_names();
	struct sc_llm m;
	size_t used;

	if (!sc_ckpt_model_lookup(v, &m)) {
		snprintf(p->model, sizeof(p->model), "%s", m.name);
		return 0;
	}
	used = (size_t)snprintf(err, errlen, "%s: \"%s\" is not a model of the catalogue (give one "
					     "of:",
				shown, v);
	for (size_t i = 0; names[i] && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, " %s", names[i]);
	if (used < errlen)
		snprintf(err + used, errlen - used, ")");
	return -EINVAL;
}

/* --------------------------------------------------------------- keys */

static const struct key {
	const char *name;
	setter set;
} keys[SC_MODEL_PARAMS_NKEYS] = {
	{"nodes", set_nodes},
	{"gpus_per_node", set_gpus},
	{"drives_per_node", set_drives},
	{"node_mtbf", set_mtbf},
	{"restart", set_restart},
	{"overhead_target", set_overhead},
	{"dwpd", set_dwpd},
	{"warranty", set_warranty},
	{"drive_capacity", set_capacity},
	{"max_drives_per_node", set_max_drives},
	{"model", set_model},
	{"tp", set_tp},
	{"pp", set_pp},
	{"zero", set_zero},
	{"layout", set_layout},
	{"keep_last", set_keep_last},
	{"scale", set_scale},
	{"drive_write", set_write},
	{"drive_read", set_read},
	{"seed", set_seed},
	{"trials", set_trials},
};

int sc_model_params_key(const char *key)
{
	char k[KEY_MAX];
	size_t n;

	if (!key)
		return -ENOENT;
	if (!strncmp(key, "--", 2)) {
		key += 2;
		if (strchr(key, '_'))
			return -ENOENT; /* the command line spells them with '-' */
	} else if (strchr(key, '-')) {
		return -ENOENT; /* a config spells them with '_' */
	}
	n = strlen(key);
	if (n == 0 || n >= sizeof(k))
		return -ENOENT;
	for (size_t i = 0; i <= n; i++)
		k[i] = key[i] == '-' ? '_' : key[i];
	for (unsigned i = 0; i < SC_MODEL_PARAMS_NKEYS; i++)
		if (!strcmp(keys[i].name, k))
			return (int)i;
	return -ENOENT;
}

const char *sc_model_params_key_name(unsigned i)
{
	return i < SC_MODEL_PARAMS_NKEYS ? keys[i].name : NULL;
}

int sc_model_params_set(struct sc_model_params *p, const char *key, const char *value, char *err,
			size_t errlen)
{
	int i = sc_model_params_key(key);

	if (i < 0) {
		size_t used = (size_t)snprintf(err, errlen, "%s: not a model parameter (the keys are",
					       key ? key : "(null)");

		for (unsigned k = 0; k < SC_MODEL_PARAMS_NKEYS && used < errlen; k++)
			used += (size_t)snprintf(err + used, errlen - used, "%s %s", k ? "," : "",
						 keys[k].name);
		if (used < errlen)
			snprintf(err + used, errlen - used, ")");
		return -EINVAL;
	}
	if (!value || !*value) {
		snprintf(err, errlen, "%s: needs a value", key);
		return -EINVAL;
	}
	return keys[i].set(p, key, value, err, errlen);
}
