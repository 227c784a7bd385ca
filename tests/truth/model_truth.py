#!/usr/bin/env python3
"""model_truth.py -- the cluster model judged against known truth.

For each tail shape: emulated drives whose per-checkpoint time has a
distribution this file derives from the emulated engine's documented drive
model (docs/results.md, "Emulated drives"; nothing here calls the code under test
for a truth).  R ranks (R drives; 4) run C checkpoints (400: 1600
samples); `ssdcluster model`
projects one synchronous checkpoint of 64, 512 and 4096 drives (one drive
a node, every drive writing the bytes a measured drive wrote); the
projection's mean is judged against the truth:

  every N:         E[max of N drives] computed exactly from the drive
                   model's distribution (H_2N x s for the exponential;
                   quadrature of 1 - F(x)^N otherwise; the mean over the
                   checkpoints where the distribution moves with them),
                   plus the tool's overhead per checkpoint, measured on
                   deterministic drives of the same shape.
  N = 64, also:     64 emulated ranks run for real (the mean over their
                   checkpoints of the slowest rank's time): the prediction
                   is printed against it, and the run must agree with the
                   exact value within 4 of its standard errors plus 3%
                   (else the machine, not the drives, made it).  On a
                   2-core VM 64 ranks take about 1.1 s a checkpoint,
                   about 2.5 minutes for the four shapes.

The harness checks itself: the quadrature against H_2N for the
exponential (0.1%), a brute-force Monte Carlo that simulates each drive
I/O by I/O against the quadrature at 64 (within its standard error), and
the measured R drives' mean against the drive model's (5% plus 3
standard errors: beyond it the machine, not the drives, made the samples),
their distribution against the model's shifted by the best-fitting
constant (Kolmogorov-Smirnov, 0.1%: see disturbed())
and the real 64-rank run against the exact value (printed, and within
SC_TRUTH_RUN_TOLERANCE, 10% by default).

Exit 0 when every shape and size is within SC_TRUTH_TOLERANCE (10%) of its
truth, 1 otherwise; SC_TRUTH_REPORT_ONLY=1 prints the same table and exits
0 unless the harness itself failed (then 1 either way).

Environment: SC_BIN, T (a scratch directory), MPIEXEC (mpirun);
SC_TRUTH_SHAPES (exp,gamma,stall,fill), SC_TRUTH_RANKS (ranks, one drive
each, of the measured run: 4), SC_TRUTH_CKPTS (its checkpoints, 400: 1600
samples; from 200 the exponential's figure at 4096 drives is within 10% in
only about half the seeds, see docs/model.md; 8 ranks x 200 checkpoints,
the same samples in half the phases, put gamma at +10.6% and +12.9% at 512
and 4096 drives with seed 1, where 4 x 400 passes: the harness is judged
as tuned, at 4 x 400),
SC_TRUTH_CKPTS64 (checkpoints of the 64-rank run, 30), SC_TRUTH_NODES
(64,512,4096), SC_TRUTH_SEED (1: the measured run's phase seed and the
model's seed; the 64-rank run uses seed + 1000), SC_TRUTH_RUN64 (1; 0
skips the 64-rank run), SC_TRUTH_TOLERANCE (0.10), SC_TRUTH_REPORT_ONLY (0), SC_TRUTH_CAL_CKPTS (40: checkpoints of the
overhead calibration), SC_TRUTH_ATTEMPTS (3: measured runs
before the machine is blamed), SC_TRUTH_NICE (-10: the runs' niceness).
"""
import json
import math
import os
import random
import shutil
import subprocess
import sys

SC_BIN = os.environ["SC_BIN"]
T = os.environ["T"]
MPIEXEC = os.environ.get("MPIEXEC", "mpirun")
SHAPES = os.environ.get("SC_TRUTH_SHAPES", "exp,gamma,stall,fill").split(",")
CKPTS = int(os.environ.get("SC_TRUTH_CKPTS", "400"))
CKPTS64 = int(os.environ.get("SC_TRUTH_CKPTS64", "30"))
NODES = [int(n) for n in os.environ.get("SC_TRUTH_NODES", "64,512,4096").split(",")]
SEED = int(os.environ.get("SC_TRUTH_SEED", "1"))
RUN64 = os.environ.get("SC_TRUTH_RUN64", "1") not in ("", "0")
TOL = float(os.environ.get("SC_TRUTH_TOLERANCE", "0.10"))
# The 64-rank run may differ from the exact value by this share plus 4 of
# its standard errors.
RUN_TOL = float(os.environ.get("SC_TRUTH_RUN_TOLERANCE", "0.03"))
REPORT_ONLY = os.environ.get("SC_TRUTH_REPORT_ONLY", "0") not in ("", "0")

MEASURED = int(os.environ.get("SC_TRUTH_RANKS", "4"))  # ranks (drives) of the measured run
# its scale: llama3-8b ZeRO-3 gives each of 4 ranks 2.8 MB at 0.0001 (two
# files of 2 and 10 I/Os of 256 KiB); the shards are 1 / ranks of it
SCALE_MEASURED = 0.0001 * MEASURED / 4
MS = 1e6              # ns
# Checkpoints of the overhead calibration: a run's first few checkpoints
# are slower (on a 2-core VM the stall shape's first 4 took 0.6-5.3 ms
# beyond the model, median 2.3 ms; its 400 measured ones 1.4 ms), so the
# median is taken over enough of them that the warm-up is its tail.
CAL_CKPTS = int(os.environ.get("SC_TRUTH_CAL_CKPTS", "40"))
# The measured run's mean drive may differ from the drive model's by this
# share (plus 3 standard errors) before the machine, not the drives, is
# deemed to have made the samples: the verdict would then judge the noise.
MEASURED_TOL = 0.05
ATTEMPTS = int(os.environ.get("SC_TRUTH_ATTEMPTS", "3"))
# The runs' niceness: a shared machine's other work delays the emulated
# drives' wakeups less (a non-root user's nice only warns and runs).
NICE = os.environ.get("SC_TRUTH_NICE", "-10")


class HarnessError(Exception):
    pass


def need(cond, what):
    if not cond:
        raise HarnessError(what)


# ---------------------------------------------------------------- the shapes
#
# Every rank writes two files a checkpoint (llama3-8b, tp 1, pp 1, ZeRO 3:
# model state, then optimizer state), fsync off: a checkpoint is the two
# files' I/Os and nothing else.  Per the engine's model an I/O completes at
# (link free, or now) + its transfer (len / (bandwidth x speed x fill
# factor); none without bandwidth) + latency / speed + spread x Exp(1) /
# speed + stall with probability stall_probability.  With iodepth 1 a
# job's I/Os run one after the other; each job is its own link; the rank's
# checkpoint ends with its last job.


def erlang_sf(y, k):
    """P(Gamma(k, 1) > y), k a positive integer."""
    if y <= 0:
        return 1.0
    term, total = 1.0, 1.0
    for i in range(1, k):
        term *= y / i
        total += term
    return math.exp(-y) * total


class TwoIOs:
    """Two files of one 4 MiB I/O each, latency 0 and spread s: each I/O
    takes Exp(s).  The subclasses run them in parallel or in turn."""
    s = 50 * MS

    def emulate(self, det):
        return {"latency": f"{self.s / MS:g}ms"} if det else {"latency": 0, "spread": f"{self.s / MS:g}ms"}

    def closed(self, n):
        return None


class Exp2(TwoIOs):
    """Exponential: two jobs, one file and one I/O each.  A drive's
    checkpoint is the later of two Exp(s) draws: its tail is exponential of
    mean s (P(X > x) = 2e^(-x/s) - e^(-2x/s)), and the slowest of N drives is
    the slowest of 2N exponentials: E = H_2N x s."""
    name = "exp"
    what = "exponential tail: max of 2 parallel Exp(50 ms) I/Os"
    io = {"block_size": "4MiB", "iodepth": 1, "jobs": 2}

    def det_ns(self, c):
        return self.s

    def sf(self, x, c):
        e = math.exp(-x / self.s)
        return 2 * e - e * e

    def closed(self, n):
        return sum(1.0 / i for i in range(1, 2 * n + 1)) * self.s

    def draw(self, rng, c):
        return max(rng.expovariate(1 / self.s), rng.expovariate(1 / self.s))


class Gamma2(TwoIOs):
    """Gamma(2): one job, the two I/Os one after the other: Exp(s) +
    Exp(s), mean 2s."""
    name = "gamma"
    what = "Gamma(2, 50 ms): 2 sequential Exp I/Os"
    io = {"block_size": "4MiB", "iodepth": 1, "jobs": 1}

    def det_ns(self, c):
        return 2 * self.s

    def sf(self, x, c):
        return erlang_sf(x / self.s, 2)

    def draw(self, rng, c):
        return rng.expovariate(1 / self.s) + rng.expovariate(1 / self.s)


class Stall:
    """Stall-dominated: one job, K = 12 I/Os of 256 KiB one after the other
    (2 of the model-state file, 10 of the optimizer's), each latency L plus
    Exp(s), and with probability p a stall of 4 I/O means:
    K L + Gamma(K, s) + S x Binomial(K, p)."""
    name = "stall"
    what = "12 I/Os of 12.5 ms + Exp(1.25 ms), stall 1% x 55 ms"
    K = 12
    L = 12.5 * MS
    s = 1.25 * MS
    p = 0.01
    S = 55 * MS  # 4 x the I/O's mean (13.75 ms)
    io = {"block_size": "256KiB", "iodepth": 1, "jobs": 1}

    def emulate(self, det):
        if det:
            return {"latency": f"{(self.L + self.s) / MS:g}ms"}
        return {"latency": f"{self.L / MS:g}ms", "spread": f"{self.s / MS:g}ms",
                "stall_probability": self.p, "stall": f"{self.S / MS:g}ms"}

    def det_ns(self, c):
        return self.K * (self.L + self.s)

    def sf(self, x, c):
        total = 0.0
        for j in range(self.K + 1):
            pj = math.comb(self.K, j) * self.p ** j * (1 - self.p) ** (self.K - j)
            total += pj * erlang_sf((x - self.K * self.L - j * self.S) / self.s, self.K)
        return total

    def closed(self, n):
        return None

    def draw(self, rng, c):
        t = 0.0
        for _ in range(self.K):
            t += self.L + rng.expovariate(1 / self.s)
            if rng.random() < self.p:
                t += self.S
        return t


class Fill:
    """Speed spread and fill slowdown: bandwidth-bound, one job, iodepth 4
    (the link never idles within a file), 256 KiB I/Os at bandwidth B x f,
    f uniform in [1 - a, 1 + a] per checkpoint and drive, times the fill
    factor 1 - (1 - 1/k) min(fill / capacity, 1) at the bytes the rank
    wrote before the I/O; capacity = the bytes of all C checkpoints, so
    the last is nearly k times slower than the first.  A drive takes
    T_c / f at checkpoint c, T_c the I/Os' sum at speed 1; the slowest of N
    takes T_c / min f: E = T_c x E[1 / min of N speeds]."""
    name = "fill"
    what = "32 MiB/s, speed_spread 30%, fill_slowdown 2x over the run"
    B = 32 * 2**20
    a = 0.30
    k = 2.0
    io = {"block_size": "256KiB", "iodepth": 4, "jobs": 1}
    lens = None        # per I/O of one checkpoint, set from the plan
    cap = 1            # fill_capacity, bytes, set from the plan

    def emulate(self, det):
        e = {"bandwidth": "32MiB", "fill_slowdown": f"{self.k:g}x", "fill_capacity": self.cap}
        if not det:
            e["speed_spread"] = f"{100 * self.a:g}%"
        return e

    def t_c(self, c):
        """The checkpoint's time at speed 1: checkpoint c (0-based) starts
        at fill c x bytes."""
        fill, t = c * sum(self.lens), 0.0
        for n in self.lens:
            g = 1 - (1 - 1 / self.k) * min(fill / self.cap, 1.0)
            t += n * 1e9 / (self.B * g)
            fill += n
        return t

    def det_ns(self, c):
        return self.t_c(c)

    def e_inv_min(self, n, steps=200000):
        """E[1 / min of n uniform speeds]: u = P(min > x) = ((b - x) / w)^n,
        x = b - w u^(1/n), midpoint rule over u."""
        b, w = 1 + self.a, 2 * self.a
        return sum(1 / (b - w * ((i + 0.5) / steps) ** (1 / n)) for i in range(steps)) / steps

    def sf(self, x, c):
        """P(T_c / f > x) = P(f < T_c / x)."""
        if x <= 0:
            return 1.0
        return min(max((self.t_c(c) / x - (1 - self.a)) / (2 * self.a), 0.0), 1.0)

    def closed(self, n):
        return None

    def draw(self, rng, c):
        f = 1 + self.a * (2 * rng.random() - 1)
        fill, t = c * sum(self.lens), 0.0
        for n in self.lens:
            bw = self.B * f * (1 - (1 - 1 / self.k) * min(fill / self.cap, 1.0))
            t += n * 1e9 / bw
            fill += n
        return t


ALL = {s.name: s for s in (Exp2(), Gamma2(), Stall(), Fill())}


# ----------------------------------------------------------- exact E[max]


def e_max(shape, n, c=0):
    """E[max of n drives] at checkpoint c: the integral over x >= 0 of
    1 - F(x)^n, composite Simpson from 0 to where n x P(X > x) < 1e-13."""
    if isinstance(shape, Fill):
        return shape.t_c(c) * shape.e_inv_min(n)
    hi = shape.s
    while n * shape.sf(hi, c) > 1e-13:
        hi *= 1.5
    m = 20000
    h = hi / m

    def g(x):
        q = shape.sf(x, c)
        return 1.0 if q >= 1 else -math.expm1(n * math.log1p(-q))

    total = g(0) + g(hi)
    for i in range(1, m):
        total += (4 if i % 2 else 2) * g(i * h)
    return total * h / 3


def e_max_run(shape, n, ckpts):
    """The truth of the projection: the mean over the run's checkpoints
    of E[max of n drives]."""
    if isinstance(shape, Fill):
        return shape.e_inv_min(n) * sum(shape.t_c(c) for c in range(ckpts)) / ckpts
    return e_max(shape, n)


def brute_mc(shape, n, ckpts, trials, seed):
    """Monte Carlo of the drive model I/O by I/O: mean and standard error
    of the slowest of n drives, the checkpoint index drawn per trial."""
    rng = random.Random(seed)
    xs = []
    for _ in range(trials):
        c = rng.randrange(ckpts)
        xs.append(max(shape.draw(rng, c) for _ in range(n)))
    mean = sum(xs) / trials
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (trials - 1))
    return mean, sd / math.sqrt(trials)


# -------------------------------------------------------------- the runs


def write_config(path, shape, ckpts, scale, seed, det=False):
    em = ", ".join(f"{k}: {v}" for k, v in shape.emulate(det).items())
    io = "\n".join(f"    {k}: {v}" for k, v in shape.io.items())
    with open(path, "w") as f:
        f.write(f"""targets:
  - path: {T}/target
    capacity: 1GiB
phases:
  - name: ckpt
    workload: checkpoint
    engine: emulated
    model: llama3-8b
    tp: 1
    pp: 1
    zero: 3
    checkpoints: {ckpts}
    compute_between: 0
    fsync: false
{io}
    scale: {scale!r}
    seed: {seed}
    emulate: {{{em}}}
""")


def mpirun(np, args, log):
    cmd = ["nice", "-n", NICE, MPIEXEC, "--oversubscribe", "-np", str(np), SC_BIN] + args
    with open(log, "w") as out:
        rc = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT)
    if rc != 0:
        sys.stdout.write(open(log).read()[-4000:])
    need(rc == 0, f"{' '.join(cmd)} exited {rc}")


def run_samples(results):
    """Per checkpoint: the ranks' times (end - the cell's measured start,
    ns), their bytes and I/Os, and the cell's duration."""
    r = json.load(open(results))
    cells = [p for p in r["phases"] if p["name"].startswith("ckpt[")]
    out = []
    for p in cells:
        ranks = p["ranks"]
        out.append({"t": [x["end_ns"] - p["measure_start_ns"] for x in ranks],
                    "bytes": {x["bytes_written"] for x in ranks},
                    "ios": {x["ios_written"] for x in ranks}})
    durs = [c["duration_ns"] for c in r["checkpoints"][0]["cells"] if not c["restore"]]
    need(len(durs) == len(out), "a duration per checkpoint")
    return r["nranks"], out, durs


def file_sizes(cfg, tag):
    """One rank's checkpoint files (bytes, in the order written), from the
    dry-run plan of the measured ranks: the byte model is input, not the model under
    test."""
    mpirun(MEASURED, [cfg, "--dry-run", "--output", f"{T}/{tag}-plan"], f"{T}/{tag}-plan.log")
    plan = json.load(open(f"{T}/{tag}-plan/plan.json"))
    sizes = {tuple(f["size_bytes"] for f in r["files"] if f["phase"] == 0) for r in plan["ranks"]}
    need(len(sizes) == 1, "every rank writes the same files")
    return list(sizes.pop())


def io_lens(sizes, bs):
    lens = []
    for s in sizes:
        lens += [bs] * (s // bs) + ([s % bs] if s % bs else [])
    return lens


def model(results, n, scale, tag):
    out = f"{T}/{tag}-model-{n}.json"
    cmd = [SC_BIN, "model", results, "--nodes", str(n), "--gpus-per-node", "1",
           "--drives-per-node", "1", "--tp", "1", "--pp", "1", "--zero", "3",
           "--scale", repr(scale), "--json", "--seed", str(SEED)]
    with open(out, "w") as f:
        rc = subprocess.call(cmd, stdout=f)
    need(rc == 0, f"{' '.join(cmd)} exited {rc}")
    return json.load(open(out))["model"]["sizes"][0]


def predict(results, n, drive_bytes, tag):
    """The model's projection for n drives, each writing drive_bytes: the
    scale is found so that the layout gives every drive those bytes
    (ZeRO 3 over n ranks: about scale4 x n / 4, the optimizer's constant
    term making it not quite proportional)."""
    scale = SCALE_MEASURED * n / MEASURED
    for _ in range(3):
        size = model(results, n, scale, tag)
        got = size["drive_bytes_max"]
        if abs(got / drive_bytes - 1) < 2e-3:
            return size, scale, got / drive_bytes
        scale *= drive_bytes / got
    raise HarnessError(f"{n} drives: no scale gives {drive_bytes} B a drive (last {got})")


def band_of(ck):
    """Whatever band the projection carries (keys with band, low/high or
    ci in their name), as text."""
    keys = [k for k in ck if any(w in k for w in ("band", "low", "high", "ci_", "lo_", "hi_"))]
    parts = []
    for k in sorted(keys):
        v = ck[k]
        if isinstance(v, (int, float)):
            parts.append(f"{k[:-3]}={v / MS:.0f}ms" if k.endswith("_ns") else f"{k}={v}")
        else:
            parts.append(f"{k}={json.dumps(v)}")
    return " ".join(parts) if parts else "-"


# -------------------------------------------------------------- one shape


def overhead(shape, tag):
    """The tool's time a checkpoint beyond the drive model: deterministic
    drives of the same shape (every random part at its mean), as many ranks,
    the median of their times less the model's (a median: a busy machine
    delays a few cells by tens of ms)."""
    cfg = f"{T}/{tag}-cal.yaml"
    write_config(cfg, shape, CAL_CKPTS, SCALE_MEASURED, SEED, det=True)
    shutil.rmtree(f"{T}/{tag}-cal", ignore_errors=True)
    mpirun(MEASURED, [cfg, "--output", f"{T}/{tag}-cal"], f"{T}/{tag}-cal.log")
    _, cells, _ = run_samples(f"{T}/{tag}-cal/results.json")
    d = sorted(t - shape.det_ns(c) for c, cell in enumerate(cells) for t in cell["t"])
    need(d[0] > -1e5, f"{tag}: a deterministic drive finished {-d[0] / 1e3:.0f} us before its model")
    return d[len(d) // 2]


def disturbed(shape, cells, over):
    """Why the measured samples are not the drive model's draws plus a
    constant, the tool's time a checkpoint (the machine delayed the drives),
    or None.  The constant is measured beside them (over, the calibration's
    median), but it moves with the machine's state between runs and within
    one: on a 2-core VM the stall shape's samples stood best 0.3-2.4 ms
    above the model where the calibration before them said 0.5-2.6 ms, and
    that shape's body is narrow (Gamma(12, 1.25 ms), sd 4.3 ms), so 1 ms
    moved its Kolmogorov-Smirnov distance from 0.02 to 0.06-0.11.  So the
    samples are judged as the model shifted by the constant that fits
    them best (the least distance, searched over 0 to MEASURED_TOL of the
    model's mean): that distance is at most the one at the true constant,
    so under the model it exceeds the 0.1% critical value less than 0.1%
    of the time; a machine that delays drives unevenly changes the shape,
    which no constant fits; one that delays them all alike moves the mean,
    which must be within MEASURED_TOL plus 3 standard errors of the
    model's plus over; and the slowest sample, less the fitted constant,
    must be one the model gives at least a 0.1% chance of being reached by
    the largest of the samples (at 98% of its time: the wakeups' own
    noise).  Returns (why or None, the fitted constant)."""
    xs = [(t, c) for c, cell in enumerate(cells) for t in cell["t"]]
    n = len(xs)
    mean = sum(x for x, _ in xs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x, _ in xs) / (n - 1) / n)
    want = e_max_run(shape, 1, len(cells))

    def ks(off):
        u = sorted(1 - shape.sf(x - off, c) for x, c in xs)
        return max(max((i + 1) / n - v, v - i / n) for i, v in enumerate(u))

    top, step = MEASURED_TOL * want, 0.5 * MS
    d, fit = min((ks(i * step), i * step) for i in range(int(top / step) + 1))
    d, fit = min((ks(fit + i * step / 10), fit + i * step / 10) for i in range(-10, 11) if fit + i * step / 10 >= 0)
    if abs(mean - over - want) > MEASURED_TOL * want + 3 * se:
        return (f"mean drive {(mean - over) / MS:.1f} ms, the model's {want / MS:.1f} ms "
                f"({100 * ((mean - over) / want - 1):+.1f}%)"), fit
    if d > 1.95 / math.sqrt(n):
        return (f"Kolmogorov-Smirnov distance {d:.3f} from the model shifted by its best fit, "
                f"{fit / MS:.2f} ms (above {1.95 / math.sqrt(n):.3f}: p < 0.1%)"), fit
    x, c = max(xs)
    p = -math.expm1(n * math.log1p(-min(shape.sf(0.98 * (x - fit), c), 1 - 1e-16)))
    if p < 1e-3:
        return f"slowest sample {x / MS:.1f} ms, P = {p:.1e} under the model", fit
    return None, fit


def measured_run(shape, cfg, tag, drive_bytes, problems):
    """The tool's overhead and the 4-rank run the model projects from, both
    repeated (same seed, so the same draws) up to ATTEMPTS times while the
    machine disturbed them.  Returns the overhead, the cells and their
    durations."""
    for attempt in range(1, ATTEMPTS + 1):
        over = overhead(shape, tag)
        out = f"{T}/{tag}-measured"
        shutil.rmtree(out, ignore_errors=True)
        mpirun(MEASURED, [cfg, "--output", out], f"{out}.log")
        nm, cells, durs = run_samples(f"{out}/results.json")
        need(nm == MEASURED and len(cells) == CKPTS, f"{tag}: {MEASURED} ranks, {CKPTS} checkpoints")
        need(all(c["bytes"] == {drive_bytes} for c in cells), f"{tag}: every rank wrote {drive_bytes} B")
        why, fit = disturbed(shape, cells, over)
        print(f"measured run {attempt}: tool overhead {over / MS:.2f} ms a checkpoint (deterministic drives, "
              f"{CAL_CKPTS} checkpoints; {fit / MS:.2f} ms fits the samples best); the samples: "
              f"{why or 'the drive model (mean, distribution, slowest sample)'}", flush=True)
        if not why:
            break
    else:
        problems.append(f"{tag}: the machine disturbed all {ATTEMPTS} measured runs ({why}): "
                        f"the verdict would judge the machine")
    return over, cells, durs


def one_shape(shape, rows, problems):
    tag = shape.name
    print(f"\n== {tag}: {shape.what}", flush=True)
    cfgm = f"{T}/{tag}-measured.yaml"
    write_config(cfgm, shape, CKPTS, SCALE_MEASURED, SEED)
    sizes = file_sizes(cfgm, tag)
    need(sizes == [401408, 2408448], f"{tag}: a rank's files {sizes} B, the shapes want [401408, 2408448]")
    if isinstance(shape, Fill):
        # the capacity (1 B until now: any value serves the dry run) is
        # the bytes of the whole run
        shape.lens = io_lens(sizes, 256 * 1024)
        shape.cap = CKPTS * sum(sizes)
        write_config(cfgm, shape, CKPTS, SCALE_MEASURED, SEED)
    drive_bytes = sum(sizes)
    print(f"files a rank: {sizes} B", flush=True)
    over, cellsm, dursm = measured_run(shape, cfgm, tag, drive_bytes, problems)
    samples = [t for c in cellsm for t in c["t"]]
    print(f"measured: {MEASURED} drives x {CKPTS} checkpoints, slowest sample {max(samples) / MS:.1f} ms, "
          f"cluster of {MEASURED} {sum(dursm) / len(dursm) / MS:.1f} ms "
          f"(exact {(e_max_run(shape, MEASURED, CKPTS) + over) / MS:.1f} ms)", flush=True)

    # the harness against itself
    if shape.closed(64):
        for n in NODES:
            q, h = e_max(shape, n), shape.closed(n)
            need(abs(q / h - 1) < 1e-3, f"quadrature {q:.0f} against H_2N x s {h:.0f} at {n}")
        mc, se = brute_mc(shape, 64, CKPTS, 20000, SEED)
        h = shape.closed(64)
        print(f"self-check: Monte Carlo (20000 trials) at 64 {mc / MS:.1f} ms, H_128 x s {h / MS:.1f} ms "
              f"({100 * (mc / h - 1):+.2f}%); quadrature = H_2N x s within 0.1% at {NODES}")
        need(abs(mc / h - 1) <= 0.02, f"Monte Carlo {mc:.0f} ns against H_128 x s {h:.0f} ns")
    else:
        trials = 2000 if isinstance(shape, Stall) else 5000
        mc, se = brute_mc(shape, 64, CKPTS, trials, SEED)
        q = e_max_run(shape, 64, CKPTS)
        print(f"self-check: Monte Carlo ({trials} trials, I/O by I/O) at 64 {mc / MS:.1f} +- {se / MS:.1f} ms, "
              f"exact {q / MS:.1f} ms ({100 * (mc / q - 1):+.2f}%)")
        need(abs(mc - q) <= 4 * se + 0.005 * q, f"Monte Carlo {mc:.0f} +- {se:.0f} ns against exact {q:.0f} ns")

    real64 = se64 = None
    if RUN64 and 64 in NODES:
        s64 = predict(f"{T}/{tag}-measured/results.pb", 64, drive_bytes, tag)[1]
        cfg64 = f"{T}/{tag}-64.yaml"
        cap = getattr(shape, "cap", None)
        if isinstance(shape, Fill):
            # its checkpoints span the fill of the measured run's
            shape.cap = CKPTS64 * drive_bytes
        write_config(cfg64, shape, CKPTS64, s64, SEED + 1000)
        ex = e_max_run(shape, 64, CKPTS64) + over
        if isinstance(shape, Fill):
            shape.cap = cap
        mpirun(64, [cfg64, "--output", f"{T}/{tag}-o64"], f"{T}/{tag}-o64.log")
        n64, cells64, durs64 = run_samples(f"{T}/{tag}-o64/results.json")
        need(n64 == 64 and len(cells64) == CKPTS64, f"{tag}: 64 ranks, {CKPTS64} checkpoints")
        need(all(c["bytes"] == {drive_bytes} and c["ios"] == cellsm[0]["ios"] for c in cells64),
             f"{tag}: the 64 ranks write what the {MEASURED} wrote")
        real64 = sum(durs64) / len(durs64)
        se64 = math.sqrt(sum((d - real64) ** 2 for d in durs64) / (len(durs64) - 1) / len(durs64))
        print(f"64 ranks for real: {real64 / MS:.1f} +- {se64 / MS:.1f} ms (mean of {CKPTS64} checkpoints), "
              f"exact {ex / MS:.1f} ms: {100 * (real64 / ex - 1):+.1f}%", flush=True)
        if abs(real64 - ex) > RUN_TOL * ex + 4 * se64:
            problems.append(f"{tag}: the 64-rank run is {100 * (real64 / ex - 1):+.1f}% from the drive "
                            f"model (beyond {100 * RUN_TOL:g}% + 4 standard errors): the machine, "
                            f"not the drives (SC_TRUTH_RUN_TOLERANCE)")

    for n in NODES:
        size, scale, ratio = predict(f"{T}/{tag}-measured/results.pb", n, drive_bytes, tag)
        ck = size["checkpoint"]
        pred = ck["mean_ns"]
        exact = e_max_run(shape, n, CKPTS) + over
        err = pred / exact - 1
        run = None
        if n == 64 and real64 is not None:
            # the run is a truth with its own noise: within TOL plus 2 of
            # its standard errors
            run = (real64, pred / real64 - 1, abs(pred - real64) <= TOL * real64 + 2 * se64)
        band = band_of(ck)
        if "mean_low_ns" in ck and "mean_high_ns" in ck:
            inside = ck["mean_low_ns"] <= exact <= ck["mean_high_ns"]
            band = f"{'covers' if inside else 'MISSES'} the truth: {band}"
        rows.append((tag, n, pred, ck.get("p90_ns"), band, exact, err, run))


def main():
    for s in SHAPES:
        need(s in ALL, f"SC_TRUTH_SHAPES: no shape {s!r} (have {', '.join(ALL)})")
    rows, problems = [], []
    try:
        for s in SHAPES:
            one_shape(ALL[s], rows, problems)
    except HarnessError as e:
        problems.append(str(e))
    print(f"\nshape   N      predicted   p90        exact      error          64 run for real      band")
    bad = 0
    for tag, n, pred, p90, band, exact, err, run in rows:
        ok = abs(err) <= TOL and (run is None or run[2])
        bad += not ok
        f = lambda v: f"{v / MS:8.1f}ms" if v is not None else "       -  "
        vs = f"{f(run[0])} {100 * run[1]:+6.1f}%" if run else " " * 19
        print(f"{tag:7} {n:<6} {f(pred)}  {f(p90)} {f(exact)} {100 * err:+6.1f}% {'ok ' if ok else 'BAD'}    "
              f"{vs}  {band}")
    print(f"{len(rows) - bad} of {len(rows)} within {100 * TOL:g}% of the truth")
    for p in problems:
        print(f"FAIL (the harness, not the model): {p}")
    if problems:
        return 1
    if bad and REPORT_ONLY:
        print("SC_TRUTH_REPORT_ONLY: not judged")
        return 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
