/* io_options.h -- per phase, on how many ranks each I/O option asked for
 * was unavailable, and why (worker/io_opts.h): the figures results.json's
 * "io_options" and rank 0's notes show. */
#ifndef SC_ANALYSIS_IO_OPTIONS_H
#define SC_ANALYSIS_IO_OPTIONS_H

#include <stdint.h>

#include "io_opts.h"
#include "result.h"

struct sc_io_opt_figures {
	uint32_t asked_ranks;	      /* ranks the phase asked it of */
	uint32_t unavailable_ranks;   /* of them, those that ran without it */
	char why[SC_IO_OPT_NOTE_MAX]; /* the lowest such rank's reason ("" if none) */
};

/* out[opt] for every option, over the ranks of pr (sorted by rank). */
void sc_io_opt_figures(const struct sc_phase_record *pr,
		       struct sc_io_opt_figures out[SC_IO_OPT_COUNT]);

/* Whether any rank of pr was asked for any option. */
int sc_io_opts_any_asked(const struct sc_phase_record *pr);

#endif
