/* deadline.c -- how long the ranks wait for each other in a phase, and
 * when one wait gives up. */
#include "deadline.h"

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* units / per_s seconds, in nanoseconds (saturating) */
static uint64_t at_rate_ns(uint64_t units, uint64_t per_s)
{
	unsigned __int128 ns;

	if (!per_s)
		return 0;
	ns = ((unsigned __int128)units * SC_NS_PER_S + per_s - 1) / per_s;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

uint64_t sc_deadline_grace_ns(uint64_t planned_ns)
{
	uint64_t pct = planned_ns / 100 * SC_DEADLINE_GRACE_PCT +
		       planned_ns % 100 * SC_DEADLINE_GRACE_PCT / 100;

	return max_u64(SC_DEADLINE_GRACE_MIN_NS, pct);
}

uint64_t sc_deadline_planned_ns(const struct sc_plan *plan, uint32_t p,
				const struct sc_place *place)
{
	const struct sc_phase *ph = &plan->phases[p];
	const struct sc_io_spec *io = &ph->io;
	uint64_t rd, wr, bytes, planned;

	if (io->runtime_ns)
		return add_sat(io->ramp_ns, io->runtime_ns);
	sc_layout_rank_bytes(plan, p, place, &rd, &wr);
	bytes = add_sat(rd, wr);
	planned =
	    max_u64(SC_DEADLINE_BYTES_MIN_NS, at_rate_ns(bytes, SC_DEADLINE_FLOOR_BYTES_PER_S));
	if (io->rate_iops && io->bs_bytes)
		planned = max_u64(planned, at_rate_ns(bytes / io->bs_bytes, io->rate_iops));
	if (io->runtime_max_ns && io->runtime_max_ns < planned)
		planned = io->runtime_max_ns; /* the jobs stop then, bytes or not */
	if (ph->workload == SC_WORKLOAD_INGEST) {
		unsigned __int128 compute =
		    (unsigned __int128)sc_layout_ingest_steps(plan, p, place) *
		    ph->ingest.compute_per_batch_ns;

		planned = add_sat(planned, compute > UINT64_MAX ? UINT64_MAX : (uint64_t)compute);
	}
	/* training: steps per epoch x epochs x computation_time */
	if (ph->workload == SC_WORKLOAD_TRAINING) {
		uint64_t compute;

		if (__builtin_mul_overflow(sc_layout_training_steps(&ph->training),
					   (uint64_t)ph->training.epochs, &compute) ||
		    __builtin_mul_overflow(compute, ph->training.computation_ns, &compute))
			compute = UINT64_MAX;
		planned = add_sat(planned, compute);
	}
	/* async checkpoint: the training the drain overlaps is in the cell */
	if (ph->workload == SC_WORKLOAD_CHECKPOINT && ph->ckpt.async)
		planned = add_sat(planned, ph->ckpt.compute_after_ns);
	return planned;
}

uint64_t sc_deadline_run_ns(const struct sc_plan *plan, uint32_t p, const struct sc_place *place)
{
	uint64_t planned;

	if (plan->phases[p].io.timeout_ns)
		return plan->phases[p].io.timeout_ns;
	planned = sc_deadline_planned_ns(plan, p, place);
	return add_sat(planned, sc_deadline_grace_ns(planned));
}

uint64_t sc_deadline_setup_ns(const struct sc_plan *plan, uint32_t p)
{
	const struct sc_phase *ph = &plan->phases[p];
	const struct sc_io_spec *io = &ph->io;
	unsigned __int128 bytes = 0;
	uint64_t planned;

	if (ph->workload == SC_WORKLOAD_INGEST)
		bytes = (unsigned __int128)ph->ingest.files * ph->ingest.file_bytes;
	else if (ph->workload == SC_WORKLOAD_TRAINING)
		bytes = sc_layout_training_dataset_bytes(&ph->training);
	else if (ph->workload != SC_WORKLOAD_CHECKPOINT && sc_rw_reads(io->rw))
		bytes = (unsigned __int128)io->jobs * io->size_bytes;
	planned = max_u64(SC_DEADLINE_BYTES_MIN_NS,
			  at_rate_ns(bytes > UINT64_MAX ? UINT64_MAX : (uint64_t)bytes,
				     SC_DEADLINE_FLOOR_BYTES_PER_S));
	return add_sat(planned, sc_deadline_grace_ns(planned));
}

uint64_t sc_deadline_step_ns(uint32_t nranks)
{
	return SC_DEADLINE_STEP_NS + (uint64_t)nranks * SC_DEADLINE_STEP_PER_RANK_NS;
}

uint64_t sc_deadline_wait_end_ns(const struct sc_cluster *c, uint64_t begin_ns)
{
	uint64_t d = c->deadline_ns ? c->deadline_ns : begin_ns + SC_CLUSTER_WAIT_DEFAULT_NS;

	if (c->rank != 0)
		d += SC_CLUSTER_PEER_MARGIN_NS;
	if (c->stop_sig) {
		/* each wait after the stop gets the grace: the ranks that are
		 * alive answer every step well within it (the run's last
		 * steps get longer: a cleanup of many files finishes) */
		uint64_t from = begin_ns > c->stop_ns ? begin_ns : c->stop_ns;
		uint64_t s = from + (c->stop_launcher ? SC_CLUSTER_STOP_GRACE_KILL_NS
				     : c->finishing   ? SC_CLUSTER_STOP_GRACE_FINISH_NS
						      : SC_CLUSTER_STOP_GRACE_NS);

		if (c->rank != 0)
			s += SC_CLUSTER_STOP_PEER_MARGIN_NS;
		if (s < d)
			d = s;
	}
	return d;
}
