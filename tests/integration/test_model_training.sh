#!/usr/bin/env bash
# ssdcluster model on training runs: how many accelerators a node's drives
# feed at the AU threshold, against a closed form worked here from the
# config alone (not from the model's code).
#
# Storage-bound: 4 ranks (one node) on a target throttled to 720 KiB/s,
# engine emulated (no files): each rank is a drive of 720 KiB/s.  A step
# of one accelerator reads batch 4 x 64 KiB = 256 KiB and computes 200 ms,
# so at AU 90% it needs 256 KiB every 200 ms / 0.9 = 1152 KiB/s.  The
# reader reads a batch in 256 / 720 s = 356 ms > 200 ms: every rank waits
# for its batches (AU about 200 / 356 = 0.56), the drives are the limit,
# and the node's 4 x 720 KiB/s feed floor(4 x 720 / 1152) = floor(2.5) = 2
# accelerators at AU 90%.  The measured rate can only fall short of the
# throttle (overheads, a busy machine): the answer stays 2 unless it falls
# 20% short.  The steps are long against the barrier's own cost: beside
# two busy loops each step's barrier took 13-20 ms, time in which the
# reader reads on; with 30 ms of compute and 53 ms a batch that slack let
# the batches come in time (AU without the barrier 0.94), and the run no
# longer measured the drives (the model then said "at least 1", rightly).
#
# Compute-bound: 2 ranks, no throttle (1 ms a read, 4 ms a batch, read
# during the 500 ms of compute): AU about 0.99 (0.93 with 300 ms beside
# two busy loops), the drives were never the limit, so the model may only
# say "at least 2", the accelerators the run kept at AU >= 90%.
#
# Bad input: a training phase without compute has no demand: exit 2 with
# a message naming computation_time.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/training_lib.sh"

train_yaml() { # FILE FILES THROTTLE_LINE COMPUTE
	cat >"$1" <<YAML
targets:
  - path: $T/drive
$3
phases:
$(training_step_phase train "$2" "$4" 1ms 3 0.9)
YAML
}

# --- storage-bound: the closed form ----------------------------------
train_yaml "$T/sb.yaml" 64 "    throttle: 720KiB/s" 200ms
sc_mpirun 4 "$T/sb.yaml" --output "$T/sb" || { cat "$T/out.log"; fail "storage-bound run exited $?"; }
"$SC_BIN" model "$T/sb/results.pb" --nodes 1,8,64 >"$T/sb.txt" 2>&1 || { cat "$T/sb.txt"; fail "model exited $?"; }
cat "$T/sb.txt"
"$SC_BIN" model "$T/sb/results.pb" --nodes 1,8,64 --json >"$T/sb.json" || fail "model --json exited $?"
python3 - "$T/sb.json" "$T/sb.txt" <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1]))["model"]
text = open(sys.argv[2]).read()
bad = 0
def need(cond, what):
    global bad
    if not cond:
        print("FAIL:", what); bad += 1

KiB = 1024
drive = 720 * KiB                         # B/s, each rank's throttle
demand = 4 * 64 * KiB * 0.9 / 0.200       # B/s, one accelerator at AU 90%
hand = math.floor(4 * drive / demand)     # 2
print(f"hand: demand {demand:.0f} B/s, node capacity {4 * drive} B/s, feeds {hand}")
t = m["training"]
need(abs(t["demand_bytes_per_s"] - demand) < 1e-6, f'demand {t["demand_bytes_per_s"]} B/s, want {demand}')
need(len(t["nodes"]) == 1, "one node")
n = t["nodes"][0]
print({k: n[k] for k in ("au", "au_without_barrier", "read_bytes_per_s", "feeds", "bound")})
need(n["capacity_measured"] and n["bound"] == "measured" and n["accelerators_storage_bound"] == 4,
     "every rank storage-bound: the capacity is measured")
need(n["feeds"] == hand, f'the node feeds {n["feeds"]}, the closed form {hand}')
need(0.8 * 4 * drive <= n["read_bytes_per_s"] <= 1.01 * 4 * drive,
     f'read {n["read_bytes_per_s"]:.0f} B/s, the drives give {4 * drive}')
need(n["au"] <= 200 / (256 / 720 * 1000) * 1.02, f'AU {n["au"]:.3f} above the closed form 0.5625')
sizes = {s["nodes"]: s["training"] for s in m["sizes"]}
need(sizes[1]["bound"] == "measured" and sizes[1]["accelerators_per_host"] == hand,
     f'at 1 node {sizes[1]}')
# one node measured: no spread between nodes is known, every node as fast
for N in (8, 64):
    need(sizes[N]["bound"] == "measured" and sizes[N]["accelerators_per_host"] == hand,
         f"at {N} nodes: {sizes[N]}, want {hand} (one node measured)")
need("the limit (capacity measured)" in text, "the text says the drives were the limit")
need("feeds at AU 90%[h]" in text and "accelerators/host at AU 90%[h]" in text, "the columns")
sys.exit(1 if bad else 0)
PY

# --- the same node as one rank of 4 accelerators (accelerators_per_rank):
# the rank's throttle, 4 x 720 KiB/s, shared by its 4 readers; the node
# feeds the same floor(2.5) = 2
train_yaml "$T/apr.yaml" 64 "    throttle: 2880KiB/s" 200ms
printf '    accelerators_per_rank: 4\n' >>"$T/apr.yaml"
sc_mpirun 1 "$T/apr.yaml" --output "$T/apr" || { cat "$T/out.log"; fail "one rank of 4 accelerators exited $?"; }
"$SC_BIN" model "$T/apr/results.pb" --nodes 1,8 --json | python3 -c '
import json, sys
m = json.load(sys.stdin)["model"]
n = m["training"]["nodes"][0]
print({k: n[k] for k in ("accelerators", "au", "read_bytes_per_s", "feeds", "bound")})
assert n["accelerators"] == 4 and n["accelerators_storage_bound"] == 4, n
assert n["capacity_measured"] and n["feeds"] == 2, n
assert all(s["training"]["accelerators_per_host"] == 2 for s in m["sizes"]), m["sizes"]
' || fail "one rank of 4 accelerators: the node feeds 2"

# --- compute-bound: a lower bound only ---------------------------------
train_yaml "$T/cb.yaml" 32 "" 500ms
sc_mpirun 2 "$T/cb.yaml" --output "$T/cb" || { cat "$T/out.log"; fail "compute-bound run exited $?"; }
"$SC_BIN" model "$T/cb/results.pb" --nodes 1,64 >"$T/cb.txt" 2>&1 || { cat "$T/cb.txt"; fail "model exited $?"; }
sed -n '/^training phase/,/^Basis/p' "$T/cb.txt"
grep -q "not the limit .* at least 2$" "$T/cb.txt" || fail "the node: drives not the limit, at least 2"
[ "$(grep -c '^ *[0-9]* *at least 2 ' "$T/cb.txt")" = 2 ] || fail "at least 2 per host at 1 and 64 nodes"
grep -q "the answer is a lower bound" "$T/cb.txt" || fail "the note that the answer is a lower bound"
"$SC_BIN" model "$T/cb/results.pb" --nodes 1 --json | python3 -c '
import json, sys
m = json.load(sys.stdin)["model"]
n = m["training"]["nodes"][0]
s = m["sizes"][0]["training"]
assert not n["capacity_measured"] and n["bound"] == "at_least" and n["feeds"] == 2, n
assert s == {"accelerators_per_host": 2, "bound": "at_least"}, s
' || fail "compute-bound JSON"

# --- no compute: refused ------------------------------------------------
train_yaml "$T/nc.yaml" 16 "" 0s
sc_mpirun 2 "$T/nc.yaml" --output "$T/nc" || { cat "$T/out.log"; fail "no-compute run exited $?"; }
rc=0
"$SC_BIN" model "$T/nc/results.pb" >"$T/nc.txt" 2>&1 || rc=$?
cat "$T/nc.txt"
[ "$rc" = 2 ] || fail "no compute: exit $rc, want 2"
grep -q "the training phase emulates no compute (computation_time: 0)" "$T/nc.txt" ||
	fail "no compute: the message names computation_time"
echo PASS
