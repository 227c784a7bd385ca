#!/usr/bin/env bash
# nvme-vm.sh -- run a command in a QEMU guest that has emulated NVMe
# controllers, and return its exit status and its files.
#
# The guest runs Debian's own kernel (linux-image-amd64) and its real nvme
# driver; it sees the host's whole filesystem read-only at the same paths
# (9p, with a RAM overlay so it may write anywhere, lost at power-off) and
# the --out directory writable, so a test runs the host's build on
# /dev/nvme0n1 and leaves its results on the host.  Only image files this
# script creates back the controllers; the guest has no network but its
# own loopback.  Run with --help for the options.
set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
readonly SCRIPT
readonly PROG=nvme-vm
# Exit statuses of the harness itself, as timeout(1) and env(1) use them,
# so that a caller can tell them from the command's own (which passes
# through unchanged).
readonly EXIT_TIMEOUT=124
readonly EXIT_HARNESS=125
readonly PACKAGES=(qemu-system-x86 linux-image-amd64 busybox-static kmod)
# Modules the initramfs loads, in this order, to mount the host's root;
# everything else (nvme, ext4, ...) the guest loads with the host's own
# modprobe once that root is mounted.
readonly BOOT_MODULES=(9p 9pnet_virtio virtio_pci overlay)
readonly GUEST_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

usage() {
	cat <<'EOF'
Usage: scripts/nvme-vm.sh [OPTIONS] [--nvme SPEC]... -- COMMAND [ARG]...

Boots a QEMU guest (KVM when /dev/kvm is usable, else TCG emulation) with
one NVMe controller per --nvme, runs COMMAND in it as root, and exits with
COMMAND's exit status.  In the guest, the host's filesystem is visible
read-only at the same paths (writes go to a RAM overlay and are lost),
COMMAND starts in the current directory, stdin is /dev/null, and its
stdout and stderr come out on this script's stdout and stderr.

Options:
  --nvme SPEC        add an NVMe controller (repeatable).  The guest numbers
                     controllers in the order given, a paths=N entry taking
                     N numbers; find a drive by its serial in
                     /sys/class/nvme/nvme*/serial (padded with spaces to 20)
  --out DIR          writable in the guest at the same path; created if missing.
                     The command's files come back through it.
  --mem SIZE         guest memory (default 1G)
  --cpus N           guest vCPUs (default 2)
  --poll-queues N    nvme driver's poll_queues (default 2; 0 for none)
  --timeout SECONDS  limit for the whole run, boot included (default 300);
                     QEMU is killed and the exit status is 124
  --env NAME[=VALUE] set NAME in the command's environment (from this
                     shell's when no VALUE); the guest's environment is
                     otherwise only PATH, HOME, TERM, LANG and SC_NVME_VM=1
  --kernel VMLINUZ   the guest kernel (default: the newest /boot/vmlinuz-*
                     whose modules are installed)
  -v, --verbose      print the guest's console and the boot and run times
  --install          install the Debian packages the guest needs (as root)
                     and check that a kernel is usable, then exit
  -h, --help         this text

SPEC, comma-separated KEY=VALUE:
  serial=S           controller serial (required; 1-20 of A-Z a-z 0-9 . _ -;
                     unique)
  size=N[K|M|G]      namespace size (required): a sparse image file in a
                     temp directory removed at the end
  lbs=N              logical (and physical) block size, 512 or 4096 ...
  queues=N           I/O queue pairs the controller offers (QEMU
                     max_ioqpairs); queues=1 leaves no poll queue on it,
                     since the driver keeps one queue for interrupts
  throttle_bps=N     limit the drive to N bytes/s, reads and writes together
  throttle_iops=N    limit the drive to N I/Os per second
  burst_bps=N,burst_s=S
                     with throttle_bps: let the drive run at burst_bps until
                     a bucket of burst_bps x S bytes, drained at throttle_bps,
                     is full (QEMU's bps-total-max and -max-length): a fresh
                     drive writes about B x burst_bps x S / (B - throttle_bps)
                     bytes at a rate B (burst_bps, where the guest keeps up)
                     before it falls to throttle_bps, a write cliff
  paths=N            N controllers (2 or more) in one nvme-subsys, sharing
                     the namespace: the guest sees one multipath namespace
                     (nvmeXnY) and N controllers, all with serial S

Example:
  scripts/nvme-vm.sh --nvme serial=SC0001,size=256M \
      --nvme serial=SC0002,size=256M,throttle_bps=50000000 --out /tmp/r -- \
      build/ssdcluster configs/quickstart.yaml --output /tmp/r/qs

Exit status: COMMAND's; 124 on timeout; 125 when the harness failed
(bad options, packages, boot, or the NVMe namespaces did not appear).
The initramfs is built once into $SC_NVME_VM_CACHE (default
/var/tmp/ssdcluster-nvme-vm) and rebuilt when the kernel or this script
changes.
EOF
}

die() {
	echo "$PROG: $*" >&2
	exit "$EXIT_HARNESS"
}

# ---- options --------------------------------------------------------------

specs=()
out=
mem=1G
cpus=2
poll_queues=2
timeout_s=300
envs=()
kernel=
verbose=0
install_only=0
cmd=()

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--nvme) [ $# -ge 2 ] || die "--nvme needs a SPEC"; specs+=("$2"); shift 2 ;;
		--out) [ $# -ge 2 ] || die "--out needs a DIR"; out=$2; shift 2 ;;
		--mem) [ $# -ge 2 ] || die "--mem needs a SIZE"; mem=$2; shift 2 ;;
		--cpus) [ $# -ge 2 ] || die "--cpus needs N"; cpus=$2; shift 2 ;;
		--poll-queues) [ $# -ge 2 ] || die "--poll-queues needs N"; poll_queues=$2; shift 2 ;;
		--timeout) [ $# -ge 2 ] || die "--timeout needs SECONDS"; timeout_s=$2; shift 2 ;;
		--env) [ $# -ge 2 ] || die "--env needs NAME[=VALUE]"; envs+=("$2"); shift 2 ;;
		--kernel) [ $# -ge 2 ] || die "--kernel needs a file"; kernel=$2; shift 2 ;;
		-v | --verbose) verbose=1; shift ;;
		--install) install_only=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; cmd=("$@"); break ;;
		*) die "unknown option '$1' (try --help; the command follows --)" ;;
		esac
	done
	[ ${#cmd[@]} -gt 0 ] || [ "$install_only" = 1 ] || die "no command: put it after -- (try --help)"
	[[ $mem =~ ^[0-9]+[MG]$ ]] || die "--mem '$mem' is not a size like 512M or 2G"
	[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus '$cpus' is not a positive count"
	[[ $poll_queues =~ ^[0-9]+$ ]] || die "--poll-queues '$poll_queues' is not a count"
	[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "--timeout '$timeout_s' is not a positive number of seconds"
	local e
	for e in "${envs[@]}"; do
		[[ ${e%%=*} =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "--env '$e': not NAME or NAME=VALUE"
	done
}

# Each parsed SPEC becomes one line of these arrays, index = its position.
nv_serial=() nv_size=() nv_lbs=() nv_queues=() nv_bps=() nv_iops=() nv_paths=()
nv_burst_bps=() nv_burst_s=()

parse_spec() { # SPEC
	local spec=$1 kv key val
	local serial='' size='' lbs='' queues='' bps='' iops='' burst_bps='' burst_s='' paths=1
	local IFS=,
	for kv in $spec; do
		[[ $kv == *=* ]] || die "--nvme '$spec': '$kv' is not KEY=VALUE"
		key=${kv%%=*} val=${kv#*=}
		case $key in
		serial) [[ $val =~ ^[A-Za-z0-9._-]{1,20}$ ]] ||
			die "--nvme '$spec': serial '$val' must be 1-20 of A-Z a-z 0-9 . _ -"
			serial=$val ;;
		size) [[ $val =~ ^[1-9][0-9]*[KMG]?$ ]] ||
			die "--nvme '$spec': size '$val' is not like 256M or 1G"
			size=$val ;;
		lbs) [[ $val =~ ^(512|1024|2048|4096|8192|16384|32768|65536)$ ]] ||
			die "--nvme '$spec': lbs '$val' is not a power of two from 512 to 65536"
			lbs=$val ;;
		queues) [[ $val =~ ^[1-9][0-9]*$ ]] || die "--nvme '$spec': queues '$val' is not a positive count"
			queues=$val ;;
		throttle_bps) [[ $val =~ ^[1-9][0-9]*$ ]] || die "--nvme '$spec': throttle_bps '$val' is not a positive number"
			bps=$val ;;
		throttle_iops) [[ $val =~ ^[1-9][0-9]*$ ]] || die "--nvme '$spec': throttle_iops '$val' is not a positive number"
			iops=$val ;;
		burst_bps) [[ $val =~ ^[1-9][0-9]*$ ]] || die "--nvme '$spec': burst_bps '$val' is not a positive number"
			burst_bps=$val ;;
		burst_s) [[ $val =~ ^[1-9][0-9]*$ ]] || die "--nvme '$spec': burst_s '$val' is not a positive whole number of seconds"
			burst_s=$val ;;
		paths) [[ $val =~ ^[1-9]$ ]] || die "--nvme '$spec': paths '$val' is not 1 to 9"
			paths=$val ;;
		*) die "--nvme '$spec': unknown key '$key' (serial, size, lbs, queues, throttle_bps, throttle_iops, burst_bps, burst_s, paths)" ;;
		esac
	done
	[ -n "$serial" ] || die "--nvme '$spec': serial= is required"
	[ -n "$size" ] || die "--nvme '$spec': size= is required"
	if [ -n "$burst_bps$burst_s" ]; then
		[ -n "$burst_bps" ] && [ -n "$burst_s" ] && [ -n "$bps" ] ||
			die "--nvme '$spec': burst_bps and burst_s go together, with throttle_bps"
		[ "$burst_bps" -gt "$bps" ] || die "--nvme '$spec': burst_bps $burst_bps must exceed throttle_bps $bps"
	fi
	local s
	for s in "${nv_serial[@]}"; do
		[ "$s" != "$serial" ] || die "--nvme '$spec': serial '$serial' is given twice"
	done
	nv_serial+=("$serial") nv_size+=("$size") nv_lbs+=("$lbs") nv_queues+=("$queues")
	nv_bps+=("$bps") nv_iops+=("$iops") nv_paths+=("$paths")
	nv_burst_bps+=("$burst_bps") nv_burst_s+=("$burst_s")
}

# ---- host side: packages, kernel, initramfs -------------------------------

install_packages() {
	local p missing=()
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "$PROG: installing ${missing[*]}" >&2
	[ "$(id -u)" -eq 0 ] || die "run as root (or install these with sudo apt-get install): ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2 || die "apt-get update failed"
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		die "apt-get install ${missing[*]} failed"
}

# Sets kver from --kernel, or picks the newest installed kernel whose
# modules are there (the host's own may be a different, module-less one).
choose_kernel() {
	if [ -n "$kernel" ]; then
		[ -r "$kernel" ] || die "--kernel '$kernel' is not a readable file"
		kver=$(basename "$kernel")
		kver=${kver#vmlinuz-}
	else
		local k v
		kver=
		for k in /boot/vmlinuz-*; do
			[ -e "$k" ] || continue
			v=${k#/boot/vmlinuz-}
			[ -e "/lib/modules/$v/modules.dep" ] || continue
			if [ -z "$kver" ] || dpkg --compare-versions "$v" gt "$kver"; then
				kver=$v kernel=$k
			fi
		done
		[ -n "$kver" ] || die "no /boot/vmlinuz-* with modules in /lib/modules (is linux-image-amd64 installed?)"
		[ -r "$kernel" ] || die "$kernel is not readable (run as root)"
	fi
	[ -e "/lib/modules/$kver/modules.dep" ] ||
		die "no modules for kernel $kver in /lib/modules/$kver: the guest loads nvme from there"
}

# The module files BOOT_MODULES need, dependencies first, each once.
boot_module_files() {
	local m
	for m in "${BOOT_MODULES[@]}"; do
		modprobe -S "$kver" --show-depends "$m" || die "modprobe cannot resolve module $m for kernel $kver"
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

# First stage of the guest, the initramfs's /init (busybox sh): load the
# 9p and overlay modules, mount the host's root read-only with a tmpfs
# overlay, and switch to it.  The kernel and the module list are given;
# everything that changes per run is read from the ctl share.
write_init() { # FILE
	cat >"$1" <<'EOF'
#!/bin/busybox sh
# nvme-vm guest, stage 1: mount the host's root and switch to it.
/bin/busybox mkdir -p /proc /sys /dev /ctl /lower /upper /newroot
/bin/busybox mount -t devtmpfs dev /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
fail() {
	echo "nvme-vm guest: $*"
	[ -d /ctl/. ] && echo "$*" >/ctl/error
	poweroff -f
}
# Errors show on the console; a module that does not load is caught by
# the mounts below.
while read -r m; do insmod "$m" || echo "nvme-vm guest: insmod $m failed"; done </modules.list
opts=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o "$opts" ctl /ctl || fail "cannot mount the ctl share"
# cache=loose: the root is read-only and not expected to change during
# the run; without it every exec re-reads its libraries over 9p.
mount -t 9p -o "$opts,ro,cache=loose" root /lower || fail "cannot mount the host's root"
mount -t tmpfs -o mode=0755 upper /upper || fail "cannot mount the overlay's tmpfs"
mkdir -p /upper/data /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay /newroot ||
	fail "cannot mount the overlay on the host's root"
mkdir -p /newroot/.nvme-vm/ctl
cp /bin/busybox /stage2 /newroot/.nvme-vm/ || fail "cannot copy stage 2 into the overlay"
mount --move /ctl /newroot/.nvme-vm/ctl
for d in dev proc sys; do mount --move /$d /newroot/$d; done
exec switch_root /newroot /.nvme-vm/busybox sh /.nvme-vm/stage2
EOF
}

# Second stage, pid 1 in the host's root: the rest of a minimal system,
# the nvme driver, the wait for its namespaces, the command, power-off.
write_stage2() { # FILE
	cat >"$1" <<'EOF'
# nvme-vm guest, stage 2 (busybox sh, pid 1, in the host's root).
bb=/.nvme-vm/busybox
ctl=/.nvme-vm/ctl
fail() {
	echo "nvme-vm guest: $*"
	echo "$*" >$ctl/error
	$bb sync
	$bb poweroff -f
}
. $ctl/config
$bb mkdir -p /dev/pts /dev/shm
$bb mount -t devpts devpts /dev/pts
$bb mount -t tmpfs -o mode=1777 shm /dev/shm
$bb mount -t tmpfs -o mode=0755 run /run
# Open MPI's singleton start needs a network interface: loopback only.
$bb ip link set lo up || fail "cannot bring up lo"
$bb hostname nvme-vm
if [ -n "$NVMEVM_OUT" ]; then
	$bb mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out "$NVMEVM_OUT" ||
		fail "cannot mount the out share on $NVMEVM_OUT"
fi
# The host's modprobe and /lib/modules: the kernel is the one installed
# there, and later requests (ext4, ...) find their modules the same way.
/sbin/modprobe nvme poll_queues="$NVMEVM_POLL_QUEUES" || fail "modprobe nvme failed"
# The driver probes controllers and scans namespaces asynchronously.
i=0
while :; do
	ctrls=0 ns=0
	for c in /sys/class/nvme/nvme*; do [ -e "$c" ] && ctrls=$((ctrls + 1)); done
	for d in /dev/nvme*; do
		[ -b "$d" ] || continue
		case ${d#/dev/nvme} in *c* | *p*) continue ;; esac
		ns=$((ns + 1))
	done
	[ $ctrls -ge "$NVMEVM_CTRLS" ] && [ $ns -ge "$NVMEVM_NAMESPACES" ] && break
	i=$((i + 1))
	[ $i -le 600 ] || fail "expected $NVMEVM_CTRLS NVMe controllers and $NVMEVM_NAMESPACES namespaces, saw $ctrls and $ns after 60 s"
	$bb usleep 100000
done
for t in /dev/ttyS1 /dev/ttyS2; do $bb stty -F $t raw -echo || fail "cannot set up $t"; done
$bb cut -d' ' -f1 /proc/uptime >$ctl/ready
$bb env -i /bin/bash $ctl/cmd.sh </dev/null >/dev/ttyS1 2>/dev/ttyS2
echo $? >$ctl/status.tmp
$bb mv $ctl/status.tmp $ctl/status
$bb cut -d' ' -f1 /proc/uptime >$ctl/done
$bb sync
[ -z "$NVMEVM_OUT" ] || $bb umount "$NVMEVM_OUT"
$bb poweroff -f
EOF
}

# Sets initrd: the cached initramfs for this kernel, busybox and script,
# built first when missing.
build_initramfs() {
	local cache=${SC_NVME_VM_CACHE:-/var/tmp/ssdcluster-nvme-vm}
	local busybox=/bin/busybox mods key stage f
	[ -x "$busybox" ] || die "$busybox missing (busybox-static)"
	mods=$(boot_module_files)
	key=$({
		echo "$kver"
		sha256sum "$SCRIPT" "$busybox"
		# shellcheck disable=SC2086 # one path a line, no spaces
		sha256sum $mods
	} | sha256sum | cut -c1-16)
	initrd=$cache/initramfs-$kver-$key.cpio.gz
	[ -s "$initrd" ] && return 0

	mkdir -p "$cache" || die "cannot create the cache directory $cache"
	stage=$tmp/initramfs
	mkdir -p "$stage/bin"
	cp "$busybox" "$stage/bin/busybox"
	: >"$stage/modules.list"
	for f in $mods; do
		mkdir -p "$stage${f%/*}"
		# busybox insmod takes plain .ko files only.
		case $f in
		*.ko) cp "$f" "$stage$f" ;;
		*.ko.xz) xz -dc "$f" >"$stage${f%.xz}"; f=${f%.xz} ;;
		*.ko.zst) zstd -qdc "$f" >"$stage${f%.zst}"; f=${f%.zst} ;;
		*) die "module $f: unknown compression" ;;
		esac
		echo "$f" >>"$stage/modules.list"
	done
	write_init "$stage/init"
	write_stage2 "$stage/stage2"
	chmod 755 "$stage/init"
	(cd "$stage" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -6) >"$initrd.tmp.$$" ||
		die "cannot build the initramfs in $cache"
	mv "$initrd.tmp.$$" "$initrd"
	# Builds of other versions of this script (another worktree may be
	# running one now) go once a day has passed since they were made.
	find "$cache" -maxdepth 1 -name 'initramfs-*.cpio.gz' ! -path "$initrd" -mtime +0 -delete
	[ "$verbose" = 0 ] || echo "$PROG: built $initrd" >&2
}

# ---- the run ----------------------------------------------------------------

tmp=
qemu_pid=
readers=()

# A reader still waiting for QEMU to open its FIFO (QEMU failed first)
# gets end-of-file: opening a FIFO read-write never blocks.
unblock_readers() {
	local f
	for f in "$tmp/stdout.fifo" "$tmp/stderr.fifo"; do
		if [ -p "$f" ]; then { : <>"$f"; } 2>/dev/null || true; fi
	done
}

# shellcheck disable=SC2317 # run by trap
cleanup() {
	local p
	if [ -n "$qemu_pid" ]; then
		kill "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	# QEMU itself, should timeout(1) have gone without it.
	if [ -n "$tmp" ] && [ -s "$tmp/qemu.pid" ]; then
		kill -9 "$(cat "$tmp/qemu.pid")" 2>/dev/null || true
	fi
	[ -z "$tmp" ] || unblock_readers
	for p in "${readers[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	[ -z "$tmp" ] || rm -rf "$tmp"
}

# shellcheck disable=SC2317 # run by trap
on_signal() { # SIGNAL-NUMBER
	echo "$PROG: interrupted, QEMU stopped" >&2
	exit $((128 + $1))
}

# PATH as a value inside a QEMU option list, where a comma is written twice.
qemu_path() { # PATH
	printf '%s' "${1//,/,,}"
}

# Fills qemu_args with the NVMe controllers and their image files.
nvme_args() {
	local i img drive ctrl c lbsopt
	nvme_ctrls=0 nvme_namespaces=0
	for i in "${!nv_serial[@]}"; do
		img=$tmp/nvme$i.img
		truncate -s "${nv_size[$i]}" "$img" || die "cannot create the image $img"
		drive="file=$(qemu_path "$img"),if=none,id=drv$i,format=raw,discard=unmap"
		[ -z "${nv_bps[$i]}" ] || drive+=",throttling.bps-total=${nv_bps[$i]}"
		[ -z "${nv_iops[$i]}" ] || drive+=",throttling.iops-total=${nv_iops[$i]}"
		[ -z "${nv_burst_bps[$i]}" ] ||
			drive+=",throttling.bps-total-max=${nv_burst_bps[$i]},throttling.bps-total-max-length=${nv_burst_s[$i]}"
		qemu_args+=(-drive "$drive")
		lbsopt=
		[ -z "${nv_lbs[$i]}" ] || lbsopt=",logical_block_size=${nv_lbs[$i]},physical_block_size=${nv_lbs[$i]}"
		ctrl="nvme,serial=${nv_serial[$i]}"
		[ -z "${nv_queues[$i]}" ] || ctrl+=",max_ioqpairs=${nv_queues[$i]}"
		if [ "${nv_paths[$i]}" -eq 1 ]; then
			qemu_args+=(-device "$ctrl,drive=drv$i$lbsopt")
			nvme_ctrls=$((nvme_ctrls + 1))
		else
			# One subsystem, its controllers, and one namespace shared
			# by all of them (nvme-ns shared=on, QEMU's default).
			qemu_args+=(-device "nvme-subsys,id=subsys$i,nqn=nvme-vm-${nv_serial[$i]}")
			for ((c = 0; c < nv_paths[i]; c++)); do
				qemu_args+=(-device "$ctrl,id=ctrl${i}_$c,subsys=subsys$i")
			done
			qemu_args+=(-device "nvme-ns,drive=drv$i,bus=ctrl${i}_0,nsid=1,shared=on$lbsopt")
			nvme_ctrls=$((nvme_ctrls + nv_paths[i]))
		fi
		nvme_namespaces=$((nvme_namespaces + 1))
	done
}

# The command as the guest runs it: a fixed environment plus --env, the
# current directory, then exec.
write_cmd() { # FILE
	local e name
	{
		echo "export PATH=$GUEST_PATH HOME=/root TERM=dumb LANG=C.UTF-8 SC_NVME_VM=1"
		for e in "${envs[@]}"; do
			name=${e%%=*}
			if [[ $e == *=* ]]; then
				printf 'export %s=%q\n' "$name" "${e#*=}"
			elif [ -n "${!name+set}" ]; then
				printf 'export %s=%q\n' "$name" "${!name}"
			fi
		done
		printf 'cd -- %q || exit %d\n' "$PWD" "$EXIT_HARNESS"
		printf 'exec'
		printf ' %q' "${cmd[@]}"
		echo
	} >"$1"
}

main() {
	parse_args "$@"
	local s
	for s in "${specs[@]}"; do parse_spec "$s"; done

	install_packages
	choose_kernel
	[ "$install_only" = 0 ] || exit 0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvme-vm.XXXXXX") || die "cannot create a temp directory"
	trap cleanup EXIT
	trap 'on_signal 2' INT
	trap 'on_signal 15' TERM
	trap 'on_signal 1' HUP
	build_initramfs

	if [ -n "$out" ]; then
		mkdir -p "$out" || die "cannot create --out $out"
		out=$(readlink -f "$out")
		[ "$out" != / ] || die "--out cannot be /"
	fi
	mkdir "$tmp/ctl"
	qemu_args=()
	nvme_args
	{
		echo "NVMEVM_POLL_QUEUES=$poll_queues"
		echo "NVMEVM_CTRLS=$nvme_ctrls"
		echo "NVMEVM_NAMESPACES=$nvme_namespaces"
		printf 'NVMEVM_OUT=%q\n' "$out"
	} >"$tmp/ctl/config"
	write_cmd "$tmp/ctl/cmd.sh"

	local accel=tcg cpu=max
	if [ -c /dev/kvm ] && { : <>/dev/kvm; } 2>/dev/null; then
		accel=kvm cpu=host
	fi
	qemu_args+=(
		-nodefaults -no-user-config -display none -no-reboot
		-machine "q35,accel=$accel" -cpu "$cpu" -smp "$cpus" -m "$mem"
		-kernel "$kernel" -initrd "$initrd"
		# no_timer_check: on TCG beside busy processes the kernel's check
		# of the IO-APIC timer fails and it panics ("IO-APIC + timer
		# doesn't work!", seen beside two busy loops).
		-append "console=ttyS0 panic=-1 no_timer_check"
		-pidfile "$tmp/qemu.pid"
		# No network but the guest's loopback.
		-nic none
		# ttyS0 the console (a log, shown on failure), ttyS1 and ttyS2
		# the command's stdout and stderr.
		-chardev "file,id=console,path=$(qemu_path "$tmp/console.log")" -serial chardev:console
		-chardev "file,id=stdout,path=$(qemu_path "$tmp/stdout.fifo")" -serial chardev:stdout
		-chardev "file,id=stderr,path=$(qemu_path "$tmp/stderr.fifo")" -serial chardev:stderr
		-virtfs "local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap"
		-virtfs "local,path=$(qemu_path "$tmp/ctl"),mount_tag=ctl,security_model=none"
	)
	[ -z "$out" ] || qemu_args+=(-virtfs "local,path=$(qemu_path "$out"),mount_tag=out,security_model=none,multidevs=remap")

	# QEMU opens the FIFOs as files; their readers copy them through.
	mkfifo "$tmp/stdout.fifo" "$tmp/stderr.fifo"
	cat "$tmp/stdout.fifo" &
	readers+=($!)
	cat "$tmp/stderr.fifo" >&2 &
	readers+=($!)

	local t0 t1 rc=0
	t0=$(date +%s.%N)
	timeout -k 5 "$timeout_s" qemu-system-x86_64 "${qemu_args[@]}" </dev/null \
		>"$tmp/qemu.log" 2>&1 &
	qemu_pid=$!
	wait "$qemu_pid" || rc=$?
	qemu_pid=
	t1=$(date +%s.%N)
	unblock_readers
	for s in "${readers[@]}"; do wait "$s" || true; done
	readers=()

	if [ "$verbose" = 1 ]; then
		echo "$PROG: ---- guest console ----" >&2
		cat "$tmp/console.log" >&2 || true
		echo "$PROG: ---- end of console ----" >&2
	fi
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		[ "$verbose" = 1 ] || tail -n 20 "$tmp/console.log" >&2 || true
		echo "$PROG: timed out after $timeout_s s (--timeout); QEMU killed" >&2
		exit "$EXIT_TIMEOUT"
	fi
	if [ -s "$tmp/ctl/error" ]; then
		[ "$verbose" = 1 ] || tail -n 20 "$tmp/console.log" >&2 || true
		die "guest: $(cat "$tmp/ctl/error")"
	fi
	if [ ! -s "$tmp/ctl/status" ]; then
		cat "$tmp/qemu.log" >&2 || true
		[ "$verbose" = 1 ] || tail -n 20 "$tmp/console.log" >&2 || true
		die "QEMU exited (status $rc) before the command ran"
	fi
	if [ "$verbose" = 1 ]; then
		awk -v ready="$(cat "$tmp/ctl/ready")" -v done="$(cat "$tmp/ctl/done")" \
			-v wall="$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')" -v accel="$accel" \
			'BEGIN { printf "nvme-vm: %s: guest ready %.1f s after boot, command %.1f s, whole run %s s\n",
				accel, ready, done - ready, wall }' >&2
	fi
	exit "$(cat "$tmp/ctl/status")"
}

main "$@"
