#!/usr/bin/env bash
# Passthrough and hipri on real (emulated) NVMe: one guest, controller
# SCPT0001 (256 MiB, the driver's poll queues) and SCPT0002 (64 MiB,
# queues=1: no poll queue).
# - passthrough: a write phase with verify: crc32c through /dev/ng0n1, a
#   passthrough read phase and a block-device read phase of the same blocks
#   both verify with 0 mismatches; the drive's SMART data units written rose
#   by the bytes written while the block layer's diskstats counted no write
#   (the writes went as NVMe commands, not through nvme0n1); the blocks read
#   by the test's own NVMe Read commands on /dev/ng0n1 equal those read
#   through /dev/nvme0n1 with O_DIRECT.  The write is refused (exit 2)
#   without --allow-destroy, and without allow_destroy: true.
# - hipri: on nvme0n1 (queue/io_poll 1) used, the controller's I/O queue
#   interrupts rising by far fewer than the phase's I/Os; on nvme1n1
#   (queue/io_poll 0) refused with its reason, interrupts there rising with
#   the I/Os.
. "$(dirname "$0")/nvme_lib.sh"

PT_BYTES=$((4 << 20))
cat >"$T/pt.yaml" <<YAML
targets:
  - path: /dev/nvme0n1
    allow_destroy: true
defaults:
  bs: 64KiB
  size: $PT_BYTES
  seed: 7
  verify: crc32c
phases:
  - name: ptw
    rw: write
    passthrough: true
  - name: ptr
    rw: read
    passthrough: true
  - name: blkr
    rw: read
YAML
sed 's/allow_destroy: true/allow_destroy: false/' "$T/pt.yaml" >"$T/pt-nokey.yaml"
for n in 0 1; do
	cat >"$T/hp$n.yaml" <<YAML
targets:
  - path: /dev/nvme${n}n1
phases:
  - name: hp$n
    rw: randread
    bs: 4KiB
    size: 4MiB
    runtime: 1s
    hipri: true
YAML
done
cat >"$T/guest.sh" <<'SH'
set -e
cmd() { python3 "$SC_SOURCE_DIR/tests/nvme/nvme_cmd.py" "$@"; }
# sum of the interrupts of controller $1's I/O queues (nvmeXq1...)
irqs() { awk -v c="$1" '$NF ~ "^" c "q[1-9]" { for (i = 2; i < NF - 2; i++) s += $i } END { print s + 0 }' /proc/interrupts; }
set +e
"$SC_BIN" "$T/pt.yaml" --output "$T/noflag" >"$T/noflag.log" 2>&1; echo $? >"$T/noflag.rc"
"$SC_BIN" "$T/pt-nokey.yaml" --allow-destroy --output "$T/nokey" >"$T/nokey.log" 2>&1; echo $? >"$T/nokey.rc"
set -e
cmd smart /dev/nvme0 >"$T/smart-before.json"
cat /sys/block/nvme0n1/stat >"$T/stat-before"
"$SC_BIN" "$T/pt.yaml" --allow-destroy --output "$T/pt" >"$T/pt.log" 2>&1
cat /sys/block/nvme0n1/stat >"$T/stat-after"
cmd smart /dev/nvme0 >"$T/smart-after.json"
cmd read /dev/ng0n1 "$(cat /sys/block/nvme0n1/nsid)" "$(cat /sys/block/nvme0n1/queue/logical_block_size)" \
	"$PT_BYTES" "$T/ng.bin"
dd if=/dev/nvme0n1 of="$T/blk.bin" bs=64k count=$((PT_BYTES / 65536)) iflag=direct status=none
for n in 0 1; do
	cat "/sys/block/nvme${n}n1/queue/io_poll" >"$T/io_poll$n"
	irqs "nvme$n" >"$T/irq-before$n"
	"$SC_BIN" "$T/hp$n.yaml" --output "$T/hp$n" >"$T/hp$n.log" 2>&1
	irqs "nvme$n" >"$T/irq-after$n"
done
SH
nvme_guest "$T/guest.sh" --env SC_SOURCE_DIR="$SC_SOURCE_DIR" --env PT_BYTES="$PT_BYTES" \
	--nvme serial=SCPT0001,size=256M --nvme serial=SCPT0002,size=64M,queues=1
cat "$T/pt.log" "$T/hp0.log" "$T/hp1.log"

for w in noflag nokey; do
	[ "$(cat "$T/$w.rc")" = 2 ] || { cat "$T/$w.log"; fail "passthrough write ($w): exit $(cat "$T/$w.rc"), not 2"; }
	[ ! -e "$T/$w/results.json" ] || fail "passthrough write ($w) ran"
done
grep -q "lacks --allow-destroy" "$T/noflag.log" || { cat "$T/noflag.log"; fail "no --allow-destroy: the reason"; }
grep -q "set allow_destroy: true on that target" "$T/nokey.log" || { cat "$T/nokey.log"; fail "no allow_destroy: the reason"; }
echo "ok: a passthrough write without --allow-destroy, and without allow_destroy: true, is refused (exit 2)"

cmp "$T/ng.bin" "$T/blk.bin" || fail "blocks read through /dev/ng0n1 differ from those through /dev/nvme0n1"
cmp -s "$T/ng.bin" <(head -c "$PT_BYTES" /dev/zero) && fail "the blocks read back are zeros: nothing written"
echo "ok: the first $PT_BYTES bytes read by NVMe Read on /dev/ng0n1 equal those read through /dev/nvme0n1"

python3 - "$T" "$PT_BYTES" <<'PY' || fail "results.json"
import json, sys
t, pt_bytes = sys.argv[1], int(sys.argv[2])
UNIT = 512000
d = json.load(open(f"{t}/pt/results.json"))
ph = {p["name"]: p for p in d["phases"]}
assert list(ph) == ["ptw", "ptr", "blkr"], list(ph)
for name, p in ph.items():
    assert p["status"] == "ok" and p["io_errors"]["failed_ios"] == 0, (name, p["status"], p["io_errors"])
    want = {"passthrough": {"asked_ranks": 1, "unavailable_ranks": 0, "why": None}} if name != "blkr" else None
    assert p.get("io_options") == want, (name, p.get("io_options"))
    ts = p["timeseries"]
    assert sum(ts["bytes_written" if name == "ptw" else "bytes_read"]) == pt_bytes, (name, ts)
for name in ("ptr", "blkr"):
    log = open(f"{t}/pt.log").read()
    line = next(l for l in log.splitlines() if l.startswith(name + " "))
    assert line.endswith("verify: 0 mismatches in 64 blocks"), line
b, a = (json.load(open(f"{t}/smart-{w}.json")) for w in ("before", "after"))
units = a["data_units_written"] - b["data_units_written"]
assert abs(units * UNIT - pt_bytes) < UNIT, (b, a)
# /sys/block/nvme0n1/stat: field 7 is sectors written, 5 writes completed
sb, sa = (open(f"{t}/stat-{w}").read().split() for w in ("before", "after"))
assert sa[4] == sb[4] and sa[6] == sb[6], (sb, sa)
print(f"ptw: SMART data units written {b['data_units_written']} -> {a['data_units_written']}"
      f" for {pt_bytes} bytes; nvme0n1 diskstats writes {sb[4]} -> {sa[4]}, sectors {sb[6]} -> {sa[6]}")

for n in (0, 1):
    poll = int(open(f"{t}/io_poll{n}").read())
    irq = int(open(f"{t}/irq-after{n}").read()) - int(open(f"{t}/irq-before{n}").read())
    [p] = json.load(open(f"{t}/hp{n}/results.json"))["phases"]
    ios = sum(p["timeseries"]["ios_read"])
    opt = p["io_options"]["hipri"]
    print(f"hp{n}: nvme{n}n1 io_poll {poll}, {ios} reads, {irq} I/O-queue interrupts, hipri {opt}")
    assert ios > 100, (n, ios)
    if n == 0:
        assert poll == 1 and opt == {"asked_ranks": 1, "unavailable_ranks": 0, "why": None}, (poll, opt)
        assert irq < ios // 10, (irq, ios)
    else:
        assert poll == 0 and opt["unavailable_ranks"] == 1, (poll, opt)
        assert opt["why"] == "hipri needs a block device with poll queues (target is a block device (nvme1n1), whose queue/io_poll is 0)", opt
        assert irq >= ios // 2, (irq, ios)
PY
grep -q "note: hipri unavailable on 1 of 1 ranks: hipri needs a block device with poll queues" "$T/hp1.log" ||
	fail "hp1: no printed note"
echo PASS
