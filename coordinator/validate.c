/* validate.c -- checks that need the cluster's shape or a rank's own host. */
#include "validate.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../worker/target.h"
#include "../worker/units.h"

int sc_validate_layout(const struct sc_config *cfg, const struct sc_plan *plan,
		       const struct sc_cluster *c, struct sc_place *places, char *err, size_t errlen)
{
	char where[512], need_s[32], cap_s[32];

	for (int r = 0; r < c->nranks; r++) {
		int rc = sc_layout_place(plan, c->hosts[r], (uint32_t)r, c->local_rank_of[r],
					 c->local_nranks_of[r], &places[r]);

		if (rc) {
			snprintf(err, errlen, "%s: host %s (rank %d) matches no target's hosts",
				 sc_config_where(cfg, "targets", where, sizeof(where)),
				 c->hosts[r], r);
			return -EINVAL;
		}
	}
	/* Every place on a node records how many of the node's ranks share
	 * its target, so checking each rank's place covers every node. */
	for (int r = 0; r < c->nranks; r++) {
		const struct sc_place *p = &places[r];
		const struct sc_target_spec *t = &plan->targets[p->target];
		uint64_t need = sc_layout_need_bytes(plan, p->target, p->nslots);

		if (t->capacity_bytes && need > t->capacity_bytes) {
			char key[64];

			snprintf(key, sizeof(key), "targets.%u.capacity", p->target);
			snprintf(err, errlen,
				 "%s: %s: %s on %s needs %s for %u rank(s) but capacity is %s "
				 "(raise capacity, or lower size/jobs)",
				 sc_config_where(cfg, key, where, sizeof(where)), key, t->path,
				 c->hosts[r], sc_fmt_bytes(need_s, sizeof(need_s), need), p->nslots,
				 sc_fmt_bytes(cap_s, sizeof(cap_s), t->capacity_bytes));
			return -EINVAL;
		}
	}
	return 0;
}

static int plan_writes(const struct sc_plan *plan)
{
	for (uint32_t p = 0; p < plan->nphases; p++)
		if (sc_rw_writes(plan->phases[p].io.rw) && plan->phases[p].io.engine != SC_ENGINE_NULL)
			return 1;
	return 0;
}

int sc_validate_local(const struct sc_plan *plan, const struct sc_place *place, const char *host,
		      char *err, size_t errlen)
{
	const struct sc_target_spec *t = &plan->targets[place->target];
	struct sc_target_info info;
	int rc = sc_target_probe(t->path, &info);

	if (rc == -ENOENT && t->kind == SC_TARGET_DIR) {
		char *copy = strdup(t->path);

		if (!copy)
			return -ENOMEM;
		rc = sc_target_probe(dirname(copy), &info);
		free(copy);
		if (rc == 0 && info.kind == SC_TARGET_DIR)
			return 0;
		snprintf(err, errlen, "%s: %s: neither it nor its parent directory exists on %s",
			 host, t->path, host);
		return -ENOENT;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s: %s", host, t->path, strerror(-rc));
		return rc;
	}
	if (info.kind != t->kind) {
		snprintf(err, errlen, "%s: %s is a %s here but a %s on rank 0's host", host,
			 t->path, sc_target_kind_name(info.kind), sc_target_kind_name(t->kind));
		return -EINVAL;
	}
	uint64_t limit = info.kind == SC_TARGET_DIR ? info.avail_bytes : info.size_bytes;
	uint64_t need = sc_layout_need_bytes(plan, place->target, place->nslots);
	char need_s[32], limit_s[32];

	if (t->capacity_bytes && t->capacity_bytes < limit)
		limit = t->capacity_bytes;
	if (need > limit) {
		snprintf(err, errlen, "%s: %s: the run needs %s here for %u rank(s) but only %s %s",
			 host, t->path, sc_fmt_bytes(need_s, sizeof(need_s), need), place->nslots,
			 sc_fmt_bytes(limit_s, sizeof(limit_s), limit),
			 limit == t->capacity_bytes ? "of capacity is allowed" : "is available");
		return -ENOSPC;
	}
	if (info.kind == SC_TARGET_BLOCK && info.mounted && plan_writes(plan)) {
		snprintf(err, errlen,
			 "%s: %s holds a mounted filesystem; refusing to write to it (unmount it, "
			 "or give a directory on it as the target)",
			 host, t->path);
		return -EBUSY;
	}
	return 0;
}
