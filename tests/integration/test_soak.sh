#!/usr/bin/env bash
# soak (opt-in): one rank runs for a long time and its memory stays flat, so
# nothing grows per I/O.  Skipped (77) unless SSDCLUSTER_SOAK=1; it takes
# SSDCLUSTER_SOAK_SECONDS (default 600, at least 100), split in two runs of
# one phase each:
#   1. the null engine, 4 KiB randread, QD32 (millions of I/Os a second:
#      the tool's own per-I/O path);
#   2. io_uring on a 64 MiB file in a temp dir, 4 KiB randrw 70/30, QD32,
#      direct: true (the engine's path with writes).
# The rank's VmRSS (/proc/PID/status) is sampled every 5 s.  Samples of the
# first 10% of a run (start-up) and after its runtime (results, exit) are
# left out; of the rest, the median of the last quarter may exceed the
# median of the first quarter by at most
#     1 MiB + 1% of the first quarter's median + the per-second series,
# the series being what the rank keeps by design for every second of a
# phase: one struct sc_second (56 B: bytes, I/Os and max latency per
# direction, temperature) per job and second, counted here for the whole
# run as if none of it were allocated ahead (it is, for a timed phase).
# Each run prints RSS at start, min, max and end (MiB) and the I/Os done.
#
#   SSDCLUSTER_SOAK=1 ctest -R soak --output-on-failure
. "$(dirname "$0")/lib.sh"

if [ "${SSDCLUSTER_SOAK:-0}" != 1 ]; then
	skip "opt-in, set SSDCLUSTER_SOAK=1 (10 minutes; SSDCLUSTER_SOAK_SECONDS to change)"
fi
SECS=${SSDCLUSTER_SOAK_SECONDS:-600}
case $SECS in '' | *[!0-9]*) fail "SSDCLUSTER_SOAK_SECONDS=$SECS is not a number of seconds" ;; esac
[ "$SECS" -ge 100 ] || fail "SSDCLUSTER_SOAK_SECONDS=$SECS: at least 100 (two runs of 50 s, 5 s samples)"
HALF=$((SECS / 2))
INTERVAL=5   # s between RSS samples
JOBS=1       # jobs per run: the series allowance counts per job

# soak_run NAME ENGINE_LINES... : runs one phase of HALF seconds on one rank,
# sampling its VmRSS into $T/NAME.rss ("seconds kib" per line).
soak_run() {
	local name=$1 yaml=$T/$1.yaml; shift
	{
		echo "targets:"
		echo "  - path: $T/$name.target"
		echo "phases:"
		echo "  - name: $name"
		echo "    bs: 4KiB"
		echo "    iodepth: 32"
		echo "    jobs: $JOBS"
		echo "    runtime: ${HALF}s"
		printf '    %s\n' "$@"
	} >"$yaml"
	"$SC_BIN" "$yaml" --output "$T/$name.out" --progress=none >"$T/$name.log" 2>&1 &
	local pid=$! t0=$SECONDS kib
	: >"$T/$name.rss"
	while kib=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) && [ -n "$kib" ]; do
		echo "$((SECONDS - t0)) $kib" >>"$T/$name.rss"
		sleep "$INTERVAL"
	done
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/$name.log"; fail "$name: ssdcluster exited $rc"; }
}

mkdir -p "$T/io_uring.target"
echo "soak: ${SECS} s, two runs of ${HALF} s, VmRSS every ${INTERVAL} s"
soak_run null_engine "rw: randread" "size: 1GiB" "engine: null"
soak_run io_uring "rw: randrw" "rwmixread: 70" "size: 64MiB" "direct: true" "engine: io_uring"

python3 - "$T" "$HALF" "$JOBS" <<'PY'
import json, statistics, sys

work, secs, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
SERIES_B_PER_JOB_S = 56  # sizeof(struct sc_second), worker/result.h
MIB = 1 << 20
bad = 0
for name in ("null_engine", "io_uring"):
    rows = [tuple(map(int, l.split())) for l in open(f"{work}/{name}.rss")]
    kept = [kib * 1024 for t, kib in rows if secs * 0.1 <= t <= secs]
    ph = json.load(open(f"{work}/{name}.out/results.json"))["phases"][0]["cluster"]
    ios = ph.get("ios_read", 0) + ph.get("ios_write", 0)
    if len(kept) < 8:
        print(f"FAIL {name}: {len(kept)} samples in the run, want 8 or more", file=sys.stderr)
        bad += 1
        continue
    q = max(1, len(kept) // 4)
    first, last = statistics.median(kept[:q]), statistics.median(kept[-q:])
    series = SERIES_B_PER_JOB_S * jobs * secs
    allowed = MIB + first / 100 + series
    grew = last - first
    print(f"{name}: {len(kept)} samples of {len(rows)}; RSS MiB start {kept[0] / MIB:.2f}, "
          f"min {min(kept) / MIB:.2f}, max {max(kept) / MIB:.2f}, end {kept[-1] / MIB:.2f}; "
          f"{ios:,} I/Os done")
    print(f"{name}: median of first quarter {first / MIB:.3f} MiB, of last {last / MIB:.3f} MiB: "
          f"grew {grew / 1024:+.1f} KiB ({grew / ios:+.6f} B per I/O); allowed "
          f"{allowed / 1024:.1f} KiB = 1024 KiB + 1% ({first / 100 / 1024:.1f} KiB) + series "
          f"{series / 1024:.1f} KiB ({SERIES_B_PER_JOB_S} B x {jobs} job(s) x {secs} s)")
    if ios == 0:
        print(f"FAIL {name}: no I/O done", file=sys.stderr)
        bad += 1
    if grew > allowed:
        print(f"FAIL {name}: RSS grew {grew / 1024:.1f} KiB over the run, more than "
              f"{allowed / 1024:.1f} KiB", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
