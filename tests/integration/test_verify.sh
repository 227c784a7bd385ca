#!/usr/bin/env bash
# Verification end to end: a write phase with verify: crc32c kept under
# --run-id; a verify_only run of that id finds nothing wrong (exit 0) and
# changes nothing; one block corrupted with dd in between gives exactly one
# mismatch at exactly that offset (exit 1), in the row, on stderr, in
# results.json and ranks.csv; `ssdcluster report` rebuilds that
# results.json byte for byte; 2 ranks each check their own files; a file
# target is re-read in place; a verify_only run without --run-id, or of a
# run that was not kept, is refused (exit 2) with nothing created.
. "$(dirname "$0")/lib.sh"

BS=4096
BLOCKS=256

# json FILE EXPR : prints the Python expression EXPR over the JSON in FILE (as d)
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# run NP EXPECTED_EXIT ARGS... : runs ssdcluster, checks its exit code
run() {
	local np=$1 want=$2 rc=0
	shift 2
	sc_mpirun "$np" "$@" || rc=$?
	[ "$rc" -eq "$want" ] || { cat "$T/out.log"; fail "ssdcluster $*: exit $rc, want $want"; }
}

mkdir -p "$T/target"
cat >"$T/write.yaml" <<YAML
targets:
  - path: $T/target
    keep: true
defaults: {bs: 4KiB, size: 1MiB, iodepth: 8, verify: crc32c}
phases:
  - name: w
    rw: write
  - name: r
    rw: randread
    io_size: 512KiB
YAML
cat >"$T/verify.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: v
    rw: read
    bs: 4KiB
    size: 1MiB
    iodepth: 8
    verify_only: true
YAML

# 1. write and read back in the same run: every block read checks clean
run 1 0 "$T/write.yaml" --run-id A --output "$T/out-w"
[ "$(json "$T/out-w/results.json" "d['phases'][1]['verify']['mismatches']")" = 0 ] ||
	fail "same-run read found mismatches"
[ "$(json "$T/out-w/results.json" "d['phases'][1]['verify']['blocks_checked']")" = 128 ] ||
	fail "same-run read: want 128 blocks checked"
grep -q "verify: 0 mismatches in 128 blocks" "$T/out.log" || { cat "$T/out.log"; fail "row"; }
f="$T/target/ssdcluster-A/r0.j0.dat"
[ "$(stat -c %s "$f")" = $((BS * BLOCKS)) ] || fail "kept file $f missing or short"

# 2. an untouched kept run verifies clean, and is left exactly as it was
before=$(cd "$T/target" && find . -printf '%p %s %T@\n' | sort; md5sum "$f")
run 1 0 "$T/verify.yaml" --run-id A --output "$T/out-v0"
after=$(cd "$T/target" && find . -printf '%p %s %T@\n' | sort; md5sum "$f")
[ "$before" = "$after" ] || fail "a verify_only run changed the target:
$before
---
$after"
[ "$(json "$T/out-v0/results.json" "d['phases'][0]['verify']['blocks_checked']")" = $BLOCKS ] ||
	fail "verify_only: want $BLOCKS blocks checked"
[ "$(json "$T/out-v0/results.json" "d['phases'][0]['verify']['mismatches']")" = 0 ] ||
	fail "verify_only of an untouched run found mismatches"
[ "$(json "$T/out-v0/results.json" "d['run_id']")" = A ] || fail "run id in results"
echo "ok: clean kept run verifies with 0 mismatches, exit 0, nothing changed"

# 3. one block corrupted between write and verify_only: exactly one mismatch there
BAD=$((37 * BS))
printf 'XYZ' | dd of="$f" bs=1 seek=$((BAD + 100)) conv=notrunc status=none
run 1 1 "$T/verify.yaml" --run-id A --output "$T/out-v1"
r="$T/out-v1/results.json"
[ "$(json "$r" "d['phases'][0]['verify']['mismatches']")" = 1 ] ||
	{ json "$r" "d['phases'][0]['verify']"; fail "want exactly 1 mismatch"; }
[ "$(json "$r" "[m['offset_bytes'] for m in d['phases'][0]['verify']['first_mismatches']]")" = "[$BAD]" ] ||
	{ json "$r" "d['phases'][0]['verify']"; fail "mismatch not at offset $BAD"; }
[ "$(json "$r" "d['phases'][0]['verify']['first_mismatches'][0]['failed']")" = "['crc']" ] ||
	fail "want the crc check to fail, alone"
[ "$(json "$r" "d['phases'][0]['verify']['first_mismatches'][0]['found']['offset_bytes']")" = $BAD ] ||
	fail "found header offset"
[ "$(json "$r" "d['phases'][0]['verify']['first_mismatches'][0]['file']")" = "$f" ] ||
	fail "mismatch names the file"
[ "$(json "$r" "d['phases'][0]['ranks'][0]['verify_mismatches']")" = 1 ] || fail "rank count"
grep -q "verify: 1 mismatches in $BLOCKS blocks" "$T/out.log" || { cat "$T/out.log"; fail "row"; }
grep -q "rank 0 (.*): $f offset $BAD B: crc failed" "$T/out.log" || { cat "$T/out.log"; fail "stderr"; }
grep -qE "^v,0,0,([^,]*,){5}0,1," "$T/out-v1/ranks.csv" || { cat "$T/out-v1/ranks.csv"; fail "ranks.csv"; }
[ -e "$f" ] && [ -d "$T/target/ssdcluster-A" ] || fail "verify_only removed the kept run"
echo "ok: one corrupted block gives exactly one mismatch at offset $BAD, exit 1"

# 4. results.pb rebuilds that results.json byte for byte
cp "$r" "$T/orig.json"
"$SC_BIN" report "$T/out-v1/results.pb" --output "$T/rebuilt" >"$T/report.log" 2>&1 ||
	{ cat "$T/report.log"; fail "report"; }
cmp "$T/orig.json" "$T/rebuilt/results.json" || fail "results.json rebuilt differently"
echo "ok: report rebuilds results.json byte for byte"

# 5. refused before any I/O: no --run-id, or a run that was not kept
listing=$(cd "$T/target" && find . | sort)
run 1 2 "$T/verify.yaml" --output "$T/out-x"
grep -q "name it with --run-id" "$T/out.log" || { cat "$T/out.log"; fail "message (no run id)"; }
run 1 2 "$T/verify.yaml" --run-id never-kept --output "$T/out-x"
grep -q "no kept run of that id here" "$T/out.log" || { cat "$T/out.log"; fail "message (no run)"; }
[ "$(cd "$T/target" && find . | sort)" = "$listing" ] || fail "a refused run created something"
sed 's/bs: 4KiB, size/bs: 32B, direct: false, size/' "$T/write.yaml" >"$T/tiny.yaml"
run 1 2 "$T/tiny.yaml" --run-id T1 --output "$T/out-x"
grep -q "smaller than the 48 B header" "$T/out.log" || { cat "$T/out.log"; fail "bs message"; }
echo "ok: refused with exit 2"

# 6. two ranks, each with its own files: one bad block in rank 1's file
run 2 0 "$T/write.yaml" --run-id B --output "$T/out-w2"
run 2 0 "$T/verify.yaml" --run-id B --output "$T/out-v2"
[ "$(json "$T/out-v2/results.json" "d['phases'][0]['verify']['blocks_checked']")" = $((2 * BLOCKS)) ] ||
	fail "2 ranks: want $((2 * BLOCKS)) blocks checked"
printf 'Q' | dd of="$T/target/ssdcluster-B/r1.j0.dat" bs=1 seek=$((5 * BS + 4000)) conv=notrunc status=none
run 2 1 "$T/verify.yaml" --run-id B --output "$T/out-v3"
r="$T/out-v3/results.json"
[ "$(json "$r" "[(m['rank'], m['offset_bytes']) for m in d['phases'][0]['verify']['first_mismatches']]")" = "[(1, $((5 * BS)))]" ] ||
	{ json "$r" "d['phases'][0]['verify']"; fail "2 ranks: want one mismatch, rank 1, offset $((5 * BS))"; }
[ "$(json "$r" "[x['verify_mismatches'] for x in d['phases'][0]['ranks']]")" = "[0, 1]" ] ||
	fail "2 ranks: per-rank counts"
echo "ok: 2 ranks verify their own files; the bad block is rank 1's"

# 7. a file target is re-read in place
truncate -s 2MiB "$T/disk.img"
cat >"$T/file-w.yaml" <<YAML
targets: [{path: $T/disk.img, allow_destroy: true}]
phases: [{rw: write, bs: 4KiB, size: 1MiB, verify: crc32c}]
YAML
cat >"$T/file-v.yaml" <<YAML
targets: [{path: $T/disk.img}]
phases: [{rw: randread, bs: 4KiB, size: 1MiB, io_size: 4MiB, verify_only: true}]
YAML
run 1 0 "$T/file-w.yaml" --run-id F --allow-destroy --output "$T/out-f0"
run 1 0 "$T/file-v.yaml" --run-id F --output "$T/out-f1"
run 1 1 "$T/file-v.yaml" --run-id G --output "$T/out-f2"
[ "$(json "$T/out-f2/results.json" "d['phases'][0]['verify']['first_mismatches'][0]['failed']")" = "['run_id']" ] ||
	fail "file target read as another run: want the run id check to fail"
echo "ok: file target verified in place; another run id is a mismatch"
echo PASS
