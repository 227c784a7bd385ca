/* model_sweep.c -- the checkpoint estimator (sc_model_ckpt) over many
 * seeds: for each tail shape, REPS replications of D drives x C
 * checkpoints drawn here, projected to 64, 512 and 4096 drives without a
 * band, against E[max] computed here (numeric integration of 1 - F^M with
 * F in closed form; nothing from the code under test).  Prints per shape
 * and size the median error, its 5th..95th percentiles, and the share of
 * replications within 10 %: how often one run of C checkpoints gets the
 * answer right, which one seeded run (tests/truth/test_model_truth.sh)
 * cannot tell.  Not a test (it judges nothing): docs/model.md's error tables
 * come from it.
 *
 *   model_sweep [REPS [C [SHAPE,SHAPE... [D]]]]   (200, 400, every shape, 4;
 *                                                 "all" for every shape)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "xorshift.h"

#define MS	 1e6 /* ns */
#define DRIVES_MAX 64u
#define NSIZES	 3u
#define TOL	 0.10
#define STEPS	 400000u /* midpoint steps of the integral */
#define SF_FLOOR 1e-13	 /* the integral ends where M x P(X > x) is below */

static const uint32_t sizes[NSIZES] = {64, 512, 4096};

/* The sweep's own generator; the measured drives. */
static uint64_t rng;
static uint32_t ndrives = 4;

static double unit(void)
{
	return xs_unit(&rng);
}

static double expo(double mean)
{
	return xs_expo(&rng, mean);
}

static double normal(void)
{
	return sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
}

/* P(Gamma(k, 1) > y), k a positive integer. */
static double erlang_sf(double y, int k)
{
	double term = 1, sum = 1;

	if (y <= 0)
		return 1;
	for (int i = 1; i < k; i++) {
		term *= y / i;
		sum += term;
	}
	return exp(-y) * sum;
}

/* K I/Os in turn, each L + Exp(s), each stalling S with probability p. */
struct stalls {
	int k;
	double l, s, p, stall;
};

static double stalls_draw(const struct stalls *st)
{
	double t = 0;

	for (int i = 0; i < st->k; i++)
		t += st->l + expo(st->s) + (unit() < st->p ? st->stall : 0);
	return t;
}

static double stalls_sf(const struct stalls *st, double x)
{
	double sum = 0, pj = pow(1 - st->p, st->k);

	for (int j = 0; j <= st->k; j++) {
		sum += pj * erlang_sf((x - st->k * st->l - j * st->stall) / st->s, st->k);
		pj *= (double)(st->k - j) / (j + 1) * st->p / (1 - st->p);
	}
	return sum;
}

static const struct stalls stall12 = {12, 25 * MS, 2.5 * MS, 0.01, 110 * MS};
static const struct stalls stall4 = {4, 30 * MS, 20 * MS, 0.02, 200 * MS};

enum shape {
	EXP2,	  /* the later of two Exp(100 ms) */
	EXP1,	  /* 5 ms + Exp(100 ms) */
	GAMMA2,	  /* Exp(100 ms) + Exp(100 ms) */
	STALL12,  /* 12 I/Os of 25 ms + Exp(2.5 ms), 1 % stall 110 ms */
	STALL4,	  /* 4 I/Os of 30 ms + Exp(20 ms), 2 % stall 200 ms */
	STAIR,	  /* 300 ms + 400 ms x Poisson(1) + Exp(10 ms) */
	FILL,	  /* 100 ms / (1 - c / 2C) / U(0.7, 1.3) */
	WEIBULL2, /* 100 ms x Weibull(2): lighter than exponential */
	LOGNORM,  /* 100 ms x LogNormal(0, 0.5): heavier, xi -> 0 */
	WEIBULL08,
	GPD25, /* 100 ms + GPD(xi 0.25, sigma 50 ms): heavy */
	NSHAPES
};

static const char *const names[NSHAPES] = {"exp2",	"exp1",	      "gamma2", "stall12",
					   "stall4",	"staircase",  "fill",	"weibull2",
					   "lognormal", "weibull0.8", "gpd0.25"};

static uint32_t ckpts;

/* The fill shape's time at speed 1 at checkpoint c: 2 x slower at the end. */
static double fill_t(uint32_t c)
{
	return 100 * MS / (1 - 0.5 * (c + 0.5) / ckpts);
}

static double draw(enum shape s, uint32_t c)
{
	double limit = exp(-1.0), prod = unit();
	int k = 0;

	switch (s) {
	case EXP2:
		return fmax(expo(100 * MS), expo(100 * MS));
	case EXP1:
		return 5 * MS + expo(100 * MS);
	case GAMMA2:
		return expo(100 * MS) + expo(100 * MS);
	case STALL12:
		return stalls_draw(&stall12);
	case STALL4:
		return stalls_draw(&stall4);
	case STAIR:
		while (prod > limit) {
			prod *= unit();
			k++;
		}
		return 300 * MS + 400 * MS * k + expo(10 * MS);
	case FILL:
		return fill_t(c) / (0.7 + 0.6 * unit());
	case WEIBULL2:
		return 100 * MS * sqrt(-log(unit()));
	case LOGNORM:
		return 100 * MS * exp(0.5 * normal());
	case WEIBULL08:
		return 100 * MS * pow(-log(unit()), 1 / 0.8);
	default:
		return 100 * MS + 50 * MS / 0.25 * (pow(unit(), -0.25) - 1);
	}
}

/* P(X > x) (FILL: not used). */
static double sf(enum shape s, double x)
{
	double y = x / (100 * MS), e = exp(-y), sum = 0, pk = exp(-1.0);

	switch (s) {
	case EXP2:
		return 2 * e - e * e;
	case EXP1:
		return x < 5 * MS ? 1 : exp(-(x - 5 * MS) / (100 * MS));
	case GAMMA2:
		return erlang_sf(y, 2);
	case STALL12:
		return stalls_sf(&stall12, x);
	case STALL4:
		return stalls_sf(&stall4, x);
	case STAIR:
		for (int k = 0; k < 60; k++, pk /= k) {
			double z = x - 300 * MS - 400 * MS * k;

			sum += pk * (z <= 0 ? 1 : exp(-z / (10 * MS)));
		}
		return fmin(sum, 1);
	case WEIBULL2:
		return exp(-y * y);
	case LOGNORM:
		return x <= 0 ? 1 : 0.5 * erfc(log(y) / 0.5 / sqrt(2));
	case WEIBULL08:
		return exp(-pow(y, 0.8));
	default:
		return x < 100 * MS ? 1 : pow(1 + 0.25 * (x - 100 * MS) / (50 * MS), -4);
	}
}

/* E[max of m]: the integral of 1 - F^m (midpoint rule); for FILL the mean
 * over the checkpoints of fill_t(c) x E[1 / min of m speeds]. */
static double truth(enum shape s, uint32_t m)
{
	double hi = 100 * MS, h, sum = 0;

	if (s == FILL) {
		double inv = 0, t = 0;

		for (uint32_t i = 0; i < STEPS; i++) /* min > x w.p. ((1.3 - x) / 0.6)^m */
			inv += 1 / (1.3 - 0.6 * pow((i + 0.5) / STEPS, 1.0 / m)) / STEPS;
		for (uint32_t c = 0; c < ckpts; c++)
			t += fill_t(c) / ckpts;
		return t * inv;
	}
	while (m * sf(s, hi) > SF_FLOOR)
		hi *= 1.5;
	h = hi / STEPS;
	for (uint32_t i = 0; i < STEPS; i++) {
		double q = sf(s, (i + 0.5) * h);

		sum += q >= 1 ? 1 : -expm1(m * log1p(-q));
	}
	return sum * h;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void sweep(enum shape s, uint32_t reps, uint64_t *dur, double *err)
{
	double want[NSIZES];
	struct sc_model_drive d[DRIVES_MAX];

	for (uint32_t j = 0; j < NSIZES; j++)
		want[j] = truth(s, sizes[j]);
	for (uint32_t r = 0; r < reps; r++) {
		rng = 0x9e3779b97f4a7c15ull * (r + 1) + s * 104729 + ckpts;
		for (uint32_t i = 0; i < ndrives; i++) {
			for (uint32_t c = 0; c < ckpts; c++)
				dur[i * ckpts + c] = (uint64_t)llround(draw(s, c));
			d[i] = (struct sc_model_drive){.nckpts = ckpts, .dur_ns = dur + i * ckpts};
		}
		for (uint32_t j = 0; j < NSIZES; j++) {
			struct sc_model_ckpt_in in = {.drives = d,
						      .ndrives = ndrives,
						      .nodes = sizes[j],
						      .drives_per_node = 1};
			struct sc_model_ckpt out;

			if (sc_model_ckpt(&in, &out)) {
				fprintf(stderr, "model_sweep: sc_model_ckpt failed\n");
				exit(1);
			}
			err[j * reps + r] = out.mean_ns / want[j] - 1;
		}
	}
	for (uint32_t j = 0; j < NSIZES; j++) {
		double *e = err + j * reps;
		uint32_t within = 0;

		for (uint32_t r = 0; r < reps; r++)
			within += fabs(e[r]) <= TOL;
		qsort(e, reps, sizeof(*e), cmp_double);
		printf("%-10s %u x %-4u -> %4u drives: truth %7.1f ms, median error %+6.1f %% "
		       "(5th..95th %+6.1f..%+6.1f %%), within 10 %% in %3.0f %%\n",
		       names[s], ndrives, ckpts, sizes[j], want[j] / MS, 100 * e[reps / 2],
		       100 * e[reps / 20], 100 * e[reps - 1 - reps / 20], 100.0 * within / reps);
	}
}

int main(int argc, char **argv)
{
	uint32_t reps = argc > 1 ? (uint32_t)atoi(argv[1]) : 200;
	const char *only = argc > 3 && strcmp(argv[3], "all") ? argv[3] : NULL;
	uint64_t *dur;
	double *err;

	ckpts = argc > 2 ? (uint32_t)atoi(argv[2]) : 400;
	ndrives = argc > 4 ? (uint32_t)atoi(argv[4]) : 4;
	if (reps < 20 || ckpts < 3 || ndrives < 1 || ndrives > DRIVES_MAX) {
		fprintf(stderr, "usage: model_sweep [REPS >= 20 [CHECKPOINTS >= 3 [SHAPE,...|all "
				"[DRIVES 1..%u]]]]\n",
			DRIVES_MAX);
		return 2;
	}
	dur = malloc(sizeof(*dur) * ndrives * ckpts);
	err = malloc(sizeof(*err) * NSIZES * reps);
	if (!dur || !err)
		return 1;
	for (int s = 0; s < NSHAPES; s++)
		if (!only || strstr(only, names[s]))
			sweep((enum shape)s, reps, dur, err);
	free(dur);
	free(err);
	return 0;
}
