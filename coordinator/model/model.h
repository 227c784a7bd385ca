/* model.h -- the cluster model's arithmetic: stragglers (a fitted tail),
 * Young/Daly checkpoint policy, tail at scale, endurance, sizing.
 *
 * Pure functions: no MPI, no I/O, no globals.  Every function checks its
 * inputs and returns 0 or -EINVAL (a count of 0, no samples, NaN, a share
 * outside [0, 1]); -ENOMEM only where it says so.  Nothing is written to
 * *out unless the return is 0.  Times are ns, sizes bytes.
 */
#ifndef SC_MODEL_H
#define SC_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* Bootstrap replicates of the band a projection asks for when its
 * parameters say 0 (sc_model_ckpt itself draws none when told 0). */
#define SC_MODEL_TRIALS_DEFAULT 200u

/* One measured drive (target): per checkpoint, in the order written, the
 * bytes it wrote and the time it took.  Both arrays hold nckpts entries,
 * and the caller keeps them. */
struct sc_model_drive {
	uint32_t nckpts;
	const uint64_t *bytes;	/* bytes written in checkpoint c (> 0 when
				 * the model rescales to bytes_per_drive) */
	const uint64_t *dur_ns; /* time drive took for checkpoint c */
};

/* A byte class: members of a cluster that write the same bytes per
 * checkpoint (under ZeRO-1/2 the nodes of data-parallel rank 0 also write
 * the model state, so they write more than the others).  In
 * sc_model_ckpt_in a member is a drive (bytes per drive, drives); in
 * sc_model_sizing_in a node (bytes per node, nodes). */
struct sc_model_class {
	uint64_t bytes; /* per member, > 0 */
	uint64_t count; /* members, >= 1 */
};

/* The tails fitted, and which samples they rest on: the slowest 1 /
 * sc_model_tail_share[i] of them (at least 10). */
#define SC_MODEL_TAILS 2
extern const uint32_t sc_model_tail_share[SC_MODEL_TAILS];

/* One tail of a checkpoint's spread above its threshold. */
struct sc_model_tail {
	bool gpd;	      /* generalized Pareto (else exponential) */
	double xi;	      /* its shape (0 for the exponential) */
	double sigma;	      /* its scale, in units of the trend (0: no
			       * spread above u, no tail) */
	double threshold;     /* u, in units of the trend */
	uint64_t exceedances; /* samples above u */
};

/* What a cluster checkpoint is projected from. */
struct sc_model_ckpt_in {
	const struct sc_model_drive *drives; /* the S measured drives */
	uint32_t ndrives;		     /* S >= 1 */
	uint32_t nodes;			     /* N >= 1 */
	uint32_t drives_per_node;	     /* D >= 1 */
	/* Bytes each of the N x D drives writes per checkpoint at the
	 * projected scale; 0 = take the measured times as they are. */
	uint64_t bytes_per_drive;
	/* Drives in byte classes instead (NULL: none).  When given, nodes,
	 * drives_per_node and bytes_per_drive are ignored: the cluster is
	 * the classes' drives, each rescaled to its class's bytes. */
	const struct sc_model_class *classes;
	uint32_t nclasses;
	uint32_t trials; /* bootstrap replicates of the band; 0 = no band
			  * (the band is then the point figure) */
	uint64_t seed;	 /* same input and seed, same output */
};

/* The projected cluster checkpoint time. */
struct sc_model_ckpt {
	double mean_ns; /* E[max over the N x D drives] */
	double p90_ns;	/* its 90th percentile */
	/* The band of each: the union of the percentile and the basic
	 * bootstrap intervals at 2.5 %..97.5 % (sc_model_ckpt; equal to the
	 * figure when trials is 0). */
	double mean_low_ns, mean_high_ns;
	double p90_low_ns, p90_high_ns;
	double max_sample_ns;	/* the slowest sample (rescaled); the
				 * projection may exceed it */
	uint64_t nsamples;	/* independent samples: checkpoints over all
				 * measured drives */
	uint64_t ndrives_total; /* N x D */
	bool beyond_samples;	/* N x D > nsamples: the figure rests on the
				 * fitted tail; the caller must say so, with
				 * the band's width */
	uint32_t trials;	/* bootstrap replicates drawn (0: no band) */
	/* What the figures rest on. */
	uint32_t ndrives_measured; /* S */
	uint32_t nckpts_max;	   /* C, the longest series */
	double trend_per_ckpt;	   /* the trend's relative change from one
				    * checkpoint index to the next (0: no
				    * significant trend) */
	/* The tails, one per threshold (the slowest tenth, the slowest
	 * fifth of the samples); the figures are the mean of the two's. */
	struct sc_model_tail tail[SC_MODEL_TAILS];
};

/* Projects the time of one synchronous checkpoint of N nodes x D drives:
 * the slowest of the N x D drives, all at the same checkpoint index (the
 * same fill), the index drawn at random from the measured series.
 *
 * A sample's time is dur_ns, or dur_ns * bytes_per_drive / bytes when
 * bytes_per_drive > 0 (the drive's measured throughput at that
 * checkpoint).  What moves with the index is separated from the spread:
 *   trend   m(c) = exp(a + b c), a least-squares line of log time over the
 *           index of every sample (series of different lengths aligned by
 *           position: sample i of n at (i + 0.5) L / n - 0.5, L the
 *           longest); the slope b is kept only when |b| > 2 standard
 *           errors, else the trend is flat;
 *   spread  R = time / m(c) of every sample of every drive, pooled: the
 *           spread between drives and over time, one distribution (with
 *           one drive measured, its checkpoints' spread around the trend);
 *   tails   peaks over a threshold, twice: k = max(10, n / 10) and
 *           max(10, n / 5) exceedances (at most n - 1), u the largest
 *           residual below them; a generalized Pareto (xi in [-0.5, 0.5],
 *           maximum likelihood) or the exponential (xi = 0) fitted to the
 *           excesses, the GPD chosen only when k >= 10 and its likelihood
 *           ratio over the exponential exceeds 6.635 (1 %) for xi <= 0 or
 *           10.83 (0.1 %) for xi > 0, a heavy tail also only when the
 *           excesses' Kolmogorov-Smirnov distance from it is at most
 *           1.63 / sqrt(k); R's distribution is the empirical one below u
 *           and the tail (mass k / n) above.
 * With K drives (of a class) at index c, P(max <= t) = F(t / m(c))^K and
 * across byte classes the product; E[max] = mean over c of m(c) x E[max of
 * R] (quadrature of 1 - F^K), p90 the 90th percentile of the mixture over
 * the indices, each the mean of the two tails' figures.  Unlike resampling
 * it may exceed the slowest sample.
 * The band: trials replicates, each the fitted trend times n residuals
 * drawn (seeded) from one fitted distribution (the two tails' in turn; a
 * sample below u, else u plus a draw of the fitted tail), refitted from the start (trend,
 * threshold, tail choice); the band is the union of the 2.5th..97.5th
 * percentiles of their figures [q_lo, q_hi] and the basic bootstrap
 * interval [2 x figure - q_hi, 2 x figure - q_lo].
 * The point figures draw nothing: only the band depends on the seed.
 * Byte classes: each class's times are the reference times (the largest
 * class's bytes) x its bytes ratio.
 * Returns 0, -EINVAL (no drives, a drive without checkpoints, N or D = 0,
 * bytes 0 with bytes_per_drive > 0 or in a class, a class of no drives,
 * NULL arrays, more than 2^32 samples), -ENOMEM. */
int sc_model_ckpt(const struct sc_model_ckpt_in *in, struct sc_model_ckpt *out);

/* The alternative tail assumption: E[max over the cluster's drives] when
 * the samples of every drive and checkpoint, pooled (series not kept), are
 * the distribution below the slowest tenth and an exponential tail fitted
 * to that tenth above it (peaks over a threshold: u the largest sample
 * under the tenth, the tail's mean excess the tenth's mean excess over u,
 * P(X > x) = k/S exp(-(x - u)/mean excess) for x >= u).  E[max] is the
 * integral over x >= 0 of 1 - prod over classes of F(x / bytes ratio)^K:
 * exact over the steps below the thresholds, Gauss-Legendre quadrature
 * over the exponential parts (for one class of K drives and k = S this is
 * H_K x the mean).  Unlike the resampling it can exceed the slowest sample.
 * 0, -EINVAL (as sc_model_ckpt), -ENOMEM. */
int sc_model_ckpt_tail_exp(const struct sc_model_ckpt_in *in, double *mean_ns);

/* Checkpoint policy for one cluster size. */
struct sc_model_policy_in {
	uint64_t ckpt_ns;      /* delta: one cluster checkpoint, > 0; async:
				* its drain D (may be 0 then) */
	uint64_t node_mtbf_ns; /* mean time between failures of one node */
	uint32_t nodes;	       /* N >= 1 */
	uint64_t restart_ns;   /* R: restart after a failure (may be 0) */
	bool async;	       /* the checkpoint is copied to host memory
				* (blocking_ns), then drained beside the
				* training of the next interval */
	uint64_t blocking_ns;  /* async: B, the host copy */
};

/* Young/Daly, first order (delta and R small against M):
 *   M           = node MTBF / N
 *   tau         = sqrt(2 * delta * M)        compute time between checkpoints
 *   period      = tau + delta                one compute-then-write cycle
 *   write_share = delta / (tau + delta)
 *   lost_share  = (tau + delta) / (2 M) + R / M
 *                 (a failure loses half a period on average, plus R)
 *   goodput     = 1 - write_share - lost_share, at least 0
 * outside_first_order is set when period >= M, where the approximation no
 * longer holds (the figures are still given).
 *
 * async: training stops only for the host copy B and for the part of the
 * drain D that outlasts the interval beside it (the next checkpoint
 * waits for it): delta = B + max(0, D - tau) with tau = sqrt(2 delta M)
 * as above.  When D <= sqrt(2 B M), delta = B (no stall); otherwise, with
 * s = sqrt(delta), s^2 + sqrt(2M) s - (B + D) = 0:
 *   delta = s^2, s = (sqrt(2M + 4(B + D)) - sqrt(2M)) / 2,  stall = delta - B
 * (continuous at D = sqrt(2 B M)).  delta at least 1 ns.  The lost share
 * is the synchronous one: a failure during a drain, which loses the
 * interval before it too, is not modelled. */
struct sc_model_policy {
	double cost_ns;	 /* delta: what one checkpoint costs training */
	double stall_ns; /* async: delta - B (0 otherwise) */
	double mtbf_ns; /* M, the cluster's */
	double tau_ns;
	double period_ns;
	double write_share;
	double lost_share;
	double goodput;
	bool outside_first_order;
};

/* Returns 0, or -EINVAL (ckpt_ns or node_mtbf_ns 0, nodes 0). */
int sc_model_policy(const struct sc_model_policy_in *in, struct sc_model_policy *out);

/* Tail at scale: a step waits for the slowest of N nodes, so with p_node
 * the chance one node stalls a step, P(step stalled) = 1 - (1 - p_node)^N,
 * computed as -expm1(N * log1p(-p_node)) so tiny p and huge N keep their
 * digits.  Returns 0, or -EINVAL (nodes 0, p_node NaN or outside [0, 1]). */
int sc_model_stall(double p_node, uint64_t nodes, double *p_step);

/* Endurance at a checkpoint cadence. */
struct sc_model_endurance_in {
	uint64_t bytes_per_drive; /* written to each drive per checkpoint */
	uint64_t interval_ns;	  /* start to start of checkpoints (the
				   * policy's period_ns), > 0 */
	uint64_t capacity_bytes;  /* the drive's, > 0 */
	double dwpd;		  /* rated drive writes per day, > 0 */
	double warranty_years;	  /* the rating's term, > 0 */
};

/* writes_per_day = (1 day / interval) * bytes_per_drive / capacity
 * years        = dwpd * warranty_years / writes_per_day
 *                (the rating allows dwpd x 365 x warranty drive writes;
 *                 checkpoints use writes_per_day x 365 a year; infinite
 *                 when nothing is written) */
struct sc_model_endurance {
	double writes_per_day;
	double years;
};

/* Returns 0, or -EINVAL (a zero interval or capacity, dwpd or warranty
 * NaN, infinite or <= 0). */
int sc_model_endurance(const struct sc_model_endurance_in *in, struct sc_model_endurance *out);

/* Sizing: drives per node for a checkpoint overhead target. */
struct sc_model_sizing_in {
	const struct sc_model_drive *drives; /* measured drives, as for
					      * sc_model_ckpt */
	uint32_t ndrives;
	uint32_t nodes;		 /* N >= 1 */
	uint64_t bytes_per_node; /* one node's checkpoint bytes, > 0, spread
				  * evenly (rounded up) over its D drives */
	/* Nodes in byte classes instead (NULL: none): class bytes are per
	 * node, spread as above; nodes and bytes_per_node are ignored. */
	const struct sc_model_class *node_classes;
	uint32_t nnode_classes;
	uint64_t node_mtbf_ns; /* as for sc_model_policy */
	uint64_t restart_ns;
	/* The measured restores of the same ndrives drives (NULL: none):
	 * at each D the restore's E[max] is projected as the checkpoint's and
	 * added to restart_ns. */
	const struct sc_model_drive *restore_drives;
	double overhead_target;	      /* largest 1 - goodput allowed, in (0, 1) */
	uint32_t max_drives_per_node; /* search bound, >= 1 */
	uint32_t trials;
	uint64_t seed;
	/* async checkpoints: the drives' times are the drain; the policy's
	 * async inputs (sc_model_policy_in) with this host copy */
	bool async;
	uint64_t blocking_ns;
};

/* The smallest D in 1..max_drives_per_node whose overhead, 1 - goodput of
 * sc_model_policy with delta = sc_model_ckpt's mean_ns at N x D drives
 * (async: that mean is the drain), is at most overhead_target.  When none
 * is, drives_per_node is 0 and ckpt/policy/overhead describe D =
 * max_drives_per_node.  async: drain_fit_drives_per_node is the smallest
 * D whose drain fits inside the interval beside it (the policy's stall
 * 0: drain <= sqrt(2 B M)), 0 when none up to the bound does. */
struct sc_model_sizing {
	uint32_t drives_per_node;
	uint32_t drain_fit_drives_per_node;
	double overhead;
	struct sc_model_ckpt ckpt;
	struct sc_model_policy policy;
};

/* Returns 0, -EINVAL (as sc_model_ckpt and sc_model_policy, or the target
 * NaN or outside (0, 1), a zero bound or bytes_per_node), -ENOMEM. */
int sc_model_size(const struct sc_model_sizing_in *in, struct sc_model_sizing *out);

#endif
