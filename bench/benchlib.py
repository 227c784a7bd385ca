"""benchlib.py -- what the benchmarks in bench/ share: the command line
(--bin, checked), a scratch folder removed afterwards, and running a
command for its resource usage.  Not a benchmark itself."""
import argparse, contextlib, os, shutil, subprocess, sys, tempfile

# Open MPI as root, its traffic on loopback only (mpirun on this machine)
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl": "self,vader,tcp", "OMPI_MCA_btl_tcp_if_include": "lo",
           "OMPI_MCA_oob_tcp_if_include": "lo"}


def parser(doc):
    """An argument parser whose help is the benchmark's docstring."""
    return argparse.ArgumentParser(description=doc,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def io_args(ap, what):
    """Adds what the I/O cost benchmarks take: --dir (where WHAT goes),
    --seconds and --rounds per case, --bs (comma-separated sizes)."""
    ap.add_argument("--dir", help=f"where {what} goes (default: temp dir in /var/tmp)")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bs", default="4KiB,128KiB", help="block sizes, comma-separated")


def parse(ap):
    """Adds --bin (default $SC_BIN or build/ssdcluster), parses the command
    line and exits unless that binary is built."""
    ap.add_argument("--bin", default=os.environ.get("SC_BIN", "build/ssdcluster"))
    a = ap.parse_args()
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"{a.bin} not found: build first (bash scripts/setup.sh)")
    return a


@contextlib.contextmanager
def workdir(prefix, parent=None):
    """A new scratch folder in parent (None: the system's temp folder),
    removed with everything in it when the block ends."""
    work = tempfile.mkdtemp(prefix=prefix, dir=parent)
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def drop_caches():
    """Writes dirty pages back and drops the page cache (root only)."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def rusage(cmd):
    """Runs cmd with its output discarded; returns its resource usage
    (wait4: ru_maxrss, ru_utime, ...).  Exits with cmd's error output if it
    fails."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        if rc != 0:
            err.seek(0)
            sys.exit(f"{' '.join(cmd)} failed ({rc}):\n{err.read().decode()}")
    return ru


def t_io_uring_iops(text):
    """The median of fio's t/io_uring per-second "IOPS=..." lines after the
    first (its ramp), or None when it printed fewer than two."""
    vals = []
    for line in text.splitlines():
        if line.startswith("IOPS="):
            v = line.split(",")[0][5:]
            scale = {"K": 1e3, "M": 1e6}.get(v[-1:], 1)
            vals.append(float(v.rstrip("KM")) * scale)
    vals = vals[1:]
    return sorted(vals)[len(vals) // 2] if vals else None
