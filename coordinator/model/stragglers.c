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

/* The bytes the samples are rescaled to: the largest class's, or
 * bytes_per_drive without classes (0: times as they are). */
static uint64_t ref_bytes(const struct sc_model_ckpt_in *in)
{
	uint64_t ref = 0;

	if (!in->classes)
		return in->bytes_per_drive;
	for (uint32_t j = 0; j < in->nclasses; j++)
		if (in->classes[j].bytes > ref)
			ref = in->classes[j].bytes;
	return ref;
}

/* Checks the classes; sets the drives of the cluster. */
static int check_classes(const struct sc_model_ckpt_in *in, uint64_t *total)
{
	if (!in->classes) {
		if (!in->nodes || !in->drives_per_node)
			return -EINVAL;
		*total = (uint64_t)in->nodes * in->drives_per_node;
		return 0;
	}
	*total = 0;
	if (!in->nclasses)
		return -EINVAL;
	for (uint32_t j = 0; j < in->nclasses; j++) {
		if (!in->classes[j].bytes || !in->classes[j].count)
			return -EINVAL;
		*total += in->classes[j].count;
	}
	return 0;
}

/* Checks in; sets the longest series, the number of samples and the
 * drives of the cluster. */
static int check_in(const struct sc_model_ckpt_in *in, uint32_t *longest, uint64_t *nsamples,
		    uint64_t *total)
{
	uint64_t ref;

	if (!in || !in->drives || !in->ndrives || check_classes(in, total))
		return -EINVAL;
	ref = ref_bytes(in);
	*longest = 0;
	*nsamples = 0;
	for (uint32_t d = 0; d < in->ndrives; d++) {
		const struct sc_model_drive *dr = &in->drives[d];

		if (!dr->nckpts || !dr->dur_ns || (ref && !dr->bytes))
			return -EINVAL;
		for (uint32_t c = 0; ref && c < dr->nckpts; c++)
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

/* The checkpoints pooled into each row: the fewest, up to longest, whose
 * S drives give SC_MODEL_ROW_MIN_SAMPLES samples. */
static uint32_t row_width(uint32_t ndrives, uint32_t longest)
{
	uint32_t w = (SC_MODEL_ROW_MIN_SAMPLES + ndrives - 1) / ndrives;

	return w < longest ? w : longest;
}

/* trend[c]: the mean over the drives of their times at aligned index c. */
static void fill_trend(const struct sc_model_ckpt_in *in, uint32_t longest, double *trend)
{
	for (uint32_t c = 0; c < longest; c++) {
		double sum = 0;

		for (uint32_t d = 0; d < in->ndrives; d++)
			sum += sample_ns(&in->drives[d], c, longest, ref_bytes(in));
		trend[c] = sum / in->ndrives;
	}
}

/* rows[c * width * S ..]: the row of index c, ascending: every drive's
 * times at the width aligned indices nearest c (a window shifted to stay
 * inside the series), each moved from its own checkpoint's trend to c's.
 * NULL when out of memory. */
static double *sorted_rows(const struct sc_model_ckpt_in *in, uint32_t longest, uint32_t width)
{
	size_t n = (size_t)width * in->ndrives;
	double *rows, *trend;

	if ((uint64_t)longest * n > SIZE_MAX / sizeof(*rows))
		return NULL;
	rows = malloc((size_t)longest * n * sizeof(*rows));
	trend = malloc((size_t)longest * sizeof(*trend));
	if (!rows || !trend) {
		free(trend);
		free(rows);
		return NULL;
	}
	fill_trend(in, longest, trend);
	for (uint32_t c = 0; c < longest; c++) {
		double *row = rows + (size_t)c * n;
		uint32_t lo = c > width / 2 ? c - width / 2 : 0;
		size_t k = 0;

		if (lo + width > longest)
			lo = longest - width;
		for (uint32_t i = lo; i < lo + width; i++)
			for (uint32_t d = 0; d < in->ndrives; d++)
				row[k++] = sample_ns(&in->drives[d], i, longest, ref_bytes(in)) *
					   (trend[i] > 0 ? trend[c] / trend[i] : 1);
		qsort(row, n, sizeof(*row), cmp_double);
	}
	free(trend);
	return rows;
}

/* The slowest of k drives drawn with replacement from the s sorted times
 * of row: P(max <= row[j-1]) = (j/s)^k, so j = ceil(s * u^(1/k)). */
static double draw_max(const double *row, size_t s, double k, uint64_t *state)
{
	double j = ceil((double)s * exp(log(next_unit(state)) / k));

	if (j < 1)
		j = 1;
	if (j > s)
		j = s;
	return row[(uint32_t)j - 1];
}

/* One trial's cluster time at aligned index row: the slowest class's
 * slowest drive, each class's rescaled from the reference bytes. */
static double draw_trial(const struct sc_model_ckpt_in *in, const double *row, size_t n,
			 uint64_t ref, uint64_t *state)
{
	double worst = 0;

	if (!in->classes)
		return draw_max(row, n, (double)in->nodes * (double)in->drives_per_node, state);
	for (uint32_t j = 0; j < in->nclasses; j++) {
		const struct sc_model_class *cl = &in->classes[j];
		double t = draw_max(row, n, (double)cl->count, state) *
			   ((double)cl->bytes / (double)ref);

		worst = fmax(worst, t);
	}
	return worst;
}

int sc_model_ckpt(const struct sc_model_ckpt_in *in, struct sc_model_ckpt *out)
{
	uint32_t longest, trials, width;
	uint64_t nsamples, total, state;
	double *rows, *maxima, sum = 0;
	size_t rank, n;
	int ret = check_in(in, &longest, &nsamples, &total);

	if (ret)
		return ret;
	if (!out)
		return -EINVAL;
	trials = in->trials ? in->trials : SC_MODEL_TRIALS_DEFAULT;
	width = row_width(in->ndrives, longest);
	n = (size_t)width * in->ndrives;
	rows = sorted_rows(in, longest, width);
	maxima = malloc((size_t)trials * sizeof(*maxima));
	if (!rows || !maxima) {
		ret = -ENOMEM;
		goto out_free;
	}
	state = in->seed;
	for (uint32_t t = 0; t < trials; t++) {
		uint32_t c = next_index(&state, longest);

		maxima[t] = draw_trial(in, rows + (size_t)c * n, n, ref_bytes(in), &state);
		sum += maxima[t];
	}
	qsort(maxima, trials, sizeof(*maxima), cmp_double);
	rank = (size_t)ceil(P90 * trials);
	out->mean_ns = sum / trials;
	out->p90_ns = maxima[rank ? rank - 1 : 0];
	out->max_sample_ns = 0;
	for (uint32_t c = 0; c < longest; c++)
		out->max_sample_ns = fmax(out->max_sample_ns, rows[(size_t)c * n + n - 1]);
	out->nsamples = nsamples;
	out->ndrives_total = total;
	out->beyond_samples = out->ndrives_total > SC_MODEL_SUPPORT_RATIO * nsamples;
	out->trials = trials;
out_free:
	free(maxima);
	free(rows);
	return ret;
}

/* ---- the exponential tail (the alternative assumption) ------------- */

/* The share of the slowest samples the exponential tail is fitted to. */
#define TAIL_SHARE 10u
/* The tail is integrated until the cluster's chance of exceeding x falls
 * under this. */
#define TAIL_EPS 1e-15
/* Gauss-Legendre intervals per step of the samples, and over the tail
 * beyond the last step. */
#define QUAD_STEP 8u
#define QUAD_TAIL 4096u

/* The hybrid distribution: the sorted samples x[0..s) below u, an
 * exponential tail of mass zeta and mean excess beta above. */
struct tail_fit {
	const double *x;
	uint32_t below; /* samples under the tail: x[0..below) */
	uint64_t s;
	double u, beta, zeta;
};

/* P(X <= t). */
static double tail_cdf(const struct tail_fit *f, double t)
{
	uint32_t lo = 0, hi = f->below;

	if (t >= f->u)
		return f->beta > 0 ? 1 - f->zeta * exp(-(t - f->u) / f->beta) : 1;
	while (lo < hi) { /* samples <= t */
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->x[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)lo / (double)f->s;
}

/* 1 - P(max over the classes <= x): class j has count[j] drives whose
 * times are ratio[j] x the reference times. */
static double tail_excess(const struct tail_fit *f, const double *ratio, const double *count,
			  uint32_t n, double x)
{
	double logp = 0;

	for (uint32_t j = 0; j < n; j++) {
		double p = tail_cdf(f, x / ratio[j]);

		if (p <= 0)
			return 1;
		logp += count[j] * log(p);
	}
	return -expm1(logp);
}

/* Integral of tail_excess over [a, b] by m two-point Gauss-Legendre
 * intervals (no endpoints: the steps of the samples sit there). */
static double tail_quad(const struct tail_fit *f, const double *ratio, const double *count,
			uint32_t n, double a, double b, uint32_t m)
{
	double h = (b - a) / m, off = h / (2 * sqrt(3)), sum = 0;

	for (uint32_t i = 0; i < m; i++) {
		double mid = a + (i + 0.5) * h;

		sum += tail_excess(f, ratio, count, n, mid - off) +
		       tail_excess(f, ratio, count, n, mid + off);
	}
	return sum * h / 2;
}

/* The pooled samples of in, sorted, rescaled to ref; NULL when out of memory. */
static double *pooled(const struct sc_model_ckpt_in *in, uint64_t nsamples, uint64_t ref)
{
	double *x = malloc((size_t)nsamples * sizeof(*x));
	size_t n = 0;

	if (!x)
		return NULL;
	for (uint32_t d = 0; d < in->ndrives; d++) {
		const struct sc_model_drive *dr = &in->drives[d];

		for (uint32_t c = 0; c < dr->nckpts; c++)
			x[n++] = sample_ns(dr, c, dr->nckpts, ref);
	}
	qsort(x, n, sizeof(*x), cmp_double);
	return x;
}

/* Fits the tail to the slowest tenth of x[0..s). */
static void tail_fit(const double *x, uint64_t s, struct tail_fit *f)
{
	uint64_t k = (s + TAIL_SHARE - 1) / TAIL_SHARE;
	double excess = 0;

	f->x = x;
	f->s = s;
	f->below = (uint32_t)(s - k);
	f->u = x[f->below ? f->below - 1 : 0];
	for (uint64_t i = f->below; i < s; i++)
		excess += x[i] - f->u;
	f->beta = excess / (double)k;
	f->zeta = (double)k / (double)s;
}

/* E[max]: steps below the thresholds, then the tail, by quadrature. */
static double tail_mean(const struct tail_fit *f, const double *ratio, const double *count,
			uint32_t n, double *bp)
{
	uint32_t nbp = 0;
	double total = 0, ktot = 0, top = 0, prev = 0;

	for (uint32_t j = 0; j < n; j++) {
		for (uint32_t i = 0; i < f->below; i++)
			bp[nbp++] = f->x[i] * ratio[j];
		bp[nbp++] = f->u * ratio[j];
		ktot += count[j];
		top = fmax(top, ratio[j]);
	}
	qsort(bp, nbp, sizeof(*bp), cmp_double);
	for (uint32_t i = 0; i < nbp; i++) {
		if (bp[i] > prev)
			total += tail_quad(f, ratio, count, n, prev, bp[i], QUAD_STEP);
		prev = fmax(prev, bp[i]);
	}
	if (f->beta > 0) {
		double end = top * (f->u + f->beta * log(f->zeta * ktot / TAIL_EPS));

		if (end > prev)
			total += tail_quad(f, ratio, count, n, prev, end, QUAD_TAIL);
	}
	return total;
}

int sc_model_ckpt_tail_exp(const struct sc_model_ckpt_in *in, double *mean_ns)
{
	uint32_t longest, n;
	uint64_t nsamples, total, ref;
	double *x, *ratio, *count, *bp;
	struct tail_fit f;
	int ret = check_in(in, &longest, &nsamples, &total);

	if (ret)
		return ret;
	if (!mean_ns)
		return -EINVAL;
	ref = ref_bytes(in);
	n = in->classes ? in->nclasses : 1;
	x = pooled(in, nsamples, ref);
	ratio = malloc(n * sizeof(*ratio));
	count = malloc(n * sizeof(*count));
	bp = malloc(((size_t)nsamples + 1) * n * sizeof(*bp));
	if (!x || !ratio || !count || !bp) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (uint32_t j = 0; j < n; j++) {
		ratio[j] = in->classes ? (double)in->classes[j].bytes / (double)ref : 1;
		count[j] = in->classes ? (double)in->classes[j].count : (double)total;
	}
	tail_fit(x, nsamples, &f);
	*mean_ns = tail_mean(&f, ratio, count, n, bp);
out_free:
	free(bp);
	free(count);
	free(ratio);
	free(x);
	return ret;
}
