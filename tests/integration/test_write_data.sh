#!/usr/bin/env bash
# What writes carry, read back from the files a real run wrote (2 ranks,
# 4 KiB blocks): by default every block differs from every other (within a
# file and across ranks) and a run's data is reproducible; reuse_buffers
# writes no more distinct blocks than iodepth; compressible: 50% compresses
# with zlib to 45..55% (half of each block random, deflate adding well
# under 1%); dedupe: 50% repeats 40..56% of the blocks (expected 50% less
# the 16 pool blocks' first writes, about 48.4% of 1024; +-3 sigma);
# the plan echo in results.json carries the keys; a checkpoint's files are
# fresh data (every 4 KiB block distinct, zlib 99..101%) or, with
# compressible: 50%, compress to 45..55%; data laid out for a phase that
# reads is fresh too.
. "$(dirname "$0")/lib.sh"

BLOCKS=1024

# stats FILE : "blocks distinct dup_pct zlib_pct" of FILE in 4 KiB blocks
stats() {
	python3 - "$1" <<'PY'
import sys, zlib
b = open(sys.argv[1], "rb").read()
bl = [b[i:i + 4096] for i in range(0, len(b), 4096)]
d = len(set(bl))
print(len(bl), d, round(100 * (len(bl) - d) / len(bl), 1), round(100 * len(zlib.compress(b, 6)) / len(b), 1))
PY
}

# between LO X HI : X (a decimal) lies in [LO, HI]
between() { python3 -c "import sys; sys.exit(not ($1 <= $2 <= $3))"; }

# write ID KEYS : one sequential write phase of BLOCKS blocks per rank with
# KEYS ("compressible: 50%"), kept under run id ID
write() {
	local id=$1 keys=$2
	mkdir -p "$T/target"
	cat >"$T/$id.yaml" <<YAML
targets:
  - path: $T/target
    keep: true
phases:
  - name: w
    rw: write
    bs: 4KiB
    size: $((BLOCKS * 4))KiB
    iodepth: 8
    direct: false
    $keys
YAML
	sc_mpirun 2 "$T/$id.yaml" --run-id "$id" --output "$T/out-$id" ||
		{ cat "$T/out.log"; fail "run $id ($keys) failed"; }
}

# 1. fresh by default: every block of both ranks' files distinct
write fresh ""
f0="$T/target/ssdcluster-fresh/r0.j0.dat" f1="$T/target/ssdcluster-fresh/r1.j0.dat"
read -r n d dup z <<<"$(stats "$f0")"
[ "$n" = $BLOCKS ] && [ "$d" = $BLOCKS ] || fail "fresh: $d distinct of $n blocks, want $BLOCKS"
between 99 "$z" 101 || fail "fresh data compresses to $z%"
cat "$f0" "$f1" >"$T/both"
read -r n d dup z <<<"$(stats "$T/both")"
[ "$d" = $((2 * BLOCKS)) ] || fail "fresh: ranks 0 and 1 share blocks ($d distinct of $n)"
echo "ok: fresh: $BLOCKS distinct blocks per rank, none shared, zlib $z%"

# 2. reproducible: the same config writes the same bytes
write again ""
cmp -s "$f0" "$T/target/ssdcluster-again/r0.j0.dat" || fail "the same seed wrote other data"
echo "ok: the same run writes the same data"

# 3. reuse_buffers: the old way, each slot's buffer written again and again
write reuse "reuse_buffers: true"
read -r n d dup z <<<"$(stats "$T/target/ssdcluster-reuse/r0.j0.dat")"
[ "$d" -le 8 ] || fail "reuse_buffers: $d distinct blocks, want at most iodepth 8"
echo "ok: reuse_buffers: $d distinct blocks of $n"

# 4. compressible: 50%
write half "compressible: 50%"
read -r n d dup z <<<"$(stats "$T/target/ssdcluster-half/r0.j0.dat")"
between 45 "$z" 55 || fail "compressible 50%: zlib gives $z%, want 45..55%"
[ "$d" = $BLOCKS ] || fail "compressible 50%: $d distinct blocks"
echo "ok: compressible: 50%: zlib $z% of the bytes, $d distinct blocks"

# 5. dedupe: 50%
write dedupe "dedupe: 50%"
read -r n d dup z <<<"$(stats "$T/target/ssdcluster-dedupe/r0.j0.dat")"
between 40 "$dup" 56 || fail "dedupe 50%: $dup% of blocks repeat, want 40..56%"
echo "ok: dedupe: 50%: $dup% of $n blocks repeat an earlier one"

python3 - "$T/out-half/results.json" "$T/out-reuse/results.json" <<'PY' || fail "plan echo"
import json, sys
h = json.load(open(sys.argv[1]))["plan"]["phases"][0]
r = json.load(open(sys.argv[2]))["plan"]["phases"][0]
assert h["compressible_pct"] == 50 and h["dedupe_pct"] == 0 and h["reuse_buffers"] is False, h
assert r["reuse_buffers"] is True, r
PY
echo "ok: results.json's plan carries compressible_pct, dedupe_pct, reuse_buffers"

# 6. checkpoint writes carry fresh data too, compressible as asked
for keys in "" "compressible: 50%"; do
	id=ck$([ -n "$keys" ] && echo 50 || echo 0)
	cat >"$T/$id.yaml" <<YAML
targets:
  - path: $T/target
    keep: true
phases:
  - name: ck
    workload: checkpoint
    model: llama3-8b
    scale: 0.0002
    block_size: 64KiB
    $keys
YAML
	sc_mpirun 1 "$T/$id.yaml" --run-id "$id" --output "$T/out-$id" ||
		{ cat "$T/out.log"; fail "checkpoint $id failed"; }
	f=$(find "$T/target/ssdcluster-$id" -name '*optim_states.pt' | head -1)
	[ -n "$f" ] || fail "checkpoint $id: no optimizer file"
	read -r n d dup z <<<"$(stats "$f")"
	if [ -z "$keys" ]; then
		between 99 "$z" 101 || fail "checkpoint data compresses to $z%"
		[ "$d" = "$n" ] || fail "checkpoint: $d distinct of $n blocks"
	else
		between 45 "$z" 55 || fail "checkpoint compressible 50%: zlib gives $z%"
	fi
	echo "ok: checkpoint ${keys:-fresh}: zlib $z%, $d distinct 4 KiB blocks of $n"
done

# 7. data laid out for a phase that reads before anything wrote it: fresh too
cat >"$T/layout.yaml" <<YAML
targets:
  - path: $T/target
    keep: true
phases:
  - name: r
    rw: read
    bs: 4KiB
    size: $((BLOCKS * 4))KiB
    direct: false
YAML
sc_mpirun 1 "$T/layout.yaml" --run-id laid --output "$T/out-laid" ||
	{ cat "$T/out.log"; fail "read phase with lay-out failed"; }
read -r n d dup z <<<"$(stats "$T/target/ssdcluster-laid/r0.j0.dat")"
[ "$n" = $BLOCKS ] && [ "$d" = $BLOCKS ] || fail "laid out: $d distinct of $n blocks"
between 99 "$z" 101 || fail "laid-out data compresses to $z%"
echo "ok: laid-out data: $d distinct blocks of $n, zlib $z%"
