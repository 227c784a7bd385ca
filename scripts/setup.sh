#!/usr/bin/env bash
# setup.sh -- install what is missing (Debian, as root) and build into build/.
# Sourced by quickstart.sh and test.sh; safe to run again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SC_PACKAGES=(build-essential cmake pkg-config openmpi-bin libopenmpi-dev liburing-dev
	libprotobuf-c-dev protobuf-c-compiler libyaml-dev libjson-c-dev zlib1g-dev
	python3 fio iproute2 util-linux e2fsprogs libisal-dev libblkid-dev fdisk libnvme-dev
	libxml2-utils python3-yaml python3-six strace curl slurmctld slurmd slurm-client munge)

missing=()
for p in "${SC_PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: run as root (or install these with sudo apt-get install)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE="${SC_BUILD_TYPE:-RelWithDebInfo}" \
	-DSC_WERROR="${SC_WERROR:-OFF}" >/dev/null
cmake --build build -j"$(nproc)"
