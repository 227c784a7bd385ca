# ranks_lib.sh -- for the dead-rank and signal tests: a three-phase config,
# start a run in the background, wait until it runs a phase, find a rank's
# process.
# Sourced after lib.sh (or tests/cluster/netns_lib.sh, for three_phases and
# rank_pid).

# sc_mpirun_bg NP ARGS... : starts ssdcluster on NP ranks in the background;
# MPIRUN_PID is mpirun's pid, output goes to $T/out.log.
sc_mpirun_bg() {
	local np=$1; shift
	# emptied here, not by the background job's redirection: a poll of the
	# log right after this must not find the previous run's lines (on a
	# busy machine the job may not have started yet)
	: >"$T/out.log"
	"$MPIEXEC" --oversubscribe -np "$np" "$SC_BIN" "$@" >>"$T/out.log" 2>&1 &
	MPIRUN_PID=$!
}

# three_phases FILE TARGET KEEP NAME KEYS : a config of three phases on
# TARGET: "first" (1 MiB written per rank), NAME (writes in the open loop at
# 100 I/Os per second per rank, so the 2 cores stay mostly idle; KEYS: more
# YAML lines for it) and "last"
three_phases() {
	mkdir -p "$2"
	cat >"$1" <<YAML
targets:
  - path: $2
    capacity: 1GiB
    keep: $3
defaults:
  direct: false
  engine: psync
phases:
  - name: first
    rw: write
    bs: 64KiB
    size: 1MiB
  - name: $4
    rw: write
    bs: 4KiB
    size: 4MiB
    rate: 100/s
$5
  - name: last
    rw: write
    bs: 64KiB
    size: 1MiB
YAML
}

# Rank 0 prints a progress line every 200 ms while a phase runs (with
# --progress=lines), so a test knows when the ranks are in a phase.
export SSDCLUSTER_PROGRESS_INTERVAL_MS=200

# start_second_phase NP CONFIG OUT NAME : starts the run in the background
# and returns once rank 0 runs phase NAME, the second (fails when it never
# does).  Every rank is then past preparing the phase (rank 0 runs it only
# after the start that every rank joins).
start_second_phase() {
	sc_mpirun_bg "$1" "$2" --output "$3" --progress=lines
	wait_running "$T/out.log" "$4" 120 || { cat "$T/out.log"; fail "phase $4 never ran"; }
}

# wait_running LOG NAME SECONDS : waits until LOG holds a progress line of
# phase NAME (rank 0 is running it)
wait_running() {
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -q "^  running $2: " "$1" 2>/dev/null && return 0
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
		# one grep, no pipe: under pipefail, a grep -q that stops at
		# the match fails the pipe when the writer gets SIGPIPE
		if grep -qxz -- "OMPI_COMM_WORLD_RANK=$2" "/proc/$pid/environ" 2>/dev/null; then
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

# signal_rank CONFIG R SIG SECONDS : sends SIG to rank R of the run, waits
# up to SECONDS for mpirun to end (fails if it does not), prints the run's
# output; sets RC and ELAPSED (ms from the signal to mpirun's end)
signal_rank() {
	local pid t0
	pid=$(rank_pid "$1" "$2") || fail "no process for rank $2"
	t0=$(now_ms)
	kill "-$3" "$pid"
	wait_exit "$MPIRUN_PID" "$4" || { cat "$T/out.log"; fail "mpirun still runs $4 s after SIG$3 to rank $2"; }
	ELAPSED=$(($(now_ms) - t0))
	cat "$T/out.log"
	echo "SIG$3 to rank $2: mpirun exited $RC after $ELAPSED ms"
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
