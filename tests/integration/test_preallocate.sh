#!/usr/bin/env bash
# preallocate: what a sequential write's new files hold before the timed
# writes, as the system calls and the filesystem show it.  One rank writes
# 8 MiB (1 MiB O_DIRECT writes) into a new file in a directory target:
#   - none (the default): no fallocate and no buffered write on the file;
#     the timed writes extend it;
#   - fallocate: one fallocate(fd, 0, 0, 8 MiB) on the job's file before
#     any timed write, and the file holds unwritten extents until written
#     (filefrag, checked on a file fallocated the same way by the test);
#   - written: 8 MiB of buffered pwrite64 on the job's file (lay_out) before
#     the timed writes;
#   - nothing is written or allocated outside the run directory: a kept
#     file target read with either mode is unchanged (bytes and blocks),
#     a write to it without the opt-ins is refused;
#   - a bad value is refused with the choices, and the dry run says it.
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || fail "strace missing (scripts/setup.sh installs it)"
mkdir -p "$T/d"

cat >"$T/w.yaml" <<YAML
targets:
  - path: $T/d
phases:
  - name: w
    rw: write
    bs: 1MiB
    iodepth: 2
    size: 8MiB
    direct: true
YAML

# run MODE : the run under strace; prints "fallocates fallocated_bytes
# buffered_write_bytes" on the job's file (the .dat file opened O_DIRECT
# in the run directory)
run() {
	strace -f -qq -e trace=openat,fallocate,pwrite64,write -o "$T/$1.strace" \
		"$SC_BIN" "$T/w.yaml" --set "phases.0.preallocate=$1" --output "$T/o$1" \
		>"$T/$1.log" 2>&1 || { cat "$T/$1.log"; fail "$1: exit $?"; }
	python3 - "$T/$1.strace" <<'PY' || fail "$1: strace output unreadable"
import re, sys
fds = {}          # (pid, fd) of the job's data file
nfalloc = falloc = written = 0
for line in open(sys.argv[1]):
    pid = line.split()[0]
    m = re.search(r'openat\([^,]+, "([^"]+)", ([^,)]+).*\)\s+= (\d+)', line)
    if m:
        # the job's data file (r0.j0.dat under the run directory), opened
        # O_DIRECT; any other file given the same descriptor later is not
        fds[m.group(3)] = m.group(1).endswith(".dat") and "O_DIRECT" in m.group(2)
        continue
    m = re.search(r'fallocate\((\d+), 0, 0, (\d+)\)\s+= 0', line)
    if m and fds.get(m.group(1)):
        nfalloc += 1
        falloc += int(m.group(2))
        continue
    m = re.search(r'pwrite64\((\d+), .*, (\d+), \d+\)\s+= (\d+)', line)
    if m and fds.get(m.group(1)):
        written += int(m.group(3))
print(nfalloc, falloc, written)
PY
}

read -r nf fb wb < <(run none)
echo "none: $nf fallocate calls ($fb B), $wb B written before the timed writes"
[ "$nf" = 0 ] && [ "$wb" = 0 ] || fail "none: the file was prepared ($nf fallocate, $wb B written)"
read -r nf fb wb < <(run fallocate)
echo "fallocate: $nf fallocate calls ($fb B), $wb B written before"
[ "$nf" = 1 ] && [ "$fb" = 8388608 ] && [ "$wb" = 0 ] ||
	fail "fallocate: expected one fallocate of 8388608 B and no buffered write, got $nf ($fb B), $wb B"
read -r nf fb wb < <(run written)
echo "written: $nf fallocate calls ($fb B), $wb B written before"
[ "$nf" = 0 ] && [ "$wb" = 8388608 ] ||
	fail "written: expected 8388608 B laid out and no fallocate, got $wb B, $nf fallocate"
python3 - "$T/ofallocate/results.json" <<'PY' || fail "fallocate: results.json"
import json, sys
r = json.load(open(sys.argv[1]))
w = r["phases"][0]["cluster"]["bytes_written"]
assert w == 8 << 20, f"{w} B written"
echo = r["plan"]["phases"][0]["preallocate"]
assert echo == "fallocate", f"the plan echo says preallocate {echo}"
PY

# what fallocate leaves: unwritten extents (the kind the timed writes then
# convert), where the filesystem reports extent flags
fallocate -l 8M "$T/probe" 2>/dev/null && command -v filefrag >/dev/null &&
	if filefrag -v "$T/probe" 2>/dev/null | grep -q unwritten; then
		echo "a file fallocated the same way holds unwritten extents (filefrag)"
	fi

# preallocate never writes nor allocates outside the run directory: a file
# target in place (4 MiB of data in a 16 MiB sparse file), without the
# opt-ins: a read phase with either mode runs and leaves the file's bytes
# and allocated blocks as they were; a write phase is refused as any write.
truncate -s 16M "$T/kept"
dd if=/dev/urandom of="$T/kept" bs=1M count=4 conv=notrunc status=none
before="$(sha256sum <"$T/kept") $(du -k "$T/kept" | cut -f1)"
for rw in read write; do
	for mode in written fallocate; do
		cat >"$T/k.yaml" <<YAML
targets:
  - path: $T/kept
phases:
  - name: p
    rw: $rw
    bs: 1MiB
    size: 16MiB
    preallocate: $mode
YAML
		rc=0
		"$SC_BIN" "$T/k.yaml" --output "$T/k$rw$mode" >"$T/k.log" 2>&1 || rc=$?
		if [ "$rw" = read ]; then
			[ "$rc" = 0 ] || { cat "$T/k.log"; fail "read with preallocate $mode on a kept file: exit $rc"; }
		else
			[ "$rc" = 2 ] && grep -q "allow_destroy" "$T/k.log" ||
				{ cat "$T/k.log"; fail "write with preallocate $mode on a kept file without opt-ins: exit $rc, not refused"; }
		fi
		after="$(sha256sum <"$T/kept") $(du -k "$T/kept" | cut -f1)"
		[ "$after" = "$before" ] ||
			fail "$rw with preallocate $mode changed a file outside the run directory ($before -> $after)"
	done
done
echo "a kept file outside the run directory: unchanged by reads with either mode, writes refused"

"$SC_BIN" "$T/w.yaml" --set phases.0.preallocate=sparse --dry-run >"$T/bad.log" 2>&1 && fail "preallocate: sparse was taken"
grep -q "known: none, fallocate, written" "$T/bad.log" || { cat "$T/bad.log"; fail "the refusal does not list the choices"; }
"$SC_BIN" "$T/w.yaml" --set phases.0.preallocate=written --dry-run >"$T/dry.log" 2>&1 ||
	{ cat "$T/dry.log"; fail "dry run exit $?"; }
grep -q "files: written with data before the timed writes" "$T/dry.log" ||
	{ cat "$T/dry.log"; fail "the dry run does not say preallocate"; }
echo PASS
