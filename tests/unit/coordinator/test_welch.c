/* test_welch.c -- Student's t quantiles against printed tables (Fisher &
 * Yates; any statistics text's two-sided 95% column), a quantile at a
 * fractional df against the t density integrated here by Simpson's rule,
 * and Welch's interval of two small samples worked by hand: A = {10, 12,
 * 14}, B = {20, 22, 24}: means 12 and 22, variances 4 and 4, se^2 = 4/3 +
 * 4/3 = 8/3, df = (8/3)^2 / (2 (4/3)^2 / 2) = 4, so B - A = 10 -+ t(4) x
 * sqrt(8/3) = 10 -+ 2.776445 x 1.632993. */
#include "analysis/welch.h"

#include <errno.h>
#include <math.h>

#include "check.h"

/* The t density with df degrees of freedom. */
static double t_pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * M_PI) *
	       pow(1 + t * t / df, -(df + 1) / 2);
}

/* P(0 <= T <= t) by Simpson's rule on 20000 intervals. */
static double t_mass(double t, double df)
{
	const int n = 20000;
	double h = t / n, sum = t_pdf(0, df) + t_pdf(t, df);

	for (int i = 1; i < n; i++)
		sum += (i % 2 ? 4 : 2) * t_pdf(i * h, df);
	return sum * h / 3;
}

int main(void)
{
	static const struct {
		double df, t975;
	} table[] = {
	    {1, 12.7062}, {2, 4.3027},	{3, 3.1824},   {4, 2.7764},
	    {10, 2.2281}, {30, 2.0423}, {120, 1.9799}, {1e9, 1.9600},
	};
	const double a[] = {10, 12, 14}, b[] = {20, 22, 24}, one[] = {5};
	const double gaps[] = {NAN, 7, 9, NAN};
	struct sc_welch_side sa, sb, s1, sg;
	double lo, hi, df, q;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		q = sc_welch_t_quantile(0.975, table[i].df);
		CHECK(fabs(q - table[i].t975) < 6e-5, "t(0.975, df %g) = %.6f, table %.4f",
		      table[i].df, q, table[i].t975);
		CHECK(fabs(sc_welch_t_quantile(0.025, table[i].df) + q) < 1e-9,
		      "t(0.025, %g) is not -t(0.975)", table[i].df);
	}
	q = sc_welch_t_quantile(0.975, 2.5);
	CHECK(fabs(t_mass(q, 2.5) - 0.475) < 1e-6, "df 2.5: mass to %.5f is %.7f, want 0.475", q,
	      t_mass(q, 2.5));

	sc_welch_side_of(a, 3, &sa);
	sc_welch_side_of(b, 3, &sb);
	CHECK(sa.n == 3 && sa.mean == 12 && fabs(sa.sd - 2) < 1e-12 && sa.min == 10 && sa.max == 14,
	      "A: n %u mean %g sd %g min %g max %g", sa.n, sa.mean, sa.sd, sa.min, sa.max);
	CHECK(sc_welch_interval(&sa, &sb, 0.95, &lo, &hi, &df) == 0, "no interval");
	CHECK(fabs(df - 4) < 1e-9, "df %.6f, want 4", df);
	CHECK(fabs(lo - (10 - 2.776445 * sqrt(8.0 / 3))) < 1e-5 &&
		  fabs(hi - (10 + 2.776445 * sqrt(8.0 / 3))) < 1e-5,
	      "interval [%.6f, %.6f], want 10 -+ 4.533870", lo, hi);

	sc_welch_side_of(gaps, 4, &sg); /* values that are not finite are no runs */
	CHECK(sg.n == 2 && sg.mean == 8 && fabs(sg.sd - sqrt(2)) < 1e-12,
	      "gaps: n %u mean %g sd %g", sg.n, sg.mean, sg.sd);
	sc_welch_side_of(one, 1, &s1);
	CHECK(sc_welch_interval(&sa, &s1, 0.95, &lo, &hi, &df) == -EDOM && isnan(lo) && isnan(hi),
	      "one run on a side gave an interval [%g, %g]", lo, hi);
	sc_welch_side_of(a, 3, &sb); /* no spread at all on either side: the point */
	sa.sd = sb.sd = 0;
	CHECK(sc_welch_interval(&sa, &sb, 0.95, &lo, &hi, &df) == 0 && lo == 0 && hi == 0,
	      "no spread: [%g, %g]", lo, hi);
	return check_exit("test_welch");
}
