/* io_options.c -- the I/O options of a phase over its ranks (io_options.h). */
#include "io_options.h"

#include <string.h>

void sc_io_opt_figures(const struct sc_phase_record *pr,
		       struct sc_io_opt_figures out[SC_IO_OPT_COUNT])
{
	memset(out, 0, sizeof(*out) * SC_IO_OPT_COUNT);
	for (uint32_t i = 0; i < pr->nranks; i++) {
		const struct sc_rank_result *r = &pr->ranks[i];

		for (int o = 0; o < SC_IO_OPT_COUNT; o++) {
			struct sc_io_opt_figures *f = &out[o];

			if (!(r->opts_asked & (1u << o)))
				continue;
			f->asked_ranks++;
			if (!(r->opts_unavailable & (1u << o)))
				continue;
			if (!f->unavailable_ranks++)
				sc_io_opts_why(r->opts_note, (enum sc_io_opt)o, f->why,
					       sizeof(f->why));
		}
	}
}

int sc_io_opts_any_asked(const struct sc_phase_record *pr)
{
	for (uint32_t i = 0; i < pr->nranks; i++)
		if (pr->ranks[i].opts_asked)
			return 1;
	return 0;
}
