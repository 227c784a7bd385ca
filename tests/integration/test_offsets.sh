#!/usr/bin/env bash
# test_offsets.sh -- offset and offset_increment (fio's) on a file target:
# 2 ranks x 2 jobs write their regions of a zeroed file, and the blocks that
# are no longer zero are exactly the union of [offset + (slot x jobs + job)
# x increment, + size), worked out here from that closed form: with the
# defaults (offset 0, increment size: the regions side by side), with an
# offset and a wider increment, and with increment 0 (every job one
# region).  The space check counts the real span (exit 2 one block past
# the file's end, naming the bytes needed), and a directory target refuses
# the keys (exit 2).
. "$(dirname "$0")/lib.sh"

KIB=1024
IMG=$T/f.img
{
	file_target_yaml "$IMG"
	cat <<YAML
phases:
  - rw: write
    bs: 4KiB
    size: 64KiB
    jobs: 2
    direct: false
YAML
} >"$T/w.yaml"

# check OFFSET_KIB INCREMENT_KIB [--set ...]: a fresh 8 MiB zeroed file, the
# run, then its non-zero 4 KiB blocks against the closed form
check() {
	local off=$1 inc=$2
	shift 2
	dd if=/dev/zero of="$IMG" bs=1M count=8 status=none
	sc_mpirun 2 "$T/w.yaml" --allow-destroy --output "$T/o.$off.$inc" "$@" ||
		{ cat "$T/out.log"; fail "offset $off KiB, increment $inc KiB: exit $?"; }
	python3 - "$IMG" "$off" "$inc" <<'PY' || fail "offset $2 KiB, increment $3 KiB: the blocks written are not the regions"
import sys
img, off, inc = sys.argv[1], int(sys.argv[2]) * 1024, int(sys.argv[3]) * 1024
B, size, jobs, slots = 4096, 64 * 1024, 2, 2
data = open(img, "rb").read()
got = {i for i in range(len(data) // B) if any(data[i * B:(i + 1) * B])}
want = set()
for s in range(slots):
    for j in range(jobs):
        start = off + (s * jobs + j) * inc
        want |= set(range(start // B, (start + size) // B))
if got != want:
    print("FAIL: written blocks", sorted(got - want)[:8], "outside the regions;",
          sorted(want - got)[:8], "of them not written")
    sys.exit(1)
print(f"ok: offset {off // 1024} KiB increment {inc // 1024} KiB: {len(got)} blocks, as the closed form")
PY
}

check 0 64                                   # the defaults: side by side
check 1024 256 --set phases.0.offset=1MiB --set phases.0.offset_increment=256KiB
check 2048 0 --set phases.0.offset=2MiB --set phases.0.offset_increment=0

# the space check: offset + 3 x 256 KiB + 64 KiB must fit the 8 MiB file
# (8192 KiB - 832 KiB = 7360 KiB: the largest offset that fits)
rc=0
sc_mpirun 2 "$T/w.yaml" --allow-destroy --output "$T/big" --set phases.0.offset=7364KiB \
	--set phases.0.offset_increment=256KiB || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "a span 4 KiB past the file's end: exit $rc, want 2"; }
grep -q "needs 8.00 MiB for 2 rank(s) but capacity is 8.00 MiB" "$T/out.log" ||
	{ cat "$T/out.log"; fail "the space check does not count offset + 3 increments + size"; }
sc_mpirun 2 "$T/w.yaml" --allow-destroy --output "$T/fits" --set phases.0.offset=7360KiB \
	--set phases.0.offset_increment=256KiB || { cat "$T/out.log"; fail "a span that ends at the file's end was refused"; }

# a directory target: each job has its own file; the keys are refused
mkdir "$T/dir"
cat >"$T/d.yaml" <<YAML
targets:
  - path: $T/dir
phases:
  - rw: read
    size: 64KiB
    offset: 1MiB
YAML
rc=0
"$SC_BIN" "$T/d.yaml" --dry-run >"$T/d.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/d.log"; fail "offset on a directory target: exit $rc, want 2"; }
grep -q "phases.0.offset: offset applies to file and block targets" "$T/d.log" ||
	{ cat "$T/d.log"; fail "offset on a directory target: not the message"; }
echo PASS
