#!/usr/bin/env bash
# procedure: mlperf on 2 ranks (llama3-8b, TP1 PP1 DP2 ZeRO-3, a tiny
# scale, keep: true): 10 write cells then 10 read cells; the page cache
# drop before the first read is reported (fadvise on every file written,
# drop_caches too when root); the restores read buffered; the MLPerf
# figures (save/load duration mean and population stdev, GB/s, size in
# GiB) agree with the cells' own durations and bytes, recomputed here; the
# written data does not compress (gzip keeps >= 95%).  MLPerf's subset
# mode: llama3-70b's 64-rank layout on 2 ranks writes those ranks' shards.  A non-catalogue
# model with no layout is refused (exit 2, naming procedure).
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/mlperf.yaml" <<YAML
targets: [{path: $T/target, keep: true}]
phases:
  - workload: checkpoint
    name: mlp
    model: llama3-8b
    procedure: mlperf
    tp: 1
    pp: 1
    dp: 2
    zero: 3
    block_size: 256KiB
    scale: 0.00005
YAML

sc_mpirun 2 "$T/mlperf.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"
grep -q "cache drop" "$T/out.log" || fail "the screen names the cache drop"

# results.pb keeps what the figures need: the procedure, each rank's cache drop
"$SC_BIN" report "$T/out/results.pb" --output "$T/re" >"$T/re.log" 2>&1 || { cat "$T/re.log"; fail "report"; }

python3 - "$T" "$(id -u)" <<'PY'
import glob, gzip, json, math, os, sys
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
t, uid = sys.argv[1], int(sys.argv[2])
res = json.load(open(os.path.join(t, "out", "results.json")))
ph = res["phases"]
need(len(ph) == 20, f"10 write + 10 read cells ({len(ph)})")
names = [p["name"] for p in ph]
need(names[:10] == [f"mlp[ckpt={k}]" for k in range(1, 11)], f"writes first: {names[:10]}")
need(names[10:] == [f"mlp[restore={k}]" for k in range(1, 11)], f"then reads: {names[10:]}")
g = res["checkpoints"][0]
m = g.get("mlperf")
need(m is not None, "the group has its MLPerf figures")
# the cache drop: every rank fadvised its files; as root drop_caches too
files_written = sum(r["files"] for r in ph[0]["ranks"]) * 10
want = "drop_caches" if uid == 0 and os.access("/proc/sys/vm/drop_caches", os.W_OK) else "fadvise"
need(m["cache_drop"] == want, f"cache_drop {m['cache_drop']}, want {want}")
need(m["cache_drop_files"] == files_written,
     f"fadvise dropped every file written: {m['cache_drop_files']} of {files_written}")
# the reads went through the page cache
need("buffered reads" in ph[10]["checkpoint"]["path"], f"restore path: {ph[10]['checkpoint']['path']}")
def stats(cells):
    d = [c["duration_ns"] / 1e9 for c in cells]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / len(d))   # population, as numpy std
    gbps = sum(c["bytes"] / 1e9 / (c["duration_ns"] / 1e9) for c in cells) / len(cells)
    return mean, sd, gbps
cells = g["cells"]
save = [c for c in cells if not c["restore"]]
load = [c for c in cells if c["restore"]]
need(len(save) == 10 and len(load) == 10, "10 saves, 10 loads in the group")
for what, cs, dur, gb in (("save", save, m["save_duration_s"], m["save_throughput_GBps"]),
                          ("load", load, m["load_duration_s"], m["load_throughput_GBps"])):
    mean, sd, gbps = stats(cs)
    need(abs(dur["mean"] - mean) <= 1e-9 * max(1, mean), f"{what} mean {dur['mean']} vs {mean}")
    need(abs(dur["stdev"] - sd) <= 1e-9 + 1e-9 * sd, f"{what} stdev {dur['stdev']} vs {sd}")
    need(abs(gb - gbps) <= 1e-9 * gbps, f"{what} GB/s {gb} vs {gbps}")
# one checkpoint's bytes, from the ranks' rows, in GiB
written = sum(r["bytes_written"] for r in ph[0]["ranks"])
need(abs(m["size_GiB"] - written / 2**30) < 1e-12, f"size {m['size_GiB']} GiB vs {written} B")
need(abs(m["full_size_GiB"] - g["full_size_bytes"] / 2**30) < 1e-12, f"full size {m['full_size_GiB']} GiB")
read = sum(r["bytes_read"] for p in ph[10:] for r in p["ranks"])
need(read == 10 * written, f"every checkpoint read back: {read} of {10 * written}")
need(sum(r["fsyncs"] for r in ph[0]["ranks"]) == sum(r["files"] for r in ph[0]["ranks"]),
     "one fsync per file")
# incompressible: the largest file written does not shrink under gzip
runs = glob.glob(os.path.join(t, "target", "ssdcluster-*"))
need(len(runs) == 1, f"one kept run: {runs}")
pts = sorted(glob.glob(os.path.join(runs[0], "**", "*.pt"), recursive=True), key=os.path.getsize)
need(len(pts) == files_written, f"{len(pts)} files on disk, {files_written} written")
data = open(pts[-1], "rb").read()
z = len(gzip.compress(data, 6))
need(len(data) > 1 << 20 and z >= 0.95 * len(data),
     f"{pts[-1]}: gzip {z} of {len(data)} B (incompressible data)")
re = json.load(open(os.path.join(t, "re", "results.json")))["checkpoints"][0].get("mlperf")
need(re == m, f"results.pb rebuilds the same MLPerf figures: {re}")
html = open(os.path.join(t, "out", "report.html")).read()
need("in MLPerf Storage&#39;s terms" in html or "in MLPerf Storage's terms" in html,
     "report.html has the MLPerf table")
print(f"ok: save {m['save_duration_s']['mean']:.4f} s, load {m['load_duration_s']['mean']:.4f} s, "
      f"{m['cache_drop']}, gzip {z / len(data):.3f}")
PY
[ $? -eq 0 ] || fail "results checks"

# MLPerf's subset mode: llama3-70b's layout (TP8 PP1 DP8 ZeRO-3, 64
# processes) on 2 ranks: ranks 0 and 1 write their own shards of the full
# layout, which a closed form from the model's dimensions gives here
cat >"$T/subset.yaml" <<YAML
targets: [{path: $T/sub}]
phases:
  - workload: checkpoint
    name: sub
    model: llama3-70b
    procedure: mlperf
    checkpoints: 2
    scale: 0.00001
YAML
mkdir -p "$T/sub"
sc_mpirun 2 "$T/subset.yaml" --output "$T/subout" || { cat "$T/out.log"; fail "subset run exited $?"; }
grep -q "subset mode: 2 of the layout's 64 ranks" "$T/out.log" || { cat "$T/out.log"; fail "the screen names the subset"; }
python3 - "$T" <<'PY'
import json, os, sys
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
res = json.load(open(os.path.join(sys.argv[1], "subout", "results.json")))
m = res["checkpoints"][0]["mlperf"]
need(m["subset"] and m["ranks"] == 2 and m["layout_ranks"] == 64, f"subset: {m}")
# llama3-70b: 80 layers, hidden 8192, ffn 28672, 128 heads, 8 kv heads, vocab 128256
L, h, f, H, kv, V, tp, dp, scale = 80, 8192, 28672, 128, 8, 128256, 8, 8, 0.00001
dkv = h // H * kv
layer = h // dp + h * (h + 2 * dkv) // tp // dp + h * h // tp // dp + h // dp \
    + 2 * h * f // tp // dp + h * f // tp // dp
model = 2 * (2 * (h * V // tp // dp) + L * layer + h // dp)    # per rank, fp16
params = 2 * V * h + L * (2 * h + h * (h + 2 * dkv) + h * h + 3 * h * f) + h
optim = (params // (tp * dp) + 5 * h) * 12                      # per rank, 3 fp32 states
def scaled(b):
    return max(1, int(b * scale / 4096 + 0.5)) * 4096
want = 2 * (scaled(model) + scaled(optim))
got = sum(r["bytes_written"] for r in res["phases"][0]["ranks"])
need(got == want, f"2 ranks of the 64 wrote {got} B, closed form {want} B")
need(abs(m["size_GiB"] - want / 2**30) < 1e-12, f"size_GiB {m['size_GiB']}")
read = sum(r["bytes_read"] for r in res["phases"][2]["ranks"])
need(read == want, f"the subset read its {want} B back ({read})")
print(f"ok: subset of 2 of 64 ranks, {got} B per checkpoint")
PY
[ $? -eq 0 ] || fail "subset checks"

# restore_shift in subset mode would read shards no rank wrote: exit 2
sed -i 's/    checkpoints: 2/    checkpoints: 2\n    restore_shift: 1/' "$T/subset.yaml"
rc=0
sc_mpirun 2 "$T/subset.yaml" --output "$T/subshift" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "restore_shift in subset mode: exit $rc, want 2"; }
grep -q "restore_shift: 2 rank(s) run a subset of the layout's 64" "$T/out.log" ||
	{ cat "$T/out.log"; fail "the message names restore_shift and the arithmetic"; }

# a model outside the catalogue with no layout: exit 2 at procedure
cat >"$T/bad.yaml" <<YAML
targets: [{path: $T/target}]
phases:
  - workload: checkpoint
    model: {layers: 4, hidden: 256, ffn_hidden: 512, heads: 4, kv_heads: 4, vocab: 1000}
    procedure: mlperf
YAML
rc=0
sc_mpirun 1 "$T/bad.yaml" --output "$T/bad" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "inline model without layout: exit $rc, want 2"; }
grep -q "procedure" "$T/out.log" || { cat "$T/out.log"; fail "the message names procedure"; }
echo "PASS"
