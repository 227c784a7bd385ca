#!/usr/bin/env python3
"""page_cache_cost.py -- what a buffered read costs the reading process in
system time, MiB by MiB, with no ssdcluster code in the way.  A probe for
benchmarks (bench/training_vs_dlio.py), not a test.

    python3 bench/page_cache_cost.py DIR [--bs 1MiB] [--chunk 256MiB]
        [--drop-caches] [--prefault GIB] [--cgroup DIR ...] [--direct]

Reads every file of DIR (sorted by name) once with read()s of --bs into one
buffer, as a DataLoader worker or ssdcluster's psync engine would, and
prints the process's own system CPU time per MiB read for each --chunk of
the bytes read, then for all of them.  --drop-caches empties the page cache
first (root), so each byte is read from the device into a page-cache page
the run allocates, then copied out of it.  --prefault GIB first touches and
frees GIB of anonymous memory in a child process (not counted): the pages
the page cache then takes are pages this machine touched just before.
--cgroup joins a cgroup before reading (e.g. one whose io.max or blkio
throttle caps the device, as bench/storage_bound.sh makes).  --direct reads
with O_DIRECT instead (no page cache, no copy).

On a VM whose host takes back free guest memory (free page reporting, as
this project's Firecracker VM does), the first touch of a page the host
took back costs far more than the copy itself: the chunks show it.
"""
import argparse, mmap, os, resource, statistics, subprocess, sys, time

UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def size(text):
    for u, m in UNITS.items():
        if text.endswith(u):
            return int(float(text[:-len(u)]) * m)
    return int(text.rstrip("B"))


PREFAULT = """
import mmap, sys
n = int(sys.argv[1]) << 30
m = mmap.mmap(-1, n)
for off in range(0, n, mmap.PAGESIZE):
    m[off] = 1
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--bs", type=size, default=size("1MiB"), help="size of each read()")
    ap.add_argument("--chunk", type=size, default=size("256MiB"), help="bytes per printed figure")
    ap.add_argument("--drop-caches", action="store_true", help="drop the page cache first (root)")
    ap.add_argument("--prefault", type=int, default=0, metavar="GIB",
                    help="touch and free GIB of anonymous memory first (a child; not counted)")
    ap.add_argument("--cgroup", action="append", default=[], metavar="DIR",
                    help="a cgroup directory to join before reading; repeatable")
    ap.add_argument("--direct", action="store_true", help="read with O_DIRECT")
    a = ap.parse_args()
    if a.bs <= 0 or a.bs % mmap.PAGESIZE:
        ap.error(f"--bs {a.bs}: give a multiple of {mmap.PAGESIZE} B")
    if a.chunk < a.bs:
        ap.error(f"--chunk {a.chunk}: give at least --bs ({a.bs} B)")
    if a.prefault < 0:
        ap.error(f"--prefault {a.prefault}: give 0 or more GiB")
    if not os.path.isdir(a.dir):
        ap.error(f"{a.dir}: not a directory")
    for d in a.cgroup:
        if not os.path.isfile(os.path.join(d, "cgroup.procs")):
            ap.error(f"--cgroup {d}: not a cgroup directory (no cgroup.procs)")
    files = sorted(os.path.join(a.dir, n) for n in os.listdir(a.dir)
                   if os.path.isfile(os.path.join(a.dir, n)))
    if not files:
        ap.error(f"{a.dir}: no files to read")
    if a.drop_caches:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    if a.prefault:
        subprocess.run([sys.executable, "-c", PREFAULT, str(a.prefault)], check=True)
    for d in a.cgroup:
        with open(os.path.join(d, "cgroup.procs"), "w") as f:
            f.write(f"{os.getpid()}\n")
    buf = mmap.mmap(-1, a.bs)  # page-aligned, as O_DIRECT needs
    view = memoryview(buf)
    for off in range(0, a.bs, mmap.PAGESIZE):
        buf[off] = 0  # the buffer's own first touch is not a read's
    flags = os.O_RDONLY | (os.O_DIRECT if a.direct else 0)
    start = resource.getrusage(resource.RUSAGE_SELF)
    t0, total, next_mark, last_sys, chunks = time.monotonic(), 0, a.chunk, start.ru_stime, []
    for path in files:
        fd = os.open(path, flags)
        try:
            while True:
                n = os.readv(fd, [view])
                total += n
                if total >= next_mark:
                    s = resource.getrusage(resource.RUSAGE_SELF).ru_stime
                    chunks.append((s - last_sys) * 1e3 / (a.chunk / 2**20))
                    last_sys, next_mark = s, next_mark + a.chunk
                if n < a.bs:
                    break
        finally:
            os.close(fd)
    end = resource.getrusage(resource.RUSAGE_SELF)
    mib = total / 2**20
    print(f"{len(files)} files, {mib:.0f} MiB in {time.monotonic() - t0:.1f} s, read()s of "
          f"{a.bs} B{' O_DIRECT' if a.direct else ''}: system {(end.ru_stime - start.ru_stime) * 1e3 / mib:.3f}"
          f" ms/MiB, user {(end.ru_utime - start.ru_utime) * 1e3 / mib:.3f} ms/MiB")
    if chunks:
        print(f"system ms/MiB in each {a.chunk // 2**20} MiB: " + " ".join(f"{c:.2f}" for c in chunks))
        print(f"  median {statistics.median(chunks):.2f}, max {max(chunks):.2f}")


if __name__ == "__main__":
    main()
