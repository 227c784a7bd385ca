/* drives_text.c -- the drives in the run's printed output: inventory and
 * endurance, one line per drive (drives.h). */
#include "drives.h"

#include <math.h>
#include <string.h>

#include "analysis/inventory.h"
#include "model/endurance.h"
#include "units.h"

/* Ranks listed on a line before "..." */
#define RANKS_SHOWN 8

static const char *target_path(const struct sc_run_record *rec, uint32_t t)
{
	return t < rec->plan.ntargets && rec->plan.targets[t].path ? rec->plan.targets[t].path
								   : "?";
}

static void print_ranks(FILE *f, const struct sc_inventory_entry *x)
{
	fprintf(f, "rank%s ", x->nranks > 1 ? "s" : "");
	for (uint32_t k = 0; k < x->nranks && k < RANKS_SHOWN; k++)
		fprintf(f, "%s%u", k ? "," : "", x->ranks[k]);
	if (x->nranks > RANKS_SHOWN)
		fprintf(f, ",... (%u)", x->nranks);
}

void sc_report_drives_inventory(FILE *f, const struct sc_run_record *rec,
				const struct sc_inventory *inv)
{
	char cap[32];

	if (!inv->n)
		return;
	fprintf(f, "drives:\n");
	for (uint32_t i = 0; i < inv->n; i++) {
		const struct sc_inventory_entry *x = &inv->entries[i];

		fprintf(f, "  node %u %s ", x->node, x->host);
		print_ranks(f, x);
		fprintf(f, " %s: ", target_path(rec, x->target));
		if (x->drive)
			fprintf(f, "%s %s serial %s fw %s %s\n", x->drive->device, x->drive->model,
				x->drive->serial, x->drive->firmware,
				sc_fmt_bytes(cap, sizeof(cap), x->drive->capacity_bytes));
		else
			fprintf(f, "%s\n", x->none);
	}
}

static void print_endurance(FILE *f, const struct sc_run_record *rec,
			    const struct sc_endurance_drive *x)
{
	char w[32], cap[32], rated[32];

	fprintf(f, "  node %u %s %s", x->node, x->host, target_path(rec, x->target));
	if (x->nvme)
		fprintf(f, " %s serial %s", x->device, x->serial);
	fprintf(f, ": wrote %s (%s)", sc_fmt_bytes(w, sizeof(w), x->written_bytes),
		x->source == SC_ENDURANCE_SMART ? "SMART" : "counted");
	if (x->capacity_bytes)
		fprintf(
		    f, ", %.3g drive writes of %s, %.3g%% of the rated %s", x->drive_writes,
		    sc_fmt_bytes(cap, sizeof(cap), x->capacity_bytes), x->life_used_pct,
		    sc_fmt_bytes(rated, sizeof(rated),
				 x->rated_bytes >= 0x1p64 ? UINT64_MAX : (uint64_t)x->rated_bytes));
	else
		fprintf(f, ", capacity unknown (set model: drive_capacity)");
	if (x->pct_known)
		fprintf(f, "; percentage used %u%% -> %u%%", x->pct_used_before, x->pct_used_after);
	fputc('\n', f);
}

void sc_report_drives_endurance(FILE *f, const struct sc_run_record *rec,
				const struct sc_run_figures *fg)
{
	struct sc_endurance e;
	char err[256];

	if (sc_endurance_of_writes(&fg->writes, &rec->plan, &e, err, sizeof(err))) {
		fprintf(f, "endurance: %s\n", err);
		return;
	}
	if (e.ndrives)
		fprintf(f, "endurance (rated %g drive writes per day x %g years, %s):\n", e.dwpd,
			e.warranty_years, e.rating_from_config ? "from model:" : "default rating");
	for (uint32_t i = 0; i < e.ndrives; i++)
		print_endurance(f, rec, &e.drives[i]);
	sc_endurance_exit(&e);
}
