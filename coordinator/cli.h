/* cli.h -- the command line. */
#ifndef SC_CLI_H
#define SC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "progress_mode.h"

#define SC_CLI_MAX_SETS 256
/* Characters in a --run-id. */
#define SC_CLI_RUN_ID_MAX 64

/* The exit statuses --help promises besides 0 (a signal that stopped the
 * run gives 128 + its number: sc_interrupt_exit_code). */
enum sc_exit_status {
	SC_EXIT_RUN_FAILED = 1, /* an I/O error, a verify mismatch, a failed step */
	SC_EXIT_BAD_INPUT = 2,  /* command line, config, or a target refused */
	SC_EXIT_VERDICT_FAILED = 3, /* every phase ran, an expect: threshold failed */
	SC_EXIT_RANK_LOST = 4,  /* a rank died or hung past its deadline */
};

struct sc_cli {
	const char *config;     /* CONFIG.yaml, or the job file of "fio JOBFILE" */
	/* "fio JOBFILE": config is a fio job file (fio/load.h), and --set
	 * sets its fio options */
	bool fio;
	bool print_yaml;        /* fio --print-yaml: the config it makes, no run */
	const char *report;     /* "report RESULTS.pb": rebuild the outputs */
	/* "compare A.pb B.pb" or "compare A1.pb A2.pb -- B1.pb B2.pb": side B's
	 * runs against side A's (ncompare[0] 0: no compare) */
	const char *const *compare[2];
	uint32_t ncompare[2];
	const char *output;     /* --output DIR, NULL for the default */
	bool fio_json;          /* --output-format fio-json: DIR/fio.json too */
	bool dry_run;
	bool quiet;
	bool help;
	bool version;
	bool allow_destroy;     /* --allow-destroy: file and device targets may be written */
	const char *sets[SC_CLI_MAX_SETS]; /* --set KEY=VALUE, in order */
	uint32_t nsets;
	const char *run_id;     /* --run-id ID, NULL for a random one */
	/* --progress=MODE, else SSDCLUSTER_PROGRESS=MODE, else auto (what
	 * was asked: sc_progress_mode_choose decides what auto gives) */
	enum sc_progress_mode progress;
	bool progress_given;    /* --progress was on the command line */
	/* "model ...": what follows the word model, for the model command
	 * to parse (model_argv NULL otherwise). */
	int model_argc;
	char **model_argv;
	/* "keys ...": the same for the keys command (keys_argv NULL
	 * otherwise). */
	int keys_argc;
	char **keys_argv;
};

/* Parses argv, and SSDCLUSTER_PROGRESS from the environment.  "ssdcluster
 * model ..." (model first) is left to the model command: model_argc/
 * model_argv get what follows it.  0, or -EINVAL with a message in err. */
int sc_cli_parse(int argc, char **argv, struct sc_cli *cli, char *err, size_t errlen);

/* The --help text. */
void sc_cli_usage(FILE *f);

#endif
