#!/usr/bin/env bash
# ssdcluster fio runs a dozen of fio's own example job files unchanged,
# shrunk only by --set (size, runtime, the folder or file), and fio itself
# runs the same files with those options' lines replaced by the same
# values at the end of each section.  Where the job is sized (no time_based),
# both tools must move the same bytes in each direction, counted from
# fio's JSON and from ours (--output-format fio-json): a section's size per
# job, loops times, a verify pass's reads.  Where it is timed, both must
# read and write in the same directions.  Then the job files fio would run
# and ssdcluster fio refuses: a section beside another (aio-read.fio) and
# holes in a sequential pattern (backwards-read.fio), by name and line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fio_examples_lib.sh"

EX=$(sc_fio_examples)
command -v fio >/dev/null || fail "fio not installed (scripts/setup.sh)"

# ex FILE KIND SET... : KIND sized or timed; SET are OPTION=VALUE
ex() {
	local file=$1 kind=$2 name=${1%.fio} dir
	shift 2
	dir=$T/$name
	mkdir -p "$dir/sc" "$dir/fio" "$dir/data"
	[ -f "$EX/$file" ] || fail "fio's examples have no $file"
	local sets=() s
	for s in "$@"; do sets+=(--set "${s//@D/$dir/data}"); done
	local rc=0
	(cd "$dir/sc" && "$SC_BIN" fio "$EX/$file" "${sets[@]}" --output "$dir/out" \
		--output-format fio-json --progress=none >"$dir/sc.log" 2>&1) || rc=$?
	[ "$rc" = 0 ] || { cat "$dir/sc.log"; fail "$file: ssdcluster fio exited $rc"; }
	# fio: the same values after every section's own
	awk -v sets="$(printf '%s\n' "$@" | sed "s|@D|$dir/data|g")" '
		BEGIN { n = split(sets, kv, "\n"); for (i = 1; i <= n; i++) { split(kv[i], p, "="); set[p[1]] = 1 } }
		function add() { if (insec) printf "%s\n", sets }
		/^[ \t]*\[/ { add(); insec = 1 }
		{ k = $0; sub(/^[ \t]+/, "", k); sub(/[ \t=].*/, "", k); if (!(k in set)) print }
		END { add() }' "$EX/$file" >"$dir/fio/job.fio"
	(cd "$dir/fio" && fio --output-format=json --output="$dir/fio.json" job.fio >"$dir/fio.log" 2>&1) || rc=$?
	[ "$rc" = 0 ] || { cat "$dir/fio.log"; fail "$file: fio itself exited $rc"; }
	rm -rf "$dir/data" "$dir/fio" "$dir/sc"
	python3 - "$file" "$kind" "$dir/fio.json" "$dir/out/fio.json" <<'PY' || fail "$file: the two tools differ"
import json, sys
name, kind, theirs, ours = sys.argv[1:]
def moved(path):
    d = json.load(open(path))
    r = sum(j["read"]["io_bytes"] for j in d["jobs"])
    w = sum(j["write"]["io_bytes"] for j in d["jobs"])
    return r, w
fr, fw = moved(theirs)
sr, sw = moved(ours)
print(f"{name}: fio read {fr} B, wrote {fw} B; ssdcluster fio read {sr} B, wrote {sw} B")
if kind == "sized":
    if name == "fsx.fio":  # randrw: the split is drawn per I/O; the sum is exact
        ok = fr + fw == sr + sw
    elif name == "iometer-file-access-server.fio":
        # randrw of several sizes: fio stops once it has issued the bytes,
        # past them by less than its largest size (64 KiB); ssdcluster
        # draws the last size to end on them
        ok = 0 <= (fr + fw) - (sr + sw) < 65536
    else:
        ok = (fr, fw) == (sr, sw)
else:
    ok = (fr > 0) == (sr > 0) and (fw > 0) == (sw > 0) and sr + sw > 0
sys.exit(0 if ok else 1)
PY
}

# sized: the bytes must agree
ex ssd-test.fio sized directory=@D size=2m
ex tiobench-example.fio sized directory=@D size=1m
ex basic-verify.fio sized filename=@D/bv size=2m
ex fsx.fio sized loops=8
ex zipf.fio sized size=16m
ex null.fio sized size=16m
ex rand-zones.fio sized size=2m
ex iometer-file-access-server.fio sized size=2m
# timed: the same directions
for f in fio-seq-read fio-rand-read fio-seq-write fio-rand-write fio-seq-RW fio-rand-RW; do
	ex "$f.fio" timed size=4m runtime=1
done
[ "$(ls -d "$T"/*/out | wc -l)" -ge 12 ] || fail "fewer than 12 example files ran"

# what fio runs and ssdcluster fio refuses, by name and line
rc=0; (cd "$T" && "$SC_BIN" fio "$EX/aio-read.fio" --print-yaml >"$T/r1.log" 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "aio-read.fio:[0-9]*: job file2: fio runs it at the same time as job file1" "$T/r1.log" ||
	{ cat "$T/r1.log"; fail "aio-read.fio: exit $rc"; }
rc=0; (cd "$T" && "$SC_BIN" fio "$EX/backwards-read.fio" >"$T/r2.log" 2>&1) || rc=$?
[ "$rc" = 2 ] && grep -q "backwards-read.fio:[0-9]*: job backwards-read: rw=read:-8k" "$T/r2.log" ||
	{ cat "$T/r2.log"; fail "backwards-read.fio: exit $rc"; }
echo "test_fio_examples: ok"
