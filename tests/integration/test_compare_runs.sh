#!/usr/bin/env bash
# ssdcluster compare knows what it compares (emulated drives; a psync run
# on small files under $T):
# - an emulated run against a psync run of 4 checkpoints instead of 3:
#   printed warnings name engine and checkpoints with both values, and so
#   do compare.json (settings_differences, overall and per phase) and
#   compare.html (a visible warning); --quiet still says it, on stderr;
# - two runs a side (`compare A1 A2 -- B1 B2`, B's drive 8x slower):
#   compare.json lists the runs, gives each side's mean and spread, and
#   Welch's 95% interval of B - A, which python computes here again from
#   the runs' own results.json (Student's t by Simpson's rule on its
#   density); "no difference" exactly where the interval holds 0;
# - runs of different settings on one side: exit 2 naming the setting and
#   the files; a side left empty around --: exit 2.
. "$(dirname "$0")/lib.sh"

# write_config FILE ENGINE BANDWIDTH CHECKPOINTS
write_config() {
	local emulate=""
	[ "$2" = emulated ] && emulate="emulate: {latency: 100us, bandwidth: $3}"
	cat >"$1" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
defaults:
  engine: $2
phases:
  - name: seqwrite
    rw: write
    bs: 1MiB
    iodepth: 4
    size: 8MiB
    $emulate
  - name: ckpt
    workload: checkpoint
    model: llama3.1-405b
    tp: 1
    pp: 1
    zero: 1
    checkpoints: $4
    compute_between: 10ms
    block_size: 256KiB
    iodepth: 4
    scale: 0.000002
    $emulate
YAML
}

mkdir -p "$T/target"
write_config "$T/a.yaml" emulated 64MiB 3
write_config "$T/b.yaml" emulated 8MiB 3
write_config "$T/c.yaml" psync 0 4
for run in a1:a a2:a b1:b b2:b c:c; do
	r=${run%:*}
	sc_mpirun 1 "$T/${run#*:}.yaml" --output "$T/$r" --quiet ||
		{ cat "$T/out.log"; fail "run $r failed"; }
done

# different settings: said, not refused
"$SC_BIN" compare "$T/a1/results.pb" "$T/c/results.pb" --output "$T/ac" >"$T/ac.txt" 2>&1 ||
	{ cat "$T/ac.txt"; fail "compare a1 c exited $?"; }
cat "$T/ac.txt"
grep -q "^warning: setting engine differs: A emulated, B psync" "$T/ac.txt" || fail "no engine warning"
grep -q "^warning: setting checkpoints differs: A 3, B 4 (3 pairs" "$T/ac.txt" ||
	fail "no checkpoints warning"
python3 - "$T/ac/compare.json" <<'PY' || fail "compare.json of a1 against c"
import json, sys
d = json.load(open(sys.argv[1]))
w = {x["setting"]: x for x in d["settings_differences"]}
assert w["engine"]["a"] == "emulated" and w["engine"]["b"] == "psync", w
assert w["checkpoints"]["a"] == "3" and w["checkpoints"]["b"] == "4" and w["checkpoints"]["pairs"] == 3, w
ph = {p["label"]: p for p in d["phases"]}
assert {"setting": "engine", "a": "emulated", "b": "psync"} in ph["seqwrite"]["settings_differences"], ph["seqwrite"]
assert not any(s["setting"] == "checkpoints" for s in ph["seqwrite"]["settings_differences"])
for p in d["phases"]:
    for f in p["figures"]:
        assert f["interval"] is None, (p["label"], f)
PY
grep -q "Warning: paired phases differ in their settings" "$T/ac/compare.html" ||
	fail "compare.html: no warning"
grep -q "setting engine differs: A emulated, B psync" "$T/ac/compare.html" || fail "compare.html: engine not named"
"$SC_BIN" compare "$T/a1/results.pb" "$T/c/results.pb" --output "$T/acq" --quiet \
	>"$T/acq.out" 2>"$T/acq.err" || fail "compare --quiet exited $?"
grep -q "^warning: setting engine differs" "$T/acq.err" || { cat "$T/acq.err"; fail "--quiet: no warning on stderr"; }

# two runs a side
"$SC_BIN" compare "$T/a1/results.pb" "$T/a2/results.pb" -- "$T/b1/results.pb" \
	"$T/b2/results.pb" --output "$T/ab" >"$T/ab.txt" 2>&1 ||
	{ cat "$T/ab.txt"; fail "compare a1 a2 -- b1 b2 exited $?"; }
cat "$T/ab.txt"
grep -q "95% interval" "$T/ab.txt" || fail "no interval column printed"
python3 - "$T" <<'PY' || fail "compare.json of two runs a side"
import json, math, sys
T = sys.argv[1]
d = json.load(open(f"{T}/ab/compare.json"))
assert [r["file"] for r in d["a_runs"]] == [f"{T}/a1/results.pb", f"{T}/a2/results.pb"], d["a_runs"]
assert len(d["b_runs"]) == 2 and d["settings_differences"] == [], d["settings_differences"]

def bw(run):  # the run's own figure, MB/s
    r = json.load(open(f"{T}/{run}/results.json"))
    p = [p for p in r["phases"] if p["name"] == "seqwrite"][0]
    return p["cluster"]["lastdone_bw_bytes_per_s"] / 1e6

def t975(df):  # Student's t quantile: its density integrated by Simpson's rule
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    pdf = lambda t: c * (1 + t * t / df) ** (-(df + 1) / 2)
    def mass(t, n=20000):
        h = t / n
        return h / 3 * (pdf(0) + pdf(t) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n)))
    lo, hi = 0.0, 1.0
    while mass(hi) < 0.475:
        hi *= 2
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mass(mid) < 0.475 else (lo, mid)
    return (lo + hi) / 2

xa, xb = [bw("a1"), bw("a2")], [bw("b1"), bw("b2")]
ma, mb = sum(xa) / 2, sum(xb) / 2
va = sum((x - ma) ** 2 for x in xa) / 1 / 2
vb = sum((x - mb) ** 2 for x in xb) / 1 / 2
se = math.sqrt(va + vb)
df = (va + vb) ** 2 / (va * va + vb * vb)
lo, hi = mb - ma - t975(df) * se, mb - ma + t975(df) * se
f = {x["figure"]: x for x in [p for p in d["phases"] if p["label"] == "seqwrite"][0]["figures"]}["bandwidth"]
assert abs(f["a"] - ma) < 1e-6 * ma and abs(f["b"] - mb) < 1e-6 * mb, (f, xa, xb)
assert f["a_runs"]["runs"] == 2 and abs(f["a_runs"]["min"] - min(xa)) < 1e-6 * ma, f["a_runs"]
assert abs(f["a_runs"]["sd"] - math.sqrt(2 * va)) < 1e-6 * ma + 1e-9, f["a_runs"]
ci = f["interval"]
assert ci is not None and ci["confidence_pct"] == 95, f
tol = 1e-4 * (hi - lo) + 1e-6
assert abs(ci["low"] - lo) < tol and abs(ci["high"] - hi) < tol, (ci, lo, hi, df)
assert abs(ci["low_pct"] - lo / ma * 100) < 1e-3, ci
# B's drive moves 8 MiB/s against A's 64: B's mean is the lower one however
# loaded the machine (a stall only lowers a run further); whether the
# interval excludes 0 depends on the runs' spread, checked with the rule below
assert f["b"] < f["a"] and f["verdict"] in ("worse", "no difference"), f
n = 0
for p in d["phases"]:
    for g in p["figures"]:
        c = g["interval"]
        if c is None:
            continue
        n += 1
        inside = c["low"] <= 0 <= c["high"]
        assert (g["verdict"] == "no difference") == inside, (p["label"], g)
assert n >= 8, n
PY

# runs of different settings on one side
set +e
"$SC_BIN" compare "$T/a1/results.pb" "$T/c/results.pb" -- "$T/b1/results.pb" \
	--output "$T/mixed" >"$T/mixed.txt" 2>&1
rc=$?
"$SC_BIN" compare "$T/a1/results.pb" -- >"$T/empty.txt" 2>&1
rc2=$?
set -e
[ "$rc" -eq 2 ] || { cat "$T/mixed.txt"; fail "mixed side exited $rc, want 2"; }
grep -q "setting engine of phase seqwrite is emulated in $T/a1/results.pb and psync in $T/c/results.pb" \
	"$T/mixed.txt" || { cat "$T/mixed.txt"; fail "the setting is not named"; }
[ ! -e "$T/mixed/compare.json" ] || fail "a compare.json was written for a mixed side"
[ "$rc2" -eq 2 ] || { cat "$T/empty.txt"; fail "empty side B exited $rc2, want 2"; }
echo "PASS"
