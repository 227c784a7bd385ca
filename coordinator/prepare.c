/* prepare.c -- between the command line and the first phase: rank 0 loads
 * the plan and names the run, every rank checks its target and makes (or
 * opens) its run directory, which it removes again after the last phase. */
#include "prepare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "verify.h"
#include "cluster/rankmsg.h"
#include "config/config.h"
#include "fio/load.h"
#include "config/validate.h"
#include "report/report.h"

/* Room for a config error (file:line:col and the offending value). */
#define ERR_MAX 8192
/* Room for one rank's message about its target or run directory. */
#define MSG_MAX 1024

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

/* Appends "ssdcluster: LINE" to sf->msg for each line of text. */
static void shortfall_add(struct sc_shortfall *sf, const char *text)
{
	const char *line = text;

	while (*line) {
		size_t used = strlen(sf->msg), n = strcspn(line, "\n");

		snprintf(sf->msg + used, sizeof(sf->msg) - used, "ssdcluster: %.*s\n", (int)n,
			 line);
		line += n;
		if (*line)
			line++;
	}
	sf->any = true;
}

int sc_prepare_plan(struct sc_cluster *c, const struct sc_cli *cli, struct sc_plan *plan,
		    struct sc_place *places, struct sc_shortfall *sf, uint8_t **packed,
		    size_t *packed_len)
{
	struct sc_config *cfg = NULL;
	struct sc_fio_yaml fy = {0};
	char *err = malloc(ERR_MAX), run_id[SC_CLI_RUN_ID_MAX + 1], ypath[4096] = "";
	int rc;

	if (!err)
		return SC_EXIT_RUN_FAILED;
	if (cli->fio)
		rc = sc_fio_config_load(&cfg, cli->config, cli->sets, cli->nsets,
					cli->allow_destroy, &fy, ypath, sizeof(ypath),
					cli->quiet ? NULL : stderr, err, ERR_MAX);
	else
		rc = sc_config_load(&cfg, cli->config, cli->sets, cli->nsets, err, ERR_MAX);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s\n", err);
		free(err);
		return SC_EXIT_BAD_INPUT;
	}
	sc_config_take_plan(cfg, plan);
	if (cli->fio) { /* the job file is what was run, not its config's copy */
		free(plan->config_path);
		plan->config_path = strdup(cli->config);
	}
	plan->allow_destroy = cli->allow_destroy;
	if (cli->run_id)
		snprintf(run_id, sizeof(run_id), "%s", cli->run_id);
	rc = cli->run_id ? 0 : make_run_id(run_id, sizeof(run_id));
	plan->run_id = rc ? NULL : strdup(run_id);
	rc = plan->run_id ? sc_validate_layout(cfg, plan, c, places, err, ERR_MAX) : -ENOMEM;
	if (!rc)
		rc = sc_validate_capacity(cfg, plan, c, places, err, ERR_MAX);
	if (rc && cli->fio)
		sc_fio_yaml_where(&fy, ypath, err, ERR_MAX);
	if (rc == -ENOSPC && cli->dry_run) {
		shortfall_add(sf, err);
		rc = 0;
	}
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
		bool bad = rc == -EINVAL || rc == -ENOSPC;

		fprintf(stderr, "ssdcluster: %s\n", bad ? err : strerror(-rc));
		rc = bad ? SC_EXIT_BAD_INPUT : SC_EXIT_RUN_FAILED;
	}
	sc_config_destroy(cfg);
	sc_fio_yaml_exit(&fy);
	free(err);
	return rc;
}

void sc_prepare_outdir(const struct sc_cli *cli, const struct sc_plan *plan, char *buf,
		       size_t len)
{
	time_t now;
	struct tm tm;

	if (cli->output) {
		snprintf(buf, len, "%s", cli->output);
	} else if (sc_verify_only_run(plan)) {
		now = time(NULL);
		localtime_r(&now, &tm);
		snprintf(buf, len, "ssdcluster-results/%s-verify-%04d%02d%02d-%02d%02d%02d",
			 plan->run_id, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
			 tm.tm_min, tm.tm_sec);
	} else {
		snprintf(buf, len, "ssdcluster-results/%s", plan->run_id);
	}
}

int sc_prepare_results_dir(struct sc_cluster *c, const struct sc_cli *cli,
			   const struct sc_plan *plan, const char *outdir, struct sc_outdir *od)
{
	char *err;
	int rc = 0;

	memset(od, 0, sizeof(*od));
	if (c->rank == 0) {
		err = malloc(ERR_MAX);
		rc = err ? sc_outdir_check(od, outdir, cli->output != NULL, plan, c->host, err,
					   ERR_MAX)
			 : -ENOMEM;
		if (!rc)
			rc = sc_outdir_create(od, err, ERR_MAX);
		if (rc)
			fprintf(stderr, "ssdcluster: %s; nothing was run\n",
				err ? err : strerror(-rc));
		free(err);
	}
	return sc_cluster_bcast_int(c, rc ? SC_EXIT_BAD_INPUT : 0);
}

int sc_prepare_targets(struct sc_cluster *c, const struct sc_plan *plan,
		       const struct sc_place *place, bool dry_run, int *claim,
		       struct sc_shortfall *sf)
{
	char msg[MSG_MAX] = "";
	int rc = sc_validate_local(plan, place, c->host, claim, &sf->avail_bytes, msg, sizeof(msg));
	bool short_here = dry_run && rc == -ENOSPC;
	char *joined;

	if (!sc_cluster_all_ok(c, rc == 0 || short_here)) {
		sc_rankmsg_print(c, msg);
		return SC_EXIT_BAD_INPUT;
	}
	if (!dry_run || sc_cluster_all_ok(c, !short_here))
		return 0;
	/* A dry run names what falls short after its plan, once a node and
	 * target: the node's ranks there all need the same and see the same. */
	joined = calloc(1, SC_PREPARE_SHORT_MAX);
	if (!joined)
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	sc_rankmsg_join(c, short_here && place->slot == 0 ? msg : "", joined,
			SC_PREPARE_SHORT_MAX);
	if (c->rank == 0)
		shortfall_add(sf, joined);
	free(joined);
	return 0;
}

/* Rank 0: the plan of a dry run, with what each rank's target holds
 * (avail[rank]).  0 or an exit status. */
static int report_dry_plan(struct sc_cluster *c, const struct sc_plan *plan,
			   const struct sc_place *places, const uint64_t *avail,
			   const char *outdir)
{
	struct sc_dry_rank *ranks = calloc((size_t)c->nranks, sizeof(*ranks));
	char err[MSG_MAX] = "";
	int rc;

	if (!ranks)
		return SC_EXIT_RUN_FAILED;
	for (int r = 0; r < c->nranks; r++) {
		ranks[r].host = c->hosts[r];
		ranks[r].node = c->node_of[r];
		ranks[r].place = places[r];
		ranks[r].avail_bytes = avail[r];
	}
	rc = sc_report_plan(outdir, plan, ranks, (uint32_t)c->nranks, err, sizeof(err));
	free(ranks);
	if (rc) {
		fprintf(stderr, "ssdcluster: %s\n", err);
		return SC_EXIT_RUN_FAILED;
	}
	printf("plan written to %s/plan.json (dry run: no I/O was done)\n", outdir);
	return 0;
}

int sc_prepare_dry_run(struct sc_cluster *c, const struct sc_plan *plan,
		       const struct sc_place *places, const char *outdir,
		       const struct sc_shortfall *sf)
{
	uint8_t mine[sizeof(uint64_t)], **bufs = NULL;
	size_t *lens = NULL;
	uint64_t *avail = NULL;
	int status = 0;

	memcpy(mine, &sf->avail_bytes, sizeof(mine));
	if (sc_cluster_gather(c, mine, sizeof(mine), &bufs, &lens))
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	if (c->rank == 0) {
		avail = calloc((size_t)c->nranks, sizeof(*avail));
		for (int r = 0; avail && r < c->nranks; r++) {
			if (lens[r] == sizeof(*avail))
				memcpy(&avail[r], bufs[r], sizeof(*avail));
		}
		status = avail ? report_dry_plan(c, plan, places, avail, outdir)
			       : SC_EXIT_RUN_FAILED;
		if (!status && sf->any) {
			fflush(stdout);
			fputs(sf->msg, stderr);
			fprintf(stderr, "ssdcluster: dry run: the plan needs more than the target "
					"holds (\"shortfall\" in %s/plan.json); a run would be "
					"refused\n", outdir);
			status = SC_EXIT_BAD_INPUT;
		}
		free(avail);
		sc_cluster_free_gathered(c, bufs, lens);
	}
	return sc_cluster_bcast_int(c, status);
}

/* Every rank of a run that re-reads a kept run: opens the kept run
 * directory of its directory target, creating nothing. */
static int open_kept_dirs(struct sc_cluster *c, const struct sc_plan *plan,
			  const struct sc_place *place, struct sc_rundir *rd)
{
	char msg[MSG_MAX] = "";
	int rc = 0;

	if (sc_rundir_needed(plan, place->target))
		rc = sc_rundir_open_kept(rd, plan, place, msg, sizeof(msg));
	if (sc_cluster_all_ok(c, rc == 0))
		return 0;
	sc_rankmsg_print(c, msg);
	return SC_EXIT_BAD_INPUT;
}

/* Every rank: the key only this run's ranks know, proving a directory is
 * this run's (rank 0 draws it); key holds SC_RUNDIR_KEY_LEN bytes. */
static void share_key(struct sc_cluster *c, char *key)
{
	uint8_t *buf = NULL;
	size_t len = 0;

	if (c->rank == 0) {
		buf = malloc(SC_RUNDIR_KEY_LEN);
		if (!buf || sc_rundir_random_hex((char *)buf, SC_RUNDIR_KEY_BYTES))
			sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
		len = SC_RUNDIR_KEY_LEN;
	}
	if (sc_cluster_bcast(c, &buf, &len) || len != SC_RUNDIR_KEY_LEN)
		sc_cluster_abort(c, SC_EXIT_RUN_FAILED);
	memcpy(key, buf, SC_RUNDIR_KEY_LEN - 1);
	free(buf);
}

/* Every rank of a run that writes: makes (slot 0 of each node) and joins
 * the run directory of its directory target. */
static int make_run_dirs(struct sc_cluster *c, const struct sc_plan *plan,
			 const struct sc_place *place, struct sc_rundir *rd)
{
	bool needed = sc_rundir_needed(plan, place->target);
	char msg[MSG_MAX] = "", key[SC_RUNDIR_KEY_LEN] = "";
	int rc = 0;

	share_key(c, key);
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
	sc_rankmsg_print(c, msg);
	rc = sc_rundir_remove(rd);
	if (rc)
		fprintf(stderr, "ssdcluster: rank %d: %s\n", c->rank,
			sc_rundir_left_text(rd, rc, msg, sizeof(msg)));
	return SC_EXIT_BAD_INPUT;
}

int sc_prepare_dirs(struct sc_cluster *c, const struct sc_plan *plan,
		    const struct sc_place *place, struct sc_rundir *rd)
{
	return sc_verify_only_run(plan) ? open_kept_dirs(c, plan, place, rd)
					: make_run_dirs(c, plan, place, rd);
}

int sc_prepare_remove_dirs(struct sc_cluster *c, const struct sc_plan *plan,
			   const struct sc_place *place, struct sc_rundir *rd)
{
	char msg[MSG_MAX];
	int rc;

	if (!plan || !place || !rd || plan->targets[place->target].keep)
		return 0;
	rc = sc_rundir_remove(rd);
	if (!rc)
		return 0;
	fprintf(stderr, "ssdcluster: rank %d: %s; the run counts as failed\n", c->rank,
		sc_rundir_left_text(rd, rc, msg, sizeof(msg)));
	return 1;
}
