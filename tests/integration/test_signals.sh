#!/usr/bin/env bash
# SIGINT to mpirun or SIGTERM to one rank during a phase: every rank stops,
# finished phases are kept, the cut phase is written marked interrupted and
# the run's files are removed (kept with keep: true).
#
# No time bound short of a hang: how fast the ranks go is the machine's
# and Open MPI's (measured on 2 cores: every rank gone 0.25 s after
# SIGTERM to a rank, 1.1 s after SIGINT to mpirun, which waits
# odls_base_sigkill_timeout (1 s) before it passes SIGTERM on; mpirun
# itself may linger up to 2 s after ranks that ended non-zero), and a
# loaded CI machine stretches any of it.  The phase cut is planned for
# 60 s, so "no rank process left" within 30 s of the signal means the
# ranks stopped instead of running the phase out; mpirun gets 30 s more
# to end.  The times measured are printed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ranks_lib.sh"

RUNTIME_S=60                 # phase long as planned
BOUND_MS=30000               # signal to no rank left: half the phase
OMPI_TEARDOWN_MS=30000       # mpirun after its ranks: only a hang takes longer
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
	three_phases "$CFG" "$T/$1-target" "$2" long "    runtime: ${RUNTIME_S}s"
	start_second_phase 3 "$CFG" "$T/$1" long
	local pid=$MPIRUN_PID
	if [ "$3" != mpirun ]; then
		pid=$(rank_pid "$CFG" "$3") || fail "no process for rank $3"
	fi
	local t0 now r
	t0=$(now_ms)
	kill "-$4" "$pid"
	GONE=
	while kill -0 "$MPIRUN_PID" 2>/dev/null; do
		now=$(now_ms)
		if [ -z "$GONE" ] && ! rank_pid "$CFG" 0 >/dev/null && ! rank_pid "$CFG" 1 >/dev/null &&
			! rank_pid "$CFG" 2 >/dev/null; then
			GONE=$((now - t0))
		fi
		[ $((now - t0)) -le $((BOUND_MS + OMPI_TEARDOWN_MS)) ] || break
		sleep 0.05
	done
	wait_exit "$MPIRUN_PID" 1 || {
		cat "$T/out.log"
		fail "$1: mpirun still runs $(((BOUND_MS + OMPI_TEARDOWN_MS) / 1000)) s after SIG$4"
	}
	ELAPSED=$(($(now_ms) - t0))
	if [ -z "$GONE" ]; then
		# mpirun ended before the loop saw the ranks go: none may be left
		for r in 0 1 2; do
			! rank_pid "$CFG" "$r" >/dev/null || { cat "$T/out.log"; fail "$1: rank $r outlived mpirun"; }
		done
		GONE=$ELAPSED
	fi
	cat "$T/out.log"
	echo "$1: SIG$4 to $3: ranks gone after $GONE ms (bound $BOUND_MS ms), mpirun exited $RC after $ELAPSED ms"
	kill_leftovers "$CFG"
	[ "$GONE" -le "$BOUND_MS" ] || fail "$1: the ranks took $GONE ms to stop (bound $BOUND_MS ms)"
	[ "$ELAPSED" -le $((GONE + OMPI_TEARDOWN_MS)) ] ||
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
