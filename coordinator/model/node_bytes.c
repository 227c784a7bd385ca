/* node_bytes.c -- one checkpoint's bytes per node at cluster size N, in byte classes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "project_parts.h"
#include "units.h"

/* Each file is scaled to whole 4 KiB blocks, as the checkpoint workload
 * writes it (worker/layout.c sc_layout_ckpt_files). */

/* Per pipeline stage p: the bytes one rank of data-parallel rank 0 (g0)
 * and of any other (g1) writes, and their prefix sums over stages times
 * tp (the bytes of ranks 0 .. p tp - 1 within one model replica). */
struct stages {
	uint64_t tp, pp, mp;
	uint64_t *g0, *g1, *p0, *p1;
};

/* Bytes rank writes per checkpoint, every file scaled.  0 or -errno. */
static int rank_bytes(const struct sc_llm *model, const struct sc_ckpt_layout *l, uint32_t rank,
		      double scale, uint64_t *out)
{
	struct sc_ckpt_file *f = NULL;
	uint32_t n = 0;
	int ret = sc_ckpt_rank_files(model, l, rank, NULL, 0, &n);

	*out = 0;
	if (ret == -ENOSPC) {
		f = calloc(n, sizeof(*f));
		if (!f)
			return -ENOMEM;
		ret = sc_ckpt_rank_files(model, l, rank, f, n, &n);
	}
	for (uint32_t i = 0; !ret && i < n; i++)
		*out += sc_ckpt_scaled(f[i].bytes, scale, SC_CKPT_ALIGN);
	free(f);
	return ret;
}

static void stages_free(struct stages *s)
{
	free(s->g0);
	free(s->g1);
	free(s->p0);
	free(s->p1);
}

static int stages_of(const struct sc_llm *model, const struct sc_ckpt_layout *l, double scale,
		     struct stages *s)
{
	int ret = 0;

	memset(s, 0, sizeof(*s));
	s->tp = l->tp;
	s->pp = l->pp;
	s->mp = (uint64_t)l->tp * l->pp;
	s->g0 = calloc(s->pp, sizeof(uint64_t));
	s->g1 = calloc(s->pp, sizeof(uint64_t));
	s->p0 = calloc(s->pp + 1, sizeof(uint64_t));
	s->p1 = calloc(s->pp + 1, sizeof(uint64_t));
	if (!s->g0 || !s->g1 || !s->p0 || !s->p1)
		return -ENOMEM;
	for (uint32_t p = 0; p < s->pp && !ret; p++) {
		uint32_t first = (uint32_t)(p * s->tp);

		ret = rank_bytes(model, l, first, scale, &s->g0[p]);
		if (!ret && l->dp > 1)
			ret = rank_bytes(model, l, (uint32_t)(s->mp + first), scale, &s->g1[p]);
		s->p0[p + 1] = s->p0[p] + s->tp * s->g0[p];
		s->p1[p + 1] = s->p1[p] + s->tp * s->g1[p];
	}
	return ret;
}

/* Bytes of ranks 0 .. r - 1. */
static uint64_t cum(const struct stages *s, uint64_t r)
{
	uint64_t full = r / s->mp, rem = r % s->mp, st = rem / s->tp, in = rem % s->tp;

	if (!full)
		return s->p0[st] + in * s->g0[st];
	return s->p0[s->pp] + (full - 1) * s->p1[s->pp] + s->p1[st] + in * s->g1[st];
}

static int class_desc(const void *a, const void *b)
{
	const struct sc_model_class *x = a, *y = b;

	return (x->bytes < y->bytes) - (x->bytes > y->bytes);
}

/* Merges equal byte counts of the n sorted classes and drops nodes that
 * write nothing; returns how many are left. */
static uint32_t merge_classes(struct sc_model_class *c, uint32_t n)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!c[i].bytes)
			continue;
		if (k && c[k - 1].bytes == c[i].bytes)
			c[k - 1].count += c[i].count;
		else
			c[k++] = c[i];
	}
	return k;
}

/* The ceil(nodes/2)-th smallest node's bytes of the nclasses classes
 * (busiest first), the nodes outside them writing nothing. */
static uint64_t median_of(const struct sc_model_class *c, uint32_t nclasses, uint64_t nodes)
{
	uint64_t pos = (nodes - 1) / 2, below = nodes; /* nodes at or under class j */

	for (uint32_t j = 0; j < nclasses; j++)
		below -= c[j].count; /* now: the nodes writing nothing */
	if (pos < below)
		return 0;
	for (uint32_t j = nclasses; j-- > 0;) {
		below += c[j].count;
		if (pos < below)
			return c[j].bytes;
	}
	return nclasses ? c[0].bytes : 0;
}

/* The sharded layout's classes: every rank's shard differs a little
 * (torch.chunk's pieces, tp rank 0's norms), so node by node, rank by
 * rank.  0 or -errno. */
static int sharded_classes(const struct sc_llm *model, const struct sc_ckpt_layout *l,
			   uint32_t nodes, uint32_t g, double scale, struct sc_model_bytes *out)
{
	int ret = 0;

	out->classes = calloc(nodes, sizeof(*out->classes));
	if (!out->classes)
		return -ENOMEM;
	for (uint64_t k = 0; k < nodes && !ret; k++) {
		out->classes[k].count = 1;
		for (uint64_t r = k * g; r < (k + 1) * g && !ret; r++) {
			uint64_t b;

			ret = rank_bytes(model, l, (uint32_t)r, scale, &b);
			out->classes[k].bytes += b;
			out->ckpt_bytes += b;
		}
	}
	return ret;
}

int sc_model_node_bytes(const struct sc_llm *model, const struct sc_ckpt_layout *l, uint32_t nodes,
			uint32_t gpus_per_node, double scale, struct sc_model_bytes *out)
{
	struct stages s;
	uint64_t g = gpus_per_node, head, period, n;
	int ret;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	if (!nodes || !gpus_per_node || sc_ckpt_layout_check(model, l, NULL, 0))
		return -EINVAL;
	if (l->kind == SC_CKPT_LAYOUT_SHARDED) {
		ret = sharded_classes(model, l, nodes, gpus_per_node, scale, out);
		n = nodes;
		goto sort;
	}
	ret = stages_of(model, l, scale, &s);
	if (ret)
		goto out;
	head = (s.mp + g - 1) / g; /* nodes holding data-parallel rank 0 */
	period = s.mp / sc_gcd(s.mp, g);
	n = head + period < nodes ? head + period : nodes;
	out->classes = calloc(n, sizeof(*out->classes));
	if (!out->classes) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint64_t k = 0; k < n; k++) {
		out->classes[k].bytes = cum(&s, (k + 1) * g) - cum(&s, k * g);
		out->classes[k].count = k < head ? 1 : (nodes - 1 - k) / period + 1;
	}
	out->ckpt_bytes = cum(&s, (uint64_t)nodes * g);
sort:
	if (ret)
		goto out;
	qsort(out->classes, n, sizeof(*out->classes), class_desc);
	out->nclasses = merge_classes(out->classes, (uint32_t)n);
	out->node_bytes_max = out->nclasses ? out->classes[0].bytes : 0;
	out->nodes_busiest = out->nclasses ? out->classes[0].count : 0;
	out->node_bytes_median = median_of(out->classes, out->nclasses, nodes);
out:
	stages_free(&s);
	if (ret)
		sc_model_bytes_free(out);
	return ret;
}

void sc_model_bytes_free(struct sc_model_bytes *b)
{
	free(b->classes);
	memset(b, 0, sizeof(*b));
}
