/* results_drives.c -- the drives in results.json ("inventory", per phase
 * "drives" and the temperature column of "timeseries", "endurance") and in
 * the run's printed output (drives.h). */
#include "drives.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/inventory.h"
#include "analysis/rank_series.h"
#include "model/endurance.h"
#include "report_priv.h"
#include "telemetry.h"

/* A milli-kelvin temperature in deg C ("38.85"), or NULL for 0 (none). */
static struct json_object *temp_c(uint64_t mk)
{
	char s[32];
	size_t n;

	if (!mk)
		return NULL;
	n = (size_t)snprintf(s, sizeof(s), "%.3f", sc_temp_c(mk));
	while (n > 1 && s[n - 1] == '0')
		s[--n] = '\0';
	if (n > 1 && s[n - 1] == '.')
		s[--n] = '\0';
	return json_object_new_double_s(sc_temp_c(mk), s);
}

/* Pushes v; a NULL v is a JSON null (a temperature none read). */
static void push_maybe(struct jb *b, struct json_object *a, struct json_object *v)
{
	if (!a || json_object_array_add(a, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

void sc_report_json_put_temps(struct jb *b, struct json_object *o, const char *key,
			      const struct sc_second *s, uint32_t n)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t k = 0; k < n && s; k++)
		push_maybe(b, a, temp_c(s[k].max_temp_mk));
	sc_json_put(b, o, key, a);
}

static uint64_t units_bytes(uint64_t units)
{
	uint64_t v;

	return __builtin_mul_overflow(units, SC_NVME_DATA_UNIT_BYTES, &v) ? UINT64_MAX : v;
}

/* A health log as read, or {"unavailable": why}. */
static struct json_object *health_json(struct jb *b, const struct sc_drive_health *h)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	if (!h->valid) {
		sc_json_put_str(b, o, "unavailable",
				h->reason[0] ? h->reason : "health log not read");
		return o;
	}
	sc_json_put_i64(b, o, "temperature_c", h->temperature_c);
	sc_json_put_u64(b, o, "data_units_read", h->data_units_read);
	sc_json_put_u64(b, o, "data_read_bytes", units_bytes(h->data_units_read));
	sc_json_put_u64(b, o, "data_units_written", h->data_units_written);
	sc_json_put_u64(b, o, "data_written_bytes", units_bytes(h->data_units_written));
	sc_json_put_u64(b, o, "media_errors", h->media_errors);
	sc_json_put_u64(b, o, "critical_warning", h->critical_warning);
	sc_json_put_u64(b, o, "percentage_used_pct", h->percentage_used);
	sc_json_put_u64(b, o, "available_spare_pct", h->available_spare);
	sc_json_put_u64(b, o, "available_spare_threshold_pct", h->spare_threshold);
	sc_json_put_u64(b, o, "power_on_hours", h->power_on_hours);
	return o;
}

static void put_identity(struct jb *b, struct json_object *o, const struct sc_inventory_drive *d)
{
	sc_json_put_str(b, o, "device", d->device);
	sc_json_put_str(b, o, "controller", d->controller);
	sc_json_put_str(b, o, "model", d->model);
	sc_json_put_str(b, o, "serial", d->serial);
	sc_json_put_str(b, o, "firmware", d->firmware);
	sc_json_put_u64(b, o, "capacity_bytes", d->capacity_bytes);
}

static const char *target_path(const struct sc_run_record *rec, uint32_t t)
{
	return t < rec->plan.ntargets ? rec->plan.targets[t].path : NULL;
}

struct json_object *sc_report_json_inventory(struct jb *b, const struct sc_run_record *rec,
					     const struct sc_inventory *inv)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < inv->n; i++) {
		const struct sc_inventory_entry *x = &inv->entries[i];
		struct json_object *o = sc_json_new(b, json_object_new_object());
		struct json_object *ranks = sc_json_new(b, json_object_new_array());

		sc_report_json_node_host(b, o, x->node, x->host);
		if (sc_report_json_ranks_kept(rec->nranks)) {
			for (uint32_t k = 0; k < x->nranks; k++)
				sc_json_push(b, ranks, json_object_new_uint64(x->ranks[k]));
			sc_json_put(b, o, "ranks", ranks);
		} else { /* ranks.csv: the rows of this node and target */
			json_object_put(ranks);
			sc_report_json_put_omitted(b, o, "ranks", x->nranks);
		}
		sc_json_put_str(b, o, "target", target_path(rec, x->target));
		if (x->drive)
			put_identity(b, o, x->drive);
		else
			sc_json_put_str(b, o, "telemetry", x->none);
		sc_json_push(b, a, o);
	}
	return a;
}

/* One rank's drives in a phase: identity, health before and after, the
 * media errors added, and its temperature series (null with the reason
 * when its series was not kept: why, else NULL). */
static struct json_object *rank_drives_json(struct jb *b, const struct sc_rank_result *r,
					    const char *why)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *a;
	uint64_t added;

	sc_json_put_u64(b, o, "rank", r->rank);
	if (!r->ndrives) {
		sc_json_put_str(b, o, "telemetry",
				r->telemetry_none[0] ? r->telemetry_none
						     : "not looked at (the rank did not report)");
		return o;
	}
	a = sc_json_new(b, json_object_new_array());
	for (uint32_t k = 0; k < r->ndrives && r->drives; k++) {
		const struct sc_drive *d = &r->drives[k];
		struct json_object *x = sc_json_new(b, json_object_new_object());

		sc_json_put_str(b, x, "device", d->device);
		sc_json_put_str(b, x, "serial", d->serial);
		sc_json_put(b, x, "health_before", health_json(b, &d->before));
		sc_json_put(b, x, "health_after", health_json(b, &d->after));
		sc_json_push(b, a, x);
	}
	sc_json_put(b, o, "drives", a);
	if (sc_telemetry_media_errors(r, &added) == 0)
		sc_json_put_u64(b, o, "media_errors_added", added);
	else
		sc_json_put_null(b, o, "media_errors_added");
	if (why) {
		sc_json_put_null(b, o, "max_temperature_c");
		sc_json_put_str(b, o, "series_not_kept", why);
	} else {
		sc_report_json_put_temps(b, o, "max_temperature_c", r->seconds, r->nseconds);
	}
	return o;
}

struct json_object *sc_report_json_phase_drives(struct jb *b, const struct sc_phase_record *pr)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());
	char buf[SC_SERIES_WHY_MAX];
	const char *why = sc_rank_series_dropped(pr) ? sc_rank_series_why(pr, buf, sizeof(buf))
						     : NULL;

	for (uint32_t i = 0; i < pr->nranks; i++)
		sc_json_push(b, a, rank_drives_json(b, &pr->ranks[i], why));
	return a;
}

static void put_opt_dbl(struct jb *b, struct json_object *o, const char *key, double v)
{
	sc_json_put_dbl(b, o, key, v); /* NAN (unknown) is null */
}

static struct json_object *endurance_drive_json(struct jb *b, const struct sc_run_record *rec,
						const struct sc_endurance_drive *x)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_report_json_node_host(b, o, x->node, x->host);
	sc_json_put_u64(b, o, "first_rank", x->first_rank);
	sc_json_put_str(b, o, "target", target_path(rec, x->target));
	sc_json_put_str(b, o, "device", x->nvme ? x->device : NULL);
	sc_json_put_str(b, o, "model", x->nvme ? x->model : NULL);
	sc_json_put_str(b, o, "serial", x->nvme ? x->serial : NULL);
	sc_json_put_str(b, o, "source", x->source == SC_ENDURANCE_SMART ? "smart" : "counted");
	sc_json_put_u64(b, o, "written_bytes", x->written_bytes);
	sc_json_put_u64(b, o, "counted_bytes", x->counted_bytes);
	if (x->capacity_bytes)
		sc_json_put_u64(b, o, "capacity_bytes", x->capacity_bytes);
	else
		sc_json_put_null(b, o, "capacity_bytes");
	sc_json_put_str(b, o, "capacity_from",
			!x->capacity_bytes	  ? NULL
			: x->capacity_from_config ? "config"
						  : "drive");
	put_opt_dbl(b, o, "drive_writes", x->drive_writes);
	put_opt_dbl(b, o, "rated_lifetime_writes_bytes", x->rated_bytes);
	put_opt_dbl(b, o, "rated_life_used_pct", x->life_used_pct);
	if (x->pct_known) {
		sc_json_put_u64(b, o, "percentage_used_before_pct", x->pct_used_before);
		sc_json_put_u64(b, o, "percentage_used_after_pct", x->pct_used_after);
	}
	return o;
}

struct json_object *sc_report_json_endurance(struct jb *b, const struct sc_run_record *rec,
					     const struct sc_run_figures *fg)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *a;
	struct sc_endurance e;
	char err[256];
	int rc = sc_endurance_of_writes(&fg->writes, &rec->plan, &e, err, sizeof(err));

	if (rc) {
		if (rc == -ENOMEM)
			b->nomem = 1;
		sc_json_put_str(b, o, "error", err);
		return o;
	}
	sc_json_put_str(b, o, "definition",
			"writes: SMART data units written (x 512,000 B) after the last phase - "
			"before the first, else the bytes the run wrote to the target (counted); "
			"rated lifetime writes = dwpd x 365 x warranty years x capacity");
	sc_json_put_dbl(b, o, "dwpd", e.dwpd);
	sc_json_put_dbl(b, o, "warranty_years", e.warranty_years);
	sc_json_put_str(b, o, "rating_from", e.rating_from_config ? "config" : "default");
	a = sc_json_new(b, json_object_new_array());
	for (uint32_t i = 0; i < e.ndrives; i++)
		sc_json_push(b, a, endurance_drive_json(b, rec, &e.drives[i]));
	sc_json_put(b, o, "drives", a);
	sc_endurance_exit(&e);
	return o;
}
