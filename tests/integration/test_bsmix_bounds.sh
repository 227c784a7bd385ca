#!/usr/bin/env bash
# A mix of sizes (bssplit, bsrange) writes only inside its region, as an
# attacker would try to push it past the end: a 1 MiB file target whose
# first half is marked, a job of bsrange [4KiB, 64KiB] and one of bssplit
# 4KiB/64KiB over its second half (offset 512 KiB, size 512 KiB), random
# and sequential, time-based so the draws reach the region's end many
# times.  Afterwards the file is still 1 MiB, its first half unchanged.
# Without --allow-destroy nothing is written at all; and ssdcluster fio
# with invalidate and fadvise_hint on the same file writes nothing without
# it either (those options only read).
. "$(dirname "$0")/lib.sh"

f="$T/target.img"
head -c 512K /dev/urandom >"$T/mark"
cat "$T/mark" >"$f" && truncate -s 1M "$f"
{
	file_target_yaml "$f"
	cat <<YAML
defaults: {offset: 512KiB, size: 512KiB, runtime: 1s, iodepth: 8, direct: false}
phases:
  - {name: rr, rw: randwrite, bsrange: [4KiB, 64KiB]}
  - {name: sq, rw: write, bssplit: {4KiB: 50, 64KiB: 50}}
  - {name: rw8, rw: randrw, random_every: 8, bssplit: {4KiB: 50, 64KiB: 50}}
YAML
} >"$T/b.yaml"
rc=0; sc_mpirun 1 "$T/b.yaml" --output "$T/no" || rc=$?
[ "$rc" = 2 ] || { cat "$T/out.log"; fail "without --allow-destroy: exit $rc, want 2"; }
cmp -s <(head -c 512K "$f") "$T/mark" || fail "a refused run changed the file"
sc_mpirun 1 "$T/b.yaml" --output "$T/out" --allow-destroy || { cat "$T/out.log"; fail "run exited $?"; }
[ "$(stat -c %s "$f")" = 1048576 ] || fail "the file grew to $(stat -c %s "$f") B"
cmp -s <(head -c 512K "$f") "$T/mark" || fail "a write landed before the region's offset"
python3 - "$T/out/results.json" <<'PY' || fail "the phases wrote nothing"
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if all(p["cluster"]["bytes_written"] > 0 for p in r["phases"]) else 1)
PY

# fio: a job file on the same file, reading with fio's page-cache defaults
printf '[r]\nrw=randread\nbs=4k\nsize=512k\noffset=512k\nfilename=%s\ninvalidate=1\nfadvise_hint=1\n' "$f" >"$T/r.fio"
(cd "$T" && sc_mpirun 1 fio r.fio --output "$T/fio") || { cat "$T/out.log"; fail "fio read exited $?"; }
cmp -s <(head -c 512K "$f") "$T/mark" || fail "a read job changed the file"
printf '[w]\nrw=write\nbsrange=4k-64k\nsize=512k\noffset=512k\nfilename=%s\ninvalidate=1\n' "$f" >"$T/w.fio"
rc=0; (cd "$T" && sc_mpirun 1 fio w.fio --output "$T/fiow") || rc=$?
[ "$rc" = 2 ] || { cat "$T/out.log"; fail "fio write without --allow-destroy: exit $rc, want 2"; }
grep -q "lacks --allow-destroy" "$T/out.log" || { cat "$T/out.log"; fail "the refusal names --allow-destroy"; }
echo "test_bsmix_bounds: ok"
