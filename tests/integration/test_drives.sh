#!/usr/bin/env bash
# A run on a temp-dir target (no NVMe here, or not one the run may read):
# the inventory says "no NVMe telemetry" (results.json and the printed
# output), the run goes on and exits 0, the phase rows say why there is no
# health log, the temperature series are null seconds (none read, not 0),
# and the endurance counts the bytes the run wrote, against the model:
# section's rating (a model: with only dwpd, warranty and drive_capacity
# needs no checkpoint phase).  `report` rebuilds the same results.json.
# As root, a loop device as the target: "is on loopN (not NVMe)".
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/d.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: w
    rw: write
    bs: 1MiB
    size: 4MiB
  - name: rr
    rw: randread
    bs: 4KiB
    size: 4MiB
    runtime: 2s
model:
  dwpd: 3
  warranty: 5y
  drive_capacity: 1TB
YAML
sc_mpirun 2 "$T/d.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited non-zero"; }
cat "$T/out.log"
if python3 -c 'import json,sys; sys.exit(not any("serial" in e for e in json.load(open(sys.argv[1]))["inventory"]))' "$T/out/results.json"; then
	skip "$T is on an NVMe drive here; this test checks a target without one"
fi
grep -qE "^  node 0 .* ranks 0,1 $T/target: no NVMe telemetry: " "$T/out.log" ||
	fail "printed inventory: no line for the target"
grep -qE "^endurance \(rated 3 drive writes per day x 5 years, from model:\)" "$T/out.log" ||
	fail "printed endurance header"
grep -qE "wrote 8.00 MiB \(counted\), 8.39e-06 drive writes of 931 GiB" "$T/out.log" ||
	fail "printed endurance line"

python3 - "$T/out/results.json" "$T/target" <<'PY' || fail "results.json"
import json, sys
d = json.load(open(sys.argv[1]))
target = sys.argv[2]
inv = d["inventory"]
assert len(inv) == 1, inv
e = inv[0]
assert e["ranks"] == [0, 1] and e["target"] == target, e
assert e["telemetry"].startswith("no NVMe telemetry: " + target), e
assert "serial" not in e, e
for ph in d["phases"]:
    rows = ph["drives"]
    assert [r["rank"] for r in rows] == [0, 1], rows
    for r in rows:
        assert r["telemetry"].startswith("no NVMe telemetry"), r
        assert "health_before" not in r, r
    ts = ph["timeseries"]["max_temperature_c"]
    assert len(ts) == len(ph["timeseries"]["bytes_read"]) and len(ts) > 0, ts
    assert all(t is None for t in ts), ts          # none read: null, never 0
en = d["endurance"]
assert en["dwpd"] == 3 and en["warranty_years"] == 5 and en["rating_from"] == "config", en
[x] = en["drives"]
assert x["source"] == "counted" and x["written_bytes"] == 8 << 20, x
assert x["capacity_bytes"] == 10**12 and x["capacity_from"] == "config", x
assert abs(x["drive_writes"] - (8 << 20) / 1e12) < 1e-15, x
assert abs(x["rated_life_used_pct"] - 100 * (8 << 20) / (3 * 365 * 5 * 1e12)) < 1e-15, x
assert "model" not in d, "no projection without checkpoint or ingest phases"
print("results.json: inventory, drives, temperature and endurance as expected")
PY

cp "$T/out/results.json" "$T/results.orig"
"$SC_BIN" report "$T/out/results.pb" --output "$T/re" >"$T/re.log" 2>&1 || { cat "$T/re.log"; fail "report"; }
cmp "$T/results.orig" "$T/re/results.json" || fail "report rebuilt results.json differently"
grep -q "ranks 0,1 $T/target: no NVMe telemetry" "$T/re.log" || fail "report printed no inventory"
grep -q "wrote 8.00 MiB (counted)" "$T/re.log" || fail "report printed no endurance"
grep -q "model: no projection" "$T/out.log" "$T/re.log" && fail "a warning about the model"

# a block device that is not NVMe: a loop device, read only
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	truncate -s 64M "$T/loop.img"
	LOOP=$(losetup --find --show "$T/loop.img") || fail "losetup"
	trap 'losetup -d "$LOOP"; rm -rf "$T"' EXIT
	cat >"$T/l.yaml" <<YAML
targets:
  - path: $LOOP
phases:
  - name: rd
    rw: randread
    bs: 4KiB
    size: 4MiB
    runtime: 1s
YAML
	sc_mpirun 1 "$T/l.yaml" --output "$T/lout" || { cat "$T/out.log"; fail "loop run exited non-zero"; }
	grep -q "rank 0 $LOOP: no NVMe telemetry: $LOOP is on ${LOOP#/dev/} (not NVMe)" "$T/out.log" ||
		{ cat "$T/out.log"; fail "loop device: inventory line"; }
	echo "ok: $LOOP has no NVMe telemetry"
else
	echo "note: not root or no losetup: the loop-device check was left out"
fi
echo PASS
