/* options.c -- the fio options ssdcluster runs (options.h). */
#include "fio/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options people use that ssdcluster maps (issue 31's list). */
static const char *const known[] = {
    "name",	   "description",
    "rw",	   "readwrite",
    "rwmixread",   "rwmixwrite",
    "bs",	   "blocksize",
    "bssplit",	   "bsrange",
    "iodepth",	   "numjobs",
    "size",	   "io_size",
    "runtime",	   "time_based",
    "ramp_time",   "direct",
    "buffered",	   "ioengine",
    "filename",	   "directory",
    "offset",	   "offset_increment",
    "fsync",	   "end_fsync",
    "rate",	   "rate_iops",
    "norandommap", "random_distribution",
    "verify",	   "group_reporting",
    "stonewall",   "wait_for_previous",
    "new_group",   "wait_for",
    "loops",	   "timeout",
    "io_limit",	   "thread",
    "gtod_reduce", "invalidate",
    "fadvise_hint",
};

/* fio's engines ssdcluster maps, and what it runs them as. */
static const char *const engines[] = {"io_uring", "libaio", "psync", "sync", "pvsync", "null"};

static const char *const rw_names[][2] = {
    [SC_FIO_READ] = {"read", NULL},	    [SC_FIO_WRITE] = {"write", NULL},
    [SC_FIO_RANDREAD] = {"randread", NULL}, [SC_FIO_RANDWRITE] = {"randwrite", NULL},
    [SC_FIO_RW] = {"rw", "readwrite"},	    [SC_FIO_RANDRW] = {"randrw", NULL},
};

int sc_fio_rw_parse(const char *v, enum sc_fio_rw *rw, uint32_t *every)
{
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);

	*every = 1;
	if (colon) {
		char *end;
		unsigned long e = strtoul(colon + 1, &end, 10);

		if (!colon[1] || *end || e < 1 || e > UINT32_MAX)
			return -EINVAL;
		*every = (uint32_t)e;
	}
	for (int i = 0; i < SC_FIO_RW_COUNT; i++)
		for (int k = 0; k < 2 && rw_names[i][k]; k++)
			if (strlen(rw_names[i][k]) == n && strncmp(v, rw_names[i][k], n) == 0) {
				*rw = (enum sc_fio_rw)i;
				return 0;
			}
	return -EINVAL;
}

bool sc_fio_option_known(const char *key)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(key, known[i]) == 0)
			return true;
	return false;
}

static int bad(char *err, size_t errlen, const struct sc_fio_job *j, const struct sc_fio_opt *o,
	       const char *what, const char *also)
{
	if (o->line) /* an option from a file */
		snprintf(err, errlen, "%s:%u: job %s: %s%s", o->file, o->line, j->name, what, also);
	else /* from --set */
		snprintf(err, errlen, "%s: job %s: %s%s", o->file, j->name, what, also);
	return -EINVAL;
}

int sc_fio_job_check(const struct sc_fio_job *j, char *err, size_t errlen)
{
	char what[512];

	for (uint32_t i = 0; i < j->nopts; i++) {
		const struct sc_fio_opt *o = &j->opts[i];
		bool ok = false;

		if (!sc_fio_option_known(o->key)) {
			snprintf(what, sizeof(what),
				 "%s: an option ssdcluster fio does not run (it refuses what it "
				 "would otherwise ignore)",
				 o->key);
			return bad(err, errlen, j, o, what, "");
		}
		if (strcmp(o->key, "ioengine") == 0) {
			for (size_t k = 0; o->value && k < sizeof(engines) / sizeof(engines[0]);
			     k++)
				ok |= strcmp(o->value, engines[k]) == 0;
			if (!ok) {
				snprintf(what, sizeof(what),
					 "ioengine=%s: not an engine ssdcluster runs",
					 o->value ? o->value : "");
				return bad(err, errlen, j, o, what,
					   " (io_uring; libaio runs as io_uring, psync, sync and "
					   "pvsync as psync; null)");
			}
		}
		if (strcmp(o->key, "rw") == 0 || strcmp(o->key, "readwrite") == 0) {
			enum sc_fio_rw rw;
			uint32_t every;

			if (!o->value || sc_fio_rw_parse(o->value, &rw, &every)) {
				snprintf(what, sizeof(what), "%s=%s: not a pattern ssdcluster runs",
					 o->key, o->value ? o->value : "");
				return bad(
				    err, errlen, j, o, what,
				    " (read, write, randread, randwrite, rw/readwrite, randrw, "
				    "each with an optional :N)");
			}
		}
	}
	return 0;
}
