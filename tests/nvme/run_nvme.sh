#!/usr/bin/env bash
# run_nvme.sh [TEST]... -- runs the NVMe tests (default all tests/nvme/test_*.sh),
# one at a time (each boots its own QEMU guest through scripts/nvme-vm.sh),
# and prints a summary: each test's result and time.  Exits 1 if any failed.
# SC_BIN names the binary (default build/ssdcluster); a test's output goes
# to stdout only when it fails, unless SC_NVME_VERBOSE=1.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
[ $# -gt 0 ] || set -- test_*.sh
log=$(mktemp "${TMPDIR:-/tmp}/sc-nvme-run.XXXXXX")
trap 'rm -f "$log"' EXIT
summary=() failed=0
for t in "$@"; do
	t=${t##*/}
	start=$SECONDS
	if bash "./$t" >"$log" 2>&1; then
		res=PASS
		[ "${SC_NVME_VERBOSE:-0}" = 1 ] && cat "$log"
	else
		res="FAIL (exit $?)" failed=$((failed + 1))
		cat "$log"
	fi
	summary+=("$(printf '%-28s %-14s %4d s' "$t" "$res" $((SECONDS - start)))")
	echo "${summary[-1]}"
done
echo "NVMe tier: $(($# - failed)) of $# passed"
printf '  %s\n' "${summary[@]}"
[ "$failed" -eq 0 ]
