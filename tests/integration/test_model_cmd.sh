#!/usr/bin/env bash
# `ssdcluster model`: a small checkpoint and ingest run projected to 8..4096 nodes as a
# table (every figure with its unit, basis lines, a row per size) and as
# JSON (the keys of the model object), the same output twice for one seed,
# a parameters-only run, and every bad input refused with exit 2 and its
# message.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/ckpt.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: ckpt
    workload: checkpoint
    model: llama3.1-405b
    tp: 2
    pp: 2
    zero: 1
    checkpoints: 3
    compute_between: 0
    block_size: 256KiB
    iodepth: 4
    scale: 0.000002
    restore: false
  - name: ingest
    workload: ingest
    files: 8
    file_size: 4MiB
    sample_size: 128KiB
    batch: 8
    compute_per_batch: 5ms
    epochs: 1
    jobs: 2
    iodepth: 8
YAML
sc_mpirun 4 "$T/ckpt.yaml" --output "$T/out" || { cat "$T/out.log"; fail "checkpoint run"; }
pb=$T/out/results.pb

# the table: a row per size, units, the basis of each figure
"$SC_BIN" model "$pb" --seed 7 >"$T/table.txt" 2>"$T/table.err" ||
	{ cat "$T/table.txt" "$T/table.err"; fail "model exited $?"; }
cat "$T/table.txt"
for n in 8 64 512 4096; do
	grep -qE "^ *$n  " "$T/table.txt" || fail "no row for $n nodes"
done
grep -q "results.pb of run" "$T/table.txt" || fail "the source is not named"
grep -qE "^Basis$" "$T/table.txt" || fail "no Basis block"
for mark in a b c d e; do
	grep -qE "^\[$mark\] " "$T/table.txt" || fail "no basis line [$mark]"
done
grep -q "inputs: " "$T/table.txt" && grep -q "assumptions: " "$T/table.txt" ||
	fail "basis lines without inputs or assumptions"
grep -qE "[0-9.]+ (ns|us|ms|s|m|h) " "$T/table.txt" || fail "no duration with its unit"
grep -qE "[0-9.]+ %" "$T/table.txt" || fail "no share in %"
grep -qE "[0-9.]+ DWPD" "$T/table.txt" || fail "no drive writes per day"
grep -q "step wait p99\[e\]" "$T/table.txt" && grep -q "P(step stalled)\[e\]" "$T/table.txt" ||
	fail "no ingest columns"
# the sizing answer's endurance in its own table, the run's D labelled
# with its count; node bytes; the restart's default stated
grep -q "^sizing: the fewest drives per node" "$T/table.txt" || fail "no sizing table"
grep -q "writes/day there\[d\]" "$T/table.txt" && grep -q "rating lasts there\[d\]" "$T/table.txt" ||
	fail "no endurance at the sized drive count"
grep -qE "writes/day at [0-9]+/node\[d\]" "$T/table.txt" || fail "the run's D not in its header"
grep -qE "^checkpoint policy and endurance at [0-9]+ drive\(s\) per node \(measured\)" "$T/table.txt" ||
	fail "the policy table does not name its drive count"
grep -q "busiest nodes" "$T/table.txt" && grep -q "median node" "$T/table.txt" ||
	fail "no node bytes table"
grep -q "restart 600 s (default)" "$T/table.txt" || fail "the default restart is not printed"
grep -q "restart R = 600 s (default) + no restore" "$T/table.txt" || fail "restart not in the Basis"
echo "ok: table"

# the same results and seed: the same output, byte for byte
"$SC_BIN" model "$pb" --seed 7 >"$T/table2.txt" 2>&1 || fail "second model run"
cmp "$T/table.txt" "$T/table2.txt" || fail "two runs with one seed differ"
echo "ok: same seed, same output"

# JSON: the model object's keys, a size per node count
"$SC_BIN" model "$pb" --json --nodes 8,64,512,4096 >"$T/model.json" 2>"$T/json.err" ||
	{ cat "$T/json.err"; fail "model --json exited $?"; }
python3 - "$T/model.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
need(list(doc) == ["model"], f"top level is {list(doc)}")
m = doc["model"]
need(list(m)[:5] == ["source", "measured", "params", "basis", "sizes"], f"keys {list(m)}")
need(m["measured"] is True and m["source"].startswith("results.pb of run"), "source")
p = m["params"]
for k in ["nodes", "gpus_per_node", "drives_per_node", "node_mtbf_ns", "restart_ns",
          "overhead_target", "dwpd", "warranty_years", "drive_capacity_bytes",
          "max_drives_per_node", "model", "tp", "pp", "zero", "scale", "seed", "trials"]:
    need(k in p, f"params.{k}")
need("drive_write_bytes_per_s" not in p, "no stated drive with a results file")
need(p["nodes"] == [8, 64, 512, 4096], f'params.nodes {p["nodes"]}')
need(p["overhead_target"] == 0.05 and p["node_mtbf_ns"] == 50000 * 3600 * 10**9, "defaults")
for b in ["checkpoint_time", "policy", "sizing", "endurance"]:
    need(b in m["basis"] and m["basis"][b]["inputs"] and m["basis"][b]["assumptions"],
         f"basis.{b}")
sizes = m["sizes"]
need(len(sizes) == 4 and [s["nodes"] for s in sizes] == [8, 64, 512, 4096],
     f'sizes {[s["nodes"] for s in sizes]}')
fit = [s for s in sizes if s["layout_fits"]]
need(fit, "the layout fits no size")
for s in fit:
    c, pol = s["checkpoint"], s["policy"]
    need(c["mean_ns"] > 0, f'{s["nodes"]}: mean_ns {c["mean_ns"]}')
    need(c["p90_ns"] >= 0.9 * c["mean_ns"],
         f'{s["nodes"]}: p90 {c["p90_ns"]} below mean {c["mean_ns"]}')
    # a slow file target at full size can leave nothing at 4096 nodes
    need(0 <= pol["goodput"] < 1, f'{s["nodes"]}: goodput {pol["goodput"]}')
    need(0 < pol["write_share"] < 1, f'{s["nodes"]}: write_share')
    need("drives_per_node" in s["sizing"], "sizing.drives_per_node (null when none)")
    need(s["endurance"]["drive_writes_per_day"] > 0, "endurance")
    e, e0 = s["endurance"], s["endurance_at_drives_per_node"]
    sized = s["sizing"]["drives_per_node"]
    need(e["drives_per_node"] == (sized if sized else p["max_drives_per_node"]) and
         e["target_met"] == (sized is not None), f'{s["nodes"]}: endurance at the answer {e}')
    need(e0["drives_per_node"] == s["drives_per_node"] and e0["drives_per_node_basis"] == "measured",
         f'{s["nodes"]}: endurance at the run\'s D {e0}')
    # drive writes a day: checkpoints a day x the drive's bytes / capacity
    import math
    want = 86400e9 / math.ceil(pol["period_ns"]) * s["drive_bytes_max"] / p["drive_capacity_bytes"]
    need(abs(e0["drive_writes_per_day"] - want) <= 1e-9 * want,
         f'{s["nodes"]}: DWPD {e0["drive_writes_per_day"]} by hand {want}')
    need(e0["drive_bytes_per_checkpoint"] == s["drive_bytes_max"], "bytes at the run's D")
    need(e["drive_bytes_per_checkpoint"] == -(-s["node_bytes_max"] // e["drives_per_node"]),
         "bytes at the answer: the busiest node's over its drives, rounded up")
    need(1 <= s["nodes_busiest"] <= s["nodes"] and s["node_bytes_median"] <= s["node_bytes_max"],
         f'{s["nodes"]}: node bytes')
    need(pol["restart_ns"] == 600 * 10**9 and pol["restart_includes_restore"] is False,
         f'{s["nodes"]}: restart {pol["restart_ns"]}')
need(p["restart_ns"] == 600 * 10**9 and p["restart_basis"] == "default", "restart default")
need("ingest" in m["basis"], "basis.ingest")
for s in sizes:
    i = s["ingest"]
    for k in ["step_wait_mean_ns", "step_wait_p50_ns", "step_wait_p90_ns", "step_wait_p99_ns",
              "p_node_stall", "p_step_stall", "au"]:
        need(k in i, f'{s["nodes"]}: ingest.{k}')
    need(i["step_wait_p50_ns"] <= i["step_wait_p90_ns"] <= i["step_wait_p99_ns"],
         f'{s["nodes"]}: step wait percentiles in order')
    need(0 <= i["p_node_stall"] <= i["p_step_stall"] <= 1 and 0 < i["au"] <= 1,
         f'{s["nodes"]}: shares {i}')
need(fit[0]["policy"]["goodput"] > 0, f'{fit[0]["nodes"]} nodes: goodput 0')
for s in sizes:
    if not s["layout_fits"]:
        need(s["why_not"] and "checkpoint" not in s, f'{s["nodes"]}: why_not, no figures')
# one checkpoint of the same model at every size (each rank's files carry
# their own headers and padding: within 1%), spread over its nodes
cb0 = fit[0]["checkpoint_bytes"]
for s in fit:
    need(cb0 > 0 and abs(s["checkpoint_bytes"] - cb0) <= 0.01 * cb0,
         f'{s["nodes"]}: checkpoint_bytes {s["checkpoint_bytes"]} against {cb0}')
    need(s["node_bytes_max"] * s["nodes"] >= s["checkpoint_bytes"] >= s["node_bytes_max"],
         f'{s["nodes"]}: node_bytes_max {s["node_bytes_max"]}')
    need(s["drive_bytes_max"] * s["drives_per_node"] >= s["node_bytes_max"], "drive_bytes_max")
PY
echo "ok: json"

# parameters only: the stated drive
"$SC_BIN" model --drive-write 7GB/s --drive-read 14GB/s --nodes 64,512 >"$T/stated.txt" 2>&1 ||
	{ cat "$T/stated.txt"; fail "parameters-only run"; }
cat "$T/stated.txt"
grep -q "stated per-drive figures" "$T/stated.txt" || fail "stated: source not named"
grep -qE "^ *512  " "$T/stated.txt" || fail "stated: no row for 512 nodes"
grep -q "^Basis$" "$T/stated.txt" || fail "stated: no basis"
echo "ok: parameters only"

"$SC_BIN" model --help >"$T/help.txt" || fail "--help exited $?"
grep -q "drive-write" "$T/help.txt" && grep -q "examples:" "$T/help.txt" || fail "--help text"
grep -q "projected restore, which is added \[10m\]" "$T/help.txt" || fail "--help: restart default"

# a restart given: stated so, and used as R
"$SC_BIN" model "$pb" --restart 5m --json --nodes 64 >"$T/restart.json" || fail "--restart 5m"
python3 - "$T/restart.json" <<'PY' || fail "--restart 5m: JSON"
import json, sys
m = json.load(open(sys.argv[1]))["model"]
assert m["params"]["restart_basis"] == "given", m["params"]
assert m["sizes"][0]["policy"]["restart_ns"] == 300 * 10**9, m["sizes"][0]["policy"]
PY

bad() { # NAME MESSAGE ARGS...
	local name=$1 want=$2 rc=0
	shift 2
	"$SC_BIN" model "$@" >"$T/bad.out" 2>"$T/bad.err" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/bad.out" "$T/bad.err"; fail "$name: exit $rc, want 2"; }
	grep -qF -- "$want" "$T/bad.err" || { cat "$T/bad.err"; fail "$name: message, want: $want"; }
	[ ! -s "$T/bad.out" ] || { cat "$T/bad.out"; fail "$name: printed a table"; }
	echo "ok: $name refused: $(head -c 200 "$T/bad.err")"
}
bad "unknown option" "unknown option --x; see ssdcluster model --help" "$pb" --x 1
bad "nodes 0" '--nodes: "0" is not a node count' "$pb" --nodes 0
bad "nodes decreasing" "--nodes: 8 after 64" "$pb" --nodes 64,8
bad "option twice" "--seed given twice" "$pb" --seed 1 --seed 2
bad "option without value" "--trials needs a value" "$pb" --trials
bad "results and stated drive" "give one or the other" "$pb" --drive-write 7GB/s
bad "neither results nor drive" "no results file and no --drive-write" --nodes 8
bad "two results files" "unexpected argument" "$pb" "$pb"
bad "unknown model" "is not a model of the catalogue" "$pb" --model gpt
bad "overhead out of range" '--overhead-target: "2" is not a share' "$pb" --overhead-target 2
bad "gpus 0" '--gpus-per-node: "0"' "$pb" --gpus-per-node 0
bad "scale 0" '--scale: "0" is not a scale' "$pb" --scale 0
bad "restart negative" '--restart: "-1m" is not a duration' "$pb" --restart -1m
bad "layout fits no size" "set nodes, gpus_per_node, tp or pp" "$pb" --nodes 3 --tp 2 --pp 2 --gpus-per-node 1
bad "missing file" "No such file" "$T/none.pb"
pb_cut "$pb" "$T/half.pb"
bad "truncated" "truncated or damaged" "$T/half.pb"
echo "not protobuf" >"$T/text.pb"
bad "not a results file" "not an ssdcluster results file" "$T/text.pb"
mkfifo "$T/fifo.pb"
# a FIFO is refused at once, not waited on for a writer (timeout: a hang fails)
timeout 20 "$SC_BIN" model "$T/fifo.pb" >/dev/null 2>"$T/fifo.err" && fail "a FIFO was read"
grep -q "not a regular file" "$T/fifo.err" || { cat "$T/fifo.err"; fail "FIFO: message"; }
echo "ok: FIFO refused: $(cat "$T/fifo.err")"

# a run with neither a checkpoint nor an ingest phase: which kind is missing
fixture write_4mib.yaml TARGET="$T/target" CAPACITY=64MiB >"$T/io.yaml"
sc_mpirun 1 "$T/io.yaml" --output "$T/io" || { cat "$T/out.log"; fail "io run"; }
bad "no checkpoint phase" "checkpoint" "$T/io/results.pb"
grep -q "llm_ckpt.yaml" "$T/bad.err" || { cat "$T/bad.err"; fail "no hint how to produce it"; }

# an ingest phase without compute and no checkpoint: no samples the model
# can use; the message names the file
# (the first run's config without its checkpoint phase and compute)
sed -e '/- name: ckpt/,/restore: false/d' -e 's/compute_per_batch: 5ms/compute_per_batch: 0/' \
	"$T/ckpt.yaml" >"$T/nocompute.yaml"
grep -q "compute_per_batch: 0" "$T/nocompute.yaml" && ! grep -q "workload: checkpoint" "$T/nocompute.yaml" ||
	{ cat "$T/nocompute.yaml"; fail "nocompute.yaml"; }
sc_mpirun 1 "$T/nocompute.yaml" --output "$T/nc" || { cat "$T/out.log"; fail "ingest run"; }
bad "ingest without compute" "$T/nc/results.pb: model: nothing to project" "$T/nc/results.pb"
echo PASS
