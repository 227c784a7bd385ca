#!/usr/bin/env bash
# keep_last and async under attack: a process of the same user that swaps
# the run directory's contents while the run goes on cannot make ssdcluster
# delete or write anything outside it.
#
# 1. keep_last 1, 3 checkpoints: once checkpoint 2's directory exists (its
#    cell prepared, training of compute_between going on), checkpoint 1's
#    directory is moved out of the run directory and a symlink to a
#    victims' directory, holding files of the same names, put in its place.
#    The deletion after checkpoint 2 removes the run's own files (by the
#    directory opened in setup) and refuses the symlink: the victims are
#    unchanged, the run exits non-zero naming keep_last, and checkpoint 1's
#    measured cell is kept in results.json.
# 2. async, 3 checkpoints: once checkpoint 1's file exists, checkpoint 2's
#    directory is made by the attacker with a symlink of the checkpoint
#    file's name to a victim file.  The drain refuses to write through it:
#    the victim is unchanged, the run exits non-zero.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target" "$T/victims"
for f in __0_0.distcp .metadata; do
	printf 'precious %s, must survive\n' "$f" >"$T/victims/$f"
done
victims_sum() { (cd "$T/victims" && find . -type f -exec sha256sum {} + | sort); }
before=$(victims_sum)

config() { # config FILE KEYS...
	local out=$1
	shift
	{
		cat <<YAML
targets: [{path: $T/target, keep: true}]
phases:
  - name: ck
    workload: checkpoint
    model: {layers: 2, hidden: 256, ffn_hidden: 512, heads: 4, vocab: 1024}
    layout: sharded
    block_size: 64KiB
    checkpoints: 3
YAML
		for k in "$@"; do echo "    $k"; done
	} >"$out"
}

# wait_for GLOB: until a path matches (60 s at most); prints it
wait_for() {
	local i p
	for ((i = 0; i < 6000; i++)); do
		for p in $1; do
			[ -e "$p" ] && { echo "$p"; return 0; }
		done
		sleep 0.01
	done
	return 1
}

# 1. keep_last: checkpoint 1's directory swapped for a symlink
config "$T/keep.yaml" "keep_last: 1" "compute_between: 4s"
rc=0
sc_mpirun 1 "$T/keep.yaml" --output "$T/o_keep" &
run=$!
step2=$(wait_for "$T/target/ssdcluster-*/ck/global_epoch1_step2") || { wait $run; fail "keep: no checkpoint 2"; }
step1=${step2%2}1
mv "$step1" "$T/moved_step1"
ln -s "$T/victims" "$step1"
wait $run || rc=$?
[ "$(victims_sum)" = "$before" ] || fail "keep_last: the victims changed"
[ "$rc" -ne 0 ] || { cat "$T/out.log"; fail "keep_last: the run ignored the swap (exit 0)"; }
grep -q "keep_last" "$T/out.log" || { cat "$T/out.log"; fail "keep_last: the error does not name keep_last"; }
[ -L "$step1" ] || fail "keep_last: the planted symlink was removed"
# the run's own files of checkpoint 1 were deleted where they are now
[ "$(count_entries "$T/moved_step1")" -eq 0 ] || fail "keep_last: checkpoint 1's files were not deleted"
python3 - "$T/o_keep/results.json" <<'PY' || fail "keep_last: checkpoint 1's measurement was lost"
import json, sys
r = json.load(open(sys.argv[1]))
cells = [c for g in r.get("checkpoints", []) for c in g["cells"]]
assert any(c["index"] == 1 and c["duration_ns"] > 0 for c in cells), cells
PY
echo "ok: keep_last refused the swapped directory: $(grep -m1 keep_last "$T/out.log")"

# 2. async: a symlink planted where checkpoint 2's file goes
rm -rf "${T:?}/target/"* "$T/moved_step1"
config "$T/async.yaml" "async: true" "compute_between: 4s"
rc=0
sc_mpirun 1 "$T/async.yaml" --output "$T/o_async" &
run=$!
f1=$(wait_for "$T/target/ssdcluster-*/ck/global_epoch1_step1/__0_0.distcp") || { wait $run; fail "async: no checkpoint 1"; }
step2=$(dirname "$f1")
step2=${step2%1}2
mkdir "$step2"
ln -s "$T/victims/__0_0.distcp" "$step2/__0_0.distcp"
wait $run || rc=$?
[ "$(victims_sum)" = "$before" ] || fail "async: the victims changed"
[ "$rc" -ne 0 ] || { cat "$T/out.log"; fail "async: the run wrote through the planted symlink (exit 0)"; }
grep -q "__0_0.distcp" "$T/out.log" || { cat "$T/out.log"; fail "async: the error does not name the file"; }
echo "ok: async refused the planted symlink: $(grep -m1 __0_0.distcp "$T/out.log")"
echo "PASS"
