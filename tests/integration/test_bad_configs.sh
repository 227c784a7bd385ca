#!/usr/bin/env bash
# Every malformed config of tests/data/bad_configs/ makes the binary exit 2
# before any I/O, with the message and location its first line expects
# ("# expect: @P:LINE:COL: key.path: text", @P the file, @D the target dir).
. "$(dirname "$0")/lib.sh"

export SC_TEST_DIR="$T/target"
mkdir "$SC_TEST_DIR"
n=0
for cfg in "$SC_SOURCE_DIR"/tests/data/bad_configs/*.yaml; do
	want=$(head -n1 "$cfg" | sed -n 's/^# expect: //p')
	[ -n "$want" ] || fail "$cfg: no first line '# expect: MESSAGE'"
	want=${want//@P/$cfg}
	want=${want//@D/$SC_TEST_DIR}
	rc=0
	# one process, no mpirun: a singleton MPI start is quicker
	"$SC_BIN" "$cfg" --dry-run --output "$T/out" >"$T/out.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$T/out.log"; fail "$cfg: exit $rc, want 2"; }
	got=$(grep -m1 '^ssdcluster: ' "$T/out.log" || true)
	case "$got" in
	"ssdcluster: $want"*) ;;
	*) fail "$cfg:
  got:      $got
  expected: ssdcluster: $want..." ;;
	esac
	[ ! -e "$T/out" ] || fail "$cfg: created the output folder"
	[ "$(count_entries "$SC_TEST_DIR")" -eq 0 ] || fail "$cfg: wrote to the target"
	n=$((n + 1))
done
[ "$n" -ge 25 ] || fail "only $n bad configs"
echo "ok: $n bad configs refused with exit 2 and their message"
echo PASS
