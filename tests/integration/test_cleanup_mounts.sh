#!/usr/bin/env bash
# Cleanup stays on the run directory's own mount (issue 23).  While a run
# writes, a victim directory is bind mounted on a directory made in its
# run directory, a victim file over a file made in it, and a tmpfs holding
# victims is mounted in it.  After the run every victim keeps every byte
# (sha256 before and after), the run's own files are gone, the run exits 1
# with a message naming each entry it left and why, and results.json is
# written all the same.
#
# The mounts go in a mount namespace of the test's own (private), so that
# nothing of them reaches the rest of the machine; they are unmounted at
# exit as well.  Needs root and mount(8): exit 77 (skip) without them.
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: needs root to mount"; exit 77; fi
if [ -z "${SC_OWN_MOUNT_NS:-}" ]; then
	command -v unshare >/dev/null && unshare -m --propagation private true 2>/dev/null ||
		{ echo "SKIP: cannot make a mount namespace (unshare -m)"; exit 77; }
	SC_OWN_MOUNT_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/ranks_lib.sh"

MOUNTS=() # unmounted at exit, the last made first
unmount_all() {
	local i
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		mountpoint -q "${MOUNTS[i]}" 2>/dev/null && umount "${MOUNTS[i]}"
	done
	MOUNTS=()
}
trap 'kill_leftovers "$T/"; unmount_all; rm -rf "$T"' EXIT

mkdir -p "$T/target" "$T/victims/dir/sub"
printf 'precious data, must survive\n' >"$T/victims/file"
printf 'another precious file\n' >"$T/victims/dir/inside"
head -c 100000 /dev/urandom >"$T/victims/dir/sub/random.bin"
# a checksum of every victim, its name and its content
victims_sum() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
victims_before=$(victims_sum "$T/victims")

# one phase that writes slowly for 8 s (100 I/Os a second a rank), the
# time to mount while it runs
cat >"$T/run.yaml" <<YAML
targets:
  - path: $T/target
    capacity: 256MiB
phases:
  - name: slow
    rw: write
    bs: 4KiB
    size: 1MiB
    engine: io_uring
    direct: false
    runtime: 8s
    rate: 100/s
YAML

run_dir=$T/target/ssdcluster-mounts
sc_mpirun_bg 2 "$T/run.yaml" --run-id mounts --output "$T/out" --progress=lines
# polls until the phase runs (the run directory exists by then)
wait_running "$T/out.log" slow 120 || { cat "$T/out.log"; fail "phase slow never ran"; }
[ -d "$run_dir" ] || { cat "$T/out.log"; fail "no run directory $run_dir"; }

# the attack, while the run writes
mkdir "$run_dir/x" "$run_dir/t"
: >"$run_dir/f"
mount --bind "$T/victims/dir" "$run_dir/x" && MOUNTS+=("$run_dir/x") ||
	skip "cannot bind mount"
mount --bind "$T/victims/file" "$run_dir/f" && MOUNTS+=("$run_dir/f") ||
	fail "cannot bind mount a file"
mount -t tmpfs -o size=1M sc-cleanup-test "$run_dir/t" && MOUNTS+=("$run_dir/t") ||
	fail "cannot mount a tmpfs"
mkdir "$run_dir/t/sub"
printf 'on a tmpfs in the run directory\n' >"$run_dir/t/kept"
head -c 50000 /dev/urandom >"$run_dir/t/sub/random.bin"
tmpfs_before=$(victims_sum "$run_dir/t")
kill -0 "$MPIRUN_PID" 2>/dev/null || { cat "$T/out.log"; fail "the run ended before the mounts"; }
echo "mounted x (a directory), f (a file) and t (a tmpfs) in $run_dir while the run wrote"

wait_exit "$MPIRUN_PID" 120 || { cat "$T/out.log"; fail "the run did not end"; }
cat "$T/out.log"

# every victim, through its own path and through the mounts, byte for byte
[ "$(victims_sum "$T/victims")" = "$victims_before" ] || fail "a bind-mounted victim changed"
[ "$(victims_sum "$run_dir/t")" = "$tmpfs_before" ] || fail "a file on the tmpfs changed"
echo "ok: every victim keeps every byte"
[ "$RC" -eq 1 ] || fail "the run exited $RC after leaving mounts behind, want 1"
msg="left 3 entries in $run_dir that are on another mount ("
grep -qF "$msg" "$T/out.log" || fail "no message: $msg"
line=$(grep -F "$msg" "$T/out.log")
for what in "x: a mount point (another mount of this filesystem" \
	"f: a mount point (another mount of this filesystem" \
	"t: a mount point (another filesystem)" \
	"unmount them, then remove the directory): nothing on them was removed"; do
	[[ "$line" == *"$what"* ]] || fail "the message does not say \"$what\": $line"
done
[ "$(grep -cF "$msg" "$T/out.log")" -eq 1 ] || fail "the message is not said once"
echo "ok: exit 1, the message names x, f and t and why"
python3 - "$T/out/results.json" <<'PY' || fail "results.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["run_id"] == "mounts", r["run_id"]
(ph,) = r["phases"]
assert ph["name"] == "slow" and ph["cluster"]["bytes_written"] > 0, ph["cluster"]
print("results.json: phase slow wrote", ph["cluster"]["bytes_written"], "B")
PY
# the run's own files are gone: the mount points are all that is left
[ "$(ls -A "$run_dir" | tr '\n' ' ')" = "f t x " ] ||
	fail "the run directory holds more than the mount points: $(ls -A "$run_dir")"
unmount_all
[ "$(victims_sum "$T/victims")" = "$victims_before" ] || fail "a victim changed (unmounted)"
[ -z "$(ls -A "$run_dir/x")" ] && [ -z "$(ls -A "$run_dir/t")" ] && [ ! -s "$run_dir/f" ] ||
	fail "the run wrote below its mount points"
rmdir "$run_dir/x" "$run_dir/t" && rm "$run_dir/f" && rmdir "$run_dir" ||
	fail "the run directory holds more than its mount points"
echo "ok: results kept; only the mount points were left"

# The same with two targets: rank 1 makes target 1's run directory and
# finds the mount there.  Rank 0, which states the run's exit status under
# its verdict, states 1 (not 0: a threshold the run meets), as mpirun exits.
mkdir -p "$T/target1"
sed -e "s|^  - path: $T/target$|&\n  - path: $T/target1|" -e 's|^    rate: 100/s$|&\n    expect: {min_iops: 1}|' \
	"$T/run.yaml" >"$T/run2.yaml"
grep -q "target1" "$T/run2.yaml" && grep -q "min_iops" "$T/run2.yaml" || fail "run2.yaml: $(cat "$T/run2.yaml")"
run_dir1=$T/target1/ssdcluster-mounts2
sc_mpirun_bg 2 "$T/run2.yaml" --run-id mounts2 --output "$T/out2" --progress=lines
wait_running "$T/out.log" slow 120 || { cat "$T/out.log"; fail "phase slow never ran (2 targets)"; }
[ -d "$run_dir1" ] || { cat "$T/out.log"; fail "no run directory $run_dir1"; }
mkdir "$run_dir1/x"
mount --bind "$T/victims/dir" "$run_dir1/x" && MOUNTS+=("$run_dir1/x") || fail "cannot bind mount"
wait_exit "$MPIRUN_PID" 120 || { cat "$T/out.log"; fail "the run did not end (2 targets)"; }
cat "$T/out.log"
[ "$(victims_sum "$T/victims")" = "$victims_before" ] || fail "2 targets: a bind-mounted victim changed"
[ "$RC" -eq 1 ] || fail "2 targets: the run exited $RC after leaving a mount behind, want 1"
grep -qF "rank 1: left 1 entry in $run_dir1 that is on another mount" "$T/out.log" ||
	fail "2 targets: rank 1 does not say what it left"
grep -qF "verdict: PASS" "$T/out.log" || fail "2 targets: the threshold was not met"
grep -qxF "exit status 1: the run failed; the verdict is of what was measured" "$T/out.log" ||
	fail "2 targets: rank 0 does not state exit status 1"
unmount_all
echo "ok: a mount left in rank 1's run directory: rank 0 states exit status 1, and it is 1"
echo PASS
