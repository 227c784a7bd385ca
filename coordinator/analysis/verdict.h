/* verdict.h -- the PASS/FAIL verdict of a run: every expect: threshold of
 * every finished phase against the figures analysis computed for it.
 *
 * The metrics live in one table (verdict.c): each with its unit, the scope
 * it is checked at (the cluster, each node, each drive), the phase kinds
 * that can produce it and the function that evaluates it.  The config asks
 * the same table whether a phase can produce a metric (sc_verdict_cannot),
 * so a threshold the run could never measure is refused before any I/O.
 * A drive is one rank's row (a rank drives one target); a node is the
 * ranks of one host.  Figures come from aggregate.c and workload_figures.c,
 * never derived again here.
 */
#ifndef SC_VERDICT_H
#define SC_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "names.h"
#include "plan.h"
#include "result.h"

struct sc_phase_figures;
struct sc_steady_group;
struct sc_workload_figures;

/* What a check concerns. */
enum sc_check_scope { SC_SCOPE_CLUSTER = 0, SC_SCOPE_NODE, SC_SCOPE_DRIVE, SC_SCOPE_COUNT };

/* The unit a metric is measured and bounded in. */
enum sc_expect_unit {
	SC_UNIT_BW = 0,	  /* bytes per second */
	SC_UNIT_IOPS,	  /* I/Os per second */
	SC_UNIT_NS,	  /* a duration */
	SC_UNIT_FRACTION, /* 0..1, shown as a percentage */
	SC_UNIT_FLAG,	  /* 1 yes, 0 no */
};

enum sc_check_result {
	SC_CHECK_PASS = 0,
	SC_CHECK_FAIL,
	SC_CHECK_NOT_MEASURED, /* the run has no figure for it (yet): neither */
};

/* What a check or an outlier concerns: the cluster, a node, or a drive
 * (one rank's row and its target). */
struct sc_where {
	enum sc_check_scope scope;
	uint32_t node;		 /* node and drive scopes */
	const char *host;	 /* NULL at cluster scope */
	uint32_t rank;		 /* drive scope */
	uint32_t target;	 /* drive scope: index into plan.targets */
	const char *target_path; /* drive scope: plan-owned; else NULL */
	const char *device;	 /* drive scope: the drive's device and serial
				  * from the telemetry inventory, when the
				  * record has them; else NULL */
	const char *serial;
};

/* One check: one threshold of one phase at one scope. */
struct sc_check {
	uint32_t phase;		/* index into plan.phases */
	const char *phase_name; /* plan-owned */
	const char *group;	/* plan-owned: the config phase (sweep,
				 * checkpoint group) it belongs to */
	enum sc_expect_metric metric;
	struct sc_where at; /* scope: the metric's */
	double measured;    /* in the metric's unit */
	double required;
	enum sc_check_result result;
	const char *note; /* static text: why not measured, or NULL */
};

/* The verdict of a run so far. */
struct sc_verdict {
	uint32_t nchecks;
	struct sc_check *checks; /* heap, by phase, then threshold, then
				  * node or rank */
	uint32_t nfailed;
	uint32_t nunmeasured;
	uint32_t cap;	    /* room in checks */
	uint32_t last_from; /* the last phase added: its first check */
	struct sc_names names; /* the checks' hosts, devices and serials */
};

/* Adds the checks of rec->phases[at] (judged on pf[at] and work[at],
 * steady-state groups judged on steady, the groups as of that phase:
 * analysis/steady_state.h) to v, which holds those of the phases before
 * it (zeroed before the first).  A round of a steady-state group takes
 * the place of the group's round before it, for a group is judged once,
 * by its last round run.  The checks point into rec's plan (valid while
 * it is) and keep their own hosts, devices and serials: the phase's rank
 * rows may be freed once it is added.  0 or -ENOMEM. */
int sc_verdict_add(struct sc_verdict *v, const struct sc_run_record *rec,
		   const struct sc_phase_figures *pf, const struct sc_workload_figures *work,
		   const struct sc_steady_group *steady, uint32_t nsteady, uint32_t at);

/* The checks of every finished phase of rec with expect: thresholds
 * (none: nchecks 0), judged on pf and work (the figures and workload
 * figures of every phase of rec, by index in rec->phases).  0 or -ENOMEM;
 * free with sc_verdict_exit.  The checks point into rec's plan: valid
 * while it is. */
int sc_verdict_of_run(const struct sc_run_record *rec, const struct sc_phase_figures *pf,
		      const struct sc_workload_figures *work, struct sc_verdict *out);
void sc_verdict_exit(struct sc_verdict *v);

/* True when any phase of plan carries a threshold. */
bool sc_verdict_planned(const struct sc_plan *plan);

/* Metric m's unit, scope, and whether it is a lower bound (min_*, and the
 * yes/no ones) or an upper one (max_*). */
enum sc_expect_unit sc_verdict_unit(enum sc_expect_metric m);
enum sc_check_scope sc_verdict_scope(enum sc_expect_metric m);
bool sc_verdict_is_minimum(enum sc_expect_metric m);

/* Whether a phase of workload w that reads (reads) and writes (writes)
 * can produce metric m: NULL when it can, else why not, in words that
 * complete "min_au: ..." ("the accelerator utilisation of an ingest
 * phase; this phase is io").  buf holds the text. */
const char *sc_verdict_cannot(enum sc_expect_metric m, enum sc_workload w, bool reads, bool writes,
			      char *buf, size_t len);

/* Fills w for the drive of rank row r (its host, rank, target and target
 * path from plan). */
void sc_verdict_drive_where(const struct sc_plan *plan, const struct sc_rank_result *r,
			    struct sc_where *w);

/* w's host, device and serial replaced by their copies kept in names
 * (names.h), valid after the rows they came from are freed.  0 or
 * -ENOMEM. */
int sc_where_keep(struct sc_where *w, struct sc_names *names);

/* The host of node in pr (from its first rank's row: record-owned, unlike
 * a node row's), or NULL when no rank of pr is on it. */
const char *sc_verdict_node_host(const struct sc_phase_record *pr, uint32_t node);

/* The name of a scope and of a result ("cluster", "PASS"). */
const char *sc_check_scope_name(enum sc_check_scope s);
const char *sc_check_result_name(enum sc_check_result r);

#endif
