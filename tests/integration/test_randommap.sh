#!/usr/bin/env bash
# test_randommap.sh -- randommap and random_every through the binary on a
# zeroed file target: randwrite of io_size = size (1024 blocks) with
# randommap: true leaves no block unwritten; with the default (uniform with
# replacement) the blocks never written number about n (1 - 1/n)^n = 376.6
# (the closed form, within 6 standard deviations); random_every: 8 writes
# runs of 8 blocks, so the written blocks come in runs of at least 8 (the
# region's end aside).  --set carries each key.
. "$(dirname "$0")/lib.sh"

IMG=$T/f.img
{
	file_target_yaml "$IMG"
	cat <<YAML
phases:
  - rw: randwrite
    bs: 4KiB
    size: 4MiB
    direct: false
YAML
} >"$T/w.yaml"

# run NAME [--set ...]: a zeroed file, the run, then the zero blocks and
# the shortest run of written blocks not touching the ends, on stdout
run() {
	local name=$1
	shift
	dd if=/dev/zero of="$IMG" bs=1M count=4 status=none
	"$SC_BIN" "$T/w.yaml" --allow-destroy --output "$T/$name" "$@" >"$T/$name.log" 2>&1 ||
		{ cat "$T/$name.log"; fail "$name: exit $?"; }
	python3 - "$IMG" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
B = 4096
w = [any(d[i * B:(i + 1) * B]) for i in range(len(d) // B)]
runs, cur = [], 0
for i, x in enumerate(w):
    if x:
        cur += 1
    elif cur:
        runs.append((i - cur, cur)); cur = 0
inner = [n for s, n in runs if s > 0]  # a run cut by the region's end aside
print(w.count(False), min(inner) if inner else 0)
PY
}

read -r zeros _ < <(run map --set phases.0.randommap=true)
[ "$zeros" -eq 0 ] || fail "randommap: $zeros of 1024 blocks never written in one pass"
read -r zeros _ < <(run uniform)
python3 -c "
import math, sys
n, z = 1024, $zeros
p = (1 - 1 / n) ** n
sd = math.sqrt(n * p * (1 - p))
sys.exit(0 if abs(z - n * p) <= 6 * sd else 1)" ||
	fail "uniform: $zeros blocks never written, the closed form n(1-1/n)^n gives 376.6"
read -r _ shortest < <(run every --set phases.0.random_every=8)
[ "$shortest" -ge 8 ] || fail "random_every 8: a run of $shortest written blocks"
echo "ok: randommap 0 unwritten, uniform $zeros (376.6 expected), random_every 8 runs >= $shortest"
echo PASS
