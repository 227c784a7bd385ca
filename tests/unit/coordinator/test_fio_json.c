/* test_fio_json.c -- fio.json of a made-up one-phase record, read back:
 * fio's units (bw KiB/s, bw_bytes B/s, runtime ms, clat ns), its keys,
 * json+ bins summing to total_ios and equal to the values recorded
 * (exact below 256 ns), fio's 17 percentiles against nearest-rank of the
 * sorted values, the stddev and the per-second statistics against their
 * textbook formulas, latency_ns/us/ms against fio's ranges. */
#include "report/report.h"

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "check.h"
#include "xorshift.h"

#define S	 INT64_C(1000000000)
#define NREAD	 2000u
#define NWRITE	 3000u
#define NSECONDS 5u /* the last cut short: 4 complete */

static const double pcts[17] = {1,  5,	10, 20, 30,   40,   50,	   60,	 70,
				80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static uint64_t rvals[NREAD], wvals[NWRITE];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank: the ceil(p/100 n)-th smallest of sorted v */
static uint64_t nearest_rank(const uint64_t *v, size_t n, double p)
{
	size_t r = (size_t)ceil(p / 100.0 * (double)n - 1e-9);

	return v[(r ? r : 1) - 1];
}

static struct sc_hist *hist_of(const uint64_t *v, size_t n)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	sc_hist_init(h);
	for (size_t i = 0; i < n; i++)
		sc_hist_record(h, v[i]);
	return h;
}

static void make_run(struct sc_run_record *run)
{
	struct sc_plan *p = &run->plan;
	struct sc_phase_record *ph;
	struct sc_rank_result *r;
	uint64_t st = 88172645463325252ull;

	memset(run, 0, sizeof(*run));
	run->version = xstrdup("9.9.9");
	run->started_unix_ns = INT64_C(1735689600123456789);
	run->nranks = run->nnodes = 1;
	p->run_id = xstrdup("fio-json-test");
	p->nphases = 1;
	p->phases = xcalloc(1, sizeof(*p->phases));
	p->phases[0] = (struct sc_phase){.name = xstrdup("mix"),
					 .group = xstrdup("mix"),
					 .ncells = 1,
					 .io = {.rw = SC_RW_RANDRW,
						.rwmixread_pct = 40,
						.bs_bytes = 4096,
						.iodepth = 16,
						.jobs = 3,
						.size_bytes = 64 << 20,
						.runtime_ns = 4500 * (S / 1000),
						.direct = true,
						.engine = SC_ENGINE_URING}};
	/* reads below 256 ns (counted exactly), writes 1 us to ~30 ms */
	for (uint32_t i = 0; i < NREAD; i++)
		rvals[i] = 3 + (uint64_t)(xs_unit(&st) * 250);
	for (uint32_t i = 0; i < NWRITE; i++)
		wvals[i] = 1000 + (uint64_t)xs_expo(&st, 200000);
	run->nphases = 1;
	run->phases = ph = xcalloc(1, sizeof(*ph));
	ph->nranks = 1;
	ph->ranks = r = xcalloc(1, sizeof(*r));
	ph->lat[SC_DIR_READ] = hist_of(rvals, NREAD);
	ph->lat[SC_DIR_WRITE] = hist_of(wvals, NWRITE);
	r->start_ns = 0;
	r->end_ns = 4500 * (S / 1000); /* 4.5 s */
	r->ios[SC_DIR_READ] = NREAD;
	r->ios[SC_DIR_WRITE] = NWRITE;
	r->bytes[SC_DIR_READ] = (uint64_t)NREAD * 4096;
	r->bytes[SC_DIR_WRITE] = (uint64_t)NWRITE * 4096;
	sc_hist_summarize(ph->lat[SC_DIR_READ], &r->lat[SC_DIR_READ]);
	sc_hist_summarize(ph->lat[SC_DIR_WRITE], &r->lat[SC_DIR_WRITE]);
	r->nseconds = NSECONDS;
	r->seconds = xcalloc(NSECONDS, sizeof(*r->seconds));
	for (uint32_t k = 0; k < NSECONDS; k++) {
		r->seconds[k].ios[SC_DIR_READ] = 400 + 10 * k;
		r->seconds[k].bytes[SC_DIR_READ] = (400 + 10 * k) * 4096;
		r->seconds[k].ios[SC_DIR_WRITE] = 700 - 50 * k * k;
		r->seconds[k].bytes[SC_DIR_WRITE] = (700 - 50 * k * k) * 4096;
	}
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v))
		FAIL("no key %s", key);
	return v;
}

static double num(struct json_object *o, const char *key)
{
	return json_object_get_double(get(o, key));
}

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want) + 1e-9;
}

/* mean, sample stddev (n - 1) of the complete seconds' v */
static void stats_of(const struct sc_second *s, int d, int iops, double *mean, double *dev,
		     double *min, double *max)
{
	double sum = 0, ss = 0, v;
	const uint32_t n = NSECONDS - 1;

	*min = INFINITY;
	*max = 0;
	for (uint32_t k = 0; k < n; k++) {
		v = iops ? (double)s[k].ios[d] : (double)s[k].bytes[d] / 1024;
		sum += v;
		*min = fmin(*min, v);
		*max = fmax(*max, v);
	}
	*mean = sum / n;
	for (uint32_t k = 0; k < n; k++) {
		v = iops ? (double)s[k].ios[d] : (double)s[k].bytes[d] / 1024;
		ss += (v - *mean) * (v - *mean);
	}
	*dev = sqrt(ss / (n - 1));
}

static void check_dir(struct json_object *x, const char *what, const uint64_t *v, size_t n,
		      const struct sc_second *sec, int d, int exact)
{
	struct json_object *clat = get(x, "clat_ns"), *pct, *bins;
	double window_s = 4.5, mean = 0, ss = 0, smean, sdev, smin, smax;
	uint64_t sum = 0, io_bytes = (uint64_t)n * 4096;
	char key[32];

	check_context = what;
	CHECK((uint64_t)num(x, "io_bytes") == io_bytes, "io_bytes");
	CHECK((uint64_t)num(x, "io_kbytes") == io_bytes / 1024, "io_kbytes in KiB");
	CHECK((uint64_t)num(x, "bw_bytes") == (uint64_t)llround(io_bytes / window_s),
	      "bw_bytes B/s");
	CHECK((uint64_t)num(x, "bw") == (uint64_t)llround(io_bytes / window_s / 1024), "bw KiB/s");
	CHECK(near(num(x, "iops"), n / window_s, 1e-12), "iops");
	CHECK((uint64_t)num(x, "runtime") == 4500, "runtime in ms: %g", num(x, "runtime"));
	CHECK((uint64_t)num(x, "total_ios") == n, "total_ios");
	CHECK(num(get(x, "slat_ns"), "N") == 0, "slat not measured");
	CHECK((uint64_t)num(clat, "N") == n && (uint64_t)num(get(x, "lat_ns"), "N") == n, "N");
	CHECK((uint64_t)num(clat, "min") == v[0] && (uint64_t)num(clat, "max") == v[n - 1],
	      "min/max ns");
	for (size_t i = 0; i < n; i++)
		mean += (double)v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	CHECK(near(num(clat, "mean"), mean, 1e-12), "mean ns %g vs %g", num(clat, "mean"), mean);
	/* exact values: the stddev too; else within a bucket's width */
	CHECK(near(num(clat, "stddev"), sqrt(ss / (double)(n - 1)), exact ? 1e-12 : 1.0 / 128),
	      "stddev %g vs %g", num(clat, "stddev"), sqrt(ss / (double)(n - 1)));
	pct = get(clat, "percentile");
	CHECK(json_object_object_length(pct) == 17, "fio's 17 default percentiles");
	for (int k = 0; k < 17; k++) {
		uint64_t want = nearest_rank(v, n, pcts[k]);
		double got;

		snprintf(key, sizeof(key), "%f", pcts[k]);
		got = num(pct, key);
		CHECK(exact ? got == (double)want : near(got, (double)want, 1.0 / 128),
		      "p%s: %g ns vs nearest rank %llu ns", key, got, (unsigned long long)want);
	}
	bins = get(clat, "bins");
	json_object_object_foreach(bins, bk, bv)
	{
		uint64_t at = strtoull(bk, NULL, 10), count = 0;

		sum += (uint64_t)json_object_get_int64(bv);
		if (!exact)
			continue;
		for (size_t i = 0; i < n; i++)
			count += v[i] == at;
		CHECK(count == (uint64_t)json_object_get_int64(bv), "bin %s: %lld, recorded %llu",
		      bk, (long long)json_object_get_int64(bv), (unsigned long long)count);
	}
	CHECK(sum == n, "bins sum to %llu, total_ios %zu", (unsigned long long)sum, n);
	stats_of(sec, d, 0, &smean, &sdev, &smin, &smax);
	CHECK(near(num(x, "bw_mean"), smean, 1e-12) && near(num(x, "bw_dev"), sdev, 1e-12) &&
		  num(x, "bw_min") == round(smin) && num(x, "bw_max") == round(smax) &&
		  num(x, "bw_samples") == NSECONDS - 1,
	      "bw per second (KiB/s)");
	stats_of(sec, d, 1, &smean, &sdev, &smin, &smax);
	CHECK(near(num(x, "iops_mean"), smean, 1e-12) && near(num(x, "iops_stddev"), sdev, 1e-12) &&
		  num(x, "iops_min") == smin && num(x, "iops_max") == smax &&
		  num(x, "iops_samples") == NSECONDS - 1,
	      "iops per second");
	check_context = NULL;
}

/* fio's range of v ns: index into the 32 ranges ns, us, ms */
static int fio_range(uint64_t v)
{
	static const uint64_t b[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};
	uint64_t u = v < 1000 ? v : v < 1000000 ? v / 1000 : v / 1000000;
	int base = v < 1000 ? 0 : v < 1000000 ? 10 : 20, k = 0;

	while (k < (base == 20 ? 11 : 10) && u >= b[k])
		k++;
	return base + k;
}

static void check_ranges(struct json_object *job)
{
	static const char *const names[3] = {"latency_ns", "latency_us", "latency_ms"};
	double want[32] = {0}, total = 0;
	int at = 0;

	for (size_t i = 0; i < NREAD; i++)
		want[fio_range(rvals[i])] += 100.0 / (NREAD + NWRITE);
	for (size_t i = 0; i < NWRITE; i++)
		want[fio_range(wvals[i])] += 100.0 / (NREAD + NWRITE);
	for (int u = 0; u < 3; u++) {
		struct json_object *o = get(job, names[u]);

		CHECK(json_object_object_length(o) == (u == 2 ? 12 : 10), "%s: fio's keys",
		      names[u]);
		CHECK(u < 2 || json_object_object_get_ex(o, ">=2000", NULL), "latency_ms >=2000");
		json_object_object_foreach(o, k, val)
		{
			double got = json_object_get_double(val);

			/* ns ranges hold the exact reads; the rest within a
			 * bucket's width of the boundaries */
			CHECK(u > 0 ? fabs(got - want[at]) < 0.5 : fabs(got - want[at]) < 1e-9,
			      "%s[%s]: %g%% vs %g%%", names[u], k, got, want[at]);
			total += got;
			at++;
		}
	}
	CHECK(fabs(total - 100) < 1e-9, "latency ranges sum to %g%%", total);
}

int main(void)
{
	struct sc_run_record run;
	struct sc_run_figures fg;
	struct json_object *root, *job, *opts;
	size_t len;
	char *text;

	make_run(&run);
	CHECK(sc_run_figures_of(&fg, &run) == 0, "figures");
	text = sc_report_fio_json_text(&run, &fg, &len);
	CHECK(text && len && text[len - 1] == '\n', "text");
	if (text) { /* the text ends in its newline, not a NUL */
		char *z = strndup(text, len);

		root = z ? json_tokener_parse(z) : NULL;
		free(z);
	} else {
		root = NULL;
	}
	CHECK(root, "fio.json parses");
	CHECK(!strcmp(json_object_get_string(get(root, "fio version")), "ssdcluster-9.9.9"),
	      "fio version");
	CHECK(num(root, "timestamp") == 1735689600, "timestamp in s");
	CHECK(json_object_get_int64(get(root, "timestamp_ms")) == INT64_C(1735689600123),
	      "timestamp_ms");
	get(root, "time");
	get(root, "global options");
	CHECK(json_object_array_length(get(root, "jobs")) == 1, "one job per phase");
	job = json_object_array_get_idx(get(root, "jobs"), 0);
	CHECK(!strcmp(json_object_get_string(get(job, "jobname")), "mix"), "jobname");
	CHECK(num(job, "groupid") == 0 && num(job, "job_runtime") == 4500, "groupid, job_runtime");
	opts = get(job, "job options");
	CHECK(!strcmp(json_object_get_string(get(opts, "rw")), "randrw") &&
		  !strcmp(json_object_get_string(get(opts, "rwmixread")), "40") &&
		  !strcmp(json_object_get_string(get(opts, "bs")), "4k") &&
		  !strcmp(json_object_get_string(get(opts, "size")), "64m") &&
		  !strcmp(json_object_get_string(get(opts, "runtime")), "4500ms") &&
		  !strcmp(json_object_get_string(get(opts, "iodepth")), "16") &&
		  !strcmp(json_object_get_string(get(opts, "numjobs")), "3"),
	      "job options as fio echoes them");
	qsort(rvals, NREAD, sizeof(*rvals), cmp_u64);
	qsort(wvals, NWRITE, sizeof(*wvals), cmp_u64);
	check_dir(get(job, "read"), "read", rvals, NREAD, run.phases[0].ranks[0].seconds,
		  SC_DIR_READ, 1);
	check_dir(get(job, "write"), "write", wvals, NWRITE, run.phases[0].ranks[0].seconds,
		  SC_DIR_WRITE, 0);
	CHECK(num(get(job, "trim"), "total_ios") == 0 &&
		  !json_object_object_get_ex(get(get(job, "trim"), "clat_ns"), "bins", NULL),
	      "trim: empty, no bins (as fio)");
	check_ranges(job);
	json_object_put(root);
	free(text);
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&run);
	return check_exit("test_fio_json");
}
