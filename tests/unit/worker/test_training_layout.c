/* test_training_layout.c -- what a training phase asks of its targets
 * (worker/layout.h): the steps of an epoch, the dataset files a node's
 * ranks read and hold, the bytes a directory target needs for them and a
 * rank's planned reads, against hand-worked values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "layout.h"
#include "mlperf.h"
#include "plan.h"

/* unet3d on b200 (docs/workloads.md) with 7200 files on 8 accelerators:
 * each reads a block of 900 files, 128 steps of 7 an epoch. */
static struct sc_training_spec unet3d(void)
{
	return (struct sc_training_spec){.benchmark = SC_MLPERF_UNET3D,
					 .accelerator = SC_MLPERF_B200,
					 .files = 7200,
					 .samples_per_file = 1,
					 .record_bytes = 146600628,
					 .record_stdev_bytes = 68341808,
					 .batch = 7,
					 .computation_ns = 162000000,
					 .epochs = 5,
					 .au = 0.9,
					 .transfer_bytes = 1 << 20,
					 .accelerators = 8};
}

static void test_spec(void)
{
	struct sc_training_spec t = unet3d();

	CHECK(sc_layout_training_steps(&t) == 128, "7200 / 7 / 8 = 128 steps");
	CHECK(sc_layout_training_mean_file_bytes(&t) == 146567342, "the mean file");
	CHECK(sc_layout_training_dataset_bytes(&t) == UINT64_C(7200) * 146567342, "the dataset");
	CHECK(sc_layout_training_files(&t, 8) == 7200, "8 of 8 ranks: every file");
	CHECK(sc_layout_training_files(&t, 4) == 3600, "4 of 8 ranks: 4 blocks of 900");
	CHECK(sc_layout_training_files(&t, 1) == 900, "1 rank: its block");
	t.accelerators = 0;
	CHECK(sc_layout_training_steps(&t) == 0 && sc_layout_training_files(&t, 1) == 0,
	      "no steps or files before the ranks are known");

	/* 10 files of 3 samples on 4 accelerators: blocks of 7 samples (2 read
	 * by none), [0,7) in files 0-2, [7,14) in 2-4, [14,21) in 4-6, [21,28)
	 * in 7-9: at most ceil(7 / 3) + 1 = 4 files a rank */
	t = (struct sc_training_spec){.files = 10,
				      .samples_per_file = 3,
				      .record_bytes = 4096,
				      .batch = 2,
				      .accelerators = 4};
	CHECK(sc_layout_training_files(&t, 1) == 4, "a block across file edges: %llu",
	      (unsigned long long)sc_layout_training_files(&t, 1));
	CHECK(sc_layout_training_files(&t, 2) == 8, "two ranks' blocks");
	CHECK(sc_layout_training_files(&t, 4) == 10, "every file, at most");
	CHECK(sc_layout_training_steps(&t) == 3, "30 / 2 / 4 = 3 steps");
	CHECK(sc_layout_training_mean_file_bytes(&t) == 3 * 64 * 64, "3 x 64^2 B, no stdev");
}

/* A plan of one directory target and one training phase. */
static void plan_one(struct sc_plan *plan, struct sc_phase *ph, struct sc_target_spec *tg)
{
	memset(plan, 0, sizeof(*plan));
	memset(ph, 0, sizeof(*ph));
	memset(tg, 0, sizeof(*tg));
	tg->path = "/data";
	tg->kind = SC_TARGET_DIR;
	ph->workload = SC_WORKLOAD_TRAINING;
	ph->io = (struct sc_io_spec){.rw = SC_RW_RANDREAD,
				     .rwmixread_pct = 100,
				     .bs_bytes = 1 << 20,
				     .iodepth = 8,
				     .jobs = 4,
				     .engine = SC_ENGINE_URING};
	ph->training = unet3d();
	plan->targets = tg;
	plan->ntargets = 1;
	plan->phases = ph;
	plan->nphases = 1;
}

static void test_plan(void)
{
	struct sc_target_spec tg;
	struct sc_phase ph;
	struct sc_plan plan;
	struct sc_place place = {.rank = 3, .nslots = 4, .local_nranks = 4};
	uint64_t rd, wr;

	plan_one(&plan, &ph, &tg);
	CHECK(sc_layout_need_bytes(&plan, 0, 4) == UINT64_C(3600) * 146567342,
	      "4 ranks of 8 hold 3600 files of the mean: %llu",
	      (unsigned long long)sc_layout_need_bytes(&plan, 0, 4));
	CHECK(sc_layout_need_bytes(&plan, 0, 8) == UINT64_C(7200) * 146567342, "8 ranks: all");
	sc_layout_rank_bytes(&plan, 0, &place, &rd, &wr);
	CHECK(rd == UINT64_C(128) * 7 * 5 * 146567342 && wr == 0,
	      "a rank reads 128 steps x 7 x 5 epochs of the mean sample: %llu",
	      (unsigned long long)rd);
	ph.training.samples_per_file = 4;
	ph.training.files = 1800;
	sc_layout_rank_bytes(&plan, 0, &place, &rd, &wr);
	/* 896 samples an epoch of the mean file 24213^2 = 586,269,369 B / 4 */
	CHECK(sc_layout_training_mean_file_bytes(&ph.training) == 586269369 &&
		  rd == UINT64_C(896) * 586269369 / 4 * 5,
	      "4 samples a file: a quarter of the mean file each: %llu", (unsigned long long)rd);
	ph.io.engine = SC_ENGINE_NULL;
	CHECK(sc_layout_need_bytes(&plan, 0, 8) == 0, "the null engine lays out nothing");
	ph.io.engine = SC_ENGINE_URING;
	ph.training.files = UINT32_MAX;
	ph.training.samples_per_file = 1;
	ph.training.record_bytes = UINT64_C(1) << 50;
	CHECK(sc_layout_need_bytes(&plan, 0, 8) == UINT64_MAX, "the need saturates");
	sc_layout_rank_bytes(&plan, 0, &place, &rd, &wr);
	CHECK(rd == UINT64_MAX, "the reads saturate");
}

int main(void)
{
	test_spec();
	test_plan();
	return check_exit("test_training_layout");
}
