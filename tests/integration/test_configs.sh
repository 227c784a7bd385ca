#!/usr/bin/env bash
# Every ready config in configs/ stays valid: each one's plan is built and
# checked on 2 ranks (8 for llm_ckpt and mlperf_ckpt) with --dry-run (no I/O), on temp targets, shrunk where
# its phases take a size.  Then the review suite runs end to end shrunk as
# the docs show (pe511_suite.yaml: fill, every sweep, the AI phases),
# and must give every sweep's cells, the fill's write cliff and the stages.
. "$(dirname "$0")/lib.sh"

n=0
for cfg in "$SC_SOURCE_DIR"/configs/*.yaml; do
	name=$(basename "$cfg")
	mkdir -p "$T/$name"
	# results beside the target, never in it (refused: exit 2)
	args=(--dry-run --output "$T/out/$name")
	# the checkpoint and ingest configs have no size key; llm_ckpt's layout
	# (tp 4 x pp 2) needs a multiple of 8 ranks
	np=2
	case "$name" in
	llm_ckpt.yaml | mlperf_ckpt.yaml) np=8 ;;
	ingest.yaml) ;;
	# full size needs terabytes: its header's laptop shrink
	mlperf_training.yaml) args+=(--set phases.0.files=56 --set phases.0.record_size=8MiB
		--set phases.1.files=960 --set phases.2.files=336 --set phases.2.record_size=1MiB) ;;
	*) args+=(--set size=16MiB) ;;
	esac
	rc=0
	SSDCLUSTER_TARGET="$T/$name" SSDCLUSTER_DRIVES="$T/$name/acc" \
		sc_mpirun "$np" "$cfg" "${args[@]}" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/out.log"; fail "$name: --dry-run exited $rc"; }
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n configs found"

mkdir -p "$T/suite"
SSDCLUSTER_TARGET="$T/suite" sc_mpirun 2 "$SC_SOURCE_DIR/configs/pe511_suite.yaml" \
	--set size=16MiB --set runtime=1s --set ramp=0s --set passes=1 --output "$T/suite-out" ||
	{ cat "$T/out.log"; fail "pe511_suite.yaml shrunk exited $?"; }
python3 - "$T/suite-out/results.json" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
def fail(msg):
    print("FAIL:", msg); sys.exit(1)
sweeps = {s["name"]: s["sweep"] for s in res["sweeps"]}
want = ["seq128k_read", "seq128k_write", "rand4k_read", "rand4k_write", "rand4k_7030"]
if sorted(sweeps) != sorted(want):
    fail("sweeps: %s" % sorted(sweeps))
for name, s in sweeps.items():
    qd = [c["iodepth"] for c in s["cells"] if c["measured"]]
    if qd != [1, 8, 64, 512]:
        fail("%s: measured cells at QD %s, want 1, 8, 64, 512" % (name, qd))
fill = [p for p in res["phases"] if p["name"] == "precondition"]
if len(fill) != 1 or "write_cliff" not in fill[0]:
    fail("the precondition fill and its write_cliff")
names = [p["name"] for p in res["phases"]]
for n in ("ai_ingest", "ai_checkpoint", "ai_kvcache"):
    if n not in names:
        fail("phase %s missing" % n)
if len(res["stages"]) != len(res["phases"]):
    fail("stages: %d rows for %d phases" % (len(res["stages"]), len(res["phases"])))
print("ok: %d phases, 5 sweeps of 4 cells, write cliff, stages" % len(names))
PY
