/* welch.c -- Welch's t interval on a difference of means, and Student's t
 * distribution it needs (welch.h). */
#include "welch.h"

#include <errno.h>
#include <math.h>

/* Continued fraction of the incomplete beta function: iterations at most
 * and the relative step at which it has converged (Lentz's method). */
#define BETACF_ITER 300
#define BETACF_EPS  1e-15
#define BETACF_TINY 1e-300
/* Bisection steps of the quantile: the bracket halves each time. */
#define QUANTILE_ITER 200

void sc_welch_side_of(const double *x, uint32_t n, struct sc_welch_side *out)
{
	double sum = 0, ss = 0;

	*out = (struct sc_welch_side){0, NAN, NAN, NAN, NAN};
	for (uint32_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		sum += x[i];
		out->min = out->n ? fmin(out->min, x[i]) : x[i];
		out->max = out->n ? fmax(out->max, x[i]) : x[i];
		out->n++;
	}
	if (!out->n)
		return;
	out->mean = sum / out->n;
	for (uint32_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = out->n > 1 ? sqrt(ss / (out->n - 1)) : 0;
}

/* The continued fraction of the regularized incomplete beta I_x(a, b). */
static double betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < BETACF_TINY ? BETACF_TINY : d);
	h = d;
	for (int m = 1; m <= BETACF_ITER; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < BETACF_TINY ? BETACF_TINY : d);
		c = fabs(c) < BETACF_TINY ? BETACF_TINY : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < BETACF_TINY ? BETACF_TINY : d);
		c = fabs(c) < BETACF_TINY ? BETACF_TINY : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < BETACF_EPS)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double betai(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double sc_welch_t_cdf(double t, double df)
{
	double tail = 0.5 * betai(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double sc_welch_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -sc_welch_t_quantile(1 - p, df);
	while (sc_welch_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < QUANTILE_ITER && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (sc_welch_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int sc_welch_interval(const struct sc_welch_side *a, const struct sc_welch_side *b, double conf,
		      double *lo, double *hi, double *df)
{
	double va, vb, se, d, t;

	*lo = *hi = *df = NAN;
	if (a->n < 2 || b->n < 2)
		return -EDOM;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se = sqrt(va + vb);
	d = b->mean - a->mean;
	if (se == 0) {
		*lo = *hi = d;
		*df = INFINITY;
		return 0;
	}
	*df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	t = sc_welch_t_quantile((1 + conf) / 2, *df);
	*lo = d - t * se;
	*hi = d + t * se;
	return 0;
}
