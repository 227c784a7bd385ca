/* limits.c -- what one rank may be asked to hold and to do: the memory
 * budget (memory_per_rank) and the bytes of a phase. */
#include "schema.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "result.h"
#include "units.h"

/* Default I/O buffer budget per rank: 4 GiB, or a quarter of this host's
 * memory when that is less. */
#define DEFAULT_MEM_BUDGET_BYTES (4 * SC_GIB)
#define MEM_BUDGET_RAM_SHARE	 4u

static uint64_t default_mem_budget(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t ram;

	if (pages <= 0 || page <= 0 ||
	    __builtin_mul_overflow((uint64_t)pages, (uint64_t)page, &ram) ||
	    ram / MEM_BUDGET_RAM_SHARE > DEFAULT_MEM_BUDGET_BYTES)
		return DEFAULT_MEM_BUDGET_BYTES;
	return ram / MEM_BUDGET_RAM_SHARE;
}

/* memory_per_rank: a size >= 1, or the default. */
int sc_cfg_parse_mem_budget(struct cfg_check *c)
{
	static const struct cfg_keydef def = {.type = CFG_VT_SIZE, .min = 1, .max = UINT64_MAX};

	c->mem_node = sc_cfg_map_get(c->d->root, "memory_per_rank");
	if (!c->mem_node) {
		c->mem_budget = default_mem_budget();
		return 0;
	}
	return sc_cfg_parse_scalar(c->d, c->mem_node, &def, &c->mem_budget);
}

/* The memory one rank of config phase i allocates fits the budget: its
 * I/O buffers, jobs x iodepth x the unit of I/O (bs, block_size,
 * sample_size or transfer_size; the largest cell of a sweep), and for a
 * timed phase its per-second series, (jobs + 1) x the seconds x 56 B.
 * Ingest's prefetch and training's prefetch_size hold no buffers of their
 * own: they count batches ahead, read through the same iodepth slots. */
static int check_mem_budget(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	enum pkey uk = pv->workload == SC_WORKLOAD_CHECKPOINT ? PK_BLOCK_SIZE
		       : pv->workload == SC_WORKLOAD_INGEST   ? PK_SAMPLE_SIZE
		       : pv->workload == SC_WORKLOAD_TRAINING ? PK_TRANSFER_SIZE
							      : PK_BS;
	uint64_t secs = pv->runtime ? pv->runtime / SC_NS_PER_S + 2 : 0;
	uint64_t series = (pv->jobs + 1) * secs * sizeof(struct sc_second);
	uint32_t qi = 0, bi = 0;
	uint64_t unit, bufs, total, accels, jobs;
	const struct cfg_node *n;
	char a[32], b[32], s[32], m[32], what[256] = "", todo[96], per[64] = "";
	bool over;

	for (uint32_t q = 1; q < pv->iodepth.n; q++)
		qi = pv->iodepth.v[q] > pv->iodepth.v[qi] ? q : qi;
	for (uint32_t k = 1; k < pv->bs.n; k++)
		bi = pv->bs.v[k] > pv->bs.v[bi] ? k : bi;
	unit = uk == PK_BLOCK_SIZE	? pv->block_size
	       : uk == PK_SAMPLE_SIZE	? pv->sample_size
	       : uk == PK_TRANSFER_SIZE ? pv->transfer_size
					: pv->bs.v[bi];
	/* training: jobs readers for each of a rank's accelerators (a
	 * search's largest trial) */
	accels = pv->workload != SC_WORKLOAD_TRAINING ? 1
		 : pv->search			       ? pv->search_max
						       : pv->accelerators_per_rank;
	jobs = pv->jobs * (accels ? accels : 1);
	if (jobs != pv->jobs)
		snprintf(per, sizeof(per), " x %" PRIu64 " accelerators a rank", accels);
	over = __builtin_mul_overflow(jobs, pv->iodepth.v[qi], &bufs) ||
	       __builtin_mul_overflow(bufs, unit, &bufs) ||
	       __builtin_add_overflow(bufs, series, &total);
	if (!over && total <= c->mem_budget)
		return 0;
	if (over)
		snprintf(b, sizeof(b), "more than 16EiB");
	else
		sc_cfg_fmt_size(b, sizeof(b), bufs);
	sc_cfg_fmt_size(m, sizeof(m), c->mem_budget);
	/* Reported at what takes the most: the iodepth the phase runs with,
	 * or the runtime. */
	n = pv->iodepth.list ? pv->iodepth.node[qi] : pv->src[PK_IODEPTH];
	if (!over && series > bufs) {
		n = pv->src[PK_RUNTIME];
		snprintf(what, sizeof(what),
			 " and (jobs %" PRIu64 " + 1) x %" PRIu64 " s x %zu B = %s of per-second "
			 "series",
			 pv->jobs, secs, sizeof(struct sc_second),
			 sc_fmt_bytes(s, sizeof(s), series));
		snprintf(todo, sizeof(todo), "shorten runtime, lower jobs");
	} else {
		snprintf(todo, sizeof(todo), "lower jobs, iodepth%s or %s",
			 jobs == pv->jobs ? ""
			 : pv->search	  ? ", search_max"
					  : ", accelerators_per_rank",
			 sc_cfg_phase_keys[uk]);
	}
	return sc_cfg_fail_value(
	    c, pv, i, n, n == pv->src[PK_RUNTIME] && n ? PK_RUNTIME : PK_IODEPTH,
	    "jobs %" PRIu64 "%s x iodepth %" PRIu64 " x %s %s = %s of I/O buffers%s "
	    "per rank, more than %s %s%s (%s, or %s memory_per_rank)",
	    pv->jobs, per, pv->iodepth.v[qi], sc_cfg_phase_keys[uk],
	    sc_cfg_fmt_size(a, sizeof(a), unit),
	    b, what, c->mem_node ? "memory_per_rank" : "the default memory budget of", m,
	    c->mem_node ? "" : " per rank", todo, c->mem_node ? "raise" : "set");
}

/* An io or kvcache phase's bytes per rank (jobs x size, jobs x io_size)
 * fit in 64 bits, and its ramp is shorter than its runtime. */
static int check_io_limits(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	static const enum pkey sized[] = {PK_SIZE, PK_IO_SIZE};
	char a[32], b[32];
	uint64_t v;

	for (size_t s = 0; s < sizeof(sized) / sizeof(sized[0]); s++) {
		uint64_t bytes = sized[s] == PK_SIZE ? pv->size : pv->io_size;

		if (!__builtin_mul_overflow(bytes, pv->jobs, &v))
			continue;
		return sc_cfg_fail_value(
		    c, pv, i, pv->src[sized[s]], sized[s],
		    "jobs %" PRIu64 " x %s %s is more than 2^64 bytes per rank "
		    "(lower %s or jobs)",
		    pv->jobs, sc_cfg_phase_keys[sized[s]], sc_cfg_fmt_size(a, sizeof(a), bytes),
		    sc_cfg_phase_keys[sized[s]]);
	}
	/* The ramp runs first, unmeasured: one as long as the measurement or
	 * longer is a mix-up (warm up with a phase of its own instead). */
	if (pv->runtime && pv->ramp >= pv->runtime)
		return sc_cfg_fail_value(
		    c, pv, i, pv->src[PK_RAMP], PK_RAMP,
		    "ramp %s is not shorter than runtime %s (the ramp runs "
		    "before the measured runtime: shorten it, or precondition in "
		    "a phase of its own)",
		    sc_fmt_duration(a, sizeof(a), pv->ramp),
		    sc_fmt_duration(b, sizeof(b), pv->runtime));
	return 0;
}

/* What config phase i asks of one rank, within bounds. */
int sc_cfg_check_phase_limits(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	int err = check_mem_budget(c, i, pv);

	if (!err && sc_cfg_sweeps(pv->workload))
		err = check_io_limits(c, i, pv);
	return err;
}
