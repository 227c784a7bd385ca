#!/usr/bin/env bash
# SMART on real (emulated) NVMe: one guest, one 256 MiB controller.  A run
# of three phases on /dev/nvme0n1 (8 MiB written; 3 s of writes; 16 MiB
# read) reports the drive's health log before and after each phase: each
# phase's data units written (read, for the read phase) rise by the bytes
# the phase moved, within one 512,000-byte unit; one phase's "after" is the
# next one's "before"; the first "before" and last "after" are what the
# test read itself from the controller (nvme_cmd.py smart, an admin Get Log Page
# in the guest).  The temperature series of the 3 s phase holds the drive's
# hwmon temperature as the guest read it, no other value.
. "$(dirname "$0")/nvme_lib.sh"

cat >"$T/smart.yaml" <<YAML
targets:
  - path: /dev/nvme0n1
    allow_destroy: true
phases:
  - name: w8m
    rw: write
    bs: 1MiB
    size: 8MiB
  - name: w3s
    rw: write
    bs: 1MiB
    size: 24MiB
    runtime: 3s
  - name: r16m
    rw: read
    bs: 1MiB
    size: 16MiB
YAML
cat >"$T/guest.sh" <<'SH'
set -e
smart() { python3 "$SC_SOURCE_DIR/tests/nvme/nvme_cmd.py" smart /dev/nvme0; }
hwmon_temp() {
	local h
	for h in /sys/class/nvme/nvme0/hwmon*; do cat "$h/temp1_input"; done
}
smart >"$T/smart-before.json"
hwmon_temp >"$T/hwmon-before"
"$SC_BIN" "$T/smart.yaml" --allow-destroy --output "$T/out" >"$T/out.log" 2>&1
smart >"$T/smart-after.json"
hwmon_temp >"$T/hwmon-after"
SH
nvme_guest "$T/guest.sh" --env SC_SOURCE_DIR="$SC_SOURCE_DIR" --nvme serial=SCSM0001,size=256M
cat "$T/out.log"

python3 - "$T" <<'PY' || fail "results.json"
import json, sys
t = sys.argv[1]
UNIT = 512000                       # an NVMe data unit: 1000 512-byte blocks
before = json.load(open(f"{t}/smart-before.json"))
after = json.load(open(f"{t}/smart-after.json"))
hwmon = {int(open(f"{t}/hwmon-{w}").read().split()[0]) / 1000 for w in ("before", "after")}
assert len(hwmon) == 1, hwmon       # QEMU's temperature does not move
[hwmon_c] = hwmon
d = json.load(open(f"{t}/out/results.json"))
ph = {p["name"]: p for p in d["phases"]}
assert list(ph) == ["w8m", "w3s", "r16m"], list(ph)
rows = {}
for name, p in ph.items():
    [r] = p["drives"]
    [x] = r["drives"]
    assert x["serial"] == "SCSM0001", x
    rows[name] = (x["health_before"], x["health_after"])

assert rows["w8m"][0]["data_units_written"] == before["data_units_written"], (rows["w8m"][0], before)
for k in ("data_units_written", "data_units_read"):
    assert rows["r16m"][1][k] == after[k], (k, rows["r16m"][1], after)
assert rows["w8m"][1] == rows["w3s"][0] and rows["w3s"][1] == rows["r16m"][0], rows

for name, key, ts in (("w8m", "written", "bytes_written"), ("w3s", "written", "bytes_written"),
                      ("r16m", "read", "bytes_read")):
    hb, ha = rows[name]
    units = ha["data_units_" + key] - hb["data_units_" + key]
    moved = sum(ph[name]["timeseries"][ts])
    assert moved > 0 and abs(units * UNIT - moved) < UNIT, (name, units, moved)
    assert ha[f"data_{key}_bytes"] - hb[f"data_{key}_bytes"] == units * UNIT, (name, hb, ha)
    other = "read" if key == "written" else "written"
    print(f"{name}: moved {moved} bytes; SMART data units {key} {hb['data_units_' + key]} -> "
          f"{ha['data_units_' + key]} (+{units * UNIT} bytes); {other} "
          f"{hb['data_units_' + other]} -> {ha['data_units_' + other]}")
assert sum(ph["w8m"]["timeseries"]["bytes_written"]) == 8 << 20
assert sum(ph["r16m"]["timeseries"]["bytes_read"]) == 16 << 20
# a write phase moves no read units here, nor a read phase written ones
assert rows["r16m"][0]["data_units_written"] == rows["r16m"][1]["data_units_written"], rows
assert rows["w3s"][0]["data_units_read"] == rows["w3s"][1]["data_units_read"], rows

for p in ph.values():
    assert p["drives"][0]["drives"][0]["health_after"]["temperature_c"] == after["temperature_c"]
temps = ph["w3s"]["timeseries"]["max_temperature_c"]
seen = [x for x in temps if x is not None]
assert len(seen) >= 2 and all(abs(x - hwmon_c) < 0.01 for x in seen), (temps, hwmon_c)
assert ph["w3s"]["drives"][0]["max_temperature_c"] == temps, ph["w3s"]["drives"][0]
print(f"w3s temperature series {temps} (hwmon {hwmon_c} C, health log {after['temperature_c']} C)")
PY
echo PASS
