#!/usr/bin/env bash
# steady_state on 2 ranks, engine emulated: a drive filling up (fill_slowdown)
# gives a falling series that is NOT steady in its 3 rounds; the same drives,
# full, write at a flat rate and the group stops once every drive is steady
# (or runs all 6 rounds and says so).  Checked against the record, not the
# clock: the rounds in results.json are those the verdict counts, each drive's
# verdict follows from its recorded figures by the SNIA PTS criteria, the
# printed line says the same, and `ssdcluster report` rebuilds it all.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/run.yaml" <<YAML
targets:
  - path: $T/target
defaults:
  engine: emulated
  rw: write
  bs: 1MiB
  iodepth: 4
  size: 64MiB
  emulate: {bandwidth: 64MiB, fill_slowdown: 8x, fill_capacity: 64MiB}
phases:
  - name: falling
    steady_state: {metric: bw, round: 1s, window: 3, max_rounds: 3}
  - name: settled
    steady_state: {metric: bw, round: 1s, window: 3, max_rounds: 6}
YAML

sc_mpirun 2 "$T/run.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
grep -q "^steady state: falling: NOT steady after 3 round(s) (bw, window 3 rounds" "$T/out.log" ||
	fail "no NOT steady line for falling"
grep -q "^  2 of 2 drive(s) not steady:" "$T/out.log" || fail "the unsteady drives are not listed"
grep -Eq "^steady state: settled: (steady at round [3-6] of at most 6|NOT steady after 6 round)" \
	"$T/out.log" || fail "no line for settled"

"$SC_BIN" report "$T/out/results.pb" --output "$T/again" >"$T/again.log" 2>&1 ||
	{ cat "$T/again.log"; fail "report exited $?"; }

python3 - "$T/out/results.json" "$T/again/results.json" "$T/out.log" "$T/again.log" <<'PY'
import json, re, sys

res = json.load(open(sys.argv[1]))
again = json.load(open(sys.argv[2]))
log, again_log = open(sys.argv[3]).read(), open(sys.argv[4]).read()

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def judge(v):
    """SNIA PTS over the window v: max-min <= 20% and |slope*(n-1)| <= 10% of the mean."""
    n, mean = len(v), sum(v) / len(v)
    xm = (n - 1) / 2
    slope = sum((i - xm) * (y - mean) for i, y in enumerate(v)) / sum((i - xm) ** 2 for i in range(n))
    return mean > 0 and (max(v) - min(v)) <= 0.2 * mean and abs(slope * (n - 1)) <= 0.1 * mean

groups = {g["group"]: g for g in res["steady_state"]}
if sorted(groups) != ["falling", "settled"]:
    fail("steady_state groups: %s" % sorted(groups))
if res["steady_state"] != again["steady_state"]:
    fail("report rebuilt a different steady_state")
for line in [l for l in log.splitlines()
             if re.match(r"(steady state: |  \d+ of \d+ drive|    rank )", l)]:
    if line not in again_log:
        fail("report does not print: %r" % line)

names = [p["name"] for p in res["phases"]]
for name, g in groups.items():
    rounds = [p for p in res["phases"] if p["name"].startswith(name + "[round=")]
    got = [int(re.search(r"round=(\d+)", p["name"]).group(1)) for p in rounds]
    if got != list(range(1, len(got) + 1)) or len(got) != g["rounds_run"]:
        fail("%s: rounds in results %s, rounds_run %d" % (name, got, g["rounds_run"]))
    w = g["window_rounds"]
    # every drive's verdict from its recorded per-round figures
    end = g["steady_round"] if g["steady"] else g["rounds_run"]
    for d in g["drives"]:
        series = [p["ranks"][d["rank"]]["bw_bytes_per_s"] for p in rounds]
        if any(abs(a - b) > 1e-6 * b for a, b in zip(series, d["rounds_bytes_per_s"])):
            fail("%s rank %d: series %s vs ranks %s" % (name, d["rank"], d["rounds_bytes_per_s"], series))
        want = end >= w and judge(series[end - w:end])
        if d["steady"] != want or d["flagged"] == want:
            fail("%s rank %d: steady %s, the criteria say %s (%s)" % (name, d["rank"], d["steady"], want, series))
    cl = [p["cluster"]["lastdone_bw_bytes_per_s"] for p in rounds]
    if g["cluster"]["steady"] != (end >= w and judge(cl[end - w:end])):
        fail("%s: cluster verdict %s vs %s" % (name, g["cluster"]["steady"], cl))
    if g["steady"]:
        # it stopped at the first round whose window was steady for every drive
        if g["rounds_run"] != g["steady_round"] or g["drives_not_steady"] != 0:
            fail("%s: steady at %s but %d rounds ran" % (name, g["steady_round"], g["rounds_run"]))
        for r in range(w, g["steady_round"]):
            if all(judge([p["ranks"][d["rank"]]["bw_bytes_per_s"] for p in rounds][r - w:r])
                   for d in g["drives"]):
                fail("%s: every drive was steady at round %d already" % (name, r))
        if "%s[round=%d]" % (name, g["steady_round"] + 1) in names:
            fail("%s: a round after the steady one ran" % name)
    elif g["rounds_run"] != g["max_rounds"]:
        fail("%s: not steady after %d of %d rounds" % (name, g["rounds_run"], g["max_rounds"]))

f = groups["falling"]
if f["steady"] or f["rounds_run"] != 3 or f["drives_not_steady"] != 2:
    fail("falling: %s" % json.dumps(f)[:400])
for d in f["drives"]:
    v = d["rounds_bytes_per_s"]
    if not (v[0] > v[-1] and d["window"]["range_pct"] > 20 and d["flagged"]):
        fail("falling rank %d: not a falling series %s" % (d["rank"], v))
print("steady_state: falling NOT steady (%s), settled %s after %d rounds" % (
    ", ".join("%.1f" % (x / 1e6) for x in f["cluster"]["rounds_bytes_per_s"]),
    "steady" if groups["settled"]["steady"] else "NOT steady", groups["settled"]["rounds_run"]))
PY
