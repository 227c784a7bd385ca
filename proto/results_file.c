/* results_file.c -- results.pb written, appended to and read back: in
 * proto/, the room below config, analysis, model and report, which all
 * use it. */
#include "results_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "codec.h"

/* Largest results file read: a run of 1000 ranks x 100 phases x a minute
 * of per-second series is a few hundred MiB. */
#define RESULTS_MAX_BYTES (UINT64_C(1) << 30)

/* Reads the results file pb whole into *buf: the header first, whose
 * first part must fit in the file, then the file (below
 * RESULTS_MAX_BYTES), which parts appended after the first make longer.
 * 0, or -errno with why filled in. */
static int read_results(const char *pb, uint8_t **buf, size_t *len, char *why, size_t whylen)
{
	uint8_t hdr[SC_CODEC_HEADER_BYTES];
	struct stat st;
	uint64_t total = 0;
	size_t got = 0;
	uint8_t *b = NULL;
	int err = 0, fd;

	/* Not even opened unless a regular file: opening a device node can act
	 * (a watchdog arms, a tape rewinds), a FIFO would wait for a writer. */
	if (stat(pb, &st) != 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "not a regular file (give the results.pb of a run)");
		return -EINVAL;
	}
	/* O_NONBLOCK: swapped for a FIFO since the stat, it is not waited on */
	fd = open(pb, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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
	if (total > (uint64_t)st.st_size) {
		err = -EBADMSG;
		snprintf(why, whylen,
			 "truncated or damaged: its header gives %llu bytes but the file has "
			 "%llu",
			 (unsigned long long)total, (unsigned long long)st.st_size);
		goto out;
	}
	total = (uint64_t)st.st_size;
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

int sc_results_read(const char *pb, struct sc_run_record *rec, char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0, joined = 0, torn = 0;
	uint32_t parts = 0;
	int rc;

	memset(rec, 0, sizeof(*rec));
	rc = read_results(pb, &buf, &len, err, errlen);
	if (rc)
		return rc;
	rc = sc_run_record_join(buf, len, &joined, &parts, &torn);
	if (!rc)
		rc = sc_run_record_unpack(buf, joined, rec);
	free(buf);
	if (rc)
		snprintf(err, errlen, "%s",
			 rc == -EBADMSG ? "not an ssdcluster results file, or truncated or damaged "
					  "(its checksum or contents do not add up)"
			 : rc == -EFBIG ? "damaged: it would take far more memory to read than "
					  "results of its size need"
					: strerror(-rc));
	else if (torn)
		snprintf(err, errlen,
			 "its last %zu bytes, a phase cut off while it was written (the run "
			 "stopped then), are left out: the %u phase(s) before it are read",
			 torn, rec->nphases);
	else
		err[0] = '\0';
	return rc == -ENOMEM ? rc : rc ? -EBADMSG : 0;
}

int sc_results_write(const char *dir, const struct sc_run_record *rec, char *err, size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = sc_run_record_pack(rec, &buf, &len);

	if (rc) {
		snprintf(err, errlen, "results.pb: cannot encode the results: %s", strerror(-rc));
		return rc;
	}
	rc = sc_atomic_file_write(dir, "results.pb", buf, len);
	free(buf);
	if (rc)
		snprintf(err, errlen, "%s/results.pb: %s", dir, strerror(-rc));
	return rc;
}

int sc_results_append_packed(const char *dir, const uint8_t *buf, size_t len, char *err,
			     size_t errlen)
{
	int rc = sc_atomic_file_append(dir, "results.pb", buf, len);

	if (rc)
		snprintf(err, errlen, "%s/results.pb: %s", dir, strerror(-rc));
	return rc;
}

int sc_results_append(const char *dir, const struct sc_run_record *rec, uint32_t i, char *err,
		      size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = sc_run_record_pack_phase(rec, i, &buf, &len);

	if (rc) {
		snprintf(err, errlen, "results.pb: cannot encode phase %u: %s", i, strerror(-rc));
		return rc;
	}
	rc = sc_results_append_packed(dir, buf, len, err, errlen);
	free(buf);
	return rc;
}
