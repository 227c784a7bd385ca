/* results_file.h -- a run's results.pb read back into its record, for the
 * report and model commands and for configs that replay a run's latencies. */
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

#endif
