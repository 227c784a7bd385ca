#!/usr/bin/env bash
# Per-node targets: a target's `hosts` pattern decides which hosts' ranks use
# it.  Checks where each rank's files land (ranks of schost1 in one place,
# those of schost2/3 in another; a host matching two targets shares them
# round-robin), and that a host no target matches stops the run with exit 2,
# naming that host, before anything is written.
set -euo pipefail
. "$(dirname "$0")/netns_lib.sh" || exit 1

hosts_up 3
sc_hostfile "$T/hosts" 2 2 2
NP=6

# config FILE HOSTS_A HOSTS_B : targets $T/data/a and $T/data/b
config() {
	cat >"$1" <<YAML
targets:
  - path: $T/data/a
    hosts: "$2"
    capacity: 256MiB
    keep: true
  - path: $T/data/b
    hosts: "$3"
    capacity: 256MiB
    keep: true
defaults:
  direct: true
phases:
  - name: write
    rw: write
    bs: 128KiB
    iodepth: 2
    jobs: 2
    size: 1MiB
    io_size: 1MiB
YAML
}

# placed NAME EXPECT : runs, then checks each rank's files are under the
# target its host should use.  EXPECT maps host -> targets it matches, in
# config order, e.g. "schost1=a schost2=b schost3=b" or "schost1=a,b ...".
placed() {
	local name=$1 expect=$2 out=$T/out-$1
	rm -rf "$T/data"
	mkdir -p "$T/data/a" "$T/data/b"
	echo "== $name: targets a: \"$A\", b: \"$B\""
	config "$T/$name.yaml" "$A" "$B"
	sc_cluster_mpirun "$T/hosts" "$NP" "$T/$name.yaml" --output "$out" >"$T/run.log" 2>&1 ||
		{ cat "$T/run.log"; fail "$name: run exited $?"; }
	cat "$T/run.log"
	(cd "$T/data" && find . -type f | sort) >"$T/files.txt"
	python3 - "$out/results.json" "$T/files.txt" "$expect" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
files = [l.strip()[2:] for l in open(sys.argv[2]) if l.strip()]
expect = {h: t.split(",") for h, t in (kv.split("=") for kv in sys.argv[3].split())}
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
        print("FAIL:", what)

ranks = r["phases"][0]["ranks"]
host_of = {x["rank"]: x["host"] for x in ranks}
need(sorted(host_of) == list(range(6)), "6 rank rows")
need(sorted(set(host_of.values())) == ["schost1", "schost2", "schost3"], "ranks on schost1..3")
# where each rank's files are: {rank: {target dir}}
where, jobs = {}, {}
for f in files:
    m = re.fullmatch(r"([ab])/ssdcluster-[^/]+/r(\d+)\.j(\d+)\.dat", f)
    need(m is not None, f"unexpected file {f}")
    if m:
        where.setdefault(int(m[2]), set()).add(m[1])
        jobs.setdefault(int(m[2]), set()).add(int(m[3]))
for rank, host in sorted(host_of.items()):
    got = where.get(rank, set())
    need(len(got) == 1, f"rank {rank} ({host}): files under exactly one target, got {sorted(got)}")
    need(got <= set(expect[host]), f"rank {rank} ({host}): files under {sorted(got)}, "
         f"its host matches only {expect[host]}")
    need(jobs.get(rank) == {0, 1}, f"rank {rank}: files for jobs 0 and 1, got {jobs.get(rank)}")
    row = next(x for x in ranks if x["rank"] == rank)
    need(got == {"ab"[row["target"]]}, f'rank {rank}: results say target {row["target"]}, files in {sorted(got)}')
# A host that matches several targets spreads its ranks over them round-robin.
for host, targets in expect.items():
    used = set().union(*(where.get(k, set()) for k, h in host_of.items() if h == host))
    need(used == set(targets), f"{host}: ranks use {sorted(used)}, should use {targets}")
if bad:
    sys.exit(1)
print("file placement: all checks passed")
PY
}

# Numeric range list.
A="schost1" B="schost[2-3]"
placed range "schost1=a schost2=b schost3=b"
# Glob: schost1 matches both targets and shares them, schost2/3 only b.
A="schost1" B="schost*"
placed glob "schost1=a,b schost2=b schost3=b"
# Comma list mixing a glob and a name.
A="sch*1" B="schost2,*st3"
placed list "schost1=a schost2=b schost3=b"

# Targets for schost1 and schost2 only, run on three hosts: exit 2 naming
# schost3, and nothing written: no run directory, no output folder.
echo "== unmatched host"
rm -rf "$T/data"
mkdir -p "$T/data/a" "$T/data/b"
config "$T/bad.yaml" "schost1" "schost2,schost9"
rc=0
sc_cluster_mpirun "$T/hosts" "$NP" "$T/bad.yaml" --output "$T/out-bad" >"$T/run.log" 2>&1 || rc=$?
cat "$T/run.log"
[ "$rc" -eq 2 ] || fail "unmatched host: exit status $rc, want 2"
grep -q "schost3" "$T/run.log" || fail "unmatched host: the message does not name schost3"
[ ! -e "$T/out-bad" ] || { find "$T/out-bad"; fail "unmatched host: output folder written"; }
left=$(find "$T/data/a" "$T/data/b" "$SC_CL_NODES"/* -mindepth 1)
[ -z "$left" ] || { echo "$left"; fail "unmatched host: files written"; }
echo "PASS"
