/* verdict_table.c -- the PASS/FAIL table, the outliers and the verdict line, and
 * results.json's "verdict" (verdict_table.h). */
#include "verdict_table.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <string.h>

#include "report_priv.h"

/* Room for one formatted figure or place. */
#define FIG_MAX	  48
#define PLACE_MAX 640
/* A fraction shown as a percentage. */
#define PERCENT 100.0
/* Checks of one threshold at node or drive scope that did not pass, and
 * outliers, printed each on its line; the rest counted. */
#define LINES_PRINTED 16u

/* value in metric m's unit, with its unit. */
const char *sc_report_verdict_value(char *buf, size_t len, enum sc_expect_metric m, double value)
{
	switch (sc_verdict_unit(m)) {
	case SC_UNIT_BW:
		return sc_fmt_rate(buf, len, value);
	case SC_UNIT_IOPS:
		return sc_fmt_iops(buf, len, value);
	case SC_UNIT_NS:
		return sc_fmt_duration(buf, len, value > 0 ? (uint64_t)value : 0);
	case SC_UNIT_FRACTION:
		snprintf(buf, len, "%.1f%%", value * PERCENT);
		return buf;
	case SC_UNIT_FLAG:
		break;
	}
	snprintf(buf, len, "%s", value != 0 ? "yes" : "no");
	return buf;
}

/* results.json's key for a figure of metric m: what ("measured",
 * "required") and its unit ("measured_bytes_per_s", "required_ns"; a
 * fraction as "_pct"; a yes/no as the bare word, a boolean). */
static const char *figure_key(char *buf, size_t len, const char *what, enum sc_expect_metric m)
{
	static const char *const sufs[] = {[SC_UNIT_BW] = "_bytes_per_s",
					   [SC_UNIT_IOPS] = "_iops",
					   [SC_UNIT_NS] = "_ns",
					   [SC_UNIT_FRACTION] = "_pct",
					   [SC_UNIT_FLAG] = ""};

	snprintf(buf, len, "%s%s", what, sufs[sc_verdict_unit(m)]);
	return buf;
}

/* A figure of metric m under its key (figure_key). */
static void put_figure(struct jb *b, struct json_object *o, const char *what,
		       enum sc_expect_metric m, double v)
{
	char key[FIG_MAX];

	figure_key(key, sizeof(key), what, m);
	if (sc_verdict_unit(m) == SC_UNIT_FLAG)
		sc_json_put_bool(b, o, key, v != 0);
	else if (sc_verdict_unit(m) == SC_UNIT_FRACTION)
		sc_json_put_dbl(b, o, key, v * PERCENT);
	else
		sc_json_put_dbl(b, o, key, v);
}

/* Where w stands: "cluster", "node 1 (host)", "rank 3 on host, target 2
 * (/path)", with the drive's device and serial when known. */
const char *sc_report_verdict_place(char *buf, size_t len, const struct sc_where *w)
{
	int n;

	if (w->scope == SC_SCOPE_CLUSTER)
		return snprintf(buf, len, "cluster"), buf;
	if (w->scope == SC_SCOPE_NODE)
		return snprintf(buf, len, "node %" PRIu32 " (%s)", w->node,
				w->host ? w->host : "?"),
		       buf;
	n = snprintf(buf, len, "rank %" PRIu32 " on %s, target %" PRIu32 " (%s)", w->rank,
		     w->host ? w->host : "?", w->target, w->target_path ? w->target_path : "?");
	if (n > 0 && (size_t)n < len && (w->device || w->serial))
		snprintf(buf + n, len - (size_t)n, ", %s serial %s", w->device ? w->device : "?",
			 w->serial ? w->serial : "?");
	return buf;
}

/* How required bounds the measure: ">=", "<=", or nothing for yes/no. */
const char *sc_report_verdict_relation(enum sc_expect_metric m)
{
	if (sc_verdict_unit(m) == SC_UNIT_FLAG)
		return "  ";
	return sc_verdict_is_minimum(m) ? ">=" : "<=";
}

/* One line of the table: phase, threshold, measured, required, result,
 * then where (and why a check was not measured). */
static void print_line(FILE *f, const struct sc_check *c, const char *place)
{
	char m[FIG_MAX], r[FIG_MAX];
	bool nm = c->result == SC_CHECK_NOT_MEASURED;

	fprintf(f, "  %-24s %-24s %-12s %s %-12s %-6s %s%s%s%s\n", c->phase_name,
		sc_expect_metric_name(c->metric),
		nm ? "-" : sc_report_verdict_value(m, sizeof(m), c->metric, c->measured),
		sc_report_verdict_relation(c->metric),
		sc_report_verdict_value(r, sizeof(r), c->metric, c->required),
		nm ? "n/a" : sc_check_result_name(c->result), place, nm ? " (not measured: " : "",
		nm && c->note ? c->note : "", nm ? ")" : "");
}

/* True when a is worse than b for metric m (lower for a minimum). */
static bool worse(enum sc_expect_metric m, double a, double b)
{
	return sc_verdict_is_minimum(m) ? a < b : a > b;
}

/* The n checks of one threshold at node or drive scope: each failed one
 * on its line, the passing ones on one line with the worst, and the ones
 * not measured on one line when they share one reason. */
static void print_group(FILE *f, const struct sc_check *c, uint32_t n)
{
	const struct sc_check *w = NULL, *nm = NULL;
	uint32_t npass = 0, nnm = 0, nlines = 0;
	bool one_reason = true;
	char place[PLACE_MAX], at[PLACE_MAX];

	for (uint32_t i = 0; i < n; i++) {
		if (c[i].result != SC_CHECK_NOT_MEASURED)
			continue;
		one_reason = one_reason && (!nm || nm->note == c[i].note);
		nm = nm ? nm : &c[i];
		nnm++;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (c[i].result == SC_CHECK_PASS) {
			npass++;
			if (!w || worse(c->metric, c[i].measured, w->measured))
				w = &c[i];
		} else if ((c[i].result == SC_CHECK_FAIL || !one_reason || nnm == 1) &&
			   nlines++ < LINES_PRINTED) {
			print_line(f, &c[i],
				   sc_report_verdict_place(place, sizeof(place), &c[i].at));
		}
	}
	if (nlines > LINES_PRINTED)
		fprintf(f, "  ... and %" PRIu32 " more %ss that did not pass (results.json: "
			   "verdict)\n",
			nlines - LINES_PRINTED, sc_check_scope_name(c->at.scope));
	if (nm && one_reason && nnm > 1) {
		snprintf(place, sizeof(place), "%" PRIu32 " of %" PRIu32 " %ss, such as %s", nnm, n,
			 sc_check_scope_name(c->at.scope),
			 sc_report_verdict_place(at, sizeof(at), &nm->at));
		print_line(f, nm, place);
	}
	if (!w)
		return;
	snprintf(place, sizeof(place), "%" PRIu32 " of %" PRIu32 " %ss pass; worst: %s", npass, n,
		 sc_check_scope_name(c->at.scope), sc_report_verdict_place(at, sizeof(at), &w->at));
	print_line(f, w, place);
}

static void print_checks(FILE *f, const struct sc_verdict *v)
{
	char place[PLACE_MAX];

	fprintf(f, "\nexpect: thresholds\n  %-24s %-24s %-12s    %-12s %-6s %s\n", "phase",
		"threshold", "measured", "required", "result", "where");
	for (uint32_t i = 0; i < v->nchecks;) {
		const struct sc_check *c = &v->checks[i];
		uint32_t n = 1;

		while (i + n < v->nchecks && v->checks[i + n].phase == c->phase &&
		       v->checks[i + n].metric == c->metric && c->at.scope != SC_SCOPE_CLUSTER)
			n++;
		if (c->at.scope == SC_SCOPE_CLUSTER)
			print_line(f, c, sc_report_verdict_place(place, sizeof(place), &c->at));
		else
			print_group(f, c, n);
		i += n;
	}
}

static void print_outliers(FILE *f, const struct sc_outliers *o)
{
	char val[FIG_MAX], med[FIG_MAX], place[PLACE_MAX];

	if (!o->judged) {
		fprintf(f, "\noutliers: not judged (no phase had %u drives or nodes to compare)\n",
			SC_OUTLIER_MIN_PEERS);
		return;
	}

	fprintf(f,
		"\noutliers (more than %.3g median absolute deviations from the median of the "
		"phase's drives or nodes, at least %u of them; MAD at least %.3g%% of the "
		"median):%s\n",
		o->k, SC_OUTLIER_MIN_PEERS, o->mad_floor * PERCENT, o->n ? "" : " none");
	for (uint32_t i = 0; i < o->n && i < LINES_PRINTED; i++) {
		const struct sc_outlier *x = &o->v[i];
		bool bw = x->figure == SC_OUTLIER_BW;

		fprintf(f, "  %s: %s", x->phase_name,
			sc_report_verdict_place(place, sizeof(place), &x->at));
		fprintf(f, ": %s %s, median of %" PRIu32 " %ss %s, %+.1f MADs (%s)\n",
			sc_outlier_figure_name(x->figure),
			bw ? sc_fmt_rate(val, sizeof(val), x->value)
			   : sc_fmt_iops(val, sizeof(val), x->value),
			x->peers, sc_check_scope_name(x->at.scope),
			bw ? sc_fmt_rate(med, sizeof(med), x->median)
			   : sc_fmt_iops(med, sizeof(med), x->median),
			x->deviations, x->deviations < 0 ? "low" : "high");
	}
	if (o->n > LINES_PRINTED)
		fprintf(f, "  ... and %" PRIu32 " more (results.json: verdict)\n",
			o->n - LINES_PRINTED);
}

void sc_report_verdict_table(FILE *f, const struct sc_verdict *v, const struct sc_outliers *o)
{
	if (v->nchecks)
		print_checks(f, v);
	if (v->nchecks || o->judged)
		print_outliers(f, o);
	if (!v->nchecks)
		return;
	/* the checks counted are those decided; not measured ones apart */
	if (v->nfailed)
		fprintf(f, "verdict: FAIL (%u of %u checks", v->nfailed,
			v->nchecks - v->nunmeasured);
	else
		fprintf(f, "verdict: PASS (%u checks", v->nchecks - v->nunmeasured);
	if (v->nunmeasured)
		fprintf(f, ", %u not measured", v->nunmeasured);
	fputs(")\n", f);
}

/* Where w stands: scope, node and host, and for a drive its rank and
 * target (device and serial when known); only the scope for the cluster. */
static void put_where(struct jb *b, struct json_object *o, const struct sc_where *w)
{
	sc_json_put_str(b, o, "scope", sc_check_scope_name(w->scope));
	if (w->scope == SC_SCOPE_CLUSTER)
		return;
	sc_report_json_node_host(b, o, w->node, w->host);
	if (w->scope != SC_SCOPE_DRIVE)
		return;
	sc_json_put_u64(b, o, "rank", w->rank);
	sc_json_put_u64(b, o, "target", w->target);
	sc_json_put_str(b, o, "target_path", w->target_path);
	if (w->device)
		sc_json_put_str(b, o, "device", w->device);
	if (w->serial)
		sc_json_put_str(b, o, "serial", w->serial);
}

static struct json_object *check_json(struct jb *b, const struct sc_check *c)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	char key[FIG_MAX];

	sc_json_put_str(b, o, "phase", c->phase_name);
	sc_json_put_u64(b, o, "phase_index", c->phase);
	sc_json_put_str(b, o, "group", c->group);
	sc_json_put_str(b, o, "metric", sc_expect_metric_name(c->metric));
	put_where(b, o, &c->at);
	if (c->result == SC_CHECK_NOT_MEASURED)
		sc_json_put_null(b, o, figure_key(key, sizeof(key), "measured", c->metric));
	else
		put_figure(b, o, "measured", c->metric, c->measured);
	sc_json_put_str(b, o, "bound", sc_verdict_is_minimum(c->metric) ? "min" : "max");
	put_figure(b, o, "required", c->metric, c->required);
	sc_json_put_str(b, o, "result",
			c->result == SC_CHECK_PASS   ? "pass"
			: c->result == SC_CHECK_FAIL ? "fail"
						     : "not_measured");
	if (c->note)
		sc_json_put_str(b, o, "note", c->note);
	return o;
}

static struct json_object *outlier_json(struct jb *b, const struct sc_outlier *x)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	const char *unit = x->figure == SC_OUTLIER_BW ? "_bytes_per_s" : "_iops";
	char key[FIG_MAX];

	sc_json_put_str(b, o, "phase", x->phase_name);
	sc_json_put_u64(b, o, "phase_index", x->phase);
	put_where(b, o, &x->at);
	sc_json_put_str(b, o, "figure", x->figure == SC_OUTLIER_BW ? "bw" : "iops");
	snprintf(key, sizeof(key), "value%s", unit);
	sc_json_put_dbl(b, o, key, x->value);
	snprintf(key, sizeof(key), "median%s", unit);
	sc_json_put_dbl(b, o, key, x->median);
	snprintf(key, sizeof(key), "mad%s", unit);
	sc_json_put_dbl(b, o, key, x->mad);
	sc_json_put_dbl(b, o, "deviations", x->deviations);
	sc_json_put_u64(b, o, "peers", x->peers);
	return o;
}

/* Whether a run of nranks ranks lists check c in results.json, the drive
 * checks listed so far in *drives: every check up to SC_JSON_RANKS_MAX
 * ranks; past them the cluster's and nodes', and the first
 * SC_JSON_RANKS_MAX drives' that did not pass. */
static bool check_listed(const struct sc_check *c, uint32_t nranks, uint32_t *drives)
{
	if (sc_report_json_ranks_kept(nranks) || c->at.scope != SC_SCOPE_DRIVE)
		return true;
	if (c->result == SC_CHECK_PASS || *drives == SC_JSON_RANKS_MAX)
		return false;
	(*drives)++;
	return true;
}

struct json_object *sc_report_json_verdict(struct jb *b, const struct sc_verdict *v,
					   const struct sc_outliers *o, uint32_t nranks)
{
	struct json_object *r = sc_json_new(b, json_object_new_object());
	struct json_object *checks = sc_json_new(b, json_object_new_array());
	struct json_object *outs = sc_json_new(b, json_object_new_array());
	uint32_t drives = 0, omitted = 0;

	if (v->nchecks)
		sc_json_put_bool(b, r, "pass", v->nfailed == 0);
	else
		sc_json_put_null(b, r, "pass");
	sc_json_put_u64(b, r, "nchecks", v->nchecks);
	sc_json_put_u64(b, r, "nfailed", v->nfailed);
	sc_json_put_u64(b, r, "not_measured", v->nunmeasured);
	for (uint32_t i = 0; i < v->nchecks; i++) {
		if (check_listed(&v->checks[i], nranks, &drives))
			sc_json_push(b, checks, check_json(b, &v->checks[i]));
		else
			omitted++;
	}
	sc_json_put(b, r, "checks", checks);
	if (omitted) {
		sc_json_put_str(b, r, "checks_file", "ranks.csv");
		sc_json_put_u64(b, r, "checks_omitted", omitted);
	}
	sc_json_put_dbl(b, r, "outlier_k", o->k);
	sc_json_put_dbl(b, r, "outlier_mad_floor", o->mad_floor);
	sc_json_put_u64(b, r, "outlier_comparisons", o->judged);
	for (uint32_t i = 0; i < o->n && i < SC_JSON_RANKS_MAX; i++)
		sc_json_push(b, outs, outlier_json(b, &o->v[i]));
	sc_json_put(b, r, "outliers", outs);
	if (o->n > SC_JSON_RANKS_MAX)
		sc_json_put_u64(b, r, "outliers_omitted", o->n - SC_JSON_RANKS_MAX);
	return r;
}

int sc_report_verdict(const struct sc_run_figures *fg, bool quiet)
{
	const struct sc_verdict *v = &fg->verdict;

	if (!quiet)
		sc_report_verdict_table(stdout, v, &fg->outliers);
	else if (v->nfailed)
		fprintf(stderr, "ssdcluster: verdict: FAIL (%u of %u checks)\n", v->nfailed,
			v->nchecks - v->nunmeasured);
	return v->nfailed > 0;
}

struct json_object *sc_report_json_expect(struct jb *b, const struct sc_phase *ph)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	for (uint32_t i = 0; i < ph->nexpect; i++)
		put_figure(b, o, sc_expect_metric_name(ph->expect[i].metric), ph->expect[i].metric,
			   ph->expect[i].value);
	return o;
}

void sc_report_verdict_exit(FILE *f, const struct sc_plan *plan, int status)
{
	const char *why = status == 0	? "every threshold met"
			  : status == 3 ? "a threshold failed"
			  : status == 4 ? "a rank was lost; the verdict is of what was measured"
					: "the run failed; the verdict is of what was measured";

	if (sc_verdict_planned(plan))
		fprintf(f, "exit status %d: %s\n", status, why);
}
