/* sweep_matrix.c -- a sweep's cells as a matrix, from the phase figures
 * (sweep_matrix.h). */
#include "sweep_matrix.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const sc_sweep_axis_names[SC_SWEEP_AXES] = {"rw", "bs_bytes", "iodepth"};

static bool is_sweep(const struct sc_phase *ph)
{
	return (ph->workload == SC_WORKLOAD_IO || ph->workload == SC_WORKLOAD_KVCACHE) &&
	       ph->ncells > 1;
}

/* The sweep of plan phase ph, or NULL. */
static struct sc_sweep *sweep_of(const struct sc_sweeps *s, const struct sc_phase *ph)
{
	for (uint32_t k = 0; k < s->n; k++)
		if (s->s[k].config_index == ph->config_index &&
		    strcmp(s->s[k].name, ph->group ? ph->group : "") == 0)
			return &s->s[k];
	return NULL;
}

/* Each axis's values in the order the cells first give them, and each
 * cell's place on them.  0 or -ENOMEM. */
static int make_axes(struct sc_sweep *sw)
{
	for (int a = 0; a < SC_SWEEP_AXES; a++) {
		sw->axis[a] = calloc(sw->ncells, sizeof(*sw->axis[a]));
		if (!sw->axis[a])
			return -ENOMEM;
		for (uint32_t c = 0; c < sw->ncells; c++) {
			struct sc_sweep_cell *cell = &sw->cells[c];
			uint32_t i = 0;

			while (i < sw->naxis[a] && sw->axis[a][i] != cell->v[a])
				i++;
			if (i == sw->naxis[a])
				sw->axis[a][sw->naxis[a]++] = cell->v[a];
			cell->at[a] = i;
		}
	}
	return 0;
}

/* A new sweep for the group of plan phase p, its cells from the plan. */
static int add_sweep(struct sc_sweeps *s, const struct sc_plan *plan, uint32_t p)
{
	const struct sc_phase *ph = &plan->phases[p];
	struct sc_sweep *more = realloc(s->s, (s->n + 1) * sizeof(*more)), *sw;

	if (!more)
		return -ENOMEM;
	s->s = more;
	sw = &s->s[s->n++];
	memset(sw, 0, sizeof(*sw));
	sw->name = ph->group ? ph->group : "";
	sw->config_index = ph->config_index;
	sw->cells = calloc(ph->ncells, sizeof(*sw->cells));
	if (!sw->cells)
		return -ENOMEM;
	/* a group's cells are consecutive plan phases, cell 0 first */
	for (uint32_t q = p;
	     q < plan->nphases && sweep_of(s, &plan->phases[q]) == sw && sw->ncells < ph->ncells;
	     q++) {
		const struct sc_phase *c = &plan->phases[q];

		sw->cells[sw->ncells++] = (struct sc_sweep_cell){
		    .phase = q, .cell = c->cell, .v = {c->io.rw, c->io.bs_bytes, c->io.iodepth}};
	}
	return make_axes(sw);
}

int sc_sweeps_init(struct sc_sweeps *out, const struct sc_plan *plan)
{
	int err = 0;

	memset(out, 0, sizeof(*out));
	out->plan = plan;
	for (uint32_t p = 0; p < plan->nphases && !err; p++)
		if (is_sweep(&plan->phases[p]) && !sweep_of(out, &plan->phases[p]))
			err = add_sweep(out, plan, p);
	if (err)
		sc_sweeps_exit(out);
	return err;
}

int sc_sweeps_add(struct sc_sweeps *s, const struct sc_phase_record *pr,
		  const struct sc_phase_figures *fig)
{
	const struct sc_phase *ph =
	    pr->phase < s->plan->nphases ? &s->plan->phases[pr->phase] : NULL;
	struct sc_sweep *sw = ph && is_sweep(ph) ? sweep_of(s, ph) : NULL;
	struct sc_sweep_cell *c = NULL;

	for (uint32_t i = 0; sw && i < sw->ncells && !c; i++)
		if (sw->cells[i].phase == pr->phase)
			c = &sw->cells[i];
	if (!c)
		return 0;
	free(c->nodes);
	c->nodes = calloc(fig->nodes_len ? fig->nodes_len : 1, sizeof(*c->nodes));
	if (!c->nodes)
		return -ENOMEM;
	c->measured = true;
	c->status = pr->status;
	c->cluster.bw_bytes_per_s = fig->lastdone_bw_bytes_per_s;
	c->cluster.iops = fig->iops_total;
	memcpy(c->cluster.lat, fig->lat, sizeof(c->cluster.lat));
	c->nnodes = fig->nodes_len;
	for (uint32_t n = 0; n < fig->nodes_len; n++) {
		const struct sc_node_row *row = &fig->nodes[n];
		struct sc_sweep_node *o = &c->nodes[n];

		o->node = row->node;
		memcpy(o->host, row->host, sizeof(o->host));
		o->f.bw_bytes_per_s = row->bw_bytes_per_s;
		o->f.iops = row->iops[SC_DIR_READ] + row->iops[SC_DIR_WRITE];
		memcpy(o->f.lat, row->lat, sizeof(o->f.lat));
	}
	return 0;
}

int sc_sweeps_of(struct sc_sweeps *out, const struct sc_run_record *rec,
		 const struct sc_phase_figures *pf)
{
	int err = sc_sweeps_init(out, &rec->plan);

	for (uint32_t i = 0; i < rec->nphases && !err && out->n; i++)
		err = sc_sweeps_add(out, &rec->phases[i], &pf[i]);
	if (err)
		sc_sweeps_exit(out);
	return err;
}

const struct sc_sweep *sc_sweeps_find(const struct sc_sweeps *s, const char *name)
{
	for (uint32_t k = 0; k < s->n; k++)
		if (strcmp(s->s[k].name, name ? name : "") == 0)
			return &s->s[k];
	return NULL;
}

const struct sc_sweep_cell *sc_sweep_cell_at(const struct sc_sweep *sw,
					     const uint32_t at[SC_SWEEP_AXES])
{
	for (uint32_t c = 0; c < sw->ncells; c++)
		if (memcmp(sw->cells[c].at, at, sizeof(sw->cells[c].at)) == 0)
			return &sw->cells[c];
	return NULL;
}

void sc_sweeps_exit(struct sc_sweeps *s)
{
	for (uint32_t k = 0; k < s->n; k++) {
		for (uint32_t c = 0; c < s->s[k].ncells; c++)
			free(s->s[k].cells[c].nodes);
		for (int a = 0; a < SC_SWEEP_AXES; a++)
			free(s->s[k].axis[a]);
		free(s->s[k].cells);
	}
	free(s->s);
	memset(s, 0, sizeof(*s));
}
