#!/usr/bin/env python3
"""write_data_cost.py -- what fresh data for every write costs: IOPS and CPU
time per write with reuse_buffers: true (each slot's buffer filled once and
written again and again) and with the default (each write refilled with
fresh seeded data just before it is queued), in alternating rounds;
medians and the spread (lowest..highest).  A benchmark, not a test.

    python3 bench/write_data_cost.py [--dir DIR] [--seconds 5] [--rounds 5] [--bs 4KiB,128KiB]
        [--cases null,io_uring]

Two cases, one job at QD32, one rank:
  null engine, randwrite: no device at all, so the difference is the cost of
      the refill alone;
  io_uring, randwrite to a 256 MiB temp file with direct: true (in DIR,
      default a temp dir in /var/tmp: disk-backed, where O_DIRECT works).
CPU time is the process's user + system time (wait4) over the I/Os it did;
start-up (MPI, setup) is in both and is small against --seconds of I/O.
"""
import json, os, statistics

import benchlib

FILE_BYTES = 256 << 20


def measure(a, work, case, bs, reuse):
    """One run of case at bs, reuse_buffers true|false: (IOPS, CPU ns per I/O)."""
    out = os.path.join(work, "out")
    cfg = os.path.join(work, "run.yaml")
    common = (f"rw: randwrite, bs: {bs}, iodepth: 32, jobs: 1, runtime: {a.seconds}s, "
              f"reuse_buffers: {'true' if reuse else 'false'}")
    if case == "null":
        phase = f"{{engine: null, size: 1GiB, {common}}}"
    else:
        phase = f"{{engine: io_uring, direct: true, size: {FILE_BYTES}, {common}}}"
    with open(cfg, "w") as y:
        y.write(f"targets: [{{path: {work}}}]\nphases: [{phase}]\n")
    ru = benchlib.rusage([a.bin, cfg, "--quiet", "--output", out])
    with open(os.path.join(out, "results.json")) as f:
        ph = json.load(f)["phases"][0]
    ios = sum(r["ios_read"] + r["ios_written"] for r in ph["ranks"])
    return ph["cluster"]["iops"], (ru.ru_utime + ru.ru_stime) * 1e9 / ios


def main():
    ap = benchlib.parser(__doc__)
    benchlib.io_args(ap, "the 256 MiB temp file")
    ap.add_argument("--cases", default="null,io_uring", help="cases, comma-separated")
    a = benchlib.parse(ap)
    rows = []
    with benchlib.workdir("sc-wdata-bench.", a.dir or "/var/tmp") as work:
        for bs in a.bs.split(","):
            for case in a.cases.split(","):
                res = {"reuse": [], "fresh": []}
                for i in range(a.rounds):
                    order = ["reuse", "fresh"] if i % 2 == 0 else ["fresh", "reuse"]
                    for m in order:
                        res[m].append(measure(a, work, case, bs, m == "reuse"))
                    print(f"{case} {bs} round {i + 1}: " + "; ".join(
                        f"{m} {res[m][-1][0]:,.0f} IOPS {res[m][-1][1]:,.0f} ns CPU/IO"
                        for m in ("reuse", "fresh")), flush=True)
                rows.append((case, bs, res))
    print()
    print(f"medians (and lowest..highest) of {a.rounds} alternating rounds of {a.seconds} s, "
          f"1 job, QD32, randwrite:")
    print(f"{'case':<9} {'bs':>7} {'IOPS reuse':>26} {'IOPS fresh':>26} {'ratio':>6} "
          f"{'CPU/IO reuse':>13} {'CPU/IO fresh':>13} {'added':>9}")
    for case, bs, res in rows:
        iops = {m: [x[0] for x in res[m]] for m in res}
        low_high = {m: f"{min(iops[m]):,.0f}..{max(iops[m]):,.0f}" for m in res}
        cpu = {m: statistics.median(x[1] for x in res[m]) for m in res}
        i0, i1 = statistics.median(iops["reuse"]), statistics.median(iops["fresh"])
        print(f"{case:<9} {bs:>7} {i0:>10,.0f} ({low_high['reuse']:>13}) "
              f"{i1:>10,.0f} ({low_high['fresh']:>13}) {i1 / i0:>6.2f} "
              f"{cpu['reuse']:>10,.0f} ns {cpu['fresh']:>10,.0f} ns "
              f"{cpu['fresh'] - cpu['reuse']:>6,.0f} ns")


if __name__ == "__main__":
    main()
