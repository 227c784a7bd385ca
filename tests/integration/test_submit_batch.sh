#!/usr/bin/env bash
# submit_batch: how many I/Os ssdcluster hands the kernel per call, as
# strace counts the io_uring_enter calls of the job thread.
# 4 KiB random reads through the page cache of a file just written (each
# read completes inside the call that submits it), iodepth 32, 4,096 reads:
#   - submit_batch: 1: a call for every read at least;
#   - the default (a quarter of iodepth: 8): between one call per 16 reads
#     and one per 4 (the full queue in one call would be one per 32 and
#     more);
#   - submit_batch: 32 (the whole queue): fewer than one call per 16 reads;
#   - the dry run says submit_batch when it is set.
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || fail "strace missing (scripts/setup.sh installs it)"

dd if=/dev/urandom of="$T/f" bs=1M count=16 status=none

cat >"$T/r.yaml" <<YAML
targets:
  - path: $T/f
phases:
  - name: r
    rw: randread
    bs: 4KiB
    iodepth: 32
    size: 16MiB
    io_size: 16MiB
    direct: false
    engine: io_uring
YAML

# run NAME [--set ...] : prints "calls reads" for a run under strace
run() {
	local n=$1
	shift
	strace -f -qq -c -e trace=io_uring_enter -o "$T/$n.strace" \
		"$SC_BIN" "$T/r.yaml" "$@" --output "$T/o$n" >"$T/$n.log" 2>&1 ||
		{ cat "$T/$n.log"; fail "$n: exit $?"; }
	python3 - "$T/$n.strace" "$T/o$n/results.json" <<'PY' || fail "$n: strace or results.json unreadable"
import json, sys
calls = 0
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[-1] == "io_uring_enter":
        calls = int(f[3])
reads = json.load(open(sys.argv[2]))["phases"][0]["cluster"]["ios_read"]
print(calls, reads)
PY
}

read -r c1 r1 < <(run one --set phases.0.submit_batch=1)
read -r cd rd < <(run auto)
read -r cq rq < <(run queue --set phases.0.submit_batch=32)
echo "io_uring_enter calls for 4 KiB reads at iodepth 32: submit_batch 1: $c1 for $r1;" \
	"default: $cd for $rd; 32: $cq for $rq"
[ "$r1" -eq 4096 ] && [ "$rd" -eq 4096 ] && [ "$rq" -eq 4096 ] ||
	fail "expected 4096 reads each, got $r1, $rd, $rq"
[ "$c1" -ge "$r1" ] || fail "submit_batch 1: $c1 calls for $r1 reads: I/Os were batched"
[ "$cd" -ge $((rd / 16)) ] && [ "$cd" -le $((rd / 4)) ] ||
	fail "default: $cd calls for $rd reads, not one call per 4 to 16 reads (a quarter of iodepth 32 is 8)"
[ "$cq" -lt $((rq / 16)) ] || fail "submit_batch 32: $cq calls for $rq reads: the queue was split"

"$SC_BIN" "$T/r.yaml" --set phases.0.submit_batch=4 --dry-run >"$T/dry.log" 2>&1 ||
	{ cat "$T/dry.log"; fail "dry run exit $?"; }
grep -q "submission: at most 4 I/Os per call (submit_batch)" "$T/dry.log" ||
	{ cat "$T/dry.log"; fail "the dry run does not say submit_batch"; }
echo PASS
