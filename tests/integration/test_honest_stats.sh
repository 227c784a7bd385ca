#!/usr/bin/env bash
# Honest statistics, 1 rank: a percentile is shown only where the samples
# support it (p needs 1 / (1 - p) of them: p99.99 10,000).  A phase of 756
# writes (3 MiB less 48 KiB of 4 KiB) shows p99 but not p99.9 or p99.99:
# null with "max of 756 samples" in results.json, "n/a" in the printed row
# with a note of the maximum, an empty cell in phases.csv; a phase of
# 10,240 writes shows p99.99 everywhere.  A phase under 2 s has no
# volatility (null), a single checkpoint no last/first (null, "n/a").
# `ssdcluster report results.pb` rebuilds the same.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/run.yaml" <<YAML
targets: [{path: $T/target, capacity: 1GiB}]
defaults: {jobs: 1, iodepth: 8, bs: 4KiB}
phases:
  - {name: few, rw: write, size: 3024KiB}
  - {name: many, rw: write, size: 40MiB}
  - name: ckpt
    workload: checkpoint
    model: llama3.1-405b
    tp: 1
    pp: 1
    zero: 1
    checkpoints: 1
    block_size: 256KiB
    iodepth: 4
    scale: 0.000002
YAML
sc_mpirun 1 "$T/run.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"

# the printed rows: few's p99.99 column n/a with the note, many's a duration
grep -Eq '^few .* n/a  rank 0' "$T/out.log" || fail "few: p99.99 column not n/a"
grep -Fq '  p99.99 n/a (needs 10000 samples): max of 756 samples ' "$T/out.log" ||
	fail "few: no note of the maximum of 756 samples"
grep -Eq '^many .* [0-9.]+ [num]?s  rank 0' "$T/out.log" || fail "many: p99.99 not a duration"
grep -Eq 'ckpt: 1 checkpoint\(s\) written: .*last/first n/a$' "$T/out.log" ||
	fail "ckpt: last/first of one checkpoint not n/a"

check() { # results.json and phases.csv of folder $1
	python3 - "$1/results.json" "$1/phases.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
rows = {row["phase"]: row for row in csv.DictReader(open(sys.argv[2]))}
bad = []
def need(c, m):
    if not c: bad.append(m)
ph = {p["name"]: p for p in r["phases"]}
few = ph["few"]["cluster"]["latency_ns"]["write"]
need(few["count"] == 756, f'few: {few["count"]} writes, want 756')
need(isinstance(few["p99"], int) and few["p99"] > 0 and "p99_basis" not in few, "few: p99 a number")
for p in ("p99.9", "p99.99", "p99.9999"):
    need(few[p] is None, f"few: {p} {few[p]}, want null")
    need(few.get(p + "_basis") == "max of 756 samples", f'few: {p}_basis {few.get(p + "_basis")}')
need(rows["few"]["write_p99.99_us"] == "", f'few: phases.csv p99.99 {rows["few"]["write_p99.99_us"]!r}')
need(rows["few"]["write_p99_us"] != "", "few: phases.csv p99 empty")
many = ph["many"]["cluster"]["latency_ns"]["write"]
need(many["count"] == 10240, f'many: {many["count"]} writes')
need(isinstance(many["p99.99"], int) and 0 < many["p99.99"] <= many["max"], f'many: p99.99 {many["p99.99"]}')
need("p99.99_basis" not in many and many["p99.999"] is None, "many: p99.99 supported, p99.999 not")
need(float(rows["many"]["write_p99.99_us"]) > 0, "many: phases.csv p99.99")
for name in ("few", "many"):
    c = ph[name]["cluster"]
    secs = len(ph[name]["timeseries"]["bytes_written"])
    if secs < 3:  # fewer than 2 complete seconds: no volatility
        need(c["volatility_write"] is None, f'{name}: {secs} s, volatility {c["volatility_write"]}')
    need(c["volatility_read"] is None, f'{name}: no reads, volatility_read {c["volatility_read"]}')
g = r["checkpoints"]
need(len(g) == 1 and g[0]["write"]["checkpoints"] == 1, "one checkpoint group of one")
need(g[0]["write"]["last_first_ratio"] is None, f'last/first {g[0]["write"]["last_first_ratio"]}')
if bad:
    print("FAIL:", *bad, sep="\n  ")
    sys.exit(1)
print("ok:", sys.argv[1])
PY
}
check "$T/out" || fail "results of the run"
"$SC_BIN" report "$T/out/results.pb" --output "$T/again" >"$T/again.log" 2>&1 ||
	{ cat "$T/again.log"; fail "report exited $?"; }
check "$T/again" || fail "results rebuilt by report"
grep -Fq '  p99.99 n/a (needs 10000 samples): max of 756 samples ' "$T/again.log" ||
	{ cat "$T/again.log"; fail "report: no note of the maximum"; }
echo PASS
