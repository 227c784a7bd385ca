#!/usr/bin/env bash
# A --dry-run of a plan larger than its target still prints the plan and
# writes plan.json, then names the shortfall and exits 2; a run of the same
# plan is refused with nothing written.
. "$(dirname "$0")/lib.sh"

# One llama3.1-405b checkpoint in llm_ckpt's layout on 8 ranks
# (TP4 x PP2 x DP1, ZeRO-1) at scale 1: the full-scale bytes the layout
# gives (its unit figures are in tests/unit/worker/test_ckpt_model.c).
CKPT_BYTES=5681980178432
CKPTS=10

# check_plan JSON RANKS : plan.json holds the full-scale bytes of every
# checkpoint and names the shortfall of the one target on the one node.
check_plan() {
	python3 - "$1" "$2" "$CKPT_BYTES" "$CKPTS" <<'PY' || fail "plan.json: see above"
import json, sys
p = json.load(open(sys.argv[1]))
nranks, ckpt, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert p["nranks"] == nranks, p["nranks"]
writes = [ph["bytes_written_planned"] for ph in p["phases"] if ph["bytes_written_planned"]]
assert writes == [ckpt] * n, writes
files = [0] * n
for r in p["ranks"]:
    for f in r["files"]:
        if f["phase"] < n:
            files[f["phase"]] += f["size_bytes"]
assert files == [ckpt] * n, files
t = p["targets"][0]
node = t["nodes"][0]
assert node["needed_bytes"] >= n * ckpt, node
assert 0 < node["available_bytes"] < node["needed_bytes"], node
assert node["fits"] is False, node
assert len(t["shortfall"]) == 1, t["shortfall"]
s = t["shortfall"][0]
assert s["needed_bytes"] == node["needed_bytes"], s
assert s["available_bytes"] == node["available_bytes"], s
assert s["short_bytes"] == s["needed_bytes"] - s["available_bytes"], s
PY
}

# The full-size checkpoint layout of llm_ckpt: 51.7 TiB on a target that
# holds far less (no capacity in the config: the free space decides).
export SSDCLUSTER_TARGET=$T/target
mkdir -p "$T/target"
rc=0
sc_mpirun 8 "$SC_SOURCE_DIR/configs/llm_ckpt.yaml" --dry-run --set scale=1 \
	--output "$T/dry" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "dry run of a plan too big: exit $rc, not 2"; }
grep -q "phase 0 ckpt\[ckpt=1\]: write checkpoint 1 of 10, llama3.1-405b TP4 x PP2 x DP1" \
	"$T/out.log" || { cat "$T/out.log"; fail "dry run printed no phase rows"; }
grep -q "rank 7: host .*, node 0, target 0" "$T/out.log" ||
	{ cat "$T/out.log"; fail "dry run printed no rank rows"; }
grep -q "8 ranks: needs 51.7 TiB of .*TOO SMALL" "$T/out.log" ||
	{ cat "$T/out.log"; fail "dry run printed no target row"; }
grep -q "the run needs 51.7 TiB here for 8 rank(s) but only .*\(is available\|is allowed\)" \
	"$T/out.log" || { cat "$T/out.log"; fail "dry run named no shortfall"; }
grep -q "dry run: the plan needs more than the target holds" "$T/out.log" ||
	{ cat "$T/out.log"; fail "dry run did not say a run would be refused"; }
[ -s "$T/dry/plan.json" ] || fail "dry run wrote no plan.json"
check_plan "$T/dry/plan.json" 8
[ "$(count_entries "$T/target")" -eq 0 ] || fail "dry run wrote into the target"
echo "ok: dry run of llm_ckpt at scale 1 prints the plan and names the shortfall"

# The same plan as a run: refused as before, nothing written anywhere.
rc=0
sc_mpirun 8 "$SC_SOURCE_DIR/configs/llm_ckpt.yaml" --set scale=1 --output "$T/run" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "run of a plan too big: exit $rc, not 2"; }
grep -q "needs 51.7 TiB" "$T/out.log" || { cat "$T/out.log"; fail "run named no shortfall"; }
grep -q "^  phase 0" "$T/out.log" && fail "a run printed the plan"
[ "$(count_entries "$T/target")" -eq 0 ] || fail "the refused run wrote into the target"
[ ! -e "$T/run" ] || fail "the refused run wrote results"
echo "ok: a run of the same plan is refused with nothing written"

# A configured capacity below the plan: the config check names it, with
# file:line:col, after the plan.
fixture write_4mib.yaml TARGET="$T/small" CAPACITY=2MiB >"$T/small.yaml"
rc=0
sc_mpirun 2 "$T/small.yaml" --dry-run --output "$T/dry2" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "dry run over capacity: exit $rc, not 2"; }
grep -q "small.yaml:3:[0-9]*: targets.0.capacity: .* but capacity is 2.00 MiB" "$T/out.log" ||
	{ cat "$T/out.log"; fail "dry run over capacity named no shortfall"; }
grep -q "^  phase 0 w" "$T/out.log" || { cat "$T/out.log"; fail "no plan printed"; }
python3 - "$T/dry2/plan.json" <<'PY' || fail "plan.json over capacity: see above"
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
s = t["shortfall"]
assert len(s) == 1 and s[0]["available_bytes"] == 2 << 20, s
assert s[0]["needed_bytes"] == t["nodes"][0]["needed_bytes"] > 2 << 20, s
PY
[ ! -e "$T/small" ] || fail "dry run over capacity created the target"
rc=0
sc_mpirun 2 "$T/small.yaml" --output "$T/run2" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "run over capacity: exit $rc, not 2"; }
grep -q "but capacity is 2.00 MiB" "$T/out.log" || { cat "$T/out.log"; fail "run: no message"; }
[ ! -e "$T/small" ] && [ ! -e "$T/run2" ] || fail "the refused run created something"
echo "ok: a configured capacity below the plan, dry run and run"
