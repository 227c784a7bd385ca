/* rank_series.h -- whether a phase record holds its ranks' own per-second
 * series.  Rank 0 keeps them only while ranks x seconds is at most
 * SC_RANK_SERIES_MAX (worker/result.h: sc_series_kept); past it every row
 * comes without, and what is drawn from a rank's own seconds (its drive's
 * write curve and write cliff, its temperatures) is unknown, not zero.
 * The cluster's and the nodes' series are summed where they are made and
 * stay (pr->cluster).
 */
#ifndef SC_RANK_SERIES_H
#define SC_RANK_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* True when pr's ranks came without their own seconds: the record holds
 * the cluster's series (seconds > 0) and no rank's. */
bool sc_rank_series_dropped(const struct sc_phase_record *pr);

/* Room for sc_rank_series_why's text. */
#define SC_SERIES_WHY_MAX 128

/* Why, for the results to say beside a null, into buf (len bytes):
 * "not kept: ranks x seconds (R x S) past SC_RANK_SERIES_MAX (M)", or
 * when that cap was not passed, that the record has them not. */
const char *sc_rank_series_why(const struct sc_phase_record *pr, char *buf, size_t len);

/* The hottest second of r's own series (max_temp_mk), 0 when none was
 * read or the series is not held. */
uint64_t sc_rank_max_temp_mk(const struct sc_rank_result *r);

#endif
