/* defaults.c -- what a phase does not say: the built-in defaults of each
 * workload, the defaults: section checked, and merged into each phase. */
#include "schema.h"

#include <errno.h>
#include <string.h>

#include "engine/engine.h"

/* The built-in defaults of every workload (documented in keys.c and the
 * config reference, docs/usage.md). */
#define DEFAULT_BS_BYTES   (4 * SC_KIB)
#define DEFAULT_SIZE_BYTES (64 * SC_MIB)
#define DEFAULT_RWMIXREAD  50u

/* kvcache: many small random reads and some writes, deep queues. */
#define KV_RWMIXREAD  70u
#define KV_JOBS	      8u
#define KV_IODEPTH    128u
#define KV_SIZE_BYTES SC_GIB

/* checkpoint: PyTorch writes buffered and fsyncs every file. */
#define CKPT_BLOCK_BYTES SC_MIB
#define CKPT_IODEPTH	 8u
#define CKPT_JOBS	 1u

/* ingest: a dataset of files read at random, sample by sample. */
#define INGEST_FILES	    64u
#define INGEST_FILE_BYTES   (64 * SC_MIB)
#define INGEST_SAMPLE_BYTES (128 * SC_KIB)
#define INGEST_BATCH	    32u
#define INGEST_PREFETCH	    2u
#define INGEST_JOBS	    8u
#define INGEST_IODEPTH	    64u

/* fill: sequential 128 KiB writes at depth 32, the drive written twice
 * (SNIA PTS), the cliff where the rate falls below half the initial. */
#define FILL_BS_BYTES	     (128 * SC_KIB)
#define FILL_IODEPTH	     32u
#define FILL_PASSES	     2u
#define FILL_RANDOM_BS_BYTES (4 * SC_KIB)
#define FILL_CLIFF_FRACTION  0.5

/* The built-in defaults of a phase of pv->workload. */
void sc_cfg_builtin_defaults(struct cfg_phase *pv, uint32_t i)
{
	pv->bs.n = pv->iodepth.n = 1;
	pv->bs.v[0] = DEFAULT_BS_BYTES;
	pv->iodepth.v[0] = 1;
	pv->rwmixread = DEFAULT_RWMIXREAD;
	pv->jobs = 1;
	pv->size = DEFAULT_SIZE_BYTES;
	pv->direct = 1;
	pv->engine = SC_ENGINE_URING;
	pv->seed = 1 + (uint64_t)i;
	switch (pv->workload) {
	case SC_WORKLOAD_KVCACHE:
		pv->rw.n = 1;
		pv->rw.v[0] = SC_RW_RANDRW;
		pv->rwmixread = KV_RWMIXREAD;
		pv->jobs = KV_JOBS;
		pv->iodepth.v[0] = KV_IODEPTH;
		pv->size = KV_SIZE_BYTES;
		break;
	case SC_WORKLOAD_CHECKPOINT:
		pv->tp = pv->pp = 1;
		pv->checkpoints = 1;
		pv->fsync = 1;
		pv->block_size = CKPT_BLOCK_BYTES;
		pv->iodepth.v[0] = CKPT_IODEPTH;
		pv->jobs = CKPT_JOBS;
		pv->direct = 0;
		pv->scale = 1.0;
		break;
	case SC_WORKLOAD_INGEST:
		pv->files = INGEST_FILES;
		pv->file_size = INGEST_FILE_BYTES;
		pv->sample_size = INGEST_SAMPLE_BYTES;
		pv->batch = INGEST_BATCH;
		pv->epochs = 1;
		pv->prefetch = INGEST_PREFETCH;
		pv->jobs = INGEST_JOBS;
		pv->iodepth.v[0] = INGEST_IODEPTH;
		break;
	case SC_WORKLOAD_FILL:
		pv->bs.v[0] = FILL_BS_BYTES;
		pv->iodepth.v[0] = FILL_IODEPTH;
		pv->size = 0; /* the target's capacity: sc_cfg_fill_size */
		pv->passes = FILL_PASSES;
		pv->random_bs = FILL_RANDOM_BS_BYTES;
		pv->cliff_fraction = FILL_CLIFF_FRACTION;
		break;
	default:
		break;
	}
}

int sc_cfg_parse_defaults(struct cfg_check *c)
{
	const struct cfg_node *dm = sc_cfg_map_get(c->d->root, "defaults");
	static const char *const alternatives[] = {"io_size", "epochs"}; /* of runtime */
	int err = 0;

	if (!dm || sc_cfg_is_null(dm))
		return 0;
	if (dm->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, dm, "expected a mapping of phase keys, got %s",
					sc_cfg_kind_word(dm));
	for (uint32_t j = 0; !err && j < dm->npairs; j++) {
		const struct cfg_pair *p = &dm->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_phase_keys);
		int first = -1;
		bool fits = false;

		if (k < 0) {
			err = sc_cfg_unknown_key(c, p, "defaults", SC_WORKLOAD_IO);
			break;
		}
		if (k == PK_NAME) {
			err = sc_cfg_fail(
			    c->d, &p->kloc, p->val->path,
			    "a name cannot be a default (give each phase its own name:)");
			break;
		}
		/* A default must be a value of the key in some workload; it
		 * reaches the phases where it is (fsync: 8 or true). */
		for (int w = 0; w < SC_WORKLOAD_COUNT && !fits; w++) {
			if (!sc_cfg_takes((uint64_t)w, (enum pkey)k))
				continue;
			if (first < 0)
				first = w;
			fits = sc_cfg_key_fits((uint64_t)w, (enum pkey)k, p->val);
		}
		if (fits)
			continue;
		/* reported as the first workload that takes it sees it */
		err = sc_cfg_parse_key_alone(c, (uint64_t)first, (enum pkey)k, p->val);
	}
	for (size_t a = 0; a < sizeof(alternatives) / sizeof(alternatives[0]); a++) {
		const struct cfg_pair *alt = sc_cfg_map_pair(dm, alternatives[a]);

		if (!err && alt && sc_cfg_map_get(dm, "runtime"))
			err = sc_cfg_fail(c->d, &alt->kloc, alt->val->path,
					  "runtime and %s are alternatives (keep one)",
					  alternatives[a]);
	}
	{
		const struct cfg_pair *ss = sc_cfg_map_pair(dm, "steady_state");

		if (!err && ss && (sc_cfg_map_get(dm, "runtime") || sc_cfg_map_get(dm, "io_size")))
			err = sc_cfg_fail(c->d, &ss->kloc, ss->val->path,
					  "steady_state and %s are alternatives (each round's "
					  "runtime is steady_state's round; keep one)",
					  sc_cfg_map_get(dm, "runtime") ? "runtime" : "io_size");
	}
	c->defaults = dm;
	return err;
}

int sc_cfg_apply_defaults(struct cfg_check *c, struct cfg_phase *pv)
{
	int err;

	/* A default the workload does not take, that is an alternative to
	 * what the phase chose (runtime vs io_size or epochs) or that does
	 * not apply to it (ramp without runtime, restore_shift without
	 * restore, fsync: true in an io phase) is left out. */
	for (int k = 0; k < PK_COUNT; k++) {
		const struct cfg_node *dn = sc_cfg_map_get(c->defaults, sc_cfg_phase_keys[k]);

		if (!dn || pv->own[k] || k == PK_NAME || k == PK_WORKLOAD ||
		    !sc_cfg_takes(pv->workload, (enum pkey)k) ||
		    (k == PK_RUNTIME && (pv->own[PK_IO_SIZE] || pv->own[PK_EPOCHS])) ||
		    ((k == PK_IO_SIZE || k == PK_EPOCHS) && pv->own[PK_RUNTIME]) ||
		    (k == PK_RAMP && !pv->src[PK_RUNTIME]) ||
		    (k == PK_RESTORE_SHIFT && !pv->restore) ||
		    (k == PK_FSYNC && !sc_cfg_key_fits(pv->workload, PK_FSYNC, dn)) ||
		    ((k == PK_RUNTIME || k == PK_IO_SIZE || k == PK_RAMP) &&
		     pv->own[PK_STEADY_STATE]) ||
		    (k == PK_STEADY_STATE && (pv->own[PK_RUNTIME] || pv->own[PK_IO_SIZE] ||
					      pv->rw.list || pv->bs.list || pv->iodepth.list)))
			continue;
		err = sc_cfg_parse_phase_key(c, pv, (enum pkey)k, dn);
		if (err)
			return err;
	}
	return 0;
}
