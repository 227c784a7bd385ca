#!/usr/bin/env bash
# Three hosts (network namespaces) x 4 ranks, then an uneven 2+3+1 layout:
# node rows name schost1..3 with the right rank counts, every node's bytes are
# the sum of its ranks', the cluster total is exactly the planned total, clock
# offsets and start skew are reported, and keep: false leaves no files.
set -euo pipefail
. "$(dirname "$0")/netns_lib.sh" || exit 1

hosts_up 3

# The harness itself: one process per host, each sees its own hostname.
sc_hostfile "$T/hosts" 1 1 1
names=$(sc_cluster_mpirun_cmd "$T/hosts" 3 hostname | sort | tr '\n' ' ')
[ "$names" = "schost1 schost2 schost3 " ] || fail "mpirun hostname across the hosts printed: $names"
echo "hosts: $names"

# Every host sees its own directory at $SC_CL_TARGET.
sc_cl_two_phases "$T/run.yaml"

# check LAYOUT : LAYOUT is the slots per host, e.g. "4 4 4"
check() {
	local layout=$1 np=0 s out=$T/out-${1// /-}
	for s in $layout; do np=$((np + s)); done
	# shellcheck disable=SC2086 # one argument per host
	sc_hostfile "$T/hosts" $layout
	echo "== $np ranks on 3 hosts, slots $layout"
	sc_cluster_mpirun "$T/hosts" "$np" "$T/run.yaml" --output "$out" >"$T/run.log" 2>&1 ||
		{ cat "$T/run.log"; fail "run with slots $layout exited $?"; }
	cat "$T/run.log"
	[ -s "$out/results.json" ] || fail "no results.json"
	for h in schost1 schost2 schost3; do
		[ "$(count_entries "$SC_CL_NODES/$h")" -eq 0 ] ||
			{ find "$SC_CL_NODES"; fail "keep: false, but files are left on $h"; }
	done
	python3 - "$out/results.json" "$layout" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
slots = [int(s) for s in sys.argv[2].split()]
nranks = sum(slots)
hosts = ["schost%d" % (i + 1) for i in range(len(slots))]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
        print("FAIL:", what)

# Open MPI fills the hostfile's slots in order: ranks 0..s1-1 on schost1, ...
want_host = [h for h, s in zip(hosts, slots) for _ in range(s)]
planned = {"seqwrite": 2 * (2 << 20), "randread": 2 * (1 << 20)}   # jobs x io_size
need(r["nranks"] == nranks, f'nranks {r["nranks"]} == {nranks}')
need(r["nnodes"] == 3, f'nnodes {r["nnodes"]} == 3')
need(len(r["phases"]) == 2, "2 phases")
for ph in r["phases"]:
    name, c = ph["name"], ph["cluster"]
    want = nranks * planned[name]
    need(c["nranks"] == nranks and c["nnodes"] == 3, f"{name}: cluster nranks/nnodes")
    need(c["planned_bytes"] == want, f'{name}: planned_bytes {c["planned_bytes"]} == {want}')
    need(c["total_bytes"] == want, f'{name}: total_bytes {c["total_bytes"]} == {want}')
    need(c["bytes_read"] + c["bytes_written"] == want, f"{name}: read + written == total")
    need(c["errors"] == 0, f"{name}: no errors")
    need(isinstance(c.get("start_skew_ns"), int) and c["start_skew_ns"] >= 0,
         f'{name}: start_skew_ns present ({c.get("start_skew_ns")})')

    ranks = ph["ranks"]
    need(sorted(x["rank"] for x in ranks) == list(range(nranks)), f"{name}: one row per rank")
    for x in ranks:
        need(x["host"] == want_host[x["rank"]],
             f'{name}: rank {x["rank"]} on {x["host"]}, hostfile puts it on {want_host[x["rank"]]}')
        need(x["bytes_read"] + x["bytes_written"] == planned[name],
             f'{name}: rank {x["rank"]} moved {x["bytes_read"] + x["bytes_written"]}')
        need(x["planned_bytes"] == planned[name], f'{name}: rank {x["rank"]} planned_bytes')
        need(isinstance(x.get("clock_offset_ns"), int),
             f'{name}: rank {x["rank"]} clock_offset_ns present ({x.get("clock_offset_ns")})')
    need(next(x for x in ranks if x["rank"] == 0)["clock_offset_ns"] == 0,
         f"{name}: rank 0's clock offset is 0")

    nodes = ph["nodes"]
    need(len(nodes) == 3, f"{name}: 3 node rows, got {len(nodes)}")
    need(sorted(n["host"] for n in nodes) == hosts, f'{name}: node hosts {[n["host"] for n in nodes]}')
    for n in nodes:
        mine = [x for x in ranks if x["node"] == n["node"]]
        need(all(x["host"] == n["host"] for x in mine), f'{name}: ranks of node {n["node"]} on one host')
        need(n["nranks"] == slots[hosts.index(n["host"])] == len(mine),
             f'{name}: {n["host"]} has {n["nranks"]} ranks ({len(mine)} rows), hostfile gives '
             f'{slots[hosts.index(n["host"])]}')
        for k in ("bytes_read", "bytes_written", "ios_read", "ios_written"):
            need(n[k] == sum(x[k] for x in mine), f'{name}: {n["host"]} {k} {n[k]} == sum of its ranks')
        need(n["total_bytes"] == n["bytes_read"] + n["bytes_written"], f'{name}: {n["host"]} total')
        for d, k in (("read", "ios_read"), ("write", "ios_written")):
            need(n["latency_ns"][d]["count"] == sum(x[k] for x in mine),
                 f'{name}: {n["host"]} {d} latency merges its ranks\' I/Os')
        low = min(mine, key=lambda x: x["rank"])
        need(n["clock_offset_ns"] == low["clock_offset_ns"],
             f'{name}: {n["host"]} clock offset is its lowest rank\'s')
    need(sum(n["total_bytes"] for n in nodes) == want, f"{name}: nodes sum to the total")
    # per-target rows: one per (node, target) used, summing the node's ranks
    trows = ph["targets"]
    need(len(trows) == 3, f"{name}: 3 target rows (one target per node), got {len(trows)}")
    for t in trows:
        mine = [x for x in ranks if x["node"] == t["node"] and x["target"] == t["target"]]
        need(t["nranks"] == len(mine) and t["total_bytes"] == sum(
            x["bytes_read"] + x["bytes_written"] for x in mine),
             f'{name}: target row {t["host"]}/{t["target"]} sums its ranks')
        need(t["path"], f"{name}: target row names its path")
if bad:
    sys.exit(1)
print("results.json: all checks passed")
PY
}

check "4 4 4"
check "2 3 1"
echo "PASS"
