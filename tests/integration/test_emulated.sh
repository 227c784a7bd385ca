#!/usr/bin/env bash
# engine: emulated on 4 ranks: exact byte totals, no file written, a phase
# no faster than its bandwidth cap, the drive model echoed in results.json.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/run.yaml" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
defaults:
  engine: emulated
phases:
  - name: seqwrite
    rw: write
    bs: 1MiB
    iodepth: 4
    jobs: 2
    size: 16MiB
    io_size: 16MiB
    fsync: 4
    emulate: {latency: 100us, spread: 50us, bandwidth: 128MiB}
  - name: randread
    rw: randread
    bs: 4KiB
    iodepth: 16
    jobs: 1
    size: 8MiB
    io_size: 2MiB
    emulate: {latency: 50us, spread: 200us}
YAML

sc_mpirun 4 "$T/run.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
[ -s "$T/out/results.json" ] || fail "no results.json"
[ "$(count_entries "$T/target")" -eq 0 ] || { ls -laR "$T/target"; fail "files written"; }

python3 - "$T/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
need(r["nranks"] == 4, "nranks == 4")
planned = {"seqwrite": 2 * 16 << 20, "randread": 1 * 2 << 20}
for ph in r["phases"]:
    c = ph["cluster"]
    want = 4 * planned[ph["name"]]
    need(c["total_bytes"] == want, f'{ph["name"]}: total {c["total_bytes"]} == {want}')
    need(c["planned_bytes"] == want, f'{ph["name"]}: planned {c["planned_bytes"]} == {want}')
# 8 jobs (4 ranks x 2), each capped at 128 MiB/s: no faster than 1 GiB/s
sw = r["phases"][0]["cluster"]
cap = 8 * (128 << 20)
need(sw["firstdone_bw_bytes_per_s"] <= cap * 1.01,
     f'seqwrite {sw["firstdone_bw_bytes_per_s"]:.0f} B/s above the cap {cap}')
text = json.dumps(r)
need('"emulate"' in text and '"bandwidth": 134217728' in text, "emulate echoed in the plan")
PY
[ $? -eq 0 ] || fail "results.json checks"
echo "PASS"
