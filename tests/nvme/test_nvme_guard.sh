#!/usr/bin/env bash
# The destroy guard on real (emulated) NVMe namespaces: one guest, controller
# SCGD0001 (64 MiB) and SCMP0001 (64 MiB, paths=2: one multipath namespace
# over two controllers).  Every run is one rank writing 4 MiB (bs 1MiB) to
# a block-device target, with both opt-ins (allow_destroy: true in the
# target, --allow-destroy) unless the case is about them.  A refusal must
# exit 2 with the reason the docs give, write no results.json and leave the
# device's bytes (a pattern dd wrote, or diskstats' sectors written) alone;
# an approval must exit 0, count 4 MiB written in results.json and change
# the device's bytes.  The config check refuses a target it can examine
# before any rank starts (file:line:col: key: ...); the same target with
# hosts: "*" is left to the rank's guard (rank 0: HOST: targets.0 (...)),
# whose messages name the mount point and the chain.
# 1. nvme0n1 without allow_destroy, without --allow-destroy, or both:
#    refused naming the missing opt-in; with both: written.
# 2. a GPT with one partition: nvme0n1 is refused ("it has partitions"),
#    also with wipe_signatures_ok: true; nvme0n1p1 (no signature) is
#    written, and sfdisk --dump and the disk's bytes outside p1 unchanged.
# 3. ext4 on nvme0n1p1, mounted: p1 and nvme0n1 refused as mounted (by the
#    rank's guard: "mounted on /mnt/p1"); after umount p1 refused for its
#    ext4 signature, and written with wipe_signatures_ok: true.
# 4. the multipath namespace: the head nvmeXnY (found through the
#    nvme-subsystem whose two controllers have serial SCMP0001) has a /dev
#    node, its hidden paths nvmeXcYnZ none; the head is written, and refused
#    as mounted once ext4 is made and mounted on it.
. "$(dirname "$0")/nvme_lib.sh"

SZ=$((4 << 20))
# yaml NAME PATH [TARGET KEY LINE]... : a config writing $SZ to PATH
yaml() {
	local name=$1 path=$2 key
	shift 2
	{
		echo "targets:"
		echo "  - path: $path"
		for key in "$@"; do echo "    $key"; done
		echo "phases:"
		echo "  - name: w"
		echo "    rw: write"
		echo "    bs: 1MiB"
		echo "    size: $SZ"
	} >"$T/$name.yaml"
}
yaml disk-nokey /dev/nvme0n1
yaml disk /dev/nvme0n1 "allow_destroy: true"
yaml disk-wipe /dev/nvme0n1 "allow_destroy: true" "wipe_signatures_ok: true"
yaml p1 /dev/nvme0n1p1 "allow_destroy: true"
yaml p1-wipe /dev/nvme0n1p1 "allow_destroy: true" "wipe_signatures_ok: true"
# the multipath head's name is known only in the guest: @HEAD@ there
yaml mp /dev/@HEAD@ "allow_destroy: true"
yaml mp-wipe /dev/@HEAD@ "allow_destroy: true" "wipe_signatures_ok: true"
# with hosts: the config check leaves the target to the ranks' guard
yaml disk-nokey-hosts /dev/nvme0n1 'hosts: "*"'
for y in disk-wipe p1-wipe mp-wipe; do
	yaml "$y-hosts" "$(sed -n 's/^  - path: //p' "$T/$y.yaml")" 'hosts: "*"' \
		"allow_destroy: true" "wipe_signatures_ok: true"
done

cat >"$T/guest.sh" <<'SH'
set -e
shopt -s extglob nullglob
# run NAME YAML [ARG]... : ssdcluster's output in $T/NAME.log, exit status in
# $T/NAME.rc.  Runs that are refused before any I/O go in parallel (&, wait):
# a run takes 2-3 s here, most of it starting up.
run() {
	local name=$1 yaml=$2 rc=0
	shift 2
	"$SC_BIN" "$T/$yaml.yaml" "$@" --output "$T/$name" >"$T/$name.log" 2>&1 || rc=$?
	echo "$rc" >"$T/$name.rc"
}
# sectors written to block device $1 (diskstats field 7)
wsect() { awk '{ print $7 }' "/sys/class/block/$1/stat"; }
# sha256 of COUNT MiB of device $1 from MiB SKIP (default the first 4 MiB)
sum() { dd if="$1" bs=1M skip="${2:-0}" count="${3:-4}" iflag=direct status=none | sha256sum | cut -d' ' -f1; }
pattern() { dd if="$T/pat" of="$1" bs=1M oflag=direct conv=fsync status=none; }
hostname >"$T/hostname"
head -c "$SZ" /dev/urandom >"$T/pat"
sum "$T/pat" 0 4 >"$T/pat.sum"

# 1. the opt-ins
pattern /dev/nvme0n1
wsect nvme0n1 >"$T/c1.wsect0"
run c1-none disk-nokey &
run c1-noflag disk &
run c1-nokey disk-nokey --allow-destroy &
run c1-none-hosts disk-nokey-hosts &
wait
wsect nvme0n1 >"$T/c1.wsect1"
sum /dev/nvme0n1 >"$T/c1.sum1"
run c1-both disk --allow-destroy
sum /dev/nvme0n1 >"$T/c1.sum2"

# 2. a partition table: p1 from 1 MiB to 33 MiB of the 64 MiB
printf 'label: gpt\nstart=1MiB, size=32MiB, type=L\n' | sfdisk -q /dev/nvme0n1
for i in $(seq 50); do [ -b /dev/nvme0n1p1 ] && break; sleep 0.1; done
[ -b /dev/nvme0n1p1 ] || { echo "guest: sfdisk made no /dev/nvme0n1p1" >&2; exit 1; }
sfdisk --dump /dev/nvme0n1 >"$T/c2.dump0"
pattern /dev/nvme0n1p1
outside() { echo "$(sum /dev/nvme0n1 0 1) $(sum /dev/nvme0n1 33 31)"; }
outside >"$T/c2.outside0"
wsect nvme0n1 >"$T/c2.wsect0"
run c2-disk disk --allow-destroy &
run c2-disk-wipe disk-wipe --allow-destroy &
wait
wsect nvme0n1 >"$T/c2.wsect1"
sum /dev/nvme0n1p1 >"$T/c2.sum1"
run c2-p1 p1 --allow-destroy
sum /dev/nvme0n1p1 >"$T/c2.sum2"
sfdisk --dump /dev/nvme0n1 >"$T/c2.dump1"
outside >"$T/c2.outside1"

# 3. a mounted filesystem on p1
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 /dev/nvme0n1p1
mkdir -p /mnt/p1
mount -t ext4 /dev/nvme0n1p1 /mnt/p1
sync
wsect nvme0n1p1 >"$T/c3.wsect0"
run c3-p1-mounted p1-wipe --allow-destroy &
run c3-disk-mounted disk-wipe --allow-destroy &
run c3-p1-mounted-hosts p1-wipe-hosts --allow-destroy &
run c3-disk-mounted-hosts disk-wipe-hosts --allow-destroy &
wait
wsect nvme0n1p1 >"$T/c3.wsect1"
umount /mnt/p1
sum /dev/nvme0n1p1 >"$T/c3.sum0"
run c3-p1-sig p1 --allow-destroy
sum /dev/nvme0n1p1 >"$T/c3.sum1"
run c3-p1-wipe p1-wipe --allow-destroy
sum /dev/nvme0n1p1 >"$T/c3.sum2"

# 4. the multipath namespace: its nvme-subsystem holds the controllers
# (nvmeN) with serial SCMP0001 and the head (nvmeXnY)
head= ctrls=
for s in /sys/class/nvme-subsystem/nvme-subsys*; do
	[ "$(tr -d ' ' <"$s/serial")" = SCMP0001 ] || continue
	for c in "$s"/nvme+([0-9]); do
		[ "$(tr -d ' ' <"$c/serial")" = SCMP0001 ] && ctrls="$ctrls ${c##*/}"
	done
	for h in "$s"/nvme+([0-9])n+([0-9]); do head="$head ${h##*/}"; done
done
echo $head >"$T/c4.head"
echo $ctrls >"$T/c4.ctrls"
head=$(echo $head)
for b in /sys/block/*; do b=${b##*/}; [[ $b == nvme+([0-9])c+([0-9])n+([0-9]) ]] && echo "$b"; done >"$T/c4.paths"
for b in $(cat "$T/c4.paths"); do [ -e "/dev/$b" ] && echo "$b"; done >"$T/c4.pathnodes"
[ -n "$head" ] && [ -b "/dev/$head" ] || { echo "guest: no /dev node for the head '$head' of SCMP0001" >&2; exit 1; }
for y in mp mp-wipe mp-wipe-hosts; do sed "s/@HEAD@/$head/" "$T/$y.yaml" >"$T/$y-head.yaml"; done
pattern "/dev/$head"
run c4-head mp-head --allow-destroy
sum "/dev/$head" >"$T/c4.sum1"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$head"
mkdir -p /mnt/mp
mount -t ext4 "/dev/$head" /mnt/mp
sync
wsect "$head" >"$T/c4.wsect0"
run c4-mounted mp-wipe-head --allow-destroy &
run c4-mounted-hosts mp-wipe-hosts-head --allow-destroy &
wait
wsect "$head" >"$T/c4.wsect1"
umount /mnt/mp
SH
nvme_guest "$T/guest.sh" --env SZ="$SZ" \
	--nvme serial=SCGD0001,size=64M --nvme serial=SCMP0001,size=64M,paths=2

# refused NAME TEXT... : run NAME exited 2, wrote no results, and one line
# of its output holds every TEXT, in order
refused() {
	local name=$1 rc line text
	shift
	rc=$(cat "$T/$name.rc")
	[ "$rc" = 2 ] || { cat "$T/$name.log"; fail "$name: exit $rc, not 2 (refused)"; }
	[ ! -e "$T/$name/results.json" ] || fail "$name: refused, but it wrote results.json"
	while IFS= read -r line; do
		local rest=$line
		for text in "$@"; do
			[[ $rest == *"$text"* ]] || continue 2
			rest=${rest#*"$text"}
		done
		echo "ok: $name refused (exit 2): $line"
		return 0
	done <"$T/$name.log"
	cat "$T/$name.log"
	fail "$name: no line with $(printf '"%s" ' "$@")"
}
# ran NAME BEFORE AFTER : run NAME exited 0, its results.json counts $SZ
# bytes written, and the device's bytes changed (sums in files BEFORE, AFTER)
ran() {
	local rc
	rc=$(cat "$T/$1.rc")
	[ "$rc" = 0 ] || { cat "$T/$1.log"; fail "$1: exit $rc, not 0 (allowed)"; }
	python3 - "$T/$1/results.json" "$SZ" <<'PY' || fail "$1: results.json"
import json, sys
[p] = json.load(open(sys.argv[1]))["phases"]
w = sum(p["timeseries"]["bytes_written"])
assert p["status"] == "ok" and w == int(sys.argv[2]), (p["status"], w)
PY
	[ "$(cat "$2")" != "$(cat "$3")" ] || fail "$1: the device's first $SZ bytes did not change"
	echo "ok: $1 allowed (exit 0), $SZ bytes written, the device's bytes changed"
}
same() { cmp -s "$1" "$2" || fail "$3: $(cat "$1") became $(cat "$2")"; }

# 1. the opt-ins: the config check refuses before any rank starts; with
# hosts: the rank's guard does, naming the target as the docs show
refused c1-none "phases.0.rw: write would overwrite the data of the block device /dev/nvme0n1 (targets.0) (set allow_destroy: true on that target and add --allow-destroy"
refused c1-noflag "targets.0.allow_destroy: phase w would overwrite the data of the block device /dev/nvme0n1, and the command line lacks --allow-destroy"
refused c1-nokey "phases.0.rw: write would overwrite the data of the block device /dev/nvme0n1 (targets.0) (set allow_destroy: true on that target"
refused c1-none-hosts "rank 0: $(cat "$T/hostname"): targets.0 (/dev/nvme0n1, a block device): phase w writes to it, which destroys what it holds; refused: set allow_destroy: true on that target and add --allow-destroy"
same "$T/c1.wsect0" "$T/c1.wsect1" "c1: nvme0n1's sectors written"
same "$T/pat.sum" "$T/c1.sum1" "c1: nvme0n1's first $SZ bytes (the pattern)"
echo "ok: c1: nvme0n1 still holds the pattern; its sectors written stayed $(cat "$T/c1.wsect1")"
ran c1-both "$T/c1.sum1" "$T/c1.sum2"

# 2. a partition table
G="rank 0: $(cat "$T/hostname"): targets.0"
refused c2-disk "$G (/dev/nvme0n1, a block device): refused although both opt-ins are given: it has partitions (nvme0n1p1)"
refused c2-disk-wipe "$G (/dev/nvme0n1, a block device): refused although both opt-ins are given: it has partitions (nvme0n1p1)"
same "$T/c2.wsect0" "$T/c2.wsect1" "c2: nvme0n1's sectors written"
same "$T/pat.sum" "$T/c2.sum1" "c2: nvme0n1p1's first $SZ bytes (the pattern)"
ran c2-p1 "$T/c2.sum1" "$T/c2.sum2"
same "$T/c2.dump0" "$T/c2.dump1" "c2: sfdisk --dump /dev/nvme0n1"
same "$T/c2.outside0" "$T/c2.outside1" "c2: nvme0n1's bytes outside nvme0n1p1"
grep -q '^/dev/nvme0n1p1 : start= *2048, size= *65536, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4' "$T/c2.dump1" ||
	{ cat "$T/c2.dump1"; fail "c2: the dump shows no nvme0n1p1 at 1 MiB, 32 MiB"; }
echo "ok: c2: the partition table and the bytes outside nvme0n1p1 are unchanged"

# 3. a mounted filesystem
M="which is mounted, itself or a partition, on"
refused c3-p1-mounted "phases.0.rw: write would write to /dev/nvme0n1p1 (targets.0), $M /mnt/p1 (unmount it first)"
refused c3-disk-mounted "phases.0.rw: write would write to /dev/nvme0n1 (targets.0), $M /mnt/p1 (unmount it first)"
refused c3-p1-mounted-hosts "$G (/dev/nvme0n1p1, a block device): refused although both opt-ins are given: it (259:" \
	") is mounted on /mnt/p1 (unmount it first)"
refused c3-disk-mounted-hosts "$G (/dev/nvme0n1, a block device): refused although both opt-ins are given: its partition nvme0n1p1 (259:" \
	") is mounted on /mnt/p1 (unmount it first)"
same "$T/c3.wsect0" "$T/c3.wsect1" "c3: nvme0n1p1's sectors written while mounted"
refused c3-p1-sig "$G (/dev/nvme0n1p1, a block device): refused although both opt-ins are given: it carries ext4 (filesystem)"
same "$T/c3.sum0" "$T/c3.sum1" "c3: nvme0n1p1's first $SZ bytes after a refusal"
ran c3-p1-wipe "$T/c3.sum1" "$T/c3.sum2"

# 4. the multipath namespace
head=$(cat "$T/c4.head")
[[ $head =~ ^nvme[0-9]+n[0-9]+$ ]] || fail "c4: one head namespace for serial SCMP0001, found '$head'"
[ "$(wc -w <"$T/c4.ctrls")" = 2 ] || fail "c4: controllers with serial SCMP0001: $(cat "$T/c4.ctrls"), not two"
[ "$(grep -c "^${head%n*}c[0-9]*n${head##*n}\$" "$T/c4.paths")" = 2 ] ||
	fail "c4: hidden paths of $head: $(cat "$T/c4.paths"), not two"
[ ! -s "$T/c4.pathnodes" ] || fail "c4: hidden paths with a /dev node: $(cat "$T/c4.pathnodes")"
echo "ok: c4: head $head over controllers $(cat "$T/c4.ctrls"), hidden paths $(echo $(cat "$T/c4.paths")) without /dev nodes"
ran c4-head "$T/pat.sum" "$T/c4.sum1"
grep -q "rank 0 /dev/$head: $head QEMU NVMe Ctrl serial SCMP0001 " "$T/c4-head.log" ||
	fail "c4: the printed inventory does not name $head, serial SCMP0001"
refused c4-mounted "phases.0.rw: write would write to /dev/$head (targets.0), $M /mnt/mp (unmount it first)"
refused c4-mounted-hosts "$G (/dev/$head, a block device): refused although both opt-ins are given: it (259:" \
	") is mounted on /mnt/mp (unmount it first)"
same "$T/c4.wsect0" "$T/c4.wsect1" "c4: $head's sectors written while mounted"
echo PASS
