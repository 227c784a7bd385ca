#!/usr/bin/env bash
# The verdict's thresholds that come from other analyses: steady_state: true
# (judged from the steady-state group at its last round, one check per drive)
# and no_media_errors: true (from the drives' SMART health logs; a temp dir
# has none, so not measured, never a pass or a zero).  A drive filling up
# (emulated fill_slowdown) is never steady in 3 rounds: exit 3, each drive
# named; `ssdcluster report` gives the same verdict.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/run.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: falling
    engine: emulated
    rw: write
    bs: 1MiB
    iodepth: 4
    size: 64MiB
    emulate: {bandwidth: 64MiB, fill_slowdown: 8x, fill_capacity: 64MiB}
    steady_state: {metric: bw, round: 1s, window: 3, max_rounds: 3}
    expect: {steady_state: true}
  - name: media
    rw: write
    bs: 64KiB
    size: 4MiB
    expect: {no_media_errors: true}
YAML

rc=0
sc_mpirun 2 "$T/run.yaml" --output "$T/out" || rc=$?
cat "$T/out.log"
[ "$rc" = 3 ] || fail "a failed steady_state threshold exited $rc, want 3"
grep -q "^verdict: FAIL (2 of 2 checks" "$T/out.log" || fail "no 'verdict: FAIL (2 of 2 checks' line"

"$SC_BIN" report "$T/out/results.pb" --output "$T/again" >"$T/again.log" 2>&1 && arc=0 || arc=$?
[ "$arc" = 3 ] || { cat "$T/again.log"; fail "report of a failed verdict exited $arc, want 3"; }

python3 - "$T/out/results.json" "$T/again/results.json" <<'PY'
import json, sys

res, again = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

v = res["verdict"]
if v != again["verdict"]:
    fail("report rebuilt a different verdict")
steady = [c for c in v["checks"] if c["metric"] == "steady_state"]
if sorted(c["rank"] for c in steady) != [0, 1]:
    fail("steady_state: want one check per drive (ranks 0, 1): %s" % steady)
for c in steady:
    if c["result"] != "fail" or c["scope"] != "drive" or not c.get("target_path"):
        fail("steady_state check of a never-steady drive: %s" % c)
    if not c["phase"].startswith("falling[round=3]"):
        fail("steady_state judged at %s, want the group's last round" % c["phase"])
g = [g for g in res["steady_state"] if g["group"] == "falling"][0]
if g["steady"] or g["drives_not_steady"] != 2:
    fail("the group itself: %s" % g)
media = [c for c in v["checks"] if c["metric"] == "no_media_errors"]
if len(media) != 2 or any(c["result"] != "not_measured" or not c["note"] for c in media):
    fail("no_media_errors on a temp dir must be not measured, with why: %s" % media)
if v["nfailed"] != 2 or v["not_measured"] != 2 or v["pass"] is not False:
    fail("totals: %s" % {k: v[k] for k in ("pass", "nchecks", "nfailed", "not_measured")})
print("ok: steady_state failed on both drives at round 3; media errors not measured")
PY
