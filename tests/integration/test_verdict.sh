#!/usr/bin/env bash
# The verdict: an impossible expect: threshold fails the run with exit 3 and
# the PASS/FAIL table names it with measured vs required; thresholds the run
# meets exit 0 with "verdict: PASS"; 8 ranks on 8 dir targets (one rank
# each), one target throttled: its per-drive threshold fails by name (and
# each other drive's fails exactly when its recorded bandwidth is under the
# threshold), and the outliers listed are those the recorded bandwidths
# and k MADs make (the throttled drive among them whenever its peers are
# close enough: on a loaded machine they may not be); `ssdcluster report`
# prints the same verdict and exits the same; each checkpoint cell's
# duration and an ingest phase's AU are checked; a threshold on a metric the
# phase cannot produce exits 2 at its file:line:col before any I/O.
. "$(dirname "$0")/lib.sh"

HOST=$(hostname)
for i in 0 1 2 3 4 5 6 7; do mkdir -p "$T/d$i"; done

# write_config FILE THROTTLE EXPECT_W EXPECT_R: 8 targets, target 3 capped
# at THROTTLE (none when empty); a write and a read phase with thresholds.
write_config() {
	{
		echo "targets:"
		for i in 0 1 2 3 4 5 6 7; do
			echo "  - path: $T/d$i"
			if [ "$i" = 3 ] && [ -n "$2" ]; then echo "    throttle: $2"; fi
		done
		cat <<YAML
outliers: {k: 3.5, mad_floor: 20%}
defaults: {size: 4MiB, bs: 128KiB, iodepth: 4, direct: true}
phases:
  - name: w
    rw: write
    expect: {$3}
  - name: r
    rw: read
    expect: {$4}
YAML
	} >"$1"
}

# ---- 1 rank: an impossible threshold fails (exit 3), named with measured vs required
write_config "$T/bad.yaml" "" "min_bw: 1TB/s, max_write_p99: 10s" "max_read_p99: 10s"
rc=0
sc_mpirun 1 "$T/bad.yaml" --output "$T/bad" || rc=$?
cat "$T/out.log"
[ "$rc" -eq 3 ] || fail "impossible threshold: exit $rc, want 3"
grep -E "^  w +min_bw +[0-9.]+ [kMG]?B/s +>= 1\.00 TB/s +FAIL +cluster$" "$T/out.log" >/dev/null ||
	fail "the failed min_bw is not in the table with measured vs required"
grep -E "^  w +max_write_p99 +[0-9.]+ [nmu]?s +<= 10\.0 s +PASS" "$T/out.log" >/dev/null ||
	fail "the met max_write_p99 is not a PASS line"
grep -q "^verdict: FAIL (1 of 3 checks)$" "$T/out.log" || fail "no 'verdict: FAIL (1 of 3 checks)'"
python3 - "$T/bad/results.json" <<'PY' || fail "results.json verdict (fail)"
import json, sys
v = json.load(open(sys.argv[1]))["verdict"]
def need(c, what):
    if not c:
        print("FAIL:", what, json.dumps(v)[:600]); sys.exit(1)
need(v["pass"] is False and v["nchecks"] == 3 and v["nfailed"] == 1, "pass false, 3 checks, 1 failed")
bad = [c for c in v["checks"] if c["result"] == "fail"]
need(len(bad) == 1 and bad[0]["metric"] == "min_bw" and bad[0]["required_bytes_per_s"] == 1e12
     and 0 < bad[0]["measured_bytes_per_s"] < 1e12 and bad[0]["bound"] == "min", "the failed check")
PY

# report: the same verdict printed, the same exit, the same results.json
rc=0
"$SC_BIN" report "$T/bad/results.pb" --output "$T/bad_rep" >"$T/rep.log" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || { cat "$T/rep.log"; fail "report of a failed verdict exited $rc, want 3"; }
diff <(sed -n '/^expect: thresholds$/,/^verdict:/p' "$T/out.log") \
	<(sed -n '/^expect: thresholds$/,/^verdict:/p' "$T/rep.log") ||
	fail "report prints another verdict than the run"
cmp "$T/bad/results.json" "$T/bad_rep/results.json" || fail "report wrote another results.json"

# ---- 1 rank: thresholds the run meets exit 0 (4 MiB in 32 I/Os: 40 s and
# more before a bound fails; 10 s for one I/O)
write_config "$T/ok.yaml" "" "min_bw: 100KB/s, min_iops_per_drive: 1, max_write_p99: 10s" \
	"min_bw_per_node: 100KB/s, max_read_p99_99: 10s"
sc_mpirun 1 "$T/ok.yaml" --output "$T/ok" || { cat "$T/out.log"; fail "met thresholds: exit $?"; }
cat "$T/out.log"
grep -q "^verdict: PASS (5 checks)$" "$T/out.log" || fail "no 'verdict: PASS (5 checks)'"

# ---- 8 ranks, target 3 held to 4 MB/s: its drive fails by name; the
# others' speed is the machine's (a stall of 0.5 s puts a drive under
# 8 MB/s), so their results and the outliers are checked against what the
# run recorded
write_config "$T/thr.yaml" "4MB/s" "min_bw_per_drive: 8MB/s" ""
rc=0
sc_mpirun 8 "$T/thr.yaml" --output "$T/thr" || rc=$?
cat "$T/out.log"
[ "$rc" -eq 3 ] || fail "a throttled drive under min_bw_per_drive: exit $rc, want 3"
grep -qE "^  w +min_bw_per_drive +[0-9.]+ [kM]?B/s +>= 8\.00 MB/s +FAIL +rank [0-9]+ on $HOST, target 3 \($T/d3\)$" \
	"$T/out.log" || fail "the throttled drive's failed threshold does not name its host and target"
python3 - "$T/thr/results.json" "$T/d3" "$T/out.log" "$HOST" <<'PY' || fail "results.json verdict (throttle)"
import json, re, sys
r = json.load(open(sys.argv[1]))
v, path, log, host = r["verdict"], sys.argv[2], open(sys.argv[3]).read(), sys.argv[4]
def need(c, what):
    if not c:
        print("FAIL:", what, json.dumps(v)[:900]); sys.exit(1)
# one rank per target: the layout spreads 8 ranks over 8 dir targets
ranks = r["phases"][0]["ranks"]
need(sorted(x["target"] for x in ranks) == list(range(8)), "one rank per target")
# the cap holds: the throttle serves the I/Os one after another at 4 MB/s
# from the first one's submission (a queue: each 128 KiB takes 32.8 ms), so
# the rank moves at most 4 MB/s over its time
for ph in r["phases"]:
    row = [x for x in ph["ranks"] if x["target"] == 3][0]
    bw = row["bw_bytes_per_s"]
    need(bw <= 4e6 * 1.001, f"{ph['name']}: throttled rank at {bw / 1e6:.2f} MB/s, cap 4 MB/s")
# one check a drive, measured by its rank's bandwidth; it fails exactly
# when that is under 8 MB/s (the throttled drive always: the cap above)
bw_w = {x["target"]: x["bw_bytes_per_s"] for x in ranks}
checks = {c["target"]: c for c in v["checks"] if c["metric"] == "min_bw_per_drive"}
need(len(v["checks"]) == 8 and sorted(checks) == list(range(8)), "one min_bw_per_drive check a drive")
for t, c in checks.items():
    need(c["scope"] == "drive" and c["measured_bytes_per_s"] == bw_w[t]
         and c["required_bytes_per_s"] == 8e6, f"target {t}: check measured by its rank's bandwidth")
    need(c["result"] == ("fail" if bw_w[t] < 8e6 else "pass"), f"target {t}: result against 8 MB/s")
need(checks[3]["result"] == "fail" and checks[3]["target_path"] == path and checks[3]["host"] == host,
     "the throttled drive fails min_bw_per_drive, named by host and path")
nbad = sum(c["result"] == "fail" for c in checks.values())
need(v["nfailed"] == nbad and v["pass"] is False, f"{nbad} drives failed, verdict says {v['nfailed']}")
need(len(re.findall(r"^  w +min_bw_per_drive .* FAIL +rank ", log, re.M)) == nbad,
     "each failed drive on its line")
if nbad > 1:
    print(f"note: {nbad - 1} unthrottled drives under 8 MB/s on this machine")
# the outliers: bandwidth more than k MADs from the median of the phase's 8
# drives, the MAD at least mad_floor of the median (outliers.c), from the
# recorded bandwidths; a value within 1e-9 of the bound may go either way
k, floor = v["outlier_k"], v["outlier_mad_floor"]
need(k == 3.5 and floor == 0.2, f"outliers k {k}, mad_floor {floor}: not the config's")
def median(x):
    x = sorted(x)
    n = len(x)
    return x[n // 2] if n % 2 else (x[n // 2 - 1] + x[n // 2]) / 2
for ph in r["phases"]:
    bws = {x["target"]: x["bw_bytes_per_s"] for x in ph["ranks"]}
    med = median(bws.values())
    mad = max(median(abs(b - med) for b in bws.values()), floor * med)
    want = {t for t, b in bws.items() if abs(b - med) > k * mad}
    unsure = {t for t, b in bws.items() if abs(abs(b - med) - k * mad) <= 1e-9 * med}
    got = [o for o in v["outliers"] if o["phase"] == ph["name"] and o["figure"] == "bw"
           and o["scope"] == "drive"]
    need(len({o["target"] for o in got}) == len(got), f"{ph['name']}: a drive listed twice")
    need({o["target"] for o in got} - unsure == want - unsure,
         f"{ph['name']}: outliers {sorted(o['target'] for o in got)}, want {sorted(want)} "
         f"(median {med / 1e6:.1f} MB/s, MAD {mad / 1e6:.2f} MB/s)")
    for o in got:
        t = o["target"]
        need(o["value_bytes_per_s"] == bws[t] and abs(o["median_bytes_per_s"] - med) <= 1e-9 * med
             and abs(o["mad_bytes_per_s"] - mad) <= 1e-9 * med and o["peers"] == 8
             and o["host"] == host and o["target_path"].endswith(f"/d{t}")
             and abs(o["deviations"] - (bws[t] - med) / mad) <= 1e-6,
             f"{ph['name']}: outlier {t} against its median and MAD")
        line = (f"  {ph['name']}: rank {o['rank']} on {host}, target {t} ({o['target_path']}): "
                f"bandwidth ")
        need(any(l.startswith(line) and l.endswith("(low)" if o["deviations"] < 0 else "(high)")
                 for l in log.splitlines()), f"{ph['name']}: outlier {t} not printed by host and target")
    flagged = 3 in {o["target"] for o in got}
    need(flagged or 3 not in want, f"{ph['name']}: the throttled drive is not a low outlier")
    print(f"ok: {ph['name']}: median {med / 1e6:.1f} MB/s, MAD {mad / 1e6:.2f} MB/s, outliers",
          sorted((o["target"], round(o["value_bytes_per_s"] / 1e6, 1)) for o in got),
          "" if flagged else "(the throttled drive's peers too far apart to judge it)")
PY

# ---- checkpoint and ingest figures: each cell's duration, the AU
cat >"$T/ck.yaml" <<YAML
targets:
  - path: $T/d0
phases:
  - name: ckpt
    workload: checkpoint
    engine: emulated
    model: llama3-8b
    checkpoints: 2
    block_size: 1MiB
    scale: 0.0002
    emulate: {bandwidth: 512MiB, latency: 50us}
    expect: {max_checkpoint_duration: 1us, max_write_p99: 10s}
  - name: ing
    workload: ingest
    engine: emulated
    files: 4
    file_size: 1MiB
    sample_size: 128KiB
    batch: 4
    compute_per_batch: 5ms
    epochs: 1
    emulate: {bandwidth: 1GiB, latency: 50us}
    expect: {min_au: 1%}
YAML
rc=0
sc_mpirun 1 "$T/ck.yaml" --output "$T/ck" || rc=$?
[ "$rc" -eq 3 ] || { cat "$T/out.log"; fail "checkpoint longer than 1 us: exit $rc, want 3"; }
for k in 1 2; do
	grep -qE "^  ckpt\[ckpt=$k\] +max_checkpoint_duration +[0-9.]+ [mu]?s +<= 1\.00 us +FAIL +cluster$" \
		"$T/out.log" || { cat "$T/out.log"; fail "checkpoint $k's duration is not a FAIL line"; }
done
grep -qE "^  ing +min_au +[0-9.]+% +>= 1\.0% +PASS +cluster$" "$T/out.log" ||
	{ cat "$T/out.log"; fail "no min_au line for the ingest phase"; }
grep -q "^verdict: FAIL (2 of 5 checks)$" "$T/out.log" || { cat "$T/out.log"; fail "checkpoint verdict line"; }

# ---- a threshold the phase cannot produce: exit 2 at its place, no I/O
cat >"$T/cannot.yaml" <<YAML
targets:
  - path: $T/d0
phases:
  - rw: write
    size: 1MiB
    expect:
      max_read_p99: 1ms
YAML
rc=0
sc_mpirun 1 "$T/cannot.yaml" --output "$T/cannot" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "read latency on a write phase: exit $rc, want 2"; }
grep -q "cannot.yaml:7:7: phases.0.expect.max_read_p99: the p99 latency of reads needs a phase that reads" \
	"$T/out.log" || { cat "$T/out.log"; fail "no file:line:col message"; }
[ ! -e "$T/cannot/results.json" ] || fail "results written for a refused config"
echo "ok: test_verdict"
