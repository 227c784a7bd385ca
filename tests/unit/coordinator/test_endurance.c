/* test_endurance.c -- drive writes a run consumed, per drive, against the
 * rating of the config's model: section (model/endurance.h), gathered
 * phase by phase (analysis/drive_writes.h), and the inventory
 * (analysis/inventory.h), on hand-made run records.
 *
 * Exit 0 pass, 1 fail.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/drive_writes.h"
#include "analysis/inventory.h"
#include "check.h"
#include "model/endurance.h"
#include "report/drives.h"

#define TB UINT64_C(1000000000000)
#define GB UINT64_C(1000000000)

static struct sc_drive nvme(const char *dev, uint64_t units_before, uint64_t units_after,
			    uint32_t pct_before, uint32_t pct_after)
{
	struct sc_drive d;

	memset(&d, 0, sizeof(d));
	snprintf(d.device, sizeof(d.device), "%s", dev);
	snprintf(d.controller, sizeof(d.controller), "nvme0");
	snprintf(d.model, sizeof(d.model), "PM1733a");
	snprintf(d.serial, sizeof(d.serial), "SER-%s", dev);
	d.capacity_bytes = UINT64_C(3840755982336);
	d.before = (struct sc_drive_health){
	    .valid = true, .data_units_written = units_before, .percentage_used = pct_before};
	d.after = (struct sc_drive_health){
	    .valid = true, .data_units_written = units_after, .percentage_used = pct_after};
	return d;
}

/* rec's phases: nphases of nranks rows each, row (r of phase p) filling
 * each. */
static void add_phases(struct sc_run_record *rec, uint32_t nphases, uint32_t nranks,
		       void (*row)(struct sc_rank_result *, uint32_t p, uint32_t r))
{
	rec->nranks = nranks;
	rec->nphases = nphases;
	rec->phases = xcalloc(nphases, sizeof(*rec->phases));
	for (uint32_t p = 0; p < nphases; p++) {
		struct sc_phase_record *pr = &rec->phases[p];

		pr->phase = p;
		pr->nranks = nranks;
		pr->ranks = xcalloc(nranks, sizeof(*pr->ranks));
		for (uint32_t r = 0; r < nranks; r++)
			row(&pr->ranks[r], p, r);
	}
}

/* Rank row r of phase p of make_run's run. */
static void run_row(struct sc_rank_result *row, uint32_t p, uint32_t r)
{
	row->rank = r;
	row->node = r / 2;
	snprintf(row->host, sizeof(row->host), "gpu%u", r / 2);
	row->target = r / 2;
	row->bytes[SC_DIR_WRITE] = UINT64_C(1000000000);
	if (r == 2) {
		snprintf(row->telemetry_none, sizeof(row->telemetry_none),
			 "no NVMe telemetry: /var/tmp/x is on vda (not NVMe)");
		return;
	}
	row->ndrives = 1;
	row->drives = xcalloc(1, sizeof(*row->drives));
	row->drives[0] = nvme("nvme0n1", 1000 + 2000 * p, 3000 + 2000 * p, 3, p ? 5 : 4);
}

/* A run of 2 phases and 3 ranks: ranks 0 and 1 on node 0 share nvme0n1,
 * rank 2 on node 1 writes to a target with no NVMe.  Each rank writes
 * 1 GB per phase.  The drive's SMART log goes 1000 -> 3000 units in phase
 * 0 and 3000 -> 5000 in phase 1. */
static void make_run(struct sc_run_record *rec, bool with_model)
{
	memset(rec, 0, sizeof(*rec));
	rec->nnodes = 2;
	rec->plan.ntargets = 2;
	rec->plan.targets = xcalloc(2, sizeof(*rec->plan.targets));
	rec->plan.targets[0].path = xstrdup("/mnt/nvme");
	rec->plan.targets[1].path = xstrdup("/var/tmp/x");
	if (with_model) {
		rec->plan.nmodel = 3;
		rec->plan.model = xcalloc(3, sizeof(*rec->plan.model));
		rec->plan.model[0] = (struct sc_plan_kv){xstrdup("dwpd"), xstrdup("3")};
		rec->plan.model[1] = (struct sc_plan_kv){xstrdup("warranty"), xstrdup("5y")};
		rec->plan.model[2] = (struct sc_plan_kv){xstrdup("drive_capacity"), xstrdup("1TB")};
	}
	add_phases(rec, 2, 3, run_row);
}

static void test_smart_and_counted(void)
{
	struct sc_run_record rec;
	struct sc_endurance e;
	char err[256] = "";
	int rc;

	make_run(&rec, false);
	rc = sc_endurance_of_run(&rec, &e, err, sizeof(err));
	CHECK(rc == 0 && e.ndrives == 2, "two drives, got rc %d n %u (%s)", rc, e.ndrives, err);
	if (rc == 0 && e.ndrives == 2) {
		const struct sc_endurance_drive *a = &e.drives[0], *b = &e.drives[1];
		double rated = 1.0 * 365 * 5 * 3840755982336.0;

		CHECK(e.dwpd == 1.0 && e.warranty_years == 5.0 && !e.rating_from_config,
		      "default rating 1 DWPD x 5 years");
		CHECK(a->nvme && !strcmp(a->device, "nvme0n1") && a->node == 0 && a->nranks == 2,
		      "nvme0n1 on node 0, 2 ranks (got %u)", a->nranks);
		CHECK(a->source == SC_ENDURANCE_SMART, "SMART where both logs were read");
		CHECK(a->written_bytes == UINT64_C(4000) * 512000,
		      "5000 - 1000 units x 512,000 B, got %llu",
		      (unsigned long long)a->written_bytes);
		CHECK(a->counted_bytes == UINT64_C(4000000000), "4 GB counted, got %llu",
		      (unsigned long long)a->counted_bytes);
		CHECK(a->capacity_bytes == UINT64_C(3840755982336) && !a->capacity_from_config,
		      "the drive's own capacity");
		CHECK(fabs(a->drive_writes - 2048000000.0 / 3840755982336.0) < 1e-12,
		      "drive writes %g", a->drive_writes);
		CHECK(fabs(a->rated_bytes - rated) < 1.0, "rated %g B, want %g", a->rated_bytes,
		      rated);
		CHECK(fabs(a->life_used_pct - 100 * 2048000000.0 / rated) < 1e-13, "life used %g%%",
		      a->life_used_pct);
		CHECK(a->pct_known && a->pct_used_before == 3 && a->pct_used_after == 5,
		      "percentage used 3 -> 5, got %u -> %u", a->pct_used_before,
		      a->pct_used_after);
		CHECK(!b->nvme && b->node == 1 && b->source == SC_ENDURANCE_COUNTED &&
			  b->written_bytes == UINT64_C(2000000000),
		      "the target with no NVMe: 2 GB counted, got %llu",
		      (unsigned long long)b->written_bytes);
		CHECK(b->capacity_bytes == 0 && isnan(b->drive_writes) && isnan(b->life_used_pct),
		      "no capacity known without drive or config: unknown, not 0");
		CHECK(!b->pct_known, "no percentage used without SMART");
	}
	sc_endurance_exit(&e);

	/* the last phase's log after could not be read: counted instead */
	memset(&rec.phases[1].ranks[0].drives[0].after, 0, sizeof(struct sc_drive_health));
	memset(&rec.phases[1].ranks[1].drives[0].after, 0, sizeof(struct sc_drive_health));
	rc = sc_endurance_of_run(&rec, &e, err, sizeof(err));
	CHECK(rc == 0 && e.ndrives == 2 && e.drives[0].source == SC_ENDURANCE_COUNTED &&
		  e.drives[0].written_bytes == UINT64_C(4000000000) && !e.drives[0].pct_known,
	      "a log not read after the last phase: counted 4 GB");
	sc_endurance_exit(&e);
	sc_run_record_exit(&rec);
}

static void test_config_rating(void)
{
	struct sc_run_record rec;
	struct sc_endurance e;
	char err[256] = "";
	int rc;

	make_run(&rec, true);
	rc = sc_endurance_of_run(&rec, &e, err, sizeof(err));
	CHECK(rc == 0 && e.ndrives == 2, "rc %d (%s)", rc, err);
	if (rc == 0 && e.ndrives == 2) {
		CHECK(e.dwpd == 3.0 && e.warranty_years == 5.0 && e.rating_from_config,
		      "3 DWPD x 5 years from model:");
		CHECK(e.drives[0].capacity_bytes == TB && e.drives[0].capacity_from_config,
		      "drive_capacity 1TB overrides the drive's own");
		CHECK(fabs(e.drives[1].drive_writes - 2e9 / 1e12) < 1e-15,
		      "counted target: 2 GB of 1 TB = 0.002 drive writes, got %g",
		      e.drives[1].drive_writes);
		CHECK(fabs(e.drives[1].life_used_pct - 100 * 2e9 / (3.0 * 365 * 5 * 1e12)) < 1e-16,
		      "share of 3 x 365 x 5 x 1 TB, got %g%%", e.drives[1].life_used_pct);
	}
	sc_endurance_exit(&e);
	sc_run_record_exit(&rec);
}

static void test_inventory(void)
{
	struct sc_run_record rec;
	struct sc_inventory inv;

	make_run(&rec, false);
	CHECK(sc_inventory_of_run(&rec, &inv) == 0 && inv.n == 2, "two entries, got %u", inv.n);
	if (inv.n == 2) {
		CHECK(inv.entries[0].drive &&
			  !strcmp(inv.entries[0].drive->serial, "SER-nvme0n1") &&
			  inv.entries[0].nranks == 2 && inv.entries[0].ranks[0] == 0 &&
			  inv.entries[0].ranks[1] == 1,
		      "nvme0n1 once, with ranks 0 and 1");
		CHECK(!inv.entries[1].drive && inv.entries[1].none &&
			  strstr(inv.entries[1].none, "no NVMe telemetry") &&
			  inv.entries[1].nranks == 1 && inv.entries[1].ranks[0] == 2,
		      "rank 2's target: no NVMe telemetry");
	}
	sc_inventory_exit(&inv);
	sc_run_record_exit(&rec);
}

/* Rank row r of phase p of the grown run (make_grown_run). */
static void grown_row(struct sc_rank_result *row, uint32_t p, uint32_t r)
{
	static const uint32_t node[] = {0, 0, 1, 1, 2};

	row->rank = r;
	row->node = node[r];
	snprintf(row->host, sizeof(row->host), "gpu%u", node[r]);
	row->target = r == 4 ? 2 : r == 2 ? 1 : 0;
	if (p == 2 || (p == 0 && (r == 0 || r == 3)))
		return; /* a phase that timed out; ranks 0 and 3 not yet in */
	row->bytes[SC_DIR_WRITE] = GB;
	if (r == 2) {
		snprintf(row->telemetry_none, sizeof(row->telemetry_none),
			 "no NVMe telemetry: /var/tmp/x is on vda (not NVMe)");
		return;
	}
	row->ndrives = r == 4 ? 2 : 1;
	row->drives = xcalloc(row->ndrives, sizeof(*row->drives));
	if (r < 2)
		row->drives[0] = nvme("nvme0n1", 1000 + 2000 * p, 3000 + 2000 * p, 3 + p, 4 + p);
	else if (r == 3)
		row->drives[0] = nvme("nvme1n1", 500 + 1000 * p, 1000 + 1000 * p, 7 + p, 8 + p);
	else {
		row->drives[0] = nvme("nvme2n1", 10 * p, 10 * p + 5, 1, 1);
		row->drives[1] = nvme("nvme3n1", 20 * p, 20 * p + 5, 2, 2);
		if (p == 3)
			memset(&row->drives[1].after, 0, sizeof(row->drives[1].after));
	}
}

/* A run of 4 phases and 5 ranks on 3 nodes: ranks 0 and 1 share node 0's
 * nvme0n1 (rank 0 from phase 1 on: its row of phase 0 is empty), rank 2
 * writes to a target with no NVMe on node 1, rank 3's nvme1n1 on node 1
 * first appears in phase 1 (its row of phase 0 empty too), rank 4 writes
 * to a dm target over node 2's nvme2n1 and nvme3n1 (nvme3n1's log not
 * read after phase 3).  Phase 2 timed out: its rows name no drive.  Every
 * filled row writes 1 GB. */
static void make_grown_run(struct sc_run_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->nnodes = 3;
	add_phases(rec, 4, 5, grown_row);
}

static bool same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* Checks that a and b hold the same figures, every field of every drive. */
static void check_same(const struct sc_endurance *a, const struct sc_endurance *b, const char *what)
{
	CHECK(a->dwpd == b->dwpd && a->warranty_years == b->warranty_years &&
		  a->rating_from_config == b->rating_from_config,
	      "%s: the same rating", what);
	CHECK(a->ndrives == b->ndrives, "%s: %u drives, want %u", what, a->ndrives, b->ndrives);
	for (uint32_t i = 0; i < a->ndrives && i < b->ndrives; i++) {
		const struct sc_endurance_drive *x = &a->drives[i], *y = &b->drives[i];

		CHECK(x->node == y->node && !strcmp(x->host, y->host) && x->target == y->target &&
			  x->first_rank == y->first_rank && x->nranks == y->nranks,
		      "%s: drive %u: node %u %s target %u rank %u x%u, want %u %s %u %u x%u", what,
		      i, x->node, x->host, x->target, x->first_rank, x->nranks, y->node, y->host,
		      y->target, y->first_rank, y->nranks);
		CHECK(x->nvme == y->nvme && !strcmp(x->device, y->device) &&
			  !strcmp(x->model, y->model) && !strcmp(x->serial, y->serial),
		      "%s: drive %u: %s %s %s, want %s %s %s", what, i, x->device, x->model,
		      x->serial, y->device, y->model, y->serial);
		CHECK(x->source == y->source && x->written_bytes == y->written_bytes &&
			  x->counted_bytes == y->counted_bytes,
		      "%s: drive %u: written %llu counted %llu, want %llu %llu", what, i,
		      (unsigned long long)x->written_bytes, (unsigned long long)x->counted_bytes,
		      (unsigned long long)y->written_bytes, (unsigned long long)y->counted_bytes);
		CHECK(x->capacity_bytes == y->capacity_bytes &&
			  x->capacity_from_config == y->capacity_from_config &&
			  same_double(x->drive_writes, y->drive_writes) &&
			  same_double(x->rated_bytes, y->rated_bytes) &&
			  same_double(x->life_used_pct, y->life_used_pct),
		      "%s: drive %u: capacity and rating", what, i);
		CHECK(x->pct_known == y->pct_known && x->pct_used_before == y->pct_used_before &&
			  x->pct_used_after == y->pct_used_after,
		      "%s: drive %u: percentage used %u -> %u, want %u -> %u", what, i,
		      x->pct_used_before, x->pct_used_after, y->pct_used_before, y->pct_used_after);
	}
}

/* Phase record pr's rows poisoned, then freed: what rank 0 does once a
 * phase's files are written. */
static void drop_rows(struct sc_phase_record *pr)
{
	for (uint32_t i = 0; i < pr->nranks; i++) {
		struct sc_rank_result *r = &pr->ranks[i];

		if (r->drives)
			memset(r->drives, 0xAA, r->ndrives * sizeof(*r->drives));
		sc_rank_result_exit(r);
		memset(r, 0xAA, sizeof(*r));
	}
	free(pr->ranks);
	pr->ranks = NULL;
	pr->nranks = 0;
}

/* The grown run's figures, worked out by hand. */
static void check_grown(const struct sc_endurance *e)
{
	static const char *dev[] = {"nvme0n1", "", "nvme1n1", "nvme2n1", "nvme3n1"};
	static const uint32_t node[] = {0, 1, 1, 2, 2}, rank[] = {0, 2, 3, 4, 4};
	static const uint32_t nranks[] = {2, 1, 1, 1, 1};
	static const uint64_t counted[] = {5 * GB, 3 * GB, 2 * GB, 3 * GB, 3 * GB};
	/* nvme0n1 1000 (rank 1, phase 0) -> 9000 units, nvme1n1 1500 (phase 1) -> 4000,
	 * nvme2n1 0 -> 35, nvme3n1 counted (no log after phase 3) */
	static const uint64_t written[] = {8000 * SC_NVME_DATA_UNIT_BYTES, 3 * GB,
					   2500 * SC_NVME_DATA_UNIT_BYTES,
					   35 * SC_NVME_DATA_UNIT_BYTES, 3 * GB};

	CHECK(e->ndrives == 5, "5 drives (the timed-out rows name none), got %u", e->ndrives);
	for (uint32_t i = 0; i < 5 && i < e->ndrives; i++) {
		const struct sc_endurance_drive *x = &e->drives[i];

		CHECK(x->node == node[i] && x->first_rank == rank[i] && !strcmp(x->device, dev[i]),
		      "drive %u: node %u rank %u %s, want %u %u %s", i, x->node, x->first_rank,
		      x->device, node[i], rank[i], dev[i]);
		CHECK(x->nranks == nranks[i] && x->counted_bytes == counted[i] &&
			  x->written_bytes == written[i],
		      "drive %u (%s): %u ranks, counted %llu, written %llu", i, dev[i], x->nranks,
		      (unsigned long long)x->counted_bytes, (unsigned long long)x->written_bytes);
	}
	if (e->ndrives == 5) {
		CHECK(e->drives[2].source == SC_ENDURANCE_SMART && e->drives[2].pct_known &&
			  e->drives[2].pct_used_before == 8 && e->drives[2].pct_used_after == 11,
		      "nvme1n1: SMART from its first phase (1) to the last, %% used %u -> %u",
		      e->drives[2].pct_used_before, e->drives[2].pct_used_after);
		CHECK(e->drives[0].pct_used_before == 3 && e->drives[0].pct_used_after == 7,
		      "nvme0n1: after of phase 3, not of the timed-out phase 2: %u -> %u",
		      e->drives[0].pct_used_before, e->drives[0].pct_used_after);
		CHECK(!e->drives[1].nvme && e->drives[1].source == SC_ENDURANCE_COUNTED &&
			  e->drives[1].target == 1,
		      "target 1 without NVMe: counted");
		CHECK(e->drives[4].source == SC_ENDURANCE_COUNTED && !e->drives[4].pct_known,
		      "nvme3n1: counted, its log after phase 3 not read");
	}
}

/* Phases added one by one, each one's rows freed once added: after each,
 * the figures equal sc_endurance_of_run's of the phases so far. */
static void test_grown(void)
{
	struct sc_run_record whole, run;
	struct sc_drive_writes w;
	struct sc_endurance e, want;
	char err[256] = "";
	int rc;

	make_grown_run(&whole);
	make_grown_run(&run);
	rc = sc_endurance_of_run(&whole, &want, err, sizeof(err));
	CHECK(rc == 0, "rc %d (%s)", rc, err);
	check_grown(&want);
	sc_endurance_exit(&want);

	sc_drive_writes_init(&w);
	for (uint32_t p = 0; p < run.nphases; p++) {
		char what[64];

		snprintf(what, sizeof(what), "after phase %u", p);
		rc = sc_drive_writes_add(&w, &run.phases[p]);
		CHECK(rc == 0 && w.nphases == p + 1, "%s: add rc %d", what, rc);
		drop_rows(&run.phases[p]);
		whole.nphases = p + 1;
		rc = sc_endurance_of_run(&whole, &want, err, sizeof(err));
		CHECK(rc == 0, "%s: of_run rc %d (%s)", what, rc, err);
		rc = sc_endurance_of_writes(&w, &run.plan, &e, err, sizeof(err));
		CHECK(rc == 0, "%s: of_writes rc %d (%s)", what, rc, err);
		check_same(&e, &want, what);
		sc_endurance_exit(&e);
		sc_endurance_exit(&want);
	}
	CHECK(whole.nphases == 4, "all 4 phases compared");
	rc = sc_endurance_of_writes(&w, &run.plan, &e, err, sizeof(err));
	CHECK(rc == 0, "rc %d (%s)", rc, err);
	check_grown(&e);
	sc_endurance_exit(&e);
	sc_drive_writes_exit(&w);
	sc_run_record_exit(&run);
	sc_run_record_exit(&whole);
}

/* The existing records, their phases added one by one and then freed, with
 * and without a model: section: the figures of sc_endurance_of_run. */
static void test_writes_of_run(void)
{
	for (int with_model = 0; with_model < 2; with_model++) {
		struct sc_run_record whole, run;
		struct sc_drive_writes w;
		struct sc_endurance e, want;
		char err[256] = "";
		int rc = 0;

		make_run(&whole, with_model);
		make_run(&run, with_model);
		sc_drive_writes_init(&w);
		for (uint32_t p = 0; p < run.nphases && !rc; p++) {
			rc = sc_drive_writes_add(&w, &run.phases[p]);
			drop_rows(&run.phases[p]);
		}
		CHECK(rc == 0 && w.n == 2, "two drives, rc %d n %u", rc, w.n);
		rc = sc_endurance_of_writes(&w, &run.plan, &e, err, sizeof(err));
		CHECK(rc == 0, "of_writes rc %d (%s)", rc, err);
		rc = sc_endurance_of_run(&whole, &want, err, sizeof(err));
		CHECK(rc == 0, "of_run rc %d (%s)", rc, err);
		check_same(&e, &want, with_model ? "with model:" : "default rating");
		sc_endurance_exit(&e);
		sc_endurance_exit(&want);
		sc_drive_writes_exit(&w);
		sc_run_record_exit(&run);
		sc_run_record_exit(&whole);
	}
}

/* A model: section that cannot be read: -EINVAL, why in err, out empty. */
static void test_writes_bad_model(void)
{
	struct sc_run_record rec;
	struct sc_drive_writes w;
	struct sc_endurance e;
	char err[256] = "";
	int rc;

	make_run(&rec, true);
	free(rec.plan.model[0].value);
	rec.plan.model[0].value = xstrdup("three");
	sc_drive_writes_init(&w);
	CHECK(sc_drive_writes_add(&w, &rec.phases[0]) == 0, "add");
	rc = sc_endurance_of_writes(&w, &rec.plan, &e, err, sizeof(err));
	CHECK(rc == -EINVAL && err[0] && e.ndrives == 0 && !e.drives,
	      "dwpd three: -EINVAL, got %d (%s)", rc, err);
	sc_endurance_exit(&e);
	sc_drive_writes_exit(&w);
	sc_run_record_exit(&rec);
}

/* Ranks of the scale case, each on its own drive, and per node. */
#define SCALE_RANKS	     32768u
#define SCALE_RANKS_PER_NODE 8u

/* 32,768 rank rows, each on its own drive (8 per node), added twice. */
static void test_scale(void)
{
	struct sc_phase_record pr;
	struct sc_drive_writes w;
	struct sc_endurance e;
	struct sc_plan plan;
	char err[256] = "";
	uint64_t total = 0;
	uint32_t bad = 0;
	int rc = 0;

	memset(&pr, 0, sizeof(pr));
	memset(&plan, 0, sizeof(plan));
	pr.nranks = SCALE_RANKS;
	pr.ranks = xcalloc(SCALE_RANKS, sizeof(*pr.ranks));
	for (uint32_t r = 0; r < SCALE_RANKS; r++) {
		struct sc_rank_result *row = &pr.ranks[r];
		char dev[16];

		row->rank = r;
		row->node = r / SCALE_RANKS_PER_NODE;
		snprintf(row->host, sizeof(row->host), "gpu%u", row->node);
		row->bytes[SC_DIR_WRITE] = GB + r;
		row->ndrives = 1;
		row->drives = xcalloc(1, sizeof(*row->drives));
		snprintf(dev, sizeof(dev), "nvme%un1", r % SCALE_RANKS_PER_NODE);
		row->drives[0] = nvme(dev, 100, 100 + r, 1, 2);
	}
	sc_drive_writes_init(&w);
	for (int p = 0; p < 2 && !rc; p++)
		rc = sc_drive_writes_add(&w, &pr);
	CHECK(rc == 0 && w.n == SCALE_RANKS, "%u drives, got %u (rc %d)", SCALE_RANKS, w.n, rc);
	rc = sc_endurance_of_writes(&w, &plan, &e, err, sizeof(err));
	CHECK(rc == 0 && e.ndrives == SCALE_RANKS, "%u drives rated, got %u (rc %d)", SCALE_RANKS,
	      e.ndrives, rc);
	for (uint32_t i = 0; i < e.ndrives; i++) {
		const struct sc_endurance_drive *x = &e.drives[i];
		char dev[16];

		snprintf(dev, sizeof(dev), "nvme%un1", i % SCALE_RANKS_PER_NODE);
		total += x->counted_bytes;
		if (x->first_rank != i || x->node != i / SCALE_RANKS_PER_NODE || x->nranks != 1 ||
		    strcmp(x->device, dev) || x->counted_bytes != 2 * (GB + i) ||
		    x->written_bytes != i * SC_NVME_DATA_UNIT_BYTES)
			bad++;
	}
	CHECK(bad == 0, "%u drives off their rank's own (rank i, its node, 1 rank, 2 x (1 GB + i))",
	      bad);
	CHECK(total == 2 * (SCALE_RANKS * GB + (uint64_t)SCALE_RANKS * (SCALE_RANKS - 1) / 2),
	      "counted in all %llu B", (unsigned long long)total);
	sc_endurance_exit(&e);
	sc_drive_writes_exit(&w);
	sc_phase_record_exit(&pr);
}

/* Drive i ("nvme<i>n1") as rank r's row of phase p names it: every field
 * says whose it is ("S<r>p<p>d<i>"), the capacity 100 r + 10 p + i + 1
 * bytes. */
static struct sc_drive inv_drive(uint32_t i, uint32_t r, uint32_t p)
{
	struct sc_drive d;

	memset(&d, 0, sizeof(d));
	snprintf(d.device, sizeof(d.device), "nvme%un1", i);
	snprintf(d.controller, sizeof(d.controller), "C%up%ud%u", r, p, i);
	snprintf(d.model, sizeof(d.model), "M%up%ud%u", r, p, i);
	snprintf(d.serial, sizeof(d.serial), "S%up%ud%u", r, p, i);
	snprintf(d.firmware, sizeof(d.firmware), "F%up%ud%u", r, p, i);
	d.capacity_bytes = 100 * r + 10 * p + i + 1;
	return d;
}

/* Row r's drives: n of them, numbered as dev says. */
static void inv_drives(struct sc_rank_result *row, uint32_t p, uint32_t n, const uint32_t *dev)
{
	row->ndrives = n;
	row->drives = xcalloc(n, sizeof(*row->drives));
	for (uint32_t k = 0; k < n; k++)
		row->drives[k] = inv_drive(dev[k], row->rank, p);
}

/* Rank row r of phase p of the inventory's run (test_inventory_grown). */
static void inv_row(struct sc_rank_result *row, uint32_t p, uint32_t r)
{
	static const uint32_t target[] = {0, 0, 1, 1, 0, 2};
	static const uint32_t dev0[] = {0}, dev01[] = {0, 1, 0}, dev5[] = {5};

	row->rank = r;
	row->node = r / 2;
	snprintf(row->host, sizeof(row->host), "host%up%u", row->node, p);
	row->target = target[r];
	if (r == 0 || (r == 4 && p == 1))
		inv_drives(row, p, 1, dev0);
	else if (r == 1 && p)
		inv_drives(row, p, 3, dev01);
	else if (r == 4 && p == 2)
		inv_drives(row, p, 1, dev5);
	else if (r == 2 || r == 3 || (r == 5 && p == 2))
		snprintf(row->telemetry_none, sizeof(row->telemetry_none),
			 "no NVMe telemetry: rank %u phase %u", r, p);
}

/* The printed inventory of the run of inv_row after each phase, by hand:
 * node 0's nvme0n1 keeps rank 0's identity of phase 0 (rank 1 joins it in
 * phase 1, its row naming it twice), ranks 2 and 3 share node 1's target
 * without NVMe (rank 2's reason), rank 1's nvme1n1 and rank 4's nvme0n1 on
 * node 2 (not node 0's) come in phase 1, rank 4's nvme5n1 of phase 2 is
 * left out (rank 4 is listed), rank 5 looks in phase 2 alone. */
static const char *const inv_printed[] = {
    "drives:\n"
    "  node 0 host0p0 rank 0 /mnt/a: nvme0n1 M0p0d0 serial S0p0d0 fw F0p0d0 1 B\n"
    "  node 1 host1p0 ranks 2,3 /mnt/b: no NVMe telemetry: rank 2 phase 0\n",
    "drives:\n"
    "  node 0 host0p0 ranks 0,1 /mnt/a: nvme0n1 M0p0d0 serial S0p0d0 fw F0p0d0 1 B\n"
    "  node 1 host1p0 ranks 2,3 /mnt/b: no NVMe telemetry: rank 2 phase 0\n"
    "  node 0 host0p1 rank 1 /mnt/a: nvme1n1 M1p1d1 serial S1p1d1 fw F1p1d1 112 B\n"
    "  node 2 host2p1 rank 4 /mnt/a: nvme0n1 M4p1d0 serial S4p1d0 fw F4p1d0 411 B\n",
    "drives:\n"
    "  node 0 host0p0 ranks 0,1 /mnt/a: nvme0n1 M0p0d0 serial S0p0d0 fw F0p0d0 1 B\n"
    "  node 1 host1p0 ranks 2,3 /mnt/b: no NVMe telemetry: rank 2 phase 0\n"
    "  node 0 host0p1 rank 1 /mnt/a: nvme1n1 M1p1d1 serial S1p1d1 fw F1p1d1 112 B\n"
    "  node 2 host2p1 rank 4 /mnt/a: nvme0n1 M4p1d0 serial S4p1d0 fw F4p1d0 411 B\n"
    "  node 2 host2p2 rank 5 /mnt/c: no NVMe telemetry: rank 5 phase 2\n",
};

/* inv as sc_report_drives_inventory prints it (heap). */
static char *inv_print(const struct sc_run_record *rec, const struct sc_inventory *inv)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	sc_report_drives_inventory(f, rec, inv);
	fclose(f);
	return text;
}

/* A run of 3 phases and 6 ranks on 3 nodes (inv_row) added phase by phase,
 * each phase's rows poisoned and freed once added: after each phase the
 * inventory prints as worked out by hand, and holds what the rows said
 * (the controller is not printed). */
static void test_inventory_grown(void)
{
	static const char *const paths[] = {"/mnt/a", "/mnt/b", "/mnt/c"};
	struct sc_run_record rec;
	struct sc_inventory inv;

	memset(&rec, 0, sizeof(rec));
	rec.nnodes = 3;
	rec.plan.ntargets = 3;
	rec.plan.targets = xcalloc(3, sizeof(*rec.plan.targets));
	for (uint32_t t = 0; t < 3; t++)
		rec.plan.targets[t].path = xstrdup(paths[t]);
	add_phases(&rec, 3, 6, inv_row);
	memset(&inv, 0, sizeof(inv));
	for (uint32_t p = 0; p < rec.nphases; p++) {
		int rc = sc_inventory_add(&inv, rec.nranks, &rec.phases[p]);
		char *got;

		drop_rows(&rec.phases[p]);
		got = inv_print(&rec, &inv);
		CHECK(rc == 0 && !strcmp(got, inv_printed[p]),
		      "after phase %u (rc %d), printed:\n%swant:\n%s", p, rc, got, inv_printed[p]);
		free(got);
	}
	if (inv.n == 5) {
		const struct sc_inventory_entry *e = inv.entries;

		CHECK(e[0].drive && !strcmp(e[0].drive->controller, "C0p0d0") && e[2].drive &&
			  !strcmp(e[2].drive->controller, "C1p1d1") && e[3].drive &&
			  !strcmp(e[3].drive->controller, "C4p1d0"),
		      "controllers of the rows the drives were first met in");
		CHECK(!e[1].drive && !e[4].drive && e[1].target == 1 && e[4].target == 2 &&
			  !e[0].none && !e[2].none && !e[3].none,
		      "targets without NVMe: no drive; drives: no reason");
	}
	sc_inventory_exit(&inv);
	sc_run_record_exit(&rec);
}

_Static_assert(SCALE_RANKS / SCALE_RANKS_PER_NODE == 4096, "the scale cases' 4,096 nodes");

/* Rank row r of phase p of the inventory's scale case: rank r's drive is
 * nvme<r % 8>n1 of its node.  The even ranks look in phase 0, at their
 * drive; the odd ones in phase 1, at theirs and their even neighbour's (a
 * target over both); in phase 1 the even ranks name their odd neighbour's
 * drive (passed over: they are listed). */
static void inv_scale_row(struct sc_rank_result *row, uint32_t p, uint32_t r)
{
	uint32_t dev[2] = {r % SCALE_RANKS_PER_NODE, (r - 1) % SCALE_RANKS_PER_NODE};

	row->rank = r;
	row->node = r / SCALE_RANKS_PER_NODE;
	snprintf(row->host, sizeof(row->host), "gpu%u", row->node);
	if (r % 2 == 0)
		dev[0] = (r + p) % SCALE_RANKS_PER_NODE;
	if (p == r % 2)
		inv_drives(row, p, p ? 2 : 1, dev);
	else if (p)
		inv_drives(row, p, 1, dev);
}

/* 32,768 ranks on 4,096 nodes (8 NVMe drives a node) over 2 phases, each
 * phase's rows poisoned and freed once added: 32,768 entries, the even
 * ranks' drives in rank order (ranks r and r + 1), then the odd ranks'
 * (rank r alone), each with the identity its first rank's row gave. */
static void test_inventory_scale(void)
{
	struct sc_phase_record pr;
	struct sc_inventory inv;
	uint32_t bad = 0, first_bad = UINT32_MAX;
	int rc = 0;

	memset(&inv, 0, sizeof(inv));
	memset(&pr, 0, sizeof(pr));
	for (uint32_t p = 0; p < 2 && !rc; p++) {
		pr.phase = p;
		pr.nranks = SCALE_RANKS;
		pr.ranks = xcalloc(SCALE_RANKS, sizeof(*pr.ranks));
		for (uint32_t r = 0; r < SCALE_RANKS; r++)
			inv_scale_row(&pr.ranks[r], p, r);
		rc = sc_inventory_add(&inv, SCALE_RANKS, &pr);
		drop_rows(&pr);
	}
	CHECK(rc == 0 && inv.n == SCALE_RANKS, "%u entries, got %u (rc %d)", SCALE_RANKS, inv.n,
	      rc);
	for (uint32_t i = 0; i < inv.n; i++) {
		const struct sc_inventory_entry *x = &inv.entries[i];
		uint32_t half = SCALE_RANKS / 2, r = i < half ? 2 * i : 2 * (i - half) + 1;
		uint32_t p = r % 2, d = r % SCALE_RANKS_PER_NODE, node = r / SCALE_RANKS_PER_NODE;
		uint32_t nranks = 2 - p;
		char host[16], dev[16], serial[32], model[32];

		snprintf(host, sizeof(host), "gpu%u", node);
		snprintf(dev, sizeof(dev), "nvme%un1", d);
		snprintf(serial, sizeof(serial), "S%up%ud%u", r, p, d);
		snprintf(model, sizeof(model), "M%up%ud%u", r, p, d);
		if (x->node != node || strcmp(x->host, host) || !x->drive ||
		    strcmp(x->drive->device, dev) || strcmp(x->drive->serial, serial) ||
		    strcmp(x->drive->model, model) ||
		    x->drive->capacity_bytes != 100 * r + 10 * p + d + 1 || x->nranks != nranks ||
		    x->ranks[0] != r || (nranks == 2 && x->ranks[1] != r + 1)) {
			if (!bad++)
				first_bad = i;
		}
	}
	CHECK(bad == 0, "%u entries off their drive's identity or ranks (the first: entry %u)", bad,
	      first_bad);
	sc_inventory_exit(&inv);
}

int main(void)
{
	test_smart_and_counted();
	test_config_rating();
	test_inventory();
	test_grown();
	test_writes_of_run();
	test_writes_bad_model();
	test_scale();
	test_inventory_grown();
	test_inventory_scale();
	return check_exit("test_endurance");
}
