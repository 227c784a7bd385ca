#!/usr/bin/env bash
# invalidate: true drops each job's region from the page cache before the
# phase (fio's invalidate, its default), so buffered reads come from the
# device.  A 16 MiB file target is written buffered, then 4 KiB of it is
# read: with invalidate, fincore (util-linux) finds at most 2 MiB of the
# file in the page cache afterwards (the read and its readahead); without
# it, the whole 16 MiB written just before stays cached.  Each further
# pass over a region (every size bytes a job issues) drops it again.  ssdcluster fio
# writes invalidate: true for a buffered job, and not with invalidate=0 or
# direct=1; invalidate with the null engine exits 2 naming the key.
# fadvise_hint: true puts POSIX_FADV_RANDOM on a random job's file, and
# ssdcluster fio sets it for buffered jobs (fio's default) and runs
# buffered libaio as psync at depth 1, as Linux runs it.
. "$(dirname "$0")/lib.sh"
command -v fincore >/dev/null || skip "no fincore (util-linux)"

f="$T/target.img"
truncate -s 16M "$f"
run() { # NAME INVALIDATE: write 16 MiB buffered, read 4 KiB; prints the cached bytes
	{
		file_target_yaml "$f"
		cat <<YAML
defaults: {direct: false, bs: 1MiB, size: 16MiB}
phases:
  - {name: w, rw: write}
  - {name: r, rw: read, bs: 4KiB, io_size: 4KiB, invalidate: $2}
YAML
	} >"$T/$1.yaml"
	sc_mpirun 1 "$T/$1.yaml" --output "$T/$1" --allow-destroy || { cat "$T/out.log" >&2; fail "$1: exit $?"; }
	fincore --bytes --noheadings --output RES "$f" | tr -d ' '
}
with=$(run with true)
"$SC_BIN" "$T/with.yaml" --dry-run --allow-destroy >"$T/dry.log" 2>&1 || { cat "$T/dry.log"; fail "dry run"; }
grep -q "start: each job's region synced and dropped from the page cache (invalidate)" "$T/dry.log" ||
	{ cat "$T/dry.log"; fail "the plan does not say invalidate"; }
without=$(run without false)
echo "cached after the read: with invalidate $with B, without $without B"
[ "$with" -le $((2 << 20)) ] || fail "with invalidate $with B of the file stayed cached"
[ "$without" -ge $((15 << 20)) ] || fail "without invalidate only $without B cached (the test cannot tell)"

# a new pass over the region drops it again (fio reopens and invalidates
# its files for each loop of a job): io_size 3 x size is 3 passes, so 3
# drops of the job's file (strace counts fadvise64), and 1 for one pass
passes() { # IO_SIZE: the fadvise64 calls on the job's file
	printf 'targets: [{path: %s/p}]\nphases:\n  - {rw: randread, bs: 4KiB, size: 1MiB, io_size: %s, direct: false, invalidate: true}\n' \
		"$T" "$1" >"$T/p.yaml"
	mkdir -p "$T/p"
	strace -f -qq -e trace=fadvise64 -o "$T/p.strace" "$SC_BIN" "$T/p.yaml" --output "$T/p-$1" \
		>"$T/p.log" 2>&1 || { cat "$T/p.log"; fail "io_size $1: exit $?"; }
	grep -c 'fadvise64([0-9]*, 0, 1048576, POSIX_FADV_DONTNEED)' "$T/p.strace" || true
}
command -v strace >/dev/null || fail "strace missing (scripts/setup.sh installs it)"
three=$(passes 3MiB) one=$(passes 1MiB)
echo "drops: io_size 3 MiB $three, 1 MiB $one"
[ "$three" = 3 ] && [ "$one" = 1 ] || fail "drops $three and $one, want 3 and 1"

# fadvise_hint: POSIX_FADV_RANDOM on a random job's file, once
printf 'targets: [{path: %s/p}]\nphases:\n  - {rw: randread, bs: 4KiB, size: 1MiB, io_size: 64KiB, direct: false, fadvise_hint: true}\n' \
	"$T" >"$T/h.yaml"
strace -f -qq -e trace=fadvise64 -o "$T/h.strace" "$SC_BIN" "$T/h.yaml" --output "$T/h" >"$T/h.log" 2>&1 ||
	{ cat "$T/h.log"; fail "fadvise_hint: exit $?"; }
[ "$(grep -c 'fadvise64([0-9]*, 0, 1048576, POSIX_FADV_RANDOM)' "$T/h.strace")" = 1 ] ||
	{ cat "$T/h.strace"; fail "fadvise_hint: want one POSIX_FADV_RANDOM on the job's file"; }

# ssdcluster fio: fio's default is invalidate=1
printf '[global]\nsize=1m\nbs=4k\nrw=read\n[b]\n[o]\nstonewall\ninvalidate=0\n[d]\nstonewall\ndirect=1\n' >"$T/j.fio"
"$SC_BIN" fio "$T/j.fio" --print-yaml >"$T/j.yaml" 2>"$T/j.err" || { cat "$T/j.err"; fail "fio --print-yaml"; }
[ "$(grep -c 'invalidate: true' "$T/j.yaml")" = 1 ] || { cat "$T/j.yaml"; fail "invalidate: true only for the buffered job b"; }
[ "$(grep -c 'fadvise_hint: true' "$T/j.yaml")" = 2 ] || { cat "$T/j.yaml"; fail "fadvise_hint: true for the buffered jobs b and o"; }
# buffered libaio: fio's io_submit does each I/O in turn, so psync at depth 1
printf '[x]\nrw=randread\nsize=1m\nioengine=libaio\niodepth=16\n[y]\nstonewall\nrw=randread\nsize=1m\nioengine=libaio\niodepth=16\ndirect=1\n' >"$T/l.fio"
"$SC_BIN" fio "$T/l.fio" --print-yaml >"$T/l.yaml" 2>"$T/l.err" || { cat "$T/l.err"; fail "libaio --print-yaml"; }
grep -q "^# note: job x: ioengine=libaio with buffered I/O runs as psync at depth 1" "$T/l.yaml" || { cat "$T/l.yaml"; fail "no libaio note"; }
python3 - "$T/l.yaml" <<'PY' || { cat "$T/l.yaml"; fail "libaio: x psync at 1, y io_uring at 16"; }
import sys, yaml
p = {ph["name"]: ph for ph in yaml.safe_load(open(sys.argv[1]))["phases"]}
ok = (p["x"]["engine"], p["x"]["iodepth"], p["y"]["engine"], p["y"]["iodepth"]) == ("psync", 1, "io_uring", 16)
sys.exit(0 if ok else 1)
PY
awk '/name: "b"/{b=1} /name: "o"/{b=0} b && /invalidate: true/{ok=1} END{exit !ok}' "$T/j.yaml" ||
	{ cat "$T/j.yaml"; fail "job b lacks invalidate: true"; }

printf 'targets: [{path: %s/d}]\nphases:\n  - {rw: read, engine: null, invalidate: true}\n' "$T" >"$T/bad.yaml"
rc=0; "$SC_BIN" "$T/bad.yaml" --dry-run >"$T/bad.log" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$T/bad.log"; fail "null engine with invalidate: exit $rc"; }
grep -q "bad.yaml:3:.*phases.0.invalidate: the null engine touches no file" "$T/bad.log" ||
	{ cat "$T/bad.log"; fail "the message names the key"; }
echo "test_page_cache: ok"
