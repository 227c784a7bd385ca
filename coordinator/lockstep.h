/* lockstep.h -- runs one phase on every rank in lockstep and brings what each
 * rank measured to rank 0 as a phase record. */
#ifndef SC_LOCKSTEP_H
#define SC_LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "plan.h"
#include "result.h"
#include "rundir.h"
#include "cluster/cluster.h"

/* Every rank calls this for phase p; dir is the rank's run directory
 * (sc_rundir_create/_join, or unused).  Rank 0 gets the record in *rec
 * (others leave it untouched), its status saying how it ended.  Returns
 * 0 when every rank ran the phase to its end (I/Os may have failed under
 * on_error continue); -EIO when some rank stopped on an error (stop-phase,
 * abort, or one no rank can go on after; the record is still filled);
 * -EINTR when a signal stopped it (every rank agrees; the record holds
 * what was measured until then, or only a row per rank when the phase had
 * not started, and says interrupted); another -errno when a rank could
 * not prepare the phase (nothing was measured; rank 0 gets every rank's
 * message in err).  places: on rank 0 every rank's place (for the rows of
 * a phase nothing was measured in), may be NULL elsewhere.
 *
 * Every wait on other ranks has a deadline (deadline.h): preparing, then
 * starting, then running (the phase's timeout, or its planned duration
 * plus a grace, from the common start), then merging.  When one passes,
 * the cluster's on_lost ends the process (cluster.h). */
int sc_phase_run(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
		 const struct sc_place *place, const struct sc_rundir *dir,
		 const struct sc_place *places, struct sc_phase_record *rec, char *err,
		 size_t errlen);

/* Rank 0: a record of phase p in which nothing was measured: a row per
 * rank with its rank, node, host and target (places NULL: target 0), the
 * given status.  0 or -ENOMEM. */
int sc_phase_empty_record(const struct sc_cluster *c, uint32_t p, const struct sc_place *places,
			  enum sc_phase_status status, struct sc_phase_record *rec);

#endif
