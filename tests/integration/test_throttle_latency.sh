#!/usr/bin/env bash
# A throttled target is a slow drive in latency too: its I/Os pass through
# a FIFO service queue at the throttled rate (worker/pace.h), so at queue
# depth Q with I/Os of B bytes and rate R the drive moves R and an I/O takes
# about Q x B / R (Little's law), as on a real slow drive.  One rank, a
# directory target throttled to 8 MB/s, 64 KiB writes through the page
# cache (direct: false): B / R = 8.192 ms.
# - psync at QD 1 and QD 16 (a sweep), io_uring at QD 16 after a ramp, 2 s
#   each: no write under 8.192 ms, no cell above 8 MB/s.  At QD 16: the
#   bandwidth within 15% of 8 MB/s and the mean latency within 25% of
#   16 x 8.192 = 131 ms (the 15 I/Os queued behind each hide the loop's
#   wake-ups, however late a loaded machine makes them).  At QD 1 the mean
#   latency is what each write took by the measured bandwidth (within 10%:
#   Little's law at depth 1) and the fastest write within 20% of 8.192 ms;
#   the bandwidth is not bounded below there: a late wake-up leaves the
#   drive idle, as a slow host leaves a real drive at QD 1 (7.8 MB/s on an
#   idle 2-core VM, 4.9 MB/s beside two busy loops).
# - the same cells unthrottled: the throttled QD 16 median latency is
#   higher.  (Before the throttle was a queue it held I/Os back before
#   submission, and the throttled drive looked the faster: a QD 16 median
#   of 0.02 ms against 0.15 ms unthrottled, at 8.02 MB/s.)
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d"
# write_config FILE RUNTIME THROTTLE_LINE
write_config() {
	cat >"$1" <<YAML
targets:
  - path: $T/d
    capacity: 256MiB
$3
defaults: {rw: write, bs: 64KiB, direct: false, size: 32MiB, runtime: $2}
phases:
  - name: psync
    engine: psync
    iodepth: [1, 16]
  - name: uring
    engine: io_uring
    iodepth: 16
    ramp: 300ms
YAML
}

write_config "$T/thr.yaml" 2s "    throttle: 8MB/s"
write_config "$T/free.yaml" 500ms ""
sc_mpirun 1 "$T/thr.yaml" --output "$T/thr" --quiet || { cat "$T/out.log"; fail "throttled run exited $?"; }
sc_mpirun 1 "$T/free.yaml" --output "$T/free" --quiet ||
	{ cat "$T/out.log"; fail "unthrottled run exited $?"; }

python3 - "$T/thr/results.json" "$T/free/results.json" <<'PY' || fail "throttled latency"
import json, sys

RATE, BS = 8e6, 65536
SERVICE = BS / RATE  # s per I/O
bad = []
def need(c, what):
    if not c:
        bad.append(what)
    print(("ok:   " if c else "FAIL: ") + what)

def cells(path):
    out = {}
    for ph in json.load(open(path))["phases"]:
        c = ph["cluster"]
        out[ph["name"]] = (ph["iodepth"], c["lastdone_bw_bytes_per_s"], c["latency_ns"]["write"])
    return out

thr, free = cells(sys.argv[1]), cells(sys.argv[2])
need(len(thr) == 3 and len(free) == 3, f"3 cells a run: {sorted(thr)}, {sorted(free)}")
for name, (qd, bw, lat) in sorted(thr.items()):
    little = qd * SERVICE * 1e9
    mean = lat["mean"]
    print(f"{name}: QD {qd}: {bw / 1e6:.3f} MB/s, {lat['count']} writes, mean {mean / 1e6:.2f} ms, "
          f"p50 {lat['p50'] / 1e6:.2f} ms, min {lat['min'] / 1e6:.3f} ms; Little's law {little / 1e6:.1f} ms")
    need(bw <= RATE * 1.001, f"{name}: bandwidth {bw / 1e6:.3f} MB/s not above 8 MB/s")
    need(lat["min"] >= SERVICE * 1e9, f"{name}: no write under one service time ({lat['min']} ns)")
    if qd == 1:
        took = BS / bw * 1e9  # ns per write by the bandwidth
        need(abs(mean - took) <= 0.10 * took,
             f"{name}: QD 1 mean {mean / 1e6:.3f} ms within 10% of the {took / 1e6:.3f} ms a write took")
        need(lat["min"] <= 1.2 * SERVICE * 1e9,
             f"{name}: QD 1 fastest write {lat['min'] / 1e6:.3f} ms within 20% of one service time")
    else:
        need(bw >= 0.85 * RATE, f"{name}: bandwidth {bw / 1e6:.3f} MB/s within 15% of 8 MB/s")
        need(abs(mean - little) <= 0.25 * little,
             f"{name}: QD {qd} mean {mean / 1e6:.1f} ms within 25% of Little's law {little / 1e6:.1f} ms")
    fqd, fbw, flat = free[name]
    need(fqd == qd, f"{name}: the same queue depth unthrottled ({fqd})")
    if qd == 16:
        need(lat["p50"] > flat["p50"],
             f"{name}: throttled p50 {lat['p50'] / 1e6:.2f} ms above unthrottled {flat['p50'] / 1e6:.3f} ms")
sys.exit(1 if bad else 0)
PY
echo PASS
