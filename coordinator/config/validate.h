/* validate.h -- checks that need the cluster's shape or a rank's own host:
 * every node has a target, capacity covers what the run needs, and each
 * rank's target is what the plan says it is. */
#ifndef SC_VALIDATE_H
#define SC_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "plan.h"
#include "cluster/cluster.h"
#include "config.h"

/* Rank 0: resolves what depends on the rank count (a checkpoint's dp
 * defaults to ranks / (tp * pp), a training phase's accelerators and
 * files) and checks checkpoint layouts against it,
 * places every rank (places[nranks]) and checks that every node has a
 * target, that checkpoint, ingest and training phases have directory targets, and
 * that a file or device it probed that a phase writes comes with
 * --allow-destroy.  0, or -EINVAL with a "file:line:col: key: ..." message. */
int sc_validate_layout(const struct sc_config *cfg, struct sc_plan *plan,
		       const struct sc_cluster *c, struct sc_place *places, char *err, size_t errlen);

/* Rank 0, after sc_validate_layout: no target's capacity (as configured)
 * is below what its node's ranks need.  0, or -ENOSPC with a
 * "file:line:col: targets.N.capacity: ..." message naming the first
 * target and host that falls short. */
int sc_validate_capacity(const struct sc_config *cfg, const struct sc_plan *plan,
			 const struct sc_cluster *c, const struct sc_place *places, char *err,
			 size_t errlen);

/* Any rank: the destroy guard (worker/guard.h) passes for its own target
 * as it is on this host, and the target exists here as the kind the plan
 * expects (a missing directory is fine when its parent exists) with room
 * for what the run needs.  *avail: what the target holds here (free space
 * of a directory, size of a file or device, at most its capacity; 0 when
 * not known).  -ENOSPC when that is less than the run needs.  *claim: -1, or (the node's first rank on a block
 * device that a phase writes) a descriptor holding the device O_EXCL,
 * which the caller closes when the run ends.  0 or -errno with a message. */
int sc_validate_local(const struct sc_plan *plan, const struct sc_place *place, const char *host,
		      int *claim, uint64_t *avail, char *err, size_t errlen);

/* Rank 0, within sc_validate_layout once the ranks are placed: a fill
 * phase without size (sc_fill_spec.whole) gets each job's share of its
 * target: the target's capacity / (ranks of the node on it x jobs), the
 * least over the ranks, rounded down to bs; io_bytes follows.  0, or
 * -EINVAL with a message when a share is less than bs (fill_phase.c). */
int sc_validate_fill(const struct sc_config *cfg, struct sc_plan *plan,
		     const struct sc_place *places, uint32_t nranks, char *err, size_t errlen);

/* Rank 0, within sc_validate_layout once the ranks are placed: each
 * training phase's accelerators (ranks x accelerators_per_rank; the same
 * on every host), its clients' memory when not given (every host's MemTotal,
 * summed), its files when not given (the rules' minimum,
 * sc_mlperf_min_files, at a search's largest count), and at least one
 * step an epoch.  0, or -EINVAL with a message (training_phase.c). */
int sc_validate_training(const struct sc_config *cfg, struct sc_plan *plan,
			 const struct sc_cluster *c, char *err, size_t errlen);

#endif
