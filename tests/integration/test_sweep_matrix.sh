#!/usr/bin/env bash
# Sweep matrices end to end: configs/gdsio_sweep.yaml shrunk with the --set
# overrides its comment shows (write and read x bs 1MiB, 16KiB x iodepth
# 1, 8: 8 cells of 1 s) on 2 ranks and a temp dir.  results.json has one
# sweep with its axes in config order and every cell in expansion order,
# each the same figures as its phase's cluster row; sweep.csv has a
# cluster row and a node row for every cell, in that order, with the
# same MB/s; the printed grids show every cell; `ssdcluster report
# results.pb` rebuilds sweep.csv and the sweeps byte for byte.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
export SSDCLUSTER_TARGET="$T/target" SSDCLUSTER_CAPACITY=1GiB
sc_mpirun 2 "$SC_SOURCE_DIR/configs/gdsio_sweep.yaml" --output "$T/out" \
	--set runtime=1s --set ramp=0s --set size=16MiB --set 'bs=[1MiB, 16KiB]' \
	--set 'iodepth=[1, 8]' --set direct=false ||
	{ cat "$T/out.log"; fail "the shrunk gdsio sweep failed"; }

python3 - "$T/out/results.json" "$T/out/sweep.csv" <<'PY' || { cat "$T/out.log"; fail "matrix"; }
import csv, json, sys
d = json.load(open(sys.argv[1]))
sweeps = d["sweeps"]
assert len(sweeps) == 1 and sweeps[0]["name"] == "gdsio", [s["name"] for s in sweeps]
sw = sweeps[0]["sweep"]
axes = sw["axes"]
assert list(axes) == ["rw", "bs_bytes", "iodepth"], axes
assert axes == {"rw": ["write", "read"], "bs_bytes": [1048576, 16384], "iodepth": [1, 8]}, axes
cells = sw["cells"]
want = [(r, b, q) for r in axes["rw"] for b in axes["bs_bytes"] for q in axes["iodepth"]]
assert [(c["rw"], c["bs_bytes"], c["iodepth"]) for c in cells] == want, cells
phases = d["phases"]
assert len(phases) == len(cells) == 8, (len(phases), len(cells))
for i, (c, p) in enumerate(zip(cells, phases)):
    assert c["cell"] == i and c["phase"] == p["name"] and c["measured"], c
    assert c["cluster"]["bw_MBps"] > 0 and c["cluster"]["bw_MBps"] == p["cluster"]["lastdone_bw_MBps"], (c, p["cluster"])
    assert c["cluster"]["iops"] == p["cluster"]["iops"], (c, p["cluster"])
    d_ = "read" if c["rw"] == "read" else "write"
    assert c["cluster"]["latency_ns"][d_]["p99.99"] == p["cluster"]["latency_ns"][d_]["p99.99"]
    assert len(c["nodes"]) == 1 and c["nodes"][0]["host"] == p["nodes"][0]["host"], c["nodes"]
    assert c["nodes"][0]["bw_MBps"] == p["nodes"][0]["bw_MBps"], (c["nodes"], p["nodes"])
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 2 * len(cells), len(rows)
for i, c in enumerate(cells):
    cl, nd = rows[2 * i], rows[2 * i + 1]
    assert cl["scope"] == "cluster" and nd["scope"] == "node" and nd["node"] == "0", (cl, nd)
    for r in (cl, nd):
        assert (r["cell"], r["phase"], r["rw"], r["bs_bytes"], r["iodepth"]) == \
            (str(i), c["phase"], c["rw"], str(c["bs_bytes"]), str(c["iodepth"])), r
        assert r["status"] == "ok", r
    assert abs(float(cl["MBps"]) - c["cluster"]["bw_MBps"]) < 0.001, (cl, c["cluster"])
    assert abs(float(nd["MBps"]) - c["nodes"][0]["bw_MBps"]) < 0.001, (nd, c["nodes"][0])
    lat = "read_p99_us" if c["rw"] == "read" else "write_p99_us"
    other = "write_p99_us" if c["rw"] == "read" else "read_p99_us"
    assert float(cl[lat]) > 0 and cl[other] == "", cl
print("ok: results.json and sweep.csv hold all", len(cells), "cells in order")
PY

for rw in write read; do
	grep -q "gdsio: $rw, MB/s (cluster) by bs and iodepth:" "$T/out.log" ||
		{ cat "$T/out.log"; fail "no $rw grid printed"; }
done
grid=$(grep -A3 "gdsio: read, MB/s" "$T/out.log")
[ "$(echo "$grid" | grep -cE '^ +(1\.00 MiB|16\.0 KiB) +[0-9.]+ +[0-9.]+$')" = 2 ] ||
	fail "the read grid lacks a row of two measured cells per bs:
$grid"
echo "ok: a bs x iodepth grid of MB/s per rw, every cell measured"

"$SC_BIN" report "$T/out/results.pb" --output "$T/rebuilt" --quiet ||
	fail "ssdcluster report results.pb failed"
cmp "$T/out/sweep.csv" "$T/rebuilt/sweep.csv" || fail "report rebuilt another sweep.csv"
python3 -c "import json,sys; a,b=(json.load(open(f))['sweeps'] for f in sys.argv[1:]); sys.exit(a!=b)" \
	"$T/out/results.json" "$T/rebuilt/results.json" || fail "report rebuilt other sweeps"
echo "ok: ssdcluster report results.pb rebuilds sweep.csv and the sweeps"
