#!/usr/bin/env bash
# test_model_emulated.sh -- the cluster model checked on emulated drives: a
# prediction from a 4-rank run (the fitted tail of model.h, sc_model_ckpt;
# its arithmetic is checked against known truth in
# tests/unit/coordinator/test_model_tail.c) is the slowest of 64 drives and not of 4,
# and is no more than 10% under what 64 emulated drives take by their model
# (the slowest of 64 speeds), with a band that reaches it; the 64-rank run
# is no faster than that model.  Above, the prediction is not bounded: it
# inherits the 4-rank run's overhead.  The 64-rank
# run's time is printed, not checked against the prediction: 64 ranks on a
# few busy cores measure the machine as much as the drives.
#
# engine: emulated makes every rank its own drive; speed_spread: 30% draws
# each drive's speed per checkpoint and rank in [0.7, 1.3], so the slowest
# of 64 drives is slower than the slowest of 4 and the maximum matters.
# tp 1, pp 1, ZeRO 3: every rank writes the same bytes, and the 4-rank run
# at scale S/16 writes per rank what the 64-rank run writes at scale S.
# Each rank writes about 28 MB per checkpoint at 64 MiB/s (about 0.4 s at
# speed 1), long against the scheduling of 64 ranks on a few cores.
. "$(dirname "$0")/lib.sh"

SCALE=0.016         # the 64-rank run's; the 4-rank run's is SCALE / 16
SMALL_SCALE=0.001
CHECKPOINTS=10
TOLERANCE=0.10      # |predicted - measured| / measured

mkdir -p "$T/target"
write_config() { # write_config SCALE FILE
	cat >"$2" <<YAML
targets:
  - path: $T/target
    capacity: 1GiB
phases:
  - name: ckpt
    workload: checkpoint
    engine: emulated
    model: llama3-8b
    tp: 1
    pp: 1
    zero: 3
    checkpoints: $CHECKPOINTS
    compute_between: 0
    fsync: true
    block_size: 1MiB
    iodepth: 4
    jobs: 1
    scale: $1
    emulate: {bandwidth: 64MiB, latency: 100us, speed_spread: 30%}
YAML
}
# 64 sanitized ranks hold about 513 MiB each, 33 GiB in all: more than a
# 24 GiB machine has.  The model's code is sanitized in its unit tests.
[ "$SC_SANITIZED" = 0 ] || skip "64 sanitized ranks do not fit in memory (about 33 GiB); run in the plain build"
write_config "$SMALL_SCALE" "$T/small.yaml"
write_config "$SCALE" "$T/large.yaml"

sc_mpirun 4 "$T/small.yaml" --output "$T/o4" || { cat "$T/out.log"; fail "4-rank run exited $?"; }
sc_mpirun 64 "$T/large.yaml" --output "$T/o64" || { cat "$T/out.log"; fail "64-rank run exited $?"; }
[ "$(count_entries "$T/target")" -eq 0 ] || fail "the emulated runs wrote files"

# The prediction: ssdcluster model from the 4-rank results, for 64 nodes
# of one accelerator and one drive at the 64-rank run's scale (and for 4).
"$SC_BIN" model "$T/o4/results.pb" --nodes 4,64 --gpus-per-node 1 --drives-per-node 1 \
	--tp 1 --pp 1 --zero 3 --scale "$SCALE" --json --seed 1 >"$T/model.json" ||
	fail "ssdcluster model exited $?"
"$SC_BIN" model "$T/o4/results.pb" --nodes 4,64 --gpus-per-node 1 --drives-per-node 1 \
	--tp 1 --pp 1 --zero 3 --scale "$SCALE" --json --seed 1 >"$T/model2.json" ||
	fail "ssdcluster model exited $? the second time"
cmp -s "$T/model.json" "$T/model2.json" || fail "the same results and seed gave different output"

python3 - "$T/o4/results.json" "$T/o64/results.json" "$T/model.json" "$TOLERANCE" <<'PY'
import json, sys
small = json.load(open(sys.argv[1]))
large = json.load(open(sys.argv[2]))
size4, size = json.load(open(sys.argv[3]))["model"]["sizes"]
pred = size["checkpoint"]["mean_ns"]
tol = float(sys.argv[4])
BW = 64 * 2**20      # emulate: bandwidth, bytes/s
SPREAD = 0.30        # emulate: speed_spread
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
def e_inv_min(n, steps=100000):
    """E[1 / min of n speeds uniform in [1 - SPREAD, 1 + SPREAD]]: the
    slowest drive's time per byte, in units of 1 / BW."""
    a, w = 1 - SPREAD, 2 * SPREAD
    dx = w / steps
    return sum(n * (1 - (i + 0.5) / steps) ** (n - 1) / w / (a + (i + 0.5) * dx) * dx
               for i in range(steps))
def ideal_ns(run):
    """What the emulated drives take per checkpoint by their model alone:
    a rank's bytes at BW times the slowest of the run's speeds (the
    transfer dominates: 100 us per I/O of about 0.4 s)."""
    cells = run["checkpoints"][0]["cells"]
    need(len({c["bytes"] for c in cells}) == 1, "every checkpoint writes the same bytes")
    return cells[0]["bytes"] / run["nranks"] / BW * e_inv_min(run["nranks"]) * 1e9
def largest(run, ref):
    """The largest sample: a rank's time from its cell's measured start at
    ref bytes."""
    cells = [p for p in run["phases"] if p["name"].startswith("ckpt[")]
    return max((x["end_ns"] - p["measure_start_ns"]) * ref / x["bytes_written"]
               for p in cells for x in p["ranks"])
need(small["nranks"] == 4 and large["nranks"] == 64, "4 and 64 ranks")
w4 = small["checkpoints"][0]["write"]
w64 = large["checkpoints"][0]["write"]
need(w4["checkpoints"] == w64["checkpoints"] >= 8, "the same checkpoints, at least 8")
meas4, meas64 = w4["mean_duration_ns"], w64["mean_duration_ns"]
ideal4, ideal64 = ideal_ns(small), ideal_ns(large)
# The model from what the 4-rank run recorded: every drive writes the
# 64-rank run's bytes (ZeRO 3, tp 1, pp 1: what a 4-rank drive wrote).
ref = size["drive_bytes_max"]
need(size["checkpoint"]["samples"] == 40 and size["checkpoint"]["drives"] == 64
     and ref == small["checkpoints"][0]["cells"][0]["bytes"] / 4, "40 samples, 64 drives, the bytes")
top = largest(small, ref)
# the slowest of 4 drives, rescaled to the bytes a drive writes at 64
want4 = size4["checkpoint"]["mean_ns"] * ref / size4["drive_bytes_max"]
band = (size["checkpoint"]["mean_low_ns"], size["checkpoint"]["mean_high_ns"])
lo = (1 - tol) * ideal64
print(f"4 ranks: mean checkpoint {meas4 / 1e6:.1f} ms, the drives' model {ideal4 / 1e6:.1f} ms "
      f"(x{meas4 / ideal4:.3f})")
print(f"64 ranks: predicted {pred / 1e6:.1f} ms (band {band[0] / 1e6:.1f}..{band[1] / 1e6:.1f}) "
      f"(the slowest of 4: {want4 / 1e6:.1f} ms), the drives' model {ideal64 / 1e6:.1f} ms "
      f"(at least {lo / 1e6:.1f} ms; x{pred / ideal64:.3f}), measured {meas64 / 1e6:.1f} ms "
      f"({100 * (pred - meas64) / meas64:+.1f}% from the prediction)")
# The largest sample is exact; the band holds the figure.
need(band[0] <= pred <= band[1], f"prediction {pred:.0f} ns outside its band {band}")
need(abs(size["checkpoint"]["max_sample_ns"] / top - 1) <= 1e-9,
     f"max_sample_ns {size['checkpoint']['max_sample_ns']:.0f}, the samples' largest {top:.0f} ns")
# The maximum matters: the slowest of 64 is well above the slowest of 4 (the speeds' spread alone gives about 1.15; a
# constant added to every sample cannot close it to 1.03 unless it is 3x
# the checkpoint).
need(pred > 1.03 * want4, f"the 64-node prediction {pred:.0f} ns is not above 4 drives' {want4:.0f} ns")
# The emulated engine completes no I/O before its transfer: the 4-rank
# samples only lose to the machine, the prediction stays above the 64
# drives' model (less 10%) and its band reaches it, and the
# 64-rank run (which a busy machine can only slow further) too.
need(pred >= lo, f"prediction {pred:.0f} ns under {lo:.0f} ns")
need(band[1] >= ideal64, f"the band's top {band[1]:.0f} ns under the drives' model {ideal64:.0f} ns")
need(meas64 >= 0.95 * ideal64,
     f"64 emulated drives took {meas64:.0f} ns, faster than their model's {ideal64:.0f} ns")
PY
[ $? -eq 0 ] || fail "prediction against measurement"
echo "PASS"
