/* stragglers.c -- the slowest of N x D drives: a trend over the checkpoints
 * times a spread with a fitted tail, and its bootstrap band. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "tail_fit.h"

/* splitmix64 (Steele, Lea, Flood 2014): one 64-bit state, full period. */
#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ull
#define SPLITMIX_MUL1  0xbf58476d1ce4e5b9ull
#define SPLITMIX_MUL2  0x94d049bb133111ebull

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
	uint64_t r = next_u64(state) >> 11;

	return (double)(r + 1) / 9007199254740992.0; /* 2^53 */
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

/* ---- the fitted tail and its band --------------------------------- */

/* The t statistic a trend's slope must exceed to be kept (about 5%,
 * two-sided). */
#define TREND_T 2.0
/* A time under 1 ns is taken as 1 ns in the trend's logarithm. */
#define LOG_FLOOR_NS 1.0
/* The band rests on the 2.5th and 97.5th percentiles of the bootstrap
 * replicates (the 5th..95th covered the truth in only 86-89 % of the
 * seeded replications of tests/unit/coordinator/test_model_tail.c with 40 samples of
 * a stall mixture). */
#define BAND_LO 0.025
#define BAND_HI 0.975

/* The pooled samples: value (ns at the reference bytes) and position on
 * the longest series, then the fit: trend exp(a + b c), residual ratios
 * r (sorted), the trend at each index. */
struct pool {
	size_t n;
	uint32_t longest;
	double *val, *pos, *r, *scale, *scratch;
	double a, b;
	struct sc_tail tail[SC_MODEL_TAILS];
};

const uint32_t sc_model_tail_share[SC_MODEL_TAILS] = {10, 5};

/* The trend: a least-squares line of log time over the position; its
 * slope kept only when |t| > TREND_T. */
static void fit_trend(struct pool *p)
{
	double mp = 0, ml = 0, sxx = 0, sxy = 0, see = 0;

	for (size_t i = 0; i < p->n; i++) {
		mp += p->pos[i] / (double)p->n;
		ml += log(fmax(p->val[i], LOG_FLOOR_NS)) / (double)p->n;
	}
	for (size_t i = 0; i < p->n; i++) {
		double dp = p->pos[i] - mp;

		sxx += dp * dp;
		sxy += dp * (log(fmax(p->val[i], LOG_FLOOR_NS)) - ml);
	}
	p->b = p->n > 2 && sxx > 0 ? sxy / sxx : 0;
	for (size_t i = 0; p->b != 0 && i < p->n; i++) {
		double e = log(fmax(p->val[i], LOG_FLOOR_NS)) - ml - p->b * (p->pos[i] - mp);

		see += e * e;
	}
	if (p->b != 0 && !(fabs(p->b) > TREND_T * sqrt(see / (double)(p->n - 2) / sxx)))
		p->b = 0;
	p->a = ml - p->b * mp;
}

/* Whether t is a heavy tail (a GPD with xi > 0), a bounded one (xi < 0). */
static bool heavy(const struct sc_tail *t)
{
	return t->gpd && t->xi > 0;
}

static bool bounded(const struct sc_tail *t)
{
	return t->gpd && t->xi < 0;
}

/* Trend, residuals, tails of p's values; the trend at each index.  A
 * heavy tail where the other threshold finds a bounded one is replaced by
 * the exponential: a staircase of stalls looks heavy above one threshold
 * (few large gaps over many small excesses) and bounded above the other;
 * a heavy tail is heavy or (too few excesses to tell) exponential above
 * both. */
static void fit_pool(struct pool *p)
{
	fit_trend(p);
	for (size_t i = 0; i < p->n; i++)
		p->r[i] = p->val[i] / exp(p->a + p->b * p->pos[i]);
	qsort(p->r, p->n, sizeof(*p->r), cmp_double);
	for (uint32_t c = 0; c < p->longest; c++)
		p->scale[c] = exp(p->a + p->b * c);
	for (uint32_t i = 0; i < SC_MODEL_TAILS; i++)
		sc_tail_fit(p->r, p->n, sc_tail_exceedances(p->n, sc_model_tail_share[i]),
			    &p->tail[i]);
	for (uint32_t i = 0; i < SC_MODEL_TAILS; i++)
		if (heavy(&p->tail[i]) && bounded(&p->tail[SC_MODEL_TAILS - 1 - i]))
			sc_tail_exponential(&p->tail[i]);
}

static void pool_free(struct pool *p)
{
	free(p->val);
	free(p->pos);
	free(p->r);
	free(p->scale);
	free(p->scratch);
}

/* Allocates p for n samples of series up to longest, nclass classes. */
static int pool_alloc(struct pool *p, size_t n, uint32_t longest, uint32_t nclass)
{
	*p = (struct pool){.n = n, .longest = longest};
	p->val = malloc(n * sizeof(*p->val));
	p->pos = malloc(n * sizeof(*p->pos));
	p->r = malloc(n * sizeof(*p->r));
	p->scale = malloc(longest * sizeof(*p->scale));
	p->scratch = malloc((n + 2) * nclass * sizeof(*p->scratch));
	if (p->val && p->pos && p->r && p->scale && p->scratch)
		return 0;
	pool_free(p);
	return -ENOMEM;
}

/* Every drive's samples, rescaled to ref, each at the centre of its
 * share of the longest series (series of different lengths aligned by
 * position). */
static void gather(const struct sc_model_ckpt_in *in, uint64_t ref, struct pool *p)
{
	size_t k = 0;

	for (uint32_t d = 0; d < in->ndrives; d++) {
		const struct sc_model_drive *dr = &in->drives[d];

		for (uint32_t i = 0; i < dr->nckpts; i++, k++) {
			p->val[k] = sample_ns(dr, i, dr->nckpts, ref);
			p->pos[k] = (i + 0.5) * p->longest / dr->nckpts - 0.5;
		}
	}
}

/* The classes as ratios of the reference bytes and counts. */
struct classes {
	uint32_t n;
	double *ratio, *count;
};

static int classes_of(const struct sc_model_ckpt_in *in, uint64_t total, struct classes *cl)
{
	uint64_t ref = ref_bytes(in);

	cl->n = in->classes ? in->nclasses : 1;
	cl->ratio = malloc(cl->n * sizeof(*cl->ratio));
	cl->count = malloc(cl->n * sizeof(*cl->count));
	if (!cl->ratio || !cl->count)
		return -ENOMEM;
	for (uint32_t j = 0; j < cl->n; j++) {
		cl->ratio[j] = in->classes ? (double)in->classes[j].bytes / (double)ref : 1;
		cl->count[j] = in->classes ? (double)in->classes[j].count : (double)total;
	}
	return 0;
}

/* The figures of a fitted pool: the mean of its tails'. */
static void pool_max(const struct pool *p, const struct classes *cl, double *mean, double *p90)
{
	*mean = *p90 = 0;
	for (uint32_t i = 0; i < SC_MODEL_TAILS; i++) {
		double m, q;

		/* a flat trend is one index */
		sc_tail_max(&p->tail[i], cl->ratio, cl->count, cl->n, p->scale,
			    p->b != 0 ? p->longest : 1, p->scratch, &m, &q);
		*mean += m / SC_MODEL_TAILS;
		*p90 += q / SC_MODEL_TAILS;
	}
}

/* The q-quantile of the sorted v[0..n), linear between ranks. */
static double quantile(const double *v, uint32_t n, double q)
{
	double h = q * (n - 1);
	uint32_t i = (uint32_t)h;

	return i + 1 < n ? v[i] + (h - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* The band of figure est from its n sorted replicates v: the union of
 * the percentile interval [q_lo, q_hi] and the basic one [2 est - q_hi,
 * 2 est - q_lo].  The replicates repeat the estimator's own bias (a
 * bounded tail's end point fitted too far out, all of them high); the
 * basic interval reflects it back, and is the one that covers the truth
 * there, the percentile one where the replicates' skew matters (stalls). */
static void band_of(const double *v, uint32_t n, double est, double *lo, double *hi)
{
	double qlo = quantile(v, n, BAND_LO), qhi = quantile(v, n, BAND_HI);

	*lo = fmin(qlo, 2 * est - qhi);
	*hi = fmax(qhi, 2 * est - qlo);
}

/* One residual from the fitted distribution: a sample below the threshold,
 * or the threshold plus a draw of the fitted tail (inverse transform). */
static double draw_resid(const struct sc_tail *t, uint64_t *state)
{
	size_t i = next_index(state, (uint32_t)t->n);
	double v;

	if (i < t->below || !(t->sigma > 0))
		return t->x[i];
	v = next_unit(state);
	if (!t->gpd || t->xi == 0)
		return t->u - t->sigma * log(v);
	return t->u + t->sigma / t->xi * expm1(-t->xi * log(v));
}

/* The band: B replicates, each the fitted trend times residuals drawn from
 * the fitted distribution (the samples below u, the fitted tail above: a
 * bootstrap that is not bounded by the largest sample), refitted (trend,
 * threshold, tail) and projected. */
static int band(const struct sc_model_ckpt_in *in, const struct pool *p, const struct classes *cl,
		struct sc_model_ckpt *out)
{
	uint32_t nb = in->trials;
	double *m = malloc(nb * sizeof(*m)), *q = malloc(nb * sizeof(*q));
	uint64_t state = in->seed;
	struct pool bp;
	int ret = pool_alloc(&bp, p->n, p->longest, cl->n);

	if (ret || !m || !q) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(bp.pos, p->pos, p->n * sizeof(*bp.pos));
	for (uint32_t b = 0; b < nb; b++) {
		for (size_t i = 0; i < p->n; i++)
			bp.val[i] = exp(p->a + p->b * p->pos[i]) *
				    draw_resid(&p->tail[b % SC_MODEL_TAILS], &state);
		fit_pool(&bp);
		pool_max(&bp, cl, &m[b], &q[b]);
	}
	qsort(m, nb, sizeof(*m), cmp_double);
	qsort(q, nb, sizeof(*q), cmp_double);
	band_of(m, nb, out->mean_ns, &out->mean_low_ns, &out->mean_high_ns);
	band_of(q, nb, out->p90_ns, &out->p90_low_ns, &out->p90_high_ns);
out:
	pool_free(&bp);
	free(q);
	free(m);
	return ret;
}

/* What the figures rest on, into out. */
static void describe(const struct pool *p, const struct sc_model_ckpt_in *in, uint64_t total,
		     struct sc_model_ckpt *out)
{
	out->max_sample_ns = 0;
	for (size_t i = 0; i < p->n; i++)
		out->max_sample_ns = fmax(out->max_sample_ns, p->val[i]);
	out->nsamples = p->n;
	out->ndrives_total = total;
	out->beyond_samples = total > p->n;
	out->ndrives_measured = in->ndrives;
	out->nckpts_max = p->longest;
	out->trend_per_ckpt = expm1(p->b);
	for (uint32_t i = 0; i < SC_MODEL_TAILS; i++) {
		const struct sc_tail *t = &p->tail[i];

		out->tail[i] = (struct sc_model_tail){.gpd = t->gpd,
						      .xi = t->gpd ? t->xi : 0,
						      .sigma = t->sigma,
						      .threshold = t->u,
						      .exceedances = t->k};
	}
}

int sc_model_ckpt(const struct sc_model_ckpt_in *in, struct sc_model_ckpt *out)
{
	uint32_t longest;
	uint64_t nsamples, total;
	struct classes cl = {0};
	struct sc_model_ckpt r = {0};
	struct pool p = {0};
	int ret = check_in(in, &longest, &nsamples, &total);

	if (ret || !out || nsamples > UINT32_MAX)
		return ret ? ret : -EINVAL;
	ret = classes_of(in, total, &cl);
	if (!ret)
		ret = pool_alloc(&p, (size_t)nsamples, longest, cl.n);
	if (ret)
		goto out_free;
	gather(in, ref_bytes(in), &p);
	fit_pool(&p);
	pool_max(&p, &cl, &r.mean_ns, &r.p90_ns);
	r.mean_low_ns = r.mean_high_ns = r.mean_ns;
	r.p90_low_ns = r.p90_high_ns = r.p90_ns;
	r.trials = in->trials;
	if (in->trials)
		ret = band(in, &p, &cl, &r);
	describe(&p, in, total, &r);
	if (!ret)
		*out = r;
out_free:
	pool_free(&p);
	free(cl.ratio);
	free(cl.count);
	return ret;
}

/* ---- the exponential tail (the alternative assumption) ------------- */

/* The share of the slowest samples the exponential tail is fitted to. */
#define TAIL_SHARE 10u

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

int sc_model_ckpt_tail_exp(const struct sc_model_ckpt_in *in, double *mean_ns)
{
	uint32_t longest;
	uint64_t nsamples, total, k;
	double *x, *scratch = NULL, one = 1, p90, excess = 0;
	struct classes cl = {0};
	struct sc_tail t;
	int ret = check_in(in, &longest, &nsamples, &total);

	if (ret || !mean_ns || nsamples > UINT32_MAX)
		return ret ? ret : -EINVAL;
	x = pooled(in, nsamples, ref_bytes(in));
	ret = classes_of(in, total, &cl);
	if (!ret && x)
		scratch = malloc(((size_t)nsamples + 2) * cl.n * sizeof(*scratch));
	if (ret || !x || !scratch) {
		ret = -ENOMEM;
		goto out_free;
	}
	/* the slowest tenth: k samples above u, the largest under them */
	k = (nsamples + TAIL_SHARE - 1) / TAIL_SHARE;
	t = (struct sc_tail){.x = x, .n = nsamples, .below = nsamples - k, .k = k};
	t.u = x[t.below ? t.below - 1 : 0];
	t.zeta = (double)k / (double)nsamples;
	for (size_t i = t.below; i < nsamples; i++)
		excess += x[i] - t.u;
	t.sigma = excess / (double)k;
	sc_tail_max(&t, cl.ratio, cl.count, cl.n, &one, 1, scratch, mean_ns, &p90);
out_free:
	free(scratch);
	free(cl.ratio);
	free(cl.count);
	free(x);
	return ret;
}
