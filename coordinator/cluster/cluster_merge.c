/* cluster_merge.c -- the collectives that bring a phase's measurements to
 * rank 0: histograms and per-second series reduced where they are made
 * (each node's ranks, then across the nodes' leaders), and the ranks' rows
 * gathered in bounded pieces.  The waits are cluster.c's. */
#include "cluster.h"
#include "cluster_priv.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Every rank's wait on a collective: quiet, deadline and stops as any. */
static void wait_all(struct sc_cluster *c, MPI_Request *reqs, int n)
{
	sc_cluster_wait_reqs(c, reqs, n, -1, 1);
}

/* malloc, or every rank ends: a collective would hang without this rank. */
static void *alloc_or_abort(struct sc_cluster *c, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		sc_cluster_abort(c, 1);
	return p;
}

/* The most histograms reduced in one wait. */
#define HISTS_MAX 8

/* Each local[i] summed into out[i] at comm's rank 0 (root: this rank is
 * it), all n in one wait: a collective moves only while the ranks look, so
 * waiting once for all costs the rounds of one. */
static void reduce_hists_on(struct sc_cluster *c, MPI_Comm comm, int root,
			    const struct sc_hist *const *local, struct sc_hist *const *out, int n)
{
	uint64_t sums[HISTS_MAX][2], tot[HISTS_MAX][2], mn[HISTS_MAX], mx[HISTS_MAX];
	uint64_t gmn[HISTS_MAX], gmx[HISTS_MAX];
	MPI_Request reqs[4 * HISTS_MAX];

	if (n > HISTS_MAX)
		sc_cluster_abort(c, 1); /* a bug: every rank has the same n */
	for (int i = 0; i < n; i++) {
		sums[i][0] = local[i]->count;
		sums[i][1] = local[i]->sum_ns;
		mn[i] = local[i]->min_ns;
		mx[i] = local[i]->max_ns;
		MPI_Ireduce(local[i]->buckets, root ? out[i]->buckets : NULL, SC_HIST_NBUCKETS,
			    MPI_UINT64_T, MPI_SUM, 0, comm, &reqs[4 * i]);
		MPI_Ireduce(sums[i], tot[i], 2, MPI_UINT64_T, MPI_SUM, 0, comm, &reqs[4 * i + 1]);
		MPI_Ireduce(&mn[i], &gmn[i], 1, MPI_UINT64_T, MPI_MIN, 0, comm, &reqs[4 * i + 2]);
		MPI_Ireduce(&mx[i], &gmx[i], 1, MPI_UINT64_T, MPI_MAX, 0, comm, &reqs[4 * i + 3]);
	}
	wait_all(c, reqs, 4 * n);
	for (int i = 0; root && i < n; i++) {
		out[i]->count = tot[i][0];
		out[i]->sum_ns = tot[i][1]; /* a wrapped sum only skews the mean */
		out[i]->min_ns = gmn[i];
		out[i]->max_ns = gmx[i];
	}
}

int sc_cluster_reduce_node_hists(struct sc_cluster *c, const struct sc_hist *const *local,
				 struct sc_hist *const *out, int n)
{
	reduce_hists_on(c, sc_cluster_node_comm(c), c->local_rank == 0, local, out, n);
	return 0;
}

int sc_cluster_reduce_hists(struct sc_cluster *c, const struct sc_hist *const *local,
			    struct sc_hist *const *out, int n)
{
	reduce_hists_on(c, MPI_COMM_WORLD, c->rank == 0, local, out, n);
	return 0;
}

/* A series in column form (sc_seconds_to_columns): len seconds. */
struct columns {
	uint32_t len;
	uint64_t *sums, *maxes;
};

static void columns_alloc(struct sc_cluster *c, struct columns *col, uint32_t len)
{
	col->len = len;
	col->sums = alloc_or_abort(c, (size_t)len * SC_SECOND_SUMS, sizeof(uint64_t));
	col->maxes = alloc_or_abort(c, (size_t)len * SC_SECOND_MAXES, sizeof(uint64_t));
}

static void columns_free(struct columns *col)
{
	free(col->sums);
	free(col->maxes);
	memset(col, 0, sizeof(*col));
}

/* in reduced over comm into out at comm's rank 0 (out ignored elsewhere). */
static void reduce_columns(struct sc_cluster *c, MPI_Comm comm, const struct columns *in,
			   struct columns *out)
{
	MPI_Request reqs[2];

	/* a reduction's count is an int: one in pieces of at most INT_MAX
	 * values would do, but 2^31 / 4 seconds is 17 years */
	MPI_Ireduce(in->sums, out->sums, (int)in->len * SC_SECOND_SUMS, MPI_UINT64_T, MPI_SUM, 0,
		    comm, &reqs[0]);
	MPI_Ireduce(in->maxes, out->maxes, (int)in->len * SC_SECOND_MAXES, MPI_UINT64_T, MPI_MAX,
		    0, comm, &reqs[1]);
	wait_all(c, reqs, 2);
}

static void columns_to_series(struct sc_cluster *c, const struct columns *col,
			      struct sc_series *out)
{
	out->nseconds = col->len;
	out->seconds = col->len ? alloc_or_abort(c, col->len, sizeof(*out->seconds)) : NULL;
	sc_seconds_from_columns(out->seconds, col->len, col->sums, col->maxes);
}

/* Rank 0 gets every leader's node series (len seconds each, as columns in
 * col at the leaders, of which the node's own ranks filled node_len) in
 * *nodes, by node index, each as long as its node's longest rank. */
static void gather_nodes(struct sc_cluster *c, const struct columns *col, uint32_t node_len,
			 struct sc_series **nodes)
{
	size_t per_sum = (size_t)col->len * SC_SECOND_SUMS;
	size_t per_max = (size_t)col->len * SC_SECOND_MAXES;
	uint64_t *sums = NULL, *maxes = NULL;
	uint32_t *lens = NULL;
	MPI_Request reqs[3];

	if (c->rank == 0) {
		sums = alloc_or_abort(c, per_sum * c->nnodes, sizeof(uint64_t));
		maxes = alloc_or_abort(c, per_max * c->nnodes, sizeof(uint64_t));
		lens = alloc_or_abort(c, c->nnodes, sizeof(uint32_t));
	}
	/* under SC_NODE_SERIES_MAX node-seconds: far below INT_MAX values */
	MPI_Igather(col->sums, (int)per_sum, MPI_UINT64_T, sums, (int)per_sum, MPI_UINT64_T, 0,
		    sc_cluster_leader_comm(c), &reqs[0]);
	MPI_Igather(col->maxes, (int)per_max, MPI_UINT64_T, maxes, (int)per_max, MPI_UINT64_T, 0,
		    sc_cluster_leader_comm(c), &reqs[1]);
	MPI_Igather(&node_len, 1, MPI_UINT32_T, lens, 1, MPI_UINT32_T, 0,
		    sc_cluster_leader_comm(c), &reqs[2]);
	wait_all(c, reqs, 3);
	if (c->rank == 0 && nodes) {
		*nodes = alloc_or_abort(c, c->nnodes, sizeof(**nodes));
		for (uint32_t i = 0; i < c->nnodes; i++) {
			/* past the node's longest rank every column is 0 */
			struct columns one = {lens[i] < col->len ? lens[i] : col->len,
					      sums + per_sum * i, maxes + per_max * i};

			columns_to_series(c, &one, &(*nodes)[i]);
		}
	}
	free(sums);
	free(maxes);
	free(lens);
}

uint32_t sc_cluster_reduce_series(struct sc_cluster *c, const struct sc_second *mine, uint32_t n,
				  struct sc_series *cluster, struct sc_series **nodes)
{
	uint32_t len = n, node_len = n;
	struct columns own = {0}, node_col = {0}, cluster_col = {0};
	int leader = c->local_rank == 0;
	MPI_Request reqs[2];

	if (nodes)
		*nodes = NULL;
	/* every series padded to the longest; a node's cut back to its own
	 * longest rank's (what summing its ranks' seconds gives) */
	MPI_Iallreduce(&n, &len, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD, &reqs[0]);
	MPI_Iallreduce(&n, &node_len, 1, MPI_UINT32_T, MPI_MAX, sc_cluster_node_comm(c),
		       &reqs[1]);
	wait_all(c, reqs, 2);
	columns_alloc(c, &own, len);
	sc_seconds_to_columns(mine, n, len, own.sums, own.maxes);
	if (leader)
		columns_alloc(c, &node_col, len);
	reduce_columns(c, sc_cluster_node_comm(c), &own, &node_col);
	columns_free(&own);
	if (leader) {
		if (c->rank == 0)
			columns_alloc(c, &cluster_col, len);
		reduce_columns(c, sc_cluster_leader_comm(c), &node_col, &cluster_col);
		if (sc_series_kept(c->nnodes, len, SC_NODE_SERIES_MAX))
			gather_nodes(c, &node_col, node_len, c->rank == 0 ? nodes : NULL);
	}
	if (c->rank == 0 && cluster)
		columns_to_series(c, &cluster_col, cluster);
	columns_free(&node_col);
	columns_free(&cluster_col);
	return len;
}

/* Rank 0: splits the ranks into pieces of consecutive ranks whose counts
 * add up to at most SC_GATHER_PIECE_MAX (a rank past it alone): first[k]
 * is piece k's first rank, first[npieces] == nranks.  Returns npieces. */
static int plan_pieces(const int *counts, int nranks, int *first)
{
	size_t in_piece = 0;
	int np = 0;

	first[0] = 0;
	for (int r = 0; r < nranks; r++) {
		if (r > first[np] && in_piece + (size_t)counts[r] > SC_GATHER_PIECE_MAX) {
			first[++np] = r;
			in_piece = 0;
		}
		in_piece += (size_t)counts[r];
	}
	first[++np] = nranks;
	return np;
}

/* Rank 0 copies a gathered piece out into one buffer per rank. */
static void keep_piece(struct sc_cluster *c, const uint8_t *all, const int *counts, int from,
		       int to, uint8_t **bufs, size_t *lens)
{
	size_t at = 0;

	for (int r = from; r < to; r++) {
		bufs[r] = alloc_or_abort(c, (size_t)counts[r], 1);
		memcpy(bufs[r], all + at, (size_t)counts[r]);
		lens[r] = (size_t)counts[r];
		at += (size_t)counts[r];
	}
}

/* One piece: the ranks from..to-1 send, the others send nothing. */
static void gather_piece(struct sc_cluster *c, const uint8_t *buf, int n, const int *counts,
			 int from, int to, uint8_t **bufs, size_t *lens)
{
	int *piece = NULL, *displs = NULL, total = 0, mine = c->rank >= from && c->rank < to;
	uint8_t *all = NULL;
	MPI_Request req;

	if (c->rank == 0) {
		piece = alloc_or_abort(c, (size_t)c->nranks, sizeof(int));
		displs = alloc_or_abort(c, (size_t)c->nranks, sizeof(int));
		for (int r = from; r < to; r++) {
			piece[r] = counts[r];
			displs[r] = total;
			total += counts[r]; /* at most INT_MAX: plan_pieces */
		}
		all = alloc_or_abort(c, (size_t)total, 1);
	}
	MPI_Igatherv(buf, mine ? n : 0, MPI_BYTE, all, piece, displs, MPI_BYTE, 0, MPI_COMM_WORLD,
		     &req);
	wait_all(c, &req, 1);
	if (c->rank == 0)
		keep_piece(c, all, counts, from, to, bufs, lens);
	free(all);
	free(piece);
	free(displs);
}

int sc_cluster_gather(struct sc_cluster *c, const uint8_t *buf, size_t len, uint8_t ***bufs,
		      size_t **lens)
{
	int n = len > INT_MAX ? -1 : (int)len, *counts = NULL, *first = NULL, np = 0;
	int root = c->rank == 0, bad = 0;
	MPI_Request req;

	if (root)
		counts = alloc_or_abort(c, (size_t)c->nranks, sizeof(int));
	MPI_Igather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	wait_all(c, &req, 1);
	if (root) {
		first = alloc_or_abort(c, (size_t)c->nranks + 1, sizeof(int));
		for (int r = 0; r < c->nranks; r++)
			bad |= counts[r] < 0;
		np = bad ? -1 : plan_pieces(counts, c->nranks, first);
	}
	MPI_Ibcast(&np, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	wait_all(c, &req, 1);
	if (np < 0) {
		free(counts);
		free(first);
		return -EMSGSIZE;
	}
	if (!root)
		first = alloc_or_abort(c, (size_t)np + 1, sizeof(int));
	MPI_Ibcast(first, np + 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	wait_all(c, &req, 1);
	if (root) {
		*bufs = alloc_or_abort(c, (size_t)c->nranks, sizeof(**bufs));
		*lens = alloc_or_abort(c, (size_t)c->nranks, sizeof(**lens));
	}
	for (int k = 0; k < np; k++)
		gather_piece(c, buf, n, counts, first[k], first[k + 1], root ? *bufs : NULL,
			     root ? *lens : NULL);
	free(counts);
	free(first);
	return 0;
}

void sc_cluster_free_gathered(struct sc_cluster *c, uint8_t **bufs, size_t *lens)
{
	if (!bufs)
		return;
	for (int r = 0; r < c->nranks; r++)
		free(bufs[r]);
	free(bufs);
	free(lens);
}
