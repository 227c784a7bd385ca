/* results_file.h -- results.pb, a run's record on disk: written by rank 0
 * after every phase (and by `ssdcluster report`), read back by the report,
 * compare and model commands and by configs that replay a run's latencies
 * (config/emulate_from.c).  In proto/, beside the codec whose bytes it
 * holds: the one room below every coordinator room (config, analysis,
 * model, report), so each reaches it without an include against their
 * one-way order. */
#ifndef SC_RESULTS_FILE_H
#define SC_RESULTS_FILE_H

#include <stddef.h>

#include "result.h"

/* Reads the results file pb into *rec (free with sc_run_record_exit): the
 * header's length must match the file's size, and the record must unpack
 * whole.  0; -ENOMEM; another -errno (unreadable, not a results file,
 * truncated or damaged) with why in err, for the caller to print after
 * pb's name. */
int sc_results_read(const char *pb, struct sc_run_record *rec, char *err, size_t errlen);

/* Writes rec to dir/results.pb (sc_run_record_pack's bytes, written whole
 * or not at all: worker/atomic_file.h).  0 or -errno, with why in err
 * ("results.pb: cannot encode ..." or "DIR/results.pb: reason"). */
int sc_results_write(const char *dir, const struct sc_run_record *rec, char *err, size_t errlen);

#endif
