#!/usr/bin/env bash
# engine: emulated on 4 ranks: exact byte totals, no file written, a phase
# no faster than its bandwidth cap, the drive model echoed in results.json;
# a drive's fill carries from one phase to the next (a full drive writes at
# bandwidth / fill_slowdown), stalls delay I/Os; bad emulate: values exit 2.
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
  - name: fill
    rw: write
    bs: 1MiB
    jobs: 1
    size: 16MiB
    emulate: {bandwidth: 256MiB, speed_spread: 10%, fill_slowdown: 4x, fill_capacity: 16MiB}
  - name: full
    rw: write
    bs: 1MiB
    jobs: 1
    size: 16MiB
    emulate: {bandwidth: 256MiB, fill_slowdown: 4x, fill_capacity: 16MiB}
  - name: stalls
    rw: randread
    bs: 4KiB
    iodepth: 1
    jobs: 1
    size: 1MiB
    io_size: 32KiB
    emulate: {latency: 10us, stall_probability: 1, stall: 20ms}
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
planned = {"seqwrite": 2 * 16 << 20, "randread": 1 * 2 << 20, "fill": 16 << 20,
           "full": 16 << 20, "stalls": 32 << 10}
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
ph = {p["name"]: p for p in r["phases"]}
em = [p for p in r["plan"]["phases"] if p["name"] == "fill"][0]["emulate"]
need(em["speed_spread"] == 0.1 and em["fill_slowdown"] == 4 and
     em["fill_capacity"] == 16 << 20, f"fill's drive model echoed: {em}")
# a rank's drive fills across phases: seqwrite (32 MiB) and fill (16 MiB)
# left it beyond fill_capacity (16 MiB), so "full" writes at 256 MiB/s / 4
# at most, on every rank (with no fill carried it would start at 256 MiB/s)
slow = (256 << 20) / 4
for rk in ph["full"]["ranks"]:
    need(rk["bw_bytes_per_s"] <= slow * 1.01,
         f'rank {rk["rank"]}: a full drive wrote at {rk["bw_bytes_per_s"]:.0f} B/s, above {slow:.0f}')
# every read stalls 20 ms: 8 reads one at a time take at least 160 ms
for rk in ph["stalls"]["ranks"]:
    need(rk["end_ns"] - rk["start_ns"] >= 8 * 20_000_000,
         f'rank {rk["rank"]}: 8 stalled reads in {rk["end_ns"] - rk["start_ns"]} ns')
PY
[ $? -eq 0 ] || fail "results.json checks"

# Bad emulate: values: exit 2 with a message naming the key and the rule.
bad() { # bad 'EMULATE MAPPING' 'EXPECTED TEXT'
	cat >"$T/bad.yaml" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
phases:
  - name: w
    rw: write
    engine: emulated
    emulate: $1
YAML
	local rc=0
	"$SC_BIN" "$T/bad.yaml" --dry-run --output "$T/bad" >"$T/bad.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/bad.log"; fail "emulate: $1: exit $rc, want 2"; }
	grep -q -- "$2" "$T/bad.log" || { cat "$T/bad.log"; fail "emulate: $1: no '$2'"; }
}
bad '{bandwidth: 1GiB, speed_spread: 95%}' 'out of range (speed_spread is 0..90%'
bad '{bandwidth: 1GiB, speed_spread: fast}' 'is not a number'
bad '{speed_spread: 30%}' 'give bandwidth or latency too'
bad '{bandwidth: 1GiB, fill_slowdown: 2x}' 'fill_slowdown and fill_capacity go together'
bad '{bandwidth: 1GiB, fill_slowdown: 0.5x, fill_capacity: 1GiB}' 'out of range (fill_slowdown is 1x..'
bad '{latency: 1ms, stall: 50ms}' 'stall_probability and stall go together'
bad '{latency: 1ms, stall_probability: 2, stall: 50ms}' 'out of range'
bad '{latency: 1ms, stal: 50ms}' 'did you mean stall'
echo "PASS"
