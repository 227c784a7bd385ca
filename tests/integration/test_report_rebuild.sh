#!/usr/bin/env bash
# `ssdcluster report results.pb` rebuilds results.json and the CSV files
# exactly as the run wrote them; a truncated or damaged file is refused with
# a clear message and exit 2; a file whose last phase a crash cut off gives
# the phases before it, with a warning.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/r.yaml" <<YAML
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
    iodepth: 8
    size: 4MiB
    io_size: 1MiB
YAML
sc_mpirun 2 "$T/r.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run"; }
for f in results.json phases.csv ranks.csv timeseries.csv results.pb; do cp "$T/out/$f" "$T/$f.orig"; done
rm "$T/out/results.json" "$T/out/phases.csv" "$T/out/ranks.csv" "$T/out/timeseries.csv"
"$SC_BIN" report "$T/out/results.pb" >"$T/report.log" 2>&1 || { cat "$T/report.log"; fail "report"; }
cat "$T/report.log"
for f in results.json phases.csv ranks.csv timeseries.csv; do
	cmp "$T/$f.orig" "$T/out/$f" || fail "$f rebuilt differently"
done
grep -q "^rr " "$T/report.log" || fail "report printed no row for phase rr"

bad() { # NAME FILE
	local rc=0
	"$SC_BIN" report "$2" --output "$T/bad" >"$T/bad.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/bad.log"; fail "$1: exit $rc, want 2"; }
	grep -qE "truncated or damaged|not an ssdcluster results file" "$T/bad.log" || { cat "$T/bad.log"; fail "$1: message"; }
	[ ! -e "$T/bad" ] || fail "$1: wrote an output folder"
	echo "ok: $1 refused"
}
size=$(stat -c %s "$T/out/results.pb")
pb_cut "$T/out/results.pb" "$T/half.pb"
bad "truncated" "$T/half.pb"
cp "$T/out/results.pb" "$T/flip.pb"
printf '\xff' | dd of="$T/flip.pb" bs=1 seek=$((size - 10)) conv=notrunc status=none
bad "one byte changed" "$T/flip.pb"
echo "not protobuf" >"$T/text.pb"
bad "not a results file" "$T/text.pb"

# Phase rr's part cut off, as a crash while rank 0 appended it leaves it:
# phase w is read, with a warning that says so.  (The run's file: the
# report above wrote results.pb again, whole.)
head -c $(($(stat -c %s "$T/results.pb.orig") - 5)) "$T/results.pb.orig" >"$T/torn.pb"
rc=0
"$SC_BIN" report "$T/torn.pb" --output "$T/torn" >"$T/torn.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$T/torn.log"; fail "a cut-off last phase: exit $rc, want 0"; }
grep -q "warning: $T/torn.pb: its last [0-9]* bytes, a phase cut off.* the 1 phase(s) before it are read" \
	"$T/torn.log" || { cat "$T/torn.log"; fail "a cut-off last phase: no warning"; }
n=$(python3 -c 'import json,sys; print([p["name"] for p in json.load(open(sys.argv[1]))["phases"]])' \
	"$T/torn/results.json")
[ "$n" = "['w']" ] || fail "a cut-off last phase: results.json holds $n, want ['w']"
echo "ok: a cut-off last phase left out, with a warning"
echo PASS
