/* fio_json.c -- fio.json: a run's phases in the shape of fio's json+
 * output (--output-format fio-json), one group-reported job per phase, its
 * figures from analysis/fio_figures.h.  docs/results.md says which of
 * fio's keys are filled, which are 0 and why. */
#include "report.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/fio_figures.h"
#include "report_priv.h"

#define NS_PER_S      INT64_C(1000000000)
#define NS_PER_MS     INT64_C(1000000)
#define BYTES_PER_KIB 1024u

/* A size as fio takes it back (kb_base 1024): "4k", "1m", or bytes. */
static void size_text(char *s, size_t len, uint64_t bytes)
{
	static const char units[] = "kmgt";
	int u = -1;

	while (bytes && bytes % BYTES_PER_KIB == 0 && u < (int)sizeof(units) - 2) {
		bytes /= BYTES_PER_KIB;
		u++;
	}
	if (u < 0)
		snprintf(s, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(s, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

/* A time as fio takes it back: whole seconds as "10s", else "1500ms". */
static void time_text(char *s, size_t len, uint64_t ns)
{
	if (ns % NS_PER_S == 0)
		snprintf(s, len, "%llus", (unsigned long long)(ns / NS_PER_S));
	else
		snprintf(s, len, "%llums", (unsigned long long)(ns / NS_PER_MS));
}

static void put_text_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v)
{
	char s[32];

	snprintf(s, sizeof(s), "%llu", (unsigned long long)v);
	sc_json_put_str(b, o, key, s);
}

/* "job options": the phase's settings as fio would echo its job's. */
static struct json_object *job_options(struct jb *b, const struct sc_phase *ph, uint32_t nranks)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	const struct sc_io_spec *io = &ph->io;
	char s[64];

	sc_json_put_str(b, o, "name", ph->name);
	snprintf(s, sizeof(s), "ssdcluster %s phase", sc_workload_name(ph->workload));
	sc_json_put_str(b, o, "description", s);
	sc_json_put_str(b, o, "rw", sc_rw_name(io->rw));
	if (io->rw == SC_RW_RANDRW)
		put_text_u64(b, o, "rwmixread", io->rwmixread_pct);
	size_text(s, sizeof(s), io->bs_bytes);
	sc_json_put_str(b, o, "bs", s);
	put_text_u64(b, o, "iodepth", io->iodepth);
	/* the cluster merge: every job thread of every rank */
	put_text_u64(b, o, "numjobs", (uint64_t)io->jobs * nranks);
	sc_json_put_str(b, o, "ioengine", sc_engine_name(io->engine));
	put_text_u64(b, o, "direct", io->direct);
	size_text(s, sizeof(s), io->size_bytes);
	sc_json_put_str(b, o, "size", s);
	if (io->runtime_ns) {
		time_text(s, sizeof(s), io->runtime_ns);
		sc_json_put_str(b, o, "runtime", s);
		sc_json_put_str(b, o, "time_based", "1");
	} else if (io->io_bytes) {
		size_text(s, sizeof(s), io->io_bytes);
		sc_json_put_str(b, o, "io_size", s);
	}
	if (io->ramp_ns) {
		time_text(s, sizeof(s), io->ramp_ns);
		sc_json_put_str(b, o, "ramp_time", s);
	}
	if (io->fsync_every)
		put_text_u64(b, o, "fsync", io->fsync_every);
	return o;
}

/* {min, max, mean, stddev, N}: fio's statistics of a latency. */
static struct json_object *lat_stats(struct jb *b, const struct sc_fio_lat *l)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "min", l->min_ns);
	sc_json_put_u64(b, o, "max", l->max_ns);
	sc_json_put_dbl(b, o, "mean", l->mean_ns);
	sc_json_put_dbl(b, o, "stddev", l->stddev_ns);
	sc_json_put_u64(b, o, "N", l->n);
	return o;
}

/* clat_ns: the statistics, and with I/Os (as fio) the percentiles and the
 * json+ bins. */
static struct json_object *clat(struct jb *b, const struct sc_fio_lat *l)
{
	struct json_object *o = lat_stats(b, l), *p, *bins;
	char key[32];

	if (!l->n)
		return o;
	p = sc_json_new(b, json_object_new_object());
	for (int k = 0; k < SC_FIO_NPCT; k++) {
		snprintf(key, sizeof(key), "%f", sc_fio_pct_points[k]);
		sc_json_put_u64(b, p, key, l->pct_ns[k]);
	}
	sc_json_put(b, o, "percentile", p);
	bins = sc_json_new(b, json_object_new_object());
	for (uint32_t k = 0; k < l->nbins; k++) {
		snprintf(key, sizeof(key), "%llu", (unsigned long long)l->bins[k].value_ns);
		sc_json_put_u64(b, bins, key, l->bins[k].count);
	}
	sc_json_put(b, o, "bins", bins);
	return o;
}

/* read, write or trim: fio's object of one direction (x NULL: nothing). */
static struct json_object *direction(struct jb *b, const struct sc_fio_dir *x)
{
	static const struct sc_fio_dir none;
	static const struct sc_fio_lat zero;
	struct json_object *o = sc_json_new(b, json_object_new_object());

	x = x ? x : &none;
	sc_json_put_u64(b, o, "io_bytes", x->io_bytes);
	sc_json_put_u64(b, o, "io_kbytes", x->io_bytes / BYTES_PER_KIB);
	sc_json_put_u64(b, o, "bw_bytes", (uint64_t)llround(x->bw_bytes_per_s));
	sc_json_put_u64(b, o, "bw", (uint64_t)llround(x->bw_bytes_per_s / BYTES_PER_KIB));
	sc_json_put_dbl(b, o, "iops", x->iops);
	sc_json_put_u64(b, o, "runtime", x->runtime_ms);
	sc_json_put_u64(b, o, "total_ios", x->total_ios);
	sc_json_put_u64(b, o, "short_ios", 0);
	sc_json_put_u64(b, o, "drop_ios", 0);
	sc_json_put(b, o, "slat_ns", lat_stats(b, &zero));
	sc_json_put(b, o, "clat_ns", clat(b, &x->lat));
	sc_json_put(b, o, "lat_ns", lat_stats(b, &x->lat));
	sc_json_put_u64(b, o, "bw_min", (uint64_t)llround(x->bw_kib.min));
	sc_json_put_u64(b, o, "bw_max", (uint64_t)llround(x->bw_kib.max));
	/* the job is its group's only one: the whole aggregate */
	sc_json_put_dbl(b, o, "bw_agg", x->bw_kib.n ? 100.0 : 0.0);
	sc_json_put_dbl(b, o, "bw_mean", x->bw_kib.mean);
	sc_json_put_dbl(b, o, "bw_dev", x->bw_kib.dev);
	sc_json_put_u64(b, o, "bw_samples", x->bw_kib.n);
	sc_json_put_u64(b, o, "iops_min", (uint64_t)llround(x->iops_per_s.min));
	sc_json_put_u64(b, o, "iops_max", (uint64_t)llround(x->iops_per_s.max));
	sc_json_put_dbl(b, o, "iops_mean", x->iops_per_s.mean);
	sc_json_put_dbl(b, o, "iops_stddev", x->iops_per_s.dev);
	sc_json_put_u64(b, o, "iops_samples", x->iops_per_s.n);
	return o;
}

/* latency_ns, latency_us or latency_ms: percent of I/Os per range, keyed
 * by its upper bound (the last of latency_ms ">=2000"). */
static struct json_object *ranges(struct jb *b, const double *pct, uint32_t n, bool ms)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	char key[16];

	for (uint32_t k = 0; k < n; k++) {
		if (ms && k == n - 1)
			snprintf(key, sizeof(key), ">=%u", sc_fio_lat_bounds[k]);
		else
			snprintf(key, sizeof(key), "%u", sc_fio_lat_bounds[k]);
		sc_json_put_dbl(b, o, key, pct[k]);
	}
	return o;
}

/* The errno fio's "error" would hold: the phase's first failure's, 0 for
 * none. */
static int first_error(const struct sc_phase_figures *f)
{
	if (f->nfirst_failures)
		return f->first_failures[0].failure->err;
	return f->nerrnos ? f->errnos[0].err : 0;
}

/* Phase i's job: the cluster merge, group-reported. */
static struct json_object *job(struct jb *b, const struct sc_run_record *rec,
			       const struct sc_run_figures *fg, uint32_t i,
			       const struct sc_fio_phase *x)
{
	const struct sc_phase_figures *f = &fg->phases[i];
	const struct sc_phase *ph = sc_report_phase_of(rec, i);
	struct json_object *o = sc_json_new(b, json_object_new_object()), *sync;

	sc_json_put_str(b, o, "jobname", ph ? ph->name : "?");
	sc_json_put_u64(b, o, "groupid", i);
	sc_json_put_i64(b, o, "error", first_error(f));
	sc_json_put_u64(b, o, "eta", 0);
	sc_json_put_u64(b, o, "elapsed", (x->runtime_ms + 500) / 1000);
	if (ph)
		sc_json_put(b, o, "job options", job_options(b, ph, f->nranks));
	sc_json_put(b, o, "read", direction(b, &x->dir[SC_DIR_READ]));
	sc_json_put(b, o, "write", direction(b, &x->dir[SC_DIR_WRITE]));
	sc_json_put(b, o, "trim", direction(b, NULL));
	sync = sc_json_new(b, json_object_new_object());
	sc_json_put_u64(b, sync, "total_ios", f->fsyncs);
	sc_json_put(b, sync, "lat_ns", lat_stats(b, &(struct sc_fio_lat){0}));
	sc_json_put(b, o, "sync", sync);
	sc_json_put_u64(b, o, "job_runtime", x->runtime_ms);
	/* not measured: fio's consumers need the keys */
	sc_json_put_dbl(b, o, "usr_cpu", 0);
	sc_json_put_dbl(b, o, "sys_cpu", 0);
	sc_json_put_u64(b, o, "ctx", 0);
	sc_json_put_u64(b, o, "majf", 0);
	sc_json_put_u64(b, o, "minf", 0);
	sc_json_put(b, o, "latency_ns", ranges(b, x->lat_ns_pct, SC_FIO_LAT_NS, false));
	sc_json_put(b, o, "latency_us", ranges(b, x->lat_us_pct, SC_FIO_LAT_US, false));
	sc_json_put(b, o, "latency_ms", ranges(b, x->lat_ms_pct, SC_FIO_LAT_MS, true));
	sc_json_put_u64(b, o, "latency_depth", ph ? ph->io.iodepth : 0);
	sc_json_put_u64(b, o, "latency_target", 0);
	sc_json_put_dbl(b, o, "latency_percentile", 100.0);
	sc_json_put_u64(b, o, "latency_window", 0);
	return o;
}

/* The document's head: "fio version", "timestamp", "timestamp_ms", "time"
 * (local, as fio's ctime) and "global options" (none: every option is the
 * job's). */
static void head(struct jb *b, struct json_object *root, const struct sc_run_record *rec)
{
	time_t t = (time_t)(rec->started_unix_ns / NS_PER_S);
	char s[128];
	struct tm tm;

	snprintf(s, sizeof(s), "ssdcluster-%s", rec->version ? rec->version : "?");
	sc_json_put_str(b, root, "fio version", s);
	sc_json_put_i64(b, root, "timestamp", (int64_t)t);
	sc_json_put_i64(b, root, "timestamp_ms", rec->started_unix_ns / NS_PER_MS);
	if (localtime_r(&t, &tm) && strftime(s, sizeof(s), "%a %b %e %H:%M:%S %Y", &tm))
		sc_json_put_str(b, root, "time", s);
	sc_json_put(b, root, "global options", sc_json_new(b, json_object_new_object()));
}

char *sc_report_fio_json_text(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			      size_t *len)
{
	struct jb b = {0};
	struct json_object *root = sc_json_new(&b, json_object_new_object());
	struct json_object *jobs = sc_json_new(&b, json_object_new_array());
	struct sc_fio_phase x;
	char *text;

	head(&b, root, rec);
	for (uint32_t i = 0; i < rec->nphases && i < fg->nphases && !b.nomem; i++) {
		if (sc_fio_phase_of(&rec->phases[i], &fg->phases[i], &x)) {
			b.nomem = 1;
			break;
		}
		sc_json_push(&b, jobs, job(&b, rec, fg, i, &x));
		sc_fio_phase_exit(&x);
	}
	sc_json_put(&b, root, "jobs", jobs);
	text = sc_json_text(&b, root, len);
	json_object_put(root);
	return text;
}

int sc_report_fio_json(const char *dir, const struct sc_run_record *rec,
		       const struct sc_run_figures *fg, char *err, size_t errlen)
{
	size_t len;
	char *text = sc_report_fio_json_text(rec, fg, &len);
	int rc;

	if (!dir || !dir[0])
		dir = ".";
	if (!text) {
		sc_report_set_err(err, errlen, "%s: out of memory while building fio.json", dir);
		return -ENOMEM;
	}
	rc = sc_report_write_named(dir, "fio.json", text, len, err, errlen);
	free(text);
	return rc;
}
