#!/usr/bin/env bash
# A slow drive in configs/acceptance.yaml on real (emulated) NVMe: one guest
# with four 64 MiB controllers SCAC0001..4, SCAC0003 held by QEMU's block
# throttling to 3 MB/s and 150 I/Os per second.  configs/acceptance.yaml
# itself runs, its targets block replaced by the four block devices (in
# serial order, allow_destroy: true), shrunk on the command line (8 MiB per
# rank, 3 s phases, 1 s randwrite rounds) and its thresholds lowered to what
# an unthrottled emulated drive passes on a busy host: one rank per drive.
# The run exits 3; the verdict fails each per-drive minimum (bandwidth and
# IOPS) of SCAC0003 and nothing else: the other three drives pass theirs,
# every check row names its drive by device and serial as the inventory
# does, the outliers are SCAC0003 alone (low), in 3 phases at least, and
# the printed table and outlier lines name it.
. "$(dirname "$0")/nvme_lib.sh"

SERIALS=(SCAC0001 SCAC0002 SCAC0003 SCAC0004)
SLOW=SCAC0003                               # the drive the checks expect slow
THROTTLED=${SC_NVME_TEST_THROTTLED:-$SLOW}  # a deliberate break throttles another, or "none"
# QEMU's throttle on the slow drive: 3 MB/s, so 128 KiB writes at QD 32
# take about 1.4 s; and 150 IOPS, since 3 MB/s alone gives 4 KiB I/Os 730
# IOPS, too close to an unthrottled drive of a TCG guest on a busy host.
SLOW_SPEC=throttle_bps=3000000,throttle_iops=150
# Measured per drive in the guest (TCG, 2 vCPUs, 4 ranks): unthrottled,
# the host otherwise idle / beside other guests and two busy loops; and the
# slow drive (at 3 MB/s and 150 IOPS; 4.1-4.3 and 3.0-3.1 MB/s at 4 MB/s):
#   seqwrite  298-341 MB/s   /  41-158 MB/s     slow 3.1-3.2 MB/s
#   seqread   743-766 MB/s   / 341-473 MB/s     slow 2.0-2.1 MB/s
#   randread  9.7-10.7 kIOPS / 3.2-7.4 kIOPS    slow 132 IOPS
#   randwrite 6.8-7.3 kIOPS  / 2.3-6.8 kIOPS    slow 155-161 IOPS (last round)
DRIVE_BW=12MB/s     # unthrottled >= 3.4x (a 0.2 s seqwrite varies most), slow <= 1/3.8
DRIVE_IOPS=600      # unthrottled >= 3.7x, slow <= 1/3.7
# A node's (and so the cluster's, one node) last-done bandwidth in seqwrite,
# a fixed io_size, is 4 drives' bytes over the slow drive's time: about 12
# MB/s.  Node and cluster minimums below that pass, so that only per-drive
# checks fail.
NODE_BW=3MB/s
NODE_IOPS=600
# The slow drive's latency (about 1.4 s at QD 32 x 128 KiB, 430 ms at QD 64
# of 150 IOPS) is within it; unthrottled p99 on a busy host is below 400 ms.
MAX_LAT=5s

# The config: the real file, its targets block replaced; the thresholds
# from the real file's expect keys, each lowered by its kind (a key this
# test does not know fails it, so a change to the file is seen here).
python3 - "$SC_SOURCE_DIR/configs/acceptance.yaml" "$T" "${SERIALS[*]}" \
	"$DRIVE_BW" "$DRIVE_IOPS" "$NODE_BW" "$NODE_IOPS" "$MAX_LAT" <<'PY' || fail "deriving the config"
import re, sys, yaml
src, t, serials, drive_bw, drive_iops, node_bw, node_iops, max_lat = sys.argv[1:]
text = open(src).read()
targets = "targets:\n" + "".join(
    f'  - {{path: "@{s}@", allow_destroy: true}}\n' for s in serials.split()) + "\n"
new, n = re.subn(r"^targets:\n(?:(?:[ \t].*)?\n)*", lambda m: targets, text, flags=re.M)
assert n == 1, f"{src}: {n} targets blocks"
open(f"{t}/acc.yaml.in", "w").write(new)

lowered = {
    "min_bw_per_drive": drive_bw, "min_iops_per_drive": drive_iops,
    "min_bw_per_node": node_bw, "min_bw": node_bw,
    "min_iops_per_node": node_iops, "min_iops": node_iops,
    # a TCG guest's drives are not steady over 1 s rounds (IOPS range
    # 22-86% of the mean over 5 rounds): it checks nothing
    "steady_state": "false",
    "no_media_errors": None,            # kept: the emulated drives have none
}
sets = ["size=8MiB", "runtime=3s", "ramp=1s", "phases.seqwrite.io_size=8MiB",
        "phases.randwrite.steady_state.round=1s",
        "phases.randwrite.steady_state.max_rounds=5"]
per_drive = []
for p in yaml.safe_load(new)["phases"]:
    for key in p.get("expect", {}):
        if key.startswith("max_") and key.endswith(("_p99", "_p99_99")):
            sets.append(f"phases.{p['name']}.expect.{key}={max_lat}")
            continue
        assert key in lowered, f"{src}: phase {p['name']}: expect.{key} is new to this test"
        if lowered[key] is not None:
            sets.append(f"phases.{p['name']}.expect.{key}={lowered[key]}")
        if key.endswith("_per_drive"):
            per_drive.append(f"{p['name']} {key}")
assert per_drive, f"{src}: no per-drive threshold"
with open(f"{t}/sets", "w") as f:
    for s in sets:
        f.write(f"--set\n{s}\n")
open(f"{t}/per_drive", "w").write("\n".join(per_drive) + "\n")
PY

cat >"$T/guest.sh" <<'SH'
set -e
# each namespace's serial, as the guest's kernel read it from its controller
cp "$T/acc.yaml.in" "$T/acc.yaml"
: >"$T/devmap"
for b in /sys/block/nvme*n1; do
	s=$(sed 's/ *$//' "$b/device/serial")
	echo "$s /dev/${b##*/}" >>"$T/devmap"
	sed -i "s|@$s@|/dev/${b##*/}|" "$T/acc.yaml"
done
! grep -n '@SCAC' "$T/acc.yaml" || { echo "guest: a serial without a namespace" >&2; exit 1; }
mapfile -t sets <"$T/sets"
rc=0
mpirun --oversubscribe -np 4 "$SC_BIN" "$T/acc.yaml" --allow-destroy --output "$T/out" \
	"${sets[@]}" >"$T/run.log" 2>&1 || rc=$?
echo "$rc" >"$T/rc"
SH
nvme=()
for s in "${SERIALS[@]}"; do
	spec="serial=$s,size=64M"
	[ "$s" != "$THROTTLED" ] || spec+=",$SLOW_SPEC"
	nvme+=(--nvme "$spec")
done
nvme_guest "$T/guest.sh" "${nvme[@]}"
cat "$T/run.log"
echo "guest: $(tr '\n' ' ' <"$T/devmap")"
rc=$(cat "$T/rc")
[ "$rc" = 3 ] || fail "mpirun exited $rc, not 3 (a threshold failed)"

python3 - "$T" "$SLOW" "${SERIALS[*]}" <<'PY' || fail "results.json"
import json, sys
t, slow, serials = sys.argv[1], sys.argv[2], sys.argv[3].split()
devmap = dict(l.split() for l in open(f"{t}/devmap"))
assert sorted(devmap) == serials, devmap
d = json.load(open(f"{t}/out/results.json"))
inv = {e["target"]: e for e in d["inventory"]}
assert sorted(e["serial"] for e in inv.values()) == serials, inv
for s, dev in devmap.items():
    assert inv[dev]["serial"] == s and inv[dev]["device"] == dev[5:], (s, dev, inv[dev])

v = d["verdict"]
assert v["pass"] is False, v["pass"]
checks, outliers = v["checks"], v["outliers"]
# every drive row names its drive as the inventory does
for r in checks + outliers:
    if r["scope"] == "drive":
        e = inv[r["target_path"]]
        assert (r["device"], r["serial"]) == (e["device"], e["serial"]), r

per_drive = [l.split() for l in open(f"{t}/per_drive")]
want_failed = []
for phase, metric in per_drive:
    rows = [c for c in checks if c["metric"] == metric and c["group"] == phase]
    got = {c["serial"]: c for c in rows}
    assert sorted(got) == serials, (phase, metric, rows)
    unit = "bytes_per_s" if "_bw_" in metric else "iops"
    fig = lambda c: c[f"measured_{unit}"] / (1e6 if unit == "bytes_per_s" else 1)
    req = rows[0][f"required_{unit}"] / (1e6 if unit == "bytes_per_s" else 1)
    fast = [fig(got[s]) for s in serials if s != slow]
    print(f"{rows[0]['phase']:20} {metric:20} required {req:g}; {slow} {fig(got[slow]):.4g}: "
          f"{got[slow]['result']}; others {', '.join(f'{x:.4g}' for x in fast)}: "
          f"{', '.join(got[s]['result'] for s in serials if s != slow)}")
    assert got[slow]["result"] == "fail", got[slow]
    for s in serials:
        assert s == slow or got[s]["result"] == "pass", got[s]
    want_failed.append((rows[0]["phase"], metric, slow))

failed = [(c["phase"], c["metric"], c.get("serial")) for c in checks if c["result"] == "fail"]
assert sorted(failed) == sorted(want_failed), ("failed checks", failed, want_failed)
assert v["nfailed"] == len(failed), v["nfailed"]
for c in checks:
    # a p99.99 of fewer than 10000 samples is still judged (docs/results.md)
    assert c["result"] in ("pass", "fail"), c
print(f"verdict: {v['nfailed']} of {v['nchecks']} checks failed, {v['not_measured']} not measured")

assert outliers, "no outliers"
for o in outliers:
    assert o["scope"] == "drive" and o["serial"] == slow and o["deviations"] < 0, o
    print(f"outlier {o['phase']}: {o['serial']} {o['figure']} {o['deviations']:.1f} MADs")
# Whether a drive is flagged depends on how close its peers are to each
# other (the MAD): the unthrottled drives of a busy TCG guest differ by up
# to 2x, so the slow drive is not flagged in every phase (5 to 8 of 9 here:
# seqread 388, 391, 696 MB/s against 3.0 is -2.5 MADs).
flagged = {o["phase"] for o in outliers}
nphases = len(d["stages"])
assert len(flagged) >= 3, ("flagged in fewer than 3 phases", flagged)
print(f"{slow} flagged in {len(flagged)} of {nphases} phases")
PY

# the printed verdict: one FAIL line per failed check, each naming the slow
# drive's serial; outlier lines that name it and no other drive
nfailed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"]["nfailed"])' "$T/out/results.json")
fails=$(grep -cE ' FAIL +(rank|node|cluster)' "$T/run.log" || true)
[ "$fails" = "$nfailed" ] || fail "printed table: $fails FAIL lines for $nfailed failed checks"
grep -E ' FAIL +(rank|node|cluster)' "$T/run.log" | grep -v "_per_drive .* serial $SLOW\$" &&
	fail "printed table: a FAIL line not naming $SLOW's per-drive threshold"
grep -qE "^verdict: FAIL \($nfailed of [0-9]+ checks\)" "$T/run.log" || fail "printed verdict line"
grep -q "^exit status 3: a threshold failed" "$T/run.log" || fail "printed exit status line"
outl=$(sed -n '/^outliers (/,/^verdict:/p' "$T/run.log" | grep -E '^  [a-z]' || true)
[ -n "$outl" ] || fail "printed outliers: none"
grep -v "serial $SLOW: .*(low)\$" <<<"$outl" && fail "printed outliers: a line not naming $SLOW low"
echo PASS
