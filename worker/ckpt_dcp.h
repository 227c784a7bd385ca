/* ckpt_dcp.h -- the sharded checkpoint layout (torch.distributed.checkpoint's).
 *
 * Internal to the byte model: ckpt_model.c calls these for a layout of kind
 * SC_CKPT_LAYOUT_SHARDED after its own checks of the model and the degrees.
 *
 * What a sharded checkpoint holds, tensor by tensor, for a Llama-style
 * model (per layer: two norms, q, k, v, o, gate, up, down; the embedding
 * on the first pipeline stage, the final norm and the output head on the
 * last; layers split evenly over the stages):
 *   - tensor parallelism splits q, k, v, gate, up, the embedding and the
 *     head by rows, o and down by columns, and replicates the norms;
 *   - every tensor is saved once: a replicated one by the lowest rank that
 *     holds it (DCP's deduplication), so norms come from tp rank 0 and,
 *     below ZeRO-3, parameters from data-parallel rank 0;
 *   - ZeRO-3 (FSDP's full shard) splits each tensor's local rows over the
 *     data-parallel ranks as torch.chunk does (chunks of ceil(rows / dp),
 *     the last ones shorter or empty); ZeRO 1 and 2 split only the optimizer
 *     state so; ZeRO-0 splits nothing;
 *   - the optimizer state is optim_bytes_per_param bytes per element of
 *     each parameter shard (12: fp32 master weights and Adam's two moments).
 * A rank's shard is one file, __<rank>_0.distcp (DCP's FileSystemWriter with
 * one thread and a file per rank), holding its parameters then its
 * optimizer state: tensor payload bytes, as the DLIO layout counts them
 * (the torch.save container DCP wraps round each tensor is not modelled).
 * A rank with nothing to store writes no file.  Rank 0 writes .metadata
 * after its shard: SC_CKPT_DCP_META_BASE + SC_CKPT_DCP_META_PER_CHUNK
 * bytes per stored chunk, an estimate (Debian's torch 1.13 has no DCP to
 * measure it with), a few MB for the largest models.
 */
#ifndef SC_CKPT_DCP_H
#define SC_CKPT_DCP_H

#include "ckpt_model.h"

/* The .metadata estimate: a fixed part and a part per stored chunk (a
 * chunk is one rank's piece of one tensor, parameter or optimizer state). */
#define SC_CKPT_DCP_META_BASE	   UINT64_C(4096)
#define SC_CKPT_DCP_META_PER_CHUNK UINT64_C(256)

/* -EINVAL, with the message printf-formatted into err when errlen > 0: the
 * byte model's errors (ckpt_model.c's too). */
__attribute__((format(printf, 3, 4))) int sc_ckpt_fail(char *err, size_t errlen, const char *fmt,
						       ...);

/* The checks the sharded layout adds: tp divides heads, kv_heads and
 * ffn_hidden (whole heads and MLP columns per rank), pp divides layers.
 * 0, or -EINVAL with the arithmetic in err. */
int sc_ckpt_dcp_check(const struct sc_llm *m, const struct sc_ckpt_layout *l, char *err,
		      size_t errlen);

/* One checkpoint's parameter, optimizer-state and metadata bytes over all
 * ranks.  0, or -EOVERFLOW. */
int sc_ckpt_dcp_totals(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint64_t *model,
		       uint64_t *optim, uint64_t *meta);

/* Rank's files as sc_ckpt_rank_files lists them (the inputs checked). */
int sc_ckpt_dcp_rank_files(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t rank,
			   struct sc_ckpt_file *files, uint32_t max, uint32_t *nfiles);

#endif
