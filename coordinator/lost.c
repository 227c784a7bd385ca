/* lost.c -- ending the run when a wait on other ranks gave up (cluster.h,
 * "Deadlines"): name the late ranks and the phase, keep the cut phase,
 * remove the run files, end every rank. */
#include "lost.h"

#include <errno.h>
#include <stdio.h>

#include "units.h"
#include "cluster/interrupt.h"
#include "outdir.h"
#include "lockstep.h"
#include "prepare.h"
#include "record.h"
#include "report/verdict_table.h"

/* When rank 0 ends the run after a wait gave up, how long it waits for the
 * other ranks to remove their run files: shorter when the launcher is
 * ending the job (it kills every rank 1 s after its SIGTERM). */
#define END_WAIT_NS	 (2 * SC_NS_PER_S)
#define END_WAIT_KILL_NS (SC_NS_PER_S / 5)

/* Room for the list of late ranks, and for why they are late. */
#define LATE_MAX 1024
#define WHY_MAX	 512

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
static void keep_lost_phase(struct sc_cluster *c, struct sc_lost_ctx *x, const char *why)
{
	struct sc_phase_record ph;
	enum sc_phase_status st = c->lost == -ETIMEDOUT ? SC_PHASE_TIMED_OUT : SC_PHASE_INTERRUPTED;

	if (!x->rec || x->phase < 0 ||
	    sc_phase_empty_record(c, (uint32_t)x->phase, x->places, st, &ph))
		return;
	for (uint32_t i = 0; i < c->nlate; i++)
		snprintf(ph.ranks[c->late[i]].error, sizeof(ph.ranks[0].error), "%.*s",
			 (int)sizeof(ph.ranks[0].error) - 1, why);
	sc_record_keep_phase(x->rec, x->fg, x->pace, &ph, x->outdir, x->cli->quiet);
	x->phase = -1;
}

/* Why the late ranks are late, as every message about them says it. */
static void late_why(struct sc_cluster *c, char *why, size_t len)
{
	char grace[32];

	if (!c->deadline_why[0])
		snprintf(c->deadline_why, sizeof(c->deadline_why), "%s after the wait began",
			 sc_fmt_duration(grace, sizeof(grace), SC_CLUSTER_WAIT_DEFAULT_NS));
	sc_fmt_duration(grace, sizeof(grace),
			c->stop_launcher ? SC_CLUSTER_STOP_GRACE_KILL_NS : SC_CLUSTER_STOP_GRACE_NS);
	if (c->lost == -ETIMEDOUT)
		snprintf(why, len, "did not finish %s by the deadline, %s: it died or hangs",
			 c->doing[0] ? c->doing : "its step", c->deadline_why);
	else
		snprintf(why, len, "did not answer within %s of the stop (%s): it died or hangs",
			 grace, sc_interrupt_name(c->stop_sig));
}

/* Rank 0: says what happened, keeps the phase cut short. */
static void tell_lost(struct sc_cluster *c, struct sc_lost_ctx *x, const char *phase,
		      const char *late, const char *why, int code)
{
	if (c->lost == -ETIMEDOUT)
		fprintf(stderr, "ssdcluster: %s%s %s.\n", phase,
			c->nlate ? late : "a rank (it had entered the step)", why);
	else
		fprintf(stderr, "ssdcluster: %sinterrupted by %s%s; %s %s.\n", phase,
			sc_interrupt_name(c->stop_sig),
			c->stop_launcher ? " from the launcher, which is ending the job" : "",
			c->nlate ? late : "a rank", why);
	keep_lost_phase(c, x, why);
	/* lost between phases: the formatted files may lack the last ones */
	if (x->rec && x->pace && x->outdir)
		(void)sc_record_flush(x->rec, x->fg, x->pace, x->outdir);
	if (x->rec && x->rec->nphases)
		sc_report_verdict(x->fg, x->cli ? x->cli->quiet : false);
	if (x->outdir && sc_outdir_has_results(x->outdir))
		fprintf(stderr,
			"ssdcluster: ending the run (exit %d); results of finished phases are in "
			"%s\n",
			code, x->outdir);
	else
		fprintf(stderr, "ssdcluster: ending the run (exit %d); no phase finished, no "
				"results were written\n", code);
}

void sc_lost_end_run(struct sc_cluster *c, void *arg)
{
	struct sc_lost_ctx *x = arg;
	int timed_out = c->lost == -ETIMEDOUT;
	int code = c->stop_sig ? sc_interrupt_exit_code(c->stop_sig) : SC_EXIT_RANK_LOST;
	char late[LATE_MAX], why[WHY_MAX], phase[96] = "";

	if (c->lost == -ECONNABORTED) {
		/* rank 0 said what happened and ends the run */
		(void)sc_prepare_remove_dirs(c, x->plan, x->place, x->rd);
		sc_cluster_answer_end(c, code);
	}

	late_list(c, late, sizeof(late));
	if (x->live)
		sc_progress_live_clear(x->live);
	if (x->plan && x->phase >= 0)
		snprintf(phase, sizeof(phase), "phase %s: ", x->plan->phases[x->phase].name);
	late_why(c, why, sizeof(why));
	if (c->rank == 0)
		tell_lost(c, x, phase, late, why, code);
	else if (timed_out)
		fprintf(stderr, "ssdcluster: rank %d (host %s): %sno word from %s by the deadline "
			"while %s (%s); rank 0 did not end the run: it died or hangs\n",
			c->rank, c->host, phase, c->nlate ? late : "the other ranks",
			c->doing[0] ? c->doing : "waiting", c->deadline_why);
	(void)sc_prepare_remove_dirs(c, x->plan, x->place, x->rd);
	/* rank 0 lets the other ranks remove their files first; after a
	 * stop, a rank other than 0 ends by itself (the launcher is ending
	 * the job, or rank 0 ends it) */
	if (c->rank == 0)
		sc_cluster_end_others(c, c->stop_launcher ? END_WAIT_KILL_NS : END_WAIT_NS);
	if (!timed_out && (c->rank != 0 || c->stop_launcher))
		sc_cluster_quit(c, code);
	sc_cluster_abort(c, code);
}
