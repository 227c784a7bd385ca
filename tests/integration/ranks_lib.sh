# ranks_lib.sh -- for the dead-rank and signal tests: start a run in the
# background, wait for its phases, find a rank's process.  Sourced after lib.sh.

# sc_mpirun_bg NP ARGS... : starts ssdcluster on NP ranks in the background;
# MPIRUN_PID is mpirun's pid, output goes to $T/out.log.
sc_mpirun_bg() {
	local np=$1; shift
	"$MPIEXEC" --oversubscribe -np "$np" "$SC_BIN" "$@" >"$T/out.log" 2>&1 &
	MPIRUN_PID=$!
}

# phases_in JSON : how many phases results.json holds (0 if none or unreadable)
phases_in() {
	python3 - "$1" <<'PY' 2>/dev/null || echo 0
import json, sys
print(len(json.load(open(sys.argv[1]))["phases"]))
PY
}

# wait_phases JSON N SECONDS : waits until results.json holds N phases
wait_phases() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		[ "$(phases_in "$1")" -ge "$2" ] && return 0
		kill -0 "$MPIRUN_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# rank_pid CONFIG R : the pid of rank R of the run of CONFIG (its command
# line names CONFIG; Open MPI puts the rank in its environment)
rank_pid() {
	local pid
	for pid in $(pgrep -f -- "$1"); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = ssdcluster ] || continue
		if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null |
			grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
			echo "$pid"
			return 0
		fi
	done
	return 1
}

# wait_exit PID SECONDS : waits for PID (a child of this shell) to end;
# sets RC to its exit status, or fails when it is still running
wait_exit() {
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		if ! kill -0 "$1" 2>/dev/null; then
			RC=0
			wait "$1" || RC=$?
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# now_ms : wall clock in milliseconds
now_ms() { date +%s%3N; }

# kill_leftovers CONFIG : resumes and kills every process of the run of CONFIG
kill_leftovers() {
	local pid
	for pid in $(pgrep -f -- "$1"); do
		kill -CONT "$pid" 2>/dev/null || true
		kill -KILL "$pid" 2>/dev/null || true
	done
}
