/* compare_cmd.c -- `ssdcluster compare A.pb B.pb` (or several runs a side,
 * `compare A1.pb A2.pb -- B1.pb B2.pb`): the runs' records read back,
 * each side's runs checked for the same settings, compared, printed and
 * written as compare.json and compare.html. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "results_file.h"
#include "cmd.h"
#include "compare_report.h"
#include "report_priv.h"

/* Reads pb into rec; prints why not, naming pb.  0 or an exit status. */
static int read_run(const char *pb, struct sc_run_record *rec)
{
	char err[1024];
	int rc = sc_results_read(pb, rec, err, sizeof(err));

	if (!rc) {
		if (err[0])
			fprintf(stderr, "ssdcluster: compare: warning: %s: %s\n", pb, err);
		return 0;
	}
	fprintf(stderr, "ssdcluster: compare: %s: %s\n", pb, err);
	return rc == -ENOMEM ? 1 : 2;
}

/* compare.json and compare.html into dir.  0, or -1 with why in err. */
static int write_files(const char *dir, const struct sc_compare *c,
		       const struct sc_compare_files *files, char *err, size_t errlen)
{
	char *text, *html = NULL;
	size_t len, hlen = 0;
	FILE *f;
	int rc;

	text = sc_report_compare_json(c, files, &len);
	if (!text) {
		snprintf(err, errlen, "compare.json: out of memory");
		return -1;
	}
	rc = sc_report_write_named(dir, "compare.json", text, len, err, errlen);
	free(text);
	if (rc)
		return -1;
	f = open_memstream(&html, &hlen);
	if (!f) {
		snprintf(err, errlen, "compare.html: out of memory");
		return -1;
	}
	sc_report_compare_html(f, c, files);
	if (ferror(f) | fclose(f)) {
		free(html);
		snprintf(err, errlen, "compare.html: out of memory");
		return -1;
	}
	rc = sc_report_write_named(dir, "compare.html", html, hlen, err, errlen);
	free(html);
	return rc ? -1 : 0;
}

/* Reads every run of both sides into recs[0..n[0] + n[1]) and checks that
 * each side's share their settings.  0 or an exit status (printed). */
static int read_sides(const struct sc_compare_files *files, struct sc_run_record *recs,
		      const struct sc_run_record **side[2])
{
	char err[2048];
	uint32_t at = 0;
	int rc;

	for (int s = 0; s < 2; s++) {
		side[s] = (const struct sc_run_record **)calloc(files->n[s], sizeof(*side[s]));
		if (!side[s])
			return 1;
		for (uint32_t r = 0; r < files->n[s]; r++) {
			rc = read_run(files->side[s][r], &recs[at]);
			if (rc)
				return rc;
			side[s][r] = &recs[at++];
		}
	}
	for (int s = 0; s < 2; s++) {
		rc = sc_compare_check_side(side[s], files->side[s], files->n[s], err, sizeof(err));
		if (rc) {
			fprintf(stderr, "ssdcluster: compare: side %c: %s\n", s ? 'B' : 'A',
				rc == -ENOMEM ? "out of memory" : err);
			return rc == -ENOMEM ? 1 : 2;
		}
	}
	return 0;
}

/* Compares the sides read; prints, writes.  An exit status. */
static int compare_sides(const struct sc_compare_files *files,
			 const struct sc_run_record *const *side[2], const char *output, bool quiet)
{
	struct sc_compare c;
	char err[1024], dir[4096];
	const char *b = files->b, *slash = strrchr(b, '/');
	int status = 0, rc;

	rc = sc_compare_sides(side[0], files->n[0], side[1], files->n[1], &c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ssdcluster: compare %s %s: %s\n", files->a, files->b, err);
		return rc == -ENOMEM ? 1 : 2;
	}
	if (output)
		snprintf(dir, sizeof(dir), "%s", output);
	else
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - b) : 1, slash ? b : ".");
	if (!quiet)
		sc_report_compare_text(stdout, &c, files);
	else
		sc_report_compare_warnings(stderr, &c);
	if (write_files(dir, &c, files, err, sizeof(err))) {
		fprintf(stderr, "ssdcluster: compare: writing %s\n", err);
		status = 1;
	} else if (!quiet) {
		printf("compare: %s/compare.json, %s/compare.html\n", dir, dir);
	}
	sc_compare_exit(&c);
	return status;
}

int sc_report_compare_command(const char *const *const files[2], const uint32_t n[2],
			      const char *output, bool quiet)
{
	struct sc_compare_files f = {
	    .a = files[0][0], .b = files[1][0], .side = {files[0], files[1]}, .n = {n[0], n[1]}};
	struct sc_run_record *recs = calloc(n[0] + n[1], sizeof(*recs));
	const struct sc_run_record **side[2] = {NULL, NULL};
	int status = 1;

	if (recs) {
		status = read_sides(&f, recs, side);
		if (!status)
			status = compare_sides(
			    &f, (const struct sc_run_record *const *[2]){side[0], side[1]}, output,
			    quiet);
	}
	for (uint32_t i = 0; recs && i < n[0] + n[1]; i++)
		sc_run_record_exit(&recs[i]);
	free(recs);
	free(side[0]);
	free(side[1]);
	if (status == 1 && !recs)
		fprintf(stderr, "ssdcluster: compare: out of memory\n");
	return status;
}
