/* ckpt_model.c -- DLIO's byte model of LLM checkpoints: catalogue, sharding, file names.
 *
 * Layers are numbered as DLIO numbers them: 0 is the embedding, 1..L the
 * transformer layers, L+1 the output head, L+2 the final norm.
 */
#include "ckpt_model.h"

#include "ckpt_dcp.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DLIO stores each of its three optimizer state groups as a shard of the
 * parameters plus a tensor of 5 x hidden elements. */
#define OPTIM_EXTRA_PER_HIDDEN 5u

struct catalogue_entry {
	const char *alias; /* another accepted name, or NULL */
	struct sc_llm model;
	struct sc_ckpt_layout mlperf;
};

/* One row: a Llama 3 shape, then the parallel layout MLPerf Storage runs
 * it with.  Every Llama 3 has the same vocabulary, and DLIO keeps its
 * model state in fp16/bf16 and three fp32 optimizer states per parameter. */
#define LLAMA3_VOCAB 128256
#define LLAMA3(alias_, name_, layers_, hidden_, ffn_, heads_, kv_, tp_, pp_, dp_, zero_)      \
	{.alias = alias_,                                                                      \
	 .model = {.name = name_, .layers = layers_, .hidden = hidden_, .ffn_hidden = ffn_,    \
		   .heads = heads_, .kv_heads = kv_, .vocab = LLAMA3_VOCAB,                    \
		   .model_dtype_bytes = 2, .optim_bytes_per_param = 12},                       \
	 .mlperf = {.tp = tp_, .pp = pp_, .dp = dp_, .zero_stage = zero_}}

/* Shapes from DLIO's / MLPerf Storage's workload configs
 * (configs/dlio/workload/llama3_*.yaml).  llama3-70b has 128 heads there,
 * not the 64 of Meta's release; the totals MLPerf quotes follow from 128. */
/* clang-format off */
static const struct catalogue_entry catalogue[] = {
	/*     alias          name             layers hidden ffn    heads kv  tp pp  dp zero */
	LLAMA3(NULL,          "llama3-8b",     32,    4096,  14336, 32,   8,  1, 1,  8, 3),
	LLAMA3(NULL,          "llama3-70b",    80,    8192,  28672, 128,  8,  8, 1,  8, 3),
	LLAMA3("llama3-405b", "llama3.1-405b", 126,   16384, 53248, 128,  8,  8, 32, 2, 1),
	LLAMA3(NULL,          "llama3-1t",     128,   25872, 98304, 192,  32, 8, 64, 2, 1),
};
#define NCATALOGUE (sizeof(catalogue) / sizeof(catalogue[0]))

static const char *const model_names[NCATALOGUE + 1] = {
	"llama3-8b", "llama3-70b", "llama3.1-405b", "llama3-1t", NULL,
};
/* clang-format on */

const char *const *sc_ckpt_model_names(void)
{
	return model_names;
}

static const struct catalogue_entry *find_entry(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < NCATALOGUE; i++) {
		const struct catalogue_entry *e = &catalogue[i];
		if (!strcmp(name, e->model.name) || (e->alias && !strcmp(name, e->alias)))
			return e;
	}
	return NULL;
}

int sc_ckpt_model_lookup(const char *name, struct sc_llm *out)
{
	const struct catalogue_entry *e = find_entry(name);
	if (!e)
		return -ENOENT;
	*out = e->model;
	return 0;
}

int sc_ckpt_layout_mlperf(const char *name, struct sc_ckpt_layout *out)
{
	const struct catalogue_entry *e = find_entry(name);
	if (!e)
		return -ENOENT;
	*out = e->mlperf;
	return 0;
}

int sc_ckpt_layout_default_dp(struct sc_ckpt_layout *l, uint32_t ranks)
{
	if (!l->tp || !l->pp)
		return -EINVAL;
	uint64_t mp = (uint64_t)l->tp * l->pp;
	if (ranks == 0 || ranks % mp)
		return -EINVAL;
	l->dp = (uint32_t)(ranks / mp);
	return 0;
}

/* Checked arithmetic: a result that does not fit sets *ovf. */
static uint64_t mul(uint64_t a, uint64_t b, bool *ovf)
{
	uint64_t r;
	if (__builtin_mul_overflow(a, b, &r)) {
		*ovf = true;
		return 0;
	}
	return r;
}

static uint64_t add(uint64_t a, uint64_t b, bool *ovf)
{
	uint64_t r;
	if (__builtin_add_overflow(a, b, &r)) {
		*ovf = true;
		return 0;
	}
	return r;
}

/* The whole model's parameters as DLIO counts them.  A transformer layer
 * holds two norms, Q/K/V (K and V have kv_heads heads of hidden/heads
 * each), the attention output, the gated MLP's up+gate (2 x ffn) and down
 * projections; then the final norm, the embedding and the (untied) head. */
static uint64_t params(const struct sc_llm *m, bool *ovf)
{
	uint64_t h = m->hidden, ffn = m->ffn_hidden;
	uint64_t dim_kv = (h / m->heads) * m->kv_heads;
	uint64_t embedding = mul(m->vocab, h, ovf);
	uint64_t layer = add(2 * h, mul(h, h + 2 * dim_kv, ovf), ovf);
	layer = add(layer, h * h, ovf);
	layer = add(layer, mul(mul(ffn, 2, ovf), h, ovf), ovf);
	layer = add(layer, ffn * h, ovf);
	uint64_t n = add(mul(layer, m->layers, ovf), h, ovf); /* + final norm */
	return add(n, mul(embedding, 2, ovf), ovf);	      /* + embedding, head */
}

/* Elements one rank holds of layer idx.  Matrices are split over tensor-
 * parallel ranks, norms replicated; under ZeRO-3 every tensor is further
 * split over data-parallel ranks (sf).  Integer division per tensor, in
 * DLIO's order. */
static uint64_t layer_elems(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t idx,
			    bool *ovf)
{
	uint64_t h = m->hidden, ffn = m->ffn_hidden, tp = l->tp;
	uint64_t sf = l->zero_stage == 3 ? l->dp : 1;
	uint64_t dim_kv = (h / m->heads) * m->kv_heads;

	if (idx == 0 || idx == (uint64_t)m->layers + 1)
		return mul(h, m->vocab, ovf) / tp / sf; /* embedding, output head */
	if (idx == (uint64_t)m->layers + 2)
		return h / sf; /* final norm */

	uint64_t n = h / sf;					/* input norm */
	n = add(n, mul(h, h + 2 * dim_kv, ovf) / tp / sf, ovf); /* Q, K, V */
	n = add(n, h * h / tp / sf, ovf);			/* attention output */
	n = add(n, h / sf, ovf);				/* post-attention norm */
	n = add(n, mul(h * 2, ffn, ovf) / tp / sf, ovf);	/* MLP up + gate */
	n = add(n, h * ffn / tp / sf, ovf);			/* MLP down */
	return n;
}

/* Layers of pipeline stage p, inclusive: transformer layers split evenly,
 * the first layers % pp stages one more; the embedding joins stage 0, the
 * output head and final norm the last stage. */
static void stage_layers(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t p,
			 uint32_t *first, uint32_t *last)
{
	uint32_t per = m->layers / l->pp, extra = m->layers % l->pp;

	if (p < extra) {
		*first = p * (per + 1) + 1;
		*last = *first + per;
	} else {
		*first = extra * (per + 1) + (p - extra) * per + 1;
		*last = *first + per - 1;
	}
	if (p == l->pp - 1)
		*last = m->layers + 2;
	if (p == 0)
		*first = 0;
}

static uint64_t layer_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t idx,
			    bool *ovf)
{
	return mul(layer_elems(m, l, idx, ovf), m->model_dtype_bytes, ovf);
}

/* Model-state bytes of layers first..last (inclusive), in closed form:
 * every transformer layer 1..L has the same size, so the time taken does
 * not grow with the layer count. */
static uint64_t range_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint64_t first,
			    uint64_t last, bool *ovf)
{
	/* the embedding, the output head and the final norm */
	const uint64_t special[] = {0, (uint64_t)m->layers + 1, (uint64_t)m->layers + 2};
	uint64_t lo = first > 1 ? first : 1, hi = last < m->layers ? last : m->layers;
	uint64_t sum = 0;

	if (lo <= hi)
		sum = mul(hi - lo + 1, layer_bytes(m, l, 1, ovf), ovf);
	for (size_t s = 0; s < sizeof(special) / sizeof(special[0]); s++)
		if (special[s] >= first && special[s] <= last)
			sum = add(sum, layer_bytes(m, l, (uint32_t)special[s], ovf), ovf);
	return sum;
}

/* Model-state bytes one rank of stage p holds (any tp rank: shards are equal). */
static uint64_t stage_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t p,
			    bool *ovf)
{
	uint32_t first, last;

	stage_layers(m, l, p, &first, &last);
	return range_bytes(m, l, first, last, ovf);
}

/* Bytes of one optimizer file: each writer holds an equal share of all
 * parameters (of tp*pp*dp writers under ZeRO 1-3, of tp*pp under ZeRO-0),
 * whatever its stage holds; 0 means no file. */
static uint64_t optim_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, bool *ovf)
{
	uint64_t writers = (uint64_t)l->tp * l->pp * (l->zero_stage ? l->dp : 1);
	uint64_t share = params(m, ovf) / writers;
	if (share == 0)
		return 0;
	uint64_t elems = add(share, (uint64_t)OPTIM_EXTRA_PER_HIDDEN * m->hidden, ovf);
	return mul(elems, m->optim_bytes_per_param, ovf);
}

/* Totals by layer, not by rank, so that they check the per-rank lists:
 * the stages partition the layers, so the stages' sum is every layer's. */
static int totals(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint64_t *model,
		  uint64_t *optim)
{
	bool ovf = false;

	if (l->kind == SC_CKPT_LAYOUT_SHARDED) {
		uint64_t meta;
		int rc = sc_ckpt_dcp_totals(m, l, model, optim, &meta);

		/* the metadata file counts with the model state */
		if (!rc && __builtin_add_overflow(*model, meta, model))
			rc = -EOVERFLOW;
		if (!rc)
			(void)add(*model, *optim, &ovf);
		return rc ? rc : ovf ? -EOVERFLOW : 0;
	}

	/* Model state: every tp rank of a stage; under ZeRO-3 every dp rank
	 * too, else data-parallel rank 0 alone. */
	uint64_t copies = (uint64_t)l->tp * (l->zero_stage == 3 ? l->dp : 1);
	uint64_t msum = mul(range_bytes(m, l, 0, (uint64_t)m->layers + 2, &ovf), copies, &ovf);

	uint64_t writers = (uint64_t)l->tp * l->pp * (l->zero_stage ? l->dp : 1);
	uint64_t osum = mul(optim_bytes(m, l, &ovf), writers, &ovf);
	(void)add(msum, osum, &ovf); /* the grand total must fit as well */
	if (ovf)
		return -EOVERFLOW;
	*model = msum;
	*optim = osum;
	return 0;
}

static bool dtype_ok(uint32_t bytes)
{
	return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
}

int sc_ckpt_layout_check(const struct sc_llm *m, const struct sc_ckpt_layout *l, char *err,
			 size_t errlen)
{
	if (!m || !l)
		return sc_ckpt_fail(err, errlen, "no model or no layout given");

	int nlen = (int)strnlen(m->name, sizeof(m->name));
	const char *name = nlen ? m->name : "inline model";
	if (!nlen)
		nlen = (int)strlen(name);

	if (!m->layers || !m->hidden || !m->ffn_hidden || !m->heads || !m->vocab)
		return sc_ckpt_fail(err, errlen,
			    "%.*s: layers, hidden, ffn_hidden, heads and vocab must all be at "
			    "least 1",
			    nlen, name);
	if (m->layers > SC_CKPT_MAX_LAYERS || m->hidden > SC_CKPT_MAX_HIDDEN ||
	    m->ffn_hidden > SC_CKPT_MAX_FFN || m->heads > SC_CKPT_MAX_HEADS ||
	    m->vocab > SC_CKPT_MAX_VOCAB)
		return sc_ckpt_fail(err, errlen,
			    "%.*s: layers %u, hidden %u, ffn_hidden %u, heads %u or vocab %llu is "
			    "beyond any real model (at most %u, %u, %u, %u and %llu)",
			    nlen, name, m->layers, m->hidden, m->ffn_hidden, m->heads,
			    (unsigned long long)m->vocab, SC_CKPT_MAX_LAYERS, SC_CKPT_MAX_HIDDEN,
			    SC_CKPT_MAX_FFN, SC_CKPT_MAX_HEADS, (unsigned long long)SC_CKPT_MAX_VOCAB);
	if (m->heads > m->hidden)
		return sc_ckpt_fail(err, errlen, "%.*s: %u heads exceed hidden size %u (head size 0)", nlen,
			    name, m->heads, m->hidden);
	if (!m->kv_heads || m->kv_heads > m->heads || m->heads % m->kv_heads)
		return sc_ckpt_fail(err, errlen,
			    "%.*s: kv_heads %u must divide the %u attention heads (use kv_heads = "
			    "heads without grouped-query attention)",
			    nlen, name, m->kv_heads, m->heads);
	if (!dtype_ok(m->model_dtype_bytes))
		return sc_ckpt_fail(err, errlen,
			    "%.*s: model dtype of %u bytes is not 1, 2 (fp16/bf16), 4 or 8", nlen,
			    name, m->model_dtype_bytes);
	if (!m->optim_bytes_per_param)
		return sc_ckpt_fail(err, errlen, "%.*s: optimizer bytes per parameter must be at least 1",
			    nlen, name);

	if (!l->tp || !l->pp || !l->dp)
		return sc_ckpt_fail(err, errlen,
			    "tp, pp and dp must be at least 1 (got tp %u, pp %u, dp %u)", l->tp,
			    l->pp, l->dp);
	if ((uint64_t)l->tp * l->pp * l->dp > UINT32_MAX)
		return sc_ckpt_fail(err, errlen, "tp %u x pp %u x dp %u ranks is more than 2^32", l->tp,
			    l->pp, l->dp);
	if (l->zero_stage > 3)
		return sc_ckpt_fail(err, errlen, "ZeRO stage %u does not exist (0, 1, 2 or 3)",
			    l->zero_stage);
	if (m->heads % l->tp)
		return sc_ckpt_fail(err, errlen, "tp %u must divide the %u attention heads of %.*s", l->tp,
			    m->heads, nlen, name);
	if (l->pp > m->layers)
		return sc_ckpt_fail(err, errlen,
			    "pp %u exceeds the %u layers of %.*s (at most one stage "
			    "per layer)",
			    l->pp, m->layers, nlen, name);
	if (l->kind >= SC_CKPT_LAYOUT_COUNT)
		return sc_ckpt_fail(err, errlen, "checkpoint layout %u does not exist (dlio or sharded)",
			    l->kind);
	if (l->kind == SC_CKPT_LAYOUT_SHARDED && sc_ckpt_dcp_check(m, l, err, errlen))
		return -EINVAL;
	if (l->zero_stage == 3 && l->pp > 1 && l->kind == SC_CKPT_LAYOUT_DLIO)
		return sc_ckpt_fail(err, errlen,
			    "ZeRO-3 does not combine with pipeline parallelism (pp %u): use pp 1, "
			    "or ZeRO 1 or 2 with pp",
			    l->pp);

	uint64_t model, optim;
	if (totals(m, l, &model, &optim))
		return sc_ckpt_fail(err, errlen, "%.*s: a checkpoint would exceed 2^64 bytes", nlen, name);
	return 0;
}

uint64_t sc_ckpt_model_params(const struct sc_llm *m)
{
	bool ovf = false;
	if (!m || !m->heads || !m->hidden)
		return 0;
	uint64_t n = params(m, &ovf);
	return ovf ? 0 : n;
}

/* Appends one file to the list when it has room; counts it in any case. */
__attribute__((format(printf, 6, 7))) static void emit(struct sc_ckpt_file *files, uint32_t max,
						       uint32_t *n, uint8_t kind, uint64_t bytes,
						       const char *fmt, ...)
{
	if (*n < max) {
		struct sc_ckpt_file *f = &files[*n];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(f->name, sizeof(f->name), fmt, ap);
		va_end(ap);
		f->bytes = bytes;
		f->kind = kind;
	}
	(*n)++;
}

int sc_ckpt_rank_files(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t rank,
		       struct sc_ckpt_file *files, uint32_t max, uint32_t *nfiles)
{
	if (!nfiles)
		return -EINVAL;
	*nfiles = 0;
	if (sc_ckpt_layout_check(m, l, NULL, 0))
		return -EINVAL;
	uint32_t mp = l->tp * l->pp;
	if (rank >= mp * l->dp)
		return -EINVAL;
	if (max && !files)
		return -EINVAL;
	if (l->kind == SC_CKPT_LAYOUT_SHARDED)
		return sc_ckpt_dcp_rank_files(m, l, rank, files, max, nfiles);

	unsigned pp_rank = (rank / l->tp) % l->pp;
	unsigned dp_rank = rank / mp;
	unsigned mp_rank = rank % mp;
	bool ovf = false; /* cannot happen: the check bounded the totals */
	uint32_t n = 0;

	/* ZeRO-0: data-parallel rank 0 holds everything; the others write nothing. */
	if (l->zero_stage == 0 && dp_rank != 0)
		goto out;

	if (l->zero_stage == 1 || l->zero_stage == 2) {
		/* Model state is replicated over data-parallel ranks: rank 0
		 * writes it, one file per layer when pipelined. */
		if (dp_rank == 0 && l->pp > 1) {
			uint32_t first, last;
			stage_layers(m, l, pp_rank, &first, &last);
			for (uint32_t i = first; i <= last; i++)
				emit(files, max, &n, SC_CKPT_KIND_MODEL, layer_bytes(m, l, i, &ovf),
				     "layer_%u-model_%u_model_states.pt", (unsigned)i, mp_rank);
		} else if (dp_rank == 0) {
			emit(files, max, &n, SC_CKPT_KIND_MODEL, stage_bytes(m, l, pp_rank, &ovf),
			     "model_%u_model_states.pt", mp_rank);
		}
	} else {
		/* ZeRO-0 (dp rank 0 only) and ZeRO-3 (each rank its dp shard):
		 * the stage's layers in one file. */
		emit(files, max, &n, SC_CKPT_KIND_MODEL, stage_bytes(m, l, pp_rank, &ovf),
		     "zero_pp_rank_%u_mp_rank_%u_model_states.pt", dp_rank, mp_rank);
	}

	uint64_t ob = optim_bytes(m, l, &ovf);
	if (ob)
		emit(files, max, &n, SC_CKPT_KIND_OPTIM, ob,
		     "zero_pp_rank_%u_mp_rank_%u_optim_states.pt", dp_rank, mp_rank);
out:
	*nfiles = n;
	return n > max ? -ENOSPC : 0;
}

uint64_t sc_ckpt_rank_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t rank)
{
	/* A rank writes at most one file per layer plus one optimizer file. */
	uint32_t n;
	if (sc_ckpt_rank_files(m, l, rank, NULL, 0, &n) != -ENOSPC)
		return 0; /* invalid, or no files at all */

	struct sc_ckpt_file small[8], *files = small;
	struct sc_ckpt_file *heap = NULL;
	if (n > sizeof(small) / sizeof(small[0])) {
		heap = calloc(n, sizeof(*heap));
		if (!heap)
			return 0;
		files = heap;
	}
	uint64_t sum = 0;
	if (!sc_ckpt_rank_files(m, l, rank, files, n, &n))
		for (uint32_t i = 0; i < n; i++)
			sum += files[i].bytes;
	free(heap);
	return sum;
}

int sc_ckpt_total_parts(const struct sc_llm *m, const struct sc_ckpt_layout *l,
			uint64_t *model_bytes, uint64_t *optim_bytes_out)
{
	uint64_t model, optim;
	if (sc_ckpt_layout_check(m, l, NULL, 0))
		return -EINVAL;
	if (totals(m, l, &model, &optim))
		return -EINVAL;
	if (model_bytes)
		*model_bytes = model;
	if (optim_bytes_out)
		*optim_bytes_out = optim;
	return 0;
}

uint64_t sc_ckpt_total_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l)
{
	uint64_t model, optim;
	if (sc_ckpt_total_parts(m, l, &model, &optim))
		return 0;
	return model + optim;
}

uint64_t sc_ckpt_scaled(uint64_t bytes, double scale, uint64_t align)
{
	if (align == 0)
		align = 1;
	if (bytes == 0 || !(scale > 0))
		return 0;

	uint64_t max_units = UINT64_MAX / align, units;
	if (scale == 1.0) {
		/* Exact, whatever the precision of long double. */
		uint64_t rem = bytes % align;
		units = bytes / align + (rem && rem >= align - rem);
	} else {
		long double u = floorl((long double)bytes * scale / align + 0.5L);
		if (u >= (long double)max_units)
			return max_units * align;
		units = (uint64_t)u;
	}
	if (units == 0)
		units = 1;
	if (units > max_units)
		units = max_units;
	return units * align;
}
