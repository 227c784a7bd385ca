/* layout.h -- which target, region and files each rank's jobs use.
 *
 * A pure function of the plan and a rank's place on its node, so rank 0 can
 * work out every rank's files for --dry-run and capacity checks.
 */
#ifndef SC_LAYOUT_H
#define SC_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* Where one rank works. */
struct sc_place {
	uint32_t rank;
	uint32_t target;        /* index into plan->targets */
	uint32_t slot;          /* this rank's index among the node's ranks on it */
	uint32_t nslots;        /* ranks of the node sharing that target */
	uint32_t local_nranks;  /* ranks on this rank's node */
};

/* True when target t applies to host (t->hosts NULL or matching). */
int sc_layout_target_matches(const struct sc_target_spec *t, const char *host);

/* Picks the target of the local_rank-th of local_nranks ranks on host:
 * the node's matching targets are shared round-robin.  0, or -ENOENT when
 * no target matches host. */
int sc_layout_place(const struct sc_plan *plan, const char *host,
		    uint32_t rank, uint32_t local_rank, uint32_t local_nranks,
		    struct sc_place *out);

/* The run subdirectory of a directory target: "<path>/ssdcluster-<run_id>";
 * _name gives its last component.  0 or -ENAMETOOLONG. */
int sc_layout_run_dir(const struct sc_plan *plan, uint32_t target,
		      char *buf, size_t len);
int sc_layout_run_dir_name(const struct sc_plan *plan, char *buf, size_t len);

/* The name of a job's file in the run directory: "r<rank>.j<job>.dat".
 * 0 or -ENAMETOOLONG. */
int sc_layout_job_name(const struct sc_place *place, uint32_t job, char *buf, size_t len);

/* The distance between two jobs' regions on a file or block target:
 * offset_increment when given, else size (the regions side by side). */
uint64_t sc_layout_offset_increment(const struct sc_io_spec *io);

/* The file and starting offset of job `job` of the rank at place in phase.
 * Dir targets: "<run_dir>/r<rank>.j<job>.dat" at offset 0.  File and block
 * targets: the target itself at offset + ((slot * jobs) + job) x
 * sc_layout_offset_increment (fio's offset and offset_increment; by
 * default 0 and size).  Returns 0 or -ENAMETOOLONG. */
int sc_layout_job_file(const struct sc_plan *plan, const struct sc_place *place,
		       uint32_t phase, uint32_t job, char *path, size_t len,
		       uint64_t *offset_bytes);

/* Bytes of target capacity the run needs when nslots ranks of one node
 * share the target: dir targets, the sum of every job file's largest size
 * over all phases (verify_only phases read a kept run: none), plus every
 * checkpoint (at most nslots times the largest rank's share), ingest
 * dataset and the training dataset files the nslots ranks read
 * (sc_layout_training_files x the mean file); file/block targets, the
 * largest span of a phase's regions: offset + (nslots x jobs - 1) x
 * increment + size.  Saturates at UINT64_MAX (no capacity covers it)
 * instead of wrapping around. */
uint64_t sc_layout_need_bytes(const struct sc_plan *plan, uint32_t target,
			      uint32_t nslots);

/* Bytes the rank at place is planned to read and write in phase
 * (byte-based phases; time-based phases give 0 and 0).  For randrw the
 * split follows rwmixread_pct; the sum is exact.  Checkpoint cells: the
 * rank's scaled files; ingest: its steps x batch x sample size; training:
 * its steps per epoch x batch x epochs x the mean sample (the mean file /
 * samples_per_file).  Both saturate at UINT64_MAX. */
void sc_layout_rank_bytes(const struct sc_plan *plan, uint32_t phase,
			  const struct sc_place *place, uint64_t *read_bytes,
			  uint64_t *write_bytes);

/* Ingest: most dataset files a phase may have (sc_io.file is 16 bits wide:
 * an engine addresses at most this many files). */
#define SC_INGEST_MAX_FILES 65536u

/* Ingest: the steps (batches) the rank at place consumes when the phase
 * runs `epochs` (0 for a time-based phase): every epoch the node's ranks
 * share the node's dataset samples, each rank taking whole batches. */
uint64_t sc_layout_ingest_steps(const struct sc_plan *plan, uint32_t phase,
				const struct sc_place *place);

/* Training (worker/mlperf.h): the steps of each accelerator in an epoch,
 * floor(files x samples_per_file / batch / accelerators); 0 until the
 * accelerators are known. */
uint64_t sc_layout_training_steps(const struct sc_training_spec *t);

/* Training: the mean size of a dataset file (sc_mlperf_mean_file_bytes)
 * and the dataset's, files x that (saturating). */
uint64_t sc_layout_training_mean_file_bytes(const struct sc_training_spec *t);
uint64_t sc_layout_training_dataset_bytes(const struct sc_training_spec *t);

/* Training: the dataset files nslots ranks of one node read, which the node
 * holds.  A rank reads its block of the samples (sc_mlperf_block), which
 * spans ceil(block / samples_per_file) files, one more where a file holds
 * several samples and the block starts inside one; at most every file. */
uint64_t sc_layout_training_files(const struct sc_training_spec *t, uint32_t nslots);

/* Ingest: the dataset directory of phase on a target, which outlives the
 * run so that later runs reuse it:
 * "<path>/ssdcluster-datasets/<group>-<files>x<file_bytes>B" ('/' in the
 * group name becomes '_').  0 or -ENAMETOOLONG. */
int sc_layout_ingest_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase, char *buf,
			 size_t len);
/* The same below the target: "ssdcluster-datasets/<group>-...". */
int sc_layout_ingest_subdir(const struct sc_plan *plan, uint32_t phase, char *buf, size_t len);

/* Training: the dataset directory of phase on a target, which outlives
 * the run: "<target>/ssdcluster-datasets/<group>-<files>x<samples a
 * file>x<record>B-sd<stdev>-seed<seed>" (a dataset of other sizes is
 * another directory).  0 or -ENAMETOOLONG. */
int sc_layout_training_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase, char *buf,
			   size_t len);
/* The same below the target: "ssdcluster-datasets/<group>-...". */
int sc_layout_training_subdir(const struct sc_plan *plan, uint32_t phase, char *buf, size_t len);

/* Checkpoint phases.  The directory of one checkpoint on a target:
 * "<run dir>/<group>/global_epoch1_step<index>".  0 or -ENAMETOOLONG. */
int sc_layout_ckpt_dir(const struct sc_plan *plan, uint32_t target, uint32_t phase, char *buf,
		       size_t len);
/* The same below the run directory: "<group>/global_epoch1_step<index>". */
int sc_layout_ckpt_subdir(const struct sc_plan *plan, uint32_t phase, char *buf, size_t len);
/* The same for checkpoint `index` of phase's group (keep_last deletes one). */
int sc_layout_ckpt_step_subdir(const struct sc_plan *plan, uint32_t phase, uint32_t index,
			       char *buf, size_t len);

/* The rank whose files rank place->rank handles in phase: itself, or for a
 * restore with restore_shift s, the rank s nodes on (rank + s * ranks per
 * node, modulo the layout's ranks). */
uint32_t sc_layout_ckpt_source(const struct sc_plan *plan, uint32_t phase,
			       const struct sc_place *place);

/* The files of `rank` in checkpoint phase `phase`, scaled, in write order
 * (malloc'd array).  0 or -errno. */
int sc_layout_ckpt_files(const struct sc_plan *plan, uint32_t phase, uint32_t rank,
			 struct sc_ckpt_file **files, uint32_t *nfiles);

#endif
