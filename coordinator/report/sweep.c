/* sweep.c -- the sweep matrices (analysis/sweep_matrix.h) as results.json
 * shows them and as the printed bs x iodepth grid, one per rw. */
#include <json-c/json.h>
#include <stdio.h>

#include "analysis/sweep_matrix.h"
#include "report.h"
#include "report_priv.h"
#include "units.h"

/* Width of a column of the grid: "123456.7" MB/s and a blank. */
#define GRID_COL 10

static struct json_object *scope_json(struct jb *b, struct json_object *o,
				      const struct sc_sweep_figures *f)
{
	struct json_object *lat = sc_json_new(b, json_object_new_object());

	sc_json_put_dbl(b, o, "bw_bytes_per_s", f->bw_bytes_per_s);
	sc_json_put_mbps(b, o, "bw_MBps", f->bw_bytes_per_s);
	sc_json_put_dbl(b, o, "iops", f->iops);
	sc_json_put(b, lat, "read", sc_report_json_lat(b, &f->lat[SC_DIR_READ]));
	sc_json_put(b, lat, "write", sc_report_json_lat(b, &f->lat[SC_DIR_WRITE]));
	sc_json_put(b, o, "latency_ns", lat);
	return o;
}

static struct json_object *cell_json(struct jb *b, const struct sc_plan *plan,
				     const struct sc_sweep_cell *c)
{
	struct json_object *o = sc_json_new(b, json_object_new_object());
	struct json_object *nodes;

	sc_json_put_u64(b, o, "cell", c->cell);
	sc_json_put_str(b, o, "phase", plan->phases[c->phase].name);
	sc_json_put_str(b, o, "rw", sc_rw_name((enum sc_rw)c->v[SC_SWEEP_RW]));
	sc_json_put_u64(b, o, "bs_bytes", c->v[SC_SWEEP_BS]);
	sc_json_put_u64(b, o, "iodepth", c->v[SC_SWEEP_IODEPTH]);
	sc_json_put_bool(b, o, "measured", c->measured);
	if (!c->measured) {
		sc_json_put_null(b, o, "status");
		sc_json_put_null(b, o, "cluster");
		sc_json_put_null(b, o, "nodes");
		return o;
	}
	sc_json_put_str(b, o, "status", sc_phase_status_name(c->status));
	sc_json_put(b, o, "cluster",
		    scope_json(b, sc_json_new(b, json_object_new_object()), &c->cluster));
	nodes = sc_json_new(b, json_object_new_array());
	for (uint32_t n = 0; n < c->nnodes; n++) {
		struct json_object *no = sc_json_new(b, json_object_new_object());

		sc_report_json_node_host(b, no, c->nodes[n].node, c->nodes[n].host);
		sc_json_push(b, nodes, scope_json(b, no, &c->nodes[n].f));
	}
	sc_json_put(b, o, "nodes", nodes);
	return o;
}

/* {"rw": [...], "bs_bytes": [...], "iodepth": [...]}: the axes in the
 * order the cells vary (the last fastest), each one's values in config
 * order. */
static struct json_object *axes_json(struct jb *b, const struct sc_sweep *sw)
{
	struct json_object *axes = sc_json_new(b, json_object_new_object());

	for (int a = 0; a < SC_SWEEP_AXES; a++) {
		struct json_object *v = sc_json_new(b, json_object_new_array());

		for (uint32_t i = 0; i < sw->naxis[a]; i++)
			sc_json_push(b, v,
				     a == SC_SWEEP_RW
					 ? sc_json_new(b, json_object_new_string(sc_rw_name(
							      (enum sc_rw)sw->axis[a][i])))
					 : sc_json_new(b, json_object_new_uint64(sw->axis[a][i])));
		sc_json_put(b, axes, sc_sweep_axis_names[a], v);
	}
	return axes;
}

struct json_object *sc_report_json_sweeps(struct jb *b, const struct sc_sweeps *s)
{
	struct json_object *a = sc_json_new(b, json_object_new_array());

	for (uint32_t k = 0; k < s->n; k++) {
		const struct sc_sweep *sw = &s->s[k];
		struct json_object *g = sc_json_new(b, json_object_new_object());
		struct json_object *o = sc_json_new(b, json_object_new_object());
		struct json_object *cells = sc_json_new(b, json_object_new_array());

		sc_json_put_str(b, g, "name", sw->name);
		sc_json_put_u64(b, g, "config_index", sw->config_index);
		sc_json_put(b, o, "axes", axes_json(b, sw));
		for (uint32_t c = 0; c < sw->ncells; c++)
			sc_json_push(b, cells, cell_json(b, s->plan, &sw->cells[c]));
		sc_json_put(b, o, "cells", cells);
		sc_json_put(b, g, "sweep", o);
		sc_json_push(b, a, g);
	}
	return a;
}

/* The grid of one rw value r of sw: a row per bs, a column per iodepth. */
static void grid(FILE *f, const struct sc_sweep *sw, uint32_t r)
{
	char buf[32];

	fprintf(f, "  %s: %s, MB/s (cluster) by bs and iodepth:\n", sw->name,
		sc_rw_name((enum sc_rw)sw->axis[SC_SWEEP_RW][r]));
	fprintf(f, "  %10s", "bs \\ QD");
	for (uint32_t q = 0; q < sw->naxis[SC_SWEEP_IODEPTH]; q++)
		fprintf(f, "%*llu", GRID_COL, (unsigned long long)sw->axis[SC_SWEEP_IODEPTH][q]);
	fputc('\n', f);
	for (uint32_t s = 0; s < sw->naxis[SC_SWEEP_BS]; s++) {
		fprintf(f, "  %10s", sc_fmt_bytes(buf, sizeof(buf), sw->axis[SC_SWEEP_BS][s]));
		for (uint32_t q = 0; q < sw->naxis[SC_SWEEP_IODEPTH]; q++) {
			const struct sc_sweep_cell *c =
			    sc_sweep_cell_at(sw, (const uint32_t[SC_SWEEP_AXES]){r, s, q});

			if (c && c->measured)
				fprintf(f, "%*.1f", GRID_COL,
					c->cluster.bw_bytes_per_s / SC_BYTES_PER_MB);
			else
				fprintf(f, "%*s", GRID_COL, "-");
		}
		fputc('\n', f);
	}
}

void sc_report_sweep_grids(FILE *f, const struct sc_sweep *sw)
{
	for (uint32_t r = 0; r < sw->naxis[SC_SWEEP_RW]; r++)
		grid(f, sw, r);
}
