/* welch.h -- Welch's t interval on the difference of two means: how far
 * apart two sets of runs are, and how sure we can be of it.
 *
 * Each side is a few measurements of one figure (one per run).  The
 * difference of the means, B - A, has the standard error
 * se = sqrt(var_a / n_a + var_b / n_b) (sample variances, n - 1), and
 * Welch-Satterthwaite's degrees of freedom
 * df = se^4 / ((var_a / n_a)^2 / (n_a - 1) + (var_b / n_b)^2 / (n_b - 1)).
 * The interval at confidence c is B - A -+ t(df, (1 + c) / 2) x se, t the
 * quantile of Student's t.  It needs at least two runs a side.
 */
#ifndef SC_WELCH_H
#define SC_WELCH_H

#include <stdint.h>

/* The confidence of the intervals compare gives. */
#define SC_WELCH_CONFIDENCE 0.95

/* One side's measurements: count, mean, sample standard deviation (n - 1;
 * 0 for one value), lowest and highest. */
struct sc_welch_side {
	uint32_t n;
	double mean, sd, min, max;
};

/* The side of x[0..n), skipping values that are not finite (n counts the
 * rest; mean and the others NAN when none is left). */
void sc_welch_side_of(const double *x, uint32_t n, struct sc_welch_side *out);

/* Student's t distribution's CDF at t with df > 0 degrees of freedom. */
double sc_welch_t_cdf(double t, double df);

/* Its quantile: the t with sc_welch_t_cdf(t, df) = p, 0 < p < 1. */
double sc_welch_t_quantile(double p, double df);

/* Welch's interval of b.mean - a.mean at confidence conf: *lo, *hi and
 * *df.  0; -EDOM when a side has fewer than two values (all NAN then).
 * Both sides without spread give the difference itself (df infinite). */
int sc_welch_interval(const struct sc_welch_side *a, const struct sc_welch_side *b, double conf,
		      double *lo, double *hi, double *df);

#endif
