/* projection.h -- a cluster model projection (model/project.h) as people and
 * programs read it: the text table with its basis, and the JSON object
 * "model" (the same in `ssdcluster model --json` and in results.json).
 * Formats only: every figure comes computed in the projection.
 */
#ifndef SC_REPORT_PROJECTION_H
#define SC_REPORT_PROJECTION_H

#include <stddef.h>
#include <stdio.h>

#include "model/project.h"

struct jb;
struct json_object;

/* Prints p on f: a header naming the source and the parameters, a table
 * of the checkpoint figures (one row per cluster size), a table of the
 * ingest figures when present, a note for each size the layout does not
 * fit or the policy leaves its first order, a warning for each size beyond
 * what the measured samples support (with the exponential-tail
 * alternative; stated figures get one note that they have no spread), and
 * the Basis block: per figure present, its inputs and its assumptions,
 * marked [a] .. [g] as the columns are. */
void sc_report_model_table(FILE *f, const struct sc_model_projection *p);

/* The object "model" holds (report_priv.h's builder: b->nomem set when
 * memory runs out): source, measured, params, basis, sizes; a figure
 * that is not present is left out, never written as 0. */
struct json_object *sc_report_json_model(struct jb *b, const struct sc_model_projection *p);

/* {"model": ...} as pretty-printed text ending in a newline (no NUL after
 * it), malloc'd, its length in *len; NULL when out of memory. */
char *sc_report_model_json_text(const struct sc_model_projection *p, size_t *len);

#endif
