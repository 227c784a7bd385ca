/* progress.c -- what rank 0 prints while a run goes: one row per phase. */
#include "progress.h"

#include <stdlib.h>

#include "../worker/units.h"

void sc_progress_header(FILE *f)
{
	fprintf(f, "%-34s %12s %12s %10s %10s %10s %10s  %s\n", "phase", "last-done", "first-done",
		"IOPS", "p50", "p99", "p99.99", "slowest");
}

void sc_progress_row(FILE *f, const struct sc_phase *phase, const struct sc_phase_record *rec,
		     const struct sc_phase_figures *fig)
{
	struct sc_hist *all = malloc(sizeof(*all));
	char bw[32], fbw[32], iops[32], p50[32], p99[32], p9999[32], err[64] = "";

	if (!all)
		return;
	sc_hist_init(all);
	for (int d = 0; d < SC_DIR_COUNT; d++)
		if (rec->lat[d])
			sc_hist_add(all, rec->lat[d]);
	if (fig->errors)
		snprintf(err, sizeof(err), "  %llu I/O errors on %u rank(s)",
			 (unsigned long long)fig->errors, fig->ranks_with_errors);
	fprintf(f, "%-34s %12s %12s %10s %10s %10s %10s  rank %u (%s)%s\n", phase->name,
		sc_fmt_rate(bw, sizeof(bw), fig->lastdone_bw_bytes_per_s),
		sc_fmt_rate(fbw, sizeof(fbw), fig->firstdone_bw_bytes_per_s),
		sc_fmt_iops(iops, sizeof(iops), fig->iops_total),
		sc_fmt_duration(p50, sizeof(p50), sc_hist_percentile(all, 50.0)),
		sc_fmt_duration(p99, sizeof(p99), sc_hist_percentile(all, 99.0)),
		sc_fmt_duration(p9999, sizeof(p9999), sc_hist_percentile(all, 99.99)),
		fig->slowest_rank,
		fig->nodes && fig->slowest_node < fig->nodes_len ? fig->nodes[fig->slowest_node].host
								  : "?",
		err);
	fflush(f);
	free(all);
}
