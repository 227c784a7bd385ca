#!/usr/bin/env bash
# Bad configs and command lines exit 2, say where, and create nothing.
. "$(dirname "$0")/lib.sh"

good() { fixture write_4mib.yaml TARGET="$T/target" CAPACITY=64MiB; }

expect_exit2() { # NAME EXPECTED_SUBSTRING ARGS...
	local name=$1 want=$2 rc=0; shift 2
	sc_mpirun 2 "$@" --output "$T/out" || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "$name: exit $rc, want 2"; }
	grep -qF -- "$want" "$T/out.log" || { cat "$T/out.log"; fail "$name: no '$want' in output"; }
	[ ! -e "$T/out" ] || fail "$name: created the output folder"
	[ ! -e "$T/target" ] || fail "$name: created the target"
	echo "ok: $name"
}

good | sed 's/    bs: 1MiB/    bs: 1MiB\n    iodepht: 4/' >"$T/unknown.yaml"
expect_exit2 "unknown key" "unknown.yaml:8:5: phases.0.iodepht" "$T/unknown.yaml"

good | sed 's/bs: 1MiB/bs: 12KX/' >"$T/unit.yaml"
expect_exit2 "bad unit" "unit.yaml:7:9: phases.0.bs" "$T/unit.yaml"

good | sed 's/capacity: 64MiB/capacity: 1MiB/' >"$T/cap.yaml"
expect_exit2 "capacity below need" "targets.0.capacity" "$T/cap.yaml"

good >"$T/good.yaml"
expect_exit2 "--set fitting nothing" "--set nosuchkey=1" "$T/good.yaml" --set nosuchkey=1
expect_exit2 "--set bad value" "--set bs=12KX" "$T/good.yaml" --set bs=12KX
expect_exit2 "missing config" "nope.yaml" "$T/nope.yaml"
expect_exit2 "unknown option" "--bogus" "$T/good.yaml" --bogus

# dry run: a plan, no I/O, no target
sc_mpirun 2 "$T/good.yaml" --dry-run --output "$T/dry" || { cat "$T/out.log"; fail "dry run"; }
[ -s "$T/dry/plan.json" ] || fail "dry run wrote no plan.json"
[ ! -e "$T/target" ] || fail "dry run created the target"
python3 -c "
import json,sys
p=json.load(open('$T/dry/plan.json'))
assert len(p['ranks'])==2, 'two ranks in plan.json'
" || fail "plan.json content"
echo "ok: dry run"

# --set shrinks a run: the bytes follow the override
sc_mpirun 1 "$T/good.yaml" --set phases.0.size=2MiB --output "$T/set" || { cat "$T/out.log"; fail "--set run"; }
python3 -c "
import json
r=json.load(open('$T/set/results.json'))
assert r['phases'][0]['cluster']['total_bytes']==2<<20, r['phases'][0]['cluster']['total_bytes']
" || fail "--set phases.0.size=2MiB did not give 2 MiB"
echo "ok: --set"
echo PASS
