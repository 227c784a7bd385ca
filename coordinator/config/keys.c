/* keys.c -- the config schema's keys: each key's type and range, the
 * workloads that take it, and what a key unknown or out of place is told.
 *
 * The document under the schema is yaml.c and tree.c, --set and ${VAR}
 * are set.c, typed values value.c.  The schema (read by phases.c,
 * defaults.c, nested.c and targets.c, checked by rules.c, targets.c and
 * limits.c, built into the plan by build.c):
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
 *                    never taken from --set nor a ${VAR} (nor is
 *                    wipe_signatures_ok); on a target that says it, path and
 *                    hosts are not either (they decide what it destroys)
 *     hosts          non-empty text; such a target is not probed here (kind
 *                    guessed: /dev/... = block, else dir; capacity 0 = unknown);
 *                    each rank checks it on its own host, destroy guard too
 *     wipe_signatures_ok bool, default false; a block device that carries a
 *                    filesystem, RAID, LVM or partition-table signature is
 *                    written only with it (besides both allow_destroy opt-ins)
 *     throttle       bandwidth >= 1 B/s ("20MB/s", a size with "/s" optional),
 *                    default none: each rank on the target is a drive of
 *                    this many bytes per second (its jobs share it), slow
 *                    in latency too: an I/O queues behind those submitted
 *                    before it and completes no earlier than its bytes at
 *                    that rate after them, so at iodepth Q an I/O of bs
 *                    takes about Q x bs / rate (Little's law); with engine
 *                    emulated, at the later of that and the drive model's
 *                    completion (worker/pace.h; rehearsing an acceptance
 *                    test, emulating a slow drive)
 *   memory_per_rank: (optional) size >= 1, the memory one rank may
 *     allocate in any phase: its I/O buffers, jobs x iodepth x the unit of
 *     I/O (bs, block_size or sample_size; the largest cell of a sweep), and
 *     in a timed phase its per-second series, (jobs + 1) x seconds x 56 B.
 *     Default: 4GiB, or a quarter of the memory of the host that checks the
 *     config when that is less.  Ranks of one node each hold their own.
 *   model: (optional mapping) the cluster model run at the end of the run
 *     (see `ssdcluster model --help`): nodes, gpus_per_node,
 *     drives_per_node, node_mtbf, restart, overhead_target, dwpd,
 *     warranty, drive_capacity, max_drives_per_node, model, tp, pp, zero,
 *     scale, seed, trials; each checked by coordinator/model/params.c; a
 *     list is joined by commas (nodes: [8, 64]).  Needs a checkpoint or
 *     ingest phase, unless it holds only dwpd, warranty and
 *     drive_capacity: the rating of the run's drive endurance figures
 *     (coordinator/model/endurance.h), which use them in any run.
 *   outliers: (optional mapping) k: a number in (0, 100], default 3.5 (median
 *     absolute deviations from the peers' median that flag a drive or node);
 *     mad_floor: a share in (0, 100%), default 5% (the least MAD, as a share
 *     of the median).  See coordinator/analysis/outliers.h.
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
 *     workload   io (default) | kvcache | checkpoint | ingest | fill | idle
 *     jobs       1..1024, threads per rank (default per workload)
 *     iodepth    1..16384 (default per workload)
 *     direct     bool (default per workload); when true, the unit of I/O (bs,
 *                block_size, sample_size) must be a multiple of every probed
 *                target's alignment
 *     engine     io_uring (default) | psync | null | emulated (no files:
 *                each I/O is delayed by the drive model `emulate`)
 *     sqpoll     bool, default false: IORING_SETUP_SQPOLL
 *     sqpoll_cpu 0..8191, only with sqpoll: true: its thread's CPU
 *     hipri      bool, default false: polled completions; not with direct:
 *                false
 *     passthrough bool, default false: NVMe commands on the /dev/ngXnY
 *                of a block-device target that is an NVMe namespace
 *                These three need engine io_uring; a rank whose kernel or
 *                target lacks one runs without it and says why
 *                (worker/io_opts.h), never failing the phase
 *     seed       0..2^64-1, default 1 + the phase's index
 *     cpus       a CPU list in the kernel's cpulist syntax ("0-3,8": CPUs and
 *                ranges joined by commas, each CPU below 1024 and listed
 *                once), default none: every job thread of each rank is
 *                pinned to the set (worker/placement.h); CPUs a rank may not
 *                use (absent, or outside its mpirun binding) are left out
 *                and reported unavailable, never an error.  The list is the
 *                same for every rank: ranks sharing a node share it
 *     numa       none (default) | drive: job threads on the CPUs of the NUMA
 *                node of the rank's target's drive (within cpus, if given),
 *                their buffers in its memory; unavailable (reported, the run
 *                goes on) where the drive has no node or the machine one
 *     stonewall  all_done (default: every rank completes its work) |
 *                first_done (every rank stops when the first one is done)
 *     on_error   stop-phase (default) | continue | abort: what a rank does
 *                when an I/O fails (stop its phase, the run ending after it;
 *                count and go on; stop every rank and the run at once); a
 *                failed I/O fails the run (exit 1) whichever
 *     timeout    duration, default: the planned duration plus a grace
 *                period (coordinator/deadline.h); a rank that has not
 *                finished by then, counted from the phase's common start,
 *                ends the run (exit 4); with runtime, longer than
 *                runtime + ramp
 *     inject     tests: a mapping {every: N, errno: E} (reads and writes N,
 *                2N, ... of each job fail; N 1..2^63) or {probability: P,
 *                errno: E} (each with probability P in (0, 1], kept in
 *                parts per million, so >= 0.000001; seeded); E an errno
 *                name (EIO, ENOSPC, EILSEQ, ENODATA, ETIMEDOUT, EROFS, any
 *                the C library names, any case) or 1..254, default EIO.
 *                Failed I/Os never reach the device; fsyncs never fail.
 *     expect     a mapping of thresholds for the verdict (expect_section.c,
 *                analysis/verdict.h): min_bw, min_bw_per_node,
 *                min_bw_per_drive (bandwidths), min_iops, min_iops_per_node,
 *                min_iops_per_drive (I/Os per second, "/s" optional),
 *                max_p99, max_p99_99, max_read_p99, max_read_p99_99,
 *                max_write_p99, max_write_p99_99 (durations),
 *                max_checkpoint_duration (checkpoint only), min_au (ingest
 *                only, a percentage or fraction in (0, 1]), steady_state
 *                (io and kvcache) and no_media_errors (bools; false checks
 *                nothing).  A metric the phase (each sweep cell) cannot
 *                produce is an error: read latency without reads, write
 *                latency without writes (a checkpoint reads with restore).
 *     emulate    engine emulated only: a mapping {latency: D, spread: D,
 *                bandwidth: S}, each default 0.  Each I/O completes
 *                latency plus an exponential draw of mean spread after its
 *                transfer; a job's transfers pass one at a time at
 *                bandwidth bytes per second (0: no cap).  Seeded by seed,
 *                rank and job.  A rank is one drive.  Optional:
 *                speed_spread: 0..90% (or 0..0.9): per phase cell (so per
 *                checkpoint) and rank, the drive's speed f is drawn
 *                uniform in [1 - s, 1 + s]: bandwidth x f, latency and
 *                spread / f; needs bandwidth or latency.
 *                fill_slowdown: 1x..1000x with fill_capacity: S > 0: a
 *                write's bandwidth falls linearly with the bytes the rank
 *                has written through the emulated engine since the run
 *                began (across phases), to 1/fill_slowdown at
 *                fill_capacity, and stays there.
 *                stall_probability: P in (0, 1] with stall: D: each read
 *                or write waits D longer with probability P (seeded).
 *                latency_from: PATH of a run's results.pb (not with
 *                latency or spread): service times drawn from the merged
 *                latency histograms of its phase latency_phase: NAME (a
 *                phase or a group's cells; default: reads from the first
 *                phase that read, writes from the first that wrote), read
 *                at plan time on rank 0
 *                (emulate_from.c).
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
 *     steady_state a mapping {metric: iops|bw|lat (default iops; lat = mean
 *                service time), window: 2..max_rounds (default 5), round:
 *                duration > 0 (default 60s, at most 30 days), max_rounds:
 *                1..1000 (default 25)}: the phase runs in rounds of
 *                runtime round, "<name>[round=k]", until every drive
 *                (rank) is steady over the last window rounds (SNIA PTS:
 *                max - min <= 20% of the window's mean, |slope x (window
 *                - 1)| <= 10% of it) or max_rounds ran; not with runtime,
 *                io_size or ramp (the round is the runtime), nor a sweep
 *                (a list in rw, bs or iodepth).  A default steady_state
 *                is skipped by a phase that sets runtime or io_size or
 *                sweeps; a default runtime, io_size or ramp by a phase
 *                that sets steady_state.
 *     compressible 0..100 percent ("50%" or 50), default 0: that share of
 *                each block written is zeros (worker/wdata.h)
 *     dedupe     0..100 percent, default 0: that share of the blocks written
 *                repeats one of a small seeded pool
 *     reuse_buffers bool, default false: write the buffers filled once at
 *                setup again and again instead of fresh data per write
 *                (to measure its cost).  These three: set in the phase,
 *                only on a phase that writes and without verify (exit 2);
 *                from defaults, left out where they do not apply
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
 *     compressible, dedupe, reuse_buffers as for io (the writes of
 *                serialize: raw)
 *     serialize  raw (default: the files' bytes as they are, through the
 *                engine) | torch: each file inside torch.save's zip
 *                container (worker/workload/torch_zip.h), written with
 *                write(2) through the page cache in torch's write sizes, a
 *                CRC-32 over every byte before it is written, the tensor
 *                from memory of its own (the largest file's, at most
 *                2 GiB - 4 KiB per job, not in memory_per_rank); not with
 *                direct: true nor engine null or emulated
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
 *   workload fill, preconditioning (no key may be a list; not rw, runtime,
 *   io_size, ramp, rate, fsync, verify): each job writes its region
 *   sequentially in bs writes `passes` times, then random_passes x size
 *   in random_bs writes at random aligned offsets of it (fill.c):
 *     bs         default 128KiB
 *     iodepth 32, jobs 1, direct true by default
 *     size       bytes per job and pass, a multiple of bs; default: a file
 *                or block target's capacity / (ranks on it x jobs), the
 *                least over the ranks, rounded down to bs (sc_validate_fill,
 *                once the ranks are placed); a directory target (or one on
 *                other hosts) needs it
 *     passes     1..1000, default 2 (SNIA PTS)
 *     random_passes 0..1000, default 0
 *     random_bs  size, default 4KiB; divides bs
 *     cliff_fraction a number more than 0 and less than 1, default 0.5:
 *                the write cliff's threshold (analysis/write_cliff.h)
 *     (jobs x size x (passes + random_passes) below 2^64 bytes).  Writing
 *     a file or block target needs allow_destroy, as for io.
 *   workload idle, an idle step: no I/O, every rank waits the duration
 *   in lockstep.  A phase whose own mapping has the key idle and no
 *   workload is one (- idle: 5m); it takes name and nothing else:
 *     idle       duration > 0, required
 *
 * --set KEY=VALUE, applied in order before any check: a dotted path
 * (phases.0.runtime, phases.<name>.bs, targets.1.capacity, defaults.direct)
 * sets or creates its last key, and fails when the path above it does not
 * exist; a bare key sets that key in every phase whose workload takes it
 * (fsync=true reaches checkpoint phases, fsync=8 io and kvcache ones; a
 * list reaches only the phases that sweep the key) or in every target; a
 * phase key that no phase takes is an error.  Setting runtime removes
 * io_size and epochs from the same mapping; setting io_size removes runtime
 * and ramp, setting epochs removes runtime: they are alternatives.  A
 * bare runtime, io_size or ramp passes by a phase with steady_state (set
 * phases.<name>.steady_state.round instead).
 * A VALUE is a plain YAML scalar, or a flow list "[4KiB, 1MiB]".
 *
 * ${VAR}, ${VAR:-default} (the default also when VAR is empty) and $$ (a
 * literal $) are expanded in every scalar value after --set; an unset VAR
 * without a default is an error at its value.  Defaults do not nest. */
#include "schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "plan.h"
#include "units.h"
#include "wdata.h"

/* Ranges of the schema (documented above and in docs/usage.md's config
 * reference). */
#define MAX_BS_BYTES	SC_GIB /* io_uring results are 32-bit */
#define MAX_IODEPTH	16384u
#define MAX_JOBS	1024u
#define MAX_DURATION_NS (30 * 24 * 3600 * SC_NS_PER_S) /* 30 days */
#define MAX_RATE_IOPS	UINT64_C(1000000000)	       /* per rank */
#define MAX_ZERO_STAGE	3u
#define MAX_CHECKPOINTS 10000u
#define MAX_PREFETCH	1024u /* batches held in memory ahead of compute */
#define MAX_FILL_PASSES 1000u /* passes of a fill over its region */
#define MAX_CPU		8191u /* sqpoll_cpu: Linux's NR_CPUS at most */

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
    [PK_EMULATE] = "emulate",
    [PK_SERIALIZE] = "serialize",
    [PK_STEADY_STATE] = "steady_state",
    [PK_PASSES] = "passes",
    [PK_RANDOM_PASSES] = "random_passes",
    [PK_RANDOM_BS] = "random_bs",
    [PK_CLIFF_FRACTION] = "cliff_fraction",
    [PK_IDLE] = "idle",
    [PK_COMPRESSIBLE] = "compressible",
    [PK_DEDUPE] = "dedupe",
    [PK_REUSE_BUFFERS] = "reuse_buffers",
    [PK_SQPOLL] = "sqpoll",
    [PK_SQPOLL_CPU] = "sqpoll_cpu",
    [PK_HIPRI] = "hipri",
    [PK_PASSTHROUGH] = "passthrough",
    [PK_CPUS] = "cpus",
    [PK_NUMA] = "numa",
    [PK_EXPECT] = "expect",
    [PK_COUNT] = NULL,
};

const char *const sc_cfg_target_keys[TK_COUNT + 1] = {
    [TK_PATH] = "path",	  [TK_CAPACITY] = "capacity",
    [TK_KEEP] = "keep",	  [TK_ALLOW_DESTROY] = "allow_destroy",
    [TK_HOSTS] = "hosts", [TK_WIPE_SIGNATURES_OK] = "wipe_signatures_ok",
    [TK_THROTTLE] = "throttle", [TK_COUNT] = NULL,
};

const char *const sc_cfg_top_keys[] = {"targets", "defaults", "phases", "memory_per_rank", "model",
				       "outliers", NULL};
const char *const sc_cfg_sections[] = {"targets", "defaults", "phases", "model", "outliers",
				       NULL};

/* Which workloads take each phase key. */
#define WL(w)  (1u << SC_WORKLOAD_##w)
#define WL_IO  (WL(IO) | WL(KVCACHE))
#define WL_ALL (WL(IO) | WL(CHECKPOINT) | WL(INGEST) | WL(KVCACHE) | WL(FILL))
static const unsigned key_workloads[PK_COUNT] = {
    [PK_NAME] = WL_ALL | WL(IDLE),
    [PK_WORKLOAD] = WL_ALL | WL(IDLE),
    [PK_RW] = WL_IO,
    [PK_RWMIXREAD] = WL_IO,
    [PK_BS] = WL_IO | WL(FILL),
    [PK_IODEPTH] = WL_ALL,
    [PK_JOBS] = WL_ALL,
    [PK_SIZE] = WL_IO | WL(FILL),
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
    [PK_EMULATE] = WL_ALL,
    [PK_SERIALIZE] = WL(CHECKPOINT),
    [PK_STEADY_STATE] = WL_IO,
    [PK_PASSES] = WL(FILL),
    [PK_RANDOM_PASSES] = WL(FILL),
    [PK_RANDOM_BS] = WL(FILL),
    [PK_CLIFF_FRACTION] = WL(FILL),
    [PK_IDLE] = WL(IDLE),
    [PK_COMPRESSIBLE] = WL_IO | WL(CHECKPOINT),
    [PK_DEDUPE] = WL_IO | WL(CHECKPOINT),
    [PK_REUSE_BUFFERS] = WL_IO | WL(CHECKPOINT),
    [PK_SQPOLL] = WL_ALL,
    [PK_SQPOLL_CPU] = WL_ALL,
    [PK_HIPRI] = WL_ALL,
    [PK_PASSTHROUGH] = WL_ALL,
    [PK_CPUS] = WL_ALL,
    [PK_NUMA] = WL_ALL,
    [PK_EXPECT] = WL_ALL,
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
 * kvcache phases; sc_cfg_key_def() gives a workload's view). */
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
    [PK_INJECT] = PHASE(CFG_VT_TEXT, 0, 0, false), /* a mapping: nested.c */
    [PK_EMULATE] = PHASE(CFG_VT_TEXT, 0, 0, false), /* a mapping: nested.c */
    [PK_SERIALIZE] = PHASE(CFG_VT_SERIALIZE, 0, 0, false),
    [PK_STEADY_STATE] = PHASE(CFG_VT_TEXT, 0, 0, false), /* a mapping: steady_section.c */
    [PK_PASSES] = PHASE(CFG_VT_UINT, 1, MAX_FILL_PASSES, false),
    [PK_RANDOM_PASSES] = PHASE(CFG_VT_UINT, 0, MAX_FILL_PASSES, false),
    [PK_RANDOM_BS] = PHASE(CFG_VT_SIZE, 1, MAX_BS_BYTES, false),
    [PK_CLIFF_FRACTION] = PHASE(CFG_VT_FRACTION, 0, 0, false), /* < 1: fill_phase.c */
    [PK_IDLE] = PHASE(CFG_VT_DURATION, 1, MAX_DURATION_NS, false),
    [PK_COMPRESSIBLE] = PHASE(CFG_VT_PERCENT, 0, SC_WDATA_PCT_MAX, false),
    [PK_DEDUPE] = PHASE(CFG_VT_PERCENT, 0, SC_WDATA_PCT_MAX, false),
    [PK_REUSE_BUFFERS] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_SQPOLL] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_SQPOLL_CPU] = PHASE(CFG_VT_UINT, 0, MAX_CPU, false),
    [PK_HIPRI] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_PASSTHROUGH] = PHASE(CFG_VT_BOOL, 0, 1, false),
    [PK_CPUS] = PHASE(CFG_VT_TEXT, 0, 0, false), /* a cpulist: phases.c */
    [PK_NUMA] = PHASE(CFG_VT_NUMA, 0, 0, false),
    [PK_EXPECT] = PHASE(CFG_VT_TEXT, 0, 0, false), /* a mapping: expect_section.c */
};
#undef PHASE

const struct cfg_keydef sc_cfg_target_defs[TK_COUNT] = {
    [TK_PATH] = {.type = CFG_VT_TEXT},
    [TK_CAPACITY] = {.type = CFG_VT_SIZE, .min = 1, .max = UINT64_MAX},
    [TK_KEEP] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_ALLOW_DESTROY] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_HOSTS] = {.type = CFG_VT_TEXT},
    [TK_WIPE_SIGNATURES_OK] = {.type = CFG_VT_BOOL, .max = 1},
    [TK_THROTTLE] = {.type = CFG_VT_BANDWIDTH, .min = 1, .max = UINT64_MAX},
};

bool sc_cfg_takes(uint64_t w, enum pkey k)
{
	return w < SC_WORKLOAD_COUNT && (key_workloads[k] & (1u << w));
}

bool sc_cfg_sweeps(uint64_t w)
{
	return w == SC_WORKLOAD_IO || w == SC_WORKLOAD_KVCACHE;
}

struct cfg_keydef sc_cfg_key_def(uint64_t w, enum pkey k)
{
	struct cfg_keydef def = phase_defs[k];

	if (!sc_cfg_sweeps(w))
		def.sweep = false;
	if (k == PK_FSYNC && w == SC_WORKLOAD_CHECKPOINT) {
		def.type = CFG_VT_BOOL;
		def.max = 1;
	}
	return def;
}

const char *sc_cfg_key_workloads(const char *key, char *buf, size_t len)
{
	const char *names[SC_WORKLOAD_COUNT + 1];
	int k = sc_cfg_key_index(key, sc_cfg_phase_keys);
	size_t n = 0;

	for (int w = 0; k >= 0 && w < SC_WORKLOAD_COUNT; w++)
		if (sc_cfg_takes((uint64_t)w, (enum pkey)k))
			names[n++] = sc_workload_name((enum sc_workload)w);
	names[n] = NULL;
	return sc_cfg_join(buf, len, names);
}

/* The keys workload w takes, NULL-terminated, in table order. */
static void workload_keys(uint64_t w, const char *keys[PK_COUNT + 1])
{
	size_t n = 0;

	for (int k = 0; k < PK_COUNT; k++)
		if (sc_cfg_takes(w, (enum pkey)k))
			keys[n++] = sc_cfg_phase_keys[k];
	keys[n] = NULL;
}

int sc_cfg_unknown_key(struct cfg_check *c, const struct cfg_pair *p, const char *section,
		       uint64_t w)
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
				   "unknown key (%s is a target key; set it under targets:)",
				   p->key);
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

int sc_cfg_wrong_workload(struct cfg_check *c, const struct cfg_pair *p, const struct cfg_phase *pv,
			  enum pkey k)
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
			   "not a key of workload %s%s (%s is for workload %s)", wname, from,
			   p->key, owners);
}

/* Room for the message of sc_cfg_fail_value (the location, the path and
 * the phase's name go around it). */
#define VALUE_MSG_BYTES 768u

int sc_cfg_fail_value(struct cfg_check *c, const struct cfg_phase *pv, uint32_t i,
		      const struct cfg_node *n, enum pkey k, const char *fmt, ...)
{
	char msg[VALUE_MSG_BYTES], path[96];
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
