/* report.c -- report files written atomically, and sc_report_results.
 *
 * results.pb is encoded here; results*.c build results.json (with the
 * builder of json.c), csv.c phases.csv, ranks.csv, timeseries.csv and
 * sweep.csv, plan_print.c plan.json and the printed plan.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/aggregate.h"
#include "analysis/sweep_matrix.h"
#include "codec.h"
#include "report_priv.h"

void sc_report_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ atomic files */

/* mkdir -p: creates dir and its missing parents.  0 or -errno. */
static int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		if (buf[i - 1] == '/')
			continue; /* "a//b" */
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		buf[i] = i < n ? '/' : '\0';
	}
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sc_report_write_atomic(const char *dir, const char *name, const void *data, size_t len)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	int fd, dfd, err;

	if (!dir || !dir[0])
		dir = ".";
	if (!name || !name[0] || strchr(name, '/'))
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	err = mkdir_p(dir);
	if (err)
		return err;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* mkostemp makes it 0600; results are for everyone who may read dir */
	if (fchmod(fd, 0644)) {
		err = -errno;
		goto out_close;
	}
	err = write_all(fd, data, len);
	if (err)
		goto out_close;
	if (fsync(fd)) {
		err = -errno;
		goto out_close;
	}
	if (close(fd)) {
		fd = -1;
		err = -errno;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path)) {
		err = -errno;
		goto out_unlink;
	}
	/* make the rename itself durable */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	err = fsync(dfd) && errno != EINVAL ? -errno : 0;
	close(dfd);
	return err;

out_close:
	close(fd);
out_unlink:
	unlink(tmp);
	return err;
}

int sc_report_write_named(const char *dir, const char *name, const void *data, size_t len,
			  char *err, size_t errlen)
{
	int rc = sc_report_write_atomic(dir, name, data, len);

	if (rc)
		sc_report_set_err(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
	return rc;
}

/* ----------------------------------------------------------- phase records */

const struct sc_phase *sc_report_phase_of(const struct sc_run_record *rec, uint32_t phase)
{
	return phase < rec->plan.nphases ? &rec->plan.phases[phase] : NULL;
}

/* ---------------------------------------------------------- sc_report_results */

static int write_results_pb(const char *dir, const struct sc_run_record *rec, char *err,
			    size_t errlen)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = sc_run_record_pack(rec, &buf, &len);

	if (rc) {
		sc_report_set_err(err, errlen, "results.pb: cannot encode the results: %s",
			       strerror(-rc));
		return rc;
	}
	rc = sc_report_write_named(dir, "results.pb", buf, len, err, errlen);
	free(buf);
	return rc;
}

int sc_report_results(const char *dir, const struct sc_run_record *rec, char *err, size_t errlen)
{
	return sc_report_results_model(dir, rec, NULL, NULL, err, errlen);
}

int sc_report_results_model(const char *dir, const struct sc_run_record *rec,
			    const struct sc_model_projection *proj, const char *why, char *err,
			    size_t errlen)
{
	struct report_results json = {0};
	struct report_csv csv = {0};
	struct sc_sweeps sweeps = {0};
	char *text;
	size_t text_len;
	int rc;

	if (!dir || !dir[0])
		dir = ".";
	rc = write_results_pb(dir, rec, err, errlen);
	if (rc)
		return rc;

	rc = sc_report_csv_init(&csv);
	if (!rc)
		rc = sc_sweeps_init(&sweeps, &rec->plan);
	if (rc)
		goto out_nomem;
	sc_report_results_init(&json, rec);
	json.model = proj;
	json.model_error = why;
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase_record *pr = &rec->phases[i];
		struct sc_phase_figures fig;

		rc = sc_aggregate_phase(pr, &fig);
		if (rc)
			goto out_nomem;
		sc_report_results_phase(&json, rec, pr, &fig);
		sc_report_csv_phase(&csv, rec, pr, &fig);
		rc = sc_sweeps_add(&sweeps, pr, &fig);
		sc_phase_figures_exit(&fig);
		if (rc)
			goto out_nomem;
	}
	sc_report_csv_sweeps(&csv, &sweeps);
	json.sweeps = &sweeps;
	rc = sc_report_csv_finish(&csv);
	if (rc)
		goto out_nomem;
	text = sc_report_results_text(&json, &text_len);
	if (!text) {
		rc = -ENOMEM;
		goto out_nomem;
	}
	rc = sc_report_write_named(dir, "results.json", text, text_len, err, errlen);
	free(text);
	if (!rc)
		rc = sc_report_csv_write(&csv, dir, err, errlen);
	if (!rc)
		rc = sc_report_html(dir, rec, proj, why, err, errlen);
	goto out_free;

out_nomem:
	sc_report_set_err(err, errlen, "%s: out of memory while building the results", dir);
out_free:
	sc_report_csv_exit(&csv);
	sc_report_results_exit(&json);
	sc_sweeps_exit(&sweeps);
	return rc;
}
