#!/usr/bin/env python3
"""verify_cost.py -- what verify: crc32c costs: IOPS and CPU time per I/O with
verify none and with verify crc32c, in alternating rounds, medians.  A
benchmark, not a test.

    python3 bench/verify_cost.py [--dir DIR] [--seconds 5] [--rounds 5] [--bs 4KiB,128KiB]

Two cases, one job at QD32, one rank:
  null engine, randwrite: no device at all, so the difference is the cost of
      filling each block (header, seeded pattern, CRC32C) before it is queued;
  page-cached file, randread (io_uring, direct: false): a 256 MiB file target
      written once with verify blocks and read from the page cache; verify none
      reads it, verify_only (crc32c) reads and checks every block.
CPU time is the process's user + system time (wait4) over the I/Os it did;
start-up (MPI, setup) is in both and is small against --seconds of I/O.
"""
import json, os, statistics, sys

import benchlib

FILE_BYTES = 256 << 20


def run(cmd):
    """Runs cmd; returns its CPU seconds (user + system).  Exits if it fails."""
    ru = benchlib.rusage(cmd)
    return ru.ru_utime + ru.ru_stime


def measure(a, work, case, bs, verify):
    """One run of case at bs with verify none|crc32c: (IOPS, CPU ns per I/O)."""
    out = os.path.join(work, "out")
    cfg = os.path.join(work, "run.yaml")
    common = f"bs: {bs}, iodepth: 32, jobs: 1, runtime: {a.seconds}s"
    args = [a.bin, cfg, "--quiet", "--output", out]
    if case == "null":
        phase = f"{{rw: randwrite, engine: null, size: 1GiB, {common}, verify: {verify}}}"
        target = f"{{path: {work}}}"
    else:
        v = "verify_only: true" if verify == "crc32c" else "verify: none"
        phase = f"{{rw: randread, direct: false, size: {FILE_BYTES}, {common}, {v}}}"
        target = f"{{path: {os.path.join(work, 'cached.img')}}}"
        if verify == "crc32c":
            args += ["--run-id", f"bench-{bs}"]
    with open(cfg, "w") as y:
        y.write(f"targets: [{target}]\nphases: [{phase}]\n")
    cpu = run(args)
    with open(os.path.join(out, "results.json")) as f:
        ph = json.load(f)["phases"][0]
    ios = sum(r["ios_read"] + r["ios_written"] for r in ph["ranks"])
    if case == "cached" and verify == "crc32c":
        v = ph["verify"]
        if v["mismatches"] or v["blocks_checked"] != ios:
            sys.exit(f"verify found {v['mismatches']} mismatches in {v['blocks_checked']} blocks")
    return ph["cluster"]["iops"], cpu * 1e9 / ios


def lay_out(a, work, bs):
    """Writes the cached file once with verify blocks of bs (run id bench-BS)."""
    img = os.path.join(work, "cached.img")
    with open(img, "wb") as f:
        f.truncate(FILE_BYTES)
    cfg = os.path.join(work, "layout.yaml")
    with open(cfg, "w") as y:
        y.write(f"targets: [{{path: {img}, allow_destroy: true}}]\n"
                f"phases: [{{rw: write, bs: {bs}, size: {FILE_BYTES}, iodepth: 32, "
                f"direct: false, verify: crc32c}}]\n")
    run([a.bin, cfg, "--quiet", "--allow-destroy", "--run-id", f"bench-{bs}",
         "--output", os.path.join(work, "layout-out")])


def main():
    ap = benchlib.parser(__doc__)
    benchlib.io_args(ap, "the 256 MiB file")
    a = benchlib.parse(ap)
    with benchlib.workdir("sc-verify-bench.", a.dir or "/var/tmp") as work:
        rows = []
        for bs in a.bs.split(","):
            for case in ("null", "cached"):
                if case == "cached":
                    lay_out(a, work, bs)
                res = {"none": [], "crc32c": []}
                for i in range(a.rounds):
                    order = ["none", "crc32c"] if i % 2 == 0 else ["crc32c", "none"]
                    for v in order:
                        res[v].append(measure(a, work, case, bs, v))
                    print(f"{case} {bs} round {i + 1}: " + "; ".join(
                        f"{v} {res[v][-1][0]:,.0f} IOPS {res[v][-1][1]:,.0f} ns CPU/IO"
                        for v in ("none", "crc32c")), flush=True)
                med = {v: (statistics.median(x[0] for x in res[v]),
                           statistics.median(x[1] for x in res[v])) for v in res}
                rows.append((case, bs, med))
        print()
        print(f"medians of {a.rounds} alternating rounds of {a.seconds} s, 1 job, QD32:")
        print(f"{'case':<8} {'bs':>7} {'IOPS none':>12} {'IOPS crc32c':>12} {'ratio':>6} "
              f"{'CPU/IO none':>12} {'CPU/IO crc32c':>14} {'added':>9}")
        for case, bs, m in rows:
            (i0, c0), (i1, c1) = m["none"], m["crc32c"]
            print(f"{case:<8} {bs:>7} {i0:>12,.0f} {i1:>12,.0f} {i1 / i0:>6.2f} "
                  f"{c0:>9,.0f} ns {c1:>11,.0f} ns {c1 - c0:>6,.0f} ns")


if __name__ == "__main__":
    main()
