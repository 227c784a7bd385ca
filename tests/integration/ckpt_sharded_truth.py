#!/usr/bin/env python3
"""ckpt_sharded_truth.py -- what torch.distributed.checkpoint stores for a
Llama-style model under FSDP/ZeRO and TP/PP, computed here from the model's
dimensions by simulating DCP's save planning, not from ssdcluster's code.

Each rank holds, for every tensor of its pipeline stage, its tensor-parallel
piece (Megatron/torchtitan placement: q, k, v, gate, up, the embedding and the
head split by rows, o and down by columns, norms replicated), then its
data-parallel piece of that (FSDP: rows cut as torch.chunk cuts them) where
the state is sharded, else the whole local piece.  A piece is keyed by
(tensor, its offsets in the full tensor); DCP stores each key once, by the
lowest rank that holds it (its deduplication).  Optimizer state: one fp32
tensor per 4 bytes of optim_bytes_per_param, shaped as the parameter, sharded
over data parallel from ZeRO 1 up; parameters only at ZeRO 3.

    ckpt_sharded_truth.py PLAN.json MODEL_JSON TP PP DP ZERO
checks PLAN.json's files against it: names, bytes per rank (each file rounded
to 4 KiB at scale 1, as ssdcluster lays files out), and the total.  Prints the
totals; exit 1 on a mismatch.
"""
import json
import sys

META_BASE, META_PER_CHUNK = 4096, 256  # ssdcluster's stated .metadata estimate
ALIGN = 4096


def chunk(d, n, i):
    """(offset, length) of piece i of d rows cut into n as torch.chunk does."""
    c = -(-d // n)
    start = i * c
    if c == 0 or start >= d:
        return (d, 0)
    return (start, min(c, d - start))


def torch_chunk_agrees():
    """torch.chunk's own pieces against chunk(), when torch is installed."""
    try:
        import torch
    except ImportError:
        return None
    for d in (1, 5, 7, 96, 1001, 4096):
        for n in (1, 2, 3, 4, 8, 16):
            got = [t.shape[0] for t in torch.empty(d, 1).chunk(n, 0)]
            got += [0] * (n - len(got))
            want = [chunk(d, n, i)[1] for i in range(n)]
            if got != want:
                sys.exit(f"torch.chunk({d}, {n}) = {got}, ours {want}")
    return True


def tensors(m, pp):
    """(stage, name, rows, cols, tp split: 'row' | 'col' | None) of every tensor."""
    h, ffn, v = m["hidden"], m["ffn_hidden"], m["vocab"]
    kv = (h // m["heads"]) * m["kv_heads"]
    per = m["layers"] // pp
    out = [(0, "tok_embeddings", v, h, "row")]
    for layer in range(m["layers"]):
        s, p = layer // per, f"layers.{layer}."
        out += [(s, p + "attention_norm", h, 1, None),
                (s, p + "attention.wq", h, h, "row"),
                (s, p + "attention.wk", kv, h, "row"),
                (s, p + "attention.wv", kv, h, "row"),
                (s, p + "attention.wo", h, h, "col"),
                (s, p + "ffn_norm", h, 1, None),
                (s, p + "feed_forward.w1", ffn, h, "row"),
                (s, p + "feed_forward.w3", ffn, h, "row"),
                (s, p + "feed_forward.w2", h, ffn, "col")]
    out += [(pp - 1, "norm", h, 1, None), (pp - 1, "output", v, h, "row")]
    return out


def plan(m, tp, pp, dp, zero):
    """Bytes each rank stores and the chunks stored in all."""
    nranks = tp * pp * dp
    stored = {}  # (state, name, row offset, col offset) -> (lowest rank, elements)
    for stage, name, rows, cols, split in tensors(m, pp):
        for rank in range(nranks):
            t, p, d = rank % tp, (rank // tp) % pp, rank // (tp * pp)
            if p != stage:
                continue
            r0, nr, c0, nc = 0, rows, 0, cols
            if split == "row":
                r0, nr = chunk(rows, tp, t)
            elif split == "col":
                c0, nc = chunk(cols, tp, t)
            for state, sharded in (("param", zero == 3), ("optim", zero >= 1)):
                if sharded:
                    o, n = chunk(nr, dp, d)
                    key_rows = (r0 + o, n)
                else:
                    key_rows = (r0, nr)
                if key_rows[1] == 0 or nc == 0:
                    continue
                key = (state, name, key_rows[0], c0)
                if key not in stored:  # ranks ascend: the first is the lowest
                    stored[key] = (rank, key_rows[1] * nc)
    per_rank = [0] * nranks
    chunks = 0
    states = max(1, m["optim_bytes_per_param"] // 4)
    for (state, _, _, _), (rank, elems) in stored.items():
        if state == "param":
            per_rank[rank] += elems * m["dtype_bytes"]
            chunks += 1
        else:
            per_rank[rank] += elems * m["optim_bytes_per_param"]
            chunks += states
    return per_rank, META_BASE + META_PER_CHUNK * chunks


def aligned(b):
    """b rounded to the nearest 4 KiB (ties up), never 0 for b > 0."""
    u = (b + ALIGN // 2) // ALIGN
    return max(u, 1) * ALIGN if b else 0


def main():
    path, model, tp, pp, dp, zero = sys.argv[1], json.loads(sys.argv[2]), *map(int, sys.argv[3:7])
    torch_chunk_agrees()
    per_rank, meta = plan(model, tp, pp, dp, zero)
    want = {}
    for r, b in enumerate(per_rank):
        if b:
            want[(r, f"__{r}_0.distcp")] = aligned(b)
    want[(0, ".metadata")] = aligned(meta)
    p = json.load(open(path))
    got = {}
    for r in p["ranks"]:
        for f in r["files"]:
            if f["phase"] == 0:
                got[(r["rank"], f["path"].rsplit("/", 1)[1])] = f["size_bytes"]
    if got != want:
        for k in sorted(set(got) | set(want)):
            if got.get(k) != want.get(k):
                print(f"rank {k[0]} {k[1]}: plan {got.get(k)} B, truth {want.get(k)} B")
        sys.exit(1)
    params = sum(r * c for _, _, r, c, _ in tensors(model, pp))
    total = sum(per_rank)
    # every tensor once: the stored bytes are the model's, whatever the sharding
    assert total == params * (model["dtype_bytes"] + model["optim_bytes_per_param"]), total
    print(f"{len(want)} files, {params} parameters, {total} B of state + {meta} B of "
          f".metadata (truth); plan.json agrees")


if __name__ == "__main__":
    main()
