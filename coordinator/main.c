/* main.c -- ssdcluster's entry point and phase driver: set up the cluster,
 * prepare the run, run every phase in order and keep rank 0's results on
 * disk after each one.  The only file that ends the process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cluster/cluster.h"
#include "cluster/interrupt.h"
#include "codec.h"
#include "config/config.h"
#include "fio/load.h"
#include "layout.h"
#include "lockstep.h"
#include "lost.h"
#include "prepare.h"
#include "progress.h"
#include "progress_mode.h"
#include "record.h"
#include "report/cmd.h"
#include "report/fill_text.h"
#include "report/phase_rows.h"
#include "report/report.h"
#include "report/verdict_table.h"
#include "run.h"
#include "rundir.h"
#include "steady.h"
#include "training_cells.h"

/* Room for why a phase could not start or stopped (every rank's message). */
#define ERR_MAX 8192
/* Room for a command-line error. */
#define CLI_ERR_MAX 1024
/* Room for the results folder's path. */
#define OUTDIR_MAX 4096

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

/* The cancel hook of untimed preparation: a stop anywhere. */
static int stop_requested(void *arg)
{
	return sc_cluster_poll(arg) != 0;
}

/* What the phase driver carries from one phase to the next. */
struct driver {
	struct sc_cluster *c;
	struct sc_plan *plan;           /* rank 0: the record's (a search sets its trials) */
	const struct sc_place *place;
	struct sc_rundir *rd;
	const char *outdir;
	const struct sc_cli *cli;
	struct sc_lost_ctx *x;
	struct sc_run_record rec;       /* rank 0 */
	struct sc_run_figures fg;       /* rank 0: rec's figures, grown with it */
	struct sc_record_pace pace;     /* rank 0: when the formatted files are rewritten */
	char *err;                      /* ERR_MAX bytes: why a phase failed */
	int status;                     /* the run's exit status so far */
	int mismatched;                 /* rank 0: verification found bad data */
	bool stop_told;                 /* a stop cut the run short, and was said */
	bool results_there;             /* rank 0: results.json is where it is said to be */
	enum sc_progress_mode progress; /* rank 0: what it prints while a phase runs */
	uint32_t phases_with_failed_ios; /* rank 0: on_error continue */
};

/* Before the first phase: rank 0's record takes over the plan, and the
 * header is printed. */
static void begin_run(struct driver *d, struct sc_plan *plan)
{
	struct sc_cluster *c = d->c;

	memset(&d->rec, 0, sizeof(d->rec));
	sc_run_figures_init(&d->fg);
	memset(&d->pace, 0, sizeof(d->pace));
	d->plan = plan;
	if (c->rank != 0)
		return;
	sc_record_begin(&d->rec, c, plan); /* the record owns the plan from here on */
	d->plan = &d->rec.plan;
	d->x->rec = &d->rec;
	d->x->fg = &d->fg;
	d->x->pace = &d->pace;
	d->x->plan = d->plan;
	d->progress = sc_progress_mode_choose(d->cli->progress, d->cli->quiet);
	if (!d->cli->quiet) {
		printf("ssdcluster %s: %d rank(s) on %u node(s), %u phase(s), results in %s\n",
		       SC_VERSION, c->nranks, c->nnodes, d->plan->nphases, d->outdir);
		sc_rows_header(stdout);
	}
}

/* Rank 0's progress ticks while a phase runs, as d->progress says: tick
 * is filled for live, on *live; false for none. */
static bool progress_tick(const struct driver *d, struct sc_progress_live *live,
			  struct sc_cluster_tick *tick)
{
	switch (d->progress) {
	case SC_PROGRESS_LIVE:
		*tick = (struct sc_cluster_tick){.fn = sc_progress_live_tick, .arg = live};
		return true;
	case SC_PROGRESS_LINES:
		*tick = (struct sc_cluster_tick){.fn = sc_progress_lines_tick, .arg = live,
						 .interval_ns = sc_progress_lines_interval_ns()};
		return true;
	default:
		return false;
	}
}

/* Runs phase p on every rank, with rank 0's progress.  Returns what
 * sc_phase_run returns, its record in *ph. */
static int watch_phase(struct driver *d, uint32_t p, struct sc_phase_record *ph)
{
	struct sc_cluster *c = d->c;
	uint64_t now = sc_now_ns();
	struct sc_progress_live live = {.f = stdout, .plan = d->plan, .phase = p,
					.nranks = (uint32_t)c->nranks,
					.start_ns = now, .prev = {.ns = now}};
	struct sc_cluster_tick tick;
	int rc;

	memset(ph, 0, sizeof(*ph));
	d->err[0] = '\0';
	if (c->rank == 0 && progress_tick(d, &live, &tick))
		sc_cluster_set_tick(c, &tick);
	d->x->phase = p;
	d->x->live = &live;
	rc = sc_phase_run(c, d->plan, p, d->place, d->rd, d->x->places, ph, d->err, ERR_MAX);
	d->x->live = NULL;
	sc_cluster_set_tick(c, NULL);
	sc_progress_live_clear(&live);
	return rc;
}

/* A signal stopped phase p: every rank agrees; rank 0 keeps what was
 * measured.  Returns false: the run stops. */
static bool stop_interrupted(struct driver *d, uint32_t p, struct sc_phase_record *ph)
{
	struct sc_cluster *c = d->c;

	if (c->rank == 0) {
		sc_record_keep_phase(&d->rec, &d->fg, &d->pace, ph, d->outdir, d->cli->quiet);
		fprintf(stderr,
			"ssdcluster: phase %s interrupted by %s%s; it is kept marked "
			"interrupted (results of finished phases are in %s)\n",
			d->plan->phases[p].name, sc_interrupt_name(c->stop_sig),
			c->stop_launcher ? " from the launcher" : "", d->outdir);
	}
	d->x->phase = -1;
	d->status = sc_interrupt_exit_code(c->stop_sig);
	d->stop_told = true;
	return false;
}

/* Rank 0 keeps phase p, which ran (I/Os may have failed), and looks at
 * what its reads verified: bad data fails the run, but the later phases
 * still run. */
static void keep_ran(struct driver *d, uint32_t p, struct sc_phase_record *ph)
{
	struct sc_run_record *rec = &d->rec;

	if (d->c->rank == 0 && ph->status == SC_PHASE_ERRORS)
		d->phases_with_failed_ios++;
	if (d->c->rank == 0 &&
	    sc_record_keep_phase(rec, &d->fg, &d->pace, ph, d->outdir, d->cli->quiet))
		d->status = SC_EXIT_RUN_FAILED;
	d->x->phase = -1;
	if (d->c->rank == 0 && rec->nphases && rec->phases[rec->nphases - 1].phase == p) {
		/* options it ran without: a note, never a failure */
		sc_rows_io_opts(stderr, rec, &rec->phases[rec->nphases - 1]);
		/* fg lacks it only when out of memory: the run has failed */
		if (d->fg.nphases == rec->nphases &&
		    sc_rows_verify(stderr, rec, &d->fg, rec->nphases - 1))
			d->mismatched = 1;
	}
}

/* After phase p ended with rc (sc_phase_run): true when the next one
 * runs; otherwise d->status says why not. */
static bool settle_phase(struct driver *d, uint32_t p, struct sc_phase_record *ph, int rc)
{
	struct sc_cluster *c = d->c;
	const char *name = d->plan->phases[p].name;

	if (rc == -EINTR)
		return stop_interrupted(d, p, ph);
	if (rc && rc != -EIO) {
		if (c->rank == 0)
			fprintf(stderr, "ssdcluster: phase %s could not start:\n%s\n", name,
				d->err);
		d->status = SC_EXIT_RUN_FAILED;
		return false;
	}
	keep_ran(d, p, ph);
	if (rc == -EIO) {
		if (c->rank == 0)
			fprintf(stderr,
				"ssdcluster: phase %s %s; stopping (results of "
				"finished phases are in %s):\n%s\n",
				name,
				ph->status == SC_PHASE_ABORTED
				    ? "aborted on an error (on_error: abort)"
				    : "had I/O errors",
				d->outdir, d->err);
		d->status = SC_EXIT_RUN_FAILED;
		return false;
	}
	/* rank 0's status, and a stop any rank has seen, reach all */
	if (!sc_cluster_all_ok(c, d->status == 0))
		return false;
	if (c->stop_sig && p + 1 < d->plan->nphases) {
		if (c->rank == 0)
			fprintf(stderr,
				"ssdcluster: interrupted by %s after phase %s (results of "
				"finished phases are in %s)\n",
				sc_interrupt_name(c->stop_sig), name, d->outdir);
		d->status = sc_interrupt_exit_code(c->stop_sig);
		d->stop_told = true;
		return false;
	}
	return true;
}

/* Rank 0, --output-format fio-json: DIR/fio.json from the record.  0, or
 * -1 with the reason printed. */
static int write_fio_json(struct driver *d)
{
	char err[1024];

	if (sc_report_fio_json(d->outdir, &d->rec, &d->fg, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "ssdcluster: writing fio.json: %s\n", err);
	return -1;
}

/* Rank 0, once the run files are gone: the model, the verdict, and where
 * the results are, said only when results.json is there (else the run
 * failed: its results are lost).  Frees the record. */
static void close_record(struct driver *d)
{
	struct sc_run_record *rec = &d->rec;
	bool quiet = d->cli->quiet;

	/* the model rewrites the formatted files; else they are brought up to
	 * the record, if behind */
	if (rec->nphases &&
	    (rec->plan.nmodel ? sc_record_model(rec, &d->fg, &d->pace, d->outdir, quiet)
			      : sc_record_flush(rec, &d->fg, &d->pace, d->outdir)))
		d->status = SC_EXIT_RUN_FAILED;
	if (rec->nphases && d->cli->fio_json && write_fio_json(d))
		d->status = SC_EXIT_RUN_FAILED;
	sc_record_drives(rec, &d->fg, quiet);
	if (d->mismatched && d->status == 0) {
		fprintf(stderr, "ssdcluster: verification found mismatches; the run failed\n");
		d->status = SC_EXIT_RUN_FAILED;
	}
	if (!quiet)
		sc_report_stages_table(stdout, rec, &d->fg);
	/* printed whatever the status: the verdict of what was measured */
	if (rec->nphases && sc_report_verdict(&d->fg, quiet) == 1 && d->status == 0)
		d->status = SC_EXIT_VERDICT_FAILED;
	d->results_there = sc_outdir_has_results(d->outdir);
	if (rec->nphases && !d->results_there) {
		fprintf(stderr,
			"ssdcluster: %s/results.json is not there (removed, or never written): "
			"this run's results are lost\n",
			d->outdir);
		if (d->status == 0 || d->status == SC_EXIT_VERDICT_FAILED)
			d->status = SC_EXIT_RUN_FAILED;
	}
	if (!quiet && d->results_there)
		printf("results: %s/results.json\n", d->outdir);
	if (!quiet && rec->nphases)
		sc_report_verdict_exit(stdout, d->plan, d->status);
	d->x->rec = NULL;
	d->x->fg = NULL;
	d->x->pace = NULL;
	d->x->plan = NULL;
	sc_run_figures_exit(&d->fg);
	sc_record_pace_exit(&d->pace);
	if (d->plan == &d->rec.plan)
		sc_run_record_exit(&d->rec);
}

/* Every rank, at the very end: rank 0's status (a failed verdict, results
 * lost) and any stop reach every rank, so that each exits as mpirun
 * should.  A signal that came after the last phase, when the cleanup and
 * the results have finished, still makes it 128 + signal.  Returns the
 * exit status. */
static int agree_end(struct driver *d)
{
	struct sc_cluster *c = d->c;
	uint64_t status = (uint64_t)d->status;

	sc_cluster_all_ok_max(c, 1, &status);
	d->status = sc_interrupt_status((int)status, c->stop_sig);
	if (c->rank == 0 && c->stop_sig && !d->stop_told)
		fprintf(stderr,
			"ssdcluster: interrupted by %s after the last phase: the cleanup and the "
			"results were finished first%s%s%s; exit %d\n",
			sc_interrupt_name(c->stop_sig), d->results_there ? " (results in " : "",
			d->results_there ? d->outdir : "", d->results_there ? ")" : "", d->status);
	/* the launcher kills this process a moment after its SIGTERM, and
	 * MPI_Finalize would wait for it: once the files are gone, end now.
	 * Not before: the launcher kills every rank as soon as one ends. */
	if (c->stop_sig && c->stop_launcher) {
		sc_cluster_barrier(c);
		sc_cluster_quit(c, d->status);
	}
	return d->status;
}

/* After the last phase (or the one that stopped the run): the run files
 * go, rank 0 gives the verdict and frees the record.  Returns the exit
 * status. */
static int end_run(struct driver *d)
{
	struct sc_cluster *c = d->c;
	bool left;

	d->x->phase = -1;
	c->finishing = true;
	sc_cluster_barrier(c);
	left = sc_prepare_remove_dirs(c, d->plan, d->place, d->rd) != 0;
	/* what any rank's cleanup left fails the run before rank 0 states
	 * the status (the verdict's exit line, the results line) */
	if (!sc_cluster_all_ok(c, !left) && d->status == 0)
		d->status = SC_EXIT_RUN_FAILED;
	if (c->rank == 0 && d->status == 0 && d->phases_with_failed_ios) {
		fprintf(stderr,
			"ssdcluster: %u phase(s) ran to their end with failed I/Os (on_error: "
			"continue); the run counts as failed (exit 1)\n",
			d->phases_with_failed_ios);
		d->status = SC_EXIT_RUN_FAILED;
	}
	if (c->rank == 0)
		close_record(d);
	free(d->err);
	return agree_end(d);
}

/* Every rank: runs the plan's phases in order.  Returns the exit status. */
/* startup_ns: rank 0's start-up, for the record. */
static int run_phases(struct sc_cluster *c, struct sc_plan *plan, const struct sc_place *place,
		      struct sc_rundir *rd, const char *outdir, const struct sc_cli *cli,
		      struct sc_lost_ctx *x, int64_t startup_ns)
{
	struct driver d = {.c = c, .place = place, .rd = rd, .outdir = outdir, .cli = cli, .x = x};

	d.err = malloc(ERR_MAX);
	if (!d.err)
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	begin_run(&d, plan);
	d.rec.startup_ns = startup_ns;
	for (uint32_t p = 0; p < d.plan->nphases; p++) {
		struct sc_phase_record ph;
		int rc = watch_phase(&d, p, &ph);

		if (!settle_phase(&d, p, &ph, rc))
			break;
		/* a steady-state group whose drives are all steady: its
		 * remaining rounds are skipped */
		p = sc_steady_after_round(c, d.plan, &d.rec, &d.fg, p, cli->quiet);
		/* a search's next trial, or its trials left skipped */
		p = sc_training_after_cell(c, d.plan, &d.rec, &d.fg, p, cli->quiet);
	}
	return end_run(&d);
}

/* --help, --version, the report or the compare command: no MPI.  Returns the exit
 * status. */
static int run_without_mpi(const struct sc_cli *cli)
{
	if (cli->report)
		return sc_report_command_as(cli->report, cli->output, cli->quiet, cli->fio_json);
	if (cli->print_yaml)
		return sc_fio_print_yaml(cli->config, cli->sets, cli->nsets, cli->allow_destroy,
					 stdout);
	if (cli->ncompare[0])
		return sc_report_compare_command(cli->compare, cli->ncompare, cli->output,
						 cli->quiet);
	if (launcher_rank() == 0) {
		if (cli->help)
			sc_cli_usage(stdout);
		else
			printf("ssdcluster %s\n", SC_VERSION);
	}
	return 0;
}

/* Every rank: rank 0's plan reaches every rank, and each finds its place.
 * 0 or an exit status (ranks agree). */
static int share_plan(struct sc_cluster *c, const struct sc_cli *cli, struct sc_plan *plan,
		      struct sc_place *places, struct sc_shortfall *sf, struct sc_place *place)
{
	uint8_t *packed = NULL;
	size_t packed_len = 0;
	int status = 0;

	if (c->rank == 0)
		status = places ? sc_prepare_plan(c, cli, plan, places, sf, &packed, &packed_len)
				: SC_EXIT_RUN_FAILED;
	status = sc_cluster_bcast_int(c, status);
	if (status) {
		free(packed);
		return status;
	}
	if (sc_cluster_bcast(c, &packed, &packed_len))
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	if (c->rank != 0 && sc_plan_unpack(packed, packed_len, plan) != 0) {
		fprintf(stderr, "ssdcluster: rank %d: the plan from rank 0 is corrupt\n", c->rank);
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	}
	free(packed);
	if (sc_layout_place(plan, c->host, (uint32_t)c->rank, (uint32_t)c->local_rank,
			    (uint32_t)c->local_nranks, place) != 0)
		sc_cluster_abort(c, SC_EXIT_BAD_INPUT); /* rank 0 checked this already */
	return 0;
}

int main(int argc, char **argv)
{
	struct sc_cluster c;
	struct sc_cli cli;
	struct sc_plan plan;
	struct sc_place *places = NULL, place;
	struct sc_rundir rd;
	static struct sc_shortfall sf; /* rank 0's messages: too big for a stack frame */
	static struct sc_outdir od;    /* rank 0's results folder: as large */
	char err[CLI_ERR_MAX], outdir[OUTDIR_MAX] = "";
	int status = 0, claim = -1;
	int64_t startup_ns = 0;
	struct sc_lost_ctx ctx = {.phase = -1, .cli = &cli, .outdir = outdir};
	struct sc_cluster_lost lost = {.fn = sc_lost_end_run, .arg = &ctx};

	if (sc_cli_parse(argc, argv, &cli, err, sizeof(err))) {
		if (launcher_rank() == 0)
			fprintf(stderr, "ssdcluster: %s\n", err);
		return SC_EXIT_BAD_INPUT;
	}
	if (cli.model_argv)
		return sc_report_model_command(cli.model_argc, cli.model_argv);
	if (cli.keys_argv)
		return sc_config_keys_command(cli.keys_argc, cli.keys_argv);
	if (cli.help || cli.version || cli.report || cli.ncompare[0] || cli.print_yaml)
		return run_without_mpi(&cli);
	if (sc_cluster_init(&c, &argc, &argv)) {
		fprintf(stderr, "ssdcluster: cannot start MPI\n");
		return SC_EXIT_RUN_FAILED;
	}
	if (sc_interrupt_install() != 0)
		fprintf(stderr, "ssdcluster: rank %d: cannot handle SIGINT and SIGTERM\n", c.rank);
	sc_cluster_set_lost(&c, &lost);
	sc_run_set_cancel(stop_requested, &c);
	memset(&plan, 0, sizeof(plan));
	sc_rundir_init(&rd);
	if (c.rank == 0)
		places = calloc((size_t)c.nranks, sizeof(*places));
	status = share_plan(&c, &cli, &plan, places, &sf, &place);
	if (status)
		goto out;
	startup_ns = (int64_t)(sc_now_ns() - c.mpi_ready_ns);
	ctx.plan = &plan;
	ctx.place = &place;
	ctx.places = places;
	ctx.rd = &rd;
	sc_prepare_outdir(&cli, &plan, outdir, sizeof(outdir));
	status = sc_prepare_results_dir(&c, &cli, &plan, outdir, &od);
	if (status)
		goto out;
	status = sc_prepare_targets(&c, &plan, &place, cli.dry_run, &claim, &sf);
	if (status)
		goto out;
	if (cli.dry_run) {
		status = sc_prepare_dry_run(&c, &plan, places, outdir, &sf);
		goto out;
	}
	status = sc_prepare_dirs(&c, &plan, &place, &rd);
	if (status)
		goto out;
	status = run_phases(&c, &plan, &place, &rd, outdir, &cli, &ctx, startup_ns);
out:
	sc_rundir_exit(&rd);
	sc_outdir_discard(&od); /* made, and left empty: the run was refused */
	status = sc_cluster_all_ok(&c, status == 0) ? 0 : (status ? status : SC_EXIT_RUN_FAILED);
	/* a signal after that agreement came to this rank alone: the run is
	 * done, and it still ends as a signal ends it */
	status = sc_interrupt_status(status, c.stop_sig ? c.stop_sig : sc_interrupt_signal());
	if (claim >= 0)
		close(claim); /* the device is free again once every rank is done */
	free(places);
	sc_plan_exit(&plan);
	sc_cluster_exit(&c);
	return status;
}
