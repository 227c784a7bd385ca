#!/usr/bin/env bash
# The destroy guard holds for ssdcluster fio as for a config: a job file
# that writes filename= a loop device (over an image made here) writes
# nothing without --allow-destroy, which no fio option gives; with it, the
# guard still refuses a device that carries a filesystem signature, and a
# filename given by --set or ${VAR}; a device with neither is written, and
# its bytes afterwards are what a re-read with verify=crc32c accepts.
# Reads need no --allow-destroy.
. "$(dirname "$0")/guard_lib.sh"

new_loop fio 16M
dev=$LOOP
mark "$dev"
cat >"$T/w.fio" <<FIO
[global]
ioengine=libaio
direct=1
bs=64k
size=4m
filename=$dev

[wr]
rw=write
FIO

expect 2 "w.fio:6: targets.0.allow_destroy: phase wr would overwrite the data of the block device $dev, and the command line lacks --allow-destroy" 1 fio "$T/w.fio"
marker_kept "$dev" "without --allow-destroy"

# the guard's key cannot come from the job file, nor from --set
printf '[x]\nrw=write\nsize=4m\nfilename=%s\nallow_destroy=1\n' "$dev" >"$T/a.fio"
expect 2 "a.fio:5: job x: allow_destroy: an option ssdcluster fio does not run" 1 fio "$T/a.fio"
expect 2 "--set allow_destroy=1: allow_destroy is not a fio option" 1 fio "$T/w.fio" --set allow_destroy=1
marker_kept "$dev" "allow_destroy from the job file"

# the device to destroy named by --set or ${VAR}: refused
printf '[wr]\nrw=write\nsize=4m\nbs=64k\ndirect=1\n' >"$T/n.fio"
expect 2 "not by --set" 1 fio "$T/n.fio" --set "filename=$dev" --allow-destroy
printf '[wr]\nrw=write\nsize=4m\nbs=64k\ndirect=1\nfilename=${SC_FIO_DEV}\n' >"$T/e.fio"
SC_FIO_DEV=$dev expect 2 'not by ${VAR}' 1 fio "$T/e.fio" --allow-destroy
marker_kept "$dev" "a device named by --set or \${VAR}"

# a filesystem signature: the guard refuses even with --allow-destroy
mkfs.ext4 -q -F "$dev"
before=$(head -c 2M "$dev" | sha256sum)
expect 2 "signature" 1 fio "$T/w.fio" --allow-destroy
[ "$(head -c 2M "$dev" | sha256sum)" = "$before" ] || fail "the ext4 device was written"

# a blank device: written with --allow-destroy, and read back by a second
# job file that verifies what the first wrote (crc32c headers)
dd if=/dev/zero of="$dev" bs=1M count=16 oflag=direct status=none
cat >"$T/v.fio" <<FIO
[global]
ioengine=libaio
direct=1
bs=64k
size=4m
filename=$dev

[wr]
rw=write
verify=crc32c
FIO
expect 0 "" 1 fio "$T/v.fio" --allow-destroy
python3 - "$T/out/results.json" <<'PY' || fail "the write and its verify pass"
import json, sys
d = json.load(open(sys.argv[1]))
names = [p["name"] for p in d["phases"]]
assert names == ["wr", "wr.verify"], names
for p in d["phases"]:
    assert p["status"] in ("ok", "complete", "done"), (p["name"], p["status"])
PY
# reads of the device need no --allow-destroy
printf '[rd]\nrw=read\nbs=64k\nsize=4m\ndirect=1\nfilename=%s\n' "$dev" >"$T/r.fio"
expect 0 "" 1 fio "$T/r.fio"
echo "test_fio_guard: ok"
