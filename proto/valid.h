/* valid.h -- whether a plan or results hold what the codec may write and
 * accept: every field of a kind its list allows (convert.h), and the rules
 * of the values (indices in range, times within bounds, histograms that add
 * up).  Inside proto/ only: _pack refuses (-EINVAL) what these refuse, and
 * _unpack refuses (-EBADMSG) what it decoded when these refuse it.
 */
#ifndef SC_VALID_H
#define SC_VALID_H

#include <stdbool.h>

#include "plan.h"
#include "result.h"

bool sc_valid_plan(const struct sc_plan *p);

/* A rank's result on its own, as gathered (not checked against a plan). */
bool sc_valid_rank_result(const struct sc_rank_result *r);

bool sc_valid_run_record(const struct sc_run_record *run);

/* Phase i of run on its own, as appended to results.pb: as
 * sc_valid_run_record checks it, after the phase before it. */
bool sc_valid_run_phase(const struct sc_run_record *run, uint32_t i);

#endif
