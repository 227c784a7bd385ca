/* test_sweep_matrix.c -- sweeps from config to matrix: configs/gdsio_sweep.yaml
 * expands into 48 cells in the order rw, bs, iodepth (fastest), named by
 * their values; the matrix of a plan has one sweep per swept config phase
 * (not the unswept ones), its axes in config order, every cell at its place;
 * a phase record's figures land in its cell as they are, the cluster's and
 * each node's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sweep_matrix.h"
#include "check.h"
#include "config/config.h"

#define GDSIO_CELLS 48u

static const uint64_t gdsio_bs[] = {1u << 20, 128u << 10, 16u << 10};
static const uint64_t gdsio_qd[] = {1, 2, 4, 8, 16, 32, 64, 128};
static const enum sc_rw gdsio_rw[] = {SC_RW_WRITE, SC_RW_READ};

/* Loads path (sets: --set overrides) into plan; false when it fails. */
static bool load(const char *path, const char *const *sets, uint32_t nsets, struct sc_plan *plan)
{
	struct sc_config *cfg = NULL;
	char err[1024];
	int rc = sc_config_load(&cfg, path, sets, nsets, err, sizeof(err));

	CHECK(rc == 0, "%s: %s", path, err);
	if (rc)
		return false;
	sc_config_take_plan(cfg, plan);
	sc_config_destroy(cfg);
	return true;
}

/* The plan of gdsio_sweep.yaml: 48 cells, rw then bs then iodepth. */
static void check_expansion(const struct sc_plan *plan)
{
	char want[128];

	CHECK(plan->nphases == GDSIO_CELLS, "%u cells, want %u", plan->nphases, GDSIO_CELLS);
	for (uint32_t p = 0; p < plan->nphases && p < GDSIO_CELLS; p++) {
		const struct sc_phase *ph = &plan->phases[p];
		uint32_t q = p % 8, b = p / 8 % 3, r = p / 24;

		CHECK(ph->cell == p && ph->ncells == GDSIO_CELLS, "phase %u: cell %u of %u", p,
		      ph->cell, ph->ncells);
		CHECK(ph->io.rw == gdsio_rw[r] && ph->io.bs_bytes == gdsio_bs[b] &&
			  ph->io.iodepth == gdsio_qd[q],
		      "phase %u: %s bs %llu QD %u", p, sc_rw_name(ph->io.rw),
		      (unsigned long long)ph->io.bs_bytes, ph->io.iodepth);
		snprintf(want, sizeof(want), "gdsio[rw=%s,bs=%s,iodepth=%llu]",
			 sc_rw_name(gdsio_rw[r]),
			 b == 0	  ? "1MiB"
			 : b == 1 ? "128KiB"
				  : "16KiB",
			 (unsigned long long)gdsio_qd[q]);
		CHECK(strcmp(ph->name, want) == 0, "phase %u named %s, want %s", p, ph->name, want);
	}
}

/* The matrix of that plan, nothing measured. */
static void check_matrix(const struct sc_plan *plan)
{
	struct sc_sweeps s;
	const struct sc_sweep *sw;

	CHECK(sc_sweeps_init(&s, plan) == 0, "sc_sweeps_init failed");
	CHECK(s.n == 1, "%u sweeps, want 1", s.n);
	sw = sc_sweeps_find(&s, "gdsio");
	CHECK(sw != NULL, "no sweep gdsio");
	if (!sw)
		return sc_sweeps_exit(&s);
	CHECK(sw->ncells == GDSIO_CELLS, "%u cells", sw->ncells);
	CHECK(sw->naxis[SC_SWEEP_RW] == 2 && sw->naxis[SC_SWEEP_BS] == 3 &&
		  sw->naxis[SC_SWEEP_IODEPTH] == 8,
	      "axes %u x %u x %u", sw->naxis[0], sw->naxis[1], sw->naxis[2]);
	for (uint32_t i = 0; i < 3 && sw->naxis[SC_SWEEP_BS] == 3; i++)
		CHECK(sw->axis[SC_SWEEP_BS][i] == gdsio_bs[i], "bs axis %u: %llu", i,
		      (unsigned long long)sw->axis[SC_SWEEP_BS][i]);
	CHECK(sw->axis[SC_SWEEP_RW][0] == SC_RW_WRITE, "rw axis starts with %llu",
	      (unsigned long long)sw->axis[SC_SWEEP_RW][0]);
	for (uint32_t c = 0; c < sw->ncells; c++) {
		const struct sc_sweep_cell *cell = &sw->cells[c];

		CHECK(cell->phase == c && cell->cell == c && !cell->measured, "cell %u: phase %u",
		      c, cell->phase);
		CHECK(cell->at[SC_SWEEP_RW] == c / 24 && cell->at[SC_SWEEP_BS] == c / 8 % 3 &&
			  cell->at[SC_SWEEP_IODEPTH] == c % 8,
		      "cell %u at %u,%u,%u", c, cell->at[0], cell->at[1], cell->at[2]);
		CHECK(sc_sweep_cell_at(sw, cell->at) == cell, "cell %u not found at its place", c);
	}
	sc_sweeps_exit(&s);
}

/* Two sweeps around an unswept phase; figures of one record in its cell. */
static void check_add(const char *dir)
{
	char path[512];
	FILE *f;
	struct sc_plan plan;
	struct sc_sweeps s;
	struct sc_node_row nodes[2] = {
	    {.node = 0, .host = "a", .bw_bytes_per_s = 3e6, .iops = {10, 20}},
	    {.node = 1, .host = "b", .bw_bytes_per_s = 1e6}};
	struct sc_phase_figures fig = {
	    .lastdone_bw_bytes_per_s = 4e6, .iops_total = 31, .nodes_len = 2, .nodes = nodes};
	struct sc_phase_record pr = {.phase = 4, .status = SC_PHASE_OK};
	const struct sc_sweep_cell *c;

	snprintf(path, sizeof(path), "%s/two.yaml", dir);
	f = fopen(path, "w");
	if (!f)
		return FAIL("cannot write %s", path);
	fprintf(f,
		"targets: [{path: %s}]\nphases:\n"
		"  - {name: a, rw: [read, write], size: 1MiB}\n"
		"  - {name: one, rw: read, size: 1MiB}\n"
		"  - {name: b, rw: randread, bs: [8KiB, 4KiB], iodepth: [2, 1], size: 1MiB}\n",
		dir);
	fclose(f);
	if (!load(path, NULL, 0, &plan))
		return;
	CHECK(plan.nphases == 7, "%u plan phases, want 2 + 1 + 4", plan.nphases);
	CHECK(sc_sweeps_init(&s, &plan) == 0 && s.n == 2, "%u sweeps, want 2", s.n);
	if (s.n == 2) {
		CHECK(strcmp(s.s[0].name, "a") == 0 && strcmp(s.s[1].name, "b") == 0,
		      "sweeps %s, %s", s.s[0].name, s.s[1].name);
		CHECK(s.s[1].axis[SC_SWEEP_IODEPTH][0] == 2 && s.s[1].axis[SC_SWEEP_BS][1] == 4096,
		      "b's axes not in config order");
		/* phase 4 is b's cell 1: bs 8KiB, iodepth 1 */
		fig.lat[SC_DIR_READ].count = 5;
		fig.lat[SC_DIR_READ].pct_ns[sc_pct_index(99)] = 777;
		nodes[1].lat[SC_DIR_READ].mean_ns = 12.5;
		CHECK(sc_sweeps_add(&s, &pr, &fig) == 0, "sc_sweeps_add failed");
		c = &s.s[1].cells[1];
		CHECK(c->measured && c->v[SC_SWEEP_BS] == 8192 && c->v[SC_SWEEP_IODEPTH] == 1,
		      "cell 1 of b: measured %d bs %llu", c->measured,
		      (unsigned long long)c->v[SC_SWEEP_BS]);
		CHECK(c->cluster.bw_bytes_per_s == 4e6 && c->cluster.iops == 31 &&
			  c->cluster.lat[SC_DIR_READ].pct_ns[sc_pct_index(99)] == 777,
		      "cluster figures not as given");
		CHECK(c->nnodes == 2 && c->nodes[0].f.iops == 30 &&
			  strcmp(c->nodes[1].host, "b") == 0 &&
			  c->nodes[1].f.lat[SC_DIR_READ].mean_ns == 12.5,
		      "node figures not as given");
		CHECK(!s.s[1].cells[0].measured && !s.s[0].cells[1].measured,
		      "another cell got phase 4's figures");
		pr.phase = 2; /* the unswept phase: no cell */
		CHECK(sc_sweeps_add(&s, &pr, &fig) == 0, "an unswept phase failed");
	}
	sc_sweeps_exit(&s);
	sc_plan_exit(&plan);
}

int main(void)
{
	char dir[256], path[512];
	const char *src = getenv("SC_SOURCE_DIR");
	struct sc_plan plan;

	check_mkdtemp(dir, sizeof(dir), "test_sweep_matrix");
	/* small enough for any temp dir's free space */
	setenv("SSDCLUSTER_TARGET", dir, 1);
	setenv("SSDCLUSTER_CAPACITY", "1GiB", 1);
	setenv("SSDCLUSTER_SIZE", "64MiB", 1);
	snprintf(path, sizeof(path), "%s/configs/gdsio_sweep.yaml", src ? src : ".");
	if (load(path, NULL, 0, &plan)) {
		check_expansion(&plan);
		check_matrix(&plan);
		sc_plan_exit(&plan);
	}
	check_add(dir);
	check_rmtree(dir);
	return check_exit("test_sweep_matrix");
}
