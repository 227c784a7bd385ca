/* echo.c -- the plan as results.json and plan.json echo it: keys, order
 * and values read from the codec's field lists (proto/fields.h), with the
 * few places where the echo has always differed from the messages. */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/plan_figures.h"
#include "fields.h"
#include "mlperf.h"
#include "report_priv.h"
#include "verdict_table.h"

static struct json_object *echo_object(struct jb *b, const struct sc_fields *m, const void *c,
				       const char *from, const char *to);

static uint64_t get_u64(const void *at, size_t size)
{
	uint32_t u32;
	uint64_t u64;
	uint8_t u8;

	switch (size) {
	case sizeof(u8):
		memcpy(&u8, at, size);
		return u8;
	case sizeof(u32):
		memcpy(&u32, at, size);
		return u32;
	default:
		memcpy(&u64, at, sizeof(u64));
		return u64;
	}
}

static int64_t get_i64(const void *at, size_t size)
{
	int32_t i32;
	int64_t i64;

	if (size == sizeof(i32)) {
		memcpy(&i32, at, size);
		return i32;
	}
	memcpy(&i64, at, sizeof(i64));
	return i64;
}

static const void *get_ptr(const void *at)
{
	const void *p;

	memcpy(&p, at, sizeof(p));
	return p;
}

/* The field f of c as JSON: numbers as numbers, enums by name, strings as
 * strings (NULL, and "" where "" stands for NULL, as null), messages as
 * objects and repeated messages as arrays of them. */
static void echo_field(struct jb *b, struct json_object *o, const struct sc_field *f, const char *c)
{
	const char *at = c + f->c_off;
	const char *s, *elems;
	struct json_object *a;
	uint64_t n;
	double d;
	int v;

	switch (f->kind) {
	case SC_FIELD_U32:
	case SC_FIELD_U64:
	case SC_FIELD_U8:
		sc_json_put_u64(b, o, f->name, get_u64(at, f->c_size));
		break;
	case SC_FIELD_I32:
	case SC_FIELD_I64:
		sc_json_put_i64(b, o, f->name, get_i64(at, f->c_size));
		break;
	case SC_FIELD_DOUBLE:
		memcpy(&d, at, sizeof(d));
		sc_json_put_dbl(b, o, f->name, d);
		break;
	case SC_FIELD_BOOL:
		sc_json_put_bool(b, o, f->name, *(const bool *)at);
		break;
	case SC_FIELD_ENUM:
		memcpy(&v, at, sizeof(v));
		sc_json_put_str(b, o, f->name, sc_enum_name(f->names, v));
		break;
	case SC_FIELD_STR:
	case SC_FIELD_STR_OR_NULL:
		s = get_ptr(at);
		sc_json_put_str(b, o, f->name, f->kind == SC_FIELD_STR_OR_NULL && s && !*s ? NULL : s);
		break;
	case SC_FIELD_CHARS:
		sc_json_put_str(b, o, f->name, at);
		break;
	case SC_FIELD_MSG:
	case SC_FIELD_MSG_OPT:
		sc_json_put(b, o, f->name, echo_object(b, f->sub, at, NULL, NULL));
		break;
	case SC_FIELD_ARRAY:
		a = sc_json_new(b, json_object_new_array());
		elems = get_ptr(at);
		n = get_u64(c + f->c_count_off, sizeof(uint32_t));
		for (uint64_t i = 0; i < n; i++)
			sc_json_push(b, a, echo_object(b, f->sub, elems + i * f->c_size, NULL, NULL));
		sc_json_put(b, o, f->name, a);
		break;
	case SC_FIELD_U64S: /* up to the first 0 (each list is 0-ended) */
		a = sc_json_new(b, json_object_new_array());
		for (uint32_t i = 0; i < f->max && ((const uint64_t *)at)[i]; i++)
			sc_json_push(b, a, sc_json_new(b, json_object_new_uint64(
							      ((const uint64_t *)at)[i])));
		sc_json_put(b, o, f->name, a);
		break;
	default:
		break; /* not in a plan */
	}
}

/* Whether number or bool field f of c is 0 (false). */
static bool unset(const struct sc_field *f, const char *c)
{
	if (f->kind == SC_FIELD_BOOL)
		return !*(const bool *)(c + f->c_off);
	if (f->kind == SC_FIELD_U64S) {
		for (uint32_t i = 0; i < f->max; i++)
			if (((const uint64_t *)(c + f->c_off))[i])
				return false;
		return true;
	}
	return get_u64(c + f->c_off, f->c_size) == 0;
}

/* Puts into o the fields of c (a struct of list m) from the one named from
 * to the one named to (NULL: from the first, to the last). */
static void echo_fields(struct jb *b, struct json_object *o, const struct sc_fields *m,
			const void *c, const char *from, const char *to)
{
	bool on = !from;

	for (size_t i = 0; i < m->nfields; i++) {
		const struct sc_field *f = &m->fields[i];

		on = on || strcmp(f->name, from) == 0;
		if (on && !(f->echo_if_set && unset(f, c)))
			echo_field(b, o, f, c);
		if (on && to && strcmp(f->name, to) == 0)
			break;
	}
}

static struct json_object *echo_object(struct jb *b, const struct sc_fields *m, const void *c,
				       const char *from, const char *to)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	echo_fields(b, o, m, c, from, to);
	return o;
}

/* Injected errors as one object, the errno by its name. */
static struct json_object *inject_json(struct jb *b, const struct sc_inject *inj)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "every", inj->every);
	sc_json_put_u64(b, o, "ppm", inj->ppm);
	sc_json_put_str(b, o, "errno", strerrorname_np(inj->errno_val));
	return o;
}

/* A measured latency distribution (n points): {"latency_ns": [...],
 * "count": [...]}, cumulative counts. */
static struct json_object *cdf_json(struct jb *b, const struct sc_emulate_point *p, uint32_t n)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *lat = sc_json_new(b, json_object_new_array());
	struct json_object *cum = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < n; i++) {
		sc_json_push(b, lat, json_object_new_uint64(p[i].latency_ns));
		sc_json_push(b, cum, json_object_new_uint64(p[i].count));
	}
	sc_json_put(b, o, "latency_ns", lat);
	sc_json_put(b, o, "count", cum);
	return o;
}

/* The emulated drive's model as one object. */
static struct json_object *emulate_json(struct jb *b, const struct sc_emulate *em)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "latency_ns", em->latency_ns);
	sc_json_put_u64(b, o, "spread_ns", em->spread_ns);
	sc_json_put_u64(b, o, "bandwidth", em->bandwidth);
	sc_json_put_dbl(b, o, "speed_spread", em->speed_spread);
	sc_json_put_dbl(b, o, "fill_slowdown", em->fill_slowdown);
	sc_json_put_u64(b, o, "fill_capacity", em->fill_capacity);
	sc_json_put_dbl(b, o, "stall_probability", em->stall_probability);
	sc_json_put_u64(b, o, "stall_ns", em->stall_ns);
	if (em->nread_cdf)
		sc_json_put(b, o, "read_cdf", cdf_json(b, em->read_cdf, em->nread_cdf));
	if (em->nwrite_cdf)
		sc_json_put(b, o, "write_cdf", cdf_json(b, em->write_cdf, em->nwrite_cdf));
	return o;
}

/* A training phase's spec, benchmark and accelerator by name (null when
 * not given), then what its plan says: the workload file's v3.0 status
 * (null without one) and the values changed from it, the dataset, the
 * steps and the rules' minimum of files (analysis/plan_figures.h). */
static struct json_object *training_json(struct jb *b, const struct sc_phase *p)
{
	const struct sc_training_spec *t = &p->training;
	struct json_object *o = echo_object(b, &sc_fields_training_spec, t, NULL, NULL);
	struct sc_training_plan_figures f;

	sc_training_plan_figures(p, &f);
	sc_json_put_str(b, o, "benchmark",
			t->benchmark < SC_MLPERF_BENCHMARK_COUNT
			    ? sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)t->benchmark)
			    : NULL);
	sc_json_put_str(b, o, "accelerator",
			t->accelerator < SC_MLPERF_ACCELERATOR_COUNT
			    ? sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)t->accelerator)
			    : NULL);
	sc_json_put_str(b, o, "mlperf_status", f.pair ? sc_mlperf_status_name(f.status) : NULL);
	sc_json_put_str(b, o, "changed_from_workload_file", f.pair ? f.changed : NULL);
	sc_json_put_u64(b, o, "mean_file_bytes", f.mean_file_bytes);
	sc_json_put_u64(b, o, "dataset_bytes", f.dataset_bytes);
	sc_json_put_u64(b, o, "steps_per_epoch", f.steps_per_epoch);
	if (f.min_files) {
		sc_json_put_u64(b, o, "min_files", f.min_files);
		sc_json_put_u64(b, o, "files_below_min", f.files_short);
	} else {
		sc_json_put_null(b, o, "min_files");
		sc_json_put_null(b, o, "files_below_min");
	}
	return o;
}

/* A phase: its own keys and its io spec's in one object, the stonewall
 * among the io keys; the spec of its workload, if any, as an object. */
static struct json_object *phase_json(struct jb *b, const struct sc_phase *p)
{
	struct json_object *o = echo_object(b, &sc_fields_phase, p, NULL, "workload");
	const struct sc_ckpt_spec *ck = &p->ckpt;
	struct json_object *c;

	echo_fields(b, o, &sc_fields_io_spec, &p->io, NULL, "rate_iops");
	echo_fields(b, o, &sc_fields_phase, p, "stonewall", "stonewall");
	echo_fields(b, o, &sc_fields_io_spec, &p->io, "verify", "timeout_ns");
	if (p->io.inject.every || p->io.inject.ppm)
		sc_json_put(b, o, "inject", inject_json(b, &p->io.inject));
	if (p->io.engine == SC_ENGINE_EMULATED)
		sc_json_put(b, o, "emulate", emulate_json(b, &p->io.emulate));
	echo_fields(b, o, &sc_fields_io_spec, &p->io, "compressible_pct", "preallocate");
	/* the I/O options (io_uring's, then placement's): the rest of the spec */
	echo_fields(b, o, &sc_fields_io_spec, &p->io, "sqpoll", NULL);
	if (p->workload == SC_WORKLOAD_CHECKPOINT) {
		/* the model as an object, the layout's keys inline */
		c = echo_object(b, &sc_fields_ckpt_spec, ck, "model", "model");
		echo_fields(b, c, &sc_fields_ckpt_layout, &ck->layout, NULL, NULL);
		echo_fields(b, c, &sc_fields_ckpt_spec, ck, "checkpoints", NULL);
		sc_json_put(b, o, "checkpoint", c);
	} else if (p->workload == SC_WORKLOAD_INGEST) {
		sc_json_put(b, o, "ingest",
		     echo_object(b, &sc_fields_ingest_spec, &p->ingest, NULL, NULL));
	} else if (p->workload == SC_WORKLOAD_TRAINING) {
		sc_json_put(b, o, "training", training_json(b, p));
	} else if (p->workload == SC_WORKLOAD_FILL) {
		sc_json_put(b, o, "fill",
			    echo_object(b, &sc_fields_fill_spec, &p->fill, NULL, NULL));
	}
	if (p->steady.max_rounds)
		sc_json_put(b, o, "steady_state",
			    echo_object(b, &sc_fields_steady_spec, &p->steady, NULL, NULL));
	if (p->nexpect)
		sc_json_put(b, o, "expect", sc_report_json_expect(b, p));
	return o;
}

struct json_object *sc_report_plan_echo(struct jb *b, const struct sc_plan *plan)
{
	struct json_object *o = echo_object(b, &sc_fields_plan, plan, "targets", "targets");
	struct json_object *phases = sc_json_new(b, json_object_new_array());

	for (uint32_t p = 0; p < plan->nphases; p++)
		sc_json_push(b, phases, phase_json(b, &plan->phases[p]));
	sc_json_put(b, o, "phases", phases);
	echo_fields(b, o, &sc_fields_plan, plan, "allow_destroy", NULL);
	return o;
}

char *sc_report_plan_echo_text(const struct sc_plan *plan, size_t *len)
{
	struct jb b = {0};
	struct json_object *o = sc_report_plan_echo(&b, plan);
	char *text = sc_json_text(&b, o, len);
	char *z = text ? realloc(text, *len + 1) : NULL;

	json_object_put(o);
	if (!z) {
		free(text);
		return NULL;
	}
	z[*len] = '\0';
	return z;
}
