/* main.c -- ssdcluster: set up the cluster, check the plan, run every phase,
 * keep rank 0's results on disk after each one.  The only file that ends
 * the process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "job.h"
#include "layout.h"
#include "rundir.h"
#include "units.h"
#include "verify.h"
#include "analysis/aggregate.h"
#include "cli.h"
#include "cluster.h"
#include "config/config.h"
#include "interrupt.h"
#include "phase.h"
#include "progress.h"
#include "report/report.h"
#include "report/cmd.h"
#include "config/validate.h"

/* A signal ends the run with 128 + its number (sc_interrupt_exit_code). */
enum { EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2, EXIT_RANK_LOST = 3 };

/* When rank 0 ends the run after a wait gave up, how long it waits for the
 * other ranks to remove their run files: shorter when the launcher is
 * ending the job (it kills every rank 1 s after its SIGTERM). */
#define END_WAIT_NS 2000000000ull
#define END_WAIT_KILL_NS 200000000ull

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
	rec->rank0_peak_rss_bytes = sc_peak_rss_bytes();
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

/* Removes the run directory this rank made, with everything in it, unless
 * the target says keep (all NULL-safe: none made yet). */
static void remove_run_files(struct sc_cluster *c, const struct sc_plan *plan,
			     const struct sc_place *place, struct sc_rundir *rd)
{
	if (!plan || !place || !rd || plan->targets[place->target].keep)
		return;
	if (sc_rundir_remove(rd) != 0)
		fprintf(stderr, "ssdcluster: rank %d: could not remove every run file in %s\n",
			c->rank, rd->path);
}

/* What the cluster's on_lost needs to end the run (see on_lost). */
struct run_ctx {
	struct sc_run_record *rec;      /* rank 0 while phases run, else NULL */
	const struct sc_plan *plan;     /* NULL before every rank has it */
	const struct sc_place *place;   /* this rank's */
	const struct sc_place *places;  /* rank 0: every rank's */
	struct sc_rundir *rd;           /* this rank's run directory */
	const char *outdir;
	const struct sc_cli *cli;
	int64_t phase;                  /* the phase under way; -1 between phases */
	struct sc_progress_live *live;  /* rank 0's live line, or NULL */
};

/* "rank 1 (host a), rank 3 (host b)" for the ranks a wait was missing. */
static void late_list(const struct sc_cluster *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < c->nlate; i++) {
		int r = c->late[i];
		int n = snprintf(buf + used, len - used, "%srank %d (host %s)", i ? ", " : "", r,
				 c->hosts[r]);

		if (n < 0 || (size_t)n >= len - used) {
			snprintf(buf + (len > 5 ? len - 5 : 0), len > 5 ? 5 : len, "...");
			return;
		}
		used += (size_t)n;
	}
}

/* Rank 0: keeps the phase cut short as a record without measurements,
 * each late rank's row saying why. */
static void keep_lost_phase(struct sc_cluster *c, struct run_ctx *x, const char *why)
{
	struct sc_phase_record ph;
	enum sc_phase_status st = c->lost == -ETIMEDOUT ? SC_PHASE_TIMED_OUT : SC_PHASE_INTERRUPTED;

	if (!x->rec || x->phase < 0 ||
	    sc_phase_empty_record(c, (uint32_t)x->phase, x->places, st, &ph))
		return;
	for (uint32_t i = 0; i < c->nlate; i++)
		snprintf(ph.ranks[c->late[i]].error, sizeof(ph.ranks[0].error), "%.*s",
			 (int)sizeof(ph.ranks[0].error) - 1, why);
	keep_phase(x->rec, &ph, x->outdir, x->cli);
	x->phase = -1;
}

/*
 * A wait on other ranks gave up (cluster.h, "Deadlines"): a rank died or
 * hangs, or did not answer after a stop.  Rank 0 names the late ranks and
 * the phase, keeps the phase as timed_out (or interrupted) next to the
 * finished ones, removes its node's run files and ends every rank (exit
 * 3, or 128 + signal after a stop).  Another rank removes its own run files
 * and ends; it speaks only when its own deadline passed (rank 0 did not
 * end the run).
 */
static void on_lost(struct sc_cluster *c, void *arg)
{
	struct run_ctx *x = arg;
	int timed_out = c->lost == -ETIMEDOUT;
	int code = c->stop_sig ? sc_interrupt_exit_code(c->stop_sig) : EXIT_RANK_LOST;
	char late[1024], why[512], phase[96] = "", grace[32];

	if (c->lost == -ECONNABORTED) {
		/* rank 0 said what happened and ends the run */
		remove_run_files(c, x->plan, x->place, x->rd);
		sc_cluster_answer_end(c, code);
	}

	late_list(c, late, sizeof(late));
	if (x->live)
		sc_progress_live_clear(x->live);
	if (x->plan && x->phase >= 0)
		snprintf(phase, sizeof(phase), "phase %s: ", x->plan->phases[x->phase].name);
	if (!c->deadline_why[0])
		snprintf(c->deadline_why, sizeof(c->deadline_why), "%s after the wait began",
			 sc_fmt_duration(grace, sizeof(grace), SC_CLUSTER_WAIT_DEFAULT_NS));
	sc_fmt_duration(grace, sizeof(grace),
			c->stop_launcher ? SC_CLUSTER_STOP_GRACE_KILL_NS : SC_CLUSTER_STOP_GRACE_NS);
	if (timed_out)
		snprintf(why, sizeof(why), "did not finish %s by the deadline, %s: it died or hangs",
			 c->doing[0] ? c->doing : "its step", c->deadline_why);
	else
		snprintf(why, sizeof(why), "did not answer within %s of the stop (%s): it died or hangs",
			 grace, sc_interrupt_name(c->stop_sig));
	if (c->rank == 0) {
		if (timed_out)
			fprintf(stderr, "ssdcluster: %s%s %s.\n", phase,
				c->nlate ? late : "a rank (it had entered the step)", why);
		else
			fprintf(stderr, "ssdcluster: %sinterrupted by %s%s; %s %s.\n", phase,
				sc_interrupt_name(c->stop_sig),
				c->stop_launcher ? " from the launcher, which is ending the job" : "",
				c->nlate ? late : "a rank", why);
		keep_lost_phase(c, x, why);
		fprintf(stderr, "ssdcluster: ending the run (exit %d); results of finished phases are in %s\n",
			code, x->outdir && x->outdir[0] ? x->outdir : "(none yet)");
	} else if (timed_out) {
		fprintf(stderr, "ssdcluster: rank %d (host %s): %sno word from %s by the deadline "
			"while %s (%s); rank 0 did not end the run: it died or hangs\n",
			c->rank, c->host, phase, c->nlate ? late : "the other ranks",
			c->doing[0] ? c->doing : "waiting", c->deadline_why);
	}
	remove_run_files(c, x->plan, x->place, x->rd);
	/* rank 0 lets the other ranks remove their files first; after a
	 * stop, a rank other than 0 ends by itself (the launcher is ending
	 * the job, or rank 0 ends it) */
	if (c->rank == 0)
		sc_cluster_end_others(c, c->stop_launcher ? END_WAIT_KILL_NS : END_WAIT_NS);
	if (!timed_out && (c->rank != 0 || c->stop_launcher))
		sc_cluster_quit(c, code);
	sc_cluster_abort(c, code);
}

/* The cancel hook of untimed preparation: a stop anywhere. */
static int stop_requested(void *arg)
{
	return sc_cluster_poll(arg) != 0;
}

static int run_phases(struct sc_cluster *c, struct sc_plan *plan, const struct sc_place *place,
		      struct sc_rundir *rd, const char *outdir, const struct sc_cli *cli,
		      struct run_ctx *x)
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
		x->rec = &rec;
		x->plan = plan;
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
		x->phase = p;
		x->live = &live;
		rc = sc_phase_run(c, plan, p, place, rd, x->places, &ph, err, ERR_MAX);
		x->live = NULL;
		sc_cluster_set_tick(c, NULL);
		sc_progress_live_clear(&live);
		if (rc == -EINTR) {
			/* every rank agrees: keep what was measured, stop */
			if (c->rank == 0) {
				keep_phase(&rec, &ph, outdir, cli);
				fprintf(stderr,
					"ssdcluster: phase %s interrupted by %s%s; it is kept marked "
					"interrupted (results of finished phases are in %s)\n",
					plan->phases[p].name, sc_interrupt_name(c->stop_sig),
					c->stop_launcher ? " from the launcher" : "", outdir);
			}
			x->phase = -1;
			status = sc_interrupt_exit_code(c->stop_sig);
			break;
		}
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
		x->phase = -1;
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
		/* rank 0's status, and a stop any rank has seen, reach all */
		if (!sc_cluster_all_ok(c, status == 0))
			break;
		if (c->stop_sig && p + 1 < plan->nphases) {
			if (c->rank == 0)
				fprintf(stderr,
					"ssdcluster: interrupted by %s after phase %s (results of "
					"finished phases are in %s)\n",
					sc_interrupt_name(c->stop_sig), plan->phases[p].name, outdir);
			status = sc_interrupt_exit_code(c->stop_sig);
			break;
		}
	}
	x->phase = -1;
	sc_cluster_barrier(c);
	remove_run_files(c, plan, place, rd);
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
		x->rec = NULL;
		x->plan = NULL;
		if (plan == &rec.plan)
			sc_run_record_exit(&rec);
	}
	free(err);
	/* the launcher kills this process a moment after its SIGTERM, and
	 * MPI_Finalize would wait for it: once the files are gone, end now.
	 * Not before: the launcher kills every rank as soon as one ends. */
	if (c->stop_sig && c->stop_launcher) {
		sc_cluster_barrier(c);
		sc_cluster_quit(c, status ? status : sc_interrupt_exit_code(c->stop_sig));
	}
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
	char err[1024], outdir[4096] = "";
	int status = 0, claim = -1;
	struct run_ctx ctx = {.phase = -1, .cli = &cli, .outdir = outdir};
	struct sc_cluster_lost lost = {.fn = on_lost, .arg = &ctx};

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
	if (sc_interrupt_install() != 0)
		fprintf(stderr, "ssdcluster: rank %d: cannot handle SIGINT and SIGTERM\n", c.rank);
	sc_cluster_set_lost(&c, &lost);
	sc_run_set_cancel(stop_requested, &c);
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
	ctx.plan = &plan;
	ctx.place = &place;
	ctx.places = places;
	ctx.rd = &rd;
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
	status = run_phases(&c, &plan, &place, &rd, outdir, &cli, &ctx);
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
