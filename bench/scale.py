#!/usr/bin/env python3
"""scale.py -- how rank 0's merge time, peak memory and start-up costs grow
with the number of ranks.  Runs a null-engine config (no storage I/O: it
measures the tool) at 4, 16, 64 and 128 ranks, oversubscribed on this
machine (mpirun --oversubscribe), and prints per run: rank 0's merge time
per phase (histogram reduce + result gather + unpack: each phase's
merge_ns), its peak RSS with the ratio to the smallest run, the start-up
(startup_ns: MPI ready to the plan on every rank) and each phase's start
cost (start_cost_ns: preparing's end to the start broadcast).  The last
two come from results.json when it carries them, else from results.pb
(read here with a small protobuf wire reader: RunRecord.startup_ns = 8,
PhaseRecord.start_cost_ns = 14), and print n/a when neither has them
(a build before they were measured).  A benchmark, not a test.

    python3 bench/scale.py [--ranks 4,16,64,128] [--phases 5] [--timeout 900] [--json]

128 ranks on 2 vCPUs load the machine for a minute or more: run them
sparingly (--ranks 4,16,64 leaves them out).
"""
import json, os, statistics, subprocess, sys

import benchlib

CONFIG = """targets:
  - path: {target}
defaults:
  engine: null
  rw: randrw
  bs: 4KiB
  iodepth: 16
  size: 64MiB
  io_size: 16MiB
phases:
"""

HEADER_BYTES = 12  # results.pb: magic, payload length, CRC (proto/envelope.c)
RUN_PHASES, RUN_STARTUP = 6, 8  # RunRecord field numbers
PHASE_MERGE, PHASE_START_COST = 7, 14  # PhaseRecord field numbers


def varint(buf, i):
    """The varint at buf[i:] and the index after it."""
    v = shift = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return v, i


def fields(buf):
    """(field number, value) of a protobuf message's fields in order:
    varints as int, length-delimited as bytes, fixed ones skipped."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(buf, i)
            yield num, v
        elif wire == 2:
            n, i = varint(buf, i)
            yield num, buf[i:i + n]
            i += n
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
        else:
            raise ValueError(f"wire type {wire} at byte {i}")


def zigzag(v):
    return (v >> 1) ^ -(v & 1)


def from_pb(path, merges):
    """startup_ns and each phase's start_cost_ns from results.pb (0 where
    the record has none: proto3 leaves zeros out).  ValueError unless its
    phases' merge_ns are merges (results.json's), so that a misread shows."""
    with open(path, "rb") as f:
        buf = f.read()[HEADER_BYTES:]
    startup, costs, pb_merges = 0, [], []
    for num, v in fields(buf):
        if num == RUN_STARTUP:
            startup = zigzag(v)
        elif num == RUN_PHASES:
            ph = {n: x for n, x in fields(v) if n in (PHASE_MERGE, PHASE_START_COST)}
            costs.append(zigzag(ph.get(PHASE_START_COST, 0)))
            pb_merges.append(zigzag(ph.get(PHASE_MERGE, 0)))
    if pb_merges != merges:
        raise ValueError(f"{path}: merge_ns {pb_merges}, results.json {merges}")
    return startup, costs


def startup_costs(out, r):
    """startup_ns and the phases' start_cost_ns (None: not recorded), and
    where they came from."""
    startup = r.get("startup_ns")
    costs = [ph.get("start_cost_ns") for ph in r["phases"]]
    if startup is not None and None not in costs:
        return startup or None, [c or None for c in costs], "results.json"
    try:
        startup, costs = from_pb(os.path.join(out, "results.pb"),
                                 [ph["merge_ns"] for ph in r["phases"]])
    except (OSError, ValueError, IndexError) as e:
        print(f"scale.py: {e}", file=sys.stderr)
        return None, [None] * len(costs), "n/a"
    costs = [c or None for c in costs]
    if not startup and not any(costs):
        return None, costs, "results.pb (none recorded)"
    return startup or None, costs, "results.pb"


def ms(ns, width=12):
    """ns as milliseconds with their unit, right-aligned; n/a for None."""
    return f"{'n/a' if ns is None else f'{ns / 1e6:.2f} ms':>{width}}"


def run(a, cfg, work, env, n):
    out = os.path.join(work, f"out{n}")
    cmd = ["mpirun", "--oversubscribe", "-np", str(n), a.bin, cfg, "--quiet", "--output", out]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"{' '.join(cmd)} took over {a.timeout} s")
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    r = json.load(open(os.path.join(out, "results.json")))
    merges = [ph["merge_ns"] for ph in r["phases"]]
    startup, costs, src = startup_costs(out, r)
    return dict(ranks=n, merge_ns=merges, rank0_peak_rss_bytes=r["rank0_peak_rss_bytes"],
                startup_ns=startup, start_cost_ns=costs, startup_from=src)


def report(rows):
    base = rows[0]
    print(f"{'ranks':>6} {'merge median':>14} {'merge max':>12} {'rank 0 peak RSS':>16} "
          f"{'RSS ratio':>10} {'start-up':>12} {'start cost median':>18} {'max':>12}  from")
    for w in rows:
        rss = w["rank0_peak_rss_bytes"]
        known = [c for c in w["start_cost_ns"] if c is not None]
        med = statistics.median(known) if known else None
        print(f"{w['ranks']:>6} {ms(statistics.median(w['merge_ns']), 14)} "
              f"{ms(max(w['merge_ns']))} {rss / 2**20:>12.1f} MiB "
              f"{rss / base['rank0_peak_rss_bytes']:>9.2f}x {ms(w['startup_ns'])} "
              f"{ms(med, 18)} {ms(max(known) if known else None)}  {w['startup_from']}")
    for w in rows:
        print(f"{w['ranks']:>6} ranks, merge per phase: "
              + ", ".join(ms(m, 0) for m in w["merge_ns"]) + "; start cost per phase: "
              + ", ".join(ms(c, 0) for c in w["start_cost_ns"]))
    worst = rows[-1]["rank0_peak_rss_bytes"] / base["rank0_peak_rss_bytes"]
    print(f"rank 0 peak RSS at {rows[-1]['ranks']} ranks is {worst:.2f}x that at {base['ranks']} "
          f"ranks ({'within' if worst <= 2 else 'MORE than'} 2x)")


def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--ranks", default="4,16,64,128")
    ap.add_argument("--phases", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=900, help="seconds per run")
    ap.add_argument("--json", action="store_true", help="one JSON object per run")
    a = benchlib.parse(ap)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    rows = []
    with benchlib.workdir("sc-scale.") as work:
        cfg = os.path.join(work, "scale.yaml")
        with open(cfg, "w") as f:
            f.write(CONFIG.format(target=os.path.join(work, "t")))
            for i in range(a.phases):
                f.write(f"  - name: p{i}\n")
        for n in [int(x) for x in a.ranks.split(",")]:
            rows.append(run(a, cfg, work, env, n))
            if a.json:
                print(json.dumps(rows[-1]), flush=True)
        if not a.json:
            report(rows)


if __name__ == "__main__":
    main()
