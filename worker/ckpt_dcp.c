/* ckpt_dcp.c -- the sharded layout: each rank's shard of a checkpoint as
 * torch.distributed.checkpoint stores it. */
#include "ckpt_dcp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Bytes of one fp32 optimizer state per element: optim_bytes_per_param
 * over this is the number of state tensors saved per parameter. */
#define OPTIM_STATE_BYTES 4u
/* Tensors per transformer layer: two norms, q, k, v, o, gate, up, down. */
#define LAYER_TENSORS 9u

/* How tensor parallelism splits a tensor. */
enum split {
	SPLIT_ROWS, /* column-parallel: rows (q, k, v, gate, up, embedding, head) */
	SPLIT_COLS, /* row-parallel: columns (o, down) */
	SPLIT_NONE, /* replicated (norms): stored once, by tp rank 0 */
};

struct tensor {
	uint64_t rows, cols;
	enum split split;
	uint64_t count; /* how many such tensors the stage holds */
};

/* Rows of piece i when d rows are cut into n pieces as torch.chunk cuts
 * them: pieces of ceil(d / n), the last ones shorter or empty. */
static uint64_t chunk_rows(uint64_t d, uint64_t n, uint64_t i)
{
	uint64_t c = (d + n - 1) / n, start = i * c;

	return !c || start >= d ? 0 : (d - start < c ? d - start : c);
}

/* The pieces of d rows cut into n that are not empty. */
static uint64_t chunks_nonempty(uint64_t d, uint64_t n)
{
	uint64_t c = (d + n - 1) / n;

	return c ? (d + c - 1) / c : 0;
}

/* The stage's tensors into t[]; returns how many kinds. */
static uint32_t stage_tensors(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t p,
			      struct tensor t[12])
{
	uint64_t h = m->hidden, ffn = m->ffn_hidden, per = m->layers / l->pp;
	uint64_t dim_kv = (h / m->heads) * m->kv_heads;
	uint32_t n = 0;

	t[n++] = (struct tensor){h, 1, SPLIT_NONE, 2 * per};	  /* input and post-attn norms */
	t[n++] = (struct tensor){h, h, SPLIT_ROWS, per};	  /* q */
	t[n++] = (struct tensor){dim_kv, h, SPLIT_ROWS, 2 * per}; /* k, v */
	t[n++] = (struct tensor){h, h, SPLIT_COLS, per};	  /* o */
	t[n++] = (struct tensor){ffn, h, SPLIT_ROWS, 2 * per};	  /* gate, up */
	t[n++] = (struct tensor){h, ffn, SPLIT_COLS, per};	  /* down */
	if (p == 0)
		t[n++] = (struct tensor){m->vocab, h, SPLIT_ROWS, 1}; /* embedding */
	if (p == l->pp - 1) {
		t[n++] = (struct tensor){h, 1, SPLIT_NONE, 1};	      /* final norm */
		t[n++] = (struct tensor){m->vocab, h, SPLIT_ROWS, 1}; /* output head */
	}
	return n;
}

/* Tensor x's rows and columns on tp rank r. */
static void tp_local(const struct tensor *x, uint64_t tp, uint64_t r, uint64_t *rows,
		     uint64_t *cols)
{
	*rows = x->rows;
	*cols = x->cols;
	if (x->split == SPLIT_ROWS)
		*rows = chunk_rows(x->rows, tp, r);
	else if (x->split == SPLIT_COLS)
		*cols = chunk_rows(x->cols, tp, r);
	else if (r != 0)
		*rows = 0;
}

/* Elements data-parallel rank d stores of rows x cols: its chunk of the
 * rows when sharded, else all of them on rank 0 alone. */
static uint64_t dp_elems(uint64_t rows, uint64_t cols, uint64_t dp, uint64_t d, bool sharded)
{
	uint64_t r = sharded ? chunk_rows(rows, dp, d) : (d == 0 ? rows : 0);

	return r * cols; /* within 2^46: the model's dimensions are bounded */
}

int sc_ckpt_fail(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int sc_ckpt_dcp_check(const struct sc_llm *m, const struct sc_ckpt_layout *l, char *err,
		      size_t errlen)
{
	if (m->kv_heads % l->tp)
		return sc_ckpt_fail(
		    err, errlen,
		    "layout sharded: tp %u must divide the %u key/value heads (%u / %u "
		    "leaves %u)",
		    l->tp, m->kv_heads, m->kv_heads, l->tp, m->kv_heads % l->tp);
	if (m->ffn_hidden % l->tp)
		return sc_ckpt_fail(
		    err, errlen,
		    "layout sharded: tp %u must divide ffn_hidden %u (%u / %u leaves %u)", l->tp,
		    m->ffn_hidden, m->ffn_hidden, l->tp, m->ffn_hidden % l->tp);
	if (m->layers % l->pp)
		return sc_ckpt_fail(
		    err, errlen,
		    "layout sharded: pp %u must divide the %u layers (%u / %u leaves %u; "
		    "every stage holds as many layers)",
		    l->pp, m->layers, m->layers, l->pp, m->layers % l->pp);
	return 0;
}

/* Adds x * k to *sum, noting an overflow in *ovf. */
static void add_mul(uint64_t *sum, uint64_t x, uint64_t k, bool *ovf)
{
	uint64_t p;

	if (__builtin_mul_overflow(x, k, &p) || __builtin_add_overflow(*sum, p, sum))
		*ovf = true;
}

/* Optimizer state tensors saved per parameter tensor. */
static uint64_t optim_states(const struct sc_llm *m)
{
	uint64_t s = m->optim_bytes_per_param / OPTIM_STATE_BYTES;

	return s ? s : 1;
}

/* Chunks stored of tensor x over the tp ranks: each rank's rows cut over
 * dp where sharded, else one piece.  A cut of d into n gives d / c pieces
 * of c = ceil(d / n) and one of d % c, so three sizes at most. */
static uint64_t tensor_chunks(const struct tensor *x, uint64_t tp, uint64_t dp, bool sharded)
{
	uint64_t c, whole, rest, per_piece;

	if (x->split == SPLIT_NONE)
		return sharded ? chunks_nonempty(x->rows, dp) : 1;
	if (x->split == SPLIT_COLS) /* every tp rank has all rows, some columns */
		return chunks_nonempty(x->cols, tp) * (sharded ? chunks_nonempty(x->rows, dp) : 1);
	c = (x->rows + tp - 1) / tp;
	whole = x->rows / c;
	rest = x->rows % c;
	per_piece = sharded ? chunks_nonempty(c, dp) : 1;
	return whole * per_piece + (rest ? (sharded ? chunks_nonempty(rest, dp) : 1) : 0);
}

int sc_ckpt_dcp_totals(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint64_t *model,
		       uint64_t *optim, uint64_t *meta)
{
	uint64_t elems = 0, pchunks = 0, ochunks = 0;
	bool ovf = false;

	/* the first stage, the middle ones (alike), the last */
	for (uint32_t p = 0; p < l->pp; p = p == 0 && l->pp > 2 ? 1 : l->pp - 1) {
		uint64_t stages = p == 1 && l->pp > 2 ? l->pp - 2u : 1;
		struct tensor t[12];
		uint32_t n = stage_tensors(m, l, p, t);

		for (uint32_t i = 0; i < n; i++) {
			uint64_t k = t[i].count * stages;

			add_mul(&elems, t[i].rows * t[i].cols, k, &ovf);
			add_mul(&pchunks, tensor_chunks(&t[i], l->tp, l->dp, l->zero_stage == 3), k,
				&ovf);
			add_mul(&ochunks, tensor_chunks(&t[i], l->tp, l->dp, l->zero_stage >= 1), k,
				&ovf);
		}
		if (p == l->pp - 1)
			break;
	}
	*model = *optim = *meta = 0;
	add_mul(model, elems, m->model_dtype_bytes, &ovf);
	add_mul(optim, elems, m->optim_bytes_per_param, &ovf);
	*meta = SC_CKPT_DCP_META_BASE;
	add_mul(meta, pchunks, SC_CKPT_DCP_META_PER_CHUNK, &ovf);
	add_mul(meta, ochunks, optim_states(m) * SC_CKPT_DCP_META_PER_CHUNK, &ovf);
	return ovf ? -EOVERFLOW : 0;
}

/* Appends a file when there is room; counts it in any case. */
static void put(struct sc_ckpt_file *files, uint32_t max, uint32_t *n, uint8_t kind, uint64_t bytes,
		const char *name)
{
	if (*n < max) {
		snprintf(files[*n].name, sizeof(files[*n].name), "%s", name);
		files[*n].bytes = bytes;
		files[*n].kind = kind;
	}
	(*n)++;
}

int sc_ckpt_dcp_rank_files(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t rank,
			   struct sc_ckpt_file *files, uint32_t max, uint32_t *nfiles)
{
	uint64_t tp_rank = rank % l->tp, d = rank / ((uint64_t)l->tp * l->pp);
	uint32_t p = (rank / l->tp) % l->pp, n = 0;
	uint64_t pe = 0, oe = 0, model, optim, meta;
	struct tensor t[12];
	uint32_t nt = stage_tensors(m, l, p, t);
	char name[SC_CKPT_FILE_NAME_MAX];

	for (uint32_t i = 0; i < nt; i++) {
		uint64_t rows, cols;

		tp_local(&t[i], l->tp, tp_rank, &rows, &cols);
		pe += t[i].count * dp_elems(rows, cols, l->dp, d, l->zero_stage == 3);
		oe += t[i].count * dp_elems(rows, cols, l->dp, d, l->zero_stage >= 1);
	}
	/* within the totals, which the caller's check bounded */
	snprintf(name, sizeof(name), "__%u_0.distcp", rank);
	if (pe || oe)
		put(files, max, &n, SC_CKPT_KIND_SHARD,
		    pe * m->model_dtype_bytes + oe * m->optim_bytes_per_param, name);
	if (rank == 0 && !sc_ckpt_dcp_totals(m, l, &model, &optim, &meta))
		put(files, max, &n, SC_CKPT_KIND_META, meta, ".metadata");
	*nfiles = n;
	return n > max ? -ENOSPC : 0;
}
