#!/usr/bin/env python3
"""fio_compare.py -- the same 4 KiB random read at QD32 on one file, with
ssdcluster and with fio's io_uring engine, alternating; prints IOPS, peak
memory (RSS) of each and the ratios.  A benchmark, not a test.

    python3 bench/fio_compare.py [--dir DIR] [--seconds 10] [--rounds 3]

fio gets the same io_uring features ssdcluster uses (registered files and
buffers), so the ratio compares the tools, not their defaults.
"""
import json, os, shutil, subprocess, sys, statistics

import benchlib

def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--dir", help="where the 1 GiB test file goes (default: temp dir in /var/tmp)")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    a = benchlib.parse(ap)
    if not shutil.which("fio"):
        sys.exit("fio is not installed (apt-get install fio)")
    with benchlib.workdir("sc-bench.", a.dir or "/var/tmp") as work:
        f = os.path.join(work, "bench.dat")
        print(f"laying out {f} (1 GiB)")
        subprocess.run(["fio", "--name=layout", f"--filename={f}", "--size=1G", "--rw=write",
                        "--bs=1M", "--direct=1", "--ioengine=io_uring", "--iodepth=16",
                        "--output=/dev/null"], check=True)
        cfg = os.path.join(work, "bench.yaml")
        with open(cfg, "w") as y:
            y.write(f"""targets:
  - path: {f}
phases:
  - name: randread_4k_qd32
    rw: randread
    bs: 4KiB
    iodepth: 32
    jobs: 1
    size: 1GiB
    runtime: {a.seconds}s
    ramp: 1s
    direct: true
    engine: io_uring
""")
        fio_out, sc_out = os.path.join(work, "fio.json"), os.path.join(work, "sc")
        fio_cmd = ["fio", "--name=randread", f"--filename={f}", "--size=1G", "--rw=randread",
                   "--bs=4k", "--iodepth=32", "--ioengine=io_uring", "--fixedbufs=1",
                   "--registerfiles=1", "--direct=1", f"--runtime={a.seconds}", "--ramp_time=1",
                   "--time_based", "--numjobs=1", "--output-format=json", f"--output={fio_out}"]
        sc_cmd = [a.bin, cfg, "--quiet", "--output", sc_out]
        res = {"fio": [], "ssdcluster": []}
        mem = {"fio": [], "ssdcluster": []}
        for i in range(a.rounds):
            order = [("fio", fio_cmd), ("ssdcluster", sc_cmd)]
            if i % 2:
                order.reverse()
            line = []
            for name, cmd in order:
                rss = benchlib.rusage(cmd).ru_maxrss
                if name == "fio":
                    iops = json.load(open(fio_out))["jobs"][0]["read"]["iops"]
                else:
                    iops = json.load(open(os.path.join(sc_out, "results.json")))["phases"][0]["cluster"]["iops"]
                res[name].append(iops)
                mem[name].append(rss)
                line.append(f"{name} {iops:,.0f} IOPS, {rss / 1024:.1f} MiB RSS")
            print(f"round {i + 1}: " + "; ".join(line))
        fm, sm = statistics.median(res["fio"]), statistics.median(res["ssdcluster"])
        fr, sr = statistics.median(mem["fio"]), statistics.median(mem["ssdcluster"])
        print(f"median: fio {fm:,.0f} IOPS, ssdcluster {sm:,.0f} IOPS; "
              f"IOPS ratio ssdcluster/fio = {sm / fm:.3f}")
        print(f"peak RSS: fio {fr / 1024:.1f} MiB, ssdcluster {sr / 1024:.1f} MiB; "
              f"ratio = {sr / fr:.2f}")
        print("ssdcluster is within 10% of fio" if sm >= 0.9 * fm else "ssdcluster is MORE THAN 10% below fio")

if __name__ == "__main__":
    main()
