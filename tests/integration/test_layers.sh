#!/usr/bin/env bash
# test_layers.sh -- the tree keeps its architecture (issue 25): no files
# that call or include each other in a cycle, no include against the
# rooms' order (scripts/check_layers.py says which).  On main before the
# split it found 3 call cycles (11 config files, 5 report files, 2 results
# files) and 1 include against the order.
. "$(dirname "$0")/lib.sh"

python3 "$SC_SOURCE_DIR/scripts/check_layers.py" "$SC_SOURCE_DIR" || fail "the layers (above)"
echo PASS
