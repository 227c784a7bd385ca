/* plan.h -- the run plan: what every rank must do, as plain C structs.
 *
 * The coordinator builds a plan from YAML (rank 0), the codec packs it into
 * protobuf and every rank unpacks it again.  The worker only reads it.
 */
#ifndef SC_PLAN_H
#define SC_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "ckpt_model.h"

enum sc_rw {
	SC_RW_READ = 0,   /* sequential read */
	SC_RW_WRITE,      /* sequential write */
	SC_RW_RANDREAD,
	SC_RW_RANDWRITE,
	SC_RW_RANDRW,     /* random mix, rwmixread_pct reads */
	SC_RW_READWRITE,  /* sequential mix (fio's rw=rw), rwmixread_pct reads */
	SC_RW_COUNT
};

enum sc_engine_kind {
	SC_ENGINE_URING = 0,
	SC_ENGINE_PSYNC,
	SC_ENGINE_NULL,
	SC_ENGINE_EMULATED, /* no files: delays from a drive model */
	SC_ENGINE_COUNT
};

/* Where a phase's job threads run (worker/placement.h). */
enum sc_numa {
	SC_NUMA_NONE = 0,   /* wherever the scheduler puts them */
	SC_NUMA_DRIVE,      /* on the CPUs (and buffers in the memory) of the
			     * NUMA node the rank's target's drive hangs on */
	SC_NUMA_COUNT
};

/* What a sequential write phase's new files hold before the timed pass
 * (workload/io.c). */
enum sc_preallocate {
	SC_PREALLOC_NONE = 0,  /* nothing: the writes extend the file (IOR) */
	SC_PREALLOC_FALLOCATE, /* fallocate: unwritten extents of the file's
				* full size, converted as each write completes
				* (fio's default) */
	SC_PREALLOC_WRITTEN,   /* written with data, untimed: the writes
				* overwrite allocated blocks (fio --overwrite=1) */
	SC_PREALLOC_COUNT
};

/* How a random pattern picks its blocks (random_distribution; fio's
 * option of that name, worker/pattern.h).  Each but RANDOM ranks the
 * region's blocks by heat and scatters the ranks over the region by a
 * seeded permutation (fio hashes them); rand_param is its number. */
enum sc_rand_dist {
	SC_DIST_RANDOM = 0, /* uniform over the region's blocks */
	SC_DIST_ZIPF,       /* rank k (from 1) with probability k^-theta / H(n, theta) */
	SC_DIST_PARETO,     /* fio's pareto:h: rank floor((n - 1) u^(log h / log(1 - h))),
			     * the hottest h of the blocks take 1 - h of the I/Os */
	SC_DIST_NORMAL,     /* ranks by distance from the middle of a normal of
			     * sigma = rand_param % of the region */
	SC_DIST_ZONED,      /* fio's zoned:A/S:...: zone z, the next S_z % of
			     * the region's blocks in order (not scattered),
			     * takes A_z % of the I/Os, uniform within it
			     * (sc_io_spec's zone_access_pct, zone_size_pct) */
	SC_DIST_COUNT
};

/* Most sizes of a bssplit, most zones of a zoned distribution (fio's
 * BSSPLIT_MAX and ZONESPLIT_MAX are 64 too). */
#define SC_BSSPLIT_MAX 64u
#define SC_ZONES_MAX   64u

/* Bytes of a phase's cpus: value, its NUL included. */
#define SC_CPUS_MAX 256u

enum sc_target_kind {
	SC_TARGET_DIR = 0,  /* files are created in a run subdirectory */
	SC_TARGET_FILE,     /* an existing regular file, used in place */
	SC_TARGET_BLOCK,    /* a block device, used in place */
	SC_TARGET_COUNT
};

enum sc_workload {
	SC_WORKLOAD_IO = 0,     /* fio-like job */
	SC_WORKLOAD_CHECKPOINT, /* one cell: write (or restore) one LLM checkpoint */
	SC_WORKLOAD_INGEST,     /* training-data ingestion with emulated compute */
	SC_WORKLOAD_KVCACHE,    /* KV-cache swap: an io job, open loop by default */
	SC_WORKLOAD_FILL,       /* preconditioning: the region written sequentially
				 * `passes` times, then random writes (sc_fill_spec) */
	SC_WORKLOAD_IDLE,       /* no I/O: every rank waits io.runtime_ns */
	SC_WORKLOAD_TRAINING,   /* MLPerf Storage training as DLIO runs it:
				 * each rank one emulated accelerator */
	SC_WORKLOAD_COUNT
};

/* Whether written blocks carry a checked header (offset, run id, sequence,
 * checksum) that reads of them verify. */
enum sc_verify {
	SC_VERIFY_NONE = 0,
	SC_VERIFY_CRC32C,
	SC_VERIFY_COUNT
};

/* What a rank does when an I/O fails.  Whichever, the run then counts as
 * failed (exit 1). */
enum sc_on_error {
	SC_ON_ERROR_STOP_PHASE = 0, /* stop the rank's phase (the others finish
				     * theirs); no later phase runs */
	SC_ON_ERROR_CONTINUE,       /* count it and go on; every phase runs */
	SC_ON_ERROR_ABORT,          /* stop every rank's phase at once; no
				     * later phase runs */
	SC_ON_ERROR_COUNT
};

/* How a checkpoint file is written: its bytes as they are (the storage
 * path), or inside torch.save's zip container (worker/workload/torch_zip.h:
 * buffered writes of torch's sizes, a CRC-32 over every byte first). */
enum sc_serialize {
	SC_SERIALIZE_RAW = 0,
	SC_SERIALIZE_TORCH,
	SC_SERIALIZE_COUNT
};

/* A checkpoint phase's procedure: none (the keys as given), or MLPerf
 * Storage's checkpointing run (10 checkpoints written, the page cache of
 * every node dropped, 10 read back buffered; docs/workloads.md). */
enum sc_ckpt_procedure {
	SC_PROCEDURE_NONE = 0,
	SC_PROCEDURE_MLPERF,
	SC_PROCEDURE_COUNT
};

/* Fault injection (tests): reads and writes that fail with -errno_val
 * without reaching the device.  every: each every-th of a job; ppm (when
 * every is 0): each with this probability in parts per million (seeded by
 * phase seed, rank and job).  Both 0: none. */
struct sc_inject {
	uint64_t every;
	uint32_t ppm;
	int32_t errno_val;
};

/* The drive model of the emulated engine: each I/O completes latency_ns
 * plus an exponential draw of mean spread_ns after its transfer, and the
 * transfers of one job pass one at a time at bandwidth bytes per second
 * (0: no cap).  Seeded by phase seed, rank and job.
 * The rank is one drive.  speed_spread s in [0, 0.9]: per phase cell and
 * rank the drive's speed factor f is drawn uniform in [1 - s, 1 + s]
 * (seeded by phase seed, cell and rank): bandwidth x f, latency and spread
 * / f.  fill_slowdown k >= 1 (0: none) with fill_capacity C > 0: a write
 * starting when the rank's drive holds x bytes (every byte it wrote
 * through the emulated engine since the run began, across phases) passes
 * at bandwidth x (1 - (1 - 1/k) x min(x / C, 1)): linear down to 1/k at C.
 * stall_probability p in [0, 1] with stall_ns: each read or write also
 * waits stall_ns with probability p (0: never).
 * read_cdf / write_cdf (ncdf points each, 0: none): a measured latency
 * distribution (config emulate: latency_from) that replaces latency and
 * spread for reads / writes (fsyncs draw from write_cdf): a draw u in
 * (0, 1) gives the latency where the cumulative count reaches u x the
 * last point's count, linear between points.  Latency rises from point to
 * point, count never falls (it stays over a gap), the first at count 0;
 * the plan owns the arrays. */
#define SC_EMULATE_SPREAD_MAX	0.9    /* largest speed_spread */
#define SC_EMULATE_SLOWDOWN_MAX 1000.0 /* largest fill_slowdown */
#define SC_EMULATE_CDF_MAX	256u   /* most points of one latency CDF */
#define SC_EMULATE_CDF_MIN	2u     /* fewest points of a non-empty one */
struct sc_emulate_point {
	uint64_t latency_ns;
	uint64_t count;             /* I/Os at or below latency_ns */
};
struct sc_emulate {
	uint64_t latency_ns;
	uint64_t spread_ns;
	uint64_t bandwidth;
	double speed_spread;
	double fill_slowdown;
	uint64_t fill_capacity;
	double stall_probability;
	uint64_t stall_ns;
	uint32_t nread_cdf;
	struct sc_emulate_point *read_cdf;  /* heap, or NULL: none */
	uint32_t nwrite_cdf;
	struct sc_emulate_point *write_cdf; /* heap, or NULL: none */
};

/* One storage target as the config names it. */
struct sc_target_spec {
	char *path;
	enum sc_target_kind kind;   /* as rank 0 saw it; every rank checks again */
	uint64_t capacity_bytes;    /* how much of it the run may use */
	bool capacity_given;        /* capacity_bytes is the config's (else the
				     * room rank 0 saw, which a dataset already
				     * laid out there adds to) */
	bool keep;                  /* directory targets: keep the run files */
	bool allow_destroy;         /* file/block targets: writing allowed */
	char *hosts;                /* host pattern, NULL = every host */
	bool wipe_signatures_ok;    /* block targets: a filesystem, RAID, LVM or
				     * partition-table signature may be overwritten */
	uint64_t throttle_bytes_per_s; /* each rank on it is a drive of this
				     * many bytes per second (its jobs share
				     * it; a service queue, pace.h): to
				     * rehearse an acceptance test or emulate a
				     * slow drive; 0 = no cap */
};

/* One cell of work: what each job thread of each rank does. */
struct sc_io_spec {
	enum sc_rw rw;
	uint32_t rwmixread_pct;     /* randrw only: share of reads, 0..100 */
	uint64_t bs_bytes;
	uint32_t iodepth;
	uint32_t jobs;              /* threads per rank */
	uint64_t size_bytes;        /* region (or file) per job */
	uint64_t runtime_ns;        /* 0: stop after io_bytes */
	uint64_t io_bytes;          /* per job; used when runtime_ns == 0 */
	uint64_t ramp_ns;           /* excluded from all figures */
	uint32_t fsync_every;       /* fsync after every N writes, 0 = never */
	bool direct;                /* O_DIRECT */
	enum sc_engine_kind engine;
	uint64_t seed;
	uint64_t rate_iops;         /* per rank, over its jobs; 0 = closed loop.
				     * Open loop: each I/O has an intended start
				     * and response time counts from it. */
	enum sc_verify verify;      /* writes carry headers that reads check */
	bool verify_only;           /* read back a kept earlier run and check it */
	enum sc_on_error on_error;
	uint64_t timeout_ns;        /* 0: the planned duration plus a grace period */
	struct sc_inject inject;    /* tests: injected I/O errors */
	struct sc_emulate emulate;  /* engine emulated only */
	/* What writes carry (worker/wdata.h): fresh seeded data for every
	 * write, compressible_pct of each block a zero run (0..100),
	 * dedupe_pct of the blocks a repeat of a small seeded pool (0..100);
	 * reuse_buffers: each slot's buffer filled once and written again and
	 * again instead (data a compressing or deduplicating drive flatters;
	 * for measuring what fresh data costs).  verify fills its own blocks. */
	uint32_t compressible_pct;
	uint32_t dedupe_pct;
	bool reuse_buffers;
	/* Each job's I/O buffers in transparent huge pages (2 MiB,
	 * madvise(MADV_HUGEPAGE)) when they span 2 MiB or more: a large
	 * I/O is then a few physically contiguous segments, not one per 4 KiB
	 * page, and the block layer need not split it (virtio-blk takes 254
	 * segments, NVMe 127).  A rank that cannot get them runs with pages
	 * and says why (io_opts.h). */
	bool huge_buffers;
	/* At most this many I/Os handed to the kernel in one call (fio's
	 * iodepth_batch_submit); 0: the engine's choice (sc_ioloop_batch). */
	uint32_t submit_batch;
	enum sc_preallocate preallocate; /* rw write on a directory target */
	/* io_uring options (engine io_uring only; a rank that cannot use one
	 * runs without it and says why, worker/io_opts.h): */
	bool sqpoll;                /* a kernel thread polls the submission
				     * queue (IORING_SETUP_SQPOLL) */
	int32_t sqpoll_cpu;         /* that thread's CPU; -1: the kernel's choice */
	bool hipri;                 /* polled completions (IORING_SETUP_IOPOLL);
				     * needs direct */
	bool passthrough;           /* NVMe commands (IORING_OP_URING_CMD) on
				     * the /dev/ngXnY of a block-device target
				     * that is an NVMe namespace */
	/* Placement (worker/placement.h): cpus, a CPU list in the kernel's
	 * cpulist syntax ("0-3,8"; "" = none) every job thread of the rank is
	 * pinned to as a set; numa drive: the job threads on the CPUs of
	 * the target's drive's NUMA node (within cpus, if given), their
	 * buffers in its memory.  What a rank cannot do is reported through
	 * io_opts.h, never a failure. */
	char cpus[SC_CPUS_MAX];
	enum sc_numa numa;
	/* Random patterns only (worker/pattern.h): the distribution of the
	 * blocks and its number (zipf theta, pareto h, normal sigma %). */
	enum sc_rand_dist rand_dist;
	double rand_param;
	/* File and block targets (worker/layout.h): job j of the rank in
	 * slot s works on [offset + (s x jobs + j) x increment, + size),
	 * increment offset_increment_bytes when given, else size_bytes (the
	 * regions side by side); directory targets take neither. */
	uint64_t offset_bytes;
	uint64_t offset_increment_bytes;
	bool offset_increment_given;
	bool end_fsync;             /* fsync each job's file once its writes
				     * end (fio's end_fsync); cells that write */
	bool invalidate;            /* each job's region synced and dropped
				     * from the page cache before the phase's
				     * I/O (fio's invalidate) */
	bool fadvise_hint;          /* POSIX_FADV_RANDOM (random rw: no
				     * readahead) or _SEQUENTIAL on each job's
				     * file (fio's fadvise_hint) */
	uint32_t random_every;      /* random cells: a random block every this
				     * many I/Os, the ones between sequential
				     * after it (fio's rw=randread:N); 0, 1:
				     * every I/O random */
	bool randommap;             /* random cells: each block once a pass, in
				     * an order seeded per pass (fio's random
				     * map); false: uniform with replacement */
	/* Several I/O sizes in one job (bssplit, bsrange; worker/pattern.h).
	 * bs_max_bytes 0: every I/O is bs_bytes.  Else bs_bytes is the
	 * smallest size (every offset a multiple of it, fio's blockalign
	 * default), bs_max_bytes the largest (buffers hold it), and each I/O
	 * draws its size: from bssplit_bytes[i] with bssplit_pct[i] % (the
	 * first 0 size ends the list; the percents sum to 100), or with no
	 * list (bsrange) fio's rule, bs + floor(bs_max x u) for u uniform in
	 * [0, 1) rounded down to a multiple of bs, at most bs_max.  Every size
	 * is a multiple of bs_bytes.  An I/O's size is drawn again until it
	 * fits before the region's end and within the job's io_bytes left. */
	uint64_t bs_max_bytes;
	uint64_t bssplit_bytes[SC_BSSPLIT_MAX];
	uint64_t bssplit_pct[SC_BSSPLIT_MAX];
	/* rand_dist zoned: zone z takes zone_access_pct[z] % of the I/Os and
	 * zone_size_pct[z] % of the region (the first 0 size ends the list;
	 * each list sums to 100) */
	uint64_t zone_access_pct[SC_ZONES_MAX];
	uint64_t zone_size_pct[SC_ZONES_MAX];
	uint64_t runtime_max_ns;    /* runtime_ns 0: a job also stops this long
				     * after the start, its io_bytes done or
				     * not (fio's runtime without time_based);
				     * 0: no cap */
};

/* A checkpoint cell.  The io spec gives bs (write/read unit), iodepth,
 * jobs (threads sharing the rank's files), direct and engine. */
struct sc_ckpt_spec {
	struct sc_llm model;	      /* resolved: catalogue entry or inline */
	struct sc_ckpt_layout layout; /* tp, pp, dp (resolved at run), zero */
	uint32_t checkpoints;       /* checkpoints in the group */
	uint32_t index;             /* 1-based checkpoint this cell handles */
	uint32_t keep_last;         /* checkpoints kept; 0: all.  A write cell
				     * then deletes checkpoint index - keep_last */
	bool restore;               /* read checkpoint `index` back instead */
	uint32_t restore_shift;     /* restore the shards of the node this many
				     * nodes on (as after a node failure) */
	uint64_t compute_before_ns; /* emulated training before this cell */
	double scale;               /* fraction of the real bytes written */
	bool fsync;                 /* fsync every file (counted in duration) */
	enum sc_serialize serialize; /* raw, or torch.save's container */
	/* async: true, write cells only: the rank's bytes are copied to host
	 * memory (the blocking time), then written (the drain) while the
	 * emulated training of compute_after_ns runs; the cell ends at
	 * max(copy end + compute_after_ns, drain end) */
	bool async;
	uint64_t compute_after_ns; /* async: the training the drain overlaps */
	enum sc_ckpt_procedure procedure; /* mlperf: a restore reads through the
				     * page cache, and its first cell drops
				     * the cache of what the rank wrote */
};

/* Training-data ingestion.  The io spec gives jobs (reader threads),
 * iodepth, direct, engine, seed and runtime_ns (0: run `epochs`). */
struct sc_ingest_spec {
	uint32_t files;             /* dataset files per node */
	uint64_t file_bytes;        /* size of each file */
	uint64_t sample_bytes;      /* one sample, read at random */
	uint32_t batch;             /* samples per step */
	uint64_t compute_per_batch_ns; /* emulated accelerator time per step */
	uint32_t epochs;            /* passes over the dataset, cluster-wide */
	uint32_t prefetch;          /* batches read ahead of compute */
	bool step_barrier;          /* every step ends with a barrier across
				     * ranks (run.h's step gate), as DLIO */
};

/* MLPerf Storage training as DLIO runs it (worker/mlperf.h): each rank is
 * one emulated accelerator.  Its io spec gives jobs (DLIO's read_threads:
 * each reads whole batches, a sample at a time), iodepth (reads of one
 * sample in flight), direct, engine and seed.  Per epoch, rank a of
 * `accelerators` reads its block of the files x samples_per_file samples
 * (sc_mlperf_block), shuffled with (seed, epoch), in steps of batch; a
 * step waits for its batch, computes computation_ns, then waits at a
 * barrier of every rank. */
struct sc_training_spec {
	uint64_t files;             /* dataset files of the whole cluster (first:
				     * 0 leaves TrainingSpec out of the plan) */
	uint32_t benchmark;         /* enum sc_mlperf_benchmark, or
				     * SC_MLPERF_BENCHMARK_COUNT: every value given */
	uint32_t accelerator;       /* enum sc_mlperf_accelerator, or COUNT: none */
	uint32_t samples_per_file;
	uint64_t record_bytes;      /* a sample's mean size */
	uint64_t record_stdev_bytes;/* 0: every file the same size */
	uint32_t batch;             /* samples per step of one accelerator */
	uint32_t prefetch_size;     /* DLIO's: each reader holds ceil(prefetch_size
				     * / jobs) batches not yet taken, 2 for 0 */
	uint64_t computation_ns;    /* compute per step */
	uint32_t epochs;
	double au;                  /* the AU a run must keep, (0, 1] */
	uint64_t transfer_bytes;    /* a sample is read in reads of at most this */
	uint32_t accelerators;      /* of the run: ranks x accelerators_per_rank
				     * (set once the ranks are known; a search
				     * sets it before each trial) */
	uint32_t accelerators_per_rank; /* emulated accelerators each rank runs,
				     * each with its own readers (0 in older
				     * plans: 1; sc_training_per_rank) */
	uint32_t search_max;        /* search: accelerators: the most per rank a
				     * trial may run; 0: no search */
	uint32_t trial;             /* a search's trial, 1-based (cell + 1) */
	uint32_t warmups, runs;     /* runs: W+M: W warm-up runs, then M
				     * measured, the result their mean; 0, 0:
				     * one run */
	uint32_t run;               /* with runs: this cell's run, 1-based over
				     * W + M (the first W are warm-ups) */
	uint64_t client_memory_bytes; /* the clients' memory the rules' minimum
				       * of files is sized by (Rules.md 3.1.2):
				       * config client_memory, else every
				       * host's MemTotal, summed (set with
				       * accelerators) */
};

/* Accelerators each rank of training phase t runs (>= 1). */
static inline uint32_t sc_training_per_rank(const struct sc_training_spec *t)
{
	return t->accelerators_per_rank ? t->accelerators_per_rank : 1;
}

/* Preconditioning (workload fill).  Each job writes its region (the io
 * spec's size_bytes at its base) sequentially in bs writes `passes` times,
 * then random_passes x size_bytes more in random_bs writes at uniformly
 * drawn random_bs-aligned offsets of the same region; io.io_bytes is the
 * sum (size x (passes + random_passes)).  random_bs divides bs and size.
 * cliff_fraction in (0, 1): the write cliff's threshold, a fraction of the
 * initial rate (coordinator/analysis/write_cliff.h). */
struct sc_fill_spec {
	uint32_t passes;            /* >= 1 */
	uint32_t random_passes;     /* 0: no random preconditioning */
	uint64_t random_bs_bytes;
	double cliff_fraction;
	bool whole;                 /* no size given: the target's capacity,
				     * shared by its node's ranks and jobs
				     * (resolved once the ranks are placed) */
};

/* What a phase's expect: threshold bounds (the config key's name, from
 * sc_expect_metric_names).  The coordinator's analysis/verdict.c says which
 * phases can produce each and evaluates it; workers ignore it. */
enum sc_expect_metric {
	SC_EXPECT_MIN_BW = 0,        /* bytes/s, last-done, cluster */
	SC_EXPECT_MIN_BW_PER_NODE,   /* bytes/s, each node */
	SC_EXPECT_MIN_BW_PER_DRIVE,  /* bytes/s, each rank (a rank drives one target) */
	SC_EXPECT_MIN_IOPS,          /* I/Os per second, cluster */
	SC_EXPECT_MIN_IOPS_PER_NODE,
	SC_EXPECT_MIN_IOPS_PER_DRIVE,
	SC_EXPECT_MAX_P99,           /* ns, reads and writes merged */
	SC_EXPECT_MAX_P99_99,
	SC_EXPECT_MAX_READ_P99,      /* ns, reads */
	SC_EXPECT_MAX_READ_P99_99,
	SC_EXPECT_MAX_WRITE_P99,     /* ns, writes */
	SC_EXPECT_MAX_WRITE_P99_99,
	SC_EXPECT_MAX_CHECKPOINT_DURATION, /* ns, checkpoint cells */
	SC_EXPECT_MIN_AU,            /* a fraction in (0, 1], ingest */
	SC_EXPECT_STEADY_STATE,      /* 1: steady state reached (io, kvcache) */
	SC_EXPECT_NO_MEDIA_ERRORS,   /* 1: no media errors on any drive */
	SC_EXPECT_COUNT
};

/* Most thresholds one phase may carry. */
#define SC_EXPECT_MAX 64u

/* One threshold: the metric and its bound in the metric's unit. */
struct sc_expect {
	enum sc_expect_metric metric;
	double value;
};

/* When a phase ends on every rank. */
enum sc_stonewall {
	SC_STONEWALL_ALL_DONE = 0,  /* every rank completes its own work */
	SC_STONEWALL_FIRST_DONE,    /* every rank stops when the first is done */
	SC_STONEWALL_COUNT
};

/* What a steady-state round's figure is, per drive (rank) and cluster. */
enum sc_steady_metric {
	SC_STEADY_IOPS = 0,         /* read + write I/Os per second */
	SC_STEADY_BW,               /* read + write bytes per second */
	SC_STEADY_LAT,              /* mean service time, both directions */
	SC_STEADY_METRIC_COUNT
};

/* Steady state (config steady_state:): a config phase repeated in rounds
 * of round_ns (its runtime), each round one plan phase of the group, until
 * every drive's figure is steady over the last `window` rounds (SNIA PTS:
 * max - min <= 20% of the window's mean, |slope x (window - 1)| <= 10% of
 * it; coordinator/analysis/steady_state.h) or max_rounds have run.  Rank 0
 * decides after each round; the rounds after the steady one are skipped.
 * max_rounds 0: the phase is no round. */
struct sc_steady_spec {
	uint32_t max_rounds;        /* rounds the group holds; 0 = none */
	uint32_t round;             /* 1-based: this phase is that round */
	uint32_t window;            /* 2..max_rounds */
	enum sc_steady_metric metric;
	uint64_t round_ns;          /* each round's runtime */
};

/* One phase after sweep expansion: every rank runs it in lockstep. */
struct sc_phase {
	char *name;                 /* "seqwrite" or "sweep[bs=4KiB,iodepth=32]" */
	char *group;                /* name of the config phase it came from */
	uint32_t config_index;      /* that phase's index in the config's list */
	uint32_t cell;              /* index within that group's sweep, 0 if none */
	uint32_t ncells;            /* cells in that group's sweep, 1 if none */
	enum sc_workload workload;
	enum sc_stonewall stonewall;
	struct sc_io_spec io;
	struct sc_ckpt_spec ckpt;   /* SC_WORKLOAD_CHECKPOINT */
	struct sc_ingest_spec ingest; /* SC_WORKLOAD_INGEST */
	struct sc_steady_spec steady; /* a steady-state round (io, kvcache) */
	struct sc_fill_spec fill;   /* SC_WORKLOAD_FILL */
	struct sc_training_spec training; /* SC_WORKLOAD_TRAINING */
	uint32_t nexpect;           /* the phase's expect: thresholds, in the
				     * config's order; 0 = none */
	struct sc_expect *expect;   /* heap (each cell its own copy) */
};

/* Keys a config's model: section may hold at most. */
#define SC_PLAN_MODEL_MAX 64u

/* One key of a config's model: section as written.  The coordinator's
 * model applies it at the end of a run (coordinator/model/params.c);
 * workers ignore it. */
struct sc_plan_kv {
	char *key;
	char *value;
};

struct sc_plan {
	char *run_id;               /* names the run subdirectory of dir targets */
	char *config_path;          /* as given on the command line */
	uint32_t ntargets;
	struct sc_target_spec *targets;
	uint32_t nphases;
	struct sc_phase *phases;
	bool allow_destroy;         /* --allow-destroy on rank 0's command line:
				     * with a target's allow_destroy, writing a
				     * file or block target is allowed */
	uint32_t nmodel;            /* the model: section, in order; 0 = none */
	struct sc_plan_kv *model;
	double outlier_k;           /* outliers: k, MADs from the peers' median
				     * that flag a drive or node; 0 = default */
	double outlier_mad_floor;   /* outliers: mad_floor, the least MAD as a
				     * fraction of the median; 0 = default */
};

/* Frees everything the plan owns (not the struct itself); NULL-safe. */
void sc_plan_exit(struct sc_plan *plan);

/* The names of an enum's values as config, results and messages spell them
 * ("randread", "io_uring", ...): names[v] for 0 <= v < count. */
struct sc_enum_names {
	int count;
	const char *const *names;
};

/* names->names[v], or "?" for a value out of range. */
const char *sc_enum_name(const struct sc_enum_names *names, int v);
/* The value named s, or -EINVAL (s may be NULL). */
int sc_enum_parse(const struct sc_enum_names *names, const char *s);

/* Declares, for one enum E: sc_E_names, its names; sc_E_name(v) and
 * sc_E_parse(s), sc_enum_name and sc_enum_parse on them. */
#define SC_ENUM_NAMES(e, type)                                                                     \
	extern const struct sc_enum_names sc_##e##_names;                                          \
	const char *sc_##e##_name(type v);                                                         \
	int sc_##e##_parse(const char *s)

/* Defines what SC_ENUM_NAMES declares: n names, [value] = "name", ... */
#define SC_ENUM_NAMES_DEFINE(e, type, n, ...)                                                      \
	const struct sc_enum_names sc_##e##_names = {n, (const char *const[n]){__VA_ARGS__}};      \
	const char *sc_##e##_name(type v)                                                          \
	{                                                                                          \
		return sc_enum_name(&sc_##e##_names, (int)v);                                      \
	}                                                                                          \
	int sc_##e##_parse(const char *s)                                                          \
	{                                                                                          \
		return sc_enum_parse(&sc_##e##_names, s);                                          \
	}

SC_ENUM_NAMES(rw, enum sc_rw);
SC_ENUM_NAMES(engine, enum sc_engine_kind);
SC_ENUM_NAMES(target_kind, enum sc_target_kind);
SC_ENUM_NAMES(workload, enum sc_workload);
SC_ENUM_NAMES(stonewall, enum sc_stonewall);
SC_ENUM_NAMES(verify, enum sc_verify);
SC_ENUM_NAMES(on_error, enum sc_on_error);
SC_ENUM_NAMES(serialize, enum sc_serialize);
SC_ENUM_NAMES(ckpt_layout, enum sc_ckpt_layout_kind);
SC_ENUM_NAMES(procedure, enum sc_ckpt_procedure);
SC_ENUM_NAMES(numa, enum sc_numa);
SC_ENUM_NAMES(preallocate, enum sc_preallocate);
SC_ENUM_NAMES(rand_dist, enum sc_rand_dist);
SC_ENUM_NAMES(steady_metric, enum sc_steady_metric);
SC_ENUM_NAMES(expect_metric, enum sc_expect_metric);

/* True when the pattern reads at all, writes at all, picks offsets at random. */
bool sc_rw_reads(enum sc_rw rw);
bool sc_rw_writes(enum sc_rw rw);
bool sc_rw_random(enum sc_rw rw);
/* randrw and readwrite: each I/O a read or a write, rwmixread_pct reads. */
bool sc_rw_mixed(enum sc_rw rw);

#endif
