/* value.c -- typed config values: sizes, durations, numbers,
 * booleans and names, one scalar or a swept list, with the messages a
 * wrong value gets. */
#include "config_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "key_table.h"
#include "mlperf.h"
#include "plan.h"
#include "units.h"

#define NS_PER_DAY (UINT64_C(86400) * 1000000000)

/* "4KiB", "1MiB", "1000B": the shortest exact spelling. */
const char *sc_cfg_fmt_size(char *buf, size_t len, uint64_t v)
{
	static const char *const bin[] = {"EiB", "PiB", "TiB", "GiB", "MiB", "KiB"};
	static const char *const dec[] = {"EB", "PB", "TB", "GB", "MB", "KB"};

	for (int i = 0; v && i < 6; i++) {
		uint64_t b = UINT64_C(1) << (10 * (6 - i));

		if (v % b == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / b, bin[i]);
			return buf;
		}
	}
	for (int i = 0; v && i < 6; i++) {
		uint64_t d = 1;

		for (int j = 0; j < 6 - i; j++)
			d *= 1000;
		if (v % d == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / d, dec[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64 "B", v);
	return buf;
}

const char *sc_cfg_kind_word(const struct cfg_node *n)
{
	return n->kind == CFG_SEQ ? "a list" : n->kind == CFG_MAP ? "a mapping" : "a value";
}

static const char *type_word(enum cfg_vtype t)
{
	switch (t) {
	case CFG_VT_NAME:
		return "a phase name";
	case CFG_VT_TEXT:
		return "a text value";
	case CFG_VT_WORKLOAD:
		return "a workload";
	case CFG_VT_RW:
		return "an rw pattern";
	case CFG_VT_ENGINE:
		return "an engine";
	case CFG_VT_STONEWALL:
		return "all_done or first_done";
	case CFG_VT_UINT:
		return "a whole number";
	case CFG_VT_SIZE:
		return "a size";
	case CFG_VT_DURATION:
		return "a duration";
	case CFG_VT_BOOL:
		return "true or false";
	case CFG_VT_RATE:
		return "a rate";
	case CFG_VT_FRACTION:
		return "a number";
	case CFG_VT_MODEL:
		return "a model";
	case CFG_VT_VERIFY:
		return "none or crc32c";
	case CFG_VT_ON_ERROR:
		return "stop-phase, continue or abort";
	case CFG_VT_SERIALIZE:
		return "raw or torch";
	case CFG_VT_CKPT_LAYOUT:
		return "dlio or sharded";
	case CFG_VT_PROCEDURE:
		return "none or mlperf";
	case CFG_VT_PERCENT:
		return "a percentage";
	case CFG_VT_BANDWIDTH:
		return "a bandwidth";
	case CFG_VT_NUMA:
		return "none or drive";
	case CFG_VT_PREALLOCATE:
		return "none, fallocate or written";
	case CFG_VT_BENCHMARK:
		return "a benchmark";
	case CFG_VT_ACCELERATOR:
		return "an accelerator";
	case CFG_VT_SEARCH:
		return "none or accelerators";
	case CFG_VT_RUNS:
		return "runs, W+M";
	case CFG_VT_MAP:
		return "a mapping";
	case CFG_VT_PAIR:
		return "a list [MIN, MAX]";
	}
	return "a value";
}

/* Parses the enum name s with parse(); on failure reports the known names
 * and, when s is a near miss, the likely one. */
static int parse_named(struct cfg_doc *d, const struct cfg_node *n, int (*parse)(const char *),
		       const char *const *names, const char *what, uint64_t *out)
{
	char known[256];
	const char *near;
	int v = parse(n->str);

	if (v >= 0) {
		*out = (uint64_t)v;
		return 0;
	}
	near = sc_cfg_nearest(n->str, names, (size_t)-1);
	if (near)
		return sc_cfg_fail_node(d, n, "\"%s\" is not %s (did you mean %s?)", n->str, what,
					near);
	return sc_cfg_fail_node(d, n, "\"%s\" is not %s (known: %s)", n->str, what,
				sc_cfg_join(known, sizeof(known), names));
}

static const char *const rw_list[] = {"read",	  "write",     "randread", "randwrite",
				      "randrw", "readwrite", NULL};
static const char *const engine_list[] = {"io_uring", "psync", "null", "emulated", NULL};
static const char *const stonewall_list[] = {"all_done", "first_done", NULL};
static const char *const verify_list[] = {"none", "crc32c", NULL};
static const char *const on_error_list[] = {"stop-phase", "continue", "abort", NULL};
static const char *const serialize_list[] = {"raw", "torch", NULL};
static const char *const ckpt_layout_list[] = {"dlio", "sharded", NULL};
static const char *const numa_list[] = {"none", "drive", NULL};
static const char *const preallocate_list[] = {"none", "fallocate", "written", NULL};
static const char *const procedure_list[] = {"none", "mlperf", NULL};
static const char *const search_list[] = {"none", "accelerators", NULL};

static int search_parse(const char *s)
{
	for (int i = 0; search_list[i]; i++)
		if (strcmp(s, search_list[i]) == 0)
			return i;
	return -1;
}

/* MLPerf Storage's benchmark and accelerator names (worker/mlperf.h) into
 * list, NULL-terminated. */
static const char *const *benchmark_list(const char *list[SC_MLPERF_BENCHMARK_COUNT + 1])
{
	for (int b = 0; b < SC_MLPERF_BENCHMARK_COUNT; b++)
		list[b] = sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)b);
	list[SC_MLPERF_BENCHMARK_COUNT] = NULL;
	return list;
}

static const char *const *accelerator_list(const char *list[SC_MLPERF_ACCELERATOR_COUNT + 1])
{
	for (int a = 0; a < SC_MLPERF_ACCELERATOR_COUNT; a++)
		list[a] = sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)a);
	list[SC_MLPERF_ACCELERATOR_COUNT] = NULL;
	return list;
}

/* A whole number of decimal digits s[0..len): 0, -EINVAL or -ERANGE. */
static int parse_digits(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	bool over = false;

	if (!len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			over = true;
	}
	*out = v;
	return over ? -ERANGE : 0;
}

/* A catalogue model name; the message lists the catalogue. */
static int parse_model(struct cfg_doc *d, const struct cfg_node *n)
{
	const char *const *names = sc_ckpt_model_names();
	struct sc_llm m;
	char known[256], hint[96] = "";
	const char *near;

	if (sc_ckpt_model_lookup(n->str, &m) == 0)
		return 0;
	near = sc_cfg_nearest(n->str, names, (size_t)-1);
	if (near)
		snprintf(hint, sizeof(hint), "did you mean %s? ", near);
	return sc_cfg_fail_node(
	    d, n,
	    "\"%s\" is not a known model (%sknown: %s; or describe one inline: {layers, "
	    "hidden, ffn_hidden, heads, kv_heads, vocab, dtype})",
	    n->str, hint, sc_cfg_join(known, sizeof(known), names));
}

static bool name_char_ok(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '.' || ch == '-';
}

/* A phase name: it names a directory of the run, so it may not be "." or
 * "..", nor start with _ . or -. */
static int parse_name(struct cfg_doc *d, const struct cfg_node *n)
{
	const char *s = n->str;

	if (!*s)
		return sc_cfg_fail_node(d, n, "empty phase name");
	if (strlen(s) > CFG_MAX_NAME_LEN)
		return sc_cfg_fail_node(d, n, "\"%.20s...\" is longer than %u characters", s,
					CFG_MAX_NAME_LEN);
	for (const char *p = s; *p; p++)
		if (!name_char_ok(*p) || (p == s && (*p == '_' || *p == '.' || *p == '-')))
			return sc_cfg_fail_node(
			    d, n,
			    "\"%s\" is not a phase name (start with a letter or "
			    "digit, then use letters, digits, _ . and -)",
			    s);
	return 0;
}

static int parse_workload(struct cfg_doc *d, const struct cfg_node *n, uint64_t *out)
{
	const char *workloads[SC_WORKLOAD_COUNT + 1];

	for (int w = 0; w < SC_WORKLOAD_COUNT; w++)
		workloads[w] = sc_workload_name((enum sc_workload)w);
	workloads[SC_WORKLOAD_COUNT] = NULL;
	return parse_named(d, n, sc_workload_parse, workloads, "a workload", out);
}

static int parse_bool(struct cfg_doc *d, const struct cfg_node *n, uint64_t *out)
{
	if (strcmp(n->str, "true") == 0)
		*out = 1;
	else if (strcmp(n->str, "false") != 0)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a boolean (write true or false)",
					n->str);
	return 0;
}

/* A whole number in def's range; "-0" and "+N" are numbers too. */
static int parse_uint(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
		      uint64_t *out)
{
	const char *s = n->str, *p = s + (*s == '-' || *s == '+');
	uint64_t v = 0;
	int err = parse_digits(p, strlen(p), &v);

	if (err == -EINVAL)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a whole number", s);
	if (err || (*s == '-' && v) || v < def->min || v > def->max)
		return sc_cfg_fail_node(d, n, "%s is out of range (%" PRIu64 "..%" PRIu64 ")", s,
					def->min, def->max);
	*out = v;
	return 0;
}

/* I/Os per second per rank: "5000/s" or "5000". */
static int parse_rate(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
		      uint64_t *out)
{
	const char *s = n->str;
	size_t len = strlen(s);
	uint64_t v = 0;
	int err;

	if (len > 2 && strcmp(s + len - 2, "/s") == 0)
		len -= 2;
	err = parse_digits(s, len, &v);
	if (err == -EINVAL)
		return sc_cfg_fail_node(d, n,
					"\"%s\" is not a rate (write I/Os per second per rank: "
					"5000/s, or 0 for a closed loop)",
					s);
	if (err || v < def->min || v > def->max)
		return sc_cfg_fail_node(d, n, "%s is out of range (%" PRIu64 "/s..%" PRIu64 "/s)",
					s, def->min, def->max);
	*out = v;
	return 0;
}

/* A number in (0, 1], its double's bits into *out. */
static int parse_fraction(struct cfg_doc *d, const struct cfg_node *n, uint64_t *out)
{
	const char *s = n->str;
	char *end;
	double v;

	/* Decimal only: no "inf", "nan", hex or blanks. */
	if (strspn(s, "0123456789.eE+-") != strlen(s))
		return sc_cfg_fail_node(d, n, "\"%s\" is not a number (try 0.01 or 1e-4)", s);
	v = strtod(s, &end);
	if (end == s || *end)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a number (try 0.01 or 1e-4)", s);
	if (!(v > 0 && v <= 1))
		return sc_cfg_fail_node(d, n, "%s is out of range (more than 0, at most 1)", s);
	memcpy(out, &v, sizeof(v));
	return 0;
}

static int parse_size(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
		      uint64_t *out)
{
	const char *s = n->str;
	char a[32], b[32];
	int err = sc_parse_size(s, out);

	if (err == -ERANGE)
		return sc_cfg_fail_node(d, n, "\"%s\" is too large", s);
	if (err)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a size (try 4KiB, 1MiB)", s);
	if (*out >= def->min && *out <= def->max)
		return 0;
	if (def->max == UINT64_MAX)
		return sc_cfg_fail_node(d, n, "%s is out of range (at least %s)", s,
					sc_cfg_fmt_size(a, sizeof(a), def->min));
	return sc_cfg_fail_node(d, n, "%s is out of range (%s..%s)", s,
				sc_cfg_fmt_size(a, sizeof(a), def->min),
				sc_cfg_fmt_size(b, sizeof(b), def->max));
}

/* Bytes per second: a size with an optional "/s" ("20MB/s", "1.5GiB/s"). */
static int parse_bandwidth(struct cfg_doc *d, const struct cfg_node *n,
			   const struct cfg_keydef *def, uint64_t *out)
{
	char buf[64], a[32];
	size_t len = strlen(n->str);
	int err;

	if (len > 2 && strcmp(n->str + len - 2, "/s") == 0)
		len -= 2;
	if (len >= sizeof(buf))
		return sc_cfg_fail_node(d, n, "\"%s\" is not a bandwidth (try 20MB/s, 2GiB/s)",
					n->str);
	memcpy(buf, n->str, len);
	buf[len] = '\0';
	err = sc_parse_size(buf, out);
	if (err == -ERANGE)
		return sc_cfg_fail_node(d, n, "\"%s\" is too large", n->str);
	if (err)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a bandwidth (try 20MB/s, 2GiB/s)",
					n->str);
	if (*out < def->min)
		return sc_cfg_fail_node(d, n, "%s is out of range (at least %s/s)", n->str,
					sc_cfg_fmt_size(a, sizeof(a), def->min));
	return 0;
}

static int parse_duration(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
			  uint64_t *out)
{
	const char *s = n->str;
	int err = sc_parse_duration(s, out);

	if (err == -ERANGE)
		return sc_cfg_fail_node(d, n, "\"%s\" is too long (at most %" PRIu64 " days)", s,
					def->max / NS_PER_DAY);
	if (err)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a duration (try 10s, 500ms, 2m)", s);
	if (*out < def->min)
		return sc_cfg_fail_node(d, n, "%s is too short (more than 0 is needed)", s);
	if (*out > def->max)
		return sc_cfg_fail_node(d, n, "%s is too long (at most %" PRIu64 " days)", s,
					def->max / NS_PER_DAY);
	return 0;
}

/* A whole percentage in def's range: "50%" or "50". */
static int parse_percent(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
			 uint64_t *out)
{
	const char *s = n->str;
	size_t len = strlen(s);
	uint64_t v = 0;
	int err;

	if (len > 1 && s[len - 1] == '%')
		len--;
	err = parse_digits(s, len, &v);
	if (err == -EINVAL)
		return sc_cfg_fail_node(d, n, "\"%s\" is not a percentage (write a whole number "
					"of percent: 50%%)", s);
	if (err || v < def->min || v > def->max)
		return sc_cfg_fail_node(d, n, "%s is out of range (%" PRIu64 "%%..%" PRIu64 "%%)",
					s, def->min, def->max);
	*out = v;
	return 0;
}

/* One scalar of type def into *out (text types: checked, left in the
 * node).  0 or -EINVAL. */
/* runs: "W+M" (W warm-up runs, then M measured) or "M" (no warm-up):
 * W x RUNS_SCALE + M. */
static int parse_runs(struct cfg_doc *d, const struct cfg_node *n, uint64_t *out)
{
	const char *plus = strchr(n->str, '+');
	uint64_t w = 0, m = 0;
	int rc;

	if (plus)
		rc = parse_digits(n->str, (size_t)(plus - n->str), &w);
	else
		rc = 0;
	if (!rc)
		rc = plus ? parse_digits(plus + 1, strlen(plus + 1), &m)
			  : parse_digits(n->str, strlen(n->str), &m);
	if (rc || w > RUNS_MAX || m < 1 || m > RUNS_MAX)
		return sc_cfg_fail_node(d, n,
					"\"%s\" is not runs (expected W+M: 0..%u warm-up runs, "
					"then 1..%u measured, as MLPerf's 1+5)",
					n->str, RUNS_MAX, RUNS_MAX);
	*out = w * RUNS_SCALE + m;
	return 0;
}

int sc_cfg_parse_scalar(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
			uint64_t *out)
{
	const char *bench[SC_MLPERF_BENCHMARK_COUNT + 1], *accel[SC_MLPERF_ACCELERATOR_COUNT + 1];

	if (n->kind != CFG_SCALAR)
		return sc_cfg_fail_node(d, n, "expected %s, got %s%s", type_word(def->type),
					sc_cfg_kind_word(n),
					n->kind == CFG_SEQ && def->phase && !def->sweep
					    ? " (only rw, bs and iodepth can be swept)"
					    : "");
	/* "null" is an engine's name before it is YAML's null. */
	if (sc_cfg_is_null(n) && !(def->type == CFG_VT_ENGINE && strcmp(n->str, "null") == 0))
		return sc_cfg_fail_node(d, n, "no value given (expected %s)", type_word(def->type));
	*out = 0;
	switch (def->type) {
	case CFG_VT_NAME:
		return parse_name(d, n);
	case CFG_VT_TEXT:
		if (!*n->str)
			return sc_cfg_fail_node(d, n, "empty value (expected %s)",
						type_word(def->type));
		return 0;
	case CFG_VT_WORKLOAD:
		return parse_workload(d, n, out);
	case CFG_VT_RW:
		return parse_named(d, n, sc_rw_parse, rw_list, "an rw pattern", out);
	case CFG_VT_ENGINE:
		return parse_named(d, n, sc_engine_parse, engine_list, "an engine", out);
	case CFG_VT_STONEWALL:
		return parse_named(d, n, sc_stonewall_parse, stonewall_list, "a stonewall mode",
				   out);
	case CFG_VT_VERIFY:
		return parse_named(d, n, sc_verify_parse, verify_list, "a verify mode", out);
	case CFG_VT_ON_ERROR:
		return parse_named(d, n, sc_on_error_parse, on_error_list, "an on_error mode", out);
	case CFG_VT_SERIALIZE:
		return parse_named(d, n, sc_serialize_parse, serialize_list, "a serialize mode",
				   out);
	case CFG_VT_CKPT_LAYOUT:
		return parse_named(d, n, sc_ckpt_layout_parse, ckpt_layout_list,
				   "a checkpoint layout", out);
	case CFG_VT_NUMA:
		return parse_named(d, n, sc_numa_parse, numa_list, "a numa placement", out);
	case CFG_VT_PREALLOCATE:
		return parse_named(d, n, sc_preallocate_parse, preallocate_list,
				   "a preallocation", out);
	case CFG_VT_PROCEDURE:
		return parse_named(d, n, sc_procedure_parse, procedure_list, "a procedure", out);
	case CFG_VT_BENCHMARK:
		return parse_named(d, n, sc_mlperf_benchmark_parse, benchmark_list(bench),
				   "a benchmark of MLPerf Storage v3.0", out);
	case CFG_VT_ACCELERATOR:
		return parse_named(d, n, sc_mlperf_accelerator_parse, accelerator_list(accel),
				   "an accelerator of MLPerf Storage v3.0", out);
	case CFG_VT_SEARCH:
		return parse_named(d, n, search_parse, search_list, "a search", out);
	case CFG_VT_RUNS:
		return parse_runs(d, n, out);
	case CFG_VT_BOOL:
		return parse_bool(d, n, out);
	case CFG_VT_UINT:
		return parse_uint(d, n, def, out);
	case CFG_VT_RATE:
		return parse_rate(d, n, def, out);
	case CFG_VT_FRACTION:
		return parse_fraction(d, n, out);
	case CFG_VT_MODEL:
		return parse_model(d, n);
	case CFG_VT_SIZE:
		return parse_size(d, n, def, out);
	case CFG_VT_DURATION:
		return parse_duration(d, n, def, out);
	case CFG_VT_PERCENT:
		return parse_percent(d, n, def, out);
	case CFG_VT_BANDWIDTH:
		return parse_bandwidth(d, n, def, out);
	case CFG_VT_MAP:
	case CFG_VT_PAIR:
		return sc_cfg_fail_node(d, n, "expected %s", type_word(def->type));
	}
	return 0;
}

/* A swept key: one value or a list of distinct values. */
int sc_cfg_parse_sweep(struct cfg_doc *d, const struct cfg_node *n, const struct cfg_keydef *def,
		       struct cfg_sweep *sw)
{
	int err;

	memset(sw, 0, sizeof(*sw));
	if (n->kind != CFG_SEQ) {
		sw->n = 1;
		sw->node[0] = n;
		return sc_cfg_parse_scalar(d, n, def, &sw->v[0]);
	}
	if (!n->nitems)
		return sc_cfg_fail_node(d, n, "empty list (give one value or a list of values)");
	if (n->nitems > CFG_MAX_SWEEP_VALUES)
		return sc_cfg_fail_node(d, n, "%u values (a sweep takes at most %u)", n->nitems,
					CFG_MAX_SWEEP_VALUES);
	sw->list = true;
	for (uint32_t i = 0; i < n->nitems; i++) {
		const struct cfg_node *it = n->items[i];

		if (it->kind != CFG_SCALAR)
			return sc_cfg_fail_node(d, it, "expected %s, got %s", type_word(def->type),
						sc_cfg_kind_word(it));
		err = sc_cfg_parse_scalar(d, it, def, &sw->v[i]);
		if (err)
			return err;
		for (uint32_t j = 0; j < i; j++)
			if (sw->v[j] == sw->v[i])
				return sc_cfg_fail_node(d, it,
							"\"%s\" is listed twice (also at %s)",
							it->str, n->items[j]->path);
		sw->node[i] = it;
		sw->n++;
	}
	return 0;
}

/* "1", "2^32-1", "2^64-1": a bound as the reference writes it. */
static const char *bound_text(char *buf, size_t len, uint64_t v)
{
	if (v == UINT64_MAX)
		return "2^64-1";
	if (v == UINT32_MAX)
		return "2^32-1";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/* words joined as "a | b | c". */
static const char *choices(char *buf, size_t len, const char *const *words)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; words[i] && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " | " : "", words[i]);
	return buf;
}

const char *sc_cfg_type_text(const struct cfg_keydef *def, char *buf, size_t len)
{
	const char *workloads[SC_WORKLOAD_COUNT + 1];
	const char *bench[SC_MLPERF_BENCHMARK_COUNT + 1], *accel[SC_MLPERF_ACCELERATOR_COUNT + 1];
	char lo[32], hi[32];

	switch (def->type) {
	case CFG_VT_UINT:
	case CFG_VT_PERCENT:
	case CFG_VT_RATE:
		snprintf(buf, len, "%s%s..%s%s", def->type == CFG_VT_RATE ? "I/Os per second " : "",
			 bound_text(lo, sizeof(lo), def->min), bound_text(hi, sizeof(hi), def->max),
			 def->type == CFG_VT_PERCENT ? " percent" : "");
		break;
	case CFG_VT_SIZE:
	case CFG_VT_BANDWIDTH:
		if (def->max == UINT64_MAX)
			snprintf(buf, len, "%s >= %s%s", def->type == CFG_VT_SIZE ? "size" : "bandwidth",
				 sc_cfg_fmt_size(lo, sizeof(lo), def->min),
				 def->type == CFG_VT_SIZE ? "" : "/s");
		else
			snprintf(buf, len, "size %s..%s", sc_cfg_fmt_size(lo, sizeof(lo), def->min),
				 sc_cfg_fmt_size(hi, sizeof(hi), def->max));
		break;
	case CFG_VT_DURATION:
		snprintf(buf, len, "duration %s 30 days at most", def->min ? "> 0," : ">= 0,");
		break;
	case CFG_VT_FRACTION:
		snprintf(buf, len, "a number in (0, 1]");
		break;
	case CFG_VT_BOOL:
		snprintf(buf, len, "true | false");
		break;
	case CFG_VT_WORKLOAD:
		for (int w = 0; w < SC_WORKLOAD_COUNT; w++)
			workloads[w] = sc_workload_name((enum sc_workload)w);
		workloads[SC_WORKLOAD_COUNT] = NULL;
		return choices(buf, len, workloads);
	case CFG_VT_RW:
		return choices(buf, len, rw_list);
	case CFG_VT_ENGINE:
		return choices(buf, len, engine_list);
	case CFG_VT_STONEWALL:
		return choices(buf, len, stonewall_list);
	case CFG_VT_VERIFY:
		return choices(buf, len, verify_list);
	case CFG_VT_ON_ERROR:
		return choices(buf, len, on_error_list);
	case CFG_VT_SERIALIZE:
		return choices(buf, len, serialize_list);
	case CFG_VT_CKPT_LAYOUT:
		return choices(buf, len, ckpt_layout_list);
	case CFG_VT_NUMA:
		return choices(buf, len, numa_list);
	case CFG_VT_PREALLOCATE:
		return choices(buf, len, preallocate_list);
	case CFG_VT_PROCEDURE:
		return choices(buf, len, procedure_list);
	case CFG_VT_BENCHMARK:
		return choices(buf, len, benchmark_list(bench));
	case CFG_VT_ACCELERATOR:
		return choices(buf, len, accelerator_list(accel));
	case CFG_VT_SEARCH:
		return choices(buf, len, search_list);
	case CFG_VT_RUNS:
		snprintf(buf, len, "W+M: 0..%u warm-up runs, 1..%u measured", RUNS_MAX, RUNS_MAX);
		break;
	default:
		snprintf(buf, len, "%s", type_word(def->type));
		break;
	}
	return buf;
}
