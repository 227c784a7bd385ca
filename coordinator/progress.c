/* progress.c -- what rank 0 shows while a phase runs: a live line
 * rewritten in place, or plain lines (the rows after each phase are
 * report/phase_rows.c). */
#include "progress.h"

#include <stdio.h>

#include "analysis/live.h"
#include "clock.h"
#include "units.h"

/* Room for a progress line's facts. */
#define LIVE_LINE_MAX 256
/* Elapsed time is shown in tenths of a second below this many seconds. */
#define ELAPSED_TENTHS_BELOW_S 10

/* Decimals for a time of s seconds in a progress line: tenths only where
 * whole seconds would repeat themselves. */
static int tenths(double s)
{
	return s < ELAPSED_TENTHS_BELOW_S ? 1 : 0;
}

/* The facts of a progress line at this tick, into buf ("seqwrite: 12 s
 * of 30 s, 1/2 ranks done, rank 0 at 512 MB/s, 125 kIOPS"); the tick
 * becomes the previous one. */
static void progress_facts(struct sc_progress_live *live, uint32_t ranks_done, struct sc_run *run,
			   char *buf, size_t len)
{
	const struct sc_phase *ph = &live->plan->phases[live->phase];
	struct sc_live_count now = {.ns = sc_now_ns(), .bytes = sc_run_bytes(run),
				    .ios = sc_run_ios(run)};
	struct sc_live_figures lf;
	char r[32], iops[32], t[48] = "", e[48] = "";
	uint64_t failed = sc_run_failed_ios(run);

	sc_live_figures(&ph->io, live->start_ns, &live->prev, &now, &lf);
	if (lf.expected_ns)
		snprintf(t, sizeof(t), " of %.*f s", tenths(lf.expected_ns / SC_NS_PER_S_F),
			 (double)lf.expected_ns / SC_NS_PER_S_F);
	if (failed)
		snprintf(e, sizeof(e), ", %llu failed I/Os on rank 0", (unsigned long long)failed);
	snprintf(buf, len, "%s: %.*f s%s, %u/%u ranks done, rank 0 at %s, %s%s", ph->name,
		 tenths(lf.elapsed_s), lf.elapsed_s, t, ranks_done,
		 live->nranks, sc_fmt_rate(r, sizeof(r), lf.rate_bytes_per_s),
		 sc_fmt_iops(iops, sizeof(iops), lf.rate_iops), e);
	live->prev = now;
}

void sc_progress_live_tick(void *arg, uint32_t ranks_done, struct sc_run *run)
{
	struct sc_progress_live *live = arg;
	char line[LIVE_LINE_MAX];
	int n;

	progress_facts(live, ranks_done, run, line, sizeof(line));
	n = fprintf(live->f, "\r  %s", line);
	/* blank what a longer previous line left */
	if (n < live->shown)
		fprintf(live->f, "%*s", live->shown - n, "");
	fflush(live->f);
	if (n > live->shown)
		live->shown = n;
}

void sc_progress_live_clear(struct sc_progress_live *live)
{
	if (live->shown > 0) {
		fprintf(live->f, "\r%*s\r", live->shown, "");
		fflush(live->f);
	}
	live->shown = 0;
}

void sc_progress_lines_tick(void *arg, uint32_t ranks_done, struct sc_run *run)
{
	struct sc_progress_live *live = arg;
	char line[LIVE_LINE_MAX];

	progress_facts(live, ranks_done, run, line, sizeof(line));
	fprintf(live->f, "  running %s\n", line);
	fflush(live->f);
}
