/* stragglers.c -- the slowest of N x D drives, by resampling the measured ones. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "model.h"

/* The percentile reported beside the mean. */
#define P90 0.90

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, full period. */
#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ull
#define SPLITMIX_MUL1  0xbf58476d1ce4e5b9ull
#define SPLITMIX_MUL2  0x94d049bb133111ebull

/* Bits of a double's mantissa, for a uniform draw. */
#define MANTISSA_BITS 53

static uint64_t next_u64(uint64_t *state)
{
	uint64_t z = (*state += SPLITMIX_GAMMA);

	z = (z ^ (z >> 30)) * SPLITMIX_MUL1;
	z = (z ^ (z >> 27)) * SPLITMIX_MUL2;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]. */
static double next_unit(uint64_t *state)
{
	uint64_t r = next_u64(state) >> (64 - MANTISSA_BITS);

	return (double)(r + 1) / (double)(1ull << MANTISSA_BITS);
}

/* Uniform in [0, n), n >= 1 (multiply-shift; bias under n / 2^32). */
static uint32_t next_index(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((next_u64(state) >> 32) * (uint64_t)n) >> 32);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Checks in; sets the longest series and the number of samples. */
static int check_in(const struct sc_model_ckpt_in *in, uint32_t *longest, uint64_t *nsamples)
{
	if (!in || !in->drives || !in->ndrives || !in->nodes || !in->drives_per_node)
		return -EINVAL;
	*longest = 0;
	*nsamples = 0;
	for (uint32_t d = 0; d < in->ndrives; d++) {
		const struct sc_model_drive *dr = &in->drives[d];

		if (!dr->nckpts || !dr->dur_ns || (in->bytes_per_drive && !dr->bytes))
			return -EINVAL;
		for (uint32_t c = 0; in->bytes_per_drive && c < dr->nckpts; c++)
			if (!dr->bytes[c])
				return -EINVAL;
		if (dr->nckpts > *longest)
			*longest = dr->nckpts;
		*nsamples += dr->nckpts;
	}
	return 0;
}

/* Drive dr's time at aligned index c of longest, rescaled to bpd bytes. */
static double sample_ns(const struct sc_model_drive *dr, uint32_t c, uint32_t longest, uint64_t bpd)
{
	uint32_t i = (uint32_t)((uint64_t)c * dr->nckpts / longest);

	if (!bpd)
		return (double)dr->dur_ns[i];
	return (double)dr->dur_ns[i] * (double)bpd / (double)dr->bytes[i];
}

/* rows[c * S + d]: the S drives' times at index c, ascending; NULL when
 * out of memory. */
static double *sorted_rows(const struct sc_model_ckpt_in *in, uint32_t longest)
{
	uint32_t s = in->ndrives;
	double *rows;

	if ((uint64_t)longest * s > SIZE_MAX / sizeof(*rows))
		return NULL;
	rows = malloc((size_t)longest * s * sizeof(*rows));
	if (!rows)
		return NULL;
	for (uint32_t c = 0; c < longest; c++) {
		double *row = rows + (size_t)c * s;

		for (uint32_t d = 0; d < s; d++)
			row[d] = sample_ns(&in->drives[d], c, longest, in->bytes_per_drive);
		qsort(row, s, sizeof(*row), cmp_double);
	}
	return rows;
}

/* The slowest of k drives drawn with replacement from the s sorted times
 * of row: P(max <= row[j-1]) = (j/s)^k, so j = ceil(s * u^(1/k)). */
static double draw_max(const double *row, uint32_t s, double k, uint64_t *state)
{
	double j = ceil((double)s * exp(log(next_unit(state)) / k));

	if (j < 1)
		j = 1;
	if (j > s)
		j = s;
	return row[(uint32_t)j - 1];
}

int sc_model_ckpt(const struct sc_model_ckpt_in *in, struct sc_model_ckpt *out)
{
	uint32_t longest, trials;
	uint64_t nsamples, state;
	double *rows, *maxima, k, sum = 0;
	size_t rank;
	int ret = check_in(in, &longest, &nsamples);

	if (ret)
		return ret;
	if (!out)
		return -EINVAL;
	trials = in->trials ? in->trials : SC_MODEL_TRIALS_DEFAULT;
	rows = sorted_rows(in, longest);
	maxima = malloc((size_t)trials * sizeof(*maxima));
	if (!rows || !maxima) {
		ret = -ENOMEM;
		goto out_free;
	}
	k = (double)in->nodes * (double)in->drives_per_node;
	state = in->seed;
	for (uint32_t t = 0; t < trials; t++) {
		uint32_t c = next_index(&state, longest);

		maxima[t] = draw_max(rows + (size_t)c * in->ndrives, in->ndrives, k, &state);
		sum += maxima[t];
	}
	qsort(maxima, trials, sizeof(*maxima), cmp_double);
	rank = (size_t)ceil(P90 * trials);
	out->mean_ns = sum / trials;
	out->p90_ns = maxima[rank ? rank - 1 : 0];
	out->max_sample_ns = 0;
	for (uint32_t c = 0; c < longest; c++)
		out->max_sample_ns =
		    fmax(out->max_sample_ns, rows[(size_t)c * in->ndrives + in->ndrives - 1]);
	out->nsamples = nsamples;
	out->ndrives_total = (uint64_t)in->nodes * in->drives_per_node;
	out->beyond_samples = out->ndrives_total > SC_MODEL_SUPPORT_RATIO * nsamples;
	out->trials = trials;
out_free:
	free(maxima);
	free(rows);
	return ret;
}
