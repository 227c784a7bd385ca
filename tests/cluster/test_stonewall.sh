#!/usr/bin/env bash
# Stonewall across hosts: with `stonewall: first_done` every rank stops when
# the first rank has finished, so the cluster moves less than planned and
# reports the first-done figures; the same phase without it moves exactly
# the planned bytes.  Ranks on 2 cores with synchronous 4 KiB reads at QD1
# never all finish in the same millisecond.
set -euo pipefail
. "$(dirname "$0")/lib.sh" || exit 1

hosts_up 3
sc_hostfile "$T/hosts" 2 2 2
NP=6

# config FILE [STONEWALL_LINE]
config() {
	cat >"$1" <<YAML
targets:
  - path: $SC_CL_TARGET
    capacity: 1GiB
    keep: false
phases:
  - name: randread
    rw: randread
    engine: psync
    direct: true
    bs: 4KiB
    iodepth: 1
    jobs: 1
    size: 8MiB
    io_size: 64MiB
$2
YAML
}

# run NAME STONEWALL_LINE MODE : MODE "first_done" or "all_done"
run() {
	local name=$1 out=$T/out-$1
	config "$T/$name.yaml" "$2"
	echo "== $name"
	sc_cluster_mpirun "$T/hosts" "$NP" "$T/$name.yaml" --output "$out" >"$T/run.log" 2>&1 ||
		{ cat "$T/run.log"; fail "$name: run exited $? (want 0)"; }
	cat "$T/run.log"
	python3 - "$out/results.json" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mode = sys.argv[2]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
        print("FAIL:", what)

ph = r["phases"][0]
c, ranks = ph["cluster"], ph["ranks"]
planned = 6 * (64 << 20)
sw = r["plan"]["phases"][0].get("stonewall")
need(sw in (None, mode), f"plan echo: stonewall {sw!r}, want {mode!r}")
need(c["planned_bytes"] == planned, f'planned_bytes {c["planned_bytes"]} == {planned}')
need(c["bytes_written"] == 0, "read-only phase")
need(c["errors"] == 0, "no errors")
need(sum(x["bytes_read"] for x in ranks) == c["total_bytes"], "ranks sum to the total")
need(sum(n["total_bytes"] for n in ph["nodes"]) == c["total_bytes"], "nodes sum to the total")
need(all(x["bytes_read"] % 4096 == 0 for x in ranks), "whole 4 KiB reads")
need(c["firstdone_bytes"] > 0, f'firstdone_bytes {c["firstdone_bytes"]} > 0')
need(c["firstdone_bw_bytes_per_s"] > 0, f'firstdone_bw_bytes_per_s {c["firstdone_bw_bytes_per_s"]} > 0')
need(c["firstdone_bytes"] <= c["total_bytes"], "first-done bytes within the total")
need(c["firstdone_ns"] <= c["lastdone_ns"], "first done before last done")
per_rank = [x["bytes_read"] for x in ranks]
print(f'{mode}: total {c["total_bytes"]} of {planned} planned, first-done {c["firstdone_bytes"]}, '
      f'per rank {per_rank}')
if mode == "first_done":
    need(c["total_bytes"] < planned, f'stonewall: total {c["total_bytes"]} < planned {planned}')
    need(max(per_rank) == 64 << 20, "stonewall: the first rank to finish did all its work")
    need(min(per_rank) < 64 << 20, "stonewall: some rank was stopped early")
    # Every rank stops within a poll interval and a message of learning it.
    need(c["firstdone_bytes"] <= c["total_bytes"] <= planned, "first-done <= total <= planned")
else:
    need(c["total_bytes"] == planned, f'no stonewall: total {c["total_bytes"]} == planned {planned}')
    need(all(b == 64 << 20 for b in per_rank), "no stonewall: every rank did all its work")
if bad:
    sys.exit(1)
print("results.json: all checks passed")
PY
}

run stonewall "    stonewall: first_done" first_done
run all_done "" all_done
echo "PASS"
