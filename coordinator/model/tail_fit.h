/* tail_fit.h -- one drive's spread (a residual ratio R, time over the
 * trend) as the empirical distribution below a threshold and a fitted
 * generalized Pareto or exponential tail above it, and the slowest of many
 * such drives.  For coordinator/model/ only (stragglers.c). */
#ifndef SC_MODEL_TAIL_FIT_H
#define SC_MODEL_TAIL_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fewest exceedances over a threshold: k = max(SC_TAIL_MIN_EXCEED,
 * n / share), at most n - 1 (sc_tail_exceedances). */
#define SC_TAIL_MIN_EXCEED 10u
/* The GPD's shape is kept in [-SC_TAIL_XI_MAX, SC_TAIL_XI_MAX]. */
#define SC_TAIL_XI_MAX 0.5
/* Likelihood ratio (chi-square, 1 degree of freedom) the GPD must beat
 * the exponential by to be chosen: 1 % for a bounded tail (xi < 0), 0.1 %
 * for a heavy one (xi > 0), whose extrapolation grows fastest. */
#define SC_TAIL_LR_BOUNDED 6.635
#define SC_TAIL_LR_HEAVY   10.83
/* A heavy tail must also fit the excesses: their Kolmogorov-Smirnov
 * distance from the fitted GPD at most SC_TAIL_KS / sqrt(k) (1 %).  The
 * excesses of a staircase (stalls of one size: clusters of samples with
 * gaps between them) beat the exponential as a heavy tail and fail this. */
#define SC_TAIL_KS 1.63

/* The fitted distribution of R: x[0..below) sorted, the samples under the
 * threshold u (P(R <= t) = #(x <= t) / n for t < u); above it mass zeta =
 * k / n and P(R > u + y) = zeta (1 + xi y / sigma)^(-1/xi) (xi = 0: zeta
 * exp(-y / sigma)).  sigma = 0: no tail (R <= u). */
struct sc_tail {
	const double *x;
	size_t n, below, k;
	double u, xi, sigma, zeta;
	double sigma_exp; /* the exponential's scale (the mean excess) */
	bool gpd;	  /* the GPD was chosen over the exponential */
};

/* The exceedances of n samples for the slowest 1 / share of them. */
size_t sc_tail_exceedances(size_t n, size_t share);

/* Fits the tail above the k largest of the n >= 1 sorted samples x (kept
 * by the caller); k from sc_tail_exceedances. */
void sc_tail_fit(const double *x, size_t n, size_t k, struct sc_tail *t);

/* Makes t's tail the exponential fitted to its excesses. */
void sc_tail_exponential(struct sc_tail *t);

/* P(R <= r). */
double sc_tail_cdf(const struct sc_tail *t, double r);

/* The slowest of a cluster: class j has count[j] drives whose R is scaled
 * by ratio[j] (ratio <= 1, the largest 1).  E[max] by quadrature of
 * 1 - prod_j F(x / ratio[j])^count[j]; scratch holds (below + 2) x nclass
 * doubles.  scale[c], c < nscale: the trend at each checkpoint index; the
 * p90 is that of the mixture over the indices (one drawn at random),
 * E[max] = mean(scale) x E[max of R].  Sets *mean and *p90. */
void sc_tail_max(const struct sc_tail *t, const double *ratio, const double *count, uint32_t nclass,
		 const double *scale, uint32_t nscale, double *scratch, double *mean, double *p90);

#endif
