#!/usr/bin/env bash
# ssdcluster compare on two small real runs (2 ranks, emulated drives, so
# that queue depth moves bandwidth and latency the same way on any machine):
# a run against itself prints "no difference" and exits 0; against a run
# whose sweep has iodepth 16 lowered to 1, every cell of that column is
# paired ("16->1"), its bandwidth worse and its median latency better in
# compare.json (not its p99: one scheduling stall on a loaded machine can
# spoil a tail of a few thousand I/Os),
# the other cells unchanged in kind; compare.html is well-formed XML with a
# difference map; checkpoint groups pair; runs that share no phase and a
# corrupt results file exit 2 naming the cause.
. "$(dirname "$0")/lib.sh"

# write_config FILE QD: a seqwrite, a sweep over bs x iodepth [QD, 32], a
# checkpoint group; emulated drives (no data written).  The sweep's drive
# moves one transfer at a time at 8 MiB/s (488 us per 4 KiB, 977 us per
# 8 KiB) and adds 2 ms: at QD 16 the link never idles (16 transfers queued
# outlast any wake-up) and an I/O waits for 15 others' transfers, 7.8 ms
# (4 KiB) or 15.6 ms (8 KiB), at the full 8.4 MB/s a rank; at QD 1 it takes
# 2.5 or 3.0 ms, at 1.6 or 2.8 MB/s.  So from 16 to 1 bandwidth falls 5x or
# 3x and latency falls 3.1x or 5.2x: the median flips only if most of run
# B's I/Os are reaped 5 ms late.  Each cell runs 1 s (not a size: a cell
# of tens of ms lost its bandwidth order to one stall of a rank, which
# ends the cell late): a 0.5 s stall of a rank in run A (less done, the
# end later) leaves A at half its rate, still above B's (a third at most).
write_config() {
	cat >"$1" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
defaults:
  engine: emulated
phases:
  - name: seqwrite
    rw: write
    bs: 1MiB
    iodepth: 4
    size: 8MiB
    emulate: {latency: 100us, bandwidth: 256MiB}
  - name: sweep
    rw: randread
    bs: [4KiB, 8KiB]
    iodepth: [$2, 32]
    size: 8MiB
    runtime: 1s
    emulate: {latency: 2ms, bandwidth: 8MiB}
  - name: ckpt
    workload: checkpoint
    model: llama3.1-405b
    tp: 2
    pp: 1
    zero: 1
    checkpoints: 3
    compute_between: 10ms
    block_size: 256KiB
    iodepth: 4
    scale: 0.000002
    emulate: {latency: 100us, bandwidth: 512MiB}
YAML
}

mkdir -p "$T/target"
write_config "$T/a.yaml" 16
write_config "$T/b.yaml" 1
sc_mpirun 2 "$T/a.yaml" --output "$T/a" --quiet || { cat "$T/out.log"; fail "run A exited $?"; }
sc_mpirun 2 "$T/b.yaml" --output "$T/b" --quiet || { cat "$T/out.log"; fail "run B exited $?"; }

# a run against itself
"$SC_BIN" compare "$T/a/results.pb" "$T/a/results.pb" --output "$T/self" >"$T/self.txt" 2>&1 ||
	{ cat "$T/self.txt"; fail "compare with itself exited $?"; }
grep -q "^  no difference$" "$T/self.txt" || { cat "$T/self.txt"; fail "itself: not 'no difference'"; }
python3 - "$T/self/compare.json" <<'PY' || fail "compare.json of a run with itself"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["largest_differences"] == [], d["largest_differences"][:3]
assert len(d["phases"]) >= 6, [p["label"] for p in d["phases"]]
for p in d["phases"]:
    for f in p["figures"]:
        if f["a"] is not None:
            assert f["change_pct"] == 0 and f["verdict"] == "no difference", (p["label"], f)
PY

# against the run with iodepth 16 lowered to 1; default folder: B's
"$SC_BIN" compare "$T/a/results.pb" "$T/b/results.pb" >"$T/ab.txt" 2>&1 ||
	{ cat "$T/ab.txt"; fail "compare A B exited $?"; }
cat "$T/ab.txt"
[ -s "$T/b/compare.json" ] && [ -s "$T/b/compare.html" ] || fail "no compare.json/.html in B's folder"
grep -q "sweep\[bs=4KiB,iodepth=16->1\]" "$T/ab.txt" || fail "printed cell not labelled 16->1"
python3 - "$T/b/compare.json" <<'PY' || fail "compare.json of A against B"
import json, sys
d = json.load(open(sys.argv[1]))
ph = {p["label"]: {f["figure"]: f for f in p["figures"]} for p in d["phases"]}
for bs in ("4KiB", "8KiB"):
    cell = ph[f"sweep[bs={bs},iodepth=16->1]"]
    assert cell["bandwidth"]["change_pct"] < 0 and cell["bandwidth"]["verdict"] == "worse", (bs, cell["bandwidth"])
    assert cell["read p50"]["change_pct"] < 0 and cell["read p50"]["verdict"] == "better", (bs, cell["read p50"])
    assert cell["read mean"]["verdict"] == "better", (bs, cell["read mean"])
    assert f"sweep[bs={bs},iodepth=32]" in ph, list(ph)
sw = d["sweeps"]
assert len(sw) == 1 and sw[0]["axes"]["iodepth"] == ["16->1", "32"], sw
ck = d["checkpoints"]
assert len(ck) == 1 and len(ck[0]["a"]["write_s"]) == 3 and len(ck[0]["b"]["write_s"]) == 3, ck
assert all(x > 0 for x in ck[0]["a"]["write_s"] + ck[0]["b"]["write_s"]), ck
assert d["largest_differences"], "no largest differences"
PY
if command -v xmllint >/dev/null; then
	xmllint --noout "$T/b/compare.html" || fail "compare.html is not well-formed"
else
	echo "xmllint missing (apt-get install libxml2-utils): XML not checked"
fi
grep -q "<svg" "$T/b/compare.html" || fail "compare.html holds no <svg>"
grep -q "change of bandwidth, B against A" "$T/b/compare.html" || fail "no sweep difference map"
grep -q "change of bandwidth, B - A (MB/s)" "$T/b/compare.html" || fail "no absolute sweep difference map"
grep -q "change of latency p99, B - A (us)" "$T/b/compare.html" || fail "no absolute p99 difference map"
grep -q "Difference map: phases" "$T/b/compare.html" || fail "no phases difference map"
grep -q "Checkpoint ckpt: duration per checkpoint" "$T/b/compare.html" || fail "no checkpoint chart"

# runs that share no phase
cat >"$T/c.yaml" <<YAML
targets: [{path: $T/target, capacity: 1GiB}]
phases:
  - {name: other, rw: read, bs: 1MiB, size: 4MiB, engine: emulated}
YAML
sc_mpirun 1 "$T/c.yaml" --output "$T/c" --quiet || { cat "$T/out.log"; fail "run C exited $?"; }
set +e
"$SC_BIN" compare "$T/a/results.pb" "$T/c/results.pb" --output "$T/ac" >"$T/ac.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || { cat "$T/ac.txt"; fail "no shared phase exited $rc, want 2"; }
grep -q "share no phase" "$T/ac.txt" || { cat "$T/ac.txt"; fail "no message"; }

# a corrupt results file
cp "$T/b/results.pb" "$T/bad.pb"
printf 'garbage' | dd of="$T/bad.pb" bs=1 seek=40 conv=notrunc status=none
set +e
"$SC_BIN" compare "$T/a/results.pb" "$T/bad.pb" >"$T/bad.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || { cat "$T/bad.txt"; fail "corrupt file exited $rc, want 2"; }
grep -q "bad.pb" "$T/bad.txt" || { cat "$T/bad.txt"; fail "message does not name bad.pb"; }
[ ! -e "$T/compare.json" ] || fail "a compare.json was written for a corrupt input"
echo "PASS"
