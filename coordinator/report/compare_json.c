/* compare_json.c -- a comparison as compare.json: per pair of phases every
 * figure of A and B in its printed unit, the change in % and B's verdict;
 * the sweeps' grids; checkpoint durations; the largest differences. */
#include <json-c/json.h>
#include <math.h>

#include "compare_report.h"
#include "report_priv.h"

/* Side s of v in unit: {"runs", "mean", "sd", "min", "max"}. */
static struct json_object *side_json(struct jb *b, const struct sc_welch_side *w, double scale)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "runs", w->n);
	sc_json_put_dbl(b, o, "mean", w->mean / scale);
	sc_json_put_dbl(b, o, "sd", w->sd / scale);
	sc_json_put_dbl(b, o, "min", w->min / scale);
	sc_json_put_dbl(b, o, "max", w->max / scale);
	return o;
}

/* {"figure", "unit", "a", "b", "change", "change_pct", "verdict",
 * "a_runs", "b_runs" (each side's spread), "interval" (null when
 * unknown)}: every value but the percentages in unit. */
static struct json_object *value_json(struct jb *b, const char *fig, const char *unit, double scale,
				      const struct sc_compare_value *v)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *ci = NULL;

	sc_json_put_str(b, o, "figure", fig);
	sc_json_put_str(b, o, "unit", unit);
	sc_json_put_dbl(b, o, "a", v->a / scale);
	sc_json_put_dbl(b, o, "b", v->b / scale);
	sc_json_put_dbl(b, o, "change", v->change / scale);
	sc_json_put_dbl(b, o, "change_pct", v->change_pct);
	sc_json_put_str(b, o, "verdict", sc_compare_verdict_name(v->verdict));
	sc_json_put(b, o, "a_runs", side_json(b, &v->side[0], scale));
	sc_json_put(b, o, "b_runs", side_json(b, &v->side[1], scale));
	if (sc_compare_has_interval(v)) {
		ci = sc_json_new(b, json_object_new_object());
		sc_json_put_dbl(b, ci, "confidence_pct", SC_WELCH_CONFIDENCE * 100);
		sc_json_put_dbl(b, ci, "low", v->ci_lo / scale);
		sc_json_put_dbl(b, ci, "high", v->ci_hi / scale);
		sc_json_put_dbl(b, ci, "low_pct", v->ci_lo_pct);
		sc_json_put_dbl(b, ci, "high_pct", v->ci_hi_pct);
		sc_json_put_dbl(b, ci, "df", v->ci_df);
	}
	if (ci)
		sc_json_put(b, o, "interval", ci);
	else
		sc_json_put_null(b, o, "interval");
	return o;
}

/* [{"setting", "a", "b"}] of the n settings s. */
static struct json_object *settings_json(struct jb *b, const struct sc_compare_setting *s,
					 uint32_t n)
{
	struct json_object *arr = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < n; i++) {
		struct json_object *o = sc_json_new(b, json_object_new_object());

		sc_json_put_str(b, o, "setting", s[i].name);
		sc_json_put_str(b, o, "a", s[i].a);
		sc_json_put_str(b, o, "b", s[i].b);
		sc_json_push(b, arr, o);
	}
	return arr;
}

/* [{"setting", "a", "b", "pairs", "first", "last"}]: each setting that
 * differs, once. */
static struct json_object *warnings_json(struct jb *b, const struct sc_compare *c)
{
	struct json_object *arr = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < c->nwarnings; i++) {
		const struct sc_compare_warning *w = &c->warnings[i];
		struct json_object *o = sc_json_new(b, json_object_new_object());

		sc_json_put_str(b, o, "setting", w->s->name);
		sc_json_put_str(b, o, "a", w->s->a);
		sc_json_put_str(b, o, "b", w->s->b);
		sc_json_put_u64(b, o, "pairs", w->npairs);
		sc_json_put_str(b, o, "first", w->first);
		sc_json_put_str(b, o, "last", w->last);
		sc_json_push(b, arr, o);
	}
	return arr;
}

static struct json_object *phase_json(struct jb *b, const struct sc_compare *c,
				      const struct sc_compare_phase *p)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *figs = sc_json_new(b, json_object_new_array());

	sc_json_put_str(b, o, "label", p->label);
	sc_json_put_str(b, o, "phase_a", c->a->plan.phases[p->phase_a].name);
	sc_json_put_str(b, o, "phase_b", c->b->plan.phases[p->phase_b].name);
	sc_json_put_str(b, o, "sweep", p->sweep >= 0 ? c->sweeps[p->sweep].name : NULL);
	for (int k = 0; k < SC_CMP_NFIGS; k++) {
		const struct sc_compare_fig_info *fi = sc_compare_fig_info(k);

		sc_json_push(b, figs, value_json(b, fi->name, fi->unit, fi->scale, &p->v[k]));
	}
	sc_json_put(b, o, "figures", figs);
	sc_json_put(b, o, "settings_differences", settings_json(b, p->settings, p->nsettings));
	return o;
}

/* {"name", "axes": {"rw": [..], "bs": [..], "iodepth": [..]}, "cells":
 * [{"rw", "bs", "iodepth", "label"}]}: the axes as labelled ("16->4"). */
static struct json_object *sweep_json(struct jb *b, const struct sc_compare *c,
				      const struct sc_compare_sweep *s)
{
	static const char *const keys[SC_SWEEP_AXES] = {"rw", "bs", "iodepth"};
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *axes = sc_json_new(b, json_object_new_object());
	struct json_object *cells = sc_json_new(b, json_object_new_array());
	uint32_t at[SC_SWEEP_AXES];

	sc_json_put_str(b, o, "name", s->name);
	for (int a = 0; a < SC_SWEEP_AXES; a++) {
		struct json_object *arr = sc_json_new(b, json_object_new_array());

		for (uint32_t i = 0; i < s->naxis[a]; i++)
			sc_json_push(b, arr,
				     sc_json_new(b, json_object_new_string(s->labels[a][i])));
		sc_json_put(b, axes, keys[a], arr);
	}
	sc_json_put(b, o, "axes", axes);
	for (at[0] = 0; at[0] < s->naxis[0]; at[0]++)
		for (at[1] = 0; at[1] < s->naxis[1]; at[1]++)
			for (at[2] = 0; at[2] < s->naxis[2]; at[2]++) {
				const struct sc_compare_phase *p = sc_compare_cell(c, s, at);
				struct json_object *cell = sc_json_new(b, json_object_new_object());

				for (int a = 0; a < SC_SWEEP_AXES; a++)
					sc_json_put_str(b, cell, keys[a], s->labels[a][at[a]]);
				sc_json_put_str(b, cell, "label", p ? p->label : NULL);
				sc_json_push(b, cells, cell);
			}
	sc_json_put(b, o, "cells", cells);
	return o;
}

static struct json_object *seconds_json(struct jb *b, const double *ns, uint32_t n)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < n; i++)
		sc_json_push(b, a, sc_json_new(b, json_object_new_double(ns[i] / 1e9)));
	return a;
}

static struct json_object *ckpt_json(struct jb *b, const struct sc_compare_ckpt *k)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_str(b, o, "name", k->name);
	for (int r = 0; r < 2; r++) {
		struct json_object *run = sc_json_new(b, json_object_new_object());

		sc_json_put(b, run, "write_s", seconds_json(b, k->write_ns[r], k->nwrite[r]));
		sc_json_put(b, run, "restore_s", seconds_json(b, k->restore_ns[r], k->nrestore[r]));
		sc_json_put(b, o, r ? "b" : "a", run);
	}
	sc_json_put(b, o, "write_mean",
		    value_json(b, "checkpoint write (mean)", "s", 1e9, &k->write_mean));
	sc_json_put(b, o, "restore_mean",
		    value_json(b, "checkpoint restore (mean)", "s", 1e9, &k->restore_mean));
	return o;
}

static struct json_object *names_json(struct jb *b, const char *const *names, uint32_t n)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < n; i++)
		sc_json_push(b, a, sc_json_new(b, json_object_new_string(names[i])));
	return a;
}

static struct json_object *run_json(struct jb *b, const char *file, const struct sc_run_record *rec)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_str(b, o, "file", file);
	sc_json_put_str(b, o, "run_id", rec->plan.run_id);
	sc_json_put_str(b, o, "version", rec->version);
	sc_json_put_u64(b, o, "ranks", rec->nranks);
	sc_json_put_u64(b, o, "nodes", rec->nnodes);
	return o;
}

char *sc_report_compare_json(const struct sc_compare *c, const struct sc_compare_files *files,
			     size_t *len)
{
	struct jb b = {0};
	struct json_object *root = sc_json_new(&b, json_object_new_object());
	struct json_object *arr;
	char *text;

	sc_json_put(&b, root, "a", run_json(&b, files->a, c->a));
	sc_json_put(&b, root, "b", run_json(&b, files->b, c->b));
	for (int s = 0; s < 2; s++) {
		arr = sc_json_new(&b, json_object_new_array());
		for (uint32_t r = 0; r < files->n[s]; r++)
			sc_json_push(&b, arr, run_json(&b, files->side[s][r], c->runs[s][r]));
		sc_json_put(&b, root, s ? "b_runs" : "a_runs", arr);
	}
	sc_json_put_dbl(&b, root, "no_difference_within_pct", SC_COMPARE_SAME_PCT);
	sc_json_put_dbl(&b, root, "confidence_pct", SC_WELCH_CONFIDENCE * 100);
	sc_json_put_str(&b, root, "no_difference_rule",
			c->nruns[0] > 1 && c->nruns[1] > 1
			    ? "the interval of B - A holds 0 (Welch's t interval)"
			    : "|change_pct| below no_difference_within_pct (one run on a side: "
			      "the interval is unknown)");
	sc_json_put(&b, root, "settings_differences", warnings_json(&b, c));
	arr = sc_json_new(&b, json_object_new_array());
	for (uint32_t i = 0; i < c->nphases; i++)
		sc_json_push(&b, arr, phase_json(&b, c, &c->phases[i]));
	sc_json_put(&b, root, "phases", arr);
	arr = sc_json_new(&b, json_object_new_array());
	for (uint32_t i = 0; i < c->nsweeps; i++)
		sc_json_push(&b, arr, sweep_json(&b, c, &c->sweeps[i]));
	sc_json_put(&b, root, "sweeps", arr);
	arr = sc_json_new(&b, json_object_new_array());
	for (uint32_t i = 0; i < c->nckpt; i++)
		sc_json_push(&b, arr, ckpt_json(&b, &c->ckpt[i]));
	sc_json_put(&b, root, "checkpoints", arr);
	sc_json_put(&b, root, "only_in_a", names_json(&b, c->only_a, c->nonly_a));
	sc_json_put(&b, root, "only_in_b", names_json(&b, c->only_b, c->nonly_b));
	arr = sc_json_new(&b, json_object_new_array());
	for (uint32_t i = 0; i < c->ndiffs; i++) {
		const struct sc_compare_diff *d = &c->diffs[i];
		struct json_object *o = value_json(&b, d->fig, d->unit, d->scale, d->v);

		sc_json_put_str(&b, o, "label", d->label);
		sc_json_push(&b, arr, o);
	}
	sc_json_put(&b, root, "largest_differences", arr);
	text = sc_json_text(&b, root, len);
	json_object_put(root);
	return text;
}
