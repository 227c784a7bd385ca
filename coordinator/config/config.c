/* config.c -- the config schema: checks a config document and builds the plan.
 *
 * The document layer (YAML, locations) is yaml.c, --set and ${VAR}
 * are set.c, typed values value.c.  The schema:
 *
 *   targets: (list, at least one)
 *     path           text, required; a directory, an existing file or a block
 *                    device; a path that does not exist is a directory to be
 *                    created and needs an existing parent directory
 *     capacity       size >= 1; default: dir = free space, file/block = size;
 *                    more than that is an error
 *     keep           bool, default false (dir targets keep their run files)
 *     allow_destroy  bool, default false; a writing phase on a file or block
 *                    target needs it and --allow-destroy, on every host (and
 *                    a block device must not be in use: see worker/guard.h);
 *                    never taken from --set (nor wipe_signatures_ok)
 *     hosts          non-empty text; such a target is not probed here (kind
 *                    guessed: /dev/... = block, else dir; capacity 0 = unknown);
 *                    each rank checks it on its own host, destroy guard too
 *     wipe_signatures_ok bool, default false; a block device that carries a
 *                    filesystem, RAID, LVM or partition-table signature is
 *                    written only with it (besides both allow_destroy opt-ins)
 *   memory_per_rank: (optional) size >= 1, the memory one rank may
 *     allocate in any phase: its I/O buffers, jobs x iodepth x the unit of
 *     I/O (bs, block_size or sample_size; the largest cell of a sweep), and
 *     in a timed phase its per-second series, (jobs + 1) x seconds x 48 B.
 *     Default: 4GiB, or a quarter of the memory of the host that checks the
 *     config when that is less.  Ranks of one node each hold their own.
 *   defaults: (optional mapping) any phase key but name, for every phase
 *     whose workload takes it and that does not set it; a default
 *     runtime/io_size/epochs is skipped by a phase that sets an alternative
 *     of it, a default ramp by a phase without runtime, a default
 *     restore_shift by a phase without restore, and a default
 *     rwmixread/fsync is ignored where it does not apply.  fsync is a count
 *     in io and kvcache phases and true/false in checkpoint phases: a
 *     default reaches the phases whose kind of value it is.
 *   phases: (list, at least one).  workload: picks the keys a phase takes;
 *   a key of another workload is an error that names that workload.
 *     every workload:
 *     name       [A-Za-z0-9][A-Za-z0-9_.-]{0,63} (never "." or ".."; a
 *                checkpoint phase's directory is named after it), unique;
 *                default "phase<i>" (i from 0)
 *     workload   io (default) | kvcache | checkpoint | ingest
 *     jobs       1..1024, threads per rank (default per workload)
 *     iodepth    1..16384 (default per workload)
 *     direct     bool (default per workload); when true, the unit of I/O (bs,
 *                block_size, sample_size) must be a multiple of every probed
 *                target's alignment
 *     engine     io_uring (default) | psync | null
 *     seed       0..2^64-1, default 1 + the phase's index
 *     stonewall  all_done (default: every rank completes its work) |
 *                first_done (every rank stops when the first one is done)
 *     on_error   stop-phase (default) | continue | abort: what a rank does
 *                when an I/O fails (stop its phase, the run ending after it;
 *                count and go on; stop every rank and the run at once); a
 *                failed I/O fails the run (exit 1) whichever
 *     timeout    duration, default: the planned duration plus a grace
 *                period (coordinator/deadline.h); a rank that has not
 *                finished by then, counted from the phase's common start,
 *                ends the run (exit 3); with runtime, longer than
 *                runtime + ramp
 *     inject     tests: a mapping {every: N, errno: E} (reads and writes N,
 *                2N, ... of each job fail; N 1..2^63) or {probability: P,
 *                errno: E} (each with probability P in (0, 1], kept in
 *                parts per million, so >= 0.000001; seeded); E an errno
 *                name (EIO, ENOSPC, EILSEQ, ENODATA, ETIMEDOUT, EROFS, any
 *                the C library names, any case) or 1..254, default EIO.
 *                Failed I/Os never reach the device; fsyncs never fail.
 *   workload io, a fio-like job:
 *     rw         read|write|randread|randwrite|randrw, required; list = sweep
 *     rwmixread  0..100, default 50; only with randrw
 *     bs         size 1B..1GiB, default 4KiB; list = sweep; <= size
 *     iodepth    default 1; list = sweep
 *     jobs       default 1
 *     size       size >= 1, default 64MiB; a multiple of bs
 *     runtime    duration > 0 (at most 30 days); or
 *     io_size    size >= 1, a multiple of bs; default = size without runtime
 *                (jobs x size and jobs x io_size below 2^64 bytes)
 *     ramp       duration, only with runtime, and shorter than it (it runs
 *                before the measured runtime)
 *     fsync      0..2^32-1, default 0; nonzero only on a phase that writes
 *     direct     default true
 *     rate       I/Os per second per rank, "5000/s" or 5000, 0..10^9;
 *                default 0 = closed loop
 *     verify     none (default) | crc32c: written blocks carry a header
 *                (offset, run id, sequence, checksum) that reads check;
 *                bs >= 48 B (the header); a phase that reads with it needs
 *                one bs (no sweep), every earlier io phase verifying with
 *                that bs, and on a file or block target an earlier one that
 *                writes; the null engine verifies only writes
 *     verify_only bool, default false: read back and check a kept run
 *                (named by --run-id); rw read or randread; verify defaults
 *                to crc32c; all phases of the run or none
 *   workload kvcache, KV-cache swap: the io keys, with the defaults rw
 *     randrw, rwmixread 70, bs 4KiB, jobs 8, iodepth 128, size 1GiB, rate 0.
 *   Sweeps (io and kvcache) expand into cells: rw, then bs, then iodepth
 *   varying fastest, each named "<name>[rw=..,bs=..,iodepth=..]" with only
 *   the swept keys.
 *   workload checkpoint, LLM checkpoints as DLIO writes them (no key may be
 *   a list):
 *     model      required: a catalogue name (sc_ckpt_model_names()) or an
 *                inline mapping of layers (1..16384), hidden (1..2^20),
 *                ffn_hidden (1..2^22), heads (1..65536), vocab (1..2^24), all
 *                required, kv_heads (1..65536, default heads) and dtype
 *                fp16 | bf16 (default) | fp32
 *     tp, pp     1..2^32-1, default 1
 *     dp         0..2^32-1, default 0 = ranks / (tp * pp), resolved by the
 *                coordinator
 *     zero       0..3, default 0 (DeepSpeed ZeRO stage)
 *     checkpoints 1..10000, default 1
 *     compute_between duration, default 0: emulated training before every
 *                checkpoint after the first
 *     fsync      bool, default true
 *     block_size size 1B..1GiB, default 1MiB (the write and read unit)
 *     iodepth 8, jobs 1, direct false by default
 *     scale      a number in (0, 1], default 1: the share of the real bytes
 *     restore    bool, default false: read every checkpoint back after all
 *                are written
 *     restore_shift 0..2^32-1, default 0, only with restore: read the shards
 *                of the node this many nodes on
 *     The model and layout are checked here (with dp 0 without dp; the
 *     coordinator checks the rest once it knows the ranks).  Cells:
 *     "<name>[ckpt=k]" for k = 1..checkpoints, then with restore
 *     "<name>[restore=k]".  Writing to a file or block target needs
 *     allow_destroy, as for io.
 *   workload ingest, training-data ingestion (no key may be a list):
 *     files      1..65536, default 64 (dataset files per node)
 *     file_size  size >= 1, default 64MiB; a multiple of sample_size
 *     sample_size size 1B..1GiB, default 128KiB (one sample, the read unit)
 *     batch      1..2^32-1, default 32 (samples per step)
 *     compute_per_batch duration, default 0 (emulated accelerator time)
 *     epochs     1..2^32-1, default 1; or
 *     runtime    duration > 0
 *     prefetch   0..1024, default 2 (batches read ahead of compute)
 *     jobs 8, iodepth 64, direct true by default
 *
 * --set KEY=VALUE, applied in order before any check: a dotted path
 * (phases.0.runtime, phases.<name>.bs, targets.1.capacity, defaults.direct)
 * sets or creates its last key, and fails when the path above it does not
 * exist; a bare key sets that key in every phase whose workload takes it
 * (fsync=true reaches checkpoint phases, fsync=8 io and kvcache ones; a
 * list reaches only the phases that sweep the key) or in every target; a
 * phase key that no phase takes is an error.  Setting runtime removes
 * io_size and epochs from the same mapping; setting io_size removes runtime
 * and ramp, setting epochs removes runtime: they are alternatives.
 * A VALUE is a plain YAML scalar, or a flow list "[4KiB, 1MiB]".
 *
 * ${VAR}, ${VAR:-default} (the default also when VAR is empty) and $$ (a
 * literal $) are expanded in every scalar value after --set; an unset VAR
 * without a default is an error at its value.  Defaults do not nest. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ckpt_model.h"
#include "engine/engine.h"
#include "hostlist.h"
#include "layout.h"
#include "result.h"
#include "target.h"
#include "units.h"
#include "verify.h"
#include "config_priv.h"

#define KIB	 UINT64_C(1024)
#define MIB	 (KIB * KIB)
#define GIB	 (MIB * KIB)

/* Ranges and defaults of the schema (documented in the final report and
 * the README's config reference). */
#define MAX_BS_BYTES	   GIB /* io_uring results are 32-bit */
#define MAX_IODEPTH	   16384u
#define MAX_JOBS	   1024u
#define MAX_DURATION_NS	   (30 * 24 * 3600 * SC_NS_PER_S) /* 30 days */
#define MAX_SWEEP_CELLS	   4096u		       /* cells one config phase expands into */
#define MAX_RATE_IOPS	   UINT64_C(1000000000)	       /* per rank */
#define MAX_ZERO_STAGE	   3u
#define MAX_CHECKPOINTS	   10000u
#define MAX_PREFETCH	   1024u /* batches held in memory ahead of compute */
#define DEFAULT_BS_BYTES   (4 * KIB)
#define DEFAULT_SIZE_BYTES (64 * MIB)
#define DEFAULT_RWMIXREAD  50u

/* kvcache: many small random reads and some writes, deep queues. */
#define KV_RWMIXREAD  70u
#define KV_JOBS	      8u
#define KV_IODEPTH    128u
#define KV_SIZE_BYTES GIB

/* checkpoint: PyTorch writes buffered and fsyncs every file. */
#define CKPT_BLOCK_BYTES MIB
#define CKPT_IODEPTH	 8u
#define CKPT_JOBS	 1u

/* ingest: a dataset of files read at random, sample by sample. */
#define INGEST_FILES	    64u
#define INGEST_FILE_BYTES   (64 * MIB)
#define INGEST_SAMPLE_BYTES (128 * KIB)
#define INGEST_BATCH	    32u
#define INGEST_PREFETCH	    2u
#define INGEST_JOBS	    8u
#define INGEST_IODEPTH	    64u

/* An inline model's optimizer state: three fp32 values per parameter, as
 * in the catalogue (DLIO's Adam). */
#define INLINE_OPTIM_BYTES_PER_PARAM 12u

enum pkey {
	/* every workload, io, kvcache */
	PK_NAME,
	PK_WORKLOAD,
	PK_RW,
	PK_RWMIXREAD,
	PK_BS,
	PK_IODEPTH,
	PK_JOBS,
	PK_SIZE,
	PK_RUNTIME,
	PK_IO_SIZE,
	PK_RAMP,
	PK_FSYNC,
	PK_DIRECT,
	PK_ENGINE,
	PK_SEED,
	PK_STONEWALL,
	PK_RATE,
	/* checkpoint */
	PK_MODEL,
	PK_TP,
	PK_PP,
	PK_DP,
	PK_ZERO,
	PK_CHECKPOINTS,
	PK_COMPUTE_BETWEEN,
	PK_BLOCK_SIZE,
	PK_SCALE,
	PK_RESTORE,
	PK_RESTORE_SHIFT,
	/* ingest */
	PK_FILES,
	PK_FILE_SIZE,
	PK_SAMPLE_SIZE,
	PK_BATCH,
	PK_COMPUTE_PER_BATCH,
	PK_EPOCHS,
	PK_PREFETCH,
	/* safety */
	PK_VERIFY,
	PK_VERIFY_ONLY,
	PK_ON_ERROR,
	PK_TIMEOUT,
	PK_INJECT,
	PK_COUNT
};

enum tkey {
	TK_PATH,
	TK_CAPACITY,
	TK_KEEP,
	TK_ALLOW_DESTROY,
	TK_HOSTS,
	TK_WIPE_SIGNATURES_OK,
	TK_COUNT
};

const char *const sc_cfg_phase_keys[PK_COUNT + 1] = {
    [PK_NAME] = "name",
    [PK_WORKLOAD] = "workload",
    [PK_RW] = "rw",
    [PK_RWMIXREAD] = "rwmixread",
    [PK_BS] = "bs",
    [PK_IODEPTH] = "iodepth",
    [PK_JOBS] = "jobs",
    [PK_SIZE] = "size",
    [PK_RUNTIME] = "runtime",
    [PK_IO_SIZE] = "io_size",
    [PK_RAMP] = "ramp",
    [PK_FSYNC] = "fsync",
    [PK_DIRECT] = "direct",
    [PK_ENGINE] = "engine",
    [PK_SEED] = "seed",
    [PK_STONEWALL] = "stonewall",
    [PK_RATE] = "rate",
    [PK_MODEL] = "model",
    [PK_TP] = "tp",
    [PK_PP] = "pp",
    [PK_DP] = "dp",
    [PK_ZERO] = "zero",
    [PK_CHECKPOINTS] = "checkpoints",
    [PK_COMPUTE_BETWEEN] = "compute_between",
    [PK_BLOCK_SIZE] = "block_size",
    [PK_SCALE] = "scale",
    [PK_RESTORE] = "restore",
    [PK_RESTORE_SHIFT] = "restore_shift",
    [PK_FILES] = "files",
    [PK_FILE_SIZE] = "file_size",
    [PK_SAMPLE_SIZE] = "sample_size",
    [PK_BATCH] = "batch",
    [PK_COMPUTE_PER_BATCH] = "compute_per_batch",
    [PK_EPOCHS] = "epochs",
    [PK_PREFETCH] = "prefetch",
    [PK_VERIFY] = "verify",
    [PK_VERIFY_ONLY] = "verify_only",
    [PK_ON_ERROR] = "on_error",
    [PK_TIMEOUT] = "timeout",
    [PK_INJECT] = "inject",
    [PK_COUNT] = NULL,
};

const char *const sc_cfg_target_keys[TK_COUNT + 1] = {
    [TK_PATH] = "path",	  [TK_CAPACITY] = "capacity",
    [TK_KEEP] = "keep",	  [TK_ALLOW_DESTROY] = "allow_destroy",
    [TK_HOSTS] = "hosts", [TK_WIPE_SIGNATURES_OK] = "wipe_signatures_ok",
    [TK_COUNT] = NULL,
};

const char *const sc_cfg_top_keys[] = {"targets", "defaults", "phases", "memory_per_rank", NULL};
const char *const sc_cfg_sections[] = {"targets", "defaults", "phases", NULL};

/* Which workloads take each phase key. */
#define WL(w)  (1u << SC_WORKLOAD_##w)
#define WL_IO  (WL(IO) | WL(KVCACHE))
#define WL_ALL (WL(IO) | WL(CHECKPOINT) | WL(INGEST) | WL(KVCACHE))
static const unsigned key_workloads[PK_COUNT] = {
    [PK_NAME] = WL_ALL,
    [PK_WORKLOAD] = WL_ALL,
    [PK_RW] = WL_IO,
    [PK_RWMIXREAD] = WL_IO,
    [PK_BS] = WL_IO,
    [PK_IODEPTH] = WL_ALL,
    [PK_JOBS] = WL_ALL,
    [PK_SIZE] = WL_IO,
    [PK_RUNTIME] = WL_IO | WL(INGEST),
    [PK_IO_SIZE] = WL_IO,
    [PK_RAMP] = WL_IO,
    [PK_FSYNC] = WL_IO | WL(CHECKPOINT),
    [PK_DIRECT] = WL_ALL,
    [PK_ENGINE] = WL_ALL,
    [PK_SEED] = WL_ALL,
    [PK_STONEWALL] = WL_ALL,
    [PK_RATE] = WL_IO,
    [PK_MODEL] = WL(CHECKPOINT),
    [PK_TP] = WL(CHECKPOINT),
    [PK_PP] = WL(CHECKPOINT),
    [PK_DP] = WL(CHECKPOINT),
    [PK_ZERO] = WL(CHECKPOINT),
    [PK_CHECKPOINTS] = WL(CHECKPOINT),
    [PK_COMPUTE_BETWEEN] = WL(CHECKPOINT),
    [PK_BLOCK_SIZE] = WL(CHECKPOINT),
    [PK_SCALE] = WL(CHECKPOINT),
    [PK_RESTORE] = WL(CHECKPOINT),
    [PK_RESTORE_SHIFT] = WL(CHECKPOINT),
    [PK_FILES] = WL(INGEST),
    [PK_FILE_SIZE] = WL(INGEST),
    [PK_SAMPLE_SIZE] = WL(INGEST),
    [PK_BATCH] = WL(INGEST),
    [PK_COMPUTE_PER_BATCH] = WL(INGEST),
    [PK_EPOCHS] = WL(INGEST),
    [PK_PREFETCH] = WL(INGEST),
    [PK_VERIFY] = WL_IO,
    [PK_VERIFY_ONLY] = WL_IO,
    [PK_ON_ERROR] = WL_ALL,
    [PK_TIMEOUT] = WL_ALL,
    [PK_INJECT] = WL_ALL,
};

/* A key of another workload that means what key means in workload w. */
/* clang-format off */
static const struct {
	enum sc_workload w;
	enum pkey key, use;
} key_hints[] = {
    {SC_WORKLOAD_CHECKPOINT, PK_BS, PK_BLOCK_SIZE},
    {SC_WORKLOAD_INGEST, PK_BS, PK_SAMPLE_SIZE},
    {SC_WORKLOAD_INGEST, PK_SIZE, PK_FILE_SIZE},
    {SC_WORKLOAD_INGEST, PK_IO_SIZE, PK_EPOCHS},
    {SC_WORKLOAD_IO, PK_BLOCK_SIZE, PK_BS},
    {SC_WORKLOAD_IO, PK_SAMPLE_SIZE, PK_BS},
    {SC_WORKLOAD_KVCACHE, PK_BLOCK_SIZE, PK_BS},
    {SC_WORKLOAD_KVCACHE, PK_SAMPLE_SIZE, PK_BS},
};
/* clang-format on */

/* Phase keys: type, range, and whether a list sweeps it (in io and
 * kvcache phases; key_def() gives a workload's view). */
#define PHASE(t, lo, hi, sw)                                                                       \
	{                                                                                          \
		.type = (t), .min = (lo), .max = (hi), .phase = true, .sweep = (sw)                \
	}
static const struct cfg_keydef phase_defs[PK_COUNT] = {
    [PK_NAME] = PHASE(CFG_VT_NAME, 0, 0, false),
    [PK_WORKLOAD] = PHASE(CFG_VT_WORKLOAD, 0, 0, false),
    [PK_RW] = PHASE(CFG_VT_RW, 0, 0, true),
    [PK_RWMIXREAD] = PHASE(CFG_VT_UINT, 0, 100, false),
    [PK_BS] = PHASE(CFG_VT_SIZE, 1, MAX_BS_BYTES, true),
    [PK_IODEPTH] = PHASE(CFG_VT_UINT, 1, MAX_IODEPTH, true),
    [PK_JOBS] = PHASE(CFG_VT_UINT, 1, MAX_JOBS, false),
    [PK_SIZE] = PHASE(CFG_VT_SIZE, 1, UINT64_MAX, false),
    [PK_RUNTIME] = PHASE(CFG_VT_DURATION, 1, MAX_DURATION_NS, false),
    [PK_IO_SIZE] = PHASE(CFG_VT_SIZE, 1, UINT64_MAX, false),
    [PK_RAMP] = PHASE(CFG_VT_DURATION, 0, MAX_DURATION_NS, false),
    [PK_FSYNC] = PHASE(CFG_VT_UINT, 0, UINT32_MAX, false),
    [PK_DIRECT] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_ENGINE] = PHASE(CFG_VT_ENGINE, 0, 0, false),
    [PK_SEED] = PHASE(CFG_VT_UINT, 0, UINT64_MAX, false),
    [PK_STONEWALL] = PHASE(CFG_VT_STONEWALL, 0, 0, false),
    [PK_RATE] = PHASE(CFG_VT_RATE, 0, MAX_RATE_IOPS, false),
    [PK_MODEL] = PHASE(CFG_VT_MODEL, 0, 0, false),
    [PK_TP] = PHASE(CFG_VT_UINT, 1, UINT32_MAX, false),
    [PK_PP] = PHASE(CFG_VT_UINT, 1, UINT32_MAX, false),
    [PK_DP] = PHASE(CFG_VT_UINT, 0, UINT32_MAX, false),
    [PK_ZERO] = PHASE(CFG_VT_UINT, 0, MAX_ZERO_STAGE, false),
    [PK_CHECKPOINTS] = PHASE(CFG_VT_UINT, 1, MAX_CHECKPOINTS, false),
    [PK_COMPUTE_BETWEEN] = PHASE(CFG_VT_DURATION, 0, MAX_DURATION_NS, false),
    [PK_BLOCK_SIZE] = PHASE(CFG_VT_SIZE, 1, MAX_BS_BYTES, false),
    [PK_SCALE] = PHASE(CFG_VT_FRACTION, 0, 0, false),
    [PK_RESTORE] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_RESTORE_SHIFT] = PHASE(CFG_VT_UINT, 0, UINT32_MAX, false),
    [PK_FILES] = PHASE(CFG_VT_UINT, 1, SC_INGEST_MAX_FILES, false),
    [PK_FILE_SIZE] = PHASE(CFG_VT_SIZE, 1, UINT64_MAX, false),
    [PK_SAMPLE_SIZE] = PHASE(CFG_VT_SIZE, 1, MAX_BS_BYTES, false),
    [PK_BATCH] = PHASE(CFG_VT_UINT, 1, UINT32_MAX, false),
    [PK_COMPUTE_PER_BATCH] = PHASE(CFG_VT_DURATION, 0, MAX_DURATION_NS, false),
    [PK_EPOCHS] = PHASE(CFG_VT_UINT, 1, UINT32_MAX, false),
    [PK_PREFETCH] = PHASE(CFG_VT_UINT, 0, MAX_PREFETCH, false),
    [PK_VERIFY] = PHASE(CFG_VT_VERIFY, 0, 0, false),
    [PK_VERIFY_ONLY] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_ON_ERROR] = PHASE(CFG_VT_ON_ERROR, 0, 0, false),
    [PK_TIMEOUT] = PHASE(CFG_VT_DURATION, 1, MAX_DURATION_NS, false),
    [PK_INJECT] = PHASE(CFG_VT_TEXT, 0, 0, false), /* a mapping: parse_inject */
};
#undef PHASE

static const struct cfg_keydef target_defs[TK_COUNT] = {
    [TK_PATH] = {.type = CFG_VT_TEXT},
    [TK_CAPACITY] = {.type = CFG_VT_SIZE, .min = 1, .max = UINT64_MAX},
    [TK_KEEP] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_ALLOW_DESTROY] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_HOSTS] = {.type = CFG_VT_TEXT},
    [TK_WIPE_SIGNATURES_OK] = {.type = CFG_VT_BOOL, .max = 1},
};

/* The keys of an inline checkpoint model. */
enum mkey {
	MK_LAYERS,
	MK_HIDDEN,
	MK_FFN_HIDDEN,
	MK_HEADS,
	MK_KV_HEADS,
	MK_VOCAB,
	MK_DTYPE,
	MK_COUNT
};

static const char *const model_keys[MK_COUNT + 1] = {
    [MK_LAYERS] = "layers", [MK_HIDDEN] = "hidden",	[MK_FFN_HIDDEN] = "ffn_hidden",
    [MK_HEADS] = "heads",   [MK_KV_HEADS] = "kv_heads", [MK_VOCAB] = "vocab",
    [MK_DTYPE] = "dtype",   [MK_COUNT] = NULL,
};

static const char *const dtype_names[] = {"fp16", "bf16", "fp32", NULL};
static const uint32_t dtype_bytes[] = {2, 2, 4};
#define DEFAULT_DTYPE_BYTES 2u /* bf16 */

/* One config phase after defaults, before expansion into cells. */
struct pv {
	const struct cfg_node *map;	      /* the phase's mapping */
	const struct cfg_node *src[PK_COUNT]; /* value's node; NULL: built in */
	bool own[PK_COUNT];		      /* set in the phase itself */
	char name[CFG_MAX_NAME_LEN + 1];
	struct cfg_sweep rw, bs, iodepth;
	uint64_t workload, rwmixread, jobs, size, runtime, io_size, ramp;
	uint64_t fsync, direct, engine, seed, stonewall, rate;
	/* checkpoint */
	struct sc_model model;
	uint64_t tp, pp, dp, zero, checkpoints, compute_between, block_size;
	uint64_t restore, restore_shift;
	double scale;
	/* ingest */
	uint64_t files, file_size, sample_size, batch, compute_per_batch, epochs, prefetch;
	/* safety */
	uint64_t verify, verify_only, on_error, timeout;
	struct sc_inject inject;
	uint32_t ncells;
};

struct tgt {
	const struct cfg_node *map;
	const char *path, *hosts;
	uint64_t capacity, keep, allow_destroy, wipe_signatures_ok;
	bool probed;
	struct sc_target_info info;
};

struct sc_config {
	struct cfg_doc doc;
	struct sc_plan plan;
};

struct ctx {
	struct cfg_doc *d;
	const struct cfg_node *defaults;
	uint32_t ntg, npv;
	struct tgt *tg;
	struct pv *pv;
	uint64_t mem_budget;		 /* I/O buffer bytes a rank may hold */
	const struct cfg_node *mem_node; /* memory_per_rank, or NULL: default */
};

/* Where a value of a phase is reported: the node that gave it (a value
 * from defaults also names the phase it breaks), or for a built-in
 * default, the phase itself under key's path. */
static int fail_value(struct ctx *c, const struct pv *pv, uint32_t i, const struct cfg_node *n,
		      enum pkey k, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int fail_value(struct ctx *c, const struct pv *pv, uint32_t i, const struct cfg_node *n,
		      enum pkey k, const char *fmt, ...)
{
	char msg[768], path[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n && strncmp(n->path, "phases.", 7) == 0)
		return sc_cfg_fail(c->d, &n->loc, n->path, "%s", msg);
	if (n) /* from defaults: name the phase it breaks */
		return sc_cfg_fail(c->d, &n->loc, n->path, "%s, in phase %s", msg, pv->name);
	snprintf(path, sizeof(path), "phases.%u.%s", i, sc_cfg_phase_keys[k]);
	return sc_cfg_fail(c->d, &pv->map->loc, path, "%s", msg);
}

static bool takes(uint64_t w, enum pkey k)
{
	return w < SC_WORKLOAD_COUNT && (key_workloads[k] & (1u << w));
}

/* io and kvcache phases sweep; the others run as they are. */
static bool sweeps(uint64_t w)
{
	return w == SC_WORKLOAD_IO || w == SC_WORKLOAD_KVCACHE;
}

/* Key k as workload w types it. */
static struct cfg_keydef key_def(uint64_t w, enum pkey k)
{
	struct cfg_keydef def = phase_defs[k];

	if (!sweeps(w))
		def.sweep = false;
	if (k == PK_FSYNC && w == SC_WORKLOAD_CHECKPOINT) {
		def.type = CFG_VT_BOOL;
		def.max = 1;
	}
	return def;
}

const char *sc_cfg_key_workloads(const char *key, char *buf, size_t len)
{
	int k = sc_cfg_key_index(key, sc_cfg_phase_keys);

	buf[0] = '\0';
	for (int w = 0; k >= 0 && w < SC_WORKLOAD_COUNT; w++) {
		if (!takes((uint64_t)w, (enum pkey)k))
			continue;
		strncat(buf, buf[0] ? ", " : "", len - strlen(buf) - 1);
		strncat(buf, sc_workload_name((enum sc_workload)w), len - strlen(buf) - 1);
	}
	return buf;
}

/* The keys workload w takes, NULL-terminated, in table order. */
static void workload_keys(uint64_t w, const char *keys[PK_COUNT + 1])
{
	size_t n = 0;

	for (int k = 0; k < PK_COUNT; k++)
		if (takes(w, (enum pkey)k))
			keys[n++] = sc_cfg_phase_keys[k];
	keys[n] = NULL;
}

/* Reports key p of a nested mapping (an inline model, inject) that is not
 * among keys; what names the mapping ("an inline model"). */
static int unknown_nested_key(struct ctx *c, const struct cfg_pair *p, const char *const *keys,
			      const char *what)
{
	const char *near = sc_cfg_nearest(p->key, keys, (size_t)-1);
	char known[160];

	if (near)
		return sc_cfg_fail(c->d, &p->kloc, p->val->path, "unknown key (did you mean %s?)",
				near);
	return sc_cfg_fail(c->d, &p->kloc, p->val->path, "unknown key (%s takes %s)", what,
			sc_cfg_join(known, sizeof(known), keys));
}

/* An inline model {layers, hidden, ...} or a catalogue name, into pv. */
static int parse_model(struct ctx *c, struct pv *pv, const struct cfg_node *n)
{
	/* Bounded so that any model accepted is sized in little time. */
	static const uint64_t dim_max[MK_COUNT] = {
	    [MK_LAYERS] = SC_CKPT_MAX_LAYERS, [MK_HIDDEN] = SC_CKPT_MAX_HIDDEN,
	    [MK_FFN_HIDDEN] = SC_CKPT_MAX_FFN, [MK_HEADS] = SC_CKPT_MAX_HEADS,
	    [MK_KV_HEADS] = SC_CKPT_MAX_HEADS, [MK_VOCAB] = SC_CKPT_MAX_VOCAB,
	};
	static const struct cfg_keydef text = {.type = CFG_VT_TEXT};
	const struct cfg_node *given[MK_COUNT] = {0};
	uint64_t v[MK_COUNT] = {0}, unused;
	struct sc_model *m = &pv->model;
	uint32_t dtype = DEFAULT_DTYPE_BYTES;
	char known[160];
	int err;

	if (n->kind != CFG_MAP) {
		struct cfg_keydef def = phase_defs[PK_MODEL];

		err = sc_cfg_parse_scalar(c->d, n, &def, &unused);
		if (!err)
			err = sc_ckpt_model_lookup(n->str, m) ? -EINVAL : 0;
		return err;
	}
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int k = sc_cfg_key_index(p->key, model_keys);

		if (k < 0)
			return unknown_nested_key(c, p, model_keys, "an inline model");
		given[k] = p->val;
		if (k != MK_DTYPE) {
			const struct cfg_keydef dim = {
			    .type = CFG_VT_UINT, .min = 1, .max = dim_max[k]};

			err = sc_cfg_parse_scalar(c->d, p->val, &dim, &v[k]);
			if (err)
				return err;
			continue;
		}
		err = sc_cfg_parse_scalar(c->d, p->val, &text, &unused);
		if (err)
			return err;
		k = sc_cfg_key_index(p->val->str, dtype_names);
		if (k < 0)
			return sc_cfg_fail_node(c->d, p->val, "\"%s\" is not a dtype (known: %s)",
					 p->val->str, sc_cfg_join(known, sizeof(known), dtype_names));
		dtype = dtype_bytes[k];
	}
	for (int k = 0; k < MK_COUNT; k++)
		if (!given[k] && k != MK_KV_HEADS && k != MK_DTYPE)
			return sc_cfg_fail_node(c->d, n,
			    "the inline model has no %s (give layers, hidden, ffn_hidden, "
			    "heads and vocab; kv_heads defaults to heads, dtype to bf16)",
			    model_keys[k]);
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "inline");
	m->layers = (uint32_t)v[MK_LAYERS];
	m->hidden = (uint32_t)v[MK_HIDDEN];
	m->ffn_hidden = (uint32_t)v[MK_FFN_HIDDEN];
	m->heads = (uint32_t)v[MK_HEADS];
	m->kv_heads = given[MK_KV_HEADS] ? (uint32_t)v[MK_KV_HEADS] : m->heads;
	m->vocab = v[MK_VOCAB];
	m->model_dtype_bytes = dtype;
	m->optim_bytes_per_param = INLINE_OPTIM_BYTES_PER_PARAM;
	return 0;
}

/* The keys of inject. */
enum ikey { IK_EVERY, IK_PROBABILITY, IK_ERRNO, IK_COUNT };

static const char *const inject_keys[IK_COUNT + 1] = {
    [IK_EVERY] = "every", [IK_PROBABILITY] = "probability", [IK_ERRNO] = "errno",
    [IK_COUNT] = NULL};

/* Largest errno inject takes as a number: every one below it is counted
 * on its own in results. */
#define INJECT_ERRNO_MAX (SC_ERRNO_SLOTS - 2)
#define INJECT_EVERY_MAX (UINT64_C(1) << 63)
#define PPM_PER_UNIT	 1e6

/* An errno by name (EIO, any the C library names; any case) or number. */
static int parse_errno(struct ctx *c, const struct cfg_node *n, int32_t *out)
{
	static const struct cfg_keydef text = {.type = CFG_VT_TEXT};
	const char *names[INJECT_ERRNO_MAX + 1];
	uint32_t nnames = 0;
	const char *near;
	uint64_t unused;
	char *end;
	int err = sc_cfg_parse_scalar(c->d, n, &text, &unused);

	if (err)
		return err;
	if (n->str[0] >= '0' && n->str[0] <= '9') {
		unsigned long v = strtoul(n->str, &end, 10);

		if (*end || v < 1 || v > INJECT_ERRNO_MAX)
			return sc_cfg_fail_node(c->d, n, "%s is not an errno (a name such as EIO, or 1..%d)",
					 n->str, INJECT_ERRNO_MAX);
		*out = (int32_t)v;
		return 0;
	}
	for (int e = 1; e <= INJECT_ERRNO_MAX; e++) {
		const char *name = strerrorname_np(e);

		if (!name)
			continue;
		if (strcasecmp(name, n->str) == 0) {
			*out = e;
			return 0;
		}
		names[nnames++] = name;
	}
	names[nnames] = NULL;
	near = sc_cfg_nearest(n->str, names, (size_t)-1);
	if (near)
		return sc_cfg_fail_node(c->d, n, "\"%s\" is not an errno name (did you mean %s?)", n->str,
				 near);
	return sc_cfg_fail_node(c->d, n,
			 "\"%s\" is not an errno name (a drive returns e.g. EIO, ENOSPC, EILSEQ, "
			 "ENODATA, ETIMEDOUT, EROFS; or give a number 1..%d)",
			 n->str, INJECT_ERRNO_MAX);
}

/* inject: {every: N, errno: E} or {probability: P, errno: E}, into pv. */
static int parse_inject(struct ctx *c, struct pv *pv, const struct cfg_node *n)
{
	static const struct cfg_keydef every = {
	    .type = CFG_VT_UINT, .min = 1, .max = INJECT_EVERY_MAX};
	static const struct cfg_keydef fraction = {.type = CFG_VT_FRACTION};
	const struct cfg_pair *given[IK_COUNT] = {0};
	struct sc_inject inj = {.errno_val = EIO};
	int err;

	if (n->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, n,
				 "expected a mapping {every: N, errno: EIO} or {probability: P, "
				 "errno: EIO}, got %s",
				 sc_cfg_is_null(n) ? "nothing" : sc_cfg_kind_word(n));
	for (uint32_t j = 0; j < n->npairs; j++) {
		const struct cfg_pair *p = &n->pairs[j];
		int k = sc_cfg_key_index(p->key, inject_keys);
		uint64_t v;

		if (k < 0)
			return unknown_nested_key(c, p, inject_keys, "inject");
		given[k] = p;
		if (k == IK_ERRNO) {
			err = parse_errno(c, p->val, &inj.errno_val);
		} else if (k == IK_EVERY) {
			err = sc_cfg_parse_scalar(c->d, p->val, &every, &inj.every);
		} else {
			double prob;

			err = sc_cfg_parse_scalar(c->d, p->val, &fraction, &v);
			memcpy(&prob, &v, sizeof(prob));
			inj.ppm = err ? 0 : (uint32_t)(prob * PPM_PER_UNIT + 0.5);
			if (!err && inj.ppm == 0)
				return sc_cfg_fail_node(c->d, p->val,
						 "%s is below one in a million (the smallest "
						 "probability is 0.000001; or use every: N)",
						 p->val->str);
		}
		if (err)
			return err;
	}
	if (given[IK_EVERY] && given[IK_PROBABILITY]) {
		const struct cfg_pair *later =
		    given[IK_EVERY] > given[IK_PROBABILITY] ? given[IK_EVERY] : given[IK_PROBABILITY];

		return sc_cfg_fail(c->d, &later->kloc, later->val->path,
				"every and probability are alternatives (keep one)");
	}
	if (!given[IK_EVERY] && !given[IK_PROBABILITY])
		return sc_cfg_fail_node(c->d, n,
				 "inject needs every: N (fail reads and writes N, 2N, ... of each "
				 "job) or probability: P (each with probability P)");
	pv->inject = inj;
	return 0;
}

static bool is_bool_text(const struct cfg_node *n)
{
	return n->kind == CFG_SCALAR &&
	       (strcmp(n->str, "true") == 0 || strcmp(n->str, "false") == 0);
}

/* Parses key k of pv's workload from n into pv. */
static int parse_phase_key(struct ctx *c, struct pv *pv, enum pkey k, const struct cfg_node *n)
{
	const struct cfg_keydef def = key_def(pv->workload, k);
	uint64_t *dst[PK_COUNT] = {
	    [PK_WORKLOAD] = &pv->workload,
	    [PK_RWMIXREAD] = &pv->rwmixread,
	    [PK_JOBS] = &pv->jobs,
	    [PK_SIZE] = &pv->size,
	    [PK_RUNTIME] = &pv->runtime,
	    [PK_IO_SIZE] = &pv->io_size,
	    [PK_RAMP] = &pv->ramp,
	    [PK_FSYNC] = &pv->fsync,
	    [PK_DIRECT] = &pv->direct,
	    [PK_ENGINE] = &pv->engine,
	    [PK_SEED] = &pv->seed,
	    [PK_STONEWALL] = &pv->stonewall,
	    [PK_RATE] = &pv->rate,
	    [PK_TP] = &pv->tp,
	    [PK_PP] = &pv->pp,
	    [PK_DP] = &pv->dp,
	    [PK_ZERO] = &pv->zero,
	    [PK_CHECKPOINTS] = &pv->checkpoints,
	    [PK_COMPUTE_BETWEEN] = &pv->compute_between,
	    [PK_BLOCK_SIZE] = &pv->block_size,
	    [PK_RESTORE] = &pv->restore,
	    [PK_RESTORE_SHIFT] = &pv->restore_shift,
	    [PK_FILES] = &pv->files,
	    [PK_FILE_SIZE] = &pv->file_size,
	    [PK_SAMPLE_SIZE] = &pv->sample_size,
	    [PK_BATCH] = &pv->batch,
	    [PK_COMPUTE_PER_BATCH] = &pv->compute_per_batch,
	    [PK_EPOCHS] = &pv->epochs,
	    [PK_PREFETCH] = &pv->prefetch,
	    [PK_VERIFY] = &pv->verify,
	    [PK_VERIFY_ONLY] = &pv->verify_only,
	    [PK_ON_ERROR] = &pv->on_error,
	    [PK_TIMEOUT] = &pv->timeout,
	};
	const char *in = n->path && strncmp(n->path, "phases.", 7) ? ", in phase " : "";
	const char *inname = *in ? pv->name : "";
	uint64_t v;
	int err;

	pv->src[k] = n;
	if (n->kind == CFG_SEQ && !sweeps(pv->workload))
		return sc_cfg_fail_node(c->d, n, "got a list, but %s phase is not swept (give one value%s)%s%s",
		    pv->workload == SC_WORKLOAD_CHECKPOINT ? "a checkpoint" : "an ingest",
		    pv->workload == SC_WORKLOAD_CHECKPOINT ? "; its cells are its checkpoints" : "",
		    in, inname);
	if (k == PK_FSYNC && pv->workload == SC_WORKLOAD_CHECKPOINT && n->kind == CFG_SCALAR &&
	    !sc_cfg_is_null(n) && !is_bool_text(n))
		return sc_cfg_fail_node(c->d, n,
				 "\"%s\" is not a boolean (a checkpoint fsyncs every file or none: "
				 "write true or false; fsync: N is for io and kvcache phases)%s%s",
				 n->str, in, inname);
	if (k == PK_FSYNC && pv->workload != SC_WORKLOAD_CHECKPOINT && is_bool_text(n))
		return sc_cfg_fail_node(c->d, n,
				 "\"%s\" is not a whole number (fsync: N fsyncs after every N "
				 "writes; true or false is for checkpoint phases)%s%s",
				 n->str, in, inname);
	switch (k) {
	case PK_RW:
		return sc_cfg_parse_sweep(c->d, n, &def, &pv->rw);
	case PK_BS:
		return sc_cfg_parse_sweep(c->d, n, &def, &pv->bs);
	case PK_IODEPTH:
		return sc_cfg_parse_sweep(c->d, n, &def, &pv->iodepth);
	case PK_NAME:
		err = sc_cfg_parse_scalar(c->d, n, &def, &v);
		if (!err)
			snprintf(pv->name, sizeof(pv->name), "%s", n->str);
		return err;
	case PK_MODEL:
		return parse_model(c, pv, n);
	case PK_INJECT:
		return parse_inject(c, pv, n);
	case PK_SCALE:
		err = sc_cfg_parse_scalar(c->d, n, &def, &v);
		if (!err)
			memcpy(&pv->scale, &v, sizeof(pv->scale));
		return err;
	default:
		return sc_cfg_parse_scalar(c->d, n, &def, dst[k]);
	}
}

/* Whether val is a value of key k in a phase of workload w, with nothing
 * reported. */
static bool key_fits(uint64_t w, enum pkey k, const struct cfg_node *val)
{
	struct cfg_doc quiet = {.file = ""};
	struct ctx q = {.d = &quiet};
	struct pv *scratch = calloc(1, sizeof(*scratch));
	bool fits;

	if (!scratch)
		return true; /* the real parse reports it, if anything */
	scratch->workload = w;
	scratch->bs.n = scratch->iodepth.n = 1;
	fits = parse_phase_key(&q, scratch, k, val) == 0;
	free(scratch);
	return fits;
}

int sc_cfg_phase_key_fits(const char *key, int workload, const struct cfg_node *val)
{
	int k = sc_cfg_key_index(key, sc_cfg_phase_keys);

	if (k < 0)
		return -1;
	if (workload < 0 || workload >= SC_WORKLOAD_COUNT)
		return 0;
	if (!takes((uint64_t)workload, (enum pkey)k))
		return -1;
	return key_fits((uint64_t)workload, (enum pkey)k, val) ? 1 : 0;
}

/* Reports an unknown key of section ("phase", "defaults", "target",
 * "top"); w is the phase's workload. */
static int unknown_key(struct ctx *c, const struct cfg_pair *p, const char *section, uint64_t w)
{
	const char *wkeys[PK_COUNT + 1];
	const char *const *known = strcmp(section, "target") == 0 ? sc_cfg_target_keys
				   : strcmp(section, "top") == 0  ? sc_cfg_top_keys
				   : strcmp(section, "phase") == 0
				       ? (workload_keys(w, wkeys), (const char *const *)wkeys)
				       : sc_cfg_phase_keys;
	const char *near = sc_cfg_nearest(p->key, known, (size_t)-1);
	const char *path = p->val->path;
	char list[512];

	if (near)
		return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (did you mean %s?)", near);
	if (strcmp(section, "target") == 0 && sc_cfg_key_in(p->key, sc_cfg_phase_keys))
		return sc_cfg_fail(c->d, &p->kloc, path,
				"unknown key (%s is a phase key; a target takes %s)", p->key,
				sc_cfg_join(list, sizeof(list), sc_cfg_target_keys));
	if (strcmp(section, "target") != 0 && sc_cfg_key_in(p->key, sc_cfg_target_keys))
		return sc_cfg_fail(c->d, &p->kloc, path,
				"unknown key (%s is a target key; set it under targets:)", p->key);
	if (strcmp(section, "top") == 0 && sc_cfg_key_in(p->key, sc_cfg_phase_keys))
		return sc_cfg_fail(
		    c->d, &p->kloc, path,
		    "unknown key (%s is a phase key; set it in a phase or under defaults:)",
		    p->key);
	if (strcmp(section, "top") == 0)
		return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (the config takes %s)",
				sc_cfg_join(list, sizeof(list), sc_cfg_top_keys));
	if (strcmp(section, "target") == 0)
		return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (a target takes %s)",
				sc_cfg_join(list, sizeof(list), sc_cfg_target_keys));
	if (strcmp(section, "defaults") == 0)
		return sc_cfg_fail(c->d, &p->kloc, path,
				"unknown key (no workload takes it; the phase keys are %s)",
				sc_cfg_join(list, sizeof(list), sc_cfg_phase_keys));
	return sc_cfg_fail(c->d, &p->kloc, path, "unknown key (a phase takes, for workload %s: %s)",
			sc_workload_name((enum sc_workload)w),
			sc_cfg_join(list, sizeof(list), known));
}

/* Reports key k of another workload in phase pv. */
static int wrong_workload(struct ctx *c, const struct cfg_pair *p, const struct pv *pv, enum pkey k)
{
	const char *wname = sc_workload_name((enum sc_workload)pv->workload);
	const char *from =
	    pv->src[PK_WORKLOAD] && !pv->own[PK_WORKLOAD] ? ", from defaults.workload" : "";
	char owners[96];

	sc_cfg_key_workloads(p->key, owners, sizeof(owners));
	for (size_t h = 0; h < sizeof(key_hints) / sizeof(key_hints[0]); h++)
		if (key_hints[h].w == pv->workload && key_hints[h].key == k)
			return sc_cfg_fail(c->d, &p->kloc, p->val->path,
					"not a key of workload %s%s (use %s here; %s is for "
					"workload %s)",
					wname, from, sc_cfg_phase_keys[key_hints[h].use], p->key,
					owners);
	return sc_cfg_fail(c->d, &p->kloc, p->val->path,
			"not a key of workload %s%s (%s is for workload %s)", wname, from, p->key,
			owners);
}

/* ---- targets ---- */

/* Probes t's path, or for a path that does not exist yet (a directory to
 * be created), its parent directory. */
static int probe_target(struct ctx *c, struct tgt *t, const struct cfg_node *pn)
{
	char *copy, *parent;
	int err = sc_target_probe(t->path, &t->info);

	if (err == 0) {
		t->probed = true;
		return 0;
	}
	if (err == -EINVAL)
		return sc_cfg_fail_node(c->d, pn, "%s is not a directory, regular file or block device",
				 t->path);
	if (err != -ENOENT)
		return sc_cfg_fail_node(c->d, pn, "cannot use %s (%s)", t->path, strerror(-err));
	copy = strdup(t->path);
	if (!copy)
		return -ENOMEM;
	/* dirname() of "a/b/" is "a": trailing slashes name the same dir. */
	parent = dirname(copy);
	err = sc_target_probe(parent, &t->info);
	if (err == 0 && t->info.kind != SC_TARGET_DIR)
		err =
		    sc_cfg_fail_node(c->d, pn, "%s does not exist, and %s is not a directory to create it in",
			      t->path, parent);
	else if (err == -ENOENT)
		err = sc_cfg_fail_node(c->d, pn,
				"%s does not exist, nor does its parent %s (create the directory, "
				"or fix the path)",
				t->path, parent);
	else if (err)
		err = sc_cfg_fail_node(c->d, pn, "%s does not exist, and its parent %s cannot be used (%s)",
				t->path, parent, strerror(-err));
	free(copy);
	if (err)
		return err;
	t->info.kind = SC_TARGET_DIR;
	t->probed = true;
	return 0;
}

static int parse_target(struct ctx *c, uint32_t i, struct tgt *t)
{
	const struct cfg_node *m = t->map;
	const struct cfg_node *src[TK_COUNT] = {0};
	uint64_t *dst[TK_COUNT] = {
	    [TK_CAPACITY] = &t->capacity,
	    [TK_KEEP] = &t->keep,
	    [TK_ALLOW_DESTROY] = &t->allow_destroy,
	    [TK_WIPE_SIGNATURES_OK] = &t->wipe_signatures_ok,
	};
	uint64_t unused;
	int err;

	if (m->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, m, "expected a mapping (path:, capacity:, ...), got %s",
				 sc_cfg_is_null(m) ? "nothing" : sc_cfg_kind_word(m));
	for (uint32_t j = 0; j < m->npairs; j++) {
		const struct cfg_pair *p = &m->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_target_keys);

		if (k < 0)
			return unknown_key(c, p, "target", SC_WORKLOAD_IO);
		err = sc_cfg_parse_scalar(c->d, p->val, &target_defs[k], dst[k] ? dst[k] : &unused);
		if (err)
			return err;
		src[k] = p->val;
	}
	if (!src[TK_PATH])
		return sc_cfg_fail_node(c->d, m,
				 "no path (every target needs path: DIRECTORY, FILE or DEVICE)");
	t->path = src[TK_PATH]->str;
	t->hosts = src[TK_HOSTS] ? src[TK_HOSTS]->str : NULL;
	for (uint32_t j = 0; j < i; j++) {
		const struct tgt *o = &c->tg[j];

		if (strcmp(o->path, t->path) == 0 &&
		    (o->hosts ? t->hosts && strcmp(o->hosts, t->hosts) == 0 : !t->hosts))
			return sc_cfg_fail_node(c->d, src[TK_PATH], "%s is already targets.%u", t->path, j);
	}
	if (t->hosts) {
		char why[256];

		if (sc_hostlist_check(t->hosts, why, sizeof(why)))
			return sc_cfg_fail_node(c->d, src[TK_HOSTS], "%s (write e.g. gpu[01-16], node*, a,b)",
					 why);
	}
	if (t->hosts) {
		/* Lives on other hosts: each rank there checks it.  Kind is a
		 * guess by name; capacity 0 means "all of it" (unknown here). */
		t->info.kind = strncmp(t->path, "/dev/", 5) == 0 ? SC_TARGET_BLOCK : SC_TARGET_DIR;
		return 0;
	}
	err = probe_target(c, t, src[TK_PATH]);
	if (err)
		return err;
	if (!src[TK_CAPACITY]) {
		t->capacity = t->info.avail_bytes;
	} else if (t->capacity > t->info.avail_bytes) {
		char a[32], b[32];

		if (t->info.kind == SC_TARGET_DIR)
			return sc_cfg_fail_node(c->d, src[TK_CAPACITY],
					 "%s is more than the %" PRIu64 " B (%s) free in %s",
					 src[TK_CAPACITY]->str, t->info.avail_bytes,
					 sc_fmt_bytes(b, sizeof(b), t->info.avail_bytes), t->path);
		return sc_cfg_fail_node(c->d, src[TK_CAPACITY], "%s is larger than the %s %s (%s)",
				 src[TK_CAPACITY]->str, sc_target_kind_name(t->info.kind), t->path,
				 sc_cfg_fmt_size(a, sizeof(a), t->info.size_bytes));
	}
	return 0;
}

static int parse_targets(struct ctx *c)
{
	const struct cfg_node *root = c->d->root;
	const struct cfg_pair *p = sc_cfg_map_pair(root, "targets");
	const struct cfg_node *ts = p ? p->val : NULL;
	int err;

	if (!ts)
		return sc_cfg_fail(
		    c->d, &root->loc, "targets",
		    "missing (list at least one target: targets: [{path: /mnt/nvme0}])");
	if (sc_cfg_is_null(ts) || (ts->kind == CFG_SEQ && !ts->nitems))
		return sc_cfg_fail_node(c->d, ts, "no targets (list at least one, e.g. - path: /mnt/nvme0)");
	if (ts->kind != CFG_SEQ)
		return sc_cfg_fail_node(c->d, ts, "expected a list of targets, got %s", sc_cfg_kind_word(ts));
	c->tg = calloc(ts->nitems, sizeof(*c->tg));
	if (!c->tg)
		return -ENOMEM;
	for (uint32_t i = 0; i < ts->nitems; i++) {
		c->tg[i].map = ts->items[i];
		err = parse_target(c, i, &c->tg[i]);
		if (err)
			return err;
		c->ntg++;
	}
	return 0;
}

/* ---- phases ---- */

static int parse_defaults(struct ctx *c)
{
	const struct cfg_node *dm = sc_cfg_map_get(c->d->root, "defaults");
	struct pv *scratch;
	int err = 0;

	if (!dm || sc_cfg_is_null(dm))
		return 0;
	if (dm->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, dm, "expected a mapping of phase keys, got %s",
				 sc_cfg_kind_word(dm));
	scratch = calloc(1, sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	for (uint32_t j = 0; !err && j < dm->npairs; j++) {
		const struct cfg_pair *p = &dm->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_phase_keys);
		int first = -1;
		bool fits = false;

		if (k < 0) {
			err = unknown_key(c, p, "defaults", SC_WORKLOAD_IO);
			break;
		}
		if (k == PK_NAME) {
			err =
			    sc_cfg_fail(c->d, &p->kloc, p->val->path,
				     "a name cannot be a default (give each phase its own name:)");
			break;
		}
		/* A default must be a value of the key in some workload; it
		 * reaches the phases where it is (fsync: 8 or true). */
		for (int w = 0; w < SC_WORKLOAD_COUNT && !fits; w++) {
			if (!takes((uint64_t)w, (enum pkey)k))
				continue;
			if (first < 0)
				first = w;
			fits = key_fits((uint64_t)w, (enum pkey)k, p->val);
		}
		if (fits)
			continue;
		memset(scratch, 0, sizeof(*scratch));
		scratch->workload = (uint64_t)first;
		scratch->bs.n = scratch->iodepth.n = 1;
		err = parse_phase_key(c, scratch, (enum pkey)k, p->val);
	}
	free(scratch);
	if (!err && sc_cfg_map_get(dm, "runtime") && sc_cfg_map_get(dm, "io_size"))
		err = sc_cfg_fail(c->d, &sc_cfg_map_pair(dm, "io_size")->kloc,
			       sc_cfg_map_get(dm, "io_size")->path,
			       "runtime and io_size are alternatives (keep one)");
	if (!err && sc_cfg_map_get(dm, "runtime") && sc_cfg_map_get(dm, "epochs"))
		err = sc_cfg_fail(c->d, &sc_cfg_map_pair(dm, "epochs")->kloc,
			       sc_cfg_map_get(dm, "epochs")->path,
			       "runtime and epochs are alternatives (keep one)");
	c->defaults = dm;
	return err;
}

static bool any_rw(const struct cfg_sweep *rw, bool (*pred)(enum sc_rw))
{
	for (uint32_t i = 0; i < rw->n; i++)
		if (pred((enum sc_rw)rw->v[i]))
			return true;
	return false;
}

static bool is_randrw(enum sc_rw rw)
{
	return rw == SC_RW_RANDRW;
}

static const char *rw_text(const struct pv *pv, char *buf, size_t len)
{
	buf[0] = '\0';
	for (uint32_t i = 0; i < pv->rw.n; i++) {
		strncat(buf, i ? ", " : "", len - strlen(buf) - 1);
		strncat(buf, sc_rw_name((enum sc_rw)pv->rw.v[i]), len - strlen(buf) - 1);
	}
	return buf;
}

/* The built-in defaults of a phase of pv->workload. */
static void builtin_defaults(struct pv *pv, uint32_t i)
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
	default:
		break;
	}
}

/* A timeout no longer than a timed phase's runtime + ramp would end
 * every run of it. */
static int check_timeout(struct ctx *c, const struct pv *pv)
{
	char t[32], planned[32];

	if (!pv->src[PK_TIMEOUT] || !pv->runtime || pv->timeout > pv->runtime + pv->ramp)
		return 0;
	return sc_cfg_fail_node(c->d, pv->src[PK_TIMEOUT],
			 "timeout %s is not longer than the phase's runtime + ramp (%s): the run "
			 "would end at it every time (leave it out: the default is runtime + ramp + "
			 "max(30 s, 10%%))",
			 sc_fmt_duration(t, sizeof(t), pv->timeout),
			 sc_fmt_duration(planned, sizeof(planned), pv->runtime + pv->ramp));
}

/* Checks of an io or kvcache phase that need no target. */
static int check_io_phase(struct ctx *c, struct pv *pv)
{
	const struct cfg_node *m = pv->map;
	char rwbuf[96];

	if (!pv->src[PK_RW] && pv->workload == SC_WORKLOAD_IO)
		return sc_cfg_fail_node(c->d, m, "no rw (one of read, write, randread, randwrite, randrw)");
	if (pv->own[PK_RUNTIME] && pv->own[PK_IO_SIZE])
		return sc_cfg_fail_node(c->d, pv->src[PK_IO_SIZE],
				 "runtime and io_size are alternatives (keep one: runtime for a "
				 "timed phase, io_size for a fixed amount)");
	if (pv->own[PK_RAMP] && !pv->src[PK_RUNTIME])
		return sc_cfg_fail_node(c->d, pv->src[PK_RAMP],
				 "ramp needs runtime (only timed phases ramp up)");
	if (pv->own[PK_RWMIXREAD] && !any_rw(&pv->rw, is_randrw))
		return sc_cfg_fail_node(c->d, pv->src[PK_RWMIXREAD],
				 "rwmixread only applies to rw: randrw (this phase is %s)",
				 rw_text(pv, rwbuf, sizeof(rwbuf)));
	if (pv->own[PK_FSYNC] && pv->fsync && !any_rw(&pv->rw, sc_rw_writes))
		return sc_cfg_fail_node(c->d, pv->src[PK_FSYNC],
				 "fsync needs a phase that writes (this phase is %s)",
				 rw_text(pv, rwbuf, sizeof(rwbuf)));
	if (!pv->src[PK_RUNTIME] && !pv->src[PK_IO_SIZE])
		pv->io_size = pv->size;
	if (pv->src[PK_RUNTIME])
		pv->io_size = 0;
	else
		pv->ramp = 0;
	{
		uint64_t cells = (uint64_t)pv->rw.n * pv->bs.n * pv->iodepth.n;

		if (cells > MAX_SWEEP_CELLS)
			return sc_cfg_fail_node(c->d, m, "the sweep has %" PRIu64 " cells (at most %u)",
					 cells, MAX_SWEEP_CELLS);
		pv->ncells = (uint32_t)cells;
	}
	return 0;
}

/* The model and the layout, each step reported at the key that broke
 * it: the model alone, then tp, pp, zero and (when given) dp. */
static int check_layout(struct ctx *c, uint32_t i, const struct pv *pv)
{
	static const enum pkey steps[] = {PK_MODEL, PK_TP, PK_PP, PK_ZERO, PK_DP};
	struct sc_ckpt_layout l = {.tp = 1, .pp = 1, .dp = 1, .zero_stage = 0};
	char why[256];

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		enum pkey k = steps[s];

		if (k == PK_TP)
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
			return fail_value(c, pv, i, pv->src[k], k, "%s", why);
	}
	return 0;
}

static int check_ckpt_phase(struct ctx *c, uint32_t i, struct pv *pv)
{
	char known[160];
	int err;

	if (!pv->src[PK_MODEL])
		return sc_cfg_fail_node(c->d, pv->map,
		    "no model (a checkpoint phase needs model: one of %s, or an inline "
		    "mapping {layers, hidden, ffn_hidden, heads, kv_heads, vocab, "
		    "dtype})",
		    sc_cfg_join(known, sizeof(known), sc_ckpt_model_names()));
	if (pv->own[PK_RESTORE_SHIFT] && !pv->restore)
		return sc_cfg_fail_node(c->d, pv->src[PK_RESTORE_SHIFT],
				 "restore_shift needs restore: true (it picks which node's "
				 "checkpoint each node reads back)");
	err = check_layout(c, i, pv);
	if (err)
		return err;
	pv->ncells = (uint32_t)pv->checkpoints * (pv->restore ? 2 : 1);
	return 0;
}

static int check_ingest_phase(struct ctx *c, uint32_t i, struct pv *pv)
{
	const struct cfg_node *ssn = pv->src[PK_SAMPLE_SIZE], *fsn = pv->src[PK_FILE_SIZE];
	char a1[32], a2[32];
	uint64_t total;

	if (pv->own[PK_RUNTIME] && pv->own[PK_EPOCHS])
		return sc_cfg_fail_node(c->d, pv->src[PK_EPOCHS],
				 "runtime and epochs are alternatives (keep one: runtime for a "
				 "timed phase, epochs for whole passes over the dataset)");
	if (pv->src[PK_RUNTIME])
		pv->epochs = 0;
	else
		pv->runtime = 0;
	if (pv->sample_size > pv->file_size) {
		if (ssn || !fsn)
			return fail_value(c, pv, i, ssn, PK_SAMPLE_SIZE,
					  "%s is larger than file_size %s",
					  sc_cfg_fmt_size(a1, sizeof(a1), pv->sample_size),
					  sc_cfg_fmt_size(a2, sizeof(a2), pv->file_size));
		return fail_value(c, pv, i, fsn, PK_FILE_SIZE, "%s is smaller than sample_size %s",
				  sc_cfg_fmt_size(a1, sizeof(a1), pv->file_size),
				  sc_cfg_fmt_size(a2, sizeof(a2), pv->sample_size));
	}
	if (pv->file_size % pv->sample_size) {
		if (fsn || !ssn)
			return fail_value(c, pv, i, fsn, PK_FILE_SIZE,
					  "%s is not a multiple of sample_size %s",
					  sc_cfg_fmt_size(a1, sizeof(a1), pv->file_size),
					  sc_cfg_fmt_size(a2, sizeof(a2), pv->sample_size));
		return fail_value(c, pv, i, ssn, PK_SAMPLE_SIZE,
				  "%s does not divide file_size %s (samples must tile the files)",
				  sc_cfg_fmt_size(a1, sizeof(a1), pv->sample_size),
				  sc_cfg_fmt_size(a2, sizeof(a2), pv->file_size));
	}
	if (__builtin_mul_overflow(pv->files, pv->file_size, &total))
		return fail_value(c, pv, i, pv->src[PK_FILES], PK_FILES,
				  "%" PRIu64 " files of %s are more than 2^64 bytes", pv->files,
				  sc_cfg_fmt_size(a1, sizeof(a1), pv->file_size));
	pv->ncells = 1;
	return 0;
}

static int parse_phase(struct ctx *c, uint32_t i, struct pv *pv)
{
	const struct cfg_node *m = pv->map;
	int err;

	snprintf(pv->name, sizeof(pv->name), "phase%u", i);
	pv->workload = SC_WORKLOAD_IO;
	if (m->kind != CFG_MAP)
		return sc_cfg_fail_node(c->d, m, "expected a mapping of phase keys (rw:, bs:, ...), got %s",
				 sc_cfg_is_null(m) ? "nothing" : sc_cfg_kind_word(m));

	/* The workload first: it decides which keys the phase takes and
	 * what they default to. */
	{
		const struct cfg_node *wn = sc_cfg_map_get(m, "workload");
		bool own = wn != NULL;

		if (!wn)
			wn = sc_cfg_map_get(c->defaults, "workload");
		if (wn) {
			err = parse_phase_key(c, pv, PK_WORKLOAD, wn);
			if (err)
				return err;
			pv->own[PK_WORKLOAD] = own;
		}
	}
	builtin_defaults(pv, i);
	for (uint32_t j = 0; j < m->npairs; j++) {
		const struct cfg_pair *p = &m->pairs[j];
		int k = sc_cfg_key_index(p->key, sc_cfg_phase_keys);

		if (k < 0)
			return unknown_key(c, p, "phase", pv->workload);
		if (k == PK_WORKLOAD)
			continue;
		if (!takes(pv->workload, (enum pkey)k))
			return wrong_workload(c, p, pv, (enum pkey)k);
		err = parse_phase_key(c, pv, (enum pkey)k, p->val);
		if (err)
			return err;
		pv->own[k] = true;
	}
	/* Defaults fill what the phase leaves out; a default the workload
	 * does not take, that is an alternative to what the phase chose
	 * (runtime vs io_size or epochs) or that does not apply to it (ramp
	 * without runtime, restore_shift without restore, fsync: true in an
	 * io phase) is left out. */
	for (int k = 0; k < PK_COUNT; k++) {
		const struct cfg_node *dn = sc_cfg_map_get(c->defaults, sc_cfg_phase_keys[k]);

		if (!dn || pv->own[k] || k == PK_NAME || k == PK_WORKLOAD ||
		    !takes(pv->workload, (enum pkey)k) ||
		    (k == PK_RUNTIME && (pv->own[PK_IO_SIZE] || pv->own[PK_EPOCHS])) ||
		    ((k == PK_IO_SIZE || k == PK_EPOCHS) && pv->own[PK_RUNTIME]) ||
		    (k == PK_RAMP && !pv->src[PK_RUNTIME]) ||
		    (k == PK_RESTORE_SHIFT && !pv->restore) ||
		    (k == PK_FSYNC && !key_fits(pv->workload, PK_FSYNC, dn)))
			continue;
		err = parse_phase_key(c, pv, (enum pkey)k, dn);
		if (err)
			return err;
	}
	switch (pv->workload) {
	case SC_WORKLOAD_CHECKPOINT:
		err = check_ckpt_phase(c, i, pv);
		break;
	case SC_WORKLOAD_INGEST:
		err = check_ingest_phase(c, i, pv);
		break;
	default:
		err = check_io_phase(c, pv);
		break;
	}
	return err ? err : check_timeout(c, pv);
}

static int parse_phases(struct ctx *c)
{
	const struct cfg_node *root = c->d->root;
	const struct cfg_node *ps = sc_cfg_map_get(root, "phases");
	int err;

	if (!ps)
		return sc_cfg_fail(c->d, &root->loc, "phases",
				"missing (list at least one phase: phases: [{rw: read}])");
	if (sc_cfg_is_null(ps) || (ps->kind == CFG_SEQ && !ps->nitems))
		return sc_cfg_fail_node(c->d, ps, "no phases (list at least one, e.g. - rw: read)");
	if (ps->kind != CFG_SEQ)
		return sc_cfg_fail_node(c->d, ps, "expected a list of phases, got %s", sc_cfg_kind_word(ps));
	c->pv = calloc(ps->nitems, sizeof(*c->pv));
	if (!c->pv)
		return -ENOMEM;
	for (uint32_t i = 0; i < ps->nitems; i++) {
		c->pv[i].map = ps->items[i];
		err = parse_phase(c, i, &c->pv[i]);
		if (err)
			return err;
		c->npv++;
	}
	for (uint32_t i = 0; i < c->npv; i++) {
		for (uint32_t j = 0; j < i; j++) {
			const struct pv *a = &c->pv[j], *b = &c->pv[i];

			if (strcmp(a->name, b->name))
				continue;
			if (b->src[PK_NAME])
				return sc_cfg_fail_node(c->d, b->src[PK_NAME],
						 "\"%s\" is already the name of phases.%u", b->name,
						 j);
			return sc_cfg_fail_node(c->d, a->src[PK_NAME],
					 "\"%s\" is the default name of phases.%u (rename one)",
					 a->name, i);
		}
	}
	return 0;
}

/* The unit of I/O (bs, block_size, sample_size: key k, from node n) is a
 * multiple of every probed target's alignment when the phase is direct. */
static int check_align(struct ctx *c, uint32_t i, const struct pv *pv, const struct cfg_node *n,
		       enum pkey k, uint64_t unit)
{
	char a1[32], a2[32];

	for (uint32_t t = 0; pv->direct && t < c->ntg; t++) {
		const struct tgt *tg = &c->tg[t];

		if (!tg->probed || unit % tg->info.align_bytes == 0)
			continue;
		return fail_value(
		    c, pv, i, n, k,
		    "%s is not a multiple of the %s block size of targets.%u (%s), "
		    "which direct: true needs (use a multiple of %s, or direct: false)",
		    sc_cfg_fmt_size(a1, sizeof(a1), unit),
		    sc_cfg_fmt_size(a2, sizeof(a2), tg->info.align_bytes), t, tg->path, a2);
	}
	return 0;
}

/* A phase that writes (what: "randwrite", "a checkpoint"; reported at n
 * or key k) may not overwrite a file or block target without
 * allow_destroy, nor write to a mounted block device. */
static int check_writable(struct ctx *c, uint32_t i, const struct pv *pv, const struct cfg_node *n,
			  enum pkey k, const char *what)
{
	for (uint32_t t = 0; t < c->ntg; t++) {
		const struct tgt *tg = &c->tg[t];

		if (!tg->probed || tg->info.kind == SC_TARGET_DIR)
			continue;
		if (!tg->allow_destroy)
			return fail_value(
			    c, pv, i, n, k,
			    "%s would overwrite the data of the %s %s (targets.%u) (set "
			    "allow_destroy: true on that target and add --allow-destroy to the "
			    "command line, if its data may go)",
			    what, sc_target_kind_name(tg->info.kind), tg->path, t);
		if (tg->info.mounted)
			return fail_value(c, pv, i, n, k,
					  "%s would write to %s (targets.%u), which is mounted, "
					  "itself or a partition (unmount it first)",
					  what, tg->path, t);
	}
	return 0;
}

/* The checks of one io cell (rw, bs) against sizes and every target
 * probed here. */
static int check_cell(struct ctx *c, uint32_t i, const struct pv *pv, uint32_t r, uint32_t b)
{
	enum sc_rw rw = (enum sc_rw)pv->rw.v[r];
	uint64_t bs = pv->bs.v[b];
	const struct cfg_node *bsn = pv->bs.list ? pv->bs.node[b] : pv->src[PK_BS];
	const struct cfg_node *rwn = pv->rw.list ? pv->rw.node[r] : pv->src[PK_RW];
	char a1[32], a2[32];
	int err;

	if (bs > pv->size) {
		if (bsn || !pv->src[PK_SIZE])
			return fail_value(c, pv, i, bsn, PK_BS, "%s is larger than size %s",
					  sc_cfg_fmt_size(a1, sizeof(a1), bs),
					  sc_cfg_fmt_size(a2, sizeof(a2), pv->size));
		return fail_value(c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is smaller than bs %s",
				  sc_cfg_fmt_size(a1, sizeof(a1), pv->size),
				  sc_cfg_fmt_size(a2, sizeof(a2), bs));
	}
	if (pv->size % bs)
		return fail_value(
		    c, pv, i, pv->src[PK_SIZE], PK_SIZE, "%s is not a multiple of bs %s",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->size), sc_cfg_fmt_size(a2, sizeof(a2), bs));
	if (pv->src[PK_IO_SIZE] && pv->io_size % bs)
		return fail_value(
		    c, pv, i, pv->src[PK_IO_SIZE], PK_IO_SIZE, "%s is not a multiple of bs %s",
		    sc_cfg_fmt_size(a1, sizeof(a1), pv->io_size), sc_cfg_fmt_size(a2, sizeof(a2), bs));
	err = check_align(c, i, pv, bsn, PK_BS, bs);
	if (!err && sc_rw_writes(rw))
		err = check_writable(c, i, pv, rwn, PK_RW, sc_rw_name(rw));
	return err;
}

/* The checks of config phase i against the targets probed here. */
static int check_phase_targets(struct ctx *c, uint32_t i, const struct pv *pv)
{
	int err = 0;

	switch (pv->workload) {
	case SC_WORKLOAD_CHECKPOINT:
		err = check_align(c, i, pv, pv->src[PK_BLOCK_SIZE], PK_BLOCK_SIZE, pv->block_size);
		if (!err)
			err = check_writable(c, i, pv, pv->src[PK_WORKLOAD], PK_WORKLOAD,
					     "a checkpoint");
		return err;
	case SC_WORKLOAD_INGEST:
		return check_align(c, i, pv, pv->src[PK_SAMPLE_SIZE], PK_SAMPLE_SIZE,
				   pv->sample_size);
	default:
		for (uint32_t r = 0; !err && r < pv->rw.n; r++)
			for (uint32_t b = 0; !err && b < pv->bs.n; b++)
				err = check_cell(c, i, pv, r, b);
		return err;
	}
}

static char *cell_name(const struct pv *pv, uint32_t r, uint32_t b, uint32_t q)
{
	char buf[CFG_MAX_NAME_LEN + 96], a[32];
	size_t len;

	snprintf(buf, sizeof(buf), "%s", pv->name);
	if (!pv->rw.list && !pv->bs.list && !pv->iodepth.list)
		return strdup(buf);
	strcat(buf, "[");
	if (pv->rw.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "rw=%s,",
			 sc_rw_name((enum sc_rw)pv->rw.v[r]));
	}
	if (pv->bs.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "bs=%s,",
			 sc_cfg_fmt_size(a, sizeof(a), pv->bs.v[b]));
	}
	if (pv->iodepth.list) {
		len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "iodepth=%" PRIu64 ",", pv->iodepth.v[q]);
	}
	buf[strlen(buf) - 1] = ']';
	return strdup(buf);
}

/* What every cell of config phase i has in common. */
static int fill_common(const struct pv *pv, uint32_t i, uint32_t cell, char *name,
		       struct sc_phase *ph)
{
	ph->name = name;
	ph->group = strdup(pv->name);
	if (!ph->name || !ph->group)
		return -ENOMEM;
	ph->config_index = i;
	ph->cell = cell;
	ph->ncells = pv->ncells;
	ph->workload = (enum sc_workload)pv->workload;
	ph->stonewall = (enum sc_stonewall)pv->stonewall;
	ph->io.jobs = (uint32_t)pv->jobs;
	ph->io.iodepth = (uint32_t)pv->iodepth.v[0];
	ph->io.direct = pv->direct != 0;
	ph->io.engine = (enum sc_engine_kind)pv->engine;
	ph->io.seed = pv->seed;
	ph->io.on_error = (enum sc_on_error)pv->on_error;
	ph->io.timeout_ns = pv->timeout;
	ph->io.inject = pv->inject;
	return 0;
}

/* One io or kvcache plan phase: cell (rw index r, bs index b, iodepth
 * index q) of config phase i. */
static int fill_cell(const struct pv *pv, uint32_t i, uint32_t cell, uint32_t r, uint32_t b,
		     uint32_t q, struct sc_phase *ph)
{
	enum sc_rw rw = (enum sc_rw)pv->rw.v[r];
	int err = fill_common(pv, i, cell, cell_name(pv, r, b, q), ph);

	if (err)
		return err;
	ph->io.rw = rw;
	/* The share of reads: what rwmixread says for randrw, else implied. */
	if (rw == SC_RW_RANDRW)
		ph->io.rwmixread_pct = (uint32_t)pv->rwmixread;
	else
		ph->io.rwmixread_pct = sc_rw_reads(rw) ? 100 : 0;
	ph->io.bs_bytes = pv->bs.v[b];
	ph->io.iodepth = (uint32_t)pv->iodepth.v[q];
	ph->io.size_bytes = pv->size;
	ph->io.runtime_ns = pv->runtime;
	ph->io.io_bytes = pv->io_size;
	ph->io.ramp_ns = pv->ramp;
	ph->io.fsync_every = sc_rw_writes(rw) ? (uint32_t)pv->fsync : 0;
	ph->io.rate_iops = pv->rate;
	ph->io.verify = (enum sc_verify)pv->verify;
	ph->io.verify_only = pv->verify_only != 0;
	return 0;
}

/* Cell `cell` of checkpoint phase i: checkpoints 1..N written, then (with
 * restore) read back 1..N.  The file list decides the bytes. */
static int fill_ckpt_cell(const struct pv *pv, uint32_t i, uint32_t cell, struct sc_phase *ph)
{
	uint32_t n = (uint32_t)pv->checkpoints, k = cell % n + 1;
	bool restore = cell >= n;
	char buf[CFG_MAX_NAME_LEN + 32];
	int err;

	snprintf(buf, sizeof(buf), "%s[%s=%u]", pv->name, restore ? "restore" : "ckpt", k);
	err = fill_common(pv, i, cell, strdup(buf), ph);
	if (err)
		return err;
	ph->io.rw = restore ? SC_RW_READ : SC_RW_WRITE;
	ph->io.rwmixread_pct = restore ? 100 : 0;
	ph->io.bs_bytes = pv->block_size;
	ph->ckpt.model = pv->model;
	ph->ckpt.layout.tp = (uint32_t)pv->tp;
	ph->ckpt.layout.pp = (uint32_t)pv->pp;
	ph->ckpt.layout.dp = (uint32_t)pv->dp;
	ph->ckpt.layout.zero_stage = (uint32_t)pv->zero;
	ph->ckpt.checkpoints = n;
	ph->ckpt.index = k;
	ph->ckpt.restore = restore;
	ph->ckpt.restore_shift = restore ? (uint32_t)pv->restore_shift : 0;
	ph->ckpt.compute_before_ns = !restore && k >= 2 ? pv->compute_between : 0;
	ph->ckpt.scale = pv->scale;
	ph->ckpt.fsync = !restore && pv->fsync;
	return 0;
}

static int fill_ingest(const struct pv *pv, uint32_t i, struct sc_phase *ph)
{
	int err = fill_common(pv, i, 0, strdup(pv->name), ph);

	if (err)
		return err;
	ph->io.rw = SC_RW_RANDREAD;
	ph->io.rwmixread_pct = 100;
	ph->io.bs_bytes = pv->sample_size;
	ph->io.runtime_ns = pv->runtime;
	ph->ingest.files = (uint32_t)pv->files;
	ph->ingest.file_bytes = pv->file_size;
	ph->ingest.sample_bytes = pv->sample_size;
	ph->ingest.batch = (uint32_t)pv->batch;
	ph->ingest.compute_per_batch_ns = pv->compute_per_batch;
	ph->ingest.epochs = (uint32_t)pv->epochs;
	ph->ingest.prefetch = (uint32_t)pv->prefetch;
	return 0;
}

static bool io_like(const struct pv *pv)
{
	return pv->workload == SC_WORKLOAD_IO || pv->workload == SC_WORKLOAD_KVCACHE;
}

/* verify and verify_only (io and kvcache phases).  Every block carries a
 * header, so bs must hold one.  A phase that reads with verify checks the
 * blocks this run wrote or laid out before it: every earlier io phase must
 * verify too, with the same single bs, and on a file or block target (where
 * nothing is laid out) one of them must write.  verify_only phases re-read
 * a kept run (--run-id names it), only read, and make up the whole run. */
static int check_verify(struct ctx *c)
{
	char a1[32], a2[32], rwbuf[96];

	for (uint32_t i = 0; i < c->npv; i++) {
		struct pv *pv = &c->pv[i];
		bool wrote = false;

		if (!io_like(pv))
			continue;
		if (pv->verify_only) {
			if (pv->src[PK_VERIFY] && pv->verify == SC_VERIFY_NONE)
				return fail_value(c, pv, i, pv->src[PK_VERIFY], PK_VERIFY,
						  "none contradicts verify_only: true, which checks "
						  "every block it reads (leave verify out)");
			pv->verify = SC_VERIFY_CRC32C;
			if (any_rw(&pv->rw, sc_rw_writes))
				return fail_value(c, pv, i, pv->src[PK_VERIFY_ONLY], PK_VERIFY_ONLY,
						  "verify_only re-reads a kept run and writes nothing: "
						  "rw must be read or randread (this phase is %s)",
						  rw_text(pv, rwbuf, sizeof(rwbuf)));
			for (uint32_t j = 0; j < c->npv; j++)
				if (!c->pv[j].verify_only || !io_like(&c->pv[j]))
					return fail_value(
					    c, pv, i, pv->src[PK_VERIFY_ONLY], PK_VERIFY_ONLY,
					    "a run that re-reads a kept run does only that, but "
					    "phases.%u (%s) is not verify_only (run it on its own)",
					    j, c->pv[j].name);
		}
		if (pv->verify == SC_VERIFY_NONE)
			continue;
		for (uint32_t b = 0; b < pv->bs.n; b++)
			if (pv->bs.v[b] < SC_VERIFY_HEADER_BYTES)
				return fail_value(
				    c, pv, i, pv->bs.list ? pv->bs.node[b] : pv->src[PK_BS], PK_BS,
				    "%s is smaller than the %u B header that verify: crc32c puts in "
				    "every block (use a bs of 512B or more)",
				    sc_cfg_fmt_size(a1, sizeof(a1), pv->bs.v[b]), SC_VERIFY_HEADER_BYTES);
		if (!sc_engine_uses_files((enum sc_engine_kind)pv->engine) &&
		    any_rw(&pv->rw, sc_rw_reads))
			return fail_value(c, pv, i, pv->src[PK_ENGINE], PK_ENGINE,
					  "the null engine stores nothing, so reads have nothing to "
					  "verify (verify null-engine phases only with rw: write or "
					  "randwrite, to measure what filling blocks costs)");
		if (pv->verify_only || !any_rw(&pv->rw, sc_rw_reads))
			continue;
		if (pv->bs.n > 1)
			return fail_value(c, pv, i, pv->src[PK_BS], PK_BS,
					  "a phase that reads with verify: crc32c cannot sweep bs: "
					  "blocks are checked at the bs they were written with");
		for (uint32_t j = 0; j < i; j++) {
			const struct pv *e = &c->pv[j];

			if (!io_like(e) || !sc_engine_uses_files((enum sc_engine_kind)e->engine))
				continue;
			if (e->verify == SC_VERIFY_NONE)
				return fail_value(
				    c, pv, i, pv->src[PK_VERIFY], PK_VERIFY,
				    "phase %s reads with verify: crc32c what phases.%u (%s) wrote or "
				    "laid out without verify (set verify: crc32c on every io phase, "
				    "e.g. in defaults)",
				    pv->name, j, e->name);
			if (e->bs.n != 1 || e->bs.v[0] != pv->bs.v[0])
				return fail_value(
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
				return fail_value(
				    c, pv, i, pv->src[PK_VERIFY], PK_VERIFY,
				    "phase %s reads with verify, but on the %s %s (targets.%u) no "
				    "earlier phase wrote verify blocks (add one with rw: write and "
				    "verify: crc32c, or re-read a kept run with verify_only: true)",
				    pv->name, sc_target_kind_name(c->tg[t].info.kind), c->tg[t].path,
				    t);
	}
	return 0;
}

static int build_plan(struct ctx *c, const char *path, struct sc_plan *plan)
{
	uint64_t ncells = 0;
	uint32_t at = 0;

	plan->config_path = strdup(path);
	plan->targets = calloc(c->ntg, sizeof(*plan->targets));
	if (!plan->config_path || !plan->targets)
		return -ENOMEM;
	for (uint32_t t = 0; t < c->ntg; t++) {
		struct sc_target_spec *ts = &plan->targets[t];
		const struct tgt *tg = &c->tg[t];

		plan->ntargets++;
		ts->path = strdup(tg->path);
		ts->hosts = tg->hosts ? strdup(tg->hosts) : NULL;
		if (!ts->path || (tg->hosts && !ts->hosts))
			return -ENOMEM;
		ts->kind = tg->info.kind;
		ts->capacity_bytes = tg->capacity;
		ts->keep = tg->keep;
		ts->allow_destroy = tg->allow_destroy;
		ts->wipe_signatures_ok = tg->wipe_signatures_ok;
	}
	for (uint32_t i = 0; i < c->npv; i++)
		ncells += c->pv[i].ncells;
	plan->phases = calloc(ncells, sizeof(*plan->phases));
	if (!plan->phases)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->npv; i++) {
		const struct pv *pv = &c->pv[i];

		for (uint32_t cell = 0; cell < pv->ncells; cell++) {
			struct sc_phase *ph = &plan->phases[at++];
			int err;

			plan->nphases++;
			if (pv->workload == SC_WORKLOAD_CHECKPOINT) {
				err = fill_ckpt_cell(pv, i, cell, ph);
			} else if (pv->workload == SC_WORKLOAD_INGEST) {
				err = fill_ingest(pv, i, ph);
			} else {
				/* Cartesian product: rw, then bs, then iodepth
				 * varying fastest. */
				uint32_t q = cell % pv->iodepth.n;
				uint32_t b = (cell / pv->iodepth.n) % pv->bs.n;
				uint32_t r = cell / (pv->iodepth.n * pv->bs.n);

				err = fill_cell(pv, i, cell, r, b, q, ph);
			}
			if (err)
				return err;
		}
	}
	return 0;
}

/* ---- limits: what one rank may be asked to hold and to do ---- */

/* Default I/O buffer budget per rank: 4 GiB, or a quarter of this host's
 * memory when that is less. */
#define DEFAULT_MEM_BUDGET_BYTES (4 * GIB)
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
static int parse_mem_budget(struct ctx *c)
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
 * I/O buffers, jobs x iodepth x the unit of I/O (bs, block_size or
 * sample_size; the largest cell of a sweep), and for a timed phase its
 * per-second series, (jobs + 1) x the seconds x 48 B.  Ingest's prefetch
 * holds no buffers of its own: it counts batches ahead, read through the
 * same iodepth slots. */
static int check_mem_budget(struct ctx *c, uint32_t i, const struct pv *pv)
{
	enum pkey uk = pv->workload == SC_WORKLOAD_CHECKPOINT ? PK_BLOCK_SIZE
		       : pv->workload == SC_WORKLOAD_INGEST   ? PK_SAMPLE_SIZE
							      : PK_BS;
	uint64_t secs = pv->runtime ? pv->runtime / SC_NS_PER_S + 2 : 0;
	uint64_t series = (pv->jobs + 1) * secs * sizeof(struct sc_second);
	uint32_t qi = 0, bi = 0;
	uint64_t unit, bufs, total;
	const struct cfg_node *n;
	char a[32], b[32], s[32], m[32], what[256] = "", todo[96];
	bool over;

	for (uint32_t q = 1; q < pv->iodepth.n; q++)
		qi = pv->iodepth.v[q] > pv->iodepth.v[qi] ? q : qi;
	for (uint32_t k = 1; k < pv->bs.n; k++)
		bi = pv->bs.v[k] > pv->bs.v[bi] ? k : bi;
	unit = uk == PK_BLOCK_SIZE ? pv->block_size : uk == PK_SAMPLE_SIZE ? pv->sample_size
									  : pv->bs.v[bi];
	over = __builtin_mul_overflow(pv->jobs, pv->iodepth.v[qi], &bufs) ||
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
		snprintf(todo, sizeof(todo), "lower jobs, iodepth or %s", sc_cfg_phase_keys[uk]);
	}
	return fail_value(c, pv, i, n, n == pv->src[PK_RUNTIME] && n ? PK_RUNTIME : PK_IODEPTH,
			  "jobs %" PRIu64 " x iodepth %" PRIu64 " x %s %s = %s of I/O buffers%s "
			  "per rank, more than %s %s%s (%s, or %s memory_per_rank)",
			  pv->jobs, pv->iodepth.v[qi], sc_cfg_phase_keys[uk],
			  sc_cfg_fmt_size(a, sizeof(a), unit), b, what,
			  c->mem_node ? "memory_per_rank" : "the default memory budget of", m,
			  c->mem_node ? "" : " per rank", todo, c->mem_node ? "raise" : "set");
}

/* An io or kvcache phase's bytes per rank (jobs x size, jobs x io_size)
 * fit in 64 bits, and its ramp is shorter than its runtime. */
static int check_io_limits(struct ctx *c, uint32_t i, const struct pv *pv)
{
	static const enum pkey sized[] = {PK_SIZE, PK_IO_SIZE};
	char a[32], b[32];
	uint64_t v;

	for (size_t s = 0; s < sizeof(sized) / sizeof(sized[0]); s++) {
		uint64_t bytes = sized[s] == PK_SIZE ? pv->size : pv->io_size;

		if (!__builtin_mul_overflow(bytes, pv->jobs, &v))
			continue;
		return fail_value(c, pv, i, pv->src[sized[s]], sized[s],
				  "jobs %" PRIu64 " x %s %s is more than 2^64 bytes per rank "
				  "(lower %s or jobs)",
				  pv->jobs, sc_cfg_phase_keys[sized[s]],
				  sc_cfg_fmt_size(a, sizeof(a), bytes), sc_cfg_phase_keys[sized[s]]);
	}
	/* The ramp runs first, unmeasured: one as long as the measurement or
	 * longer is a mix-up (warm up with a phase of its own instead). */
	if (pv->runtime && pv->ramp >= pv->runtime)
		return fail_value(c, pv, i, pv->src[PK_RAMP], PK_RAMP,
				  "ramp %s is not shorter than runtime %s (the ramp runs "
				  "before the measured runtime: shorten it, or precondition in "
				  "a phase of its own)",
				  sc_fmt_duration(a, sizeof(a), pv->ramp),
				  sc_fmt_duration(b, sizeof(b), pv->runtime));
	return 0;
}

/* What config phase i asks of one rank, within bounds. */
static int check_phase_limits(struct ctx *c, uint32_t i, const struct pv *pv)
{
	int err = check_mem_budget(c, i, pv);

	if (!err && sweeps(pv->workload))
		err = check_io_limits(c, i, pv);
	return err;
}

static int check_root(struct ctx *c)
{
	const struct cfg_node *root = c->d->root;

	for (uint32_t j = 0; j < root->npairs; j++)
		if (!sc_cfg_key_in(root->pairs[j].key, sc_cfg_top_keys))
			return unknown_key(c, &root->pairs[j], "top", SC_WORKLOAD_IO);
	return 0;
}

static int load_plan(struct sc_config *cfg, const char *path)
{
	struct ctx c = {.d = &cfg->doc};
	int err;

	err = check_root(&c);
	if (!err)
		err = parse_mem_budget(&c);
	if (!err)
		err = parse_targets(&c);
	if (!err)
		err = parse_defaults(&c);
	if (!err)
		err = parse_phases(&c);
	for (uint32_t i = 0; !err && i < c.npv; i++)
		err = check_phase_limits(&c, i, &c.pv[i]);
	for (uint32_t i = 0; !err && i < c.npv; i++)
		err = check_phase_targets(&c, i, &c.pv[i]);
	if (!err)
		err = check_verify(&c);
	if (!err)
		err = build_plan(&c, path, &cfg->plan);
	free(c.tg);
	free(c.pv);
	return err;
}

int sc_config_load(struct sc_config **out, const char *path, const char *const *sets,
		   uint32_t nsets, char *err, size_t errlen)
{
	struct sc_config *cfg = calloc(1, sizeof(*cfg));
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (!cfg || !(cfg->doc.file = strdup(path))) {
		free(cfg);
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	cfg->doc.err = err;
	cfg->doc.errlen = err ? errlen : 0;
	ret = sc_cfg_doc_load(&cfg->doc, path);
	if (!ret)
		ret = sc_cfg_doc_apply_sets(&cfg->doc, sets, nsets);
	if (!ret)
		ret = sc_cfg_doc_expand(&cfg->doc);
	if (!ret)
		ret = load_plan(cfg, path);
	if (ret == -ENOMEM && err && errlen && !cfg->doc.failed)
		snprintf(err, errlen, "%s: out of memory", path);
	cfg->doc.err = NULL;
	cfg->doc.errlen = 0;
	if (ret) {
		sc_config_destroy(cfg);
		return ret;
	}
	*out = cfg;
	return 0;
}

const struct sc_plan *sc_config_plan(const struct sc_config *cfg)
{
	return &cfg->plan;
}

void sc_config_take_plan(struct sc_config *cfg, struct sc_plan *out)
{
	*out = cfg->plan;
	memset(&cfg->plan, 0, sizeof(cfg->plan));
}

const char *sc_config_where(const struct sc_config *cfg, const char *keypath, char *buf, size_t len)
{
	const struct cfg_doc *d = &cfg->doc;
	const struct cfg_node *n, *ps = sc_cfg_map_get(d->root, "phases");
	char norm[512], *dot;
	size_t o = 0;

	/* "phases[2].bs" is the same path as "phases.2.bs". */
	for (const char *p = keypath ? keypath : ""; *p && o + 1 < sizeof(norm); p++) {
		if (*p == ']')
			continue;
		norm[o++] = *p == '[' ? '.' : *p;
	}
	norm[o] = '\0';
	n = sc_cfg_doc_find(d, norm, false);
	dot = strrchr(norm, '.');
	if (!n && dot && ps && strncmp(norm, "phases.", 7) == 0) {
		/* A phase key the phase does not set comes from defaults. */
		const struct cfg_node *ph;

		*dot = '\0';
		ph = sc_cfg_doc_find(d, norm, false);
		for (uint32_t i = 0; ph && i < ps->nitems; i++)
			if (ps->items[i] == ph)
				n = sc_cfg_map_get(sc_cfg_map_get(d->root, "defaults"), dot + 1);
		*dot = '.';
	}
	if (!n)
		n = sc_cfg_doc_find(d, norm, true);
	if (!n || n == d->root)
		snprintf(buf, len, "%s", d->file);
	else if (n->loc.set)
		snprintf(buf, len, "--set %s", n->loc.set);
	else
		snprintf(buf, len, "%s:%u:%u", d->file, n->loc.line + 1, n->loc.col + 1);
	return buf;
}

void sc_config_destroy(struct sc_config *cfg)
{
	if (!cfg)
		return;
	sc_plan_exit(&cfg->plan);
	sc_cfg_doc_exit(&cfg->doc);
	free(cfg);
}
