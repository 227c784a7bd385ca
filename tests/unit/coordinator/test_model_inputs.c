/* test_model_inputs.c -- the model's measured checkpoint inputs
 * (model/model_inputs.c) from the figures grown phase by phase, without
 * the earlier phases' rank rows: every field against a reference computed
 * here from the definitions over the rank rows (a drive is a target on a
 * node, or a rank when the engine is emulated; per ok cell, the bytes its
 * ranks moved and the slowest one's end from the measured start; drives
 * that never wrote left out), before and after every phase's rank rows
 * are freed; and 32,768 ranks on 4,096 nodes. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/figures.h"
#include "check.h"
#include "model/project.h"
#include "result.h"
#include "xorshift.h"

/* ---- synthetic records ----------------------------------------------- */

/* A small record's shape: ranks on nodes sharing targets. */
#define SMALL_RANKS  9u
#define SMALL_PHASES 14u
static const uint32_t small_node[SMALL_RANKS] = {0, 1, 0, 1, 2, 0, 1, 2, 2};
/* ranks 0 and 2 share node 0's target 0, rank 5 has its target 1; node
 * 1's three ranks share its target 0; node 2's ranks 4 and 7 share its
 * target 0, which never writes, and rank 8 has its target 2 */
static const uint32_t small_target[SMALL_RANKS] = {0, 0, 0, 0, 0, 1, 0, 0, 2};

/* A record of nph phases of nranks ranks each, plan and rows zero but
 * for the phase indices: the caller fills them.  Freed with rec_free. */
static void rec_init(struct sc_run_record *rec, uint32_t nph, uint32_t nranks, uint32_t nnodes)
{
	memset(rec, 0, sizeof(*rec));
	rec->plan.run_id = xstrdup("inputs-run");
	rec->plan.nphases = nph;
	rec->plan.phases = xcalloc(nph, sizeof(struct sc_phase));
	rec->nranks = nranks;
	rec->nnodes = nnodes;
	rec->nphases = nph;
	rec->phases = xcalloc(nph, sizeof(struct sc_phase_record));
	for (uint32_t i = 0; i < nph; i++) {
		rec->phases[i].phase = i;
		rec->phases[i].nranks = nranks;
		rec->phases[i].ranks = xcalloc(nranks, sizeof(struct sc_rank_result));
	}
}

/* Phase i of rec's plan: a checkpoint cell of group (a write, or a
 * restore) of model, engine as given. */
static void ckpt_phase(struct sc_run_record *rec, uint32_t i, const char *group, bool restore,
		       const char *model, enum sc_engine_kind engine)
{
	struct sc_phase *ph = &rec->plan.phases[i];

	ph->name = xstrdup(group);
	ph->group = xstrdup(group);
	ph->workload = SC_WORKLOAD_CHECKPOINT;
	ph->io.engine = engine;
	sc_ckpt_model_lookup(model, &ph->ckpt.model);
	ph->ckpt.layout = (struct sc_ckpt_layout){
	    .tp = 1, .pp = 1, .dp = rec->nranks, .zero_stage = strcmp(group, "a") ? 3 : 1};
	ph->ckpt.index = i + 1;
	ph->ckpt.restore = restore;
	ph->ckpt.scale = strcmp(group, "a") ? 0.25 : 0.5;
}

/* Overwrites and frees every phase's rank rows, as rank 0 does once a
 * phase's files are written. */
static void rows_drop(struct sc_run_record *rec)
{
	for (uint32_t i = 0; i < rec->nphases; i++) {
		memset(rec->phases[i].ranks, 0xa5,
		       rec->phases[i].nranks * sizeof(struct sc_rank_result));
		free(rec->phases[i].ranks);
		rec->phases[i].ranks = NULL;
	}
}

/* Frees rec, its rank rows dropped or not. */
static void rec_free(struct sc_run_record *rec)
{
	for (uint32_t i = 0; i < rec->nphases; i++)
		if (!rec->phases[i].ranks)
			rec->phases[i].nranks = 0; /* dropped: no rows to free */
	sc_run_record_exit(rec);
}

/* An engine for small_record: each cell's drawn, emulated or not, so a
 * group has drives of both kinds (a rank's and a target's). */
#define ENGINE_MIXED SC_ENGINE_COUNT

/* A small record from seed: an io phase, then cells of groups "z" (when
 * zero_first: writes of 0 bytes, so no drive of it wrote), "a" and "b"
 * interleaved, writes and restores, some not ok; rank rows with 0 bytes,
 * ends at or before the measured start, and now and then a rank on
 * another target of its node (a drive new to a later cell). */
static void small_record(struct sc_run_record *rec, uint64_t seed, enum sc_engine_kind engine,
			 bool zero_first)
{
	static const enum sc_phase_status bad[] = {SC_PHASE_ERRORS, SC_PHASE_STOPPED_ON_ERROR,
						   SC_PHASE_ABORTED};
	uint64_t st = seed * 0x9e3779b97f4a7c15ull + 1;

	rec_init(rec, SMALL_PHASES, SMALL_RANKS, 3);
	rec->plan.phases[0].name = xstrdup("io");
	rec->plan.phases[0].group = xstrdup("io");
	rec->plan.phases[0].workload = SC_WORKLOAD_IO;
	for (uint32_t i = 1; i < SMALL_PHASES; i++) {
		struct sc_phase_record *pr = &rec->phases[i];
		bool zero = zero_first && i <= 2, restore = !zero && xs_unit(&st) < 0.3;
		const char *group = zero ? "z" : xs_unit(&st) < 0.6 ? "a" : "b";

		ckpt_phase(rec, i, group, restore, strcmp(group, "a") ? "llama3-70b" : "llama3-8b",
			   engine != ENGINE_MIXED ? engine
			   : xs_unit(&st) < 0.5	  ? SC_ENGINE_EMULATED
						  : SC_ENGINE_PSYNC);
		pr->measure_start_ns = 1000 + (int64_t)(xs_unit(&st) * 1e6);
		if (xs_unit(&st) < 0.25)
			pr->status = bad[(uint32_t)(xs_unit(&st) * 3)];
		for (uint32_t r = 0; r < SMALL_RANKS; r++) {
			struct sc_rank_result *rr = &pr->ranks[r];
			double u = xs_unit(&st);

			rr->rank = r;
			rr->node = small_node[r];
			snprintf(rr->host, sizeof(rr->host), "host%u", rr->node);
			rr->target = xs_unit(&st) < 0.1 ? 3 : small_target[r];
			/* node 2's target 0 never writes */
			if (!zero && (restore || small_node[r] != 2 || small_target[r]) &&
			    xs_unit(&st) > 0.2)
				rr->bytes[restore ? SC_DIR_READ : SC_DIR_WRITE] =
				    1 + (uint64_t)(xs_unit(&st) * 4e9);
			rr->bytes[restore ? SC_DIR_WRITE : SC_DIR_READ] = 7; /* not the cell's */
			rr->end_ns =
			    pr->measure_start_ns + (u < 0.1    ? -(int64_t)(u * 1e6)
						    : u < 0.15 ? 0
							       : (int64_t)(xs_unit(&st) * 1e9));
		}
	}
}

/* ---- the reference ---------------------------------------------------- */

/* Drives and cells a small record has at most. */
#define REF_MAX 64u

struct ref_drive {
	uint32_t node, id;
	bool per_rank;
	uint32_t n[2]; /* entries: writes, restores */
	uint64_t bytes[2][REF_MAX], dur_ns[2][REF_MAX];
};

struct ref {
	bool has_ckpt, has_restore;
	const char *group;
	uint32_t first_phase; /* the group's first ok cell */
	uint32_t nckpts;      /* its ok write cells */
	uint32_t nall;	      /* drives of its cells, in order */
	struct ref_drive all[REF_MAX];
	uint32_t ndrives, drives_per_node; /* of them, those that wrote */
	struct ref_drive d[REF_MAX];
};

/* Whether phase record i of rec is an ok cell of group. */
static bool ref_cell(const struct sc_run_record *rec, uint32_t i, const char *group)
{
	const struct sc_phase *ph = &rec->plan.phases[rec->phases[i].phase];

	return ph->workload == SC_WORKLOAD_CHECKPOINT && rec->phases[i].status == SC_PHASE_OK &&
	       !strcmp(ph->group, group);
}

/* Whether rank row r of a cell whose engine is engine belongs to d. */
static bool ref_on(enum sc_engine_kind engine, const struct sc_rank_result *r,
		   const struct ref_drive *d)
{
	bool per_rank = engine == SC_ENGINE_EMULATED;

	return r->node == d->node && per_rank == d->per_rank &&
	       (per_rank ? r->rank : r->target) == d->id;
}

/* Whether drive a comes before b: node, then targets before ranks, then
 * id. */
static bool ref_before(const struct ref_drive *a, const struct ref_drive *b)
{
	if (a->node != b->node)
		return a->node < b->node;
	if (a->per_rank != b->per_rank)
		return !a->per_rank;
	return a->id < b->id;
}

/* Group group's inputs from rec's rank rows into out. */
static void ref_group(const struct sc_run_record *rec, const char *group, struct ref *out)
{
	struct ref_drive *all = out->all;
	uint32_t nall = 0;

	memset(out, 0, sizeof(*out));
	out->group = group;
	out->first_phase = UINT32_MAX;
	/* every drive of the group's cells, restores' too */
	for (uint32_t i = 0; i < rec->nphases; i++) {
		const struct sc_phase *ph = &rec->plan.phases[rec->phases[i].phase];

		if (!ref_cell(rec, i, group))
			continue;
		if (out->first_phase == UINT32_MAX)
			out->first_phase = rec->phases[i].phase;
		out->nckpts += !ph->ckpt.restore;
		for (uint32_t r = 0; r < rec->phases[i].nranks; r++) {
			const struct sc_rank_result *rr = &rec->phases[i].ranks[r];
			bool per_rank = ph->io.engine == SC_ENGINE_EMULATED;
			uint32_t k = 0;

			while (k < nall && !ref_on(ph->io.engine, rr, &all[k]))
				k++;
			if (k == nall) {
				all[nall].node = rr->node;
				all[nall].per_rank = per_rank;
				all[nall++].id = per_rank ? rr->rank : rr->target;
			}
		}
	}
	/* insertion sort into the drives' order */
	for (uint32_t k = 1; k < nall; k++)
		for (uint32_t j = k; j > 0 && ref_before(&all[j], &all[j - 1]); j--) {
			struct ref_drive t = all[j];

			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	/* each drive's entry per cell, in cell order */
	for (uint32_t k = 0; k < nall; k++)
		for (uint32_t i = 0; i < rec->nphases; i++) {
			const struct sc_phase_record *pr = &rec->phases[i];
			const struct sc_phase *ph = &rec->plan.phases[pr->phase];
			int rs = ph->ckpt.restore, dir = rs ? SC_DIR_READ : SC_DIR_WRITE;
			uint64_t sum = 0;
			int64_t slowest = 0;

			if (!ref_cell(rec, i, group))
				continue;
			for (uint32_t r = 0; r < pr->nranks; r++)
				if (ref_on(ph->io.engine, &pr->ranks[r], &all[k])) {
					sum += pr->ranks[r].bytes[dir];
					if (pr->ranks[r].end_ns - pr->measure_start_ns > slowest)
						slowest =
						    pr->ranks[r].end_ns - pr->measure_start_ns;
				}
			if (sum && slowest > 0) {
				all[k].bytes[rs][all[k].n[rs]] = sum;
				all[k].dur_ns[rs][all[k].n[rs]++] = (uint64_t)slowest;
			}
		}
	/* the drives that wrote */
	for (uint32_t k = 0; k < nall; k++)
		if (all[k].n[0])
			out->d[out->ndrives++] = all[k];
	for (uint32_t k = 0; k < out->ndrives; k++) {
		uint32_t same = 0;

		for (uint32_t j = 0; j < out->ndrives; j++)
			same += out->d[j].node == out->d[k].node;
		if (same > out->drives_per_node)
			out->drives_per_node = same;
		out->has_restore |= out->d[k].n[1] > 0;
	}
	out->has_ckpt = out->ndrives > 0;
	out->nall = nall;
}

/* The inputs of rec's first group (in the order of their first ok cells)
 * with a write cell and a drive that wrote; has_ckpt false when none. */
static void ref_of(const struct sc_run_record *rec, struct ref *out)
{
	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; i < rec->nphases && !out->has_ckpt; i++) {
		const char *group = rec->plan.phases[rec->phases[i].phase].group;
		bool first = true;

		for (uint32_t j = 0; j < i; j++)
			first &= !ref_cell(rec, j, group);
		if (ref_cell(rec, i, group) && first)
			ref_group(rec, group, out);
	}
}

/* Counts a failure for each field of m that differs from want. */
static void check_measured(const struct sc_model_measured *m, const struct ref *want,
			   const struct sc_plan *plan, const char *what)
{
	const struct sc_ckpt_spec *ck = &plan->phases[want->first_phase].ckpt;

	CHECK(!strcmp(m->run_id, "inputs-run"), "%s: run id %s", what, m->run_id);
	CHECK(m->has_ckpt == want->has_ckpt && m->ndrives == want->ndrives,
	      "%s: has_ckpt %d, %u drives, want %d, %u", what, m->has_ckpt, m->ndrives,
	      want->has_ckpt, want->ndrives);
	CHECK(!m->has_ingest && !m->batch_wait && !m->ingest_phase[0] && !m->nnodes,
	      "%s: no ingest, nnodes not set", what);
	if (!want->has_ckpt || m->ndrives != want->ndrives)
		return;
	CHECK(!strcmp(m->ckpt_group, want->group) && m->nckpts == want->nckpts &&
		  m->drives_per_node == want->drives_per_node &&
		  m->has_restore == want->has_restore,
	      "%s: group %s, %u ckpts, %u drives a node, restore %d; want %s, %u, %u, %d", what,
	      m->ckpt_group, m->nckpts, m->drives_per_node, m->has_restore, want->group,
	      want->nckpts, want->drives_per_node, want->has_restore);
	CHECK(!strcmp(m->model.name, ck->model.name) && m->model.layers == ck->model.layers &&
		  m->model.hidden == ck->model.hidden &&
		  m->model.ffn_hidden == ck->model.ffn_hidden &&
		  m->model.heads == ck->model.heads && m->model.kv_heads == ck->model.kv_heads &&
		  m->model.vocab == ck->model.vocab &&
		  m->model.model_dtype_bytes == ck->model.model_dtype_bytes &&
		  m->model.optim_bytes_per_param == ck->model.optim_bytes_per_param &&
		  !memcmp(&m->layout, &ck->layout, sizeof(m->layout)) && m->scale == ck->scale,
	      "%s: model %s, zero %u, scale %g; want %s", what, m->model.name, m->layout.zero_stage,
	      m->scale, ck->model.name);
	for (uint32_t k = 0; k < m->ndrives; k++) {
		const struct sc_model_drive *d[2] = {&m->drives[k], &m->restore_drives[k]};

		for (int rs = 0; rs < 2; rs++) {
			CHECK(d[rs]->nckpts == want->d[k].n[rs],
			      "%s: drive %u (node %u, %s %u): %u %s, want %u", what, k,
			      want->d[k].node, want->d[k].per_rank ? "rank" : "target",
			      want->d[k].id, d[rs]->nckpts, rs ? "restores" : "writes",
			      want->d[k].n[rs]);
			for (uint32_t c = 0; c < d[rs]->nckpts && c < want->d[k].n[rs]; c++)
				CHECK(d[rs]->bytes[c] == want->d[k].bytes[rs][c] &&
					  d[rs]->dur_ns[c] == want->d[k].dur_ns[rs][c],
				      "%s: drive %u %s %u: %llu B in %llu ns, want %llu in %llu",
				      what, k, rs ? "restore" : "write", c,
				      (unsigned long long)d[rs]->bytes[c],
				      (unsigned long long)d[rs]->dur_ns[c],
				      (unsigned long long)want->d[k].bytes[rs][c],
				      (unsigned long long)want->d[k].dur_ns[rs][c]);
		}
	}
}

/* Counts a failure unless fg's group of want's name holds want's drives,
 * those that never wrote too, each with its writes and restores. */
static void check_group(const struct sc_run_figures *fg, const struct ref *want, const char *what)
{
	const struct sc_ckpt_group *g = NULL;

	for (uint32_t k = 0; k < fg->nckpt; k++)
		if (!strcmp(fg->ckpt[k].name, want->group))
			g = &fg->ckpt[k];
	if (!g || g->ndrives != want->nall) {
		FAIL("%s: group %s: %u drives, want %u", what, want->group, g ? g->ndrives : 0,
		     want->nall);
		return;
	}
	for (uint32_t k = 0; k < g->ndrives; k++) {
		const struct sc_ckpt_drive *d = &g->drives[k];
		const struct ref_drive *w = &want->all[k];
		const struct sc_ckpt_drive_series *v[2] = {&d->write, &d->restore};
		bool same = d->node == w->node && d->id == w->id && d->per_rank == w->per_rank;

		for (int rs = 0; rs < 2; rs++) {
			same &= v[rs]->n == w->n[rs] && v[rs]->n <= v[rs]->cap;
			for (uint32_t c = 0; same && c < v[rs]->n; c++)
				same &= v[rs]->cells[c].bytes == w->bytes[rs][c] &&
					v[rs]->cells[c].dur_ns == w->dur_ns[rs][c];
		}
		CHECK(same,
		      "%s: group %s's drive %u: node %u %s %u, %u writes, %u restores; want "
		      "node %u %s %u, %u, %u",
		      what, want->group, k, d->node, d->per_rank ? "rank" : "target", d->id,
		      d->write.n, d->restore.n, w->node, w->per_rank ? "rank" : "target", w->id,
		      w->n[0], w->n[1]);
	}
}

/* The measured inputs of rec's first nphases phases from fg (grown to
 * them), checked against want: -ENOENT when want has no checkpoint. */
static void check_from(const struct sc_run_record *rec, uint32_t nphases,
		       const struct sc_run_figures *fg, const struct ref *want, const char *what)
{
	struct sc_run_record view = *rec;
	struct sc_model_measured m;
	char err[512] = "";
	int rc;

	view.nphases = nphases;
	rc = sc_model_measured_from_record(&view, fg, &m, err, sizeof(err));
	if (!want->has_ckpt) {
		CHECK(rc == -ENOENT, "%s: no group wrote: %d (%s)", what, rc, err);
		return;
	}
	CHECK(rc == 0, "%s: %s", what, err);
	if (!rc) {
		check_measured(&m, want, &rec->plan, what);
		sc_model_measured_free(&m);
	}
}

/* ---- the cases -------------------------------------------------------- */

/* Records of many seeds, per-target and per-rank drives: after each phase
 * added to the figures, the inputs of the record so far equal the
 * reference's; after every phase's rank rows are freed, still. */
static void test_grown(enum sc_engine_kind engine, bool zero_first)
{
	const char *kind = engine == ENGINE_MIXED	  ? "mixed"
			   : engine == SC_ENGINE_EMULATED ? "emulated"
							  : "psync";
	uint32_t found = 0, restores = 0, dropped = 0, passed_over = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct sc_run_record rec;
		struct sc_run_figures fg;
		struct ref *want = xcalloc(1, sizeof(*want));
		char what[96];

		small_record(&rec, seed, engine, zero_first);
		sc_run_figures_init(&fg);
		for (uint32_t n = 1; n <= rec.nphases; n++) {
			struct sc_run_record view = rec;

			view.nphases = n;
			snprintf(what, sizeof(what), "%s seed %llu, %u phases", kind,
				 (unsigned long long)seed, n);
			if (sc_run_figures_update(&fg, &view)) {
				FAIL("%s: figures: out of memory", what);
				break;
			}
			ref_of(&view, want);
			check_from(&rec, n, &fg, want, what);
			if (want->has_ckpt)
				check_group(&fg, want, what);
		}
		found += want->has_ckpt;
		restores += want->has_restore;
		dropped += want->ndrives < want->nall;
		/* a first group with writes but no drive that wrote */
		passed_over +=
		    want->has_ckpt && fg.ckpt[0].write.n && strcmp(fg.ckpt[0].name, want->group);
		rows_drop(&rec);
		snprintf(what, sizeof(what), "%s seed %llu, rank rows freed", kind,
			 (unsigned long long)seed);
		check_from(&rec, rec.nphases, &fg, want, what);
		sc_run_figures_exit(&fg);
		rec_free(&rec);
		free(want);
	}
	/* the seeds reach the cases the test is for */
	CHECK(found >= 30 && restores >= 20 && dropped >= 20 && (!zero_first || passed_over >= 20),
	      "of 40 %s records %u had checkpoint inputs, %u restores, %u a drive left out, %u "
	      "a group passed over",
	      kind, found, restores, dropped, passed_over);
}

/* One record by hand: node 0's ranks 0 and 2 share target 0, node 1's
 * ranks 1 and 3 target 0, node 1's rank 4 target 1 never writes; writes
 * in cells 1 and 3, a restore in 4, cell 2 not ok.  Per target and per
 * rank. */
static void test_by_hand(void)
{
	for (int emu = 0; emu < 2; emu++) {
		enum sc_engine_kind engine = emu ? SC_ENGINE_EMULATED : SC_ENGINE_URING;
		static const uint32_t node[] = {0, 1, 0, 1, 1}, target[] = {0, 0, 0, 0, 1};
		struct sc_run_record rec;
		struct sc_run_figures fg;
		struct sc_model_measured m;
		char err[256] = "";

		rec_init(&rec, 5, 5, 2);
		rec.plan.phases[0].name = xstrdup("io");
		rec.plan.phases[0].group = xstrdup("io");
		for (uint32_t i = 1; i < 5; i++) {
			ckpt_phase(&rec, i, "a", i == 4, "llama3-8b", engine);
			rec.phases[i].measure_start_ns = 100;
			rec.phases[i].status = i == 2 ? SC_PHASE_ERRORS : SC_PHASE_OK;
			for (uint32_t r = 0; r < 5; r++) {
				struct sc_rank_result *rr = &rec.phases[i].ranks[r];

				rr->rank = r;
				rr->node = node[r];
				rr->target = target[r];
				/* rank r moves (r + 1) * i kB, ends (10 * r + i) us on */
				rr->bytes[i == 4 ? SC_DIR_READ : SC_DIR_WRITE] =
				    r == 4 && i != 4 ? 0 : (r + 1) * i * 1000ull;
				rr->end_ns = 100 + (10 * r + i) * 1000ll;
			}
		}
		CHECK(sc_run_figures_of(&fg, &rec) == 0, "figures");
		rows_drop(&rec);
		CHECK(sc_model_measured_from_record(&rec, &fg, &m, err, sizeof(err)) == 0, "%s",
		      err);
		if (!emu) {
			/* (node 0, target 0): ranks 0, 2; (node 1, target 0): 1, 3 */
			CHECK(fg.ckpt[0].ndrives == 3 && m.ndrives == 2 && m.nckpts == 2 &&
				  m.drives_per_node == 1 && m.has_restore,
			      "per target: %u drives of %u, %u ckpts, %u a node", m.ndrives,
			      fg.ckpt[0].ndrives, m.nckpts, m.drives_per_node);
			CHECK(m.ndrives == 2 && m.drives[0].nckpts == 2 &&
				  m.drives[0].bytes[0] == 4000 && m.drives[0].dur_ns[0] == 21000 &&
				  m.drives[0].bytes[1] == 12000 && m.drives[0].dur_ns[1] == 23000 &&
				  m.drives[1].bytes[1] == 18000 && m.drives[1].dur_ns[1] == 33000 &&
				  m.restore_drives[1].nckpts == 1 &&
				  m.restore_drives[1].bytes[0] == 24000 &&
				  m.restore_drives[1].dur_ns[0] == 34000,
			      "per target: node 0's cell 1 4000 B in 21 us, node 1's restore");
		} else {
			/* a drive a rank: node 0 ranks 0, 2; node 1 ranks 1, 3 (4 never writes) */
			CHECK(fg.ckpt[0].ndrives == 5 && m.ndrives == 4 && m.nckpts == 2 &&
				  m.drives_per_node == 2 && m.has_restore,
			      "per rank: %u drives of %u, %u ckpts, %u a node", m.ndrives,
			      fg.ckpt[0].ndrives, m.nckpts, m.drives_per_node);
			CHECK(m.ndrives == 4 && m.drives[1].bytes[0] == 3000 &&
				  m.drives[1].dur_ns[0] == 21000 && m.drives[3].bytes[1] == 12000 &&
				  m.drives[3].dur_ns[1] == 33000 &&
				  m.restore_drives[2].bytes[0] == 8000 &&
				  m.restore_drives[2].dur_ns[0] == 14000,
			      "per rank: rank 2's cell 1 3000 B in 21 us");
		}
		sc_model_measured_free(&m);
		sc_run_figures_exit(&fg);
		rec_free(&rec);
	}
}

/* 32,768 ranks on 4,096 nodes, 2 ranks a target (4 a node), 3 writes and
 * a restore; each phase's rank rows freed once the figures hold it; the
 * last node's last target never writes. */
static void test_scale(void)
{
	const uint32_t nranks = 32768, nnodes = 4096, per_node = 8, nph = 4;
	struct sc_run_record rec;
	struct sc_run_figures fg;
	struct sc_model_measured m;
	char err[256] = "";
	uint32_t bad = 0;

	rec_init(&rec, nph, nranks, nnodes);
	sc_run_figures_init(&fg);
	for (uint32_t i = 0; i < nph; i++)
		ckpt_phase(&rec, i, "a", i == 2, "llama3-8b", SC_ENGINE_PSYNC);
	for (uint32_t i = 0; i < nph; i++) {
		struct sc_phase_record *pr = &rec.phases[i];
		struct sc_run_record view = rec;
		bool restore = i == 2;

		pr->measure_start_ns = 5000;
		for (uint32_t r = 0; r < nranks; r++) {
			struct sc_rank_result *rr = &pr->ranks[r];

			rr->rank = r;
			rr->node = r / per_node;
			rr->target = r % per_node / 2;
			rr->bytes[restore ? SC_DIR_READ : SC_DIR_WRITE] =
			    r >= nranks - 2 && !restore ? 0 : (r % 1000 + 1) * 4096ull * (i + 1);
			rr->end_ns = 5000 + 1000000 + (int64_t)(r * 7919u % 100000) + i * 1000;
		}
		view.nphases = i + 1;
		CHECK(sc_run_figures_update(&fg, &view) == 0, "figures of phase %u", i);
		memset(pr->ranks, 0xa5, nranks * sizeof(*pr->ranks));
		free(pr->ranks);
		pr->ranks = NULL;
	}
	CHECK(sc_model_measured_from_record(&rec, &fg, &m, err, sizeof(err)) == 0, "%s", err);
	CHECK(fg.nckpt == 1 && fg.ckpt[0].ndrives == nranks / 2 && m.ndrives == nranks / 2 - 1 &&
		  m.nckpts == 3 && m.drives_per_node == 4 && m.has_restore,
	      "%u drives of %u, %u ckpts, %u a node", m.ndrives, fg.nckpt ? fg.ckpt[0].ndrives : 0,
	      m.nckpts, m.drives_per_node);
	for (uint32_t k = 0; k < m.ndrives && m.ndrives == nranks / 2 - 1; k++) {
		uint32_t a = 2 * k, b = a + 1; /* the drive's ranks */
		uint64_t sum = (a % 1000 + 1 + b % 1000 + 1) * 4096ull;
		int64_t ta = a * 7919u % 100000, tb = b * 7919u % 100000;
		uint64_t dur = 1000000 + (uint64_t)(ta > tb ? ta : tb);
		const uint32_t cell[3] = {0, 1, 3};

		bad += m.drives[k].nckpts != 3 || m.restore_drives[k].nckpts != 1 ||
		       m.restore_drives[k].bytes[0] != sum * 3 ||
		       m.restore_drives[k].dur_ns[0] != dur + 2000;
		for (uint32_t c = 0; c < 3 && m.drives[k].nckpts == 3; c++)
			bad += m.drives[k].bytes[c] != sum * (cell[c] + 1) ||
			       m.drives[k].dur_ns[c] != dur + cell[c] * 1000;
	}
	CHECK(!bad, "%u of %u drives' entries off the rows' sums and slowest ends", bad, m.ndrives);
	sc_model_measured_free(&m);
	sc_run_figures_exit(&fg);
	rec_free(&rec);
}

int main(void)
{
	test_by_hand();
	test_grown(SC_ENGINE_PSYNC, false);
	test_grown(SC_ENGINE_EMULATED, false);
	test_grown(SC_ENGINE_PSYNC, true);
	test_grown(SC_ENGINE_EMULATED, true);
	test_grown(ENGINE_MIXED, false);
	test_scale();
	return check_exit("test_model_inputs");
}
