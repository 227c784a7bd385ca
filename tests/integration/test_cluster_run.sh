#!/usr/bin/env bash
# mpirun -np 4 on a temp directory: exact byte totals, every results.json
# field, first- and last-done bandwidth, cleanup of the run files.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/run.yaml" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
defaults:
  direct: true
phases:
  - name: seqwrite
    rw: write
    bs: 1MiB
    iodepth: 4
    jobs: 2
    size: 8MiB
    io_size: 8MiB
    fsync: 4
  - name: randread
    rw: randread
    bs: 4KiB
    iodepth: 16
    jobs: 2
    size: 8MiB
    io_size: 2MiB
  - name: mix
    rw: randrw
    rwmixread: 70
    bs: 4KiB
    iodepth: 8
    jobs: 2
    size: 8MiB
    io_size: 1MiB
YAML

sc_mpirun 4 "$T/run.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
[ -s "$T/out/results.json" ] || fail "no results.json"
[ -s "$T/out/results.pb" ] || fail "no results.pb"
[ "$(count_entries "$T/target")" -eq 0 ] || { ls -laR "$T/target"; fail "run files left behind"; }

python3 - "$T/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
need(r["nranks"] == 4, "nranks == 4")
need(len(r["phases"]) == 3, "3 phases")
# bytes each rank is asked to move: jobs x io_size
planned = {"seqwrite": 2 * 8 << 20, "randread": 2 * 2 << 20, "mix": 2 * 1 << 20}
for ph in r["phases"]:
    c = ph["cluster"]
    want = 4 * planned[ph["name"]]
    need(c["total_bytes"] == want, f'{ph["name"]}: total {c["total_bytes"]} == {want}')
    need(c["planned_bytes"] == want, f'{ph["name"]}: planned {c["planned_bytes"]} == {want}')
    need(c["bytes_read"] + c["bytes_written"] == want, ph["name"] + ": read+write")
    need(len(ph["ranks"]) == 4, ph["name"] + ": 4 rank rows")
    need(sum(x["bytes_read"] + x["bytes_written"] for x in ph["ranks"]) == want,
         ph["name"] + ": ranks sum to the total")
    need(sorted(x["rank"] for x in ph["ranks"]) == [0, 1, 2, 3], "ranks 0..3")
    need(sum(n["bytes_read"] + n["bytes_written"] for n in ph["nodes"]) == want,
         ph["name"] + ": nodes sum to the total")
    for k in ("lastdone_bw_bytes_per_s", "firstdone_bw_bytes_per_s", "iops"):
        need(c[k] > 0, f'{ph["name"]}: {k} > 0')
    need(c["firstdone_ns"] <= c["lastdone_ns"], "first done before last done")
    need(c["firstdone_bytes"] <= want, "first-done bytes within the total")
    ts = ph["timeseries"]
    need(sum(ts["bytes_read"]) + sum(ts["bytes_written"]) == want,
         ph["name"] + ": per-second series sums to the total")
    for d in ("read", "write"):
        lat = c["latency_ns"][d]
        has = c["ios_" + ("read" if d == "read" else "written")] > 0
        if has:
            # a percentile p needs 1 / (1 - p) samples; with fewer it is
            # null, with what it would have rested on
            needs = {"p50": 2, "p90": 10, "p99": 100, "p99.9": 1000, "p99.99": 10**4,
                     "p99.999": 10**5, "p99.9999": 10**6}
            for p, n in needs.items():
                if lat["count"] >= n:
                    need(lat[p] > 0, f'{ph["name"]} {d} {p} > 0')
                else:
                    need(lat[p] is None and lat[p + "_basis"] == f'max of {lat["count"]} samples',
                         f'{ph["name"]} {d} {p} from {lat["count"]} samples: {lat[p]}')
            shown = [lat[p] for p in ("p50", "p99") if lat[p] is not None]
            need(all(lat["min"] <= a <= b <= lat["max"] for a, b in zip([lat["min"]] + shown, shown + [lat["max"]])),
                 "ordered percentiles")
    need("slowest_rank" in c and "start_skew_ns" in c, "slowest rank and skew")
seqw = r["phases"][0]["cluster"]
need(seqw["bytes_read"] == 0 and seqw["ios_written"] == 4 * 16, "seqwrite: 64 writes of 1 MiB")
need(seqw["fsyncs"] >= 4 * 2 * 2, "seqwrite: fsync every 4 writes")
mix = r["phases"][2]["cluster"]
share = mix["ios_read"] / (mix["ios_read"] + mix["ios_written"])
need(0.6 < share < 0.8, f"mix: read share {share:.3f} near 70%")
print("results.json: all checks passed")
PY
echo "PASS"
