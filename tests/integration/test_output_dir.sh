#!/usr/bin/env bash
# The results folder is checked, made and proved writable before any I/O:
# one that is, lies in, or holds a target or a run directory (by path,
# through a symlink, through a bind mount), one that is a file or lies
# below one, one on a read-only or full filesystem, is refused with exit
# 2 and a message naming what and why, on every rank, with no I/O done
# and nothing changed; a --dry-run the same.  A good folder works, and
# the results are where the run says they are.
. "$(dirname "$0")/lib.sh"

MOUNTS=() # unmounted at exit
cleanup() {
	local rc=$? m
	set +e
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
	rm -rf "$T"
	exit "$rc"
}
trap cleanup EXIT

# A directory target, and a file target the run may write (its bytes
# change when any I/O is done: the proof that none was).
mkdir -p "$T/site/target" "$T/files"
head -c 4M /dev/urandom >"$T/files/victim.img"
R=$(realpath "$T") # messages name resolved paths
cat >"$T/run.yaml" <<YAML
targets:
  - path: $T/site/target
    capacity: 64MiB
  - path: $T/files/victim.img
    allow_destroy: true
defaults:
  direct: false
phases:
  - name: w
    rw: write
    bs: 64KiB
    size: 1MiB
YAML
# the ranks share the targets round-robin: rank 0 the directory, rank 1 the file
args=("$T/run.yaml" --allow-destroy --run-id od1)

# every name, type and size below $T (not the log), and the file target's bytes
snapshot() {
	(cd "$T" && find . -path ./out.log -prune -o -printf '%p %y %s\n' | sort)
	sha256sum <"$T/files/victim.img"
}

# refused NAME WANT... -- ARGS... : the run exits 2 on every rank, saying
# each WANT and that nothing was run; no I/O was done, nothing changed.
refused() {
	local name=$1 rc=0 w wants=()
	shift
	while [ "$1" != -- ]; do wants+=("$1"); shift; done
	shift
	local before
	# fresh bytes: the run's writes (seeded, the same every run) change them
	head -c 4M /dev/urandom >"$T/files/victim.img"
	before=$(snapshot)
	sc_mpirun 2 "$@" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "$name: exit $rc, want 2"; }
	for w in "${wants[@]}" "; nothing was run"; do
		grep -qF -- "$w" "$T/out.log" || { cat "$T/out.log"; fail "$name: no '$w' in the output"; }
	done
	# the refusal is rank 0's; the others end with it, and only it is said
	[ "$(grep -c '^ssdcluster: ' "$T/out.log")" -eq 1 ] || { cat "$T/out.log"; fail "$name: not one message"; }
	[ "$(snapshot)" = "$before" ] || { cat "$T/out.log"; diff <(echo "$before") <(snapshot); fail "$name: something changed (I/O was done)"; }
	echo "ok: $name: $(grep '^ssdcluster: ' "$T/out.log")"
}

# 1. Inside the run directory, which the cleanup removes: the results
#    would be written, deleted, and the run would say where they are.
refused "inside the run directory" \
	"--output $T/site/target/ssdcluster-od1/results is inside the run directory $R/site/target/ssdcluster-od1 of target $R/site/target (targets.0)" \
	"give --output a folder outside $R/site/target" -- "${args[@]}" --output "$T/site/target/ssdcluster-od1/results"
# 2. The target directory itself, inside it, holding it.
refused "the target directory" "--output $T/site/target is the target directory $R/site/target (targets.0)" \
	-- "${args[@]}" --output "$T/site/target"
refused "inside the target directory" "is inside the target directory $R/site/target (targets.0)" \
	-- "${args[@]}" --output "$T/site/target/results"
refused "holding the target directory" "--output $T/site holds the target directory $R/site/target (targets.0)" \
	"give --output a folder that neither holds a target nor lies in one" -- "${args[@]}" --output "$T/site"
refused "holding the target directory, by .." "holds the target directory $R/site/target" \
	-- "${args[@]}" --output "$T/site/target/.."
# 3. Through a symlink into the target directory.
ln -s "$T/site/target" "$T/link"
refused "a symlink into the target directory" "--output $T/link/results is inside the target directory $R/site/target" \
	"it resolves to $R/site/target/results (through a symlink)" -- "${args[@]}" --output "$T/link/results"
# 4. Through a bind mount of the target directory (root, where mount works).
mkdir "$T/bind"
if [ "$(id -u)" -eq 0 ] && mount --bind "$T/site/target" "$T/bind" 2>/dev/null; then
	MOUNTS+=("$T/bind")
	refused "a bind mount of the target directory" \
		"--output $T/bind/results is inside the target directory $R/site/target (targets.0); $R/bind is that directory under another name (a bind mount)" \
		-- "${args[@]}" --output "$T/bind/results"
	umount "$T/bind"
else
	echo "skipped: a bind mount (needs root and mount)"
fi
# 5. The file target: the folder, below it, holding it.
refused "the target file" "--output $T/files/victim.img is the target file $R/files/victim.img (targets.1), which can hold no folder" \
	-- "${args[@]}" --output "$T/files/victim.img"
refused "below the target file" "is inside the target file $R/files/victim.img" \
	-- "${args[@]}" --output "$T/files/victim.img/results"
refused "holding the target file" "--output $T/files holds the target file $R/files/victim.img (targets.1)" \
	-- "${args[@]}" --output "$T/files"
# 6. The default folder, ssdcluster-results/RUN_ID, from inside the target.
rc=0
(cd "$T/site/target" && refused "the default folder inside the target" \
	"the results folder ssdcluster-results/od1 (the default, as no --output was given) is inside the target directory $R/site/target" \
	-- "${args[@]}") || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"

# 7. Not a directory: a regular file, a folder below one.
printf '{"not": "a folder"}\n' >"$T/results.json"
refused "a regular file" "ssdcluster: --output $T/results.json: not a directory (it is a regular file); nothing was run" \
	-- "${args[@]}" --output "$T/results.json"
refused "below a regular file" "ssdcluster: --output $T/results.json/run1: $R/results.json is not a directory (it is a regular file); nothing was run" \
	-- "${args[@]}" --output "$T/results.json/run1"
# 8. A read-only filesystem (root ignores mode bits: a read-only mount),
#    and a full one: the folder made there is removed again.
mkdir "$T/ro" "$T/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o ro,size=1M tmpfs "$T/ro" 2>/dev/null; then
	MOUNTS+=("$T/ro")
	refused "a read-only filesystem" "--output $T/ro/results: cannot create $R/ro/results: Read-only file system" \
		-- "${args[@]}" --output "$T/ro/results"
	refused "an existing folder on a read-only filesystem" "--output $T/ro: cannot write in it: Read-only file system" \
		-- "${args[@]}" --output "$T/ro"
else
	echo "skipped: a read-only filesystem (needs root and mount)"
fi
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	MOUNTS+=("$T/full")
	dd if=/dev/zero of="$T/full/fill" bs=4k status=none 2>/dev/null || true
	refused "a full filesystem" "--output $T/full/a/b: cannot write in it: No space left on device" \
		-- "${args[@]}" --output "$T/full/a/b"
	[ ! -e "$T/full/a" ] || fail "the folders made on the full filesystem were left behind"
else
	echo "skipped: a full filesystem (needs root and mount)"
fi
# 9. A dry run writes plan.json there: checked the same, before the plan.
refused "dry run, inside the target directory" "is inside the target directory $R/site/target" \
	-- "${args[@]}" --dry-run --output "$T/site/target/plan"
refused "dry run, a regular file" "--output $T/results.json: not a directory (it is a regular file)" \
	-- "${args[@]}" --dry-run --output "$T/results.json"

# 10. A good folder, made with its parents: the run does its I/O (the file
#     target changes), removes its run directory, and results.json is
#     where it says.
before=$(sha256sum <"$T/files/victim.img")
sc_mpirun 2 "${args[@]}" --output "$T/good/a/b" || { cat "$T/out.log"; fail "a good --output: exit $?"; }
grep -qxF "results: $T/good/a/b/results.json" "$T/out.log" || { cat "$T/out.log"; fail "no results line"; }
[ -s "$T/good/a/b/results.json" ] || fail "results.json is not where the run said"
[ "$(sha256sum <"$T/files/victim.img")" != "$before" ] || fail "the good run did no I/O: the proof above proves nothing"
[ "$(count_entries "$T/site/target")" -eq 0 ] || fail "run files left in the target"
[ -z "$(find "$T/good" -name '.ssdcluster-probe*')" ] || fail "the write probe was left behind"
echo "ok: a good --output works, results where said"

# 11. A run refused after the folder was made (here: the run directory
#     exists already) leaves no empty folder behind.
mkdir "$T/site/target/ssdcluster-od1"
rc=0
sc_mpirun 2 "${args[@]}" --output "$T/late/a" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "a planted run directory: exit $rc, want 2"; }
[ ! -e "$T/late" ] || fail "a refused run left its empty results folder"
echo "ok: a run refused later removes the results folder it made"
echo PASS
