/* report.c -- results.json, results.pb, CSV tables and plan.json, written atomically. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggregate.h"
#include "codec.h"
#include "units.h"

#ifndef SC_VERSION
#define SC_VERSION "unknown"
#endif

#define NS_PER_S 1000000000ull
/* MB/s in every report is decimal: 10^6 bytes per second. */
#define BYTES_PER_MB 1e6
/* Latencies in the CSV tables are microseconds. */
#define NS_PER_US 1e3
/* Per-rank lines in the printed plan stop above this many ranks. */
#define PLAN_PRINT_RANKS_MAX 64
#define JSON_FLAGS	     (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ atomic files */

/* mkdir -p: creates dir and its missing parents.  0 or -errno. */
static int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		if (buf[i - 1] == '/')
			continue; /* "a//b" */
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		buf[i] = i < n ? '/' : '\0';
	}
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sc_report_write_atomic(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	int fd, dfd, err;

	if (!dir || !dir[0])
		dir = ".";
	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	err = mkdir_p(dir);
	if (err)
		return err;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* mkostemp makes it 0600; results are for everyone who may read dir */
	if (fchmod(fd, 0644)) {
		err = -errno;
		goto out_close;
	}
	err = write_all(fd, data, len);
	if (err)
		goto out_close;
	if (fsync(fd)) {
		err = -errno;
		goto out_close;
	}
	if (close(fd)) {
		fd = -1;
		err = -errno;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path)) {
		err = -errno;
		goto out_unlink;
	}
	/* make the rename itself durable */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	err = fsync(dfd) && errno != EINVAL ? -errno : 0;
	close(dfd);
	return err;

out_close:
	close(fd);
out_unlink:
	unlink(tmp);
	return err;
}

/* ------------------------------------------------------------ JSON helpers */

/* Tracks allocation failures while a document is built, so that a value
 * json-c could not allocate is never silently written as null. */
struct jb {
	int nomem;
};

static struct json_object *jnew(struct jb *b, struct json_object *o)
{
	if (!o)
		b->nomem = 1;
	return o;
}

static void jput(struct jb *b, struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

static void jput_null(struct jb *b, struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL))
		b->nomem = 1;
}

static void jpush(struct jb *b, struct json_object *a, struct json_object *v)
{
	if (!a || !v || json_object_array_add(a, v)) {
		json_object_put(v);
		b->nomem = 1;
	}
}

static void jput_u64(struct jb *b, struct json_object *o, const char *key, uint64_t v)
{
	jput(b, o, key, json_object_new_uint64(v));
}

static void jput_i64(struct jb *b, struct json_object *o, const char *key, int64_t v)
{
	jput(b, o, key, json_object_new_int64(v));
}

static void jput_bool(struct jb *b, struct json_object *o, const char *key, int v)
{
	jput(b, o, key, json_object_new_boolean(v));
}

/* NULL strings are written as null. */
static void jput_str(struct jb *b, struct json_object *o, const char *key, const char *s)
{
	if (s)
		jput(b, o, key, json_object_new_string(s));
	else
		jput_null(b, o, key);
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

static void jput_dbl(struct jb *b, struct json_object *o, const char *key, double v)
{
	if (isfinite(v))
		jput(b, o, key, new_double(v));
	else
		jput_null(b, o, key);
}

/* MB/s, rounded to whole bytes per second so that it prints short. */
static void jput_mbps(struct jb *b, struct json_object *o, const char *key, double bytes_per_s)
{
	jput_dbl(b, o, key, round(bytes_per_s) / BYTES_PER_MB);
}

static void jpush_u64(struct jb *b, struct json_object *a, uint64_t v)
{
	jpush(b, a, json_object_new_uint64(v));
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
	return o;
}

static struct json_object *plan_echo(struct jb *b, const struct sc_plan *plan)
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
	return o;
}

/* ------------------------------------------------------------ results.json */

static const char *const definitions[][2] = {
    {"lastdone_bw", "all bytes of all ranks / (latest rank end - earliest rank start after "
		    "ramp), as IOR reports"},
    {"firstdone_bw", "bytes moved by all ranks until the first rank finished / (that instant - "
		     "earliest rank start after ramp), the stonewall figure as elbencho "
		     "reports"},
    {"iops", "I/Os of all ranks / the last-done window"},
    {"percentiles", "cluster latency percentiles come from the bucket-wise sum of every "
		    "rank's histogram (log-linear, <=0.4% error); per-rank percentiles are "
		    "never averaged"},
    {"volatility", "population stddev / mean of the cluster's per-second bytes over the "
		   "complete seconds (the last, partial second excluded)"},
    {"times", "nanoseconds relative to the phase's common start instant on rank 0's "
	      "clock"},
    {"units", "MB = 10^6 bytes, MiB = 2^20 bytes; every key names its unit"},
};

static struct json_object *definitions_json(struct jb *b)
{
	struct json_object *o = jnew(b, json_object_new_object());

	for (size_t i = 0; i < sizeof(definitions) / sizeof(definitions[0]); i++)
		jput_str(b, o, definitions[i][0], definitions[i][1]);
	return o;
}

/* Latency figures of one direction; null values when it has no I/Os. */
static struct json_object *lat_json(struct jb *b, const struct sc_lat_summary *s)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "count", s->count);
	if (!s->count) {
		jput_null(b, o, "min");
		jput_null(b, o, "mean");
		jput_null(b, o, "max");
		for (int i = 0; i < SC_NPCT; i++)
			jput_null(b, o, sc_pct_names[i]);
		return o;
	}
	jput_u64(b, o, "min", s->min_ns);
	jput_dbl(b, o, "mean", s->mean_ns);
	jput_u64(b, o, "max", s->max_ns);
	for (int i = 0; i < SC_NPCT; i++)
		jput_u64(b, o, sc_pct_names[i], s->pct_ns[i]);
	return o;
}

static struct json_object *lat_pair_json(struct jb *b,
					 const struct sc_lat_summary lat[SC_DIR_COUNT])
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput(b, o, "read", lat_json(b, &lat[SC_DIR_READ]));
	jput(b, o, "write", lat_json(b, &lat[SC_DIR_WRITE]));
	return o;
}

/* Bandwidth of one rank over its own measured time. */
static double rank_bw(const struct sc_phase_record *pr, const struct sc_rank_result *r)
{
	int64_t start = r->start_ns > pr->measure_start_ns ? r->start_ns : pr->measure_start_ns;

	if (r->end_ns <= start)
		return 0;
	return (double)(r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE]) * (double)NS_PER_S /
	       (double)(r->end_ns - start);
}

static const char *host_of_rank(const struct sc_phase_record *pr, uint32_t rank)
{
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].rank == rank)
			return pr->ranks[i].host;
	return "";
}

static struct json_object *cluster_json(struct jb *b, const struct sc_phase_record *pr,
					const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "nranks", f->nranks);
	jput_u64(b, o, "nnodes", f->nnodes);
	jput_u64(b, o, "bytes_read", f->bytes[SC_DIR_READ]);
	jput_u64(b, o, "bytes_written", f->bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "total_bytes", f->total_bytes);
	jput_u64(b, o, "planned_bytes", f->planned_bytes);
	jput_u64(b, o, "ios_read", f->ios[SC_DIR_READ]);
	jput_u64(b, o, "ios_written", f->ios[SC_DIR_WRITE]);
	jput_u64(b, o, "fsyncs", f->fsyncs);
	jput_u64(b, o, "errors", f->errors);
	jput_u64(b, o, "ranks_with_errors", f->ranks_with_errors);
	jput_i64(b, o, "window_start_ns", f->window_start_ns);
	jput_i64(b, o, "lastdone_ns", f->lastdone_ns);
	jput_i64(b, o, "firstdone_ns", f->firstdone_ns);
	jput_i64(b, o, "start_skew_ns", f->start_skew_ns);
	jput_dbl(b, o, "lastdone_bw_bytes_per_s", f->lastdone_bw_bytes_per_s);
	jput_mbps(b, o, "lastdone_bw_MBps", f->lastdone_bw_bytes_per_s);
	jput_u64(b, o, "firstdone_bytes", f->firstdone_bytes);
	jput_dbl(b, o, "firstdone_bw_bytes_per_s", f->firstdone_bw_bytes_per_s);
	jput_mbps(b, o, "firstdone_bw_MBps", f->firstdone_bw_bytes_per_s);
	jput_dbl(b, o, "iops", f->iops_total);
	jput_dbl(b, o, "iops_read", f->iops[SC_DIR_READ]);
	jput_dbl(b, o, "iops_write", f->iops[SC_DIR_WRITE]);
	jput_dbl(b, o, "volatility_read", f->volatility[SC_DIR_READ]);
	jput_dbl(b, o, "volatility_write", f->volatility[SC_DIR_WRITE]);
	jput(b, o, "latency_ns", lat_pair_json(b, f->lat));
	if (f->nranks) {
		jput_u64(b, o, "slowest_rank", f->slowest_rank);
		jput_u64(b, o, "slowest_node", f->slowest_node);
		jput_str(b, o, "slowest_host", host_of_rank(pr, f->slowest_rank));
	} else {
		jput_null(b, o, "slowest_rank");
		jput_null(b, o, "slowest_node");
		jput_null(b, o, "slowest_host");
	}
	return o;
}

static struct json_object *node_json(struct jb *b, const struct sc_node_row *n)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "node", n->node);
	jput_str(b, o, "host", n->host);
	jput_u64(b, o, "nranks", n->nranks);
	jput_u64(b, o, "bytes_read", n->bytes[SC_DIR_READ]);
	jput_u64(b, o, "bytes_written", n->bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "total_bytes", n->bytes[SC_DIR_READ] + n->bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "ios_read", n->ios[SC_DIR_READ]);
	jput_u64(b, o, "ios_written", n->ios[SC_DIR_WRITE]);
	jput_u64(b, o, "errors", n->errors);
	jput_i64(b, o, "start_ns", n->start_ns);
	jput_i64(b, o, "end_ns", n->end_ns);
	jput_dbl(b, o, "bw_bytes_per_s", n->bw_bytes_per_s);
	jput_mbps(b, o, "bw_MBps", n->bw_bytes_per_s);
	return o;
}

static struct json_object *rank_json(struct jb *b, const struct sc_phase_record *pr,
				     const struct sc_rank_result *r)
{
	struct json_object *o = jnew(b, json_object_new_object());
	double bw = rank_bw(pr, r);

	jput_u64(b, o, "rank", r->rank);
	jput_u64(b, o, "node", r->node);
	jput_str(b, o, "host", r->host);
	jput_u64(b, o, "target", r->target);
	jput_i64(b, o, "clock_offset_ns", r->clock_offset_ns);
	jput_i64(b, o, "start_ns", r->start_ns);
	jput_i64(b, o, "end_ns", r->end_ns);
	jput_u64(b, o, "planned_bytes", r->planned_bytes);
	jput_u64(b, o, "bytes_read", r->bytes[SC_DIR_READ]);
	jput_u64(b, o, "bytes_written", r->bytes[SC_DIR_WRITE]);
	jput_u64(b, o, "ios_read", r->ios[SC_DIR_READ]);
	jput_u64(b, o, "ios_written", r->ios[SC_DIR_WRITE]);
	jput_u64(b, o, "fsyncs", r->fsyncs);
	jput_u64(b, o, "firstdone_bytes", r->firstdone_bytes);
	jput_dbl(b, o, "bw_bytes_per_s", bw);
	jput_mbps(b, o, "bw_MBps", bw);
	jput_u64(b, o, "errors", r->errors);
	jput_str(b, o, "error", r->error[0] ? r->error : NULL);
	jput(b, o, "latency_ns", lat_pair_json(b, r->lat));
	return o;
}

static struct json_object *timeseries_json(struct jb *b, const struct sc_phase_record *pr,
					   const struct sc_phase_figures *f)
{
	static const struct {
		const char *key;
		size_t off;
		int dir;
	} cols[] = {
	    {"bytes_read", offsetof(struct sc_second, bytes), SC_DIR_READ},
	    {"bytes_written", offsetof(struct sc_second, bytes), SC_DIR_WRITE},
	    {"ios_read", offsetof(struct sc_second, ios), SC_DIR_READ},
	    {"ios_written", offsetof(struct sc_second, ios), SC_DIR_WRITE},
	    {"max_latency_read_ns", offsetof(struct sc_second, max_lat_ns), SC_DIR_READ},
	    {"max_latency_write_ns", offsetof(struct sc_second, max_lat_ns), SC_DIR_WRITE},
	};
	struct json_object *o = jnew(b, json_object_new_object());

	jput_u64(b, o, "second_ns", NS_PER_S);
	jput_i64(b, o, "start_ns", pr->measure_start_ns);
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		struct json_object *a = jnew(b, json_object_new_array());

		for (uint32_t k = 0; k < f->nseconds; k++) {
			const uint64_t *v =
			    (const uint64_t *)((const char *)&f->seconds[k] + cols[c].off);

			jpush_u64(b, a, v[cols[c].dir]);
		}
		jput(b, o, cols[c].key, a);
	}
	return o;
}

/* "rank 3 (host): message", one per rank that failed. */
static struct json_object *errors_json(struct jb *b, const struct sc_phase_record *pr)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];
		char line[SC_HOST_MAX + SC_ERROR_MAX + 96];

		if (!r->errors && !r->error[0])
			continue;
		if (r->error[0] && r->errors)
			snprintf(line, sizeof(line), "rank %u (%s): %s (%" PRIu64 " failed I/Os)",
				 r->rank, r->host, r->error, r->errors);
		else if (r->error[0])
			snprintf(line, sizeof(line), "rank %u (%s): %s", r->rank, r->host,
				 r->error);
		else
			snprintf(line, sizeof(line), "rank %u (%s): %" PRIu64 " failed I/Os",
				 r->rank, r->host, r->errors);
		jpush(b, a, json_object_new_string(line));
	}
	return a;
}

static const struct sc_phase *phase_of(const struct sc_run_record *rec, uint32_t phase)
{
	return phase < rec->plan.nphases ? &rec->plan.phases[phase] : NULL;
}

static struct json_object *phase_json(struct jb *b, const struct sc_run_record *rec,
				      const struct sc_phase_record *pr,
				      const struct sc_phase_figures *f)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *nodes = jnew(b, json_object_new_array());
	struct json_object *ranks = jnew(b, json_object_new_array());
	const struct sc_phase *ph = phase_of(rec, pr->phase);

	jput_str(b, o, "name", ph ? ph->name : NULL);
	jput_u64(b, o, "index", pr->phase);
	jput_str(b, o, "rw", ph ? sc_rw_name(ph->io.rw) : NULL);
	jput_u64(b, o, "bs_bytes", ph ? ph->io.bs_bytes : 0);
	jput_u64(b, o, "iodepth", ph ? ph->io.iodepth : 0);
	jput_u64(b, o, "jobs", ph ? ph->io.jobs : 0);
	jput_i64(b, o, "measure_start_ns", pr->measure_start_ns);
	jput(b, o, "cluster", cluster_json(b, pr, f));
	for (uint32_t n = 0; n < f->nodes_len; n++)
		jpush(b, nodes, node_json(b, &f->nodes[n]));
	jput(b, o, "nodes", nodes);
	for (uint32_t i = 0; i < pr->nranks; i++)
		jpush(b, ranks, rank_json(b, pr, &pr->ranks[i]));
	jput(b, o, "ranks", ranks);
	jput(b, o, "timeseries", timeseries_json(b, pr, f));
	jput(b, o, "errors", errors_json(b, pr));
	return o;
}

/* ------------------------------------------------------------------ CSV */

/* One CSV field, quoted when it holds a comma, quote or line break. */
static void csv_str(FILE *f, const char *s, int last)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A latency in microseconds, or an empty field when the direction had no I/O. */
static void csv_us(FILE *f, const struct sc_lat_summary *s, int pct)
{
	if (s->count)
		fprintf(f, "%.3f", (double)s->pct_ns[pct] / NS_PER_US);
	fputc(',', f);
}

/* Index of a percentile in sc_pct_points. */
static int pct_index(double p)
{
	for (int i = 0; i < SC_NPCT; i++)
		if (sc_pct_points[i] == p)
			return i;
	return 0;
}

static void phases_csv_header(FILE *f)
{
	fputs("phase,rw,lastdone_MBps,firstdone_MBps,iops,"
	      "read_p50_us,read_p99_us,read_p99.99_us,"
	      "write_p50_us,write_p99_us,write_p99.99_us,"
	      "slowest_rank,slowest_host,errors\n",
	      f);
}

static void phases_csv_row(FILE *f, const struct sc_run_record *rec,
			   const struct sc_phase_record *pr, const struct sc_phase_figures *fig)
{
	static const double pts[] = {50, 99, 99.99};
	const struct sc_phase *ph = phase_of(rec, pr->phase);

	csv_str(f, ph ? ph->name : "", 0);
	csv_str(f, ph ? sc_rw_name(ph->io.rw) : "", 0);
	fprintf(f, "%.3f,%.3f,%.1f,", fig->lastdone_bw_bytes_per_s / BYTES_PER_MB,
		fig->firstdone_bw_bytes_per_s / BYTES_PER_MB, fig->iops_total);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++)
			csv_us(f, &fig->lat[d], pct_index(pts[i]));
	if (fig->nranks)
		fprintf(f, "%u,", fig->slowest_rank);
	else
		fputc(',', f);
	csv_str(f, fig->nranks ? host_of_rank(pr, fig->slowest_rank) : "", 0);
	fprintf(f, "%" PRIu64 "\n", fig->errors);
}

static void ranks_csv_header(FILE *f)
{
	fputs("phase,rank,node,host,bytes,MBps,read_p99_us,write_p99_us,errors\n", f);
}

static void ranks_csv_rows(FILE *f, const struct sc_run_record *rec,
			   const struct sc_phase_record *pr)
{
	const struct sc_phase *ph = phase_of(rec, pr->phase);
	int p99 = pct_index(99);

	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		csv_str(f, ph ? ph->name : "", 0);
		fprintf(f, "%u,%u,", r->rank, r->node);
		csv_str(f, r->host, 0);
		fprintf(f, "%" PRIu64 ",%.3f,", r->bytes[SC_DIR_READ] + r->bytes[SC_DIR_WRITE],
			rank_bw(pr, r) / BYTES_PER_MB);
		csv_us(f, &r->lat[SC_DIR_READ], p99);
		csv_us(f, &r->lat[SC_DIR_WRITE], p99);
		fprintf(f, "%" PRIu64 "\n", r->errors);
	}
}

/* ---------------------------------------------------------- sc_report_results */

struct outputs {
	struct json_object *root, *phases;
	FILE *phases_csv, *ranks_csv;
	char *phases_buf, *ranks_buf;
	size_t phases_len, ranks_len;
};

static struct json_object *results_root(struct jb *b, const struct sc_run_record *rec)
{
	struct json_object *o = jnew(b, json_object_new_object());

	jput_str(b, o, "tool", "ssdcluster");
	jput_str(b, o, "version", rec->version);
	jput_i64(b, o, "started_unix_ns", rec->started_unix_ns);
	jput_str(b, o, "config", rec->plan.config_path);
	jput_str(b, o, "run_id", rec->plan.run_id);
	jput_u64(b, o, "nranks", rec->nranks);
	jput_u64(b, o, "nnodes", rec->nnodes);
	jput(b, o, "definitions", definitions_json(b));
	jput(b, o, "plan", plan_echo(b, &rec->plan));
	return o;
}

static int write_results_pb(const char *dir, const struct sc_run_record *rec, char *err,
			    size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = sc_run_record_pack(rec, &buf, &len);

	if (rc) {
		set_err(err, errlen, "results.pb: cannot encode the results: %s", strerror(-rc));
		return rc;
	}
	rc = sc_report_write_atomic(dir, "results.pb", buf, len);
	free(buf);
	if (rc)
		set_err(err, errlen, "%s/results.pb: %s", dir, strerror(-rc));
	return rc;
}

static int write_named(const char *dir, const char *name, const void *data, size_t len, char *err,
		       size_t errlen)
{
	int rc = sc_report_write_atomic(dir, name, data, len);

	if (rc)
		set_err(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
	return rc;
}

int sc_report_results(const char *dir, const struct sc_run_record *rec, char *err, size_t errlen)
{
	struct jb b = {0};
	struct outputs out = {0};
	const char *json;
	size_t json_len;
	char *text;
	int rc;

	if (!dir || !dir[0])
		dir = ".";
	rc = write_results_pb(dir, rec, err, errlen);
	if (rc)
		return rc;

	out.phases_csv = open_memstream(&out.phases_buf, &out.phases_len);
	out.ranks_csv = open_memstream(&out.ranks_buf, &out.ranks_len);
	if (!out.phases_csv || !out.ranks_csv) {
		rc = -ENOMEM;
		goto out_nomem;
	}
	phases_csv_header(out.phases_csv);
	ranks_csv_header(out.ranks_csv);

	out.root = results_root(&b, rec);
	out.phases = jnew(&b, json_object_new_array());
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];
		struct sc_phase_figures fig;

		rc = sc_aggregate_phase(pr, &fig);
		if (rc)
			goto out_nomem;
		jpush(&b, out.phases, phase_json(&b, rec, pr, &fig));
		phases_csv_row(out.phases_csv, rec, pr, &fig);
		ranks_csv_rows(out.ranks_csv, rec, pr);
		sc_phase_figures_exit(&fig);
	}
	jput(&b, out.root, "phases", out.phases);
	out.phases = NULL; /* the root owns it now */
	if (b.nomem || ferror(out.phases_csv) || ferror(out.ranks_csv)) {
		rc = -ENOMEM;
		goto out_nomem;
	}
	/* the memstreams' buffers are complete once closed */
	rc = fclose(out.phases_csv) | fclose(out.ranks_csv);
	out.phases_csv = out.ranks_csv = NULL;
	if (rc) {
		rc = -ENOMEM;
		goto out_nomem;
	}

	json = json_object_to_json_string_length(out.root, JSON_FLAGS, &json_len);
	if (!json) {
		rc = -ENOMEM;
		goto out_nomem;
	}
	/* json-c's buffer ends in a NUL where the newline goes */
	text = malloc(json_len + 1);

	if (!text) {
		rc = -ENOMEM;
		goto out_nomem;
	}
	memcpy(text, json, json_len);
	text[json_len] = '\n';
	rc = write_named(dir, "results.json", text, json_len + 1, err, errlen);
	free(text);
	if (!rc)
		rc = write_named(dir, "phases.csv", out.phases_buf, out.phases_len, err, errlen);
	if (!rc)
		rc = write_named(dir, "ranks.csv", out.ranks_buf, out.ranks_len, err, errlen);
	goto out_free;

out_nomem:
	set_err(err, errlen, "%s: out of memory while building the results", dir);
out_free:
	if (out.phases_csv)
		fclose(out.phases_csv);
	if (out.ranks_csv)
		fclose(out.ranks_csv);
	free(out.phases_buf);
	free(out.ranks_buf);
	json_object_put(out.phases);
	json_object_put(out.root);
	return rc;
}

/* ------------------------------------------------------------ sc_report_plan */

/* Distinct node indices of the dry-run ranks, increasing; returns the count
 * or -ENOMEM.  *nodes is malloc'd (NULL when there are no ranks). */
static int distinct_nodes(const struct sc_dry_rank *ranks, uint32_t nranks, uint32_t **nodes)
{
	uint32_t n = 0, *v;

	*nodes = NULL;
	if (!nranks)
		return 0;
	v = malloc(nranks * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < nranks; i++) {
		uint32_t j = n;

		while (j > 0 && v[j - 1] > ranks[i].node)
			j--;
		if (j > 0 && v[j - 1] == ranks[i].node)
			continue;
		memmove(&v[j + 1], &v[j], (n - j) * sizeof(*v));
		v[j] = ranks[i].node;
		n++;
	}
	*nodes = v;
	return (int)n;
}

/* Ranks of node on target, and the host of the node's lowest rank. */
static uint32_t node_slots(const struct sc_dry_rank *ranks, uint32_t nranks, uint32_t node,
			   uint32_t target, const char **host)
{
	uint32_t n = 0, low = UINT32_MAX;

	*host = "";
	for (uint32_t i = 0; i < nranks; i++) {
		if (ranks[i].node != node)
			continue;
		if (ranks[i].place.rank < low) {
			low = ranks[i].place.rank;
			*host = ranks[i].host ? ranks[i].host : "";
		}
		if (ranks[i].place.target == target)
			n++;
	}
	return n;
}

static struct json_object *plan_rank_json(struct jb *b, const struct sc_plan *plan,
					  const struct sc_dry_rank *dr, int *err)
{
	struct json_object *o = jnew(b, json_object_new_object());
	struct json_object *files = jnew(b, json_object_new_array());
	struct json_object *planned = jnew(b, json_object_new_array());
	const struct sc_place *pl = &dr->place;
	const struct sc_target_spec *t =
	    pl->target < plan->ntargets ? &plan->targets[pl->target] : NULL;

	jput_u64(b, o, "rank", pl->rank);
	jput_str(b, o, "host", dr->host);
	jput_u64(b, o, "node", dr->node);
	jput_u64(b, o, "target", pl->target);
	jput_str(b, o, "target_path", t ? t->path : NULL);
	jput_str(b, o, "target_kind", t ? sc_target_kind_name(t->kind) : NULL);
	jput_u64(b, o, "slot", pl->slot);
	jput_u64(b, o, "nslots", pl->nslots);
	for (uint32_t p = 0; t && p < plan->nphases; p++) {
		const struct sc_io_spec *io = &plan->phases[p].io;
		uint64_t rd, wr;

		for (uint32_t j = 0; j < io->jobs; j++) {
			struct json_object *fo = jnew(b, json_object_new_object());
			char path[PATH_MAX];
			uint64_t off = 0;
			int rc = sc_layout_job_file(plan, pl, p, j, path, sizeof(path), &off);

			if (rc) {
				*err = rc;
				json_object_put(fo);
				continue;
			}
			jput_u64(b, fo, "phase", p);
			jput_u64(b, fo, "job", j);
			jput_str(b, fo, "path", path);
			jput_u64(b, fo, "offset_bytes", off);
			jput_u64(b, fo, "size_bytes", io->size_bytes);
			jpush(b, files, fo);
		}
		sc_layout_rank_bytes(plan, p, &rd, &wr);
		struct json_object *po = jnew(b, json_object_new_object());

		jput_u64(b, po, "phase", p);
		jput_u64(b, po, "read_bytes", rd);
		jput_u64(b, po, "write_bytes", wr);
		jpush(b, planned, po);
	}
	jput(b, o, "files", files);
	jput(b, o, "planned", planned);
	return o;
}

static struct json_object *plan_phases_json(struct jb *b, const struct sc_plan *plan,
					    uint32_t nranks)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_io_spec *io = &plan->phases[p].io;
		struct json_object *o = jnew(b, json_object_new_object());
		uint64_t rd, wr;

		sc_layout_rank_bytes(plan, p, &rd, &wr);
		jput_str(b, o, "name", plan->phases[p].name);
		jput_u64(b, o, "index", p);
		if (io->runtime_ns) {
			jput_u64(b, o, "expected_duration_ns", io->ramp_ns + io->runtime_ns);
			jput_null(b, o, "ends_after_bytes");
			jput_null(b, o, "bytes_read_planned");
			jput_null(b, o, "bytes_written_planned");
		} else {
			jput_null(b, o, "expected_duration_ns");
			jput_u64(b, o, "ends_after_bytes", io->io_bytes);
			jput_u64(b, o, "bytes_read_planned", rd * nranks);
			jput_u64(b, o, "bytes_written_planned", wr * nranks);
		}
		jpush(b, a, o);
	}
	return a;
}

static struct json_object *plan_targets_json(struct jb *b, const struct sc_plan *plan,
					     const struct sc_dry_rank *ranks, uint32_t nranks,
					     const uint32_t *nodes, uint32_t nnodes)
{
	struct json_object *a = jnew(b, json_object_new_array());

	for (uint32_t t = 0; t < plan->ntargets; t++) {
		const struct sc_target_spec *ts = &plan->targets[t];
		struct json_object *o = jnew(b, json_object_new_object());
		struct json_object *per_node = jnew(b, json_object_new_array());

		jput_u64(b, o, "index", t);
		jput_str(b, o, "path", ts->path);
		jput_str(b, o, "kind", sc_target_kind_name(ts->kind));
		jput_u64(b, o, "capacity_bytes", ts->capacity_bytes);
		for (uint32_t n = 0; n < nnodes; n++) {
			const char *host;
			uint32_t slots = node_slots(ranks, nranks, nodes[n], t, &host);
			struct json_object *no;
			uint64_t need;

			if (!slots)
				continue;
			need = sc_layout_need_bytes(plan, t, slots);
			no = jnew(b, json_object_new_object());
			jput_u64(b, no, "node", nodes[n]);
			jput_str(b, no, "host", host);
			jput_u64(b, no, "nranks", slots);
			jput_u64(b, no, "needed_bytes", need);
			jput_bool(b, no, "fits", !ts->capacity_bytes || need <= ts->capacity_bytes);
			jpush(b, per_node, no);
		}
		jput(b, o, "nodes", per_node);
		jpush(b, a, o);
	}
	return a;
}

static void print_plan(const struct sc_plan *plan, const struct sc_dry_rank *ranks, uint32_t nranks,
		       const uint32_t *nodes, uint32_t nnodes)
{
	char b1[32], b2[32], b3[32], b4[32];

	printf("plan %s: %u ranks on %u nodes, %u targets, %u phases (config %s)\n",
	       plan->run_id ? plan->run_id : "-", nranks, nnodes, plan->ntargets, plan->nphases,
	       plan->config_path ? plan->config_path : "-");
	for (uint32_t p = 0; p < plan->nphases; p++) {
		const struct sc_phase *ph = &plan->phases[p];
		const struct sc_io_spec *io = &ph->io;
		uint64_t rd, wr;
		char mix[24] = "";

		sc_layout_rank_bytes(plan, p, &rd, &wr);
		if (io->rw == SC_RW_RANDRW)
			snprintf(mix, sizeof(mix), " %u%% reads", io->rwmixread_pct);
		printf("  phase %u %s: %s%s, bs %s, QD %u, %u jobs x %s, ", p, ph->name,
		       sc_rw_name(io->rw), mix, sc_fmt_bytes(b1, sizeof(b1), io->bs_bytes),
		       io->iodepth, io->jobs, sc_fmt_bytes(b2, sizeof(b2), io->size_bytes));
		if (io->runtime_ns)
			printf("runtime %s + ramp %s; planned bytes: time-based\n",
			       sc_fmt_duration(b3, sizeof(b3), io->runtime_ns),
			       sc_fmt_duration(b4, sizeof(b4), io->ramp_ns));
		else
			printf("ends after %s per job; planned cluster read %s, write %s\n",
			       sc_fmt_bytes(b3, sizeof(b3), io->io_bytes),
			       sc_fmt_bytes(b1, sizeof(b1), rd * nranks),
			       sc_fmt_bytes(b4, sizeof(b4), wr * nranks));
	}
	for (uint32_t t = 0; t < plan->ntargets; t++) {
		const struct sc_target_spec *ts = &plan->targets[t];

		for (uint32_t n = 0; n < nnodes; n++) {
			const char *host;
			uint32_t slots = node_slots(ranks, nranks, nodes[n], t, &host);
			uint64_t need;

			if (!slots)
				continue;
			need = sc_layout_need_bytes(plan, t, slots);
			printf("  target %u %s (%s) on node %u (%s), %u ranks: needs %s of %s%s\n",
			       t, ts->path, sc_target_kind_name(ts->kind), nodes[n], host, slots,
			       sc_fmt_bytes(b1, sizeof(b1), need),
			       sc_fmt_bytes(b2, sizeof(b2), ts->capacity_bytes),
			       ts->capacity_bytes && need > ts->capacity_bytes ? "  TOO SMALL"
									       : "");
		}
	}
	if (nranks > PLAN_PRINT_RANKS_MAX)
		return;
	for (uint32_t i = 0; i < nranks; i++) {
		const struct sc_place *pl = &ranks[i].place;

		printf("  rank %u: host %s, node %u, target %u (%s)\n", pl->rank,
		       ranks[i].host ? ranks[i].host : "?", ranks[i].node, pl->target,
		       pl->target < plan->ntargets ? plan->targets[pl->target].path : "?");
	}
}

int sc_report_plan(const char *dir, const struct sc_plan *plan, const struct sc_dry_rank *ranks,
		   uint32_t nranks, char *err, size_t errlen)
{
	struct jb b = {0};
	struct json_object *root, *ra;
	uint32_t *nodes = NULL;
	int nnodes, rc = 0, file_err = 0;
	const char *json;
	size_t json_len;
	char *text;

	if (!dir || !dir[0])
		dir = ".";
	nnodes = distinct_nodes(ranks, nranks, &nodes);
	if (nnodes < 0) {
		set_err(err, errlen, "%s/plan.json: out of memory", dir);
		return nnodes;
	}

	root = jnew(&b, json_object_new_object());
	jput_str(&b, root, "tool", "ssdcluster");
	jput_str(&b, root, "version", SC_VERSION);
	jput_str(&b, root, "config", plan->config_path);
	jput_str(&b, root, "run_id", plan->run_id);
	jput_u64(&b, root, "nranks", nranks);
	jput_u64(&b, root, "nnodes", (uint64_t)nnodes);
	jput(&b, root, "plan", plan_echo(&b, plan));
	ra = jnew(&b, json_object_new_array());
	for (uint32_t i = 0; i < nranks; i++)
		jpush(&b, ra, plan_rank_json(&b, plan, &ranks[i], &file_err));
	jput(&b, root, "ranks", ra);
	jput(&b, root, "phases", plan_phases_json(&b, plan, nranks));
	jput(&b, root, "targets",
	     plan_targets_json(&b, plan, ranks, nranks, nodes, (uint32_t)nnodes));

	if (file_err) {
		rc = file_err;
		set_err(err, errlen, "%s/plan.json: a job file path is too long: %s", dir,
			strerror(-rc));
		goto out_free;
	}
	json = b.nomem ? NULL : json_object_to_json_string_length(root, JSON_FLAGS, &json_len);
	text = json ? malloc(json_len + 1) : NULL;
	if (!text) {
		rc = -ENOMEM;
		set_err(err, errlen, "%s/plan.json: out of memory", dir);
		goto out_free;
	}
	memcpy(text, json, json_len);
	text[json_len] = '\n';
	rc = write_named(dir, "plan.json", text, json_len + 1, err, errlen);
	free(text);
	if (!rc) {
		print_plan(plan, ranks, nranks, nodes, (uint32_t)nnodes);
		fflush(stdout);
	}
out_free:
	json_object_put(root);
	free(nodes);
	return rc;
}
