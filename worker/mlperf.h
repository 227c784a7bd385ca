/* mlperf.h -- MLPerf Storage v3.0's training workloads as its engine, DLIO,
 * runs them: each benchmark's dataset and step on each emulated
 * accelerator, and the arithmetic DLIO does with them (steps per epoch,
 * the dataset's minimum size, the samples each accelerator reads, each
 * file's size).
 *
 * Sources (read, not copied): mlcommons/storage's
 * configs/dlio/workload/<benchmark>_<accelerator>.yaml, Rules.md and
 * mlpstorage_py/rules/utils.py; DLIO (mlcommons' fork of
 * argonne-lcf/dlio_benchmark): main.py _train, utils/statscounter.py,
 * data_generator/data_generator.py, reader/torch_data_loader.py.  The
 * commits each value was read at are in docs/workloads.md. */
#ifndef SC_MLPERF_H
#define SC_MLPERF_H

#include <stdbool.h>
#include <stdint.h>

enum sc_mlperf_benchmark {
	SC_MLPERF_UNET3D = 0,
	SC_MLPERF_RETINANET,
	SC_MLPERF_RESNET50,
	SC_MLPERF_COSMOFLOW,
	SC_MLPERF_FLUX,
	SC_MLPERF_DLRM,
	SC_MLPERF_BENCHMARK_COUNT
};

enum sc_mlperf_accelerator {
	SC_MLPERF_B200 = 0,
	SC_MLPERF_MI355,
	SC_MLPERF_H100,
	SC_MLPERF_A100,
	SC_MLPERF_ACCELERATOR_COUNT
};

/* Whether v3.0 accepts results of a pair: closed (and open) submissions,
 * or "what-if" only (planning, not submittable). */
enum sc_mlperf_status { SC_MLPERF_CLOSED = 0, SC_MLPERF_WHATIF };

/* One <benchmark>_<accelerator>.yaml of v3.0. */
struct sc_mlperf_workload {
	enum sc_mlperf_benchmark benchmark;
	enum sc_mlperf_accelerator accelerator;
	enum sc_mlperf_status status;
	const char *format; /* dataset.format: npz, jpeg, parquet, tfrecord */
	uint32_t files;	    /* num_files_train as written (a placeholder:
			     * the submission sizes it by the rule) */
	uint32_t samples_per_file;
	uint64_t record_bytes;	     /* record_length_bytes: a sample's mean */
	uint64_t record_stdev_bytes; /* record_length_bytes_stdev, 0: none */
	uint32_t read_threads;	     /* reader.read_threads */
	uint32_t batch;		     /* reader.batch_size */
	uint32_t prefetch_size;	     /* reader.prefetch_size (DLIO's default 2
				      * where the file sets none) */
	uint64_t computation_ns;     /* train.computation_time, a step's compute */
	uint32_t epochs;
	double au; /* metric.au: the AU a run must keep, (0, 1] */
};

const char *sc_mlperf_benchmark_name(enum sc_mlperf_benchmark b);
const char *sc_mlperf_accelerator_name(enum sc_mlperf_accelerator a);
const char *sc_mlperf_status_name(enum sc_mlperf_status s);

/* The enum value of a name ("unet3d", "b200"), or -1 when it is none. */
int sc_mlperf_benchmark_parse(const char *name);
int sc_mlperf_accelerator_parse(const char *name);

/* The workload of a pair, NULL when v3.0 defines none for it. */
const struct sc_mlperf_workload *sc_mlperf_find(enum sc_mlperf_benchmark b,
						enum sc_mlperf_accelerator a);

/* Every workload v3.0 defines, *n of them. */
const struct sc_mlperf_workload *sc_mlperf_all(uint32_t *n);

/* Steps of one accelerator in an epoch, as DLIO's _train:
 * floor(files x samples_per_file / batch / accelerators); 0 when any
 * argument is 0. */
uint64_t sc_mlperf_steps_per_epoch(uint64_t files, uint32_t samples_per_file, uint32_t batch,
				   uint32_t accelerators);

/* The fewest dataset files the rules allow (Rules.md 3.1.2): enough
 * samples that the dataset is 5x the clients' memory, and that every
 * accelerator has 500 steps, i.e.
 * max(ceil(5 x client_ram / (samples_per_file x record_bytes)),
 *     ceil(500 x accelerators x batch / samples_per_file)).
 * client_ram_bytes is the sum over hosts; 0 when an argument is 0,
 * UINT64_MAX when it does not fit. */
uint64_t sc_mlperf_min_files(uint64_t client_ram_bytes, uint32_t accelerators, uint32_t batch,
			     uint32_t samples_per_file, uint64_t record_bytes);

/* The samples accelerator `acc` of `accelerators` reads each epoch: the
 * contiguous block [*first, *first + *count) of the files x
 * samples_per_file sample indices, floor(total / accelerators) each (the
 * remainder is read by none), as DLIO's dlio_sampler. */
void sc_mlperf_block(uint64_t files, uint32_t samples_per_file, uint32_t accelerators, uint32_t acc,
		     uint64_t *first, uint64_t *count);

/* The bytes of dataset file `file`, as DLIO's generator sizes it: two
 * dimensions drawn from a normal distribution of mean
 * floor(sqrt(record_bytes)) and standard deviation
 * record_stdev_bytes / 2 / sqrt(record_bytes), each truncated to a whole
 * number and at least 1, multiplied, times samples_per_file.  With no
 * stdev, floor(sqrt(record_bytes))^2 x samples_per_file.  The draws are a
 * function of (seed, file) alone, so every node agrees on every size. */
uint64_t sc_mlperf_file_bytes(uint64_t record_bytes, uint64_t record_stdev_bytes,
			      uint32_t samples_per_file, uint64_t seed, uint64_t file);

/* The mean of sc_mlperf_file_bytes over files, in closed form: each
 * dimension is a normal draw about the whole number floor(sqrt(record_bytes))
 * truncated, whose mean is that number less 1/2 (a symmetric draw about a
 * whole number leaves a fraction of 1/2 on average; the cut at 1 is left
 * out), so (floor(sqrt(record_bytes)) - 1/2)^2 x samples_per_file; without
 * a stdev, floor(sqrt(record_bytes))^2 x samples_per_file.  Rounded down;
 * UINT64_MAX when it does not fit. */
uint64_t sc_mlperf_mean_file_bytes(uint64_t record_bytes, uint64_t record_stdev_bytes,
				   uint32_t samples_per_file);

/* Shuffles idx[0..n) in place, a permutation that depends on seed and
 * epoch alone (DLIO reseeds its shuffle with seed + epoch). */
void sc_mlperf_shuffle(uint64_t *idx, uint64_t n, uint64_t seed, uint32_t epoch);

/* This host's memory as MLPerf sizes by it (psutil's total: MemTotal of
 * /proc/meminfo), in bytes; 0 when it cannot be read. */
uint64_t sc_mlperf_host_memory_bytes(void);

/* The accelerator search (search: accelerators): trials of k accelerators
 * per rank, k = 1, then doubling while a trial passes (at most max), then
 * bisection between the largest passing k and the smallest failing one.
 * Given trials k[0..n) and whether each passed, returns the next trial's
 * k, or 0 when the search is over, with *answer the largest passing k
 * (0: even 1 failed; max: the largest tried passed, the drives may feed
 * more). */
uint32_t sc_mlperf_search_next(const uint32_t *k, const bool *pass, uint32_t n, uint32_t max,
			       uint32_t *answer);

/* The most trials a search up to max takes (whatever the answer). */
uint32_t sc_mlperf_search_trials_max(uint32_t max);

#endif
