#!/usr/bin/env bash
# --output-format fio-json: fio.json is read by fio's own consumers.
# fio_jsonplus_clat2csv (Debian's fio package) turns its json+ bins into a
# CSV per job and --validates it; the percentiles its cumulative column
# gives agree with results.json's own within the histogram's bucket
# resolution; fio's units hold (bw KiB/s, bw_bytes B/s, runtime ms, clat
# ns); `ssdcluster report --output-format fio-json` writes the same file;
# an unknown format exits 2 naming it and the choices.  With
# SC_FIO_PLOT=/path/to/fio-plot (its public repository) fio-plot draws a
# latency histogram (-H) and an IOPS/latency bar chart (-l) from it.
. "$(dirname "$0")/lib.sh"

CLAT2CSV=$(command -v fio_jsonplus_clat2csv || true)
[ -n "$CLAT2CSV" ] || fail "fio_jsonplus_clat2csv not found (Debian's fio package: scripts/setup.sh)"

mkdir -p "$T/target"
cat >"$T/r.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: w
    rw: write
    bs: 64KiB
    size: 8MiB
  - name: rr
    rw: randrw
    bs: 4KiB
    iodepth: 8
    size: 4MiB
    io_size: 2MiB
YAML
sc_mpirun 2 "$T/r.yaml" --output "$T/out" --output-format fio-json || { cat "$T/out.log"; fail "run"; }
[ -s "$T/out/fio.json" ] || fail "no fio.json"

# fio's tool: a CSV per job, its bins checked against the JSON
(cd "$T" && "$CLAT2CSV" out/fio.json "$T/lat.csv" >"$T/csv.log" 2>&1) || { cat "$T/csv.log"; fail "fio_jsonplus_clat2csv"; }
(cd "$T" && "$CLAT2CSV" out/fio.json "$T/lat.csv" --validate >"$T/val.log" 2>&1) || { cat "$T/val.log"; fail "fio_jsonplus_clat2csv --validate"; }
grep -c validated "$T/val.log" | grep -qx 2 || { cat "$T/val.log"; fail "want 2 jobs validated"; }

python3 - "$T/out/fio.json" "$T/out/results.json" "$T/lat.csv" <<'PY'
import json, os, sys

fio = json.load(open(sys.argv[1]))
res = json.load(open(sys.argv[2]))
stub, ext = os.path.splitext(sys.argv[3])
bad = []

def want(cond, msg):
    if not cond:
        bad.append(msg)

for k in ("fio version", "timestamp", "timestamp_ms", "time", "global options", "jobs"):
    want(k in fio, "no top-level " + k)
want(fio["fio version"].startswith("ssdcluster-"), "fio version names ssdcluster")
phases = res["phases"]
want(len(fio["jobs"]) == len(phases), "a job per phase")
for i, (job, ph) in enumerate(zip(fio["jobs"], phases)):
    name = ph["name"]
    want(job["jobname"] == name and job["groupid"] == i, f"{name}: jobname/groupid")
    o = job["job options"]
    want(o["rw"] == ph["rw"] and int(o["iodepth"]) == ph["iodepth"], f"{name}: job options")
    want(int(o["numjobs"]) == ph["jobs"] * ph["cluster"]["nranks"], f"{name}: numjobs")
    c = ph["cluster"]
    for d, short in (("read", "read"), ("write", "written")):
        x = job[d]
        ios, nbytes = c["ios_" + short], c["bytes_" + short]
        want(x["io_bytes"] == nbytes and x["total_ios"] == ios, f"{name} {d}: bytes/ios")
        want(x["io_kbytes"] == nbytes // 1024, f"{name} {d}: io_kbytes in KiB")
        if not ios:
            want(x["runtime"] == 0 and x["clat_ns"]["N"] == 0 and "bins" not in x["clat_ns"],
                 f"{name} {d}: an idle direction is empty, as fio's")
            continue
        # fio's units: runtime ms, bw_bytes B/s, bw KiB/s
        window_ms = (c["lastdone_ns"] - c["window_start_ns"]) / 1e6
        want(abs(x["runtime"] - window_ms) <= 1, f"{name} {d}: runtime {x['runtime']} ms vs {window_ms}")
        want(abs(x["bw_bytes"] - nbytes / (window_ms / 1e3)) <= 1, f"{name} {d}: bw_bytes B/s")
        want(abs(x["bw"] - x["bw_bytes"] / 1024) <= 1, f"{name} {d}: bw KiB/s")
        want(abs(x["iops"] - c["iops_" + d]) <= 1e-6 * c["iops_" + d], f"{name} {d}: iops")
        clat = x["clat_ns"]
        lat = c["latency_ns"][d]
        want(clat["N"] == ios == sum(clat["bins"].values()), f"{name} {d}: N = total_ios = bins' sum")
        want(clat["min"] == lat["min"] and clat["max"] == lat["max"], f"{name} {d}: min/max ns")
        want(abs(clat["mean"] - lat["mean"]) <= 1e-9 * lat["mean"], f"{name} {d}: mean ns")
        want(x["lat_ns"]["N"] == ios, f"{name} {d}: lat_ns N")
        want(len(clat["percentile"]) == 17, f"{name} {d}: fio's 17 default percentiles")
        for p in ("50", "90", "99", "99.9", "99.99"):
            if lat.get("p" + p) is not None:
                want(clat["percentile"]["%f" % float(p)] == lat["p" + p],
                     f"{name} {d}: p{p} as results.json's")
        # fio's tool: the first bin at or past p of its cumulative column
        rows = [l.split(",") for l in open(f"{stub}_job{i}{ext}").read().splitlines()[1:] if l.strip()]
        col = {"read": 4, "write": 13}[d]  # {d}_clat_ns_count, then cumulative, percentile
        got = [(int(r[0]), int(r[col + 1]), float(r[col + 2])) for r in rows if r[col].strip()]
        want(len(got) == len(clat["bins"]), f"{name} {d}: a CSV row per bin")
        want(got and got[-1][1] == ios, f"{name} {d}: the CSV's cumulative ends at total_ios")
        checked = 0
        for p in ("50", "90", "99", "99.9"):
            ours = lat.get("p" + p)
            if ours is None:
                continue
            theirs = next(ns for ns, cum, frac in got if cum >= float(p) / 100 * ios - 1e-9)
            # a bin is keyed by its bucket's midpoint, the value a
            # percentile in it is reported at, unless clamped to the exact
            # min or max: then within the bucket (at most 1/128 of its
            # lower bound wide)
            tol = 0 if lat["min"] < ours < lat["max"] else max(1, ours / 128)
            want(abs(theirs - ours) <= tol,
                 f"{name} {d}: p{p} from fio_jsonplus_clat2csv {theirs} ns vs ours {ours} ns")
            checked += 1
        want(checked >= 3, f"{name} {d}: too few supported percentiles ({checked}) to compare")
        print(f"ok: {name} {d}: {ios} I/Os, {len(got)} bins, {checked} percentiles agree with fio_jsonplus_clat2csv")
    lsum = sum(job["latency_ns"].values()) + sum(job["latency_us"].values()) + sum(job["latency_ms"].values())
    want(abs(lsum - 100) < 1e-6, f"{name}: latency_ns/us/ms sum to {lsum}%, not 100%")
if bad:
    print("\n".join("FAIL: " + b for b in bad))
    sys.exit(1)
PY

# the same file from results.pb alone
cp "$T/out/fio.json" "$T/fio.json.run"
rm "$T/out/fio.json"
"$SC_BIN" report "$T/out/results.pb" --output-format fio-json >"$T/report.log" 2>&1 || { cat "$T/report.log"; fail "report"; }
cmp "$T/fio.json.run" "$T/out/fio.json" || fail "report wrote a different fio.json"
grep -q "fio-json: $T/out/fio.json" "$T/report.log" || { cat "$T/report.log"; fail "report did not name fio.json"; }
echo "ok: report --output-format fio-json rebuilds the same fio.json"

# an unknown format: exit 2, the value and the choices named
for args in "$T/r.yaml --output-format json" "report $T/out/results.pb --output-format csv"; do
	rc=0
	# shellcheck disable=SC2086
	"$SC_BIN" $args >"$T/bad.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/bad.log"; fail "$args: exit $rc, want 2"; }
	grep -q -- "--output-format [a-z]*: expected normal or fio-json" "$T/bad.log" || { cat "$T/bad.log"; fail "$args: message"; }
done
rc=0
"$SC_BIN" compare "$T/out/results.pb" "$T/out/results.pb" --output-format fio-json >"$T/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "compare takes only --output and --quiet" "$T/bad.log" || { cat "$T/bad.log"; fail "compare --output-format: exit $rc"; }
echo "ok: bad --output-format refused"

# fio-plot (run outside the project): one phase a file, as it sums every
# job of a file (one workload's numjobs)
if [ -z "${SC_FIO_PLOT:-}" ]; then
	echo "fio-plot part not run: set SC_FIO_PLOT=/path/to/fio-plot (its repository)"
	exit 0
fi
py=""
for c in python3 /usr/bin/python3; do
	if "$c" -c 'import matplotlib, numpy, PIL, pyparsing' 2>/dev/null; then py=$c; break; fi
done
[ -n "$py" ] || fail "SC_FIO_PLOT set but no python3 with matplotlib, numpy, PIL and pyparsing (Debian: python3-matplotlib python3-numpy python3-pil python3-pyparsing)"
mkdir -p "$T/plot"
cat >"$T/one.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: rr
    rw: randread
    bs: 4KiB
    iodepth: 4
    size: 4MiB
    io_size: 2MiB
YAML
sc_mpirun 2 "$T/one.yaml" --output "$T/one" --output-format fio-json || { cat "$T/out.log"; fail "run for fio-plot"; }
cp "$T/one/fio.json" "$T/plot/"
for mode in H l; do
	(cd "$SC_FIO_PLOT" && MPLBACKEND=Agg "$py" -m fio_plot -i "$T/plot" -T ssdcluster -"$mode" \
		-d 4 -n 2 -r randread -o "$T/chart-$mode.png") >"$T/plot-$mode.log" 2>&1 ||
		{ cat "$T/plot-$mode.log"; fail "fio-plot -$mode"; }
	[ "$(head -c 8 "$T/chart-$mode.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		{ cat "$T/plot-$mode.log"; fail "fio-plot -$mode drew no PNG"; }
	echo "ok: fio-plot -$mode drew $(stat -c %s "$T/chart-$mode.png") bytes of PNG"
done
