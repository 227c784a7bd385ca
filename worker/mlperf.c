/* mlperf.c -- MLPerf Storage v3.0's training workloads and DLIO's
 * arithmetic on them (mlperf.h). */
#include "mlperf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"

#define MS(x) ((uint64_t)((x)*1e9 + 0.5)) /* seconds to ns */

/* configs/dlio/workload/<benchmark>_<accelerator>.yaml of mlcommons/storage,
 * v3.0 (the commits are in docs/workloads.md).  Pairs the README marks as
 * having no workload file are left out: a config that wants one gives
 * every value itself. */
static const struct sc_mlperf_workload workloads[] = {
    {SC_MLPERF_UNET3D, SC_MLPERF_B200, SC_MLPERF_CLOSED, "npz", 7200, 1, 146600628, 68341808, 4, 7,
     2, MS(0.162), 5, 0.90},
    {SC_MLPERF_UNET3D, SC_MLPERF_H100, SC_MLPERF_WHATIF, "npz", 168, 1, 146600628, 68341808, 4, 7,
     2, MS(0.323), 5, 0.90},
    {SC_MLPERF_UNET3D, SC_MLPERF_A100, SC_MLPERF_WHATIF, "npz", 168, 1, 146600628, 68341808, 4, 7,
     2, MS(0.636), 5, 0.90},
    {SC_MLPERF_RETINANET, SC_MLPERF_B200, SC_MLPERF_CLOSED, "jpeg", 1170301, 1, 322957, 0, 8, 24, 2,
     MS(0.04755), 8, 0.85},
    {SC_MLPERF_RETINANET, SC_MLPERF_MI355, SC_MLPERF_CLOSED, "jpeg", 1170301, 1, 322957, 0, 8, 32,
     2, MS(0.0634), 8, 0.85},
    {SC_MLPERF_RESNET50, SC_MLPERF_H100, SC_MLPERF_WHATIF, "tfrecord", 1024, 1251, 114660, 0, 8,
     400, 2, MS(0.224), 5, 0.90},
    {SC_MLPERF_RESNET50, SC_MLPERF_A100, SC_MLPERF_WHATIF, "tfrecord", 1024, 1251, 114660, 0, 8,
     400, 2, MS(0.435), 5, 0.90},
    {SC_MLPERF_COSMOFLOW, SC_MLPERF_H100, SC_MLPERF_WHATIF, "tfrecord", 524288, 1, 2828486, 71311,
     4, 1, 2, MS(0.00350), 5, 0.70},
    {SC_MLPERF_COSMOFLOW, SC_MLPERF_A100, SC_MLPERF_WHATIF, "tfrecord", 524288, 1, 2828486, 71311,
     4, 1, 2, MS(0.00551), 5, 0.70},
    {SC_MLPERF_FLUX, SC_MLPERF_B200, SC_MLPERF_WHATIF, "parquet", 4296, 288, 2164832, 0, 8, 48, 2,
     MS(1.35), 1, 0.90},
    {SC_MLPERF_FLUX, SC_MLPERF_MI355, SC_MLPERF_WHATIF, "parquet", 4296, 288, 2164832, 0, 8, 72, 2,
     MS(2.025), 1, 0.90},
    {SC_MLPERF_DLRM, SC_MLPERF_B200, SC_MLPERF_WHATIF, "parquet", 1024, 4718592, 761, 0, 4, 16384,
     2, MS(0.000375), 1, 0.70},
    {SC_MLPERF_DLRM, SC_MLPERF_MI355, SC_MLPERF_WHATIF, "parquet", 1024, 4718592, 761, 0, 4, 16384,
     2, MS(0.0005625), 1, 0.70},
};

#define NWORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

const char *sc_mlperf_benchmark_name(enum sc_mlperf_benchmark b)
{
	static const char *const names[SC_MLPERF_BENCHMARK_COUNT] = {
	    [SC_MLPERF_UNET3D] = "unet3d",     [SC_MLPERF_RETINANET] = "retinanet",
	    [SC_MLPERF_RESNET50] = "resnet50", [SC_MLPERF_COSMOFLOW] = "cosmoflow",
	    [SC_MLPERF_FLUX] = "flux",	       [SC_MLPERF_DLRM] = "dlrm"};

	return (unsigned)b < SC_MLPERF_BENCHMARK_COUNT ? names[b] : "?";
}

const char *sc_mlperf_accelerator_name(enum sc_mlperf_accelerator a)
{
	static const char *const names[SC_MLPERF_ACCELERATOR_COUNT] = {[SC_MLPERF_B200] = "b200",
								       [SC_MLPERF_MI355] = "mi355",
								       [SC_MLPERF_H100] = "h100",
								       [SC_MLPERF_A100] = "a100"};

	return (unsigned)a < SC_MLPERF_ACCELERATOR_COUNT ? names[a] : "?";
}

const char *sc_mlperf_status_name(enum sc_mlperf_status s)
{
	return s == SC_MLPERF_CLOSED ? "closed" : "what-if";
}

int sc_mlperf_benchmark_parse(const char *name)
{
	for (int b = 0; name && b < SC_MLPERF_BENCHMARK_COUNT; b++)
		if (strcmp(name, sc_mlperf_benchmark_name((enum sc_mlperf_benchmark)b)) == 0)
			return b;
	return -1;
}

int sc_mlperf_accelerator_parse(const char *name)
{
	for (int a = 0; name && a < SC_MLPERF_ACCELERATOR_COUNT; a++)
		if (strcmp(name, sc_mlperf_accelerator_name((enum sc_mlperf_accelerator)a)) == 0)
			return a;
	return -1;
}

const struct sc_mlperf_workload *sc_mlperf_find(enum sc_mlperf_benchmark b,
						enum sc_mlperf_accelerator a)
{
	for (uint32_t i = 0; i < NWORKLOADS; i++)
		if (workloads[i].benchmark == b && workloads[i].accelerator == a)
			return &workloads[i];
	return NULL;
}

const struct sc_mlperf_workload *sc_mlperf_all(uint32_t *n)
{
	*n = (uint32_t)NWORKLOADS;
	return workloads;
}

uint64_t sc_mlperf_steps_per_epoch(uint64_t files, uint32_t samples_per_file, uint32_t batch,
				   uint32_t accelerators)
{
	unsigned __int128 samples = (unsigned __int128)files * samples_per_file;

	if (!batch || !accelerators)
		return 0;
	return (uint64_t)(samples / batch / accelerators);
}

/* ceil(a / b) for b > 0, UINT64_MAX past 2^64. */
static uint64_t ceil_div(unsigned __int128 a, unsigned __int128 b)
{
	unsigned __int128 q = (a + b - 1) / b;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

uint64_t sc_mlperf_min_files(uint64_t client_ram_bytes, uint32_t accelerators, uint32_t batch,
			     uint32_t samples_per_file, uint64_t record_bytes)
{
	uint64_t by_ram, by_steps;

	if (!client_ram_bytes || !accelerators || !batch || !samples_per_file || !record_bytes)
		return 0;
	by_ram = ceil_div((unsigned __int128)5 * client_ram_bytes,
			  (unsigned __int128)samples_per_file * record_bytes);
	by_steps = ceil_div((unsigned __int128)500 * accelerators * batch, samples_per_file);
	return by_ram > by_steps ? by_ram : by_steps;
}

void sc_mlperf_block(uint64_t files, uint32_t samples_per_file, uint32_t accelerators, uint32_t acc,
		     uint64_t *first, uint64_t *count)
{
	unsigned __int128 total = (unsigned __int128)files * samples_per_file;
	uint64_t each = accelerators ? (uint64_t)(total / accelerators) : 0;

	*count = acc < accelerators ? each : 0;
	*first = acc < accelerators ? each * acc : 0;
}

/* A uniform draw in (0, 1) from key k. */
static double uniform(uint64_t *k)
{
	return ((double)(sc_pattern_splitmix(k) >> 11) + 0.5) / 9007199254740992.0;
}

/* Dimension draw i of file `file`: max(trunc(N(mean, sd)), 1). */
static uint64_t dimension(double mean, double sd, uint64_t seed, uint64_t file, int i)
{
	uint64_t k = seed ^ (file * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)i << 62);
	double u1 = uniform(&k), u2 = uniform(&k);
	/* Box-Muller: one standard normal from two uniforms */
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	double x = mean + sd * z;

	return x < 1.0 ? 1 : (uint64_t)x;
}

uint64_t sc_mlperf_file_bytes(uint64_t record_bytes, uint64_t record_stdev_bytes,
			      uint32_t samples_per_file, uint64_t seed, uint64_t file)
{
	double root = sqrt((double)record_bytes);
	uint64_t dim = (uint64_t)root, a = dim, b = dim;

	if (record_stdev_bytes && record_bytes) {
		double sd = (double)record_stdev_bytes / 2.0 / root;

		a = dimension((double)dim, sd, seed, file, 0);
		b = dimension((double)dim, sd, seed, file, 1);
	}
	return a * b * samples_per_file;
}

uint64_t sc_mlperf_mean_file_bytes(uint64_t record_bytes, uint64_t record_stdev_bytes,
				   uint32_t samples_per_file)
{
	uint64_t dim = (uint64_t)sqrt((double)record_bytes);
	unsigned __int128 four_times; /* (2 dim - 1)^2 = 4 (dim - 1/2)^2 */

	if (!record_stdev_bytes || !dim)
		four_times = (unsigned __int128)dim * dim * 4;
	else
		four_times = (unsigned __int128)(2 * dim - 1) * (2 * dim - 1);
	four_times = four_times / 4 * samples_per_file + four_times % 4 * samples_per_file / 4;
	return four_times > UINT64_MAX ? UINT64_MAX : (uint64_t)four_times;
}

void sc_mlperf_shuffle(uint64_t *idx, uint64_t n, uint64_t seed, uint32_t epoch)
{
	uint64_t k = seed + epoch;

	k = sc_pattern_splitmix(&k);
	/* Fisher-Yates, each swap partner drawn by multiply-shift */
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = (uint64_t)(((unsigned __int128)sc_pattern_splitmix(&k) * i) >> 64);
		uint64_t t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

uint32_t sc_mlperf_search_next(const uint32_t *k, const bool *pass, uint32_t n, uint32_t max,
			       uint32_t *answer)
{
	uint32_t lo = 0, hi = max + 1; /* largest passing, smallest failing */

	*answer = 0;
	if (!n)
		return max ? 1 : 0;
	for (uint32_t i = 0; i < n; i++) {
		if (pass[i] && k[i] > lo)
			lo = k[i];
		if (!pass[i] && k[i] < hi)
			hi = k[i];
	}
	if (lo >= hi) /* a noisy machine: a count passed above one that failed */
		lo = hi - 1;
	if (hi == max + 1) { /* nothing failed yet: double */
		if (lo >= max) {
			*answer = max;
			return 0;
		}
		return lo * 2 < max ? lo * 2 : max;
	}
	if (hi - lo <= 1) {
		*answer = lo;
		return 0;
	}
	return lo + (hi - lo) / 2;
}

uint32_t sc_mlperf_search_trials_max(uint32_t max)
{
	uint32_t k[64], most = 0, answer;
	bool pass[64];

	/* every true answer a in 0..max: trials pass while k <= a */
	for (uint32_t a = 0; a <= max; a++) {
		uint32_t n = 0, next = sc_mlperf_search_next(k, pass, 0, max, &answer);

		while (next && n < 64) {
			k[n] = next;
			pass[n] = next <= a;
			n++;
			next = sc_mlperf_search_next(k, pass, n, max, &answer);
		}
		if (n > most)
			most = n;
	}
	return most;
}

uint64_t sc_mlperf_host_memory_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	uint64_t kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %" SCNu64 " kB", &kib) == 1)
			break;
	fclose(f);
	return kib <= UINT64_MAX / 1024 ? kib * 1024 : 0;
}
