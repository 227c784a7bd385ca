/* cmd.c -- `ssdcluster report RESULTS.pb`: every output of a run
 * again, from its protobuf record alone. */
#include "cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec.h"
#include "analysis/aggregate.h"
#include "progress.h"
#include "model.h"
#include "model/project.h"
#include "report.h"

/* Largest results file read: a run of 1000 ranks x 100 phases x a minute
 * of per-second series is a few hundred MiB. */
#define RESULTS_MAX_BYTES (UINT64_C(1) << 30)

/* Reads the results file pb whole into *buf: the header first, whose
 * length must match the file's size and stay below RESULTS_MAX_BYTES,
 * then exactly that many bytes.  0, or -errno with why filled in. */
static int read_results(const char *pb, uint8_t **buf, size_t *len, char *why, size_t whylen)
{
	uint8_t hdr[SC_CODEC_HEADER_BYTES];
	struct stat st;
	uint64_t total = 0;
	size_t got = 0;
	uint8_t *b = NULL;
	int err = 0, fd = open(pb, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) != 0) {
		err = -errno;
		snprintf(why, whylen, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		snprintf(why, whylen, "not a regular file (give the results.pb of a run)");
		goto out;
	}
	while (got < sizeof(hdr)) {
		ssize_t r = read(fd, hdr + got, sizeof(hdr) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (sc_run_record_length(hdr, got, &total)) {
		err = -EBADMSG;
		snprintf(why, whylen, "not an ssdcluster results file (it does not start as one)");
		goto out;
	}
	if (total != (uint64_t)st.st_size) {
		err = -EBADMSG;
		snprintf(why, whylen,
			 "truncated or damaged: its header gives %llu bytes but the file has "
			 "%llu",
			 (unsigned long long)total, (unsigned long long)st.st_size);
		goto out;
	}
	if (total > RESULTS_MAX_BYTES) {
		err = -EFBIG;
		snprintf(why, whylen, "%llu bytes, more than the %llu MiB a results file may be",
			 (unsigned long long)total, (unsigned long long)(RESULTS_MAX_BYTES >> 20));
		goto out;
	}
	b = malloc((size_t)total);
	if (!b) {
		err = -ENOMEM;
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto out;
	}
	memcpy(b, hdr, got);
	while (got < total) {
		ssize_t r = read(fd, b + got, (size_t)total - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r ? -errno : -EBADMSG;
			snprintf(why, whylen, "%s", r ? strerror(errno) : "truncated while read");
			free(b);
			b = NULL;
			goto out;
		}
		got += (size_t)r;
	}
	*buf = b;
	*len = got;
out:
	close(fd);
	return err;
}

int sc_report_read_record(const char *pb, struct sc_run_record *rec, char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	rc = read_results(pb, &buf, &len, err, errlen);
	if (rc)
		return rc;
	rc = sc_run_record_unpack(buf, len, rec);
	free(buf);
	if (rc)
		snprintf(err, errlen, "%s",
			 rc == -EBADMSG ? "not an ssdcluster results file, or truncated or damaged "
					  "(its checksum or contents do not add up)"
			 : rc == -EFBIG ? "damaged: it would take far more memory to read than "
					  "results of its size need"
					: strerror(-rc));
	return rc == -ENOMEM ? rc : rc ? -EBADMSG : 0;
}

int sc_report_command(const char *pb, const char *output, bool quiet)
{
	struct sc_run_record rec;
	struct sc_model_projection *proj;
	char err[1024], why[1024], dir[4096];
	int rc;

	rc = sc_report_read_record(pb, &rec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", pb, err);
		return rc == -ENOMEM ? 1 : 2;
	}
	if (output) {
		snprintf(dir, sizeof(dir), "%s", output);
	} else {
		const char *slash = strrchr(pb, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - pb) : 1,
			 slash ? pb : ".");
	}
	proj = sc_model_of_run(&rec, why, sizeof(why));
	if (!proj && why[0])
		fprintf(stderr, "ssdcluster: model: no projection: %s\n", why);
	rc = sc_report_results_model(dir, &rec, proj, why, err, sizeof(err));
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
		if (proj) {
			putchar('\n');
			sc_report_model_table(stdout, proj);
		}
		printf("results: %s/results.json\n", dir);
	}
	free(proj);
	sc_run_record_exit(&rec);
	return rc ? 1 : 0;
}

