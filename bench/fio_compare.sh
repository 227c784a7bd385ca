#!/usr/bin/env bash
# fio_compare.sh -- 4 KiB random reads at QD32 on one file, with ssdcluster
# and with fio's io_uring engine, one after the other, alternating; prints
# the IOPS of each and their ratio.  A benchmark, not a test.
#
#   bash bench/fio_compare.sh [FILE_DIR] [SECONDS] [ROUNDS]
#
# Needs fio and a built build/ssdcluster.  The file (1 GiB) is created in
# FILE_DIR (default: a temp dir under /var/tmp) and removed at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:-}
secs=${2:-10}
rounds=${3:-3}
bin=${SC_BIN:-build/ssdcluster}
[ -x "$bin" ] || { echo "build first: bash scripts/setup.sh" >&2; exit 1; }
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)" >&2; exit 1; }
if [ -z "$dir" ]; then dir=$(mktemp -d /var/tmp/sc-bench.XXXXXX); cleanup_dir=1; else cleanup_dir=0; fi
file="$dir/bench.dat"
work=$(mktemp -d)
trap 'rm -f "$file"; [ $cleanup_dir = 1 ] && rm -rf "$dir"; rm -rf "$work"' EXIT

echo "laying out $file (1 GiB)"
fio --name=layout --filename="$file" --size=1G --rw=write --bs=1M --direct=1 \
	--ioengine=io_uring --iodepth=16 --output=/dev/null

cat >"$work/bench.yaml" <<YAML
targets:
  - path: $file
phases:
  - name: randread_4k_qd32
    rw: randread
    bs: 4KiB
    iodepth: 32
    jobs: 1
    size: 1GiB
    runtime: ${secs}s
    ramp: 1s
    direct: true
    engine: io_uring
YAML

run_fio() {
	fio --name=randread --filename="$file" --size=1G --rw=randread --bs=4k \
		--iodepth=32 --ioengine=io_uring --direct=1 --runtime="$secs" --ramp_time=1 \
		--time_based --numjobs=1 --output-format=json --output="$work/fio.json"
	python3 -c "import json;print(json.load(open('$work/fio.json'))['jobs'][0]['read']['iops'])"
}
run_sc() {
	"$bin" "$work/bench.yaml" --quiet --output "$work/sc" >/dev/null
	python3 -c "import json;print(json.load(open('$work/sc/results.json'))['phases'][0]['cluster']['iops'])"
}

fio_all=() sc_all=()
for i in $(seq "$rounds"); do
	f=$(run_fio); s=$(run_sc)
	printf 'round %d: fio %.0f IOPS, ssdcluster %.0f IOPS\n' "$i" "$f" "$s"
	fio_all+=("$f"); sc_all+=("$s")
done
python3 - "${fio_all[*]}" "${sc_all[*]}" <<'PY'
import sys, statistics as st
f = [float(x) for x in sys.argv[1].split()]
s = [float(x) for x in sys.argv[2].split()]
fm, sm = st.median(f), st.median(s)
print(f"median fio {fm:.0f} IOPS, ssdcluster {sm:.0f} IOPS, ratio ssdcluster/fio = {sm/fm:.3f}")
print("within 10% of fio" if sm >= 0.9 * fm else "MORE THAN 10% BELOW fio")
PY
