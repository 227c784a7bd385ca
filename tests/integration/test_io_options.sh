#!/usr/bin/env bash
# The io_uring options on 2 ranks with a temp-dir target (files on the
# local filesystem), one option per phase: the run exits 0 and every phase
# moves all its bytes; results.json's io_options gives, per option asked
# (and only those), asked_ranks 2 and either unavailable_ranks 0 (used) or
# 2 with a reason naming the option.  hipri and passthrough on a file MUST
# be unavailable, with their reasons, and rank 0 prints one note line for
# each.  Where sqpoll is used, each rank's kernel SQ thread (iou-sqp-PID)
# is seen in /proc while the phase runs.  hipri with direct: false is a
# config error (exit 2, at the key).  As root, passthrough on a loop
# device made here (a block device, not NVMe): exit 0, the bytes moved the
# normal way, unavailable with a reason naming the loop device.
. "$(dirname "$0")/lib.sh"

IO_KIB=2048 # bytes each rank reads in an io_size phase: 2 MiB
mkdir -p "$T/target"
cat >"$T/opts.yaml" <<YAML
targets:
  - path: $T/target
defaults:
  rw: randread
  bs: 4KiB
  size: 4MiB
  iodepth: 8
  direct: true
phases:
  - name: sqpoll
    sqpoll: true
    runtime: 3s
  - name: hipri
    hipri: true
    io_size: ${IO_KIB}KiB
  - name: passthrough
    passthrough: true
    io_size: ${IO_KIB}KiB
  - name: plain
    io_size: ${IO_KIB}KiB
YAML

# Watch for the ranks' SQ threads while the run goes: a line "PID" per
# rank process seen with a thread iou-sqp-PID.
watch_sqp() {
	local end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ] && [ ! -e "$T/done" ]; do
		for pid in $(pgrep -f "$T/opts.yaml" || true); do
			grep -qs "^iou-sqp-$pid\$" /proc/"$pid"/task/*/comm && echo "$pid"
		done
		sleep 0.2
	done | sort -u >"$T/sqp.pids"
}
watch_sqp &
watcher=$!
rc=0
sc_mpirun 2 "$T/opts.yaml" --output "$T/out" || rc=$?
touch "$T/done"
wait "$watcher"
[ "$rc" = 0 ] || { cat "$T/out.log"; fail "the run exited $rc, want 0 (unavailable is not a failure)"; }

python3 - "$T/out/results.json" "$IO_KIB" "$(wc -l <"$T/sqp.pids")" <<'PY' || fail "results.json"
import json, sys
doc = json.load(open(sys.argv[1]))
io_bytes = int(sys.argv[2]) * 1024
sqp_threads = int(sys.argv[3])
phases = {p["name"]: p for p in doc["phases"]}
assert list(phases) == ["sqpoll", "hipri", "passthrough", "plain"], list(phases)
for name, p in phases.items():
    c = p["cluster"]
    assert p["status"] == "ok", (name, p["status"])
    assert c["errors"] == 0, (name, c["errors"])
    if name == "sqpoll":
        assert c["bytes_read"] > 0 and c["bytes_read"] % 4096 == 0, (name, c["bytes_read"])
    else:
        assert c["bytes_read"] == 2 * io_bytes, (name, c["bytes_read"], 2 * io_bytes)
    for r in p["ranks"]:
        assert r["bytes_read"] > 0, (name, r["rank"])
assert "io_options" not in phases["plain"], phases["plain"].get("io_options")
for name in ("sqpoll", "hipri", "passthrough"):
    opts = phases[name]["io_options"]
    assert list(opts) == [name], (name, opts)
    o = opts[name]
    assert o["asked_ranks"] == 2, (name, o)
    assert o["unavailable_ranks"] in (0, 2), (name, o)
    if o["unavailable_ranks"]:
        assert name.lower() in o["why"].lower(), (name, o)
        for r in phases[name]["ranks"]:
            assert r["io_options_note"].startswith(name + ": "), (name, r)
    else:
        assert o["why"] is None, (name, o)
        assert all("io_options_note" not in r for r in phases[name]["ranks"]), name
plan = [p for p in doc["plan"]["phases"]]
assert plan[0]["sqpoll"] is True and plan[0]["sqpoll_cpu"] == -1 and plan[0]["hipri"] is False, plan[0]
assert plan[1]["hipri"] is True and plan[2]["passthrough"] is True, plan[1:3]
assert not any(plan[3][k] for k in ("sqpoll", "hipri", "passthrough")), plan[3]
h, pt, sq = (phases[n]["io_options"][n] for n in ("hipri", "passthrough", "sqpoll"))
assert h["unavailable_ranks"] == 2, h
assert h["why"].startswith("hipri needs a block device with poll queues (target is a file on "), h
assert pt["unavailable_ranks"] == 2, pt
assert pt["why"].startswith(
    "passthrough needs a block device that is an NVMe namespace; target is a file on "), pt
if sq["unavailable_ranks"] == 0:
    assert sqp_threads == 2, f"sqpoll used, but {sqp_threads} rank(s) had an iou-sqp thread"
    print(f"ok: sqpoll used on both ranks, each with its iou-sqp thread")
else:
    assert sq["why"].startswith("kernel refused IORING_SETUP_SQPOLL"), sq
    print(f"ok: sqpoll unavailable here: {sq['why']}")
print(f"ok: hipri unavailable: {h['why']}")
print(f"ok: passthrough unavailable: {pt['why']}")
PY
echo "ok: every phase moved its bytes; io_options only where asked; the plan echo has the keys"

for opt in hipri passthrough; do
	n=$(grep -c "^ssdcluster: phase $opt: note: $opt unavailable on 2 of 2 ranks: $opt needs " \
		"$T/out.log" || true)
	[ "$n" = 1 ] || { cat "$T/out.log"; fail "rank 0 printed $n note lines for $opt, want 1"; }
done
grep -q "note: sqpoll unavailable" "$T/out.log" && [ -s "$T/sqp.pids" ] &&
	fail "a note says sqpoll is unavailable, but the SQ threads ran"
grep -q "phase plain: note" "$T/out.log" && fail "a note for a phase that asked nothing"
echo "ok: rank 0 notes each option some rank ran without, once"

# the dry run's plan names each phase's options
"$SC_BIN" "$T/opts.yaml" --dry-run --output "$T/dry" >"$T/dry.log" 2>&1 || fail "dry run"
for opt in sqpoll hipri passthrough; do
	grep -q "^    io_uring options: $opt (each where the kernel and target have it)\$" "$T/dry.log" ||
		{ cat "$T/dry.log"; fail "the dry run does not name $opt"; }
done
[ "$(grep -c "io_uring options" "$T/dry.log")" = 3 ] || fail "an options line for the plain phase"
echo "ok: the dry run names each phase's options"

# passthrough on a block device that is not an NVMe namespace: a loop
# device over an image file made here (read only)
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	truncate -s 16M "$T/loop.img"
	LOOP=$(losetup --find --show --direct-io=on "$T/loop.img") || fail "losetup"
	trap 'losetup -d "$LOOP"; rm -rf "$T"' EXIT
	cat >"$T/pt.yaml" <<YAML
targets:
  - path: $LOOP
phases:
  - name: pt
    rw: randread
    bs: 4KiB
    size: 8MiB
    iodepth: 8
    direct: true
    passthrough: true
    io_size: ${IO_KIB}KiB
YAML
	rc=0
	sc_mpirun 1 "$T/pt.yaml" --output "$T/ptout" || rc=$?
	[ "$rc" = 0 ] || { cat "$T/out.log"; fail "passthrough on $LOOP exited $rc, want 0"; }
	python3 - "$T/ptout/results.json" "$IO_KIB" "${LOOP#/dev/}" <<'PY' || fail "results.json of $LOOP"
import json, sys
doc = json.load(open(sys.argv[1]))
io_bytes, loop = int(sys.argv[2]) * 1024, sys.argv[3]
p = doc["phases"][0]
c = p["cluster"]
assert p["status"] == "ok" and c["errors"] == 0, (p["status"], c["errors"])
assert c["bytes_read"] == io_bytes, (c["bytes_read"], io_bytes)
o = p["io_options"]["passthrough"]
assert o["asked_ranks"] == 1 and o["unavailable_ranks"] == 1, o
want = ("passthrough needs a block device that is an NVMe namespace; "
        f"target is a block device ({loop})")
assert o["why"] == want, (o["why"], want)
print(f"ok: {loop}: {c['bytes_read']} B read the normal way; passthrough: {o['why']}")
PY
	# a write with passthrough asked for gets past no opt-in it lacks: the
	# device's guard refuses the run before any engine opens anything
	head -c 16M /dev/urandom >"$T/loop.img.ref" && dd if="$T/loop.img.ref" of="$LOOP" bs=1M \
		oflag=direct status=none || fail "seeding $LOOP"
	sed -e 's/rw: randread/rw: randwrite/' "$T/pt.yaml" >"$T/ptw.yaml"
	for opt in "" "--allow-destroy"; do
		rc=0
		sc_mpirun 1 "$T/ptw.yaml" --output "$T/ptw$opt" $opt || rc=$?
		[ "$rc" = 2 ] || { cat "$T/out.log"; fail "passthrough write on $LOOP without allow_destroy in the config ${opt:+(with $opt) }exited $rc, want 2"; }
		cmp -s "$T/loop.img.ref" "$LOOP" || fail "passthrough write run changed $LOOP though refused"
	done
	echo "ok: a passthrough write on $LOOP without both opt-ins: exit 2, the device unchanged"
else
	echo "note: not root or no losetup: passthrough on a loop device was left out"
fi

# hipri: true with direct: false is a config error, at the key
cat >"$T/bad.yaml" <<YAML
targets:
  - path: $T/target
phases:
  - rw: randread
    direct: false
    hipri: true
YAML
rc=0
"$SC_BIN" "$T/bad.yaml" --dry-run --output "$T/bad-out" >"$T/bad.log" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$T/bad.log"; fail "hipri with direct: false exited $rc, want 2"; }
grep -q "bad.yaml:6:12: phases.0.hipri: hipri: true polls for completions, which only O_DIRECT" \
	"$T/bad.log" || { cat "$T/bad.log"; fail "hipri with direct: false: message"; }
echo "ok: hipri with direct: false is exit 2 at the key"
