/* result.c -- lifetime of rank results, phase records and run records. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

void sc_rank_result_exit(struct sc_rank_result *r)
{
	if (!r)
		return;
	free(r->seconds);
	r->seconds = NULL;
	r->nseconds = 0;
	free(r->verify_kept);
	r->verify_kept = NULL;
	r->verify_nkept = 0;
}

void sc_phase_record_exit(struct sc_phase_record *rec)
{
	if (!rec)
		return;
	for (uint32_t i = 0; i < rec->nranks; i++)
		sc_rank_result_exit(&rec->ranks[i]);
	free(rec->ranks);
	for (int d = 0; d < SC_DIR_COUNT; d++) {
		free(rec->lat[d]);
		free(rec->resp[d]);
	}
	free(rec->batch_wait);
	memset(rec, 0, sizeof(*rec));
}

void sc_run_record_exit(struct sc_run_record *rec)
{
	if (!rec)
		return;
	for (uint32_t i = 0; i < rec->nphases; i++)
		sc_phase_record_exit(&rec->phases[i]);
	free(rec->phases);
	free(rec->version);
	sc_plan_exit(&rec->plan);
	memset(rec, 0, sizeof(*rec));
}
