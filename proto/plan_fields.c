/* plan_fields.c -- the field lists of the plan's messages (Plan, Target,
 * Phase, IoSpec, CkptSpec, IngestSpec), and the plan's wire enums. */
#include "convert.h"
#include "plan.h"
#include "ssdcluster.pb-c.h"

/* The wire enums carry the C values unchanged; a new C value must be added
 * to ssdcluster.proto too (these fail until it is). */
#define SAME_ENUM(c, pb) _Static_assert((int)(c) == (int)(pb), #c " != " #pb)
SAME_ENUM(SC_RW_READ, SSDCLUSTER__RW__RW_READ);
SAME_ENUM(SC_RW_WRITE, SSDCLUSTER__RW__RW_WRITE);
SAME_ENUM(SC_RW_RANDREAD, SSDCLUSTER__RW__RW_RANDREAD);
SAME_ENUM(SC_RW_RANDWRITE, SSDCLUSTER__RW__RW_RANDWRITE);
SAME_ENUM(SC_RW_RANDRW, SSDCLUSTER__RW__RW_RANDRW);
SAME_ENUM(SC_RW_READWRITE, SSDCLUSTER__RW__RW_READWRITE);
SAME_ENUM(SC_RW_COUNT, SSDCLUSTER__RW__RW_READWRITE + 1);
SAME_ENUM(SC_ENGINE_URING, SSDCLUSTER__ENGINE__ENGINE_URING);
SAME_ENUM(SC_ENGINE_PSYNC, SSDCLUSTER__ENGINE__ENGINE_PSYNC);
SAME_ENUM(SC_ENGINE_NULL, SSDCLUSTER__ENGINE__ENGINE_NULL);
SAME_ENUM(SC_ENGINE_EMULATED, SSDCLUSTER__ENGINE__ENGINE_EMULATED);
SAME_ENUM(SC_ENGINE_COUNT, SSDCLUSTER__ENGINE__ENGINE_EMULATED + 1);
SAME_ENUM(SC_TARGET_DIR, SSDCLUSTER__TARGET_KIND__TARGET_DIR);
SAME_ENUM(SC_TARGET_FILE, SSDCLUSTER__TARGET_KIND__TARGET_FILE);
SAME_ENUM(SC_TARGET_BLOCK, SSDCLUSTER__TARGET_KIND__TARGET_BLOCK);
SAME_ENUM(SC_TARGET_COUNT, SSDCLUSTER__TARGET_KIND__TARGET_BLOCK + 1);
SAME_ENUM(SC_WORKLOAD_IO, SSDCLUSTER__WORKLOAD__WORKLOAD_IO);
SAME_ENUM(SC_WORKLOAD_CHECKPOINT, SSDCLUSTER__WORKLOAD__WORKLOAD_CHECKPOINT);
SAME_ENUM(SC_WORKLOAD_INGEST, SSDCLUSTER__WORKLOAD__WORKLOAD_INGEST);
SAME_ENUM(SC_WORKLOAD_KVCACHE, SSDCLUSTER__WORKLOAD__WORKLOAD_KVCACHE);
SAME_ENUM(SC_WORKLOAD_FILL, SSDCLUSTER__WORKLOAD__WORKLOAD_FILL);
SAME_ENUM(SC_WORKLOAD_IDLE, SSDCLUSTER__WORKLOAD__WORKLOAD_IDLE);
SAME_ENUM(SC_WORKLOAD_TRAINING, SSDCLUSTER__WORKLOAD__WORKLOAD_TRAINING);
SAME_ENUM(SC_WORKLOAD_COUNT, SSDCLUSTER__WORKLOAD__WORKLOAD_TRAINING + 1);
SAME_ENUM(SC_STONEWALL_ALL_DONE, SSDCLUSTER__STONEWALL__STONEWALL_ALL_DONE);
SAME_ENUM(SC_STONEWALL_FIRST_DONE, SSDCLUSTER__STONEWALL__STONEWALL_FIRST_DONE);
SAME_ENUM(SC_STONEWALL_COUNT, SSDCLUSTER__STONEWALL__STONEWALL_FIRST_DONE + 1);
SAME_ENUM(SC_VERIFY_NONE, SSDCLUSTER__VERIFY__VERIFY_NONE);
SAME_ENUM(SC_VERIFY_CRC32C, SSDCLUSTER__VERIFY__VERIFY_CRC32C);
SAME_ENUM(SC_VERIFY_COUNT, SSDCLUSTER__VERIFY__VERIFY_CRC32C + 1);
SAME_ENUM(SC_ON_ERROR_STOP_PHASE, SSDCLUSTER__ON_ERROR__ON_ERROR_STOP_PHASE);
SAME_ENUM(SC_ON_ERROR_CONTINUE, SSDCLUSTER__ON_ERROR__ON_ERROR_CONTINUE);
SAME_ENUM(SC_ON_ERROR_ABORT, SSDCLUSTER__ON_ERROR__ON_ERROR_ABORT);
SAME_ENUM(SC_ON_ERROR_COUNT, SSDCLUSTER__ON_ERROR__ON_ERROR_ABORT + 1);
SAME_ENUM(SC_SERIALIZE_RAW, SSDCLUSTER__SERIALIZE__SERIALIZE_RAW);
SAME_ENUM(SC_SERIALIZE_TORCH, SSDCLUSTER__SERIALIZE__SERIALIZE_TORCH);
SAME_ENUM(SC_SERIALIZE_COUNT, SSDCLUSTER__SERIALIZE__SERIALIZE_TORCH + 1);
SAME_ENUM(SC_CKPT_LAYOUT_DLIO, SSDCLUSTER__CKPT_LAYOUT__CKPT_LAYOUT_DLIO);
SAME_ENUM(SC_CKPT_LAYOUT_SHARDED, SSDCLUSTER__CKPT_LAYOUT__CKPT_LAYOUT_SHARDED);
SAME_ENUM(SC_CKPT_LAYOUT_COUNT, SSDCLUSTER__CKPT_LAYOUT__CKPT_LAYOUT_SHARDED + 1);
SAME_ENUM(SC_PROCEDURE_NONE, SSDCLUSTER__PROCEDURE__PROCEDURE_NONE);
SAME_ENUM(SC_PROCEDURE_MLPERF, SSDCLUSTER__PROCEDURE__PROCEDURE_MLPERF);
SAME_ENUM(SC_PROCEDURE_COUNT, SSDCLUSTER__PROCEDURE__PROCEDURE_MLPERF + 1);
SAME_ENUM(SC_NUMA_NONE, SSDCLUSTER__NUMA__NUMA_NONE);
SAME_ENUM(SC_NUMA_DRIVE, SSDCLUSTER__NUMA__NUMA_DRIVE);
SAME_ENUM(SC_NUMA_COUNT, SSDCLUSTER__NUMA__NUMA_DRIVE + 1);
SAME_ENUM(SC_DIST_RANDOM, SSDCLUSTER__RAND_DIST__RAND_DIST_RANDOM);
SAME_ENUM(SC_DIST_NORMAL, SSDCLUSTER__RAND_DIST__RAND_DIST_NORMAL);
SAME_ENUM(SC_DIST_ZONED, SSDCLUSTER__RAND_DIST__RAND_DIST_ZONED);
SAME_ENUM(SC_DIST_COUNT, SSDCLUSTER__RAND_DIST__RAND_DIST_ZONED + 1);
SAME_ENUM(SC_STEADY_IOPS, SSDCLUSTER__STEADY_METRIC__STEADY_IOPS);
SAME_ENUM(SC_STEADY_BW, SSDCLUSTER__STEADY_METRIC__STEADY_BW);
SAME_ENUM(SC_STEADY_LAT, SSDCLUSTER__STEADY_METRIC__STEADY_LAT);
SAME_ENUM(SC_STEADY_METRIC_COUNT, SSDCLUSTER__STEADY_METRIC__STEADY_LAT + 1);
SAME_ENUM(SC_EXPECT_MIN_BW, SSDCLUSTER__EXPECT_METRIC__EXPECT_MIN_BW);
SAME_ENUM(SC_EXPECT_MIN_IOPS_PER_DRIVE, SSDCLUSTER__EXPECT_METRIC__EXPECT_MIN_IOPS_PER_DRIVE);
SAME_ENUM(SC_EXPECT_MAX_WRITE_P99_99, SSDCLUSTER__EXPECT_METRIC__EXPECT_MAX_WRITE_P99_99);
SAME_ENUM(SC_EXPECT_MIN_AU, SSDCLUSTER__EXPECT_METRIC__EXPECT_MIN_AU);
SAME_ENUM(SC_EXPECT_NO_MEDIA_ERRORS, SSDCLUSTER__EXPECT_METRIC__EXPECT_NO_MEDIA_ERRORS);
SAME_ENUM(SC_EXPECT_COUNT, SSDCLUSTER__EXPECT_METRIC__EXPECT_NO_MEDIA_ERRORS + 1);

/* Target <-> struct sc_target_spec */
#define SC_LIST Ssdcluster__Target, struct sc_target_spec
static const struct sc_field target_rows[] = {
	F_STR(path, path),
	F_ENUM(kind, kind, sc_target_kind_names),
	F_U64(capacity_bytes, capacity_bytes),
	F_BOOL(keep, keep),
	F_BOOL(allow_destroy, allow_destroy),
	F_STR_OR_NULL(hosts, hosts), /* NULL: every host */
	F_BOOL(wipe_signatures_ok, wipe_signatures_ok),
	F_U64(throttle_bytes_per_s, throttle_bytes_per_s),
	F_BOOL(capacity_given, capacity_given),
};
SC_FIELDS(sc_fields_target, target_rows, ssdcluster__target__descriptor, NULL);
#undef SC_LIST

/* EmulatePoint <-> struct sc_emulate_point */
#define SC_LIST Ssdcluster__EmulatePoint, struct sc_emulate_point
static const struct sc_field point_rows[] = {
	F_U64(latency_ns, latency_ns),
	F_U64(count, count),
};
static SC_FIELDS(point_fields, point_rows, ssdcluster__emulate_point__descriptor, NULL);
#undef SC_LIST

/* IoSpec <-> struct sc_io_spec */
#define SC_LIST Ssdcluster__IoSpec, struct sc_io_spec
static const struct sc_field io_rows[] = {
	F_ENUM(rw, rw, sc_rw_names),
	F_U32(rwmixread_pct, rwmixread_pct),
	F_U64(bs_bytes, bs_bytes),
	F_U32(iodepth, iodepth),
	F_U32(jobs, jobs),
	F_U64(size_bytes, size_bytes),
	F_U64(runtime_ns, runtime_ns),
	F_U64(io_bytes, io_bytes),
	F_U64(ramp_ns, ramp_ns),
	F_U32(fsync_every, fsync_every),
	F_BOOL(direct, direct),
	F_ENUM(engine, engine, sc_engine_names),
	F_U64(seed, seed),
	F_U64(rate_iops, rate_iops),
	F_ENUM(verify, verify, sc_verify_names),
	F_BOOL(verify_only, verify_only),
	F_ENUM(on_error, on_error, sc_on_error_names),
	F_U64(timeout_ns, timeout_ns),
	F_U64(inject_every, inject.every),
	F_U32(inject_ppm, inject.ppm),
	F_I32(inject_errno, inject.errno_val),
	F_U64(emulate_latency_ns, emulate.latency_ns),
	F_U64(emulate_spread_ns, emulate.spread_ns),
	F_U64(emulate_bandwidth, emulate.bandwidth),
	F_DOUBLE(emulate_speed_spread, emulate.speed_spread),
	F_DOUBLE(emulate_fill_slowdown, emulate.fill_slowdown),
	F_U64(emulate_fill_capacity, emulate.fill_capacity),
	F_DOUBLE(emulate_stall_probability, emulate.stall_probability),
	F_U64(emulate_stall_ns, emulate.stall_ns),
	F_ARRAY_MAX(emulate_read_cdf, emulate.read_cdf, emulate.nread_cdf, point_fields,
		    SC_EMULATE_CDF_MAX),
	F_ARRAY_MAX(emulate_write_cdf, emulate.write_cdf, emulate.nwrite_cdf, point_fields,
		    SC_EMULATE_CDF_MAX),
	F_U32(compressible_pct, compressible_pct),
	F_U32(dedupe_pct, dedupe_pct),
	F_BOOL(reuse_buffers, reuse_buffers),
	F_BOOL(huge_buffers, huge_buffers),
	F_U32(submit_batch, submit_batch),
	F_ENUM(preallocate, preallocate, sc_preallocate_names),
	F_BOOL(sqpoll, sqpoll),
	F_I32(sqpoll_cpu, sqpoll_cpu),
	F_BOOL(hipri, hipri),
	F_BOOL(passthrough, passthrough),
	F_CHARS(cpus, cpus),
	F_ENUM(numa, numa, sc_numa_names),
	/* fio's access options: echoed where they are not the default */
	F_ENUM_ECHO_SET(rand_dist, rand_dist, sc_rand_dist_names),
	F_DOUBLE_ECHO_SET(rand_param, rand_param),
	F_U64_ECHO_SET(offset_bytes, offset_bytes),
	F_U64_ECHO_SET(offset_increment_bytes, offset_increment_bytes),
	F_BOOL_ECHO_SET(offset_increment_given, offset_increment_given),
	F_BOOL_ECHO_SET(end_fsync, end_fsync),
	F_U64_ECHO_SET(runtime_max_ns, runtime_max_ns),
	F_U32_ECHO_SET(random_every, random_every),
	F_BOOL_ECHO_SET(randommap, randommap),
	F_U64_ECHO_SET(bs_max_bytes, bs_max_bytes),
	F_U64S_ECHO_SET(bssplit_bytes, bssplit_bytes),
	F_U64S_ECHO_SET(bssplit_pct, bssplit_pct),
	F_U64S_ECHO_SET(zone_access_pct, zone_access_pct),
	F_U64S_ECHO_SET(zone_size_pct, zone_size_pct),
	F_BOOL_ECHO_SET(invalidate, invalidate),
	F_BOOL_ECHO_SET(fadvise_hint, fadvise_hint),
};
SC_FIELDS(sc_fields_io_spec, io_rows, ssdcluster__io_spec__descriptor, NULL);
#undef SC_LIST

/* CkptSpec.Model <-> struct sc_llm */
#define SC_LIST Ssdcluster__CkptSpec__Model, struct sc_llm
static const struct sc_field model_rows[] = {
	F_CHARS(name, name),
	F_U32(layers, layers),
	F_U32(hidden, hidden),
	F_U32(ffn_hidden, ffn_hidden),
	F_U32(heads, heads),
	F_U32(kv_heads, kv_heads),
	F_U64(vocab, vocab),
	F_U32(model_dtype_bytes, model_dtype_bytes),
	F_U32(optim_bytes_per_param, optim_bytes_per_param),
};
static SC_FIELDS(model_fields, model_rows, ssdcluster__ckpt_spec__model__descriptor, NULL);
#undef SC_LIST

/* CkptSpec.Layout <-> struct sc_ckpt_layout */
#define SC_LIST Ssdcluster__CkptSpec__Layout, struct sc_ckpt_layout
static const struct sc_field layout_rows[] = {
	F_U32(tp, tp),
	F_U32(pp, pp),
	F_U32(dp, dp),
	F_U32(zero_stage, zero_stage),
	F_ENUM(kind, kind, sc_ckpt_layout_names),
};
SC_FIELDS(sc_fields_ckpt_layout, layout_rows, ssdcluster__ckpt_spec__layout__descriptor, NULL);
#undef SC_LIST

/* CkptSpec <-> struct sc_ckpt_spec */
#define SC_LIST Ssdcluster__CkptSpec, struct sc_ckpt_spec
static const struct sc_field ckpt_rows[] = {
	F_MSG(model, model, model_fields),
	F_MSG(layout, layout, sc_fields_ckpt_layout),
	F_U32(checkpoints, checkpoints),
	F_U32(index, index),
	F_BOOL(restore, restore),
	F_U32(restore_shift, restore_shift),
	F_U64(compute_before_ns, compute_before_ns),
	F_DOUBLE(scale, scale),
	F_BOOL(fsync, fsync),
	F_ENUM(serialize, serialize, sc_serialize_names),
	F_U32(keep_last, keep_last),
	F_BOOL_ECHO_SET(async, async),
	F_U64_ECHO_SET(compute_after_ns, compute_after_ns),
	F_ENUM(procedure, procedure, sc_procedure_names),
};
SC_FIELDS(sc_fields_ckpt_spec, ckpt_rows, ssdcluster__ckpt_spec__descriptor, NULL);
#undef SC_LIST

/* IngestSpec <-> struct sc_ingest_spec */
#define SC_LIST Ssdcluster__IngestSpec, struct sc_ingest_spec
static const struct sc_field ingest_rows[] = {
	F_U32(files, files),
	F_U64(file_bytes, file_bytes),
	F_U64(sample_bytes, sample_bytes),
	F_U32(batch, batch),
	F_U64(compute_per_batch_ns, compute_per_batch_ns),
	F_U32(epochs, epochs),
	F_U32(prefetch, prefetch),
	F_BOOL(step_barrier, step_barrier),
};
SC_FIELDS(sc_fields_ingest_spec, ingest_rows, ssdcluster__ingest_spec__descriptor, NULL);
#undef SC_LIST

/* TrainingSpec <-> struct sc_training_spec */
#define SC_LIST Ssdcluster__TrainingSpec, struct sc_training_spec
static const struct sc_field training_rows[] = {
	F_U32(benchmark, benchmark),
	F_U32(accelerator, accelerator),
	F_U64(files, files),
	F_U32(samples_per_file, samples_per_file),
	F_U64(record_bytes, record_bytes),
	F_U64(record_stdev_bytes, record_stdev_bytes),
	F_U32(batch, batch),
	F_U32(prefetch_size, prefetch_size),
	F_U64(computation_ns, computation_ns),
	F_U32(epochs, epochs),
	F_DOUBLE(au, au),
	F_U64(transfer_bytes, transfer_bytes),
	F_U32(accelerators, accelerators),
	F_U64(client_memory_bytes, client_memory_bytes),
	F_U32(accelerators_per_rank, accelerators_per_rank),
	F_U32(search_max, search_max),
	F_U32(trial, trial),
	F_U32(warmups, warmups),
	F_U32(runs, runs),
	F_U32(run, run),
};
SC_FIELDS(sc_fields_training_spec, training_rows, ssdcluster__training_spec__descriptor, NULL);
#undef SC_LIST

/* SteadySpec <-> struct sc_steady_spec */
#define SC_LIST Ssdcluster__SteadySpec, struct sc_steady_spec
static const struct sc_field steady_rows[] = {
	F_U32(max_rounds, max_rounds),
	F_U32(round, round),
	F_U32(window, window),
	F_ENUM(metric, metric, sc_steady_metric_names),
	F_U64(round_ns, round_ns),
};
SC_FIELDS(sc_fields_steady_spec, steady_rows, ssdcluster__steady_spec__descriptor, NULL);
#undef SC_LIST

/* FillSpec <-> struct sc_fill_spec */
#define SC_LIST Ssdcluster__FillSpec, struct sc_fill_spec
static const struct sc_field fill_rows[] = {
	F_U32(passes, passes),
	F_U32(random_passes, random_passes),
	F_U64(random_bs_bytes, random_bs_bytes),
	F_DOUBLE(cliff_fraction, cliff_fraction),
	F_BOOL(whole, whole),
};
SC_FIELDS(sc_fields_fill_spec, fill_rows, ssdcluster__fill_spec__descriptor, NULL);
#undef SC_LIST

/* Expect <-> struct sc_expect */
#define SC_LIST Ssdcluster__Expect, struct sc_expect
static const struct sc_field expect_rows[] = {
	F_ENUM(metric, metric, sc_expect_metric_names),
	F_DOUBLE(value, value),
};
static SC_FIELDS(expect_fields, expect_rows, ssdcluster__expect__descriptor, NULL);
#undef SC_LIST

/* Phase <-> struct sc_phase.  Every phase carries all three specs: those
 * of other workloads all zero. */
#define SC_LIST Ssdcluster__Phase, struct sc_phase
static const struct sc_field phase_rows[] = {
	F_STR(name, name),
	F_STR(group, group),
	F_U32(config_index, config_index),
	F_U32(cell, cell),
	F_U32(ncells, ncells),
	F_ENUM(workload, workload, sc_workload_names),
	F_MSG(io, io, sc_fields_io_spec),
	F_MSG(ckpt, ckpt, sc_fields_ckpt_spec),
	F_MSG(ingest, ingest, sc_fields_ingest_spec),
	F_MSG(fill, fill, sc_fields_fill_spec),
	F_MSG_OPT_BY(training, training, sc_fields_training_spec, files),
	F_ENUM(stonewall, stonewall, sc_stonewall_names),
	F_MSG(steady, steady, sc_fields_steady_spec),
	F_ARRAY_MAX(expect, expect, nexpect, expect_fields, SC_EXPECT_MAX),
};
SC_FIELDS(sc_fields_phase, phase_rows, ssdcluster__phase__descriptor, NULL);
#undef SC_LIST

/* ModelParam <-> struct sc_plan_kv */
#define SC_LIST Ssdcluster__ModelParam, struct sc_plan_kv
static const struct sc_field model_param_rows[] = {
	F_STR(key, key),
	F_STR(value, value),
};
SC_FIELDS(sc_fields_model_param, model_param_rows, ssdcluster__model_param__descriptor, NULL);
#undef SC_LIST

/* Plan <-> struct sc_plan */
#define SC_LIST Ssdcluster__Plan, struct sc_plan
static const struct sc_field plan_rows[] = {
	F_STR(run_id, run_id),
	F_STR(config_path, config_path),
	F_ARRAY(targets, targets, ntargets, sc_fields_target),
	F_ARRAY(phases, phases, nphases, sc_fields_phase),
	F_BOOL(allow_destroy, allow_destroy),
	F_ARRAY_MAX(model, model, nmodel, sc_fields_model_param, SC_PLAN_MODEL_MAX),
	F_DOUBLE(outlier_k, outlier_k),
	F_DOUBLE(outlier_mad_floor, outlier_mad_floor),
};
SC_FIELDS(sc_fields_plan, plan_rows, ssdcluster__plan__descriptor, NULL);
#undef SC_LIST
