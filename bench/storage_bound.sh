#!/usr/bin/env bash
# storage_bound.sh -- training_vs_dlio.py with the storage, not the client, as
# the limit: both datasets on ext4 over a loop device (an image file this
# script creates; the loop device reads it with O_DIRECT, so the image is not
# cached a second time), every mpirun in a cgroup that caps that device's reads
# at --rbps, the page cache dropped before each run, and the device's reads
# counted per run (a run served from the page cache shows it). Removes the
# mount, loop device, cgroups and image at exit. As root; writes to no block
# device but the loop device it makes.
#
#   bench/storage_bound.sh [--image FILE] [--image-size 8GiB] [--rbps 100MiB]
#       [-- training_vs_dlio.py options]
#
# One epoch (--epochs 1, as each run starts with the page cache dropped):
# every sample is read from the device once. No memory cap keeps later
# epochs' re-reads out of the page cache instead: one cap for both tools
# would leave ssdcluster far more page cache than DLIO, whose Python
# processes take hundreds of MiB each. The training_vs_dlio.py options come
# after those set here (later ones win). The image holds both datasets and
# as much again as ssdcluster's free: ssdcluster counts a directory target's
# free space as its capacity and a dataset already laid out as still to
# write (8GiB: --files up to about 300; 448 files ran in 12GiB). With
# `-- --sc-io both` each round runs ssdcluster with O_DIRECT as well: the
# comparison where the page-cache copy (and this VM's cost of first
# touching memory, bench/page_cache_cost.py) is left out of ssdcluster's CPU.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

image=/var/tmp/sc-storage-bound.img
image_size=8GiB
rbps=100MiB
while [ $# -gt 0 ]; do
	case $1 in
	--image) image=$2; shift 2 ;;
	--image-size) image_size=$2; shift 2 ;;
	--rbps) rbps=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "storage_bound.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "storage_bound.sh: run as root" >&2; exit 1; }
[ -e "$image" ] && { echo "storage_bound.sh: $image exists; give another --image" >&2; exit 1; }
# 100MiB, 100Mi, 100M (all 2^20) or a plain count of bytes
bytes() {
	local v=${1%B}
	case $v in *i) numfmt --from=iec-i "$v" ;; *) numfmt --from=iec "$v" ;; esac
}
rbps_bytes=$(bytes "$rbps")

name=sc-storage-bound-$$
mnt=/var/tmp/$name
loop=
cgroups=()
cleanup() {
	set +e
	mountpoint -q "$mnt" && umount "$mnt"
	[ -d "$mnt" ] && rmdir "$mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	for d in "${cgroups[@]}"; do rmdir "$d"; done
	rm -f "$image"
}
trap cleanup EXIT

truncate -s "$image_size" "$image"
mkfs.ext4 -q -F "$image"
loop=$(losetup --find --show --direct-io=on "$image")
mkdir "$mnt"
mount "$loop" "$mnt"
majmin=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
dev=${loop#/dev/}

# cgroup v2 where it has the io controller, else v1's blkio
args=()
if grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	echo +io >/sys/fs/cgroup/cgroup.subtree_control
	cg=/sys/fs/cgroup/$name
	mkdir "$cg"
	cgroups+=("$cg")
	echo "$majmin rbps=$rbps_bytes" >"$cg/io.max"
	args+=(--cgroup "$cg")
else
	cg=/sys/fs/cgroup/blkio/$name
	mkdir "$cg"
	cgroups+=("$cg")
	echo "$majmin $rbps_bytes" >"$cg/blkio.throttle.read_bps_device"
	args+=(--cgroup "$cg")
fi
echo "storage_bound.sh: $image ($image_size) on $loop ($majmin), ext4 at $mnt," \
	"reads capped at $rbps ($rbps_bytes B/s) in ${cgroups[*]}"
/usr/bin/python3 "$here/training_vs_dlio.py" --data-dir "$mnt" --count-reads "$dev" \
	--drop-caches --epochs 1 "${args[@]}" "$@"
