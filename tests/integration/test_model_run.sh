#!/usr/bin/env bash
# A config's model: section: rank 0 projects the run at its end into
# results.json ("model") and prints the table; `ssdcluster report` rebuilds
# the same object from results.pb; `ssdcluster model RESULTS.pb` starts
# from the section's settings and its options override them; a section
# that cannot be projected is a warning and {"error": ...}, not a failed run.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
write_config() { # write_config NODES FILE
	cat >"$2" <<YAML
targets:
  - path: $T/target
phases:
  - name: ckpt
    workload: checkpoint
    engine: emulated
    model: llama3-8b
    tp: 1
    pp: 1
    zero: 3
    checkpoints: 4
    compute_between: 0
    block_size: 1MiB
    iodepth: 4
    scale: 0.0005
    emulate: {bandwidth: 512MiB, latency: 50us, speed_spread: 20%}
model:
  nodes: [$1]
  gpus_per_node: 2
  node_mtbf: 20000h
  overhead_target: 2%
YAML
}
write_config "16, 128" "$T/ok.yaml"

sc_mpirun 2 "$T/ok.yaml" --output "$T/o" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
grep -q "^cluster model from results.pb of run" "$T/out.log" || fail "no model table at the end"
grep -qE "^ +128 " "$T/out.log" || fail "no row for 128 nodes in the printed table"

python3 - "$T/o/results.json" <<'PY' || fail "results.json model"
import json, sys
m = json.load(open(sys.argv[1]))["model"]
def need(c, what):
    if not c:
        print("FAIL:", what); sys.exit(1)
need([s["nodes"] for s in m["sizes"]] == [16, 128], "sizes 16 and 128")
need(m["params"]["gpus_per_node"] == 2, "gpus_per_node 2 from the section")
need(m["measured"] is True, "measured")
for s in m["sizes"]:
    need(s["checkpoint"]["mean_ns"] > 0 and s["checkpoint"]["p90_ns"] >= s["checkpoint"]["mean_ns"] * 0.999,
         "checkpoint mean and p90 at %d" % s["nodes"])
    need(s["policy"]["goodput"] > 0, "goodput at %d" % s["nodes"])
need(m["basis"]["checkpoint_time"]["inputs"], "the checkpoint's inputs named")
print("ok: results.json model", [round(s["checkpoint"]["mean_ns"] / 1e6, 1) for s in m["sizes"]], "ms")
PY

# report rebuilds the same model from results.pb
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["model"], open(sys.argv[2], "w"), sort_keys=True)' \
	"$T/o/results.json" "$T/model_run.json"
"$SC_BIN" report "$T/o/results.pb" --output "$T/rebuilt" >"$T/report.txt" 2>&1 ||
	{ cat "$T/report.txt"; fail "report exited $?"; }
grep -q "^cluster model from" "$T/report.txt" || fail "report prints no model table"
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["model"], open(sys.argv[2], "w"), sort_keys=True)' \
	"$T/rebuilt/results.json" "$T/model_report.json"
cmp -s "$T/model_run.json" "$T/model_report.json" || fail "report's model differs from the run's"
echo "ok: report rebuilds the same model"

# the model command: the section's settings, then the options over them
"$SC_BIN" model "$T/o/results.pb" --json >"$T/cmd.json" || fail "model exited $?"
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["model"], open(sys.argv[2], "w"), sort_keys=True)' \
	"$T/cmd.json" "$T/model_cmd.json"
cmp -s "$T/model_run.json" "$T/model_cmd.json" ||
	fail "ssdcluster model without options differs from the run's model: section"
"$SC_BIN" model "$T/o/results.pb" --nodes 32 --json >"$T/cmd32.json" || fail "model --nodes 32 exited $?"
python3 - "$T/cmd32.json" <<'PY' || fail "options over the section"
import json, sys
m = json.load(open(sys.argv[1]))["model"]
assert [s["nodes"] for s in m["sizes"]] == [32], m["sizes"]
assert m["params"]["gpus_per_node"] == 2 and abs(m["params"]["overhead_target"] - 0.02) < 1e-12, m["params"]
PY
echo "ok: model command layers its options over the section"

# a layout that fits none of the sizes is refused before the run
write_config "3" "$T/nofit.yaml"
echo "  tp: 4" >>"$T/nofit.yaml"
set +e
"$SC_BIN" "$T/nofit.yaml" --dry-run --output "$T/nf" >"$T/nofit.out" 2>&1
rc=$?
set -e
[ $rc -eq 2 ] || { cat "$T/nofit.out"; fail "a layout that fits no size: exit $rc, want 2"; }
grep -q "nofit.yaml:[0-9]*:1: model: the checkpoint layout tp x pp = 4 x 1 fits none of nodes \[3\]" \
	"$T/nofit.out" || { cat "$T/nofit.out"; fail "no message naming the layout and the sizes"; }
echo "ok: a layout that fits no size is refused before the run"

# a section the run gives nothing to project: an ingest phase without
# compute (its step wait has nothing to hide behind)
cat >"$T/nocompute.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: ing
    workload: ingest
    files: 4
    file_size: 1MiB
    sample_size: 128KiB
    batch: 4
    compute_per_batch: 0
    epochs: 1
model:
  nodes: [8]
YAML
sc_mpirun 1 "$T/nocompute.yaml" --output "$T/n" || { cat "$T/out.log"; fail "a model that cannot be projected failed the run"; }
grep -q "ssdcluster: model: no projection: .*compute_per_batch: 0" "$T/out.log" || { cat "$T/out.log"; fail "no warning naming why"; }
python3 - "$T/n/results.json" <<'PY' || fail "results.json model error"
import json, sys
r = json.load(open(sys.argv[1]))
assert "compute_per_batch: 0" in r["model"]["error"], r["model"]
assert r["phases"] and r["phases"][0]["status"] == "ok", "the measured phase is kept"
PY
echo "ok: a model that cannot be projected is a warning, the results kept"
echo PASS
