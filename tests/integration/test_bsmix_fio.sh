#!/usr/bin/env bash
# bssplit against fio itself: the same job (4KiB 60%, 64KiB 40%) run by
# ssdcluster and by fio on a small file, fio's JSON io_bytes and total_ios
# per direction beside ours (--output-format fio-json).  A sequential pass
# of the file: both move exactly its bytes (each I/O must end inside it).
# A random mix with io_size: ours ends exactly at io_size (the last size
# drawn to fit), fio's overshoots by less than the largest size (it stops
# once the bytes issued reach io_size).  I/O counts: each tool's within 6
# standard deviations of bytes / mean size (the sizes' spread, from the
# split's percents), and the two within 6 of each other.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || fail "fio not installed (scripts/setup.sh)"

# run NAME RW IO_SIZE(bytes, or "") [RWMIXREAD]
run() {
	local name=$1 rw=$2 io=$3 mix=${4:-} d=$T/$1
	mkdir -p "$d"
	head -c 16777216 /dev/urandom >"$d/f"
	cat >"$d/c.yaml" <<YAML
targets:
  - path: $d/f
    allow_destroy: true
phases:
  - name: $name
    workload: io
    rw: $rw
${mix:+    rwmixread: $mix}
    bssplit: {4KiB: 60, 64KiB: 40}
    size: 16MiB
${io:+    io_size: ${io}B}
    engine: psync
YAML
	sc_mpirun 1 "$d/c.yaml" --output "$d/out" --output-format fio-json --allow-destroy ||
		{ cat "$T/out.log"; fail "$name: ssdcluster"; }
	fio --name="$name" --filename="$d/f" --size=16M ${io:+--io_size=$io} --rw="$rw" \
		${mix:+--rwmixread=$mix} --bssplit=4k/60:64k/40 --norandommap --ioengine=psync \
		--output-format=json --output="$d/fio.json" >"$d/fio.log" 2>&1 ||
		{ cat "$d/fio.log"; fail "$name: fio"; }
	python3 - "$name" "$d/fio.json" "$d/out/fio.json" "${io:-16777216}" <<'PY' || fail "$name: the tools differ"
import json, math, sys
name, theirs, ours, budget = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sizes, pct = [4096, 65536], [0.6, 0.4]
mu = sum(s * p for s, p in zip(sizes, pct))
sd = math.sqrt(sum(p * (s - mu) ** 2 for s, p in zip(sizes, pct)))
def moved(path):
    d = json.load(open(path))
    return {k: (sum(j[k]["io_bytes"] for j in d["jobs"]), sum(j[k]["total_ios"] for j in d["jobs"]))
            for k in ("read", "write")}
f, s = moved(theirs), moved(ours)
print(f"{name}: fio {f}, ssdcluster {s}")
ok = True
fb = f["read"][0] + f["write"][0]
sb = s["read"][0] + s["write"][0]
if sb != budget:
    print(f"ours moved {sb} B, not {budget}"); ok = False
if not budget <= fb < budget + max(sizes):
    print(f"fio moved {fb} B, not within [{budget}, +{max(sizes)})"); ok = False
if "rand" not in name and fb != sb:
    print("a sequential pass: the bytes differ"); ok = False
for k in ("read", "write"):
    for who, (b, n) in (("fio", f[k]), ("ours", s[k])):
        if b == 0:
            if n: ok = False
            continue
        want = b / mu
        tol = 6 * math.sqrt(want) * sd / mu + 1
        if abs(n - want) > tol:
            print(f"{who} {k}: {n} I/Os for {b} B, expected {want:.0f} +- {tol:.0f}"); ok = False
    if (f[k][0] > 0) != (s[k][0] > 0):
        print(f"{k}: one tool moves none"); ok = False
    nf, ns = f[k][1], s[k][1]
    if nf and ns and abs(nf - ns) > 6 * math.sqrt(2 * (nf + ns) / 2) * sd / mu + 1:
        print(f"{k}: {nf} against {ns} I/Os"); ok = False
sys.exit(0 if ok else 1)
PY
}

run seqread read ""
run seqwrite write ""
run randread randread 8388608
run randrw randrw 10485760 70
echo "test_bsmix_fio: ok"
