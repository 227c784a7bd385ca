# lib.sh -- shared by the integration tests: temp dirs, mpirun, JSON checks.
set -euo pipefail
: "${SC_BIN:?SC_BIN must name the ssdcluster binary}"
: "${SC_SOURCE_DIR:?}"
MPIEXEC=${MPIEXEC:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Keep Open MPI on this host's shared memory and loopback only.
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo

T=$(mktemp -d "${TMPDIR:-/tmp}/sc-it.XXXXXX")
trap 'rm -rf "$T"' EXIT
# Each test its own Open MPI session directory: tests run two at a time
# (-j2) otherwise share /tmp/ompi.HOST.UID, which one job's cleanup can
# remove while another's mpirun makes it ("mkdir ... File exists", then
# orte_init failed: seen beside two busy loops).
export OMPI_MCA_orte_tmpdir_base="$T"

fail() { echo "FAIL: $*" >&2; exit 1; }
# The skip code, ctest's SKIP_RETURN_CODE: this machine cannot judge the
# test (a tool or privilege missing, a load that leaves no verdict).
SC_SKIP=77
skip() { echo "SKIP: $*"; exit "$SC_SKIP"; }
# 1 when the binary is built with the sanitizers (set by CMake).
SC_SANITIZED=${SC_SANITIZED:-0}

# sc_mpirun NP ARGS... : runs ssdcluster on NP ranks, output in $T/out.log
sc_mpirun() {
	local np=$1; shift
	"$MPIEXEC" --oversubscribe -np "$np" "$SC_BIN" "$@" >"$T/out.log" 2>&1
}

# fixture NAME [VAR=VALUE]... : the config tests/data/configs/NAME on
# stdout, its leading comment lines dropped and each ${VAR} replaced by
# VALUE; a placeholder left unfilled fails the test.
fixture() {
	local file=$SC_SOURCE_DIR/tests/data/configs/$1 out kv pat val
	shift
	[ -f "$file" ] || fail "no fixture $file"
	out=$(sed '/^#/d' "$file")
	for kv in "$@"; do
		pat="\${${kv%%=*}}" val=${kv#*=}
		out=${out//"$pat"/"$val"}
	done
	case $out in *'${'*) fail "fixture $1: a placeholder is left in: $out" ;; esac
	printf '%s\n' "$out"
}

# file_target_yaml PATH : a config's targets: section of the one file or
# block target PATH that may be written, on stdout (its phases follow)
file_target_yaml() {
	printf 'targets:\n  - path: %s\n    allow_destroy: true\n' "$1"
}

# count_entries DIR : number of entries under DIR (0 if it does not exist)
count_entries() { [ -e "$1" ] && find "$1" -mindepth 1 | wc -l || echo 0; }

# pb_cut PB OUT : OUT is PB cut in the middle of its first part (the run
# record as first written: a 12-byte header whose bytes 4..7 give its
# payload's length, then the payload), which every reader refuses as
# truncated; a cut in a part appended later is a crash's, and is read.
pb_cut() {
	local first
	first=$((12 + $(od -An -tu4 -j4 -N4 "$1" | tr -d ' ')))
	head -c $((first / 2)) "$1" >"$2"
}
