#!/usr/bin/env bash
# fuzz.sh [SECONDS] -- builds the libFuzzer harnesses with clang into
# build-fuzz/ (-DSC_FUZZ=ON: ASan and UBSan too) and runs each for SECONDS
# (default 60) from its seed corpus in tests/fuzz/.  Not part of the
# default test run.  Exits non-zero when a harness found a crash, a leak,
# a hang or an unbounded allocation; the input is in
# build-fuzz/fuzz-work/HARNESS/artifacts/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
# clang and its libFuzzer runtime: only this script needs them.
FUZZ_PACKAGES=(clang libclang-rt-dev)
missing=()
for p in "${FUZZ_PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "fuzz.sh: install ${missing[*]} (as root, or with sudo apt-get install)" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
CC=clang cmake -S . -B build-fuzz -DSC_FUZZ=ON -DSC_FUZZ_SECONDS="$seconds" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_config fuzz_results
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd build-fuzz
ctest --output-on-failure -L fuzz
