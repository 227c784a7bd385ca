/* projection.c -- a cluster model projection as a text table with its basis,
 * and as the JSON object "model". */
#include "projection.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_priv.h"
#include "units.h"

/* Columns and room of one printed table. */
#define TABLE_COLS 24
#define CELL_MAX   48
/* Percent in a share. */
#define PERCENT 100.0
/* From here on years print whole ("1360 y", not "1.36e+03 y"). */
#define YEARS_WHOLE 1000.0
/* Bytes in a TB, as drive capacities are sold. */
#define BYTES_PER_TB 1e12
/* AU the read bandwidth column is sized for, in percent. */
#define AU_TARGET_PERCENT 90

/* The names of the figures, for the Basis block and the JSON "basis". */
static const char *const fig_title[SC_MODEL_FIG_COUNT] = {
    "checkpoint time", "checkpoint policy", "sizing",	    "endurance",
    "ingest",	       "read bandwidth",    "restore time",
    "training: accelerators per host",
};
static const char *const fig_key[SC_MODEL_FIG_COUNT] = {
    "checkpoint_time", "policy", "sizing", "endurance", "ingest", "read_bandwidth", "restore_time",
    "training",
};

/* ------------------------------------------------------------- cells */

/* A table being filled: a header and the cells of each row. */
struct table {
	unsigned ncols, nrows;
	char hdr[TABLE_COLS][CELL_MAX];
	char cell[SC_MODEL_MAX_SIZES][TABLE_COLS][CELL_MAX];
};

/* Adds a column whose header is name with the footnote mark of figure fig
 * (fig < 0: no mark); a column with an empty name is not printed.
 * Returns its index. */
static unsigned add_col(struct table *t, const char *name, int fig)
{
	unsigned c = t->ncols++;

	if (fig >= 0 && *name)
		snprintf(t->hdr[c], CELL_MAX, "%.40s[%c]", name, 'a' + fig);
	else
		snprintf(t->hdr[c], CELL_MAX, "%s", name);
	return c;
}

/* Prints the columns first .. last - 1 of t after column 0 (the nodes),
 * each as wide as its widest cell; unnamed columns are left out. */
static void print_table(FILE *f, const struct table *t, unsigned first, unsigned last)
{
	size_t w[TABLE_COLS];

	for (unsigned c = 0; c < t->ncols; c++) {
		w[c] = strlen(t->hdr[c]);
		for (unsigned r = 0; r < t->nrows; r++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = strlen(t->cell[r][c]);
	}
	for (unsigned r = 0; r <= t->nrows; r++) {
		for (unsigned c = 0; c < last && c < t->ncols; c++) {
			if ((c && c < first) || !t->hdr[c][0])
				continue;
			fprintf(f, "%s%*s", c ? "  " : "", (int)w[c],
				r ? t->cell[r - 1][c] : t->hdr[c]);
		}
		fputc('\n', f);
	}
}

static void cell_dur(char *c, double ns)
{
	if (!isfinite(ns) || ns < 0)
		snprintf(c, CELL_MAX, "n/a");
	else
		sc_fmt_duration(c, CELL_MAX, (uint64_t)llround(ns));
}

/* A figure and its band: "1.07 s (978 ms..1.21 s)"; the figure alone
 * when no band was drawn. */
static void cell_band(char *c, double ns, double lo, double hi, uint32_t trials)
{
	char a[CELL_MAX], b[CELL_MAX], m[CELL_MAX];

	cell_dur(m, ns);
	if (!trials || !isfinite(lo) || !isfinite(hi)) {
		snprintf(c, CELL_MAX, "%s", m);
		return;
	}
	cell_dur(a, lo);
	cell_dur(b, hi);
	snprintf(c, CELL_MAX, "%.15s (%.12s..%.12s)", m, a, b);
}

static void cell_pct(char *c, double share)
{
	if (!isfinite(share))
		snprintf(c, CELL_MAX, "n/a");
	else
		snprintf(c, CELL_MAX, "%.3g %%", share * PERCENT);
}

/* Whether figure fig is given in row r: ingest figures at every size,
 * the others only where the layout fits. */
static bool row_has(const struct sc_model_projection *p, const struct sc_model_row *r,
		    enum sc_model_figure fig)
{
	if (!p->basis[fig].present)
		return false;
	return fig == SC_MODEL_FIG_INGEST || fig == SC_MODEL_FIG_READ_BW ||
	       fig == SC_MODEL_FIG_TRAINING || r->layout_fits;
}

/* ------------------------------------------------------------ tables */

/* Columns of the checkpoint table. */
enum ckpt_col {
	CK_NODES,
	CK_DP,
	CK_D,
	CK_BYTES,
	CK_MEAN,
	CK_P90,
	CK_TAIL,
	CK_RESTORE,
	CK_TAU,
	CK_WRITE,
	CK_LOST,
	CK_GOODPUT,
	/* endurance at the row's D, then the sizing answer and its endurance */
	CK_DWPD,
	CK_YEARS,
	CK_SIZING,
	CK_SIZED_OVERHEAD,
	CK_SIZED_MEAN,
	CK_SIZED_DWPD,
	CK_SIZED_YEARS,
	/* the checkpoint's bytes by node */
	CK_NODE_TOTAL,
	CK_NODE_MAX,
	CK_NODE_BUSIEST,
	CK_NODE_MEDIAN,
	CK_NCOLS
};

/* Whether a size lies beyond the measured samples: stated figures are
 * one constant drive, whose "samples" have no spread to run out of. */
static bool beyond(const struct sc_model_projection *p, const struct sc_model_row *r)
{
	return p->measured && row_has(p, r, SC_MODEL_FIG_CKPT) && r->ckpt.beyond_samples;
}

static void ckpt_header(struct table *t, const struct sc_model_projection *p)
{
	char name[CELL_MAX];

	add_col(t, "nodes", -1);
	add_col(t, "dp", -1);
	add_col(t, "drives/node", -1);
	add_col(t, "bytes/drive", -1);
	add_col(t, "ckpt mean", SC_MODEL_FIG_CKPT);
	add_col(t, "ckpt p90", SC_MODEL_FIG_CKPT);
	/* the exponential-tail alternative: in the JSON only (the fitted
	 * tail of the mean supersedes it) */
	add_col(t, "", SC_MODEL_FIG_CKPT);
	add_col(t, p->basis[SC_MODEL_FIG_RESTORE].present ? "restore mean" : "",
		SC_MODEL_FIG_RESTORE);
	add_col(t, "tau", SC_MODEL_FIG_POLICY);
	add_col(t, "writing", SC_MODEL_FIG_POLICY);
	add_col(t, "lost", SC_MODEL_FIG_POLICY);
	add_col(t, "goodput", SC_MODEL_FIG_POLICY);
	/* the row's D in the header: never to be read as the sized answer's */
	snprintf(name, sizeof(name), "writes/day at %u/node", p->params.drives_per_node);
	add_col(t, name, SC_MODEL_FIG_ENDURANCE);
	snprintf(name, sizeof(name), "lasts at %u/node", p->params.drives_per_node);
	add_col(t, name, SC_MODEL_FIG_ENDURANCE);
	snprintf(name, sizeof(name), "drives/node for %.3g%%", p->params.overhead_target * PERCENT);
	add_col(t, name, SC_MODEL_FIG_SIZING);
	add_col(t, "overhead there", SC_MODEL_FIG_SIZING);
	add_col(t, "ckpt mean there", SC_MODEL_FIG_SIZING);
	add_col(t, "writes/day there", SC_MODEL_FIG_ENDURANCE);
	add_col(t, "rating lasts there", SC_MODEL_FIG_ENDURANCE);
	add_col(t, "checkpoint", -1);
	add_col(t, "busiest node", -1);
	add_col(t, "busiest nodes", -1);
	add_col(t, "median node", -1);
}

/* Drive writes per day and the years the rating lasts, into two cells. */
static void cell_endurance(char *dwpd, char *years, const struct sc_model_endurance *e)
{
	snprintf(dwpd, CELL_MAX, "%.3g DWPD", e->writes_per_day);
	if (isfinite(e->years))
		snprintf(years, CELL_MAX, e->years < YEARS_WHOLE ? "%.3g y" : "%.0f y", e->years);
	else
		snprintf(years, CELL_MAX, "forever");
}

/* The sizing answer of row r and the figures at that D. */
static void sized_cells(char (*c)[CELL_MAX], const struct sc_model_projection *p,
			const struct sc_model_row *r)
{
	if (row_has(p, r, SC_MODEL_FIG_SIZING)) {
		if (r->sizing.drives_per_node)
			snprintf(c[CK_SIZING], CELL_MAX, "%u", r->sizing.drives_per_node);
		else
			snprintf(c[CK_SIZING], CELL_MAX, "none <= %u",
				 p->params.max_drives_per_node);
		cell_pct(c[CK_SIZED_OVERHEAD], r->sizing.overhead);
		cell_dur(c[CK_SIZED_MEAN], r->sizing.ckpt.mean_ns);
	}
	if (row_has(p, r, SC_MODEL_FIG_ENDURANCE))
		cell_endurance(c[CK_SIZED_DWPD], c[CK_SIZED_YEARS], &r->endurance_sized);
}

/* keep_last K: what the busiest node holds with K checkpoints kept. */
static void keep_lines(FILE *f, const struct sc_model_projection *p)
{
	char a[32];

	if (!p->params.keep_last)
		return;
	fprintf(f,
		"capacity for keep_last %u: up to %u checkpoints at once (the oldest goes once "
		"the newest is written); the busiest node holds",
		p->params.keep_last, p->params.keep_last + 1);
	for (uint32_t i = 0; i < p->nrows; i++)
		if (p->rows[i].layout_fits)
			fprintf(f, "%s %s at %u nodes", i ? "," : "",
				sc_fmt_bytes(a, sizeof(a), p->rows[i].keep_bytes_per_node),
				p->rows[i].nodes);
	fputs("\n", f);
}

/* The checkpoint's bytes by node of row r. */
static void node_cells(char (*c)[CELL_MAX], const struct sc_model_row *r)
{
	sc_fmt_bytes(c[CK_NODE_TOTAL], CELL_MAX, r->ckpt_bytes);
	sc_fmt_bytes(c[CK_NODE_MAX], CELL_MAX, r->node_bytes_max);
	snprintf(c[CK_NODE_BUSIEST], CELL_MAX, "%llu of %u", (unsigned long long)r->nodes_busiest,
		 r->nodes);
	sc_fmt_bytes(c[CK_NODE_MEDIAN], CELL_MAX, r->node_bytes_median);
}

/* The cells of row r in the checkpoint table: "-" where a figure is not
 * given. */
static void ckpt_row(char (*c)[CELL_MAX], const struct sc_model_projection *p,
		     const struct sc_model_row *r)
{
	for (unsigned i = 0; i < CK_NCOLS; i++)
		snprintf(c[i], CELL_MAX, "-");
	snprintf(c[CK_NODES], CELL_MAX, "%u", r->nodes);
	if (!r->layout_fits)
		return;
	snprintf(c[CK_DP], CELL_MAX, "%u", r->dp);
	snprintf(c[CK_D], CELL_MAX, "%u", r->drives_per_node);
	sc_fmt_bytes(c[CK_BYTES], CELL_MAX, r->drive_bytes_max);
	if (row_has(p, r, SC_MODEL_FIG_CKPT)) {
		cell_band(c[CK_MEAN], r->ckpt.mean_ns, r->ckpt.mean_low_ns, r->ckpt.mean_high_ns,
			  p->measured ? r->ckpt.trials : 0);
		cell_band(c[CK_P90], r->ckpt.p90_ns, r->ckpt.p90_low_ns, r->ckpt.p90_high_ns,
			  p->measured ? r->ckpt.trials : 0);
	}
	if (row_has(p, r, SC_MODEL_FIG_RESTORE) && r->has_restore)
		cell_band(c[CK_RESTORE], r->restore.mean_ns, r->restore.mean_low_ns,
			  r->restore.mean_high_ns, p->measured ? r->restore.trials : 0);
	if (row_has(p, r, SC_MODEL_FIG_POLICY)) {
		cell_dur(c[CK_TAU], r->policy.tau_ns);
		cell_pct(c[CK_WRITE], r->policy.write_share);
		cell_pct(c[CK_LOST], r->policy.lost_share);
		cell_pct(c[CK_GOODPUT], r->policy.goodput);
	}
	if (row_has(p, r, SC_MODEL_FIG_ENDURANCE))
		cell_endurance(c[CK_DWPD], c[CK_YEARS], &r->endurance);
	sized_cells(c, p, r);
	node_cells(c, r);
}

/* Columns of the ingest table. */
enum ingest_col { IN_NODES, IN_P50, IN_P99, IN_STALL, IN_AU, IN_READ, IN_NCOLS };

static void ingest_table(FILE *f, const struct sc_model_projection *p, struct table *t)
{
	char name[CELL_MAX];

	memset(t, 0, sizeof(*t));
	add_col(t, "nodes", -1);
	add_col(t, "step wait p50", SC_MODEL_FIG_INGEST);
	add_col(t, "step wait p99", SC_MODEL_FIG_INGEST);
	add_col(t, "P(step stalled)", SC_MODEL_FIG_INGEST);
	add_col(t, "AU", SC_MODEL_FIG_INGEST);
	snprintf(name, sizeof(name), "read/node for AU %d%%", AU_TARGET_PERCENT);
	add_col(t, name, SC_MODEL_FIG_READ_BW);
	for (uint32_t i = 0; i < p->nrows; i++) {
		const struct sc_model_row *r = &p->rows[i];
		char(*c)[CELL_MAX] = t->cell[t->nrows++];

		for (unsigned k = 0; k < IN_NCOLS; k++)
			snprintf(c[k], CELL_MAX, "-");
		snprintf(c[IN_NODES], CELL_MAX, "%u", r->nodes);
		if (row_has(p, r, SC_MODEL_FIG_INGEST)) {
			cell_dur(c[IN_P50], r->step_wait_p50_ns);
			cell_dur(c[IN_P99], r->step_wait_p99_ns);
			cell_pct(c[IN_STALL], r->p_step_stall);
			cell_pct(c[IN_AU], r->au);
		}
		if (row_has(p, r, SC_MODEL_FIG_READ_BW))
			sc_fmt_rate(c[IN_READ], CELL_MAX, r->read_bytes_per_s_node_au90);
	}
	fputs("\ningestion (a step waits for the slowest node's batch)\n", f);
	print_table(f, t, 1, IN_NCOLS);
}

/* A count of accelerators: "2", or "at least 4" for a lower bound. */
static void cell_feeds(char *c, uint32_t n, bool exact)
{
	snprintf(c, CELL_MAX, "%s%u", exact ? "" : "at least ", n);
}

/* Columns of the training node table. */
enum train_node_col { TN_NODE, TN_HOST, TN_ACC, TN_AU, TN_OWN, TN_READ, TN_BOUND, TN_FEEDS,
		      TN_NCOLS };

/* The measured nodes: what each read, whether its drives were the limit,
 * the accelerators they feed at the threshold. */
static void train_node_table(FILE *f, const struct sc_model_projection *p, struct table *t)
{
	char name[CELL_MAX];

	memset(t, 0, sizeof(*t));
	add_col(t, "node", -1);
	add_col(t, "host", -1);
	add_col(t, "accelerators", -1);
	add_col(t, "AU", -1);
	add_col(t, "AU without barrier waits", -1);
	add_col(t, "read in AU steps", -1);
	add_col(t, "drives", -1);
	snprintf(name, sizeof(name), "feeds at AU %.4g%%", p->train_step.au * PERCENT);
	add_col(t, name, SC_MODEL_FIG_TRAINING);
	for (uint32_t i = 0; i < p->ntrain_nodes_listed; i++) {
		const struct sc_model_train_node *n = &p->train_nodes[i];
		char(*c)[CELL_MAX] = t->cell[t->nrows++];

		snprintf(c[TN_NODE], CELL_MAX, "%u", n->node);
		snprintf(c[TN_HOST], CELL_MAX, "%.40s", n->host[0] ? n->host : "?");
		snprintf(c[TN_ACC], CELL_MAX, "%.6g", n->accelerators);
		cell_pct(c[TN_AU], n->au);
		cell_pct(c[TN_OWN], n->au_own);
		sc_fmt_rate(c[TN_READ], CELL_MAX, n->read_bytes_per_s);
		snprintf(c[TN_BOUND], CELL_MAX, "%s",
			 n->capacity_measured	    ? "the limit (capacity measured)"
			 : n->accels_storage_bound ? "the limit of some accelerators"
						  : "not the limit");
		cell_feeds(c[TN_FEEDS], n->feeds, n->capacity_measured);
	}
	fprintf(f,
		"\ntraining phase %s: %.6g accelerators on %u ranks and %u node(s), AU %.3g %% "
		"(threshold %.4g %%)\n",
		p->training_phase, p->train_accelerators, p->train_ranks, p->ntrain_nodes,
		p->train_au * PERCENT, p->train_step.au * PERCENT);
	sc_fmt_rate(name, sizeof(name), p->train_demand_bytes_per_s);
	{
		char b[CELL_MAX], c[CELL_MAX];

		sc_fmt_bytes(b, sizeof(b),
			     (uint64_t)llround(p->train_step.batch * p->train_step.sample_bytes));
		sc_fmt_duration(c, sizeof(c), p->train_step.computation_ns);
		fprintf(f,
			"demand of one accelerator at AU %.4g %%: batch %u x %.6g B = %s every %s / "
			"%.4g = %s\n",
			p->train_step.au * PERCENT, p->train_step.batch, p->train_step.sample_bytes,
			b, c, p->train_step.au, name);
	}
	print_table(f, t, 1, TN_NCOLS);
	if (p->ntrain_nodes > p->ntrain_nodes_listed)
		fprintf(f, "(the %u nodes that feed the fewest of %u)\n", p->ntrain_nodes_listed,
			p->ntrain_nodes);
}

/* Columns of the training table by cluster size. */
enum train_col { TR_NODES, TR_PER_HOST, TR_BAND, TR_CAP, TR_NCOLS };

static void train_table(FILE *f, const struct sc_model_projection *p, struct table *t)
{
	char name[CELL_MAX];

	train_node_table(f, p, t);
	memset(t, 0, sizeof(*t));
	add_col(t, "nodes", -1);
	snprintf(name, sizeof(name), "accelerators/host at AU %.4g%%", p->train_step.au * PERCENT);
	add_col(t, name, SC_MODEL_FIG_TRAINING);
	add_col(t, "band", -1);
	add_col(t, "slowest node's capacity", SC_MODEL_FIG_TRAINING);
	for (uint32_t i = 0; i < p->nrows; i++) {
		const struct sc_model_row *r = &p->rows[i];
		char(*c)[CELL_MAX] = t->cell[t->nrows++];

		snprintf(c[TR_NODES], CELL_MAX, "%u", r->nodes);
		cell_feeds(c[TR_PER_HOST], r->train_per_host, r->train_exact);
		if (r->train_exact && r->train_per_host_high == UINT32_MAX)
			snprintf(c[TR_BAND], CELL_MAX, "%u..(no bound)", r->train_per_host_low);
		else if (r->train_exact)
			snprintf(c[TR_BAND], CELL_MAX, "%u..%u", r->train_per_host_low,
				 r->train_per_host_high);
		else
			snprintf(c[TR_BAND], CELL_MAX, "-");
		sc_fmt_rate(c[TR_CAP], CELL_MAX, r->train_node_bytes_per_s);
		if (!r->train_exact)
			snprintf(c[TR_CAP], CELL_MAX, "not measured");
	}
	fputs("\ntraining: accelerators per host that keep AU at the threshold (every step ends "
	      "at a barrier: the slowest node sets it)\n",
	      f);
	print_table(f, t, 1, TR_NCOLS);
	if (!p->ntrain_nodes_measured)
		fputs("note: no node's drives were the limit (every node fed its accelerators in "
		      "time): the run shows what they need, not what the drives can give, so the "
		      "answer is a lower bound; run more accelerators per host to measure it\n",
		      f);
	else if (p->ntrain_nodes_measured < p->ntrain_nodes)
		fprintf(f,
			"note: %u of %u nodes had their capacity measured; the others are assumed "
			"no slower at N nodes\n",
			p->ntrain_nodes_measured, p->ntrain_nodes);
}

/* ------------------------------------------------------------- lines */

/* The fit the checkpoint figures rest on: the band, the trend, the tail. */
static void print_fit(FILE *f, const struct sc_model_projection *p)
{
	const struct sc_model_ckpt *c = NULL;

	for (uint32_t i = 0; i < p->nrows && !c; i++)
		if (row_has(p, &p->rows[i], SC_MODEL_FIG_CKPT))
			c = &p->rows[i].ckpt;
	if (!c || !p->measured) /* a stated drive: the note below says so */
		return;
	fprintf(f,
		"band: 2.5th..97.5th percentile and basic bootstrap intervals of %u "
		"replicates, their union; seed %llu\n",
		c->trials, (unsigned long long)p->params.seed);
	fprintf(f, "tails (the figure is their mean):");
	for (uint32_t i = 0; i < SC_MODEL_TAILS; i++) {
		const struct sc_model_tail *t = &c->tail[i];

		if (!(t->sigma > 0))
			fprintf(f, " none (no spread in the samples)");
		else if (t->gpd)
			fprintf(f, " GPD xi=%.2f", t->xi);
		else
			fprintf(f, " exponential");
		if (t->sigma > 0)
			fprintf(f, " above %.3g x the trend (%llu of %llu samples)", t->threshold,
				(unsigned long long)t->exceedances,
				(unsigned long long)c->nsamples);
		fprintf(f, i + 1 < SC_MODEL_TAILS ? ";" : "; ");
	}
	if (c->trend_per_ckpt != 0)
		fprintf(f, "trend %+.3g %% a checkpoint\n", c->trend_per_ckpt * PERCENT);
	else
		fprintf(f, "trend: flat (no significant slope over the checkpoints)\n");
	if (p->measured && c->ndrives_measured == 1)
		fprintf(f,
			"one drive measured: the spread between drives is assumed to be the "
			"spread of its %u checkpoints around its trend\n",
			c->nckpts_max);
}

static void print_params(FILE *f, const struct sc_model_projection *p)
{
	const struct sc_model_params *q = &p->params;
	char mtbf[CELL_MAX], restart[CELL_MAX], cap[CELL_MAX], rate[CELL_MAX];

	fprintf(f, "cluster model from %s\n", p->source);
	fprintf(f,
		"checkpoint: %s, TP %u x PP %u, ZeRO-%d, layout %s, at scale %.6g of its bytes; %u "
		"GPU%s per node\n",
		q->model, q->tp, q->pp, (int)q->zero_stage,
		q->layout >= 0 ? sc_ckpt_layout_name((enum sc_ckpt_layout_kind)q->layout) : "?",
		q->scale, q->gpus_per_node,
		q->gpus_per_node == 1 ? "" : "s");
	sc_fmt_duration(mtbf, sizeof(mtbf), q->node_mtbf_ns);
	sc_fmt_duration(restart, sizeof(restart), q->restart_ns);
	fprintf(f,
		"node MTBF %s, restart %s (%s)%s, overhead target %.3g %%, sizing up to %u "
		"drives per node\n",
		mtbf, restart, q->restart_given ? "given" : "default",
		p->basis[SC_MODEL_FIG_RESTORE].present ? " + the projected restore" : "",
		q->overhead_target * PERCENT, q->max_drives_per_node);
	fprintf(f,
		"drives per node: %u (%s) in the checkpoint and policy tables; the sizing table "
		"gives its own\n",
		q->drives_per_node, p->drives_per_node_from);
	sc_fmt_bytes(cap, sizeof(cap), q->drive_capacity_bytes);
	fprintf(f, "drives: %s (%.4g TB), rated %.3g DWPD for %.3g years", cap,
		(double)q->drive_capacity_bytes / BYTES_PER_TB, q->dwpd, q->warranty_years);
	if (q->drive_write_bytes_per_s > 0)
		fprintf(f, ", write %s",
			sc_fmt_rate(rate, sizeof(rate), q->drive_write_bytes_per_s));
	if (q->drive_read_bytes_per_s > 0)
		fprintf(f, ", read %s", sc_fmt_rate(rate, sizeof(rate), q->drive_read_bytes_per_s));
	fputc('\n', f);
	print_fit(f, p);
}

/* The notes and warnings under the tables: a size the layout does not
 * fit, a policy outside its first order, a size beyond the samples. */
static void print_notes(FILE *f, const struct sc_model_projection *p)
{
	char mean[CELL_MAX];

	if (!p->measured && p->basis[SC_MODEL_FIG_CKPT].present)
		fputs("note: the stated drive is one constant figure: every drive is taken as "
		      "that fast, no spread between drives is modelled\n",
		      f);
	for (uint32_t i = 0; i < p->nrows; i++) {
		const struct sc_model_row *r = &p->rows[i];

		if (!r->layout_fits && p->basis[SC_MODEL_FIG_CKPT].present)
			fprintf(f, "note: at %u nodes the layout does not fit: %s\n", r->nodes,
				r->why_not);
		if (row_has(p, r, SC_MODEL_FIG_SIZING) && !r->sizing.drives_per_node)
			fprintf(f,
				"note: at %u nodes no count up to %u drives per node meets the "
				"target: the sizing figures are at %u\n",
				r->nodes, p->params.max_drives_per_node, r->sized_drives_per_node);
		if (row_has(p, r, SC_MODEL_FIG_POLICY) && r->async) {
			char blk[CELL_MAX], stall[CELL_MAX], fit[32] = "none up to the bound";

			cell_dur(mean, r->ckpt.mean_ns);
			cell_dur(blk, (double)r->blocking_ns);
			cell_dur(stall, r->policy.stall_ns);
			if (r->sizing.drain_fit_drives_per_node)
				snprintf(fit, sizeof(fit), "%u",
					 r->sizing.drain_fit_drives_per_node);
			fprintf(f,
				"note: at %u nodes the checkpoint is async: training waits for the "
				"host copy %s and a stall of %s (drain %s against the interval); "
				"drives per node that keep the drain inside it: %s\n",
				r->nodes, blk, stall, mean, fit);
		}
		if (row_has(p, r, SC_MODEL_FIG_POLICY) && r->policy.outside_first_order)
			fprintf(f,
				"note: at %u nodes a checkpoint period is not short against the "
				"cluster MTBF: Young/Daly's first order no longer holds\n",
				r->nodes);
		if (!beyond(p, r))
			continue;
		cell_dur(mean, r->ckpt.mean_ns);
		fprintf(f,
			"warning: at %u nodes, %llu drives exceed the %llu independent samples: "
			"the checkpoint time %s rests on the fitted tail (band %+.0f %%..%+.0f "
			"%%)\n",
			r->nodes, (unsigned long long)r->ckpt.ndrives_total,
			(unsigned long long)r->ckpt.nsamples, mean,
			(r->ckpt.mean_low_ns / r->ckpt.mean_ns - 1) * PERCENT,
			(r->ckpt.mean_high_ns / r->ckpt.mean_ns - 1) * PERCENT);
	}
}

static void print_basis(FILE *f, const struct sc_model_projection *p)
{
	fputs("\nBasis\n", f);
	for (int i = 0; i < SC_MODEL_FIG_COUNT; i++) {
		const struct sc_model_basis *b = &p->basis[i];

		if (!b->present)
			continue;
		fprintf(f, "[%c] %s\n    inputs: %s\n    assumptions: %s\n", 'a' + i, fig_title[i],
			b->inputs, b->assumptions);
	}
}

void sc_report_model_table(FILE *f, const struct sc_model_projection *p)
{
	static struct table t; /* too big for a stack frame */
	bool ckpt = false;

	for (int i = SC_MODEL_FIG_CKPT; i <= SC_MODEL_FIG_ENDURANCE; i++)
		ckpt = ckpt || p->basis[i].present;
	print_params(f, p);
	if (ckpt) {
		memset(&t, 0, sizeof(t));
		ckpt_header(&t, p);
		for (uint32_t i = 0; i < p->nrows; i++)
			ckpt_row(t.cell[t.nrows++], p, &p->rows[i]);
		fputs("\ncheckpoint of the whole cluster (synchronous: the slowest of the N x D "
		      "drives)\n",
		      f);
		print_table(f, &t, CK_DP, CK_TAU);
		fprintf(f, "\ncheckpoint bytes by node (%s; the median node is the ceil(N/2)-th "
			   "smallest)\n",
			p->params.layout == SC_CKPT_LAYOUT_SHARDED
			    ? "sharded: every tensor stored once, each rank its shard; rank 0 "
			      "adds .metadata"
			    : "DLIO: data-parallel rank 0's nodes also write the model state");
		print_table(f, &t, CK_NODE_TOTAL, CK_NCOLS);
		keep_lines(f, p);
		fprintf(f, "\ncheckpoint policy and endurance at %u drive(s) per node (%s)\n",
			p->params.drives_per_node, p->drives_per_node_from);
		print_table(f, &t, CK_TAU, CK_SIZING);
		fprintf(f,
			"\nsizing: the fewest drives per node for %.3g %% overhead, and the "
			"overhead, checkpoint and endurance there\n",
			p->params.overhead_target * PERCENT);
		print_table(f, &t, CK_SIZING, CK_NODE_TOTAL);
	}
	if (p->basis[SC_MODEL_FIG_INGEST].present || p->basis[SC_MODEL_FIG_READ_BW].present)
		ingest_table(f, p, &t);
	if (p->basis[SC_MODEL_FIG_TRAINING].present)
		train_table(f, p, &t);
	print_notes(f, p);
	print_basis(f, p);
}

/* --------------------------------------------------------------- JSON */

static struct json_object *params_json(struct jb *b, const struct sc_model_params *q)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *n = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < q->nsizes; i++)
		sc_json_push(b, n, json_object_new_uint64(q->nodes[i]));
	sc_json_put(b, o, "nodes", n);
	sc_json_put_u64(b, o, "gpus_per_node", q->gpus_per_node);
	sc_json_put_u64(b, o, "drives_per_node", q->drives_per_node);
	sc_json_put_u64(b, o, "node_mtbf_ns", q->node_mtbf_ns);
	sc_json_put_u64(b, o, "restart_ns", q->restart_ns);
	sc_json_put_str(b, o, "restart_basis", q->restart_given ? "given" : "default");
	sc_json_put_dbl(b, o, "overhead_target", q->overhead_target);
	sc_json_put_dbl(b, o, "dwpd", q->dwpd);
	sc_json_put_dbl(b, o, "warranty_years", q->warranty_years);
	sc_json_put_u64(b, o, "drive_capacity_bytes", q->drive_capacity_bytes);
	sc_json_put_u64(b, o, "max_drives_per_node", q->max_drives_per_node);
	sc_json_put_str(b, o, "model", q->model);
	sc_json_put_u64(b, o, "tp", q->tp);
	sc_json_put_u64(b, o, "pp", q->pp);
	sc_json_put_i64(b, o, "zero", q->zero_stage);
	if (q->keep_last)
		sc_json_put_u64(b, o, "keep_last", q->keep_last);
	if (q->layout >= 0)
		sc_json_put_str(b, o, "layout",
				sc_ckpt_layout_name((enum sc_ckpt_layout_kind)q->layout));
	sc_json_put_dbl(b, o, "scale", q->scale);
	if (q->drive_write_bytes_per_s > 0)
		sc_json_put_dbl(b, o, "drive_write_bytes_per_s", q->drive_write_bytes_per_s);
	if (q->drive_read_bytes_per_s > 0)
		sc_json_put_dbl(b, o, "drive_read_bytes_per_s", q->drive_read_bytes_per_s);
	sc_json_put_u64(b, o, "seed", q->seed);
	sc_json_put_u64(b, o, "trials", q->trials);
	return o;
}

static struct json_object *basis_json(struct jb *b, const struct sc_model_projection *p)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	for (int i = 0; i < SC_MODEL_FIG_COUNT; i++) {
		struct json_object *f;

		if (!p->basis[i].present)
			continue;
		f = sc_json_new(b, json_object_new_object());
		sc_json_put_str(b, f, "inputs", p->basis[i].inputs);
		sc_json_put_str(b, f, "assumptions", p->basis[i].assumptions);
		sc_json_put(b, o, fig_key[i], f);
	}
	return o;
}

/* A checkpoint (or restore) time; the exponential-tail mean when > 0. */
/* The tails the figure is the mean of. */
static struct json_object *tails_json(struct jb *b, const struct sc_model_ckpt *c)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t i = 0; i < SC_MODEL_TAILS; i++) {
		const struct sc_model_tail *t = &c->tail[i];
		struct json_object *o = sc_json_new(b, json_object_new_object());

		sc_json_put_str(b, o, "tail",
				!(t->sigma > 0) ? "none"
				: t->gpd	? "gpd"
						: "exponential");
		sc_json_put_dbl(b, o, "xi", t->xi);
		sc_json_put_dbl(b, o, "sigma_x_trend", t->sigma);
		sc_json_put_dbl(b, o, "threshold_x_trend", t->threshold);
		sc_json_put_u64(b, o, "exceedances", t->exceedances);
		sc_json_push(b, a, o);
	}
	return a;
}

static struct json_object *ckpt_json(struct jb *b, const struct sc_model_ckpt *c, double tail_ns)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_dbl(b, o, "mean_ns", c->mean_ns);
	sc_json_put_dbl(b, o, "p90_ns", c->p90_ns);
	sc_json_put_dbl(b, o, "max_sample_ns", c->max_sample_ns);
	if (isfinite(tail_ns) && tail_ns > 0)
		sc_json_put_dbl(b, o, "tail_exp_mean_ns", tail_ns);
	sc_json_put_u64(b, o, "samples", c->nsamples);
	sc_json_put_u64(b, o, "drives", c->ndrives_total);
	sc_json_put_bool(b, o, "beyond_samples", c->beyond_samples);
	sc_json_put_u64(b, o, "trials", c->trials);
	sc_json_put_dbl(b, o, "mean_low_ns", c->mean_low_ns);
	sc_json_put_dbl(b, o, "mean_high_ns", c->mean_high_ns);
	sc_json_put_dbl(b, o, "p90_low_ns", c->p90_low_ns);
	sc_json_put_dbl(b, o, "p90_high_ns", c->p90_high_ns);
	sc_json_put_u64(b, o, "drives_measured", c->ndrives_measured);
	sc_json_put_u64(b, o, "checkpoints_measured", c->nckpts_max);
	sc_json_put_dbl(b, o, "trend_per_ckpt_share", c->trend_per_ckpt);
	sc_json_put(b, o, "tails", tails_json(b, c));
	return o;
}

static struct json_object *policy_json(struct jb *b, const struct sc_model_policy *q)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_dbl(b, o, "cluster_mtbf_ns", q->mtbf_ns);
	sc_json_put_dbl(b, o, "tau_ns", q->tau_ns);
	sc_json_put_dbl(b, o, "period_ns", q->period_ns);
	sc_json_put_dbl(b, o, "write_share", q->write_share);
	sc_json_put_dbl(b, o, "lost_share", q->lost_share);
	sc_json_put_dbl(b, o, "goodput", q->goodput);
	sc_json_put_bool(b, o, "outside_first_order", q->outside_first_order);
	return o;
}

/* Endurance at d drives a node, each writing drive_bytes a checkpoint. */
static struct json_object *endurance_json(struct jb *b, uint32_t d, uint64_t drive_bytes,
					  const struct sc_model_endurance *e)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "drives_per_node", d);
	sc_json_put_u64(b, o, "drive_bytes_per_checkpoint", drive_bytes);
	sc_json_put_dbl(b, o, "drive_writes_per_day", e->writes_per_day);
	sc_json_put_dbl(b, o, "years", e->years);
	return o;
}

/* The ingest figures of row r; the read bandwidth only when present. */
static struct json_object *ingest_json(struct jb *b, const struct sc_model_projection *p,
				       const struct sc_model_row *r)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	if (row_has(p, r, SC_MODEL_FIG_INGEST)) {
		sc_json_put_dbl(b, o, "step_wait_mean_ns", r->step_wait_mean_ns);
		sc_json_put_dbl(b, o, "step_wait_p50_ns", r->step_wait_p50_ns);
		sc_json_put_dbl(b, o, "step_wait_p90_ns", r->step_wait_p90_ns);
		sc_json_put_dbl(b, o, "step_wait_p99_ns", r->step_wait_p99_ns);
		sc_json_put_dbl(b, o, "p_node_stall", r->p_node_stall);
		sc_json_put_dbl(b, o, "p_step_stall", r->p_step_stall);
		sc_json_put_dbl(b, o, "au", r->au);
	}
	if (row_has(p, r, SC_MODEL_FIG_READ_BW))
		sc_json_put_dbl(b, o, "read_bytes_per_s_node_au90", r->read_bytes_per_s_node_au90);
	return o;
}

/* The training figures of row r. */
static struct json_object *training_row_json(struct jb *b, const struct sc_model_row *r)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "accelerators_per_host", r->train_per_host);
	sc_json_put_str(b, o, "bound", r->train_exact ? "measured" : "at_least");
	if (r->train_exact) {
		sc_json_put_u64(b, o, "accelerators_per_host_low", r->train_per_host_low);
		if (r->train_per_host_high == UINT32_MAX)
			sc_json_put_null(b, o, "accelerators_per_host_high");
		else
			sc_json_put_u64(b, o, "accelerators_per_host_high", r->train_per_host_high);
		sc_json_put_dbl(b, o, "node_capacity_bytes_per_s", r->train_node_bytes_per_s);
		sc_json_put_dbl(b, o, "node_capacity_low_bytes_per_s",
				r->train_node_low_bytes_per_s);
		if (isfinite(r->train_node_high_bytes_per_s))
			sc_json_put_dbl(b, o, "node_capacity_high_bytes_per_s",
					r->train_node_high_bytes_per_s);
	}
	return o;
}

/* The training phase's figures that hold at every size: its demand and
 * its measured nodes. */
static struct json_object *training_json(struct jb *b, const struct sc_model_projection *p)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *v = sc_json_new(b, json_object_new_array());

	sc_json_put_str(b, o, "phase", p->training_phase);
	sc_json_put_dbl(b, o, "accelerators", p->train_accelerators);
	sc_json_put_u64(b, o, "ranks", p->train_ranks);
	sc_json_put_dbl(b, o, "au", p->train_au);
	sc_json_put_dbl(b, o, "au_threshold", p->train_step.au);
	sc_json_put_u64(b, o, "batch", p->train_step.batch);
	sc_json_put_dbl(b, o, "sample_bytes", p->train_step.sample_bytes);
	sc_json_put_u64(b, o, "computation_ns", p->train_step.computation_ns);
	sc_json_put_dbl(b, o, "demand_bytes_per_s", p->train_demand_bytes_per_s);
	sc_json_put_u64(b, o, "nodes_measured", p->ntrain_nodes);
	sc_json_put_u64(b, o, "nodes_capacity_measured", p->ntrain_nodes_measured);
	for (uint32_t i = 0; i < p->ntrain_nodes_listed; i++) {
		const struct sc_model_train_node *n = &p->train_nodes[i];
		struct json_object *x = sc_json_new(b, json_object_new_object());

		sc_json_put_u64(b, x, "node", n->node);
		sc_json_put_str(b, x, "host", n->host);
		sc_json_put_dbl(b, x, "accelerators", n->accelerators);
		sc_json_put_u64(b, x, "accelerators_measured", n->accels);
		sc_json_put_u64(b, x, "accelerators_storage_bound", n->accels_storage_bound);
		sc_json_put_dbl(b, x, "au", n->au);
		sc_json_put_dbl(b, x, "au_without_barrier", n->au_own);
		sc_json_put_dbl(b, x, "read_bytes_per_s", n->read_bytes_per_s);
		sc_json_put_dbl(b, x, "supply_bytes_per_s", n->supply_bytes_per_s);
		sc_json_put_bool(b, x, "capacity_measured", n->capacity_measured);
		sc_json_put_u64(b, x, "feeds", n->feeds);
		sc_json_put_str(b, x, "bound", n->capacity_measured ? "measured" : "at_least");
		sc_json_push(b, v, x);
	}
	sc_json_put(b, o, "nodes", v);
	return o;
}

/* The checkpoint-side figures of row r (the layout fits). */
static void row_ckpt_json(struct jb *b, struct json_object *o, const struct sc_model_projection *p,
			  const struct sc_model_row *r)
{
	sc_json_put_u64(b, o, "dp", r->dp);
	sc_json_put_u64(b, o, "drives_per_node", r->drives_per_node);
	sc_json_put_u64(b, o, "checkpoint_bytes", r->ckpt_bytes);
	sc_json_put_u64(b, o, "node_bytes_max", r->node_bytes_max);
	sc_json_put_u64(b, o, "drive_bytes_max", r->drive_bytes_max);
	sc_json_put_u64(b, o, "node_bytes_median", r->node_bytes_median);
	sc_json_put_u64(b, o, "nodes_busiest", r->nodes_busiest);
	if (r->keep_bytes_per_node)
		sc_json_put_u64(b, o, "keep_bytes_per_node", r->keep_bytes_per_node);
	if (row_has(p, r, SC_MODEL_FIG_CKPT))
		sc_json_put(b, o, "checkpoint", ckpt_json(b, &r->ckpt, r->ckpt_tail_exp_ns));
	if (row_has(p, r, SC_MODEL_FIG_RESTORE) && r->has_restore)
		sc_json_put(b, o, "restore", ckpt_json(b, &r->restore, 0));
	if (row_has(p, r, SC_MODEL_FIG_POLICY)) {
		struct json_object *q = policy_json(b, &r->policy);

		sc_json_put_u64(b, q, "restart_ns", r->restart_ns);
		sc_json_put_bool(b, q, "restart_includes_restore", r->has_restore);
		sc_json_put(b, o, "policy", q);
	}
	if (row_has(p, r, SC_MODEL_FIG_POLICY) && r->async) {
		struct json_object *a = sc_json_new(b, json_object_new_object());

		sc_json_put_u64(b, a, "blocking_ns", r->blocking_ns);
		sc_json_put_dbl(b, a, "drain_ns", r->ckpt.mean_ns);
		sc_json_put_dbl(b, a, "stall_ns", r->policy.stall_ns);
		sc_json_put_dbl(b, a, "cost_ns", r->policy.cost_ns);
		if (r->sizing.drain_fit_drives_per_node)
			sc_json_put_u64(b, a, "drain_fit_drives_per_node",
					r->sizing.drain_fit_drives_per_node);
		else
			sc_json_put_null(b, a, "drain_fit_drives_per_node");
		sc_json_put(b, o, "async", a);
	}
	if (row_has(p, r, SC_MODEL_FIG_SIZING)) {
		struct json_object *s = sc_json_new(b, json_object_new_object());

		if (r->sizing.drives_per_node)
			sc_json_put_u64(b, s, "drives_per_node", r->sizing.drives_per_node);
		else
			sc_json_put_null(b, s, "drives_per_node");
		sc_json_put_dbl(b, s, "overhead", r->sizing.overhead);
		sc_json_put_dbl(b, s, "checkpoint_mean_ns", r->sizing.ckpt.mean_ns);
		sc_json_put(b, o, "sizing", s);
	}
	if (row_has(p, r, SC_MODEL_FIG_ENDURANCE)) {
		struct json_object *e = endurance_json(
		    b, r->sized_drives_per_node, r->sized_drive_bytes_max, &r->endurance_sized);

		/* the headline: at the sizing's answer */
		sc_json_put_bool(b, e, "target_met", r->sizing.drives_per_node != 0);
		sc_json_put(b, o, "endurance", e);
		e = endurance_json(b, r->drives_per_node, r->drive_bytes_max, &r->endurance);
		sc_json_put_str(b, e, "drives_per_node_basis", p->drives_per_node_from);
		sc_json_put(b, o, "endurance_at_drives_per_node", e);
	}
}

static struct json_object *row_json(struct jb *b, const struct sc_model_projection *p,
				    const struct sc_model_row *r)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());

	sc_json_put_u64(b, o, "nodes", r->nodes);
	sc_json_put_bool(b, o, "layout_fits", r->layout_fits);
	if (r->layout_fits)
		row_ckpt_json(b, o, p, r);
	else
		sc_json_put_str(b, o, "why_not", r->why_not);
	if (row_has(p, r, SC_MODEL_FIG_INGEST) || row_has(p, r, SC_MODEL_FIG_READ_BW))
		sc_json_put(b, o, "ingest", ingest_json(b, p, r));
	if (row_has(p, r, SC_MODEL_FIG_TRAINING))
		sc_json_put(b, o, "training", training_row_json(b, r));
	return o;
}

struct json_object *sc_report_json_model(struct jb *b, const struct sc_model_projection *p)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *sizes = sc_json_new(b, json_object_new_array());

	sc_json_put_str(b, o, "source", p->source);
	sc_json_put_bool(b, o, "measured", p->measured);
	sc_json_put(b, o, "params", params_json(b, &p->params));
	sc_json_put(b, o, "basis", basis_json(b, p));
	if (p->basis[SC_MODEL_FIG_TRAINING].present)
		sc_json_put(b, o, "training", training_json(b, p));
	for (uint32_t i = 0; i < p->nrows; i++)
		sc_json_push(b, sizes, row_json(b, p, &p->rows[i]));
	sc_json_put(b, o, "sizes", sizes);
	return o;
}

char *sc_report_model_json_text(const struct sc_model_projection *p, size_t *len)
{
	struct jb b = {0};
	struct json_object *root = sc_json_new(&b, json_object_new_object());
	char *text;

	sc_json_put(&b, root, "model", sc_report_json_model(&b, p));
	text = sc_json_text(&b, root, len);
	json_object_put(root);
	return text;
}
