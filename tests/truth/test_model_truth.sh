#!/usr/bin/env bash
# test_model_truth.sh -- the cluster model against known truth: emulated
# drives of four tail shapes (exponential, gamma, stall-dominated, speed
# spread with fill slowdown), 4 measured, the projection for 64, 512 and
# 4096 drives within 10% of the exact E[max] of the drive model
# (model_truth.py says how each is computed and how it checks itself).
# SC_TRUTH_REPORT_ONLY=1: print the table, do not judge it;
# SC_TRUTH_RUN64=1: 64 ranks run for real are the truth at 64 (about 2.5
# minutes more on a 2-core VM);
# SC_TRUTH_SHAPES, SC_TRUTH_CKPTS, SC_TRUTH_NODES, SC_TRUTH_SEED: other runs;
# SC_TRUTH_KEEP=DIR keeps the runs' files there.
. "$(dirname "$0")/../integration/lib.sh"

mkdir -p "$T/target"
rc=0
T="$T" MPIEXEC="$MPIEXEC" python3 "$(dirname "$0")/model_truth.py" || rc=$?
[ -z "${SC_TRUTH_KEEP:-}" ] || cp -r "$T" "$SC_TRUTH_KEEP"
[ "$(count_entries "$T/target")" -eq 0 ] || fail "the emulated runs wrote files"
[ "$rc" -eq 0 ] || fail "the model against the truth"
echo "PASS"
