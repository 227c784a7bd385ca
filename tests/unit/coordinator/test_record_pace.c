/* test_record_pace.c -- when rank 0 rewrites the formatted files: a run
 * record rebuilt phase by phase through sc_record_keep_phase, with the
 * pace held back (due_ns in the far future), keeps results.pb whole after
 * every phase (each phase appended: the file before it is the start of the
 * file after it), and phases.csv and results.json.part too (appended
 * likewise), while results.json, an index of the run (its phases null,
 * phases_omitted counting them), waits; the index catches up after a
 * phase that did not end ok and after the plan's last phase, and
 * sc_record_flush makes results.json whole; the files appended a phase at
 * a time and results.json made whole from the part are byte for byte
 * those sc_report_formatted writes of the whole record; and a writing sets
 * the next one no earlier than SC_RECORD_PACE_RATIO times its own cost.
 * The record is tests/data/report_golden/sweep.pb. */
#include "record.h"

#include <json-c/json.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "clock.h"
#include "report/report.h"
#include "results_file.h"

/* Phases in dir/results.json: those its "phases" holds when whole (and
 * *index 0), or, an index, its "phases_omitted" (*index 1); -1 when it
 * cannot be read. */
static int json_phases_of(const char *dir, int *index)
{
	char path[512];
	struct json_object *o, *a, *f, *omitted;
	int n = -1;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	o = json_object_from_file(path);
	*index = -1;
	if (o && json_object_object_get_ex(o, "phases", &a) &&
	    json_object_is_type(a, json_type_array)) {
		n = (int)json_object_array_length(a);
		*index = 0;
	} else if (o && json_object_object_get_ex(o, "phases", &a) && !a &&
		   json_object_object_get_ex(o, "phases_file", &f) &&
		   !strcmp(json_object_get_string(f), "results.json.part") &&
		   json_object_object_get_ex(o, "phases_omitted", &omitted)) {
		n = json_object_get_int(omitted);
		*index = 1;
	}
	json_object_put(o);
	return n;
}

static int json_phases(const char *dir)
{
	int index;

	return json_phases_of(dir, &index);
}

static int json_index(const char *dir)
{
	int index;

	json_phases_of(dir, &index);
	return index;
}

/* The bytes of dir/name (*len of them, malloc'd), or NULL. */
static unsigned char *file_bytes(const char *dir, const char *name, size_t *len)
{
	char path[512];
	unsigned char *buf = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = xcalloc((size_t)n, 1);
		*len = fread(buf, 1, (size_t)n, f);
	}
	fclose(f);
	return buf;
}

/* Phases in dir/phases.csv (a header line, then a line a phase), -1
 * when it cannot be read. */
static int csv_phases(const char *dir)
{
	size_t len = 0;
	unsigned char *b = file_bytes(dir, "phases.csv", &len);
	int n = -1;

	for (size_t i = 0; b && i < len; i++)
		n += b[i] == '\n';
	free(b);
	return b ? n : -1;
}

/* Phases in dir/results.pb, -1 when it cannot be read. */
static int pb_phases(const char *dir)
{
	char path[512], err[256];
	struct sc_run_record rec;
	int n;

	snprintf(path, sizeof(path), "%s/results.pb", dir);
	memset(&rec, 0, sizeof(rec));
	if (sc_results_read(path, &rec, err, sizeof(err)))
		return -1;
	n = (int)rec.nphases;
	sc_run_record_exit(&rec);
	return n;
}

/* The golden record, and an empty one that takes over its plan. */
static struct sc_run_record *golden(struct sc_run_record *rec)
{
	const char *src = getenv("SC_SOURCE_DIR");
	struct sc_run_record *full = xcalloc(1, sizeof(*full));
	char path[4096], err[1024];

	snprintf(path, sizeof(path), "%s/tests/data/report_golden/sweep.pb", src ? src : ".");
	if (sc_results_read(path, full, err, sizeof(err))) {
		FAIL("%s: %s", path, err);
		free(full);
		return NULL;
	}
	memset(rec, 0, sizeof(*rec));
	rec->version = full->version;
	rec->nranks = full->nranks;
	rec->nnodes = full->nnodes;
	rec->started_unix_ns = full->started_unix_ns;
	rec->plan = full->plan;
	full->version = NULL;
	memset(&full->plan, 0, sizeof(full->plan));
	return full;
}

/* rec took over the first taken phases of full; the rest are full's */
static void drop(struct sc_run_record *full, uint32_t taken, struct sc_run_record *rec,
		 struct sc_run_figures *fg)
{
	for (uint32_t i = taken; i < full->nphases; i++)
		sc_phase_record_exit(&full->phases[i]);
	free(full->phases);
	full->phases = NULL;
	full->nphases = 0;
	sc_run_record_exit(full);
	free(full);
	sc_run_figures_exit(fg);
	sc_run_record_exit(rec);
}

/* The tables a phase adds rows to, appended a phase at a time in dir,
 * results.json, made whole from results.json.part, and report.html, its
 * phases' sections rendered once each, are byte for byte those
 * sc_report_formatted writes of the whole record read back from the
 * run's results.pb (rank 0 thinned its phases once written). */
static void same_tables(const char *dir)
{
	static const char *const names[] = {"phases.csv", "ranks.csv", "timeseries.csv",
					    "results.json", "report.html"};
	char whole[300], path[300], err[1024];
	struct sc_run_record back;
	struct sc_run_figures fg;

	snprintf(whole, sizeof(whole), "%s/whole", dir);
	snprintf(path, sizeof(path), "%s/results.pb", dir);
	memset(&back, 0, sizeof(back));
	sc_run_figures_init(&fg);
	CHECK(sc_results_read(path, &back, err, sizeof(err)) == 0, "%s", err);
	CHECK(sc_run_figures_of(&fg, &back) == 0, "figures of %s", path);
	CHECK(sc_report_formatted(whole, &back, &fg, NULL, NULL, err, sizeof(err)) == 0, "%s",
	      err);
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&back);
	for (size_t t = 0; t < sizeof(names) / sizeof(names[0]); t++) {
		size_t alen = 0, wlen = 0;
		unsigned char *a = file_bytes(dir, names[t], &alen);
		unsigned char *w = file_bytes(whole, names[t], &wlen);

		CHECK(a && w && alen == wlen && memcmp(a, w, alen) == 0,
		      "%s appended a phase at a time: %zu bytes, not the %zu written whole",
		      names[t], alen, wlen);
		free(a);
		free(w);
	}
}

/* dir/name after phase i grew from *was (its bytes before it, *was_len
 * of them, which it takes over): it starts with them. */
static void appended(const char *dir, const char *name, uint32_t i, unsigned char **was,
		     size_t *was_len)
{
	size_t now_len = 0;
	unsigned char *now = file_bytes(dir, name, &now_len);

	CHECK(now && now_len > *was_len && (!*was || memcmp(*was, now, *was_len) == 0),
	      "%s after phase %u (%zu bytes) does not start with the file before it (%zu "
	      "bytes): not appended",
	      name, i + 1, now_len, *was_len);
	free(*was);
	*was = now;
	*was_len = now_len;
}

/* Held back: results.json keeps the first phase until phase bad (which
 * did not end ok), then until the plan's last phase. */
static void test_held_back(const char *dir, uint32_t bad)
{
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_record_pace pace = {0};
	struct sc_run_record *full = golden(&rec);
	unsigned char *was = NULL, *was_part = NULL;
	size_t was_len = 0, was_part_len = 0, part_len = 0;
	uint32_t n;

	if (!full)
		return;
	n = full->nphases;
	CHECK(n >= 4 && rec.plan.nphases == n && bad > 0 && bad + 1 < n,
	      "sweep.pb: %u phase(s) of a plan of %u, want 4 or more, all of it", n,
	      rec.plan.nphases);
	sc_run_figures_init(&fg);
	for (uint32_t i = 0; i < n; i++) {
		struct sc_phase_record ph = full->phases[i];
		int want;

		CHECK(ph.status == SC_PHASE_OK, "sweep.pb: phase %u did not end ok", i);
		if (i == bad)
			ph.status = SC_PHASE_ERRORS;
		if (i > 0)
			pace.due_ns = UINT64_MAX; /* the formatted files took "forever" */
		CHECK(sc_record_keep_phase(&rec, &fg, &pace, &ph, dir, true) == 0, "keep phase %u",
		      i);
		want = i == 0 || i == bad || i + 1 == n ? (int)i + 1 : i < bad ? 1 : (int)bad + 1;
		CHECK(pb_phases(dir) == (int)i + 1, "results.pb after phase %u: %d phase(s)", i + 1,
		      pb_phases(dir));
		appended(dir, "results.pb", i, &was, &was_len);
		appended(dir, "results.json.part", i, &was_part, &was_part_len);
		CHECK(json_phases(dir) == want && json_index(dir) == 1,
		      "results.json after phase %u: %d phase(s), want %d, in an index (%d)", i + 1,
		      json_phases(dir), want, json_index(dir));
		CHECK(csv_phases(dir) == (int)i + 1, "phases.csv after phase %u: %d phase(s)", i + 1,
		      csv_phases(dir));
		CHECK(pace.behind == (want != (int)i + 1), "behind after phase %u: %d", i + 1,
		      pace.behind);
	}
	free(was);
	free(was_part);
	CHECK(sc_record_flush(&rec, &fg, &pace, dir) == 0, "flush");
	CHECK(json_phases(dir) == (int)n && json_index(dir) == 0,
	      "results.json after the flush: %d phase(s), want %u, whole (index %d)",
	      json_phases(dir), n, json_index(dir));
	CHECK(!file_bytes(dir, "results.json.part", &part_len),
	      "results.json.part left after results.json was made whole");
	CHECK(pace.thinned + 1 == n, "%u of %u phases thinned once written", pace.thinned, n);
	same_tables(dir);
	sc_record_pace_exit(&pace);
	drop(full, n, &rec, &fg);
}

/* A run cut short: sc_record_flush brings results.json up to
 * results.pb, once. */
static void test_flush(const char *dir)
{
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_record_pace pace = {0};
	struct sc_run_record *full = golden(&rec);
	uint64_t before, cost;
	uint32_t taken = 0;

	if (!full)
		return;
	sc_run_figures_init(&fg);
	for (uint32_t i = 0; i < 3 && i < full->nphases; i++, taken++) {
		struct sc_phase_record ph = full->phases[i];

		if (i > 0)
			pace.due_ns = UINT64_MAX;
		CHECK(sc_record_keep_phase(&rec, &fg, &pace, &ph, dir, true) == 0, "keep %u", i);
	}
	CHECK(json_phases(dir) == 1 && json_index(dir) == 1 && pb_phases(dir) == 3 &&
		  pace.behind,
	      "before the flush: results.json %d (index %d), results.pb %d phase(s), behind %d",
	      json_phases(dir), json_index(dir), pb_phases(dir), pace.behind);
	before = sc_now_ns();
	CHECK(sc_record_flush(&rec, &fg, &pace, dir) == 0, "flush");
	cost = sc_now_ns() - before;
	CHECK(json_phases(dir) == 3 && json_index(dir) == 0 && !pace.behind,
	      "after the flush: results.json %d phase(s), index %d", json_phases(dir),
	      json_index(dir));
	/* the next writing waits 9 times this one (which took at most cost) */
	CHECK(pace.due_ns > before && pace.due_ns <= sc_now_ns() + SC_RECORD_PACE_RATIO * cost,
	      "due %llu ns after the flush began, it took %llu ns",
	      (unsigned long long)(pace.due_ns - before), (unsigned long long)cost);
	pace.due_ns = 0;
	CHECK(sc_record_flush(&rec, &fg, &pace, dir) == 0 && pace.due_ns == 0,
	      "a flush with nothing behind writes nothing");
	sc_record_pace_exit(&pace);
	drop(full, taken, &rec, &fg);
}

/* Writes that fail (every file held at its size by RLIMIT_FSIZE) for the
 * phases from 2 to the one before the last: each is cut back, rank 0
 * keeps those phases' rows (only phases every file holds are thinned),
 * and the next phase that can be written appends every phase the files
 * lack; at the end the files are those of the whole record. */
static void test_writes_fail(const char *top)
{
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_record_pace pace = {0};
	struct sc_run_record *full = golden(&rec);
	struct rlimit was, lim;
	char dir[300];
	size_t len = 0;
	unsigned char *csv;
	uint32_t n;

	if (!full)
		return;
	snprintf(dir, sizeof(dir), "%s/fails", top);
	CHECK(mkdir(dir, 0700) == 0, "mkdir %s", dir);
	n = full->nphases;
	sc_run_figures_init(&fg);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &was);
	for (uint32_t i = 0; i < n; i++) {
		struct sc_phase_record ph = full->phases[i];
		bool fails = i >= 2 && i + 1 < n;
		int rc;

		csv = file_bytes(dir, "phases.csv", &len);
		free(csv);
		lim = was;
		lim.rlim_cur = len + 8; /* below every file with a phase more */
		if (fails)
			CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0, "setrlimit");
		rc = sc_record_keep_phase(&rec, &fg, &pace, &ph, dir, true);
		setrlimit(RLIMIT_FSIZE, &was);
		CHECK(fails ? rc != 0 : rc == 0, "phase %u kept: %d", i, rc);
		CHECK(pb_phases(dir) == (int)(fails ? 2 : i + 1) && csv_phases(dir) == pb_phases(dir),
		      "after phase %u: results.pb %d phase(s), phases.csv %d", i, pb_phases(dir),
		      csv_phases(dir));
		CHECK(pace.thinned == (fails ? 2 : i), "after phase %u: %u thinned", i,
		      pace.thinned);
		for (uint32_t k = 0; k <= i; k++)
			CHECK(!rec.phases[k].ranks == (k < pace.thinned),
			      "after phase %u: phase %u %s", i, k,
			      rec.phases[k].ranks ? "whole" : "thinned");
	}
	CHECK(sc_record_flush(&rec, &fg, &pace, dir) == 0, "flush");
	same_tables(dir);
	sc_record_pace_exit(&pace);
	drop(full, n, &rec, &fg);
}

/* ranks.csv replaced by a link to a file outside the run's folder while
 * the run goes: the next phase's rows are refused (the link never
 * followed, the file behind it untouched, the other tables cut back), the
 * phase keeps its rows, and nothing is written whole from thinned
 * phases. */
static void test_link_planted(const char *top)
{
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_record_pace pace = {0};
	struct sc_run_record *full = golden(&rec);
	char dir[300], link[400], outside[400];
	size_t len = 0;
	unsigned char *was;
	uint32_t n;

	if (!full)
		return;
	snprintf(dir, sizeof(dir), "%s/planted", top);
	snprintf(link, sizeof(link), "%s/ranks.csv", dir);
	snprintf(outside, sizeof(outside), "%s/outside", top);
	CHECK(mkdir(dir, 0700) == 0, "mkdir %s", dir);
	n = full->nphases < 4 ? full->nphases : 4;
	sc_run_figures_init(&fg);
	for (uint32_t i = 0; i < n; i++) {
		struct sc_phase_record ph = full->phases[i];
		int rc;

		if (i == 2) {
			FILE *f = fopen(outside, "w");

			CHECK(f && fputs("outside\n", f) >= 0 && fclose(f) == 0, "%s", outside);
			CHECK(unlink(link) == 0 && symlink(outside, link) == 0, "plant %s", link);
		}
		rc = sc_record_keep_phase(&rec, &fg, &pace, &ph, dir, true);
		CHECK(i < 2 ? rc == 0 : rc != 0, "phase %u kept: %d", i, rc);
	}
	was = file_bytes(top, "outside", &len);
	CHECK(was && len == 8 && !memcmp(was, "outside\n", 8), "the file behind the link: %zu B",
	      len);
	free(was);
	CHECK(csv_phases(dir) == 2 && pace.rows_phases == 2 && pace.thinned == 2 &&
		  rec.phases[n - 1].ranks && rec.phases[2].ranks,
	      "phases.csv %d phase(s), the tables %u, thinned %u: want 2, 2, 2, the rest whole",
	      csv_phases(dir), pace.rows_phases, pace.thinned);
	sc_record_pace_exit(&pace);
	drop(full, n, &rec, &fg);
}

int main(void)
{
	char dir[256];

	check_mkdtemp(dir, sizeof(dir), "record_pace");
	test_held_back(dir, 2);
	test_flush(dir);
	test_writes_fail(dir);
	test_link_planted(dir);
	check_rmtree(dir);
	return check_exit("test_record_pace");
}
