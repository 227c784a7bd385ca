#!/usr/bin/env bash
# test_layers.sh -- the tree keeps its architecture (issue 25): no files
# that call or include each other in a cycle, no include against the
# rooms' order, no two source files of one name (scripts/check_layers.py
# says which).  On main before the
# split it found 3 call cycles (11 config files, 5 report files, 2 results
# files) and 1 include against the order.
. "$(dirname "$0")/lib.sh"

python3 "$SC_SOURCE_DIR/scripts/check_layers.py" "$SC_SOURCE_DIR" || fail "the layers (above)"
# the checker sees each kind of finding in a copy that has one
cp -r "$SC_SOURCE_DIR/worker" "$SC_SOURCE_DIR/proto" "$SC_SOURCE_DIR/coordinator" "$T/"
cp "$T/coordinator/report/json.c" "$T/worker/json.c"
printf '#include "report/report.h"\n' >>"$T/worker/units.h"
rc=0
python3 "$SC_SOURCE_DIR/scripts/check_layers.py" "$T" >"$T/find.txt" || rc=$?
[ "$rc" = 1 ] || fail "a broken copy: exit $rc"
grep -q '^json.c: one name, 2 files' "$T/find.txt" || fail "no duplicate name: $(cat "$T/find.txt")"
grep -q '^worker/units.h includes coordinator/report/report.h' "$T/find.txt" ||
	fail "no include against the order: $(cat "$T/find.txt")"
echo PASS
