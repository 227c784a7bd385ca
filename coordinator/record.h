/* record.h -- rank 0's run record: begun with the plan, each finished
 * phase added, the results rewritten and its row printed. */
#ifndef SC_RECORD_H
#define SC_RECORD_H

#include <stdbool.h>

#include "analysis/figures.h"
#include "plan.h"
#include "result.h"
#include "cluster/cluster.h"
#include "report/report.h"

/* Rank 0: starts rec for a run on c's ranks and nodes, now (wall clock).
 * rec takes over plan (which is left zeroed: sc_plan_exit on it is a no-op);
 * free it all with sc_run_record_exit. */
void sc_record_begin(struct sc_run_record *rec, const struct sc_cluster *c,
		     struct sc_plan *plan);

/* Rank 0: how far the files hold the record.  results.pb, from which
 * `ssdcluster report` makes all the others again, and the tables a phase
 * adds rows to (phases.csv, ranks.csv, timeseries.csv and
 * results.json.part, its objects for results.json) get every phase as it
 * ends: written whole with the first, each later one appended (costing
 * that phase alone; after a failed writing, which is cut back, the phases
 * they lack are appended at the next).  Once they hold a phase (and it is
 * not the last), rank 0 frees its rank rows and node series (thinned:
 * results.pb holds them) and keeps its figures and what the figures that
 * span phases took from it, so a run's memory does not grow with its
 * phases' ranks.  The
 * files that hold figures across the phases (results.json as an index of
 * the run so far, sweep.csv, report.html: sc_report_running) are rewritten
 * whole, and their cost grows with the phases, so after a phase only when
 * at least SC_RECORD_PACE_RATIO times their last writing has passed since
 * it (they take at most about a tenth of the run), and always after the
 * plan's last phase and after a phase that did not end ok.  At the run's
 * end (sc_record_flush, sc_record_model) results.json is made whole from
 * results.json.part (sc_report_finished).  Zero it before the first
 * phase. */
struct sc_record_pace {
	uint64_t due_ns;        /* not before (sc_now_ns; 0: after the next phase) */
	bool behind;            /* a phase is in results.pb and not in them */
	bool whole;             /* results.json is whole, holding every phase
				 * (and results.json.part is gone) */
	uint32_t pb_phases;     /* the record's phases results.pb holds */
	uint32_t rows_phases;   /* ... and the tables a phase adds rows to */
	uint32_t thinned;       /* the record's first phases, thinned
				 * (sc_phase_record_thin) once results.pb and
				 * the tables held them: their rows are
				 * in results.pb alone */
	struct sc_report_html_sections html; /* report.html's last phases'
				 * sections, each rendered once: free with
				 * sc_record_pace_exit */
};

/* Frees what pace keeps. */
void sc_record_pace_exit(struct sc_record_pace *pace);

#define SC_RECORD_PACE_RATIO 9

/* Rank 0: adds a finished phase to rec (which takes over what *ph owns,
 * or frees it when it cannot), brings fg (rec's figures, kept across the
 * run: sc_run_figures_init before the first phase) up to it, which
 * aggregates the new phase alone, rewrites results.pb in outdir and, as
 * pace says, the files formatted from them, and, unless quiet, prints the
 * phase's row.  0 or -errno (message printed). */
int sc_record_keep_phase(struct sc_run_record *rec, struct sc_run_figures *fg,
			 struct sc_record_pace *pace, struct sc_phase_record *ph,
			 const char *outdir, bool quiet);

/* Rank 0, at the run's end: brings results.pb, the tables and the
 * formatted files up to rec when pace says they lack a phase, and makes
 * results.json whole.  0 or -errno (message printed). */
int sc_record_flush(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		    struct sc_record_pace *pace, const char *outdir);

/* Rank 0, after the last phase that ran: when the plan has a model:
 * section, projects it from rec, rewrites the formatted files with it
 * ("model" in results.json; results.pb too if pace says it lacks a phase)
 * and, unless quiet, prints its table.  A projection that
 * cannot be made is a warning on stderr and {"error": ...} in the results,
 * not a failed run.  0, or -errno when the results cannot be written
 * (message printed). */
int sc_record_model(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		    struct sc_record_pace *pace, const char *outdir, bool quiet);

/* Rank 0, after the last phase that ran: unless quiet, prints the drive
 * writes the run consumed per drive against their rated endurance. */
void sc_record_drives(const struct sc_run_record *rec, const struct sc_run_figures *fg,
		      bool quiet);

#endif
