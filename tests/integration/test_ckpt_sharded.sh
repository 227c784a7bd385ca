#!/usr/bin/env bash
# layout: sharded (torch.distributed.checkpoint's files): the dry run lists,
# for two catalogue models and an inline one in five shardings (ZeRO 0..3,
# TP, PP, uneven pieces), every rank's __<rank>_0.distcp and rank 0's
# .metadata with the bytes ckpt_sharded_truth.py works out on its own from
# the model's dimensions by simulating DCP's planning; the parameter count
# of llama3-8b is Meta's published one; `model --layout sharded` spreads
# the bytes evenly where DLIO's layout loads the first nodes; bad layouts
# and keep_last: 0 exit 2 naming the key; keep_last deletes what it should.
. "$(dirname "$0")/lib.sh"
TRUTH="$SC_SOURCE_DIR/tests/integration/ckpt_sharded_truth.py"
mkdir -p "$T/target"

L8='{"layers":32,"hidden":4096,"ffn_hidden":14336,"heads":32,"kv_heads":8,"vocab":128256,"dtype_bytes":2,"optim_bytes_per_param":12}'
L70='{"layers":80,"hidden":8192,"ffn_hidden":28672,"heads":128,"kv_heads":8,"vocab":128256,"dtype_bytes":2,"optim_bytes_per_param":12}'
# uneven pieces: 32003 rows of 1024 (14 KiB a row, more than the 4 KiB a
# file is rounded to) cut over tp 2, then dp 2 or 3
TINY='{"layers":6,"hidden":1024,"ffn_hidden":2816,"heads":8,"kv_heads":2,"vocab":32003,"dtype_bytes":2,"optim_bytes_per_param":12}'
TINY_YAML='{layers: 6, hidden: 1024, ffn_hidden: 2816, heads: 8, kv_heads: 2, vocab: 32003, dtype: bf16}'

# Meta's Llama 3 8B has 8,030,261,248 parameters: the truth's tensor list
# must give exactly that, or it is not Llama's.
python3 - "$TRUTH" "$L8" <<'PY' || fail "the truth's llama3-8b is not Meta's"
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("truth", sys.argv[1])
t = importlib.util.module_from_spec(spec); spec.loader.exec_module(t)
n = sum(r * c for _, _, r, c, _ in t.tensors(json.loads(sys.argv[2]), 1))
assert n == 8030261248, n
PY

# dry MODEL_YAML MODEL_JSON TP PP DP ZERO : a dry run on TP x PP x DP ranks
# at scale 1 (it may say the target is too small: exit 2 with plan.json)
dry() {
	local ranks=$(($3 * $4 * $5)) rc=0
	cat >"$T/c.yaml" <<EOF
targets:
  - path: $T/target
phases:
  - name: ck
    workload: checkpoint
    model: $1
    layout: sharded
    tp: $3
    pp: $4
    zero: $6
EOF
	rm -rf "$T/dry"
	sc_mpirun "$ranks" "$T/c.yaml" --dry-run --output "$T/dry" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "dry run: exit $rc"; }
	grep -q "TP$3 x PP$4 x DP$5 ZeRO-$6, layout sharded" "$T/out.log" ||
		{ cat "$T/out.log"; fail "dry run line does not name the sharded layout"; }
	python3 "$TRUTH" "$T/dry/plan.json" "$2" "$3" "$4" "$5" "$6" ||
		fail "$1 TP$3 PP$4 DP$5 ZeRO-$6: plan.json's files differ from the truth"
}
dry llama3-8b "$L8" 1 1 4 3
dry llama3-8b "$L8" 2 2 2 3
dry llama3-70b "$L70" 8 1 2 1
dry "$TINY_YAML" "$TINY" 2 3 2 2
dry "$TINY_YAML" "$TINY" 1 2 3 0

# Without zero, a sharded layout is FSDP's full shard (ZeRO-3).
cat >"$T/z.yaml" <<EOF
targets:
  - path: $T/target
phases:
  - name: ck
    workload: checkpoint
    model: llama3-8b
    layout: sharded
EOF
sc_mpirun 2 "$T/z.yaml" --dry-run --output "$T/dz" || true
grep -q "TP1 x PP1 x DP2 ZeRO-3, layout sharded" "$T/out.log" ||
	{ cat "$T/out.log"; fail "layout sharded without zero is not ZeRO-3"; }

# The model: DLIO's ZeRO-1 layout loads data-parallel rank 0's node with the
# model state; the sharded layout spreads one checkpoint over every node
# (the busiest within 1% of the median: rank 0's .metadata and tp rank 0's
# norms), with the same total to within the metadata.
"$SC_BIN" model --drive-write 5GB/s --model llama3-70b --tp 8 --zero 1 --nodes 16 \
	--json >"$T/dlio.json" || fail "model, dlio layout"
"$SC_BIN" model --drive-write 5GB/s --model llama3-70b --tp 8 --layout sharded --nodes 16 \
	--keep-last 3 --json >"$T/sharded.json" || fail "model, sharded layout"
python3 - "$T/dlio.json" "$T/sharded.json" "$TRUTH" "$L70" <<'PY' || fail "model's bytes by node"
import importlib.util, json, sys
d, s = (json.load(open(p))["model"] for p in sys.argv[1:3])
spec = importlib.util.spec_from_file_location("truth", sys.argv[3])
t = importlib.util.module_from_spec(spec); spec.loader.exec_module(t)
assert s["params"]["layout"] == "sharded" and s["params"]["zero"] == 3, s["params"]
assert d["params"]["layout"] == "dlio", d["params"]
rd, rs = d["sizes"][0], s["sizes"][0]
# DLIO ZeRO-1: node 0 holds the model state (2 B/param) besides its optimizer share
assert rd["node_bytes_max"] > 1.5 * rd["node_bytes_median"], rd
assert rs["node_bytes_max"] <= 1.01 * rs["node_bytes_median"], rs
# 16 nodes x 8 GPUs, TP8: dp 16; the total is the truth's, each file on 4 KiB
per_rank, meta = t.plan(json.loads(sys.argv[4]), 8, 1, 16, 3)
want = sum(t.aligned(b) for b in per_rank) + t.aligned(meta)
assert rs["checkpoint_bytes"] == want, (rs["checkpoint_bytes"], want)
# keep_last 3: four checkpoints at once on the busiest node
assert s["params"]["keep_last"] == 3 and "keep_bytes_per_node" not in rd, s["params"]
assert rs["keep_bytes_per_node"] == 4 * rs["node_bytes_max"], rs
PY

# Bad input: a sharded layout that does not divide the model, keep_last 0.
bad() {
	local rc=0
	"$SC_BIN" "$T/z.yaml" --dry-run --set "$1" --output "$T/bad" >"$T/bad.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/bad.log"; fail "--set $1: exit $rc, not 2"; }
	grep -q -- "$2" "$T/bad.log" || { cat "$T/bad.log"; fail "--set $1: no \"$2\""; }
}
bad pp=3 "phases.0.pp: layout sharded: pp 3 must divide the 32 layers (32 / 3 leaves 2"
bad tp=16 "phases.0.tp: layout sharded: tp 16 must divide the 8 key/value heads (8 / 16 leaves 8)"
bad tp=3 "phases.0.tp: tp 3 must divide the 32 attention heads"
bad keep_last=0 "phases.0.keep_last: 0 is out of range"
rc=0
"$SC_BIN" "$T/z.yaml" --dry-run --set procedure=mlperf --set keep_last=3 --output "$T/bad" \
	>"$T/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "phases.0.keep_last: procedure: mlperf reads all 10 checkpoints back, but keep_last 3 would delete 7 of them first" "$T/bad.log" ||
	{ cat "$T/bad.log"; fail "procedure: mlperf with keep_last 3: exit $rc"; }

# keep_last 2 of 4 checkpoints with restore: checkpoints 1 and 2 are
# deleted after 3 and 4 are written (a deletion time each), 3 and 4 are
# read back, and the kept run holds exactly those two.
cat >"$T/k.yaml" <<EOF
targets:
  - path: $T/target
    keep: true
phases:
  - name: ck
    workload: checkpoint
    model: llama3-8b
    layout: sharded
    checkpoints: 4
    keep_last: 2
    restore: true
    scale: 0.0001
EOF
sc_mpirun 2 "$T/k.yaml" --output "$T/k" --run-id keep || { cat "$T/out.log"; fail "keep_last run"; }
grep -q "ck: keep_last 2: 2 checkpoint(s) deleted" "$T/out.log" ||
	{ cat "$T/out.log"; fail "no deletion line"; }
python3 - "$T/k/results.json" <<'PY' || fail "keep_last results"
import json, sys
r = json.load(open(sys.argv[1]))
cells = r["checkpoints"][0]["cells"]
got = [(c["index"], c["restore"], "delete_ns" in c and c["delete_ns"] > 0) for c in cells]
assert got == [(1, False, False), (2, False, False), (3, False, True), (4, False, True),
               (3, True, False), (4, True, False)], got
PY
# the model reads keep_last from the run: three checkpoints per node at once
"$SC_BIN" model "$T/k/results.pb" --nodes 2 --json >"$T/km.json" || fail "model of the keep_last run"
python3 - "$T/km.json" <<'PY' || fail "the model did not take the run's keep_last"
import json, sys
m = json.load(open(sys.argv[1]))["model"]
s = m["sizes"][0]
assert m["params"]["keep_last"] == 2 and m["params"]["layout"] == "sharded", m["params"]
assert s["keep_bytes_per_node"] == 3 * s["node_bytes_max"], s
PY
ls "$T/target/ssdcluster-keep/ck" >"$T/kept.txt"
[ "$(tr '\n' ' ' <"$T/kept.txt")" = "global_epoch1_step3 global_epoch1_step4 " ] ||
	{ cat "$T/kept.txt"; fail "keep_last 2 kept other checkpoints"; }
[ "$(ls -A "$T/target/ssdcluster-keep/ck/global_epoch1_step4" | sort | tr '\n' ' ')" = \
	".metadata __0_0.distcp __1_0.distcp " ] ||
	fail "checkpoint 4's files: $(ls -A "$T/target/ssdcluster-keep/ck/global_epoch1_step4")"
echo PASS
