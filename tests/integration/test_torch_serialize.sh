#!/usr/bin/env bash
# serialize: torch on 2 ranks (llama3-8b, DP2 ZeRO-1, keep: true): every
# checkpoint file is a valid zip as torch.save writes it (python3's
# zipfile: testzip() finds no bad CRC; records archive/data.pkl,
# archive/data/0 holding the planned bytes, archive/version "3\n"), written
# in 3 writes and 1 fsync per file, its container counted in the bytes
# written; restore reads the whole containers back; three checkpoints in
# a row (the tensors kept between them) are each whole.  serialize: torch
# with direct: true, or with a rank's tensors beyond memory_per_rank, is
# refused (exit 2).  Needs no torch.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/target"
cat >"$T/torch.yaml" <<YAML
targets: [{path: $T/target, keep: true}]
phases:
  - workload: checkpoint
    name: saved
    model: llama3-8b
    dp: 2
    zero: 1
    block_size: 256KiB
    scale: 0.0001
    serialize: torch
    restore: true
YAML

sc_mpirun 2 "$T/torch.yaml" --dry-run --output "$T/dry" || { cat "$T/out.log"; fail "dry run"; }
sc_mpirun 2 "$T/torch.yaml" --output "$T/out" || { cat "$T/out.log"; fail "run exited $?"; }
cat "$T/out.log"

python3 - "$T" <<'PY'
import glob, json, os, sys, zipfile
def need(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
t = sys.argv[1]
with open(os.path.join(t, "dry", "plan.json")) as pf, open(os.path.join(t, "out", "results.json")) as rf:
    plan, res = json.load(pf), json.load(rf)
runs = glob.glob(os.path.join(t, "target", "ssdcluster-*"))
files = [f for r in plan["ranks"] for f in r["files"] if f["phase"] == 0]
need(len(files) >= 3, f"the plan lists the ranks' files ({len(files)})")
need(len(runs) == 1, f"one kept run directory: {runs}")
payload = disk = 0
for f in files:
    # the dry run's run id is not the run's: the same file in the kept run
    run_dir = os.path.dirname(os.path.dirname(os.path.dirname(f["path"])))
    p = os.path.join(runs[0], os.path.relpath(f["path"], run_dir))
    want = f["size_bytes"]
    need(os.path.isfile(p), f"{p} exists")
    z = zipfile.ZipFile(p)
    need(z.testzip() is None, f"{p}: every record's CRC-32 checks")
    names = z.namelist()
    need(names == ["archive/data.pkl", "archive/data/0", "archive/version"], f"{p}: records {names}")
    info = z.getinfo("archive/data/0")
    need(info.file_size == want and info.compress_type == zipfile.ZIP_STORED,
         f"{p}: data/0 holds the planned {want} B, stored (got {info.file_size})")
    need(info.header_offset < 512 and os.path.getsize(p) - want < 1024,
         f"{p}: container overhead {os.path.getsize(p) - want} B")
    need(z.read("archive/version") == b"3\n", f"{p}: version 3")
    need(z.read("archive/data.pkl")[:2] == b"\x80\x02", f"{p}: pickle protocol 2")
    with open(p, "rb") as fh:
        fh.seek(info.header_offset + 26)
        nl, xl = int.from_bytes(fh.read(2), "little"), int.from_bytes(fh.read(2), "little")
    need((info.header_offset + 30 + nl + xl) % 64 == 0, f"{p}: tensor data 64-byte aligned")
    payload += want
    disk += os.path.getsize(p)
need(disk > payload, "the containers add bytes")
w, r = res["phases"][0], res["phases"][1]
written = sum(x["bytes_written"] for x in w["ranks"])
need(written == disk, f"bytes written {written} == bytes on disk {disk}")
need(sum(x["ios_written"] for x in w["ranks"]) == 3 * len(files), "3 writes per file")
need(sum(x["fsyncs"] for x in w["ranks"]) == len(files), "one fsync per file")
need(sum(x["bytes_read"] for x in r["ranks"]) == disk, "restore read every container back")
need("zip container" in res["checkpoints"][0]["write_path"], "results name the write path")
need(w["ranks"][0]["errors"] == 0 and r["ranks"][0]["errors"] == 0, "no errors")
print("ok:", len(files), "files,", payload, "B payload,", disk, "B on disk")
PY
[ $? -eq 0 ] || fail "results checks"

# Three checkpoints: the tensors, kept from one write cell to the next,
# give every checkpoint's files whole and right (each record's CRC-32, the
# tensor all zeros, the same sizes in every checkpoint).
sed 's/    restore: true/    checkpoints: 3/' "$T/torch.yaml" >"$T/three.yaml"
rm -rf "${T:?}/target/"*
sc_mpirun 2 "$T/three.yaml" --output "$T/three" || { cat "$T/out.log"; fail "3 checkpoints: exit $?"; }
python3 - "$T/target" <<'PY' || fail "3 checkpoints: the files"
import glob, os, sys, zipfile
steps = sorted(glob.glob(os.path.join(sys.argv[1], "ssdcluster-*", "*", "global_epoch1_step*")))
assert len(steps) == 3, steps
sizes = []
for d in steps:
    files = sorted(os.listdir(d))
    assert len(files) >= 3, files
    sizes.append([os.path.getsize(os.path.join(d, f)) for f in files])
    for f in files:
        z = zipfile.ZipFile(os.path.join(d, f))
        assert z.testzip() is None, (d, f)
        assert z.read("archive/data/0").count(0) == z.getinfo("archive/data/0").file_size, (d, f)
assert sizes[0] == sizes[1] == sizes[2], sizes
print("ok: 3 checkpoints,", len(sizes[0]), "files each, every record's CRC-32 right")
PY
rm -rf "${T:?}/target/"*

# The tensors are held in memory, as torch.save's caller holds them: a
# rank's checkpoint beyond memory_per_rank is refused before any I/O.
{ echo "memory_per_rank: 4MiB"; cat "$T/torch.yaml"; } >"$T/mem.yaml"
rc=0
sc_mpirun 2 "$T/mem.yaml" --output "$T/om" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "memory_per_rank 4MiB: exit $rc, want 2"; }
want="phases.0.serialize: serialize: torch holds the tensors of a rank's checkpoint in host memory: rank 0's "
grep -qF "$want" "$T/out.log" && grep -qF "more than memory_per_rank 4MiB" "$T/out.log" ||
	{ cat "$T/out.log"; fail "memory_per_rank 4MiB: message"; }
[ ! -e "$T/om/results.json" ] || fail "memory_per_rank 4MiB: a run was made"

sed -i 's/serialize: torch/serialize: torch\n    direct: true/' "$T/torch.yaml"
rc=0
sc_mpirun 1 "$T/torch.yaml" --output "$T/bad" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "direct: true with serialize: torch exited $rc, want 2"; }
grep -q "serialize: torch writes through the page cache" "$T/out.log" || { cat "$T/out.log"; fail "message"; }

# An existing file as the target, without allow_destroy and --allow-destroy:
# serialize: torch writes, so the guard refuses it and the file is untouched.
head -c 1048576 /dev/urandom >"$T/victim.img"
sum=$(sha256sum <"$T/victim.img")
cat >"$T/victim.yaml" <<YAML
targets: [{path: $T/victim.img}]
phases:
  - {workload: checkpoint, name: s, model: llama3-8b, dp: 1, zero: 1, scale: 0.00001, serialize: torch}
YAML
rc=0
sc_mpirun 1 "$T/victim.yaml" --output "$T/victim" || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "serialize: torch on a file target without the opt-ins exited $rc, want 2"; }
[ "$(sha256sum <"$T/victim.img")" = "$sum" ] || fail "the file target was written"
echo "ok: a file target without the opt-ins is refused, unchanged: $(grep -m1 ssdcluster: "$T/out.log")"
echo "PASS"
