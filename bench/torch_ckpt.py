#!/usr/bin/env python3
"""torch_ckpt.py -- serialize: torch side by side with what it stands for:
one torch process per rank, each torch.save + flush + os.fsync of that
rank's checkpoint files, in alternating rounds in one directory; prints per
layout the medians (min-max) of both sides, their ratio and whether it is
within 15%, and the machine.  A benchmark, not a test.

    python3 bench/torch_ckpt.py [--dir DIR] [--rounds 6] [--layout NAME]...
                                [--python /usr/bin/python3] [--raw]

Layouts (DLIO's PyTorch checkpointing as ssdcluster's byte model lays it
out; each run as `mpirun -np N ssdcluster CONFIG`):
  8b-1     llama3-8b TP1 PP1 DP1 ZeRO-0, scale 0.01, 1 rank (2 files,
           1.12 GB)
  8b-dp8   llama3-8b TP1 PP1 DP8 ZeRO-3 (MLPerf Storage's), scale 0.01,
           8 ranks (16 files, 1.12 GB)
  70b-pp1  llama3-70b TP8 PP1 DP1 ZeRO-3, scale 0.0015, 8 ranks (16 files,
           1.47 GB)
  70b-pp2  llama3-70b TP8 PP2 DP1 ZeRO-1 (ZeRO-3 takes no PP), scale 0.0015,
           16 ranks (680 files, 1.47 GB: a model-states file per layer)
Each rank's files (names and tensor sizes) come from `ssdcluster --dry-run`
(plan.json).  The two sides of a layout run one after the other, their order
swapped every round (--rounds 6 or more, even: each side runs first as often
as second, since on a VM a run's time depends on what ran before it); the
layouts take turns within a round.
  torch      N /usr/bin/python3 processes, one per rank, started and their
             tensors made (torch.randint(high=1, int8), DLIO's zeros) before
             the clock; all then start at one instant and each writes its
             rank's files: open, torch.save({"t": tensor}, f), f.flush(),
             os.fsync, close.  Its time: the last rank's end - that instant,
             as ssdcluster defines a checkpoint's duration.
  sc-torch   ssdcluster, serialize: torch (torch.save's container, its
             CRC-32 class over every byte, head / tensor / tail writes from a
             tensor held in memory, fsync per file): the checkpoint's
             duration in results.json.
  sc-raw     (--raw) ssdcluster, serialize: raw (the bytes alone, buffered).
Every run's files are deleted, then the machine is left to settle (sync,
--settle seconds: an ext4 mounted with discard trims the deleted blocks in the
background) before the next run.  In the first round rank 0's first file is
compared byte for byte (SHA-256) between torch.save's and ssdcluster's.

torch comes from Debian's package, for the system python3 (a pyenv python
on PATH does not see it):
    apt-get install python3-torch
Without it the script says so and exits 0 (skipped).  mpirun as root: the
script sets Open MPI's run-as-root variables and loopback-only transports.
"""
import hashlib, json, os, platform, shutil, statistics, subprocess, sys, time

import benchlib

# name: (ranks, checkpoint keys)
LAYOUTS = {
    "8b-1": (1, {"model": "llama3-8b", "tp": 1, "pp": 1, "dp": 1, "zero": 0, "scale": 0.01}),
    "8b-dp8": (8, {"model": "llama3-8b", "tp": 1, "pp": 1, "dp": 8, "zero": 3, "scale": 0.01}),
    "70b-pp1": (8, {"model": "llama3-70b", "tp": 8, "pp": 1, "dp": 1, "zero": 3,
                    "scale": 0.0015}),
    "70b-pp2": (16, {"model": "llama3-70b", "tp": 8, "pp": 2, "dp": 1, "zero": 1,
                     "scale": 0.0015}),
}
WITHIN = 0.15  # the bar: |ratio - 1| at most this
START_LEAD_S = 0.5  # the common start this far after every rank is ready
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl": "self,vader,tcp", "OMPI_MCA_btl_tcp_if_include": "lo",
           "OMPI_MCA_oob_tcp_if_include": "lo"}

# One rank's torch.save + fsync: argv = directory, then name=bytes per file.
# Prints "ready" once its tensors are made, reads the start instant
# (time.monotonic(), one clock for every process) from stdin, sleeps until
# it, writes, prints its end and the seconds in torch.save and in fsync,
# then waits, holding its tensors as a trainer does, until told to exit.
TORCH_RANK = r"""
import json, os, resource, sys, time, torch
out, files = sys.argv[1], [(a.split("=")[0], int(a.split("=")[1])) for a in sys.argv[2:]]
tensors = [torch.randint(high=1, size=(n,), dtype=torch.int8) for _, n in files]
print("ready", flush=True)
start = float(sys.stdin.readline())
time.sleep(max(0.0, start - time.monotonic()))
save = sync = 0.0
r0 = resource.getrusage(resource.RUSAGE_SELF)
for (name, _), t in zip(files, tensors):
    with open(os.path.join(out, name), "wb") as f:
        a = time.monotonic()
        torch.save({"t": t}, f)
        f.flush()
        b = time.monotonic()
        os.fsync(f.fileno())
        save, sync = save + b - a, sync + time.monotonic() - b
end, r1 = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"end": end, "save": save, "fsync": sync,
                  "user": r1.ru_utime - r0.ru_utime, "sys": r1.ru_stime - r0.ru_stime,
                  "bytes": sum(os.path.getsize(os.path.join(out, n)) for n, _ in files)}),
      flush=True)
sys.stdin.readline()  # exits once every rank is done: its exit (0.4 s of CPU) is not theirs
"""

CONFIG = """targets:
  - path: {target}
    keep: true
phases:
  - name: ckpt
    workload: checkpoint
{keys}    fsync: true
    serialize: {serialize}
"""


def have_torch(py):
    """Whether py imports torch (its version), else None."""
    p = subprocess.run([py, "-c", "import torch; print(torch.__version__)"],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def mpirun(a, n, args):
    return ["mpirun", "--oversubscribe", "-np", str(n), a.bin] + args


def config(work, name, serialize, target):
    keys = "".join(f"    {k}: {v}\n" for k, v in LAYOUTS[name][1].items())
    cfg = os.path.join(work, f"{name}-{serialize}.yaml")
    with open(cfg, "w") as y:
        y.write(CONFIG.format(target=target, keys=keys, serialize=serialize))
    return cfg


def plan_files(a, work, name):
    """Per rank, its files' (relative path, tensor bytes), from --dry-run."""
    n = LAYOUTS[name][0]
    target, out = os.path.join(work, "sc"), os.path.join(work, "dry")
    os.makedirs(target, exist_ok=True)
    benchlib.rusage(mpirun(a, n, [config(work, name, "torch", target), "--dry-run",
                                  "--quiet", "--output", out]))
    with open(os.path.join(out, "plan.json")) as f:
        plan = json.load(f)
    shutil.rmtree(out)
    ranks = []
    for r in sorted(plan["ranks"], key=lambda r: r["rank"]):
        # <target>/ssdcluster-<run id>/<phase>/<step>/<name>: keep the last three
        ranks.append([(os.path.join(*f["path"].split("/")[-3:]), f["size_bytes"])
                      for f in r["files"] if f["phase"] == 0])
    return ranks


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def run_torch(a, work, name, ranks, check):
    """One torch.save + fsync of every rank's files, one process per rank:
    (seconds, bytes on disk); records seconds in torch.save and in fsync
    (summed over ranks)."""
    out = os.path.join(work, "torch")
    for d in {os.path.dirname(p) for files in ranks for p, _ in files}:
        os.makedirs(os.path.join(out, d), exist_ok=True)
    procs = [subprocess.Popen([a.python, "-c", TORCH_RANK, out] +
                              [f"{p}={n}" for p, n in files],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for files in ranks]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            sys.exit(f"a torch rank failed before its start ({p.wait()})")
    start = time.monotonic() + START_LEAD_S
    for p in procs:
        p.stdin.write(f"{start!r}\n")
        p.stdin.flush()
    res = []
    for p in procs:
        line = p.stdout.readline()
        if not line:
            sys.exit(f"a torch rank failed ({p.wait()})")
        res.append(json.loads(line))
    for p in procs:
        p.stdin.write("exit\n")
        p.stdin.flush()
    for p in procs:
        if p.wait() != 0:
            sys.exit(f"a torch rank failed ({p.returncode})")
    if check:
        a.digest.setdefault(name, {})["torch"] = sha(os.path.join(out, ranks[0][0][0]))
    shutil.rmtree(out)
    a.parts.setdefault(name, []).append((sum(r["save"] for r in res),
                                         sum(r["fsync"] for r in res),
                                         sum(r["user"] for r in res),
                                         sum(r["sys"] for r in res)))
    return max(r["end"] for r in res) - start, sum(r["bytes"] for r in res)


TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")
POLL_S = 0.05  # how often the job threads' CPU times are read


def job_cpu(cmd):
    """Runs cmd (mpirun) and returns the CPU seconds (user, system) of the
    ranks' job threads (ssdc-job*, made after setup: the files' writes,
    CRC and fsyncs), read from /proc every POLL_S while they live (the last
    POLL_S of a thread may be missed).  Exits with cmd's errors if it fails."""
    seen = {}
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as p:
        while p.poll() is None:
            try:  # the ranks: mpirun's children
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    pids = f.read().split()
            except OSError:
                pids = []
            for pid in pids:
                try:
                    for tid in os.listdir(f"/proc/{pid}/task"):
                        with open(f"/proc/{pid}/task/{tid}/stat") as f:
                            st = f.read()
                        if "(ssdc-job" not in st:
                            continue
                        v = st.rsplit(")", 1)[1].split()
                        seen[(pid, tid)] = (int(v[11]) * TICK_S, int(v[12]) * TICK_S)
                except (OSError, IndexError, ValueError):
                    continue
            time.sleep(POLL_S)
        err = p.stderr.read().decode()
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{err}")
    return sum(u for u, _ in seen.values()), sum(s for _, s in seen.values())


def run_sc(a, work, name, serialize, ranks, check):
    """One ssdcluster checkpoint: (seconds, bytes written)."""
    target, out = os.path.join(work, "sc"), os.path.join(work, "sc-out")
    os.makedirs(target, exist_ok=True)
    cfg = config(work, name, serialize, target)
    cpu = job_cpu(mpirun(a, LAYOUTS[name][0], [cfg, "--quiet", "--output", out]))
    a.sc_cpu.setdefault((name, serialize), []).append(cpu)
    with open(os.path.join(out, "results.json")) as f:
        r = json.load(f)
    cell = r["checkpoints"][0]["cells"][0]
    if check and serialize == "torch":
        run = [d for d in os.listdir(target) if d.startswith("ssdcluster-")][0]
        a.digest.setdefault(name, {})["sc"] = sha(os.path.join(target, run, ranks[0][0][0]))
    shutil.rmtree(target)
    shutil.rmtree(out)
    return cell["duration_ns"] / 1e9, cell["bytes"]


def machine(work):
    """uname, cores, the filesystem of work."""
    fs = subprocess.run(["stat", "-f", "-c", "%T", work], capture_output=True, text=True)
    u = platform.uname()
    return (f"{u.system} {u.release} {u.machine}, {os.cpu_count()} cores, "
            f"{fs.stdout.strip() or '?'} at {work}")


def spread(v, unit=" s"):
    return f"{statistics.median(v):.3f}{unit} ({min(v):.3f}-{max(v):.3f}{unit})"


def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--dir", help="where the files go (default: a temp dir in /var/tmp)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--layout", action="append", choices=list(LAYOUTS),
                    help="a layout to run (repeat; default: all)")
    ap.add_argument("--raw", action="store_true", help="also run serialize: raw")
    ap.add_argument("--settle", type=float, default=3.0,
                    help="seconds between runs, after a sync (default 3)")
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="the python that has torch (default /usr/bin/python3)")
    a = benchlib.parse(ap)
    a.parts = {}  # per layout: (s in torch.save, s in fsync) summed over ranks, per round
    a.digest = {}  # per layout: SHA-256 of rank 0's first file, by side
    a.sc_cpu = {}  # per (layout, serialize): the job threads' (user, system) s per round
    if a.rounds < 1:
        sys.exit(f"--rounds {a.rounds}: expected 1 or more")
    if a.settle < 0:
        sys.exit(f"--settle {a.settle}: expected 0 or more seconds")
    if not shutil.which("mpirun"):
        sys.exit("mpirun not found (Open MPI)")
    ver = have_torch(a.python)
    if not ver:
        print(f"skipped: {a.python} cannot import torch "
              "(install Debian's: apt-get install python3-torch)")
        return
    os.environ.update(MPI_ENV)
    layouts = a.layout or list(LAYOUTS)
    sides = ["torch", "sc-torch"] + (["sc-raw"] if a.raw else [])
    res = {(l, s): [] for l in layouts for s in sides}
    nbytes = {}
    with benchlib.workdir("sc-torch.", a.dir or "/var/tmp") as work:
        print(f"machine: {machine(work)}; torch {ver}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        files = {l: plan_files(a, work, l) for l in layouts}
        for l in layouts:
            nf = sum(len(r) for r in files[l])
            tb = sum(n for r in files[l] for _, n in r)
            print(f"{l}: {LAYOUTS[l][0]} ranks, {nf} files, {tb:,} B of tensors")
        for i in range(a.rounds):
            for l in layouts:
                # each side first in turn (rotate the order round by round)
                order = sides[i % len(sides):] + sides[:i % len(sides)]
                line = []
                for s in order:
                    os.sync()
                    time.sleep(a.settle)
                    if s == "torch":
                        sec, b = run_torch(a, work, l, files[l], i == 0)
                    else:
                        sec, b = run_sc(a, work, l, s[3:], files[l], i == 0)
                    res[(l, s)].append(sec)
                    nbytes[(l, s)] = b
                    line.append(f"{s} {sec:.3f} s")
                print(f"round {i + 1} {l}: " + "; ".join(line), flush=True)
    print()
    for l in layouts:
        print(f"{l} ({LAYOUTS[l][0]} ranks, {a.rounds} rounds):")
        for s in sides:
            print(f"  {s:9s} median {spread(res[(l, s)])}, {nbytes[(l, s)]:,} B written")
        p = a.parts[l]
        print(f"  torch.save: median {statistics.median(x[0] for x in p):.3f} s in torch.save "
              f"(CRC-32, pickle, writes), {statistics.median(x[1] for x in p):.3f} s in fsync, "
              f"CPU {statistics.median(x[2] for x in p):.3f} s user + "
              f"{statistics.median(x[3] for x in p):.3f} s system, summed over ranks")
        for s in sides[1:]:
            c = a.sc_cpu[(l, s[3:])]
            print(f"  {s}: CPU {statistics.median(x[0] for x in c):.3f} s user + "
                  f"{statistics.median(x[1] for x in c):.3f} s system in its job threads, "
                  "summed over ranks")
        d = a.digest.get(l, {})
        print("  rank 0's first file: " +
              ("byte for byte the same" if d.get("torch") == d.get("sc") else "DIFFERENT"))
        t = statistics.median(res[(l, "torch")])
        for s in sides[1:]:
            r = statistics.median(res[(l, s)]) / t
            pr = [x / y for x, y in zip(res[(l, s)], res[(l, "torch")])]
            print(f"  ratio {s} / torch.save+fsync = {r:.3f} ({(r - 1) * 100:+.1f}%; "
                  f"per round {spread(pr, '')})")
        r = statistics.median(res[(l, "sc-torch")]) / t
        print(f"  {l}: serialize: torch is " +
              (f"within {WITHIN:.0%}" if abs(r - 1) <= WITHIN else f"MORE THAN {WITHIN:.0%} away") +
              " from torch.save + fsync")


if __name__ == "__main__":
    main()
