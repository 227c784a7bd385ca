#!/usr/bin/env bash
# A full filesystem mid-run: a clear message naming the file and the error,
# exit 1, and the phase that finished before it kept in results.json.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then skip "needs root to mount a small tmpfs"; fi
mkdir -p "$T/mnt"
mount -t tmpfs -o size=16M sc-enospc "$T/mnt" || skip "cannot mount tmpfs"
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/mnt/a" "$T/mnt/b"

# Each target alone fits (10 MiB of 16 MiB free), so validation passes;
# the two ranks together need 20 MiB and the second phase runs out.
cat >"$T/full.yaml" <<YAML
targets:
  - path: $T/mnt/a
    capacity: 10MiB
  - path: $T/mnt/b
    capacity: 10MiB
defaults:
  direct: false
  engine: psync
phases:
  - name: small
    rw: write
    bs: 1MiB
    size: 1MiB
  - name: fill
    rw: write
    bs: 1MiB
    size: 10MiB
YAML

rc=0
sc_mpirun 2 "$T/full.yaml" --output "$T/out" || rc=$?
cat "$T/out.log"
[ "$rc" -eq 1 ] || fail "exit $rc, want 1"
grep -q "No space left on device" "$T/out.log" || fail "no ENOSPC message"
grep -q "phase fill had I/O errors" "$T/out.log" || fail "message does not name the phase"
python3 - "$T/out/results.json" <<'PY' || fail "results.json"
import json, sys
r = json.load(open(sys.argv[1]))
names = [p["name"] for p in r["phases"]]
assert names == ["small", "fill"], names
small, fill = r["phases"]
assert small["cluster"]["total_bytes"] == 2 << 20, small["cluster"]["total_bytes"]
assert small["cluster"]["errors"] == 0
assert fill["cluster"]["errors"] >= 1, fill["cluster"]
assert any("No space left" in e for e in fill["errors"]), fill["errors"]
assert small["status"] == "ok" and fill["status"] == "stopped_on_error", fill["status"]
# a real (not injected) error, counted by errno with where it happened
ie = fill["io_errors"]
assert ie["failed_ios"] == fill["cluster"]["errors"], ie
assert [e["errno"] for e in ie["by_errno"]] == ["ENOSPC"], ie["by_errno"]
f = ie["first_failures"][0]
assert f["op"] == "write" and f["errno"] == "ENOSPC" and "/mnt/" in f["path"], f
assert f["file"].startswith("ssdcluster-") and f["len_bytes"] == 1 << 20, f
print("results.json keeps the finished phase and the failed one's errors, by errno")
PY
[ "$(count_entries "$T/mnt/a")" -eq 0 ] && [ "$(count_entries "$T/mnt/b")" -eq 0 ] ||
	fail "run files left behind after the failure"
echo PASS
