/* html_sweep.c -- report.html's sweep heatmaps (html_priv.h): per sweep and
 * rw, bandwidth and p99 over block size x queue depth, from sweep_matrix.h. */
#include "html_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "analysis/sweep_matrix.h"
#include "html_page.h"
#include "svg.h"
#include "units.h"

#define NS_PER_US    1e3
#define LABEL_MAX    32
#define TITLE_MAX    256

/* What a heatmap shows of a cell. */
enum cell_value { BW_MB_S, P99_READ_US, P99_WRITE_US };

/* A block size as the config spells it, spaced: "4 KiB", "1 MiB". */
static void size_label(char *buf, size_t len, uint64_t b)
{
	if (b && b % SC_MIB == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", b / SC_MIB);
	else if (b && b % SC_KIB == 0)
		snprintf(buf, len, "%" PRIu64 " KiB", b / SC_KIB);
	else
		snprintf(buf, len, "%" PRIu64 " B", b);
}

/* What heatmap `what` shows of the cluster figures of cell c; NAN when
 * the cell was not measured or has too few such I/Os for its p99
 * (pct_support.h). */
static double cell_figure(const struct sc_sweep_cell *c, enum cell_value what)
{
	const struct sc_lat_summary *lat;
	uint64_t ns;

	if (!c || !c->measured)
		return NAN;
	if (what == BW_MB_S)
		return c->cluster.bw_bytes_per_s / SC_BYTES_PER_MB;
	lat = &c->cluster.lat[what == P99_READ_US ? SC_DIR_READ : SC_DIR_WRITE];
	return sc_lat_pct(lat, sc_pct_index(99), &ns) ? (double)ns / NS_PER_US : NAN;
}

/* The heatmap of `what` for rw value r of sweep sw.  rows, cols: the tick
 * labels; v: room for every cell. */
static void sweep_map(FILE *f, const struct sc_sweep *sw, uint32_t r, enum cell_value what,
		      const char *const *rows, const char *const *cols, double *v)
{
	static const char *const what_name[] = {"bandwidth (MB/s)", "read p99 (us)",
						"write p99 (us)"};
	uint32_t nb = sw->naxis[SC_SWEEP_BS], nq = sw->naxis[SC_SWEEP_IODEPTH];
	char title[TITLE_MAX];
	struct sc_svg_heatmap h = {.title = title,
				   .row_label = "block size",
				   .col_label = "queue depth (I/Os in flight per job)",
				   .rows = rows,
				   .cols = cols,
				   .nrows = nb,
				   .ncols = nq,
				   .v = v,
				   .cell_unit = what == BW_MB_S ? "MB/s" : "us",
				   .lower_better = what != BW_MB_S};

	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t q = 0; q < nq; q++) {
			uint32_t at[SC_SWEEP_AXES] = {r, b, q};

			v[b * nq + q] = cell_figure(sc_sweep_cell_at(sw, at), what);
		}
	snprintf(title, sizeof(title), "sweep %s, rw %s: %s%s", sw->name,
		 sc_rw_name((enum sc_rw)sw->axis[SC_SWEEP_RW][r]), what_name[what],
		 what == BW_MB_S ? ", higher is better" : ", lower is better");
	sc_svg_heatmap(f, &h);
}

/* Every map of sweep sw.  0 or -ENOMEM. */
static int sweep_maps(FILE *f, const struct sc_sweep *sw)
{
	uint32_t nb = sw->naxis[SC_SWEEP_BS], nq = sw->naxis[SC_SWEEP_IODEPTH];
	char(*names)[LABEL_MAX] = calloc(nb + nq + 1, sizeof(*names));
	const char **labels = calloc(nb + nq + 1, sizeof(*labels));
	double *v = calloc((size_t)nb * nq + 1, sizeof(*v));

	if (!names || !labels || !v) {
		free(names);
		free(labels);
		free(v);
		return -ENOMEM;
	}
	for (uint32_t b = 0; b < nb; b++)
		size_label(names[b], LABEL_MAX, sw->axis[SC_SWEEP_BS][b]);
	for (uint32_t q = 0; q < nq; q++)
		snprintf(names[nb + q], LABEL_MAX, "%" PRIu64, sw->axis[SC_SWEEP_IODEPTH][q]);
	for (uint32_t i = 0; i < nb + nq; i++)
		labels[i] = names[i];
	sc_html_heading(f, 3, NULL, sw->name);
	for (uint32_t r = 0; r < sw->naxis[SC_SWEEP_RW]; r++) {
		enum sc_rw rw = (enum sc_rw)sw->axis[SC_SWEEP_RW][r];

		sweep_map(f, sw, r, BW_MB_S, labels, labels + nb, v);
		if (sc_rw_reads(rw))
			sweep_map(f, sw, r, P99_READ_US, labels, labels + nb, v);
		if (sc_rw_writes(rw))
			sweep_map(f, sw, r, P99_WRITE_US, labels, labels + nb, v);
	}
	free(names);
	free(labels);
	free(v);
	return 0;
}

int sc_html_sweeps(FILE *f, const struct sc_sweeps *sw)
{
	int err = 0;

	if (!sw || !sw->n)
		return 0;
	sc_html_note(f, "Each cell: the cluster's figure for one block size and queue depth; "
			"\"-\": not measured (a p99 cell also when it had fewer than 100 I/Os: "
			"a percentile p needs 1 / (1 - p) samples).");
	for (uint32_t k = 0; k < sw->n && !err; k++)
		err = sweep_maps(f, &sw->s[k]);
	return err;
}
