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
	for (uint32_t i = 0; i < rec->nranks; i++)
		sc_rank_result_exit(&rec->ranks[i]);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		free(rec->lat[d]);
		free(rec->resp[d]);
	}
	free(rec->batch_wait);
	free(rec->ranks);
	memset(rec, 0, sizeof(*rec));
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
