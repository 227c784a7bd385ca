/* files.c -- what every report file shares: the error message, the atomic
 * write of a file into the output folder and the append to one
 * (worker/atomic_file.c, with the message), and a phase record's phase.
 * Helpers only: the drivers (report.c, cmd.c, compare_cmd.c) call the
 * formatters, which call these, never the other way round. */
#include "report.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
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

int sc_report_write_named(const char *dir, const char *name, const void *data, size_t len,
			  char *err, size_t errlen)
{
	int rc = sc_atomic_file_write(dir, name, data, len);

	if (rc)
		sc_report_set_err(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
	return rc;
}

int sc_report_append_named(const char *dir, const char *name, const void *data, size_t len,
			   char *err, size_t errlen)
{
	int rc = sc_atomic_file_append(dir, name, data, len);

	if (rc)
		sc_report_set_err(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
	return rc;
}

/* ----------------------------------------------------------- phase records */

const struct sc_phase *sc_report_phase_of(const struct sc_run_record *rec, uint32_t phase)
{
	return phase < rec->plan.nphases ? &rec->plan.phases[phase] : NULL;
}
