/* result_fields.c -- the field lists of the results' messages (RunRecord,
 * PhaseRecord, RankResult and what they hold), with the hooks of the two
 * fields that are more than a copy: a histogram's sparse buckets and a
 * rank's per-second series. */
#include <errno.h>
#include <string.h>

#include "convert.h"
#include "histogram.h"
#include "result.h"
#include "ssdcluster.pb-c.h"
#include "verify.h"

#define SAME_ENUM(c, pb) _Static_assert((int)(c) == (int)(pb), #c " != " #pb)
SAME_ENUM(SC_PHASE_OK, SSDCLUSTER__PHASE_STATUS__PHASE_OK);
SAME_ENUM(SC_PHASE_ERRORS, SSDCLUSTER__PHASE_STATUS__PHASE_ERRORS);
SAME_ENUM(SC_PHASE_STOPPED_ON_ERROR, SSDCLUSTER__PHASE_STATUS__PHASE_STOPPED_ON_ERROR);
SAME_ENUM(SC_PHASE_ABORTED, SSDCLUSTER__PHASE_STATUS__PHASE_ABORTED);
SAME_ENUM(SC_PHASE_INTERRUPTED, SSDCLUSTER__PHASE_STATUS__PHASE_INTERRUPTED);
SAME_ENUM(SC_PHASE_TIMED_OUT, SSDCLUSTER__PHASE_STATUS__PHASE_TIMED_OUT);
SAME_ENUM(SC_PHASE_STATUS_COUNT, SSDCLUSTER__PHASE_STATUS__PHASE_TIMED_OUT + 1);

/* struct sc_io_failure.op: read, write or fsync (enum sc_op). */
#define SC_IO_FAILURE_OP_MAX 2u

/* LatSummary <-> struct sc_lat_summary */
#define SC_LIST Ssdcluster__LatSummary, struct sc_lat_summary
static const struct sc_field lat_rows[] = {
	F_U64(count, count),
	F_U64(min_ns, min_ns),
	F_U64(max_ns, max_ns),
	F_DOUBLE(mean_ns, mean_ns),
	F_U64S(pct_ns, pct_ns),
};
static SC_FIELDS(lat_fields, lat_rows, ssdcluster__lat_summary__descriptor, NULL);
#undef SC_LIST

/* Histogram <-> struct sc_hist: only the nonzero buckets travel, as
 * (index, count) pairs in increasing index order. */
static int buckets_to_pb(struct sc_arena *a, const void *c, void *pb)
{
	const struct sc_hist *h = c;
	Ssdcluster__Histogram *m = pb;
	size_t n = 0;

	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++)
		n += h->buckets[i] != 0;
	m->bucket_index = sc_arena_alloc(a, n, sizeof(*m->bucket_index));
	m->bucket_count = sc_arena_alloc(a, n, sizeof(*m->bucket_count));
	if (!m->bucket_index || !m->bucket_count)
		return -ENOMEM;
	for (uint32_t i = 0; i < SC_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		m->bucket_index[m->n_bucket_index++] = i;
		m->bucket_count[m->n_bucket_count++] = h->buckets[i];
	}
	return 0;
}

static int buckets_from_pb(const void *pb, void *c)
{
	const Ssdcluster__Histogram *m = pb;
	struct sc_hist *h = c;

	if (m->n_bucket_index != m->n_bucket_count)
		return -EBADMSG;
	for (size_t i = 0; i < m->n_bucket_index; i++) {
		uint32_t idx = m->bucket_index[i];

		if (idx >= SC_HIST_NBUCKETS || (i && idx <= m->bucket_index[i - 1]))
			return -EBADMSG;
		h->buckets[idx] = m->bucket_count[i];
	}
	return 0;
}

static const struct sc_field_hooks bucket_hooks = {
	.to_pb = buckets_to_pb,
	.from_pb = buckets_from_pb,
};

#define SC_LIST Ssdcluster__Histogram, struct sc_hist
static const struct sc_field hist_rows[] = {
	F_U64(count, count),
	F_U64(sum_ns, sum_ns),
	F_U64(min_ns, min_ns),
	F_U64(max_ns, max_ns),
	F_HOOK(bucket_index, offsetof(struct sc_hist, buckets)),
	F_HOOK(bucket_count, offsetof(struct sc_hist, buckets)),
};
static SC_FIELDS(hist_fields, hist_rows, ssdcluster__histogram__descriptor, &bucket_hooks);
#undef SC_LIST

/* ErrnoCount <-> struct sc_errno_count */
#define SC_LIST Ssdcluster__ErrnoCount, struct sc_errno_count
static const struct sc_field errno_rows[] = {
	F_I32(err, err),
	F_U64(count, count),
};
static SC_FIELDS(errno_fields, errno_rows, ssdcluster__errno_count__descriptor, NULL);
#undef SC_LIST

/* IoFailure <-> struct sc_io_failure */
#define SC_LIST Ssdcluster__IoFailure, struct sc_io_failure
static const struct sc_field failure_rows[] = {
	F_I64(time_ns, time_ns),
	F_U64(offset_bytes, offset_bytes),
	F_U32(len_bytes, len_bytes),
	F_I32(err, err),
	F_U8(op, op, SC_IO_FAILURE_OP_MAX),
	F_U32(job, job),
	F_CHARS(file, file),
};
static SC_FIELDS(failure_fields, failure_rows, ssdcluster__io_failure__descriptor, NULL);
#undef SC_LIST

/* VerifyMismatch <-> struct sc_verify_mismatch */
#define SC_LIST Ssdcluster__VerifyMismatch, struct sc_verify_mismatch
static const struct sc_field mismatch_rows[] = {
	F_U64(offset, offset),
	F_U32(job, job),
	F_U32(failed, failed),
	F_U64(found_magic, found.magic),
	F_U64(found_offset, found.offset),
	F_U64(found_run_id, found.run_id),
	F_U64(found_seq, found.seq),
	F_U32(found_len, found.len),
	F_U32(found_phase, found.phase),
	F_U32(found_rank, found.rank),
	F_U32(found_crc, found.crc),
	F_U32(crc_data, crc_data),
	F_U32(bad_bytes, bad_bytes),
	F_U32(first_bad_byte, first_bad_byte),
};
static SC_FIELDS(mismatch_fields, mismatch_rows, ssdcluster__verify_mismatch__descriptor, NULL);
#undef SC_LIST

/* AccelRow <-> struct sc_accel_row */
#define SC_LIST Ssdcluster__AccelRow, struct sc_accel_row
static const struct sc_field accel_rows[] = {
	F_U32(index, index),
	F_U64(samples, samples),
	F_U64(steps, steps),
	F_U64(au_steps, au_steps),
	F_U64(au_compute_ns, au_compute_ns),
	F_U64(au_wall_ns, au_wall_ns),
	F_U64(barrier_wait_ns, barrier_wait_ns),
};
static SC_FIELDS(accel_fields, accel_rows, ssdcluster__accel_row__descriptor, NULL);
#undef SC_LIST

/* DriveHealth <-> struct sc_drive_health */
#define SC_LIST Ssdcluster__DriveHealth, struct sc_drive_health
static const struct sc_field health_rows[] = {
	F_BOOL(valid, valid),
	F_CHARS(reason, reason),
	F_I32(temperature_c, temperature_c),
	F_U64(data_units_read, data_units_read),
	F_U64(data_units_written, data_units_written),
	F_U64(media_errors, media_errors),
	F_U64(power_on_hours, power_on_hours),
	F_U32(critical_warning, critical_warning),
	F_U32(percentage_used, percentage_used),
	F_U32(available_spare, available_spare),
	F_U32(spare_threshold, spare_threshold),
};
static SC_FIELDS(health_fields, health_rows, ssdcluster__drive_health__descriptor, NULL);
#undef SC_LIST

/* Drive <-> struct sc_drive */
#define SC_LIST Ssdcluster__Drive, struct sc_drive
static const struct sc_field drive_rows[] = {
	F_CHARS(device, device),
	F_CHARS(controller, controller),
	F_CHARS(model, model),
	F_CHARS(serial, serial),
	F_CHARS(firmware, firmware),
	F_U64(capacity_bytes, capacity_bytes),
	F_MSG(before, before, health_fields),
	F_MSG(after, after, health_fields),
};
static SC_FIELDS(drive_fields, drive_rows, ssdcluster__drive__descriptor, NULL);
#undef SC_LIST

/* The columns of a per-second series in RankResult and Series (same
 * names; the temperature column comes apart in RankResult). */
#define SECOND_COLUMNS                                                                             \
	F_HOOK(sec_read_bytes, SEC(bytes[SC_DIR_READ])),                                           \
	    F_HOOK(sec_write_bytes, SEC(bytes[SC_DIR_WRITE])),                                     \
	    F_HOOK(sec_read_ios, SEC(ios[SC_DIR_READ])),                                           \
	    F_HOOK(sec_write_ios, SEC(ios[SC_DIR_WRITE])),                                         \
	    F_HOOK(sec_read_max_lat_ns, SEC(max_lat_ns[SC_DIR_READ])),                             \
	    F_HOOK(sec_write_max_lat_ns, SEC(max_lat_ns[SC_DIR_WRITE]))

/* RankResult <-> struct sc_rank_result */
#define SEC(member) offsetof(struct sc_second, member)
#define SC_LIST Ssdcluster__RankResult, struct sc_rank_result
static const struct sc_field rank_rows[] = {
	F_U32(rank, rank),
	F_U32(node, node),
	F_CHARS(host, host),
	F_U32(target, target),
	F_I64(clock_offset_ns, clock_offset_ns),
	F_I64(start_ns, start_ns),
	F_I64(end_ns, end_ns),
	F_U64(planned_bytes, planned_bytes),
	F_U64(read_bytes, bytes[SC_DIR_READ]),
	F_U64(write_bytes, bytes[SC_DIR_WRITE]),
	F_U64(read_ios, ios[SC_DIR_READ]),
	F_U64(write_ios, ios[SC_DIR_WRITE]),
	F_U64(fsyncs, fsyncs),
	F_U64(firstdone_bytes, firstdone_bytes),
	F_U64(errors, errors),
	F_CHARS(error, error),
	F_MSG(read_lat, lat[SC_DIR_READ], lat_fields),
	F_MSG(write_lat, lat[SC_DIR_WRITE], lat_fields),
	F_U32(nseconds, nseconds),
	SECOND_COLUMNS,
	F_MSG_OPT(resp_read, resp[SC_DIR_READ], lat_fields),
	F_MSG_OPT(resp_write, resp[SC_DIR_WRITE], lat_fields),
	F_MSG_OPT(batch_wait, batch_wait, lat_fields),
	F_U64(late_ios, late_ios),
	F_U64(files, files),
	F_U64(samples, samples),
	F_U64(steps, steps),
	F_U64(compute_ns, compute_ns),
	F_I64(busy_end_ns, busy_end_ns),
	F_U64(peak_rss_bytes, peak_rss_bytes),
	F_MSG_OPT(node_read_lat, node_lat[SC_DIR_READ], lat_fields),
	F_MSG_OPT(node_write_lat, node_lat[SC_DIR_WRITE], lat_fields),
	F_U64(unissued_ios, unissued_ios),
	F_ARRAY(errnos, errnos, nerrnos, errno_fields),
	F_ARRAY_MAX(failures, failures, nfailures, failure_fields, SC_IO_FAILURES_KEPT),
	F_CHARS(telemetry_none, telemetry_none),
	F_ARRAY_MAX(drives, drives, ndrives, drive_fields, SC_DRIVES_MAX),
	F_HOOK(sec_max_temp_mk, SEC(max_temp_mk)),
	F_U64(verify_checked, verify_checked),
	F_U64(verify_mismatches, verify_mismatches),
	F_ARRAY_MAX(verify_kept, verify_kept, verify_nkept, mismatch_fields, SC_VERIFY_KEEP),
	F_U32(opts_asked, opts_asked),
	F_U32(opts_unavailable, opts_unavailable),
	F_CHARS(opts_note, opts_note),
	F_U64(delete_ns, delete_ns),
	F_U64(blocking_ns, blocking_ns),
	F_U64(drain_ns, drain_ns),
	F_U64(stall_ns, stall_ns),
	F_U32(cache_drop, cache_drop),
	F_U64(cache_drop_files, cache_drop_files),
	F_U64(barrier_wait_ns, barrier_wait_ns),
	F_U64(au_steps, au_steps),
	F_U64(au_compute_ns, au_compute_ns),
	F_U64(au_wall_ns, au_wall_ns),
	F_ARRAY_MAX(accels, accels, naccels, accel_fields, SC_ACCELS_MAX),
	F_U64(host_memory_bytes, host_memory_bytes),
	F_U32(time_capped_jobs, time_capped_jobs),
};

/* A per-second series travels as one column per member of struct
 * sc_second: the HOOK rows of a message's list, each with its member's
 * offset.  RankResult and Series carry the same columns. */
static int columns_to_pb(struct sc_arena *a, const struct sc_field *rows, size_t nrows,
			 const struct sc_second *seconds, uint32_t n, void *pb)
{
	for (const struct sc_field *f = rows; f < rows + nrows; f++) {
		uint64_t *col;

		if (f->kind != SC_FIELD_HOOK)
			continue;
		col = sc_arena_alloc(a, n, sizeof(*col));
		if (!col)
			return -ENOMEM;
		for (uint32_t k = 0; k < n; k++)
			memcpy(&col[k], (const char *)&seconds[k] + f->c_off, sizeof(*col));
		sc_convert_set_repeated(pb, f, col, n);
	}
	return 0;
}

/* A column results written before it existed leave out: it reads as
 * all zero (temperature: none read). */
static bool column_may_be_absent(const struct sc_field *f)
{
	return f->c_off == SEC(max_temp_mk);
}

/* n is the message's nseconds already: every column holds as many values
 * (or none, when it may be absent).  *out: heap, n seconds. */
static int columns_from_pb(const struct sc_field *rows, size_t nrows, const void *pb, uint32_t n,
			   struct sc_second **out)
{
	void *seconds;
	size_t got;
	int err;

	for (const struct sc_field *f = rows; f < rows + nrows; f++) {
		if (f->kind != SC_FIELD_HOOK)
			continue;
		sc_convert_repeated(pb, f, &got);
		if (got != n && !(got == 0 && column_may_be_absent(f)))
			return -EBADMSG;
	}
	if ((err = sc_convert_calloc(&seconds, n, sizeof(struct sc_second))))
		return err;
	*out = seconds;
	for (const struct sc_field *f = rows; f < rows + nrows; f++) {
		const uint64_t *col;

		if (f->kind != SC_FIELD_HOOK)
			continue;
		col = sc_convert_repeated(pb, f, &got);
		for (uint32_t k = 0; k < got; k++)
			memcpy((char *)*out + (size_t)k * sizeof(struct sc_second) + f->c_off,
			       &col[k], sizeof(col[k]));
	}
	return 0;
}

/* The hooks of a message whose C struct holds a series as nseconds and
 * seconds (struct sc_rank_result, struct sc_series): name_hooks. */
#define SERIES_HOOKS(name, ctype, pbtype, rows)                                                    \
	static int name##_to_pb(struct sc_arena *a, const void *c, void *pb)                      \
	{                                                                                          \
		const ctype *x = c;                                                                \
		return columns_to_pb(a, rows, NROWS(rows), x->seconds, x->nseconds, pb);           \
	}                                                                                          \
	static int name##_from_pb(const void *pb, void *c)                                         \
	{                                                                                          \
		ctype *x = c;                                                                      \
		return columns_from_pb(rows, NROWS(rows), pb, x->nseconds, &x->seconds);           \
	}                                                                                          \
	static bool name##_ok(const void *c)                                                       \
	{                                                                                          \
		const ctype *x = c;                                                                \
		return !x->nseconds || x->seconds;                                                 \
	}                                                                                          \
	static uint64_t name##_cost(const void *pb)                                                \
	{                                                                                          \
		return ((const pbtype *)pb)->n_sec_read_bytes * sizeof(struct sc_second);          \
	}                                                                                          \
	static const struct sc_field_hooks name##_hooks = {                                        \
	    .to_pb = name##_to_pb, .from_pb = name##_from_pb, .ok = name##_ok, .cost = name##_cost}

SERIES_HOOKS(second, struct sc_rank_result, Ssdcluster__RankResult, rank_rows);

SC_FIELDS(sc_fields_rank_result, rank_rows, ssdcluster__rank_result__descriptor, &second_hooks);
#undef SC_LIST

/* Series <-> struct sc_series */
#define SC_LIST Ssdcluster__Series, struct sc_series
static const struct sc_field series_rows[] = {
	F_U32(nseconds, nseconds),
	SECOND_COLUMNS,
	F_HOOK(sec_max_temp_mk, SEC(max_temp_mk)),
};

SERIES_HOOKS(series, struct sc_series, Ssdcluster__Series, series_rows);

static SC_FIELDS(series_fields, series_rows, ssdcluster__series__descriptor, &series_hooks);
#undef SC_LIST
#undef SEC

/* PhaseRecord <-> struct sc_phase_record */
#define SC_LIST Ssdcluster__PhaseRecord, struct sc_phase_record
static const struct sc_field phase_record_rows[] = {
	F_U32(phase, phase),
	F_I64(measure_start_ns, measure_start_ns),
	F_I64(firstdone_ns, firstdone_ns),
	F_ARRAY(ranks, ranks, nranks, sc_fields_rank_result),
	F_MSG_PTR(read_lat, lat[SC_DIR_READ], hist_fields),
	F_MSG_PTR(write_lat, lat[SC_DIR_WRITE], hist_fields),
	F_I64(merge_ns, merge_ns),
	F_MSG_PTR(resp_read, resp[SC_DIR_READ], hist_fields),
	F_MSG_PTR(resp_write, resp[SC_DIR_WRITE], hist_fields),
	F_MSG_PTR(batch_wait, batch_wait, hist_fields),
	F_ENUM(status, status, sc_phase_status_names),
	F_MSG_PTR(cluster, cluster, series_fields),
	F_ARRAY(nodes, node_series, nnode_series, series_fields),
	F_I64(start_cost_ns, start_cost_ns),
};
SC_FIELDS(sc_fields_phase_record, phase_record_rows, ssdcluster__phase_record__descriptor,
		 NULL);
#undef SC_LIST

/* RunRecord <-> struct sc_run_record */
#define SC_LIST Ssdcluster__RunRecord, struct sc_run_record
static const struct sc_field run_rows[] = {
	F_STR(version, version),
	F_I64(started_unix_ns, started_unix_ns),
	F_U32(nranks, nranks),
	F_U32(nnodes, nnodes),
	F_MSG(plan, plan, sc_fields_plan),
	F_ARRAY(phases, phases, nphases, sc_fields_phase_record),
	F_U64(rank0_peak_rss_bytes, rank0_peak_rss_bytes),
	F_I64(startup_ns, startup_ns),
};
SC_FIELDS(sc_fields_run_record, run_rows, ssdcluster__run_record__descriptor, NULL);
#undef SC_LIST
