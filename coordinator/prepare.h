/* prepare.h -- between the command line and the first phase: rank 0 loads
 * the plan and names the run, every rank checks its target and makes (or
 * opens) its run directory, which it removes again after the last phase.
 *
 * Functions that return an exit status return 0 or an enum sc_exit_status
 * (cli.h), with the reason printed (by rank 0 where the ranks agree). */
#ifndef SC_PREPARE_H
#define SC_PREPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "plan.h"
#include "rundir.h"
#include "cli.h"
#include "cluster/cluster.h"
#include "outdir.h"

/* Room for the refusals a --dry-run names after its plan. */
#define SC_PREPARE_SHORT_MAX 8192

/* What a --dry-run found too small for the plan: a run refuses at once,
 * a dry run prints its plan first and then names the shortfall. */
struct sc_shortfall {
	uint64_t avail_bytes;          /* what this rank's target holds here
					* (sc_validate_local); 0: not known */
	bool any;                      /* rank 0: some target falls short */
	char msg[SC_PREPARE_SHORT_MAX]; /* rank 0: the refusals a run prints,
					 * one "ssdcluster: ..." line each */
};

/* Rank 0: loads and checks the config, names the run (--run-id, or the
 * date and time and 64 random bits), places every rank (places[nranks])
 * and packs the plan into *packed (malloc'd).  A configured capacity below
 * what a node needs refuses the run, or for --dry-run goes into *sf.
 * 0 or an exit status. */
int sc_prepare_plan(struct sc_cluster *c, const struct sc_cli *cli, struct sc_plan *plan,
		    struct sc_place *places, struct sc_shortfall *sf, uint8_t **packed,
		    size_t *packed_len);

/* Where the results go: --output, else ssdcluster-results/RUN_ID, or for a
 * run that re-reads a kept run ssdcluster-results/RUN_ID-verify-DATE-TIME
 * (not over the kept run's own results). */
void sc_prepare_outdir(const struct sc_cli *cli, const struct sc_plan *plan, char *buf,
		       size_t len);

/* Every rank, before any I/O: rank 0 checks that the results folder
 * outdir lies apart from every target and run directory (outdir.h), then
 * makes it and proves it writable, into *od; the others leave *od empty.
 * 0 or SC_EXIT_BAD_INPUT (ranks agree), the reason printed by rank 0. */
int sc_prepare_results_dir(struct sc_cluster *c, const struct sc_cli *cli,
			   const struct sc_plan *plan, const char *outdir, struct sc_outdir *od);

/* Every rank: its target exists as planned, the destroy guard lets the
 * run write it (*claim: the device held O_EXCL, or -1) and it has room for
 * what the run needs here.  sf->avail_bytes: what it holds here.  For
 * dry_run a target too small is no refusal: rank 0 gathers the reasons in
 * sf.  0 or an exit status. */
int sc_prepare_targets(struct sc_cluster *c, const struct sc_plan *plan,
		       const struct sc_place *place, bool dry_run, int *claim,
		       struct sc_shortfall *sf);

/* Every rank, for --dry-run: rank 0 writes outdir/plan.json and prints the
 * plan (places: every rank's, NULL elsewhere; each rank's sf->avail_bytes
 * gathered); no I/O is done.  When sf says a target falls short, rank 0
 * then prints the refusals in sf and every rank returns SC_EXIT_BAD_INPUT,
 * as the run would.  0 or an exit status. */
int sc_prepare_dry_run(struct sc_cluster *c, const struct sc_plan *plan,
		       const struct sc_place *places, const char *outdir,
		       const struct sc_shortfall *sf);

/* Every rank: the run directory of its directory target (see rundir.h).
 * A run that re-reads a kept run opens the kept one, creating nothing.
 * Otherwise slot 0 of each node makes it and every rank there opens and
 * checks it; an existing one that is not this run's is refused with
 * nothing written, and what this rank made is removed again when any rank
 * fails.  0 or an exit status. */
int sc_prepare_dirs(struct sc_cluster *c, const struct sc_plan *plan,
		    const struct sc_place *place, struct sc_rundir *rd);

/* Removes the run directory this rank made, with everything in it, unless
 * the target says keep.  What is on another mount or filesystem is left
 * (see sc_rundir_remove).  All NULL-safe: none made yet.  0 when it is
 * gone (or kept, or not this rank's); 1 when something was left, with a
 * message naming what and why: the run should then not exit 0. */
int sc_prepare_remove_dirs(struct sc_cluster *c, const struct sc_plan *plan,
			   const struct sc_place *place, struct sc_rundir *rd);

#endif
