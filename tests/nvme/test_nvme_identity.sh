#!/usr/bin/env bash
# Drive identity on real (emulated) NVMe: one guest with two controllers
# given serials SCID0001 (256 MiB) and SCID0002 (128 MiB).  A run on both
# block devices (allow_destroy, --allow-destroy, a small write phase) names
# each drive in results.json's inventory and drives rows with QEMU's model
# "QEMU NVMe Ctrl", the serial QEMU was given, the firmware revision and
# the capacity the guest's kernel read from the controller (its sysfs,
# copied out in the guest).  Then an ext4 filesystem made in the guest on
# nvme0n1, mounted, and a directory target on it: the sysfs walk from that
# directory reaches controller nvme0 and its serial.
. "$(dirname "$0")/nvme_lib.sh"

SERIAL0=${SC_NVME_TEST_SERIAL0:-SCID0001}   # a deliberate break sets another
cat >"$T/blk.yaml" <<YAML
targets:
  - path: /dev/nvme0n1
    allow_destroy: true
  - path: /dev/nvme1n1
    allow_destroy: true
phases:
  - name: w
    rw: write
    bs: 1MiB
    size: 8MiB
YAML
cat >"$T/dir.yaml" <<YAML
targets:
  - path: /mnt/sc/dir
phases:
  - name: w
    rw: write
    bs: 1MiB
    size: 4MiB
YAML
cat >"$T/guest.sh" <<'SH'
set -e
for c in nvme0 nvme1; do
	mkdir -p "$T/sysfs/$c"
	for a in serial model firmware_rev; do cat "/sys/class/nvme/$c/$a" >"$T/sysfs/$c/$a"; done
	# the namespace's size in 512-byte sectors, as the kernel read it
	cat "/sys/block/${c}n1/size" >"$T/sysfs/$c/size"
done
mpirun --oversubscribe -np 2 "$SC_BIN" "$T/blk.yaml" --allow-destroy --output "$T/blk" >"$T/blk.log" 2>&1
mkfs.ext4 -q -F /dev/nvme0n1
mkdir -p /mnt/sc
mount -t ext4 /dev/nvme0n1 /mnt/sc
mkdir /mnt/sc/dir
"$SC_BIN" "$T/dir.yaml" --output "$T/dir" >"$T/dir.log" 2>&1
umount /mnt/sc
SH
nvme_guest "$T/guest.sh" \
	--nvme serial=SCID0001,size=256M --nvme serial=SCID0002,size=128M
cat "$T/blk.log" "$T/dir.log"

python3 - "$T" "$SERIAL0" <<'PY' || fail "results.json"
import json, sys
t, serial0 = sys.argv[1], sys.argv[2]
def sysfs(c, a):
    return open(f"{t}/sysfs/{c}/{a}").read().strip()
# what the guest's kernel read from each controller, and what QEMU was given
want = {
    "/dev/nvme0n1": ("nvme0", serial0, 256 << 20),
    "/dev/nvme1n1": ("nvme1", "SCID0002", 128 << 20),
}
for path, (c, serial, size) in want.items():
    assert sysfs(c, "serial") == serial, (c, sysfs(c, "serial"), serial)
    assert int(sysfs(c, "size")) * 512 == size, (c, sysfs(c, "size"))

d = json.load(open(f"{t}/blk/results.json"))
inv = {e["target"]: e for e in d["inventory"]}
assert sorted(inv) == sorted(want), inv
for path, (c, serial, size) in want.items():
    e = inv[path]
    assert e["device"] == path[5:] and e["controller"] == c, e
    assert e["model"] == "QEMU NVMe Ctrl" == sysfs(c, "model"), e
    assert e["serial"] == serial, (e, serial)
    fw = sysfs(c, "firmware_rev")
    assert fw and e["firmware"] == fw, (e, fw)
    assert e["capacity_bytes"] == size, (e, size)
    print(f"inventory {path}: {e['model']!r} serial {e['serial']} fw {e['firmware']} {e['capacity_bytes']} bytes")
rows = [dr for r in d["phases"][0]["drives"] for dr in r["drives"]]
assert sorted((r["device"], r["serial"]) for r in rows) == \
    [("nvme0n1", serial0), ("nvme1n1", "SCID0002")], rows

d = json.load(open(f"{t}/dir/results.json"))
[e] = d["inventory"]
assert e["target"] == "/mnt/sc/dir", e
assert e["device"] == "nvme0n1" and e["controller"] == "nvme0", e
assert e["serial"] == serial0 and e["model"] == "QEMU NVMe Ctrl", e
assert e["firmware"] == sysfs("nvme0", "firmware_rev"), e
rows = [dr for r in d["phases"][0]["drives"] for dr in r["drives"]]
assert [r["serial"] for r in rows] == [serial0], rows
print(f"ext4 directory target /mnt/sc/dir: {e['device']} {e['controller']} serial {e['serial']}")
PY
grep -q "/mnt/sc/dir: nvme0n1 QEMU NVMe Ctrl serial $SERIAL0 " "$T/dir.log" ||
	fail "printed inventory: no line naming nvme0n1 for the directory target"
echo PASS
