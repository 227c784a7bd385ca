#!/usr/bin/env bash
# SIGINT to mpirun or SIGTERM to one rank during a phase: every rank stops,
# finished phases are kept, the cut phase is written marked interrupted and
# the run's files are removed (kept with keep: true).
#
# Time bound: the issue asks that every rank stop within 2 s; checked here
# as "no rank process left" within 2 s plus SC_SLACK_MS (default 1500 ms)
# for a loaded 2-core machine.  mpirun itself may take longer, and that is
# Open MPI's teardown, not the ranks: signalled, Open MPI 4.1's mpirun
# sends the ranks SIGCONT, waits odls_base_sigkill_timeout (1 s) and only
# then sends SIGTERM (measured: the ranks are gone 1.1 s after SIGINT to
# mpirun, and mpirun with them).  When ranks end with a non-zero status
# (143 after SIGTERM to one rank), mpirun aborts the job the same way
# unless every rank has already gone: then it exits up to 2 s after the
# ranks (measured 0.15 s or 2.1 s, a race inside mpirun).  So mpirun's
# exit is checked against the ranks' end plus 2 s plus the slack.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ranks_lib.sh"

SLACK_MS=${SC_SLACK_MS:-1500}
BOUND_MS=$((2000 + SLACK_MS))       # signal to no rank left
OMPI_TEARDOWN_MS=2000               # mpirun after its ranks, at most
trap 'kill_leftovers "$T/"; rm -rf "$T"' EXIT

# check_results JSON : first intact, long interrupted, last never ran
check_results() {
	python3 - "$1" <<'PY' || fail "results.json"
import json, sys
r = json.load(open(sys.argv[1]))
names = [p["name"] for p in r["phases"]]
assert names == ["first", "long"], names
first, cut = r["phases"]
assert first["status"] == "ok", first["status"]
assert first["cluster"]["total_bytes"] == 3 << 20, first["cluster"]["total_bytes"]
assert cut["status"] == "interrupted", cut["status"]
print("long: interrupted after", cut["cluster"]["total_bytes"], "B")
PY
}

# run_and_signal NAME KEEP WHO SIG : starts a run, signals WHO (mpirun or a
# rank number) once phase long runs; sets ELAPSED (ms to mpirun's exit),
# GONE (ms until no rank process is left) and RC
run_and_signal() {
	CFG=$T/$1.yaml
	three_phases "$CFG" "$T/$1-target" "$2" long "    runtime: 60s"
	start_second_phase 3 "$CFG" "$T/$1" long
	local pid=$MPIRUN_PID
	if [ "$3" != mpirun ]; then
		pid=$(rank_pid "$CFG" "$3") || fail "no process for rank $3"
	fi
	local t0 i
	t0=$(now_ms)
	kill "-$4" "$pid"
	GONE=
	for ((i = 0; i < 600; i++)); do
		if [ -z "$GONE" ] && ! rank_pid "$CFG" 0 >/dev/null && ! rank_pid "$CFG" 1 >/dev/null &&
			! rank_pid "$CFG" 2 >/dev/null; then
			GONE=$(($(now_ms) - t0))
		fi
		kill -0 "$MPIRUN_PID" 2>/dev/null || break
		sleep 0.02
	done
	wait_exit "$MPIRUN_PID" 1 || { cat "$T/out.log"; fail "$1: mpirun still runs 12 s after SIG$4"; }
	ELAPSED=$(($(now_ms) - t0))
	: "${GONE:=$ELAPSED}"
	cat "$T/out.log"
	echo "$1: SIG$4 to $3: ranks gone after $GONE ms (bound $BOUND_MS ms), mpirun exited $RC after $ELAPSED ms"
	kill_leftovers "$CFG"
	[ "$GONE" -le "$BOUND_MS" ] || fail "$1: the ranks took $GONE ms to stop (bound $BOUND_MS ms)"
	[ "$ELAPSED" -le $((GONE + OMPI_TEARDOWN_MS + SLACK_MS)) ] ||
		fail "$1: mpirun took $ELAPSED ms to end, $((ELAPSED - GONE)) ms after its ranks"
}

run_files() { find "$1" -mindepth 1 -maxdepth 1 -name 'ssdcluster-*' | wc -l; }

# --- SIGINT to mpirun
run_and_signal int false mpirun INT
[ "$RC" -ne 0 ] || fail "mpirun exited 0 after SIGINT"
check_results "$T/int/results.json"
[ "$(run_files "$T/int-target")" -eq 0 ] || { ls -laR "$T/int-target"; fail "run files left after SIGINT"; }

# --- the same with keep: true: the run's files stay
run_and_signal keep true mpirun INT
check_results "$T/keep/results.json"
[ "$(run_files "$T/keep-target")" -eq 1 ] || fail "keep: true, but the run directory is gone"
[ "$(find "$T/keep-target" -name '*.dat' | wc -l)" -ge 3 ] || fail "keep: true, but run files are gone"

# --- SIGTERM to rank 2 alone: every rank stops
run_and_signal term false 2 TERM
[ "$RC" -eq 143 ] || fail "exit $RC after SIGTERM to a rank, want 143"
grep -q "interrupted" "$T/out.log" || fail "no word that the run was interrupted"
check_results "$T/term/results.json"
[ "$(run_files "$T/term-target")" -eq 0 ] || { ls -laR "$T/term-target"; fail "run files left after SIGTERM"; }
echo PASS
