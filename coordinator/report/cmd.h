/* cmd.h -- `ssdcluster report RESULTS.pb`. */
#ifndef SC_REPORT_CMD_H
#define SC_REPORT_CMD_H

#include <stdbool.h>

/* Reads the results file pb, writes results.json, results.pb and the CSV
 * files into output (NULL: pb's folder) and, unless quiet, prints the phase
 * rows.  Returns the exit status: 0, 1 when writing failed, 2 when pb cannot
 * be read or is not a valid results file (message printed). */
int sc_report_command(const char *pb, const char *output, bool quiet);

#endif
