#!/usr/bin/env python3
"""perf.py -- ssdcluster against fio on the same files, in alternating
rounds: the medians (with min-max spread) of seven cases and the ratios
ssdcluster/fio (and t/io_uring, IOR where built).  A benchmark, not a test: run it on a quiet machine.

    python3 bench/perf.py [--rounds 8] [--seconds 10] [--cases 1,2,3,4,5,6,7]
                          [--size-per-rank 256] [--json FILE] [--dir DIR]

Cases (every round runs each chosen case once per tool, in turn; odd rounds
run the tools of a case in the reverse order, so drift and caches hit both):

  1  4 KiB randread, QD32, O_DIRECT, 1 GiB file, 1 job, --seconds long
     (1 s ramp): IOPS and p99 latency (ssdcluster: cluster.iops and
     latency_ns.read.p99; fio: read.iops and lat_ns p99 with
     --lat_percentiles=1).  fio io_uring twice: default options, and tuned
     (--fixedbufs=1 --registerfiles=1 --hipri=0 --sqthread_poll=0).  And
     the ceiling, fio's t/io_uring (-d32 -s8 -c8 -p0 -B1 -F1: batches of 8
     submitted and reaped, fixed buffers and files; IOPS only: the median
     of its per-second lines), when --t-io-uring names it or fio's sources
     are built at --fio-src (default /var/tmp/fio-src: `make t/io_uring`
     there).  --device loop-tmpfs reads a loop device over a 1 GiB file in
     a tmpfs instead (a fast device: the tools' CPU is the limit; root).
  2  the same read through the page cache (ssdcluster direct: false; fio
     --direct=0 --invalidate=0; the file is read once, untimed, before each
     run so it is cached), no ramp: IOPS and CPU seconds per million I/Os
     (user+sys of the child from wait4, startup included, over the I/Os
     the tool reports).
  3  --ranks (16) ranks, mpirun --oversubscribe, 1 MiB sequential write then
     read, QD1, O_DIRECT, --size-per-rank MiB each (256): MB/s (ssdcluster:
     lastdone_bw_MBps of each phase; fio: group_reporting bw_bytes).  Both
     tools use one file of ranks x size, each rank / job its own region
     (fio --numjobs=16 --offset_increment=SIZE), overwritten in place;
     fio twice: io_uring and psync.
  4  the null engine (no storage I/O: it measures the tool), 4 KiB randread
     QD32: 1 rank with --progress=none and with --progress=live, and
     --ranks ranks with none and live.  live needs a terminal: those runs go
     under `script -qec` (util-linux), and the run is checked to have
     printed carriage returns.  IOPS and I/Os per CPU second (user+sys of
     the whole process tree).
  5  peak RSS per rank at jobs 8 x iodepth 128 x 1 MiB (O_DIRECT reads of
     the 1 GiB file, 1 rank, 3 s): ssdcluster's ranks[].peak_rss_bytes and
     its maxrss; fio's maxrss for the same shape with --thread (8 jobs in
     one process, as ssdcluster's 8 jobs are threads of one rank).
  6  histogram record cost: build/hist_bench (beside --bin), 100 M records
     of a latency mix (log-normal around 100 us and a run of a constant
     100 us) x 9 repetitions, a run for sc_hist_record (--impl new) and a
     run for the branchy record it replaced (--impl old, kept in
     tests/unit/hist_ref.h): ns per record, the median of each run's 9.

  7  --ranks (16) separate files, 1 MiB sequential write then read, QD1,
     O_DIRECT, --size-per-rank MiB each, new files every run: ssdcluster
     (a directory target), fio psync (--directory, --numjobs), and IOR
     (-a POSIX --posix.odirect -F -b SIZE -t 1m -w -r -e, mpirun; when
     --ior names it or it is built at --ior-src/src/ior).  Beside each
     tool's own MB/s, the device's: the bytes /proc/diskstats counts on the
     scratch folder's disk between the samples (10 ms apart) at which 2%
     and 90% of the run's bytes had been moved, over that time (a truth
     that does not come from any tool; another process's I/O on that disk
     spoils it, so run it on a quiet machine); and the requests the disk
     completed per MiB moved (1: each 1 MiB I/O went down whole).  ssdcluster
     runs twice: as it is (4 KiB-page buffers, as fio's and IOR's) and with
     huge_buffers: true ("sc huge pages"), and a third time with its files
     fallocated before the timed writes as fio's are (preallocate:
     fallocate, "sc fallocate").  Each tool starts in a fresh
     folder after a sync and once the disk has completed nothing for 1 s
     (--no-settle: at once): deleting the last tool's files is I/O too.
     The tools' defaults differ in what a write does: fio preallocates
     its files (fallocate: unwritten extents, converted at each write),
     ssdcluster and IOR extend new files (docs/performance.md).

The table's ratio column is ssdcluster's median over the tool's on that
row (above 1: ssdcluster higher, better for IOPS and MB/s, worse for
latency, CPU and RSS); in case 4 it is live over none at the same ranks;
in case 6 it is the new record's ns over the old one's (below 1: faster).

Everything goes into a temp folder under /var/tmp (--dir to choose), removed
at the end.  --json FILE keeps every round's figures.  Needs fio (cases 1,
2, 3 and 5), mpirun (case 3 and 4), script (case 4) and hist_bench (case 6).
"""
import json, os, shlex, shutil, statistics, subprocess, sys, tempfile, time

import benchlib

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def run(cmd, env=None, tty=False):
    """Runs cmd (under `script` when tty, so its stdout is a terminal);
    returns (wait4 rusage, its output).  Exits on failure."""
    if tty:
        cmd = ["script", "-qec", shlex.join(cmd), "/dev/null"]
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             env=dict(os.environ, **(env or {})))
        _, status, ru = os.wait4(p.pid, 0)
        out.seek(0)
        text = out.read().decode(errors="replace")
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit(f"{shlex.join(cmd)} failed ({rc}):\n{text[-4000:]}")
    return ru, text


def settle(path, quiet_s=1.0, limit_s=60.0):
    """Syncs, then waits until the disk under path has completed no
    request for quiet_s (at most limit_s): the deletion of the last
    tool's files (the journal, and discards on a filesystem mounted with
    `discard`) is then not charged to the next tool."""
    os.sync()
    rate = DiskRate(path)
    last, quiet_since, t0 = None, time.monotonic(), time.monotonic()
    while time.monotonic() - t0 < limit_s:
        s = rate.sample()
        now = time.monotonic()
        ios = s[3] + s[4] if s else 0
        if ios != last:
            last, quiet_since = ios, now
        elif now - quiet_since >= quiet_s:
            return
        time.sleep(0.05)


def cpu(ru):
    return ru.ru_utime + ru.ru_stime


class Bench:
    def __init__(self, a, work):
        self.a, self.work, self.n = a, work, 0
        self.big = os.path.join(work, "rand.dat")
        self.ior = a.ior or (os.path.join(a.ior_src, "src", "ior")
                             if os.access(os.path.join(a.ior_src, "src", "ior"), os.X_OK) else None)
        self.t_io_uring = a.t_io_uring or (
            os.path.join(a.fio_src, "t", "io_uring")
            if os.access(os.path.join(a.fio_src, "t", "io_uring"), os.X_OK) else None)
        self.seq = os.path.join(work, "seq.dat")

    # -- ssdcluster ---------------------------------------------------------
    def sc(self, yaml, ranks=1, progress="none", tty=False, extra=()):
        """Runs ssdcluster on config text; returns (results.json, rusage, output)."""
        self.n += 1
        cfg = os.path.join(self.work, f"c{self.n}.yaml")
        out = os.path.join(self.work, f"o{self.n}")
        with open(cfg, "w") as f:
            f.write(yaml)
        cmd = [self.a.bin, cfg, "--output", out, f"--progress={progress}", *extra]
        if ranks > 1:
            cmd = ["mpirun", "--oversubscribe", "-np", str(ranks), *cmd]
        ru, text = run(cmd, env=MPI_ENV, tty=tty)
        res = json.load(open(os.path.join(out, "results.json")))
        shutil.rmtree(out, ignore_errors=True)
        return res, ru, text

    def fio(self, args):
        out = os.path.join(self.work, "fio.json")
        ru, _ = run(["fio", *args, "--output-format=json", f"--output={out}"])
        return json.load(open(out)), ru

    def rand_yaml(self, direct, ramp, jobs=1, iodepth=32, bs="4KiB", size="1GiB",
                  seconds=None, engine="io_uring", target=None, rw="randread"):
        return f"""targets:
  - path: {target or self.big}
phases:
  - name: p
    rw: {rw}
    bs: {bs}
    iodepth: {iodepth}
    jobs: {jobs}
    size: {size}
    runtime: {seconds or self.a.seconds}s
    ramp: {ramp}s
    direct: {'true' if direct else 'false'}
    engine: {engine}
"""

    def fio_rand(self, direct, ramp, extra=()):
        return ["--name=randread", f"--filename={self.big}", "--size=1G", "--rw=randread",
                "--bs=4k", "--iodepth=32", "--ioengine=io_uring", f"--direct={int(direct)}",
                f"--runtime={self.a.seconds}", f"--ramp_time={ramp}", "--time_based",
                "--numjobs=1", "--lat_percentiles=1", *extra]

    # -- setup ----------------------------------------------------------------
    def layout(self, path, size_mib):
        run(["fio", "--name=layout", f"--filename={path}", f"--size={size_mib}M", "--rw=write",
             "--bs=1M", "--direct=1", "--ioengine=io_uring", "--iodepth=16", "--output=/dev/null"])

    def warm(self):
        with open(self.big, "rb") as f:
            while f.read(1 << 24):
                pass

    # -- cases: each returns [(tool name, callable -> {metric: value})] -------
    def case1(self):
        def sc():
            r, _, _ = self.sc(self.rand_yaml(True, 1))
            c = r["phases"][0]["cluster"]
            return {"iops": c["iops"], "p99_us": c["latency_ns"]["read"]["p99"] / 1e3}

        def fio(extra):
            def f():
                j, _ = self.fio(self.fio_rand(True, 1, extra))
                rd = j["jobs"][0]["read"]
                pct = (rd.get("lat_ns") or {}).get("percentile") or rd["clat_ns"]["percentile"]
                return {"iops": rd["iops"], "p99_us": pct["99.000000"] / 1e3}
            return f

        tuned = ["--fixedbufs=1", "--registerfiles=1", "--hipri=0", "--sqthread_poll=0"]
        runs = [("ssdcluster", sc), ("fio default", fio([])), ("fio tuned", fio(tuned))]
        if self.t_io_uring:
            runs.append(("t/io_uring", self.tiou))
        return runs

    def tiou(self):
        """fio's t/io_uring on the case 1 file: the median of its per-second
        IOPS lines after the first (the ramp)."""
        _, text = run([self.t_io_uring, "-d32", "-s8", "-c8", "-p0", "-B1", "-F1", "-O1", "-R1",
                       f"-r{self.a.seconds + 1}", self.big])
        iops = benchlib.t_io_uring_iops(text)
        if iops is None:
            sys.exit(f"t/io_uring printed no IOPS lines:\n{text[-2000:]}")
        return {"iops": iops}

    def case2(self):
        def sc():
            self.warm()
            r, ru, _ = self.sc(self.rand_yaml(False, 0))
            c = r["phases"][0]["cluster"]
            return {"iops": c["iops"], "cpu_s_per_Mio": cpu(ru) / (c["ios_read"] / 1e6)}

        def fio():
            self.warm()
            j, ru = self.fio(self.fio_rand(False, 0, ["--invalidate=0"]))
            rd = j["jobs"][0]["read"]
            return {"iops": rd["iops"], "cpu_s_per_Mio": cpu(ru) / (rd["total_ios"] / 1e6)}

        return [("ssdcluster", sc), ("fio default", fio)]

    def case3(self):
        a, size = self.a, self.a.size_per_rank
        yaml = f"""targets:
  - path: {self.seq}
    allow_destroy: true
defaults:
  bs: 1MiB
  iodepth: 1
  jobs: 1
  size: {size}MiB
  direct: true
  engine: io_uring
phases:
  - name: seqwrite
    rw: write
  - name: seqread
    rw: read
"""

        def sc():
            r, _, _ = self.sc(yaml, ranks=a.ranks, extra=["--allow-destroy"])
            ph = {p["name"]: p["cluster"] for p in r["phases"]}
            return {"write_MBps": ph["seqwrite"]["lastdone_bw_MBps"],
                    "read_MBps": ph["seqread"]["lastdone_bw_MBps"]}

        def fio(engine):
            def f():
                res = {}
                for rw in ("write", "read"):
                    j, _ = self.fio([f"--name=seq{rw}", f"--filename={self.seq}", f"--rw={rw}",
                                     "--bs=1M", "--iodepth=1", "--direct=1",
                                     f"--ioengine={engine}", f"--numjobs={a.ranks}",
                                     f"--size={size}M", f"--offset_increment={size}M",
                                     "--group_reporting"])
                    res[f"{rw}_MBps"] = j["jobs"][0][rw]["bw_bytes"] / 1e6
                return res
            return f

        return [("ssdcluster", sc), ("fio io_uring", fio("io_uring")), ("fio psync", fio("psync"))]

    def case4(self):
        target = os.path.join(self.work, "null")

        def sc(ranks, progress):
            def f():
                yaml = self.rand_yaml(False, 0, size="64MiB", engine="null", target=target)
                r, ru, text = self.sc(yaml, ranks=ranks, progress=progress, tty=progress == "live")
                c = r["phases"][0]["cluster"]
                if progress == "live" and "\r" not in text:
                    sys.exit("--progress=live printed no carriage return under script")
                return {"iops": c["iops"], "ios_per_cpu_s": c["ios_read"] / cpu(ru)}
            return f

        r = self.a.ranks
        return [("1 rank none", sc(1, "none")), ("1 rank live", sc(1, "live")),
                (f"{r} ranks none", sc(r, "none")), (f"{r} ranks live", sc(r, "live"))]

    def case5(self):
        secs = min(self.a.seconds, 3)

        def sc():
            yaml = self.rand_yaml(True, 0, jobs=8, iodepth=128, bs="1MiB", size="128MiB",
                                  seconds=secs, rw="read")
            r, ru, _ = self.sc(yaml)
            ranks = r["phases"][0]["ranks"]
            return {"peak_rss_MiB": max(x["peak_rss_bytes"] for x in ranks) / 2**20,
                    "maxrss_MiB": ru.ru_maxrss / 1024}

        def fio():
            _, ru = self.fio(["--name=rss", f"--filename={self.big}", "--rw=read", "--bs=1M",
                              "--iodepth=128", "--numjobs=8", "--size=128M",
                              "--offset_increment=128M", "--direct=1", "--ioengine=io_uring", "--thread",
                              f"--runtime={secs}", "--time_based"])
            return {"maxrss_MiB": ru.ru_maxrss / 1024}

        return [("ssdcluster", sc), ("fio io_uring", fio)]

    def case7(self):
        a, size = self.a, self.a.size_per_rank
        d = os.path.join(self.work, "files")

        def fresh():
            shutil.rmtree(d, ignore_errors=True)
            os.mkdir(d)
            if a.settle:
                settle(d)

        def sc(huge, prealloc="none"):
            fresh()
            yaml = f"""targets:
  - path: {d}
defaults:
  bs: 1MiB
  iodepth: 1
  size: {size}MiB
  direct: true
  huge_buffers: {'true' if huge else 'false'}
phases:
  - name: w
    rw: write
    preallocate: {prealloc}
  - name: r
    rw: read
"""
            with DiskRate(d) as dr:
                r, _, _ = self.sc(yaml, ranks=a.ranks)
            ph = {p["name"]: p["cluster"] for p in r["phases"]}
            return {"write_MBps": ph["w"]["lastdone_bw_MBps"], "read_MBps": ph["r"]["lastdone_bw_MBps"],
                    **dr.rates()}

        def fio():
            fresh()
            res = {}
            with DiskRate(d) as dr:
                for rw in ("write", "read"):
                    j, _ = self.fio([f"--name=f{rw}", f"--directory={d}", "--filename_format=f.$jobnum",
                                     f"--rw={rw}", "--bs=1M", "--iodepth=1", "--direct=1",
                                     "--ioengine=psync", f"--numjobs={a.ranks}", f"--size={size}M",
                                     "--group_reporting"])
                    res[f"{rw}_MBps"] = j["jobs"][0][rw]["bw_bytes"] / 1e6
            return {**res, **dr.rates()}

        def ior():
            fresh()
            with DiskRate(d) as dr:
                _, text = run(["mpirun", "--oversubscribe", "-np", str(a.ranks), self.ior, "-a", "POSIX",
                               "--posix.odirect", "-F", "-b", f"{size}m", "-t", "1m", "-w", "-r", "-e",
                               "-o", os.path.join(d, "ior")], env=MPI_ENV)
            res = {}
            for line in text.splitlines():
                f = line.split()
                # "write  1234.5  ..." : the summary's first column, MiB/s
                if len(f) > 2 and f[0] in ("write", "read") and f[1].replace(".", "").isdigit():
                    res[f"{f[0]}_MBps"] = float(f[1]) * 1.048576
            if len(res) != 2:
                sys.exit(f"IOR printed no write and read lines:\n{text[-3000:]}")
            return {**res, **dr.rates()}

        runs = [("ssdcluster", lambda: sc(False)), ("sc huge pages", lambda: sc(True)),
                ("sc fallocate", lambda: sc(False, "fallocate")), ("fio psync", fio)]
        if self.ior:
            runs.append(("IOR", ior))
        return runs

    def case6(self):
        def rec(impl):
            def f():
                _, text = run([self.hist_bench(), "--impl", impl, "--json"])
                return {"ns_per_record": json.loads(text)[impl]["median_ns"]}
            return f

        return [("sc_hist_record", rec("new")), ("old record", rec("old"))]

    def hist_bench(self):
        """hist_bench, built beside the ssdcluster binary."""
        path = os.path.join(os.path.dirname(self.a.bin), "hist_bench")
        if not os.access(path, os.X_OK):
            sys.exit(f"{path} not found: build it (cmake --build build)")
        return path


# -- the table ---------------------------------------------------------------
UNITS = {"iops": ("IOPS", 1), "p99_us": ("p99 us", 1), "cpu_s_per_Mio": ("CPU s per M I/Os", 1),
         "write_MBps": ("write MB/s", 1), "read_MBps": ("read MB/s", 1),
         "ios_per_cpu_s": ("I/Os per CPU s", 1), "peak_rss_MiB": ("peak RSS MiB", 1),
         "maxrss_MiB": ("maxrss MiB", 1), "ns_per_record": ("ns per record", 1),
         "dev_write_MBps": ("device write MB/s", 1), "dev_read_MBps": ("device read MB/s", 1),
         "dev_write_req_per_MiB": ("dev writes per MiB", 1),
         "dev_read_req_per_MiB": ("dev reads per MiB", 1)}
TITLES = {1: "4 KiB randread QD32 O_DIRECT, 1 GiB file", 2: "4 KiB randread QD32, page cache",
          3: "N ranks, 1 MiB sequential, QD1, O_DIRECT", 4: "null engine, 4 KiB randread QD32",
          5: "peak RSS, jobs 8 x QD128 x 1 MiB", 6: "histogram record, 100 M values x 9",
          7: "N ranks, N new files, 1 MiB sequential, QD1, O_DIRECT"}


def fmt(v):
    if v >= 1e6:
        return f"{v / 1e6:.3g} M"
    if v >= 1e4:
        return f"{v / 1e3:,.1f} K"
    if v >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def table(rounds, cases):
    """Prints median [min-max] per case, tool and metric, and the ratio:
    ssdcluster's median over the tool's (case 4: live over none)."""
    print(f"\n{'case':<5}{'tool':<16}{'metric':<18}{'median':>10}  {'min-max':<22}{'ratio':>8}")
    summary = {}
    for c in cases:
        tools = list(rounds[0][str(c)].keys())
        for metric in rounds[0][str(c)][tools[0]]:
            base = None
            for tool in tools:
                vals = [r[str(c)][tool][metric] for r in rounds if metric in r[str(c)][tool]]
                if not vals:
                    continue
                med = statistics.median(vals)
                summary.setdefault(str(c), {}).setdefault(tool, {})[metric] = {
                    "median": med, "min": min(vals), "max": max(vals), "n": len(vals)}
                if base is None:
                    base, ratio = med, ""
                elif c == 4:  # live against none, same ranks
                    none = summary[str(c)].get(tool.replace("live", "none"), {}).get(metric)
                    ratio = f"{med / none['median']:.3f}" if "live" in tool and none else ""
                else:
                    ratio = f"{base / med:.3f}" if med else "-"
                spread = f"{fmt(min(vals))} - {fmt(max(vals))}"
                print(f"{c:<5}{tool:<16}{UNITS[metric][0]:<18}{fmt(med):>10}  {spread:<22}{ratio:>8}")
    return summary


class DiskRate:
    """Samples /proc/diskstats for the disk under path every 10 ms while
    in use; rates() gives the device's write and read MB/s between the
    samples at which 2% and 90% of the bytes had been moved (the run's
    own metadata, a few percent, trickles in after its data)."""

    def __init__(self, path):
        import threading
        st = os.stat(path)
        dev = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
        sysdev = os.path.realpath(f"/sys/dev/block/{dev}")
        # a partition has its own line in /proc/diskstats, under its name
        self.name = os.path.basename(sysdev)
        self.rows, self.stop = [], threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def sample(self):
        with open("/proc/diskstats") as f:
            for line in f:
                x = line.split()
                if x[2] == self.name:
                    # time, bytes read, bytes written, reads and writes completed
                    return (time.monotonic(), int(x[5]) * 512, int(x[9]) * 512, int(x[3]), int(x[7]))
        return None

    def loop(self):
        while not self.stop.is_set():
            s = self.sample()
            if s:
                self.rows.append(s)
            time.sleep(0.01)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def rates(self):
        out = {}
        for key, i in (("dev_write_MBps", 2), ("dev_read_MBps", 1)):
            base, total = self.rows[0][i], self.rows[-1][i] - self.rows[0][i]
            if total < 1 << 20:
                continue
            lo = next(t for t, *v in self.rows if v[i - 1] - base >= 0.02 * total)
            hi = next(t for t, *v in self.rows if v[i - 1] - base >= 0.90 * total)
            if hi > lo:
                out[key] = 0.88 * total / (hi - lo) / 1e6
            # requests the device completed per MiB moved: 1 when each
            # 1 MiB I/O went down whole, 2 when each was split in two
            reqs = self.rows[-1][i + 2] - self.rows[0][i + 2]
            out[key.replace("MBps", "req_per_MiB")] = reqs / (total / 2**20)
        return out


def loop_tmpfs(work):
    """A loop device over a 1 GiB file of random bytes in a tmpfs mounted
    in work; detached and unmounted at exit."""
    import atexit
    mnt = os.path.join(work, "tmpfs")
    os.mkdir(mnt)
    run(["mount", "-t", "tmpfs", "-o", "size=1100M", "tmpfs", mnt])
    atexit.register(lambda: subprocess.run(["umount", "-l", mnt]))
    img = os.path.join(mnt, "img")
    run(["dd", "if=/dev/urandom", f"of={img}", "bs=1M", "count=1024", "status=none"])
    _, dev = run(["losetup", "--find", "--show", img])
    dev = dev.strip()
    atexit.register(lambda: subprocess.run(["losetup", "-d", dev]))
    print(f"device: {dev}, a loop device over a 1 GiB file in a tmpfs", flush=True)
    return dev


def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seconds", type=int, default=10, help="runtime of each timed run (s)")
    ap.add_argument("--cases", default="1,2,3,4,5,6,7", help="which cases, comma-separated")
    ap.add_argument("--ranks", type=int, default=16, help="ranks (and fio jobs) in cases 3 and 4")
    ap.add_argument("--size-per-rank", type=int, default=256,
                    help="MiB per rank in case 3 (256: 4 GiB at 16 ranks, a window of "
                         "seconds; 64 MiB windows of 0.5 s swing with the disk)")
    ap.add_argument("--json", help="write every round's figures and the medians here")
    ap.add_argument("--dir", help="parent of the scratch folder (default /var/tmp)")
    ap.add_argument("--t-io-uring", help="fio's t/io_uring binary (case 1's ceiling)")
    ap.add_argument("--fio-src", default="/var/tmp/fio-src",
                    help="fio's sources, where t/io_uring is looked for when built")
    ap.add_argument("--ior", help="IOR's binary (case 7)")
    ap.add_argument("--ior-src", default="/var/tmp/ior-src", help="IOR's sources, where src/ior is looked for")
    ap.add_argument("--no-settle", dest="settle", action="store_false",
                    help="case 7: start each tool right after the last one's files are deleted "
                         "(default: sync, then wait until the disk has been idle for 1 s)")
    ap.add_argument("--device", choices=("file", "loop-tmpfs"), default="file",
                    help="cases 1, 2 and 5: a file in the scratch folder, or a loop device over a "
                         "file in a tmpfs (root)")
    a = benchlib.parse(ap)
    a.bin = os.path.abspath(a.bin)
    cases = [int(x) for x in a.cases.split(",")]
    for tool in ((["fio"] if {1, 2, 3, 5, 7} & set(cases) else []) + (["mpirun"] if {3, 4, 7} & set(cases) else [])
                 + (["script"] if 4 in cases else [])):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed")
    rounds = []
    t0 = time.time()
    with benchlib.workdir("sc-perf.", a.dir or "/var/tmp") as work:
        b = Bench(a, work)
        if a.device == "loop-tmpfs":
            b.big = loop_tmpfs(work)
        elif {1, 2, 5} & set(cases):
            b.layout(b.big, 1024)
        if 3 in cases:
            b.layout(b.seq, a.ranks * a.size_per_rank)
        for i in range(a.rounds):
            rnd = {}
            for c in cases:
                runs = getattr(b, f"case{c}")()
                order = runs if i % 2 == 0 else runs[::-1]
                got = {name: fn() for name, fn in order}
                rnd[str(c)] = {name: got[name] for name, _ in runs}
                print(f"round {i + 1} case {c}: " + "; ".join(
                    f"{n} " + ", ".join(f"{fmt(v)} {UNITS[k][0]}" for k, v in m.items())
                    for n, m in rnd[str(c)].items()), flush=True)
            rounds.append(rnd)
    print(f"\n{a.rounds} rounds, {a.seconds} s per timed run, {time.time() - t0:.0f} s in all")
    for c in cases:
        print(f"case {c}: {TITLES[c].replace('N ranks', f'{a.ranks} ranks')}")
    summary = table(rounds, cases)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "rounds": rounds, "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main()
