/* load.h -- `ssdcluster fio JOBFILE`: the job file read, --set applied to
 * its options, turned into a config (map.h) and checked as any config. */
#ifndef SC_FIO_LOAD_H
#define SC_FIO_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "fio/map.h"

/* The job file's config, loaded: *out as sc_config_load gives it, y the
 * config's text and where each line came from (for sc_fio_yaml_where on
 * later messages about it, with the name in ypath).  What the run does
 * differently from fio is printed to notes (NULL: not printed).  0, or
 * -EINVAL/-errno with a message in err naming the job file's line. */
int sc_fio_config_load(struct sc_config **out, const char *jobfile, const char *const *sets,
		       uint32_t nsets, bool allow_destroy, struct sc_fio_yaml *y, char *ypath,
		       size_t ypath_len, FILE *notes, char *err, size_t errlen);

/* --print-yaml: the config written to f, the notes as comments.  Returns
 * the exit status (0, or 2 with the message on stderr). */
int sc_fio_print_yaml(const char *jobfile, const char *const *sets, uint32_t nsets,
		      bool allow_destroy, FILE *f);

#endif
