#!/usr/bin/env python3
"""nvme_hipri.py -- polled 4 KiB random reads (hipri) on an emulated NVMe
namespace, ssdcluster against fio and fio's t/io_uring, in one QEMU guest
(scripts/nvme-vm.sh: Debian's kernel, its nvme driver with poll queues).
A benchmark, not a test.

    python3 bench/nvme_hipri.py [--rounds 5] [--seconds 5] [--iodepth 32]
                                [--t-io-uring PATH] [--json FILE]

Each round runs, in turn (odd rounds in reverse order), 4 KiB randread at
QD --iodepth, O_DIRECT, polled completions, on /dev/nvme0n1 (1 GiB, its
first GiB written once before the rounds):
  ssdcluster  hipri: true, 1 s ramp
  fio         --ioengine=io_uring --hipri=1 --fixedbufs=1 --registerfiles=1
  t/io_uring  -p1 -s8 -c8 -B1 -F1 (when built: --t-io-uring, or
              /var/tmp/fio-src/t/io_uring)
and prints IOPS (and p99 for the two that measure it), medians with
min-max over the rounds and ssdcluster's ratio to each.  The guest is an
emulator (TCG where there is no KVM): its speed is QEMU's, and what the
tools differ by is what each costs per I/O there, not a drive's speed.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

import benchlib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GUEST = r"""
set -eu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_orte_tmpdir_base=/tmp
[ "$(cat /sys/block/nvme0n1/queue/io_poll)" = 1 ] || { echo "nvme0n1 does not poll" >&2; exit 3; }
dd if=/dev/urandom of=/dev/nvme0n1 bs=1M count=1024 oflag=direct status=none
cat >/tmp/h.yaml <<YAML
targets:
  - path: /dev/nvme0n1
phases:
  - name: p
    rw: randread
    bs: 4KiB
    iodepth: $QD
    size: 1GiB
    runtime: ${SECS}s
    ramp: 1s
    hipri: true
YAML
sc() { "$SC_BIN" /tmp/h.yaml --progress=none --output "$OUT/sc$1" >/dev/null 2>&1; }
fio_() { fio --name=h --filename=/dev/nvme0n1 --size=1G --rw=randread --bs=4k --iodepth=$QD \
	--ioengine=io_uring --hipri=1 --fixedbufs=1 --registerfiles=1 --direct=1 --runtime=$SECS \
	--ramp_time=1 --time_based --lat_percentiles=1 --output-format=json --output="$OUT/fio$1.json" >/dev/null; }
tiou() { [ -z "$TIOU" ] || "$TIOU" -d$QD -s8 -c8 -p1 -B1 -F1 -O1 -R1 -r$((SECS + 1)) /dev/nvme0n1 >"$OUT/tiou$1.txt" 2>&1; }
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then sc $r; fio_ $r; tiou $r; else tiou $r; fio_ $r; sc $r; fi
	echo "round $r done" >&2
done
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--iodepth", type=int, default=32)
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "ssdcluster"))
    ap.add_argument("--t-io-uring", default="/var/tmp/fio-src/t/io_uring")
    ap.add_argument("--json", help="every round's figures and the medians")
    a = ap.parse_args()
    tiou = a.t_io_uring if os.access(a.t_io_uring, os.X_OK) else ""
    out = tempfile.mkdtemp(prefix="sc-hipri.", dir="/var/tmp")
    try:
        with open(os.path.join(out, "guest.sh"), "w") as f:
            f.write(GUEST)
        timeout = 120 + a.rounds * 3 * (a.seconds + 15)
        cmd = ["bash", os.path.join(TOP, "scripts", "nvme-vm.sh"), "--timeout", str(timeout),
               "--mem", "2G", "--out", out, "--nvme", "serial=SCHIPRI1,size=1G",
               "--env", f"SC_BIN={os.path.abspath(a.bin)}", "--env", f"OUT={out}",
               "--env", f"QD={a.iodepth}", "--env", f"SECS={a.seconds}",
               "--env", f"ROUNDS={a.rounds}", "--env", f"TIOU={tiou}",
               "--", "bash", os.path.join(out, "guest.sh")]
        rc = subprocess.run(cmd).returncode
        if rc != 0:
            sys.exit(f"nvme-vm.sh exited {rc}")
        rounds = []
        for r in range(1, a.rounds + 1):
            d = json.load(open(os.path.join(out, f"sc{r}", "results.json")))
            c = d["phases"][0]["cluster"]
            opt = d["phases"][0].get("io_options", {}).get("hipri", {})
            if opt.get("unavailable_ranks"):
                sys.exit(f"round {r}: ssdcluster's hipri was unavailable: {opt}")
            fj = json.load(open(os.path.join(out, f"fio{r}.json")))["jobs"][0]["read"]
            row = {"ssdcluster": {"iops": c["iops"], "p99_us": c["latency_ns"]["read"]["p99"] / 1e3},
                   "fio": {"iops": fj["iops"], "p99_us": fj["lat_ns"]["percentile"]["99.000000"] / 1e3}}
            if tiou:
                row["t/io_uring"] = {"iops": benchlib.t_io_uring_iops(open(os.path.join(out, f"tiou{r}.txt")).read())}
            rounds.append(row)
            print(f"round {r}: " + "; ".join(f"{k} " + ", ".join(f"{m} {v:,.0f}" for m, v in x.items())
                                             for k, x in row.items()))
        print(f"\n{a.rounds} rounds of {a.seconds} s, 4 KiB randread QD{a.iodepth}, hipri, "
              "in a QEMU guest (nvme-vm.sh)")
        print(f"{'tool':<12}{'metric':<8}{'median':>12}  {'min-max':<24}{'sc / tool':>10}")
        summary = {}
        for tool in rounds[0]:
            for m in rounds[0][tool]:
                vals = [x[tool][m] for x in rounds]
                med = statistics.median(vals)
                base = statistics.median(x["ssdcluster"][m] for x in rounds)
                summary[f"{tool} {m}"] = med
                ratio = "" if tool == "ssdcluster" else f"{base / med:.3f}"
                print(f"{tool:<12}{m:<8}{med:>12,.0f}  {min(vals):,.0f} - {max(vals):,.0f}".ljust(58)
                      + f"{ratio:>10}")
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"args": vars(a), "rounds": rounds, "summary": summary}, f, indent=1)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
