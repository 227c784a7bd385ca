/* cmd.h -- `ssdcluster report RESULTS.pb` and `ssdcluster model`. */
#ifndef SC_REPORT_CMD_H
#define SC_REPORT_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Reads the results file pb, writes results.json, results.pb and the CSV
 * files into output (NULL: pb's folder) and, unless quiet, prints the phase
 * rows.  Returns the exit status: 0, 1 when writing failed, 2 when pb cannot
 * be read or is not a valid results file (message printed). */
int sc_report_command(const char *pb, const char *output, bool quiet);
/* The same, with fio.json too when fio_json (--output-format fio-json:
 * sc_report_fio_json). */
int sc_report_command_as(const char *pb, const char *output, bool quiet, bool fio_json);

/* `ssdcluster compare A.pb B.pb` or `compare A1.pb A2.pb -- B1.pb ...`:
 * reads the results files of side A (files[0][0..n[0])) and side B
 * (files[1][0..n[1])), compares side B with side A (analysis/compare.h),
 * prints the comparison unless quiet (then only the settings that differ,
 * on stderr) and writes compare.json and compare.html into output (NULL:
 * the folder of B's first file).  No MPI.  Returns the exit status: 0; 1
 * when writing failed or memory ran out; 2 when a file cannot be read or
 * is not a valid results file, the runs of one side differ in a setting,
 * or the sides share no phase (message printed, naming the file or the
 * setting). */
int sc_report_compare_command(const char *const *const files[2], const uint32_t n[2],
			      const char *output, bool quiet);

/* `ssdcluster model [RESULTS.pb] [OPTIONS]`: argv holds what follows the
 * word model.  Parses the options (model/params.h keys as --key VALUE or
 * --key=VALUE, --json, --help), reads the results file when one is given,
 * projects and prints the table (or {"model": ...} with --json).  No MPI,
 * no I/O on targets.  Returns the exit status: 0; 1 out of memory; 2 bad
 * options, a results file that cannot be read or lacks the phases the
 * model needs (message printed). */
int sc_report_model_command(int argc, char **argv);

/* The text of `ssdcluster model --help`. */
void sc_report_model_usage(FILE *f);

#endif
