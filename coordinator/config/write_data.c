/* write_data.c -- what a phase's writes carry: compressible, dedupe and
 * reuse_buffers checked against what the phase does (worker/wdata.h). */
#include "schema.h"

#include <stdio.h>

static const enum pkey write_data_keys[] = {PK_COMPRESSIBLE, PK_DEDUPE, PK_REUSE_BUFFERS};

/* Whether config phase pv writes at all (a checkpoint always does). */
static bool phase_writes(const struct cfg_phase *pv)
{
	if (pv->workload == SC_WORKLOAD_CHECKPOINT)
		return true;
	for (uint32_t r = 0; r < pv->rw.n; r++)
		if (sc_rw_writes((enum sc_rw)pv->rw.v[r]))
			return true;
	return false;
}

/* Whether key k holds its default value (0, false). */
static bool at_default(const struct cfg_phase *pv, enum pkey k)
{
	return (k == PK_COMPRESSIBLE ? pv->compressible
		: k == PK_DEDUPE     ? pv->dedupe
				     : pv->reuse_buffers) == 0;
}

int sc_cfg_check_write_data(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	for (size_t n = 0; n < sizeof(write_data_keys) / sizeof(write_data_keys[0]); n++) {
		enum pkey k = write_data_keys[n];
		const char *key = sc_cfg_phase_keys[k];

		if (!pv->own[k] || at_default(pv, k))
			continue;
		if (!phase_writes(pv))
			return sc_cfg_fail_value(c, pv, i, pv->src[k], k,
						 "%s applies to the data a phase writes, and this "
						 "phase only reads (leave %s out)",
						 key, key);
		if (pv->workload == SC_WORKLOAD_CHECKPOINT && pv->serialize == SC_SERIALIZE_TORCH)
			return sc_cfg_fail_value(c, pv, i, pv->src[k], k,
						 "%s does not go with serialize: torch, which "
						 "writes its tensor from memory as it is (use "
						 "serialize: raw, or leave %s out)",
						 key, key);
		if (pv->verify != SC_VERIFY_NONE)
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[k], k,
			    "%s does not go with verify: crc32c, whose every block is its "
			    "own (a checked header and a seeded pattern); leave one out",
			    key);
	}
	return 0;
}

void sc_cfg_build_write_data(const struct cfg_phase *pv, struct sc_phase *ph)
{
	bool writes = ph->workload == SC_WORKLOAD_CHECKPOINT
			  ? !ph->ckpt.restore && ph->ckpt.serialize == SC_SERIALIZE_RAW
			  : sc_rw_writes(ph->io.rw);

	/* from defaults, left out where they do not apply */
	if (!writes || ph->io.verify != SC_VERIFY_NONE)
		return;
	ph->io.compressible_pct = (uint32_t)pv->compressible;
	ph->io.dedupe_pct = (uint32_t)pv->dedupe;
	ph->io.reuse_buffers = pv->reuse_buffers != 0;
}
