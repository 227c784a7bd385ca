#!/usr/bin/env bash
# scale_hosts.sh -- start-up and merge costs over several hosts: N ranks on
# H network-namespace hosts made on this machine (tests/cluster/netns_lib.sh; root),
# a few short phases on the emulated engine, then from results.json:
# startup_ns (MPI start-up to the plan on every rank), each phase's
# start_cost_ns (clock offsets, one per node, and the start broadcast) and
# merge_ns, and rank 0's peak RSS.  A benchmark, not a test (issue 13):
# every rank shares this machine's CPUs, so the times are upper bounds of
# what the code costs, and what grows with nodes shows as H grows.
#
#   SC_BIN=build/ssdcluster bash bench/scale_hosts.sh [HOSTS RANKS_PER_HOST [ROUNDS]]...
#   (default: 4 hosts x 8, 8 x 8, 16 x 8 = 128 ranks; 1 round each)
set -euo pipefail
export SC_BIN=${SC_BIN:-$(cd "$(dirname "$0")/.." && pwd)/build/ssdcluster}
export SC_CL_MPIRUN_TIMEOUT=${SC_CL_MPIRUN_TIMEOUT:-600}
. "$(dirname "$0")/../tests/cluster/netns_lib.sh" || exit 1

[ $# -ge 2 ] || set -- 4 8 8 8 16 8

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
    runtime: 3s
    emulate: {bandwidth: 64MiB, latency: 100us}
  - name: write
    rw: write
    runtime: 3s
    emulate: {bandwidth: 64MiB, latency: 200us}
  - name: mixed
    rw: randrw
    bs: 64KiB
    runtime: 3s
    emulate: {bandwidth: 64MiB, latency: 50us}
YAML

printf '%-6s %-6s %-6s %12s %26s %26s %12s\n' hosts ranks/h ranks "startup ms" \
	"start cost ms (per phase)" "merge ms (per phase)" "rank0 MiB"
while [ $# -ge 2 ]; do
	h=$1 per=$2
	shift 2
	hosts_up "$h"
	slots=()
	for ((i = 0; i < h; i++)); do slots+=("$per"); done
	sc_hostfile "$T/hosts" "${slots[@]}"
	np=$((h * per))
	rm -rf "$T/out"
	if ! sc_cluster_mpirun "$T/hosts" "$np" "$T/run.yaml" --output "$T/out" --quiet \
		>"$T/run.log" 2>&1; then
		cat "$T/run.log"
		fail "$np ranks on $h hosts: the run failed"
	fi
	python3 - "$T/out/results.json" "$h" "$per" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ms = lambda ns: "n/a" if ns is None else "%.1f" % (ns / 1e6)
ph = r["phases"]
print("%-6s %-6s %-6s %12s %26s %26s %12.1f" % (
    sys.argv[2], sys.argv[3], r["nranks"], ms(r.get("startup_ns")),
    " ".join(ms(p.get("start_cost_ns")) for p in ph),
    " ".join(ms(p.get("merge_ns")) for p in ph),
    r["rank0_peak_rss_bytes"] / 2**20))
PY
	hosts_down
done
