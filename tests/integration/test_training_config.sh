#!/usr/bin/env bash
# workload: training as the ranks resolve it (no I/O: dry runs and refused
# runs): 8 ranks of unet3d on b200 with 7200 files print and echo the
# hand-worked figures (128 steps an epoch, the rules' minimum of 28,000
# files and the 20,800 short of it), files defaults to the rules' minimum,
# an epoch without a step is refused at files, and a dataset its targets
# cannot hold is refused with the arithmetic of each target's share.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/a" "$T/b"

# dry_run NP CONFIG OUT LINE... : a dry run of CONFIG on NP ranks exits 0
# and prints each LINE (a fixed string) somewhere.
dry_run() {
	local np=$1 cfg=$2 out=$3 rc=0 want
	shift 3
	sc_mpirun "$np" "$cfg" --dry-run --output "$out" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/out.log"; fail "dry run of $cfg: exit $rc"; }
	for want in "$@"; do
		grep -qF "$want" "$T/out.log" || { cat "$T/out.log"; fail "dry run lacks: $want"; }
	done
}

# --- unet3d on b200, 8 ranks, 7200 files, 1 GiB of client memory:
# 7200 / 7 / 8 = 128.6 -> 128 steps an epoch; the rules' minimum is
# max(ceil(5 x 1 GiB / 146,600,628 B) = 37, 500 x 8 x 7 = 28,000); the
# mean file (12107 - 1/2)^2 = 146,567,342 B; the dataset 7200 x that =
# 1,055,284,862,400 B.  Engine null: no dataset to lay out.
cat >"$T/unet.yaml" <<YAML
targets:
  - path: $T/a
phases:
  - name: train
    workload: training
    benchmark: unet3d
    accelerator: b200
    files: 7200
    client_memory: 1GiB
    engine: null
YAML
dry_run 8 "$T/unet.yaml" "$T/dry1" \
	"phase 0 train: training unet3d on b200 (MLPerf Storage v3.0 closed), 8 accelerators, 4 read threads x QD 8 in reads of 1.00 MiB, buffered, prefetch 2" \
	"dataset: 7200 files x 146567342 B mean (1 sample(s) of 146600628 B mean, stdev 68341808 B) = 1055284862400 B" \
	"steps: 128 per epoch per accelerator (7200 files x 1 samples / batch 7 / 8 accelerators) x 5 epochs, compute 162 ms a step, AU at least 90%" \
	"files: 7200, below the rules' minimum of 28000 by 20800 (the larger of 5 x client memory 1.00 GiB"
python3 - "$T/dry1/plan.json" <<'PY' || fail "plan.json: see above"
import json, sys
p = json.load(open(sys.argv[1]))
t = p["plan"]["phases"][0]["training"]
want = {"benchmark": "unet3d", "accelerator": "b200", "mlperf_status": "closed",
        "changed_from_workload_file": "", "files": 7200, "accelerators": 8,
        "client_memory_bytes": 1 << 30, "batch": 7, "epochs": 5, "au": 0.9,
        "computation_ns": 162000000, "mean_file_bytes": 146567342,
        "dataset_bytes": 7200 * 146567342, "steps_per_epoch": 128,
        "min_files": 28000, "files_below_min": 20800}
for k, v in want.items():
    assert t[k] == v, (k, t[k], v)
# each rank reads 128 steps x 7 samples x 5 epochs of the mean sample
assert p["phases"][0]["bytes_read_planned"] == 8 * 128 * 7 * 5 * 146567342, p["phases"][0]
assert p["phases"][0]["bytes_written_planned"] == 0, p["phases"][0]
PY

# --- files left out: the rules' minimum.  retinanet on b200, 2 ranks, 100
# GiB of client memory: max(ceil(5 x 100 GiB / 322,957 B) = 1,662,361,
# 500 x 2 x 24 = 24,000); 1,662,361 / 24 / 2 = 34,632 steps.  A batch of
# 30 changes the file's value, which the plan names.
cat >"$T/retina.yaml" <<YAML
targets:
  - path: $T/a
phases:
  - name: train
    workload: training
    benchmark: retinanet
    accelerator: b200
    client_memory: 100GiB
    engine: null
  - name: bigger
    workload: training
    benchmark: retinanet
    accelerator: b200
    batch: 30
    client_memory: 100GiB
    engine: null
YAML
dry_run 2 "$T/retina.yaml" "$T/dry2" \
	"steps: 34632 per epoch per accelerator (1662361 files x 1 samples / batch 24 / 2 accelerators)" \
	"files: 1662361, meeting the rules' minimum of 1662361 (" \
	"training retinanet on b200 (MLPerf Storage v3.0 closed; changed: batch)"

# --- an epoch without a step: 3 files of one sample for batch 7 on 2 ranks
cat >"$T/few.yaml" <<YAML
targets:
  - path: $T/a
phases:
  - workload: training
    benchmark: unet3d
    accelerator: b200
    files: 13
    engine: null
YAML
rc=0
sc_mpirun 2 "$T/few.yaml" --dry-run --output "$T/dry3" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "an epoch without a step: exit $rc, not 2"; }
grep -qF "few.yaml:7:12: phases.0.files: 13 files x 1 samples are less than one step of batch 7 for each of 2 accelerator(s), so an epoch has no step (give at least 14 files" \
	"$T/out.log" || { cat "$T/out.log"; fail "no message at files"; }
[ ! -e "$T/dry3" ] || fail "a refused dry run wrote its output folder"

# --- a dataset its targets cannot hold: 8 ranks on two 1 GiB targets, 4
# on each, each target's 4 of 8 accelerators reading 3600 of the 7200
# files: 3600 x 146,567,342 B = 491 GiB.  Refused (exit 2) before any
# I/O, and the dry run names the shortfall.
cat >"$T/full.yaml" <<YAML
targets:
  - path: $T/a
    capacity: 1GiB
  - path: $T/b
    capacity: 1GiB
phases:
  - name: train
    workload: training
    benchmark: unet3d
    accelerator: b200
    files: 7200
YAML
want="full.yaml:3:15: targets.0.capacity: $T/a on $(hostname) needs 491 GiB for 4 rank(s) but capacity is 1.00 GiB (raise capacity, or plan fewer bytes: size, jobs, scale, files); phase train's dataset here: 4 of 8 accelerators read 3600 of 7200 files x 146567342 B mean = 491 GiB"
rc=0
sc_mpirun 8 "$T/full.yaml" --output "$T/run4" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "a dataset too big: exit $rc, not 2"; }
grep -qF "$want" "$T/out.log" || { cat "$T/out.log"; fail "no arithmetic of the dataset"; }
[ "$(count_entries "$T/a")" -eq 0 ] && [ "$(count_entries "$T/b")" -eq 0 ] ||
	fail "a refused run wrote to its targets"
[ ! -e "$T/run4" ] || fail "a refused run wrote its output folder"
rc=0
sc_mpirun 8 "$T/full.yaml" --dry-run --output "$T/dry4" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "dry run of a dataset too big: exit $rc, not 2"; }
grep -q "4 ranks: needs 491 GiB of 1.00 GiB  TOO SMALL" "$T/out.log" ||
	{ cat "$T/out.log"; fail "the dry run printed no shortfall"; }
echo PASS
