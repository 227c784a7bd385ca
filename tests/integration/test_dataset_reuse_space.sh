#!/usr/bin/env bash
# A dataset already laid out counts as room for the run that reuses it: on
# a 24 MiB filesystem a 20 MiB training dataset is laid out by the first
# run, and a second run (4 MiB free) reuses it rather than being refused
# for 20 MiB it does not need.  A dataset the plan does not use (another
# seed: another directory) gets no such credit, and neither does a stated
# capacity (the run's whole footprint): both are refused with exit 2.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then skip "needs root to mount a small tmpfs"; fi
mkdir -p "$T/mnt"
mount -t tmpfs -o size=24M sc-reuse "$T/mnt" || skip "cannot mount tmpfs"
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT

cfg() { # SEED CAPACITY-LINE
	cat <<YAML
targets:
  - path: $T/mnt/d
$2
defaults:
  direct: false
phases:
  - name: train
    workload: training
    files: 20
    samples_per_file: 1
    record_size: 1MiB
    batch: 2
    jobs: 1
    computation_time: 0s
    epochs: 1
    au: 0.5
    seed: $1
YAML
}
cfg 1 "" >"$T/a.yaml"
rc=0; sc_mpirun 1 "$T/a.yaml" --output "$T/o1" || rc=$?
[ "$rc" = 0 ] || { cat "$T/out.log"; fail "the first run exited $rc"; }
ds=$(ls -d "$T"/mnt/d/ssdcluster-datasets/train-*)
[ "$(ls "$ds" | wc -l)" = 20 ] || fail "20 dataset files"
stamp=$(stat -c %Y.%i "$ds/file_0.dat")
free=$(df -B1 --output=avail "$T/mnt" | tail -1)
echo "free after the first run: $free B"
[ "$free" -lt $((20 << 20)) ] || fail "the filesystem has room for a second dataset: the test proves nothing"
rc=0; sc_mpirun 1 "$T/a.yaml" --output "$T/o2" || rc=$?
[ "$rc" = 0 ] || { cat "$T/out.log"; fail "the second run, reusing its dataset, exited $rc"; }
[ "$(stat -c %Y.%i "$ds/file_0.dat")" = "$stamp" ] || fail "the dataset was written again"

cfg 2 "" >"$T/b.yaml"
rc=0; sc_mpirun 1 "$T/b.yaml" --output "$T/o3" || rc=$?
[ "$rc" = 2 ] || { cat "$T/out.log"; fail "another dataset with no room: exit $rc, want 2"; }
grep -q "needs 20.0 MiB for 1 rank(s)" "$T/out.log" || { cat "$T/out.log"; fail "the refusal's arithmetic"; }

cfg 1 "    capacity: 16MiB" >"$T/c.yaml"
rc=0; sc_mpirun 1 "$T/c.yaml" --output "$T/o4" || rc=$?
[ "$rc" = 2 ] || { cat "$T/out.log"; fail "a 20 MiB dataset in a capacity of 16 MiB: exit $rc, want 2"; }
echo PASS
