#!/usr/bin/env bash
# Fill and the write cliff on real (emulated) NVMe: one guest, one 80 MiB
# controller whose QEMU block throttling is a write cache that runs out:
# 16 MB/s (burst_bps) until a bucket of 16 MB/s x 3 s, drained at 4 MB/s
# (throttle_bps), is full, then 4 MB/s.  QEMU's leaky bucket, not our
# code, sets the truth: a fresh drive written at a rate B fills the bucket
# after T = 16e6 x 3 / (B - 4e6) s, having written B x T bytes, and then
# goes at 4 MB/s.  A fill phase (one pass, 256 KiB, QD8: 15 to 16 I/Os
# a second after the cliff, so that its per-second rates are not coarse) over /dev/nvme0n1:
#   - writes the whole namespace once: the drive's SMART data units written
#     (the test's own Get Log Page, nvme_cmd.py) rise by its 83,886,080
#     bytes within one 512,000-byte unit, and so does the phase's
#     health_before/health_after;
#   - write_cliff finds the cliff: initial rate B (the guest's burst, about
#     16 MB/s), rate after it within 10% of 4 MB/s, its start within a
#     second of T computed from the measured B, and the cache it estimates
#     within B x 1 s of B x T (its seconds are whole, T is not).
# Run with SC_NVME_FILL_NO_CLIFF=1 (no burst: 4 MB/s throughout) the cliff
# checks must fail: a deliberate break.
. "$(dirname "$0")/nvme_lib.sh"

AVG=4000000 BURST=16000000 BURST_S=3 SIZE_MIB=80
spec="serial=SCFILL01,size=${SIZE_MIB}M,throttle_bps=$AVG"
[ "${SC_NVME_FILL_NO_CLIFF:-0}" = 1 ] || spec+=",burst_bps=$BURST,burst_s=$BURST_S"

cat >"$T/fill.yaml" <<YAML
targets:
  - path: /dev/nvme0n1
    allow_destroy: true
phases:
  - name: fill
    workload: fill
    passes: 1
    bs: 256KiB
    iodepth: 8
    cliff_fraction: 0.5
YAML
cat >"$T/guest.sh" <<'SH'
set -e
smart() { python3 "$SC_SOURCE_DIR/tests/nvme/nvme_cmd.py" smart /dev/nvme0; }
smart >"$T/smart-before.json"
"$SC_BIN" "$T/fill.yaml" --allow-destroy --output "$T/out" >"$T/out.log" 2>&1
smart >"$T/smart-after.json"
SH
nvme_guest "$T/guest.sh" --env SC_SOURCE_DIR="$SC_SOURCE_DIR" --nvme "$spec"
cat "$T/out.log"

python3 - "$T" "$AVG" "$BURST" "$BURST_S" "$SIZE_MIB" <<'PY' || fail "fill / write cliff"
import json, sys
t = sys.argv[1]
avg, burst, burst_s, size = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]) << 20
UNIT = 512000
before = json.load(open(f"{t}/smart-before.json"))
after = json.load(open(f"{t}/smart-after.json"))
d = json.load(open(f"{t}/out/results.json"))
[p] = d["phases"]
written = sum(p["timeseries"]["bytes_written"])
assert written == size, (written, size)
units = after["data_units_written"] - before["data_units_written"]
assert abs(units * UNIT - size) < UNIT, (units, size)
[r] = p["drives"]
[x] = r["drives"]
assert x["serial"] == "SCFILL01", x
hb, ha = x["health_before"], x["health_after"]
assert (hb["data_units_written"], ha["data_units_written"]) == \
    (before["data_units_written"], after["data_units_written"]), (hb, ha, before, after)
print(f"fill wrote {written} bytes; SMART data units written "
      f"{before['data_units_written']} -> {after['data_units_written']} (+{units} x {UNIT} B)")

wc = p["write_cliff"]
[c] = wc["drives"]
print("write_cliff:", json.dumps({k: c[k] for k in ("seconds_analysed", "initial_bw_MBps", "cliff",
      "cliff_start_ns", "cache_bytes", "after_bw_MBps")}))
assert c["cliff"] is True, c
b = c["initial_bw_MBps"] * 1e6          # the burst rate the guest kept up
assert b > 2 * avg, (b, avg)
truth_t = burst * burst_s / (b - avg)   # QEMU's bucket full after this
truth_bytes = b * truth_t
start = c["cliff_start_ns"] / 1e9
print(f"QEMU's bucket: at {b / 1e6:.1f} MB/s full after {truth_t:.2f} s and {truth_bytes / 1e6:.1f} MB; "
      f"measured cliff at {start:.2f} s after {c['cache_bytes'] / 1e6:.1f} MB, "
      f"then {c['after_bw_MBps']:.2f} MB/s (QEMU: {avg / 1e6:.2f})")
assert abs(start - truth_t) <= 1.0, (start, truth_t)
assert abs(c["cache_bytes"] - truth_bytes) <= b * 1.0, (c["cache_bytes"], truth_bytes)
assert abs(c["after_bw_MBps"] * 1e6 - avg) <= 0.1 * avg, (c["after_bw_MBps"], avg)
cl = wc["cluster"]
assert cl["drives_with_cliff"] == 1 and cl["min_cache_bytes"] == c["cache_bytes"], cl
PY
grep -qi "cliff" "$T/out.log" || fail "the printed output says nothing of the write cliff"
echo PASS
