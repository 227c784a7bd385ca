/* compare.h -- two runs side by side: run B's figures against run A's.
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

#include "result.h"
#include "sweep_matrix.h"

/* Below this |change| B is neither better nor worse: "no difference". */
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
	SC_CMP_SAME = 0, /* |change| < SC_COMPARE_SAME_PCT */
	SC_CMP_BETTER,
	SC_CMP_WORSE,
	SC_CMP_UNKNOWN, /* a figure one run lacks, or A's is 0 */
};

/* One figure of both runs, in base units (NAN: the run has none). */
struct sc_compare_value {
	double a, b;
	double change_pct; /* (b - a) / a * 100; NAN when unknown */
	enum sc_compare_verdict verdict;
};

/* Fills v from a and b, lower_better saying which way is better. */
void sc_compare_value_set(struct sc_compare_value *v, double a, double b, bool lower_better);

/* "better", "worse", "no difference", "unknown". */
const char *sc_compare_verdict_name(enum sc_compare_verdict v);

/* A pair of phases. */
struct sc_compare_phase {
	char *label;		   /* the phase's name, or for a sweep cell whose
				    * values differ "g[iodepth=16->4]" (heap) */
	uint32_t phase_a, phase_b; /* plan phase indexes in A and B */
	int32_t sweep;		   /* index into sweeps, -1 when not a sweep cell */
	struct sc_compare_value v[SC_CMP_NFIGS];
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

/* A pair of checkpoint groups: each run's duration per checkpoint. */
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
	const struct sc_run_record *a, *b;
	uint32_t nphases;
	struct sc_compare_phase *phases; /* heap, in A's plan order */
	struct sc_sweeps sweeps_a, sweeps_b;
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
};

/* Compares B with A (both must outlive out).  0; -ENOMEM; -ENOENT when
 * they share no phase, with why in err. */
int sc_compare_runs(const struct sc_run_record *a, const struct sc_run_record *b,
		    struct sc_compare *out, char *err, size_t errlen);

void sc_compare_exit(struct sc_compare *c);

/* The pair at A's axis indexes at of sweep s, or NULL. */
const struct sc_compare_phase *sc_compare_cell(const struct sc_compare *c,
					       const struct sc_compare_sweep *s,
					       const uint32_t at[SC_SWEEP_AXES]);

#endif
