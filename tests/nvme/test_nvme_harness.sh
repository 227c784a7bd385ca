#!/usr/bin/env bash
# The NVMe tier's harness: that it really runs NVMe, and that what it hands
# back can be trusted.
#   - A guest without NVMe controllers fails a test (nvme_guest ends it
#     with "the guest shows no /dev/nvme0n1"); it is never a skip or a pass.
#   - In a guest with one controller, the command's exit status comes back
#     unchanged (7), its stdout and stderr come back apart, a file it
#     writes under --out is on the host, and the guest's nvme0n1 is the
#     controller it was given (its serial).
#   - A command that outlives --timeout is killed: exit 124, in about the
#     time given, and no QEMU is left running.
#   - A bad option exits 125 naming it.
. "$(dirname "$0")/nvme_lib.sh"
VM=$SC_SOURCE_DIR/scripts/nvme-vm.sh

# 1. no NVMe: nvme_guest must fail the test (run it in a subshell)
echo 'echo guest-script-ran >"$T/ran"' >"$T/noop.sh"
rc=0
(nvme_guest "$T/noop.sh") >"$T/none.log" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || { cat "$T/none.log"; fail "a guest without NVMe passed"; }
grep -q "the guest shows no /dev/nvme0n1" "$T/none.log" || { cat "$T/none.log"; fail "no-NVMe message"; }
[ ! -e "$T/ran" ] || fail "the test's script ran in a guest without NVMe"
echo "a guest without NVMe: the test fails (exit $rc): $(grep -o 'the guest shows no /dev/nvme0n1' "$T/none.log")"

# 2. exit status, stdout, stderr and files through one NVMe guest
rc=0
bash "$VM" --timeout 200 --out "$T/o" --nvme serial=SCHN0001,size=16M -- \
	bash -c 'echo out-line; echo err-line >&2; tr -d " " </sys/block/nvme0n1/device/serial >'"$T/o"'/serial; exit 7' \
	>"$T/stdout" 2>"$T/stderr" || rc=$?
[ "$rc" -eq 7 ] || { cat "$T/stdout" "$T/stderr"; fail "exit status $rc, not the command's 7"; }
grep -qx out-line "$T/stdout" || fail "stdout: $(cat "$T/stdout")"
grep -qx err-line "$T/stderr" || fail "stderr: $(cat "$T/stderr")"
! grep -q err-line "$T/stdout" || fail "stderr came out on stdout"
[ "$(cat "$T/o/serial")" = SCHN0001 ] || fail "nvme0n1's serial: $(cat "$T/o/serial" 2>&1)"
echo "exit status 7, stdout and stderr apart, nvme0n1 serial SCHN0001 in a file under --out"

# 3. timeout: 124, QEMU gone
start=$SECONDS rc=0
bash "$VM" --timeout 12 --nvme serial=SCHN0002,size=16M -- sleep 600 >"$T/to.log" 2>&1 || rc=$?
took=$((SECONDS - start))
[ "$rc" -eq 124 ] || { cat "$T/to.log"; fail "timeout: exit $rc, not 124"; }
[ "$took" -lt 45 ] || fail "timeout of 12 s took $took s"
grep -q "timed out after 12 s" "$T/to.log" || fail "timeout message: $(tail -3 "$T/to.log")"
! pgrep -f "qemu-system-x86_64.*SCHN0002" >/dev/null || fail "QEMU still running after the timeout"
echo "--timeout 12 with sleep 600: exit 124 after $took s, no QEMU left"

# 4. a bad option
rc=0
bash "$VM" --nvme serial=X,size=16M,colour=red -- true >"$T/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 125 ] || fail "bad SPEC key: exit $rc, not 125"
grep -q "unknown key 'colour'" "$T/bad.log" || fail "bad SPEC key message: $(cat "$T/bad.log")"
echo "a bad --nvme key: exit 125: $(cat "$T/bad.log")"
echo PASS
