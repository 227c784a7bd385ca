#!/usr/bin/env bash
# Failed I/Os, injected by the engine wrapper: counted exactly by errno per
# rank with their offsets (the first 100 kept), and on_error's three ways:
#  - continue: every job of K = io_size / bs I/Os with inject every N fails
#    exactly floor(K / N) of them, at the offsets of I/Os N, 2N, ...; the
#    phase and the later ones run to their end; exit 1;
#  - stop-phase (default): the phase stops at the first failure (fewer bytes
#    than planned, status stopped_on_error), exit 1, the earlier phase intact
#    in results.json, no later phase;
#  - abort: the rank that fails stops every rank at once (the other one,
#    which alone never fails, ends the phase early), status aborted, exit 1,
#    no later phase.
# And `ssdcluster report results.pb` rebuilds these results byte for byte.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"

# run NAME NP EXPECTED_EXIT CONFIG: the run's exit status must be EXPECTED_EXIT
run() {
	local name=$1 np=$2 want=$3 rc=0
	sc_mpirun "$np" "$4" --output "$T/$name" || rc=$?
	cp "$T/out.log" "$T/$name.log"
	[ "$rc" -eq "$want" ] || { cat "$T/$name.log"; fail "$name: exit $rc, want $want"; }
	echo "ok: $name exits $rc"
}

# rebuilt NAME: report results.pb rebuilds results.json and the CSVs exactly
rebuilt() {
	"$SC_BIN" report "$T/$1/results.pb" --output "$T/$1.rebuilt" >"$T/$1.report.log" 2>&1 ||
		{ cat "$T/$1.report.log"; fail "$1: report"; }
	for f in results.json phases.csv ranks.csv timeseries.csv; do
		cmp "$T/$1/$f" "$T/$1.rebuilt/$f" || fail "$1: $f rebuilt differently"
	done
	echo "ok: $1 rebuilt byte for byte from results.pb"
}

# ---------------------------------------------------------------- continue
# Phase "every1000": K = 5500 sequential 4 KiB writes per job over a 4 MiB
# region (1024 blocks): I/Os 1000..5000 fail, 5 per job.  Phase "every10":
# 550 per job, more than the 100 a rank keeps.
cont_cfg() { # ENGINE
	cat <<YAML
targets:
  - path: $T/target
defaults:
  engine: $1
  direct: false
  bs: 4KiB
  size: 4MiB
  jobs: 2
  iodepth: 4
  on_error: continue
phases:
  - name: every1000
    rw: write
    io_size: 22000KiB
    inject: {every: 1000, errno: EIO}
  - name: every10
    rw: write
    io_size: 22000KiB
    inject: {every: 10, errno: ENOSPC}
  - name: after
    rw: read
YAML
}

check_continue() { # NAME NP
	python3 - "$T/$1/results.json" "$2" <<'PY' || fail "$1: results.json"
import json, sys, fnmatch
r = json.load(open(sys.argv[1]))
nranks = int(sys.argv[2])
K, BS, BLOCKS, JOBS = 5500, 4096, 1024, 2
names = [p["name"] for p in r["phases"]]
assert names == ["every1000", "every10", "after"], names
target = r["plan"]["targets"][0]["path"]
for p, n, eno in ((r["phases"][0], 1000, "EIO"), (r["phases"][1], 10, "ENOSPC")):
    per_job = K // n
    assert p["status"] == "errors", p["status"]
    assert p["cluster"]["errors"] == nranks * JOBS * per_job, p["cluster"]["errors"]
    ie = p["io_errors"]
    assert ie["failed_ios"] == nranks * JOBS * per_job, ie
    assert ie["by_errno"] == [{"errno": eno, "count": nranks * JOBS * per_job}], ie["by_errno"]
    assert len(ie["first_failures"]) == min(100, nranks * JOBS * per_job)
    for f in ie["first_failures"]:
        assert f["path"] == target and f["errno"] == eno and f["op"] == "write", f
        assert fnmatch.fnmatch(f["file"], "ssdcluster-*/r%d.j%d.dat" % (f["rank"], f["job"])), f
    times = [f["time_ns"] for f in ie["first_failures"]]
    assert times == sorted(times), "first failures not in time order"
    assert len(p["ranks"]) == nranks
    for rk in p["ranks"]:
        assert rk["errors"] == JOBS * per_job, rk
        assert rk["errors_by_errno"] == [{"errno": eno, "count": JOBS * per_job}], rk
        assert rk["error"] is None, rk["error"]
        assert rk["bytes_written"] == JOBS * (K - per_job) * BS, rk["bytes_written"]
        assert rk["ios_written"] == JOBS * (K - per_job), rk["ios_written"]
        kept = rk["failures"]
        assert len(kept) == min(100, JOBS * per_job), len(kept)
        want = {(j, ((m - 1) % BLOCKS) * BS) for j in range(JOBS) for m in range(n, K + 1, n)}
        got = {(f["job"], f["offset_bytes"]) for f in kept}
        for f in kept:
            assert f["len_bytes"] == BS and f["errno"] == eno and f["op"] == "write", f
            assert f["file"].endswith("/r%d.j%d.dat" % (rk["rank"], f["job"])), f
        if n == 1000:
            assert got == want, (sorted(got), sorted(want))
        else:
            assert got <= want, sorted(got - want)
            # the first 100 by time: each job's failures are a prefix of its own
            for j in range(JOBS):
                offs = [f["offset_bytes"] for f in sorted(kept, key=lambda f: f["time_ns"]) if f["job"] == j]
                exp = [((m - 1) % BLOCKS) * BS for m in range(n, K + 1, n)][:len(offs)]
                assert offs == exp, (j, offs[:5], exp[:5])
after = r["phases"][2]
assert after["status"] == "ok" and after["cluster"]["errors"] == 0, after["status"]
assert after["io_errors"] == {"failed_ios": 0, "kept_per_rank": 100, "by_errno": [], "first_failures": []}
print("exact: floor(K/N) failures per job at the offsets of I/Os N, 2N, ...; 100 kept per rank")
PY
	grep -q "on_error: continue" "$T/$1.log" || fail "$1: no message about on_error: continue"
	grep -q "every1000 .*failed I/Os on $2 rank(s), errors" "$T/$1.log" ||
		fail "$1: the phase row does not say how many I/Os failed"
	grep -q "every1000: $(( $2 * 10 )) failed I/Os: EIO $(( $2 * 10 ))" "$T/$1.log" ||
		fail "$1: no per-errno line"
}

cont_cfg io_uring >"$T/cont1.yaml"
run cont1 1 1 "$T/cont1.yaml"
check_continue cont1 1
cont_cfg psync >"$T/cont2.yaml"
run cont2 2 1 "$T/cont2.yaml"
check_continue cont2 2
rebuilt cont2
grep -q "^every1000,write,.*,errors$" "$T/cont2/phases.csv" || fail "phases.csv has no status"

# -------------------------------------------------------------- stop-phase
stop_cfg() { # EXTRA_KEYS_FOR_PHASE_2
	cat <<YAML
targets:
  - path: $T/target
defaults:
  engine: psync
  direct: false
  bs: 4KiB
  size: 4MiB
phases:
  - name: before
    rw: write
  - name: faulty
    rw: read
    io_size: 22000KiB
    inject: {every: 1000, errno: EIO}
$1
  - name: later
    rw: read
YAML
}
stop_cfg "" >"$T/stop.yaml"
for np in 1 2; do
	run "stop$np" "$np" 1 "$T/stop.yaml"
	grep -q "phase faulty had I/O errors; stopping" "$T/stop$np.log" || fail "stop$np: message"
	python3 - "$T/stop$np/results.json" "$np" <<'PY' || fail "stop$np: results.json"
import json, sys
r = json.load(open(sys.argv[1]))
nranks = int(sys.argv[2])
names = [p["name"] for p in r["phases"]]
assert names == ["before", "faulty"], names
before, faulty = r["phases"]
assert before["status"] == "ok" and before["cluster"]["errors"] == 0
assert before["cluster"]["total_bytes"] == before["cluster"]["planned_bytes"] == nranks * (4 << 20)
assert faulty["status"] == "stopped_on_error", faulty["status"]
c = faulty["cluster"]
assert c["planned_bytes"] == nranks * 5500 * 4096, c
# iodepth 1: each rank stops at its 1000th read, after 999 good ones
assert c["total_bytes"] == nranks * 999 * 4096 < c["planned_bytes"], c["total_bytes"]
assert c["errors"] == nranks
for rk in faulty["ranks"]:
    assert rk["errors"] == 1 and rk["errors_by_errno"] == [{"errno": "EIO", "count": 1}], rk
    assert "Input/output error" in rk["error"] and "at offset %d" % (999 * 4096) in rk["error"], rk["error"]
    assert [(f["op"], f["offset_bytes"]) for f in rk["failures"]] == [("read", 999 * 4096)]
assert any("Input/output error" in e for e in faulty["errors"]), faulty["errors"]
print("stop-phase: stopped at the first failure, earlier phase intact, later phase not run")
PY
done
rebuilt stop2

# ------------------------------------------------------------------- abort
# Each rank draws its failures from its own seeded stream (phase seed, rank
# and job), whatever the rate: with this seed and probability one rank fails
# at its read 380 and the other never fails in the phase's 5,500 reads
# (checked under stop-phase, at full speed).  Under abort at 500 reads per
# second, that other rank would run 11 s to the phase's end: it must have
# stopped well before (the first failure comes 0.8 s into the phase).
prob_cfg() { # ON_ERROR RATE_LINE
	stop_cfg "$2
    seed: 39
    inject: {probability: 0.0002, errno: ETIMEDOUT}
    on_error: $1" | grep -v "inject: {every" >"$T/prob-$1.yaml"
}
prob_cfg stop-phase ""
prob_cfg abort "    rate: 500/s"
run probstop 2 1 "$T/prob-stop-phase.yaml"
run abort 2 1 "$T/prob-abort.yaml"
grep -q "phase faulty aborted on an error (on_error: abort)" "$T/abort.log" ||
	fail "abort: message"
python3 - "$T/probstop/results.json" "$T/abort/results.json" <<'PY' || fail "abort: results.json"
import json, sys
PLANNED = 5500  # reads per rank in phase faulty
stop = json.load(open(sys.argv[1]))
ab = json.load(open(sys.argv[2]))
for r in (stop, ab):
    assert [p["name"] for p in r["phases"]] == ["before", "faulty"], [p["name"] for p in r["phases"]]
    assert r["phases"][0]["status"] == "ok"
sf, af = stop["phases"][1], ab["phases"][1]
assert sf["status"] == "stopped_on_error" and af["status"] == "aborted", (sf["status"], af["status"])
# under stop-phase each rank reads until its own first failure, if any
own = [(rk["ios_read"], rk["errors"]) for rk in sf["ranks"]]
failing = [i for i, (n, e) in enumerate(own) if e == 1]
assert len(failing) == 1, "the seed no longer gives exactly one rank a failure: %s" % own
first = failing[0]
late = 1 - first
assert own[late] == (PLANNED, 0), "the seed no longer spares rank %d: %s" % (late, own)
# under abort the first failure stops both: the other rank ends its phase early
ar = af["ranks"]
assert ar[first]["errors"] == 1 and ar[first]["ios_read"] == own[first][0], ar[first]
assert ar[late]["errors"] == 0 and ar[late]["error"] is None, ar[late]
assert ar[late]["ios_read"] < PLANNED, (ar[late]["ios_read"], PLANNED)
assert af["io_errors"]["by_errno"] == [{"errno": "ETIMEDOUT", "count": 1}], af["io_errors"]
f = af["io_errors"]["first_failures"]
assert len(f) == 1 and f[0]["rank"] == first and f[0]["errno"] == "ETIMEDOUT", f
print("abort: rank %d failed at read %d; rank %d stopped after %d reads of %d (alone it never fails)"
      % (first, own[first][0] + 1, late, ar[late]["ios_read"], PLANNED))
PY
rebuilt abort
[ "$(count_entries "$T/target")" -eq 0 ] || fail "run files left behind"
echo PASS
