/* report_cmd.c -- `ssdcluster report RESULTS.pb`: every output of a run
 * again, from its protobuf record alone. */
#include "report_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../proto/codec.h"
#include "aggregate.h"
#include "progress.h"
#include "report.h"

int sc_report_command(const char *pb, const char *output, bool quiet)
{
	struct sc_run_record rec;
	char err[1024], dir[4096];
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f = fopen(pb, "rb");
	int rc;

	if (!f) {
		fprintf(stderr, "ssdcluster: %s: %s\n", pb, strerror(errno));
		return 2;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *more = realloc(buf, cap ? cap * 2 : 1 << 20);

			if (!more) {
				fclose(f);
				free(buf);
				return 1;
			}
			buf = more;
			cap = cap ? cap * 2 : 1 << 20;
		}
		size_t n = fread(buf + len, 1, cap - len, f);

		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	rc = sc_run_record_unpack(buf, len, &rec);
	free(buf);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", pb,
			rc == -EBADMSG ? "not an ssdcluster results file, or truncated or damaged "
					 "(its checksum or contents do not add up)"
				       : strerror(-rc));
		return 2;
	}
	if (output) {
		snprintf(dir, sizeof(dir), "%s", output);
	} else {
		const char *slash = strrchr(pb, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - pb) : 1,
			 slash ? pb : ".");
	}
	rc = sc_report_results(dir, &rec, err, sizeof(err));
	if (rc)
		fprintf(stderr, "ssdcluster: writing results: %s\n", err);
	if (!rc && !quiet) {
		printf("run %s: %u rank(s) on %u node(s), %u phase(s) (ssdcluster %s)\n",
		       rec.plan.run_id, rec.nranks, rec.nnodes, rec.nphases, rec.version);
		sc_progress_header(stdout);
		for (uint32_t i = 0; i < rec.nphases; i++) {
			struct sc_phase_figures fig;

			if (sc_aggregate_phase(&rec.phases[i], &fig))
				continue;
			sc_progress_row(stdout, &rec.plan.phases[rec.phases[i].phase], &rec.phases[i],
					&fig);
			sc_progress_workload(stdout, &rec, &rec.phases[i], &fig);
			sc_phase_figures_exit(&fig);
		}
		printf("results: %s/results.json\n", dir);
	}
	sc_run_record_exit(&rec);
	return rc ? 1 : 0;
}

