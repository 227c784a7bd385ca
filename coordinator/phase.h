/* phase.h -- runs one phase on every rank in lockstep and brings what each
 * rank measured to rank 0 as a phase record. */
#ifndef SC_PHASE_H
#define SC_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "../worker/layout.h"
#include "../worker/plan.h"
#include "../worker/result.h"
#include "../worker/rundir.h"
#include "cluster.h"

/* Every rank calls this for phase p; dir is the rank's run directory
 * (sc_rundir_create/_join, or unused).  Rank 0 gets the record in *rec
 * (others leave it untouched).  Returns 0 when every rank ran the phase;
 * -EIO when some rank reported I/O errors (the record is still filled);
 * another -errno when a rank could not prepare the phase (nothing was
 * measured; rank 0 gets every rank's message in err). */
int sc_phase_run(struct sc_cluster *c, const struct sc_plan *plan, uint32_t p,
		 const struct sc_place *place, const struct sc_rundir *dir,
		 struct sc_phase_record *rec, char *err, size_t errlen);

#endif
