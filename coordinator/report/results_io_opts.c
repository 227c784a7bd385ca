/* results_io_opts.c -- a phase's "io_options" in results.json: per option
 * the phase asked for, on how many ranks, on how many it was unavailable
 * and the first reason (analysis/io_options.h). */
#include <json-c/json.h>

#include "analysis/io_options.h"
#include "report_priv.h"

struct json_object *sc_report_json_io_options(struct jb *b, const struct sc_phase_record *pr)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct sc_io_opt_figures f[SC_IO_OPT_COUNT];

	sc_io_opt_figures(pr, f);
	for (int k = 0; k < SC_IO_OPT_COUNT; k++) {
		struct json_object *opt;

		if (!f[k].asked_ranks)
			continue;
		opt = sc_json_new(b, json_object_new_object());
		sc_json_put_u64(b, opt, "asked_ranks", f[k].asked_ranks);
		sc_json_put_u64(b, opt, "unavailable_ranks", f[k].unavailable_ranks);
		sc_json_put_str(b, opt, "why", f[k].unavailable_ranks ? f[k].why : NULL);
		sc_json_put(b, o, sc_io_opt_name((enum sc_io_opt)k), opt);
	}
	return o;
}
