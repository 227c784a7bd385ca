#!/usr/bin/env bash
# Preconditioning and consistency stages: a 2-rank fill of a temp dir
# writes exactly size x passes bytes per rank (and size x random_passes
# more in random_bs writes), results.json carries its write_cliff per drive
# and for the cluster, an idle step between two phases lasts its duration
# without I/O; a fill of a file target without size writes its capacity
# (and needs allow_destroy); configs/linear_write.yaml and
# configs/consistency.yaml run shrunk with --set and exit 0.
. "$(dirname "$0")/lib.sh"

MIB=$((1024 * 1024))
mkdir -p "$T/target"
cat >"$T/fill.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: pre
    workload: fill
    size: 8MiB
    passes: 2
  - name: quiet
    idle: 2s
  - name: pre_random
    workload: fill
    size: 4MiB
    passes: 1
    random_passes: 1
    random_bs: 4KiB
    cliff_fraction: 0.25
YAML
sc_mpirun 2 "$T/fill.yaml" --output "$T/out" || { cat "$T/out.log"; fail "fill run exited $?"; }
cat "$T/out.log"
grep -q "pre: write cliff (rate below 50% of the initial" "$T/out.log" || fail "no write cliff line"
# (its length is checked below, at least 2 s: a busy machine may add more)
grep -Eq "quiet +idle [0-9.]+ s, no I/O" "$T/out.log" || fail "the idle step's row"
grep -q "^stages side by side:" "$T/out.log" || fail "no stages table"

python3 - "$T/out/results.json" <<'PY'
import json, sys
MIB = 1 << 20
res = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in res["phases"]}
def want(cond, msg):
    if not cond:
        print("FAIL:", msg); sys.exit(1)
pre = ph["pre"]
want(len(pre["ranks"]) == 2, "two ranks")
for r in pre["ranks"]:
    want(r["bytes_written"] == 8 * MIB * 2, "rank %d wrote %d B, want size x passes" % (r["rank"], r["bytes_written"]))
    want(r["ios_written"] == 8 * MIB * 2 // (128 * 1024), "rank %d: %d writes of 128 KiB" % (r["rank"], r["ios_written"]))
    want(r["bytes_read"] == 0, "a fill reads nothing")
want(pre["bs_bytes"] == 128 * 1024 and pre["iodepth"] == 32 and pre["jobs"] == 1, "fill defaults bs 128KiB, iodepth 32, jobs 1")
wc = pre.get("write_cliff")
want(wc is not None, "no write_cliff object")
want(wc["cliff_fraction"] == 0.5, "default cliff_fraction 0.5")
want(len(wc["drives"]) == 2, "a cliff row per drive")
for d in wc["drives"]:
    for k in ("rank", "host", "node", "target", "path", "cliff", "cache_bytes", "after_bw_MBps", "seconds_analysed", "cliff_start_ns"):
        want(k in d, "drive row without " + k)
    want(sum(d["write_bytes_per_s"]) == 8 * (1 << 20) * 2, "the drive's curve sums to what it wrote")
for k in ("cliff", "cache_bytes", "drives", "drives_with_cliff"):
    want(k in wc["cluster"], "cluster cliff without " + k)
rnd = ph["pre_random"]
want(rnd["write_cliff"]["cliff_fraction"] == 0.25, "cliff_fraction 0.25")
for r in rnd["ranks"]:
    want(r["bytes_written"] == 4 * MIB * 2, "random fill: rank %d wrote %d B" % (r["rank"], r["bytes_written"]))
    want(r["ios_written"] == 4 * MIB // (128 * 1024) + 4 * MIB // 4096, "random fill: %d writes" % r["ios_written"])
q = ph["quiet"]["cluster"]
want(q["total_bytes"] == 0 and q["ios_read"] == 0 and q["ios_written"] == 0, "the idle step did I/O")
want(q["lastdone_ns"] - q["window_start_ns"] >= 2 * 10**9 - 10**7, "idle lasted %d ns, want 2 s" % (q["lastdone_ns"] - q["window_start_ns"]))
want(all(b == 0 for b in ph["quiet"]["timeseries"]["bytes_written"]), "idle seconds with bytes")
st = res["stages"]
want([s["name"] for s in st] == ["pre", "quiet", "pre_random"], "stages in order")
want(st[1]["bw_MBps"] is None and st[1]["duration_ns"] >= 2 * 10**9 - 10**7, "idle stage row")
for k in ("bw_MBps", "iops"):
    want(st[0][k] is not None, "stage row without " + k)
# a percentile is null with its basis when too few writes support it (p99
# needs 100, p99.99 10^4); volatility null under 2 complete seconds
for k, n in (("p99_ns", 100), ("p99.99_ns", 10**4)):
    base = k[:-len("_ns")] + "_basis"
    want(st[0][k] is not None or st[0].get(base, "").startswith("max of "),
         "stage row without %s and without %s" % (k, base))
want(st[0]["volatility"] is not None or len(ph["pre"]["timeseries"]["bytes_written"]) < 3,
     "stage row without volatility over 2 complete seconds")
print("ok: fill bytes, write_cliff, idle step, stages")
PY

# a drive whose writes slow down as it fills (the emulated engine: 200 MB/s
# falling to 20 MB/s at 256 MB written): the cliff is found where the
# recorded seconds put it (write_cliff.h: the first second that stays
# under half the median of the first 3 for 3 seconds), its cache the bytes
# of the seconds before it, which started before the slowdown ended (the
# cliff is a whole second: nominally the one of the crossing, starting at
# 250 MB, or the one before; a stall moves it), the rate after it low
cat >"$T/cliff.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - name: cliff
    workload: fill
    engine: emulated
    size: 320MiB
    passes: 1
    emulate: {bandwidth: 200MB, fill_slowdown: 10x, fill_capacity: 256MB}
YAML
sc_mpirun 2 "$T/cliff.yaml" --output "$T/cliff" || { cat "$T/out.log"; fail "cliff run exited $?"; }
grep -A3 "write cliff" "$T/out.log"
python3 - "$T/cliff/results.json" <<'PY'
import json, sys
wc = json.load(open(sys.argv[1]))["phases"][0]["write_cliff"]
MB = 10**6
# the cluster's curve: the sum of the drives' (the same seconds from the
# common start)
curves = [d["write_bytes_per_s"] for d in wc["drives"]]
wc["cluster"]["write_bytes_per_s"] = [sum(c[i] for c in curves if i < len(c))
                                      for i in range(max(map(len, curves)))]
for d in wc["drives"] + [wc["cluster"]]:
    n = 1 if "rank" in d else 2  # the cluster sums both drives
    if not d["cliff"]:
        print("FAIL: no cliff found:", d); sys.exit(1)
    k, w = d["cliff_start_ns"] // 10**9, d["write_bytes_per_s"]
    # the whole seconds before the fill's bytes were all written
    nsec = next((i for i in range(len(w)) if sum(w[:i + 1]) >= 320 * 2**20 * n), len(w) - 1)
    x = sorted(w[:min(nsec, 3)])
    initial = x[len(x) // 2] if len(x) % 2 else (x[len(x) // 2 - 1] + x[len(x) // 2]) / 2
    want = next((j for j in range(1, nsec) if all(b < 0.5 * initial for b in w[j:min(nsec, j + 3)])), None)
    if not (d["seconds_analysed"] == nsec and d["initial_bw_bytes_per_s"] == initial and k == want):
        print("FAIL: cliff at", k, "s of", d["seconds_analysed"], "initial", d["initial_bw_bytes_per_s"],
              "B/s; the seconds give", want, "s of", nsec, "initial", initial, w); sys.exit(1)
    if not (d["cliff_start_ns"] == k * 10**9 and d["cache_bytes"] == sum(w[:k])):
        print("FAIL: cache", d["cache_bytes"], "B is not the bytes before second", k, w); sys.exit(1)
    if not (50 * MB * n <= d["cache_bytes"] and sum(w[:k - 1]) < 256 * MB * n):
        print("FAIL: cache", d["cache_bytes"], "B: the cliff at", k, "s, not within a second of",
              "the slowdown's end at", 256 * n, "MB", w); sys.exit(1)
    if not (d["after_bw_bytes_per_s"] < 0.5 * d["initial_bw_bytes_per_s"]):
        print("FAIL: after the cliff", d["after_bw_MBps"], "MB/s, initial", d["initial_bw_MBps"]); sys.exit(1)
print("ok: cliff at", wc["cluster"]["cliff_start_ns"] / 1e9, "s, cache", wc["cluster"]["cache_bytes"], "B")
PY

# a file target is filled whole: its capacity x passes, shared by the
# node's ranks on it; only with both opt-ins
dd if=/dev/zero of="$T/drive.img" bs=1M count=4 status=none
cat >"$T/file.yaml" <<YAML
targets:
  - path: $T/drive.img
    allow_destroy: true
phases:
  - workload: fill
YAML
rc=0
sc_mpirun 1 "$T/file.yaml" --output "$T/nodestroy" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "fill of a file without --allow-destroy: exit $rc, want 2"; }
sc_mpirun 2 "$T/file.yaml" --allow-destroy --output "$T/file" || { cat "$T/out.log"; fail "file fill exited $?"; }
python3 - "$T/file/results.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["phases"][0]["ranks"]:
    if r["bytes_written"] != 2 * 2 * (1 << 20):
        print("FAIL: rank", r["rank"], "wrote", r["bytes_written"], "B, want half the capacity x 2 passes"); sys.exit(1)
PY

# the ready configs, shrunk
mkdir -p "$T/lw" "$T/cons"
SSDCLUSTER_TARGET="$T/lw" sc_mpirun 2 "$SC_SOURCE_DIR/configs/linear_write.yaml" --set size=16MiB \
	--output "$T/lw_out" || { cat "$T/out.log"; fail "linear_write.yaml exited $?"; }
grep -q "linear_write: write cliff" "$T/out.log" || fail "linear_write.yaml: no cliff line"
SSDCLUSTER_TARGET="$T/cons" sc_mpirun 2 "$SC_SOURCE_DIR/configs/consistency.yaml" --set runtime=1s \
	--set idle=1s --set size=8MiB --set jobs=1 --set phases.steady.steady_state.round=1s \
	--set phases.steady.steady_state.max_rounds=5 --output "$T/cons_out" ||
	{ cat "$T/out.log"; fail "consistency.yaml exited $?"; }
for s in initial degraded 'steady\[round=1\]' idle recovery; do
	grep -q "^$s " "$T/out.log" || fail "consistency.yaml: no row for stage $s"
done
# a block device is filled whole too (a loop device over a file; as root)
LOOP=
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	truncate -s 8M "$T/loop.img"
	LOOP=$(losetup --find --show --direct-io=on "$T/loop.img" 2>/dev/null) || LOOP=
fi
if [ -n "$LOOP" ]; then
	trap 'losetup -d "$LOOP"; rm -rf "$T"' EXIT
	cat >"$T/block.yaml" <<YAML
targets:
  - path: $LOOP
    allow_destroy: true
phases:
  - workload: fill
    passes: 1
YAML
	sc_mpirun 1 "$T/block.yaml" --allow-destroy --output "$T/block" ||
		{ cat "$T/out.log"; fail "block fill exited $?"; }
	python3 - "$T/block/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["phases"][0]["ranks"][0]
if r["bytes_written"] != 8 * (1 << 20):
    print("FAIL: block fill wrote", r["bytes_written"], "B, want the device's 8 MiB"); sys.exit(1)
PY
	echo "ok: a block device filled whole"
else
	echo "no loop device here: the block-device fill was not tried"
fi
echo PASS
