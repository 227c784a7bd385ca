#!/usr/bin/env bash
# A rank that dies or hangs ends the run: kill -9 of one rank during phase 2
# of 3 makes mpirun exit non-zero well within the phase's deadline with
# phase 1 intact in results.json; kill -9 of rank 0 itself leaves
# results.json an index of phase 1 (its object in results.json.part) and
# results.pb, from which `ssdcluster report` makes results.json whole, with
# phase 1 intact; a rank stopped with SIGSTOP is caught by
# the phase's deadline (timeout:), named with its host and phase, the phase
# is kept as timed_out and the run exits 4.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ranks_lib.sh"

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
three_phases "$CFG" "$T/kill9-target" false middle "    runtime: 20s"
start_second_phase 3 "$CFG" "$T/kill9" middle
signal_rank "$CFG" 1 KILL 50 # within the phase's deadline
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

# --- kill -9 of rank 0 during phase 2 of 3: nothing writes the end
CFG=$T/kill0.yaml
three_phases "$CFG" "$T/kill0-target" false middle "    runtime: 20s"
start_second_phase 3 "$CFG" "$T/kill0" middle
signal_rank "$CFG" 0 KILL 50
[ "$RC" -ne 0 ] || fail "mpirun exited 0 after rank 0 died"
python3 - "$T/kill0/results.json" <<'PY' || fail "results.json: not the index of phase first"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["phases"] is None, "phases in the index"
assert r["phases_file"] == "results.json.part" and r["phases_omitted"] == 1, r
PY
[ -s "$T/kill0/results.json.part" ] || fail "no results.json.part beside the index"
"$SC_BIN" report "$T/kill0/results.pb" >"$T/report.log" 2>&1 || {
	cat "$T/report.log"
	fail "report of the results.pb rank 0 left"
}
check_first "$T/kill0/results.json"
[ ! -e "$T/kill0/results.json.part" ] || fail "results.json.part left after report made results.json whole"
kill_leftovers "$CFG"

# --- SIGSTOP of rank 1 in a phase with timeout: 18s (planned 15 s)
# The stop lands in phase middle as long as it comes within 15 s of rank 0
# running it (typically 0.3 s); the run ends at the timeout, 18 s after
# the phase's start, whatever the runtime (the 3 s past it are for the
# ranks that are not stopped to report done)
CFG=$T/stop.yaml
three_phases "$CFG" "$T/stop-target" false middle "    runtime: 15s
    timeout: 18s"
start_second_phase 3 "$CFG" "$T/stop" middle
signal_rank "$CFG" 1 STOP 120 # only a hang takes this long
[ "$RC" -eq 4 ] || fail "exit $RC after a rank hung, want 4"
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
# the killed processes gone (polled, up to 10 s) before their files are counted
for _ in $(seq 100); do pgrep -f -- "$CFG" >/dev/null || break; sleep 0.1; done
left=$(find "$T/stop-target" -mindepth 1 -maxdepth 1 -name 'ssdcluster-*' | wc -l)
[ "$left" -eq 0 ] || { ls -laR "$T/stop-target"; fail "run files left after the timeout"; }
echo PASS
