#!/usr/bin/env python3
"""scale.py -- how rank 0's merge time and peak memory grow with the number
of ranks.  Runs a null-engine config (no storage I/O: it measures the tool)
at 4, 16 and 64 ranks, oversubscribed on this machine, and prints rank 0's
merge time per phase (histogram reduce + result gather + unpack) and its
peak RSS, with ratios to the smallest run.  A benchmark, not a test.

    python3 bench/scale.py [--ranks 4,16,64] [--phases 5]
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

def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--ranks", default="4,16,64")
    ap.add_argument("--phases", type=int, default=5)
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
            out = os.path.join(work, f"out{n}")
            cmd = ["mpirun", "--oversubscribe", "-np", str(n), a.bin, cfg, "--quiet", "--output", out]
            p = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
            r = json.load(open(os.path.join(out, "results.json")))
            merges = [ph["merge_ns"] for ph in r["phases"]]
            rows.append((n, statistics.median(merges), max(merges), r["rank0_peak_rss_bytes"]))
        base = rows[0]
        print(f"{'ranks':>6} {'merge median':>14} {'merge max':>12} {'rank 0 peak RSS':>16} {'RSS ratio':>10}")
        for n, med, mx, rss in rows:
            print(f"{n:>6} {med / 1e6:>11.2f} ms {mx / 1e6:>9.2f} ms {rss / 2**20:>12.1f} MiB "
                  f"{rss / base[3]:>9.2f}x")
        worst = rows[-1][3] / base[3]
        print(f"rank 0 peak RSS at {rows[-1][0]} ranks is {worst:.2f}x that at {base[0]} ranks "
              f"({'within' if worst <= 2 else 'MORE than'} 2x)")

if __name__ == "__main__":
    main()
