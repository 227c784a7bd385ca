/* test_deadline.c -- the deadline arithmetic: grace, planned durations of
 * timed, sized, rate-limited and ingest phases, timeout, setup and step
 * budgets, saturation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cluster/deadline.h"

#define S   UINT64_C(1000000000)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

static struct sc_plan plan;
static struct sc_phase phase;
static const struct sc_place place = {
    .rank = 0, .target = 0, .slot = 0, .nslots = 1, .local_nranks = 1};

/* One io phase: rw, jobs x io_bytes (runtime 0) or runtime. */
static struct sc_io_spec *io_phase(enum sc_rw rw, uint32_t jobs, uint64_t size, uint64_t io_bytes,
				   uint64_t runtime_ns)
{
	memset(&plan, 0, sizeof(plan));
	memset(&phase, 0, sizeof(phase));
	plan.nphases = 1;
	plan.phases = &phase;
	phase.name = "p";
	phase.workload = SC_WORKLOAD_IO;
	phase.io.rw = rw;
	phase.io.rwmixread_pct = sc_rw_reads(rw) ? 100 : 0;
	phase.io.jobs = jobs;
	phase.io.iodepth = 1;
	phase.io.bs_bytes = 4096;
	phase.io.size_bytes = size;
	phase.io.io_bytes = io_bytes;
	phase.io.runtime_ns = runtime_ns;
	return &phase.io;
}

static void check_grace(void)
{
	CHECK(sc_deadline_grace_ns(0) == 30 * S, "grace of nothing: 30 s");
	CHECK(sc_deadline_grace_ns(10 * S) == 30 * S, "grace of 10 s: 30 s");
	CHECK(sc_deadline_grace_ns(300 * S) == 30 * S, "grace of 300 s: 30 s (10%% is as much)");
	CHECK(sc_deadline_grace_ns(1000 * S) == 100 * S, "grace of 1000 s: 100 s");
	CHECK(sc_deadline_grace_ns(1001) == 30 * S, "grace of 1001 ns");
	CHECK(sc_deadline_grace_ns(UINT64_MAX) ==
		  UINT64_MAX / 100 * 10 + UINT64_MAX % 100 * 10 / 100,
	      "grace of the longest duration: 10%% without overflow");
}

static void check_timed(void)
{
	struct sc_io_spec *io = io_phase(SC_RW_RANDREAD, 1, 64 * MIB, 0, 4 * S);

	io->ramp_ns = 1 * S;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 5 * S, "timed: ramp + runtime");
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == 35 * S, "timed: 5 s + 30 s grace");
	io->timeout_ns = 6 * S;
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == 6 * S, "timeout replaces planned + grace");
	io->timeout_ns = 0;
	io->runtime_ns = 3600 * S;
	io->ramp_ns = 0;
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == 3960 * S, "timed: 1 h + 10%%");
	io->runtime_ns = UINT64_MAX - 1;
	io->ramp_ns = 10;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == UINT64_MAX, "timed: saturates");
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == UINT64_MAX, "run: saturates");
}

static void check_sized(void)
{
	struct sc_io_spec *io = io_phase(SC_RW_WRITE, 2, GIB, GIB, 0);
	/* 2 GiB at 10 MB/s: 100 ns per byte */
	uint64_t planned = 2 * GIB * 100;

	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == planned,
	      "sized: bytes at the floor rate (%llu ns)",
	      (unsigned long long)sc_deadline_planned_ns(&plan, 0, &place));
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == planned + 30 * S,
	      "sized: planned (215 s) + 30 s (more than 10%%)");
	io_phase(SC_RW_WRITE, 16, 4 * GIB, 4 * GIB, 0);
	planned = 64 * GIB * 100; /* 64 GiB at 10 MB/s = 100 ns per byte */
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == planned + planned / 10,
	      "sized: planned (6872 s) + 10%%");
	io_phase(SC_RW_WRITE, 1, MIB, MIB, 0);
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 60 * S, "sized: at least 60 s");
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == 90 * S, "sized: 60 s + 30 s");
	/* open loop: 1024 I/Os of 4 KiB at 10 per second */
	io = io_phase(SC_RW_RANDWRITE, 1, 4 * MIB, 4 * MIB, 0);
	io->rate_iops = 10;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 102400000000ull,
	      "open loop: I/Os at the rate (102.4 s)");
	io->rate_iops = 1000;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 60 * S, "open loop: fast rate, 60 s");
	/* runtime_max: the jobs stop then, so the plan is at most that; a
	 * longer cap leaves the bytes' time as it is */
	io = io_phase(SC_RW_WRITE, 2, GIB, GIB, 0);
	io->runtime_max_ns = 100 * S;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 100 * S, "runtime_max: 100 s, not 215 s");
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == 130 * S, "runtime_max: 100 s + 30 s");
	io->runtime_max_ns = 1000 * S;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 2 * GIB * 100,
	      "runtime_max past the bytes' time: the bytes' time");
	io = io_phase(SC_RW_WRITE, 1024, UINT64_MAX / 2, UINT64_MAX / 2, 0);
	CHECK(sc_deadline_run_ns(&plan, 0, &place) == UINT64_MAX, "huge sized: saturates");
}

static void check_ingest(void)
{
	io_phase(SC_RW_RANDREAD, 8, 0, 0, 0);
	phase.workload = SC_WORKLOAD_INGEST;
	phase.ingest.files = 4;
	phase.ingest.file_bytes = MIB;
	phase.ingest.sample_bytes = 128 * 1024;
	phase.ingest.batch = 4;
	phase.ingest.epochs = 1;
	phase.ingest.compute_per_batch_ns = 10 * S;
	/* 32 samples per node, 8 steps of 4 for the one rank: 4 MiB, 80 s compute */
	CHECK(sc_layout_ingest_steps(&plan, 0, &place) == 8, "ingest steps");
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 140 * S,
	      "ingest: 60 s for the bytes + 80 s compute (%llu ns)",
	      (unsigned long long)sc_deadline_planned_ns(&plan, 0, &place));
	CHECK(sc_deadline_setup_ns(&plan, 0) == 90 * S, "ingest setup: 4 MiB, 60 s + 30 s");
	phase.ingest.files = 1000;
	phase.ingest.file_bytes = GIB;
	CHECK(sc_deadline_setup_ns(&plan, 0) == 1000 * GIB * 100 + 1000 * GIB * 10,
	      "ingest setup: the dataset at the floor rate (100 ns per byte) + 10%%");
	phase.io.runtime_ns = 20 * S;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == 20 * S, "timed ingest: runtime");
}

static void check_training(void)
{
	io_phase(SC_RW_RANDREAD, 4, 0, 0, 0);
	phase.workload = SC_WORKLOAD_TRAINING;
	/* unet3d on b200 with 7200 files and 8 accelerators: 128 steps an
	 * epoch (7200 / 7 / 8), 5 epochs of 162 ms compute each = 103.68 s;
	 * the rank reads 128 x 7 x 5 x 146,567,342 B (the mean file) =
	 * 656.6 GB, 65,659 s at the floor rate of 10 MB/s */
	phase.training = (struct sc_training_spec){.files = 7200,
						   .samples_per_file = 1,
						   .record_bytes = 146600628,
						   .record_stdev_bytes = 68341808,
						   .batch = 7,
						   .computation_ns = 162000000,
						   .epochs = 5,
						   .transfer_bytes = MIB,
						   .accelerators = 8};
	uint64_t rd, wr, bytes = UINT64_C(128) * 7 * 5 * 146567342;

	sc_layout_rank_bytes(&plan, 0, &place, &rd, &wr);
	CHECK(rd == bytes && wr == 0, "training reads %llu, want %llu", (unsigned long long)rd,
	      (unsigned long long)bytes);
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == bytes * 100 + 128 * 5 * 162000000ull,
	      "training: its bytes at the floor rate + 128 x 5 x 162 ms (%llu ns)",
	      (unsigned long long)sc_deadline_planned_ns(&plan, 0, &place));
	CHECK(sc_deadline_setup_ns(&plan, 0) == 7200ull * 146567342 * 100 * 11 / 10,
	      "training setup: the dataset at the floor rate + 10%%");
	phase.training.computation_ns = UINT64_MAX / 2;
	CHECK(sc_deadline_planned_ns(&plan, 0, &place) == UINT64_MAX, "compute saturates");
}

static void check_setup(void)
{
	io_phase(SC_RW_WRITE, 2, GIB, GIB, 0);
	CHECK(sc_deadline_setup_ns(&plan, 0) == 90 * S, "writing: nothing to lay out");
	io_phase(SC_RW_READ, 2, GIB, GIB, 0);
	CHECK(sc_deadline_setup_ns(&plan, 0) == 2 * GIB * 100 + 30 * S,
	      "reading: both jobs' files laid out at the floor rate + 30 s");
	io_phase(SC_RW_READ, 2, GIB, GIB, 0);
	phase.workload = SC_WORKLOAD_CHECKPOINT;
	CHECK(sc_deadline_setup_ns(&plan, 0) == 90 * S, "checkpoint: nothing to lay out");
	CHECK(sc_deadline_step_ns(100) == 31 * S, "step with 100 ranks: 31 s");
	CHECK(sc_deadline_step_ns(1) == 30 * S + 10000000, "step with 1 rank");
}

int main(void)
{
	check_grace();
	check_timed();
	check_sized();
	check_ingest();
	check_training();
	check_setup();
	return check_exit("test_deadline");
}
