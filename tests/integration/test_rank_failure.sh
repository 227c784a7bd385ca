#!/usr/bin/env bash
# A rank that dies or hangs ends the run: kill -9 of one rank during phase 2
# of 3 makes mpirun exit non-zero well within the phase's deadline with
# phase 1 intact in results.json; a rank stopped with SIGSTOP is caught by
# the phase's deadline (timeout:), named with its host and phase, the phase
# is kept as timed_out and the run exits 3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ranks_lib.sh"

mkdir -p "$T/target"
# Open loop at a low rate: the long phase keeps the 2 cores mostly idle.
# $2: the middle phase's extra keys
write_config() {
	cat >"$1" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
defaults:
  direct: false
  engine: psync
phases:
  - name: first
    rw: write
    bs: 64KiB
    size: 1MiB
  - name: middle
    rw: write
    bs: 4KiB
    size: 4MiB
    rate: 100/s
$2
  - name: last
    rw: write
    bs: 64KiB
    size: 1MiB
YAML
}
CFG=
trap 'kill_leftovers "$T/"; rm -rf "$T"' EXIT

# check_first JSON : phase "first" is complete and exact
check_first() {
	python3 - "$1" <<'PY' || fail "results.json: phase first is not intact"
import json, sys
r = json.load(open(sys.argv[1]))
first = r["phases"][0]
assert first["name"] == "first", first["name"]
assert first.get("status") == "ok", first.get("status")
assert first["cluster"]["total_bytes"] == 3 << 20, first["cluster"]["total_bytes"]
assert first["cluster"]["errors"] == 0
PY
}

# --- kill -9 of rank 1 during phase 2 of 3 (deadline: 20 s + 30 s grace)
CFG=$T/kill9.yaml
write_config "$CFG" "    runtime: 20s"
sc_mpirun_bg 3 "$CFG" --output "$T/kill9"
wait_phases "$T/kill9/results.json" 1 120 || { cat "$T/out.log"; fail "phase first never finished"; }
sleep 1
pid=$(rank_pid "$CFG" 1) || fail "no process for rank 1"
t0=$(now_ms)
kill -KILL "$pid"
wait_exit "$MPIRUN_PID" 50 || { cat "$T/out.log"; fail "mpirun still running 50 s after kill -9 of rank 1 (the phase's deadline)"; }
elapsed=$(($(now_ms) - t0))
cat "$T/out.log"
echo "kill -9 of rank 1: mpirun exited $RC after $elapsed ms"
[ "$RC" -ne 0 ] || fail "mpirun exited 0 after a rank died"
check_first "$T/kill9/results.json"
python3 - "$T/kill9/results.json" <<'PY' || fail "results.json: the cut phase is not marked"
import json, sys
r = json.load(open(sys.argv[1]))
names = [p["name"] for p in r["phases"]]
assert "last" not in names, names
for p in r["phases"][1:]:
    assert p["status"] != "ok", p["status"]
print("phases kept:", [(p["name"], p["status"]) for p in r["phases"]])
PY
kill_leftovers "$CFG"

# --- SIGSTOP of rank 1 in a phase with timeout: 6s (planned 4 s)
CFG=$T/stop.yaml
write_config "$CFG" "    runtime: 4s
    timeout: 6s"
sc_mpirun_bg 3 "$CFG" --output "$T/stop"
wait_phases "$T/stop/results.json" 1 120 || { cat "$T/out.log"; fail "phase first never finished"; }
sleep 1
pid=$(rank_pid "$CFG" 1) || fail "no process for rank 1"
t0=$(now_ms)
kill -STOP "$pid"
# 6 s after the phase's start, or the setup deadline (90 s) if the stop
# landed before the phase started: generous for a loaded machine
wait_exit "$MPIRUN_PID" 120 || { cat "$T/out.log"; fail "a stopped rank hangs the run"; }
elapsed=$(($(now_ms) - t0))
cat "$T/out.log"
echo "SIGSTOP of rank 1: mpirun exited $RC after $elapsed ms"
[ "$RC" -eq 3 ] || fail "exit $RC after a rank hung, want 3"
grep -q "phase middle: rank 1 (host $(hostname))" "$T/out.log" ||
	fail "the message does not name the rank, its host and the phase"
grep -q "deadline" "$T/out.log" || fail "the message does not say the deadline passed"
check_first "$T/stop/results.json"
python3 - "$T/stop/results.json" <<'PY' || fail "results.json: the phase is not marked timed_out"
import json, sys
r = json.load(open(sys.argv[1]))
names = [p["name"] for p in r["phases"]]
assert names == ["first", "middle"], names
mid = r["phases"][1]
assert mid["status"] == "timed_out", mid["status"]
assert any("rank 1" in e and "deadline" in e for e in mid["errors"]), mid["errors"]
PY
kill_leftovers "$CFG"
sleep 0.5
left=$(find "$T/target" -mindepth 1 -maxdepth 1 -name 'ssdcluster-*' | wc -l)
[ "$left" -eq 0 ] || { ls -laR "$T/target"; fail "run files left after the timeout"; }
echo PASS
