/* ckpt_model.h -- byte model of LLM checkpoints, file for file as DLIO writes them.
 *
 * DLIO (argonne-lcf/dlio_benchmark, PyTorch checkpointing), which the
 * MLPerf Storage v2 checkpointing workload runs, writes a transformer's
 * checkpoint as per-rank ".pt" files whose names and byte counts follow
 * from the model's shape and the parallel layout.  This module reproduces
 * that set exactly (tensor payload bytes; torch.save's small pickle header
 * is not modelled), so llama3-8b on TP1 PP1 DP8 ZeRO-3 is 112,425,623,552
 * bytes here as it is in DLIO.
 *
 * Ranks map to coordinates as in DLIO (tensor-parallel fastest):
 *   tp_rank = rank % tp, pp_rank = (rank / tp) % pp, dp_rank = rank / (tp*pp),
 *   mp_rank = rank % (tp*pp).
 * The caller puts one checkpoint's files in a directory of its own (DLIO:
 * "global_epoch<E>_step<S>/"); the names below are relative to it.  To run
 * part of a layout (DLIO's subset mode, e.g. 8 ranks of llama3-70b's 64),
 * keep the full dp and ask only for the ranks that run.
 */
#ifndef SC_CKPT_MODEL_H
#define SC_CKPT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define SC_CKPT_MODEL_NAME_MAX 32 /* sizeof(sc_llm.name), NUL included */
/* Scaled checkpoint files and O_DIRECT transfers are multiples of this. */
#define SC_CKPT_ALIGN 4096u

/* Largest model dimensions accepted: far above any real model (llama3-1t
 * has 128 layers, hidden 25872, ffn 98304, 192 heads, vocab 128256), and
 * small enough that every byte count of a model within them fits in 64
 * bits and a rank's file list stays short. */
#define SC_CKPT_MAX_LAYERS UINT32_C(16384)
#define SC_CKPT_MAX_HIDDEN (UINT32_C(1) << 20)
#define SC_CKPT_MAX_FFN	   (UINT32_C(1) << 22)
#define SC_CKPT_MAX_HEADS  (UINT32_C(1) << 16)
#define SC_CKPT_MAX_VOCAB  (UINT64_C(1) << 24)
#define SC_CKPT_FILE_NAME_MAX  96 /* sizeof(sc_ckpt_file.name), NUL included */

/* A dense decoder-only transformer (Llama-style: GQA attention, SwiGLU MLP,
 * untied embedding and output head).  Fill one by sc_ckpt_model_lookup or
 * by hand for an inline spec; sc_ckpt_layout_check validates it. */
struct sc_llm {
	char name[SC_CKPT_MODEL_NAME_MAX];
	uint32_t layers;     /* transformer layers */
	uint32_t hidden;     /* hidden size */
	uint32_t ffn_hidden; /* MLP inner size */
	uint32_t heads;	     /* attention (query) heads */
	uint32_t kv_heads;   /* key/value heads (== heads without GQA) */
	uint64_t vocab;
	uint32_t model_dtype_bytes;	/* 2: fp16/bf16 model state */
	uint32_t optim_bytes_per_param; /* 12: three fp32 optimizer states */
};

/* Whose files a checkpoint is made of. */
enum sc_ckpt_layout_kind {
	/* DLIO's (MLPerf Storage): model state by data-parallel rank 0 only
	 * (every rank under ZeRO-3), per-layer files when pipelined, an
	 * optimizer file per rank */
	SC_CKPT_LAYOUT_DLIO = 0,
	/* torch.distributed.checkpoint's (FSDP, Megatron/DeepSpeed
	 * distributed checkpoints): every tensor stored once, each rank its
	 * shard of parameters and optimizer state in __<rank>_0.distcp, rank 0
	 * the .metadata file (ckpt_dcp.c) */
	SC_CKPT_LAYOUT_SHARDED,
	SC_CKPT_LAYOUT_COUNT
};

/* Parallel layout.  Ranks = tp * pp * dp. */
struct sc_ckpt_layout {
	uint32_t tp;	     /* tensor parallel */
	uint32_t pp;	     /* pipeline parallel (stages) */
	uint32_t dp;	     /* data parallel */
	uint32_t zero_stage; /* DeepSpeed ZeRO stage, 0..3 (sharded: 3 is
			      * FSDP's full shard, 1 and 2 shard only the
			      * optimizer state, 0 nothing) */
	enum sc_ckpt_layout_kind kind;
};

enum sc_ckpt_kind {
	SC_CKPT_KIND_MODEL = 1, /* model state (weights) */
	SC_CKPT_KIND_OPTIM = 2, /* optimizer state */
	SC_CKPT_KIND_SHARD = 3, /* sharded: a rank's model and optimizer state */
	SC_CKPT_KIND_META = 4,	/* sharded: the checkpoint's metadata */
};

struct sc_ckpt_file {
	char name[SC_CKPT_FILE_NAME_MAX]; /* e.g. "layer_3-model_5_model_states.pt" */
	uint64_t bytes;
	uint8_t kind; /* enum sc_ckpt_kind */
};

/* The catalogue, as DLIO / MLPerf Storage v2 define the models:
 * "llama3-8b", "llama3-70b", "llama3.1-405b", "llama3-1t" (MLPerf's
 * spelling "llama3-405b" is accepted too).  Returns a NULL-terminated list. */
const char *const *sc_ckpt_model_names(void);

/* Copies the catalogue entry called name into *out.  0 or -ENOENT. */
int sc_ckpt_model_lookup(const char *name, struct sc_llm *out);

/* The layout MLPerf Storage v2 prescribes for a catalogue model (closed
 * division): llama3-8b TP1 PP1 DP8 ZeRO-3, llama3-70b TP8 PP1 DP8 ZeRO-3,
 * llama3.1-405b TP8 PP32 DP2 ZeRO-1, llama3-1t TP8 PP64 DP2 ZeRO-1.
 * 0 or -ENOENT. */
int sc_ckpt_layout_mlperf(const char *name, struct sc_ckpt_layout *out);

/* Sets l->dp = ranks / (tp * pp), the default when a config leaves dp out.
 * 0, or -EINVAL when tp or pp is 0 or ranks is not a positive multiple of
 * tp * pp. */
int sc_ckpt_layout_default_dp(struct sc_ckpt_layout *l, uint32_t ranks);

/* Checks the model and the layout together: sane model fields (each
 * dimension 1..SC_CKPT_MAX_*), tp, pp, dp at least 1, tp divides heads, kv_heads divides heads, pp <= layers,
 * ZeRO stage 0..3, no pipeline under ZeRO-3, byte counts within 64 bits.
 * 0, or -EINVAL with a message a user can act on in err (when errlen > 0). */
int sc_ckpt_layout_check(const struct sc_llm *m, const struct sc_ckpt_layout *l, char *err,
			 size_t errlen);

/* Parameter count of the whole model as DLIO counts it (embedding, layers,
 * final norm, output head).  0 for an invalid model. */
uint64_t sc_ckpt_model_params(const struct sc_llm *m);

/* The files rank writes per checkpoint, in write order (model state, then
 * optimizer state), into files[0..max).  *nfiles gets the number of files
 * (0 is valid: under ZeRO-0 only data-parallel rank 0 writes).  0; -EINVAL
 * for an invalid model/layout, rank >= tp*pp*dp or nfiles NULL; -ENOSPC
 * when max is too small, with *nfiles set to the number needed (files may
 * be NULL when max is 0). */
int sc_ckpt_rank_files(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t rank,
		       struct sc_ckpt_file *files, uint32_t max, uint32_t *nfiles);

/* Bytes rank writes per checkpoint; 0 when the inputs are invalid. */
uint64_t sc_ckpt_rank_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l, uint32_t rank);

/* Bytes all ranks write per checkpoint, split into model and optimizer
 * state (either pointer may be NULL).  0 or -EINVAL. */
int sc_ckpt_total_parts(const struct sc_llm *m, const struct sc_ckpt_layout *l,
			uint64_t *model_bytes, uint64_t *optim_bytes);

/* Bytes all ranks write per checkpoint; 0 when the inputs are invalid. */
uint64_t sc_ckpt_total_bytes(const struct sc_llm *m, const struct sc_ckpt_layout *l);

/* bytes * scale rounded to the nearest multiple of align (ties up), so a
 * 405B layout can run in MiB.  A non-zero size never scales to 0: the
 * result is at least align.  scale 1.0 returns bytes rounded to align;
 * scale <= 0 (or NaN) or bytes 0 give 0; align 0 means 1.  Saturates at
 * the largest multiple of align that fits in 64 bits. */
uint64_t sc_ckpt_scaled(uint64_t bytes, double scale, uint64_t align);

#endif
