/* test_pct_support.c -- which percentiles a sample count supports, and how
 * an unsupported one, an undefined volatility or an undefined last/first
 * ratio is shown (JSON null with its basis, "n/a" in the text), against
 * known inputs: the rule n >= 1 / (1 - p) written out, histograms of
 * 1 .. n microseconds (the k-th smallest is k us), and checkpoint
 * durations set by hand. */
#include "analysis/pct_support.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/aggregate.h"
#include "analysis/figures.h"
#include "check.h"
#include "report/pct_text.h"
#include "report/report_priv.h"

#define US 1000u

/* 1 / (1 - p) for p50, p90, p99, p99.9, p99.99, p99.999, p99.9999 */
static const uint64_t needs[SC_NPCT] = {2, 10, 100, 1000, 10000, 100000, 1000000};

/* The summary of n samples 1 us, 2 us, ..., n us. */
static void summary_of(uint32_t n, struct sc_lat_summary *s)
{
	struct sc_hist *h = xcalloc(1, sizeof(*h));

	sc_hist_init(h);
	for (uint32_t k = 1; k <= n; k++)
		sc_hist_record(h, (uint64_t)k * US);
	sc_hist_summarize(h, s);
	free(h);
}

/* Within the histogram's 0.4% of the k-th smallest sample, k us. */
static int near_kth(uint64_t got_ns, double k)
{
	return fabs((double)got_ns - k * US) <= 0.004 * k * US;
}

static void test_rule(void)
{
	for (int i = 0; i < SC_NPCT; i++) {
		double p = sc_pct_points[i];

		CHECK(sc_pct_min_samples(p) == needs[i], "%s needs %llu, not %llu", sc_pct_names[i],
		      (unsigned long long)needs[i], (unsigned long long)sc_pct_min_samples(p));
		CHECK(sc_pct_supported(p, needs[i]), "%s from %llu samples", sc_pct_names[i],
		      (unsigned long long)needs[i]);
		CHECK(!sc_pct_supported(p, needs[i] - 1), "%s from %llu samples", sc_pct_names[i],
		      (unsigned long long)needs[i] - 1);
	}
	CHECK(!sc_pct_supported(99.99, 0) && !sc_pct_supported(50, 0), "0 samples support none");
	CHECK(sc_pct_min_samples(100) == UINT64_MAX, "p100 is never a percentile of a sample");
}

/* 756 samples (the run): p50 .. p99 are numbers, p99.9 and beyond
 * null with "max of 756 samples", in the summary, the JSON and the text. */
static void test_756(void)
{
	struct sc_lat_summary s;
	struct jb b = {0};
	struct json_object *o, *v;
	char buf[64];
	uint64_t ns;
	FILE *f;
	char *text = NULL;
	size_t len = 0;
	static const double row[] = {50, 99, 99.99};

	summary_of(756, &s);
	CHECK(sc_lat_pct(&s, sc_pct_index(99), &ns) && near_kth(ns, 749), /* ceil(.99 x 756) */
	      "p99 of 756 samples: %llu ns, want 749 us", (unsigned long long)ns);
	CHECK(!sc_lat_pct(&s, sc_pct_index(99.9), &ns), "p99.9 of 756 samples");
	CHECK(!sc_lat_pct(&s, sc_pct_index(99.99), &ns), "p99.99 of 756 samples");
	CHECK(!strcmp(sc_pct_basis(s.count, buf, sizeof(buf)), "max of 756 samples"), "basis %s",
	      buf);
	CHECK(!strcmp(sc_pct_basis(1, buf, sizeof(buf)), "max of 1 sample"), "basis %s", buf);

	o = sc_report_json_lat(&b, &s);
	CHECK(json_object_object_get_ex(o, "p99.99", &v) && v == NULL, "JSON p99.99 not null");
	CHECK(json_object_object_get_ex(o, "p99.99_basis", &v) &&
		  !strcmp(json_object_get_string(v), "max of 756 samples"),
	      "JSON p99.99_basis");
	CHECK(json_object_object_get_ex(o, "p99.9", &v) && v == NULL, "JSON p99.9 not null");
	CHECK(json_object_object_get_ex(o, "p99", &v) && json_object_is_type(v, json_type_int) &&
		  near_kth(json_object_get_uint64(v), 749),
	      "JSON p99");
	CHECK(!json_object_object_get_ex(o, "p99_basis", NULL), "p99 supported: no basis");
	json_object_put(o);

	CHECK(!strcmp(sc_report_fmt_pct(buf, sizeof(buf), &s, sc_pct_index(99.99)), "n/a"),
	      "text p99.99 \"%s\"", buf);
	f = open_memstream(&text, &len);
	sc_report_pct_note(f, "  ", &s, row, 3);
	fclose(f);
	CHECK(text && !strcmp(text, "  p99.99 n/a (needs 10000 samples): max of 756 samples "
				    "756 us\n"),
	      "note \"%s\"", text ? text : "");
	free(text);
}

/* 10,000 samples support p99.99 (the 9,999th smallest, 9,999 us); 9,999
 * do not. */
static void test_10000(void)
{
	struct sc_lat_summary s;
	struct jb b = {0};
	struct json_object *o, *v;
	char buf[64];
	uint64_t ns = 0;

	summary_of(10000, &s);
	CHECK(sc_lat_pct(&s, sc_pct_index(99.99), &ns) && near_kth(ns, 9999),
	      "p99.99 of 10000 samples: %llu ns", (unsigned long long)ns);
	CHECK(!sc_lat_pct(&s, sc_pct_index(99.999), &ns), "p99.999 of 10000 samples");
	o = sc_report_json_lat(&b, &s);
	CHECK(json_object_object_get_ex(o, "p99.99", &v) && json_object_is_type(v, json_type_int),
	      "JSON p99.99 of 10000 samples not a number");
	CHECK(!json_object_object_get_ex(o, "p99.99_basis", NULL), "p99.99: no basis");
	json_object_put(o);
	CHECK(strcmp(sc_report_fmt_pct(buf, sizeof(buf), &s, sc_pct_index(99.99)), "n/a"),
	      "text p99.99 of 10000 samples n/a");

	summary_of(9999, &s);
	CHECK(!sc_lat_pct(&s, sc_pct_index(99.99), &ns), "p99.99 of 9999 samples");
}

/* Checkpoint durations d (seconds) of one group, as a run record. */
static void ckpt_record(struct sc_run_record *rec, const double *d, uint32_t n)
{
	struct sc_phase *ph;

	memset(rec, 0, sizeof(*rec));
	ph = check_plan_dir(&rec->plan, "/tmp/none", "run", "ck", n);
	rec->nphases = n;
	rec->phases = xcalloc(n, sizeof(*rec->phases));
	for (uint32_t i = 0; i < n; i++) {
		ph[i].workload = SC_WORKLOAD_CHECKPOINT;
		ph[i].ckpt.index = i;
		rec->phases[i].phase = i;
		rec->phases[i].status = SC_PHASE_OK;
		rec->phases[i].nranks = 1;
		rec->phases[i].ranks = xcalloc(1, sizeof(*rec->phases[i].ranks));
		rec->phases[i].ranks[0].end_ns = (int64_t)(d[i] * 1e9);
		rec->phases[i].ranks[0].bytes[SC_DIR_WRITE] = 1u << 20;
	}
}

static void test_last_first(void)
{
	static const double one[] = {2.0}, two[] = {2.0, 3.0};
	struct sc_run_record rec;
	struct sc_run_figures fg;
	char buf[32];

	ckpt_record(&rec, one, 1);
	CHECK(sc_run_figures_of(&fg, &rec) == 0 && fg.nckpt == 1, "one group");
	if (fg.nckpt == 1) {
		CHECK(fg.ckpt[0].write.n == 1, "one checkpoint");
		CHECK(isnan(fg.ckpt[0].write.last_first_ratio), "last/first of one checkpoint: %g",
		      fg.ckpt[0].write.last_first_ratio);
	}
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&rec);

	ckpt_record(&rec, two, 2);
	CHECK(sc_run_figures_of(&fg, &rec) == 0 && fg.nckpt == 1, "one group");
	if (fg.nckpt == 1)
		CHECK(fabs(fg.ckpt[0].write.last_first_ratio - 1.5) < 1e-12,
		      "last/first 3 s / 2 s: %g", fg.ckpt[0].write.last_first_ratio);
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&rec);

	CHECK(!strcmp(sc_report_fmt_share(buf, sizeof(buf), NAN), "n/a"), "volatility NAN");
	CHECK(!strcmp(sc_report_fmt_share(buf, sizeof(buf), 0.123), "12.3%"), "volatility 0.123");
}

int main(void)
{
	test_rule();
	test_756();
	test_10000();
	test_last_first();
	return check_exit("test_pct_support");
}
