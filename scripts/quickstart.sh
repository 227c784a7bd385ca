#!/usr/bin/env bash
# quickstart.sh -- set up, build, and run configs/quickstart.yaml on two ranks
# in a temporary directory (about 30 s).  Results land in ./quickstart-results.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
target=$(mktemp -d "${TMPDIR:-/tmp}/ssdcluster.XXXXXX")
trap 'rm -rf "$target"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SSDCLUSTER_TARGET="$target" mpirun --oversubscribe -np 2 build/ssdcluster \
	configs/quickstart.yaml --output quickstart-results "$@"
