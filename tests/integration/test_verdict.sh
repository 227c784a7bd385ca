#!/usr/bin/env bash
# The verdict: an impossible expect: threshold fails the run with exit 3 and
# the PASS/FAIL table names it with measured vs required; thresholds the run
# meets exit 0 with "verdict: PASS"; 8 ranks on 8 dir targets (one rank
# each), one target throttled: the outlier list names that rank's host and
# target and its per-drive threshold fails by name; `ssdcluster report`
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

# ---- 1 rank: thresholds the run meets exit 0
write_config "$T/ok.yaml" "" "min_bw: 1MB/s, min_iops_per_drive: 1, max_write_p99: 10s" \
	"min_bw_per_node: 1MB/s, max_read_p99_99: 10s"
sc_mpirun 1 "$T/ok.yaml" --output "$T/ok" || { cat "$T/out.log"; fail "met thresholds: exit $?"; }
cat "$T/out.log"
grep -q "^verdict: PASS (5 checks)$" "$T/out.log" || fail "no 'verdict: PASS (5 checks)'"

# ---- 8 ranks, target 3 held to 4 MB/s: named as the outlier, its drive fails
write_config "$T/thr.yaml" "4MB/s" "min_bw_per_drive: 8MB/s" ""
rc=0
sc_mpirun 8 "$T/thr.yaml" --output "$T/thr" || rc=$?
cat "$T/out.log"
[ "$rc" -eq 3 ] || fail "a throttled drive under min_bw_per_drive: exit $rc, want 3"
grep -qE "^  w +min_bw_per_drive +[0-9.]+ MB/s +>= 8\.00 MB/s +FAIL +rank [0-9]+ on $HOST, target 3 \($T/d3\)$" \
	"$T/out.log" || fail "the throttled drive's failed threshold does not name its host and target"
grep -qE "^  w: rank [0-9]+ on $HOST, target 3 \($T/d3\): bandwidth .* \(low\)$" "$T/out.log" ||
	fail "the throttled drive is not named as an outlier by host and target"
python3 - "$T/thr/results.json" "$T/d3" <<'PY' || fail "results.json verdict (throttle)"
import json, sys
r = json.load(open(sys.argv[1]))
v, path = r["verdict"], sys.argv[2]
def need(c, what):
    if not c:
        print("FAIL:", what, json.dumps(v)[:900]); sys.exit(1)
# one rank per target: the layout spreads 8 ranks over 8 dir targets
ranks = r["phases"][0]["ranks"]
need(sorted(x["target"] for x in ranks) == list(range(8)), "one rank per target")
bad = [c for c in v["checks"] if c["result"] == "fail"]
need(len(bad) == 1 and bad[0]["target_path"] == path and bad[0]["scope"] == "drive"
     and bad[0]["measured_bytes_per_s"] < 8e6, "only the throttled drive fails min_bw_per_drive")
# the cap holds: the I/O after k bytes starts k / 4 MB/s after the first, so
# 32 I/Os of 128 KiB move at most 32/31 x 4 MB/s over the rank's time
for ph in r["phases"]:
    row = [x for x in ph["ranks"] if x["target"] == 3][0]
    bw = row["bw_bytes_per_s"]
    need(bw <= 4e6 * 32 / 31 * 1.001, f"{ph['name']}: throttled rank at {bw / 1e6:.2f} MB/s, cap 4 MB/s")
for ph in ("w", "r"):
    low = [o for o in v["outliers"] if o["phase"] == ph and o["figure"] == "bw"
           and o["scope"] == "drive" and o["deviations"] < 0]
    need(any(o["target_path"] == path and o["host"] for o in low), f"{ph}: the throttled drive is a low outlier")
    print(f"ok: {ph}:", [(o["target_path"], round(o["value_bytes_per_s"] / 1e6, 1),
                          round(o["median_bytes_per_s"] / 1e6, 1)) for o in low])
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
