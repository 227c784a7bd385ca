/* compare_cmd.c -- `ssdcluster compare A.pb B.pb`: two runs' records read
 * back, compared, printed and written as compare.json and compare.html. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/results_file.h"
#include "cmd.h"
#include "compare_report.h"
#include "report_priv.h"

/* Reads pb into rec; prints why not, naming pb.  0 or an exit status. */
static int read_run(const char *pb, struct sc_run_record *rec)
{
	char err[1024];
	int rc = sc_results_read(pb, rec, err, sizeof(err));

	if (!rc)
		return 0;
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

int sc_report_compare_command(const char *a, const char *b, const char *output, bool quiet)
{
	struct sc_run_record ra, rb;
	struct sc_compare c;
	struct sc_compare_files files = {a, b};
	char err[1024], dir[4096];
	const char *slash = strrchr(b, '/');
	int status, rc;

	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	status = read_run(a, &ra);
	if (!status)
		status = read_run(b, &rb);
	if (status)
		goto out;
	rc = sc_compare_runs(&ra, &rb, &c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ssdcluster: compare %s %s: %s\n", a, b, err);
		status = rc == -ENOMEM ? 1 : 2;
		goto out;
	}
	if (output)
		snprintf(dir, sizeof(dir), "%s", output);
	else
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - b) : 1, slash ? b : ".");
	if (!quiet)
		sc_report_compare_text(stdout, &c, &files);
	if (write_files(dir, &c, &files, err, sizeof(err))) {
		fprintf(stderr, "ssdcluster: compare: writing %s\n", err);
		status = 1;
	} else if (!quiet) {
		printf("compare: %s/compare.json, %s/compare.html\n", dir, dir);
	}
	sc_compare_exit(&c);
out:
	sc_run_record_exit(&ra);
	sc_run_record_exit(&rb);
	return status;
}
