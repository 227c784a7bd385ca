#!/usr/bin/env bash
# run.sh HARNESS SEED_CORPUS SECONDS WORKDIR -- fuzzes for SECONDS: new
# inputs go to WORKDIR/corpus (the seeds in the source tree stay as they
# are), a crash, leak or timeout leaves its input in WORKDIR/artifacts and
# fails.  Keep such an input in tests/data/ as a regression test.
set -euo pipefail
harness=$1 seeds=$2 seconds=$3 work=$4
mkdir -p "$work/corpus" "$work/artifacts"
dict=()
[ -f "$seeds.dict" ] && dict=(-dict="$seeds.dict") # tokens for the mutations
# -timeout: one input taking this long is a hang; -rss_limit_mb: unbounded
# allocation; -close_fd_mask=2: the harness's refusal messages stay quiet.
exec "$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-close_fd_mask=2 -print_final_stats=1 "${dict[@]}" \
	-artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds"
