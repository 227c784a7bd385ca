#!/usr/bin/env python3
"""torch_ckpt.py -- the checkpoint write path side by side with what it
stands for: torch.save + os.fsync of the same files, in alternating rounds in
one directory; prints medians (min-max), the ratios and the machine.  A
benchmark, not a test.

    python3 bench/torch_ckpt.py [--dir DIR] [--rounds 5] [--python /usr/bin/python3]

The checkpoint is llama3-8b TP1 PP1 DP1 ZeRO-0 at scale 0.01, one rank: two
files of 160,604,160 B and 963,633,152 B (DLIO's flat int8 tensors, zeros).
Each round runs the three in an order that changes from round to round (the
six orders in turn: over 6 rounds each runs first twice and after each other
one twice, since on a VM a run's time depends on what ran before it; use
--rounds 6 or 12 for a balanced design):
  torch      /usr/bin/python3: torch.save({"t": tensor}, f) of each file into
             an open file, then f.flush() and os.fsync (tensors made before
             the clock starts); the time from the first open to the last close
  sc-torch   ssdcluster, serialize: torch (torch.save's zip container, CRC-32
             over every byte, head / tensor / tail writes from a tensor held
             in memory, fsync per file)
  sc-raw     ssdcluster, serialize: raw (the bytes alone, buffered, fsync)
ssdcluster's time is the checkpoint's duration in results.json (first open to
last close).  Every run's files are deleted, then the machine is left to
settle (sync, --settle seconds: an ext4 mounted with discard trims the
deleted blocks in the background) before the next run.

torch comes from Debian's package, for the system python3 (a pyenv python
on PATH does not see it):
    apt-get install python3-torch
Without it the script says so and exits 0 (skipped).
"""
import json, os, platform, shutil, statistics, subprocess, sys, time

import benchlib

SIZES = [160604160, 963633152]  # llama3-8b TP1 PP1 DP1 ZeRO-0, scale 0.01
# The orders of the three runs, one per round in turn: over 6 rounds each
# runs first twice and right after each other one twice.
ORDERS = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]

TORCH_SAVE = r"""
import json, os, sys, time, torch
out, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
tensors = [torch.randint(high=1, size=(n,), dtype=torch.int8) for n in sizes]
save = sync = 0.0
t0 = time.perf_counter()
for i, t in enumerate(tensors):
    with open(os.path.join(out, f"file{i}.pt"), "wb") as f:
        a = time.perf_counter()
        torch.save({"t": t}, f)
        f.flush()
        b = time.perf_counter()
        os.fsync(f.fileno())
        save, sync = save + b - a, sync + time.perf_counter() - b
t1 = time.perf_counter()
print(json.dumps({"seconds": t1 - t0, "save": save, "fsync": sync,
                  "bytes": sum(os.path.getsize(os.path.join(out, f"file{i}.pt"))
                               for i in range(len(sizes)))}))
"""

CONFIG = """targets:
  - path: {target}
phases:
  - name: ckpt
    workload: checkpoint
    model: llama3-8b
    tp: 1
    pp: 1
    dp: 1
    zero: 0
    scale: 0.01
    fsync: true
    serialize: {serialize}
"""


def have_torch(py):
    """Whether py imports torch (its version), else None."""
    p = subprocess.run([py, "-c", "import torch; print(torch.__version__)"],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def run_torch(a, work):
    """One torch.save + fsync of both files: (seconds, bytes on disk)."""
    out = os.path.join(work, "torch")
    os.mkdir(out)
    p = subprocess.run([a.python, "-c", TORCH_SAVE, out] + [str(s) for s in SIZES],
                       capture_output=True, text=True)
    shutil.rmtree(out)
    if p.returncode != 0:
        sys.exit(f"torch.save failed ({p.returncode}):\n{p.stderr}")
    r = json.loads(p.stdout)
    a.parts.append((r["save"], r["fsync"]))
    return r["seconds"], r["bytes"]


def run_sc(a, work, serialize):
    """One ssdcluster checkpoint: (seconds, bytes written)."""
    target, out = os.path.join(work, "sc"), os.path.join(work, "sc-out")
    os.mkdir(target)
    cfg = os.path.join(work, f"{serialize}.yaml")
    with open(cfg, "w") as y:
        y.write(CONFIG.format(target=target, serialize=serialize))
    benchlib.rusage([a.bin, cfg, "--quiet", "--output", out])
    with open(os.path.join(out, "results.json")) as f:
        r = json.load(f)
    cell = r["checkpoints"][0]["cells"][0]
    lat = r["phases"][0]["ranks"][0]["latency_ns"]["write"]
    if serialize == "torch":  # one write at a time: their latencies add up
        a.sc_writes.setdefault(serialize, []).append(lat["mean"] * lat["count"] / 1e9)
    shutil.rmtree(target)
    shutil.rmtree(out)
    return cell["duration_ns"] / 1e9, cell["bytes"]


def machine(work):
    """uname, cores, the filesystem of work."""
    fs = subprocess.run(["stat", "-f", "-c", "%T", work], capture_output=True, text=True)
    u = platform.uname()
    return (f"{u.system} {u.release} {u.machine}, {os.cpu_count()} cores, "
            f"{fs.stdout.strip() or '?'} at {work}")


def spread(v):
    return f"{statistics.median(v):.3f} s ({min(v):.3f}-{max(v):.3f} s)"


def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--dir", help="where the files go (default: a temp dir in /var/tmp)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--settle", type=float, default=3.0,
                    help="seconds between runs, after a sync (default 3)")
    ap.add_argument("--python", default="/usr/bin/python3",
                    help="the python that has torch (default /usr/bin/python3)")
    a = benchlib.parse(ap)
    a.parts = []  # torch.save: (seconds in torch.save, seconds in fsync) per round
    a.sc_writes = {}  # ssdcluster: seconds in its writes per round, by serialize
    if a.rounds < 1:
        sys.exit(f"--rounds {a.rounds}: expected 1 or more")
    if a.settle < 0:
        sys.exit(f"--settle {a.settle}: expected 0 or more seconds")
    ver = have_torch(a.python)
    if not ver:
        print(f"skipped: {a.python} cannot import torch "
              "(install Debian's: apt-get install python3-torch)")
        return
    runs = {"torch": lambda w: run_torch(a, w),
            "sc-torch": lambda w: run_sc(a, w, "torch"),
            "sc-raw": lambda w: run_sc(a, w, "raw")}
    res = {k: [] for k in runs}
    nbytes = {}
    with benchlib.workdir("sc-torch.", a.dir or "/var/tmp") as work:
        print(f"machine: {machine(work)}; torch {ver}")
        print(f"checkpoint: {len(SIZES)} files, {sum(SIZES):,} B of tensors")
        names = list(runs)
        for i in range(a.rounds):
            order = [names[k] for k in ORDERS[i % len(ORDERS)]]
            line = []
            for name in order:
                os.sync()
                time.sleep(a.settle)
                s, b = runs[name](work)
                res[name].append(s)
                nbytes[name] = b
                line.append(f"{name} {s:.3f} s")
            print(f"round {i + 1}: " + "; ".join(line))
    for name in runs:
        print(f"{name:12s} median {spread(res[name])}, {nbytes[name]:,} B written")
    print(f"torch.save: median {statistics.median(p[0] for p in a.parts):.3f} s in torch.save "
          f"(pickle, CRC-32, writes), {statistics.median(p[1] for p in a.parts):.3f} s in fsync")
    for k, v in a.sc_writes.items():
        print(f"sc-{k}: median {statistics.median(v):.3f} s in its write calls "
              f"(the rest: CRC-32, opens, fsyncs, closes)")
    t = statistics.median(res["torch"])
    for name in ("sc-torch", "sc-raw"):
        r = statistics.median(res[name]) / t
        print(f"ratio {name} / torch.save+fsync = {r:.3f} ({(r - 1) * 100:+.1f}%)")
    r = statistics.median(res["sc-torch"]) / t
    print("serialize: torch is within 15% of torch.save + fsync" if abs(r - 1) <= 0.15
          else "serialize: torch is MORE THAN 15% away from torch.save + fsync")


if __name__ == "__main__":
    main()
