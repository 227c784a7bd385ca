/* key_table.h -- every phase key of the config in one table, one row a key:
 * its name, the workloads that take it, its type and range, whether a list
 * sweeps it, the plan member it fills, its built-in default and one line of
 * help.  The parser, the defaults, the validator's key checks, the plan
 * builder, `ssdcluster keys` and docs/config.md all read it (keys.c expands
 * it; test_key_table.c checks what cannot be checked at compile time).
 *
 * Adding a phase key: a row here, the plan member it fills (worker/plan.h),
 * the proto field list (proto/fields.h), and the code that uses it.
 *
 * A row is U64(...) when its value is a whole number (sizes, durations,
 * booleans and names of enums too) kept in a uint64_t member of struct
 * cfg_phase named after the key (generated from this table), or OWN(...)
 * when the key has a storage and parser of its own (a sweep, a mapping, a
 * text, a fraction): phase_key.c parses it.  The columns:
 *
 *   ID       PK_<ID> in enum pkey
 *   key      the key's name in YAML (and the cfg_phase member of a U64 row)
 *   takes    the workloads that take it (KW_...)
 *   type     its enum cfg_vtype, with min and max (0, 0: the type's own)
 *   sweep    SWEEP when a list expands an io or kvcache phase into cells
 *   plan     PLAN(member of struct sc_phase) when the value is copied into
 *            every cell as it is; NO_PLAN when build.c decides per cell
 *   default  the built-in default: a value as YAML would give it for every
 *            workload that takes the key, then "; WORKLOAD VALUE" for one
 *            that differs ("-": none; "(...)": worked out by the code, as
 *            said)
 *   help     one line for `ssdcluster keys` and docs/config.md
 */
#ifndef SC_CONFIG_KEY_TABLE_H
#define SC_CONFIG_KEY_TABLE_H

#include "layout.h"
#include "units.h"
#include "wdata.h"

/* Ranges of the schema. */
#define MAX_BS_BYTES	SC_GIB /* io_uring results are 32-bit */
#define MAX_IODEPTH	16384u
#define MAX_JOBS	1024u
#define MAX_DURATION_NS (30 * 24 * 3600 * SC_NS_PER_S) /* 30 days */
#define MAX_RATE_IOPS	UINT64_C(1000000000)	       /* per rank */
#define MAX_ZERO_STAGE	3u
#define MAX_CHECKPOINTS 10000u
#define MAX_PREFETCH	1024u /* batches held in memory ahead of compute */
#define MAX_TRAINING_FILES UINT32_MAX /* a training dataset's files, cluster-wide */
#define MAX_FILL_PASSES 1000u /* passes of a fill over its region */
#define MAX_ACCELS_PER_RANK 1024u /* result.h's SC_ACCELS_MAX */
#define SEARCH_MAX_DEFAULT "16"   /* search_max's default, as YAML gives it */
#define RUNS_MAX 100u	      /* runs: W+M, each at most this */
#define RUNS_SCALE 1000u      /* runs' value: W x RUNS_SCALE + M */
#define MAX_CPU		8191u /* sqpoll_cpu: Linux's NR_CPUS at most */
/* huge_buffers' default: 4 KiB pages, as fio's iomem=malloc (docs/config.md) */
#define HUGE_DEFAULT	  0u
#define HUGE_DEFAULT_TEXT "false"

/* Which workloads take a key: a mask of enum sc_workload. */
#define KW(w)  (1u << SC_WORKLOAD_##w)
#define KW_IO  (KW(IO) | KW(KVCACHE))
#define KW_RUN (KW(IO) | KW(CHECKPOINT) | KW(INGEST) | KW(KVCACHE) | KW(FILL))
#define KW_ANY (KW_RUN | KW(IDLE) | KW(TRAINING))
/* The keys of the I/O loop a training phase takes besides its own. */
#define KW_RUN_TRAIN (KW_RUN | KW(TRAINING))

/* clang-format off */
#define SC_PHASE_KEYS(U64, OWN)                                                                    \
OWN(NAME, name, KW_ANY, CFG_VT_NAME, 0, 0, 0, NO_PLAN, "(phase<i>, i from 0)",                     \
    "[A-Za-z0-9][A-Za-z0-9_.-]{0,63}, unique; a checkpoint phase's directory is named after it")   \
U64(WORKLOAD, workload, KW_ANY, CFG_VT_WORKLOAD, 0, 0, 0, PLAN(workload), "io",                    \
    "picks the keys a phase takes; a list entry - idle: 5m is an idle step")\
OWN(RW, rw, KW_IO, CFG_VT_RW, 0, 0, SWEEP, NO_PLAN, "-; kvcache randrw",                           \
    "the access pattern; required in io phases")                         \
U64(RWMIXREAD, rwmixread, KW_IO, CFG_VT_UINT, 0, 100, 0, NO_PLAN, "50; kvcache 70",                \
    "percent of reads, with rw randrw or readwrite only")                                                      \
OWN(BS, bs, KW_IO | KW(FILL), CFG_VT_SIZE, 1, MAX_BS_BYTES, SWEEP, NO_PLAN, "4KiB; fill 128KiB",   \
    "block size, the unit of I/O; at most size")                                                  \
OWN(IODEPTH, iodepth, KW_RUN_TRAIN, CFG_VT_UINT, 1, MAX_IODEPTH, SWEEP, NO_PLAN,                   \
    "1; kvcache 128; checkpoint 8; ingest 64; fill 32; training 8",                               \
    "I/Os in flight per job (training: reads of one sample)")                                     \
U64(JOBS, jobs, KW_RUN_TRAIN, CFG_VT_UINT, 1, MAX_JOBS, 0, PLAN(io.jobs),                          \
    "1; kvcache 8; ingest 8; training (the pair's read threads)",                                 \
    "threads per rank, one io_uring ring each (training: DLIO's read_threads)")                   \
U64(SIZE, size, KW_IO | KW(FILL), CFG_VT_SIZE, 1, UINT64_MAX, 0, PLAN(io.size_bytes),             \
    "64MiB; kvcache 1GiB; fill (the targets' capacity per job)",                                  \
    "file or region per job, a multiple of bs; a fill of a directory target needs it")            \
U64(RUNTIME, runtime, KW_IO | KW(INGEST), CFG_VT_DURATION, 1, MAX_DURATION_NS, 0,                  \
    PLAN(io.runtime_ns), "-", "time-based run (at most 30 days); an alternative to io_size, epochs")\
U64(IO_SIZE, io_size, KW_IO, CFG_VT_SIZE, 1, UINT64_MAX, 0, PLAN(io.io_bytes), "(size, once)",    \
    "bytes each job moves, a multiple of bs; an alternative to runtime")                          \
U64(RUNTIME_MAX, runtime_max, KW_IO, CFG_VT_DURATION, 1, MAX_DURATION_NS, 0,                    \
    PLAN(io.runtime_max_ns), "-",                                                                 \
    "without runtime: stop at the bytes or this long, whichever first (fio's runtime)")          \
U64(RAMP, ramp, KW_IO, CFG_VT_DURATION, 0, MAX_DURATION_NS, 0, PLAN(io.ramp_ns), "-",              \
    "with runtime: run this long first, not measured (shorter than runtime)")                     \
U64(FSYNC, fsync, KW_IO | KW(CHECKPOINT), CFG_VT_UINT, 0, UINT32_MAX, 0, NO_PLAN,                  \
    "0; checkpoint true", "io, kvcache: fsync after every N writes; checkpoint: true or false")    \
U64(END_FSYNC, end_fsync, KW_IO, CFG_VT_BOOL, 0, 1, 0, PLAN(io.end_fsync), "false",              \
    "fsync each job's file once its writes end (fio's end_fsync)")                                \
U64(INVALIDATE, invalidate, KW_IO, CFG_VT_BOOL, 0, 1, 0, PLAN(io.invalidate), "false",            \
    "drop each job's region from the page cache before the phase (fio's invalidate)")            \
U64(FADVISE_HINT, fadvise_hint, KW_IO, CFG_VT_BOOL, 0, 1, 0, PLAN(io.fadvise_hint), "false",      \
    "tell the kernel the pattern: random rw no readahead, sequential more (fio's fadvise_hint)") \
U64(DIRECT, direct, KW_RUN_TRAIN, CFG_VT_BOOL, 0, 1, 0, PLAN(io.direct),                          \
    "true; checkpoint false; training false",                                                     \
    "O_DIRECT; the unit of I/O must be a multiple of every target's alignment")                   \
U64(ENGINE, engine, KW_RUN_TRAIN, CFG_VT_ENGINE, 0, 0, 0, PLAN(io.engine), "io_uring",                  \
    "null measures the tool itself; emulated runs the drive model emulate, no files")           \
U64(SEED, seed, KW_RUN_TRAIN, CFG_VT_UINT, 0, UINT64_MAX, 0, PLAN(io.seed), "(1 + the phase's index)",  \
    "offsets and data are reproducible from it")                                                  \
U64(STONEWALL, stonewall, KW_RUN, CFG_VT_STONEWALL, 0, 0, 0, PLAN(stonewall), "all_done",          \
    "all_done: every rank completes its work; first_done: all stop when the first is done")      \
U64(RATE, rate, KW_IO, CFG_VT_RATE, 0, MAX_RATE_IOPS, 0, PLAN(io.rate_iops), "0",                  \
    "I/Os per second per rank, open loop (\"5000/s\"); 0 = closed loop")                          \
OWN(MODEL, model, KW(CHECKPOINT), CFG_VT_MODEL, 0, 0, 0, NO_PLAN, "-",                             \
    "required: a catalogue name, or {layers, hidden, ffn_hidden, heads, vocab, kv_heads, dtype}")  \
U64(TP, tp, KW(CHECKPOINT), CFG_VT_UINT, 1, UINT32_MAX, 0, PLAN(ckpt.layout.tp), "1",              \
    "tensor-parallel degree")                                                                     \
U64(PP, pp, KW(CHECKPOINT), CFG_VT_UINT, 1, UINT32_MAX, 0, PLAN(ckpt.layout.pp), "1",              \
    "pipeline-parallel degree")                                                                   \
U64(DP, dp, KW(CHECKPOINT), CFG_VT_UINT, 0, UINT32_MAX, 0, PLAN(ckpt.layout.dp), "0",              \
    "data-parallel degree; 0 = ranks / (tp x pp), resolved when the ranks are known")             \
U64(ZERO, zero, KW(CHECKPOINT), CFG_VT_UINT, 0, MAX_ZERO_STAGE, 0, PLAN(ckpt.layout.zero_stage),   \
    "(0; 3 with layout sharded)", "DeepSpeed ZeRO stage (sharded: 3 = FSDP's full shard)")         \
U64(LAYOUT, layout, KW(CHECKPOINT), CFG_VT_CKPT_LAYOUT, 0, 0, 0, PLAN(ckpt.layout.kind), "dlio",   \
    "dlio: DLIO's files (MLPerf Storage); sharded: torch.distributed.checkpoint's, every rank")   \
U64(KEEP_LAST, keep_last, KW(CHECKPOINT), CFG_VT_UINT, 1, MAX_CHECKPOINTS, 0, PLAN(ckpt.keep_last),  \
    "(every checkpoint)", "checkpoints kept: older ones are deleted after each write (timed)")    \
U64(CHECKPOINTS, checkpoints, KW(CHECKPOINT), CFG_VT_UINT, 1, MAX_CHECKPOINTS, 0,                  \
    PLAN(ckpt.checkpoints), "1", "checkpoints written, each a cell <name>[ckpt=k]")                \
U64(COMPUTE_BETWEEN, compute_between, KW(CHECKPOINT), CFG_VT_DURATION, 0, MAX_DURATION_NS, 0,      \
    NO_PLAN, "0s", "emulated training before every checkpoint after the first")                   \
U64(BLOCK_SIZE, block_size, KW(CHECKPOINT), CFG_VT_SIZE, 1, MAX_BS_BYTES, 0, PLAN(io.bs_bytes),    \
    "1MiB", "the write and read unit of a checkpoint")                                            \
OWN(SCALE, scale, KW(CHECKPOINT), CFG_VT_FRACTION, 0, 0, 0, NO_PLAN, "1",                          \
    "a number in (0, 1]: the share of the model's real bytes written")                            \
U64(RESTORE, restore, KW(CHECKPOINT), CFG_VT_BOOL, 0, 1, 0, NO_PLAN, "false",                      \
    "read every checkpoint back after all are written, cells <name>[restore=k]")                  \
U64(RESTORE_SHIFT, restore_shift, KW(CHECKPOINT), CFG_VT_UINT, 0, UINT32_MAX, 0, NO_PLAN, "0",     \
    "with restore: read the shards of the node this many nodes on")                               \
U64(ASYNC, async, KW(CHECKPOINT), CFG_VT_BOOL, 0, 1, 0, NO_PLAN, "false",                          \
    "copy the state to host memory (blocking), then drain it to the drives during compute_between") \
U64(FILES, files, KW(INGEST) | KW(TRAINING), CFG_VT_UINT, 1, SC_INGEST_MAX_FILES, 0, NO_PLAN,       \
    "64; training (the rules' minimum)",                                                          \
    "ingest: dataset files per node; training: the whole cluster's, at most 2^32-1")              \
U64(FILE_SIZE, file_size, KW(INGEST), CFG_VT_SIZE, 1, UINT64_MAX, 0, PLAN(ingest.file_bytes),      \
    "64MiB", "bytes per dataset file, a multiple of sample_size")                                  \
U64(SAMPLE_SIZE, sample_size, KW(INGEST), CFG_VT_SIZE, 1, MAX_BS_BYTES, 0,                         \
    PLAN(ingest.sample_bytes), "128KiB", "one sample, the read unit")                             \
U64(BATCH, batch, KW(INGEST) | KW(TRAINING), CFG_VT_UINT, 1, UINT32_MAX, 0, NO_PLAN,             \
    "32; training (the pair's)", "samples per training step (training: of each accelerator)")     \
U64(COMPUTE_PER_BATCH, compute_per_batch, KW(INGEST), CFG_VT_DURATION, 0, MAX_DURATION_NS, 0,      \
    PLAN(ingest.compute_per_batch_ns), "0s", "emulated accelerator time per batch")               \
U64(EPOCHS, epochs, KW(INGEST) | KW(TRAINING), CFG_VT_UINT, 1, UINT32_MAX, 0, NO_PLAN,           \
    "1; training (the pair's)", "passes over the dataset; an alternative to runtime (ingest)")    \
U64(PREFETCH, prefetch, KW(INGEST), CFG_VT_UINT, 0, MAX_PREFETCH, 0, PLAN(ingest.prefetch), "2",   \
    "batches read ahead of compute")                                                              \
U64(STEP_BARRIER, step_barrier, KW(INGEST), CFG_VT_BOOL, 0, 1, 0, PLAN(ingest.step_barrier),     \
    "true", "every step ends with a barrier across ranks, as DLIO: a slow rank lowers every AU")   \
U64(BENCHMARK, benchmark, KW(TRAINING), CFG_VT_BENCHMARK, 0, 0, 0, PLAN(training.benchmark), "-",  \
    "MLPerf Storage v3.0's training benchmark; with accelerator, its workload file's values")     \
U64(ACCELERATOR, accelerator, KW(TRAINING), CFG_VT_ACCELERATOR, 0, 0, 0,                          \
    PLAN(training.accelerator), "-", "the accelerator each rank emulates (v3.0's names)")         \
U64(SAMPLES_PER_FILE, samples_per_file, KW(TRAINING), CFG_VT_UINT, 1, UINT32_MAX, 0,              \
    PLAN(training.samples_per_file), "(the pair's)", "samples in each dataset file")              \
U64(RECORD_SIZE, record_size, KW(TRAINING), CFG_VT_SIZE, 1, UINT64_MAX, 0,                        \
    PLAN(training.record_bytes), "(the pair's)", "a sample's mean size (DLIO's record_length_bytes)")\
U64(RECORD_SIZE_STDEV, record_size_stdev, KW(TRAINING), CFG_VT_SIZE, 0, UINT64_MAX, 0,            \
    PLAN(training.record_stdev_bytes), "(the pair's, else 0)",                                    \
    "the samples' spread (record_length_bytes_stdev); 0: every file one size")                    \
U64(PREFETCH_SIZE, prefetch_size, KW(TRAINING), CFG_VT_UINT, 0, MAX_PREFETCH, 0,                  \
    PLAN(training.prefetch_size), "(the pair's, else DLIO's 2)",                                  \
    "DLIO's prefetch_size: batches read ahead, shared among the reader threads")                  \
U64(COMPUTATION_TIME, computation_time, KW(TRAINING), CFG_VT_DURATION, 0, MAX_DURATION_NS, 0,     \
    PLAN(training.computation_ns), "(the pair's)", "emulated accelerator time of each step")      \
OWN(AU, au, KW(TRAINING), CFG_VT_FRACTION, 0, 0, 0, NO_PLAN, "(the pair's)",                      \
    "the accelerator utilisation a run must keep, 0.9 for 90% (MLPerf's metric.au)")              \
U64(TRANSFER_SIZE, transfer_size, KW(TRAINING), CFG_VT_SIZE, 1, MAX_BS_BYTES, 0,                  \
    PLAN(training.transfer_bytes), "1MiB", "the largest read: a sample is read in reads of it")   \
U64(CLIENT_MEMORY, client_memory, KW(TRAINING), CFG_VT_SIZE, 1, UINT64_MAX, 0,                    \
    PLAN(training.client_memory_bytes), "(every host's MemTotal, summed)",                        \
    "the clients' memory, summed: files defaults to the rules' minimum, 5x it at least")          \
U64(ACCELERATORS_PER_RANK, accelerators_per_rank, KW(TRAINING), CFG_VT_UINT, 1,                 \
    MAX_ACCELS_PER_RANK, 0, PLAN(training.accelerators_per_rank), "1",                            \
    "emulated accelerators each rank runs as threads, each with its own readers")                 \
U64(SEARCH, search, KW(TRAINING), CFG_VT_SEARCH, 0, 0, 0, NO_PLAN, "none",                         \
    "accelerators: trials find the most accelerators per host whose AU passes (bisection)")      \
U64(SEARCH_MAX, search_max, KW(TRAINING), CFG_VT_UINT, 1, MAX_ACCELS_PER_RANK, 0, NO_PLAN,         \
    SEARCH_MAX_DEFAULT, "with search: the most accelerators per rank a trial runs")                \
U64(RUNS, runs, KW(TRAINING), CFG_VT_RUNS, 0, 0, 0, NO_PLAN, "1",                                  \
    "W+M: W warm-up runs, then M measured, the result their mean (MLPerf: 1+5)")                  \
U64(VERIFY, verify, KW_IO, CFG_VT_VERIFY, 0, 0, 0, PLAN(io.verify), "none",                        \
    "crc32c: written blocks carry a header that reads check (bs >= 48B)")                  \
U64(VERIFY_ONLY, verify_only, KW_IO, CFG_VT_BOOL, 0, 1, 0, PLAN(io.verify_only), "false",          \
    "re-read and check the kept run --run-id names; all phases of the run or none")               \
U64(ON_ERROR, on_error, KW_RUN_TRAIN, CFG_VT_ON_ERROR, 0, 0, 0, PLAN(io.on_error), "stop-phase",         \
    "what a rank does when an I/O fails (a failed I/O fails the run whichever)")                          \
U64(TIMEOUT, timeout, KW_RUN_TRAIN, CFG_VT_DURATION, 1, MAX_DURATION_NS, 0, PLAN(io.timeout_ns),         \
    "(the planned duration plus a grace period)",                                                 \
    "a rank not done by then ends the run (exit 4); longer than runtime + ramp")                  \
OWN(INJECT, inject, KW_RUN, CFG_VT_MAP, 0, 0, 0, NO_PLAN, "-",                                    \
    "tests: {every: N, errno: E} or {probability: P, errno: E} fails I/Os without the device")    \
OWN(EMULATE, emulate, KW_RUN_TRAIN, CFG_VT_MAP, 0, 0, 0, NO_PLAN, "-",                                  \
    "engine emulated: the drive model {latency, spread, bandwidth, ...} (docs/config.md)")         \
U64(SERIALIZE, serialize, KW(CHECKPOINT), CFG_VT_SERIALIZE, 0, 0, 0, PLAN(ckpt.serialize), "raw",  \
    "raw: the files' bytes through the engine; torch: each file in torch.save's zip container")  \
U64(PROCEDURE, procedure, KW(CHECKPOINT), CFG_VT_PROCEDURE, 0, 0, 0, PLAN(ckpt.procedure), "none", \
    "mlperf: MLPerf Storage's run: 10 writes, page cache dropped, 10 buffered reads, MLPerf figures")\
OWN(STEADY_STATE, steady_state, KW_IO, CFG_VT_MAP, 0, 0, 0, NO_PLAN, "-",                         \
    "{metric, window, round, max_rounds}: rounds until every drive is steady (SNIA PTS)")         \
U64(PASSES, passes, KW(FILL), CFG_VT_UINT, 1, MAX_FILL_PASSES, 0, PLAN(fill.passes), "2",          \
    "sequential passes over each job's region (SNIA PTS: 2)")                                     \
U64(RANDOM_PASSES, random_passes, KW(FILL), CFG_VT_UINT, 0, MAX_FILL_PASSES, 0,                    \
    PLAN(fill.random_passes), "0", "then this many x size in random_bs writes at random offsets")  \
U64(RANDOM_BS, random_bs, KW(FILL), CFG_VT_SIZE, 1, MAX_BS_BYTES, 0, PLAN(fill.random_bs_bytes),   \
    "4KiB", "the random passes' block size; divides bs")                                          \
OWN(CLIFF_FRACTION, cliff_fraction, KW(FILL), CFG_VT_FRACTION, 0, 0, 0, NO_PLAN, "0.5",            \
    "more than 0, less than 1: the write cliff is where the rate falls below it x the initial")   \
U64(IDLE, idle, KW(IDLE), CFG_VT_DURATION, 1, MAX_DURATION_NS, 0, PLAN(io.runtime_ns), "-",        \
    "required: how long every rank waits, in lockstep, doing no I/O")                             \
U64(COMPRESSIBLE, compressible, KW_IO | KW(CHECKPOINT), CFG_VT_PERCENT, 0, SC_WDATA_PCT_MAX, 0,    \
    NO_PLAN, "0", "percent of each block written that is zeros (writes without verify)")           \
U64(DEDUPE, dedupe, KW_IO | KW(CHECKPOINT), CFG_VT_PERCENT, 0, SC_WDATA_PCT_MAX, 0, NO_PLAN, "0",  \
    "percent of the blocks written that repeat one of a small seeded pool")                       \
U64(REUSE_BUFFERS, reuse_buffers, KW_IO | KW(CHECKPOINT), CFG_VT_BOOL, 0, 1, 0, NO_PLAN, "false",  \
    "write the buffers filled once at setup again and again (to measure fresh data's cost)")      \
U64(HUGE_BUFFERS, huge_buffers, KW_RUN, CFG_VT_BOOL, 0, 1, HUGE_DEFAULT, PLAN(io.huge_buffers),    \
    HUGE_DEFAULT_TEXT,                                                                             \
    "each job's I/O buffers in 2 MiB transparent huge pages, so large I/Os are not split")         \
U64(SUBMIT_BATCH, submit_batch, KW_RUN, CFG_VT_UINT, 0, MAX_IODEPTH, 0, PLAN(io.submit_batch),     \
    "(engine io_uring: a quarter of iodepth, at least 1; others: all)",                   \
    "I/Os handed to the kernel in one call at most, as fio's iodepth_batch_submit")               \
U64(PREALLOCATE, preallocate, KW(IO), CFG_VT_PREALLOCATE, 0, 0, 0, PLAN(io.preallocate), "none", \
    "rw write on a directory target: what the new files hold before the timed writes")          \
U64(SQPOLL, sqpoll, KW_RUN, CFG_VT_BOOL, 0, 1, 0, PLAN(io.sqpoll), "false",                        \
    "engine io_uring: a kernel thread polls the submission queue (IORING_SETUP_SQPOLL)")          \
U64(SQPOLL_CPU, sqpoll_cpu, KW_RUN, CFG_VT_UINT, 0, MAX_CPU, 0, NO_PLAN, "(the kernel's choice)",  \
    "with sqpoll: true, the CPU of its thread")                                                   \
U64(HIPRI, hipri, KW_RUN, CFG_VT_BOOL, 0, 1, 0, PLAN(io.hipri), "false",                           \
    "engine io_uring: polled completions (IORING_SETUP_IOPOLL); needs direct")                    \
U64(PASSTHROUGH, passthrough, KW_RUN, CFG_VT_BOOL, 0, 1, 0, PLAN(io.passthrough), "false",         \
    "engine io_uring: NVMe commands on the /dev/ngXnY of an NVMe block-device target")            \
OWN(CPUS, cpus, KW_RUN, CFG_VT_TEXT, 0, 0, 0, NO_PLAN, "-",                                        \
    "a cpulist (\"0-3,8\"): every job thread of each rank pinned to these CPUs")                  \
U64(NUMA, numa, KW_RUN, CFG_VT_NUMA, 0, 0, 0, PLAN(io.numa), "none",                               \
    "drive: job threads and buffers on the NUMA node of the rank's drive")                 \
U64(OFFSET, offset, KW_IO, CFG_VT_SIZE, 0, UINT64_MAX, 0, PLAN(io.offset_bytes), "0",              \
    "file and block targets: where the first job's region starts, a multiple of bs (fio's)")     \
U64(OFFSET_INCREMENT, offset_increment, KW_IO, CFG_VT_SIZE, 0, UINT64_MAX, 0, NO_PLAN, "(size)",   \
    "file, block targets: job j of slot s at offset + (s x jobs + j) x this; 0: one shared region")\
U64(RANDOM_EVERY, random_every, KW_IO, CFG_VT_UINT, 1, UINT32_MAX, 0, NO_PLAN, "1",               \
    "random rw: a random offset every N I/Os, the N-1 after it sequential (fio's randread:N)")    \
U64(RANDOMMAP, randommap, KW_IO, CFG_VT_BOOL, 0, 1, 0, NO_PLAN, "false",                          \
    "random rw: every block once a pass, in a seeded random order (fio's random map)")           \
OWN(RANDOM_DISTRIBUTION, random_distribution, KW_IO, CFG_VT_TEXT, 0, 0, 0, NO_PLAN, "random",    \
    "random rw: random | zipf:THETA | pareto:H | normal:SIGMA_PCT | zoned:A/S:..., as fio's")     \
OWN(BSSPLIT, bssplit, KW_IO, CFG_VT_MAP, 0, 0, 0, NO_PLAN, "-",                                  \
    "several I/O sizes {4KiB: 60, 64KiB: 40}: size -> percent of the I/Os (sum 100), for bs")    \
OWN(BSRANGE, bsrange, KW_IO, CFG_VT_PAIR, 0, 0, 0, NO_PLAN, "-",                                   \
    "I/O sizes [MIN, MAX] drawn per I/O as fio's bsrange (multiples of MIN), for bs")            \
OWN(EXPECT, expect, KW_RUN_TRAIN, CFG_VT_MAP, 0, 0, 0, NO_PLAN, "-",                                    \
    "thresholds for the verdict {min_bw: 2GB/s, max_p99: 5ms, ...} (exit 3 when one fails)")

/* The keys of one target, the same way: T(ID, key, type, min, max, default,
 * help); TK_<ID> in enum tkey, a uint64_t or text member of cfg_target. */
#define SC_TARGET_KEYS(T)                                                                          \
T(PATH, path, CFG_VT_TEXT, 0, 0, "-",                                                              \
  "required: a directory (made if its parent exists), an existing file or a block device")        \
T(CAPACITY, capacity, CFG_VT_SIZE, 1, UINT64_MAX, "(a directory's free space, a file's size)",     \
  "how much of the target the run may use; more than it has is an error")                         \
T(KEEP, keep, CFG_VT_BOOL, 0, 1, "false", "a directory target keeps the run's files")             \
T(ALLOW_DESTROY, allow_destroy, CFG_VT_BOOL, 0, 1, "false",                                        \
  "a file or block target may be written (with --allow-destroy; never from --set or ${VAR})")      \
T(HOSTS, hosts, CFG_VT_TEXT, 0, 0, "-",                                                            \
  "the hosts whose ranks use it (\"gpu[01-16]\", globs, commas); checked on each host")           \
T(WIPE_SIGNATURES_OK, wipe_signatures_ok, CFG_VT_BOOL, 0, 1, "false",                             \
  "a block device with a filesystem, RAID, LVM or partition signature may be written")            \
T(THROTTLE, throttle, CFG_VT_BANDWIDTH, 1, UINT64_MAX, "-",                                        \
  "each rank on it is a drive of this many bytes per second, slow in latency too (\"20MB/s\")")
/* clang-format on */

#endif
