/* result.c -- lifetime of rank results, phase records and run records, and
 * the names results give a phase status and an errno. */
#include "result.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sc_rank_result_exit(struct sc_rank_result *r)
{
	if (!r)
		return;
	free(r->seconds);
	free(r->errnos);
	free(r->failures);
	free(r->verify_kept);
	free(r->drives);
	free(r->accels);
	r->accels = NULL;
	r->naccels = 0;
	r->drives = NULL;
	r->ndrives = 0;
	r->seconds = NULL;
	r->errnos = NULL;
	r->failures = NULL;
	r->verify_kept = NULL;
	r->nseconds = r->nerrnos = r->nfailures = r->verify_nkept = 0;
}

void sc_phase_record_exit(struct sc_phase_record *rec)
{
	if (!rec)
		return;
	sc_phase_record_thin(rec);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		free(rec->lat[d]);
		free(rec->resp[d]);
	}
	free(rec->batch_wait);
	sc_series_exit(rec->cluster);
	free(rec->cluster);
	memset(rec, 0, sizeof(*rec));
}

void sc_phase_record_thin(struct sc_phase_record *rec)
{
	for (uint32_t i = 0; rec->ranks && i < rec->nranks; i++)
		sc_rank_result_exit(&rec->ranks[i]);
	free(rec->ranks);
	rec->ranks = NULL;
	free(rec->ranks_wire);
	rec->ranks_wire = NULL;
	rec->ranks_wire_len = rec->ranks_wire_cap = 0;
	for (uint32_t i = 0; i < rec->nnode_series; i++)
		sc_series_exit(&rec->node_series[i]);
	free(rec->node_series);
	rec->node_series = NULL;
	rec->nnode_series = 0;
}

void sc_run_record_exit(struct sc_run_record *rec)
{
	if (!rec)
		return;
	sc_plan_exit(&rec->plan);
	free(rec->version);
	for (uint32_t i = 0; i < rec->nphases; i++)
		sc_phase_record_exit(&rec->phases[i]);
	free(rec->phases);
	memset(rec, 0, sizeof(*rec));
}

SC_ENUM_NAMES_DEFINE(phase_status, enum sc_phase_status, SC_PHASE_STATUS_COUNT,
		     [SC_PHASE_OK] = "ok", [SC_PHASE_ERRORS] = "errors",
		     [SC_PHASE_STOPPED_ON_ERROR] = "stopped_on_error",
		     [SC_PHASE_ABORTED] = "aborted", [SC_PHASE_INTERRUPTED] = "interrupted",
		     [SC_PHASE_TIMED_OUT] = "timed_out")

enum sc_phase_status sc_phase_status_of(enum sc_on_error on_error,
					const struct sc_rank_result *ranks, uint32_t nranks)
{
	bool stopped = false, failed = false;

	for (uint32_t i = 0; i < nranks; i++) {
		stopped |= ranks[i].error[0] != '\0';
		failed |= ranks[i].errors != 0;
	}
	if (stopped)
		return on_error == SC_ON_ERROR_ABORT ? SC_PHASE_ABORTED : SC_PHASE_STOPPED_ON_ERROR;
	return failed ? SC_PHASE_ERRORS : SC_PHASE_OK;
}

const char *sc_errno_name(int err, char *buf, size_t len)
{
	const char *name = err > 0 ? strerrorname_np(err) : NULL;

	if (err == 0)
		snprintf(buf, len, "short");
	else if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "E%d", err);
	return buf;
}

void sc_seconds_add(struct sc_second *dst, const struct sc_second *src, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		for (int d = 0; d < SC_DIR_COUNT; d++) {
			dst[k].bytes[d] += src[k].bytes[d];
			dst[k].ios[d] += src[k].ios[d];
			if (src[k].max_lat_ns[d] > dst[k].max_lat_ns[d])
				dst[k].max_lat_ns[d] = src[k].max_lat_ns[d];
		}
		if (src[k].max_temp_mk > dst[k].max_temp_mk)
			dst[k].max_temp_mk = src[k].max_temp_mk;
	}
}

void sc_series_exit(struct sc_series *s)
{
	if (!s)
		return;
	free(s->seconds);
	s->seconds = NULL;
	s->nseconds = 0;
}

void sc_seconds_to_columns(const struct sc_second *s, uint32_t n, uint32_t len, uint64_t *sums,
			   uint64_t *maxes)
{
	for (uint32_t k = 0; k < len; k++) {
		uint64_t *su = &sums[(size_t)k * SC_SECOND_SUMS];
		uint64_t *mx = &maxes[(size_t)k * SC_SECOND_MAXES];

		if (k >= n) {
			memset(su, 0, SC_SECOND_SUMS * sizeof(*su));
			memset(mx, 0, SC_SECOND_MAXES * sizeof(*mx));
			continue;
		}
		su[0] = s[k].bytes[SC_DIR_READ];
		su[1] = s[k].bytes[SC_DIR_WRITE];
		su[2] = s[k].ios[SC_DIR_READ];
		su[3] = s[k].ios[SC_DIR_WRITE];
		mx[0] = s[k].max_lat_ns[SC_DIR_READ];
		mx[1] = s[k].max_lat_ns[SC_DIR_WRITE];
		mx[2] = s[k].max_temp_mk;
	}
}

void sc_seconds_from_columns(struct sc_second *s, uint32_t len, const uint64_t *sums,
			     const uint64_t *maxes)
{
	for (uint32_t k = 0; k < len; k++) {
		const uint64_t *su = &sums[(size_t)k * SC_SECOND_SUMS];
		const uint64_t *mx = &maxes[(size_t)k * SC_SECOND_MAXES];

		s[k].bytes[SC_DIR_READ] = su[0];
		s[k].bytes[SC_DIR_WRITE] = su[1];
		s[k].ios[SC_DIR_READ] = su[2];
		s[k].ios[SC_DIR_WRITE] = su[3];
		s[k].max_lat_ns[SC_DIR_READ] = mx[0];
		s[k].max_lat_ns[SC_DIR_WRITE] = mx[1];
		s[k].max_temp_mk = mx[2];
	}
}
