/* map.h -- a fio job file as an ssdcluster config: each job section a
 * phase, its options turned into phase keys with fio's meanings (fio's
 * defaults where ssdcluster's differ: buffered I/O, engine psync, the jobs
 * of a section sharing one region of a file), one target for the whole
 * file.  What cannot be run as fio runs it is refused by name at its
 * file:line, never ignored.  The config is YAML text that
 * sc_config_load checks as any config; each of its lines remembers the
 * job file line it came from, so that a check's message can name that
 * line. */
#ifndef SC_FIO_MAP_H
#define SC_FIO_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/jobfile.h"

struct sc_fio_yaml {
	char *text; /* the config, NUL-terminated */
	size_t len;
	uint32_t nlines;
	/* line k (from 1) of text came from src_file[k - 1]:src_line[k - 1]
	 * (NULL: made up, from no option) */
	const char **src_file;
	uint32_t *src_line;
	char *notes;		      /* what the run does differently from fio, one a
				       * line ("" when nothing), for the user */
	struct sc_fio_jobfile *owner; /* the job file src_file points into, when
				       * the yaml outlives its reader (freed with it) */
};

/* Applies --set OPT=VALUE to every job of f, after its own options (so it
 * wins, as fio's command-line options do not: these are meant to shrink
 * a job file without editing it).  0, -EINVAL (no '=', or an option
 * ssdcluster fio does not run) with a message in err, or -ENOMEM. */
int sc_fio_jobfile_override(struct sc_fio_jobfile *f, const char *set, char *err, size_t errlen);

/* The config for f.  allow_destroy: --allow-destroy was given (the job
 * file cannot say it): the target may be written.  0, or -EINVAL with
 * "FILE:LINE: job NAME: what" in err, or -ENOMEM. */
int sc_fio_map(const struct sc_fio_jobfile *f, bool allow_destroy, struct sc_fio_yaml *out,
	       char *err, size_t errlen);

/* Rewrites a config check's message that starts "yaml_path:LINE:COL: "
 * to start with the job file line that config line came from.  msg is
 * rewritten in place (at most len bytes). */
void sc_fio_yaml_where(const struct sc_fio_yaml *y, const char *yaml_path, char *msg, size_t len);

void sc_fio_yaml_exit(struct sc_fio_yaml *y);

#endif
