/* options.h -- which fio job options `ssdcluster fio` runs, and a first
 * check of a job's options against them: an option it does not run is
 * refused by name at its file:line, never ignored; ioengine must be one it
 * maps to its own engines (io_uring, libaio and psync); rw one of fio's
 * patterns, with rw=randrw:8-style suffixes split off. */
#ifndef SC_FIO_OPTIONS_H
#define SC_FIO_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fio/jobfile.h"

/* fio's rw, as ssdcluster runs it. */
enum sc_fio_rw {
	SC_FIO_READ = 0,
	SC_FIO_WRITE,
	SC_FIO_RANDREAD,
	SC_FIO_RANDWRITE,
	SC_FIO_RW, /* rw / readwrite: sequential mixed */
	SC_FIO_RANDRW,
	SC_FIO_RW_COUNT
};

/* An rw value: the pattern and the ":N" suffix (I/Os issued before the
 * offset is moved on, fio's; 1 when absent).  0 or -EINVAL. */
int sc_fio_rw_parse(const char *v, enum sc_fio_rw *rw, uint32_t *every);

/* Whether fio option key is one ssdcluster runs. */
bool sc_fio_option_known(const char *key);

/* Checks every option of job j: known, ioengine and rw values it runs.
 * 0, or -EINVAL with "FILE:LINE: job NAME: what" in err. */
int sc_fio_job_check(const struct sc_fio_job *j, char *err, size_t errlen);

#endif
