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

/* results.pb is one or more parts, each a run record sealed with its
 * length and CRC (codec.h): the run as far as it went when the file was
 * written whole (sc_results_write), then one part per phase appended
 * (sc_results_append), so that adding a phase costs that phase alone.
 * Files of one part (every file before parts were appended) read as they
 * always did. */

/* Reads the results file pb into *rec (free with sc_run_record_exit): its
 * parts must unpack as one record.  0, with err "" or, when the file's
 * last part was cut off (its run stopped while appending it), a warning
 * that says so and how many phases were read, for the caller to print
 * after pb's name; -ENOMEM; another -errno (unreadable, not a results
 * file, truncated or damaged) with why in err, for the caller to print
 * after pb's name. */
int sc_results_read(const char *pb, struct sc_run_record *rec, char *err, size_t errlen);

/* Writes rec to dir/results.pb (sc_run_record_pack's bytes, written whole
 * or not at all: worker/atomic_file.h).  0 or -errno, with why in err
 * ("results.pb: cannot encode ..." or "DIR/results.pb: reason"). */
int sc_results_write(const char *dir, const struct sc_run_record *rec, char *err, size_t errlen);

/* Appends rec's phase i to dir/results.pb, which holds rec's phases
 * before it (sc_results_write, then sc_results_append of each): that
 * phase's bytes alone, flushed to the drive; on an error the file is cut
 * back to what it held.  0 or -errno, with why in err. */
int sc_results_append(const char *dir, const struct sc_run_record *rec, uint32_t i, char *err,
		      size_t errlen);

/* sc_results_append with phase i's bytes packed already (buf, len of
 * sc_run_record_pack_phase). */
int sc_results_append_packed(const char *dir, const uint8_t *buf, size_t len, char *err,
			     size_t errlen);

#endif
