/* html_sections_stub.c -- stands in for html_phase.c and html_sweep.c
 * (branch h-phase) so that h-html links: the lead deletes this file when
 * merging h-phase. */
#include "html_priv.h"

int sc_html_phase_charts(FILE *f, const struct sc_run_record *rec, const struct sc_phase_record *pr,
			 const struct sc_phase_figures *fig)
{
	(void)f, (void)rec, (void)pr, (void)fig;
	return 0;
}

int sc_html_checkpoints(FILE *f, const struct sc_run_record *rec)
{
	(void)f, (void)rec;
	return 0;
}

int sc_html_sweeps(FILE *f, const struct sc_sweeps *sw)
{
	(void)f, (void)sw;
	return 0;
}
