#!/usr/bin/env bash
# A SIGTERM or SIGINT that comes after the last phase ran, while the run
# removes its files: the cleanup and the results finish (the phase kept,
# no run file left), then every rank exits 128 + signal, so mpirun does.
#
# Landing the signal there: the run's one (so last) phase leaves thousands
# of files in the run directory (a checkpoint with a file per layer),
# which rank 0 alone removes, after it wrote results.json.  Once
# results.json is there, rank 0 is stopped (SIGSTOP); if the run
# directory is still there too, rank 0 is between the last phase and the
# end of its cleanup, and stays there: the signal is sent, then rank 0
# continues.  Otherwise the attempt missed the window and is made again.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ranks_lib.sh"

ATTEMPTS=4 # a miss needs the whole removal to fit between two polls
trap 'kill_leftovers "$T/"; rm -rf "$T"' EXIT

# config FILE TARGET : one phase, a checkpoint of 2 pipeline stages with a
# file per layer: 8192 files per rank, all in the run directory
config() {
	mkdir -p "$2"
	cat >"$1" <<YAML
targets:
  - path: $2
    capacity: 1GiB
defaults:
  direct: false
phases:
  - name: ckpt
    workload: checkpoint
    model: {layers: 16384, hidden: 8, ffn_hidden: 8, heads: 1, vocab: 8}
    pp: 2
    zero: 1
    block_size: 4KiB
YAML
}

# last_phase_kept OUT : results.json holds the (last) phase
last_phase_kept() { [ -s "$1/results.json" ]; }

# signal_in_cleanup NAME WHO SIG : runs the config, and once the last phase
# is kept sends SIG to rank WHO while rank 0 is still removing the run
# directory.  Sets RC; returns 1 when the attempt missed the window.
signal_in_cleanup() {
	local cfg=$T/$1.yaml target=$T/$1-target out=$T/$1-out pid0 i
	rm -rf "$target" "$out"
	config "$cfg" "$target"
	sc_mpirun_bg 2 "$cfg" --output "$out" --run-id "$1"
	for ((i = 0; i < 6000; i++)); do
		last_phase_kept "$out" && break
		kill -0 "$MPIRUN_PID" 2>/dev/null || break
		sleep 0.02
	done
	pid0=$(rank_pid "$cfg" 0) || { wait_exit "$MPIRUN_PID" 60; return 1; }
	kill -STOP "$pid0"
	if [ ! -d "$target/ssdcluster-$1" ] || ! last_phase_kept "$out"; then
		kill -CONT "$pid0"
		wait_exit "$MPIRUN_PID" 120 || fail "$1: mpirun does not end"
		return 1
	fi
	echo "$1: rank 0 stopped after the last phase, $(find "$target/ssdcluster-$1" | wc -l) run files left"
	if [ "$2" = 0 ]; then
		kill "-$3" "$pid0"
	else
		kill "-$3" "$(rank_pid "$cfg" "$2")" || fail "$1: no rank $2"
	fi
	kill -CONT "$pid0"
	wait_exit "$MPIRUN_PID" 120 || { cat "$T/out.log"; fail "$1: mpirun still runs 120 s after SIG$3"; }
	cat "$T/out.log"
}

# check NAME SIG WANT : what the run left after signal_in_cleanup
check() {
	[ "$RC" -eq "$3" ] || fail "$1: exit $RC after SIG$2 in the cleanup, want $3"
	python3 - "$T/$1-out/results.json" <<'PY' || fail "$1: results.json"
import json, sys
r = json.load(open(sys.argv[1]))
st = [(p["name"], p["status"]) for p in r["phases"]]
assert [s for _, s in st] == ["ok"], st
assert r["phases"][0]["cluster"]["bytes_written"] > 0
PY
	[ "$(count_entries "$T/$1-target")" -eq 0 ] || fail "$1: run files left after SIG$2 in the cleanup"
	grep -qF "interrupted by SIG$2 after the last phase: the cleanup and the results were finished first (results in $T/$1-out); exit $3" "$T/out.log" ||
		fail "$1: no message that the signal came after the last phase"
	echo "ok: $1: SIG$2 during the cleanup: the phase kept, no run file left, exit $3"
}

# run_case NAME WHO SIG WANT
run_case() {
	local a
	for ((a = 1; a <= ATTEMPTS; a++)); do
		if signal_in_cleanup "$1" "$2" "$3"; then
			check "$1" "$3" "$4"
			return 0
		fi
		echo "$1: attempt $a missed the cleanup (it ended before rank 0 was stopped)"
	done
	fail "$1: the signal never landed in the cleanup in $ATTEMPTS attempts"
}

run_case term 0 TERM 143 # to rank 0, which is removing the files
run_case int 1 INT 130   # to rank 1, which waits for rank 0 meanwhile
echo PASS
