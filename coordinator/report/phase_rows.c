/* phase_rows.c -- the text rows of a run's phases: one summary row per
 * phase, what its workload adds under it, its failed verifies and the I/O
 * options it ran without.  Printed live by rank 0 (main.c, record.c) and
 * again by `ssdcluster report` (cmd.c). */
#include "phase_rows.h"

#include <math.h>
#include <string.h>

#include "analysis/io_options.h"
#include "analysis/stages.h"
#include "analysis/sweep_matrix.h"
#include "analysis/workload_figures.h"
#include "fill_text.h"
#include "layout.h"
#include "pct_text.h"
#include "report.h"
#include "units.h"
#include "verify.h"

/* Nanoseconds in a millisecond, for the checkpoint trend. */
#define NS_PER_MS 1e6
/* 100 for a fraction printed as a percentage. */
#define PERCENT 100
/* Mismatches printed on stderr after a phase; results.json lists more. */
#define VERIFY_PRINTED 10u

void sc_rows_header(FILE *f)
{
	fprintf(f, "%-34s %12s %12s %10s %10s %10s %10s  %s\n", "phase", "last-done", "first-done",
		"IOPS", "p50", "p99", "p99.99", "slowest");
}

bool sc_rows_measured(const struct sc_phase_record *rec)
{
	/* a phase that ran has merged histograms; one a stop or a deadline
	 * cut short before its first I/O completed has empty ones */
	int cut = rec->status == SC_PHASE_INTERRUPTED || rec->status == SC_PHASE_TIMED_OUT;

	for (int d = 0; d < SC_DIR_COUNT; d++)
		if (rec->lat[d] && (!cut || rec->lat[d]->count))
			return true;
	return false;
}

void sc_rows_phase(FILE *f, const struct sc_run_record *run, const struct sc_run_figures *fg,
		   uint32_t i)
{
	static const double pts[] = {50.0, 99.0, 99.99};
	char bw[32], fbw[32], iops[32], p50[32], p99[32], p9999[32], err[64] = "", vfy[96] = "";
	const struct sc_phase_record *rec = &run->phases[i];
	const struct sc_phase *phase = &run->plan.phases[rec->phase];
	const struct sc_phase_figures *fig = &fg->phases[i];
	const struct sc_workload_figures *w = &fg->work[i];
	const struct sc_lat_summary *lat = &fig->lat_all;

	if (phase->workload == SC_WORKLOAD_IDLE) { /* no I/O: only how long it lasted */
		const struct sc_stage_row *st = &w->stage;

		fprintf(f, "%-34s idle %s, no I/O%s%s\n", phase->name,
			sc_fmt_duration(bw, sizeof(bw),
					st->duration_ns > 0 ? (uint64_t)st->duration_ns : 0),
			rec->status == SC_PHASE_OK ? "" : ", ",
			rec->status == SC_PHASE_OK ? "" : sc_phase_status_name(rec->status));
		fflush(f);
		return;
	}
	if (!sc_rows_measured(rec)) {
		fprintf(f, "%-34s %s: nothing measured\n", phase->name,
			sc_phase_status_name(rec->status));
		fflush(f);
		return;
	}
	if (!fig->errors &&
	    (rec->status == SC_PHASE_INTERRUPTED || rec->status == SC_PHASE_TIMED_OUT))
		snprintf(err, sizeof(err), "  %s", sc_phase_status_name(rec->status));
	else if (fig->errors || rec->status != SC_PHASE_OK)
		snprintf(err, sizeof(err), "  %llu failed I/Os on %u rank(s), %s",
			 (unsigned long long)fig->errors, fig->ranks_with_errors,
			 sc_phase_status_name(rec->status));
	if (phase->io.verify != SC_VERIFY_NONE && !sc_rw_reads(phase->io.rw)) {
		snprintf(vfy, sizeof(vfy), "  verify: blocks written with headers");
	} else if (phase->io.verify != SC_VERIFY_NONE) {
		snprintf(vfy, sizeof(vfy), "  verify: %llu mismatches in %llu blocks",
			 (unsigned long long)w->verify.mismatches,
			 (unsigned long long)w->verify.checked);
	}
	fprintf(f, "%-34s %12s %12s %10s %10s %10s %10s  rank %u (%s)%s%s\n", phase->name,
		sc_fmt_rate(bw, sizeof(bw), fig->lastdone_bw_bytes_per_s),
		sc_fmt_rate(fbw, sizeof(fbw), fig->firstdone_bw_bytes_per_s),
		sc_fmt_iops(iops, sizeof(iops), fig->iops_total),
		sc_report_fmt_pct(p50, sizeof(p50), lat, sc_pct_index(pts[0])),
		sc_report_fmt_pct(p99, sizeof(p99), lat, sc_pct_index(pts[1])),
		sc_report_fmt_pct(p9999, sizeof(p9999), lat, sc_pct_index(pts[2])),
		fig->slowest_rank, fig->slowest_node_host ? fig->slowest_node_host : "?", err, vfy);
	sc_report_pct_note(f, "  ", lat, pts, sizeof(pts) / sizeof(pts[0]));
	fflush(f);
}

/* A figure in ns as a whole number for printing: NaN and negatives give
 * 0, anything past 2^64 - 1 saturates (casting an out-of-range double is
 * undefined; a results file can make a projection that large). */
static uint64_t ns_clamp(double ns)
{
	if (!(ns > 0))
		return 0;
	if (ns >= 18446744073709551616.0) /* 2^64 */
		return UINT64_MAX;
	return (uint64_t)ns;
}

/* keep_last: how many checkpoints the group's writes deleted, and the
 * longest deletion (a rank's, after its writes: not in the durations). */
static void deleted_line(FILE *f, const struct sc_ckpt_group *g, const struct sc_phase *ph)
{
	uint64_t most = 0;
	uint32_t n = 0;
	char a[32];

	for (uint32_t i = 0; i < g->ncells; i++) {
		n += g->cells[i].delete_ns > 0;
		if (g->cells[i].delete_ns > most)
			most = g->cells[i].delete_ns;
	}
	if (n)
		fprintf(f,
			"  %s: keep_last %u: %u checkpoint(s) deleted, each within %s (after the "
			"write, not in its duration)\n",
			g->name, ph->ckpt.keep_last, n, sc_fmt_duration(a, sizeof(a), most));
}

/* async: per checkpoint written, the longest host copy, drain and stall
 * over the ranks and how many ranks stalled. */
static void async_summary(FILE *f, const struct sc_ckpt_group *g)
{
	char a[32], b[32], c[32];

	for (uint32_t i = 0; i < g->ncells; i++) {
		const struct sc_ckpt_cell *x = &g->cells[i];

		if (!x->async)
			continue;
		fprintf(f,
			"  %s: checkpoint %u async: blocking %s, drain %s, stall %s (%u rank(s) "
			"stalled)\n",
			g->name, x->index, sc_fmt_duration(a, sizeof(a), x->blocking_ns),
			sc_fmt_duration(b, sizeof(b), x->drain_ns),
			sc_fmt_duration(c, sizeof(c), x->stall_ns), x->ranks_stalled);
	}
}

/* A procedure: mlperf group's figures in MLPerf Storage's terms. */
static void mlperf_lines(FILE *f, const struct sc_ckpt_group *g)
{
	const struct sc_ckpt_mlperf *m = &g->mlperf;

	fprintf(f,
		"  %s: MLPerf: checkpoint %.4f GiB (full size %.1f GiB); save %.4f s (stdev "
		"%.4f s) %.4f GB/s over %u; load %.4f s (stdev %.4f s) %.4f GB/s over %u\n",
		g->name, m->size_GiB, m->full_size_GiB, m->save_mean_s, m->save_stdev_s,
		m->save_GBps, m->nsave, m->load_mean_s, m->load_stdev_s, m->load_GBps, m->nload);
	if (m->ranks < m->layout_ranks)
		fprintf(f,
			"  %s: MLPerf: subset mode: %u of the layout's %llu ranks ran (each its "
			"rank's files); the projection is the full checkpoint at these ranks' "
			"throughput\n",
			g->name, m->ranks, (unsigned long long)m->layout_ranks);
	if (m->nload)
		fprintf(f, "  %s: MLPerf: cache drop before the reads: %s (%llu files fadvised)\n",
			g->name, sc_ckpt_cache_drop_name(m),
			(unsigned long long)m->cache_drop_files);
}

static void ckpt_summary(FILE *f, const struct sc_run_figures *fg, const struct sc_phase *ph)
{
	const struct sc_ckpt_group *g = fg->ckpt;
	uint32_t n = fg->nckpt;
	char a[32], b[32], c[32], d[32], e[64], ratio[32];

	for (uint32_t k = 0; k < n; k++) {
		const struct sc_ckpt_trend *t = &g[k].write;

		if (strcmp(g[k].name, ph->group ? ph->group : "") != 0)
			continue;
		if (isfinite(t->last_first_ratio)) /* NAN from one checkpoint */
			snprintf(ratio, sizeof(ratio), "%.2f", t->last_first_ratio);
		else
			snprintf(ratio, sizeof(ratio), "n/a");
		fprintf(f,
			"  %s: %u checkpoint(s) written: duration mean %s, p50 %s, max %s; "
			"trend %+.1f ms per checkpoint, last/first %s\n",
			g[k].name, t->n, sc_fmt_duration(a, sizeof(a), ns_clamp(t->mean_ns)),
			sc_fmt_duration(b, sizeof(b), ns_clamp(t->p50_ns)),
			sc_fmt_duration(c, sizeof(c), ns_clamp(t->max_ns)),
			t->slope_ns_per_ckpt / NS_PER_MS, ratio);
		deleted_line(f, &g[k], ph);
		async_summary(f, &g[k]);
		if (g[k].restore.n)
			fprintf(f, "  %s: %u restored: duration mean %s, max %s\n", g[k].name,
				g[k].restore.n,
				sc_fmt_duration(a, sizeof(a), ns_clamp(g[k].restore.mean_ns)),
				sc_fmt_duration(b, sizeof(b), ns_clamp(g[k].restore.max_ns)));
		e[0] = '\0';
		if (g[k].restore.n)
			snprintf(
			    e, sizeof(e), ", restore %s",
			    sc_fmt_duration(d, sizeof(d), ns_clamp(g[k].projected_restore_ns)));
		fprintf(f, "  %s: full size %s (scale %g): projected write %s at %s%s\n", g[k].name,
			sc_fmt_bytes(a, sizeof(a), g[k].full_size_bytes), ph->ckpt.scale,
			sc_fmt_duration(b, sizeof(b), ns_clamp(g[k].projected_write_ns)),
			sc_fmt_rate(c, sizeof(c), t->throughput_bytes_per_s), e);
		if (g[k].mlperf.on)
			mlperf_lines(f, &g[k]);
	}
}

/* The grids of ph's sweep, once its last cell ran. */
static void sweep_summary(FILE *f, const struct sc_run_figures *fg, const struct sc_phase *ph)
{
	const struct sc_sweep *sw = sc_sweeps_find(&fg->sweeps, ph->group);

	if (sw)
		sc_report_sweep_grids(f, sw);
}

/* The phase's failed I/Os by errno, and the first one in full. */
static void failed_ios_line(FILE *f, const struct sc_run_record *rec, const struct sc_phase *ph,
			    const struct sc_phase_figures *fig)
{
	static const char *const ops[] = {"read", "write", "fsync"};
	char name[32];

	if (!fig->errors)
		return;
	fprintf(f, "  %s: %llu failed I/Os:", ph->name, (unsigned long long)fig->errors);
	for (uint32_t i = 0; i < fig->nerrnos; i++)
		fprintf(f, "%s %s %llu", i ? "," : "",
			sc_errno_name(fig->errnos[i].err, name, sizeof(name)),
			(unsigned long long)fig->errnos[i].count);
	if (fig->nfirst_failures) {
		const struct sc_rank_result *r = fig->first_failures[0].rank;
		const struct sc_io_failure *x = fig->first_failures[0].failure;

		fprintf(f, "; first: rank %u (%s) %s of %u B at offset %llu in %s%s%s", r->rank,
			r->host, x->op < 3 ? ops[x->op] : "I/O", x->len_bytes,
			(unsigned long long)x->offset_bytes,
			r->target < rec->plan.ntargets ? rec->plan.targets[r->target].path : "?",
			x->file[0] ? "/" : "", x->file);
	}
	fputc('\n', f);
}

void sc_rows_workload(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      uint32_t i)
{
	const struct sc_phase_record *pr = &rec->phases[i];
	const struct sc_phase_figures *fig = &fg->phases[i];
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];
	const struct sc_workload_figures *w = &fg->work[i];
	const struct sc_open_loop_figures *ol = &w->open_loop;
	char a[32], b[32];

	failed_ios_line(f, rec, ph, fig);
	if (!sc_rows_measured(pr))
		return;
	if (ph->workload == SC_WORKLOAD_INGEST) {
		const struct sc_ingest_figures *g = &w->ingest;

		fprintf(f,
			"  %s: %.0f samples/s, accelerator utilisation %.1f%% (lowest %.1f%%, rank "
			"%u): %s MLPerf's 90%%\n",
			ph->name, g->samples_per_s, g->au * PERCENT, g->au_min * PERCENT,
			g->au_min_rank, g->au_meets_90 ? "meets" : "BELOW");
	}
	if (ph->workload == SC_WORKLOAD_TRAINING) {
		const struct sc_training_figures *g = &w->training;

		if (!g->au_measured)
			fprintf(f,
				"  %s: %u accelerators on %u hosts: AU not measured (every epoch "
				"had one step, and AU leaves each epoch's first out, as DLIO)\n",
				ph->name, g->accelerators, g->hosts);
		else
			fprintf(f,
				"  %s: %u accelerators on %u hosts, %.1f samples/s, AU %.1f%% "
				"(lowest %.1f%%, accelerator %u on rank %u; %u below; %u of %u "
				"hosts below): %s the %.0f%% threshold\n",
				ph->name, g->accelerators, g->hosts, g->samples_per_s,
				g->au * PERCENT, g->au_min * PERCENT, g->au_min_accel,
				g->au_min_rank, g->accels_below, g->hosts_below, g->hosts,
				g->au_meets ? "meets" : "BELOW", g->au_threshold * PERCENT);
		if (g->hosts_caching)
			fprintf(f,
				"  %s: potential caching on %u of %u hosts: a host's share of the "
				"dataset (%s) fits in its memory and the reads are buffered, so "
				"epochs after the first may come from the page cache (more files, "
				"or direct: true)\n",
				ph->name, g->hosts_caching, g->hosts,
				sc_fmt_bytes(a, sizeof(a), g->data_per_host_bytes));
	}
	if (ph->io.rate_iops)
		fprintf(f,
			"  %s: open loop at %llu IOPS per rank: response p99 %s, p99.99 %s; "
			"%llu I/Os started late, %llu due but never started\n",
			ph->name, (unsigned long long)ph->io.rate_iops,
			sc_report_fmt_pct(a, sizeof(a), &ol->resp_all, sc_pct_index(99.0)),
			sc_report_fmt_pct(b, sizeof(b), &ol->resp_all, sc_pct_index(99.99)),
			(unsigned long long)ol->late_ios, (unsigned long long)ol->unissued_ios);
	if (ph->io.runtime_max_ns)
		fprintf(f, "  %s: ended by %s (runtime_max %s: %llu job(s) stopped before their bytes)\n",
			ph->name, fig->time_capped_jobs ? "runtime_max" : "bytes",
			sc_fmt_duration(a, sizeof(a), ph->io.runtime_max_ns),
			(unsigned long long)fig->time_capped_jobs);
	if (ph->workload == SC_WORKLOAD_CHECKPOINT && ph->cell + 1 == ph->ncells)
		ckpt_summary(f, fg, ph);
	if (ph->workload == SC_WORKLOAD_FILL)
		sc_report_write_cliff_text(f, rec, pr, &w->cliffs);
	if ((ph->workload == SC_WORKLOAD_IO || ph->workload == SC_WORKLOAD_KVCACHE) &&
	    ph->ncells > 1 && ph->cell + 1 == ph->ncells)
		sweep_summary(f, fg, ph);
}

uint64_t sc_rows_verify(FILE *f, const struct sc_run_record *rec, const struct sc_run_figures *fg,
			uint32_t at)
{
	const struct sc_phase_record *pr = &rec->phases[at];
	const struct sc_phase *ph = &rec->plan.phases[pr->phase];
	uint64_t run = sc_verify_run_hash(rec->plan.run_id);
	const struct sc_verify_figures *v = &fg->work[at].verify;
	const struct sc_rank_result *r;
	const struct sc_verify_mismatch *m;
	uint32_t i;

	if (!v->mismatches)
		return 0;
	fprintf(f,
		"ssdcluster: phase %s: verify: %llu mismatches in %llu blocks checked, on %u "
		"rank(s):\n",
		ph->name, (unsigned long long)v->mismatches, (unsigned long long)v->checked,
		v->ranks_with_mismatches);
	for (i = 0; i < VERIFY_PRINTED && (m = sc_verify_listed(pr, i, &r)); i++) {
		struct sc_place place = {.rank = r->rank, .target = r->target};
		char file[4096] = "?", why[64];
		uint64_t base;

		if (r->target < rec->plan.ntargets)
			sc_layout_job_file(&rec->plan, &place, pr->phase, m->job, file,
					   sizeof(file), &base);
		fprintf(f,
			"  rank %u (%s): %s offset %llu B: %s failed; expected offset %llu run "
			"%016llx length %llu B, found offset %llu run %016llx seq %llu length %u "
			"B crc %08x (the data's is %08x); %u bytes differ from byte %u\n",
			r->rank, r->host, file, (unsigned long long)m->offset,
			sc_verify_failed_text(m->failed, why, sizeof(why)),
			(unsigned long long)m->offset, (unsigned long long)run,
			(unsigned long long)ph->io.bs_bytes, (unsigned long long)m->found.offset,
			(unsigned long long)m->found.run_id, (unsigned long long)m->found.seq,
			m->found.len, m->found.crc, m->crc_data, m->bad_bytes, m->first_bad_byte);
	}
	if (v->mismatches > i)
		fprintf(f,
			"  (%llu more; results.json lists the first %u under "
			"verify.first_mismatches)\n",
			(unsigned long long)(v->mismatches - i), SC_VERIFY_KEEP);
	return v->mismatches;
}

int sc_rows_io_opts(FILE *f, const struct sc_run_record *rec, const struct sc_phase_record *pr)
{
	struct sc_io_opt_figures opts[SC_IO_OPT_COUNT];
	int lines = 0;

	sc_io_opt_figures(pr, opts);
	for (int o = 0; o < SC_IO_OPT_COUNT; o++) {
		if (!opts[o].unavailable_ranks)
			continue;
		fprintf(f, "ssdcluster: phase %s: note: %s unavailable on %u of %u ranks: %s\n",
			rec->plan.phases[pr->phase].name, sc_io_opt_name((enum sc_io_opt)o),
			opts[o].unavailable_ranks, opts[o].asked_ranks, opts[o].why);
		lines++;
	}
	return lines;
}
