/* result.h -- what a rank measured in one phase, and a phase's record.
 *
 * Plain data shared by the worker (which fills a rank's part), the codec
 * (which packs it) and the coordinator (which merges and reports it).
 */
#ifndef SC_RESULT_H
#define SC_RESULT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "drive.h"
#include "histogram.h"
#include "io_opts.h"
#include "plan.h"
#include "verify.h"

enum sc_dir { SC_DIR_READ = 0, SC_DIR_WRITE = 1, SC_DIR_COUNT = 2 };

/* The histograms a rank keeps in a phase, reduced bucket-wise at rank 0. */
enum sc_hist_kind {
	SC_HK_LAT_READ = 0,   /* service time: submission to completion */
	SC_HK_LAT_WRITE = 1,
	SC_HK_RESP_READ = 2,  /* response time: intended start to completion
			       * (open loop only; empty otherwise) */
	SC_HK_RESP_WRITE = 3,
	SC_HK_BATCH_WAIT = 4, /* ingest: how long a step waited for its batch */
	SC_HK_COUNT = 5
};

#define SC_HOST_MAX 64
#define SC_ERROR_MAX 256

/* Failed I/Os: a rank counts every one by errno, and keeps the first
 * SC_IO_FAILURES_KEPT (by time) in full.  Errno 0 stands for a short
 * transfer (fewer bytes than asked, no error); errnos from
 * SC_ERRNO_SLOTS - 1 up are counted together in that last slot (Linux's
 * stop at 133). */
#define SC_ERRNO_SLOTS 256
#define SC_IO_FAILURES_KEPT 100
/* A kept failure's file, relative to its target (the tail when longer). */
#define SC_IO_FAILURE_FILE_MAX 128

/* Failed I/Os with one errno. */
struct sc_errno_count {
	int32_t err;                /* errno; 0 = short transfer */
	uint64_t count;
};

/* One failed I/O, as kept. */
struct sc_io_failure {
	int64_t time_ns;            /* completion, relative to the common start
				     * (comparable across ranks) */
	uint64_t offset_bytes;      /* in file */
	uint32_t len_bytes;         /* asked for; 0 for fsync */
	int32_t err;                /* errno; 0 = short transfer */
	uint8_t op;                 /* same values as enum sc_op (engine.h):
				     * 0 read, 1 write, 2 fsync */
	uint32_t job;               /* the rank's job (thread) that issued it */
	char file[SC_IO_FAILURE_FILE_MAX]; /* relative to the target's path;
				     * "" when the target is the file itself */
};

/* How a phase ended.  Results spell it sc_phase_status_name(). */
enum sc_phase_status {
	SC_PHASE_OK = 0,            /* no failed I/O, no rank stopped */
	SC_PHASE_ERRORS,            /* on_error continue: I/Os failed, every
				     * rank ran the phase to its end */
	SC_PHASE_STOPPED_ON_ERROR,  /* a rank stopped the phase at its first
				     * failure (stop-phase, or an error no rank
				     * can go on after); the others finished */
	SC_PHASE_ABORTED,           /* on_error abort: every rank stopped at the
				     * first failure; the record is partial */
	SC_PHASE_INTERRUPTED,       /* SIGINT or SIGTERM stopped it: what the
				     * ranks had measured until then */
	SC_PHASE_TIMED_OUT,         /* a rank missed the phase's deadline (dead
				     * or hung): nothing measured, the late
				     * ranks named in their rows' errors */
	SC_PHASE_STATUS_COUNT
};

/* One second of a per-second series.  Second k covers [k s, k+1 s) after
 * the phase's measured start (common start + ramp) on rank 0's clock. */
struct sc_second {
	uint64_t bytes[SC_DIR_COUNT];
	uint64_t ios[SC_DIR_COUNT];
	uint64_t max_lat_ns[SC_DIR_COUNT];
	uint64_t max_temp_mk;       /* hottest drive temperature read in the
				     * second, milli-kelvin (deg C x 1000 +
				     * SC_TEMP_MK_OFFSET); 0 = none read */
};

/* Milli-kelvin at 0 deg C: a temperature t (millidegrees C) is kept as
 * t + SC_TEMP_MK_OFFSET, so that 0 stays "none". */
#define SC_TEMP_MK_OFFSET 273150
/* Milli-kelvin (or millidegrees) per degree. */
#define SC_TEMP_MK_PER_C 1000.0

/* A temperature kept in milli-kelvin (as max_temp_mk), in deg C; NAN for 0
 * (none read). */
static inline double sc_temp_c(uint64_t mk)
{
	return mk ? ((double)mk - SC_TEMP_MK_OFFSET) / SC_TEMP_MK_PER_C : NAN;
}

/* Adds the n seconds of src into dst, second by second: bytes and ios
 * summed, the larger max_lat_ns and max_temp_mk kept.  dst holds at least n entries. */
void sc_seconds_add(struct sc_second *dst, const struct sc_second *src, uint32_t n);

/* A per-second series summed over a set of ranks (a node's, or every
 * rank's) with sc_seconds_add's rules. */
struct sc_series {
	uint32_t nseconds;
	struct sc_second *seconds;  /* heap, nseconds entries (NULL when 0) */
};

void sc_series_exit(struct sc_series *s);

/* The members of struct sc_second as two flat columns of uint64 for a
 * reduction with MPI's own operators: SC_SECOND_SUMS summed (bytes, ios per
 * direction) and SC_SECOND_MAXES kept at their largest (max_lat_ns per
 * direction, max_temp_mk), second k at [k * SC_SECOND_SUMS] and
 * [k * SC_SECOND_MAXES]. */
#define SC_SECOND_SUMS 4
#define SC_SECOND_MAXES 3

/* Writes the n seconds of s into len >= n seconds of columns, the seconds
 * past n zero (a shorter series adds nothing there). */
void sc_seconds_to_columns(const struct sc_second *s, uint32_t n, uint32_t len, uint64_t *sums,
			   uint64_t *maxes);
/* The inverse: len seconds into s. */
void sc_seconds_from_columns(struct sc_second *s, uint32_t len, const uint64_t *sums,
			     const uint64_t *maxes);

/* What rank 0 keeps of a phase's per-second series (issue 13): the
 * cluster's always, each node's while nodes x seconds is at most
 * SC_NODE_SERIES_MAX, each rank's own while ranks x seconds is at most
 * SC_RANK_SERIES_MAX (56 MiB of struct sc_second each: every rank of a
 * 291-rank run for an hour).  Past them the rows go without, and the
 * figures drawn from them (per-node lines, a drive's write curve and
 * temperatures) are left out, said so where they would be. */
#define SC_NODE_SERIES_MAX (1u << 20)
#define SC_RANK_SERIES_MAX (1u << 20)

static inline int sc_series_kept(uint32_t count, uint32_t nseconds, uint32_t max)
{
	return (uint64_t)count * nseconds <= max;
}

/* How a rank dropped the page cache before a procedure: mlperf group's
 * first restore (struct sc_rank_result cache_drop). */
#define SC_CACHE_DROP_FADVISE 1u /* posix_fadvise(POSIX_FADV_DONTNEED) on
				  * every checkpoint file the rank wrote */
#define SC_CACHE_DROP_PROC 2u	 /* "1" into /proc/sys/vm/drop_caches (root):
				  * the node's whole clean page cache */

/* One rank's phase, as gathered at rank 0.  Times are nanoseconds on rank
 * 0's clock relative to the phase's common start instant. */
struct sc_rank_result {
	uint32_t rank;
	uint32_t node;              /* node index: order of the node's lowest rank */
	char host[SC_HOST_MAX];
	uint32_t target;            /* index into plan.targets */
	int64_t clock_offset_ns;    /* rank 0's clock minus this rank's */
	int64_t start_ns;           /* when this rank actually started (skew) */
	int64_t end_ns;             /* last completion */
	uint64_t planned_bytes;     /* 0 for time-based phases */
	uint64_t bytes[SC_DIR_COUNT];
	uint64_t ios[SC_DIR_COUNT];
	uint64_t fsyncs;
	uint64_t firstdone_bytes;   /* bytes moved when the first rank finished */
	uint64_t errors;            /* failed I/Os */
	char error[SC_ERROR_MAX];   /* first error, "" if none */
	struct sc_lat_summary lat[SC_DIR_COUNT]; /* this rank's own summary */
	struct sc_lat_summary resp[SC_DIR_COUNT]; /* response times (open loop) */
	struct sc_lat_summary batch_wait;  /* ingest */
	uint64_t late_ios;          /* open loop: I/Os started after their
				     * intended start (queue full or stalled) */
	uint64_t unissued_ios;      /* open loop: intended before the phase
				     * ended but never started (the backlog) */
	uint32_t time_capped_jobs;  /* jobs runtime_max stopped before their
				     * io_bytes were done */
	uint64_t files;             /* checkpoint: files written or read */
	uint64_t delete_ns;         /* checkpoint with keep_last: the longest
				     * job's deletion of the checkpoint that
				     * fell out of the kept ones (after the
				     * write, not in end_ns) */
	/* async checkpoint cells (0 otherwise): the copy of the rank's bytes
	 * to host memory from the common start (training blocked), the
	 * writes after it to the last close, and how much longer those took
	 * than the training beside them (the next checkpoint would wait) */
	uint64_t blocking_ns;
	uint64_t drain_ns;
	uint64_t stall_ns;
	uint32_t cache_drop;        /* checkpoint, procedure mlperf: the
				     * SC_CACHE_DROP_* bits of what this rank
				     * did before the cell (0: nothing) */
	uint64_t cache_drop_files;  /* of them, files posix_fadvise dropped */
	uint64_t samples;           /* ingest: samples read */
	uint64_t steps;             /* ingest: batches consumed */
	uint64_t compute_ns;        /* ingest: emulated compute time */
	int64_t busy_end_ns;        /* ingest: when the last step's compute ended */
	uint64_t barrier_wait_ns;   /* ingest with step_barrier: the consumer's
				     * time blocked at the barrier after its
				     * steps (waiting for other ranks) */
	uint64_t au_steps;          /* training: the steps AU is taken over (each
				     * epoch's first left out, as DLIO) */
	uint64_t au_compute_ns;     /* training: their compute */
	uint64_t au_wall_ns;        /* training: the epochs' wall time without
				     * their first steps' load and compute */
	uint64_t peak_rss_bytes;    /* the rank's peak resident memory so far */
	uint32_t opts_asked;        /* io_opts.h: bits 1u << enum sc_io_opt the
				     * phase asked for */
	uint32_t opts_unavailable;  /* of them, those this rank ran without */
	char opts_note[SC_IO_OPT_NOTE_MAX]; /* why, per option ("" if none) */
	struct sc_lat_summary node_lat[SC_DIR_COUNT]; /* node leaders (local
				     * rank 0) only: the node's merged service
				     * times; empty on other ranks */
	uint32_t nseconds;          /* the rank's own series: at rank 0 only
				     * while sc_series_kept(ranks, seconds,
				     * SC_RANK_SERIES_MAX), else 0 */
	struct sc_second *seconds;  /* heap, nseconds entries */
	uint32_t nerrnos;           /* errors split by errno: entries with */
	struct sc_errno_count *errnos; /* count > 0, increasing err, summing to
				     * errors; heap (NULL when none) */
	uint32_t nfailures;         /* the first failed I/Os, at most */
	struct sc_io_failure *failures; /* SC_IO_FAILURES_KEPT, by time; heap */
	uint64_t verify_checked;    /* verify: blocks read and checked */
	uint64_t verify_mismatches; /* verify: of them, blocks that failed */
	uint32_t verify_nkept;
	struct sc_verify_mismatch *verify_kept; /* heap: the first mismatches, at
				     * most SC_VERIFY_KEEP, in job order */
	/* Drive telemetry (telemetry.h): the NVMe drives behind the target,
	 * their identity and health log before and after the phase; none
	 * (ndrives 0) with telemetry_none saying why ("no NVMe telemetry:
	 * ..."), or "" when the rank never looked (a phase that timed out). */
	char telemetry_none[SC_DRIVE_REASON_MAX];
	uint32_t ndrives;           /* at most SC_DRIVES_MAX */
	struct sc_drive *drives;    /* heap (NULL when none) */
	uint64_t host_memory_bytes; /* training: its host's memory (MemTotal), what
				     * potential caching is judged by */
	uint32_t naccels;           /* training: the rank's accelerators (at most
				     * SC_ACCELS_MAX); 0 in other phases and in
				     * records from before them */
	struct sc_accel_row *accels; /* heap, by index */
};

/* Most emulated accelerators one training rank runs (its job threads). */
#define SC_ACCELS_MAX 1024u

/* One emulated accelerator of a training rank: its figures as the rank's
 * au_* are for the rank (worker/workload/training.c). */
struct sc_accel_row {
	uint32_t index;             /* in the run: rank x per rank + a */
	uint64_t samples, steps;
	uint64_t au_steps, au_compute_ns, au_wall_ns; /* each epoch's first step
				     * left out, as DLIO */
	uint64_t barrier_wait_ns;   /* blocked at the step barrier */
};

/* One phase as rank 0 keeps it: every rank's row plus the merged
 * histograms.  This is what results.pb stores, and all cluster figures
 * are computed from it. */
struct sc_phase_record {
	uint32_t phase;             /* index into plan.phases */
	int64_t measure_start_ns;   /* common start + ramp, relative to start */
	int64_t firstdone_ns;       /* the first rank to finish: its end (the
				     * instant every rank was told of), from
				     * the common start like the rows' end_ns;
				     * 0 when unknown (no run finished, or a
				     * record written before it was kept) */
	int64_t merge_ns;           /* rank 0: reducing histograms, gathering
				     * and unpacking every rank's result */
	int64_t start_cost_ns;      /* rank 0: from preparing's end to the
				     * common start's broadcast (clock
				     * offsets, then the start instant) */
	uint32_t nranks;
	struct sc_rank_result *ranks; /* heap, sorted by rank; NULL once the
				       * phase is thinned (nranks kept) */
	/* Rank 0, while it keeps the phase: ranks[] as they were gathered,
	 * each rank's RankResult bytes framed as a value of PhaseRecord's
	 * `ranks` (sc_phase_record_add_rank), which results.pb copies rather
	 * than packing the rows again.  NULL (heap otherwise) when the rows
	 * came another way (read back, an empty record) and once thinned. */
	uint8_t *ranks_wire;
	size_t ranks_wire_len, ranks_wire_cap;
	struct sc_hist *lat[SC_DIR_COUNT]; /* heap, merged over all ranks */
	struct sc_hist *resp[SC_DIR_COUNT]; /* heap or NULL (no open loop) */
	struct sc_hist *batch_wait; /* heap or NULL (not ingest) */
	enum sc_phase_status status;
	/* The per-second series summed where they were made (each node's
	 * ranks, then across the nodes): the cluster's, and each node's by
	 * node index while sc_series_kept(nodes, seconds, SC_NODE_SERIES_MAX)
	 * (nnode_series 0 past it).  cluster is NULL in records written
	 * before them: every figure then sums the ranks' own seconds, which
	 * those records always hold. */
	struct sc_series *cluster;  /* heap or NULL */
	uint32_t nnode_series;
	struct sc_series *node_series; /* heap, nnode_series, by node index */
};

/* A whole run as results.pb keeps it: the plan and every finished phase. */
struct sc_run_record {
	char *version;              /* ssdcluster version that measured it */
	int64_t started_unix_ns;    /* wall clock at the run's start */
	uint32_t nranks;
	uint32_t nnodes;
	uint64_t rank0_peak_rss_bytes; /* rank 0's peak resident memory so far */
	int64_t startup_ns;         /* rank 0: from MPI_Init's return (node
				     * discovery, then the config parsed, the
				     * plan broadcast and checked) to the plan
				     * in every rank's hands; MPI_Init itself
				     * (the launcher's) is not in it */
	struct sc_plan plan;
	uint32_t nphases;           /* finished phases, in plan order */
	struct sc_phase_record *phases;
};

/* Frees what the record owns (ranks, their seconds, histograms). */
void sc_phase_record_exit(struct sc_phase_record *rec);

/* Frees the phase's rank rows and node series (ranks NULL, nnode_series
 * 0), keeping the rest: what rank 0 keeps of a phase once results.pb and
 * the tables hold it (record.h). */
void sc_phase_record_thin(struct sc_phase_record *rec);
void sc_rank_result_exit(struct sc_rank_result *r);
void sc_run_record_exit(struct sc_run_record *rec);

/* "ok", "errors", "stopped_on_error", "aborted", "interrupted",
 * "timed_out" (sc_phase_status_name gives "?" for another value). */
SC_ENUM_NAMES(phase_status, enum sc_phase_status);

/* How a phase with these ranks ended under on_error: aborted or stopped
 * when a rank stopped with an error, errors when I/Os failed but no rank
 * stopped, else ok. */
enum sc_phase_status sc_phase_status_of(enum sc_on_error on_error,
					const struct sc_rank_result *ranks, uint32_t nranks);

/* The name results give a failed I/O's errno: "EIO", ..., "short" for 0
 * (a short transfer), "E<n>" for one the C library cannot name.  buf
 * holds at least 16 bytes; returns the name. */
const char *sc_errno_name(int err, char *buf, size_t len);

#endif
