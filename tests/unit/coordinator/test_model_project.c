/* test_model_project.c -- the cluster model end to end: measured inputs out of a run record
 * (model/model_inputs.c) and the projection at every size (model/project.c). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "analysis/figures.h"
#include "check.h"
#include "histogram.h"
#include "model/project.h"
#include "model/project_parts.h"
#include "result.h"

#define NS_PER_S 1000000000ull
#define GB	 1000000000ull
#define ALIGN	 4096u /* the checkpoint workload's file alignment */

/* The documented defaults of struct sc_model_params (params.c is another
 * file's; this test fills them by hand), with fewer trials for speed. */
static void params_defaults(struct sc_model_params *p)
{
	static const uint32_t sizes[] = {8, 64, 512, 4096};

	memset(p, 0, sizeof(*p));
	p->nsizes = 4;
	memcpy(p->nodes, sizes, sizeof(sizes));
	p->gpus_per_node = 8;
	p->node_mtbf_ns = 50000ull * 3600 * NS_PER_S;
	p->restart_ns = 600 * NS_PER_S; /* 10 min, before the projected restore */
	p->overhead_target = 0.05;
	p->dwpd = 1;
	p->warranty_years = 5;
	p->drive_capacity_bytes = 30720000000000ull;
	p->max_drives_per_node = 64;
	p->zero_stage = -1;
	p->scale = 1;
	p->seed = 1;
	p->trials = 2000;
}

static void set_sizes(struct sc_model_params *p, uint32_t n, const uint32_t *sizes)
{
	p->nsizes = n;
	memcpy(p->nodes, sizes, n * sizeof(*sizes));
}

static int rel_close(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

/* A measured checkpoint of n drives x c checkpoints; drive i writes
 * 1 GB per checkpoint in (1 + spread x i) s.  The arrays live in *store. */
struct fake {
	struct sc_model_measured m;
	struct sc_model_drive *d;
	uint64_t *bytes, *dur;
};

static void fake_ckpt(struct fake *f, uint32_t n, uint32_t c, double spread, const char *model,
		      uint32_t tp, uint32_t pp, uint32_t zero)
{
	memset(f, 0, sizeof(*f));
	f->d = xcalloc(n, sizeof(*f->d));
	f->bytes = xcalloc((size_t)n * c, sizeof(uint64_t));
	f->dur = xcalloc((size_t)n * c, sizeof(uint64_t));
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < c; k++) {
			f->bytes[i * c + k] = GB;
			f->dur[i * c + k] = (uint64_t)((1 + spread * i) * NS_PER_S);
		}
		f->d[i] = (struct sc_model_drive){
		    .nckpts = c, .bytes = &f->bytes[i * c], .dur_ns = &f->dur[i * c]};
	}
	snprintf(f->m.run_id, sizeof(f->m.run_id), "test-run");
	f->m.has_ckpt = true;
	snprintf(f->m.ckpt_group, sizeof(f->m.ckpt_group), "ckpt");
	f->m.ndrives = n;
	f->m.drives = f->d;
	f->m.nckpts = c;
	f->m.nnodes = 1;
	f->m.drives_per_node = n;
	CHECK(sc_ckpt_model_lookup(model, &f->m.model) == 0, "model %s", model);
	f->m.layout = (struct sc_ckpt_layout){.tp = tp, .pp = pp, .dp = 1, .zero_stage = zero};
	f->m.scale = 1;
}

static void fake_free(struct fake *f)
{
	free(f->d);
	free(f->bytes);
	free(f->dur);
	free(f->m.batch_wait);
}

/* Brute force: the bytes of node k (ranks k G .. k G + G - 1), every file
 * scaled as the workload scales it. */
static uint64_t node_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t k,
			   uint32_t g, double scale)
{
	struct sc_ckpt_file f[256];
	uint64_t sum = 0;

	for (uint32_t r = k * g; r < (k + 1) * g; r++) {
		uint32_t n = 0;

		CHECK(sc_ckpt_rank_files(m, l, r, f, 256, &n) == 0, "rank %u files", r);
		for (uint32_t i = 0; i < n; i++)
			sum += sc_ckpt_scaled(f[i].bytes, scale, ALIGN);
	}
	return sum;
}

/* The byte classes equal node-by-node brute force, for layouts whose
 * replica spans several nodes, lies within one, and does not divide G. */
static void test_node_classes(void)
{
	struct {
		const char *model;
		uint32_t tp, pp, zero, g, nodes;
		double scale;
	} cases[] = {
	    {"llama3.1-405b", 4, 2, 1, 8, 16, 1},     /* the config's: node 0 is dp rank 0 */
	    {"llama3.1-405b", 8, 32, 1, 8, 64, 1},    /* MLPerf's: 32 nodes of dp rank 0 */
	    {"llama3.1-405b", 4, 3, 1, 8, 24, 1},     /* 12 ranks a replica on 8-GPU nodes */
	    {"llama3.1-405b", 4, 3, 2, 8, 96, 0.001}, /* scaled */
	    {"llama3-8b", 1, 1, 3, 8, 8, 1},	      /* ZeRO-3: all nodes alike */
	    {"llama3-70b", 8, 1, 0, 4, 6, 1},	      /* ZeRO-0: most nodes write nothing */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sc_llm model;
		struct sc_ckpt_layout l = {
		    .tp = cases[i].tp, .pp = cases[i].pp, .zero_stage = cases[i].zero};
		struct sc_model_bytes b;
		uint64_t total = 0, max = 0, counted = 0;
		uint32_t n = cases[i].nodes, g = cases[i].g;

		sc_ckpt_model_lookup(cases[i].model, &model);
		l.dp = n * g / (l.tp * l.pp);
		CHECK(sc_model_node_bytes(&model, &l, n, g, cases[i].scale, &b) == 0, "case %zu",
		      i);
		for (uint32_t k = 0; k < n; k++) {
			uint64_t nb = node_bytes(&model, &l, k, g, cases[i].scale);
			bool found = nb == 0;

			total += nb;
			max = nb > max ? nb : max;
			for (uint32_t j = 0; j < b.nclasses && !found; j++)
				found = b.classes[j].bytes == nb;
			CHECK(found, "case %zu: node %u's %llu B in no class", i, k,
			      (unsigned long long)nb);
			counted += nb != 0;
		}
		for (uint32_t j = 0; j < b.nclasses; j++)
			counted -= b.classes[j].count;
		CHECK(counted == 0, "case %zu: class counts do not add up to the writing nodes", i);
		CHECK(b.ckpt_bytes == total && b.node_bytes_max == max,
		      "case %zu: total %llu vs %llu, busiest %llu vs %llu", i,
		      (unsigned long long)b.ckpt_bytes, (unsigned long long)total,
		      (unsigned long long)b.node_bytes_max, (unsigned long long)max);
		sc_model_bytes_free(&b);
	}
}

/* The busiest node, how many nodes write that much and the median node,
 * against node-by-node brute force, in layouts worked out by hand:
 * - 405b TP8 PP2 ZeRO-1 on 4-GPU nodes, N = 8: a replica is 16 ranks = 4
 *   nodes, dp = 32 / 16 = 2.  Nodes 0, 1 hold stage 0 (4 tp ranks each:
 *   embedding + layers 1..63), nodes 2, 3 stage 1 (layers 64..126, head
 *   and the final norm, which every tp rank keeps whole: heavier), all
 *   four also an optimizer shard a rank; nodes 4..7 (dp rank 1) only
 *   optimizer shards.  Busiest: nodes 2 and 3, so 2; the median (4th
 *   smallest of 8) is an optimizer-only node.
 * - 405b MLPerf TP8 PP32 ZeRO-1, 8-GPU nodes, N = 64: dp = 2, node k < 32
 *   holds stage k of dp rank 0.  126 layers over 32 stages: stages 0..29
 *   four layers, 30 and 31 three; stage 0 adds the embedding (smaller than
 *   a layer), so node 0 alone is busiest: 1.  The median (32nd smallest)
 *   is an optimizer-only node (32..63).
 * - llama3-8b ZeRO-3 TP1 PP1: every node alike, all N busiest, median = max.
 * - llama3-70b TP8 PP1 ZeRO-0 on 4-GPU nodes, N = 6: nodes 0, 1 (dp rank 0)
 *   write everything, the other 4 nothing: 2 busiest, median 0. */
static void test_busiest_and_median(void)
{
	struct {
		const char *model;
		uint32_t tp, pp, zero, g, nodes;
		uint32_t busiest_node, median_node, nbusiest;
	} cases[] = {
	    {"llama3.1-405b", 8, 2, 1, 4, 8, 2, 4, 2},
	    {"llama3.1-405b", 8, 32, 1, 8, 64, 0, 32, 1},
	    {"llama3-8b", 1, 1, 3, 8, 16, 5, 9, 16},
	    {"llama3-70b", 8, 1, 0, 4, 6, 0, 5, 2},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sc_llm model;
		struct sc_ckpt_layout l = {
		    .tp = cases[i].tp, .pp = cases[i].pp, .zero_stage = cases[i].zero};
		struct sc_model_bytes b;
		uint32_t n = cases[i].nodes, g = cases[i].g;
		uint64_t max, med;

		sc_ckpt_model_lookup(cases[i].model, &model);
		l.dp = n * g / (l.tp * l.pp);
		max = node_bytes(&model, &l, cases[i].busiest_node, g, 1);
		med = node_bytes(&model, &l, cases[i].median_node, g, 1);
		CHECK(sc_model_node_bytes(&model, &l, n, g, 1, &b) == 0, "case %zu", i);
		CHECK(b.node_bytes_max == max && b.nodes_busiest == cases[i].nbusiest &&
			  b.node_bytes_median == med,
		      "case %zu: busiest %llu x %llu (want %llu x %u), median %llu (want %llu)", i,
		      (unsigned long long)b.node_bytes_max, (unsigned long long)b.nodes_busiest,
		      (unsigned long long)max, cases[i].nbusiest,
		      (unsigned long long)b.node_bytes_median, (unsigned long long)med);
		sc_model_bytes_free(&b);
	}
	/* the first case's premises, by brute force */
	{
		struct sc_llm model;
		struct sc_ckpt_layout l = {.tp = 8, .pp = 2, .dp = 2, .zero_stage = 1};

		sc_ckpt_model_lookup("llama3.1-405b", &model);
		CHECK(node_bytes(&model, &l, 2, 4, 1) == node_bytes(&model, &l, 3, 4, 1) &&
			  node_bytes(&model, &l, 3, 4, 1) > node_bytes(&model, &l, 0, 4, 1) &&
			  node_bytes(&model, &l, 0, 4, 1) > node_bytes(&model, &l, 4, 4, 1) &&
			  node_bytes(&model, &l, 4, 4, 1) == node_bytes(&model, &l, 7, 4, 1),
		      "405b TP8 PP2 on 4-GPU nodes: nodes 2 = 3 > 0 > 4 = 7");
	}
}

/* Young/Daly by hand for a constant drive of 1 B/ns: a checkpoint of
 * node_bytes over d drives takes delta = ceil(node_bytes / d) ns. */
struct yd {
	double delta, tau, period, overhead, dwpd;
};

static struct yd young_daly(uint64_t node_bytes, uint32_t d, uint32_t n,
			    const struct sc_model_params *p)
{
	struct yd y;
	uint64_t per_drive = (node_bytes + d - 1) / d;
	double m = (double)p->node_mtbf_ns / n;

	y.delta = (double)per_drive;
	y.tau = sqrt(2 * y.delta * m);
	y.period = y.tau + y.delta;
	y.overhead = y.delta / y.period + y.period / (2 * m) + (double)p->restart_ns / m;
	/* drive writes a day: checkpoints a day x the drive's share / capacity */
	y.dwpd = 86400e9 / ceil(y.period) * (double)per_drive / (double)p->drive_capacity_bytes;
	return y;
}

/* DWPD at the sizing's answer (the headline) and at the measured count:
 * 1 drive measured, a target between the overheads of 1 and 2 drives a
 * node (worked by hand), so the answer is 2; each endurance is worked
 * from its own D's bytes and Young/Daly period. */
static void test_dwpd_at_answer(void)
{
	static const uint32_t sizes[] = {64};
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	struct sc_llm model;
	struct sc_ckpt_layout l = {.tp = 4, .pp = 2, .dp = 64, .zero_stage = 1};
	struct fake f;
	struct yd y1, y2;
	uint64_t busiest;
	char err[256];

	fake_ckpt(&f, 1, 4, 0, "llama3.1-405b", 4, 2, 1); /* 1 GB in 1 s: 1 B/ns */
	sc_ckpt_model_lookup("llama3.1-405b", &model);
	busiest = node_bytes(&model, &l, 0, 8, 1); /* node 0: dp rank 0 */
	params_defaults(&p);
	set_sizes(&p, 1, sizes);
	p.node_mtbf_ns = 2000ull * 3600 * NS_PER_S; /* failures often enough to matter */
	p.drive_capacity_bytes = 7680000000000ull;
	y1 = young_daly(busiest, 1, 64, &p);
	y2 = young_daly(busiest, 2, 64, &p);
	CHECK(y2.overhead < y1.overhead, "by hand: 2 drives beat 1");
	p.overhead_target = (y1.overhead + y2.overhead) / 2;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	{
		const struct sc_model_row *r = &out->rows[0];

		CHECK(r->drives_per_node == 1 && !strcmp(out->drives_per_node_from, "measured"),
		      "the table's D: %u (%s)", r->drives_per_node, out->drives_per_node_from);
		CHECK(r->sizing.drives_per_node == 2 && r->sized_drives_per_node == 2,
		      "sized: %u drives", r->sizing.drives_per_node);
		CHECK(r->sized_drive_bytes_max == (busiest + 1) / 2, "sized bytes/drive %llu",
		      (unsigned long long)r->sized_drive_bytes_max);
		CHECK(rel_close(r->endurance_sized.writes_per_day, y2.dwpd, 1e-9) &&
			  rel_close(r->endurance_sized.years, 5 / y2.dwpd, 1e-9),
		      "DWPD at the answer %.9g (by hand %.9g), years %.6g",
		      r->endurance_sized.writes_per_day, y2.dwpd, r->endurance_sized.years);
		CHECK(rel_close(r->endurance.writes_per_day, y1.dwpd, 1e-9) &&
			  rel_close(r->endurance.years, 5 / y1.dwpd, 1e-9),
		      "DWPD at the measured 1 %.9g (by hand %.9g)", r->endurance.writes_per_day,
		      y1.dwpd);
		printf("405b TP4 PP2 at 64 nodes, 1 B/ns drives: %.4g DWPD at the measured 1 "
		       "drive, %.4g at the sized 2\n",
		       r->endurance.writes_per_day, r->endurance_sized.writes_per_day);
	}
	/* none up to the bound meets the target: the figures at the bound */
	p.max_drives_per_node = 1;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(out->rows[0].sizing.drives_per_node == 0 && out->rows[0].sized_drives_per_node == 1 &&
		  rel_close(out->rows[0].endurance_sized.writes_per_day, y1.dwpd, 1e-9),
	      "no answer: at the bound");
	fake_free(&f);
	free(out);
}

/* The restart R defaults to 10 min (sc_model_params_default) plus the
 * projected restore: with a stated 7 GB/s write and 14 GB/s read the
 * restore takes bytes / 14 GB/s, and goodput is Young/Daly's with that R:
 * against R = 0 it is lower by exactly R / M = R x N / node MTBF. */
static void test_restart_default(void)
{
	static const uint32_t sizes[] = {64, 512};
	struct sc_model_params p;
	struct sc_model_projection *a = xcalloc(1, sizeof(*a)), *z = xcalloc(1, sizeof(*z));
	char err[256];

	sc_model_params_default(&p);
	set_sizes(&p, 2, sizes);
	p.trials = 100;
	p.drive_write_bytes_per_s = 7e9;
	p.drive_read_bytes_per_s = 14e9;
	CHECK(sc_model_project(NULL, &p, a, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(strstr(a->basis[SC_MODEL_FIG_POLICY].inputs,
		     "restart R = 600 s (default) + the projected restore's E[max] at N"),
	      "policy basis: %s", a->basis[SC_MODEL_FIG_POLICY].inputs);
	p.restart_ns = 0;
	p.drive_read_bytes_per_s = 0; /* no restore either: R = 0 */
	CHECK(sc_model_project(NULL, &p, z, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(strstr(z->basis[SC_MODEL_FIG_POLICY].inputs, "no restore"), "policy basis: %s",
	      z->basis[SC_MODEL_FIG_POLICY].inputs);
	for (uint32_t i = 0; i < 2; i++) {
		const struct sc_model_row *r = &a->rows[i], *r0 = &z->rows[i];
		double restore = ceil((double)r->drive_bytes_max / 14e9 * 1e9);
		double m = (double)p.node_mtbf_ns / sizes[i], delta = ceil(r->ckpt.mean_ns);
		double tau = sqrt(2 * delta * m), period = tau + delta;
		double want = 1 - delta / period - period / (2 * m) - (600e9 + restore) / m;

		CHECK(fabs((double)r->restart_ns - (600e9 + restore)) <= 1,
		      "N=%u: R %llu ns, by hand %.0f", sizes[i], (unsigned long long)r->restart_ns,
		      600e9 + restore);
		CHECK(rel_close(r->policy.goodput, want, 1e-12), "N=%u: goodput %.15g, by hand %.15g",
		      sizes[i], r->policy.goodput, want);
		CHECK(rel_close(r0->policy.goodput - r->policy.goodput, (600e9 + restore) / m, 1e-6),
		      "N=%u: goodput lower by R/M", sizes[i]);
	}
	free(a);
	free(z);
}

/* Constant drives: the checkpoint takes the busiest drive's bytes at the
 * drive's rate at any N; under ZeRO-1 that is the busiest node's. */
static void test_constant_and_classes(void)
{
	static const uint32_t sizes[] = {1, 8, 64, 512};
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	struct fake f;
	char err[256];

	fake_ckpt(&f, 4, 10, 0, "llama3.1-405b", 4, 2, 1);
	params_defaults(&p);
	set_sizes(&p, 4, sizes);
	p.drives_per_node = 2;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(out->nrows == 4 && out->measured &&
		  !strcmp(out->source, "results.pb of run test-run"),
	      "source %s", out->source);
	CHECK(!strcmp(out->params.model, "llama3.1-405b") && out->params.tp == 4 &&
		  out->params.pp == 2 && out->params.zero_stage == 1,
	      "the run's layout as used: %s TP%u PP%u ZeRO-%d", out->params.model, out->params.tp,
	      out->params.pp, out->params.zero_stage);
	for (uint32_t i = 0; i < out->nrows; i++) {
		const struct sc_model_row *r = &out->rows[i];
		double want = (double)r->drive_bytes_max; /* 1 B/ns */

		CHECK(r->layout_fits && r->dp == sizes[i], "N=%u dp %u", sizes[i], r->dp);
		CHECK(rel_close(r->ckpt.mean_ns, want, 1e-12) &&
			  rel_close(r->ckpt.p90_ns, want, 1e-12),
		      "N=%u: mean %.17g p90 %.17g, want %.17g", sizes[i], r->ckpt.mean_ns,
		      r->ckpt.p90_ns, want);
		CHECK(rel_close(r->ckpt_tail_exp_ns, want, 1e-9), "N=%u: tail %.17g", sizes[i],
		      r->ckpt_tail_exp_ns);
		CHECK(r->drive_bytes_max == (r->node_bytes_max + 1) / 2,
		      "N=%u: spread over 2 drives", sizes[i]);
		CHECK(r->ckpt.ndrives_total == 2ull * sizes[i], "N=%u: %llu drives", sizes[i],
		      (unsigned long long)r->ckpt.ndrives_total);
		CHECK(r->ckpt.nsamples == 40 && !r->ckpt.beyond_samples == (2 * sizes[i] <= 40),
		      "N=%u: support", sizes[i]);
		CHECK(r->policy.tau_ns > 0 && r->policy.goodput > 0 && r->endurance.years > 0,
		      "N=%u: policy and endurance given", sizes[i]);
		/* ZeRO-1: node 0 also writes the model state */
		CHECK(i == 0 || r->node_bytes_max * sizes[i] > r->ckpt_bytes,
		      "N=%u: the busiest node above the mean", sizes[i]);
	}
	/* The busiest node (model state + optimizer) at N = 8. */
	{
		struct sc_llm model;
		struct sc_ckpt_layout l = {.tp = 4, .pp = 2, .dp = 8, .zero_stage = 1};

		uint64_t total = 0;

		sc_ckpt_model_lookup("llama3.1-405b", &model);
		for (uint32_t k = 0; k < 8; k++)
			total += node_bytes(&model, &l, k, 8, 1);
		CHECK(out->rows[1].node_bytes_max == node_bytes(&model, &l, 0, 8, 1) &&
			  out->rows[1].node_bytes_max > node_bytes(&model, &l, 1, 8, 1) &&
			  out->rows[1].ckpt_bytes == total,
		      "busiest node at N=8: %llu", (unsigned long long)out->rows[1].node_bytes_max);
	}
	CHECK(out->basis[SC_MODEL_FIG_CKPT].present && out->basis[SC_MODEL_FIG_POLICY].present &&
		  out->basis[SC_MODEL_FIG_SIZING].present &&
		  out->basis[SC_MODEL_FIG_ENDURANCE].present &&
		  !out->basis[SC_MODEL_FIG_INGEST].present,
	      "basis of the checkpoint figures only");
	CHECK(strstr(out->basis[SC_MODEL_FIG_CKPT].inputs, "40 independent samples: 4 drive(s) x up to 10") &&
		  strstr(out->basis[SC_MODEL_FIG_CKPT].inputs, "run test-run"),
	      "ckpt inputs: %s", out->basis[SC_MODEL_FIG_CKPT].inputs);
	for (int fig = 0; fig < SC_MODEL_FIG_COUNT; fig++)
		CHECK(strlen(out->basis[fig].inputs) < SC_MODEL_TEXT_MAX - 1 &&
			  strlen(out->basis[fig].assumptions) < SC_MODEL_TEXT_MAX - 1,
		      "basis %d cut short", fig);
	printf("constant 1 GB/s drives, 405b TP4 PP2 ZeRO-1, D=2: N=512 ckpt %.3f s (busiest "
	       "node %.1f GB of %.1f GB)\n",
	       out->rows[3].ckpt.mean_ns / 1e9, out->rows[3].node_bytes_max / 1e9,
	       out->rows[3].ckpt_bytes / 1e9);
	fake_free(&f);
	free(out);
}

/* Measured restores: 4 drives reading 1 GB in 0.5 s (2 B/ns) give the
 * restore time at N, which is the restart R of the policy: lost share =
 * (tau + delta) / 2M + R / M, worked here from the projection's own delta
 * and tau.  A drive without restores: no restore figures. */
static void test_restore(void)
{
	static const uint32_t sizes[] = {64, 512};
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	struct sc_model_drive rd[4];
	uint64_t rbytes[4], rdur[4];
	struct fake f;
	char err[256];

	fake_ckpt(&f, 4, 1, 0, "llama3.1-405b", 4, 2, 1);
	for (int i = 0; i < 4; i++) {
		rbytes[i] = GB;
		rdur[i] = NS_PER_S / 2;
		rd[i] = (struct sc_model_drive){.nckpts = 1, .bytes = &rbytes[i], .dur_ns = &rdur[i]};
	}
	f.m.has_restore = true;
	f.m.restore_drives = rd;
	params_defaults(&p);
	set_sizes(&p, 2, sizes);
	p.drives_per_node = 1;
	p.restart_ns = 60 * NS_PER_S;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(out->basis[SC_MODEL_FIG_RESTORE].present &&
		  strstr(out->basis[SC_MODEL_FIG_RESTORE].inputs, "4 samples: 4 drive(s)") &&
		  strstr(out->basis[SC_MODEL_FIG_POLICY].inputs, "restore"),
	      "restore basis: %s / policy: %s", out->basis[SC_MODEL_FIG_RESTORE].inputs,
	      out->basis[SC_MODEL_FIG_POLICY].inputs);
	for (uint32_t i = 0; i < out->nrows; i++) {
		const struct sc_model_row *r = &out->rows[i];
		double want = (double)r->drive_bytes_max / 2; /* 2 B/ns */
		double m = (double)p.node_mtbf_ns / sizes[i], delta = ceil(r->ckpt.mean_ns);
		double restart = 60e9 + ceil(r->restore.mean_ns);
		double lost = (r->policy.tau_ns + delta) / (2 * m) + restart / m;

		CHECK(r->has_restore && rel_close(r->restore.mean_ns, want, 1e-12),
		      "N=%u restore %.17g want %.17g", sizes[i], r->restore.mean_ns, want);
		CHECK(rel_close(r->policy.lost_share, lost, 1e-9),
		      "N=%u lost share %.17g, by hand %.17g", sizes[i], r->policy.lost_share, lost);
	}
	fake_free(&f);
	/* a drive without restores: no restore figures, R as given */
	fake_ckpt(&f, 4, 1, 0, "llama3.1-405b", 4, 2, 1);
	rd[3].nckpts = 0;
	f.m.has_restore = true;
	f.m.restore_drives = rd;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(!out->basis[SC_MODEL_FIG_RESTORE].present && !out->rows[0].has_restore,
	      "restores of some drives only: none used");
	fake_free(&f);
	free(out);
}

/* Sizes the layout does not fit: why_not, ingest still given; none fits: -EINVAL. */
static void test_layout_fit(void)
{
	static const uint32_t sizes[] = {8, 32, 48, 64};
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	struct fake f;
	char err[256];

	fake_ckpt(&f, 4, 2, 0.1, "llama3.1-405b", 8, 32, 1);
	f.m.has_ingest = true;
	f.m.batch_wait = xcalloc(1, sizeof(*f.m.batch_wait));
	sc_hist_init(f.m.batch_wait);
	sc_hist_record(f.m.batch_wait, 1000);
	f.m.compute_per_batch_ns = 100000;
	f.m.batch_bytes = 1 << 20;
	params_defaults(&p);
	set_sizes(&p, 4, sizes);
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(!out->rows[0].layout_fits &&
		  strstr(out->rows[0].why_not, "not a multiple of tp x pp"),
	      "N=8: %s", out->rows[0].why_not);
	CHECK(out->rows[1].layout_fits && out->rows[1].dp == 1 && !out->rows[2].layout_fits &&
		  out->rows[3].layout_fits && out->rows[3].dp == 2,
	      "32 and 64 fit, 48 does not");
	CHECK(out->rows[0].ckpt.mean_ns == 0 && out->rows[0].au > 0 && out->rows[2].au > 0,
	      "ingest figures where the layout does not fit");
	set_sizes(&p, 2, sizes);
	p.nodes[1] = 16;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "fits none"),
	      "no size fits: %s", err);
	/* another model than the run's brings its MLPerf layout */
	snprintf(p.model, sizeof(p.model), "llama3-8b");
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == 0 && out->params.tp == 1 &&
		  out->params.pp == 1 && out->params.zero_stage == 3 && out->rows[0].layout_fits,
	      "llama3-8b over a 405b run: %s TP%u PP%u ZeRO-%d", out->params.model, out->params.tp,
	      out->params.pp, out->params.zero_stage);
	p.model[0] = 0;
	p.tp = 3;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == -EINVAL && strstr(err, "tp"),
	      "tp 3 refused: %s", err);
	fake_free(&f);
	free(out);
}

/* 1 - F(x)^k integrated numerically over linear buckets, for checking. */
static double mean_max_numeric(const double *edge, const double *cdf, int n, double k)
{
	double sum = 0;

	for (int i = 0; i + 1 < n; i++) {
		enum { STEPS = 100000 };
		double w = (edge[i + 1] - edge[i]) / STEPS;

		for (int s = 0; s < STEPS; s++) {
			double t = (s + 0.5) / STEPS, f = cdf[i] + (cdf[i + 1] - cdf[i]) * t;

			sum += w * (1 - pow(f, k));
		}
	}
	return sum;
}

/* Ingest: 900 waits of 10 ns, 100 of 200 ns, compute 900 ns: a wait over
 * 100 ns (compute / 9) stalls, so p_rank = 0.1, p_node = 1 - 0.9^G,
 * p_step = 1 - (1 - p_node)^N; quantiles F^-1(q^(1/(N G))). */
static void test_ingest(void)
{
	static const uint32_t sizes[] = {1, 4, 64};
	/* F at the edges of [0,10) [10,11) [11,200) [200,201) */
	static const double edge[] = {0, 10, 11, 200, 201}, cdf[] = {0, 0, 0.9, 0.9, 1};
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	struct sc_model_measured m;
	char err[256];

	memset(&m, 0, sizeof(m));
	snprintf(m.run_id, sizeof(m.run_id), "ingest-run");
	m.has_ingest = true;
	snprintf(m.ingest_phase, sizeof(m.ingest_phase), "ingest");
	m.ingest_ranks_per_node = 4;
	m.compute_per_batch_ns = 900;
	m.batch_bytes = 8 << 20;
	m.batch_wait = xcalloc(1, sizeof(*m.batch_wait));
	sc_hist_init(m.batch_wait);
	for (int i = 0; i < 1000; i++)
		sc_hist_record(m.batch_wait, i < 900 ? 10 : 200);
	params_defaults(&p);
	set_sizes(&p, 3, sizes);
	CHECK(sc_model_project(&m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	for (uint32_t i = 0; i < 3; i++) {
		const struct sc_model_row *r = &out->rows[i];
		double k = 8.0 * sizes[i], p_node = 1 - pow(0.9, 8);
		double p_step = 1 - pow(1 - p_node, sizes[i]);
		double q50 = pow(0.5, 1 / k), q99 = pow(0.99, 1 / k);
		double want50 = q50 <= 0.9 ? 10 + q50 / 0.9 : 200 + (q50 - 0.9) / 0.1;
		double want99 = q99 <= 0.9 ? 10 + q99 / 0.9 : 200 + (q99 - 0.9) / 0.1;
		double mean = mean_max_numeric(edge, cdf, 5, k);

		CHECK(rel_close(r->p_node_stall, p_node, 1e-12), "N=%u p_node %.17g", sizes[i],
		      r->p_node_stall);
		CHECK(rel_close(r->p_step_stall, p_step, 1e-12), "N=%u p_step %.17g want %.17g",
		      sizes[i], r->p_step_stall, p_step);
		CHECK(rel_close(r->step_wait_p50_ns, want50, 1e-9) &&
			  rel_close(r->step_wait_p99_ns, want99, 1e-9),
		      "N=%u p50 %.9g (want %.9g) p99 %.9g (want %.9g)", sizes[i],
		      r->step_wait_p50_ns, want50, r->step_wait_p99_ns, want99);
		CHECK(rel_close(r->step_wait_mean_ns, mean, 1e-6), "N=%u mean %.9g want %.9g",
		      sizes[i], r->step_wait_mean_ns, mean);
		CHECK(rel_close(r->au, 900 / (900 + mean), 1e-6), "N=%u AU %.6f", sizes[i], r->au);
		CHECK(rel_close(r->read_bytes_per_s_node_au90, 8.0 * (8 << 20) * 1e9 / 1000, 1e-12),
		      "N=%u read %.6g B/s", sizes[i], r->read_bytes_per_s_node_au90);
		CHECK(!r->layout_fits && strstr(r->why_not, "no checkpoint inputs"),
		      "N=%u: no checkpoint figures: %s", sizes[i], r->why_not);
	}
	printf("ingest p_rank 0.1, G=8: N=64 p_step %.6f, p50 %.2f ns, mean %.2f ns, AU %.4f\n",
	       out->rows[2].p_step_stall, out->rows[2].step_wait_p50_ns,
	       out->rows[2].step_wait_mean_ns, out->rows[2].au);
	CHECK(out->basis[SC_MODEL_FIG_INGEST].present && out->basis[SC_MODEL_FIG_READ_BW].present &&
		  !out->basis[SC_MODEL_FIG_CKPT].present,
	      "ingest basis only");
	/* waits beyond the histogram's resolution (its last bucket is
	 * open-ended): the exact min and max bound them */
	sc_hist_init(m.batch_wait);
	for (int i = 0; i < 10; i++)
		sc_hist_record(m.batch_wait, 5000000000000ull);
	CHECK(sc_model_project(&m, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(out->rows[2].step_wait_p99_ns >= 5e12 && out->rows[2].step_wait_p99_ns <= 5e12 + 1 &&
		  rel_close(out->rows[2].step_wait_mean_ns, 5e12, 1e-12) &&
		  out->rows[2].p_step_stall == 1,
	      "waits of 5000 s: p99 %.17g, mean %.17g", out->rows[2].step_wait_p99_ns,
	      out->rows[2].step_wait_mean_ns);
	free(m.batch_wait);
	free(out);
}

/* Parameters only: the stated rate is the drive, the MLPerf 405B layout. */
static void test_parameters_only(void)
{
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	char err[256];

	params_defaults(&p);
	p.nodes[0] = 32;
	CHECK(sc_model_project(NULL, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "drive write"),
	      "nothing stated: %s", err);
	p.drive_write_bytes_per_s = 5e9;
	p.nodes[1] = 32;
	CHECK(sc_model_project(NULL, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "strictly increasing"),
	      "sizes not increasing: %s", err);
	p.nodes[1] = 64;
	p.overhead_target = 1;
	CHECK(sc_model_project(NULL, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "overhead_target"),
	      "overhead 100%%: %s", err);
	p.overhead_target = 0.05;
	snprintf(p.model, sizeof(p.model), "gpt-5");
	CHECK(sc_model_project(NULL, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "unknown model \"gpt-5\""),
	      "unknown model: %s", err);
	p.model[0] = 0;
	CHECK(sc_model_project(NULL, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	CHECK(!out->measured && !strcmp(out->source, "stated per-drive figures"), "source %s",
	      out->source);
	CHECK(!strcmp(out->params.model, "llama3.1-405b") && out->params.tp == 8 &&
		  out->params.pp == 32 && out->params.zero_stage == 1 &&
		  out->params.drives_per_node == 1,
	      "MLPerf layout, one drive a node");
	for (uint32_t i = 0; i < out->nrows; i++) {
		const struct sc_model_row *r = &out->rows[i];
		double want = (double)r->drive_bytes_max / 5e9 * 1e9;

		CHECK(r->layout_fits && rel_close(r->ckpt.mean_ns, want, 1e-9) &&
			  rel_close(r->ckpt.p90_ns, r->ckpt.mean_ns, 1e-12),
		      "N=%u: %.6g ns, want %.6g", r->nodes, r->ckpt.mean_ns, want);
	}
	CHECK(strstr(out->basis[SC_MODEL_FIG_CKPT].inputs, "one constant sample"), "basis: %s",
	      out->basis[SC_MODEL_FIG_CKPT].inputs);
	printf("stated 5 GB/s, 1 drive a node, 405b MLPerf: N=512 ckpt %.1f s, tau %.0f s, "
	       "goodput %.4f, drives for 5%% %u\n",
	       out->rows[2].ckpt.mean_ns / 1e9, out->rows[2].policy.tau_ns / 1e9,
	       out->rows[2].policy.goodput, out->rows[2].sizing.drives_per_node);
	CHECK(!out->basis[SC_MODEL_FIG_RESTORE].present && !out->rows[0].has_restore,
	      "no stated read rate: no restore");
	/* a stated read rate: the restore reads the same bytes at 10 GB/s */
	p.drive_read_bytes_per_s = 10e9;
	CHECK(sc_model_project(NULL, &p, out, err, sizeof(err)) == 0, "project: %s", err);
	for (uint32_t i = 0; i < out->nrows; i++) {
		const struct sc_model_row *r = &out->rows[i];
		double want = (double)r->drive_bytes_max / 10e9 * 1e9;

		CHECK(r->has_restore && rel_close(r->restore.mean_ns, want, 1e-9),
		      "N=%u: restore %.6g ns, want %.6g", r->nodes, r->restore.mean_ns, want);
	}
	CHECK(out->basis[SC_MODEL_FIG_RESTORE].present &&
		  strstr(out->basis[SC_MODEL_FIG_RESTORE].inputs, "stated drive read rate"),
	      "restore basis: %s", out->basis[SC_MODEL_FIG_RESTORE].inputs);
	free(out);
}

/* Same inputs and seed: the same bytes; another seed changes only what
 * the band (its bootstrap) draws. */
static void test_determinism(void)
{
	struct sc_model_params p;
	struct sc_model_projection *a = xcalloc(1, sizeof(*a)), *b = xcalloc(1, sizeof(*b));
	struct fake f;
	char err[256];

	fake_ckpt(&f, 16, 3, 0.05, "llama3-8b", 1, 1, 3);
	params_defaults(&p);
	p.drives_per_node = 1;
	memset(b, 0xa5, sizeof(*b));
	CHECK(sc_model_project(&f.m, &p, a, err, sizeof(err)) == 0 &&
		  sc_model_project(&f.m, &p, b, err, sizeof(err)) == 0,
	      "project: %s", err);
	CHECK(!memcmp(a, b, sizeof(*a)), "same seed, different bytes");
	p.seed = 2;
	CHECK(sc_model_project(&f.m, &p, b, err, sizeof(err)) == 0, "seed 2");
	CHECK(a->rows[1].ckpt.mean_ns == b->rows[1].ckpt.mean_ns &&
		  a->rows[1].ckpt.mean_low_ns != b->rows[1].ckpt.mean_low_ns,
	      "another seed: E[max] is not drawn, its band is");
	CHECK(a->rows[1].ckpt_bytes == b->rows[1].ckpt_bytes &&
		  a->rows[1].ckpt_tail_exp_ns == b->rows[1].ckpt_tail_exp_ns &&
		  a->rows[1].ckpt.max_sample_ns == b->rows[1].ckpt.max_sample_ns,
	      "another seed changed what is not drawn");
	/* spread drives: the slowest of more drives is slower */
	CHECK(a->rows[0].ckpt.mean_ns < a->rows[3].ckpt.mean_ns * a->rows[0].drive_bytes_max /
					    (double)a->rows[3].drive_bytes_max,
	      "E[max] per byte does not grow with N");
	fake_free(&f);
	free(a);
	free(b);
}

/* A run record of 4 ranks on 2 nodes, one target: ncells checkpoint
 * write cells of group "ckpt" (rank r writes (r + 1) MB, ending at
 * (r + 1 + cell) ms after the measured start), one restore, an io phase;
 * engine as given.  Freed with rec_free. */
static void rec_make(struct sc_run_record *rec, uint32_t ncells, enum sc_engine_kind engine)
{
	uint32_t nph = ncells + 2;

	memset(rec, 0, sizeof(*rec));
	rec->plan.run_id = strdup("rec-run");
	rec->plan.nphases = nph;
	rec->plan.phases = xcalloc(nph, sizeof(struct sc_phase));
	rec->nranks = 4;
	rec->nnodes = 2;
	rec->nphases = nph;
	rec->phases = xcalloc(nph, sizeof(struct sc_phase_record));
	for (uint32_t i = 0; i < nph; i++) {
		struct sc_phase *ph = &rec->plan.phases[i];
		struct sc_phase_record *pr = &rec->phases[i];
		bool io = i == nph - 1, restore = i == ncells;

		ph->name = strdup(io ? "io" : "ckpt");
		ph->group = strdup(io ? "io" : "ckpt");
		ph->workload = io ? SC_WORKLOAD_IO : SC_WORKLOAD_CHECKPOINT;
		ph->io.engine = engine;
		sc_ckpt_model_lookup("llama3-8b", &ph->ckpt.model);
		ph->ckpt.layout =
		    (struct sc_ckpt_layout){.tp = 1, .pp = 1, .dp = 4, .zero_stage = 3};
		ph->ckpt.index = restore ? 1 : i + 1;
		ph->ckpt.restore = restore;
		ph->ckpt.scale = 0.001;
		pr->phase = i;
		pr->measure_start_ns = 1000;
		pr->nranks = 4;
		pr->ranks = xcalloc(4, sizeof(struct sc_rank_result));
		for (uint32_t r = 0; r < 4; r++) {
			struct sc_rank_result *rr = &pr->ranks[r];

			rr->rank = r;
			rr->node = r / 2;
			rr->bytes[restore ? SC_DIR_READ : SC_DIR_WRITE] = (r + 1) * 1000000ull;
			rr->end_ns = 1000 + (int64_t)(r + 1 + i) * 1000000;
		}
	}
}

static void rec_free(struct sc_run_record *rec)
{
	for (uint32_t i = 0; i < rec->plan.nphases; i++) {
		free(rec->plan.phases[i].name);
		free(rec->plan.phases[i].group);
		free(rec->phases[i].ranks);
	}
	free(rec->plan.phases);
	free(rec->phases);
	free(rec->plan.run_id);
}

/* Drives out of a record: a target per node, or a rank when emulated;
 * a failed cell is skipped; no checkpoint or ingest: -ENOENT. */
/* sc_model_measured_from_record with rec's figures built here. */
static int measured_of(const struct sc_run_record *rec, struct sc_model_measured *m, char *err,
		       size_t errlen)
{
	struct sc_run_figures fg;
	int rc = sc_run_figures_of(&fg, rec);

	if (!rc)
		rc = sc_model_measured_from_record(rec, &fg, m, err, errlen);
	sc_run_figures_exit(&fg);
	return rc;
}

static void test_from_record(void)
{
	struct sc_run_record rec;
	struct sc_model_measured m;
	char err[512];

	rec_make(&rec, 3, SC_ENGINE_PSYNC);
	rec.phases[1].status = SC_PHASE_TIMED_OUT;
	CHECK(measured_of(&rec, &m, err, sizeof(err)) == 0, "record: %s", err);
	CHECK(m.has_ckpt && !m.has_ingest && m.ndrives == 2 && m.drives_per_node == 1 &&
		  m.nckpts == 2 && !strcmp(m.ckpt_group, "ckpt") && !strcmp(m.run_id, "rec-run"),
	      "2 drives (a target on each of 2 nodes), 2 cells ok: %u drives, %u ckpts", m.ndrives,
	      m.nckpts);
	/* node 1: ranks 2 and 3 write 3 + 4 MB; the slowest ends 4 ms (cell 0)
	 * and 6 ms (cell 2) after the measured start */
	CHECK(m.drives[1].nckpts == 2 && m.drives[1].bytes[0] == 7000000 &&
		  m.drives[1].dur_ns[0] == 4000000 && m.drives[1].dur_ns[1] == 6000000,
	      "node 1's drive: %llu B in %llu ns", (unsigned long long)m.drives[1].bytes[0],
	      (unsigned long long)m.drives[1].dur_ns[0]);
	CHECK(m.has_restore && m.restore_drives[0].nckpts == 1 &&
		  m.restore_drives[0].bytes[0] == 3000000,
	      "restore of node 0: ranks 0 and 1 read 1 + 2 MB");
	CHECK(!strcmp(m.model.name, "llama3-8b") && m.layout.zero_stage == 3 && m.scale == 0.001,
	      "the group's model and layout");
	sc_model_measured_free(&m);
	rec_free(&rec);

	rec_make(&rec, 2, SC_ENGINE_EMULATED);
	CHECK(measured_of(&rec, &m, err, sizeof(err)) == 0, "emulated: %s", err);
	CHECK(m.ndrives == 4 && m.drives_per_node == 2 && m.drives[3].bytes[0] == 4000000 &&
		  m.drives[3].dur_ns[1] == 5000000,
	      "emulated: a drive a rank: %u drives, %u a node", m.ndrives, m.drives_per_node);
	sc_model_measured_free(&m);
	for (uint32_t i = 0; i + 1 < rec.nphases; i++)
		rec.plan.phases[i].workload = SC_WORKLOAD_IO;
	CHECK(measured_of(&rec, &m, err, sizeof(err)) == -ENOENT &&
		  strstr(err, "rec-run") && strstr(err, "workload: checkpoint") &&
		  strstr(err, "configs/llm_ckpt.yaml") && strstr(err, "workload: ingest"),
	      "no checkpoint or ingest: %s", err);
	rec_free(&rec);
}

/* Measured drives the estimator cannot use: -EINVAL naming the drive. */
static void test_impossible_drives(void)
{
	struct sc_model_params p;
	struct sc_model_projection *out = xcalloc(1, sizeof(*out));
	struct fake f;
	char err[256] = "";

	fake_ckpt(&f, 4, 10, 0.1, "llama3-8b", 1, 1, 3);
	params_defaults(&p);
	f.bytes[2 * 10 + 3] = 0;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "measured drive 2 wrote 0 bytes in checkpoint 3"),
	      "0 bytes: %s", err);
	f.bytes[2 * 10 + 3] = GB;
	f.d[1].nckpts = 0;
	CHECK(sc_model_project(&f.m, &p, out, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "measured drive 1 has no checkpoint samples"),
	      "no samples: %s", err);
	fake_free(&f);
	free(out);
}

int main(void)
{
	test_impossible_drives();
	test_node_classes();
	test_busiest_and_median();
	test_dwpd_at_answer();
	test_restart_default();
	test_constant_and_classes();
	test_restore();
	test_layout_fit();
	test_ingest();
	test_parameters_only();
	test_determinism();
	test_from_record();
	return check_exit("test_model_project");
}
