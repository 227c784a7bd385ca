#!/usr/bin/env bash
# test_model_emulated.sh -- the cluster model checked on emulated drives: a
# prediction from a 4-rank run matches a 64-rank run's measured checkpoint
# time within 10%.
#
# engine: emulated makes every rank its own drive; speed_spread: 30% draws
# each drive's speed per checkpoint and rank in [0.7, 1.3], so the slowest
# of 64 drives is slower than the slowest of 4 and the maximum matters.
# tp 1, pp 1, ZeRO 3: every rank writes the same bytes, and the 4-rank run
# at scale S/16 writes per rank what the 64-rank run writes at scale S.
# Each rank writes about 28 MB per checkpoint at 64 MiB/s (about 0.4 s at
# speed 1), long against the scheduling of 64 ranks on a few cores.
# One checkpoint index per trial over the 4 drives alone would predict
# about 10% short (E[max of 64] from 4 samples); pooled rows come within 2%
# on the review machine.
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
write_config "$SMALL_SCALE" "$T/small.yaml"
write_config "$SCALE" "$T/large.yaml"

sc_mpirun 4 "$T/small.yaml" --output "$T/o4" || { cat "$T/out.log"; fail "4-rank run exited $?"; }
sc_mpirun 64 "$T/large.yaml" --output "$T/o64" || { cat "$T/out.log"; fail "64-rank run exited $?"; }
[ "$(count_entries "$T/target")" -eq 0 ] || fail "the emulated runs wrote files"

# The prediction: ssdcluster model from the 4-rank results, for 64 nodes
# of one accelerator and one drive at the 64-rank run's scale.  With 4
# drives a resampling row pools the nearest checkpoints (see sc_model_ckpt),
# each moved to its index's trend.
"$SC_BIN" model "$T/o4/results.pb" --nodes 64 --gpus-per-node 1 --drives-per-node 1 \
	--tp 1 --pp 1 --zero 3 --scale "$SCALE" --json --seed 1 >"$T/model.json" ||
	fail "ssdcluster model exited $?"
"$SC_BIN" model "$T/o4/results.pb" --nodes 64 --gpus-per-node 1 --drives-per-node 1 \
	--tp 1 --pp 1 --zero 3 --scale "$SCALE" --json --seed 1 >"$T/model2.json" ||
	fail "ssdcluster model exited $? the second time"
cmp -s "$T/model.json" "$T/model2.json" || fail "the same results and seed gave different output"

python3 - "$T/o4/results.json" "$T/o64/results.json" "$T/model.json" "$TOLERANCE" <<'PY'
import json, sys
small = json.load(open(sys.argv[1]))
large = json.load(open(sys.argv[2]))
pred = json.load(open(sys.argv[3]))["model"]["sizes"][0]["checkpoint"]["mean_ns"]
tol = float(sys.argv[4])
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
need(small["nranks"] == 4 and large["nranks"] == 64, "4 and 64 ranks")
w4 = small["checkpoints"][0]["write"]
w64 = large["checkpoints"][0]["write"]
need(w4["checkpoints"] == w64["checkpoints"] >= 8, "the same checkpoints, at least 8")
meas = w64["mean_duration_ns"]
err = (pred - meas) / meas
print(f"4 ranks: mean checkpoint {w4['mean_duration_ns'] / 1e6:.1f} ms (slowest of 4)")
print(f"64 ranks: predicted {pred / 1e6:.1f} ms, measured {meas / 1e6:.1f} ms, "
      f"error {100 * err:+.1f}% (allowed +-{100 * tol:.0f}%)")
# The maximum matters: 64 drives are measurably slower than 4.
need(meas > w4["mean_duration_ns"] * 1.03, "the 64-rank checkpoint is no slower than the 4-rank one")
need(abs(err) <= tol, f"prediction {pred:.0f} ns vs measured {meas:.0f} ns: {100 * err:+.1f}%")
PY
[ $? -eq 0 ] || fail "prediction against measurement"
echo "PASS"
