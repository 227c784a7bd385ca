/* jobfile.h -- a fio job file read as fio reads it, before any option is
 * understood: [sections] of key=value lines (or a key alone, a flag),
 * [global] sections whose options every later job starts from, `include
 * FILE` (relative to the including file), ${VAR} from the environment,
 * comment lines starting with ';' or '#'.  Every option keeps the file and
 * line it came from, so that what cannot be run is named where it is. */
#ifndef SC_FIO_JOBFILE_H
#define SC_FIO_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sc_fio_opt {
	char *key;	  /* as written, lower case kept */
	char *value;	  /* ${VAR} expanded; NULL for a key alone */
	const char *file; /* the jobfile's copy of the path (files[]) */
	uint32_t line;	  /* 0: from --set (file is then "--set K=V") */
	bool from_env;	  /* the value holds a ${VAR} from the environment */
};

struct sc_fio_job {
	char *name;
	const char *file;
	uint32_t line; /* of its [name] */
	uint32_t nopts;
	struct sc_fio_opt *opts; /* the [global] ones before it, then its own,
				  * in order: the last of a key counts */
};

struct sc_fio_jobfile {
	uint32_t njobs;
	struct sc_fio_job *jobs;
	uint32_t nfiles;
	char **files; /* the job file, then each included one */
};

/* Reads path (and what it includes, at most SC_FIO_INCLUDE_DEPTH deep)
 * into out.  0, or -errno with "FILE:LINE: what" in err: a line that is
 * neither, an option before any section, a ${VAR} the environment lacks,
 * an include that cannot be read or that includes itself, a file with no
 * job. */
int sc_fio_jobfile_read(const char *path, struct sc_fio_jobfile *out, char *err, size_t errlen);

#define SC_FIO_INCLUDE_DEPTH 8

/* Job j's option key: the last one it has (its value NULL for a flag), or
 * NULL when it has none. */
const struct sc_fio_opt *sc_fio_job_opt(const struct sc_fio_job *j, const char *key);

void sc_fio_jobfile_exit(struct sc_fio_jobfile *f);

#endif
