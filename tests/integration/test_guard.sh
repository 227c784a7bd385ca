#!/usr/bin/env bash
# The destroy guard on loop devices and files: a file or block device is
# written only with allow_destroy: true on the target AND --allow-destroy,
# on every rank for its own target (hosts: too); a device in use (mounted,
# a mounted partition, claimed O_EXCL) or carrying a signature is refused
# even then, and whatever was refused is left exactly as it was.  Also the
# ways around it an attacker would try: links, .., mknod, --set, defaults:,
# checkpoint and ingest phases on a device.
. "$(dirname "$0")/guard_lib.sh"

# ---- (1) ext4 on a device: refused even with both opt-ins, and intact ----
new_loop fs 32M
FS=$LOOP
mkfs.ext4 -q "$FS"
mkdir -p "$T/m"
mount "$FS" "$T/m" && echo "precious" >"$T/m/data.txt" && umount "$T/m"
config "$T/fs.yaml" "$FS" "allow_destroy: true"
expect 2 "carries ext4 (filesystem)" 2 "$T/fs.yaml" --allow-destroy
fsck.ext4 -n "$FS" >/dev/null 2>&1 || fail "ext4: fsck -n finds damage after a refused run"
[ "$(blkid -p -o value -s TYPE "$FS")" = ext4 ] || fail "ext4: blkid no longer says ext4"
mount -o ro "$FS" "$T/m"
[ "$(cat "$T/m/data.txt")" = precious ] || fail "ext4: the file inside changed"
umount "$T/m"
echo "ok: a device holding ext4 is refused with both opt-ins, and survives"
# the same with hosts: (checked by each rank, not by rank 0's config check)
config "$T/fsh.yaml" "$FS" 'hosts: "*"' "allow_destroy: true"
expect 2 "carries ext4 (filesystem)" 2 "$T/fsh.yaml" --allow-destroy
[ "$(blkid -p -o value -s TYPE "$FS")" = ext4 ] || fail "ext4 (hosts): blkid no longer says ext4"
echo "ok: ... also on a hosts: target"
config "$T/fsw.yaml" "$FS" "allow_destroy: true" "wipe_signatures_ok: true"
expect 0 "" 2 "$T/fsw.yaml" --allow-destroy
[ -z "$(blkid -p -o value -s TYPE "$FS")" ] || fail "wipe_signatures_ok: the run did not write the device"
echo "ok: with wipe_signatures_ok it runs (2 ranks on one device)"

# ---- (2) a mounted device is refused ----
new_loop mnt 32M
MNT=$LOOP
mkfs.ext4 -q "$MNT"
mkdir -p "$T/m2"
mount "$MNT" "$T/m2"
echo "live" >"$T/m2/data.txt"
sync
for h in "" 'hosts: "*"'; do
	config "$T/mnt.yaml" "$MNT" ${h:+"$h"} "allow_destroy: true" "wipe_signatures_ok: true"
	expect 2 "mounted" 1 "$T/mnt.yaml" --allow-destroy
done
[ "$(cat "$T/m2/data.txt")" = live ] || fail "mounted: the file inside changed"
umount "$T/m2"
fsck.ext4 -n "$MNT" >/dev/null 2>&1 || fail "mounted: fsck -n finds damage"
echo "ok: a mounted device is refused"

# ---- (3) a device whose partition is mounted ----
truncate -s 64M "$T/part.img"
printf 'label: dos\nstart=2048, size=40960, type=83\n' | sfdisk -q "$T/part.img"
new_loop part 64M -P
PART=$LOOP
[ -b "${PART}p1" ] || partx -a "$PART" 2>/dev/null
[ -b "${PART}p1" ] || skip "no partition device for $PART"
mkfs.ext4 -q "${PART}p1"
mkdir -p "$T/m3"
mount "${PART}p1" "$T/m3"
echo "inside" >"$T/m3/data.txt"
sync
config "$T/part.yaml" "$PART" "allow_destroy: true" "wipe_signatures_ok: true"
expect 2 "which is mounted, itself or a partition, on $T/m3 (unmount it first)" 1 "$T/part.yaml" --allow-destroy
config "$T/parth.yaml" "$PART" 'hosts: "*"' "allow_destroy: true" "wipe_signatures_ok: true"
expect 2 "its partition $(basename "$PART")p1" 2 "$T/parth.yaml" --allow-destroy
grep -qF "is mounted on $T/m3" "$T/out.log" || { cat "$T/out.log"; fail "partition: no mount point named"; }
[ "$(blkid -p -o value -s PTTYPE "$PART")" = dos ] || fail "partition: the partition table is gone"
[ "$(cat "$T/m3/data.txt")" = inside ] || fail "partition: the file inside changed"
umount "$T/m3"
fsck.ext4 -n "${PART}p1" >/dev/null 2>&1 || fail "partition: fsck -n finds damage"
# unmounted, it still has partitions
expect 2 "it has partitions ($(basename "$PART")p1)" 1 "$T/part.yaml" --allow-destroy
[ "$(blkid -p -o value -s PTTYPE "$PART")" = dos ] || fail "partition: the partition table is gone"
echo "ok: a device with a (mounted) partition is refused, table and filesystem intact"

# ---- (4) hosts: without allow_destroy ----
new_loop blank 32M
BL=$LOOP
mark "$BL"
config "$T/h.yaml" "$BL" 'hosts: "*"'
expect 2 "set allow_destroy: true on that target and add --allow-destroy" 2 "$T/h.yaml" --allow-destroy
grep -qF "rank 1: " "$T/out.log" || { cat "$T/out.log"; fail "hosts: rank 1 did not report its own check"; }
marker_kept "$BL" "hosts without allow_destroy"
expect 2 "allow_destroy" 2 "$T/h.yaml"
marker_kept "$BL" "hosts, no opt-in at all"
echo "ok: a hosts: target without allow_destroy is refused on every rank"

# ---- (5) the target opts in, the command line does not ----
config "$T/t.yaml" "$BL" "allow_destroy: true"
expect 2 "t.yaml:3:20: targets.0.allow_destroy: phase wr would overwrite" 2 "$T/t.yaml"
grep -qF "lacks --allow-destroy" "$T/out.log" || fail "no --allow-destroy in the message"
marker_kept "$BL" "no --allow-destroy"
config "$T/th.yaml" "$BL" 'hosts: "*"' "allow_destroy: true"
expect 2 "the command line lacks --allow-destroy" 2 "$T/th.yaml"
marker_kept "$BL" "hosts, no --allow-destroy"
echo "ok: allow_destroy without --allow-destroy is refused"

# ---- (6) a blank device with both opt-ins runs and is written ----
expect 0 "" 2 "$T/t.yaml" --allow-destroy
[ "$(head_sum "$BL")" != "$MARK" ] || fail "blank: the run did not write offset 0"
python3 - "$T/out/results.json" <<'PY' || fail "blank: results.json"
import json, sys
r = json.load(open(sys.argv[1]))
b = r["phases"][0]["cluster"]["total_bytes"]
assert b == 2 * (4 << 20), b
PY
expect 0 "" 2 "$T/th.yaml" --allow-destroy
echo "ok: a blank device with both opt-ins runs on 2 ranks and is written"

# ---- (7) reading needs no opt-in ----
mark "$BL"
for h in "" 'hosts: "*"'; do
	config "$T/r.yaml" "$BL" ${h:+"$h"}
	sed -i 's/rw: write/rw: randread/' "$T/r.yaml"
	expect 0 "" 2 "$T/r.yaml"
done
marker_kept "$BL" "read-only phase"
echo "ok: a read-only phase on a device needs no opt-in"

# ---- (8) an existing regular file ----
head -c $((16 << 20)) /dev/urandom >"$T/file.dat"
SUM=$(sha256sum <"$T/file.dat")
config "$T/f.yaml" "$T/file.dat"
expect 2 "set allow_destroy: true" 1 "$T/f.yaml" --allow-destroy
config "$T/fh.yaml" "$T/file.dat" 'hosts: "*"'
expect 2 "targets.0 ($T/file.dat, a file): phase wr writes to it" 2 "$T/fh.yaml" --allow-destroy
config "$T/fa.yaml" "$T/file.dat" "allow_destroy: true"
expect 2 "lacks --allow-destroy" 1 "$T/fa.yaml"
[ "$(sha256sum <"$T/file.dat")" = "$SUM" ] || fail "file: changed by a refused run"
expect 0 "" 2 "$T/fa.yaml" --allow-destroy
[ "$(sha256sum <"$T/file.dat")" != "$SUM" ] || fail "file: both opt-ins, but not written"
echo "ok: an existing file is written only with both opt-ins"

# ---- (9) a device another process holds O_EXCL ----
mark "$BL"
python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(600)
' "$BL" "$T/held" &
PIDS+=($!)
for _ in $(seq 100); do [ -e "$T/held" ] && break; sleep 0.1; done
[ -e "$T/held" ] || fail "the O_EXCL helper did not start"
expect 2 "cannot be opened exclusively (O_EXCL: Device or resource busy)" 2 "$T/t.yaml" --allow-destroy
marker_kept "$BL" "held O_EXCL"
kill "${PIDS[-1]}"
wait "${PIDS[-1]}" 2>/dev/null || true
echo "ok: a device claimed O_EXCL by another process is refused"

# ---- ways around the guard ----
mark "$BL"
# a /dev/disk/by-id style link, with and without hosts:
mkdir -p "$T/by-id"
ln -s "$BL" "$T/by-id/nvme-Example_SSD_1234"
for h in "" 'hosts: "*"'; do
	config "$T/a.yaml" "$T/by-id/nvme-Example_SSD_1234" ${h:+"$h"}
	expect 2 "allow_destroy" 2 "$T/a.yaml" --allow-destroy
done
marker_kept "$BL" "symlink"
# a path through ..
config "$T/a.yaml" "$T/../..$BL" 'hosts: "*"'
expect 2 "allow_destroy" 2 "$T/a.yaml" --allow-destroy
config "$T/a.yaml" "$T/../..$BL"
expect 2 "allow_destroy" 2 "$T/a.yaml" --allow-destroy
marker_kept "$BL" "path with .."
# a device node of our own making, elsewhere
mknod "$T/node" b "$((16#$(stat -c '%t' "$BL")))" "$((16#$(stat -c '%T' "$BL")))"
for h in "" 'hosts: "*"'; do
	config "$T/a.yaml" "$T/node" ${h:+"$h"}
	expect 2 "allow_destroy" 2 "$T/a.yaml" --allow-destroy
done
marker_kept "$BL" "mknod"
echo "ok: links, .. and mknod'ed nodes are refused like the device itself"
# the opt-ins cannot come from --set or defaults:
config "$T/a.yaml" "$BL" 'hosts: "*"'
expect 2 "allow_destroy is never taken from --set" 2 "$T/a.yaml" --allow-destroy --set targets.0.allow_destroy=true
expect 2 "allow_destroy is never taken from --set" 2 "$T/a.yaml" --allow-destroy --set allow_destroy=true
config "$T/a.yaml" "$BL" 'hosts: "*"' "allow_destroy: true"
expect 2 "wipe_signatures_ok is never taken from --set" 2 "$T/a.yaml" --allow-destroy --set wipe_signatures_ok=true
expect 2 "set allow_destroy: true on that target" 2 "$T/a.yaml" --allow-destroy --set targets.0.allow_destroy=false
config "$T/d.yaml" "$BL" 'hosts: "*"'
sed -i 's/^phases:/defaults:\n  allow_destroy: true\nphases:/' "$T/d.yaml"
expect 2 "allow_destroy" 2 "$T/d.yaml" --allow-destroy
marker_kept "$BL" "--set and defaults:"
# --set of a directory target's path to a device
mkdir -p "$T/dir"
config "$T/dir.yaml" "$T/dir"
expect 2 "allow_destroy" 2 "$T/dir.yaml" --allow-destroy --set "targets.0.path=$BL"
config "$T/dir.yaml" "$T/dir" 'hosts: "*"'
expect 2 "allow_destroy" 2 "$T/dir.yaml" --allow-destroy --set "targets.0.path=$BL"
marker_kept "$BL" "--set targets.0.path"
echo "ok: the opt-ins come from neither --set nor defaults:, and --set path is guarded"
# a target that opts in cannot be moved: not by --set of its path or hosts
# (dotted or bare), nor by a ${VAR} in them; the opt-ins never come from
# the environment.  The file it names and the device it would move to are
# both left as they were.
head -c $((8 << 20)) /dev/urandom >"$T/optin.dat"
OPTIN=$(sha256sum <"$T/optin.dat")
mark "$BL"
for h in "" 'hosts: "*"'; do
	config "$T/o.yaml" "$T/optin.dat" ${h:+"$h"} "allow_destroy: true"
	for s in "targets.0.path=$BL" "path=$BL" "targets.0.path=$T/by-id/nvme-Example_SSD_1234"; do
		expect 2 "path of a target that says allow_destroy: true is never taken from --set" \
			2 "$T/o.yaml" --allow-destroy --set "$s"
	done
	expect 2 "hosts of a target that says allow_destroy: true is never taken from --set" \
		2 "$T/o.yaml" --allow-destroy --set 'targets.0.hosts=*'
	expect 2 "hosts of a target that says allow_destroy: true is never taken from --set" \
		2 "$T/o.yaml" --allow-destroy --set 'hosts=nosuchhost'
	sed "s|path: $T/optin.dat|path: \${SC_VICTIM:-$T/optin.dat}|" "$T/o.yaml" >"$T/e.yaml"
	SC_VICTIM=$BL expect 2 "is never taken from the environment (\"$BL\" came from a \${VAR})" \
		2 "$T/e.yaml" --allow-destroy
	expect 2 "is never taken from the environment" 2 "$T/e.yaml" --allow-destroy
	config "$T/v.yaml" "$BL" ${h:+"$h"} 'allow_destroy: ${SC_OPTIN}'
	SC_OPTIN=true expect 2 "allow_destroy is never taken from the environment" 2 "$T/v.yaml" --allow-destroy
done
marker_kept "$BL" "an opted-in target moved by --set or \${VAR}"
[ "$(sha256sum <"$T/optin.dat")" = "$OPTIN" ] || fail "opted-in file changed by a refused run"
# what does not move the target still works: --set of another key
config "$T/o.yaml" "$T/optin.dat" "allow_destroy: true"
expect 0 "" 1 "$T/o.yaml" --allow-destroy --set size=2MiB --set "targets.0.capacity=8MiB"
[ "$(sha256sum <"$T/optin.dat")" != "$OPTIN" ] || fail "opted-in file: --set size, but not written"
marker_kept "$BL" "an opted-in file target run with --set size"
echo "ok: an opted-in target is moved by neither --set (path, hosts) nor \${VAR}"
# checkpoint and ingest phases on a device, directly or behind a link that
# rank 0 takes for a directory (hosts:)
printf 'targets:\n  - path: PATH\n    allow_destroy: true\n    wipe_signatures_ok: true\n    HOSTS\nphases:\n' >"$T/head.yaml"
cat "$T/head.yaml" - >"$T/ck.yaml" <<YAML
  - name: ck
    workload: checkpoint
    model: {layers: 2, hidden: 256, ffn_hidden: 512, heads: 4, vocab: 1000}
YAML
cat "$T/head.yaml" - >"$T/in.yaml" <<YAML
  - name: in
    workload: ingest
    files: 2
    file_size: 1MiB
    sample_size: 128KiB
    batch: 2
YAML
for wl in ck in; do
	for p in "$BL" "$T/by-id/nvme-Example_SSD_1234"; do
		for h in "keep: false" 'hosts: "*"'; do
			sed "s|PATH|$p|; s|HOSTS|$h|" "$T/$wl.yaml" >"$T/x.yaml"
			expect 2 "" 2 "$T/x.yaml" --allow-destroy
		done
	done
done
marker_kept "$BL" "checkpoint and ingest phases"
echo "ok: checkpoint and ingest phases never write a device"
# an ingest dataset (it outlives runs, at a known path) planted with a link
# to the device, a device node, or a hard link to a file outside
DS="$T/dir/ssdcluster-datasets/in-2x1048576B"
sed "s|PATH|$T/dir|; s|HOSTS|keep: false|" "$T/in.yaml" >"$T/x.yaml"
mkdir -p "$DS"
ln -s "$BL" "$DS/file_0.dat"
ln -s "$BL" "$DS/file_1.dat"
expect 1 "it is a symbolic link" 1 "$T/x.yaml"
marker_kept "$BL" "ingest dataset: symbolic link"
rm -f "$DS"/file_*
mknod "$DS/file_0.dat" b "$((16#$(stat -c '%t' "$BL")))" "$((16#$(stat -c '%T' "$BL")))"
mknod "$DS/file_1.dat" b "$((16#$(stat -c '%t' "$BL")))" "$((16#$(stat -c '%T' "$BL")))"
expect 1 "file_0.dat: cannot create dataset file" 1 "$T/x.yaml"
marker_kept "$BL" "ingest dataset: device node"
rm -f "$DS"/file_*
echo "someone else's" >"$T/outside.txt"
ln "$T/outside.txt" "$DS/file_0.dat"
ln "$T/outside.txt" "$DS/file_1.dat"
expect 1 "the file has other names (3 hard links)" 1 "$T/x.yaml"
[ "$(cat "$T/outside.txt")" = "someone else's" ] || fail "ingest dataset: a hard-linked file outside was changed"
rm -f "$DS"/file_*
expect 0 "" 2 "$T/x.yaml"
echo "ok: an ingest dataset never writes through a link, a device node or a hard link"
# a checkpoint file at a path known in advance (a phase named "..", which
# may be refused outright) planted with a link to the device
mkdir -p "$T/ckdir/global_epoch1_step1"
for f in model_states optim_states; do
	ln -s "$BL" "$T/ckdir/global_epoch1_step1/zero_pp_rank_0_mp_rank_0_$f.pt"
done
sed "s|PATH|$T/ckdir|; s|HOSTS|keep: true|; s|name: ck|name: \"..\"|" "$T/ck.yaml" |
	grep -v "allow_destroy\|wipe_signatures_ok" >"$T/x.yaml"
rc=0
sc_mpirun 1 "$T/x.yaml" --output "$T/out" || rc=$?
[ "$rc" -ne 0 ] || { cat "$T/out.log"; fail "checkpoint through a planted link: exit 0"; }
marker_kept "$BL" "checkpoint file planted with a link to the device"
echo "ok: a checkpoint file never writes through a link to a device (exit $rc)"
echo "PASS"
