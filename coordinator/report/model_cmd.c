/* model_cmd.c -- `ssdcluster model [RESULTS.pb] [OPTIONS]`: the cluster
 * model from a run's results (or stated per-drive figures) to a table or
 * JSON.  No MPI, no I/O on targets. */
#include "cmd.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "analysis/figures.h"
#include "results_file.h"
#include "model/params.h"
#include "model/project.h"
#include "projection.h"

/* Room for a message. */
#define MODEL_ERR_MAX 1024
/* Exit statuses (cli.h's, which report/ does not include). */
#define EXIT_NOMEM     1
#define EXIT_BAD_INPUT 2

void sc_report_model_usage(FILE *f)
{
	fputs("usage: ssdcluster model RESULTS.pb [OPTIONS] [--json]\n"
	      "       ssdcluster model --drive-write RATE [--drive-read RATE] [OPTIONS] [--json]\n"
	      "\n"
	      "Projects what a run measured (its results.pb) to GPU clusters of any size: for\n"
	      "each node count N, the time of one synchronous checkpoint of the whole\n"
	      "cluster, how often to checkpoint, the share of time lost to checkpoints and\n"
	      "failures, the drives per node that keep that share under a target, how long\n"
	      "the drives last at that cadence, (from an ingest phase) how often a\n"
	      "training step waits for data, and (from a training phase) how many\n"
	      "accelerators a node's drives feed at the AU threshold.  Without RESULTS.pb\n"
	      "it sizes from a stated per-drive write rate (--drive-write), before any\n"
	      "hardware exists.\n"
	      "No MPI, no I/O on any target.  Every figure names its inputs and assumptions\n"
	      "in the Basis block ([a]..[g], as the columns are marked).\n"
	      "\n"
	      "figures, per N:\n"
	      "  ckpt mean, p90  [a] the slowest of the N x D drives, each writing its share\n"
	      "                  of the full checkpoint: a trend over the checkpoint index\n"
	      "                  times the spread of every drive and checkpoint, its\n"
	      "                  upper tail fitted above the slowest tenth and fifth of\n"
	      "                  the samples (exponential, or generalized Pareto when it\n"
	      "                  fits significantly better; printed as tails:), the mean\n"
	      "                  of the two, so it may exceed the slowest sample.  Beside\n"
	      "                  each figure its band (bootstrap, 2.5%..97.5%); a warning,\n"
	      "                  with the band's width, where N x D exceeds the measured\n"
	      "                  samples.  Hundreds of checkpoints per drive narrow it.\n"
	      "  restore mean    [g] the same for reading the checkpoint back after a\n"
	      "                  failure, from the run's restores (restore: true).\n"
	      "  tau             [b] Young/Daly: sqrt(2 x ckpt mean x node MTBF / N), the\n"
	      "                  compute time between checkpoints;\n"
	      "  writing, lost   [b] shares of time spent writing checkpoints and lost to\n"
	      "                  failures (half a period + the restart R per failure, R\n"
	      "                  being --restart, 10 min unless given, plus restore mean [g]\n"
	      "                  when measured or --drive-read is stated); goodput is what\n"
	      "                  remains.  These are at the drives per node of the run\n"
	      "                  (or --drives-per-node), named in the table's title.\n"
	      "  busiest node, busiest nodes, median node\n"
	      "                  one checkpoint's bytes on the busiest node, how many nodes\n"
	      "                  write that much, and the median node's (DLIO puts the model\n"
	      "                  state on data-parallel rank 0's nodes).\n"
	      "  drives/node for [c] the fewest drives per node whose 1 - goodput is at most\n"
	      "                  the overhead target (\"none <= M\" if M are not enough),\n"
	      "                  and the overhead and ckpt mean there.\n"
	      "  writes/day there, rating lasts there\n"
	      "                  [d] the answer's endurance: each drive's writes per day at\n"
	      "                  the recommended drives per node (one checkpoint a Young/Daly\n"
	      "                  period there) and the years its DWPD rating covers.\n"
	      "  writes/day at D/node, lasts at D/node\n"
	      "                  [d] the same at the run's D drives per node, labelled with D.\n"
	      "  step wait, P(step stalled), AU\n"
	      "                  [e] a step waits for the slowest node's batch: 1 - (1 - p)^N\n"
	      "                  with p the measured per-node stall probability; AU = compute\n"
	      "                  / (compute + step wait).\n"
	      "  read/node for AU 90%  [f] per-node read bandwidth that keeps AU >= 90%.\n"
	      "  feeds at AU X%, accelerators/host at AU X%\n"
	      "                  [h] training (MLPerf Storage): one accelerator at the AU\n"
	      "                  threshold au needs batch x sample bytes every compute / au\n"
	      "                  (the demand, in B/s).  A node every rank of which waited for\n"
	      "                  its batches (AU without the barrier's waits below au) had\n"
	      "                  its drives at their limit: its read rate in the AU steps is\n"
	      "                  their capacity, and it feeds floor(capacity / demand).\n"
	      "                  Otherwise the run shows only what the accelerators took:\n"
	      "                  \"at least\" floor(read rate / demand), or the accelerators\n"
	      "                  it ran when its AU met the threshold.  Per host at N nodes:\n"
	      "                  every step ends at a barrier, so the slowest of N nodes'\n"
	      "                  capacity (fitted over the measured nodes, with its band)\n"
	      "                  over the demand.\n"
	      "\n"
	      "options (default in brackets; a run whose config had a model: section\n"
	      "starts from its settings, and the options override them):\n"
	      "  --nodes N,N,...        cluster sizes, increasing [8,64,512,4096]\n"
	      "  --gpus-per-node G      accelerators per node [8]\n"
	      "  --drives-per-node D    drives per node [as measured; 1 without results]\n"
	      "  --node-mtbf DUR        one node's mean time between failures [50000h]\n"
	      "  --restart DUR          time to restart after a failure, before the\n"
	      "                         projected restore, which is added [10m]\n"
	      "  --overhead-target S    largest share lost to checkpoints and failures, 5% or\n"
	      "                         0.05 [5%]\n"
	      "  --dwpd X               rated drive writes per day [1]\n"
	      "  --warranty Y           the rating's term, years (5y) or a duration [5y]\n"
	      "  --drive-capacity SIZE  one drive [30.72TB]\n"
	      "  --max-drives-per-node M  bound of the sizing search [64]\n"
	      "  --model NAME           catalogue model checkpointed (llama3-8b, llama3-70b,\n"
	      "                         llama3.1-405b, llama3-1t) [the run's; llama3.1-405b]\n"
	      "  --tp T --pp P --zero Z parallelism [the run's; without results the model's\n"
	      "                         MLPerf layout]\n"
	      "  --layout dlio|sharded  whose files: DLIO's (model state on data-parallel\n"
	      "                         rank 0's nodes) or torch.distributed.checkpoint's\n"
	      "                         (every rank its shard; ZeRO-3 unless --zero) [the run's;\n"
	      "                         dlio]\n"
	      "  --keep-last K          checkpoints kept at once (the trainer deletes older\n"
	      "                         ones): each node's capacity for them [the run's]\n"
	      "  --scale F              fraction of the real bytes, (0, 1] [1: full size]\n"
	      "  --drive-write RATE     stated per-drive write rate, e.g. 7GB/s (only without\n"
	      "                         RESULTS.pb: with one, the measured drives are used)\n"
	      "  --drive-read RATE      stated per-drive read rate, e.g. 14GB/s (idem; with\n"
	      "                         --drive-write: the restore [g] and the restart)\n"
	      "  --seed S               the band's bootstrap seed [1]; same inputs and seed,\n"
	      "                         same output\n"
	      "  --trials T             bootstrap replicates of each band [200]\n"
	      "  --json                 print {\"model\": ...} (shares as fractions 0..1)\n"
	      "  -h, --help             this help\n"
	      "Each option once; --key=VALUE works too.  Units: sizes 30.72TB 7.68TB 1TiB,\n"
	      "durations 50000h 30m 90s, rates 7GB/s 3500MB/s.\n"
	      "\n"
	      "examples:\n"
	      "  mpirun -np 16 ssdcluster configs/llm_ckpt.yaml --output /tmp/ck\n"
	      "  mpirun -np 8 ssdcluster configs/mlperf_training.yaml --output /tmp/tr\n"
	      "  ssdcluster model /tmp/tr/results.pb --nodes 1,16,128\n"
	      "  ssdcluster model /tmp/ck/results.pb\n"
	      "  ssdcluster model /tmp/ck/results.pb --nodes 64,512 --drives-per-node 4 --json\n"
	      "  ssdcluster model --drive-write 7GB/s --drive-read 14GB/s --nodes 512 --tp 8 --pp 16\n"
	      "\n"
	      "exit status: 0 printed; 2 a bad option, a results file that cannot be read,\n"
	      "is damaged or has no checkpoint, ingest or training phase (run a config with\n"
	      "workload: checkpoint, as configs/llm_ckpt.yaml, or workload: training, as\n"
	      "configs/mlperf_training.yaml), or whose only training phase emulates no\n"
	      "compute; 1 out of memory.\n",
	      f);
}

/* What the command line gave. */
struct model_args {
	struct sc_model_params params;
	const char *pb;			      /* RESULTS.pb, or NULL */
	bool help;
	bool seen[SC_MODEL_PARAMS_NKEYS]; /* each option once */
	bool stated;			      /* --drive-write or --drive-read */
	/* the options in order, applied again over the run's model: section */
	uint32_t nopts;
	char opt[SC_MODEL_PARAMS_NKEYS][64];
	const char *value[SC_MODEL_PARAMS_NKEYS];
};

/* "--key VALUE" or "--key=VALUE" at argv[*i] (advanced past its value).
 * 0 or -EINVAL with a message in err. */
static int take_param(struct model_args *a, int argc, char **argv, int *i, char *err,
		      size_t errlen)
{
	char opt[64];
	const char *arg = argv[*i], *eq = strchr(arg, '='), *value;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	int k;

	snprintf(opt, sizeof(opt), "%.*s", (int)n, arg);
	k = n < sizeof(opt) ? sc_model_params_key(opt) : -ENOENT;
	if (k < 0) {
		snprintf(err, errlen, "unknown option %s; see ssdcluster model --help", opt);
		return -EINVAL;
	}
	if (a->seen[k]) {
		snprintf(err, errlen, "%s given twice; give each option once", opt);
		return -EINVAL;
	}
	a->seen[k] = true;
	if (eq) {
		value = eq + 1;
	} else if (*i + 1 < argc) {
		value = argv[++*i];
	} else {
		snprintf(err, errlen, "%s needs a value; see ssdcluster model --help", opt);
		return -EINVAL;
	}
	if (!strcmp(opt, "--drive-write") || !strcmp(opt, "--drive-read"))
		a->stated = true;
	snprintf(a->opt[a->nopts], sizeof(a->opt[0]), "%s", opt);
	a->value[a->nopts++] = value;
	return sc_model_params_set(&a->params, opt, value, err, errlen);
}

/* Parses argv (what follows "model").  0 or -EINVAL with a message. */
static int parse_args(struct model_args *a, int argc, char **argv, char *err, size_t errlen)
{
	bool json = false;

	memset(a, 0, sizeof(*a));
	sc_model_params_default(&a->params);
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		int rc;

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			a->help = true;
		} else if (!strcmp(arg, "--json")) {
			if (json) {
				snprintf(err, errlen, "--json given twice; give each option once");
				return -EINVAL;
			}
			json = true;
		} else if (!strncmp(arg, "--", 2)) {
			rc = take_param(a, argc, argv, &i, err, errlen);
			if (rc)
				return rc;
		} else if (arg[0] == '-' && arg[1]) {
			snprintf(err, errlen, "unknown option %s; see ssdcluster model --help", arg);
			return -EINVAL;
		} else if (a->pb) {
			snprintf(err, errlen, "unexpected argument %s: give at most one results file "
					      "(ssdcluster model DIR/results.pb)",
				 arg);
			return -EINVAL;
		} else {
			a->pb = arg;
		}
	}
	a->params.json = json;
	return 0;
}

/* Results file or stated figures, not both, not neither.  0 or -EINVAL. */
static int check_source(const struct model_args *a, char *err, size_t errlen)
{
	if (a->pb && a->stated) {
		snprintf(err, errlen,
			 "%s and --drive-write/--drive-read: the stated drive figures are for "
			 "sizing without a results file; with %s the measured drives are used "
			 "(give one or the other)",
			 a->pb, a->pb);
		return -EINVAL;
	}
	if (!a->pb && !(a->params.drive_write_bytes_per_s > 0)) {
		snprintf(err, errlen,
			 "no results file and no --drive-write: give a run's results.pb "
			 "(ssdcluster model DIR/results.pb), or state the drive (ssdcluster model "
			 "--drive-write 7GB/s [--drive-read 14GB/s])");
		return -EINVAL;
	}
	return 0;
}

/* The parameters for rec: the defaults, the run's model: section (when its
 * config had one), then the command line's options.  0 or -EINVAL. */
static int run_params(const struct model_args *a, const struct sc_run_record *rec,
		      struct sc_model_params *p, char *err, size_t errlen)
{
	int rc = 0;

	sc_model_params_default(p);
	for (uint32_t i = 0; !rc && i < rec->plan.nmodel; i++)
		rc = sc_model_params_set(p, rec->plan.model[i].key, rec->plan.model[i].value, err,
					 errlen);
	for (uint32_t i = 0; !rc && i < a->nopts; i++)
		rc = sc_model_params_set(p, a->opt[i], a->value[i], err, errlen);
	p->json = a->params.json;
	return rc;
}

/* Projects from the results file a->pb.  0 or an exit status, the message
 * printed. */
static int project_measured(const struct model_args *a, struct sc_model_projection *out)
{
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_model_measured m;
	struct sc_model_params p;
	char err[MODEL_ERR_MAX];
	int rc;

	rc = sc_results_read(a->pb, &rec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", a->pb, err);
		return rc == -ENOMEM ? EXIT_NOMEM : EXIT_BAD_INPUT;
	}
	if (err[0])
		fprintf(stderr, "ssdcluster: warning: %s: %s\n", a->pb, err);
	sc_run_figures_init(&fg);
	rc = run_params(a, &rec, &p, err, sizeof(err));
	if (!rc)
		rc = sc_run_figures_update(&fg, &rec);
	if (!rc)
		rc = sc_model_measured_from_record(&rec, &fg, &m, err, sizeof(err));
	sc_run_figures_exit(&fg);
	sc_run_record_exit(&rec);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", a->pb,
			rc == -ENOMEM ? strerror(ENOMEM) : err);
		return rc == -ENOMEM ? EXIT_NOMEM : EXIT_BAD_INPUT;
	}
	rc = sc_model_project(&m, &p, out, err, sizeof(err));
	sc_model_measured_free(&m);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s: %s\n", a->pb,
			rc == -ENOMEM ? strerror(ENOMEM) : err);
		return rc == -ENOMEM ? EXIT_NOMEM : EXIT_BAD_INPUT;
	}
	return 0;
}

/* Prints the projection as asked.  0 or EXIT_NOMEM. */
static int print_projection(const struct sc_model_projection *p)
{
	size_t len;
	char *text;

	if (!p->params.json) {
		sc_report_model_table(stdout, p);
		return 0;
	}
	text = sc_report_model_json_text(p, &len);
	if (!text) {
		fprintf(stderr, "ssdcluster: model: %s\n", strerror(ENOMEM));
		return EXIT_NOMEM;
	}
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
}

int sc_report_model_command(int argc, char **argv)
{
	static struct model_args a;		  /* large: off the stack */
	static struct sc_model_projection proj;
	char err[MODEL_ERR_MAX];
	int rc;

	if (parse_args(&a, argc, argv, err, sizeof(err)) ||
	    (!a.help && check_source(&a, err, sizeof(err)))) {
		fprintf(stderr, "ssdcluster: model: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (a.help) {
		sc_report_model_usage(stdout);
		return 0;
	}
	if (a.pb) {
		rc = project_measured(&a, &proj);
		if (rc)
			return rc;
	} else {
		rc = sc_model_project(NULL, &a.params, &proj, err, sizeof(err));
		if (rc) {
			const char *msg = rc == -ENOMEM ? strerror(ENOMEM) : err;

			/* most of the projection's messages begin with "model: " */
			fprintf(stderr, "ssdcluster: %s%s\n",
				strncmp(msg, "model: ", 7) ? "model: " : "", msg);
			return rc == -ENOMEM ? EXIT_NOMEM : EXIT_BAD_INPUT;
		}
	}
	return print_projection(&proj);
}
