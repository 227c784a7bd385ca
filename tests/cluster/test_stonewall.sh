#!/usr/bin/env bash
# Stonewall across hosts.  schost1's ranks read at full speed; those of
# schost2 and schost3 use a target throttled to 1 MB/s a rank, so they
# cannot finish their 8 MiB in less than 8 s, while a fast rank's 2,048
# reads take well under a second (12 kIOPS a rank here).
# - `stonewall: first_done`: every rank stops when the first has finished,
#   so a throttled rank moves less than planned (and the other fast rank
#   may be stopped a few reads short).
# - without it: every rank moves exactly the planned bytes.
# In both, a throttled rank's first-done bytes are what it had moved at the
# instant the first rank finished (read off its samples, however late it
# heard): within what the throttle allows by then.  (The throttle is a
# ceiling, not a floor: a stalled rank may be below it.  test_byte_samples
# pins the reading off the samples exactly.)
set -euo pipefail
. "$(dirname "$0")/netns_lib.sh" || exit 1

hosts_up 3
sc_hostfile "$T/hosts" 2 2 2
NP=6
THROTTLE=1000000 # bytes per second, each rank of schost2 and schost3
for h in schost1 schost2 schost3; do mkdir -p "$SC_CL_NODES/$h/fast" "$SC_CL_NODES/$h/slow"; done

# config FILE [STONEWALL_LINE]
config() {
	cat >"$1" <<YAML
targets:
  - path: $SC_CL_TARGET/fast
    hosts: "schost1"
    capacity: 1GiB
    keep: false
  - path: $SC_CL_TARGET/slow
    hosts: "schost[2-3]"
    capacity: 1GiB
    throttle: ${THROTTLE}B/s
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
    io_size: 8MiB
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
	python3 - "$out/results.json" "$3" "$THROTTLE" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mode, throttle = sys.argv[2], int(sys.argv[3])
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
        print("FAIL:", what)

ph = r["phases"][0]
c, ranks = ph["cluster"], ph["ranks"]
each = 8 << 20
planned = 6 * each
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
need(sum(x["firstdone_bytes"] for x in ranks) == c["firstdone_bytes"], "ranks' first-done bytes sum to the cluster's")

fast = [x for x in ranks if x["host"] == "schost1"]
slow = [x for x in ranks if x["host"] != "schost1"]
need(len(fast) == 2 and len(slow) == 4, f"2 fast and 4 throttled ranks: {len(fast)}, {len(slow)}")
# first done: the end of a rank that did all its work, the first whose
# "done" rank 0 had (one that finished within a message's time before it
# may not be); a throttled rank stopped by it may have ended before it (its
# last read came before the signal)
first = c["firstdone_ns"]
done = [x for x in ranks if x["bytes_read"] == each]
firsts = [x for x in done if x["end_ns"] == first]
need(len(firsts) >= 1, f'first done {first} is the end of a rank that did all its work '
     f'(their ends: {[x["end_ns"] for x in done]})')
first_rank = firsts[0] if firsts else {"rank": None, "host": None}
need(first_rank["host"] == "schost1", f'a fast rank finished first: rank {first_rank["rank"]} on {first_rank["host"]}')
for x in done:
    if x["end_ns"] <= first:
        need(x["firstdone_bytes"] == each,
             f'rank {x["rank"]}, done by the first-done instant: first-done bytes {x["firstdone_bytes"]} are all its work')
for x in slow:
    # the throttle serves a rank's reads at THROTTLE bytes a second, one
    # after another from its start: no more can be done by then (the 4 KiB
    # is slack)
    secs = (first - x["start_ns"]) / 1e9
    most = throttle * secs + 4096
    fd = x["firstdone_bytes"]
    print(f'rank {x["rank"]} ({x["host"]}): {secs:.3f} s to first done, first-done bytes {fd}, '
          f'throttle allows {most:.0f}, moved {x["bytes_read"]}')
    # rank 0 puts both instants on its clock with each host's offset
    # estimate: 10 ms for their errors
    need(fd <= most + throttle * 0.010,
         f'rank {x["rank"]}: first-done bytes {fd} <= throttle x time {most:.0f} (+10 ms for clocks)')
    need(fd <= x["bytes_read"], f'rank {x["rank"]}: first-done bytes {fd} within its bytes {x["bytes_read"]}')
per_rank = [x["bytes_read"] for x in ranks]
print(f'{mode}: total {c["total_bytes"]} of {planned} planned, first-done {c["firstdone_bytes"]}, '
      f'per rank {per_rank}')
if mode == "first_done":
    need(c["total_bytes"] < planned, f'stonewall: total {c["total_bytes"]} < planned {planned}')
    need(all(x["bytes_read"] < each for x in slow), "stonewall: every throttled rank was stopped early")
else:
    need(c["total_bytes"] == planned, f'no stonewall: total {c["total_bytes"]} == planned {planned}')
    need(all(b == each for b in per_rank), "no stonewall: every rank did all its work")
if bad:
    sys.exit(1)
print("results.json: all checks passed")
PY
}

run stonewall "    stonewall: first_done" first_done
run all_done "" all_done
echo "PASS"
