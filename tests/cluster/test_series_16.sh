#!/usr/bin/env bash
# Issue 13 at 16 ranks over 4 hosts (network namespaces, 4 ranks each): the
# per-second series reduced in the cluster give the same cluster and node
# figures as the ranks' own series summed at rank 0 (the computation before
# the change).  A read, a write and a mixed phase on emulated drives (no
# files; bandwidth-capped so each lasts about 3 s, drives of unlike speed so
# ranks end at different times), then tests/cluster/series_check on
# results.pb: the cluster's and every node's series are the sums of their
# ranks' seconds, and every figure (totals, rates, node rows, the seconds,
# volatility, per-node and cluster rates over time) is the same both ways.
# results.json: 4 nodes of 4 ranks, node rows summing to the cluster.
#
# Before the cluster reduces the series (records without them) series_check
# finds no phase to check, and this test fails: "no phase checked".
set -euo pipefail
# 16 ranks oversubscribed on this machine start slowly: a longer bound.
export SC_CL_MPIRUN_TIMEOUT=${SC_CL_MPIRUN_TIMEOUT:-150}
. "$(dirname "$0")/netns_lib.sh" || exit 1

CHECKER=${SC_SERIES_CHECK:-$(dirname "$SC_BIN")/series_check}
[ -x "$CHECKER" ] || fail "series_check not found at $CHECKER (set SC_SERIES_CHECK)"

hosts_up 4
sc_hostfile "$T/hosts" 4 4 4 4
NP=16

# 1 MiB I/Os at 16 MiB/s a drive (+-30%): 48 MiB take 2.3-4.3 s.
cat >"$T/run.yaml" <<YAML
targets:
  - path: $SC_CL_TARGET
    capacity: 1GiB
    keep: false
defaults:
  engine: emulated
  bs: 1MiB
  iodepth: 2
  jobs: 1
  size: 64MiB
phases:
  - name: read
    rw: read
    io_size: 48MiB
    emulate: {bandwidth: 16MiB, latency: 100us, speed_spread: 30%}
  - name: write
    rw: write
    runtime: 3s
    emulate: {bandwidth: 16MiB, latency: 200us, spread: 100us}
  - name: mixed
    rw: randrw
    rwmixread: 60
    bs: 256KiB
    io_size: 40MiB
    emulate: {bandwidth: 12MiB, latency: 50us, speed_spread: 40%}
YAML

echo "== $NP ranks on 4 hosts"
sc_cluster_mpirun "$T/hosts" "$NP" "$T/run.yaml" --output "$T/out" >"$T/run.log" 2>&1 ||
	{ cat "$T/run.log"; fail "run exited $? (want 0)"; }
cat "$T/run.log"
[ -s "$T/out/results.json" ] || fail "no results.json"
[ -s "$T/out/results.pb" ] || fail "no results.pb"

python3 - "$T/out/results.json" "$T/out/timeseries.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
        print("FAIL:", what)

need(r["nranks"] == 16, f'nranks {r["nranks"]} == 16')
need(r["nnodes"] == 4, f'nnodes {r["nnodes"]} == 4')
need([p["name"] for p in r["phases"]] == ["read", "write", "mixed"], "3 phases")
seconds = {}
for row in csv.DictReader(open(sys.argv[2])):
    seconds[row["phase"]] = seconds.get(row["phase"], 0) + 1
for ph in r["phases"]:
    name, c, nodes = ph["name"], ph["cluster"], ph["nodes"]
    need(c["nnodes"] == 4 and c["nranks"] == 16, f"{name}: cluster of 16 ranks on 4 nodes")
    need(c["total_bytes"] > 0 and c["errors"] == 0, f"{name}: bytes moved, no errors")
    need(len(nodes) == 4 and all(n["nranks"] == 4 for n in nodes),
         f'{name}: 4 node rows of 4 ranks ({[n["nranks"] for n in nodes]})')
    for k in ("total_bytes", "bytes_read", "bytes_written", "ios_read", "ios_written"):
        need(sum(n[k] for n in nodes) == c[k],
             f'{name}: node rows\' {k} sum to {sum(n[k] for n in nodes)}, cluster {c[k]}')
    need(seconds.get(name, 0) >= 3, f"{name}: {seconds.get(name, 0)} seconds in the series, want >= 3")
    print(f'{name}: {c["total_bytes"]} bytes, {seconds.get(name, 0)} s, '
          f'nodes {[n["total_bytes"] for n in nodes]}')
need(seconds.get("read", 0) and seconds.get("write", 0) and seconds.get("mixed", 0), "every phase has seconds")
if bad:
    sys.exit(1)
print("results.json: all checks passed")
PY

echo "== series_check"
rc=0
"$CHECKER" "$T/out/results.pb" >"$T/check.log" 2>&1 || rc=$?
cat "$T/check.log"
case $rc in
0) ;;
1) if grep -q "no phase checked" "$T/check.log"; then
	fail "no phase holds reduced series: the cluster does not reduce them yet (issue 13)"
   fi
   fail "the reduced series or their figures differ (above)" ;;
*) fail "series_check could not read results.pb (exit $rc)" ;;
esac
echo "PASS"
