#!/usr/bin/env bash
# A run writes only inside its own, new directory TARGET/ssdcluster-RUN_ID:
# an existing one (with symlinks planted in it, or itself a symlink) is
# refused with nothing written or removed; a phase name cannot lead out of
# it; --run-id is checked; run ids are random; cleanup removes the run
# directory and nothing else.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target" "$T/victims/dir"
printf 'precious data, must survive\n' >"$T/victims/file"
printf 'another precious file\n' >"$T/victims/dir/inside"
# a checksum of every victim, its name and its content
victims_sum() { (cd "$T/victims" && find . -type f -exec sha256sum {} + | sort); }
victims_before=$(victims_sum)

# config FILE [EXTRA PHASE YAML]: io write then read, and a checkpoint
config() {
	cat >"$1" <<YAML
targets:
  - path: $T/target
    capacity: 256MiB
phases:
  - name: w
    rw: write
    bs: 64KiB
    size: 1MiB
    jobs: 2
  - name: r
    rw: randread
    bs: 4KiB
    size: 1MiB
    io_size: 256KiB
    jobs: 2
  - name: ckpt
    workload: checkpoint
    model: {layers: 2, hidden: 64, ffn_hidden: 128, heads: 4, vocab: 256}
    block_size: 64KiB
${2:-}
YAML
}
config "$T/run.yaml"

# 1. A run directory planted before the run (its id given with --run-id):
#    a symlink where rank 0's job file goes, one where the checkpoint's
#    directory goes.  The run is refused; nothing is written or removed.
planted=$T/target/ssdcluster-planted
mkdir "$planted"
ln -s "$T/victims/file" "$planted/r0.j0.dat"
ln -s "$T/victims/dir" "$planted/ckpt"
# as root, rank 1's file a symlink to a loop device we made (with a marker)
loopdev=
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	truncate -s 8M "$T/loop.img"
	if loopdev=$(losetup --find --show "$T/loop.img" 2>/dev/null); then
		trap 'losetup -d "$loopdev" 2>/dev/null; rm -rf "$T"' EXIT
		printf 'LOOP-MARKER-AT-OFFSET-0' | dd of="$loopdev" conv=notrunc status=none
		ln -s "$loopdev" "$planted/r1.j0.dat"
	else
		loopdev=
	fi
fi
ls -la "$planted" >"$T/planted.before"
rc=0
sc_mpirun 2 "$T/run.yaml" --run-id planted --output "$T/out1" || rc=$?
cat "$T/out.log"
[ "$rc" -ne 0 ] || fail "a run into an existing run directory exited 0"
grep -qF "$planted exists and is not this run's directory" "$T/out.log" ||
	fail "no clear message naming the existing run directory"
[ "$(victims_sum)" = "$victims_before" ] || fail "a victim file changed"
[ -L "$planted/r0.j0.dat" ] && [ -L "$planted/ckpt" ] || fail "a planted symlink was removed"
ls -la "$planted" | diff - "$T/planted.before" || fail "the planted directory changed"
[ ! -e "$T/out1" ] || fail "results were written for a refused run"
echo "ok: an existing run directory is refused, victims unchanged, nothing removed"
if [ -n "$loopdev" ]; then
	[ "$(head -c 23 "$loopdev")" = LOOP-MARKER-AT-OFFSET-0 ] || fail "the loop device was written"
	losetup -d "$loopdev"
	trap 'rm -rf "$T"' EXIT
	echo "ok: a symlink to a block device in it was not written through"
fi

# 2. The run directory itself a symlink to a victim directory.
ln -s "$T/victims/dir" "$T/target/ssdcluster-linked"
rc=0
sc_mpirun 2 "$T/run.yaml" --run-id linked --output "$T/out2" || rc=$?
[ "$rc" -ne 0 ] || { cat "$T/out.log"; fail "a run into a symlinked run directory exited 0"; }
grep -qF "$T/target/ssdcluster-linked" "$T/out.log" || { cat "$T/out.log"; fail "no message"; }
[ "$(victims_sum)" = "$victims_before" ] || fail "a victim changed through a symlinked run dir"
[ "$(ls "$T/victims/dir")" = inside ] || fail "the victim directory gained or lost entries"
[ -L "$T/target/ssdcluster-linked" ] || fail "the planted symlink was removed"
echo "ok: a symlinked run directory is refused"
rm -rf "$planted" "$T/target/ssdcluster-linked"

# 3. A checkpoint phase named ".." or "." would write beside the run
#    directory: refused with exit 2 and file:line:col, before any I/O.
for bad in .. .; do
	config "$T/dots.yaml" "  - name: \"$bad\"
    workload: checkpoint
    model: {layers: 2, hidden: 64, ffn_hidden: 128, heads: 4, vocab: 256}"
	rc=0
	sc_mpirun 2 "$T/dots.yaml" --output "$T/out3" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "phase name \"$bad\": exit $rc, want 2"; }
	grep -qF "dots.yaml:20:11: phases.3.name: \"$bad\" is not a phase name" "$T/out.log" ||
		{ cat "$T/out.log"; fail "phase name \"$bad\": no file:line:col message"; }
	[ "$(count_entries "$T/target")" -eq 0 ] || fail "phase name \"$bad\": the target was written"
	[ -z "$(find "$T" -maxdepth 2 -name 'global_epoch*')" ] || fail "checkpoint files outside"
done
echo "ok: phase names . and .. are refused"

# 4. --run-id is a plain name or exit 2.
for bad in ../x .x -x "a/b" "" "$(printf 'a%.0s' {1..65})"; do
	rc=0
	sc_mpirun 1 "$T/run.yaml" --run-id "$bad" --output "$T/out4" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "--run-id '$bad': exit $rc, want 2"; }
	grep -qF -- "--run-id" "$T/out.log" || { cat "$T/out.log"; fail "--run-id '$bad': no message"; }
done
[ "$(count_entries "$T/target")" -eq 0 ] || fail "a bad --run-id wrote into the target"
echo "ok: bad run ids are refused"

# 5. Cleanup: a normal run removes its directory and nothing else.
printf 'sibling\n' >"$T/target/sibling.txt"
mkdir "$T/target/ssdcluster-other"
printf 'not ours\n' >"$T/target/ssdcluster-other/r0.j0.dat"
(cd "$T/target" && find . | sort) >"$T/target.before"
sc_mpirun 2 "$T/run.yaml" --run-id clean-1 --output "$T/out5" || { cat "$T/out.log"; fail "run"; }
python3 - "$T/out5/results.json" <<'PY' || fail "the run did not write and read"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["run_id"] == "clean-1", r["run_id"]
w, rd, ck = r["phases"]
assert w["cluster"]["bytes_written"] == 2 * 2 * (1 << 20), w["cluster"]["bytes_written"]
assert rd["cluster"]["bytes_read"] == 2 * 2 * (256 << 10), rd["cluster"]["bytes_read"]
assert ck["cluster"]["bytes_written"] > 0
PY
(cd "$T/target" && find . | sort) | diff "$T/target.before" - ||
	fail "the target after the run differs from before it"
echo "ok: cleanup removed the run directory and nothing else"

# 6. Run ids: date-time and 64 random bits, never the same twice; the run
#    directory is the user's alone (0700) and holds only the run's files.
config "$T/keep.yaml"
sed -i 's/    capacity: 256MiB/    capacity: 256MiB\n    keep: true/' "$T/keep.yaml"
for n in 1 2; do
	sc_mpirun 2 "$T/keep.yaml" --output "$T/keep$n" || { cat "$T/out.log"; fail "kept run $n"; }
done
python3 - "$T/keep1/results.json" "$T/keep2/results.json" "$T/target" <<'PY' || fail "run ids"
import json, os, re, stat, sys
ids = [json.load(open(p))["run_id"] for p in sys.argv[1:3]]
for i in ids:
    assert re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{16}", i), f"run id {i}: not date-time-64 random bits"
assert ids[0] != ids[1], f"two runs share the run id {ids[0]}"
assert ids[0][-16:] != ids[1][-16:], "the random part repeats"
for i in ids:
    d = os.path.join(sys.argv[3], "ssdcluster-" + i)
    mode = stat.S_IMODE(os.lstat(d).st_mode)
    assert stat.S_ISDIR(os.lstat(d).st_mode) and mode == 0o700, f"{d}: mode {oct(mode)}"
    names = sorted(os.listdir(d))
    assert names == ["ckpt", "r0.j0.dat", "r0.j1.dat", "r1.j0.dat", "r1.j1.dat"], names
print("run ids:", ids[0], ids[1])
PY
echo "ok: run ids are random and distinct"
echo PASS
