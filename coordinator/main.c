/* main.c -- ssdcluster: set up the cluster, check the plan, run every phase,
 * keep rank 0's results on disk after each one.  The only file that ends
 * the process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../proto/codec.h"
#include "../worker/job.h"
#include "../worker/layout.h"
#include "../worker/rundir.h"
#include "../worker/verify.h"
#include "aggregate.h"
#include "cli.h"
#include "cluster.h"
#include "config.h"
#include "phase.h"
#include "progress.h"
#include "report.h"
#include "report_cmd.h"
#include "validate.h"

enum { EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2 };

#define ERR_MAX 8192

/* Before MPI is up, only the process that will be rank 0 should print:
 * launchers tell each process its rank in the environment. */
static int launcher_rank(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
					   "SLURM_PROCID"};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return atoi(v);
	}
	return 0;
}

/* Random bits in a run id: nobody can guess a run's directory before it
 * exists. */
#define RUN_ID_RANDOM_BYTES 8u

/* The date and time, then 64 random bits: 20250101-120000-0123456789abcdef. */
static int make_run_id(char *buf, size_t len)
{
	char hex[2 * RUN_ID_RANDOM_BYTES + 1];
	time_t now = time(NULL);
	struct tm tm;
	int rc = sc_rundir_random_hex(hex, RUN_ID_RANDOM_BYTES);

	if (rc)
		return rc;
	localtime_r(&now, &tm);
	snprintf(buf, len, "%04d%02d%02d-%02d%02d%02d-%s", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, hex);
	return 0;
}

/* A verify-only run's default output: "ssdcluster-results/RUN_ID-verify-
 * YYYYmmdd-HHMMSS", beside the kept run's own. */
static void verify_outdir(char *buf, size_t len, const char *run_id)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	snprintf(buf, len, "ssdcluster-results/%s-verify-%04d%02d%02d-%02d%02d%02d", run_id,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static int64_t unix_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Rank 0: load and check the config, place every rank, pack the plan.
 * Returns 0 or an exit status, with the message printed. */
static int prepare_plan(struct sc_cluster *c, const struct sc_cli *cli, struct sc_plan *plan,
			struct sc_place *places, uint8_t **packed, size_t *packed_len)
{
	struct sc_config *cfg = NULL;
	char *err = malloc(ERR_MAX), run_id[SC_CLI_RUN_ID_MAX + 1];
	int rc;

	if (!err)
		return EXIT_RUN_FAILED;
	rc = sc_config_load(&cfg, cli->config, cli->sets, cli->nsets, err, ERR_MAX);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s\n", err);
		free(err);
		return EXIT_BAD_INPUT;
	}
	sc_config_take_plan(cfg, plan);
	plan->allow_destroy = cli->allow_destroy;
	if (cli->run_id)
		snprintf(run_id, sizeof(run_id), "%s", cli->run_id);
	rc = cli->run_id ? 0 : make_run_id(run_id, sizeof(run_id));
	plan->run_id = rc ? NULL : strdup(run_id);
	rc = plan->run_id ? sc_validate_layout(cfg, plan, c, places, err, ERR_MAX) : -ENOMEM;
	if (!rc && !cli->run_id && sc_verify_only_run(plan)) {
		snprintf(err, ERR_MAX,
			 "%s: every phase is verify_only, which re-reads a kept run: name it with "
			 "--run-id ID (the id the writing run was given, with keep: true)",
			 cli->config);
		rc = -EINVAL;
	}
	if (!rc)
		rc = sc_plan_pack(plan, packed, packed_len);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s\n", rc == -EINVAL ? err : strerror(-rc));
		rc = rc == -EINVAL ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	sc_config_destroy(cfg);
	free(err);
	return rc;
}

/* Every rank: rank 0 prints each rank's message (those not empty). */
static void print_rank_errors(struct sc_cluster *c, const char *msg)
{
	char **all = NULL;

	if (sc_cluster_gather_strings(c, msg, &all) || c->rank != 0)
		return;
	for (int r = 0; r < c->nranks; r++)
		if (all[r][0])
			fprintf(stderr, "ssdcluster: rank %d: %s\n", r, all[r]);
	sc_cluster_free_strings(c, all);
}

/* Every rank: its target exists as planned and the destroy guard lets
 * the run write it (*claim: the device held O_EXCL, or -1).  Rank 0
 * prints what failed. */
static int check_targets(struct sc_cluster *c, const struct sc_plan *plan,
			 const struct sc_place *place, int *claim)
{
	char msg[1024] = "";
	int rc = sc_validate_local(plan, place, c->host, claim, msg, sizeof(msg));

	if (sc_cluster_all_ok(c, rc == 0))
		return 0;
	print_rank_errors(c, msg);
	return EXIT_BAD_INPUT;
}

/* Every rank: the run directories, made before the first phase by slot 0
 * of each node on a directory target, then opened and checked by every
 * rank there (see rundir.h).  An existing one that is not this run's is
 * refused with nothing written; what this rank made is removed again
 * when any rank fails.  0 or an exit status (rank 0 prints why). */
/* Every rank of a run that re-reads a kept run: opens the kept run
 * directory of its directory target, creating nothing.  0 or an exit
 * status (rank 0 prints why). */
static int open_kept_dirs(struct sc_cluster *c, const struct sc_plan *plan,
			  const struct sc_place *place, struct sc_rundir *rd)
{
	char msg[1024] = "";
	int rc = 0;

	if (sc_rundir_needed(plan, place->target))
		rc = sc_rundir_open_kept(rd, plan, place, msg, sizeof(msg));
	if (sc_cluster_all_ok(c, rc == 0))
		return 0;
	print_rank_errors(c, msg);
	return EXIT_BAD_INPUT;
}

static int make_run_dirs(struct sc_cluster *c, const struct sc_plan *plan,
			 const struct sc_place *place, struct sc_rundir *rd)
{
	bool needed = sc_rundir_needed(plan, place->target);
	char msg[1024] = "", key[SC_RUNDIR_KEY_LEN] = "";
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc = 0;

	/* the key only this run's ranks know, proving a directory is this run's */
	if (c->rank == 0) {
		buf = malloc(SC_RUNDIR_KEY_LEN);
		if (!buf || sc_rundir_random_hex((char *)buf, SC_RUNDIR_KEY_BYTES))
			sc_cluster_abort(c, EXIT_RUN_FAILED);
		len = SC_RUNDIR_KEY_LEN;
	}
	if (sc_cluster_bcast(c, &buf, &len) || len != SC_RUNDIR_KEY_LEN)
		sc_cluster_abort(c, EXIT_RUN_FAILED);
	memcpy(key, buf, SC_RUNDIR_KEY_LEN - 1);
	free(buf);

	if (needed && place->slot == 0)
		rc = sc_rundir_create(rd, plan, place, key, msg, sizeof(msg));
	/* -EEXIST: maybe another node's, on storage both see; joining decides */
	if (rc == -EEXIST)
		rc = 0;
	if (sc_cluster_all_ok(c, rc == 0)) {
		msg[0] = '\0';
		if (needed && rd->fd < 0)
			rc = sc_rundir_join(rd, plan, place, key, msg, sizeof(msg));
		if (sc_cluster_all_ok(c, rc == 0)) {
			if (sc_rundir_unmark(rd) != 0)
				fprintf(stderr,
					"ssdcluster: rank %d: cannot remove the marker in %s\n",
					c->rank, rd->path);
			return 0;
		}
	}
	print_rank_errors(c, msg);
	if (sc_rundir_remove(rd) != 0)
		fprintf(stderr, "ssdcluster: rank %d: could not remove %s\n", c->rank, rd->path);
	return EXIT_BAD_INPUT;
}

static int dry_run(struct sc_cluster *c, const struct sc_plan *plan,
		   const struct sc_place *places, const char *outdir)
{
	struct sc_dry_rank *ranks = calloc((size_t)c->nranks, sizeof(*ranks));
	char err[1024] = "";
	int rc;

	if (!ranks)
		return EXIT_RUN_FAILED;
	for (int r = 0; r < c->nranks; r++) {
		ranks[r].host = c->hosts[r];
		ranks[r].node = c->node_of[r];
		ranks[r].place = places[r];
	}
	rc = sc_report_plan(outdir, plan, ranks, (uint32_t)c->nranks, err, sizeof(err));
	free(ranks);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s\n", err);
		return EXIT_RUN_FAILED;
	}
	printf("plan written to %s/plan.json (dry run: no I/O was done)\n", outdir);
	return 0;
}

static uint64_t peak_rss_bytes(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? (uint64_t)ru.ru_maxrss * 1024 : 0;
}

/* Rank 0: adds a finished phase to the record, rewrites the results and
 * prints its row.  Returns 0 or -errno (message printed). */
static int keep_phase(struct sc_run_record *rec, struct sc_phase_record *ph, const char *outdir,
		      const struct sc_cli *cli)
{
	struct sc_phase_record *grown;
	struct sc_phase_figures fig;
	char err[1024];
	int rc;

	grown = realloc(rec->phases, (rec->nphases + 1) * sizeof(*grown));
	if (!grown) {
		sc_phase_record_exit(ph);
		return -ENOMEM;
	}
	rec->phases = grown;
	rec->phases[rec->nphases++] = *ph;
	rec->rank0_peak_rss_bytes = peak_rss_bytes();
	rc = sc_report_results(outdir, rec, err, sizeof(err));
	if (rc)
		fprintf(stderr, "ssdcluster: writing results: %s\n", err);
	if (!cli->quiet && sc_aggregate_phase(ph, &fig) == 0) {
		sc_progress_row(stdout, &rec->plan.phases[ph->phase], ph, &fig);
		sc_progress_workload(stdout, rec, ph, &fig);
		sc_phase_figures_exit(&fig);
	}
	return rc;
}

static int run_phases(struct sc_cluster *c, struct sc_plan *plan, const struct sc_place *place,
		      struct sc_rundir *rd, const char *outdir, const struct sc_cli *cli)
{
	struct sc_run_record rec;
	char *err = malloc(ERR_MAX);
	int status = 0, mismatched = 0;
	uint32_t phases_with_failed_ios = 0; /* rank 0: on_error continue */

	if (!err)
		sc_cluster_abort(c, EXIT_RUN_FAILED);
	memset(&rec, 0, sizeof(rec));
	if (c->rank == 0) {
		rec.version = strdup(SC_VERSION);
		rec.started_unix_ns = unix_now_ns();
		rec.nranks = (uint32_t)c->nranks;
		rec.nnodes = c->nnodes;
		rec.plan = *plan; /* the record owns the plan from here on */
		memset(plan, 0, sizeof(*plan));
		plan = &rec.plan;
		if (!cli->quiet) {
			printf("ssdcluster %s: %d rank(s) on %u node(s), %u phase(s), results in %s\n",
			       SC_VERSION, c->nranks, c->nnodes, plan->nphases, outdir);
			sc_progress_header(stdout);
		}
	}
	for (uint32_t p = 0; p < plan->nphases; p++) {
		struct sc_phase_record ph;
		int rc;

		struct sc_progress_live live = {.f = stdout, .plan = plan, .phase = p,
						.nranks = (uint32_t)c->nranks,
						.start_ns = sc_now_ns(), .last_ns = sc_now_ns()};
		struct sc_cluster_tick tick = {.fn = sc_progress_live_tick, .arg = &live};

		memset(&ph, 0, sizeof(ph));
		err[0] = '\0';
		/* a live line only where a person watches */
		if (c->rank == 0 && !cli->quiet && isatty(STDOUT_FILENO))
			sc_cluster_set_tick(c, &tick);
		rc = sc_phase_run(c, plan, p, place, rd, &ph, err, ERR_MAX);
		sc_cluster_set_tick(c, NULL);
		sc_progress_live_clear(&live);
		if (rc && rc != -EIO) {
			if (c->rank == 0)
				fprintf(stderr, "ssdcluster: phase %s could not start:\n%s\n",
					plan->phases[p].name, err);
			status = EXIT_RUN_FAILED;
			break;
		}
		if (c->rank == 0 && ph.status == SC_PHASE_ERRORS)
			phases_with_failed_ios++;
		if (c->rank == 0 && keep_phase(&rec, &ph, outdir, cli))
			status = EXIT_RUN_FAILED;
		/* bad data fails the run, but the later phases still run */
		if (c->rank == 0 && rec.nphases && rec.phases[rec.nphases - 1].phase == p &&
		    sc_progress_verify(stderr, &rec, &rec.phases[rec.nphases - 1]))
			mismatched = 1;
		if (rc == -EIO) {
			if (c->rank == 0)
				fprintf(stderr,
					"ssdcluster: phase %s %s; stopping (results of "
					"finished phases are in %s):\n%s\n",
					plan->phases[p].name,
					ph.status == SC_PHASE_ABORTED
					    ? "aborted on an error (on_error: abort)"
					    : "had I/O errors",
					outdir, err);
			status = EXIT_RUN_FAILED;
			break;
		}
		if (sc_cluster_bcast_int(c, status))
			break;
	}
	sc_cluster_barrier(c);
	/* only the run directory this rank made, with everything in it */
	if (!plan->targets[place->target].keep && sc_rundir_remove(rd) != 0)
		fprintf(stderr, "ssdcluster: rank %d: could not remove every run file in %s\n",
			c->rank, rd->path);
	if (c->rank == 0 && status == 0 && phases_with_failed_ios) {
		fprintf(stderr,
			"ssdcluster: %u phase(s) ran to their end with failed I/Os (on_error: "
			"continue); the run counts as failed (exit 1); results: %s/results.json\n",
			phases_with_failed_ios, outdir);
		status = EXIT_RUN_FAILED;
	}
	if (c->rank == 0) {
		if (mismatched && status == 0) {
			fprintf(stderr,
				"ssdcluster: verification found mismatches; the run failed (results "
				"in %s/results.json)\n",
				outdir);
			status = EXIT_RUN_FAILED;
		}
		if (!cli->quiet && status == 0)
			printf("results: %s/results.json\n", outdir);
		if (plan == &rec.plan)
			sc_run_record_exit(&rec);
	}
	free(err);
	return status;
}

int main(int argc, char **argv)
{
	struct sc_cluster c;
	struct sc_cli cli;
	struct sc_plan plan;
	struct sc_place *places = NULL, place;
	struct sc_rundir rd;
	uint8_t *packed = NULL;
	size_t packed_len = 0;
	char err[1024], outdir[4096];
	int status = 0, claim = -1;

	if (sc_cli_parse(argc, argv, &cli, err, sizeof(err))) {
		if (launcher_rank() == 0)
			fprintf(stderr, "ssdcluster: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (cli.help || cli.version) {
		if (launcher_rank() == 0) {
			if (cli.help)
				sc_cli_usage(stdout);
			else
				printf("ssdcluster %s\n", SC_VERSION);
		}
		return 0;
	}
	if (cli.report)
		return sc_report_command(cli.report, cli.output, cli.quiet);
	if (sc_cluster_init(&c, &argc, &argv)) {
		fprintf(stderr, "ssdcluster: cannot start MPI\n");
		return EXIT_RUN_FAILED;
	}
	memset(&plan, 0, sizeof(plan));
	sc_rundir_init(&rd);
	if (c.rank == 0) {
		places = calloc((size_t)c.nranks, sizeof(*places));
		status = places ? prepare_plan(&c, &cli, &plan, places, &packed, &packed_len)
				: EXIT_RUN_FAILED;
	}
	status = sc_cluster_bcast_int(&c, status);
	if (status)
		goto out;
	if (sc_cluster_bcast(&c, &packed, &packed_len))
		sc_cluster_abort(&c, EXIT_RUN_FAILED);
	if (c.rank != 0 && sc_plan_unpack(packed, packed_len, &plan) != 0) {
		fprintf(stderr, "ssdcluster: rank %d: the plan from rank 0 is corrupt\n", c.rank);
		sc_cluster_abort(&c, EXIT_RUN_FAILED);
	}
	if (sc_layout_place(&plan, c.host, (uint32_t)c.rank, (uint32_t)c.local_rank,
			    (uint32_t)c.local_nranks, &place) != 0)
		sc_cluster_abort(&c, EXIT_BAD_INPUT); /* rank 0 checked this already */
	if (cli.output)
		snprintf(outdir, sizeof(outdir), "%s", cli.output);
	else if (sc_verify_only_run(&plan)) /* not over the kept run's own results */
		verify_outdir(outdir, sizeof(outdir), plan.run_id);
	else
		snprintf(outdir, sizeof(outdir), "ssdcluster-results/%s", plan.run_id);

	status = check_targets(&c, &plan, &place, &claim);
	if (status)
		goto out;
	if (cli.dry_run) {
		if (c.rank == 0)
			status = dry_run(&c, &plan, places, outdir);
		goto out;
	}
	status = sc_verify_only_run(&plan) ? open_kept_dirs(&c, &plan, &place, &rd)
					   : make_run_dirs(&c, &plan, &place, &rd);
	if (status)
		goto out;
	status = run_phases(&c, &plan, &place, &rd, outdir, &cli);
out:
	sc_rundir_exit(&rd);
	status = sc_cluster_all_ok(&c, status == 0) ? 0 : (status ? status : EXIT_RUN_FAILED);
	if (claim >= 0)
		close(claim); /* the device is free again once every rank is done */
	free(packed);
	free(places);
	sc_plan_exit(&plan);
	sc_cluster_exit(&c);
	return status;
}
