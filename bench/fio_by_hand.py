#!/usr/bin/env python3
"""fio_by_hand.py -- one fio job file run two ways on H "hosts": by hand
(fio started on every host at once, its JSON merged afterwards as a person
would) and by `mpirun -np H ssdcluster fio JOBFILE` (merged by ssdcluster),
in alternating rounds; prints the merged figures side by side.  A benchmark,
not a test.  Run as root (it drops the page cache before every run).

    python3 bench/fio_by_hand.py [--rounds 5] [--hosts 2] [--runtime S]
        [--fio-ioengine ENGINE] [--dir /var/tmp/fbh] [--json FILE] [--bin BIN]
        [JOBFILE ...]

JOBFILE defaults to bench/fio_jobs/*.fio.  The job file must not say
filename=: each host gets a directory of its own.

By hand, for each host K: a copy of the job file saying directory=DIR/hostK
(and --runtime's runtime=, --fio-ioengine's ioengine=) at the end of every section; `fio --create_only=1` lays its files
out once, before the rounds; each run starts the H fio processes together
(--output-format=json+) and merges their jobs of each section:
  IOPS, MB/s   summed (read + write iops, bw_bytes)
  p50 .. p99.9 from the SUM of the hosts' clat_ns bins (json+), by fio's
               own rule (the first bin whose cumulative count reaches
               p% of all); and, to show why a person cannot do it by
               averaging, the mean of the hosts' own percentiles
ssdcluster: `mpirun -np H --oversubscribe ssdcluster fio JOBFILE --set
directory=DIR/sc --output OUT --output-format fio-json`; the figures come
from OUT/results.json (phases[].cluster: iops, lastdone_bw_bytes_per_s,
latency_ns.<dir>.p50/p99/p99.9), checked against OUT/fio.json (the same
iops and percentiles, and its bins giving the same percentiles by the rule
above).  A directory target gets a new run directory every run and lays
its files out untimed, before the phase starts (buffered writes, fsync).

Each round runs every job file with both tools, the order of the tools
reversed in odd rounds; `sync; echo 3 > /proc/sys/vm/drop_caches` before
every run.  CPU s is the user + system time of the run's whole process
tree (wait4 of the fio processes, of mpirun and its ranks): ssdcluster's
includes its untimed layout and MPI start-up; fio's layout was done before.
The table gives, per job file and figure, the median over the
rounds with the min-max spread, and the ratio ssdcluster / by hand of the
medians.  DIR is made by the script (it must not exist) and removed at the
end with everything in it.
"""
import glob, json, os, resource, shutil, statistics, subprocess, sys, time

import benchlib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPI_ENV = benchlib.MPI_ENV
PCTS = [("p50", 50.0), ("p99", 99.0), ("p99.9", 99.9)]
FIGURES = ["IOPS", "MB/s"] + [name for name, _ in PCTS] + ["CPU s"]  # latencies in µs


def run(cmd, env=None):
    """Runs cmd; exits with its output when it fails."""
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return p.stdout


def bins_percentile(bins, pct):
    """fio's rule (stat.c, calc_clat_percentiles): the value of the first
    bin, in increasing order, at which the cumulative count reaches pct% of
    all counts.  bins: {value_ns: count}.  None when empty."""
    total = sum(bins.values())
    if total == 0:
        return None
    cum = 0
    for v in sorted(bins):
        cum += bins[v]
        if cum >= pct / 100.0 * total:
            return v
    return max(bins)


def add_bins(into, bins):
    for v, n in bins.items():
        into[int(v)] = into.get(int(v), 0) + n


def fio_pct(clat, pct):
    """A percentile as fio printed it in clat_ns.percentile."""
    return clat["percentile"][f"{pct:.6f}"]


def direction(side):
    return "read" if side["read"]["total_ios"] else "write"


def job_copy(src, dest, opts):
    """src with opts (key=value lines) at the end of every section, where
    they win over what the section said (fio: the last value given)."""
    text = open(src).read()
    tail = [f"{k}={v}" for k, v in opts.items()]
    out, seen = [f"; made by bench/fio_by_hand.py from {src}"], False
    for ln, line in enumerate(text.splitlines(), 1):
        if line.split("=", 1)[0].strip().lower() == "filename":
            print(f"{src}:{ln}: filename=: the script gives each host its own directory; "
                  "remove it from the job file", file=sys.stderr)
            sys.exit(2)
        if line.strip().startswith("["):
            out += tail if seen else []
            seen = True
        out.append(line)
    with open(dest, "w") as f:
        f.write("\n".join(out + (tail if seen else [])) + "\n")


def by_hand(copies, outdir):
    """Starts fio on every host copy at once, waits for all; returns the
    merged figures of each job section {name: {...}}."""
    outs = [os.path.join(outdir, f"host{k}.json") for k in range(len(copies))]
    procs = [subprocess.Popen(["fio", "--output-format=json+", f"--output={o}", c],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for c, o in zip(copies, outs)]
    for p, c in zip(procs, copies):
        err = p.communicate()[1]
        if p.returncode != 0:
            sys.exit(f"fio {c} failed ({p.returncode}):\n{err}")
    hosts = [json.load(open(o)) for o in outs]
    merged = {}
    for h, doc in enumerate(hosts):
        for job in doc["jobs"]:
            m = merged.setdefault(job["jobname"], {"iops": 0.0, "bw": 0.0, "bins": {},
                                                   "host_pcts": {}, "end_ms": [],
                                                   "mismatch": 0})
            d = direction(job)
            m["dir"] = d
            m["iops"] += job["read"]["iops"] + job["write"]["iops"]
            m["bw"] += job["read"]["bw_bytes"] + job["write"]["bw_bytes"]
            clat = job[d]["clat_ns"]
            add_bins(m["bins"], clat["bins"])
            for name, pct in PCTS:
                m["host_pcts"].setdefault(name, []).append(fio_pct(clat, pct))
                # the rule, checked against fio's own figures for one host
                own = bins_percentile({int(v): n for v, n in clat["bins"].items()}, pct)
                m["mismatch"] += own != fio_pct(clat, pct)
            m["end_ms"].append(doc["timestamp_ms"])
    res = {}
    for name, m in merged.items():
        r = {"IOPS": m["iops"], "MB/s": m["bw"] / 1e6, "rule_mismatches": m["mismatch"],
             "end_spread_ms": max(m["end_ms"]) - min(m["end_ms"])}
        for pname, pct in PCTS:
            r[pname] = bins_percentile(m["bins"], pct) / 1e3
            r[pname + " averaged"] = statistics.mean(m["host_pcts"][pname]) / 1e3
            r[pname + " hosts"] = [v / 1e3 for v in m["host_pcts"][pname]]
        res[name] = r
    return res


def by_ssdcluster(a, job, target, out):
    """mpirun -np H ssdcluster fio; returns each phase's merged figures from
    results.json, checked against fio.json."""
    cmd = ["mpirun", "-np", str(a.hosts), "--oversubscribe", a.bin, "fio", job,
           "--set", f"directory={target}", "--output", out, "--output-format", "fio-json",
           "--quiet"]
    if a.runtime:
        cmd += ["--set", f"runtime={a.runtime}"]
    run(cmd, env={**os.environ, **MPI_ENV})
    results = json.load(open(os.path.join(out, "results.json")))
    fj = {j["jobname"]: j for j in json.load(open(os.path.join(out, "fio.json")))["jobs"]}
    res = {}
    for ph in results["phases"]:
        c = ph["cluster"]
        fjob = fj[ph["name"]]
        d = direction(fjob)
        lat = c["latency_ns"][d]
        r = {"IOPS": c["iops"], "MB/s": c["lastdone_bw_bytes_per_s"] / 1e6,
             "start_skew_ms": c["start_skew_ns"] / 1e6, "fio_json_mismatches": 0}
        clat = fjob[d]["clat_ns"]
        bins = {int(v): n for v, n in clat["bins"].items()}
        for pname, pct in PCTS:
            r[pname] = lat[pname] / 1e3
            r["fio_json_mismatches"] += (lat[pname] != fio_pct(clat, pct)) + \
                (lat[pname] != bins_percentile(bins, pct))
        r["fio_json_mismatches"] += abs(fjob[d]["iops"] - c["iops"]) > 1e-6 * c["iops"]
        res[ph["name"]] = r
    return res


def spread(vals, fmt):
    return f"{fmt(statistics.median(vals))} ({fmt(min(vals))}-{fmt(max(vals))})"


def num(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"


def report(jobs, rounds):
    """Prints the side-by-side table and the averaging error."""
    print("\nmedian over rounds (min-max); latency in us (clat)")
    print(f"| job file | figure | by hand: fio x{rounds[0]['hosts']} merged | "
          "ssdcluster fio | ratio sc/hand |")
    print("|---|---|---|---|---|")
    for job, sections in jobs.items():
        for sec in sections:
            hand = [r["hand"][job][sec] for r in rounds]
            sc = [r["sc"][job][sec] for r in rounds]
            for fig in FIGURES:
                hv, sv = [x[fig] for x in hand], [x[fig] for x in sc]
                ratio = statistics.median(sv) / statistics.median(hv)
                print(f"| {os.path.basename(job)} | {fig} | {spread(hv, num)} | "
                      f"{spread(sv, num)} | {ratio:.3f} |")
    print("\naveraging the hosts' own percentiles instead of merging their bins "
          "(by-hand runs; error = averaged / merged - 1, median (min-max) over rounds)")
    print("| job file | figure | merged bins (us) | mean of hosts' (us) | error |")
    print("|---|---|---|---|---|")
    for job, sections in jobs.items():
        for sec in sections:
            hand = [r["hand"][job][sec] for r in rounds]
            for pname, _ in PCTS:
                mv = [x[pname] for x in hand]
                av = [x[pname + " averaged"] for x in hand]
                err = [100 * (b / m - 1) for m, b in zip(mv, av)]
                print(f"| {os.path.basename(job)} | {pname} | {spread(mv, num)} | "
                      f"{spread(av, num)} | {spread(err, lambda e: f'{e:+.1f}%')} |")
    bad = sum(x["rule_mismatches"] for r in rounds for j in r["hand"].values()
              for x in j.values())
    badsc = sum(x["fio_json_mismatches"] for r in rounds for j in r["sc"].values()
                for x in j.values())
    ends = [x["end_spread_ms"] for r in rounds for j in r["hand"].values() for x in j.values()]
    skews = [x["start_skew_ms"] for r in rounds for j in r["sc"].values() for x in j.values()]
    print(f"\nchecks: fio's percentiles of one host recomputed from its bins: {bad} differ; "
          f"ssdcluster results.json against fio.json (iops, percentiles, bins): {badsc} differ")
    print(f"by hand: the hosts' fio ended {min(ends)}-{max(ends)} ms apart (timestamp_ms); "
          f"ssdcluster start skew {min(skews):.3f}-{max(skews):.3f} ms")


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = benchlib.parser(__doc__)
    ap.add_argument("jobfiles", nargs="*", metavar="JOBFILE")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hosts", type=int, default=2)
    ap.add_argument("--runtime", type=int, help="runtime= in seconds for every job (both tools)")
    ap.add_argument("--fio-ioengine", help="ioengine= for the by-hand fio runs only "
                    "(ssdcluster runs libaio as io_uring whatever the job file says)")
    ap.add_argument("--dir", default="/var/tmp/fbh")
    ap.add_argument("--json", help="write every round's figures here")
    a = benchlib.parse(ap)
    for what, ok in (("--rounds", a.rounds >= 1), ("--hosts", a.hosts >= 1),
                     ("--runtime", a.runtime is None or a.runtime >= 1)):
        if not ok:
            print(f"{what}: must be at least 1", file=sys.stderr)
            sys.exit(2)
    if os.geteuid() != 0:
        sys.exit("run as root: the page cache is dropped before every run")
    for tool in ("fio", "mpirun"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed")
    jobs = [os.path.abspath(j) for j in
            (a.jobfiles or sorted(glob.glob(os.path.join(TOP, "bench/fio_jobs/*.fio"))))]
    for j in jobs:
        if not os.path.isfile(j):
            print(f"{j}: no such job file", file=sys.stderr)
            sys.exit(2)
    a.bin = os.path.abspath(a.bin)
    try:
        os.mkdir(a.dir)
    except FileExistsError:
        print(f"--dir {a.dir}: exists already (the script makes it and removes it at the end)",
              file=sys.stderr)
        sys.exit(2)
    try:
        measure(a, jobs)
    finally:
        shutil.rmtree(a.dir, ignore_errors=True)


def measure(a, jobs):
    work, target = os.path.join(a.dir, "work"), os.path.join(a.dir, "sc")
    os.mkdir(work)
    os.mkdir(target)
    copies = {}
    for j in jobs:
        stem = os.path.splitext(os.path.basename(j))[0]
        copies[j] = []
        for k in range(a.hosts):
            hostdir = os.path.join(a.dir, f"host{k}")
            os.makedirs(hostdir, exist_ok=True)
            c = os.path.join(work, f"{stem}.host{k}.fio")
            opts = {"directory": hostdir}
            if a.runtime:
                opts["runtime"] = a.runtime
            if a.fio_ioengine:
                opts["ioengine"] = a.fio_ioengine
            job_copy(j, c, opts)
            copies[j].append(c)
            # the files, laid out once before any timing
            run(["fio", "--create_only=1", "--output=/dev/null", c])
        # ssdcluster must load the job file as it is
        run([a.bin, "fio", j, "--set", f"directory={target}", "--print-yaml"])
    print(f"{a.hosts} hosts (processes on this machine), {a.rounds} rounds, "
          f"by-hand ioengine: {a.fio_ioengine or 'as the job file says'}, "
          f"job files: {', '.join(os.path.basename(j) for j in jobs)}; "
          f"load average at start: {load()}")
    rounds = []
    for i in range(a.rounds):
        rnd = {"hosts": a.hosts, "hand": {}, "sc": {}, "load_start": load(),
               "time": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
        for j in jobs:
            order = ["hand", "sc"] if i % 2 == 0 else ["sc", "hand"]
            for tool in order:
                out = os.path.join(work, f"r{i}.{tool}.{os.path.basename(j)}")
                benchlib.drop_caches()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                if tool == "hand":
                    os.mkdir(out)
                    rnd["hand"][j] = by_hand(copies[j], out)
                else:
                    rnd["sc"][j] = by_ssdcluster(a, j, target, out)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                for sec in rnd[tool][j].values():
                    sec["CPU s"] = cpu
                shutil.rmtree(out)
            line = "; ".join(f"{t} {sec} {v['IOPS']:,.0f} IOPS {v['MB/s']:,.1f} MB/s "
                             f"p99 {v['p99']:,.0f} us"
                             for t in order for sec, v in rnd[t][j].items())
            print(f"round {i + 1} ({' then '.join(order)}): {line}", flush=True)
        rounds.append(rnd)
    sections = {j: list(rounds[0]["hand"][j]) for j in jobs}
    for j in jobs:
        if sorted(rounds[0]["sc"][j]) != sorted(sections[j]):
            sys.exit(f"{j}: fio's jobs {sections[j]} are not ssdcluster's phases "
                     f"{list(rounds[0]['sc'][j])}")
    report(sections, rounds)
    print(f"load average at end: {load()}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"jobs": jobs, "rounds": rounds}, f, indent=1)


if __name__ == "__main__":
    main()
