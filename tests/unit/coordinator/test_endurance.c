/* test_endurance.c -- drive writes a run consumed, per drive, against the
 * rating of the config's model: section (model/endurance.h), and the
 * inventory (analysis/inventory.h), on hand-made run records.
 *
 * Exit 0 pass, 1 fail.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/inventory.h"
#include "check.h"
#include "model/endurance.h"

#define TB UINT64_C(1000000000000)

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

/* A run of 2 phases and 3 ranks: ranks 0 and 1 on node 0 share nvme0n1,
 * rank 2 on node 1 writes to a target with no NVMe.  Each rank writes
 * 1 GB per phase.  The drive's SMART log goes 1000 -> 3000 units in phase
 * 0 and 3000 -> 5000 in phase 1. */
static void make_run(struct sc_run_record *rec, bool with_model)
{
	memset(rec, 0, sizeof(*rec));
	rec->nranks = 3;
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
	rec->nphases = 2;
	rec->phases = xcalloc(2, sizeof(*rec->phases));
	for (uint32_t p = 0; p < 2; p++) {
		struct sc_phase_record *pr = &rec->phases[p];

		pr->phase = p;
		pr->nranks = 3;
		pr->ranks = xcalloc(3, sizeof(*pr->ranks));
		for (uint32_t r = 0; r < 3; r++) {
			struct sc_rank_result *row = &pr->ranks[r];

			row->rank = r;
			row->node = r / 2;
			snprintf(row->host, sizeof(row->host), "gpu%u", r / 2);
			row->target = r / 2;
			row->bytes[SC_DIR_WRITE] = UINT64_C(1000000000);
			if (r == 2) {
				snprintf(row->telemetry_none, sizeof(row->telemetry_none),
					 "no NVMe telemetry: /var/tmp/x is on vda (not NVMe)");
				continue;
			}
			row->ndrives = 1;
			row->drives = xcalloc(1, sizeof(*row->drives));
			row->drives[0] =
			    nvme("nvme0n1", 1000 + 2000 * p, 3000 + 2000 * p, 3, p ? 5 : 4);
		}
	}
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

int main(void)
{
	test_smart_and_counted();
	test_config_rating();
	test_inventory();
	return check_exit("test_endurance");
}
