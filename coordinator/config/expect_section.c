/* expect_section.c -- a phase's expect: thresholds and the top-level
 * outliers: section.  Each threshold is typed by its metric's unit and
 * checked against what the phase can produce (analysis/verdict.h's table),
 * so a threshold the run could never measure is refused at its
 * file:line:col before any I/O. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/outliers.h"
#include "analysis/verdict.h"
#include "schema.h"

/* Room for the metric names listed in a message. */
#define NAMES_MAX 512
/* Largest k an outliers: section takes (more flags nothing anyone sees). */
#define OUTLIER_K_MAX 100.0
/* I/Os per second a threshold may ask at most (beyond any cluster). */
#define IOPS_MAX 1e12

/* The metric names, NULL-terminated, for sc_cfg_nearest and messages. */
static const char *const *metric_names(void)
{
	static const char *names[SC_EXPECT_COUNT + 1];

	for (int m = 0; m < SC_EXPECT_COUNT; m++)
		names[m] = sc_expect_metric_name((enum sc_expect_metric)m);
	names[SC_EXPECT_COUNT] = NULL;
	return names;
}

/* I/Os per second: a number, "/s" optional. */
static int parse_iops(struct cfg_check *c, const struct cfg_node *n, double *out)
{
	char buf[64], *end;
	size_t len = n->kind == CFG_SCALAR && n->str ? strlen(n->str) : 0;
	double v;

	if (len > 2 && strcmp(n->str + len - 2, "/s") == 0)
		len -= 2;
	if (!len || len >= sizeof(buf))
		return sc_cfg_fail_node(c->d, n, "expected I/Os per second (as 50000 or 50000/s)");
	memcpy(buf, n->str, len);
	buf[len] = '\0';
	/* decimal only: no "inf", "nan", hex or blanks */
	v = strspn(buf, "0123456789.eE+") == len ? strtod(buf, &end) : 0;
	if (strspn(buf, "0123456789.eE+") != len || end == buf || *end)
		return sc_cfg_fail_node(
		    c->d, n, "\"%s\" is not I/Os per second (try 50000 or 50000/s)", n->str);
	if (!(v > 0 && v <= IOPS_MAX))
		return sc_cfg_fail_node(c->d, n, "%s is out of range (more than 0 I/Os per second)",
					n->str);
	*out = v;
	return 0;
}

/* The bound of metric m from n, in the metric's unit.  *skip: a yes/no
 * threshold said false (nothing to check). */
static int parse_bound(struct cfg_check *c, enum sc_expect_metric m, const struct cfg_node *n,
		       double *out, bool *skip)
{
	static const struct cfg_keydef bw = {.type = CFG_VT_BANDWIDTH, .min = 1, .max = UINT64_MAX};
	static const struct cfg_keydef dur = {.type = CFG_VT_DURATION, .min = 1, .max = UINT64_MAX};
	static const struct cfg_keydef yes = {.type = CFG_VT_BOOL, .max = 1};
	uint64_t v = 0;
	int err;

	*skip = false;
	switch (sc_verdict_unit(m)) {
	case SC_UNIT_BW:
		err = sc_cfg_parse_scalar(c->d, n, &bw, &v);
		*out = (double)v;
		return err;
	case SC_UNIT_IOPS:
		return parse_iops(c, n, out);
	case SC_UNIT_NS:
		err = sc_cfg_parse_scalar(c->d, n, &dur, &v);
		*out = (double)v;
		return err;
	case SC_UNIT_FRACTION:
		err = sc_cfg_parse_number(c, n, '%', out);
		if (!err && !(*out > 0 && *out <= 1))
			return sc_cfg_fail_node(c->d, n,
						"%s is out of range (more than 0, at most "
						"100%% or 1)",
						n->str);
		return err;
	case SC_UNIT_FLAG:
		err = sc_cfg_parse_scalar(c->d, n, &yes, &v);
		*out = 1;
		*skip = v == 0;
		return err;
	}
	return 0;
}

int sc_cfg_parse_expect(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	char names[NAMES_MAX];

	pv->nexpect = 0;
	if (n->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, n,
					"expected a mapping of thresholds (e.g. expect: {min_bw: "
					"2GB/s, max_p99: 5ms}), got %s",
					sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	if (n->npairs > SC_EXPECT_MAX)
		return sc_cfg_fail_node(c->d, n, "%u thresholds, more than the %u a phase takes",
					n->npairs, SC_EXPECT_MAX);
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int m = sc_expect_metric_parse(p->key);
		const char *near;
		double v = 0;
		bool skip;

		if (m < 0) {
			near = sc_cfg_nearest(p->key, metric_names(), (size_t)-1);
			if (near)
				return sc_cfg_fail(c->d, &p->kloc, p->val->path,
						   "unknown threshold (did you mean %s?)", near);
			return sc_cfg_fail(c->d, &p->kloc, p->val->path,
					   "unknown threshold (expect takes %s)",
					   sc_cfg_join(names, sizeof(names), metric_names()));
		}
		if (parse_bound(c, (enum sc_expect_metric)m, p->val, &v, &skip))
			return -EINVAL;
		if (skip)
			continue;
		pv->expect_src[pv->nexpect] = p;
		pv->expect[pv->nexpect].metric = (enum sc_expect_metric)m;
		pv->expect[pv->nexpect++].value = v;
	}
	return 0;
}

int sc_cfg_build_expect(struct cfg_check *c, const struct cfg_phase *pv, struct sc_phase *ph)
{
	bool reads = sc_rw_reads(ph->io.rw), writes = sc_rw_writes(ph->io.rw);
	char why[256];

	if (!pv->nexpect)
		return 0;
	/* a checkpoint group writes, and reads when it restores */
	if (ph->workload == SC_WORKLOAD_CHECKPOINT) {
		reads = pv->restore != 0;
		writes = true;
	}
	for (uint32_t i = 0; i < pv->nexpect; i++) {
		const struct cfg_pair *p = pv->expect_src[i];
		const char *no = sc_verdict_cannot(pv->expect[i].metric, ph->workload, reads,
						   writes, why, sizeof(why));

		if (!no && pv->expect[i].metric == SC_EXPECT_STEADY_STATE && !pv->steady.max_rounds)
			no = "steady state is judged only in a phase with steady_state: (its "
			     "rounds)";

		/* a threshold from defaults names the phase it breaks */
		if (no)
			return sc_cfg_fail(
			    c->d, &p->kloc, p->val->path, "%s%s%s", no,
			    ph->ncells > 1 || strncmp(p->val->path, "phases.", 7) ? ", in phase "
										  : "",
			    ph->ncells > 1 || strncmp(p->val->path, "phases.", 7) ? ph->name : "");
	}
	ph->expect = malloc(pv->nexpect * sizeof(*ph->expect));
	if (!ph->expect)
		return -ENOMEM;
	memcpy(ph->expect, pv->expect, pv->nexpect * sizeof(*ph->expect));
	ph->nexpect = pv->nexpect;
	return 0;
}

/* outliers: k (a number > 0) or mad_floor (a percentage or fraction). */
static int parse_outlier_key(struct cfg_check *c, const struct cfg_pair *p)
{
	double v = 0;

	if (strcmp(p->key, "k") == 0) {
		if (sc_cfg_parse_number(c, p->val, 'x', &v))
			return -EINVAL;
		if (!(v > 0 && v <= OUTLIER_K_MAX))
			return sc_cfg_fail_node(c->d, p->val,
						"%s is out of range (k is more than 0, at most "
						"%.0f median absolute deviations)",
						p->val->str, OUTLIER_K_MAX);
		c->outlier_k = v;
		return 0;
	}
	if (strcmp(p->key, "mad_floor") == 0) {
		if (sc_cfg_parse_number(c, p->val, '%', &v))
			return -EINVAL;
		if (!(v > 0 && v < 1))
			return sc_cfg_fail_node(c->d, p->val,
						"%s is out of range (mad_floor is a share of the "
						"median, more than 0 and below 100%%)",
						p->val->str);
		c->outlier_mad_floor = v;
		return 0;
	}
	return sc_cfg_fail(c->d, &p->kloc, p->val->path,
			   "unknown key (outliers takes k and mad_floor)");
}

int sc_cfg_parse_outliers(struct cfg_check *c)
{
	const struct cfg_node *o = sc_cfg_map_get(c->d->root, "outliers");

	c->outlier_k = 0;
	c->outlier_mad_floor = 0;
	if (!o || sc_cfg_is_null(o))
		return 0;
	if (o->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, o,
					"expected a mapping (e.g. outliers: {k: %.1f, mad_floor: "
					"%.0f%%}), got %s",
					SC_OUTLIER_K_DEFAULT, SC_OUTLIER_MAD_FLOOR_DEFAULT * 100,
					sc_cfg_kind_word(o));
	for (uint32_t j = 0; j < o->npairs; j++)
		if (parse_outlier_key(c, &o->pairs[j]))
			return -EINVAL;
	return 0;
}

void sc_cfg_build_outliers(const struct cfg_check *c, struct sc_plan *plan)
{
	plan->outlier_k = c->outlier_k;
	plan->outlier_mad_floor = c->outlier_mad_floor;
}
