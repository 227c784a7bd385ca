/* load.c -- a fio job file loaded as a config (load.h). */
#include "fio/load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio/jobfile.h"

/* The job file read, overridden and mapped into y.  0 or -errno. */
static int make_yaml(const char *jobfile, const char *const *sets, uint32_t nsets,
		     bool allow_destroy, struct sc_fio_jobfile *f, struct sc_fio_yaml *y, char *err,
		     size_t errlen)
{
	int rc = sc_fio_jobfile_read(jobfile, f, err, errlen);

	for (uint32_t i = 0; !rc && i < nsets; i++)
		rc = sc_fio_jobfile_override(f, sets[i], err, errlen);
	if (!rc)
		rc = sc_fio_map(f, allow_destroy, y, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", jobfile);
	return rc;
}

static void print_notes(const struct sc_fio_yaml *y, FILE *f, const char *prefix)
{
	for (const char *p = y->notes; p && *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%s%.*s\n", prefix, (int)n, p);
		p += n;
		if (*p)
			p++;
	}
}

/* y's text into a new temporary file, its name in path.  0 or -errno. */
static int write_temp(const struct sc_fio_yaml *y, char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd, rc = 0;

	snprintf(path, len, "%s/ssdcluster-fio-XXXXXX.yaml", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(path, 5);
	if (fd < 0)
		return -errno;
	for (size_t at = 0; at < y->len && !rc;) {
		ssize_t n = write(fd, y->text + at, y->len - at);

		if (n < 0 && errno != EINTR)
			rc = -errno;
		else if (n > 0)
			at += (size_t)n;
	}
	if (close(fd) != 0 && !rc)
		rc = -errno;
	if (rc)
		unlink(path);
	return rc;
}

int sc_fio_config_load(struct sc_config **out, const char *jobfile, const char *const *sets,
		       uint32_t nsets, bool allow_destroy, struct sc_fio_yaml *y, char *ypath,
		       size_t ypath_len, FILE *notes, char *err, size_t errlen)
{
	struct sc_fio_jobfile f = {0};
	int rc = make_yaml(jobfile, sets, nsets, allow_destroy, &f, y, err, errlen);

	*out = NULL;
	if (!rc && notes)
		print_notes(y, notes, "ssdcluster fio: note: ");
	if (!rc) {
		rc = write_temp(y, ypath, ypath_len);
		if (rc)
			snprintf(err, errlen, "cannot write the config for %s in %s (%s)", jobfile,
				 ypath, strerror(-rc));
	}
	if (!rc) {
		rc = sc_config_load(out, ypath, NULL, 0, err, errlen);
		unlink(ypath);
		if (rc)
			sc_fio_yaml_where(y, ypath, err, errlen);
	}
	/* the options' file names live in f, and y's lines point at them */
	if (rc) {
		sc_fio_yaml_exit(y);
		sc_fio_jobfile_exit(&f);
		return rc;
	}
	y->owner = malloc(sizeof(f));
	if (!y->owner) {
		sc_config_destroy(*out);
		*out = NULL;
		sc_fio_yaml_exit(y);
		sc_fio_jobfile_exit(&f);
		snprintf(err, errlen, "%s: out of memory", jobfile);
		return -ENOMEM;
	}
	memcpy(y->owner, &f, sizeof(f));
	return 0;
}

int sc_fio_print_yaml(const char *jobfile, const char *const *sets, uint32_t nsets,
		      bool allow_destroy, FILE *f)
{
	struct sc_fio_jobfile jf = {0};
	struct sc_fio_yaml y;
	char err[4096];
	int rc = make_yaml(jobfile, sets, nsets, allow_destroy, &jf, &y, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "ssdcluster: %s\n", err);
		sc_fio_jobfile_exit(&jf);
		return 2;
	}
	print_notes(&y, f, "# note: ");
	fwrite(y.text, 1, y.len, f);
	sc_fio_yaml_exit(&y);
	sc_fio_jobfile_exit(&jf);
	return 0;
}
