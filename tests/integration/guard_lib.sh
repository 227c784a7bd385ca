# guard_lib.sh -- shared by the destroy-guard tests: loop devices over
# image files in $T, markers and checksums, one-phase configs, and a run
# that must end with a given status and message.  Everything made here is
# undone at exit (processes, mounts, loop devices, $T).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
for tool in losetup mountpoint mkfs.ext4 fsck.ext4 blkid sfdisk partx mount umount mknod sha256sum; do
	command -v "$tool" >/dev/null || skip "no $tool"
done

LOOPS=() PIDS=() SWAPS=() MOUNTS=("$T/m" "$T/m2" "$T/m3") # unmounted at exit if still mounted (last first)
cleanup() {
	local rc=$? d p i
	set +e
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	for p in "${SWAPS[@]}"; do swapoff "$p" 2>/dev/null; done
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		mountpoint -q "${MOUNTS[i]}" && umount "${MOUNTS[i]}"
	done
	for ((i = ${#LOOPS[@]} - 1; i >= 0; i--)); do
		d=${LOOPS[i]}
		partx -d "$d" 2>/dev/null
		losetup -d "$d"
	done
	rm -rf "$T"
	exit "$rc"
}
trap cleanup EXIT

# new_loop NAME SIZE [losetup options] : a loop device over $T/NAME.img in $LOOP
new_loop() {
	local name=$1 size=$2; shift 2
	truncate -s "$size" "$T/$name.img"
	LOOP=$(losetup --find --show "$@" "$T/$name.img") || skip "losetup failed"
	LOOPS+=("$LOOP")
}

# mark DEV : writes a random 4 KiB marker at offset 0; its sha256 in $MARK
mark() {
	head -c 4096 /dev/urandom >"$T/marker"
	dd if="$T/marker" of="$1" bs=4096 count=1 conv=notrunc,fsync status=none
	MARK=$(sha256sum <"$T/marker")
}
# head_sum DEV : sha256 of its first 4 KiB, read past the page cache
head_sum() { dd if="$1" bs=4096 count=1 iflag=direct status=none | sha256sum; }
marker_kept() { [ "$(head_sum "$1")" = "$MARK" ] || fail "$2: the marker at offset 0 of $1 was overwritten"; }

# config FILE PATH [TARGET_LINE]... : one target, one 4 MiB sequential write
config() {
	local file=$1 path=$2; shift 2
	{
		echo "targets:"
		echo "  - path: $path"
		for l in "$@"; do echo "    $l"; done
		echo "phases:"
		echo "  - name: wr"
		echo "    rw: write"
		echo "    bs: 1MiB"
		echo "    size: 4MiB"
	} >"$file"
}

# expect RC WANT NP CONFIG ARGS... : exit status RC and WANT in the output
expect() {
	local want_rc=$1 want=$2 np=$3 rc=0; shift 3
	rm -rf "$T/out"
	sc_mpirun "$np" "$@" --output "$T/out" || rc=$?
	[ "$rc" -eq "$want_rc" ] || { cat "$T/out.log"; fail "exit $rc, want $want_rc: $*"; }
	[ -z "$want" ] || grep -qF -- "$want" "$T/out.log" || {
		cat "$T/out.log"
		fail "no '$want' in the output of: $*"
	}
}

