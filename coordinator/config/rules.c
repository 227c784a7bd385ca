/* rules.c -- the rules of each workload that need no target: what goes
 * with what in an io, kvcache, checkpoint or ingest phase (fill, idle and
 * training have files of their own), its timeout, and verify across the
 * phases of a run. */
#include "schema.h"

#include <inttypes.h>
#include <stdio.h>

#include "ckpt_model.h"
#include "engine/engine.h"
#include "units.h"
#include "verify.h"

#define MAX_SWEEP_CELLS 4096u /* cells one config phase expands into */

static bool any_rw(const struct cfg_sweep *rw, bool (*pred)(enum sc_rw))
{
	for (uint32_t i = 0; i < rw->n; i++)
		if (pred((enum sc_rw)rw->v[i]))
			return true;
	return false;
}

/* The rw values of pv, "read, randwrite". */
static const char *rw_text(const struct cfg_phase *pv, char *buf, size_t len)
{
	const char *names[CFG_MAX_SWEEP_VALUES + 1];

	for (uint32_t i = 0; i < pv->rw.n; i++)
		names[i] = sc_rw_name((enum sc_rw)pv->rw.v[i]);
	names[pv->rw.n] = NULL;
	return sc_cfg_join(buf, len, names);
}

/* A timeout no longer than a timed phase's runtime + ramp would end
 * every run of it. */
static int check_timeout(struct cfg_check *c, const struct cfg_phase *pv)
{
	char t[32], planned[32];

	if (!pv->src[PK_TIMEOUT] || !pv->runtime || pv->timeout > pv->runtime + pv->ramp)
		return 0;
	return sc_cfg_fail_node(
	    c->d, pv->src[PK_TIMEOUT],
	    "timeout %s is not longer than the phase's runtime + ramp (%s): the run "
	    "would end at it every time (leave it out: the default is runtime + ramp + "
	    "max(30 s, 10%%))",
	    sc_fmt_duration(t, sizeof(t), pv->timeout),
	    sc_fmt_duration(planned, sizeof(planned), pv->runtime + pv->ramp));
}

/* bssplit or bsrange (phase_key.c parsed them; bs is their smallest
 * size): alone, and without what a mix of sizes cannot do right. */
static int check_bsmix(struct cfg_check *c, struct cfg_phase *pv)
{
	enum pkey k = pv->src[PK_BSSPLIT] ? PK_BSSPLIT : PK_BSRANGE;
	const char *name = sc_cfg_phase_keys[k];

	if (!pv->bs_max)
		return 0;
	if (pv->src[PK_BSSPLIT] && pv->src[PK_BSRANGE])
		return sc_cfg_fail_node(c->d, pv->src[PK_BSRANGE],
					"bssplit and bsrange are alternatives (keep one)");
	if (pv->own[PK_BS])
		return sc_cfg_fail_node(c->d, pv->src[PK_BS],
					"bs and %s are alternatives (%s gives the sizes: keep one)",
					name, name);
	if (pv->verify != SC_VERIFY_NONE)
		return sc_cfg_fail_node(c->d, pv->src[k],
					"%s cannot verify (verify's blocks are of one size: "
					"verify: none, or one bs)", name);
	if (pv->randommap)
		return sc_cfg_fail_node(c->d, pv->src[PK_RANDOMMAP],
					"randommap takes one bs (a map of blocks of one size; "
					"with %s, leave randommap false)", name);
	/* bs's checks (size, io_size, offset, alignment) apply to the smallest */
	pv->bs.n = 1;
	pv->bs.list = false;
	pv->bs.v[0] = pv->bsrange_min ? pv->bsrange_min : pv->bs.v[0];
	if (!pv->bsrange_min) {
		uint64_t lo = UINT64_MAX;

		for (uint32_t i = 0; i < SC_BSSPLIT_MAX && pv->bssplit_bytes[i]; i++)
			lo = pv->bssplit_bytes[i] < lo ? pv->bssplit_bytes[i] : lo;
		pv->bs.v[0] = lo;
	}
	return 0;
}

/* Checks of an io or kvcache phase that need no target. */
static int check_io_phase(struct cfg_check *c, struct cfg_phase *pv)
{
	const struct cfg_node *m = pv->map;
	char rwbuf[96];
	int err;

	if (!pv->src[PK_RW] && pv->workload == SC_WORKLOAD_IO)
		return sc_cfg_fail_node(c->d, m,
					"no rw (one of read, write, randread, randwrite, randrw, readwrite)");
	if (pv->own[PK_RUNTIME] && pv->own[PK_IO_SIZE])
		return sc_cfg_fail_node(
		    c->d, pv->src[PK_IO_SIZE],
		    "runtime and io_size are alternatives (keep one: runtime for a "
		    "timed phase, io_size for a fixed amount)");
	if (pv->own[PK_RAMP] && !pv->src[PK_RUNTIME])
		return sc_cfg_fail_node(c->d, pv->src[PK_RAMP],
					"ramp needs runtime (only timed phases ramp up)");
	if (pv->own[PK_RWMIXREAD] && !any_rw(&pv->rw, sc_rw_mixed))
		return sc_cfg_fail_node(c->d, pv->src[PK_RWMIXREAD],
					"rwmixread only applies to rw: randrw or readwrite (this phase is %s)",
					rw_text(pv, rwbuf, sizeof(rwbuf)));
	if (pv->own[PK_END_FSYNC] && pv->end_fsync && !any_rw(&pv->rw, sc_rw_writes))
		return sc_cfg_fail_node(c->d, pv->src[PK_END_FSYNC],
					"end_fsync needs a phase that writes (this phase is %s)",
					rw_text(pv, rwbuf, sizeof(rwbuf)));
	if ((pv->invalidate || pv->fadvise_hint) &&
	    !sc_engine_uses_files((enum sc_engine_kind)pv->engine)) {
		enum pkey k = pv->invalidate ? PK_INVALIDATE : PK_FADVISE_HINT;

		return sc_cfg_fail_node(c->d, pv->src[k],
					"the %s engine touches no file, so %s has no page cache "
					"to act on (leave it out)",
					sc_engine_name((enum sc_engine_kind)pv->engine),
					sc_cfg_phase_keys[k]);
	}
	if (pv->own[PK_RUNTIME_MAX] && pv->src[PK_RUNTIME])
		return sc_cfg_fail_node(
		    c->d, pv->src[PK_RUNTIME_MAX],
		    "runtime_max caps a phase of bytes (io_size, or size once), and this one "
		    "runs for runtime (keep one)");
	if (pv->own[PK_FSYNC] && pv->fsync && !any_rw(&pv->rw, sc_rw_writes))
		return sc_cfg_fail_node(c->d, pv->src[PK_FSYNC],
					"fsync needs a phase that writes (this phase is %s)",
					rw_text(pv, rwbuf, sizeof(rwbuf)));
	for (enum pkey k = PK_RANDOM_EVERY; k <= PK_RANDOM_DISTRIBUTION; k++) {
		bool set = k == PK_RANDOM_EVERY ? pv->random_every > 1
			   : k == PK_RANDOMMAP	 ? pv->randommap
						 : pv->rand_dist != SC_DIST_RANDOM;

		if (pv->own[k] && set && !any_rw(&pv->rw, sc_rw_random))
			return sc_cfg_fail_node(c->d, pv->src[k],
						"%s only applies to random rw (randread, "
						"randwrite, randrw; this phase is %s)",
						sc_cfg_phase_keys[k], rw_text(pv, rwbuf, sizeof(rwbuf)));
	}
	err = check_bsmix(c, pv);
	if (err)
		return err;
	if (pv->randommap && pv->rand_dist != SC_DIST_RANDOM)
		return sc_cfg_fail_node(c->d, pv->src[PK_RANDOMMAP],
					"randommap visits every block once a pass, which a %s "
					"distribution would not (fio turns the map off for it too): "
					"leave one out", sc_rand_dist_name(pv->rand_dist));
	if (pv->randommap && pv->random_every > 1)
		return sc_cfg_fail_node(c->d, pv->src[PK_RANDOMMAP],
					"randommap takes random_every 1 (the sequential I/Os after "
					"each random one would visit blocks out of the map's turn)");
	if (pv->src[PK_OFFSET_INCREMENT] && pv->offset_increment < pv->size &&
	    pv->verify != SC_VERIFY_NONE && any_rw(&pv->rw, sc_rw_writes))
		return sc_cfg_fail_node(c->d, pv->src[PK_OFFSET_INCREMENT],
					"an offset_increment below size overlaps the jobs' regions, "
					"and verify cannot check blocks that two jobs write (raise "
					"it to size, or verify: none)");
	if (!pv->src[PK_RUNTIME] && !pv->src[PK_IO_SIZE])
		pv->io_size = pv->size;
	if (pv->src[PK_RUNTIME]) {
		pv->io_size = 0;
		pv->runtime_max = 0;
	}
	else
		pv->ramp = 0;
	{
		uint64_t cells = (uint64_t)pv->rw.n * pv->bs.n * pv->iodepth.n;

		if (cells > MAX_SWEEP_CELLS)
			return sc_cfg_fail_node(c->d, m,
						"the sweep has %" PRIu64 " cells (at most %u)",
						cells, MAX_SWEEP_CELLS);
		pv->ncells = (uint32_t)cells;
	}
	return 0;
}

/* The model and the layout, each step reported at the key that broke
 * it: the model alone, then tp, pp, zero and (when given) dp. */
static int check_layout(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	static const enum pkey steps[] = {PK_MODEL, PK_LAYOUT, PK_TP, PK_PP, PK_ZERO, PK_DP};
	struct sc_ckpt_layout l = {.tp = 1, .pp = 1, .dp = 1, .zero_stage = 0};
	char why[256];

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		enum pkey k = steps[s];

		if (k == PK_LAYOUT)
			l.kind = (enum sc_ckpt_layout_kind)pv->layout;
		else if (k == PK_TP)
			l.tp = (uint32_t)pv->tp;
		else if (k == PK_PP)
			l.pp = (uint32_t)pv->pp;
		else if (k == PK_ZERO)
			l.zero_stage = (uint32_t)pv->zero;
		else if (k == PK_DP && !pv->dp)
			return 0; /* ranks / (tp * pp): the coordinator checks it */
		else if (k == PK_DP)
			l.dp = (uint32_t)pv->dp;
		if (sc_ckpt_layout_check(&pv->model, &l, why, sizeof(why)))
			return sc_cfg_fail_value(c, pv, i, pv->src[k], k, "%s", why);
	}
	return 0;
}

/* serialize: torch writes as torch.save does: write(2) into the page cache
 * of real files.  O_DIRECT and the engines without files contradict it. */
static int check_serialize(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	if (pv->serialize != SC_SERIALIZE_TORCH)
		return 0;
	if (pv->direct)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_SERIALIZE], PK_SERIALIZE,
					 "serialize: torch writes through the page cache as "
					 "torch.save does, but this phase has direct: true (leave "
					 "direct out, or use serialize: raw)");
	if (pv->engine == SC_ENGINE_NULL || pv->engine == SC_ENGINE_EMULATED)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_SERIALIZE], PK_SERIALIZE,
					 "serialize: torch writes real files, but engine %s writes "
					 "none (use engine io_uring or psync, or serialize: raw)",
					 sc_engine_name((enum sc_engine_kind)pv->engine));
	return 0;
}

/* MLPerf Storage's checkpointing procedure (v3.0 rules) */
#define MLPERF_CHECKPOINTS 10u /* written, then as many read back */

/* procedure: mlperf: what MLPerf Storage's run prescribes, over the
 * defaults: 10 checkpoints, restore, fsync, raw incompressible bytes, and
 * the catalogue model's MLPerf layout unless tp, pp, dp or zero is given.
 * What contradicts the procedure is an error at the key that says it. */
static int apply_mlperf(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	static const enum pkey layout_keys[] = {PK_TP, PK_PP, PK_DP, PK_ZERO};
	static const enum pkey off_keys[] = {PK_COMPRESSIBLE, PK_DEDUPE, PK_REUSE_BUFFERS};
	const struct cfg_node *pn = pv->src[PK_PROCEDURE];
	struct sc_ckpt_layout l;
	bool given = false;

	if (pv->procedure != SC_PROCEDURE_MLPERF)
		return 0;
	if (pv->src[PK_RESTORE] && !pv->restore)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_RESTORE], PK_RESTORE,
					 "procedure: mlperf reads every checkpoint back: leave "
					 "restore out (or use procedure: none)");
	if (pv->src[PK_FSYNC] && !pv->fsync)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_FSYNC], PK_FSYNC,
					 "procedure: mlperf fsyncs every file as DLIO does: leave "
					 "fsync out (or use procedure: none)");
	if (pv->serialize != SC_SERIALIZE_RAW)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_SERIALIZE], PK_SERIALIZE,
					 "procedure: mlperf streams raw bytes: use serialize: raw "
					 "or leave it out");
	for (size_t k = 0; k < sizeof(off_keys) / sizeof(off_keys[0]); k++)
		if (*(const uint64_t *)((const char *)pv + sc_cfg_keys[off_keys[k]].pv_off))
			return sc_cfg_fail_value(c, pv, i, pv->src[off_keys[k]], off_keys[k],
						 "procedure: mlperf writes incompressible, unique "
						 "bytes: leave %s out",
						 sc_cfg_phase_keys[off_keys[k]]);
	for (size_t k = 0; k < sizeof(layout_keys) / sizeof(layout_keys[0]); k++)
		given = given || pv->src[layout_keys[k]];
	if (!given) {
		char known[160];

		if (sc_ckpt_layout_mlperf(pv->model.name, &l))
			return sc_cfg_fail_value(
			    c, pv, i, pn, PK_PROCEDURE,
			    "procedure: mlperf takes the layout MLPerf gives a catalogue model "
			    "(%s), and this model is not one: give tp, pp, dp and zero",
			    sc_cfg_join(known, sizeof(known), sc_ckpt_model_names()));
		pv->tp = l.tp;
		pv->pp = l.pp;
		pv->dp = l.dp;
		pv->zero = l.zero_stage;
	}
	if (!pv->src[PK_CHECKPOINTS])
		pv->checkpoints = MLPERF_CHECKPOINTS;
	if (pv->keep_last && pv->keep_last < pv->checkpoints)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_KEEP_LAST], PK_KEEP_LAST,
					 "procedure: mlperf reads all %llu checkpoints back, but "
					 "keep_last %llu would delete %llu of them first (leave "
					 "keep_last out, or use procedure: none)",
					 (unsigned long long)pv->checkpoints,
					 (unsigned long long)pv->keep_last,
					 (unsigned long long)(pv->checkpoints - pv->keep_last));
	pv->restore = 1;
	pv->fsync = 1;
	return 0;
}

static int check_ckpt_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	char known[160];
	int err;

	if (!pv->src[PK_MODEL])
		return sc_cfg_fail_node(
		    c->d, pv->map,
		    "no model (a checkpoint phase needs model: one of %s, or an inline "
		    "mapping {layers, hidden, ffn_hidden, heads, kv_heads, vocab, "
		    "dtype})",
		    sc_cfg_join(known, sizeof(known), sc_ckpt_model_names()));
	/* FSDP's full shard, unless the phase (or its procedure) says otherwise */
	if (pv->layout == SC_CKPT_LAYOUT_SHARDED && !pv->src[PK_ZERO])
		pv->zero = 3;
	err = apply_mlperf(c, i, pv);
	if (err)
		return err;
	if (pv->own[PK_RESTORE_SHIFT] && !pv->restore)
		return sc_cfg_fail_node(c->d, pv->src[PK_RESTORE_SHIFT],
					"restore_shift needs restore: true (it picks which node's "
					"checkpoint each node reads back)");
	err = check_layout(c, i, pv);
	if (!err)
		err = check_serialize(c, i, pv);
	if (err)
		return err;
	pv->ncells = (uint32_t)pv->checkpoints + (pv->restore ? sc_cfg_ckpt_restores(pv) : 0);
	return 0;
}

static int check_ingest_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	const struct cfg_node *ssn = pv->src[PK_SAMPLE_SIZE], *fsn = pv->src[PK_FILE_SIZE];
	char a1[32], a2[32];
	uint64_t total;

	if (pv->own[PK_RUNTIME] && pv->own[PK_EPOCHS])
		return sc_cfg_fail_node(
		    c->d, pv->src[PK_EPOCHS],
		    "runtime and epochs are alternatives (keep one: runtime for a "
		    "timed phase, epochs for whole passes over the dataset)");
	if (pv->src[PK_RUNTIME])
		pv->epochs = 0;
	else
		pv->runtime = 0;
	if (pv->sample_size > pv->file_size) {
		if (ssn || !fsn)
			return sc_cfg_fail_value(c, pv, i, ssn, PK_SAMPLE_SIZE,
						 "%s is larger than file_size %s",
						 sc_cfg_fmt_size(a1, sizeof(a1), pv->sample_size),
						 sc_cfg_fmt_size(a2, sizeof(a2), pv->file_size));
		return sc_cfg_fail_value(c, pv, i, fsn, PK_FILE_SIZE,
					 "%s is smaller than sample_size %s",
					 sc_cfg_fmt_size(a1, sizeof(a1), pv->file_size),
					 sc_cfg_fmt_size(a2, sizeof(a2), pv->sample_size));
	}
	if (pv->file_size % pv->sample_size) {
		if (fsn || !ssn)
			return sc_cfg_fail_value(c, pv, i, fsn, PK_FILE_SIZE,
						 "%s is not a multiple of sample_size %s",
						 sc_cfg_fmt_size(a1, sizeof(a1), pv->file_size),
						 sc_cfg_fmt_size(a2, sizeof(a2), pv->sample_size));
		return sc_cfg_fail_value(
		    c, pv, i, ssn, PK_SAMPLE_SIZE,
		    "%s does not divide file_size %s (samples must tile the files)",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->sample_size),
		    sc_cfg_fmt_size(a2, sizeof(a2), pv->file_size));
	}
	if (__builtin_mul_overflow(pv->files, pv->file_size, &total))
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_FILES], PK_FILES,
					 "%" PRIu64 " files of %s are more than 2^64 bytes",
					 pv->files, sc_cfg_fmt_size(a1, sizeof(a1), pv->file_size));
	pv->ncells = 1;
	return 0;
}

/* emulate describes the emulated engine's drive: other engines have none. */
static int check_emulate(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	if (!pv->src[PK_EMULATE] || pv->engine == SC_ENGINE_EMULATED)
		return 0;
	return sc_cfg_fail_value(c, pv, i, pv->src[PK_EMULATE], PK_EMULATE,
				 "emulate is the drive model of engine: emulated, but this "
				 "phase's engine is %s (set engine: emulated, or leave emulate "
				 "out)",
				 sc_engine_name((enum sc_engine_kind)pv->engine));
}

/* The io_uring options: the io_uring engine's alone; sqpoll_cpu places
 * the thread sqpoll starts; polled completions need O_DIRECT. */
static int check_uring_opts(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	static const enum pkey keys[] = {PK_SQPOLL, PK_HIPRI, PK_PASSTHROUGH};
	const uint64_t on[] = {pv->sqpoll, pv->hipri, pv->passthrough};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (on[k] && pv->engine != SC_ENGINE_URING)
			return sc_cfg_fail_value(c, pv, i, pv->src[keys[k]], keys[k],
						 "%s is an option of engine io_uring, but this "
						 "phase's engine is %s (set engine: io_uring, or "
						 "leave %s out)",
						 sc_cfg_phase_keys[keys[k]],
						 sc_engine_name((enum sc_engine_kind)pv->engine),
						 sc_cfg_phase_keys[keys[k]]);
	if (pv->src[PK_SQPOLL_CPU] && !pv->sqpoll)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_SQPOLL_CPU], PK_SQPOLL_CPU,
					 "sqpoll_cpu places the kernel thread that sqpoll: true "
					 "starts, but this phase has no sqpoll (add sqpoll: true, "
					 "or leave sqpoll_cpu out)");
	if (pv->hipri && !pv->direct)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_HIPRI], PK_HIPRI,
					 "hipri: true polls for completions, which only O_DIRECT "
					 "I/O has, but this phase has direct: false (set direct: "
					 "true, or leave hipri out)");
	return 0;
}

int sc_cfg_check_phase(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	int err = sc_cfg_check_steady(c, i, pv);

	if (err)
		return err;
	switch (pv->workload) {
	case SC_WORKLOAD_CHECKPOINT:
		err = check_ckpt_phase(c, i, pv);
		break;
	case SC_WORKLOAD_INGEST:
		err = check_ingest_phase(c, i, pv);
		break;
	case SC_WORKLOAD_FILL:
		err = sc_cfg_check_fill_phase(c, i, pv);
		break;
	case SC_WORKLOAD_IDLE:
		err = sc_cfg_check_idle_phase(c, i, pv);
		break;
	case SC_WORKLOAD_TRAINING:
		err = sc_cfg_check_training_phase(c, i, pv);
		break;
	default:
		err = check_io_phase(c, pv);
		break;
	}
	if (!err)
		sc_cfg_steady_rounds(pv);
	if (!err)
		err = check_emulate(c, i, pv);
	if (!err)
		err = check_uring_opts(c, i, pv);
	if (!err)
		err = sc_cfg_check_write_data(c, i, pv);
	return err ? err : check_timeout(c, pv);
}

/* A verify_only phase re-reads a kept run: verify is crc32c, it only
 * reads, and every phase of the run is one. */
static int check_verify_only(struct cfg_check *c, uint32_t i, struct cfg_phase *pv)
{
	char rwbuf[96];

	if (pv->src[PK_VERIFY] && pv->verify == SC_VERIFY_NONE)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_VERIFY], PK_VERIFY,
					 "none contradicts verify_only: true, which checks "
					 "every block it reads (leave verify out)");
	pv->verify = SC_VERIFY_CRC32C;
	if (any_rw(&pv->rw, sc_rw_writes))
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_VERIFY_ONLY], PK_VERIFY_ONLY,
					 "verify_only re-reads a kept run and writes nothing: "
					 "rw must be read or randread (this phase is %s)",
					 rw_text(pv, rwbuf, sizeof(rwbuf)));
	for (uint32_t j = 0; j < c->npv; j++)
		if (!c->pv[j].verify_only || !sc_cfg_sweeps(c->pv[j].workload))
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[PK_VERIFY_ONLY], PK_VERIFY_ONLY,
			    "a run that re-reads a kept run does only that, but "
			    "phases.%u (%s) is not verify_only (run it on its own)",
			    j, c->pv[j].name);
	return 0;
}

/* Every block of a verifying phase holds the header, and a null-engine
 * phase has nothing to read back. */
static int check_verify_blocks(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	char a[32];

	for (uint32_t b = 0; b < pv->bs.n; b++)
		if (pv->bs.v[b] < SC_VERIFY_HEADER_BYTES)
			return sc_cfg_fail_value(
			    c, pv, i, pv->bs.list ? pv->bs.node[b] : pv->src[PK_BS], PK_BS,
			    "%s is smaller than the %u B header that verify: crc32c puts in "
			    "every block (use a bs of 512B or more)",
			    sc_cfg_fmt_size(a, sizeof(a), pv->bs.v[b]), SC_VERIFY_HEADER_BYTES);
	if (!sc_engine_uses_files((enum sc_engine_kind)pv->engine) && any_rw(&pv->rw, sc_rw_reads))
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_ENGINE], PK_ENGINE,
					 "the %s engine stores nothing, so reads have nothing to "
					 "verify (verify %s-engine phases only with rw: write or "
					 "randwrite, to measure what filling blocks costs)",
					 sc_engine_name((enum sc_engine_kind)pv->engine),
					 sc_engine_name((enum sc_engine_kind)pv->engine));
	return 0;
}

static bool full_pass_write(enum sc_rw rw)
{
	return rw == SC_RW_WRITE || rw == SC_RW_RANDWRITE;
}

/* Whether e writes, with verify at bs, every block of each region that
 * the reader pv reads: only writes that cover their region at least once
 * (sequential, or random with randommap; sized, not timed), over the same
 * regions (size, offset, offset_increment) of at least pv's jobs. */
static bool verify_rewrites(const struct cfg_phase *e, const struct cfg_phase *pv)
{
	bool inc_e = e->src[PK_OFFSET_INCREMENT], inc_pv = pv->src[PK_OFFSET_INCREMENT];

	if (e->verify == SC_VERIFY_NONE || e->bs.n != 1 || e->bs.v[0] != pv->bs.v[0] ||
	    e->bs_max || !sc_engine_uses_files((enum sc_engine_kind)e->engine))
		return false;
	for (uint32_t k = 0; k < e->rw.n; k++)
		if (!full_pass_write((enum sc_rw)e->rw.v[k]) ||
		    (sc_rw_random((enum sc_rw)e->rw.v[k]) && !e->randommap))
			return false;
	return !e->runtime && !e->runtime_max && (!e->io_size || e->io_size >= e->size) &&
	       e->size == pv->size && e->offset == pv->offset && inc_e == inc_pv &&
	       (!inc_e || e->offset_increment == pv->offset_increment) && e->jobs >= pv->jobs;
}

/* Phase i reads with verify: the blocks it checks were written (or laid
 * out) earlier in this run, by verifying phases with its one bs, and on a
 * file or block target by one that writes.  Phases before one that
 * rewrites every block pv reads with verify (verify_rewrites) do not
 * matter: what they left is overwritten. */
static int check_verify_reads(struct cfg_check *c, uint32_t i, const struct cfg_phase *pv)
{
	char a1[32], a2[32];
	bool wrote = false;
	uint32_t from = 0;

	if (pv->bs.n > 1)
		return sc_cfg_fail_value(c, pv, i, pv->src[PK_BS], PK_BS,
					 "a phase that reads with verify: crc32c cannot sweep bs: "
					 "blocks are checked at the bs they were written with");
	for (uint32_t j = i; j-- > 0;)
		if (sc_cfg_sweeps(c->pv[j].workload) && verify_rewrites(&c->pv[j], pv)) {
			from = j;
			break;
		}
	for (uint32_t j = from; j < i; j++) {
		const struct cfg_phase *e = &c->pv[j];

		if (!sc_cfg_sweeps(e->workload) ||
		    !sc_engine_uses_files((enum sc_engine_kind)e->engine))
			continue;
		if (e->verify == SC_VERIFY_NONE)
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[PK_VERIFY], PK_VERIFY,
			    "phase %s reads with verify: crc32c what phases.%u (%s) wrote or "
			    "laid out without verify (set verify: crc32c on every io phase, "
			    "e.g. in defaults, or write the whole region with verify just "
			    "before: a sized rw: write of the same size)",
			    pv->name, j, e->name);
		if (e->bs.n != 1 || e->bs.v[0] != pv->bs.v[0])
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[PK_BS], PK_BS,
			    "%s, but phases.%u (%s) wrote or laid out its verify blocks with "
			    "bs %s: a phase that reads with verify needs the bs they were "
			    "written with",
			    sc_cfg_fmt_size(a1, sizeof(a1), pv->bs.v[0]), j, e->name,
			    e->bs.n == 1 ? sc_cfg_fmt_size(a2, sizeof(a2), e->bs.v[0])
					 : "(a sweep)");
		wrote = wrote || any_rw(&e->rw, sc_rw_writes);
	}
	for (uint32_t t = 0; !wrote && t < c->ntg; t++)
		if (c->tg[t].info.kind != SC_TARGET_DIR)
			return sc_cfg_fail_value(
			    c, pv, i, pv->src[PK_VERIFY], PK_VERIFY,
			    "phase %s reads with verify, but on the %s %s (targets.%u) no "
			    "earlier phase wrote verify blocks (add one with rw: write and "
			    "verify: crc32c, or re-read a kept run with verify_only: true)",
			    pv->name, sc_target_kind_name(c->tg[t].info.kind), c->tg[t].path, t);
	return 0;
}

int sc_cfg_check_verify(struct cfg_check *c)
{
	int err = 0;

	for (uint32_t i = 0; !err && i < c->npv; i++) {
		struct cfg_phase *pv = &c->pv[i];

		if (!sc_cfg_sweeps(pv->workload))
			continue;
		if (pv->verify_only)
			err = check_verify_only(c, i, pv);
		if (err || pv->verify == SC_VERIFY_NONE)
			continue;
		err = check_verify_blocks(c, i, pv);
		if (!err && !pv->verify_only && any_rw(&pv->rw, sc_rw_reads))
			err = check_verify_reads(c, i, pv);
	}
	return err;
}
