#!/usr/bin/env bash
# ssdcluster fio runs one job file that uses every option issue 31 lists
# together ([global], include, ${VAR} in directory=, rw=randrw:8,
# rwmixread, bssplit, bsrange, iodepth, numjobs, size, io_size, runtime,
# time_based, ramp_time, direct, ioengine libaio and psync, fsync,
# end_fsync, rate, rate_iops, norandommap, random_distribution zipf and
# zoned, verify=crc32c, group_reporting, stonewall) on 2 ranks, and each
# phase moves what the job file asks, counted in results.json: the sized
# job's io_size of reads exactly, the verifying job its size written and
# read back (after a job that wrote the same files without verify), the
# timed job's I/O rate at most rate_iops x numjobs x ranks x its seconds.
# offset and offset_increment (a file or device target) are
# test_offsets.sh's.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/d"
echo "iodepth=4" >"$T/inc.fio"
cat >"$T/all.fio" <<'FIO'
[global]
ioengine=libaio
direct=1
directory=${SC_TEST_DIR}
size=8m
group_reporting
include inc.fio

[mixed]
rw=randrw:8
rwmixread=70
bssplit=4k/60:16k/40
numjobs=2
fsync=4
end_fsync=1
rate_iops=200
norandommap
random_distribution=zipf:1.1
runtime=2
time_based
ramp_time=1

[ranged]
stonewall
rw=randread
bsrange=4k-32k
io_size=4m
rate=4m
random_distribution=zoned:60/10:40/90

[checked]
stonewall
rw=write
bs=64k
verify=crc32c
ioengine=psync
FIO

(cd "$T" && SC_TEST_DIR="$T/d" sc_mpirun 2 fio all.fio --output "$T/out") ||
	{ cat "$T/out.log"; fail "ssdcluster fio exited $?"; }
cat "$T/out.log"
grep -q "note: job checked: iodepth=4 with ioengine=psync runs at depth 1" "$T/out.log" ||
	fail "the include's iodepth with psync: no note"
python3 - "$T/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in r["phases"]}
bad = []
def need(c, m):
    if not c:
        bad.append(m)
MiB = 1 << 20
need(list(ph) == ["mixed", "ranged", "checked", "checked.verify"], f"phases {list(ph)}")
c = {k: v["cluster"] for k, v in ph.items()}
print({k: (v["bytes_read"], v["bytes_written"], round(v["iops"])) for k, v in c.items()})
# ranged: io_size 4 MiB of reads per job, 1 job, 2 ranks: exactly
need(c["ranged"]["bytes_read"] == 2 * 4 * MiB and c["ranged"]["bytes_written"] == 0,
     f'ranged moved {c["ranged"]["bytes_read"]} B read, want {8 * MiB}')
# checked: size 8 MiB written per rank, then read back and checked
need(c["checked"]["bytes_written"] == 2 * 8 * MiB, "checked: 8 MiB a rank written")
need(c["checked.verify"]["bytes_read"] == 2 * 8 * MiB, "checked.verify: 8 MiB a rank read")
# mixed: both directions, at most 200 I/Os a second a job x 2 jobs x 2 ranks
m = c["mixed"]
need(m["bytes_read"] > 0 and m["bytes_written"] > 0, "mixed: reads and writes")
need(m["iops"] <= 200 * 2 * 2 * 1.1, f'mixed: {m["iops"]:.0f} IOPS above rate_iops x jobs x ranks')
sys.exit("FAIL: " + "; ".join(bad) if bad else 0)
PY
