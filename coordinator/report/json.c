/* json.c -- the JSON builder (sc_json_*) that results.json and plan.json
 * are written with, and the plan echo they share. */
#include "report.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "verify.h"
#include "report_priv.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

/* ------------------------------------------------------------ JSON helpers */

struct json_object *sc_json_new(struct jb *b, struct json_object *o)
{
	if (!o)
		b->nomem = 1;
	return o;
}

void sc_json_put(struct jb *b, struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void sc_json_put_null(struct jb *b, struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL))
		b->nomem = 1;
}

void sc_json_push(struct jb *b, struct json_object *a, struct json_object *v)
{
	if (!a || !v || json_object_array_add(a, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void sc_json_put_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v)
{
	sc_json_put(b, o, key, json_object_new_uint64(v));
}

void sc_json_put_i64(struct jb *b, struct json_object *o, const char *key, int64_t v)
{
	sc_json_put(b, o, key, json_object_new_int64(v));
}

void sc_json_put_bool(struct jb *b, struct json_object *o, const char *key, int v)
{
	sc_json_put(b, o, key, json_object_new_boolean(v));
}

void sc_json_put_str(struct jb *b, struct json_object *o, const char *key, const char *s)
{
	if (s)
		sc_json_put(b, o, key, json_object_new_string(s));
	else
		sc_json_put_null(b, o, key);
}

/* The shortest of %.15g / %.17g that reads back as v (json-c would print
 * 1.2e9/7 with 17 digits of noise); non-finite values become null. */
static struct json_object *new_double(double v)
{
	char s[40];

	snprintf(s, sizeof(s), "%.15g", v);
	if (strtod(s, NULL) != v)
		snprintf(s, sizeof(s), "%.17g", v);
	return json_object_new_double_s(v, s);
}

void sc_json_put_dbl(struct jb *b, struct json_object *o, const char *key, double v)
{
	if (isfinite(v))
		sc_json_put(b, o, key, new_double(v));
	else
		sc_json_put_null(b, o, key);
}

void sc_json_put_mbps(struct jb *b, struct json_object *o, const char *key, double bytes_per_s)
{
	sc_json_put_dbl(b, o, key, round(bytes_per_s) / BYTES_PER_MB);
}

char *sc_json_text(struct jb *b, struct json_object *root, size_t *len)
{
	const char *json;
	size_t json_len;
	char *text;

	json = b->nomem ? NULL : json_object_to_json_string_length(root, JSON_FLAGS, &json_len);
	if (!json)
		return NULL;
	/* json-c's buffer ends in a NUL where the newline goes */
	text = malloc(json_len + 1);
	if (!text)
		return NULL;
	memcpy(text, json, json_len);
	text[json_len] = '\n';
	*len = json_len + 1;
	return text;
}

/* ------------------------------------------------------------- plan echo */

static struct json_object *target_json(struct jb *b, const struct sc_target_spec *t)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_str(b, o, "path", t->path);
	jput_str(b, o, "kind", sc_target_kind_name(t->kind));
	jput_u64(b, o, "capacity_bytes", t->capacity_bytes);
	jput_bool(b, o, "keep", t->keep);
	jput_bool(b, o, "allow_destroy", t->allow_destroy);
	jput_str(b, o, "hosts", t->hosts && t->hosts[0] ? t->hosts : NULL);
	jput_bool(b, o, "wipe_signatures_ok", t->wipe_signatures_ok);
	return o;
}

static struct json_object *phase_spec_json(struct jb *b, const struct sc_phase *p)
{
	struct json_object *o = jnew(b, json_object_new_object());
	const struct sc_io_spec *io = &p->io;

	jput_str(b, o, "name", p->name);
	jput_str(b, o, "group", p->group);
	jput_u64(b, o, "config_index", p->config_index);
	jput_u64(b, o, "cell", p->cell);
	jput_u64(b, o, "ncells", p->ncells);
	jput_str(b, o, "workload", sc_workload_name(p->workload));
	jput_str(b, o, "rw", sc_rw_name(io->rw));
	jput_u64(b, o, "rwmixread_pct", io->rwmixread_pct);
	jput_u64(b, o, "bs_bytes", io->bs_bytes);
	jput_u64(b, o, "iodepth", io->iodepth);
	jput_u64(b, o, "jobs", io->jobs);
	jput_u64(b, o, "size_bytes", io->size_bytes);
	jput_u64(b, o, "runtime_ns", io->runtime_ns);
	jput_u64(b, o, "io_bytes", io->io_bytes);
	jput_u64(b, o, "ramp_ns", io->ramp_ns);
	jput_u64(b, o, "fsync_every", io->fsync_every);
	jput_bool(b, o, "direct", io->direct);
	jput_str(b, o, "engine", sc_engine_name(io->engine));
	jput_u64(b, o, "seed", io->seed);
	jput_u64(b, o, "rate_iops", io->rate_iops);
	jput_str(b, o, "stonewall", sc_stonewall_name(p->stonewall));
	jput_str(b, o, "verify", sc_verify_name(io->verify));
	jput_bool(b, o, "verify_only", io->verify_only);
	jput_str(b, o, "on_error", sc_on_error_name(io->on_error));
	jput_u64(b, o, "timeout_ns", io->timeout_ns);
	if (io->inject.every || io->inject.ppm) {
		struct json_object *inj = jnew(b, json_object_new_object());

		jput_u64(b, inj, "every", io->inject.every);
		jput_u64(b, inj, "ppm", io->inject.ppm);
		jput_str(b, inj, "errno", strerrorname_np(io->inject.errno_val));
		jput(b, o, "inject", inj);
	}
	if (p->workload == SC_WORKLOAD_CHECKPOINT) {
		const struct sc_ckpt_spec *ck = &p->ckpt;
		struct json_object *c = jnew(b, json_object_new_object());
		struct json_object *m = jnew(b, json_object_new_object());

		jput_str(b, m, "name", ck->model.name);
		jput_u64(b, m, "layers", ck->model.layers);
		jput_u64(b, m, "hidden", ck->model.hidden);
		jput_u64(b, m, "ffn_hidden", ck->model.ffn_hidden);
		jput_u64(b, m, "heads", ck->model.heads);
		jput_u64(b, m, "kv_heads", ck->model.kv_heads);
		jput_u64(b, m, "vocab", ck->model.vocab);
		jput_u64(b, m, "model_dtype_bytes", ck->model.model_dtype_bytes);
		jput_u64(b, m, "optim_bytes_per_param", ck->model.optim_bytes_per_param);
		jput(b, c, "model", m);
		jput_u64(b, c, "tp", ck->layout.tp);
		jput_u64(b, c, "pp", ck->layout.pp);
		jput_u64(b, c, "dp", ck->layout.dp);
		jput_u64(b, c, "zero_stage", ck->layout.zero_stage);
		jput_u64(b, c, "checkpoints", ck->checkpoints);
		jput_u64(b, c, "index", ck->index);
		jput_bool(b, c, "restore", ck->restore);
		jput_u64(b, c, "restore_shift", ck->restore_shift);
		jput_u64(b, c, "compute_before_ns", ck->compute_before_ns);
		jput_dbl(b, c, "scale", ck->scale);
		jput_bool(b, c, "fsync", ck->fsync);
		jput(b, o, "checkpoint", c);
	} else if (p->workload == SC_WORKLOAD_INGEST) {
		const struct sc_ingest_spec *in = &p->ingest;
		struct json_object *g = jnew(b, json_object_new_object());

		jput_u64(b, g, "files", in->files);
		jput_u64(b, g, "file_bytes", in->file_bytes);
		jput_u64(b, g, "sample_bytes", in->sample_bytes);
		jput_u64(b, g, "batch", in->batch);
		jput_u64(b, g, "compute_per_batch_ns", in->compute_per_batch_ns);
		jput_u64(b, g, "epochs", in->epochs);
		jput_u64(b, g, "prefetch", in->prefetch);
		jput(b, o, "ingest", g);
	}
	return o;
}

struct json_object *report_plan_echo(struct jb *b, const struct sc_plan *plan)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *targets = jnew(b, json_object_new_array());
	struct json_object *phases = jnew(b, json_object_new_array());

	for (uint32_t t = 0; t < plan->ntargets; t++)
		jpush(b, targets, target_json(b, &plan->targets[t]));
	for (uint32_t p = 0; p < plan->nphases; p++)
		jpush(b, phases, phase_spec_json(b, &plan->phases[p]));
	jput(b, o, "targets", targets);
	jput(b, o, "phases", phases);
	jput_bool(b, o, "allow_destroy", plan->allow_destroy);
	return o;
}
