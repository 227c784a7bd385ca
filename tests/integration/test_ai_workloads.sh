#!/usr/bin/env bash
# Ingestion and KV-cache runs on 2 ranks: accelerator utilisation at both
# ends, exact sample counts, and open-loop response versus service time.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/ai.yaml" <<YAML
targets:
  - path: $T/target
phases:
  # compute-bound: 100 ms per batch hides the reads, AU near 100% on a
  # quiet machine
  - name: ingest_compute
    workload: ingest
    files: 4
    file_size: 1MiB
    sample_size: 64KiB
    batch: 4
    compute_per_batch: 100ms
    jobs: 2
    iodepth: 4
  # I/O-bound: no compute at all, AU 0, every step waits for its batch
  - name: ingest_io
    workload: ingest
    files: 4
    file_size: 1MiB
    sample_size: 64KiB
    batch: 4
    compute_per_batch: 0
    jobs: 2
    iodepth: 4
  # KV-cache, open loop far above what psync at QD1 per thread can do
  - name: kv
    workload: kvcache
    engine: psync
    direct: false
    size: 8MiB
    jobs: 2
    iodepth: 1
    rate: 10000000/s
    runtime: 2s
YAML

sc_mpirun 2 "$T/ai.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
python3 - "$T/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in r["phases"]}
bad = 0
def need(cond, what):
    global bad
    if not cond:
        print("FAIL:", what); bad += 1

# 4 files x 16 samples = 64 samples per node; 2 ranks, batches of 4:
# each rank takes ceil(64 / (2 x 4)) = 8 steps = 32 samples per epoch
for name in ("ingest_compute", "ingest_io"):
    g = ph[name]["ingest"]
    need(g["steps"] == 16 and g["samples"] == 64, f'{name}: 16 steps, 64 samples: {g["steps"]}, {g["samples"]}')
    need(ph[name]["cluster"]["bytes_read"] == 64 * 65536, f"{name}: bytes read exact")
    need(ph[name]["cluster"]["planned_bytes"] == 64 * 65536, f"{name}: planned bytes")
    need(g["batch_wait_ns"] and g["batch_wait_ns"]["count"] == 16, f"{name}: one batch wait per step")
c = ph["ingest_compute"]["ingest"]
need(c["compute_ns"] == 16 * 100_000_000, f'compute time exact: {c["compute_ns"]}')
# AU is the run's compute over its ranks' wall time, which holds every
# compute and every batch wait (a rank's consumer does one after the other);
# how near 100% it comes is the machine's (a loaded 2-vCPU VM delayed the
# reads to 96.6%; test_ingest's compute-bound runs came to 30-78% next to
# two busy loops): the figures are checked against each other, not against
# a share.
waits = c["batch_wait_ns"]["mean"] * c["batch_wait_ns"]["count"]
need(abs(c["au"] - c["compute_ns"] / c["wall_ns"]) <= 1e-9,
     f'AU {c["au"]} is compute {c["compute_ns"]} ns / wall {c["wall_ns"]} ns')
need(c["wall_ns"] >= c["compute_ns"] + waits * 0.999,
     f'wall {c["wall_ns"]} ns holds compute {c["compute_ns"]} ns and batch waits {waits:.0f} ns')
need(0 < c["au_min"] <= c["au"] <= 1, f'compute-bound AU {c["au"]:.4f} (min {c["au_min"]:.4f}) in (0, 1]')
need(c["au_meets_90_pct"] is (c["au_min"] >= 0.9), f'"meets 90%" {c["au_meets_90_pct"]} follows the lowest rank AU {c["au_min"]:.4f}')
i = ph["ingest_io"]["ingest"]
need(i["au"] == 0 and i["au_meets_90_pct"] is False, f'I/O-bound AU is 0: {i["au"]}')
need(c["au"] > i["au"], "compute-bound AU above I/O-bound")
need(i["batch_wait_ns"]["max"] > 0, "I/O-bound steps wait for their batches")

kv = ph["kv"]
c = kv["cluster"]
n = c["ios_read"] + c["ios_written"]
share = c["ios_read"] / n
need(n > 1000, f"kv: enough I/Os to judge ({n})")
need(abs(share - 0.70) <= 0.02, f"kv: read share {share:.4f} within 2 points of 70%")
resp, serv = kv["open_loop"]["response_latency_ns"]["read"], c["latency_ns"]["read"]
for p, n in (("p50", 2), ("p99", 100), ("p99.99", 10**4)):
    if resp["count"] >= n and serv["count"] >= n:
        need(resp[p] > serv[p], f"kv: response {p} {resp[p]} > service {serv[p]}")
    else:  # too few samples for the percentile: null, never a number
        need(resp[p] is None or serv[p] is None, f"kv: {p} of {resp['count']} samples")
need(kv["open_loop"]["late_ios"] > 0, "kv: late I/Os counted")
need(kv["open_loop"]["unissued_ios"] > 0, "kv: I/Os due but never started are counted")
sys.exit(1 if bad else 0)
PY
echo PASS
