/* fill_phase.c -- the fill (preconditioning) and idle phases of the config:
 * their rules, a fill's size from the targets' capacity, their plan
 * phases. */
#include "schema.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "validate.h"

int sc_cfg_parse_cliff_fraction(struct cfg_check *c, struct cfg_phase *pv, const struct cfg_node *n)
{
	const char *s = n->kind == CFG_SCALAR ? n->str : "";
	char *end;
	double v;

	/* decimal only, as other fractions: no "inf", "nan", hex or blanks */
	if (n->kind != CFG_SCALAR || !*s || strspn(s, "0123456789.eE+-") != strlen(s) ||
	    (v = strtod(s, &end), *end))
		return sc_cfg_fail_node(c->d, n,
					"\"%s\" is not a number (cliff_fraction is a fraction of "
					"the initial rate, more than 0 and less than 1, e.g. 0.5)",
					s);
	if (!(v > 0 && v < 1))
		return sc_cfg_fail_node(c->d, n,
					"%s is out of range (the write cliff is where bandwidth "
					"falls below this fraction of the initial rate: more than "
					"0 and less than 1, e.g. 0.5)",
					s);
	pv->cliff_fraction = v;
	return 0;
}

int sc_cfg_check_fill_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	char a1[32], a2[32];

	if (pv->random_bs > pv->bs.v[0] || pv->bs.v[0] % pv->random_bs)
		return sc_cfg_fail_value(
		    c, pv, i, pv->src[PK_RANDOM_BS] ? pv->src[PK_RANDOM_BS] : pv->src[PK_BS],
		    pv->src[PK_RANDOM_BS] ? PK_RANDOM_BS : PK_BS,
		    "random_bs %s does not divide bs %s (the random passes write random_bs "
		    "blocks of the region the sequential ones wrote in bs, from the same "
		    "buffers: use e.g. random_bs 4KiB with bs 128KiB)",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->random_bs),
		    sc_cfg_fmt_size(a2, sizeof(a2), pv->bs.v[0]));
	pv->rw.n = 1;
	pv->rw.v[0] = SC_RW_WRITE;
	pv->ncells = 1;
	return 0;
}

int sc_cfg_check_idle_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	(void)i;
	if (!pv->src[PK_IDLE])
		return sc_cfg_fail_node(c->d, pv->map,
					"no idle duration (an idle step is - idle: 5m, or "
					"workload: idle with idle: 5m)");
	pv->ncells = 1;
	return 0;
}

/* Without size: each job's share of the smallest probed file or block
 * target, a multiple of bs; a directory (or a target on other hosts,
 * whose capacity is unknown here) has no size to fill. */
static int size_from_targets(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	uint64_t least = UINT64_MAX;
	char a1[32], a2[32];

	for (uint32_t t = 0; t < c->ntg; t++) {
		const struct cfg_target *tg = &c->tg[t];

		if (tg->probed && tg->info.kind == SC_TARGET_DIR)
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[PK_WORKLOAD], PK_SIZE,
			    "a fill on a directory needs size: (targets.%u, %s, is a "
			    "directory: give the bytes each job writes per pass, e.g. size: "
			    "64GiB; a file or block target is filled whole without it)",
			    t, tg->path);
		if (!tg->probed || !tg->capacity)
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[PK_WORKLOAD], PK_SIZE,
			    "a fill needs size: here (the capacity of targets.%u, %s, on "
			    "other hosts, is unknown on this one: give the bytes each job "
			    "writes per pass)",
			    t, tg->path);
		if (tg->capacity < least)
			least = tg->capacity;
	}
	pv->size = least / pv->jobs / pv->bs.v[0] * pv->bs.v[0];
	if (!pv->size)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_BS], PK_BS,
					 "%s is more than each of the %" PRIu64
					 " jobs' share of the %s target capacity",
					 sc_cfg_fmt_size(a1, sizeof(a1), pv->bs.v[0]), pv->jobs,
					 sc_cfg_fmt_size(a2, sizeof(a2), least));
	return 0;
}

int sc_cfg_fill_size(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	char a1[32], a2[32];
	uint64_t bytes;
	int err;

	if (pv->workload != SC_WORKLOAD_FILL)
		return 0;
	if (!pv->src[PK_SIZE]) {
		err = size_from_targets(c, i, pv);
		if (err)
			return err;
	} else if (pv->size < pv->bs.v[0] || pv->size % pv->bs.v[0]) {
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_SIZE], PK_SIZE,
					 "%s is not a whole number of bs %s (a fill writes its "
					 "region in bs writes)",
					 sc_cfg_fmt_size(a1, sizeof(a1), pv->size),
					 sc_cfg_fmt_size(a2, sizeof(a2), pv->bs.v[0]));
	}
	if (__builtin_mul_overflow(pv->size, pv->passes + pv->random_passes, &pv->io_size) ||
	    __builtin_mul_overflow(pv->io_size, pv->jobs, &bytes))
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_PASSES], PK_PASSES,
					 "jobs x size %s x (passes + random_passes) is more than "
					 "2^64 bytes per rank",
					 sc_cfg_fmt_size(a1, sizeof(a1), pv->size));
	return 0;
}

void sc_cfg_build_fill(const struct cfg_phase *pv, struct sc_phase *ph)
{
	ph->io.rw = SC_RW_WRITE;
	ph->io.rwmixread_pct = 0;
	ph->io.bs_bytes = pv->bs.v[0];
	ph->io.size_bytes = pv->size;
	ph->io.io_bytes = pv->io_size;
	ph->fill.cliff_fraction = pv->cliff_fraction;
	ph->fill.whole = !pv->src[PK_SIZE];
}

/* An idle step's unit: one null-engine slot, which moves nothing. */
#define IDLE_BS_BYTES (4 * SC_KIB)

void sc_cfg_build_idle(const struct cfg_phase *pv, struct sc_phase *ph)
{
	ph->io.rw = SC_RW_READ;
	ph->io.rwmixread_pct = 100;
	ph->io.bs_bytes = IDLE_BS_BYTES;
	ph->io.direct = true;
	ph->io.seed = pv->seed; /* 1 + its index, as every phase's */
	ph->io.jobs = 1;
	ph->io.iodepth = 1;
	ph->io.engine = SC_ENGINE_NULL; /* no files, nothing opened */
}

/* Each job's share of the targets of fill phase ph over the ranks at
 * places: capacity / (ranks sharing it x jobs), the least, rounded down to
 * bs; 0 when one is less than bs (*short_rank: that rank). */
static uint64_t fill_share(const struct sc_plan *plan, const struct sc_phase *ph,
			   const struct sc_place *places, uint32_t nranks, uint32_t *short_rank)
{
	uint64_t least = UINT64_MAX;

	for (uint32_t r = 0; r < nranks; r++) {
		const struct sc_target_spec *t = &plan->targets[places[r].target];
		uint64_t ways = (uint64_t)(places[r].nslots ? places[r].nslots : 1) * ph->io.jobs;
		uint64_t share = t->capacity_bytes / ways / ph->io.bs_bytes * ph->io.bs_bytes;

		if (share < least) {
			least = share;
			*short_rank = r;
		}
	}
	return least == UINT64_MAX ? 0 : least;
}

int sc_validate_fill(const struct sc_config *cfg, struct sc_plan *plan,
		     const struct sc_place *places, uint32_t nranks, char *err, size_t errlen)
{
	char where[512], key[64], a1[32], a2[32];

	for (uint32_t p = 0; p < plan->nphases; p++) {
		struct sc_phase *ph = &plan->phases[p];
		uint32_t r = 0;
		uint64_t size;

		if (ph->workload != SC_WORKLOAD_FILL || !ph->fill.whole)
			continue;
		size = fill_share(plan, ph, places, nranks, &r);
		if (!size) {
			const struct sc_target_spec *t = &plan->targets[places[r].target];

			snprintf(key, sizeof(key), "targets.%u.capacity", places[r].target);
			snprintf(err, errlen,
				 "%s: %s: phase %s fills %s whole, but its %s shared by %u rank(s) "
				 "x %u job(s) leaves each less than bs %s (fewer ranks or jobs on "
				 "it, or give the phase a size)",
				 sc_config_where(cfg, key, where, sizeof(where)), key, ph->name,
				 t->path, sc_fmt_bytes(a1, sizeof(a1), t->capacity_bytes),
				 places[r].nslots, ph->io.jobs,
				 sc_fmt_bytes(a2, sizeof(a2), ph->io.bs_bytes));
			return -EINVAL;
		}
		ph->io.size_bytes = size;
		ph->io.io_bytes = size * (ph->fill.passes + ph->fill.random_passes);
	}
	return 0;
}
