# nvme_lib.sh -- shared by the NVMe tests: a temp dir the guest may write, fail,
# and nvme_guest to boot one QEMU guest (scripts/nvme-vm.sh) and run a
# script there.  Every test boots one guest and checks what it left in $T.
set -euo pipefail
SC_SOURCE_DIR=${SC_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SC_BIN=${SC_BIN:-$SC_SOURCE_DIR/build/ssdcluster}
[ -x "$SC_BIN" ] || { echo "FAIL: no ssdcluster binary at $SC_BIN (build first)" >&2; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sc-nvme.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# nvme_guest SCRIPT [nvme-vm.sh options]... : runs the bash script SCRIPT
# (a file in $T) in a guest with $T writable, SC_BIN and T in its
# environment and the guest's output in $T/guest.log.  Fails the test,
# never skips it, when the guest has no /dev/nvme0n1: the script runs only
# after that check, and its exit status is the guest's.
nvme_guest() {
	local script=$1 rc=0
	shift
	cat >"$T/guest-pre.sh" <<'SH'
set -u
[ -b /dev/nvme0n1 ] || { echo "guest: no /dev/nvme0n1: this is not an NVMe guest" >&2; exit 99; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_orte_tmpdir_base=/tmp
. "$1"
SH
	bash "$SC_SOURCE_DIR/scripts/nvme-vm.sh" --timeout "${SC_NVME_TIMEOUT:-240}" \
		--out "$T" --env SC_BIN="$SC_BIN" --env T="$T" "$@" -- \
		bash "$T/guest-pre.sh" "$script" >"$T/guest.log" 2>&1 || rc=$?
	case $rc in
	0) ;;
	99) cat "$T/guest.log"; fail "the guest shows no /dev/nvme0n1" ;;
	124) cat "$T/guest.log"; fail "the guest timed out" ;;
	125) cat "$T/guest.log"; fail "nvme-vm.sh failed (packages, boot or no NVMe namespace)" ;;
	*) cat "$T/guest.log"; fail "the guest script exited $rc" ;;
	esac
}

# sysfs_attr FILE : the trimmed contents of a sysfs file the guest copied
sysfs_attr() { sed 's/^ *//; s/ *$//' "$1"; }
