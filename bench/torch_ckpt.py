#!/usr/bin/env python3
"""torch_ckpt.py -- serialize: torch side by side with what it stands for:
one torch process per rank, each torch.save + flush + os.fsync of that
rank's checkpoint files, in alternating rounds in one directory; prints per
layout the medians (min-max) of both sides, their ratio and whether it is
within 15%, and the machine.  A benchmark, not a test.

    python3 bench/torch_ckpt.py [--dir DIR] [--rounds 6] [--layout NAME]...
                                [--checkpoints K] [--gap S]
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
  8b-tp2pp2  llama3-8b TP2 PP2 DP2 ZeRO-1, scale 0.01, 8 ranks (only
             when named with --layout)
  70b-sharded  llama3-70b TP8 PP1 DP1 ZeRO-3, layout: sharded (DCP's
             files), scale 0.0015, 8 ranks (only when named)
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
With --checkpoints K (default 1) each run writes K checkpoints, --gap
seconds (2) apart, keeping the last (keep_last: 1; a torch rank deletes its
previous checkpoint's files after writing the next, untimed): each torch
process saves K times, as a trainer saves from one process, and ssdcluster
runs checkpoints: K with compute_between: the gap.  The first checkpoint
(a fresh process's, as with K = 1) and the median of checkpoints 2..K
(warm) are each compared.
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
# More, run only when named (--layout): other shardings to check the four
# against.
EXTRA = {
    "8b-tp2pp2": (8, {"model": "llama3-8b", "tp": 2, "pp": 2, "dp": 2, "zero": 1,
                      "scale": 0.01}),
    "70b-sharded": (8, {"model": "llama3-70b", "tp": 8, "pp": 1, "dp": 1, "zero": 3,
                        "layout": "sharded", "scale": 0.0015}),
}
WITHIN = 0.15  # the bar: |ratio - 1| at most this
START_LEAD_S = 0.5  # the common start this far after every rank is ready
MPI_ENV = benchlib.MPI_ENV

# One rank's torch.save + fsync: argv = directory, then name=bytes per file.
# Prints "ready" once its tensors are made; then, for each checkpoint k =
# 0, 1, ...: reads its start instant (time.monotonic(), one clock for every
# process) from stdin, sleeps until it, writes its files into <dir>/<k>/,
# prints its end and the seconds in torch.save and in fsync, then deletes
# its files of checkpoint k - 1 (keep_last 1, untimed, as ssdcluster's
# deletion is outside a checkpoint's duration).  Holds its tensors, as a
# trainer does, until told to exit.
TORCH_RANK = r"""
import json, os, resource, sys, time, torch
out, files = sys.argv[1], [(a.split("=")[0], int(a.split("=")[1])) for a in sys.argv[2:]]
tensors = [torch.randint(high=1, size=(n,), dtype=torch.int8) for _, n in files]
print("ready", flush=True)
k = 0
for line in sys.stdin:
    if line.strip() == "exit":
        break
    start = float(line)
    time.sleep(max(0.0, start - time.monotonic()))
    save = sync = 0.0
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    for (name, _), t in zip(files, tensors):
        with open(os.path.join(out, str(k), name), "wb") as f:
            a = time.monotonic()
            torch.save({"t": t}, f)
            f.flush()
            b = time.monotonic()
            os.fsync(f.fileno())
            save, sync = save + b - a, sync + time.monotonic() - b
    end, r1 = time.monotonic(), resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"end": end, "save": save, "fsync": sync,
                      "user": r1.ru_utime - r0.ru_utime, "sys": r1.ru_stime - r0.ru_stime,
                      "bytes": sum(os.path.getsize(os.path.join(out, str(k), n)) for n, _ in files)}),
          flush=True)
    if k:
        for n, _ in files:
            os.unlink(os.path.join(out, str(k - 1), n))
    k += 1
"""

CONFIG = """targets:
  - path: {target}
    keep: true
phases:
  - name: ckpt
    workload: checkpoint
{keys}    fsync: true
    serialize: {serialize}
{warm}"""


def have_torch(py):
    """Whether py imports torch (its version), else None."""
    p = subprocess.run([py, "-c", "import torch; print(torch.__version__)"],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def mpirun(a, n, args):
    return ["mpirun", "--oversubscribe", "-np", str(n), a.bin] + args


def config(work, name, serialize, target, checkpoints=1, gap=0.0):
    keys = "".join(f"    {k}: {v}\n" for k, v in LAYOUTS[name][1].items())
    warm = (f"    checkpoints: {checkpoints}\n    keep_last: 1\n"
            f"    compute_between: {int(gap * 1000)}ms\n") if checkpoints > 1 else ""
    cfg = os.path.join(work, f"{name}-{serialize}.yaml")
    with open(cfg, "w") as y:
        y.write(CONFIG.format(target=target, keys=keys, serialize=serialize, warm=warm))
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
    """a.checkpoints checkpoints of every rank's files by torch.save + fsync,
    one process per rank, a.gap seconds between one's end and the next's
    start: ([seconds per checkpoint], bytes on disk of one); records the
    seconds in torch.save and in fsync and the CPU (summed over ranks) per
    checkpoint."""
    out = os.path.join(work, "torch")
    for k in range(a.checkpoints):
        for d in {os.path.dirname(p) for files in ranks for p, _ in files}:
            os.makedirs(os.path.join(out, str(k), d), exist_ok=True)
    procs = [subprocess.Popen([a.python, "-c", TORCH_RANK, out] +
                              [f"{p}={n}" for p, n in files],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for files in ranks]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            sys.exit(f"a torch rank failed before its start ({p.wait()})")
    secs = []
    for k in range(a.checkpoints):
        start = time.monotonic() + (START_LEAD_S if k == 0 else a.gap)
        for p in procs:
            p.stdin.write(f"{start!r}\n")
            p.stdin.flush()
        res = []
        for p in procs:
            line = p.stdout.readline()
            if not line:
                sys.exit(f"a torch rank failed ({p.wait()})")
            res.append(json.loads(line))
        secs.append(max(r["end"] for r in res) - start)
        a.parts.setdefault(name, []).append((sum(r["save"] for r in res),
                                             sum(r["fsync"] for r in res),
                                             sum(r["user"] for r in res),
                                             sum(r["sys"] for r in res)))
    for p in procs:
        p.stdin.write("exit\n")
        p.stdin.flush()
    for p in procs:
        if p.wait() != 0:
            sys.exit(f"a torch rank failed ({p.returncode})")
    if check:  # the last checkpoint's: keep_last 1 deleted the others
        a.digest.setdefault(name, {})["torch"] = sha(
            os.path.join(out, str(a.checkpoints - 1), ranks[0][0][0]))
    shutil.rmtree(out)
    return secs, sum(r["bytes"] for r in res)


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
    """One ssdcluster run of a.checkpoints checkpoints (keep_last 1,
    compute_between a.gap): ([seconds per checkpoint], bytes of one)."""
    target, out = os.path.join(work, "sc"), os.path.join(work, "sc-out")
    os.makedirs(target, exist_ok=True)
    cfg = config(work, name, serialize, target, a.checkpoints, a.gap)
    cpu = job_cpu(mpirun(a, LAYOUTS[name][0], [cfg, "--quiet", "--output", out]))
    # per checkpoint (the job threads live for the whole run)
    a.sc_cpu.setdefault((name, serialize), []).append(tuple(x / a.checkpoints for x in cpu))
    with open(os.path.join(out, "results.json")) as f:
        r = json.load(f)
    cells = [c for c in r["checkpoints"][0]["cells"] if not c["restore"]]
    if check and serialize == "torch":
        run = [d for d in os.listdir(target) if d.startswith("ssdcluster-")][0]
        group, _, file = ranks[0][0][0].split("/")
        last = os.path.join(group, f"global_epoch1_step{a.checkpoints}", file)
        a.digest.setdefault(name, {})["sc"] = sha(os.path.join(target, run, last))
    shutil.rmtree(target)
    shutil.rmtree(out)
    return [c["duration_ns"] / 1e9 for c in cells], cells[0]["bytes"]


def machine(work):
    """uname, cores, the filesystem of work."""
    fs = subprocess.run(["stat", "-f", "-c", "%T", work], capture_output=True, text=True)
    u = platform.uname()
    return (f"{u.system} {u.release} {u.machine}, {os.cpu_count()} cores, "
            f"{fs.stdout.strip() or '?'} at {work}")


def spread(v, unit=" s"):
    return f"{statistics.median(v):.3f}{unit} ({min(v):.3f}-{max(v):.3f}{unit})"


def verdict(name, what, r):
    print(f"  {name}: serialize: torch is " +
          (f"within {WITHIN:.0%}" if abs(r - 1) <= WITHIN else f"MORE THAN {WITHIN:.0%} away") +
          f" from torch.save + fsync ({what})")


def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--dir", help="where the files go (default: a temp dir in /var/tmp)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--layout", action="append", choices=list(LAYOUTS) + list(EXTRA),
                    help="a layout to run (repeat; default: the first four)")
    ap.add_argument("--raw", action="store_true", help="also run serialize: raw")
    ap.add_argument("--checkpoints", type=int, default=1,
                    help="checkpoints per run and per torch process (default 1; "
                         "more: the later ones are also reported, warm)")
    ap.add_argument("--gap", type=float, default=2.0,
                    help="seconds between checkpoints of a run (default 2)")
    ap.add_argument("--settle", type=float, default=3.0,
                    help="seconds between runs, after a sync (default 3)")
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="the python that has torch (default /usr/bin/python3)")
    a = benchlib.parse(ap)
    a.parts = {}  # per layout: (s in torch.save, s in fsync, user, sys) summed over ranks, per checkpoint
    a.digest = {}  # per layout: SHA-256 of rank 0's first file, by side
    a.sc_cpu = {}  # per (layout, serialize): the job threads' (user, system) s per checkpoint
    if a.rounds < 1:
        sys.exit(f"--rounds {a.rounds}: expected 1 or more")
    if a.checkpoints < 1:
        sys.exit(f"--checkpoints {a.checkpoints}: expected 1 or more")
    if a.settle < 0 or a.gap < 0:
        sys.exit(f"--settle {a.settle}, --gap {a.gap}: expected 0 or more seconds")
    if not shutil.which("mpirun"):
        sys.exit("mpirun not found (Open MPI)")
    ver = have_torch(a.python)
    if not ver:
        print(f"skipped: {a.python} cannot import torch "
              "(install Debian's: apt-get install python3-torch)")
        return
    os.environ.update(MPI_ENV)
    layouts = a.layout or list(LAYOUTS)
    LAYOUTS.update(EXTRA)
    sides = ["torch", "sc-torch"] + (["sc-raw"] if a.raw else [])
    res = {(l, s): [] for l in layouts for s in sides}  # per round: seconds per checkpoint
    nbytes = {}
    with benchlib.workdir("sc-torch.", a.dir or "/var/tmp") as work:
        print(f"machine: {machine(work)}; torch {ver}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
              f"{a.checkpoints} checkpoint(s) per run" +
              (f", {a.gap:g} s apart, keep_last 1" if a.checkpoints > 1 else ""))
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
                    line.append(f"{s} " + ", ".join(f"{x:.3f}" for x in sec) + " s")
                print(f"round {i + 1} {l}: " + "; ".join(line), flush=True)
    print()
    for l in layouts:
        print(f"{l} ({LAYOUTS[l][0]} ranks, {a.rounds} rounds):")
        first = {s: [r[0] for r in res[(l, s)]] for s in sides}
        for s in sides:
            print(f"  {s:9s} median {spread(first[s])}, {nbytes[(l, s)]:,} B written"
                  + (" (first checkpoint)" if a.checkpoints > 1 else ""))
        p = a.parts[l]
        print(f"  torch.save: median {statistics.median(x[0] for x in p):.3f} s in torch.save "
              f"(CRC-32, pickle, writes), {statistics.median(x[1] for x in p):.3f} s in fsync, "
              f"CPU {statistics.median(x[2] for x in p):.3f} s user + "
              f"{statistics.median(x[3] for x in p):.3f} s system, summed over ranks, per checkpoint")
        for s in sides[1:]:
            c = a.sc_cpu[(l, s[3:])]
            print(f"  {s}: CPU {statistics.median(x[0] for x in c):.3f} s user + "
                  f"{statistics.median(x[1] for x in c):.3f} s system in its job threads, "
                  "summed over ranks, per checkpoint")
        d = a.digest.get(l, {})
        print("  rank 0's first file: " +
              ("byte for byte the same" if d.get("torch") == d.get("sc") else "DIFFERENT"))
        t = statistics.median(first["torch"])
        for s in sides[1:]:
            r = statistics.median(first[s]) / t
            pr = [x / y for x, y in zip(first[s], first["torch"])]
            print(f"  ratio {s} / torch.save+fsync = {r:.3f} ({(r - 1) * 100:+.1f}%; "
                  f"per round {spread(pr, '')})")
        verdict(l, "first checkpoint" if a.checkpoints > 1 else "one checkpoint",
                statistics.median(first["sc-torch"]) / t)
        if a.checkpoints > 1:
            # warm: per round the median of checkpoints 2.., then their median
            later = {s: [statistics.median(r[1:]) for r in res[(l, s)]] for s in sides}
            for s in sides:
                print(f"  {s:9s} checkpoints 2-{a.checkpoints}: median {spread(later[s])}")
            r = statistics.median(later["sc-torch"]) / statistics.median(later["torch"])
            pr = [x / y for x, y in zip(later["sc-torch"], later["torch"])]
            print(f"  ratio, checkpoints 2-{a.checkpoints} = {r:.3f} ({(r - 1) * 100:+.1f}%; "
                  f"per round {spread(pr, '')})")
            verdict(l, f"checkpoints 2-{a.checkpoints}, warm", r)


if __name__ == "__main__":
    main()
