/* cli.c -- the command line. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage_notes(FILE *f);

void sc_cli_usage(FILE *f)
{
	fputs("usage: ssdcluster CONFIG.yaml [--output DIR] [--dry-run] [--set KEY=VALUE]...\n"
	      "                  [--run-id ID] [--allow-destroy] [--progress=MODE] [--quiet]\n"
	      "                  [--output-format FMT] [--version] [--help]\n"
	      "       mpirun -np N ssdcluster CONFIG.yaml ...\n"
	      "       ssdcluster report RESULTS.pb [--output DIR] [--output-format FMT]\n"
	      "       ssdcluster compare A/results.pb B/results.pb [--output DIR]\n"
	      "       ssdcluster compare A1.pb A2.pb... -- B1.pb B2.pb... [--output DIR]\n"
	      "       ssdcluster model [RESULTS.pb] [--nodes 8,64,512,4096] ... [--json]\n"
	      "       ssdcluster keys [WORKLOAD] [--markdown]\n"
	      "       [mpirun -np N] ssdcluster fio JOBFILE.fio [--set OPTION=VALUE]...\n"
	      "                  [--output DIR] [--allow-destroy] [--dry-run] [--print-yaml]\n"
	      "\n"
	      "Measures NVMe storage the way a GPU cluster uses it.  Every MPI rank drives\n"
	      "the targets of its own node with io_uring; all ranks start each phase at\n"
	      "the same instant; rank 0 merges what they measured into cluster figures.\n"
	      "Run it alone for one rank, or under mpirun for many.  Only rank 0 reads\n"
	      "CONFIG.yaml; it sends the checked plan to the other ranks.\n"
	      "\n"
	      "`ssdcluster report RESULTS.pb` rebuilds results.json and the CSV files from a\n"
	      "run's results.pb (in its folder, or in --output DIR) and prints its rows; a\n"
	      "damaged file is refused.  No MPI, no I/O on any target.\n"
	      "\n"
	      "`ssdcluster compare A.pb B.pb` sets run B beside run A: phases of the same\n"
	      "name (sweep cells by rw, bs and iodepth; an axis whose values changed but\n"
	      "not their count pairs by position, shown as \"16->4\"), bandwidth, IOPS and\n"
	      "latency (mean, p50, p99, p99.99) of both, the change in % and in the\n"
	      "figure's unit, whether B is better (higher bandwidth and IOPS, lower\n"
	      "latency and checkpoint times), and the largest differences.  A warning\n"
	      "names each setting in which paired phases differ (workload, engine, rw, bs,\n"
	      "iodepth, jobs, direct, rate_iops, checkpoints, model, layout, scale,\n"
	      "target kind, throttle, ranks, nodes) with A's and B's value.\n"
	      "`compare A1.pb A2.pb -- B1.pb B2.pb B3.pb` takes several runs a side (all\n"
	      "of a side with the same settings, else exit 2 naming the setting): each\n"
	      "figure is a side's mean and spread, the change has Welch's 95% t interval,\n"
	      "and a change whose interval holds 0 is \"no difference\"; with one run a\n"
	      "side the interval is unknown and within 1% is \"no difference\".  It\n"
	      "writes compare.json and compare.html (difference maps in % and in units,\n"
	      "green where B is better, red where worse; checkpoint times overlaid) into\n"
	      "--output DIR, by default the folder of B's first file.  Sides that share\n"
	      "no phase, or an unreadable file, exit 2.\n"
	      "\n"
	      "`ssdcluster fio JOBFILE.fio` runs a fio job file on every rank in lockstep,\n"
	      "each job section a phase (one after another: a section fio would run beside\n"
	      "the one before it, without stonewall, is refused), merged cluster-wide as\n"
	      "any phase.  fio's meanings hold: buffered I/O and ioengine psync unless the\n"
	      "file says otherwise (libaio runs as io_uring with direct=1, buffered as\n"
	      "psync at depth 1, as Linux runs it), a buffered job's region dropped from\n"
	      "the page cache before it and at each pass (invalidate) and random reads\n"
	      "without readahead (fadvise_hint), size and rate per job, the jobs of a\n"
	      "section sharing one region of filename=, randommap unless norandommap, a\n"
	      "writing job with verify=crc32c read back after it.  An option it does\n"
	      "not run exits 2 naming it and its line, never ignored.\n"
	      "--set OPTION=VALUE sets a fio option in every job (--set size=64m --set\n"
	      "runtime=5 shrinks a job file); --print-yaml prints the config it runs and\n"
	      "what differs from fio, and runs nothing.  Writing filename= of a device or\n"
	      "an existing file needs --allow-destroy (the job file cannot say it).\n"
	      "\n"
	      "`ssdcluster model RESULTS.pb` projects a run's measured drives to GPU clusters\n"
	      "of 8 to 4096 nodes (checkpoint time and p90, interval, goodput, drives per\n"
	      "node, endurance, restore, ingest stalls); see `ssdcluster model --help`.  A\n"
	      "config's model: section makes a run do the same at its end, into results.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output DIR     where results go (default: ssdcluster-results/RUN_ID).\n"
	      "                       results.pb is rewritten after every phase, so a crash\n"
	      "                       keeps every finished phase; results.json, the CSV\n"
	      "                       tables and report.html as often as they take at most\n"
	      "                       a tenth of the run, and at its end.  DIR is made\n"
	      "                       and proved writable before any I/O; it must not be,\n"
	      "                       lie in or hold a target (or its run directory), by\n"
	      "                       path, symlink or bind mount: else exit 2, nothing run.\n"
	      "      --output-format FMT  normal (the files above) or fio-json: DIR/fio.json\n"
	      "                       besides them, at the run's end (or from `report`):\n"
	      "                       each phase as one group-reported job in fio's json+\n"
	      "                       shape (bw KiB/s, bw_bytes B/s, runtime ms, clat_ns\n"
	      "                       percentiles and bins from the merged histogram), for\n"
	      "                       fio's own tools (fio_jsonplus_clat2csv, fio-plot).\n"
	      "  -n, --dry-run        check the config, print the plan (phases, each rank's\n"
	      "                       node, target and files, planned bytes, capacity needed)\n"
	      "                       and write DIR/plan.json.  No I/O is done.  A plan\n"
	      "                       larger than a target is still shown, then its\n"
	      "                       shortfall is named and the exit status is 2.\n"
	      "  -s, --set KEY=VALUE  override the config; may repeat.  A dotted path sets one\n"
	      "                       value: phases.0.runtime=5s, phases.seqwrite.bs=128KiB,\n"
	      "                       targets.0.capacity=1GiB.  A bare key sets it in every\n"
	      "                       phase or target that accepts it: runtime=5s, direct=false,\n"
	      "                       capacity=2GiB.  runtime and io_size replace each other.\n"
	      "                       memory_per_rank=8GiB raises the memory a rank may\n"
	      "                       allocate (default 4GiB, or a quarter of RAM if less).\n"
	      "      --allow-destroy  let phases write to file and block-device targets that\n"
	      "                       also say allow_destroy: true (both are needed).  Even\n"
	      "                       then a device is refused when anything in its stack\n"
	      "                       (the disk or loop backing under it; partitions, loop,\n"
	      "                       dm, md and LVM devices over its bytes) is mounted in any\n"
	      "                       mount namespace, swap or holds / ; when anything is\n"
	      "                       built over its bytes or it has partitions; when another\n"
	      "                       program holds it O_EXCL; or when it carries a\n"
	      "                       filesystem, RAID, LVM or partition-table signature (the\n"
	      "                       last unless the target says wipe_signatures_ok: true).\n"
	      "                       Every rank checks its own target.  allow_destroy and\n"
	      "                       wipe_signatures_ok come from the config file only (not\n"
	      "                       --set, not ${VAR}), and so do path and hosts of a\n"
	      "                       target that says allow_destroy: true.\n"
	      "  -r, --run-id ID      name the run (default: date-time and 64 random bits,\n"
	      "                       e.g. 20250101-120000-0123456789abcdef).  ID is 1 to 64 of\n"
	      "                       A-Z a-z 0-9 _ - and starts with a letter or digit.  The\n"
	      "                       run writes only in its own directory TARGET/ssdcluster-ID\n"
	      "                       on each directory target, which it creates and removes;\n"
	      "                       if that exists already the run is refused (exit 2).\n"
	      "                       A config whose phases are all verify_only re-reads the\n"
	      "                       kept run ID instead: it opens TARGET/ssdcluster-ID (or\n"
	      "                       the regions of a file or device), checks every block,\n"
	      "                       and creates, writes and removes nothing.\n"
	      "      --progress=MODE  what rank 0 prints while a phase runs, besides the\n"
	      "                       row each phase ends with: live (one line rewritten in\n"
	      "                       place every second), lines (a plain line every 10 s:\n"
	      "                       phase, elapsed s, ranks done, rank 0's MB/s and IOPS),\n"
	      "                       none, or auto (the default): live only when stdout is\n"
	      "                       a terminal and, under mpirun, mpirun's own stdout is\n"
	      "                       a terminal too (a rank's stdout is mpirun's pseudo-\n"
	      "                       terminal even when mpirun's output goes to a file or\n"
	      "                       a batch log); lines otherwise, or when that cannot be\n"
	      "                       told.  SSDCLUSTER_PROGRESS=MODE in the environment does\n"
	      "                       the same; the option wins.\n"
	      "  -q, --quiet          print only errors (no progress either).\n"
	      "  -V, --version        print the version.\n"
	      "  -h, --help           print this help.\n",
	      f);
	usage_notes(f);
}

/* The second half of --help: units, figures, workloads, examples, exit
 * status. */
static void usage_notes(FILE *f)
{
	fputs(
	    "\n"
	    "units: sizes 4KiB 1MiB 1GiB (powers of two), 4KB 1MB 10GB (powers of ten), or\n"
	    "bytes; durations 250us 500ms 30s 5m 1h.  Values may use ${VAR} and\n"
	    "${VAR:-default}.  Every number printed carries its unit.\n"
	    "\n"
	    "figures: latency percentiles come from the bucket-wise sum of every rank's\n"
	    "histogram (never averaged).  Last-done bandwidth = all bytes / (latest end -\n"
	    "earliest start); first-done bandwidth = bytes moved by all ranks until the\n"
	    "first rank finished / that time.  MB/s = 10^6 bytes per second.\n"
	    "\n"
	    "workloads (a phase's workload: key): io (fio-like jobs and sweeps), kvcache\n"
	    "(4 KiB 70/30 mix, open loop with rate: N/s), checkpoint (LLM checkpoints as\n"
	    "DLIO writes them: model, tp, pp, zero, scale, restore), ingest (training data:\n"
	    "samples, batches, emulated compute, accelerator utilisation), training\n"
	    "(MLPerf Storage v3.0: benchmark, accelerator, accelerators_per_rank, runs:\n"
	    "1+5, search: accelerators for the most a host feeds), fill\n"
	    "(preconditioning: passes sequential writes over the target, random_passes,\n"
	    "the write cliff), idle (- idle: 5m, no I/O).  Any io or kvcache phase may\n"
	    "repeat in rounds until every drive is steady (steady_state:); any phase may\n"
	    "carry expect: thresholds, and the run ends with a PASS/FAIL table.  Every\n"
	    "key, its type, range and default: `ssdcluster keys [WORKLOAD]` and\n"
	    "docs/config.md; what the figures mean: docs/results.md.\n"
	    "\n"
	    "examples:\n"
	    "  ssdcluster configs/quickstart.yaml\n"
	    "  SSDCLUSTER_TARGET=/mnt/nvme0 ssdcluster configs/fio_matrix.yaml --set runtime=10s\n"
	    "  mpirun -np 16 ssdcluster configs/quickstart.yaml --output /tmp/run1\n"
	    "  ssdcluster configs/quickstart.yaml --dry-run\n"
	    "  mpirun -np 16 ssdcluster configs/llm_ckpt.yaml --set scale=0.0001\n"
	    "\n"
	    "exit status: 0 all phases ran; 1 a run failed (I/O error, rank failure, or\n"
	    "verify: crc32c found blocks that do not hold what was written; the results\n"
	    "of finished phases are kept); 2 bad command line or config, or a target\n"
	    "the destroy guard refuses on any rank (nothing was written).  A failed I/O\n"
	    "makes it 1 whatever on_error says (stop-phase, the default: the run ends\n"
	    "after that phase; continue: every phase runs; abort: every rank stops at\n"
	    "once); results say per phase how it ended.  3 an expect: threshold was\n"
	    "not met (the PASS/FAIL table names it; 1 and 4 take precedence).  4 a\n"
	    "rank died or hung: a phase passed its deadline (timeout:, default its\n"
	    "planned duration + max(30 s, 10%); the rank, host and phase are named,\n"
	    "the phase kept as timed_out).  130/143 SIGINT/SIGTERM (to mpirun or to\n"
	    "any rank) stopped every rank: the cut phase is kept as interrupted, the\n"
	    "run files removed (mpirun itself exits 1 when it is the one signalled).\n",
	    f);
}

/* Long options without a short form. */
enum { OPT_ALLOW_DESTROY = 0x100, OPT_PROGRESS, OPT_PRINT_YAML, OPT_OUTPUT_FORMAT };
static bool ascii_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* [A-Za-z0-9][A-Za-z0-9_-]{0,63}: a file name that cannot leave its
 * directory. */
static bool run_id_ok(const char *id)
{
	size_t n = strlen(id);

	if (n == 0 || n > SC_CLI_RUN_ID_MAX || !ascii_alnum(id[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!ascii_alnum(id[i]) && id[i] != '_' && id[i] != '-')
			return false;
	return true;
}

/* The options that only switch something on: the flag they set, or NULL
 * for another option. */
static bool *switch_of(struct sc_cli *cli, int ch)
{
	switch (ch) {
	case 'n':
		return &cli->dry_run;
	case 'q':
		return &cli->quiet;
	case 'V':
		return &cli->version;
	case 'h':
		return &cli->help;
	case OPT_ALLOW_DESTROY:
		return &cli->allow_destroy;
	case OPT_PRINT_YAML:
		return &cli->print_yaml;
	default:
		return NULL;
	}
}

/* --set KEY=VALUE.  0 or -EINVAL with a message in err. */
static int take_set(struct sc_cli *cli, const char *arg, char *err, size_t errlen)
{
	if (!strchr(arg, '=') || arg[0] == '=') {
		snprintf(err, errlen, "--set %s: expected KEY=VALUE (e.g. --set runtime=5s)", arg);
		return -EINVAL;
	}
	if (cli->nsets == SC_CLI_MAX_SETS) {
		snprintf(err, errlen, "more than %d --set options", SC_CLI_MAX_SETS);
		return -EINVAL;
	}
	cli->sets[cli->nsets++] = arg;
	return 0;
}

/* --output-format FMT: normal (the usual files) or fio-json (fio.json
 * besides them).  0 or -EINVAL with a message in err. */
static int take_output_format(struct sc_cli *cli, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "fio-json") != 0 && strcmp(arg, "normal") != 0) {
		snprintf(err, errlen, "--output-format %s: expected normal or fio-json", arg);
		return -EINVAL;
	}
	cli->fio_json = strcmp(arg, "fio-json") == 0;
	return 0;
}

/* One option getopt_long returned (ch, with optarg and optind as it left
 * them).  0 or -EINVAL with a message in err. */
static int take_option(struct sc_cli *cli, int ch, char **argv, char *err, size_t errlen)
{
	bool *on = switch_of(cli, ch);

	if (on) {
		*on = true;
		return 0;
	}
	switch (ch) {
	case 'o':
		cli->output = optarg;
		return 0;
	case 's':
		return take_set(cli, optarg, err, errlen);
	case 'r':
		if (!run_id_ok(optarg)) {
			snprintf(err, errlen,
				 "--run-id %s: a run id is 1 to %d of A-Z a-z 0-9 _ - and "
				 "starts with a letter or digit (e.g. --run-id acceptance-01)",
				 optarg, SC_CLI_RUN_ID_MAX);
			return -EINVAL;
		}
		cli->run_id = optarg;
		return 0;
	case OPT_PROGRESS:
		if (sc_progress_mode_parse(optarg, &cli->progress)) {
			snprintf(err, errlen, "--progress=%s: expected " SC_PROGRESS_MODE_WORDS,
				 optarg);
			return -EINVAL;
		}
		cli->progress_given = true;
		return 0;
	case OPT_OUTPUT_FORMAT:
		return take_output_format(cli, optarg, err, errlen);
	case ':':
		snprintf(err, errlen, "%s needs a value (see --help)", argv[optind - 1]);
		return -EINVAL;
	default:
		snprintf(err, errlen, "unknown option %s (see --help)", argv[optind - 1]);
		return -EINVAL;
	}
}

/* What stands for the "--" between compare's sides while getopt runs (it
 * would take a real "--" for the end of the options and drop it). */
static char compare_sep[] = "\x1f--";

/* Marks the first "--" after the word compare in argv as compare's
 * separator, before getopt sees it. */
static void mark_compare_sep(int argc, char **argv)
{
	int i = 1;

	while (i < argc && strcmp(argv[i], "compare") != 0)
		i++;
	for (; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			argv[i] = compare_sep;
			return;
		}
}

/* The checks every results command makes: 0 or -EINVAL. */
static int results_only(const struct sc_cli *cli, const char *word, char *err, size_t errlen)
{
	bool report = strcmp(word, "report") == 0;

	if (cli->dry_run || cli->nsets || cli->run_id || (cli->fio_json && !report)) {
		snprintf(err, errlen, "%s takes only --output%s and --quiet", word,
			 report ? ", --output-format" : "");
		return -EINVAL;
	}
	return 0;
}

/* "report RESULTS.pb" at optind: the file into cli->report.  0 or -EINVAL
 * with a message in err. */
static int take_report(struct sc_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	if (optind + 2 != argc) {
		snprintf(err, errlen,
			 "report takes one results file: ssdcluster report "
			 "DIR/results.pb");
		return -EINVAL;
	}
	cli->report = argv[optind + 1];
	return results_only(cli, "report", err, errlen);
}

/* "compare A.pb B.pb" or "compare A1.pb [A2.pb...] -- B1.pb [B2.pb...]"
 * at optind: each side's files into cli->compare.  0 or -EINVAL with a
 * message in err. */
static int take_compare(struct sc_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	int first = optind + 1, sep = -1;

	for (int i = first; i < argc; i++)
		if (argv[i] == compare_sep)
			sep = i;
	if (sep < 0 ? argc - first != 2 : sep == first || sep == argc - 1) {
		snprintf(err, errlen,
			 "compare takes two results files, or several a side around --: "
			 "ssdcluster compare A/results.pb B/results.pb, or ssdcluster compare "
			 "A1/results.pb A2/results.pb -- B1/results.pb B2/results.pb");
		return -EINVAL;
	}
	if (sep < 0) {
		cli->compare[0] = (const char *const *)&argv[first];
		cli->compare[1] = (const char *const *)&argv[first + 1];
		cli->ncompare[0] = cli->ncompare[1] = 1;
	} else {
		argv[sep] = (char *)"--";
		cli->compare[0] = (const char *const *)&argv[first];
		cli->ncompare[0] = (uint32_t)(sep - first);
		cli->compare[1] = (const char *const *)&argv[sep + 1];
		cli->ncompare[1] = (uint32_t)(argc - sep - 1);
	}
	return results_only(cli, "compare", err, errlen);
}

/* "fio JOBFILE" at optind.  0 or -EINVAL with a message in err. */
static int take_fio(struct sc_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	if (optind + 2 != argc) {
		snprintf(err, errlen,
			 "fio takes one job file: ssdcluster fio JOBFILE.fio [--set OPTION=VALUE] "
			 "(see --help)");
		return -EINVAL;
	}
	cli->fio = true;
	cli->config = argv[optind + 1];
	return 0;
}

/* SSDCLUSTER_PROGRESS=MODE, unless --progress was given.  0 or -EINVAL
 * with a message in err. */
static int progress_from_env(struct sc_cli *cli, char *err, size_t errlen)
{
	const char *v = getenv("SSDCLUSTER_PROGRESS");

	if (cli->progress_given || !v || !*v)
		return 0;
	if (sc_progress_mode_parse(v, &cli->progress)) {
		snprintf(err, errlen, "SSDCLUSTER_PROGRESS=%s: expected " SC_PROGRESS_MODE_WORDS,
			 v);
		return -EINVAL;
	}
	return 0;
}

/* What follows the options: CONFIG.yaml, "report RESULTS.pb" or "compare
 * A.pb B.pb".  0 or -EINVAL with a message in err. */
static int take_operands(struct sc_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
	if (optind >= argc) {
		snprintf(err, errlen,
			 "no config file given (try: ssdcluster configs/quickstart.yaml)");
		return -EINVAL;
	}
	if (strcmp(argv[optind], "model") == 0) {
		snprintf(err, errlen,
			 "model comes first: ssdcluster model [RESULTS.pb] [OPTIONS] "
			 "(see ssdcluster model --help)");
		return -EINVAL;
	}
	if (strcmp(argv[optind], "compare") == 0)
		return take_compare(cli, argc, argv, err, errlen);
	if (strcmp(argv[optind], "report") == 0)
		return take_report(cli, argc, argv, err, errlen);
	if (strcmp(argv[optind], "fio") == 0)
		return take_fio(cli, argc, argv, err, errlen);
	if (cli->print_yaml) {
		snprintf(err, errlen, "--print-yaml goes with ssdcluster fio JOBFILE");
		return -EINVAL;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "unexpected argument %s: give one config file",
			 argv[optind + 1]);
		return -EINVAL;
	}
	cli->config = argv[optind];
	return 0;
}

int sc_cli_parse(int argc, char **argv, struct sc_cli *cli, char *err, size_t errlen)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"set", required_argument, NULL, 's'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"version", no_argument, NULL, 'V'},
	    {"help", no_argument, NULL, 'h'},
	    {"allow-destroy", no_argument, NULL, OPT_ALLOW_DESTROY},
	    {"run-id", required_argument, NULL, 'r'},
	    {"progress", required_argument, NULL, OPT_PROGRESS},
	    {"print-yaml", no_argument, NULL, OPT_PRINT_YAML},
	    {"output-format", required_argument, NULL, OPT_OUTPUT_FORMAT},
	    {NULL, 0, NULL, 0},
	};
	int ch, rc;

	memset(cli, 0, sizeof(*cli));
	if (argc >= 2 && strcmp(argv[1], "model") == 0) {
		cli->model_argc = argc - 2;
		cli->model_argv = argv + 2;
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "keys") == 0) {
		cli->keys_argc = argc - 2;
		cli->keys_argv = argv + 2;
		return 0;
	}
	opterr = 0;
	optind = 1;
	mark_compare_sep(argc, argv);
	while ((ch = getopt_long(argc, argv, ":o:ns:qVhr:", opts, NULL)) != -1) {
		rc = take_option(cli, ch, argv, err, errlen);
		if (rc)
			return rc;
	}
	if (cli->help || cli->version)
		return 0;
	rc = take_operands(cli, argc, argv, err, errlen);
	if (rc)
		return rc;
	return cli->config ? progress_from_env(cli, err, errlen) : 0;
}
