#!/usr/bin/env bash
# Progress that fits where the output goes, 2 ranks: with mpirun's stdout
# in a file (the ranks' stdout is still mpirun's pseudo-terminal) the file
# holds no carriage return, every phase row and (auto = lines) plain
# progress lines; --progress=none none of them; SSDCLUSTER_PROGRESS works
# and --progress overrides it; a bad word exits 2 naming the words; under
# a terminal (script from util-linux) auto and live rewrite one line in
# place and lines does not.  Plain lines come every 200 ms here
# (SSDCLUSTER_PROGRESS_INTERVAL_MS) instead of 10 s.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/run.yaml" <<YAML
targets: [{path: $T/target, capacity: 1GiB}]
defaults: {size: 8MiB, jobs: 1}
phases:
  - {name: seqwrite, rw: write, bs: 1MiB, iodepth: 4}
  - {name: randread, rw: randread, bs: 4KiB, iodepth: 8, runtime: 1500ms}
YAML
export SSDCLUSTER_PROGRESS_INTERVAL_MS=200
unset SSDCLUSTER_PROGRESS
CR=$'\r'
# a progress line as --progress=lines prints it: facts with their units
LINE_RE='^  running randread: [0-9.]+ s of 1\.5 s, [0-9]/2 ranks done, rank 0 at [0-9.]+ [kMG]?B/s, [0-9.]+ [kMG]?IOPS$'
n=0

# run NAME ARGS... : mpirun's stdout and stderr into $T/NAME.log; must exit 0
run() {
	local name=$1; shift
	n=$((n + 1))
	"$MPIEXEC" --oversubscribe -np 2 "$SC_BIN" "$T/run.yaml" --output "$T/out$n" "$@" \
		>"$T/$name.log" 2>&1 || { cat "$T/$name.log"; fail "$name: exited $?"; }
}
no_cr() { ! grep -q "$CR" "$T/$1.log" || { cat -A "$T/$1.log"; fail "$1: a carriage return"; }; }
rows() {
	for ph in seqwrite randread; do
		grep -Eq "^$ph +[0-9.]+ [kMG]?B/s +[0-9.]+ [kMG]?B/s" "$T/$1.log" ||
			{ cat "$T/$1.log"; fail "$1: no row for phase $ph"; }
	done
}
lines() { grep -Eq "$LINE_RE" "$T/$1.log" || { cat -A "$T/$1.log"; fail "$1: no progress line"; }; }
no_lines() { ! grep -q "running" "$T/$1.log" || { cat "$T/$1.log"; fail "$1: progress lines"; }; }

run auto
no_cr auto; rows auto; lines auto
run none --progress=none
no_cr none; rows none; no_lines none
SSDCLUSTER_PROGRESS=none run env_none
no_cr env_none; rows env_none; no_lines env_none
SSDCLUSTER_PROGRESS=none run env_over --progress=lines
no_cr env_over; rows env_over; lines env_over
run quiet --quiet
[ ! -s "$T/quiet.log" ] || { cat "$T/quiet.log"; fail "--quiet printed"; }

# bad words: exit 2 with the words that are taken, nothing run
set +e
"$MPIEXEC" --oversubscribe -np 2 "$SC_BIN" "$T/run.yaml" --progress=bogus >"$T/bogus.log" 2>&1
rc=$?
SSDCLUSTER_PROGRESS=bogus "$MPIEXEC" --oversubscribe -np 2 "$SC_BIN" "$T/run.yaml" \
	>"$T/env_bogus.log" 2>&1
rc_env=$?
set -e
[ "$rc" -eq 2 ] || { cat "$T/bogus.log"; fail "--progress=bogus exited $rc, not 2"; }
grep -q -- "--progress=bogus: expected auto, live, lines or none" "$T/bogus.log" ||
	{ cat "$T/bogus.log"; fail "--progress=bogus: no clear message"; }
[ "$rc_env" -eq 2 ] || { cat "$T/env_bogus.log"; fail "SSDCLUSTER_PROGRESS=bogus exited $rc_env"; }
grep -q "SSDCLUSTER_PROGRESS=bogus: expected auto, live, lines or none" "$T/env_bogus.log" ||
	{ cat "$T/env_bogus.log"; fail "SSDCLUSTER_PROGRESS=bogus: no clear message"; }

# under a terminal: the tty turns every "\n" into "\r\n"; a live line is
# a "\r" that does not end a line
command -v script >/dev/null || skip "no script (util-linux) for the terminal checks"
# tty NAME ARGS... : the run under script, its terminal's output in $T/NAME.log
tty() {
	local name=$1; shift
	n=$((n + 1))
	script -qec "$MPIEXEC --oversubscribe -np 2 $SC_BIN $T/run.yaml --output $T/out$n $*" \
		"$T/$name.log" >/dev/null </dev/null || { cat "$T/$name.log"; fail "$name: exited $?"; }
}
live() {
	grep -aq "${CR}  randread: " "$T/$1.log" ||
		{ cat -A "$T/$1.log"; fail "$1: no live line on a terminal"; }
}
no_live() {
	! sed 's/\r$//' "$T/$1.log" | grep -aq "$CR" ||
		{ cat -A "$T/$1.log"; fail "$1: a carriage return within a line"; }
}
tty tty_auto
live tty_auto
tty tty_live --progress=live
live tty_live
SSDCLUSTER_PROGRESS=lines tty tty_env_lines
no_live tty_env_lines
grep -Eq "$LINE_RE" <(sed 's/\r$//' "$T/tty_env_lines.log") ||
	{ cat -A "$T/tty_env_lines.log"; fail "tty_env_lines: no progress line"; }
echo "progress: all checks passed"
