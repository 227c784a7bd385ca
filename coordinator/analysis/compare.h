/* compare.h -- two runs side by side: run B's figures against run A's.
 *
 * Each side may be several runs of the same settings (sc_compare_check_side
 * says whether they are): a figure is then each side's mean over its runs,
 * with their spread, and the change B - A comes with Welch's 95% interval
 * (welch.h); a change whose interval holds 0 is "no difference".  With one
 * run on a side the interval is unknown and a change within
 * SC_COMPARE_SAME_PCT is "no difference".  Pairing and settings come from
 * the first run of each side.  Paired phases whose settings differ (engine,
 * bs, checkpoints, target kind, ...) say which and how.
 *
 * Phases are paired by name; a sweep's cells by their place on the axes
 * rw, bs and iodepth: an axis whose values are the same in both runs pairs
 * equal values; one whose values differ but whose counts match pairs by
 * position (its values labelled "16->4"); otherwise equal values pair and
 * the rest are unpaired.  Checkpoint groups pair by name.  A phase of one
 * run only is listed, never an error.  The figures are those of
 * aggregate.h and workload_figures.h, taken as they are; only the change
 * (B - A) / A in percent and which run is better are computed here.
 */
#ifndef SC_COMPARE_H
#define SC_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figures.h"
#include "result.h"
#include "sweep_matrix.h"
#include "welch.h"

/* With one run a side: below this |change| B is neither better nor worse,
 * "no difference". */
#define SC_COMPARE_SAME_PCT 1.0

/* The figures compared for each phase.  Latencies are service times per
 * direction and both merged (read+write); a direction without I/Os has
 * none (NAN). */
enum sc_compare_fig {
	SC_CMP_BW = 0, /* last-done bandwidth, bytes/s */
	SC_CMP_IOPS,   /* reads + writes per second */
	SC_CMP_LAT,    /* first latency figure: SC_CMP_LAT + dir * 4 + stat */
	SC_CMP_NFIGS = SC_CMP_LAT + (SC_DIR_COUNT + 1) * 4,
};

/* Latency statistics, in the order of the figures of one direction. */
enum sc_compare_stat { SC_CMP_MEAN = 0, SC_CMP_P50, SC_CMP_P99, SC_CMP_P9999, SC_CMP_NSTATS };

/* The direction index of both directions merged. */
#define SC_CMP_DIR_ALL SC_DIR_COUNT

/* Index of the latency figure of dir (SC_DIR_READ, _WRITE, SC_CMP_DIR_ALL)
 * and stat. */
static inline int sc_compare_lat_fig(int dir, int stat)
{
	return SC_CMP_LAT + dir * SC_CMP_NSTATS + stat;
}

/* How a figure reads: "bandwidth", "read p99", ...; unit "MB/s", "IOPS",
 * "us" of its printed value (value / scale); lower_better for latencies and
 * durations. */
struct sc_compare_fig_info {
	const char *name;
	const char *unit;
	double scale; /* base unit (bytes/s, IOPS, ns) per printed unit */
	bool lower_better;
};

/* Figure fig's (0 <= fig < SC_CMP_NFIGS). */
const struct sc_compare_fig_info *sc_compare_fig_info(int fig);

/* What B's figure is against A's. */
enum sc_compare_verdict {
	SC_CMP_SAME = 0, /* the interval of B - A holds 0; with one run a side
			  * |change| < SC_COMPARE_SAME_PCT */
	SC_CMP_BETTER,
	SC_CMP_WORSE,
	SC_CMP_UNKNOWN, /* a figure one run lacks, or A's is 0 */
};

/* One figure of both sides, in base units (NAN: the side has none). */
struct sc_compare_value {
	double a, b;		      /* each side's mean over its runs */
	struct sc_welch_side side[2]; /* [0] A, [1] B: runs with a value,
				       * mean, standard deviation, min, max */
	double change;		      /* b - a */
	double change_pct;	      /* (b - a) / a * 100; NAN when unknown */
	double ci_lo, ci_hi;	      /* Welch's interval of b - a at
				       * SC_WELCH_CONFIDENCE; NAN when unknown
				       * (fewer than two runs on a side) */
	double ci_lo_pct, ci_hi_pct;  /* the same / a * 100 */
	double ci_df;		      /* its degrees of freedom */
	enum sc_compare_verdict verdict;
};

/* Fills v from one run a side, a and b, lower_better saying which way is
 * better. */
void sc_compare_value_set(struct sc_compare_value *v, double a, double b, bool lower_better);

/* Fills v from each side's runs xa[0..na) and xb[0..nb) (NAN: that run
 * has none). */
void sc_compare_value_runs(struct sc_compare_value *v, const double *xa, uint32_t na,
			   const double *xb, uint32_t nb, bool lower_better);

/* Whether v has an interval (two runs or more with a value on each side). */
static inline bool sc_compare_has_interval(const struct sc_compare_value *v)
{
	return v->ci_lo == v->ci_lo; /* not NAN */
}

/* A setting of a pair of phases that differs between A and B: its name
 * ("engine", "bs", "checkpoints", "target kind", ...) and each side's
 * value as the config would say it ("-" where the phase has none). */
#define SC_COMPARE_SETTING_LEN 96
struct sc_compare_setting {
	const char *name;
	char a[SC_COMPARE_SETTING_LEN], b[SC_COMPARE_SETTING_LEN];
};

/* The settings a compare checks, and the values phase pa of ra and phase
 * pb of rb differ in: *out (heap, NULL when none) and their count, or
 * -ENOMEM. */
int sc_compare_settings(const struct sc_run_record *ra, uint32_t pa, const struct sc_run_record *rb,
			uint32_t pb, struct sc_compare_setting **out);

/* "4KiB", "1MiB", or bytes: the largest binary unit that divides v. */
void sc_compare_size_label(char *buf, size_t len, uint64_t v);

/* Whether runs[0..n) (named names[0..n)) are runs of the same settings,
 * as the runs of one side must be: the same phases, each with the same
 * settings.  0, or -EINVAL with the first difference in err (the files,
 * the phase, the setting and both values); -ENOMEM. */
int sc_compare_check_side(const struct sc_run_record *const *runs, const char *const *names,
			  uint32_t n, char *err, size_t errlen);

/* "better", "worse", "no difference", "unknown". */
const char *sc_compare_verdict_name(enum sc_compare_verdict v);

/* A pair of phases. */
struct sc_compare_phase {
	char *label;		   /* the phase's name, or for a sweep cell whose
				    * values differ "g[iodepth=16->4]" (heap) */
	uint32_t phase_a, phase_b; /* plan phase indexes in A and B */
	int32_t sweep;		   /* index into sweeps, -1 when not a sweep cell */
	struct sc_compare_value v[SC_CMP_NFIGS];
	uint32_t nsettings;		     /* settings that differ between A and B */
	struct sc_compare_setting *settings; /* heap */
};

/* One setting that differs, the same way, in one or more pairs of phases:
 * a warning that the pairs may not compare like with like. */
struct sc_compare_warning {
	const struct sc_compare_setting *s; /* in the first pair's settings */
	uint32_t npairs;
	const char *first, *last; /* the first and last pair's labels */
};

/* Whether figure fig of p says something of its own: a value in either run,
 * and for the merged latency figures I/Os in both directions (otherwise they
 * repeat one direction's).  Only such figures are among the largest
 * differences. */
bool sc_compare_fig_own(const struct sc_compare_phase *p, int fig);

/* A pair of sweeps of the same name: their grid on A's axes. */
struct sc_compare_sweep {
	const char *name; /* A's (plan-owned) */
	uint32_t naxis[SC_SWEEP_AXES];
	char **labels[SC_SWEEP_AXES]; /* heap: each of A's axis values as a
				       * heading ("randread", "4KiB", "16->4") */
	int32_t *pair;		      /* heap, [rw][bs][iodepth] on A's axes: index
				       * into phases, -1 for no pair */
};

/* A pair of checkpoint groups: each side's duration per checkpoint (of
 * its first run) and mean durations over its runs. */
struct sc_compare_ckpt {
	const char *name;				  /* A's (plan-owned) */
	uint32_t nwrite[2], nrestore[2];		  /* [0] A, [1] B */
	double *write_ns[2], *restore_ns[2];		  /* heap, by checkpoint index */
	struct sc_compare_value write_mean, restore_mean; /* mean durations, ns */
};

/* One of the largest differences. */
struct sc_compare_diff {
	const char *label; /* the phase's label or the checkpoint group's name */
	const char *fig;   /* the figure's name ("read p99", "checkpoint write") */
	const char *unit;  /* its printed unit */
	double scale;	   /* base units per printed unit */
	const struct sc_compare_value *v;
};

struct sc_compare {
	const struct sc_run_record *a, *b;	    /* each side's first run */
	const struct sc_run_record *const *runs[2]; /* [0] A's, [1] B's */
	uint32_t nruns[2];
	const struct sc_run_record *one[2]; /* sc_compare_runs's runs[] */
	uint32_t nphases;
	struct sc_compare_phase *phases; /* heap, in A's plan order */
	struct sc_run_figures *figs[2]; /* heap: each run's figures (figures.h),
					 * built once: figs[side][run] */
	const struct sc_sweeps *sweeps_a, *sweeps_b; /* the first runs' (in figs) */
	uint32_t nsweeps;
	struct sc_compare_sweep *sweeps; /* heap */
	uint32_t nckpt;
	struct sc_compare_ckpt *ckpt; /* heap */
	uint32_t nonly_a, nonly_b;
	const char **only_a, **only_b; /* heap: names of the phases (or
					* checkpoint groups) of one run only */
	uint32_t ndiffs;
	struct sc_compare_diff *diffs; /* heap: every better or worse figure,
					* largest |change| first */
	uint32_t nwarnings;
	struct sc_compare_warning *warnings; /* heap: each setting that
					      * differs, in A's phase order */
};

/* Compares B with A, one run each (both must outlive out).  0; -ENOMEM;
 * -ENOENT when they share no phase, with why in err. */
int sc_compare_runs(const struct sc_run_record *a, const struct sc_run_record *b,
		    struct sc_compare *out, char *err, size_t errlen);

/* Compares side B, runs b[0..nb), with side A, runs a[0..na) (na, nb >=
 * 1; the runs of a side checked by sc_compare_check_side; the arrays and
 * the runs must outlive out).  As sc_compare_runs. */
int sc_compare_sides(const struct sc_run_record *const *a, uint32_t na,
		     const struct sc_run_record *const *b, uint32_t nb, struct sc_compare *out,
		     char *err, size_t errlen);

void sc_compare_exit(struct sc_compare *c);

/* The pair at A's axis indexes at of sweep s, or NULL. */
const struct sc_compare_phase *sc_compare_cell(const struct sc_compare *c,
					       const struct sc_compare_sweep *s,
					       const uint32_t at[SC_SWEEP_AXES]);

#endif
