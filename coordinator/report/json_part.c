/* json_part.c -- results.json's phases as the run goes: each phase's
 * object appended to results.json.part as results.json will hold it, and
 * results.json made of the document's text with the part in the place of
 * its phases, so that adding a phase costs that phase alone and the whole
 * file is written once, at the end, without rendering any phase again. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "atomic_file.h"
#include "report_priv.h"

/* How json-c prints the elements of a phases array: the spaces each is
 * indented by and what comes between two. */
struct layout {
	size_t pad;
	char sep[32];
	size_t sep_len;
};

/* Learns the layout from a document {"phases": [token 0, token 1]}:
 * results.json's phases sit as deep.  0 or -ENOMEM. */
static int probe(struct layout *l)
{
	struct jb b = {0};
	struct json_object *root = sc_json_new(&b, json_object_new_object());
	struct json_object *a = sc_json_new(&b, json_object_new_array());
	const char *t0, *t1;
	size_t len;
	char *text;

	sc_json_push(&b, a, sc_json_token(&b, 0));
	sc_json_push(&b, a, sc_json_token(&b, 1));
	sc_json_put(&b, root, "phases", a);
	text = sc_json_text(&b, root, &len);
	json_object_put(root);
	if (!text)
		return -ENOMEM;
	t0 = sc_json_token_in(text, len, 0);
	t1 = sc_json_token_in(text, len, 1);
	l->pad = sc_json_indent_before(text, t0);
	l->sep_len = (size_t)(t1 - t0) - SC_JSON_TOKEN_LEN;
	memcpy(l->sep, t0 + SC_JSON_TOKEN_LEN, l->sep_len < sizeof(l->sep) ? l->sep_len : 0);
	free(text);
	return l->sep_len < sizeof(l->sep) ? 0 : -EPROTO;
}

struct sc_phase_text_job *sc_report_json_part_begin(const struct sc_run_record *rec,
						    const struct sc_run_figures *fg, uint32_t i)
{
	struct layout l;

	/* phase i's object, after the separator unless it is the first */
	return probe(&l) ? NULL
			 : sc_report_results_phase_begin(rec, fg, i, l.pad, l.sep, i ? l.sep_len : 0);
}

char *sc_report_json_part_text(const struct sc_run_record *rec, const struct sc_run_figures *fg,
			       uint32_t i, size_t *len)
{
	return sc_report_results_phase_end(sc_report_json_part_begin(rec, fg, i), len);
}

int sc_report_json_part_append(const char *dir, const struct sc_run_record *rec,
			       const struct sc_run_figures *fg, uint32_t i, char *err,
			       size_t errlen)
{
	size_t len = 0;
	char *text = sc_report_json_part_text(rec, fg, i, &len);
	int rc;

	if (!dir || !dir[0])
		dir = ".";
	if (!text) {
		sc_report_set_err(err, errlen, "%s: out of memory while building the results", dir);
		return -ENOMEM;
	}
	rc = i ? sc_report_append_named(dir, SC_REPORT_JSON_PART, text, len, err, errlen)
	       : sc_report_write_named(dir, SC_REPORT_JSON_PART, text, len, err, errlen);
	free(text);
	return rc;
}

int sc_report_json_part_write(const char *dir, const struct sc_run_record *rec,
			      const struct sc_run_figures *fg, char *err, size_t errlen)
{
	int rc = 0;

	if (!rec->nphases)
		return sc_report_write_named(dir && dir[0] ? dir : ".", SC_REPORT_JSON_PART, "", 0,
					     err, errlen);
	for (uint32_t i = 0; i < rec->nphases && !rc; i++)
		rc = sc_report_json_part_append(dir, rec, fg, i, err, errlen);
	return rc;
}

void sc_report_json_part_remove(const char *dir)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir && dir[0] ? dir : ".",
			     SC_REPORT_JSON_PART) < sizeof(path))
		(void)unlink(path);
}

int sc_report_json_spliced(const char *dir, const char *text, size_t len, uint32_t nphases,
			   char *err, size_t errlen)
{
	const char *t0 = nphases ? sc_json_token_in(text, len, 0) : NULL;
	const char *t1 = nphases > 1 && t0 ? sc_json_token_in(text, len, 1) : NULL;
	const char *last = nphases > 1 ? t1 : t0;
	struct sc_atomic_piece pc[3];
	struct layout l;
	int rc;

	if (!nphases)
		return sc_report_write_named(dir, "results.json", text, len, err, errlen);
	rc = probe(&l);
	if (rc) {
		sc_report_set_err(err, errlen, "%s: out of memory while building the results", dir);
		return rc;
	}
	/* the part was laid out for phases as deep as the probe's */
	if (!last || sc_json_indent_before(text, t0) != l.pad ||
	    (t1 && ((size_t)(t1 - t0) != SC_JSON_TOKEN_LEN + l.sep_len ||
		    memcmp(t0 + SC_JSON_TOKEN_LEN, l.sep, l.sep_len)))) {
		sc_report_set_err(err, errlen,
				  "%s/results.json: its phases are not where %s was laid out "
				  "for (a bug: please report it)",
				  dir, SC_REPORT_JSON_PART);
		return -EPROTO;
	}
	pc[0] = (struct sc_atomic_piece){.data = text, .len = (size_t)(t0 - text)};
	pc[1] = (struct sc_atomic_piece){.file = SC_REPORT_JSON_PART};
	pc[2] = (struct sc_atomic_piece){.data = last + SC_JSON_TOKEN_LEN,
					 .len = len - (size_t)(last + SC_JSON_TOKEN_LEN - text)};
	rc = sc_atomic_file_write_pieces(dir, "results.json", pc, 3);
	if (rc)
		sc_report_set_err(err, errlen, "%s/results.json: %s", dir, strerror(-rc));
	return rc;
}
