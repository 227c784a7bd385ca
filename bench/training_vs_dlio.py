#!/usr/bin/env python3
"""training_vs_dlio.py -- ssdcluster's `workload: training` beside DLIO, the
engine of MLPerf Storage, on the same machine, in alternating rounds.  A
benchmark, not a test.

    python3 bench/training_vs_dlio.py [--rounds 3] [--ranks 2] [--files 56]
        [--record 8MiB] [--stdev 2MiB] [--batch 7] [--read-threads 4]
        [--computation 0.323] [--epochs 3] [--sc-io buffered|direct|both]
        [--drop-caches] [--json FILE]
        [--dlio-src DIR] [--hydra-src DIR] [--dir DIR] [--data-dir DIR]
        [--cgroup DIR ...] [--bin BIN]

DLIO is not part of ssdcluster: it is run from its own sources outside the
project (argonne-lcf/dlio_benchmark, the mlperf_storage_v2.0 branch MLPerf
Storage pins, or mlcommons' fork), with Debian's python3-numpy, -pandas,
-mpi4py, -h5py, -omegaconf, -antlr4, -torch, -pil and hydra 1.3.2 from its
sources with its parser generated (docs/workloads.md says how).  Both tools
get the workload of unet3d (h100 values by default: batch 7, 4 read threads,
0.323 s of compute a step) on a small dataset of npz-sized files: DLIO its
own npz files, generated once; ssdcluster its own dataset of the same sizes
(DLIO's distribution), laid out once.  Each round runs DLIO and ssdcluster
in turn (the order turning by one each round) under `mpirun -np RANKS`, after
dropping the page cache when --drop-caches is given (as root), and takes:

  AU            DLIO: summary.json train_au_mean_percentage;
                ssdcluster: results.json training.mlperf, the same name
  samples/s     train_throughput_mean_samples_per_second of each
  CPU s/sample  user + system CPU of the whole mpirun tree (wait4) over the
                samples the run read (steps x batch x ranks x epochs), and
                its user and system parts (a buffered read's copy from the
                page cache is system time, paid by both tools per byte)

and prints each figure's median, min-max and ssdcluster's ratio to DLIO (for
AU the difference in points), and each round's AU of every rank.
The dataset is far smaller than this machine's memory unless --files and
--record say otherwise: without --drop-caches the reads come from the page
cache after the first epoch, for both tools alike.  Both tools read through
the page cache (DLIO's numpy does; the ssdcluster config says `direct: false`).
--sc-io direct runs ssdcluster with `direct: true` instead (O_DIRECT: no page
cache, so no copy out of it, and every epoch reads the storage), --sc-io both
runs it both ways in each round (rows "ssdcluster" and "ssdcluster O_DIRECT");
DLIO has no O_DIRECT for npz and always reads buffered.

To make the storage the limit, put both datasets on one device (--data-dir)
and start every mpirun in cgroups (--cgroup) that cap that device's read
rate and the memory its page cache may use; bench/storage_bound.sh builds
such a device (a loop device over an image file) and cgroups, runs this
script in them and removes them.
"""
import argparse, json, os, resource, shutil, statistics, subprocess, sys, time

import benchlib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPI_ENV = benchlib.MPI_ENV
UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "B": 1}


def size(text):
    for u, m in UNITS.items():
        if text.endswith(u) and u != "B":
            return int(float(text[:-len(u)]) * m)
    return int(text.rstrip("B"))


CGROUPS = []  # --cgroup: the cgroup directories every mpirun starts in


def join_cgroups():
    """In the child before exec: joins every --cgroup (its children follow)."""
    for d in CGROUPS:
        with open(os.path.join(d, "cgroup.procs"), "w") as f:
            f.write(f"{os.getpid()}\n")


def timed(cmd, env, cwd=None):
    """Runs cmd; returns (returncode, output, (user, system) CPU seconds of its
    process tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                       preexec_fn=join_cgroups if CGROUPS else None)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime)
    return p.returncode, p.stdout + p.stderr, cpu


def tree_bytes(top):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(top) for f in fs)


def sectors_read(dev):
    """Sectors (512 B) read from block device dev so far (/sys/block/DEV/stat)."""
    with open(f"/sys/block/{dev}/stat") as f:
        return int(f.read().split()[2])


class Dlio:
    def __init__(self, a, w):
        self.a, self.w = a, w
        self.data = os.path.join(a.data_dir or w, "dlio_data")
        self.env = dict(os.environ, **MPI_ENV)
        self.env["PYTHONPATH"] = ":".join(p for p in (a.dlio_src, a.hydra_src, a.dftracer_src) if p)
        self.launcher = os.path.join(w, "dlio_benchmark")
        with open(self.launcher, "w") as f:
            f.write("#!/usr/bin/python3\nfrom dlio_benchmark.main import main\nmain()\n")
        os.chmod(self.launcher, 0o755)

    def common(self, run_dir):
        a = self.a
        return ["workload=unet3d_h100", f"++hydra.run.dir={run_dir}",
                f"++workload.dataset.data_folder={self.data}",
                f"++workload.dataset.num_files_train={a.files}",
                f"++workload.dataset.record_length_bytes={a.record}",
                f"++workload.dataset.record_length_bytes_stdev={a.stdev}",
                "++workload.workflow.checkpoint=False"]

    def generate(self):
        rc, out, _ = timed(["mpirun", "--oversubscribe", "-np", str(self.a.ranks), self.launcher]
                           + self.common(os.path.join(self.w, "dlio_gen"))
                           + ["++workload.workflow.generate_data=True",
                              "++workload.workflow.train=False"], self.env, cwd=self.w)
        if rc:
            sys.exit(f"DLIO's data generation failed ({rc}):\n{out[-3000:]}")

    def run(self, r):
        a = self.a
        run_dir = os.path.join(self.w, f"dlio_run{r}")
        rc, out, cpu = timed(["mpirun", "--oversubscribe", "-np", str(a.ranks), self.launcher]
                             + self.common(run_dir)
                             + ["++workload.workflow.generate_data=False",
                                "++workload.workflow.train=True",
                                f"++workload.reader.batch_size={a.batch}",
                                f"++workload.reader.read_threads={a.read_threads}",
                                f"++workload.train.epochs={a.epochs}",
                                f"++workload.train.computation_time={a.computation}"],
                             self.env, cwd=self.w)
        if rc:
            sys.exit(f"DLIO's training run failed ({rc}):\n{out[-3000:]}")
        m = json.load(open(os.path.join(run_dir, "summary.json")))["metric"]
        ranks = []  # each rank's AU, the mean of its epochs' (DLIO's RANK_output.json)
        for k in range(a.ranks):
            out = json.load(open(os.path.join(run_dir, f"{k}_output.json")))
            ranks.append(statistics.mean(v for e in out.values() if isinstance(e, dict) and "au" in e
                                         for v in e["au"].values()))
        return m["train_au_mean_percentage"], m["train_throughput_mean_samples_per_second"], cpu, ranks


class Sc:
    def __init__(self, a, w, direct):
        self.a, self.w, self.direct = a, w, direct
        self.tag = "_direct" if direct else ""
        self.target = os.path.join(a.data_dir or w, "sc_target")  # one dataset for both ways
        os.makedirs(self.target, exist_ok=True)
        self.yaml = os.path.join(w, f"training{self.tag}.yaml")
        with open(self.yaml, "w") as f:
            f.write(f"""targets:
  - path: {self.target}
phases:
  - name: unet3d
    workload: training
    benchmark: unet3d
    accelerator: h100
    files: {a.files}
    record_size: {a.record}B
    record_size_stdev: {a.stdev}B
    batch: {a.batch}
    jobs: {a.read_threads}
    computation_time: {a.computation}s
    epochs: {a.epochs}
    direct: {'true' if direct else 'false'}
    engine: {a.sc_engine}
""")
        self.env = dict(os.environ, **MPI_ENV)

    def run(self, r):
        out_dir = os.path.join(self.w, f"sc_run{r}{self.tag}")
        shutil.rmtree(out_dir, ignore_errors=True)
        rc, out, cpu = timed(["mpirun", "--oversubscribe", "-np", str(self.a.ranks), self.a.bin,
                              self.yaml, "--output", out_dir, "--progress=none"], self.env)
        if rc:
            sys.exit(f"ssdcluster failed ({rc}):\n{out[-3000:]}")
        t = json.load(open(os.path.join(out_dir, "results.json")))["phases"][0]["training"]
        m = t["mlperf"]
        ranks = [x["au"] * 100 for x in t["ranks"]]
        return m["train_au_mean_percentage"], m["train_throughput_mean_samples_per_second"], cpu, ranks


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--files", type=int, default=56)
    ap.add_argument("--record", type=size, default=size("8MiB"))
    ap.add_argument("--stdev", type=size, default=size("2MiB"))
    ap.add_argument("--batch", type=int, default=7)
    ap.add_argument("--read-threads", type=int, default=4)
    ap.add_argument("--computation", type=float, default=0.323)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--sc-engine", default="io_uring", choices=["io_uring", "psync"],
                    help="ssdcluster's engine for the reads (psync: a blocking pread a reader, as "
                         "DataLoader's workers read)")
    ap.add_argument("--sc-io", default="buffered", choices=["buffered", "direct", "both"],
                    help="ssdcluster's reads: through the page cache (direct: false, as DLIO's), "
                    "O_DIRECT (direct: true: no page-cache copy), or both ways each round")
    ap.add_argument("--drop-caches", action="store_true", help="drop the page cache before each run (root)")
    ap.add_argument("--dlio-src", default="/var/tmp/dlio/src/dlio_v2")
    ap.add_argument("--hydra-src", default="/var/tmp/dlio/src/hydra-1.3.2")
    ap.add_argument("--dftracer-src", default="", help="pydftracer's python/ (DLIO main only)")
    ap.add_argument("--dir", default="/var/tmp/sc-training-bench",
                    help="the launcher, configs and each run's output")
    ap.add_argument("--data-dir", help="where both datasets go (DLIO's dlio_data/ and ssdcluster's "
                    "target sc_target/), e.g. a filesystem mounted for the benchmark; default --dir")
    ap.add_argument("--cgroup", action="append", default=[], metavar="DIR",
                    help="a cgroup directory every mpirun (and so every rank and reader) starts in, "
                    "its limits set beforehand (io.max, memory.max; under cgroup v1 one --cgroup "
                    "per hierarchy, e.g. blkio and memory); repeatable")
    ap.add_argument("--bin", default=os.environ.get("SC_BIN", os.path.join(TOP, "build", "ssdcluster")))
    ap.add_argument("--count-reads", metavar="DEV",
                    help="report the MiB each run read from block device DEV (/sys/block/DEV/stat), "
                    "e.g. the device under --data-dir: whether the page cache served reads")
    ap.add_argument("--json", help="every round's figures")
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.dlio_src, "dlio_benchmark")):
        sys.exit(f"no DLIO sources at {a.dlio_src} (see the header: fetch argonne-lcf/dlio_benchmark)")
    os.makedirs(a.dir, exist_ok=True)
    for d in a.cgroup:
        if not os.path.isfile(os.path.join(d, "cgroup.procs")):
            sys.exit(f"--cgroup {d}: not a cgroup directory (no cgroup.procs)")
    CGROUPS.extend(a.cgroup)
    dlio = Dlio(a, a.dir)
    tools = [("DLIO", dlio)]
    if a.sc_io in ("buffered", "both"):
        tools.append(("ssdcluster", Sc(a, a.dir, False)))
    if a.sc_io in ("direct", "both"):
        tools.append(("ssdcluster O_DIRECT", Sc(a, a.dir, True)))
    sc = tools[1][1]
    samples = (a.files // a.batch // a.ranks) * a.batch * a.ranks * a.epochs
    print(f"generating DLIO's dataset ({a.files} files) and a warm-up run of each", flush=True)
    dlio.generate()
    dlio.run(0)
    for _, tool in tools[1:]:
        tool.run(0)
    rows = {name: [] for name, _ in tools}
    for r in range(1, a.rounds + 1):
        k = (r - 1) % len(tools)
        for name, tool in tools[k:] + tools[:k]:
            if a.drop_caches:
                benchlib.drop_caches()
            sectors = sectors_read(a.count_reads) if a.count_reads else 0
            au, sps, cpu, au_ranks = tool.run(r)
            row = {"au_pct": au, "samples_per_s": sps, "cpu_s_per_sample": sum(cpu) / samples,
                   "user_s_per_sample": cpu[0] / samples, "sys_s_per_sample": cpu[1] / samples,
                   "rank_au_pct": au_ranks}
            dev = ""
            if a.count_reads:
                row["dev_MiB_read"] = (sectors_read(a.count_reads) - sectors) * 512 / 2**20
                dev = f", {row['dev_MiB_read']:.0f} MiB read from {a.count_reads}"
            rows[name].append(row)
            print(f"round {r} {name}: AU {au:.1f}% (ranks {' '.join(f'{x:.1f}' for x in au_ranks)}), "
                  f"{sps:.1f} samples/s, {sum(cpu) / samples * 1e3:.2f} CPU ms per sample "
                  f"({cpu[0] / samples * 1e3:.2f} user, {cpu[1] / samples * 1e3:.2f} system){dev}",
                  flush=True)
    print(f"\n{a.rounds} rounds, {a.ranks} ranks, {a.files} files of {a.record} B "
          f"(sd {a.stdev}), batch {a.batch}, {a.read_threads} read threads, "
          f"{a.computation} s compute, {a.epochs} epochs, caches {'dropped' if a.drop_caches else 'kept'}, "
          f"ssdcluster's engine {a.sc_engine}"
          + (f", in {' '.join(a.cgroup)}" if a.cgroup else ""))
    print(f"datasets: DLIO {tree_bytes(dlio.data) / 2**20:.0f} MiB, "
          f"ssdcluster {tree_bytes(sc.target) / 2**20:.0f} MiB")
    print(f"{'tool':<19} {'metric':<18} {'median':>10} {'min-max':>21} {'sc vs DLIO':>10}")
    metrics = [("au_pct", "AU %"), ("samples_per_s", "samples/s"),
               ("cpu_s_per_sample", "CPU ms/sample"), ("user_s_per_sample", " user"),
               ("sys_s_per_sample", " system")]
    if a.count_reads:
        metrics.append(("dev_MiB_read", f"MiB read, {a.count_reads}"))
    for key, label in metrics:
        scale = 1e3 if key.endswith("_s_per_sample") else 1
        med = {}
        for name in rows:
            v = [x[key] * scale for x in rows[name]]
            med[name] = statistics.median(v)
            ratio = ""
            if name != "DLIO" and key == "au_pct":
                ratio = f"{med[name] - med['DLIO']:+.1f} pts"
            elif name != "DLIO" and med["DLIO"]:
                ratio = f"{med[name] / med['DLIO']:.3f}"
            print(f"{name:<19} {label:<18} {med[name]:>10.2f} {min(v):>10.2f}-{max(v):<10.2f} {ratio:>10}")
    steps = a.files // a.batch // a.ranks
    if steps > 2:
        print(f"DLIO's samples/s counts {steps - 2} of an epoch's {steps} steps over the time of "
              f"{steps - 1} (statscounter.py); ssdcluster's counts {steps - 1}: its median in "
              f"DLIO's arithmetic is " + ", ".join(
                  f"{statistics.median(x['samples_per_s'] for x in rows[n]) * (steps - 2) / (steps - 1):.2f} ({n})"
                  for n in rows if n != "DLIO"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "rounds": rows}, f, indent=1)


if __name__ == "__main__":
    main()
