#!/usr/bin/env bash
# configs/mlperf_training.yaml runs as its header's laptop shrink says (the
# command is read from the header, so the header stays true): unet3d and
# retinanet, each a warm-up and 5 measured runs whose mean is printed and
# kept, then the search, whose answer is printed and kept; every run's
# MLPerf summary is in results.json.  About a minute on 2 ranks.
. "$(dirname "$0")/lib.sh"

CFG="$SC_SOURCE_DIR/configs/mlperf_training.yaml"
# the header's command: "#   mpirun -np N ssdcluster configs/... \" and its
# continuation lines, up to the first line that does not end in "\"
cmd=$(awk '/^#   mpirun -np [0-9]+ ssdcluster configs\/mlperf_training.yaml \\$/ {on = 1}
	on { sub(/^#[ ]+/, ""); line = $0; sub(/\\$/, "", line); printf "%s ", line; if ($0 !~ /\\$/) exit }' "$CFG")
[ -n "$cmd" ] || fail "no laptop shrink command in the config's header"
read -r -a words <<<"$cmd"
[ "${words[0]} ${words[1]}" = "mpirun -np" ] && [ "${words[3]}" = ssdcluster ] || fail "the header's command: $cmd"
np=${words[2]}
args=("${words[@]:5}")
echo "the header's shrink: -np $np ${args[*]}"
# the space it needs: each group's dataset once, however many runs or
# trials share it
SSDCLUSTER_TARGET="$T/tgt" "$SC_BIN" "$CFG" "${args[@]}" --dry-run --output "$T/dry" >"$T/dry.log" 2>&1 ||
	{ cat "$T/dry.log"; fail "the dry run exited $?"; }
python3 - "$T/dry.log" <<'PY' || fail "the dry run's space needed"
import re, sys
text = open(sys.argv[1]).read()
sets = [int(b) for b in re.findall(r"^    dataset: \d+ files x \d+ B mean .*= (\d+) B", text, re.M)]
need = re.search(r"needs ([\d.]+) (MiB|GiB) of", text)
got = float(need[1]) * (2**20 if need[2] == "MiB" else 2**30)
print(f"datasets {sets}, needs {need[0]}")
assert len(sets) == 3, sets
assert abs(got - sum(sets)) <= 0.01 * sum(sets), f"needs {got:.0f} B, the three datasets {sum(sets)} B"
PY
SSDCLUSTER_TARGET="$T/tgt" sc_mpirun "$np" "$CFG" "${args[@]}" --output "$T/out" ||
	{ cat "$T/out.log"; fail "the header's shrink exited $?"; }
grep -E "^  (unet3d|retinanet)(-search)?: " "$T/out.log"
grep -q "^  unet3d: 5 measured run(s) after 1 warm-up(s): AU " "$T/out.log" || fail "unet3d's mean of its runs"
grep -q "^  retinanet: 5 measured run(s) after 1 warm-up(s): AU " "$T/out.log" || fail "retinanet's mean of its runs"
grep -q "^  unet3d-search: search answer: " "$T/out.log" || fail "the search's answer"
python3 - "$T/out/results.json" "$np" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
np = int(sys.argv[2])
bad = []
names = [p["name"] for p in r["phases"]]
for g in ("unet3d", "retinanet"):
    want = [f"{g}[warmup=1]"] + [f"{g}[run={k}]" for k in range(1, 6)]
    if [n for n in names if n.startswith(g + "[")] != want:
        bad.append(f"{g}'s runs: {names}")
for p in r["phases"]:
    m = p["training"]["mlperf"]
    if m["train_au_meet_expectation"] not in ("success", "fail") or m["num_hosts"] != 1:
        bad.append(f'{p["name"]}: {m}')
    if not p["name"].startswith("unet3d-search") and m["num_accelerators"] != np:
        bad.append(f'{p["name"]}: {m["num_accelerators"]} accelerators, want {np}')
groups = {g["group"]: g for g in r["training_groups"]}
if sorted(groups) != ["retinanet", "unet3d", "unet3d-search"]:
    bad.append(f"groups {sorted(groups)}")
for g in ("unet3d", "retinanet"):
    runs = groups[g]["runs"]
    mean = sum(x["train_au_mean_percentage"] for x in runs if not x["warmup"]) / 5
    if abs(groups[g]["train_au_mean_percentage"] - mean) > 1e-9 or groups[g]["measured_runs"] != 5:
        bad.append(f"{g}: the result is not the 5 measured runs' mean")
s = groups["unet3d-search"]
if not s["done"] or s["trials"][0]["accelerators_per_rank"] != 1:
    bad.append(f"the search: {s}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
echo PASS
