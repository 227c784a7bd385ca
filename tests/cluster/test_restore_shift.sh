#!/usr/bin/env bash
# Checkpoint restore after a node failure: 2 hosts x 2 ranks write a
# TP2 x DP2 ZeRO-1 checkpoint to storage both hosts see, then with
# restore_shift: 1 every rank reads the shards of the rank one node on
# (rank r reads rank (r + 2) mod 4's files), byte for byte.
set -euo pipefail
. "$(dirname "$0")/netns_lib.sh" || exit 1

hosts_up 2
sc_hostfile "$T/hosts" 2 2
mkdir -p "$T/shared"
cat >"$T/shift.yaml" <<YAML
targets:
  - path: $T/shared
phases:
  - name: ck
    workload: checkpoint
    model: {layers: 4, hidden: 256, ffn_hidden: 512, heads: 8, kv_heads: 2, vocab: 4096}
    tp: 2
    zero: 1
    checkpoints: 1
    block_size: 64KiB
    restore: true
    restore_shift: 1
YAML
sc_cluster_mpirun "$T/hosts" 4 "$T/shift.yaml" --output "$T/out" >"$T/run.log" 2>&1 ||
	{ cat "$T/run.log"; fail "run exited $? (want 0)"; }
cat "$T/run.log"
python3 - "$T/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w, rd = r["phases"]
wrote = {x["rank"]: x["bytes_written"] for x in w["ranks"]}
read = {x["rank"]: x["bytes_read"] for x in rd["ranks"]}
host = {x["rank"]: x["host"] for x in w["ranks"]}
bad = 0
if len(set(host.values())) != 2:
    print("FAIL: want 2 hosts, got", host); bad += 1
# ZeRO-1: data-parallel rank 0 (ranks 0, 1) also writes model state, so
# the two halves differ and a shift is visible in the byte counts
if wrote[0] == wrote[2]:
    print("FAIL: shards of dp 0 and dp 1 should differ:", wrote); bad += 1
for rank in range(4):
    src = (rank + 2) % 4
    if read[rank] != wrote[src]:
        print(f"FAIL: rank {rank} read {read[rank]} B, rank {src} wrote {wrote[src]} B"); bad += 1
print("restore_shift: every rank read the next node's shards" if not bad else "")
sys.exit(1 if bad else 0)
PY
echo PASS
