#!/usr/bin/env bash
# test_end_fsync.sh -- end_fsync and runtime_max (fio's end_fsync, and
# runtime without time_based).  end_fsync: strace (the kernel's view, not
# ours) sees exactly one fsync of each job's file, after that file's last
# write; results count one per job; with fsync: 4 as well, 16 writes a job
# give ceil(16 / 4) = 4 per job and no extra one.  runtime_max: a phase of
# 1 GiB a job on a 10 MB/s emulated drive is ended by the cap (results say
# runtime_max, every job counted, fewer bytes than asked); a phase whose
# bytes are done first says bytes and moves exactly its bytes.  No timing
# is checked: only which of the two ended each phase.
. "$(dirname "$0")/lib.sh"

mkdir "$T/tgt"
cat >"$T/ef.yaml" <<YAML
targets:
  - path: $T/tgt
phases:
  - rw: write
    bs: 64KiB
    size: 1MiB
    jobs: 2
    engine: psync
    end_fsync: true
YAML

# results: fsyncs per rank, without and with fsync: 4
"$SC_BIN" "$T/ef.yaml" --output "$T/o1" >"$T/o1.log" 2>&1 || { cat "$T/o1.log"; fail "end_fsync run: exit $?"; }
"$SC_BIN" "$T/ef.yaml" --output "$T/o2" --set phases.0.fsync=4 >"$T/o2.log" 2>&1 ||
	{ cat "$T/o2.log"; fail "end_fsync with fsync 4: exit $?"; }
"$SC_BIN" "$T/ef.yaml" --output "$T/o3" --set phases.0.end_fsync=false >"$T/o3.log" 2>&1 ||
	{ cat "$T/o3.log"; fail "end_fsync false: exit $?"; }
python3 - "$T" <<'PY' || fail "fsync counts"
import json, sys
t = sys.argv[1]
want = {"o1": 2, "o2": 2 * 4, "o3": 0}  # 2 jobs; 16 writes / 4 = 4 each; none
for o, n in want.items():
    got = json.load(open(f"{t}/{o}/results.json"))["phases"][0]["cluster"]["fsyncs"]
    if got != n:
        print(f"FAIL: {o}: {got} fsyncs, want {n}"); sys.exit(1)
print("ok: fsyncs 2, 8, 0")
PY

if command -v strace >/dev/null 2>&1; then
	strace -f -y -e trace=pwrite64,pwritev,pwritev2,fsync,fdatasync -o "$T/trace" \
		"$SC_BIN" "$T/ef.yaml" --output "$T/o4" >"$T/o4.log" 2>&1 ||
		{ cat "$T/o4.log"; fail "end_fsync under strace: exit $?"; }
	python3 - "$T/trace" <<'PY' || fail "strace: end_fsync is not one fsync after each job file's last write"
import re, sys
last_write, syncs = {}, {}
for i, line in enumerate(open(sys.argv[1])):
    m = re.search(r"(pwrite\w*|fsync|fdatasync)\(\d+<([^>]*\.dat)>", line)
    if not m:
        continue
    call, path = m.groups()
    if call.startswith("pwrite"):
        last_write[path] = i
    else:
        syncs.setdefault(path, []).append(i)
if len(last_write) != 2:
    print("FAIL: writes to", len(last_write), "job files, want 2"); sys.exit(1)
for path, lw in last_write.items():
    s = syncs.get(path, [])
    if len(s) != 1 or s[0] < lw:
        print(f"FAIL: {path}: fsyncs at {s}, its last write at {lw}"); sys.exit(1)
print("ok: strace: one fsync of each job file, after its last write")
PY
else
	echo "strace is not installed: the fsync calls not traced"
fi

# runtime_max: the cap ends one phase, the bytes the other
cat >"$T/rm.yaml" <<YAML
targets:
  - path: $T/tgt
phases:
  - name: capped
    rw: randread
    bs: 64KiB
    size: 1MiB
    io_size: 1GiB
    jobs: 2
    engine: emulated
    emulate: {latency: 100us, bandwidth: 10MB}
    runtime_max: 1s
  - name: bytes
    rw: write
    bs: 64KiB
    size: 1MiB
    jobs: 2
    runtime_max: 1h
YAML
sc_mpirun 2 "$T/rm.yaml" --output "$T/rm" || { cat "$T/out.log"; fail "runtime_max run: exit $?"; }
grep -q "capped: ended by runtime_max" "$T/out.log" || { cat "$T/out.log"; fail "the text does not say runtime_max ended capped"; }
grep -q "bytes: ended by bytes" "$T/out.log" || { cat "$T/out.log"; fail "the text does not say the bytes ended bytes"; }
python3 - "$T/rm/results.json" <<'PY' || fail "runtime_max results"
import json, sys
ph = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
c, b = ph["capped"], ph["bytes"]
GIB, MIB = 1 << 30, 1 << 20
assert c["ended_by"] == "runtime_max", c.get("ended_by")
assert c["jobs_ended_by_runtime_max"] == 4, c["jobs_ended_by_runtime_max"]  # 2 ranks x 2 jobs
assert all(r["jobs_ended_by_runtime_max"] == 2 for r in c["ranks"])
assert 0 < c["cluster"]["total_bytes"] < 4 * GIB, c["cluster"]["total_bytes"]
assert b["ended_by"] == "bytes", b.get("ended_by")
assert b["jobs_ended_by_runtime_max"] == 0
assert b["cluster"]["total_bytes"] == 4 * MIB, b["cluster"]["total_bytes"]  # size once a job
print("ok: runtime_max ended capped, the bytes ended bytes")
PY
echo PASS
