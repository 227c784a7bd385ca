/* tail_fit.c -- peaks over a threshold: a generalized Pareto or exponential
 * tail fitted to the slowest samples, and the slowest of many drives. */
#include <math.h>
#include <stdlib.h>

#include "tail_fit.h"

/* Bisection steps for the shape's bounds and the p90; golden-section
 * steps and grid points for the profile likelihood. */
#define BISECT_STEPS 80u
#define GOLDEN_STEPS 50u
#define GRID_POINTS  32u
/* Below this |theta| x the largest excess the GPD is the exponential. */
#define THETA_TINY 1e-9
/* The tail is integrated until the cluster's chance of exceeding x falls
 * under this. */
#define TAIL_EPS 1e-13
/* Two-point Gauss-Legendre intervals per step of the samples where a tail
 * takes part, per doubling segment of the tail, over a bounded tail. */
#define QUAD_STEP    8u
#define QUAD_SEGMENT 64u
#define QUAD_BOUNDED 4096u
#define MAX_SEGMENTS 200u
#define P90	     0.90
/* The p90's relative precision. */
#define P90_REL 1e-10

/* Excesses over the threshold: y[i] = x[below + i] - u. */
struct excess {
	const double *x;
	size_t k;
	double u, ymax, ymean;
};

static double yi(const struct excess *e, size_t i)
{
	return e->x[i] - e->u;
}

/* xi(theta) = mean of log(1 + theta y): the GPD's shape at theta = xi /
 * sigma (Grimshaw 1993), increasing in theta. */
static double xi_of(const struct excess *e, double theta)
{
	double s = 0;

	for (size_t i = 0; i < e->k; i++)
		s += log1p(theta * yi(e, i));
	return s / (double)e->k;
}

/* The profile log-likelihood at theta: -k log sigma - k (1 + xi). */
static double loglik(const struct excess *e, double theta, double *xi, double *sigma)
{
	if (fabs(theta) * e->ymax < THETA_TINY) { /* the exponential */
		*xi = 0;
		*sigma = e->ymean;
		return -(double)e->k * (log(e->ymean) + 1);
	}
	*xi = xi_of(e, theta);
	*sigma = *xi / theta;
	if (!(*sigma > 0))
		return -INFINITY;
	return -(double)e->k * (log(*sigma) + 1 + *xi);
}

/* The theta in (lo, hi) where xi(theta) = target, by bisection. */
static double theta_at(const struct excess *e, double lo, double hi, double target)
{
	for (unsigned i = 0; i < BISECT_STEPS; i++) {
		double mid = lo + (hi - lo) / 2;

		if (xi_of(e, mid) < target)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* Maximises the profile likelihood with xi in [-XI_MAX, XI_MAX]: a grid,
 * then golden section around its best point.  Returns the log-likelihood. */
static double fit_gpd(const struct excess *e, double *xi, double *sigma)
{
	double hi = 1 / e->ymean, lo, best = -INFINITY, bt = 0, a, b, g = (sqrt(5) - 1) / 2;
	double step;

	while (xi_of(e, hi) < SC_TAIL_XI_MAX && hi < 1e300)
		hi *= 2;
	hi = theta_at(e, 0, hi, SC_TAIL_XI_MAX);
	lo = theta_at(e, -1 / e->ymax, 0, -SC_TAIL_XI_MAX);
	step = (hi - lo) / (GRID_POINTS - 1);
	for (unsigned i = 0; i < GRID_POINTS; i++) {
		double t = lo + step * i, x, s, l = loglik(e, t, &x, &s);

		if (l > best)
			best = l, bt = t;
	}
	a = fmax(lo, bt - step);
	b = fmin(hi, bt + step);
	for (unsigned i = 0; i < GOLDEN_STEPS; i++) {
		double c = b - g * (b - a), d = a + g * (b - a), x, s;

		if (loglik(e, c, &x, &s) > loglik(e, d, &x, &s))
			b = d;
		else
			a = c;
	}
	{
		double x, s;

		if (loglik(e, (a + b) / 2, &x, &s) >= best)
			bt = (a + b) / 2;
	}
	return loglik(e, bt, xi, sigma);
}

size_t sc_tail_exceedances(size_t n, size_t share)
{
	size_t k = n / share;

	if (k < SC_TAIL_MIN_EXCEED)
		k = SC_TAIL_MIN_EXCEED;
	return k > n - 1 ? n - 1 : k;
}

/* The Kolmogorov-Smirnov distance of the excesses from the GPD (xi, sigma). */
static double ks_gpd(const struct excess *e, double xi, double sigma)
{
	double d = 0;

	for (size_t i = 0; i < e->k; i++) {
		double f = -expm1(-log1p(xi * yi(e, i) / sigma) / xi);

		d = fmax(d, fmax((double)(i + 1) / (double)e->k - f, f - (double)i / (double)e->k));
	}
	return d;
}

/* Whether the GPD (log-likelihood lgpd) is chosen over the exponential
 * (lexp). */
static bool gpd_chosen(const struct excess *e, double lgpd, double lexp, double xi, double sigma)
{
	if (!(sigma > 0))
		return false;
	if (xi <= 0)
		return 2 * (lgpd - lexp) > SC_TAIL_LR_BOUNDED;
	return 2 * (lgpd - lexp) > SC_TAIL_LR_HEAVY &&
	       ks_gpd(e, xi, sigma) <= SC_TAIL_KS / sqrt((double)e->k);
}

void sc_tail_fit(const double *x, size_t n, size_t k, struct sc_tail *t)
{
	struct excess e;
	double lexp, lgpd, xi, sigma;

	*t = (struct sc_tail){.x = x, .n = n, .below = n - k, .k = k};
	t->u = x[t->below - 1];
	t->zeta = (double)k / (double)n;
	e = (struct excess){.x = x + t->below, .k = k, .u = t->u};
	for (size_t i = 0; i < k; i++) {
		e.ymean += yi(&e, i) / (double)k;
		e.ymax = fmax(e.ymax, yi(&e, i));
	}
	if (!k || !(e.ymean > 0))
		return; /* no spread above u: no tail */
	t->sigma = t->sigma_exp = e.ymean;
	if (k < SC_TAIL_MIN_EXCEED)
		return;
	lexp = -(double)k * (log(e.ymean) + 1);
	lgpd = fit_gpd(&e, &xi, &sigma);
	if (gpd_chosen(&e, lgpd, lexp, xi, sigma)) {
		t->gpd = true;
		t->xi = xi;
		t->sigma = sigma;
	}
}

double sc_tail_cdf(const struct sc_tail *t, double r)
{
	size_t lo = 0, hi = t->below;

	if (r >= t->u) {
		double y = r - t->u, z;

		if (!(t->sigma > 0))
			return 1;
		if (!t->gpd || t->xi == 0)
			return 1 - t->zeta * exp(-y / t->sigma);
		z = 1 + t->xi * y / t->sigma;
		return z <= 0 ? 1 : 1 - t->zeta * pow(z, -1 / t->xi);
	}
	while (lo < hi) { /* samples <= r */
		size_t mid = lo + (hi - lo) / 2;

		if (t->x[mid] <= r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)lo / (double)t->n;
}

/* The cluster at scale s: log P(max <= x). */
static double log_all_below(const struct sc_tail *t, const double *ratio, const double *count,
			    uint32_t nclass, double s, double x)
{
	double logp = 0;

	for (uint32_t j = 0; j < nclass; j++) {
		double p = sc_tail_cdf(t, x / (s * ratio[j]));

		if (p <= 0)
			return -INFINITY;
		logp += count[j] * log(p);
	}
	return logp;
}

/* Integral over [a, b] of P(max > x) at scale 1, m two-point intervals. */
static double quad(const struct sc_tail *t, const double *ratio, const double *count,
		   uint32_t nclass, double a, double b, uint32_t m)
{
	double h = (b - a) / m, off = h / (2 * sqrt(3)), sum = 0;

	for (uint32_t i = 0; i < m; i++) {
		double mid = a + (i + 0.5) * h;

		sum += -expm1(log_all_below(t, ratio, count, nclass, 1, mid - off)) -
		       expm1(log_all_below(t, ratio, count, nclass, 1, mid + off));
	}
	return sum * h / 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* E[max of R over the classes]: the steps of the samples (exact where
 * every class is below its threshold), then the tail. */
static double mean_max(const struct sc_tail *t, const double *ratio, const double *count,
		       uint32_t nclass, double *bp)
{
	double total = 0, prev = 0, rmin = 1, top = 0;
	size_t nbp = 0;

	for (uint32_t j = 0; j < nclass; j++) {
		for (size_t i = 0; i < t->below; i++)
			bp[nbp++] = t->x[i] * ratio[j];
		bp[nbp++] = t->u * ratio[j];
		rmin = fmin(rmin, ratio[j]);
		top = fmax(top, ratio[j]);
	}
	qsort(bp, nbp, sizeof(*bp), cmp_double);
	for (size_t i = 0; i < nbp; i++) {
		if (bp[i] > prev)
			total += quad(t, ratio, count, nclass, prev, bp[i],
				      bp[i] <= t->u * rmin ? 1 : QUAD_STEP);
		prev = fmax(prev, bp[i]);
	}
	if (!(t->sigma > 0))
		return total;
	if (t->gpd && t->xi < 0) { /* bounded: up to the end point */
		double end = top * (t->u - t->sigma / t->xi);

		return total +
		       (end > prev ? quad(t, ratio, count, nclass, prev, end, QUAD_BOUNDED) : 0);
	}
	for (double w = t->sigma * top, i = 0; i < MAX_SEGMENTS; i++, w *= 2) {
		total += quad(t, ratio, count, nclass, prev, prev + w, QUAD_SEGMENT);
		prev += w;
		if (-expm1(log_all_below(t, ratio, count, nclass, 1, prev)) < TAIL_EPS)
			break;
	}
	return total;
}

/* P(cluster <= x) with the index drawn at random from scale[]. */
static double mix_cdf(const struct sc_tail *t, const double *ratio, const double *count,
		      uint32_t nclass, const double *scale, uint32_t nscale, double x)
{
	double p = 0;

	for (uint32_t c = 0; c < nscale; c++)
		p += exp(log_all_below(t, ratio, count, nclass, scale[c], x));
	return p / nscale;
}

void sc_tail_max(const struct sc_tail *t, const double *ratio, const double *count, uint32_t nclass,
		 const double *scale, uint32_t nscale, double *scratch, double *mean, double *p90)
{
	double smean = 0, smax = 0, lo = 0, hi;

	for (uint32_t c = 0; c < nscale; c++) {
		smean += scale[c] / nscale;
		smax = fmax(smax, scale[c]);
	}
	*mean = smean * mean_max(t, ratio, count, nclass, scratch);
	hi = smax * fmax(t->u, t->x[t->n - 1]);
	while (mix_cdf(t, ratio, count, nclass, scale, nscale, hi) < P90 && hi < 1e300)
		hi = hi * 2 + smax * t->sigma;
	for (unsigned i = 0; i < BISECT_STEPS && hi - lo > P90_REL * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (mix_cdf(t, ratio, count, nclass, scale, nscale, mid) < P90)
			lo = mid;
		else
			hi = mid;
	}
	*p90 = hi;
}

void sc_tail_exponential(struct sc_tail *t)
{
	t->gpd = false;
	t->xi = 0;
	t->sigma = t->sigma_exp;
}
