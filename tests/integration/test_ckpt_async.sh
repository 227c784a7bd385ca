#!/usr/bin/env bash
# async: true on an emulated drive of 16 MiB/s: each of 2 ranks copies its
# 5,619,712 B (llama3-8b TP1 PP1 ZeRO-3 on 2 ranks, scale 0.0001) to host
# memory, then drains them in at least 5,619,712 / 16 MiB/s = 335 ms.
#  - compute_between 50 ms: every rank stalls, stall = drain - 50 ms to the
#    nanosecond, the cell's figures are the ranks' maxima, its end is the
#    copy plus the drain; the model's cost of a checkpoint is the copy plus
#    the stall beyond tau (checked against a bisection done here), below
#    the synchronous cost of the same drain.
#  - compute_between 3 s: no rank stalls, and the run lasts at least the
#    2 x 3 s of training its cells hold.
#  - a host copy past memory_per_rank: exit 2, the arithmetic said.
#  - async: false: the rows carry none of it (results as before).
# Only lower bounds on time are checked (the drain against the drive's
# bandwidth; 3 s of training against a drain of 335 ms).
. "$(dirname "$0")/lib.sh"

RANK_BYTES=5619712
BW=16777216
mkdir -p "$T/target"
write_config() { # write_config COMPUTE_BETWEEN ASYNC FILE [TOP LINE]
	fixture ckpt_async.yaml TOP="${4:-}" TARGET="$T/target" BETWEEN="$1" ASYNC="$2" >"$3"
}

write_config 50ms true "$T/short.yaml"
write_config 3s true "$T/long.yaml"
write_config 50ms false "$T/sync.yaml"
write_config 50ms true "$T/mem.yaml" "memory_per_rank: 8MiB"

# the refusal: 5,619,712 B = 5488 KiB + 1 x 4 x 1 MiB = 9584 KiB > 8 MiB
rc=0
sc_mpirun 2 "$T/mem.yaml" --output "$T/om" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "memory_per_rank: exit $rc, want 2"; }
want="phases.0.async: async holds a rank's checkpoint in host memory: rank 0's 5488KiB + jobs 1 x iodepth 4 x block_size 1MiB of I/O buffers = 9584KiB, more than memory_per_rank 8MiB"
grep -qF "$want" "$T/out.log" || { cat "$T/out.log"; fail "memory_per_rank: message"; }
[ ! -e "$T/om/results.json" ] || fail "memory_per_rank: a run was made"

for c in short long sync; do
	t0=$(date +%s%N)
	sc_mpirun 2 "$T/$c.yaml" --output "$T/o_$c" || { cat "$T/out.log"; fail "$c: exit $?"; }
	elapsed=$(($(date +%s%N) - t0))
	# the training beside each drain is inside its cell, the last one's
	# too: 2 checkpoints of 3 s take at least 6 s (a lower bound only)
	[ "$c" != long ] || [ "$elapsed" -ge 6000000000 ] ||
		fail "long: 2 async checkpoints with 3 s of training took $elapsed ns"
done
"$SC_BIN" model "$T/o_short/results.pb" --node-mtbf 10h --restart 0s --nodes 8,512 --json >"$T/model.json" ||
	fail "model of the async run"
"$SC_BIN" model "$T/o_sync/results.pb" --node-mtbf 10h --restart 0s --nodes 8,512 --json >"$T/model_sync.json" ||
	fail "model of the sync run"

python3 - "$T" "$RANK_BYTES" "$BW" <<'PY'
import json, math, sys
t, rank_bytes, bw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = 0
def need(cond, what):
    global bad
    if not cond:
        print("FAIL:", what); bad += 1

def cells(run):
    res = json.load(open(f"{t}/o_{run}/results.json"))
    return res["phases"], {c["index"]: c for c in res["checkpoints"][0]["cells"]}

floor = rank_bytes * 1e9 / bw
for run, between in (("short", 50_000_000), ("long", 3_000_000_000)):
    phases, group = cells(run)
    need(len(phases) == 2, f"{run}: 2 cells")
    for ph in phases:
        name, rows = ph["name"], ph["ranks"]
        for r in rows:
            need(r["bytes_written"] == rank_bytes, f"{name} rank {r['rank']}: bytes")
            need(r["blocking_ns"] > 0, f"{name} rank {r['rank']}: a host copy")
            need(r["drain_ns"] >= floor, f"{name} rank {r['rank']}: drain {r['drain_ns']} ns "
                 f"under bytes / bandwidth {floor:.0f} ns")
            need(r["stall_ns"] == max(0, r["drain_ns"] - between),
                 f"{name} rank {r['rank']}: stall {r['stall_ns']} != max(0, drain "
                 f"{r['drain_ns']} - {between})")
            need(r["end_ns"] == r["blocking_ns"] + r["drain_ns"],
                 f"{name} rank {r['rank']}: end {r['end_ns']} != copy + drain")
        a = ph["checkpoint"]["async"]
        need(group[ph["checkpoint"]["index"]]["async"] == a, f"{name}: group cell = phase cell")
        for k in ("blocking_ns", "drain_ns", "stall_ns"):
            need(a[k] == max(r[k] for r in rows), f"{name}: {k} {a[k]} not the ranks' max")
        stalled = sum(r["stall_ns"] > 0 for r in rows)
        need(a["ranks_stalled"] == stalled, f"{name}: ranks_stalled {a['ranks_stalled']}")
        if run == "short":
            need(stalled == 2, f"{name}: every rank stalls (drain >= {floor:.0f} ns vs 50 ms)")
        else:
            need(stalled == 0 and a["stall_ns"] == 0, f"{name}: a stall beside 3 s of training")

# report.html: the async table, a row a checkpoint with the cell's figures
html = open(f"{t}/o_short/report.html").read()
_, group = cells("short")
need("checkpoint ckpt: async (max over ranks" in html, "report.html: no async table")
for k, c in group.items():
    a = c["async"]
    row = (f'<tr><td class="num">{k}</td><td class="num">{a["blocking_ns"] / 1e9:.6f}</td>'
           f'<td class="num">{a["drain_ns"] / 1e9:.3f}</td>'
           f'<td class="num">{a["stall_ns"] / 1e9:.3f}</td>'
           f'<td class="num">{a["ranks_stalled"]}</td></tr>')
    need(row in html, f"report.html: checkpoint {k}'s async row {row}")
need("async (max over ranks" not in open(f"{t}/o_sync/report.html").read(),
     "report.html of the sync run: an async table")

phases, _ = cells("sync")
for ph in phases:
    need("async" not in ph["checkpoint"], f"sync {ph['name']}: an async figure")
    for r in ph["ranks"]:
        need("blocking_ns" not in r, f"sync {ph['name']} rank {r['rank']}: async fields")

# The model: delta = B + max(0, D - tau), tau = sqrt(2 delta M), M = 10 h / N.
def cost(b, d, m):
    lo, hi = 0.0, b + d + 1.0
    for _ in range(300):
        mid = (lo + hi) / 2
        if mid - b - max(0.0, d - math.sqrt(2 * mid * m)) < 0: lo = mid
        else: hi = mid
    return (lo + hi) / 2
model = json.load(open(f"{t}/model.json"))["model"]
sync = json.load(open(f"{t}/model_sync.json"))["model"]
stalls = 0
for row, srow in zip(model["sizes"], sync["sizes"]):
    n, a, pol = row["nodes"], row["async"], row["policy"]
    m = 10 * 3600e9 / n
    d = row["checkpoint"]["mean_ns"]
    want = cost(a["blocking_ns"], d, m)
    tau = math.sqrt(2 * want * m)
    overhead = want / (tau + want) + (tau + want) / (2 * m) + pol["restart_ns"] / m
    need(abs(a["cost_ns"] - want) <= 1e-6 * want, f"{n} nodes: cost {a['cost_ns']} want {want}")
    need(abs(a["stall_ns"] - (want - a["blocking_ns"])) <= 1e-6 * want, f"{n} nodes: stall")
    need(abs((1 - pol["goodput"]) - overhead) <= 1e-9, f"{n} nodes: overhead "
         f"{1 - pol['goodput']} want {overhead}")
    need(a["drain_ns"] == d, f"{n} nodes: drain is the checkpoint figure")
    stalls += a["stall_ns"] > 0
    need(pol["goodput"] > srow["policy"]["goodput"],
         f"{n} nodes: async goodput {pol['goodput']} not above sync {srow['policy']['goodput']}")
need(stalls > 0, "the model projects no stall at any size")
print("async:", json.dumps([r["async"] for r in model["sizes"]]))
sys.exit(1 if bad else 0)
PY
echo "PASS: async stalls, no stall, memory refusal, model cost"
