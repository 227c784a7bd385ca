#!/usr/bin/env bash
# test.sh -- set up, build with warnings as errors, and run the whole test
# suite with ctest (unit tests, then integration runs through mpirun).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SC_WERROR=ON bash scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd build
ctest --output-on-failure --timeout 900 "$@"
