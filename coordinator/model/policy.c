/* policy.c -- Young/Daly checkpoint interval, tail at scale and endurance at cadence. */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "model.h"

/* Nanoseconds in a day. */
#define NS_PER_DAY 86400e9

int sc_model_policy(const struct sc_model_policy_in *in, struct sc_model_policy *out)
{
	double delta, m, tau, period;

	if (!in || !out || (!in->ckpt_ns && !in->async) || !in->node_mtbf_ns || !in->nodes)
		return -EINVAL;
	delta = (double)in->ckpt_ns;
	m = (double)in->node_mtbf_ns / in->nodes;
	out->stall_ns = 0;
	if (in->async) {
		double b = (double)in->blocking_ns, root = sqrt(2 * m);

		delta = b;
		if ((double)in->ckpt_ns > sqrt(2 * b * m)) { /* the drain outlasts tau(B) */
			/* the root of s^2 + sqrt(2M) s - (B + D), without the
			 * cancellation of (sqrt(2M + 4(B + D)) - sqrt(2M)) / 2 */
			double bd = b + (double)in->ckpt_ns;
			double s = 2 * bd / (sqrt(2 * m + 4 * bd) + root);

			delta = s * s;
			out->stall_ns = fmax(0, delta - b);
		}
		delta = fmax(delta, 1); /* a checkpoint under 1 ns still takes time */
	}
	out->cost_ns = delta;
	tau = sqrt(2 * delta * m);
	period = tau + delta;
	out->mtbf_ns = m;
	out->tau_ns = tau;
	out->period_ns = period;
	out->write_share = delta / period;
	out->lost_share = period / (2 * m) + (double)in->restart_ns / m;
	out->goodput = fmax(0, 1 - out->write_share - out->lost_share);
	out->outside_first_order = period >= m;
	return 0;
}

int sc_model_stall(double p_node, uint64_t nodes, double *p_step)
{
	if (!p_step || !nodes || isnan(p_node) || p_node < 0 || p_node > 1)
		return -EINVAL;
	if (p_node == 1)
		*p_step = 1;
	else
		*p_step = -expm1((double)nodes * log1p(-p_node));
	return 0;
}

/* A rating figure: finite and > 0. */
static int rating_ok(double x)
{
	return isfinite(x) && x > 0;
}

int sc_model_endurance(const struct sc_model_endurance_in *in, struct sc_model_endurance *out)
{
	double per_day;

	if (!in || !out || !in->interval_ns || !in->capacity_bytes || !rating_ok(in->dwpd) ||
	    !rating_ok(in->warranty_years))
		return -EINVAL;
	per_day = NS_PER_DAY / (double)in->interval_ns * (double)in->bytes_per_drive /
		  (double)in->capacity_bytes;
	out->writes_per_day = per_day;
	out->years = per_day > 0 ? in->dwpd * in->warranty_years / per_day : INFINITY;
	return 0;
}
