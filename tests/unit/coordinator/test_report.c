/* test_report.c -- results.json/.pb/.csv and plan.json read back and checked. */
#include "report/report.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/aggregate.h"
#include "analysis/figures.h"
#include "check.h"
#include "report/report_priv.h"
#include "report/verdict_table.h"
#include "codec.h"
#include "mlperf.h"

#define MiB (UINT64_C(1) << 20)
#define S   INT64_C(1000000000)

static char tmpdir[100];

/* sc_report_results with run's figures, built here. */
static int results_of(const char *dir, const struct sc_run_record *run, char *err, size_t errlen)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, run);

	if (!rc)
		rc = sc_report_results(dir, run, &fg, err, errlen);
	sc_run_figures_exit(&fg);
	return rc;
}

static char *path_in(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("realloc");
				exit(1);
			}
		}
		size_t got = fread(buf + n, 1, 4096, f);

		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* ------------------------------------------------------------- fixtures */

static void make_plan(struct sc_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->run_id = xstrdup("20250101-test");
	p->config_path = xstrdup("configs/test.yaml");
	p->ntargets = 2;
	p->targets = xcalloc(2, sizeof(*p->targets));
	p->targets[0] = (struct sc_target_spec){.path = xstrdup("/scratch/nvme0"),
						.kind = SC_TARGET_DIR,
						.capacity_bytes = 256 * MiB,
						.keep = true};
	p->targets[1] = (struct sc_target_spec){.path = xstrdup("/dev/fake0"),
						.kind = SC_TARGET_FILE,
						.capacity_bytes = 64 * MiB,
						.allow_destroy = true,
						.hosts = xstrdup("beta*")};
	p->nphases = 2;
	p->phases = xcalloc(2, sizeof(*p->phases));
	p->phases[0] = (struct sc_phase){
	    .nexpect = 5,
	    .expect = xcalloc(5, sizeof(struct sc_expect)),
	    .name = xstrdup("seqwrite"),
	    .group = xstrdup("seqwrite"),
	    .ncells = 1,
	    .io = {.rw = SC_RW_WRITE,
		   .bs_bytes = MiB,
		   .iodepth = 4,
		   .jobs = 2,
		   .size_bytes = 8 * MiB,
		   .io_bytes = 8 * MiB,
		   .fsync_every = 16,
		   .direct = true,
		   .engine = SC_ENGINE_URING,
		   .seed = 42},
	};
	p->phases[1] = (struct sc_phase){
	    .name = xstrdup("sweep[bs=4KiB,iodepth=32]"),
	    .group = xstrdup("sweep"),
	    .config_index = 1,
	    .cell = 1,
	    .ncells = 3,
	    .io = {.rw = SC_RW_RANDRW,
		   .rwmixread_pct = 70,
		   .bs_bytes = 4096,
		   .iodepth = 32,
		   .jobs = 1,
		   .size_bytes = 8 * MiB,
		   .runtime_ns = 2 * S,
		   .ramp_ns = S / 2,
		   .engine = SC_ENGINE_PSYNC,
		   .seed = 7},
	};
	/* one threshold of each unit, so that the verdict's keys are checked */
	p->phases[0].expect[0] = (struct sc_expect){SC_EXPECT_MIN_BW_PER_DRIVE, 1e6};
	p->phases[0].expect[1] = (struct sc_expect){SC_EXPECT_MIN_IOPS, 1};
	p->phases[0].expect[2] = (struct sc_expect){SC_EXPECT_MAX_WRITE_P99, 1e9};
	p->phases[0].expect[3] = (struct sc_expect){SC_EXPECT_MIN_AU, 0.9};
	p->phases[0].expect[4] = (struct sc_expect){SC_EXPECT_STEADY_STATE, 1};
}

static struct sc_hist *hist_of(const uint64_t *values, size_t n)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	sc_hist_init(h);
	for (size_t i = 0; i < n; i++)
		sc_hist_record(h, values[i]);
	return h;
}

/* Rank i of a phase: host "alpha" (node 0) or "beta" (node 1). */
/* Rank 0 on an NVMe drive (health logs read, 45 and 47 deg C in seconds
 * 0 and 2, none in 1; 2 media errors added), rank 1 on none. */
static void make_drive_rows(struct sc_rank_result *r, uint32_t i)
{
	struct sc_drive *d;

	if (i) {
		snprintf(r->telemetry_none, sizeof(r->telemetry_none),
			 "no NVMe telemetry: /mnt/b is on vda (not NVMe)");
		return;
	}
	r->ndrives = 1;
	r->drives = d = xcalloc(1, sizeof(*d));
	snprintf(d->device, sizeof(d->device), "nvme0n1");
	snprintf(d->controller, sizeof(d->controller), "nvme0");
	snprintf(d->model, sizeof(d->model), "PM1733a");
	snprintf(d->serial, sizeof(d->serial), "S6UGNE0R900123");
	snprintf(d->firmware, sizeof(d->firmware), "3.2Q");
	d->capacity_bytes = UINT64_C(3840755982336);
	d->before = (struct sc_drive_health){.valid = true,
					     .temperature_c = 41,
					     .data_units_written = 1000,
					     .media_errors = 1,
					     .percentage_used = 3,
					     .available_spare = 100,
					     .spare_threshold = 10,
					     .power_on_hours = 10};
	d->after = d->before;
	d->after.data_units_written = 1100;
	d->after.media_errors = 3;
	r->seconds[0].max_temp_mk = SC_TEMP_MK_OFFSET + 45000;
	r->seconds[2].max_temp_mk = SC_TEMP_MK_OFFSET + 47000;
}

static void make_rank(struct sc_rank_result *r, uint32_t i, int writes_only, uint64_t scale)
{
	static const uint64_t rlat[] = {1000, 2000, 3000, 50000};
	static const uint64_t wlat[] = {8000, 9000, 12000};
	struct sc_hist *h;

	r->rank = i;
	r->node = i;
	snprintf(r->host, sizeof(r->host), "%s", i ? "beta" : "alpha");
	r->target = i;
	r->clock_offset_ns = i ? -1234 : 0;
	r->start_ns = 100 * (int64_t)i;
	r->end_ns = (2 + (int64_t)i) * S;
	r->planned_bytes = writes_only ? 16 * MiB : 0;
	r->bytes[SC_DIR_WRITE] = (8 + 8 * (uint64_t)i) * MiB * scale;
	r->ios[SC_DIR_WRITE] = 8 + 8 * (uint64_t)i;
	r->fsyncs = writes_only ? 1 : 0;
	r->firstdone_bytes = 4 * MiB;
	if (i == 1) {
		r->errors = 2;
		snprintf(r->error, sizeof(r->error),
			 "write of 4096 B at offset 0 in /dev/fake0: %s", strerror(EIO));
		/* a short read first, then the failed write */
		r->nerrnos = 2;
		r->errnos = xcalloc(2, sizeof(*r->errnos));
		r->errnos[0] = (struct sc_errno_count){.err = 0, .count = 1};
		r->errnos[1] = (struct sc_errno_count){.err = EIO, .count = 1};
		r->nfailures = 2;
		r->failures = xcalloc(2, sizeof(*r->failures));
		r->failures[0] = (struct sc_io_failure){.time_ns = 200, .offset_bytes = 8192,
							.len_bytes = 4096, .err = 0, .op = 0};
		r->failures[1] = (struct sc_io_failure){.time_ns = 300, .offset_bytes = 0,
							.len_bytes = 4096, .err = EIO, .op = 1,
							.job = 3};
		snprintf(r->failures[0].file, sizeof(r->failures[0].file), "run/r1.j0.dat");
	}
	h = hist_of(wlat, 3);
	sc_hist_summarize(h, &r->lat[SC_DIR_WRITE]);
	free(h);
	if (!writes_only) {
		r->bytes[SC_DIR_READ] = 3 * MiB;
		r->ios[SC_DIR_READ] = 768;
		h = hist_of(rlat, 4);
		sc_hist_summarize(h, &r->lat[SC_DIR_READ]);
		free(h);
	}
	r->nseconds = 3;
	r->seconds = xcalloc(3, sizeof(*r->seconds));
	for (uint32_t k = 0; k < 3; k++) {
		r->seconds[k].bytes[SC_DIR_WRITE] = (k + 1) * MiB;
		r->seconds[k].ios[SC_DIR_WRITE] = k + 1;
		r->seconds[k].max_lat_ns[SC_DIR_WRITE] = 10000 + i * 1000 + k;
		if (!writes_only) {
			r->seconds[k].bytes[SC_DIR_READ] = MiB;
			r->seconds[k].ios[SC_DIR_READ] = 256;
			r->seconds[k].max_lat_ns[SC_DIR_READ] = 50000;
		}
	}
	make_drive_rows(r, i);
}

static void make_phase(struct sc_phase_record *ph, uint32_t phase)
{
	static const uint64_t rlat[] = {1000, 2000, 3000, 50000, 1000, 2000, 3000, 50000};
	static const uint64_t wlat[] = {8000, 9000, 12000, 8000, 9000, 12000};
	int writes_only = phase == 0;

	ph->phase = phase;
	ph->measure_start_ns = writes_only ? 0 : S / 2;
	ph->firstdone_ns = 2 * S;
	ph->nranks = 2;
	ph->ranks = xcalloc(2, sizeof(*ph->ranks));
	for (uint32_t i = 0; i < 2; i++)
		make_rank(&ph->ranks[i], i, writes_only, 1);
	ph->lat[SC_DIR_WRITE] = hist_of(wlat, 6);
	ph->lat[SC_DIR_READ] = hist_of(rlat, writes_only ? 0 : 8);
	ph->status = phase ? SC_PHASE_STOPPED_ON_ERROR : SC_PHASE_ERRORS;
	ph->merge_ns = 2500000;
	ph->start_cost_ns = 700000 + phase;
}

static void make_run(struct sc_run_record *run, uint32_t nphases)
{
	memset(run, 0, sizeof(*run));
	run->version = xstrdup("0.1.0-test");
	run->started_unix_ns = INT64_C(1735689600123456789);
	run->nranks = 2;
	run->nnodes = 2;
	run->rank0_peak_rss_bytes = 21 * MiB;
	run->startup_ns = 45000000;
	make_plan(&run->plan);
	run->nphases = nphases;
	run->phases = xcalloc(nphases, sizeof(*run->phases));
	for (uint32_t p = 0; p < nphases; p++)
		make_phase(&run->phases[p], p);
}

/* ---------------------------------------------------------- JSON access */


static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v)) {
		CHECK(0, "key \"%s\" missing", key);
		return NULL;
	}
	return v;
}

static int has_null(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) && v == NULL;
}

static uint64_t get_u64(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	CHECK(v && json_object_is_type(v, json_type_int), "\"%s\" is an integer", key);
	return json_object_get_uint64(v);
}

static int64_t get_i64(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	CHECK(v && json_object_is_type(v, json_type_int), "\"%s\" is an integer", key);
	return json_object_get_int64(v);
}

static double get_dbl(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	CHECK(v && (json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)),
	      "\"%s\" is a number", key);
	return json_object_get_double(v);
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	CHECK(v && json_object_is_type(v, json_type_string), "\"%s\" is a string", key);
	return v ? json_object_get_string(v) : "";
}

static int get_bool(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	CHECK(v && json_object_is_type(v, json_type_boolean), "\"%s\" is a boolean", key);
	return json_object_get_boolean(v);
}

static struct json_object *idx(struct json_object *a, size_t i)
{
	if (!a || !json_object_is_type(a, json_type_array) || i >= json_object_array_length(a)) {
		CHECK(0, "array element %zu missing", i);
		return NULL;
	}
	return json_object_array_get_idx(a, i);
}

static size_t len_of(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want) + 1e-12;
}

/* MB/s figures are rounded to whole bytes per second. */
static int near_mbps(double got_mbps, double bytes_per_s)
{
	return fabs(got_mbps * 1e6 - bytes_per_s) <= 0.5 + 1e-9 * bytes_per_s;
}

/* Keys whose numbers are counts, indices or ratios (no unit to name). */
static const char *const unitless[] = {
    "sqpoll_cpu", /* a CPU's number, as rank and node are */
    "asked_ranks",
    "unavailable_ranks",
    "nranks",
    "nnodes",
    "rank",
    "node",
    "target",
    "index",
    "iodepth",
    "submit_batch", /* I/Os, as iodepth */
    "jobs",
    "fsync_every",
    "seed",
    "cell",
    "ncells",
    "config_index",
    "fsyncs",
    "errors",
    "ranks_with_errors",
    "count",
    "slowest_rank",
    "slowest_node",
    "job",
    "phase",
    "slot",
    "nslots",
    "ios_read",
    "ios_written",
    "volatility_read",
    "volatility_write",
    "files",
    "late_ios",
    "samples",
    "steps",
    "checkpoints",
    "failed_ios",
    "kept_per_rank",
    "verify_blocks_checked",
    "verify_mismatches",
    "blocks_checked",
    "mismatches",
    "ranks_with_mismatches",
    "seq",
    /* drives: counts, indices, a bit field, and units named by the key */
    "ranks",
    "first_rank",
    "dwpd",
    "drive_writes",
    "data_units_read",
    "data_units_written",
    "media_errors",
    "media_errors_added",
    "critical_warning",
    "volatility",
    "cliff_fraction",
    "seconds_analysed",
    "drives",
    "drives_with_cliff",
    "drives_without_series",
    /* steady state: rounds and drives counted, percentages named */
    "max_rounds",
    "round",
    "window",
    "window_rounds",
    "rounds_run",
    "drives_not_steady",
    "range_pct_max",
    "slope_pct_max",
    "ranks_omitted",
    "drives_omitted",
    "errors_omitted",
    "checks_omitted",
    "outliers_omitted",
    "min_cache_rank",
    "passes",
    "random_passes",
    "nchecks",
    "nfailed",
    "not_measured",
    "phase_index",
    "peers",
    "deviations",
    "outlier_k",
    "outlier_mad_floor",
    "outlier_comparisons",
};

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int names_unit(const char *key)
{
	static const char *const sufs[] = {"_ns", "_bytes", "_bytes_per_s", "_per_s", "_MBps",
					   "_pct", "_iops", "_c", "_years", "_hours"};

	for (size_t i = 0; i < sizeof(sufs) / sizeof(sufs[0]); i++)
		if (has_suffix(key, sufs[i]))
			return 1;
	if (!strncmp(key, "iops", 4) || !strncmp(key, "bytes_", 6))
		return 1;
	for (size_t i = 0; i < sizeof(unitless) / sizeof(unitless[0]); i++)
		if (!strcmp(key, unitless[i]))
			return 1;
	return 0;
}

/* Every key holding a number (or an array of numbers) names its unit or is
 * a count; inside a "latency_ns" object the unit is the parent's. */
static void check_units(struct json_object *o, const char *path, int in_latency)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			check_units(json_object_array_get_idx(o, i), path, in_latency);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, v)
	{
		int numeric = v && (json_object_is_type(v, json_type_int) ||
				    json_object_is_type(v, json_type_double));
		struct json_object *first =
		    v && json_object_is_type(v, json_type_array) && json_object_array_length(v)
			? json_object_array_get_idx(v, 0)
			: NULL;

		if (first && (json_object_is_type(first, json_type_int) ||
			      json_object_is_type(first, json_type_double)))
			numeric = 1;
		if (numeric && !in_latency)
			CHECK(names_unit(key), "%s.%s: number without a unit in its name", path,
			      key);
		if (v) {
			char sub[256];

			snprintf(sub, sizeof(sub), "%s.%s", path, key);
			check_units(v, sub, in_latency || !strcmp(key, "latency_ns"));
		}
	}
}

/* ------------------------------------------------------------ checks */

/* The samples p50, p90, p99, p99.9, p99.99, p99.999 and p99.9999 need to be
 * shown: 1 / (1 - p). */
static const uint64_t pct_needs[SC_NPCT] = {2, 10, 100, 1000, 10000, 100000, 1000000};

static void check_lat(struct json_object *o, const struct sc_lat_summary *s, const char *what)
{
	CHECK(get_u64(o, "count") == s->count, "%s count", what);
	if (!s->count) {
		CHECK(has_null(o, "min") && has_null(o, "mean") && has_null(o, "max"),
		      "%s: no I/Os, min/mean/max null", what);
		for (int i = 0; i < SC_NPCT; i++)
			CHECK(has_null(o, sc_pct_names[i]), "%s: no I/Os, %s null", what,
			      sc_pct_names[i]);
		return;
	}
	CHECK(get_u64(o, "min") == s->min_ns, "%s min", what);
	CHECK(get_u64(o, "max") == s->max_ns, "%s max", what);
	CHECK(near(get_dbl(o, "mean"), s->mean_ns), "%s mean", what);
	for (int i = 0; i < SC_NPCT; i++) {
		char key[32], want[64];

		if (s->count >= pct_needs[i]) {
			CHECK(get_u64(o, sc_pct_names[i]) == s->pct_ns[i], "%s %s", what,
			      sc_pct_names[i]);
			continue;
		}
		/* too few samples: null, and what it would have rested on */
		snprintf(key, sizeof(key), "%s_basis", sc_pct_names[i]);
		snprintf(want, sizeof(want), "max of %" PRIu64 " sample%s", s->count,
			 s->count == 1 ? "" : "s");
		CHECK(has_null(o, sc_pct_names[i]), "%s %s: %" PRIu64 " samples, not null", what,
		      sc_pct_names[i], s->count);
		CHECK(!strcmp(get_str(o, key), want), "%s %s: \"%s\"", what, key, get_str(o, key));
	}
}

static void check_plan_echo(struct json_object *plan, const struct sc_plan *p)
{
	struct json_object *targets = get(plan, "targets"), *phases = get(plan, "phases");

	CHECK(len_of(targets) == p->ntargets, "plan.targets has %zu", len_of(targets));
	CHECK(len_of(phases) == p->nphases, "plan.phases has %zu", len_of(phases));
	for (uint32_t t = 0; t < p->ntargets && t < len_of(targets); t++) {
		struct json_object *o = idx(targets, t);
		const struct sc_target_spec *ts = &p->targets[t];

		CHECK(!strcmp(get_str(o, "path"), ts->path), "target %u path", t);
		CHECK(!strcmp(get_str(o, "kind"), sc_target_kind_name(ts->kind)), "target %u kind",
		      t);
		CHECK(get_u64(o, "capacity_bytes") == ts->capacity_bytes, "target %u capacity", t);
		CHECK(get_bool(o, "keep") == ts->keep, "target %u keep", t);
		CHECK(get_bool(o, "allow_destroy") == ts->allow_destroy, "target %u destroy", t);
		if (ts->hosts)
			CHECK(!strcmp(get_str(o, "hosts"), ts->hosts), "target %u hosts", t);
		else
			CHECK(has_null(o, "hosts"), "target %u hosts null", t);
	}
	for (uint32_t i = 0; i < p->nphases && i < len_of(phases); i++) {
		struct json_object *o = idx(phases, i);
		const struct sc_phase *ph = &p->phases[i];
		const struct sc_io_spec *io = &ph->io;

		CHECK(!strcmp(get_str(o, "name"), ph->name), "phase %u name", i);
		CHECK(!strcmp(get_str(o, "group"), ph->group), "phase %u group", i);
		CHECK(get_u64(o, "cell") == ph->cell, "phase %u cell", i);
		CHECK(!strcmp(get_str(o, "workload"), "io"), "phase %u workload", i);
		CHECK(!strcmp(get_str(o, "rw"), sc_rw_name(io->rw)), "phase %u rw", i);
		CHECK(get_u64(o, "rwmixread_pct") == io->rwmixread_pct, "phase %u mix", i);
		CHECK(get_u64(o, "bs_bytes") == io->bs_bytes, "phase %u bs", i);
		CHECK(get_u64(o, "iodepth") == io->iodepth, "phase %u iodepth", i);
		CHECK(get_u64(o, "jobs") == io->jobs, "phase %u jobs", i);
		CHECK(get_u64(o, "size_bytes") == io->size_bytes, "phase %u size", i);
		CHECK(get_u64(o, "runtime_ns") == io->runtime_ns, "phase %u runtime", i);
		CHECK(get_u64(o, "io_bytes") == io->io_bytes, "phase %u io_bytes", i);
		CHECK(get_u64(o, "ramp_ns") == io->ramp_ns, "phase %u ramp", i);
		CHECK(get_u64(o, "fsync_every") == io->fsync_every, "phase %u fsync_every", i);
		CHECK(get_bool(o, "direct") == io->direct, "phase %u direct", i);
		CHECK(!strcmp(get_str(o, "engine"), sc_engine_name(io->engine)), "phase %u engine",
		      i);
		CHECK(get_u64(o, "seed") == io->seed, "phase %u seed", i);
	}
}

static void check_phase_json(struct json_object *o, const struct sc_run_record *run,
			     const struct sc_phase_record *pr)
{
	const struct sc_phase *ph = &run->plan.phases[pr->phase];
	struct json_object *c = get(o, "cluster"), *nodes = get(o, "nodes");
	struct json_object *ranks = get(o, "ranks"), *ts = get(o, "timeseries");
	struct json_object *errors = get(o, "errors"), *lat;
	struct sc_phase_figures f;
	char what[64];

	if (sc_aggregate_phase(pr, &f)) {
		CHECK(0, "aggregate");
		return;
	}
	CHECK(!strcmp(get_str(o, "name"), ph->name), "phase name");
	CHECK(get_u64(o, "index") == pr->phase, "phase index");
	CHECK(!strcmp(get_str(o, "rw"), sc_rw_name(ph->io.rw)), "phase rw");
	CHECK(get_u64(o, "bs_bytes") == ph->io.bs_bytes, "phase bs");
	CHECK(get_u64(o, "iodepth") == ph->io.iodepth, "phase iodepth");
	CHECK(get_u64(o, "jobs") == ph->io.jobs, "phase jobs");

	CHECK(get_u64(c, "bytes_read") == f.bytes[SC_DIR_READ], "bytes_read");
	CHECK(get_u64(c, "bytes_written") == f.bytes[SC_DIR_WRITE], "bytes_written");
	CHECK(get_u64(c, "total_bytes") == f.total_bytes, "total_bytes");
	CHECK(get_u64(c, "planned_bytes") == f.planned_bytes, "planned_bytes");
	CHECK(get_u64(c, "ios_read") == f.ios[SC_DIR_READ], "ios_read");
	CHECK(get_u64(c, "ios_written") == f.ios[SC_DIR_WRITE], "ios_written");
	CHECK(get_u64(c, "fsyncs") == f.fsyncs, "fsyncs");
	CHECK(get_u64(c, "errors") == 2, "errors");
	CHECK(get_i64(c, "window_start_ns") == f.window_start_ns, "window_start_ns");
	CHECK(get_i64(c, "lastdone_ns") == 3 * S, "lastdone_ns");
	CHECK(get_i64(c, "firstdone_ns") == 2 * S, "firstdone_ns");
	CHECK(get_i64(c, "start_skew_ns") == 100, "start_skew_ns");
	CHECK(near(get_dbl(c, "lastdone_bw_bytes_per_s"), f.lastdone_bw_bytes_per_s),
	      "lastdone bw");
	CHECK(near_mbps(get_dbl(c, "lastdone_bw_MBps"), f.lastdone_bw_bytes_per_s),
	      "lastdone MBps");
	CHECK(get_u64(c, "firstdone_bytes") == 8 * MiB, "firstdone_bytes");
	CHECK(near(get_dbl(c, "firstdone_bw_bytes_per_s"), f.firstdone_bw_bytes_per_s),
	      "firstdone bw");
	CHECK(near_mbps(get_dbl(c, "firstdone_bw_MBps"), f.firstdone_bw_bytes_per_s),
	      "firstdone MBps");
	CHECK(near(get_dbl(c, "iops"), f.iops_total), "iops");
	CHECK(near(get_dbl(c, "iops_read"), f.iops[SC_DIR_READ]), "iops_read");
	CHECK(near(get_dbl(c, "iops_write"), f.iops[SC_DIR_WRITE]), "iops_write");
	for (int d = 0; d < SC_DIR_COUNT; d++) { /* undefined (NAN): null */
		const char *k = d == SC_DIR_READ ? "volatility_read" : "volatility_write";

		CHECK(isnan(f.volatility[d]) ? has_null(c, k) : near(get_dbl(c, k), f.volatility[d]),
		      "%s", k);
	}
	lat = get(c, "latency_ns");
	check_lat(get(lat, "read"), &f.lat[SC_DIR_READ], "cluster read");
	check_lat(get(lat, "write"), &f.lat[SC_DIR_WRITE], "cluster write");
	CHECK(get_u64(c, "slowest_rank") == 1, "slowest_rank");
	CHECK(get_u64(c, "slowest_node") == 1, "slowest_node");
	CHECK(!strcmp(get_str(c, "slowest_host"), "beta"), "slowest_host");

	CHECK(len_of(nodes) == f.nodes_len, "%zu node rows", len_of(nodes));
	for (uint32_t n = 0; n < f.nodes_len && n < len_of(nodes); n++) {
		struct json_object *no = idx(nodes, n);
		const struct sc_node_row *row = &f.nodes[n];

		CHECK(get_u64(no, "node") == row->node, "node %u index", n);
		CHECK(!strcmp(get_str(no, "host"), row->host), "node %u host", n);
		CHECK(get_u64(no, "nranks") == row->nranks, "node %u nranks", n);
		CHECK(get_u64(no, "bytes_read") == row->bytes[SC_DIR_READ], "node %u read", n);
		CHECK(get_u64(no, "bytes_written") == row->bytes[SC_DIR_WRITE], "node %u write", n);
		CHECK(get_u64(no, "errors") == row->errors, "node %u errors", n);
		CHECK(get_i64(no, "start_ns") == row->start_ns, "node %u start", n);
		CHECK(get_i64(no, "end_ns") == row->end_ns, "node %u end", n);
		CHECK(near(get_dbl(no, "bw_bytes_per_s"), row->bw_bytes_per_s), "node %u bw", n);
		CHECK(near_mbps(get_dbl(no, "bw_MBps"), row->bw_bytes_per_s), "node %u MBps", n);
	}

	CHECK(len_of(ranks) == pr->nranks, "%zu rank rows", len_of(ranks));
	for (uint32_t i = 0; i < pr->nranks && i < len_of(ranks); i++) {
		struct json_object *ro = idx(ranks, i);
		const struct sc_rank_result *r = &pr->ranks[i];

		CHECK(get_u64(ro, "rank") == r->rank, "rank %u", i);
		CHECK(get_u64(ro, "node") == r->node, "rank %u node", i);
		CHECK(!strcmp(get_str(ro, "host"), r->host), "rank %u host", i);
		CHECK(get_u64(ro, "target") == r->target, "rank %u target", i);
		CHECK(get_i64(ro, "clock_offset_ns") == r->clock_offset_ns, "rank %u offset", i);
		CHECK(get_i64(ro, "start_ns") == r->start_ns, "rank %u start", i);
		CHECK(get_i64(ro, "end_ns") == r->end_ns, "rank %u end", i);
		CHECK(get_u64(ro, "planned_bytes") == r->planned_bytes, "rank %u planned", i);
		CHECK(get_u64(ro, "bytes_read") == r->bytes[SC_DIR_READ], "rank %u read", i);
		CHECK(get_u64(ro, "bytes_written") == r->bytes[SC_DIR_WRITE], "rank %u written", i);
		CHECK(get_u64(ro, "ios_read") == r->ios[SC_DIR_READ], "rank %u ios_read", i);
		CHECK(get_u64(ro, "ios_written") == r->ios[SC_DIR_WRITE], "rank %u ios_written", i);
		CHECK(get_u64(ro, "fsyncs") == r->fsyncs, "rank %u fsyncs", i);
		CHECK(get_u64(ro, "firstdone_bytes") == r->firstdone_bytes, "rank %u firstdone", i);
		CHECK(get_u64(ro, "errors") == r->errors, "rank %u errors", i);
		{
			int64_t from =
			    r->start_ns > pr->measure_start_ns ? r->start_ns : pr->measure_start_ns;
			double bw =
			    (double)(r->bytes[0] + r->bytes[1]) * 1e9 / (double)(r->end_ns - from);

			CHECK(near(get_dbl(ro, "bw_bytes_per_s"), bw), "rank %u bw", i);
			CHECK(near_mbps(get_dbl(ro, "bw_MBps"), bw), "rank %u MBps", i);
		}
		if (r->error[0])
			CHECK(!strcmp(get_str(ro, "error"), r->error), "rank %u error", i);
		else
			CHECK(has_null(ro, "error"), "rank %u error null", i);
		lat = get(ro, "latency_ns");
		snprintf(what, sizeof(what), "rank %u read", i);
		check_lat(get(lat, "read"), &r->lat[SC_DIR_READ], what);
		snprintf(what, sizeof(what), "rank %u write", i);
		check_lat(get(lat, "write"), &r->lat[SC_DIR_WRITE], what);
	}

	CHECK(get_u64(ts, "second_ns") == 1000000000u, "second_ns");
	{
		static const char *const keys[] = {
		    "bytes_read",  "bytes_written",	  "ios_read",
		    "ios_written", "max_latency_read_ns", "max_latency_write_ns"};
		for (int k = 0; k < 6; k++) {
			struct json_object *a = get(ts, keys[k]);

			CHECK(len_of(a) == f.nseconds, "%s has %zu seconds", keys[k], len_of(a));
			for (uint32_t s = 0; s < f.nseconds && s < len_of(a); s++) {
				const struct sc_second *sec = &f.seconds[s];
				uint64_t want = k == 0	 ? sec->bytes[0]
						: k == 1 ? sec->bytes[1]
						: k == 2 ? sec->ios[0]
						: k == 3 ? sec->ios[1]
						: k == 4 ? sec->max_lat_ns[0]
							 : sec->max_lat_ns[1];

				CHECK(json_object_get_uint64(idx(a, s)) == want, "%s[%u]", keys[k],
				      s);
			}
		}
	}
	CHECK(!strcmp(get_str(o, "status"), pr->phase ? "stopped_on_error" : "errors"),
	      "phase status %s", get_str(o, "status"));
	{
		struct json_object *ie = get(o, "io_errors"), *by = get(ie, "by_errno");
		struct json_object *first = get(ie, "first_failures");
		struct json_object *r1 = idx(ranks, 1), *kept = get(r1, "failures");

		CHECK(get_u64(ie, "failed_ios") == 2 && get_u64(ie, "kept_per_rank") == 100,
		      "io_errors counts");
		CHECK(len_of(by) == 2 && !strcmp(get_str(idx(by, 0), "errno"), "short") &&
			  get_u64(idx(by, 0), "count") == 1 &&
			  !strcmp(get_str(idx(by, 1), "errno"), "EIO") &&
			  get_u64(idx(by, 1), "count") == 1,
		      "io_errors.by_errno: short 1, EIO 1");
		CHECK(len_of(first) == 2, "%zu first failures", len_of(first));
		if (len_of(first) == 2) {
			struct json_object *f0 = idx(first, 0), *f1 = idx(first, 1);

			CHECK(get_u64(f0, "rank") == 1 && !strcmp(get_str(f0, "host"), "beta") &&
				  get_u64(f0, "target") == 1 &&
				  !strcmp(get_str(f0, "path"), run->plan.targets[1].path) &&
				  !strcmp(get_str(f0, "file"), "run/r1.j0.dat") &&
				  !strcmp(get_str(f0, "op"), "read") &&
				  !strcmp(get_str(f0, "errno"), "short") &&
				  get_u64(f0, "offset_bytes") == 8192 &&
				  get_u64(f0, "len_bytes") == 4096 && get_i64(f0, "time_ns") == 200,
			      "first failure: the short read of rank 1");
			CHECK(!strcmp(get_str(f1, "op"), "write") &&
				  !strcmp(get_str(f1, "errno"), "EIO") && get_u64(f1, "job") == 3 &&
				  get_u64(f1, "offset_bytes") == 0 && !strcmp(get_str(f1, "file"), ""),
			      "second failure: the EIO write");
		}
		CHECK(len_of(get(r1, "errors_by_errno")) == 2 && len_of(kept) == 2 &&
			  len_of(get(idx(ranks, 0), "failures")) == 0,
		      "rank rows: rank 1 keeps 2 failures, rank 0 none");
	}
	CHECK(len_of(errors) == 1, "%zu error lines", len_of(errors));
	if (len_of(errors) == 1) {
		char want[512];

		snprintf(want, sizeof(want), "rank 1 (beta): %s (2 failed I/Os)",
			 pr->ranks[1].error);
		CHECK(!strcmp(json_object_get_string(idx(errors, 0)), want), "error line \"%s\"",
		      json_object_get_string(idx(errors, 0)));
	}
	sc_phase_figures_exit(&f);
}

static void compare_run(const struct sc_run_record *a, const struct sc_run_record *b)
{
	CHECK(!strcmp(a->version, b->version), "pb version");
	CHECK(a->started_unix_ns == b->started_unix_ns, "pb started");
	CHECK(a->nranks == b->nranks && a->nnodes == b->nnodes, "pb ranks/nodes");
	CHECK(!strcmp(a->plan.run_id, b->plan.run_id), "pb run_id");
	CHECK(!strcmp(a->plan.config_path, b->plan.config_path), "pb config");
	CHECK(a->plan.ntargets == b->plan.ntargets && a->plan.nphases == b->plan.nphases,
	      "pb plan sizes");
	for (uint32_t t = 0; t < a->plan.ntargets && t < b->plan.ntargets; t++) {
		const struct sc_target_spec *x = &a->plan.targets[t], *y = &b->plan.targets[t];

		CHECK(!strcmp(x->path, y->path) && x->kind == y->kind &&
			  x->capacity_bytes == y->capacity_bytes && x->keep == y->keep &&
			  x->allow_destroy == y->allow_destroy &&
			  ((!x->hosts && !y->hosts) ||
			   (x->hosts && y->hosts && !strcmp(x->hosts, y->hosts))),
		      "pb target %u", t);
	}
	for (uint32_t p = 0; p < a->plan.nphases && p < b->plan.nphases; p++) {
		const struct sc_phase *x = &a->plan.phases[p], *y = &b->plan.phases[p];

		CHECK(!strcmp(x->name, y->name) && !strcmp(x->group, y->group) &&
			  x->config_index == y->config_index && x->cell == y->cell &&
			  x->ncells == y->ncells && x->workload == y->workload &&
			  !memcmp(&x->io, &y->io, sizeof(x->io)),
		      "pb phase %u", p);
	}
	CHECK(a->nphases == b->nphases, "pb nphases");
	for (uint32_t p = 0; p < a->nphases && p < b->nphases; p++) {
		const struct sc_phase_record *x = &a->phases[p], *y = &b->phases[p];

		CHECK(x->phase == y->phase && x->measure_start_ns == y->measure_start_ns &&
			  x->firstdone_ns == y->firstdone_ns && x->nranks == y->nranks &&
			  x->status == y->status,
		      "pb phase record %u", p);
		for (uint32_t i = 0; i < x->nranks && i < y->nranks; i++) {
			const struct sc_rank_result *r = &x->ranks[i], *s = &y->ranks[i];

			CHECK(
			    r->rank == s->rank && r->node == s->node && !strcmp(r->host, s->host) &&
				r->target == s->target &&
				r->clock_offset_ns == s->clock_offset_ns &&
				r->start_ns == s->start_ns && r->end_ns == s->end_ns &&
				r->planned_bytes == s->planned_bytes &&
				!memcmp(r->bytes, s->bytes, sizeof(r->bytes)) &&
				!memcmp(r->ios, s->ios, sizeof(r->ios)) && r->fsyncs == s->fsyncs &&
				r->firstdone_bytes == s->firstdone_bytes &&
				r->errors == s->errors && !strcmp(r->error, s->error) &&
				!memcmp(r->lat, s->lat, sizeof(r->lat)) &&
				r->nseconds == s->nseconds &&
				!memcmp(r->seconds, s->seconds, r->nseconds * sizeof(*r->seconds)),
			    "pb phase %u rank %u", p, i);
		}
		for (int d = 0; d < SC_DIR_COUNT; d++)
			CHECK(y->lat[d] && !memcmp(x->lat[d], y->lat[d], sizeof(*x->lat[d])),
			      "pb phase %u histogram %d", p, d);
	}
}

/* Splits one CSV line into fields (RFC 4180 quoting); returns the count. */
static int csv_fields(const char *line, char fields[][128], int max)
{
	int n = 0;

	while (n < max) {
		size_t k = 0;
		int quoted = *line == '"';

		if (quoted)
			line++;
		while (*line && *line != '\n') {
			if (quoted && *line == '"') {
				if (line[1] == '"') {
					line++;
				} else {
					line++;
					quoted = 0;
					continue;
				}
			} else if (!quoted && *line == ',') {
				break;
			}
			if (k < 127)
				fields[n][k++] = *line;
			line++;
		}
		fields[n++][k] = '\0';
		if (*line != ',')
			break;
		line++;
	}
	return n;
}

/* Lines of a CSV text; fields of line i into out. */
static int csv_line(const char *text, int i, char fields[][128], int max)
{
	for (; i > 0 && text; i--) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	if (!text || !*text)
		return 0;
	return csv_fields(text, fields, max);
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/* The columns of ranks.csv: the first ten as they always were, then (added
 * at the end) where and when, counters, latency summaries, the error, the
 * drive's figures and the workloads' own. */
#define RANKS_CSV_FIELDS 35
static const char ranks_csv_header[] =
    "phase,rank,node,host,bytes,MBps,read_p99_us,write_p99_us,errors,verify_mismatches,"
    "target,start_ns,end_ns,bytes_read,bytes_written,ios_read,ios_written,iops,fsyncs,"
    "firstdone_bytes,clock_offset_ns,read_mean_us,read_p50_us,read_p99.9_us,read_max_us,"
    "write_mean_us,write_p50_us,write_p99.9_us,write_max_us,error,media_errors_added,"
    "max_temperature_C,cliff_start_ns,cache_bytes,au_pct\n";

/* ranks.csv's rows of run (nrows in all, phase by phase, rank by rank):
 * every field there, and make_rank's values in the new columns. */
static void check_ranks_csv(const char *ranks, const struct sc_run_record *run, uint32_t nrows)
{
	static char f[RANKS_CSV_FIELDS + 1][128];
	int line = 1;

	CHECK(ranks && !strncmp(ranks, ranks_csv_header, strlen(ranks_csv_header)),
	      "ranks.csv header, new columns at its end");
	for (uint32_t p = 0; ranks && p < run->nphases; p++) {
		for (uint32_t i = 0; i < run->phases[p].nranks; i++, line++) {
			const struct sc_rank_result *r = &run->phases[p].ranks[i];
			char want[64];

			CHECK(csv_line(ranks, line, f, RANKS_CSV_FIELDS + 1) == RANKS_CSV_FIELDS,
			      "ranks.csv row %d has %d fields", line, RANKS_CSV_FIELDS);
			snprintf(want, sizeof(want), "%u", r->rank);
			CHECK(!strcmp(f[1], want), "row %d rank %s", line, f[1]);
			snprintf(want, sizeof(want), "%" PRId64, r->end_ns);
			CHECK(!strcmp(f[12], want), "row %d end_ns %s, want %s", line, f[12], want);
			snprintf(want, sizeof(want), "%" PRIu64, r->bytes[SC_DIR_WRITE]);
			CHECK(!strcmp(f[14], want), "row %d bytes_written %s", line, f[14]);
			snprintf(want, sizeof(want), "%.3f",
				 r->lat[SC_DIR_WRITE].pct_ns[3] / 1e3); /* p99.9 */
			if (r->lat[SC_DIR_WRITE].count < pct_needs[3])
				want[0] = '\0'; /* too few samples: an empty cell */
			CHECK(!strcmp(f[27], want), "row %d write_p99.9_us %s, want %s", line,
			      f[27], want);
			CHECK(!strcmp(f[29], r->error), "row %d error \"%s\"", line, f[29]);
			/* make_drive_rows: 2 media errors added, 47 deg C the hottest
			 * second; without the rank's series no temperature */
			CHECK(!strcmp(f[30], r->ndrives ? "2" : ""), "row %d media errors %s", line,
			      f[30]);
			CHECK(!strcmp(f[31], r->ndrives && r->nseconds ? "47.000" : ""),
			      "row %d max_temperature_C %s", line, f[31]);
		}
	}
	CHECK(line == 1 + (int)nrows, "%d rows checked of %u", line - 1, nrows);
}

static void check_csvs(const char *dir, const struct sc_run_record *run)
{
	static const char phases_header[] =
	    "phase,rw,lastdone_MBps,firstdone_MBps,iops,read_p50_us,read_p99_us,"
	    "read_p99.99_us,write_p50_us,write_p99_us,write_p99.99_us,slowest_rank,"
	    "slowest_host,errors,verify_mismatches,status\n";
	char path[256], f[16][128];
	char *phases = slurp(path_in(path, sizeof(path), dir, "phases.csv"), NULL);
	char *ranks = slurp(path_in(path, sizeof(path), dir, "ranks.csv"), NULL);
	uint32_t nrows = 0;

	CHECK(phases && !strncmp(phases, phases_header, strlen(phases_header)),
	      "phases.csv header");
	CHECK(count_lines(phases) == 1 + (int)run->nphases, "phases.csv has %d lines",
	      count_lines(phases));
	for (uint32_t p = 0; p < run->nphases; p++)
		nrows += run->phases[p].nranks;
	CHECK(count_lines(ranks) == 1 + (int)nrows, "ranks.csv has %d lines", count_lines(ranks));
	{
		/* one row per second of each phase's cluster series */
		char *series = slurp(path_in(path, sizeof(path), dir, "timeseries.csv"), NULL);
		int seconds = 0;

		for (uint32_t p = 0; p < run->nphases; p++) {
			struct sc_phase_figures fig;

			if (sc_aggregate_phase(&run->phases[p], &fig) == 0) {
				seconds += (int)fig.nseconds;
				sc_phase_figures_exit(&fig);
			}
		}
		CHECK(series && !strncmp(series, "phase,second,read_MB,written_MB,", 32),
		      "timeseries.csv header");
		CHECK(seconds > 0 && count_lines(series) == 1 + seconds,
		      "timeseries.csv has %d lines for %d seconds", count_lines(series), seconds);
		free(series);
	}
	for (uint32_t p = 0; phases && p < run->nphases; p++) {
		const struct sc_phase_record *pr = &run->phases[p];
		struct sc_phase_figures fig;
		char want[64];

		CHECK(csv_line(phases, 1 + (int)p, f, 16) == 16, "phases.csv row %u has 16 fields",
		      p);
		if (sc_aggregate_phase(pr, &fig))
			continue;
		CHECK(!strcmp(f[0], run->plan.phases[pr->phase].name), "row %u name \"%s\"", p,
		      f[0]);
		snprintf(want, sizeof(want), "%.3f", fig.lastdone_bw_bytes_per_s / 1e6);
		CHECK(!strcmp(f[2], want), "row %u lastdone MB/s %s, want %s", p, f[2], want);
		if (fig.lat[SC_DIR_READ].count) {
			snprintf(want, sizeof(want), "%.3f", fig.lat[SC_DIR_READ].pct_ns[2] / 1e3);
			if (fig.lat[SC_DIR_READ].count < pct_needs[2])
				want[0] = '\0'; /* p99 from < 100 samples: empty */
			CHECK(!strcmp(f[6], want), "row %u read p99 %s, want %s us", p, f[6], want);
		} else {
			CHECK(!f[5][0] && !f[6][0] && !f[7][0], "row %u: no reads, empty", p);
		}
		snprintf(want, sizeof(want), "%.3f", fig.lat[SC_DIR_WRITE].pct_ns[0] / 1e3);
		CHECK(!strcmp(f[8], want), "row %u write p50 %s, want %s us", p, f[8], want);
		CHECK(!strcmp(f[11], "1") && !strcmp(f[12], "beta") && !strcmp(f[13], "2"),
		      "row %u slowest and errors", p);
		CHECK(!strcmp(f[14], "0"), "row %u verify_mismatches %s", p, f[14]);
		CHECK(!strcmp(f[15], sc_phase_status_name(pr->status)), "row %u status %s", p,
		      f[15]);
		sc_phase_figures_exit(&fig);
	}
	check_ranks_csv(ranks, run, nrows);
	free(phases);
	free(ranks);
}

/* make_drive_rows' drives in results.json: inventory, the phase's drives
 * rows, the temperature series (null = none), endurance from SMART. */
static void check_drives_json(struct json_object *root)
{
	struct json_object *inv = get(root, "inventory"), *ph = idx(get(root, "phases"), 1);
	struct json_object *rows = get(ph, "drives"), *ts = get(get(ph, "timeseries"),
							       "max_temperature_c");
	struct json_object *en = idx(get(get(root, "endurance"), "drives"), 0);

	CHECK(len_of(inv) == 2, "inventory: 2 entries, got %zu", len_of(inv));
	CHECK(!strcmp(get_str(idx(inv, 0), "serial"), "S6UGNE0R900123") &&
		  get_u64(idx(inv, 0), "capacity_bytes") == UINT64_C(3840755982336),
	      "inventory[0]: the drive");
	CHECK(strstr(get_str(idx(inv, 1), "telemetry"), "no NVMe telemetry"),
	      "inventory[1]: no NVMe telemetry");
	CHECK(get_u64(get(idx(get(idx(rows, 0), "drives"), 0), "health_after"), "media_errors") ==
		      3 &&
		  get_u64(idx(rows, 0), "media_errors_added") == 2,
	      "rank 0: 3 media errors after, 2 added");
	CHECK(get_dbl(get(idx(get(idx(rows, 0), "drives"), 0), "health_before"),
		      "temperature_c") == 41,
	      "rank 0: 41 deg C before");
	CHECK(strstr(get_str(idx(rows, 1), "telemetry"), "no NVMe telemetry"), "rank 1: none");
	CHECK(len_of(ts) == 3 && json_object_get_double(idx(ts, 0)) == 45.0 && !idx(ts, 1) &&
		  json_object_get_double(idx(ts, 2)) == 47.0,
	      "cluster temperature: 45, null, 47 deg C");
	CHECK(!strcmp(get_str(en, "source"), "smart") &&
		  get_u64(en, "written_bytes") == UINT64_C(100) * 512000 &&
		  get_u64(en, "percentage_used_after_pct") == 3,
	      "endurance: 100 data units x 512,000 B from SMART");
	CHECK(has_null(idx(get(get(root, "endurance"), "drives"), 1), "drive_writes"),
	      "endurance: no capacity for a target without NVMe: null");
}

/* The run's one sweep: cell 1 of 3 of group "sweep" (the plan holds only
 * that cell), its figures the same as its phase's (ph). */
static void check_sweeps(struct json_object *sweeps, struct json_object *ph)
{
	struct json_object *sw, *cells, *c, *axes;

	CHECK(len_of(sweeps) == 1, "%zu sweeps", len_of(sweeps));
	if (len_of(sweeps) != 1)
		return;
	CHECK(!strcmp(get_str(idx(sweeps, 0), "name"), "sweep"), "sweep name");
	sw = get(idx(sweeps, 0), "sweep");
	axes = get(sw, "axes");
	CHECK(len_of(get(axes, "bs_bytes")) == 1 && len_of(get(axes, "iodepth")) == 1 &&
		  !strcmp(json_object_get_string(idx(get(axes, "rw"), 0)), "randrw"),
	      "axes of the one cell");
	cells = get(sw, "cells");
	CHECK(len_of(cells) == 1, "%zu cells, want the plan's 1", len_of(cells));
	if (len_of(cells) != 1)
		return;
	c = idx(cells, 0);
	CHECK(get_u64(c, "cell") == 1 && get_u64(c, "bs_bytes") == 4096 &&
		  get_u64(c, "iodepth") == 32 && json_object_get_boolean(get(c, "measured")),
	      "the cell: its number, bs, iodepth, measured");
	CHECK(get_dbl(get(c, "cluster"), "bw_MBps") ==
		      get_dbl(get(ph, "cluster"), "lastdone_bw_MBps") &&
		  get_dbl(get(c, "cluster"), "iops") == get_dbl(get(ph, "cluster"), "iops"),
	      "the cell's cluster figures are its phase's");
	CHECK(len_of(get(c, "nodes")) == len_of(get(ph, "nodes")), "a row per node");
}

/* report.html of make_run's run: its drives (model, serial, firmware, or
 * why none) and the temperatures make_drive_rows read, in their sections. */
static void check_html(const char *dir)
{
	static const char *const want[] = {
	    "<td>PM1733a</td><td>S6UGNE0R900123</td><td>3.2Q</td>",
	    "no NVMe telemetry: /mnt/b is on vda (not NVMe)",
	    "<section id=\"temperature\">",
	    "temperature (deg C)",
	    "<section id=\"phase-table\">",
	};
	char path[256];
	size_t len;
	char *page = slurp(path_in(path, sizeof(path), dir, "report.html"), &len);

	CHECK(page, "report.html readable");
	if (!page)
		return;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(strstr(page, want[i]), "report.html holds %s", want[i]);
	CHECK(!strstr(page, "<script"), "report.html holds no script");
	free(page);
}

static void test_results(void)
{
	struct sc_run_record run, back;
	char dir[128], path[256], err[256] = "", names[512];
	struct json_object *root;
	uint8_t *buf;
	size_t len;
	int rc;

	make_run(&run, 1);
	snprintf(dir, sizeof(dir), "%s/run1", tmpdir);
	/* after the first phase */
	rc = results_of(dir, &run, err, sizeof(err));
	CHECK(rc == 0, "results after phase 0: %d %s", rc, err);
	sc_run_record_exit(&run);

	/* after the second: every file replaced, nothing else left behind */
	make_run(&run, 2);
	rc = results_of(dir, &run, err, sizeof(err));
	CHECK(rc == 0, "results after phase 1: %d %s", rc, err);
	check_list_dir(dir, names, sizeof(names));
	CHECK(!strcmp(names, "phases.csv ranks.csv report.html results.json results.pb sweep.csv "
			     "timeseries.csv"),
	      "files: %s", names);
	check_html(dir);

	root = json_object_from_file(path_in(path, sizeof(path), dir, "results.json"));
	CHECK(root, "results.json parses: %s", json_util_get_last_err());
	if (root) {
		struct json_object *defs = get(root, "definitions"), *phases = get(root, "phases");

		check_units(root, "", 0);
		check_drives_json(root);
		/* the verdict's checks carry their units: one of each kind */
		CHECK(get_i64(get(root, "verdict"), "nchecks") >= 5, "verdict checks");
		CHECK(get(json_object_array_get_idx(get(get(root, "plan"), "phases"), 0), "expect"),
		      "expect echoed");
		CHECK(!strcmp(get_str(root, "tool"), "ssdcluster"), "tool");
		CHECK(!strcmp(get_str(root, "version"), "0.1.0-test"), "version");
		CHECK(get_i64(root, "started_unix_ns") == run.started_unix_ns, "started");
		CHECK(!strcmp(get_str(root, "config"), "configs/test.yaml"), "config");
		CHECK(!strcmp(get_str(root, "run_id"), "20250101-test"), "run_id");
		CHECK(get_u64(root, "nranks") == 2 && get_u64(root, "nnodes") == 2,
		      "nranks/nnodes");
		CHECK(get_u64(root, "rank0_peak_rss_bytes") == 21 * MiB &&
			  get_i64(root, "startup_ns") == 45000000,
		      "rank 0's peak RSS and the start-up's cost");
		for (uint32_t p = 0; p < len_of(phases); p++)
			CHECK(get_i64(idx(phases, p), "merge_ns") == 2500000 &&
				  get_i64(idx(phases, p), "start_cost_ns") == 700000 + p,
			      "phase %u: merge_ns, start_cost_ns", p);
		CHECK(strstr(get_str(defs, "lastdone_bw"), "latest") != NULL,
		      "lastdone definition");
		CHECK(strstr(get_str(defs, "firstdone_bw"), "first rank") != NULL,
		      "firstdone definition");
		CHECK(strstr(get_str(defs, "percentiles"), "never averaged") != NULL,
		      "percentile definition");
		check_plan_echo(get(root, "plan"), &run.plan);
		CHECK(len_of(phases) == 2, "%zu phases", len_of(phases));
		for (uint32_t p = 0; p < run.nphases && p < len_of(phases); p++)
			check_phase_json(idx(phases, p), &run, &run.phases[p]);
		/* the write-only phase has no read percentiles */
		struct json_object *rd =
		    get(get(get(idx(phases, 0), "cluster"), "latency_ns"), "read");
		CHECK(has_null(rd, "p99") && get_u64(rd, "count") == 0, "phase 0: read p99 null");
		check_sweeps(get(root, "sweeps"), idx(phases, 1));
		json_object_put(root);
	}

	buf = (uint8_t *)slurp(path_in(path, sizeof(path), dir, "results.pb"), &len);
	CHECK(buf, "results.pb readable");
	if (buf) {
		rc = sc_run_record_unpack(buf, len, &back);
		CHECK(rc == 0, "results.pb unpacks: %d", rc);
		if (!rc) {
			compare_run(&run, &back);
			sc_run_record_exit(&back);
		}
		free(buf);
	}
	check_csvs(dir, &run);
	sc_run_record_exit(&run);
}

/* A fill phase's write_cliff (every drive and the cluster) and the run's
 * stages in results.json: there, every number naming its unit, and the
 * fill spec carried through results.pb. */
static void test_fill_results(void)
{
	struct sc_run_record run, back;
	char dir[128], path[256], err[256] = "";
	struct json_object *root, *wc, *st;
	uint8_t *buf;
	size_t len;
	int rc;

	make_run(&run, 1);
	run.plan.phases[0].workload = SC_WORKLOAD_FILL;
	run.plan.phases[0].fill = (struct sc_fill_spec){.passes = 2,
							.random_passes = 1,
							.random_bs_bytes = 4096,
							.cliff_fraction = 0.25,
							.whole = true};
	snprintf(dir, sizeof(dir), "%s/fill", tmpdir);
	rc = results_of(dir, &run, err, sizeof(err));
	CHECK(rc == 0, "fill results: %d %s", rc, err);
	root = json_object_from_file(path_in(path, sizeof(path), dir, "results.json"));
	CHECK(root, "results.json parses: %s", json_util_get_last_err());
	if (root) {
		check_units(root, "", 0);
		wc = get(idx(get(root, "phases"), 0), "write_cliff");
		CHECK(get_dbl(wc, "cliff_fraction") == 0.25, "write_cliff.cliff_fraction");
		CHECK(len_of(get(wc, "drives")) == 2, "a cliff row per drive");
		CHECK(get_u64(get(wc, "cluster"), "drives") == 2, "cluster: 2 drives");
		CHECK(len_of(get(idx(get(wc, "drives"), 1), "write_bytes_per_s")) == 3,
		      "drive 1: its 3 seconds");
		st = get(root, "stages");
		CHECK(len_of(st) == 1 && !strcmp(get_str(idx(st, 0), "name"), "seqwrite") &&
			  !strcmp(get_str(idx(st, 0), "workload"), "fill"),
		      "stages: one row, the fill phase");
		json_object_put(root);
	}
	buf = (uint8_t *)slurp(path_in(path, sizeof(path), dir, "results.pb"), &len);
	CHECK(buf && sc_run_record_unpack(buf, len, &back) == 0, "results.pb unpacks");
	if (buf && back.plan.nphases) {
		const struct sc_fill_spec *f = &back.plan.phases[0].fill;

		CHECK(back.plan.phases[0].workload == SC_WORKLOAD_FILL && f->passes == 2 &&
			  f->random_passes == 1 && f->random_bs_bytes == 4096 &&
			  f->cliff_fraction == 0.25 && f->whole,
		      "the fill spec through results.pb");
		sc_run_record_exit(&back);
	}
	free(buf);
	sc_run_record_exit(&run);
}

/* Phase 0 of make_run's run, a fill phase, with n ranks on nnodes nodes
 * (two: alpha, beta; more: h000, h001, ...), rank i as make_rank's rank i
 * (rank 0 on an NVMe drive, rank 1 failed, the bandwidth growing with i);
 * every rank failed when all_fail.  With seconds, the
 * record is as rank 0 keeps a phase past SC_RANK_SERIES_MAX: the cluster's
 * series of that many seconds reduced, no node's and no rank's own. */
static void make_wide_run(struct sc_run_record *run, uint32_t n, uint32_t nnodes,
			  uint32_t seconds, int all_fail)
{
	struct sc_phase_record *ph;

	make_run(run, 1);
	run->plan.phases[0].workload = SC_WORKLOAD_FILL;
	run->plan.phases[0].fill =
	    (struct sc_fill_spec){.passes = 1, .random_bs_bytes = 4096, .cliff_fraction = 0.5};
	ph = &run->phases[0];
	for (uint32_t i = 0; i < ph->nranks; i++)
		sc_rank_result_exit(&ph->ranks[i]);
	free(ph->ranks);
	ph->nranks = n;
	ph->ranks = xcalloc(n, sizeof(*ph->ranks));
	for (uint32_t i = 0; i < n; i++) {
		struct sc_rank_result *r = &ph->ranks[i];

		make_rank(r, i, 1, 1);
		r->node = i % nnodes;
		r->target = i % 2;
		if (nnodes > 2)
			snprintf(r->host, sizeof(r->host), "h%03u", r->node);
		if (all_fail && !r->error[0])
			snprintf(r->error, sizeof(r->error), "rank %u: %s", i, strerror(EIO));
		if (seconds) {
			free(r->seconds);
			r->seconds = NULL;
			r->nseconds = 0;
		}
	}
	run->nranks = n;
	run->nnodes = nnodes;
	if (seconds) {
		ph->cluster = xcalloc(1, sizeof(*ph->cluster));
		ph->cluster->nseconds = seconds;
		ph->cluster->seconds = xcalloc(seconds, sizeof(struct sc_second));
		for (uint32_t k = 0; k < seconds; k++)
			ph->cluster->seconds[k].bytes[SC_DIR_WRITE] = MiB;
	}
}

/* A wide run and what sc_report_results made of it. */
struct wide {
	struct sc_run_record run;
	struct json_object *root; /* results.json, NULL when it does not parse */
	char *csv, *page;	  /* ranks.csv and report.html (heap) */
};

/* What make_wide_run makes, and whether its phase is instead round 1 of
 * 2 of a steady-state group. */
struct wide_opts {
	uint32_t n, nnodes, seconds;
	int all_fail, steady;
	double min_drive_bw; /* bytes/s: phase 0's first threshold, when set */
};

/* make_wide_run's run of o written into tmpdir/name and read back; its
 * phase 0 in results.json (NULL when missing), every number there naming
 * its unit. */
static struct json_object *wide_open(struct wide *w, const char *name, struct wide_opts o)
{
	char dir[128], path[256], err[256] = "";
	int rc;

	make_wide_run(&w->run, o.n, o.nnodes, o.seconds, o.all_fail);
	if (o.min_drive_bw)
		w->run.plan.phases[0].expect[0].value = o.min_drive_bw;
	if (o.steady) {
		struct sc_phase *ph = &w->run.plan.phases[0];

		ph->workload = SC_WORKLOAD_IO;
		ph->fill = (struct sc_fill_spec){0};
		ph->steady = (struct sc_steady_spec){.max_rounds = 2,
						     .round = 1,
						     .window = 2,
						     .metric = SC_STEADY_BW,
						     .round_ns = S};
	}
	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	rc = results_of(dir, &w->run, err, sizeof(err));
	CHECK(rc == 0, "%s: results: %d %s", name, rc, err);
	w->root = json_object_from_file(path_in(path, sizeof(path), dir, "results.json"));
	CHECK(w->root, "%s: results.json parses", name);
	w->csv = slurp(path_in(path, sizeof(path), dir, "ranks.csv"), NULL);
	w->page = slurp(path_in(path, sizeof(path), dir, "report.html"), NULL);
	CHECK(w->csv && w->page, "%s: ranks.csv and report.html readable", name);
	if (w->root)
		check_units(w->root, "", 0);
	return w->root ? idx(get(w->root, "phases"), 0) : NULL;
}

static void wide_close(struct wide *w)
{
	json_object_put(w->root);
	free(w->csv);
	free(w->page);
	sc_run_record_exit(&w->run);
}

/* An array past SC_JSON_RANKS_MAX rows: null, where they are, how many. */
static void check_omitted(struct json_object *o, const char *key, uint32_t n)
{
	char k[64];

	CHECK(has_null(o, key), "\"%s\": null past %u ranks", key, 256);
	snprintf(k, sizeof(k), "%s_file", key);
	CHECK(!strcmp(get_str(o, k), "ranks.csv"), "%s: ranks.csv", k);
	snprintf(k, sizeof(k), "%s_omitted", key);
	CHECK(get_u64(o, k) == n, "%s: %u", k, n);
}

/* The verdict of test_many_ranks' run: 93 drives below their threshold,
 * 207 above.  results.json lists every check that did not pass and counts
 * the drives' that did; report.html shows at most 32 rows. */
static void check_wide_verdict(struct json_object *v, const char *page)
{
	struct json_object *checks = get(v, "checks");
	size_t failed_drives = 0, passed_drives = 0, rows = 0;
	const char *at = page ? strstr(page, "id=\"verdict\"") : NULL;
	const char *end = at ? strstr(at, "</table>") : NULL;

	for (size_t i = 0; i < len_of(checks); i++) {
		struct json_object *c = idx(checks, i);
		int pass = !strcmp(get_str(c, "result"), "pass");

		if (strcmp(get_str(c, "scope"), "drive"))
			continue;
		failed_drives += !strcmp(get_str(c, "result"), "fail");
		passed_drives += pass;
	}
	CHECK(failed_drives == 93 && passed_drives == 0,
	      "verdict: the 93 drives that failed listed (%zu), none that passed (%zu)",
	      failed_drives, passed_drives);
	CHECK(len_of(checks) + get_u64(v, "checks_omitted") == get_u64(v, "nchecks") &&
		  get_u64(v, "checks_omitted") >= 207 &&
		  !strcmp(get_str(v, "checks_file"), "ranks.csv"),
	      "verdict: %zu checks listed, the rest counted", len_of(checks));
	while (at && end && (at = strstr(at + 1, "<tr><td>")) && at < end)
		rows++;
	CHECK(page && strstr(page, "304 checks: shown are the cluster"),
	      "report.html: the checks table says what it shows");
	CHECK(end && rows == 32, "report.html: %zu check rows, want 32", rows);
}

/* The printed verdict of run: 16 of the 93 drives that failed on lines of
 * their own, the rest counted. */
static void check_printed_verdict(const struct sc_run_record *run)
{
	struct sc_run_figures fg;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || sc_run_figures_of(&fg, run)) {
		CHECK(0, "verdict of the run");
		return;
	}
	sc_report_verdict_table(f, &fg.verdict, &fg.outliers);
	sc_run_figures_exit(&fg);
	fclose(f);
	CHECK(text && strstr(text, "... and 77 more drives that did not pass"),
	      "printed: 16 failed drives, 77 more counted");
	CHECK(text && count_lines(text) < 60, "printed: %d lines", count_lines(text));
	free(text);
}

/* 300 ranks: results.json holds no per-rank row (ranks, drives, the write
 * cliff's drives: each null, saying where they are), lists the first 256
 * failed ranks of 300 with the rest counted; ranks.csv holds all 300. */
static void test_many_ranks(void)
{
	struct wide w;
	/* rank i's bandwidth is (8 + 8i) MiB / (2 + i) s: ranks 0..92 below 8.3 MB/s */
	struct wide_opts o = {.n = 300, .nnodes = 300, .all_fail = 1, .min_drive_bw = 8.3e6};
	struct json_object *ph = wide_open(&w, "wide300", o);

	if (ph) {
		check_omitted(ph, "ranks", 300);
		check_omitted(ph, "drives", 300);
		check_omitted(get(ph, "write_cliff"), "drives", 300);
		check_omitted(idx(get(w.root, "inventory"), 1), "ranks", 1);
		CHECK(len_of(get(ph, "nodes")) == 300, "node rows as before: 300");
		CHECK(get_u64(get(get(ph, "write_cliff"), "cluster"), "drives") == 300,
		      "the cluster's cliff counts every drive");
		CHECK(len_of(get(ph, "errors")) == 256 && get_u64(ph, "errors_omitted") == 44 &&
			  !strcmp(get_str(ph, "errors_file"), "ranks.csv"),
		      "errors: the first 256 failed ranks, 44 more counted");
	}
	CHECK(count_lines(w.csv) == 1 + 300, "ranks.csv: %d lines", count_lines(w.csv));
	check_wide_verdict(w.root ? get(w.root, "verdict") : NULL, w.page);
	check_printed_verdict(&w.run);
	/* report.html: 32 of the 300 nodes and drives, the slowest */
	CHECK(w.page && strstr(w.page, "the 32 lowest of 300 nodes shown") &&
		  strstr(w.page, "the 32 lowest of 300 drives shown") &&
		  strstr(w.page, "The first 32 of 300 drives") &&
		  strstr(w.page, "The 32 drives the run wrote most of 300"),
	      "report.html: each table and chart of nodes and drives says it shows 32");
	CHECK(w.page && strstr(w.page, ">h001 /dev/fake0<") && !strstr(w.page, ">h299 /dev/fake0<"),
	      "report.html: the slowest drive's bar, not the fastest's");
	check_ranks_csv(w.csv, &w.run, 300);
	wide_close(&w);
}

/* A steady-state group of 300 drives, one round of two run: results.json
 * leaves its drives out (null, where they are); report.html shows 32 of
 * them, those not steady first, and says so. */
static void test_steady_wide(void)
{
	struct wide w;
	struct json_object *g;

	wide_open(&w, "steady300", (struct wide_opts){.n = 300, .nnodes = 2, .steady = 1});
	g = w.root ? idx(get(w.root, "steady_state"), 0) : NULL;
	if (g) {
		check_omitted(g, "drives", 300);
		CHECK(get_u64(g, "drives_not_steady") == 300,
		      "300 drives not steady after 1 round");
	}
	CHECK(w.page && strstr(w.page, "300 drives: 32 shown, those not steady first"),
	      "report.html: 32 of the 300 drives");
	wide_close(&w);
}

/* 256 ranks (the cap): every per-rank row in results.json.  Their phase
 * ran 4100 s, so rank 0 kept no rank's own series (256 x 4100 is past
 * SC_RANK_SERIES_MAX) nor a node's: a drive's temperatures, write curve
 * and cliff are null with the reason, never an empty (zero) series, and
 * report.html's chart says the per-node lines are not kept. */
static void test_series_not_kept(void)
{
	struct wide w;
	struct wide_opts o = {.n = 256, .nnodes = 2, .seconds = 4100};
	struct json_object *ph = wide_open(&w, "wide256", o), *wc, *dr;
	size_t nlisted = 0;

	if (ph) {
		CHECK(len_of(get(ph, "ranks")) == 256, "256 rank rows");
		CHECK(len_of(get(ph, "drives")) == 256, "256 drives rows");
		wc = get(ph, "write_cliff");
		CHECK(len_of(get(wc, "drives")) == 256, "256 write_cliff rows");
		CHECK(!json_object_object_get_ex(ph, "ranks_omitted", NULL), "nothing omitted");
		for (size_t i = 0; i < len_of(get(w.root, "inventory")); i++)
			nlisted += len_of(get(idx(get(w.root, "inventory"), i), "ranks"));
		CHECK(nlisted == 256, "inventory: each of the 256 ranks listed (%zu)", nlisted);
		dr = idx(get(ph, "drives"), 0);
		CHECK(has_null(dr, "max_temperature_c") &&
			  strstr(get_str(dr, "series_not_kept"), "SC_RANK_SERIES_MAX"),
		      "drives[0]: temperatures null, not kept past SC_RANK_SERIES_MAX");
		dr = idx(get(wc, "drives"), 1);
		CHECK(has_null(dr, "write_bytes_per_s") && has_null(dr, "cliff") &&
			  has_null(dr, "seconds_analysed") &&
			  strstr(get_str(dr, "series_not_kept"), "256 x 4100"),
		      "write_cliff.drives[1]: curve and cliff null, with the reason");
		CHECK(get_u64(get(wc, "cluster"), "drives_without_series") == 256 &&
			  get_u64(get(wc, "cluster"), "seconds_analysed") > 0,
		      "the cluster's cliff from its own series; 256 drives without");
		CHECK(len_of(get(get(ph, "timeseries"), "bytes_written")) == 4100,
		      "the cluster series: 4100 s");
	}
	check_ranks_csv(w.csv, &w.run, 256);
	CHECK(w.page && strstr(w.page, "per-node series not kept"),
	      "report.html: the chart says the node series were not kept");
	wide_close(&w);
}

/* 4 ranks: ranks 0, 1 on alpha (node 0), ranks 2, 3 on beta (node 1).
 * Target 1 is for beta* only, so alpha's ranks share target 0 and beta's
 * are spread over both. */
static void test_plan(void)
{
	static const char *const hosts[4] = {"alpha", "alpha", "beta", "beta"};
	struct sc_dry_rank ranks[4];
	struct sc_plan plan;
	char dir[128], path[4096], err[256] = "", outpath[256];
	struct json_object *root;
	FILE *out;
	int rc, saved;

	make_plan(&plan);
	plan.phases[1].io.jobs = 3; /* 2 + 3 files per rank */
	for (uint32_t i = 0; i < 4; i++) {
		ranks[i].host = hosts[i];
		ranks[i].node = i / 2;
		rc = sc_layout_place(&plan, hosts[i], i, i % 2, 2, &ranks[i].place);
		CHECK(rc == 0, "place rank %u", i);
	}
	CHECK(ranks[0].place.target == 0 && ranks[1].place.target == 0 &&
		  ranks[2].place.target == 0 && ranks[3].place.target == 1,
	      "placement as expected");

	snprintf(dir, sizeof(dir), "%s/dry", tmpdir);
	snprintf(outpath, sizeof(outpath), "%s/stdout.txt", tmpdir);
	fflush(stdout);
	saved = dup(1);
	out = fopen(outpath, "w");
	if (!out || saved < 0) {
		perror("capture stdout");
		exit(1);
	}
	dup2(fileno(out), 1);
	rc = sc_report_plan(dir, &plan, ranks, 4, err, sizeof(err));
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fclose(out);
	CHECK(rc == 0, "plan.json: %d %s", rc, err);

	char *printed = slurp(outpath, NULL);

	CHECK(printed && strstr(printed, "phase 0 seqwrite: write, bs 1.00 MiB, QD 4, 2 jobs x "
					 "8.00 MiB, ends after 8.00 MiB per job"),
	      "printed phase line:\n%s", printed ? printed : "");
	CHECK(printed && strstr(printed, "planned cluster read 0 B, write 64.0 MiB"),
	      "printed planned bytes");
	CHECK(printed && strstr(printed, "target 1 /dev/fake0 (file) on node 1 (beta), 1 ranks"),
	      "printed target line");
	CHECK(printed && strstr(printed, "rank 3: host beta, node 1, target 1 (/dev/fake0)"),
	      "printed rank line");
	if (printed)
		fputs(printed, stdout);
	free(printed);

	root = json_object_from_file(path_in(path, sizeof(path), dir, "plan.json"));
	CHECK(root, "plan.json parses");
	if (!root) {
		sc_plan_exit(&plan);
		return;
	}
	check_units(root, "", 0);
	CHECK(get_u64(root, "nranks") == 4 && get_u64(root, "nnodes") == 2, "plan nranks/nnodes");
	check_plan_echo(get(root, "plan"), &plan);

	struct json_object *jr = get(root, "ranks");

	CHECK(len_of(jr) == 4, "%zu ranks in plan.json", len_of(jr));
	for (uint32_t i = 0; i < 4 && i < len_of(jr); i++) {
		struct json_object *ro = idx(jr, i), *files = get(ro, "files");
		struct json_object *planned = get(ro, "planned");
		uint32_t t = ranks[i].place.target, k = 0;

		CHECK(get_u64(ro, "rank") == i, "rank %u", i);
		CHECK(!strcmp(get_str(ro, "host"), hosts[i]), "rank %u host", i);
		CHECK(get_u64(ro, "node") == i / 2, "rank %u node", i);
		CHECK(get_u64(ro, "target") == t, "rank %u target", i);
		CHECK(!strcmp(get_str(ro, "target_path"), plan.targets[t].path), "rank %u path", i);
		CHECK(
		    !strcmp(get_str(ro, "target_kind"), sc_target_kind_name(plan.targets[t].kind)),
		    "rank %u kind", i);
		CHECK(len_of(files) == 5, "rank %u has %zu files", i, len_of(files));
		for (uint32_t p = 0; p < plan.nphases; p++) {
			for (uint32_t j = 0; j < plan.phases[p].io.jobs; j++, k++) {
				struct json_object *fo = idx(files, k);
				uint64_t off;

				sc_layout_job_file(&plan, &ranks[i].place, p, j, path, sizeof(path),
						   &off);
				CHECK(get_u64(fo, "phase") == p && get_u64(fo, "job") == j,
				      "rank %u file %u ids", i, k);
				CHECK(!strcmp(get_str(fo, "path"), path), "rank %u file %u path %s",
				      i, k, get_str(fo, "path"));
				CHECK(get_u64(fo, "offset_bytes") == off, "rank %u file %u offset",
				      i, k);
				CHECK(get_u64(fo, "size_bytes") == 8 * MiB, "rank %u file %u size",
				      i, k);
			}
		}
		CHECK(len_of(planned) == 2, "rank %u planned per phase", i);
		CHECK(get_u64(idx(planned, 0), "write_bytes") == 16 * MiB &&
			  get_u64(idx(planned, 0), "read_bytes") == 0,
		      "rank %u planned phase 0", i);
	}
	/* rank 3 on the file target: slot 0 of 1, offsets from 0 */
	CHECK(!strcmp(get_str(idx(get(idx(jr, 3), "files"), 1), "path"), "/dev/fake0") &&
		  get_u64(idx(get(idx(jr, 3), "files"), 1), "offset_bytes") == 8 * MiB,
	      "rank 3 job 1 region");
	CHECK(!strcmp(get_str(idx(get(idx(jr, 0), "files"), 1), "path"),
		      "/scratch/nvme0/ssdcluster-20250101-test/r0.j1.dat"),
	      "rank 0 job 1 file");

	struct json_object *jp = get(root, "phases");

	CHECK(len_of(jp) == 2, "plan phases");
	CHECK(has_null(idx(jp, 0), "expected_duration_ns") &&
		  get_u64(idx(jp, 0), "ends_after_bytes") == 8 * MiB &&
		  get_u64(idx(jp, 0), "bytes_written_planned") == 64 * MiB &&
		  get_u64(idx(jp, 0), "bytes_read_planned") == 0,
	      "byte-based phase");
	CHECK(get_u64(idx(jp, 1), "expected_duration_ns") == 5 * (uint64_t)S / 2 &&
		  has_null(idx(jp, 1), "ends_after_bytes"),
	      "time-based phase");

	struct json_object *jt = get(root, "targets");

	CHECK(len_of(jt) == 2, "plan targets");
	if (len_of(jt) == 2) {
		struct json_object *n0 = get(idx(jt, 0), "nodes"), *n1 = get(idx(jt, 1), "nodes");

		CHECK(len_of(n0) == 2 && len_of(n1) == 1, "nodes per target %zu %zu", len_of(n0),
		      len_of(n1));
		CHECK(get_u64(idx(n0, 0), "nranks") == 2 &&
			  get_u64(idx(n0, 0), "needed_bytes") == sc_layout_need_bytes(&plan, 0, 2),
		      "target 0 node 0 need");
		CHECK(get_u64(idx(n0, 1), "nranks") == 1 &&
			  get_u64(idx(n0, 1), "needed_bytes") == sc_layout_need_bytes(&plan, 0, 1),
		      "target 0 node 1 need");
		CHECK(get_u64(idx(n1, 0), "node") == 1 &&
			  get_u64(idx(n1, 0), "needed_bytes") == sc_layout_need_bytes(&plan, 1, 1),
		      "target 1 node 1 need");
		CHECK(!strcmp(get_str(idx(n0, 1), "host"), "beta"), "target 0 node 1 host");
	}
	json_object_put(root);
	sc_plan_exit(&plan);
}

/* The plan echo of training phases: the workload file's status and what
 * the phase changed from it; without a file, no names and no status; the
 * rules' minimum null when the clients' memory is not known. */
static void test_training_echo(void)
{
	struct sc_plan plan = {0};
	struct sc_phase ph[2] = {0};
	struct json_object *root, *t;
	size_t len;
	char *text;

	for (int i = 0; i < 2; i++) {
		ph[i].name = ph[i].group = "train";
		ph[i].workload = SC_WORKLOAD_TRAINING;
		ph[i].io.jobs = 8;
	}
	/* retinanet on b200, batch and au changed: 2000 files of 568^2 B,
	 * 2000 / 30 / 4 = 16 steps; the minimum max(ceil(5 x 1 GiB / 322,957 B)
	 * = 16,624, 500 x 4 x 30 = 60,000) */
	ph[0].training = (struct sc_training_spec){.benchmark = SC_MLPERF_RETINANET,
						   .accelerator = SC_MLPERF_B200,
						   .files = 2000,
						   .samples_per_file = 1,
						   .record_bytes = 322957,
						   .batch = 30,
						   .prefetch_size = 2,
						   .computation_ns = 47550000,
						   .epochs = 8,
						   .au = 0.8,
						   .transfer_bytes = MiB,
						   .accelerators = 4,
						   .client_memory_bytes = 1024 * MiB};
	ph[1].training = ph[0].training;
	ph[1].training.benchmark = SC_MLPERF_BENCHMARK_COUNT;
	ph[1].training.accelerator = SC_MLPERF_ACCELERATOR_COUNT;
	ph[1].training.client_memory_bytes = 0;
	plan.phases = ph;
	plan.nphases = 2;
	text = sc_report_plan_echo_text(&plan, &len);
	root = text ? json_tokener_parse(text) : NULL;
	CHECK(root, "the echo parses");
	if (!root) {
		free(text);
		return;
	}
	t = get(idx(get(root, "phases"), 0), "training");
	CHECK(!strcmp(get_str(t, "benchmark"), "retinanet") &&
		  !strcmp(get_str(t, "accelerator"), "b200") &&
		  !strcmp(get_str(t, "mlperf_status"), "closed"),
	      "a pair: its names and status");
	CHECK(!strcmp(get_str(t, "changed_from_workload_file"), "batch, au"), "changed: %s",
	      get_str(t, "changed_from_workload_file"));
	CHECK(get_u64(t, "mean_file_bytes") == 568 * 568 &&
		  get_u64(t, "dataset_bytes") == 2000 * 568 * 568 &&
		  get_u64(t, "steps_per_epoch") == 16 && get_u64(t, "min_files") == 60000 &&
		  get_u64(t, "files_below_min") == 58000,
	      "figures of the pair");
	t = get(idx(get(root, "phases"), 1), "training");
	CHECK(has_null(t, "benchmark") && has_null(t, "accelerator") &&
		  has_null(t, "mlperf_status") && has_null(t, "changed_from_workload_file"),
	      "no workload file: no names, no status");
	CHECK(has_null(t, "min_files") && has_null(t, "files_below_min") &&
		  get_u64(t, "steps_per_epoch") == 16,
	      "no client memory: no minimum");
	json_object_put(root);
	free(text);
}

/* How a phase ended, as results.json and phases.csv spell it: every status
 * its own name. */
static void test_status_names(void)
{
	static const char *const want[SC_PHASE_STATUS_COUNT] = {
	    [SC_PHASE_OK] = "ok",
	    [SC_PHASE_ERRORS] = "errors",
	    [SC_PHASE_STOPPED_ON_ERROR] = "stopped_on_error",
	    [SC_PHASE_ABORTED] = "aborted",
	    [SC_PHASE_INTERRUPTED] = "interrupted",
	    [SC_PHASE_TIMED_OUT] = "timed_out",
	};

	for (int st = 0; st < SC_PHASE_STATUS_COUNT; st++)
		CHECK(want[st] && !strcmp(sc_phase_status_name((enum sc_phase_status)st), want[st]),
		      "status %d is \"%s\"", st, sc_phase_status_name((enum sc_phase_status)st));
	CHECK(!strcmp(sc_phase_status_name(SC_PHASE_STATUS_COUNT), "?"), "out of range: ?");
}

/* A phase's text for results.json.part, its node and target rows
 * rendered one at a time into the phase's skeleton, is byte for byte what
 * json-c prints of the whole phase object at that indentation: runs of 1
 * node (not streamed), 2 and 300 nodes. */
static void test_phase_text(void)
{
	static const uint32_t nodes[] = {1, 2, 300};

	for (size_t k = 0; k < sizeof(nodes) / sizeof(nodes[0]); k++) {
		struct sc_run_record run;
		struct sc_run_figures fg;

		make_wide_run(&run, 2 * nodes[k], nodes[k], 0, 0);
		CHECK(sc_run_figures_of(&fg, &run) == 0, "figures of %u nodes", nodes[k]);
		CHECK(fg.phases[0].nodes_len == nodes[k] &&
			  (nodes[k] < 2 || fg.phases[0].targets_len >= 2),
		      "%u node rows, %u target rows", fg.phases[0].nodes_len,
		      fg.phases[0].targets_len);
		for (size_t pad = 0; pad <= 4; pad += 4) {
			struct jb b = {0};
			size_t len = 0, want_len = 0;
			char *got = sc_report_results_phase_text(&run, &fg, 0, pad, &len);
			char *want = sc_json_text_at(&b, sc_report_results_phase_json(&b, &run, &fg, 0),
						     pad, &want_len);

			CHECK(got && want && len == want_len && !memcmp(got, want, len),
			      "%u nodes, pad %zu: %zu B rendered a row at a time, %zu B by json-c "
			      "whole",
			      nodes[k], pad, len, want_len);
			free(got);
			free(want);
		}
		sc_run_figures_exit(&fg);
		sc_run_record_exit(&run);
	}
}

int main(void)
{
	test_status_names();
	check_mkdtemp(tmpdir, sizeof(tmpdir), "test_report");
	test_results();
	test_fill_results();
	test_many_ranks();
	test_phase_text();
	test_series_not_kept();
	test_steady_wide();
	test_plan();
	test_training_echo();
	check_rmtree(tmpdir);
	return check_exit("test_report");
}
